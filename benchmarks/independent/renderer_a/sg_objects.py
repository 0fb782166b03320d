"""3-D-ish objects drawn in image space after projection: extruded convex prisms with a
textured top face (chips, cards, phones, mugs, decks, paper, chessboard) and their shadows."""
import numpy as np
import cv2
import sg_art as art

AA, SH, S1 = cv2.LINE_AA, 4, 16


def circle_outline(r, n=48):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([r * np.cos(t), r * np.sin(t)], 1)


def rrect_outline(hw, hh, r, n=6):
    pts = []
    for (cx, cy, a0) in [(hw - r, hh - r, 0), (-hw + r, hh - r, 90), (-hw + r, -hh + r, 180), (hw - r, -hh + r, 270)]:
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(pts)


class Prism:
    """Convex outline (object cm, CCW in X-right/Y-down), pose (cx, cy, rot), base height z0,
    height t, top texture (premultiplied RGBA float, covering [-hw,hw] x [-hh,hh])."""

    def __init__(self, outline, cx, cy, rot, z0, t, tex, hw, hh, side_rgb, opacity=1.0,
                 occluder=True, kind='', flat=None):
        self.outline, self.cx, self.cy, self.rot = np.asarray(outline, float), cx, cy, rot
        self.z0, self.t, self.tex, self.hw, self.hh = z0, t, tex, hw, hh
        self.side = np.asarray(side_rgb, np.float32)
        self.opacity, self.occluder, self.kind = opacity, occluder, kind
        self.flat = (t < 0.15) if flat is None else flat
        self.extra = []        # callables(colr, alpha, offset) drawing extra bits (mug handle)
        self.extra_pts = None  # world points the drawing window must include

    def to_world(self, pts, h):
        c, s = np.cos(self.rot), np.sin(self.rot)
        pts = np.asarray(pts, float)
        X = self.cx + c * pts[:, 0] - s * pts[:, 1]
        Y = self.cy + s * pts[:, 0] + c * pts[:, 1]
        return np.stack([X, Y, np.full(len(X), -h)], 1)

    def center_world(self):
        return np.array([self.cx, self.cy, -(self.z0 + self.t / 2)])

    def radius(self):
        return float(np.max(np.linalg.norm(self.outline, axis=1)))


def px_per_cm(cam, P):
    Pc = (np.asarray(P, float) - cam.C) @ cam.R.T
    return cam.f / max(Pc[2], 1.0)


def render_prism(img, cam, p, L, occ=None):
    """Draw prism p into img (float RGB). Optionally max its alpha into occluder map occ."""
    H, W = img.shape[:2]
    bot = p.to_world(p.outline, p.z0)
    top = p.to_world(p.outline, p.z0 + p.t)
    pb, zb = cam.project(bot)
    pt, zt = cam.project(top)
    if min(zb.min(), zt.min()) < 2:
        return
    allp = np.vstack([pb, pt])
    winp = allp if p.extra_pts is None else np.vstack([allp, cam.project(p.extra_pts)[0]])
    pad = 3 if p.extra_pts is None else 3 + int(0.1 * np.ptp(winp[:, 0]))
    x0, y0 = int(np.floor(winp[:, 0].min())) - pad, int(np.floor(winp[:, 1].min())) - pad
    x1, y1 = int(np.ceil(winp[:, 0].max())) + pad, int(np.ceil(winp[:, 1].max())) + pad
    X0, Y0, X1, Y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if X0 >= X1 or Y0 >= Y1:
        return
    w, h = X1 - X0, Y1 - Y0
    off = np.array([X0, Y0], float)
    colr = np.empty((h, w, 3), np.float32)
    colr[:] = p.side * 0.6
    alpha = None
    if not p.flat:
        hull = cv2.convexHull((allp - off).astype(np.float32))
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [np.round(hull * S1).astype(np.int32)], 255, AA, SH)
        alpha = m.astype(np.float32) / 255
        n = len(p.outline)
        c, s = np.cos(p.rot), np.sin(p.rot)
        o = p.outline
        orient = 1.0 if np.sum(o[:, 0] * np.roll(o[:, 1], -1) - np.roll(o[:, 0], -1) * o[:, 1]) > 0 else -1.0
        for i in range(n):
            j = (i + 1) % n
            e = p.outline[j] - p.outline[i]
            nx, ny = e[1] * orient, -e[0] * orient      # outward normal
            wx, wy = c * nx - s * ny, s * nx + c * ny
            nn = np.hypot(wx, wy) + 1e-9
            wx, wy = wx / nn, wy / nn
            mid = (bot[i] + bot[j]) / 2
            v = cam.C - mid
            if wx * v[0] + wy * v[1] <= 0:
                continue
            lam = max(0.0, wx * L[0] + wy * L[1])
            shade = 0.45 + 0.65 * lam
            q = np.array([pb[i], pb[j], pt[j], pt[i]]) - off
            cv2.fillPoly(colr, [np.round(q * S1).astype(np.int32)],
                         tuple(float(x) for x in np.clip(p.side * shade, 0, 1)), cv2.LINE_8, SH)
    if p.tex is not None:
        th, tw = p.tex.shape[:2]
        src = np.array([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]], np.float32)
        oc = np.array([[-p.hw, -p.hh], [p.hw, -p.hh], [p.hw, p.hh], [-p.hw, p.hh]])
        dst, _ = cam.project(p.to_world(oc, p.z0 + p.t))
        M = cv2.getPerspectiveTransform(src, (dst - off).astype(np.float32))
        wt = cv2.warpPerspective(p.tex, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=0)
        ta = wt[..., 3:4]
        colr = wt[..., :3] + colr * (1 - ta)
        alpha = ta[..., 0] if alpha is None else np.maximum(alpha, ta[..., 0])
    for fn in p.extra:
        fn(colr, alpha, off)
    a = (alpha * p.opacity)[..., None]
    roi = img[Y0:Y1, X0:X1]
    roi *= (1 - a)
    roi += colr * a
    if occ is not None and p.occluder:
        np.maximum(occ[Y0:Y1, X0:X1], alpha, out=occ[Y0:Y1, X0:X1])


def shadow_prism(smap, k, cam, p, L, z_recv=None):
    """Fill the prism's cast shadow polygon (on its base plane) into shadow map smap (1/k res)."""
    z_recv = p.z0 if z_recv is None else z_recv
    Lup = -L[2]
    bot = p.to_world(p.outline, p.z0)
    top = p.to_world(p.outline, p.z0 + p.t)
    pts = []
    for ring, hgt in ((bot, p.z0), (top, p.z0 + p.t)):
        dh = hgt - z_recv
        q = ring.copy()
        q[:, 0] -= L[0] / Lup * dh
        q[:, 1] -= L[1] / Lup * dh
        q[:, 2] = -z_recv
        pts.append(q)
    pts.append(bot)
    P, z = cam.project(np.vstack(pts))
    if z.min() < 2:
        return
    P = (P + 0.5) / k - 0.5
    hull = cv2.convexHull(P.astype(np.float32))
    cv2.fillPoly(smap, [np.round(hull * S1).astype(np.int32)], 1.0, AA, SH)


# ------------------------------------------------------------------ chips
CHIP_COLS = {
    'B': [(20, 35, 110), (25, 60, 170), (30, 80, 210), (60, 130, 220), (80, 160, 235), (35, 50, 140)],
    'G': [(15, 80, 40), (20, 120, 50), (40, 150, 60), (90, 180, 50), (120, 200, 60), (10, 100, 70)],
    'R': [(150, 15, 30), (185, 20, 35), (210, 35, 30), (225, 60, 25), (235, 80, 30)],
}


def chip_design(rng, cell_w):
    return dict(diam=rng.uniform(0.55, 0.85) * cell_w, thick=rng.uniform(0.2, 0.5),
                ring=bool(rng.random() < 0.7), ring_r=rng.uniform(0.55, 0.8), ring_w=rng.uniform(0.03, 0.07),
                ring_depth=rng.uniform(0.06, 0.2), inner_ring=bool(rng.random() < 0.3),
                hl_str=rng.uniform(0.1, 0.6), hl_size=rng.uniform(0.12, 0.3), arc_str=rng.uniform(0.0, 0.5),
                hl_off=rng.uniform(0.2, 0.6),
                translucent=bool(rng.random() < 0.3), side_dark=rng.uniform(0.5, 0.75))


def team_colors(rng):
    cols = {}
    for t, lst in CHIP_COLS.items():
        a, b = lst[rng.integers(len(lst))], lst[rng.integers(len(lst))]
        u = rng.random()
        cols[t] = art.jitter_col(rng, np.asarray(a) * u + np.asarray(b) * (1 - u), 0.08)
    return cols


def make_chip(rng, cam, X, Y, z0, color, cd, L, kind='chip', occluder=False, tex_cache=None):
    r = cd['diam'] / 2 * rng.uniform(0.98, 1.02)
    C = np.array([X, Y, -z0])
    ppc = px_per_cm(cam, C)
    S = int(np.clip(2 * r * ppc * 1.3, 12, 192))
    # highlight direction: horizontal part of the half vector between light and view
    V = cam.C - C
    V = V / np.linalg.norm(V)
    Hh = L + V                    # half vector (L points towards the light)
    hl_ang = np.arctan2(Hh[1], Hh[0])
    key = (tuple(np.round(color).astype(int)), S)
    if tex_cache is not None and key in tex_cache:
        tex = tex_cache[key]
    else:
        tex = art.chip_top_texture(S, color, cd, np.arctan2(L[1], L[0]), hl_ang)
        if tex_cache is not None:
            tex_cache[key] = tex
    bri = rng.uniform(0.96, 1.04)
    tex = tex.copy()
    tex[..., :3] *= bri
    side = np.asarray(color, np.float32) / 255 * cd['side_dark']
    op = rng.uniform(0.82, 0.93) if cd['translucent'] else 1.0
    return Prism(circle_outline(r, 40), X, Y, 0.0, z0, cd['thick'], tex, r, r, side, op,
                 occluder=occluder, kind=kind, flat=False)


# ------------------------------------------------------------------ clutter
MUG_COLS = [(240, 240, 235), (30, 30, 35), (180, 40, 40), (40, 90, 160), (230, 200, 60), (80, 140, 90),
            (200, 120, 60)]


def make_mug(rng, cam, X, Y, L):
    r = rng.uniform(3.8, 4.6)
    hgt = rng.uniform(8.5, 10.5)
    c = np.asarray(MUG_COLS[rng.integers(len(MUG_COLS))], np.float32) / 255
    S = int(np.clip(2 * r * px_per_cm(cam, [X, Y, -hgt]) * 1.2, 16, 400))
    yy, xx = (np.mgrid[0:S, 0:S].astype(np.float32) + 0.5 - S / 2) / (S / 2)
    rr = np.sqrt(xx * xx + yy * yy)
    inside = np.asarray(rng.choice([(55, 30, 15), (90, 55, 30), (150, 110, 70)]), np.float32) / 255 \
        if rng.random() < 0.7 else c * 0.6
    rim_w = rng.uniform(0.06, 0.1)
    rgb = np.where((rr < 1 - rim_w)[..., None], inside[None, None] * (0.7 + 0.3 * (xx * L[0] + yy * L[1]))[..., None],
                   c[None, None] * 1.05)
    a = np.clip((1 - rr) * S / 2 + 0.5, 0, 1)[..., None]
    tex = np.concatenate([np.clip(rgb, 0, 1) * a, a], 2).astype(np.float32)
    p = Prism(circle_outline(r, 48), X, Y, 0.0, 0.0, hgt, tex, r, r, c, kind='mug')
    ang = rng.uniform(0, 2 * np.pi)
    t = np.linspace(-np.pi / 2, np.pi / 2, 20)
    dirv = np.array([np.cos(ang), np.sin(ang), 0])
    pts = np.array([[X, Y, 0]]) + (r + 0.2 + 2.4 * np.cos(t))[:, None] * dirv + \
        (-(hgt * 0.5 + 3.0 * np.sin(t)))[:, None] * np.array([0, 0, 1.0])
    p.extra_pts = pts

    def handle(colr, alpha, off, p=p, pts=pts, dirv=dirv):
        P, z = cam.project(pts)
        if z.min() < 2:
            return
        thick = max(1, int(px_per_cm(cam, pts[10]) * 1.1))
        q = np.round((P - off) * S1).astype(np.int32)
        m = np.zeros(alpha.shape, np.uint8)
        cv2.polylines(m, [q], False, 255, thick, AA, SH)
        # draw the handle only where it is not hidden behind the body (far side)
        behind = np.dot(dirv[:2], (cam.C - np.array([X, Y, 0]))[:2]) < 0
        mf = m.astype(np.float32) / 255
        if behind:
            mf = mf * (1 - alpha)
        colr[:] = colr * (1 - mf[..., None]) + (c * 0.85)[None, None] * mf[..., None]
        alpha[:] = np.maximum(alpha, mf)
    p.extra.append(handle)
    return p


def make_phone(rng, cam, X, Y, L):
    hw, hh = 3.6, rng.uniform(7.2, 8.0)
    S = px_per_cm(cam, [X, Y, 0])
    tw, th = int(np.clip(2 * hw * S * 1.2, 16, 500)), int(np.clip(2 * hh * S * 1.2, 16, 1000))
    img = np.zeros((th, tw, 3), np.float32)
    img[:] = (0.05, 0.05, 0.06)
    bz = max(1, int(0.04 * tw))
    if rng.random() < 0.4:   # screen on
        sc = img[bz * 2:th - bz * 2, bz:tw - bz]
        sc[:] = rng.uniform(0.3, 0.9, 3)
        for _ in range(6):
            y = rng.integers(0, sc.shape[0])
            cv2.rectangle(sc, (int(rng.integers(0, tw // 2)), int(y)), (int(rng.integers(tw // 2, tw)),
                          int(y + rng.integers(2, max(3, th // 8)))), tuple(rng.uniform(0, 1, 3).tolist()), -1)
    yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32)
    img += (0.15 * np.clip(1 - np.abs((xx / tw + yy / th) - rng.uniform(0.3, 1.5)) * 3, 0, 1))[..., None]
    m = np.zeros((th, tw), np.uint8)
    cv2.fillPoly(m, [np.round((rrect_outline(tw / 2, th / 2, tw * 0.12) + [tw / 2 - 0.5, th / 2 - 0.5]) * S1)
                     .astype(np.int32)], 255, AA, SH)
    a = (m.astype(np.float32) / 255)[..., None]
    tex = np.concatenate([np.clip(img, 0, 1) * a, a], 2)
    side = np.asarray(rng.choice([(60, 60, 65), (170, 170, 175), (20, 20, 25), (200, 180, 150)]), np.float32) / 255
    return Prism(rrect_outline(hw, hh, 0.9), X, Y, rng.uniform(0, 2 * np.pi), 0.0, rng.uniform(0.75, 1.0),
                 tex, hw, hh, side, kind='phone')


def make_card(rng, cam, X, Y, z0, code, st, back=None, rot=None, kind='card', t=0.03):
    hw, hh = 3.15, 4.4
    S = px_per_cm(cam, [X, Y, -z0])
    tw = int(np.clip(2 * hw * S * 1.3, 24, 500))
    th = int(tw * hh / hw)
    tex = art.card_on_table_texture(rng, code, tw, th, st, back)
    rot = rng.uniform(0, 2 * np.pi) if rot is None else rot
    return Prism(rrect_outline(hw, hh, 0.35), X, Y, rot, z0, t, tex, hw, hh, (0.92, 0.92, 0.9),
                 kind=kind, flat=t < 0.15)


def make_paper(rng, cam, X, Y):
    hw, hh = (10.5, 14.85) if rng.random() < 0.5 else (rng.uniform(5, 7), rng.uniform(7, 10))
    S = px_per_cm(cam, [X, Y, 0])
    tw, th = int(np.clip(2 * hw * S, 24, 900)), int(np.clip(2 * hh * S, 24, 1300))
    img = np.ones((th, tw, 3), np.float32) * np.asarray(rng.choice([(0.97, 0.97, 0.95), (0.98, 0.95, 0.8)]))
    lh = max(3, th // 28)
    grid = rng.random() < 0.3
    for y in range(int(th * 0.08), int(th * 0.92), lh):
        if grid:
            cv2.line(img, (0, y), (tw, y), (0.7, 0.75, 0.85), 1, AA)
        elif rng.random() < 0.8:
            x = int(tw * 0.08)
            while x < tw * 0.9:
                wl = int(rng.integers(max(2, tw // 30), max(3, tw // 8)))
                cv2.rectangle(img, (x, y), (min(int(tw * 0.92), x + wl), y + max(1, lh // 3)), (0.25, 0.25, 0.3), -1)
                x += wl + max(2, tw // 50)
    if grid:
        for x in range(0, tw, lh):
            cv2.line(img, (x, 0), (x, th), (0.7, 0.75, 0.85), 1, AA)
    a = np.ones((th, tw, 1), np.float32)
    tex = np.concatenate([img, a], 2)
    return Prism(np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])[::-1] * 1.0, X, Y, rng.uniform(0, 2 * np.pi),
                 0.0, 0.02, tex, hw, hh, (0.9, 0.9, 0.9), kind='paper', flat=True)


def make_chessboard(rng, cam, X, Y):
    n = 8
    sq = rng.uniform(3.5, 6.0)
    bd = rng.uniform(0.5, 2.5)
    hw = n * sq / 2 + bd
    S = px_per_cm(cam, [X, Y, 0])
    tw = int(np.clip(2 * hw * S, 64, 1600))
    img = np.zeros((tw, tw, 3), np.float32)
    c1 = np.asarray(rng.choice([(0.93, 0.88, 0.75), (0.95, 0.95, 0.95), (0.85, 0.75, 0.55)]))
    c2 = np.asarray(rng.choice([(0.45, 0.3, 0.18), (0.1, 0.1, 0.1), (0.3, 0.5, 0.3), (0.6, 0.2, 0.2)]))
    img[:] = c2 * 0.7
    ppc = tw / (2 * hw)
    for i in range(n):
        for j in range(n):
            x0, y0 = bd + j * sq, bd + i * sq
            cv2.rectangle(img, (int(x0 * ppc), int(y0 * ppc)), (int((x0 + sq) * ppc) - 1, int((y0 + sq) * ppc) - 1),
                          tuple((c1 if (i + j) % 2 == 0 else c2).tolist()), -1)
    a = np.ones((tw, tw, 1), np.float32)
    tex = np.concatenate([img, a], 2)
    return Prism(np.array([[-hw, -hw], [-hw, hw], [hw, hw], [hw, -hw]]) * 1.0, X, Y, rng.uniform(0, 2 * np.pi), 0.0,
                 rng.uniform(0.5, 1.5), tex, hw, hw, c2 * 0.8, kind='chessboard')
