"""Camera model, projection helpers and texture warping (mip-mapped)."""
import math

import numpy as np
import cv2


def normalize(v):
    v = np.asarray(v, np.float64)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


class Camera:
    """Pinhole camera with radial distortion.

    World units mm, z up.  Output image W x H, focal f (output px), principal point (cx, cy),
    pixel centres at integer coordinates.  Distortion is defined from distorted normalised
    coordinates to undistorted ones: xu = xd * (1 + k1 rd^2 + k2 rd^4).
    Rendering happens in an undistorted 'canvas' at render scale rs (plus a margin), which
    is then remapped to the distorted render image and finally resized to W x H.
    """

    def __init__(self, W, H, f, cx, cy, R, C, k1, k2, rs):
        self.W, self.H, self.f, self.cx, self.cy = W, H, f, cx, cy
        self.R = np.asarray(R, np.float64)
        self.C = np.asarray(C, np.float64)
        self.k1, self.k2 = k1, k2
        self.rs = rs
        self.Wr, self.Hr = int(round(W * rs)), int(round(H * rs))
        self.fr = f * rs
        self.cxr = (cx + 0.5) * rs - 0.5
        self.cyr = (cy + 0.5) * rs - 0.5
        # canvas extent: undistort the border of the render image
        n = 64
        xs = np.concatenate([np.linspace(0, self.Wr - 1, n), np.full(n, self.Wr - 1), np.linspace(self.Wr - 1, 0, n), np.zeros(n)])
        ys = np.concatenate([np.zeros(n), np.linspace(0, self.Hr - 1, n), np.full(n, self.Hr - 1), np.linspace(self.Hr - 1, 0, n)])
        xd, yd = (xs - self.cxr) / self.fr, (ys - self.cyr) / self.fr
        fac = self._fac(xd * xd + yd * yd)
        ux, uy = self.fr * xd * fac + self.cxr, self.fr * yd * fac + self.cyr
        x0, y0 = math.floor(min(ux.min(), 0)) - 3, math.floor(min(uy.min(), 0)) - 3
        x1, y1 = math.ceil(max(ux.max(), self.Wr - 1)) + 3, math.ceil(max(uy.max(), self.Hr - 1)) + 3
        self.ox, self.oy = -x0, -y0
        self.Wc, self.Hc = x1 - x0 + 1, y1 - y0 + 1
        self.Kc = np.array([[self.fr, 0, self.cxr + self.ox], [0, self.fr, self.cyr + self.oy], [0, 0, 1.0]])
        self.t = -self.R @ self.C

    def _fac(self, r2):
        return 1 + self.k1 * r2 + self.k2 * r2 * r2

    # --- projections
    def to_cam(self, P):
        return (np.asarray(P, np.float64) - self.C) @ self.R.T

    def canvas(self, P):
        """World points (N,3) -> canvas pixel coords (N,2), depth (N,)."""
        Xc = self.to_cam(P)
        z = Xc[..., 2]
        zz = np.where(np.abs(z) < 1e-6, 1e-6, z)
        u = self.Kc[0, 0] * Xc[..., 0] / zz + self.Kc[0, 2]
        v = self.Kc[1, 1] * Xc[..., 1] / zz + self.Kc[1, 2]
        return np.stack([u, v], -1), z

    def cam_to_canvas(self, Xc):
        z = Xc[..., 2]
        return np.stack([self.Kc[0, 0] * Xc[..., 0] / z + self.Kc[0, 2], self.Kc[1, 1] * Xc[..., 1] / z + self.Kc[1, 2]], -1)

    def distort_norm(self, xu, yu):
        ru = np.hypot(xu, yu)
        rd = ru.copy()
        for _ in range(30):
            g = rd * self._fac(rd * rd) - ru
            dg = 1 + 3 * self.k1 * rd * rd + 5 * self.k2 * rd ** 4
            rd = rd - g / dg
        s = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return xu * s, yu * s

    def output_px(self, P):
        """World points -> final output image pixel coordinates (with distortion)."""
        Xc = self.to_cam(np.atleast_2d(P))
        xu, yu = Xc[:, 0] / Xc[:, 2], Xc[:, 1] / Xc[:, 2]
        xd, yd = self.distort_norm(xu, yu)
        return np.stack([self.f * xd + self.cx, self.f * yd + self.cy], -1)

    def plane_homography(self, A):
        """A: 4x3 matrix mapping (a, b, 1) -> homogeneous world (X, Y, Z, 1). Returns 3x3 to canvas."""
        P = self.Kc @ np.hstack([self.R, self.t[:, None]])
        return P @ A

    def ray_dirs(self, step):
        """World ray directions for a coarse grid over the canvas (every `step` px)."""
        ys = np.arange(0, self.Hc + step, step, dtype=np.float64)
        xs = np.arange(0, self.Wc + step, step, dtype=np.float64)
        xx, yy = np.meshgrid(xs, ys)
        dc = np.stack([(xx - self.Kc[0, 2]) / self.fr, (yy - self.Kc[1, 2]) / self.fr, np.ones_like(xx)], -1)
        return dc @ self.R, xs, ys

    def distortion_maps(self, ca=0.0):
        yy, xx = np.mgrid[0:self.Hr, 0:self.Wr].astype(np.float32)
        xd = (xx - np.float32(self.cxr)) / np.float32(self.fr)
        yd = (yy - np.float32(self.cyr)) / np.float32(self.fr)
        r2 = xd * xd + yd * yd
        fac = (1 + np.float32(self.k1) * r2 + np.float32(self.k2) * r2 * r2) * np.float32(self.fr)
        maps = []
        for s in ((1 + ca), 1.0, (1 - ca)) if ca else (1.0,):
            mx = xd * (fac * np.float32(s)) + np.float32(self.cxr + self.ox)
            my = yd * (fac * np.float32(s)) + np.float32(self.cyr + self.oy)
            maps.append((mx, my))
        return maps


def look_camera(C, target, roll):
    f = normalize(np.asarray(target, np.float64) - C)
    up = np.array([0, 0, 1.0])
    x = np.cross(f, up)
    if np.linalg.norm(x) < 1e-6:
        x = np.array([1.0, 0, 0])
    x = normalize(x)
    y = np.cross(f, x)
    c, s = math.cos(roll), math.sin(roll)
    x2 = c * x + s * y
    y2 = -s * x + c * y
    return np.stack([x2, y2, f])


def clip_near(Pc, zmin=30.0):
    """Clip polygon (camera coords, Nx3) against z >= zmin."""
    out = []
    n = len(Pc)
    for i in range(n):
        a, b = Pc[i], Pc[(i + 1) % n]
        ina, inb = a[2] >= zmin, b[2] >= zmin
        if ina:
            out.append(a)
        if ina != inb:
            t = (zmin - a[2]) / (b[2] - a[2])
            out.append(a + t * (b - a))
    return np.array(out)


def poly_canvas(cam, P, zmin=30.0):
    Pc = cam.to_cam(P)
    Pc = clip_near(Pc, zmin)
    if len(Pc) < 3:
        return None
    return cam.cam_to_canvas(Pc)


def fill_poly(img, pts, color, aa=True):
    """Fill a polygon (float coords) with sub-pixel precision."""
    if pts is None or len(pts) < 3:
        return
    p = np.round(np.asarray(pts) * 16).astype(np.int32)
    if np.abs(p).max() > 2 ** 27:
        return
    if img.ndim == 2:
        color = float(color) if np.isscalar(color) else float(color[0])
    else:
        color = tuple(float(c) for c in color)
    cv2.fillPoly(img, [p], color, cv2.LINE_AA if aa else cv2.LINE_8, shift=4)


def soft_blur(mask, sigma):
    """Gaussian blur of a 2-D mask; large sigmas are done at reduced resolution and only
    inside the bounding box of the non-zero content."""
    nz = cv2.findNonZero((mask > 1e-4).astype(np.uint8))
    if nz is None:
        return mask
    x, y, w, h = cv2.boundingRect(nz)
    pad = int(3 * sigma) + 2
    H, W = mask.shape
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
    sub = mask[y0:y1, x0:x1]
    out = np.zeros_like(mask)
    f = int(sigma / 2.5)
    if f >= 2:
        sw, sh = max(1, (x1 - x0) // f), max(1, (y1 - y0) // f)
        small = cv2.resize(sub, (sw, sh), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), sigma / f)
        out[y0:y1, x0:x1] = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    else:
        out[y0:y1, x0:x1] = cv2.GaussianBlur(sub, (0, 0), sigma)
    return out


def bbox_of(pts, W, H, pad=2):
    x0 = int(max(0, math.floor(pts[:, 0].min()) - pad))
    y0 = int(max(0, math.floor(pts[:, 1].min()) - pad))
    x1 = int(min(W, math.ceil(pts[:, 0].max()) + pad + 1))
    y1 = int(min(H, math.ceil(pts[:, 1].max()) + pad + 1))
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def warp_rgba(tex, Htc, box, max_levels=3, lod_bias=0.0):
    """Warp texture (uint8 or float32, HxWx4 with alpha) into canvas box (x0,y0,x1,y1) with
    homography Htc (texel -> canvas).  Uses a simple mip-map blend for minification.
    Returns float32 array (h, w, 4) in 0..1 (premultiplied not), alpha included."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    Hb = T @ Htc
    # lod on a coarse grid
    Hinv = np.linalg.inv(Hb)
    st = 16
    gx, gy = np.meshgrid(np.arange(0, w + st, st, dtype=np.float64), np.arange(0, h + st, st, dtype=np.float64))
    def m(px, py):
        q = Hinv @ np.stack([px.ravel(), py.ravel(), np.ones(px.size)])
        return q[0] / q[2], q[1] / q[2]
    ax, ay = m(gx, gy)
    bx, by = m(gx + 1, gy)
    cx_, cy_ = m(gx, gy + 1)
    det = np.abs((bx - ax) * (cy_ - ay) - (by - ay) * (cx_ - ax))
    lod = 0.5 * np.log2(np.maximum(det, 1e-9)) + lod_bias
    lod = np.clip(lod, 0, max_levels - 1).reshape(gx.shape)
    lmax = lod.max()
    scale = 1.0 / 255.0 if tex.dtype == np.uint8 else 1.0
    levels = [tex]
    while len(levels) - 1 < math.ceil(lmax - 1e-3) and min(levels[-1].shape[:2]) > 8:
        levels.append(cv2.pyrDown(levels[-1]))
    outs = []
    for k, lv in enumerate(levels):
        s = 2.0 ** k
        Sk = np.array([[1 / s, 0, 0], [0, 1 / s, 0], [0, 0, 1.0]])  # pyrDown keeps even texels
        Hk = Hb @ np.linalg.inv(Sk)
        o = cv2.warpPerspective(lv, Hk, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        outs.append(o.astype(np.float32) * scale)
    if len(outs) == 1:
        return outs[0]
    L = cv2.resize(lod.astype(np.float32), (gx.shape[1] * st, gx.shape[0] * st), interpolation=cv2.INTER_LINEAR)[:h, :w]
    res = np.zeros_like(outs[0])
    for k, o in enumerate(outs):
        wk = np.clip(1 - np.abs(L - k), 0, 1)
        if k == len(outs) - 1:
            wk = np.where(L >= k, 1.0, wk).astype(np.float32)
        res += o * wk[..., None]
    return res


def composite(canvas, box, rgba, occ=None, occ_val=1.0):
    x0, y0, x1, y1 = box
    a = rgba[..., 3:4]
    reg = canvas[y0:y1, x0:x1]
    reg *= (1 - a)
    reg += rgba[..., :3] * a
    if occ is not None:
        o = occ[y0:y1, x0:x1]
        np.maximum(o, a[..., 0] * occ_val, out=o)
