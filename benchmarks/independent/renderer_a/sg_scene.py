"""Camera sampling, dense ray maps, table / floor / board compositing, lighting, capture."""
import numpy as np
import cv2
from sg_camera import Camera, lowres_grid, upsample, MAP_STEP
import sg_art as art

FLOOR_DROP = 75.0        # floor is this far below the table top (cm)
SIZES = [((1280, 720), 0.25), ((1920, 1080), 0.40), ((4032, 3024), 0.35)]


def sample_size(rng):
    i = rng.choice(len(SIZES), p=[p for _, p in SIZES])
    W, H = SIZES[i][0]
    if rng.random() < 0.35:
        W, H = H, W
    return W, H


# ------------------------------------------------------------------ camera
def sample_camera(rng, W, H, outline_fn, center, size_cm, tries=400):
    """Rejection-sample a camera for which the object outline (world pts) is fully in view
    with >= 3% margin, fills the requested fraction of the width, at 40-150 cm."""
    fmax = 0.9
    for attempt in range(tries):
        if attempt and attempt % 60 == 0:
            fmax = max(0.3, fmax - 0.15)
        tilt = np.radians(rng.uniform(0, 55))
        azim = rng.uniform(0, 2 * np.pi)
        roll = np.radians(np.clip(rng.normal(0, 4), -12, 12))
        fov = np.radians(rng.uniform(55, 80))
        f = (max(W, H) / 2) / np.tan(fov / 2)
        k1 = rng.uniform(-0.08, 0.04)
        k2 = rng.uniform(-0.01, 0.01)
        fill = rng.uniform(0.25, fmax)
        tgt = np.array([center[0] + rng.uniform(-.15, .15) * size_cm[0],
                        center[1] + rng.uniform(-.15, .15) * size_cm[1], -0.3])
        pts = outline_fn()

        def meas(D):
            cam = Camera.look_at(W, H, f, k1, k2, tgt, D, tilt, azim, roll)
            p, z = cam.project(pts)
            if (z <= 1).any():
                return cam, None, 9.0
            return cam, p, (p[:, 0].max() - p[:, 0].min()) / W

        lo, hi = 15.0, 400.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            _, _, fm = meas(mid)
            if fm > fill:
                lo = mid
            else:
                hi = mid
        D = 0.5 * (lo + hi)
        if not (40 <= D <= 150):
            continue
        cam, p, fm = meas(D)
        if p is None:
            continue
        mx, my = 0.03 * W, 0.03 * H
        if p[:, 0].min() < mx or p[:, 0].max() > W - 1 - mx or p[:, 1].min() < my or p[:, 1].max() > H - 1 - my:
            continue
        info = dict(tilt_deg=float(np.degrees(tilt)), azimuth_deg=float(np.degrees(azim)),
                    roll_deg=float(np.degrees(roll)), fov_long_deg=float(np.degrees(fov)),
                    focal_px=float(f), k1=float(k1), k2=float(k2), distance_cm=float(D),
                    camera_height_cm=float(-cam.C[2]), fill_width=float(fm))
        return cam, info
    raise RuntimeError('no camera found')


# ------------------------------------------------------------------ mip sampling
def build_pyr(tex, nlev=4):
    pyr = [tex]
    for _ in range(nlev - 1):
        t = pyr[-1]
        h, w = t.shape[:2]
        if h < 4 or w < 4:
            break
        if h % 2 or w % 2:
            t = cv2.copyMakeBorder(t, 0, h % 2, 0, w % 2, cv2.BORDER_REPLICATE)
        pyr.append(cv2.resize(t, (t.shape[1] // 2, t.shape[0] // 2), interpolation=cv2.INTER_AREA))
    return pyr


def sample_mip(pyr, mx, my, lvl):
    """Trilinear-ish sampling of a uint8 pyramid -> float32 (0..255).
    mx,my: level-0 pixel coords; lvl: log2 minification. Each level is sampled only inside
    the bounding box where its weight is > 0 and accumulated with normalised blending."""
    lvl = np.clip(lvl, 0, len(pyr) - 1).astype(np.float32)
    mx, my = mx.astype(np.float32), my.astype(np.float32)
    out = np.zeros(mx.shape + (pyr[0].shape[2],), np.uint8)
    wsum = np.zeros(mx.shape, np.float32)
    top = int(np.ceil(lvl.max()))
    for k in range(int(np.floor(lvl.min())), top + 1):
        w = 1 - np.abs(lvl - k)
        if k == top:
            w[lvl >= k] = 1.0
        np.maximum(w, 0, out=w)
        pos = w > 0
        rows, cols = np.flatnonzero(pos.any(1)), np.flatnonzero(pos.any(0))
        if len(rows) == 0:
            continue
        y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        s = np.float32(2 ** k)
        smp = cv2.remap(pyr[k], (mx[y0:y1, x0:x1] + 0.5) / s - 0.5, (my[y0:y1, x0:x1] + 0.5) / s - 0.5,
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        ww = np.ascontiguousarray(w[y0:y1, x0:x1])
        out[y0:y1, x0:x1] = cv2.blendLinear(np.ascontiguousarray(out[y0:y1, x0:x1]), smp,
                                            np.ascontiguousarray(wsum[y0:y1, x0:x1]), ww)
        wsum[y0:y1, x0:x1] += ww
    return out.astype(np.float32)


def cm_per_px(X, Y):
    """From low-res world coordinate maps, the (max) cm per image pixel."""
    gy_x, gx_x = np.gradient(X)
    gy_y, gx_y = np.gradient(Y)
    a = np.sqrt(gx_x ** 2 + gx_y ** 2)
    b = np.sqrt(gy_x ** 2 + gy_y ** 2)
    return np.maximum(a, b) / MAP_STEP


def _bbox(mask, pad=2):
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    H, W = mask.shape
    return max(0, ys.min() - pad), min(H, ys.max() + pad + 1), max(0, xs.min() - pad), min(W, xs.max() + pad + 1)


# ------------------------------------------------------------------ room & table
def room_lowres(rng, cam, d):
    """Floor / wall colour at the low-res sample points (blurred, far away)."""
    Xf, Yf, tf = cam.hit_height(d, -FLOOR_DROP)
    fl = np.asarray(rng.choice([(120, 90, 60), (160, 150, 140), (80, 70, 65), (190, 180, 160), (60, 60, 70)]),
                    np.float32) / 255
    wall = np.asarray(rng.choice([(220, 215, 205), (200, 205, 210), (170, 160, 140), (120, 120, 125)]),
                      np.float32) / 255
    per = rng.uniform(10, 30)
    pat = 0.9 + 0.1 * np.sign(np.sin(Xf / per * np.pi)) * (rng.random() < 0.6)
    dist = np.where(tf > 0, tf * np.linalg.norm(d, axis=-1), 1e9)
    fog = np.clip((dist - 150) / 400, 0, 1)[..., None]
    floor = fl * pat[..., None] * 0.75
    up = -d[..., 2] / np.linalg.norm(d, axis=-1)
    wallc = wall * (0.7 + 0.3 * np.clip(up, 0, 1))[..., None]
    col = np.where((tf > 0)[..., None], floor * (1 - fog) + wallc * fog * 0.8, wallc)
    # a few blurry blobs (furniture / lamps)
    hl, wl = col.shape[:2]
    for _ in range(rng.integers(0, 4)):
        cx, cy = rng.integers(0, wl), rng.integers(0, hl)
        r = rng.integers(3, max(4, wl // 6))
        c = wall * rng.uniform(0.3, 1.2) + rng.uniform(-0.08, 0.08, 3)
        c = np.clip(c, 0, 1).astype(np.float32)
        if rng.random() < 0.5:
            cv2.circle(col, (int(cx), int(cy)), int(r), tuple(float(v) for v in c), -1)
        else:
            cv2.rectangle(col, (int(cx - r), int(cy - r * rng.uniform(0.3, 1.5))), (int(cx + r), int(cy + r)),
                          tuple(float(v) for v in c), -1)
    col = cv2.GaussianBlur(col.astype(np.float32), (0, 0), 1.5)
    return col.astype(np.float32)


class Maps:
    """Full-resolution per-pixel world coordinates of the table plane (and the board top)."""

    def __init__(self, cam, geom, table_rect, table_drop=3.0):
        W, H = cam.W, cam.H
        u, v = lowres_grid(W, H)
        d = cam.rays(u, v)
        self.d_low = d
        Xt, Yt, tt = cam.hit_height(d, 0.0)
        tx0, ty0, tx1, ty1 = table_rect
        big = 60.0
        Xt = np.where(tt > 0, Xt, tx0 - 2 * big)
        Yt = np.where(tt > 0, Yt, ty0 - 2 * big)
        Xt = np.clip(Xt, tx0 - big, tx1 + big)
        Yt = np.clip(Yt, ty0 - big, ty1 + big)
        self.Xt_low, self.Yt_low, self.tt_low = Xt, Yt, tt
        self.Xt, self.Yt = upsample(Xt, W, H), upsample(Yt, W, H)
        self.cmpp_t = upsample(cm_per_px(Xt, Yt), W, H)
        self.table_rect = table_rect
        # the table's edge (or a hanging tablecloth) down to table_drop cm below the top
        Xs, Ys, ts = cam.hit_height(d, -table_drop)
        sd = np.where(ts > 0, sd_rect(np.clip(Xs, tx0 - big, tx1 + big), np.clip(Ys, ty0 - big, ty1 + big),
                                      tx0, ty0, tx1, ty1), -big)
        self.sd_tbot = upsample(sd, W, H)
        self.table_drop = table_drop
        self.geom = geom
        if geom is not None:
            h = np.full(u.shape, geom.thick)
            for _ in range(6):
                Xb, Yb, tb = cam.hit_height(d, h)
                h = geom.height(Xb, Yb)
            bx = np.clip(Xb, geom.x0 - big, geom.x1 + big)
            by = np.clip(Yb, geom.y0 - big, geom.y1 + big)
            self.Xb_low, self.Yb_low = bx, by
            self.Xb, self.Yb = upsample(bx, W, H), upsample(by, W, H)
            self.cmpp_b = upsample(cm_per_px(bx, by), W, H)
            # shading of the bent board: slope . light (filled in by the caller)


def sd_rect(X, Y, x0, y0, x1, y1):
    return np.minimum(np.minimum(X - x0, x1 - X), np.minimum(Y - y0, y1 - Y))


def render_table(rng, cam, maps, kind, img_bg):
    """Returns RGB float image with room + table; also the table's texture info."""
    tx0, ty0, tx1, ty1 = maps.table_rect
    on = (maps.tt_low > 0) & (maps.Xt_low > tx0 - 5) & (maps.Xt_low < tx1 + 5) & \
         (maps.Yt_low > ty0 - 5) & (maps.Yt_low < ty1 + 5)
    img = img_bg
    if not on.any():
        return img, None
    ux0, ux1 = max(tx0, maps.Xt_low[on].min() - 2), min(tx1, maps.Xt_low[on].max() + 2)
    uy0, uy1 = max(ty0, maps.Yt_low[on].min() - 2), min(ty1, maps.Yt_low[on].max() + 2)
    area = (ux1 - ux0) * (uy1 - uy0)
    ppc = float(np.clip(min(cam.f / max(-cam.C[2], 20) * 0.8, np.sqrt(1.5e6 / area)), 1.0, 40))
    tw, th = max(8, int((ux1 - ux0) * ppc)), max(8, int((uy1 - uy0) * ppc))
    tex = art.table_texture(rng, kind, tw, th, ppc)
    pyr = build_pyr((tex * 255 + 0.5).astype(np.uint8), 6)
    a = np.clip(sd_rect(maps.Xt, maps.Yt, tx0, ty0, tx1, ty1) / np.maximum(maps.cmpp_t, 1e-3) + 0.5, 0, 1)
    a_bot = np.clip(maps.sd_tbot / np.maximum(maps.cmpp_t, 1e-3) + 0.5, 0, 1)
    slab = np.maximum(a, a_bot)
    bb = _bbox(slab > 0)
    if bb is None:
        return img, None
    y0, y1, x0, x1 = bb
    X, Y = maps.Xt[y0:y1, x0:x1], maps.Yt[y0:y1, x0:x1]
    lvl = np.log2(np.maximum(maps.cmpp_t[y0:y1, x0:x1] * ppc, 1e-6))
    col = sample_mip(pyr, (X - ux0) * ppc - 0.5, (Y - uy0) * ppc - 0.5, lvl)
    col *= np.float32(1 / 255)
    aa = a[y0:y1, x0:x1, None]
    sl = slab[y0:y1, x0:x1, None]
    side = tex.reshape(-1, 3).mean(0) * rng.uniform(0.35, 0.6)
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - sl) + side * (sl - aa) + col * aa
    return img, dict(ppc=ppc)


def render_board(rng, cam, maps, d, g, tex, img, light):
    """Composite the board (top + side faces). Returns alpha of the board top."""
    W, H = cam.W, cam.H
    a_top = np.clip(sd_rect(maps.Xb, maps.Yb, g.x0, g.y0, g.x1, g.y1) / np.maximum(maps.cmpp_b, 1e-3) + 0.5, 0, 1)
    a_ft = np.clip(sd_rect(maps.Xt, maps.Yt, g.x0, g.y0, g.x1, g.y1) / np.maximum(maps.cmpp_t, 1e-3) + 0.5, 0, 1)
    slab = np.maximum(a_top, a_ft)
    bb = _bbox(slab > 0)
    y0, y1, x0, x1 = bb
    X, Y = maps.Xb[y0:y1, x0:x1], maps.Yb[y0:y1, x0:x1]
    ppc = g.ppc
    pyr = build_pyr(tex, 5)
    lvl = np.log2(np.maximum(maps.cmpp_b[y0:y1, x0:x1] * ppc, 1e-6))
    col = sample_mip(pyr, (X - g.x0) * ppc - 0.5, (Y - g.y0) * ppc - 0.5, lvl) / 255.0
    # shading of the bent board: brightness ~ n.L / n0.L
    e = 0.05
    hx = (g.height(maps.Xb_low + e, maps.Yb_low) - g.height(maps.Xb_low - e, maps.Yb_low)) / (2 * e)
    hy = (g.height(maps.Xb_low, maps.Yb_low + e) - g.height(maps.Xb_low, maps.Yb_low - e)) / (2 * e)
    Lx, Ly, Lup = light['L'][0], light['L'][1], -light['L'][2]
    shade = 1 + (hx * Lx + hy * Ly) / max(Lup, 0.2) * 0.8
    shade = np.clip(shade, 0.7, 1.3).astype(np.float32)
    col *= upsample(shade, W, H)[y0:y1, x0:x1, None]
    side = np.asarray(d['border_rgb'], np.float32) / 255 * rng.uniform(0.35, 0.6)
    at = a_top[y0:y1, x0:x1, None]
    sl = slab[y0:y1, x0:x1, None]
    roi = img[y0:y1, x0:x1]
    img[y0:y1, x0:x1] = roi * (1 - sl) + side * (sl - at) + col * at
    return a_top


# ------------------------------------------------------------------ light
def kelvin_rgb(T):
    t = T / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * np.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307)
    return np.clip(np.array([r, g, b]), 1, 255) / 255.0


def sample_light(rng):
    el = np.radians(rng.uniform(35, 85))
    az = rng.uniform(0, 2 * np.pi)
    L = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), -np.sin(el)])
    T = rng.uniform(2700, 6500)
    resid = rng.uniform(0.1, 0.6)
    cast = (kelvin_rgb(T) / kelvin_rgb(6500)) ** resid
    cast = cast / cast.mean() * rng.uniform(0.95, 1.05)
    return dict(L=L, elev_deg=float(np.degrees(el)), azim_deg=float(np.degrees(az)), temp_K=float(T),
                awb_residual=float(resid), cast=cast.astype(np.float32),
                shadow_strength=float(rng.uniform(0.3, 0.6)), softness=float(rng.uniform(0.05, 0.3)))


def apply_lighting(rng, img, light, board_alpha, board_poly, info):
    """Global multiplicative lighting: gradient, vignette, big soft shadow, glare, cast."""
    H, W = img.shape[:2]
    k = 4 if max(W, H) > 2000 else 2
    h, w = H // k, W // k
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx = (xx + 0.5) / w - 0.5
    yy = (yy + 0.5) / h - 0.5
    gain = np.ones((h, w), np.float32)
    ga = rng.uniform(0, 2 * np.pi)
    g = rng.uniform(0, 0.35)
    gain *= 1 + g * (np.cos(ga) * xx + np.sin(ga) * yy) * 2
    v = rng.uniform(0, 0.45)
    gain *= 1 - v * ((xx * 2) ** 2 + (yy * 2) ** 2) / 2
    info.update(gradient=float(g), vignette=float(v))
    # soft shadow across part of the board (a person / lamp arm / phone)
    if rng.random() < 0.35 and board_poly is not None:
        m = np.zeros((h, w), np.float32)
        c = board_poly.mean(0) / k
        ang = rng.uniform(0, 2 * np.pi)
        dvec = np.array([np.cos(ang), np.sin(ang)])
        off = rng.uniform(-0.3, 0.3) * np.ptp(board_poly[:, 0]) / k
        p0 = c + dvec * off
        nvec = np.array([-dvec[1], dvec[0]])
        R = 4 * max(w, h)
        if rng.random() < 0.5:   # half plane
            poly = np.array([p0 + nvec * R, p0 + nvec * R + dvec * R, p0 - nvec * R + dvec * R, p0 - nvec * R])
        else:                    # blob
            rr = rng.uniform(0.15, 0.4) * max(w, h)
            t = np.linspace(0, 2 * np.pi, 30, endpoint=False)
            rad = rr * (1 + 0.25 * np.sin(3 * t + rng.uniform(0, 6)))
            poly = p0 + np.stack([rad * np.cos(t) * rng.uniform(0.6, 1.4), rad * np.sin(t)], 1)
        cv2.fillPoly(m, [np.round(poly * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.01, 0.06) * max(w, h))
        s = rng.uniform(0.15, 0.45)
        gain *= 1 - s * m
        info['soft_shadow'] = float(s)
    gain = cv2.resize(gain, (W, H), interpolation=cv2.INTER_LINEAR)
    img *= gain[..., None]
    # specular glare patch on the glossy board
    if board_alpha is not None and rng.random() < 0.3:
        pts = board_poly
        t = rng.uniform(0.15, 0.85, 2)
        q = pts.min(0) + t * np.ptp(pts, 0)
        m = np.zeros((h, w), np.float32)
        ax = rng.uniform(0.03, 0.15) * W / k
        cv2.ellipse(m, (int(q[0] / k), int(q[1] / k)), (int(ax), int(ax * rng.uniform(0.3, 1.0))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1, cv2.LINE_AA)
        m = cv2.GaussianBlur(m, (0, 0), ax * rng.uniform(0.2, 0.6) + 1)
        m = cv2.resize(m, (W, H), interpolation=cv2.INTER_LINEAR) * board_alpha
        s = rng.uniform(0.3, 0.85)
        img += (s * m)[..., None] * (1.0 - img * 0.8)
        info['glare'] = float(s)
    img *= light['cast'][None, None]
    return img


def capture(rng, img, info, up=1, out_size=None):
    """Optics + sensor + ISP -> uint8. `img` is the rendered image at 1/up of the output
    resolution; blur and noise are simulated there, then the uint8 result is up-sampled
    (pyrUp, full x = up * x_r) and sharpened at the output resolution."""
    H, W = img.shape[:2]
    sc = max(W, H) * up / 1920.0          # output-size relative scale
    if rng.random() < 0.3:
        s = rng.uniform(0.5, 2.0) * sc
        img = cv2.GaussianBlur(img, (0, 0), max(0.3, s / up))
        info['defocus_sigma_px'] = float(s)
    if rng.random() < 0.12:
        ln_full = rng.uniform(3, 12) * sc
        ln = ln_full / up
        n = int(np.ceil(ln)) | 1
        ker = np.zeros((n, n), np.float32)
        a = rng.uniform(0, np.pi)
        c = n // 2
        cv2.line(ker, (int(round((c - np.cos(a) * ln / 2) * 16)), int(round((c - np.sin(a) * ln / 2) * 16))),
                 (int(round((c + np.cos(a) * ln / 2) * 16)), int(round((c + np.sin(a) * ln / 2) * 16))), 1.0, 1,
                 cv2.LINE_AA, 4)
        ker /= ker.sum()
        img = cv2.filter2D(img, -1, ker)
        info['motion_blur_px'] = float(ln_full)
    # exposure & sensor noise: linear light ~ v**2; shot + read noise in linear light is
    # mapped to the display domain: sigma_v = sigma_lin / (2 v).
    dim = rng.random() < 0.15
    expo = rng.uniform(0.3, 0.6) if dim else rng.uniform(0.8, 1.15)
    well = rng.uniform(80, 400) if dim else rng.uniform(500, 4000)
    read = rng.uniform(0.001, 0.004)
    img *= np.float32(np.sqrt(expo))
    v = np.maximum(img, 1.0 / 512)
    sig = np.sqrt(v * v * (1.0 / well) + read * read) / (2 * v)
    np.minimum(sig, 0.25, out=sig)
    noise = rng.standard_normal((H, W, 3), dtype=np.float32)
    noise *= 0.6
    noise += 0.8 * rng.standard_normal((H, W, 1), dtype=np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), 0.6)
    noise *= sig
    noise *= 1.6 * (1.4 if up > 1 else 1.0)        # pyrUp later smooths it a bit
    img += noise
    info.update(dim=bool(dim), exposure=float(expo), full_well=float(well), read_noise=float(read))
    out = cv2.convertScaleAbs(img, alpha=255.0)
    if up > 1:
        out = cv2.pyrUp(out, dstsize=out_size)
    if rng.random() < 0.6 or up > 1:       # phone-style unsharp masking
        a = rng.uniform(0.2, 0.8) + (0.4 if up > 1 else 0)
        sig_s = rng.uniform(0.7, 1.5) if up > 1 else rng.uniform(0.8, 2.0) * max(1, sc * 0.7)
        bl = cv2.GaussianBlur(out, (0, 0), sig_s)
        cv2.addWeighted(out, 1 + a, bl, -a, 0, dst=out)
        info['sharpen'] = float(a)
    return out
