"""Pinhole camera with radial distortion, looking at a table.

World frame (cm): X = east (board printed columns increase), Y = south (printed rows
increase), Z = DOWN into the table (right-handed). The table top is the plane Z = 0;
a point at height h above the table has Z = -h. The printed grid of the board spans
X in [0, grid_w], Y in [0, grid_h] (outer card edges).

Image convention: pixel centres at integer coordinates, x right, y down.
"""
import numpy as np
import cv2


class Camera:
    def __init__(self, W, H, f, k1, k2, R, C, cx=None, cy=None):
        self.W, self.H, self.f = int(W), int(H), float(f)
        self.cx = (W - 1) / 2.0 if cx is None else cx
        self.cy = (H - 1) / 2.0 if cy is None else cy
        self.k1, self.k2 = float(k1), float(k2)
        self.R = np.asarray(R, np.float64)      # world -> camera rotation (rows = cam axes)
        self.C = np.asarray(C, np.float64)      # camera centre in world

    @staticmethod
    def look_at(W, H, f, k1, k2, target, dist, tilt, azim, roll):
        """Camera at `dist` from `target`, tilted `tilt` rad from straight down, placed
        towards horizontal direction `azim`; the image bottom points towards the camera's foot."""
        st, ct = np.sin(tilt), np.cos(tilt)
        hvec = np.array([np.cos(azim), np.sin(azim), 0.0])
        C = np.asarray(target, float) + dist * np.array([st * hvec[0], st * hvec[1], -ct])
        fwd = (np.asarray(target, float) - C) / dist
        y = hvec - hvec.dot(fwd) * fwd
        y /= np.linalg.norm(y)
        x = np.cross(y, fwd)
        cr, sr = np.cos(roll), np.sin(roll)
        x, y = cr * x + sr * y, -sr * x + cr * y
        R = np.stack([x, y, fwd])
        return Camera(W, H, f, k1, k2, R, C)

    # ---- forward -------------------------------------------------------------
    def distort(self, x, y):
        r2 = x * x + y * y
        s = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
        return x * s, y * s

    def project(self, P):
        """P (...,3) world -> (pix (...,2), depth (...))."""
        P = np.asarray(P, np.float64)
        Pc = (P - self.C) @ self.R.T
        z = Pc[..., 2]
        zs = np.where(np.abs(z) < 1e-6, 1e-6, z)
        x, y = self.distort(Pc[..., 0] / zs, Pc[..., 1] / zs)
        return np.stack([self.f * x + self.cx, self.f * y + self.cy], -1), z

    def jacobian_at(self, P):
        """2x2 Jacobian of the distortion at the (undistorted) image point of P, in pixels."""
        Pc = (np.asarray(P, float) - self.C) @ self.R.T
        x, y = Pc[0] / Pc[2], Pc[1] / Pc[2]
        e = 1e-4
        p0 = np.array(self.distort(x, y))
        jx = (np.array(self.distort(x + e, y)) - p0) / e
        jy = (np.array(self.distort(x, y + e)) - p0) / e
        return np.stack([jx, jy], 1)

    # ---- inverse -------------------------------------------------------------
    def rays(self, u, v):
        """Pixel coords (arrays) -> world ray directions (...,3) (not normalised)."""
        xd = (u - self.cx) / self.f
        yd = (v - self.cy) / self.f
        x, y = xd.copy(), yd.copy()
        for _ in range(10):
            r2 = x * x + y * y
            s = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / s, yd / s
        d = np.stack([x, y, np.ones_like(x)], -1)
        return d @ self.R          # = R^T d for each row

    def hit_height(self, d, h):
        """Intersect rays with plane at height h (Z=-h). Returns (X, Y, t); t<=0 = miss."""
        dz = d[..., 2]
        with np.errstate(divide='ignore', invalid='ignore'):
            t = (-h - self.C[2]) / dz
        t = np.where(dz > 1e-9, t, -1.0)
        return self.C[0] + t * d[..., 0], self.C[1] + t * d[..., 1], t


# ---- helpers for dense maps --------------------------------------------------
MAP_STEP = 8


def lowres_grid(W, H, s=MAP_STEP):
    """Sample positions such that cv2.resize(x s) + crop reproduces exact bilinear
    interpolation at every full-res pixel (see upsample)."""
    wl, hl = W // s + 2, H // s + 2
    j = np.arange(wl)
    i = np.arange(hl)
    xs = (j - 0.5) * s - 0.5
    ys = (i - 0.5) * s - 0.5
    return np.meshgrid(xs, ys)


def upsample(a, W, H, s=MAP_STEP):
    a = np.ascontiguousarray(a, np.float32)
    big = cv2.resize(a, (a.shape[1] * s, a.shape[0] * s), interpolation=cv2.INTER_LINEAR)
    return big[s:s + H, s:s + W]
