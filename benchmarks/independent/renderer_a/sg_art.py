"""Flat artwork: suit symbols, card faces, FREE corners, the board texture, chip tops,
table / floor textures.  All colours are RGB, images uint8 RGB unless noted."""
import numpy as np
import cv2

from referee.cells import LAYOUT

BOARD = [list(LAYOUT[row * 10:(row + 1) * 10]) for row in range(10)]  # the printed layout, row 0 first

SH = 4                      # sub-pixel bits for cv2 drawing
S1 = 1 << SH
AA = cv2.LINE_AA
FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN]


def ipts(pts):
    return np.round(np.asarray(pts) * S1).astype(np.int32)


def col(c):
    return tuple(int(round(v)) for v in c)


def jitter_col(rng, c, amt):
    return np.clip(np.asarray(c, float) * (1 + rng.uniform(-amt, amt, 3)), 0, 255)


# ------------------------------------------------------------------ suit shapes
def _heart_unit(fat=1.0, n=48):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3 * fat
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    x = x / 34.0
    y = (y - (y.max() + y.min()) / 2) / (y.max() - y.min())
    return np.stack([x, y], 1)          # roughly [-0.5,0.5] box, tip down


def suit_style(rng):
    return dict(heart_fat=rng.uniform(0.9, 1.12), diamond_w=rng.uniform(0.32, 0.42),
                club_r=rng.uniform(0.22, 0.27), stem_w=rng.uniform(0.14, 0.26),
                spade_fat=rng.uniform(0.9, 1.1))


def draw_suit(img, suit, cx, cy, size, color, flip=False, st=None):
    """Filled suit symbol of height `size` px centred at (cx, cy)."""
    st = st or dict(heart_fat=1.0, diamond_w=0.38, club_r=0.25, stem_w=0.2, spade_fat=1.0)
    c = col(color)
    sgn = -1.0 if flip else 1.0

    def P(pts):                       # unit coords -> pixel (with flip)
        pts = np.asarray(pts, float)
        return ipts(np.stack([cx + pts[:, 0] * size, cy + sgn * pts[:, 1] * size], 1))

    if suit == 'H':
        cv2.fillPoly(img, [P(_heart_unit(st['heart_fat']))], c, AA, SH)
    elif suit == 'D':
        w = st['diamond_w']
        cv2.fillPoly(img, [P([[0, -0.5], [w, 0], [0, 0.5], [-w, 0]])], c, AA, SH)
    elif suit == 'S':
        h = _heart_unit(st['spade_fat']) * 0.78
        h[:, 1] = -h[:, 1] - 0.1        # tip up, shifted up
        cv2.fillPoly(img, [P(h)], c, AA, SH)
        sw = st['stem_w']
        cv2.fillPoly(img, [P([[0, 0.05], [sw, 0.5], [-sw, 0.5]])], c, AA, SH)
    elif suit == 'C':
        r = st['club_r']
        for (x, y) in [(0, -0.5 + r), (-r * 1.15, 0.02), (r * 1.15, 0.02)]:
            q = P([[x, y]])[0]
            cv2.circle(img, (int(q[0]), int(q[1])), int(r * size * S1), c, -1, AA, SH)
        cv2.fillPoly(img, [P([[-0.12, -0.1], [0.12, -0.1], [0.12, 0.1], [-0.12, 0.1]])], c, AA, SH)
        sw = st['stem_w']
        cv2.fillPoly(img, [P([[0, 0.0], [sw, 0.5], [-sw, 0.5]])], c, AA, SH)


def put_text_fit(img, text, cx, cy, height, color, font, weight=0.09, max_w=None, flip=False):
    """Text centred at (cx,cy) with cap height ~height px."""
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    if max_w is not None and tw * scale > max_w:
        scale = max_w / tw
    thick = max(1, int(round(weight * th * scale)))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    if not flip:
        org = (int(round(cx - tw / 2)), int(round(cy + th / 2)))
        cv2.putText(img, text, org, font, scale, col(color), thick, AA)
        return
    pad = thick + 2
    patch = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(patch, text, (pad, pad + th), font, scale, 255, thick, AA)
    patch = patch[::-1, ::-1]
    ph, pw = patch.shape
    x0, y0 = int(round(cx - pw / 2)), int(round(cy - ph / 2 - base / 2))
    _blend_mask(img, patch, x0, y0, color)


def _blend_mask(img, mask, x0, y0, color):
    H, W = img.shape[:2]
    mh, mw = mask.shape
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + mw), min(H, y0 + mh)
    if xa >= xb or ya >= yb:
        return
    a = mask[ya - y0:yb - y0, xa - x0:xb - x0, None].astype(np.float32) / 255
    roi = img[ya:yb, xa:xb].astype(np.float32)
    img[ya:yb, xa:xb] = (roi * (1 - a) + np.asarray(color, np.float32) * a).astype(np.uint8)


# ------------------------------------------------------------------ card faces
PIPS = {
    2: [(.5, 0), (.5, 1)],
    3: [(.5, 0), (.5, .5), (.5, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (.5, .5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (.5, .75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (.5, .5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (.5, 5 / 6),
         (0, 1), (1, 1)],
}
RANKVAL = {'A': 1, 'T': 10, 'J': 11, 'Q': 12, 'K': 13}
PICTURE_COLS = [(40, 70, 170), (190, 30, 40), (235, 190, 40), (230, 185, 150), (30, 120, 60),
                (20, 20, 20), (120, 40, 130)]
SKINS = [(246, 214, 186), (233, 190, 155), (205, 150, 110), (160, 105, 70), (110, 70, 45),
         (80, 52, 36)]


def card_style(rng, paper=None):
    paper = paper if paper is not None else (
        rng.choice([(250, 250, 248), (248, 244, 232), (244, 238, 220), (252, 252, 252)]))
    return dict(
        paper=jitter_col(rng, paper, 0.02),
        red=jitter_col(rng, rng.choice([(200, 25, 35), (215, 40, 40), (180, 20, 50)]), 0.08),
        black=jitter_col(rng, rng.choice([(20, 20, 22), (35, 35, 40), (10, 15, 40)]), 0.2),
        font=FONTS[rng.integers(0, 4)], weight=rng.uniform(0.07, 0.13),
        idx_h=rng.uniform(0.11, 0.17), idx_corners=int(rng.choice([1, 2], p=[0.35, 0.65])),
        idx_suit=bool(rng.random() < 0.85),
        pips=rng.choice(['pips', 'pips', 'big', 'bigrank']),
        pip_size=rng.uniform(0.17, 0.23), suit=suit_style(rng),
        face_cols=[PICTURE_COLS[i] for i in rng.permutation(len(PICTURE_COLS))[:3]],
        face_skin=SKINS[rng.integers(0, 3)], corner_r=rng.uniform(0.03, 0.08),
    )


def draw_card_face(rank, suit, w, h, st):
    img = np.empty((h, w, 3), np.uint8)
    img[:] = col(st['paper'])
    ink = st['red'] if suit in 'HD' else st['black']
    txt = '10' if rank == 'T' else rank
    m = min(w, h / 1.35)
    # ---- index (top-left), optionally copied rotated to bottom-right
    ih = st['idx_h'] * h * (0.85 if txt == '10' else 1.0)
    ix = 0.06 * w + ih * 0.45 * (1.4 if txt == '10' else 1)
    iy = 0.05 * h + ih / 2
    put_text_fit(img, txt, ix, iy, ih, ink, st['font'], st['weight'], max_w=0.22 * w)
    idx_box_h = iy + ih / 2
    if st['idx_suit']:
        ss = ih * 0.8
        draw_suit(img, suit, ix, iy + ih / 2 + ss * 0.75, ss, ink, st=st['suit'])
        idx_box_h = iy + ih / 2 + ss * 1.3
    bw, bh = int(min(w * 0.5, ix + ih * 1.2)), int(min(h * 0.5, idx_box_h + 2))
    if st['idx_corners'] == 2:
        corner = img[:bh, :bw][::-1, ::-1].copy()
        np.minimum(img[h - bh:, w - bw:], corner, out=img[h - bh:, w - bw:])
    # ---- centre
    left = 0.06 * w + ih * 1.2
    x0, x1 = max(left, 0.2 * w), min(w - left, 0.8 * w)
    y0, y1 = 0.12 * h, 0.88 * h
    if rank in 'JQK':
        _draw_face(img, rank, suit, x0, y0, x1, y1, ink, st)
    elif rank == 'A' or st['pips'] == 'big':
        s = (0.55 if rank == 'A' else 0.45) * min(x1 - x0, (y1 - y0) * 0.8) * 1.3
        draw_suit(img, suit, w / 2, h / 2, s, ink, st=st['suit'])
    elif st['pips'] == 'bigrank':
        put_text_fit(img, txt, w / 2, h * 0.4, 0.3 * h, ink, st['font'], st['weight'] * 1.2,
                     max_w=(x1 - x0))
        draw_suit(img, suit, w / 2, h * 0.7, 0.25 * m, ink, st=st['suit'])
    else:
        n = RANKVAL.get(rank) or int(rank)
        ps = st['pip_size'] * m * (0.85 if n >= 9 else 1.0)
        px0, px1 = x0 + ps * 0.45, x1 - ps * 0.45
        py0, py1 = y0 + ps * 0.5, y1 - ps * 0.5
        for (u, v) in PIPS[n]:
            draw_suit(img, suit, px0 + u * (px1 - px0), py0 + v * (py1 - py0), ps, ink,
                      flip=v > 0.5, st=st['suit'])
    return img


def _draw_face(img, rank, suit, x0, y0, x1, y1, ink, st):
    """Court card: a framed coloured 'picture', mirrored top/bottom like real cards."""
    X0, Y0, X1, Y1 = int(x0), int(y0), int(x1), int(y1)
    if X1 - X0 < 6 or Y1 - Y0 < 8:
        return
    pic = np.empty((Y1 - Y0, X1 - X0, 3), np.uint8)
    pw, ph = pic.shape[1], pic.shape[0]
    c1, c2, c3 = st['face_cols']
    pic[:] = col(c1)
    hh = ph // 2 + 1
    top = pic[:hh]
    # robe / body
    cv2.fillPoly(top, [ipts([[0.15 * pw, hh], [0.3 * pw, 0.55 * hh], [0.7 * pw, 0.55 * hh],
                             [0.85 * pw, hh]])], col(c2), AA, SH)
    cv2.fillPoly(top, [ipts([[0.4 * pw, hh], [0.45 * pw, 0.6 * hh], [0.55 * pw, 0.6 * hh],
                             [0.6 * pw, hh]])], col(c3), AA, SH)
    # head
    r = 0.16 * min(pw, hh * 1.3)
    hc = (0.5 * pw, 0.38 * hh)
    cv2.circle(top, tuple(ipts(hc)), int(r * S1), col(st['face_skin']), -1, AA, SH)
    cv2.circle(top, tuple(ipts((hc[0] - r * .35, hc[1] - r * .1))), int(r * .1 * S1 + 8),
               (30, 30, 30), -1, AA, SH)
    cv2.circle(top, tuple(ipts((hc[0] + r * .35, hc[1] - r * .1))), int(r * .1 * S1 + 8),
               (30, 30, 30), -1, AA, SH)
    # crown / hat
    cy = hc[1] - r * 0.9
    if rank in 'KQ':
        k = 5 if rank == 'K' else 3
        xs = np.linspace(hc[0] - r, hc[0] + r, 2 * k + 1)
        pts = [[hc[0] - r, cy + r * 0.35]] + [[x, cy - (r * 0.55 if i % 2 == 0 else 0)]
                                              for i, x in enumerate(xs)] + [[hc[0] + r, cy + r * 0.35]]
        cv2.fillPoly(top, [ipts(pts)], (230, 180, 30), AA, SH)
    else:
        cv2.ellipse(top, tuple(ipts((hc[0], cy + r * 0.2))), (int(r * 1.2 * S1), int(r * 0.45 * S1)),
                    0, 0, 360, col(c3), -1, AA, SH)
    draw_suit(top, suit, 0.2 * pw, 0.2 * hh, 0.22 * min(pw, hh), ink, st=st['suit'])
    pic[ph - hh:] = top[::-1, ::-1].copy()
    cv2.line(pic, (0, ph // 2), (pw, ph // 2), col(ink), 1, AA)
    img[Y0:Y1, X0:X1] = pic
    cv2.rectangle(img, (X0, Y0), (X1 - 1, Y1 - 1), col(ink), max(1, int(0.012 * img.shape[1])), AA)


FREE_COLS = [(20, 60, 170), (20, 120, 60), (200, 30, 30), (20, 20, 20), (220, 170, 30),
             (120, 40, 140), (240, 120, 20), (60, 140, 220)]


def free_style(rng, paper):
    return dict(kind=rng.choice(['disc', 'star', 'text', 'disc_text', 'ring', 'star_disc']),
                c1=FREE_COLS[rng.integers(len(FREE_COLS))], c2=FREE_COLS[rng.integers(len(FREE_COLS))],
                bg=paper if rng.random() < 0.6 else jitter_col(rng, rng.choice(
                    [(240, 220, 150), (200, 220, 240), (30, 30, 30), (180, 30, 30)]), 0.1),
                font=FONTS[rng.integers(0, 4)], rot=int(rng.integers(0, 4)))


def draw_free(w, h, fs):
    img = np.empty((h, w, 3), np.uint8)
    img[:] = col(fs['bg'])
    cx, cy, m = w / 2, h / 2, min(w, h)
    k = fs['kind']
    c1, c2 = col(fs['c1']), col(fs['c2'])
    if 'disc' in k or k == 'ring':
        r = 0.38 * m
        cv2.circle(img, tuple(ipts((cx, cy))), int(r * S1), c1, -1 if k != 'ring' else max(1, int(0.08 * m)), AA, SH)
        if k != 'ring':
            cv2.circle(img, tuple(ipts((cx, cy))), int(0.7 * r * S1), c2 if c2 != c1 else (240, 240, 240),
                       max(1, int(0.03 * m)), AA, SH)
    if 'star' in k:
        r = (0.25 if k == 'star_disc' else 0.42) * m
        a = np.arange(10) * np.pi / 5 - np.pi / 2
        rr = np.where(np.arange(10) % 2 == 0, r, r * 0.42)
        cv2.fillPoly(img, [ipts(np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1))],
                     c2 if k == 'star_disc' else c1, AA, SH)
    if 'text' in k:
        tc = (250, 250, 250) if k == 'disc_text' else c1
        put_text_fit(img, 'FREE', cx, cy, 0.16 * h, tc, fs['font'], 0.12, max_w=0.8 * w * (0.8 if k == 'disc_text' else 1))
    if fs['rot'] and w == h:
        img = np.ascontiguousarray(np.rot90(img, fs['rot']))
    return img


# ------------------------------------------------------------------ noise helpers
def fbm(rng, h, w, cell, octaves=4, gain=0.5):
    """Smooth fractal noise, roughly zero-mean unit-ish amplitude."""
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    c = float(cell)
    for _ in range(octaves):
        gh, gw = max(2, int(h / c) + 2), max(2, int(w / c) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= gain
        c /= 2
        if c < 1:
            break
    return out / tot


# ------------------------------------------------------------------ board
BORDER_COLS = {'dark green': (22, 78, 44), 'black': (18, 18, 20), 'navy': (20, 30, 80),
               'wood brown': (120, 75, 40), 'white': (236, 234, 228), 'red': (160, 25, 30),
               'teal': (20, 90, 100), 'grey': (90, 90, 95)}


def board_design(rng):
    """Physical design in cm (before quantisation)."""
    cw = rng.uniform(3.6, 5.2)
    aspect = rng.uniform(1.0, 1.45)
    gap = 0.0 if rng.random() < 0.4 else rng.uniform(0.04, 0.09) * cw
    border = rng.choice(list(BORDER_COLS))
    grid_w = 10 * cw + 9 * gap
    mfrac = rng.uniform(0.02, 0.08)
    paper = rng.choice([(250, 250, 248), (248, 243, 228), (242, 236, 215), (253, 253, 253)])
    d = dict(cw=cw, ch=cw * aspect, aspect=aspect, gap=gap, border=border,
             border_rgb=jitter_col(rng, BORDER_COLS[border], 0.12),
             margin=[mfrac * grid_w * rng.uniform(0.85, 1.15) for _ in range(4)],   # L T R B
             title=bool(rng.random() < 0.5), title_col=rng.choice(
                 [(240, 240, 240), (230, 190, 60), (200, 30, 30), (20, 20, 20), (250, 220, 100)]),
             inset_line=bool(rng.random() < 0.5), inset_col=rng.choice(
                 [(220, 180, 70), (240, 240, 240), (20, 20, 20)]),
             grid_lines=bool(rng.random() < 0.8), line_col=rng.choice([(30, 30, 30), (90, 90, 90), (150, 120, 60)]),
             thickness=rng.uniform(0.2, 0.45),
             fold=rng.choice(['none', 'v', 'h', 'both'], p=[0.25, 0.35, 0.2, 0.2]),
             crease_visible=bool(rng.random() < 0.75),
             fold_amp=rng.uniform(-0.5, 0.5), fold_amp2=rng.uniform(-0.3, 0.3),
             bow=rng.uniform(-0.3, 0.3),
             card=card_style(rng, paper), gloss=rng.uniform(0.0, 1.0))
    d['free'] = free_style(rng, d['card']['paper'])
    return d


class BoardGeom:
    """Quantised board geometry in cm; world origin at the outer corner of cell (0,0)."""

    def __init__(self, d, ppc):
        self.ppc = ppc
        self.cw_px = max(8, int(round(d['cw'] * ppc)))
        self.ch_px = max(8, int(round(d['ch'] * ppc)))
        self.gap_px = int(round(d['gap'] * ppc))
        self.m_px = [max(2, int(round(m * ppc))) for m in d['margin']]
        self.gw_px = 10 * self.cw_px + 9 * self.gap_px
        self.gh_px = 10 * self.ch_px + 9 * self.gap_px
        self.tex_w = self.m_px[0] + self.gw_px + self.m_px[2]
        self.tex_h = self.m_px[1] + self.gh_px + self.m_px[3]
        s = 1.0 / ppc
        self.cw, self.ch, self.gap = self.cw_px * s, self.ch_px * s, self.gap_px * s
        self.gw, self.gh = self.gw_px * s, self.gh_px * s
        self.x0, self.y0 = -self.m_px[0] * s, -self.m_px[1] * s             # board outer rect
        self.x1, self.y1 = self.gw + self.m_px[2] * s, self.gh + self.m_px[3] * s
        self.thick = d['thickness']
        self.fold, self.A1, self.A2, self.bow = d['fold'], d['fold_amp'], d['fold_amp2'], d['bow']
        if self.fold == 'none':
            self.A1 = self.A2 = 0.0
        if self.fold in ('v', 'h'):
            self.A2 = 0.0

    def cell_center(self, r, c):
        return (c * (self.cw + self.gap) + self.cw / 2, r * (self.ch + self.gap) + self.ch / 2)

    def height(self, X, Y):
        """Height (cm) of the board top above the table at (X,Y)."""
        X, Y = np.asarray(X, float), np.asarray(Y, float)
        bw, bh = self.x1 - self.x0, self.y1 - self.y0
        xm, ym = (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
        h = self.thick + 0 * X
        ax_v = self.fold in ('v', 'both')           # crease along a vertical line (x = xm)
        tv = np.clip(np.abs(X - xm) / (bw / 2), 0, 1)
        th = np.clip(np.abs(Y - ym) / (bh / 2), 0, 1)
        t1, t2 = (tv, th) if ax_v else (th, tv)
        for A, t in ((self.A1, t1), (self.A2, t2)):
            if A > 0:
                h = h + A * (1 - t)         # ridge up
            elif A < 0:
                h = h - A * t               # valley: outer ends lifted
        if self.bow > 0:        # arched along X (middle lifted)
            h = h + self.bow * np.sin(np.pi * np.clip((X - self.x0) / bw, 0, 1))
        elif self.bow < 0:      # dished along Y (top and bottom edges lifted)
            h = h - self.bow * (1 - np.sin(np.pi * np.clip((Y - self.y0) / bh, 0, 1)))
        return h

    def world(self, X, Y):
        X, Y = np.asarray(X, float), np.asarray(Y, float)
        return np.stack([X, Y, -self.height(X, Y)], -1)

    def outline(self, n=20):
        t = np.linspace(0, 1, n, endpoint=False)
        xs = np.concatenate([self.x0 + t * (self.x1 - self.x0), np.full(n, self.x1),
                             self.x1 - t * (self.x1 - self.x0), np.full(n, self.x0)])
        ys = np.concatenate([np.full(n, self.y0), self.y0 + t * (self.y1 - self.y0),
                             np.full(n, self.y1), self.y1 - t * (self.y1 - self.y0)])
        return self.world(xs, ys)

    def grid_corners(self):
        return self.world(np.array([0, self.gw, self.gw, 0.0]), np.array([0, 0, self.gh, self.gh]))


def make_board_texture(rng, d, g):
    """RGB uint8 texture, pixel (i,j) covers X in [x0 + j/ppc, x0 + (j+1)/ppc]."""
    H, W = g.tex_h, g.tex_w
    base = np.asarray(d['border_rgb'], np.float32)
    n = fbm(rng, H, W, max(4, W / 40), 4)
    if d['border'] == 'wood brown':
        grain = np.sin((np.arange(W)[None, :] / W * rng.uniform(25, 60) + 3 * fbm(rng, H, W, W / 6, 2)) * 2 * np.pi)
        tex = base[None, None] * (1 + 0.10 * grain[..., None] + 0.05 * n[..., None])
    else:
        tex = base[None, None] * (1 + 0.03 * n[..., None]) + 0 * n[..., None]
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    tex = np.ascontiguousarray(tex)
    gx0, gy0 = g.m_px[0], g.m_px[1]
    mmin = min(g.m_px)
    if d['inset_line'] and mmin >= 6:
        o = max(2, int(0.35 * mmin))
        cv2.rectangle(tex, (gx0 - o, gy0 - o), (gx0 + g.gw_px + o - 1, gy0 + g.gh_px + o - 1),
                      col(d['inset_col']), max(1, int(0.1 * mmin)), AA)
    if d['title'] and g.m_px[1] >= 0.035 * g.gw_px:
        font = d['card']['font']
        put_text_fit(tex, 'SEQUENCE', W / 2, g.m_px[1] * 0.5, g.m_px[1] * 0.5, d['title_col'], font, 0.12,
                     max_w=0.5 * W)
        if g.m_px[3] >= 0.035 * g.gw_px:
            put_text_fit(tex, 'SEQUENCE', W / 2, H - g.m_px[3] * 0.5, g.m_px[3] * 0.5, d['title_col'],
                         font, 0.12, max_w=0.5 * W, flip=True)
    st = d['card']
    cw, ch, gp = g.cw_px, g.ch_px, g.gap_px
    if gp == 0:
        tex[gy0:gy0 + g.gh_px, gx0:gx0 + g.gw_px] = col(st['paper'])
    cr = int(st['corner_r'] * cw) if gp > 0 else 0
    for r in range(10):
        for c in range(10):
            code = BOARD[r][c]
            x, y = gx0 + c * (cw + gp), gy0 + r * (ch + gp)
            face = draw_free(cw, ch, d['free']) if code == 'FREE' else \
                draw_card_face(code[0], code[1], cw, ch, st)
            if cr > 1:
                m = np.zeros((ch, cw), np.uint8)
                cv2.rectangle(m, (cr, 0), (cw - 1 - cr, ch - 1), 255, -1)
                cv2.rectangle(m, (0, cr), (cw - 1, ch - 1 - cr), 255, -1)
                for (px, py) in [(cr, cr), (cw - 1 - cr, cr), (cr, ch - 1 - cr), (cw - 1 - cr, ch - 1 - cr)]:
                    cv2.circle(m, (px, py), cr, 255, -1, AA)
                a = m[..., None].astype(np.float32) / 255
                roi = tex[y:y + ch, x:x + cw].astype(np.float32)
                tex[y:y + ch, x:x + cw] = (roi * (1 - a) + face * a).astype(np.uint8)
            else:
                tex[y:y + ch, x:x + cw] = face
    if gp == 0 and d['grid_lines']:
        lw = max(1, int(round(0.012 * cw)))
        lc = col(d['line_col'])
        for k in range(1, 10):
            x = gx0 + k * cw
            cv2.line(tex, (x, gy0), (x, gy0 + g.gh_px - 1), lc, lw, AA)
            y = gy0 + k * ch
            cv2.line(tex, (gx0, y), (gx0 + g.gw_px - 1, y), lc, lw, AA)
    if d['fold'] != 'none' and d['crease_visible']:
        lw = max(1, int(round(0.006 * W)))
        if d['fold'] in ('v', 'both'):
            xm = W // 2
            tex[:, xm - lw // 2:xm - lw // 2 + lw] = (tex[:, xm - lw // 2:xm - lw // 2 + lw] * 0.55).astype(np.uint8)
            tex[:, xm + lw - lw // 2:xm + lw - lw // 2 + lw] = np.minimum(
                255, tex[:, xm + lw - lw // 2:xm + lw - lw // 2 + lw].astype(np.int32) + 25).astype(np.uint8)
        if d['fold'] in ('h', 'both'):
            ym = H // 2
            tex[ym - lw // 2:ym - lw // 2 + lw] = (tex[ym - lw // 2:ym - lw // 2 + lw] * 0.55).astype(np.uint8)
    # print texture / slight wear
    pn = fbm(rng, H, W, max(3, W / 150), 3)
    tex = np.clip(tex.astype(np.float32) * (1 + 0.025 * pn[..., None]), 0, 255).astype(np.uint8)
    return tex


def card_on_table_texture(rng, code, w, h, st, back=None):
    """RGBA float premultiplied texture of a loose playing card (face up, or back if back)."""
    if back is not None:
        img = np.empty((h, w, 3), np.uint8)
        img[:] = 250
        bw = max(2, int(0.06 * w))
        inner = img[bw:h - bw, bw:w - bw]
        inner[:] = col(back)
        yy, xx = np.mgrid[0:inner.shape[0], 0:inner.shape[1]]
        per = max(4, w // 9)
        pat = ((xx + yy) // per + (xx - yy) // per) % 2 == 0
        inner[pat] = (np.asarray(back) * 0.7).astype(np.uint8)
    else:
        img = draw_card_face(code[0], code[1], w, h, st)
    a = np.zeros((h, w), np.uint8)
    cr = max(2, int(0.06 * w))
    cv2.rectangle(a, (cr, 0), (w - 1 - cr, h - 1), 255, -1)
    cv2.rectangle(a, (0, cr), (w - 1, h - 1 - cr), 255, -1)
    for (px, py) in [(cr, cr), (w - 1 - cr, cr), (cr, h - 1 - cr), (w - 1 - cr, h - 1 - cr)]:
        cv2.circle(a, (px, py), cr, 255, -1, AA)
    # thin grey outline (card edge)
    edge = cv2.erode(a, np.ones((3, 3), np.uint8))
    img = img.astype(np.float32) / 255
    img[(a > 0) & (edge == 0)] *= 0.8
    af = a.astype(np.float32)[..., None] / 255
    return np.concatenate([img * af, af], 2)


# ------------------------------------------------------------------ chips
def chip_top_texture(S, color, cd, light_ang, hl_ang):
    """Premultiplied RGBA float texture (S x S) of a chip top seen from straight above.
    cd: chip design dict; light_ang: direction of the light (image of world XY angle)."""
    yy, xx = (np.mgrid[0:S, 0:S].astype(np.float32) + 0.5 - S / 2) / (S / 2)
    r = np.sqrt(xx * xx + yy * yy)
    ang = np.arctan2(yy, xx)
    base = np.asarray(color, np.float32) / 255
    shade = 1.0 - 0.18 * np.clip((r - 0.82) / 0.18, 0, 1) ** 2          # bevel at rim
    shade += 0.06 * np.cos(ang - light_ang) * r                         # gentle dome
    emb = np.zeros_like(r)
    if cd['ring']:
        w = cd['ring_w']
        g = np.exp(-((r - cd['ring_r']) / w) ** 2)
        emb = g * np.cos(ang - light_ang) * cd['ring_depth']
        shade -= 0.05 * g
    if cd['inner_ring']:
        g = np.exp(-((r - cd['ring_r'] * 0.55) / (cd['ring_w'] * 0.8)) ** 2)
        emb += g * np.cos(ang - light_ang) * cd['ring_depth'] * 0.7
    rgb = base[None, None] * (shade + emb)[..., None]
    # specular: soft spot + arc near the rim on the highlight side
    hx, hy = np.cos(hl_ang), np.sin(hl_ang)
    d2 = (xx - cd['hl_off'] * hx) ** 2 + (yy - cd['hl_off'] * hy) ** 2
    spec = cd['hl_str'] * np.exp(-d2 / (2 * cd['hl_size'] ** 2))
    arc = cd['arc_str'] * np.exp(-((r - 0.86) / 0.05) ** 2) * np.clip(np.cos(ang - hl_ang), 0, 1) ** 3
    spec = spec + arc
    rgb = rgb + spec[..., None] * (1 - rgb * 0.3)
    alpha = np.clip((1.0 - r) * S / 2 + 0.5, 0, 1)
    rgb = np.clip(rgb, 0, 1)
    return np.concatenate([rgb * alpha[..., None], alpha[..., None]], 2).astype(np.float32)


# ------------------------------------------------------------------ table & floor
WOODS = [(196, 152, 100), (160, 110, 65), (110, 70, 42), (70, 45, 30), (215, 190, 150), (130, 95, 70)]
CLOTHS = [(235, 235, 230), (200, 40, 40), (40, 70, 140), (60, 110, 60), (230, 215, 180), (90, 90, 95),
          (30, 30, 35), (150, 120, 170), (240, 200, 80), (180, 210, 230)]


def table_texture(rng, kind, W, H, ppc):
    """Float32 RGB [0,1] texture (H, W) for a table surface; ppc px per cm."""
    if kind == 'wood':
        base = np.asarray(WOODS[rng.integers(len(WOODS))], np.float32) / 255
        plank = rng.uniform(8, 22) * ppc
        vertical = rng.random() < 0.5
        L, S = (H, W) if vertical else (W, H)        # L along grain
        v = np.arange(S, dtype=np.float32)
        pidx = np.floor(v / plank).astype(int)
        tone = 1 + 0.12 * rng.standard_normal(pidx.max() + 2).astype(np.float32)
        phase = rng.uniform(0, 100, pidx.max() + 2).astype(np.float32)
        warp = fbm(rng, S, L, max(8, 30 * ppc), 3) * rng.uniform(1.0, 3.0)
        period = rng.uniform(0.4, 1.2) * ppc
        ring = np.sin((v[:, None] / period + phase[pidx][:, None] + warp) * 2 * np.pi) * 0.5 + 0.5
        ring = ring ** rng.uniform(1.5, 4)
        streak = cv2.resize(rng.standard_normal((S, max(2, L // 40))).astype(np.float32), (L, S),
                            interpolation=cv2.INTER_LINEAR)
        val = tone[pidx][:, None] * (1 - 0.22 * ring + 0.05 * streak)
        gapm = (np.abs(v - np.round(v / plank) * plank) < max(0.6, 0.08 * ppc))
        val[gapm] *= 0.45
        tex = val[..., None] * base[None, None]
        if vertical:
            tex = tex.transpose(1, 0, 2)
    elif kind in ('cloth', 'felt', 'solid', 'gingham', 'stripes', 'dots'):
        base = np.asarray(CLOTHS[rng.integers(len(CLOTHS))], np.float32) / 255
        if kind == 'felt':
            base = np.asarray([(30, 110, 60), (25, 60, 120), (120, 25, 30)][rng.integers(3)], np.float32) / 255
        if kind == 'solid':
            base = np.asarray([(245, 245, 242), (200, 200, 198), (40, 40, 42), (225, 210, 185),
                               (150, 150, 155)][rng.integers(5)], np.float32) / 255
        tex = np.ones((H, W, 3), np.float32) * base
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        if kind == 'gingham':
            per = rng.uniform(1.0, 3.5) * ppc
            c2 = np.asarray(CLOTHS[rng.integers(len(CLOTHS))], np.float32) / 255
            sx = ((xx // per) % 2 == 0).astype(np.float32)
            sy = ((yy // per) % 2 == 0).astype(np.float32)
            m = (0.5 * sx + 0.5 * sy)[..., None]
            tex = base * (1 - m) + (base * 0.35 + c2 * 0.65) * m
            tex = cv2.GaussianBlur(tex, (0, 0), max(0.5, 0.03 * ppc))
        elif kind == 'stripes':
            per = rng.uniform(1.5, 6) * ppc
            c2 = np.asarray(CLOTHS[rng.integers(len(CLOTHS))], np.float32) / 255
            m = ((xx // per) % 2 == 0).astype(np.float32)[..., None]
            tex = base * (1 - m) + c2 * m
        elif kind == 'dots':
            per = rng.uniform(2, 5) * ppc
            c2 = np.asarray(CLOTHS[rng.integers(len(CLOTHS))], np.float32) / 255
            dd = ((xx % per) - per / 2) ** 2 + (((yy + (xx // per) % 2 * per / 2) % per) - per / 2) ** 2
            m = np.clip((per * 0.22) - np.sqrt(dd) + 0.5, 0, 1)[..., None]
            tex = base * (1 - m) + c2 * m
        if kind != 'solid':
            weave = rng.standard_normal((H, W)).astype(np.float32) * (0.05 if kind == 'felt' else 0.03)
            tex = tex * (1 + weave[..., None])
            # wrinkles / folds: anisotropic, mostly along one direction
            st = rng.uniform(2, 6)
            if rng.random() < 0.5:
                wr = cv2.resize(fbm(rng, H, max(4, int(W / st)), rng.uniform(6, 20) * ppc, 3), (W, H))
            else:
                wr = cv2.resize(fbm(rng, max(4, int(H / st)), W, rng.uniform(6, 20) * ppc, 3), (W, H))
            tex = tex * (1 + rng.uniform(0.03, 0.07) * wr[..., None])
        else:
            tex = tex * (1 + 0.02 * fbm(rng, H, W, 20 * ppc, 2)[..., None])
    else:
        raise ValueError(kind)
    return np.clip(tex, 0, 1).astype(np.float32)
