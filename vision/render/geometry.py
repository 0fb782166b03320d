"""Camera and board geometry: where each point of the table lands in the photo.

World coordinates are millimetres on the table: the board's centre at the origin, ``x``
along the printed rows (to the right as printed), ``y`` down the printed columns, ``z``
into the table (a point raised by ``h`` mm has ``z = -h``). The camera is a pinhole with
the principal point at the image centre and radial distortion
``r_d = r (1 + k1 r^2 + k2 r^4)`` in normalised coordinates. Image points are (x, y)
pixels, integer = pixel centre (OpenCV's convention).

The board is not quite flat: a fold ridge along its middle and a gentle bow, both zero at
its edges, make the mapping from board to image a smooth non-homography.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Surface:
    """The board's height above the table (mm) as a function of world (x, y)."""

    half_w: float  # half the board's width, mm
    half_h: float
    fold_mm: float  # rise of the fold ridge along the middle
    fold_axis: str  # "x": the ridge runs along x (across the printed columns), or "y"
    bow_mm: float  # rise of the centre from a gentle bow (negative: a dip)
    wave_mm: float  # amplitude of a long wave
    wave_phase: float

    def height(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u = np.clip(np.abs(x) / self.half_w, 0, 1)
        v = np.clip(np.abs(y) / self.half_h, 0, 1)
        inside = (np.abs(x) < self.half_w) & (np.abs(y) < self.half_h)
        across = v if self.fold_axis == "x" else u
        h = self.fold_mm * (1 - across)
        h = h + self.bow_mm * (1 - u * u) * (1 - v * v)
        h = h + self.wave_mm * np.sin(np.pi * u) * np.sin(np.pi * v) * np.sin(3 * x / self.half_w + self.wave_phase)
        return np.where(inside, h, 0.0)

    def flat(self) -> bool:
        return self.fold_mm == 0 and self.bow_mm == 0 and self.wave_mm == 0


FLAT = Surface(half_w=1.0, half_h=1.0, fold_mm=0.0, fold_axis="x", bow_mm=0.0, wave_mm=0.0, wave_phase=0.0)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera looking at the table."""

    width: int
    height: int
    focal_px: float
    rotation: np.ndarray  # (3, 3) world -> camera
    position: np.ndarray  # (3,) camera centre in world mm (z < 0: above the table)
    k1: float
    k2: float

    def project(self, points_xyz: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) pixel positions (with lens distortion)."""
        pc = (np.asarray(points_xyz, np.float64) - self.position) @ self.rotation.T
        xn = pc[:, 0] / pc[:, 2]
        yn = pc[:, 1] / pc[:, 2]
        r2 = xn * xn + yn * yn
        d = 1 + self.k1 * r2 + self.k2 * r2 * r2
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2
        return np.stack([self.focal_px * xn * d + cx, self.focal_px * yn * d + cy], axis=1)

    def rays(self, pixels_xy: np.ndarray) -> np.ndarray:
        """(N, 2) pixels -> (N, 3) world directions of their rays (undistorting first)."""
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2
        xd = (pixels_xy[:, 0] - cx) / self.focal_px
        yd = (pixels_xy[:, 1] - cy) / self.focal_px
        xn, yn = xd.copy(), yd.copy()
        for _ in range(8):
            r2 = xn * xn + yn * yn
            d = 1 + self.k1 * r2 + self.k2 * r2 * r2
            xn, yn = xd / d, yd / d
        dirs_cam = np.stack([xn, yn, np.ones_like(xn)], axis=1)
        return dirs_cam @ self.rotation  # rotation.T applied to row vectors

    def scaled(self, factor: float) -> Camera:
        """The same camera with an image ``factor`` times as large."""
        return Camera(width=int(round(self.width * factor)), height=int(round(self.height * factor)),
                      focal_px=self.focal_px * factor, rotation=self.rotation, position=self.position,
                      k1=self.k1, k2=self.k2)


def look_rotation(tilt_deg: float, azimuth_deg: float, roll_deg: float) -> np.ndarray:
    """World->camera rotation for a camera ``tilt_deg`` from straight down, seated at
    ``azimuth_deg`` (0: on the printed bottom side, 90: the printed right side ...), the
    image turned by ``roll_deg`` clockwise about the optical axis.

    >>> import numpy as np
    >>> np.allclose(look_rotation(0, 0, 0), np.eye(3))
    True
    """
    t, a = np.deg2rad(tilt_deg), np.deg2rad(azimuth_deg)
    toward_viewer = np.array([-np.sin(a), np.cos(a), 0.0])  # horizontal, board centre -> player
    forward = np.sin(t) * -toward_viewer + np.cos(t) * np.array([0.0, 0.0, 1.0])
    down = toward_viewer - forward * (toward_viewer @ forward)
    if np.linalg.norm(down) < 1e-9:
        down = np.array([0.0, 1.0, 0.0])
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    r = np.deg2rad(roll_deg)
    right, down = np.cos(r) * right + np.sin(r) * down, -np.sin(r) * right + np.cos(r) * down
    return np.stack([right, down, forward])


def place_camera(width: int, height: int, hfov_deg: float, tilt_deg: float, azimuth_deg: float, roll_deg: float,
                 target_xy: tuple[float, float], fill: float, board_half: tuple[float, float], k1: float,
                 k2: float = 0.0) -> Camera:
    """A camera with ``hfov_deg`` across the image's long side, aimed at ``target_xy`` and
    moved along its axis until the board's outline
    spans ``fill`` of the frame (the larger of its width and height shares)."""
    focal = (max(width, height) / 2) / np.tan(np.deg2rad(hfov_deg) / 2)  # field of view across the long side
    rot = look_rotation(tilt_deg, azimuth_deg, roll_deg)
    forward = rot[2]
    target = np.array([target_xy[0], target_xy[1], 0.0])
    hw, hh = board_half
    outline = np.array([[-hw, -hh, 0], [hw, -hh, 0], [hw, hh, 0], [-hw, hh, 0]], np.float64)
    distance = 3.0 * max(hw, hh) / fill
    for _ in range(6):
        cam = Camera(width, height, focal, rot, target - forward * distance, k1, k2)
        pts = cam.project(outline)
        span = max(np.ptp(pts[:, 0]) / width, np.ptp(pts[:, 1]) / height)
        distance *= span / fill
    return Camera(width, height, focal, rot, target - forward * distance, k1, k2)


def table_points(camera: Camera, pixels_xy: np.ndarray, surface: Surface, iterations: int = 4) -> np.ndarray:
    """(N, 2) pixels -> (N, 2) world (x, y) of the surface point each one sees.

    Rays meet the table plane first, then the board's height field, refined by iteration
    (the height changes slowly, so a few steps reach sub-pixel accuracy). Rays that point
    above the horizon get a far-away point.
    """
    dirs = camera.rays(pixels_xy)
    c = camera.position
    dz = np.where(dirs[:, 2] > 1e-6, dirs[:, 2], 1e-6)
    t = (0.0 - c[2]) / dz
    xy = c[:2] + dirs[:, :2] * t[:, None]
    if not surface.flat():
        for _ in range(iterations):
            z = -surface.height(xy[:, 0], xy[:, 1])
            t = (z - c[2]) / dz
            xy = c[:2] + dirs[:, :2] * t[:, None]
    return xy


def world_to_image(camera: Camera, xy: np.ndarray, surface: Surface) -> np.ndarray:
    """(N, 2) world (x, y) on the board or table -> (N, 2) pixels."""
    xy = np.asarray(xy, np.float64).reshape(-1, 2)
    z = -surface.height(xy[:, 0], xy[:, 1])
    return camera.project(np.column_stack([xy, z]))


def dense_table_map(camera: Camera, surface: Surface, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """World x and y (float32 (H, W) each) seen by every pixel of the camera image.

    Computed exactly on a grid every ``step`` pixels and interpolated bilinearly, which
    is far below a pixel of error for these smooth mappings.
    """
    w, h = camera.width, camera.height
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
    # coarse sample i sits at pixel (i - 1 + 0.5) * step - 0.5 so that an exact resize by
    # `step` puts the samples back where they were taken
    xs = (np.arange(nx) - 0.5) * step - 0.5
    ys = (np.arange(ny) - 0.5) * step - 0.5
    gx, gy = np.meshgrid(xs, ys)
    xy = table_points(camera, np.column_stack([gx.ravel(), gy.ravel()]), surface)
    out = []
    for k in range(2):
        coarse = xy[:, k].reshape(ny, nx).astype(np.float32)
        fine = cv2.resize(coarse, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
        out.append(np.ascontiguousarray(fine[step : step + h, step : step + w]))
    return out[0], out[1]


def surface_normals_z(surface: Surface, x: np.ndarray, y: np.ndarray, eps: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """The slopes dh/dx and dh/dy of the board at world (x, y), by central differences."""
    hx = (surface.height(x + eps, y) - surface.height(x - eps, y)) / (2 * eps)
    hy = (surface.height(x, y + eps) - surface.height(x, y - eps)) / (2 * eps)
    return hx, hy
