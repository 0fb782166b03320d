"""Playing-card faces, court figures, FREE corners and the Sequence board texture.

Everything is drawn procedurally with PIL (supersampled) and numpy.  All randomness
comes from the numpy Generator passed in.
"""
import functools
import math

import numpy as np
import cv2
from PIL import Image, ImageDraw, ImageFont

from referee.cells import LAYOUT as PRINTED

FD = '/usr/share/fonts/truetype/'
RANK_FONTS = [
    'dejavu/DejaVuSerif-Bold.ttf', 'liberation/LiberationSerif-Bold.ttf',
    'dejavu/DejaVuSans-Bold.ttf', 'liberation/LiberationSans-Bold.ttf',
    'dejavu/DejaVuSansCondensed-Bold.ttf', 'liberation/LiberationSansNarrow-Bold.ttf',
    'dejavu/DejaVuSerifCondensed-Bold.ttf', 'liberation/LiberationSerif-Regular.ttf',
    'dejavu/DejaVuSerif.ttf',
]
TITLE_FONTS = [
    'dejavu/DejaVuSerif-Bold.ttf', 'liberation/LiberationSerif-Bold.ttf',
    'dejavu/DejaVuSans-Bold.ttf', 'liberation/LiberationSans-BoldItalic.ttf',
    'dejavu/DejaVuSerifCondensed-BoldItalic.ttf', 'liberation/LiberationSansNarrow-Bold.ttf',
    'dejavu/DejaVuSansCondensed-Bold.ttf',
]
SUIT_CHARS = {'S': '\u2660', 'H': '\u2665', 'D': '\u2666', 'C': '\u2663'}

LAYOUT = [list(PRINTED[row * 10:(row + 1) * 10]) for row in range(10)]  # the printed layout, row 0 first


@functools.lru_cache(maxsize=256)
def font(path, size):
    return ImageFont.truetype(FD + path, max(4, int(size)))


# ----------------------------------------------------------------------------- suits
def _poly_mask(pts, n=256):
    im = Image.new('L', (n, n), 0)
    ImageDraw.Draw(im).polygon([(float(x), float(y)) for x, y in pts], fill=255)
    return im


def _heart_pts(n=256, flip=False, top=0.0, bot=1.0):
    t = np.linspace(0, 2 * np.pi, 200)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    x = (x - x.min()) / (x.max() - x.min())
    y = (y - y.min()) / (y.max() - y.min())
    if flip:
        y = 1 - y
    y = top + y * (bot - top)
    return np.stack([x * (n - 1), y * (n - 1)], 1)


@functools.lru_cache(maxsize=16)
def suit_mask(suit, style):
    """Return a float32 mask (h, w) in [0,1] of the suit glyph, cropped tight."""
    n = 256
    if style == 'font':
        f = font('dejavu/DejaVuSans.ttf', 230)
        im = Image.new('L', (n + 60, n + 60), 0)
        ImageDraw.Draw(im).text((30, 10), SUIT_CHARS[suit], font=f, fill=255)
    elif style == 'fontserif':
        f = font('dejavu/DejaVuSerif.ttf', 230)
        im = Image.new('L', (n + 60, n + 60), 0)
        ImageDraw.Draw(im).text((30, 10), SUIT_CHARS[suit], font=f, fill=255)
    else:
        im = Image.new('L', (n, n), 0)
        d = ImageDraw.Draw(im)
        s = n - 1
        if suit == 'H':
            d.polygon([tuple(p) for p in _heart_pts(n)], fill=255)
        elif suit == 'D':
            pts = []
            k = 0.12 if style == 'geo' else 0.04
            corners = [(0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)]
            for i in range(4):
                a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
                mid = (a + b) / 2
                c = mid + (np.array([0.5, 0.5]) - mid) * k * 2
                for t in np.linspace(0, 1, 16, endpoint=False):
                    p = (1 - t) ** 2 * a + 2 * (1 - t) * t * c + t ** 2 * b
                    pts.append((p[0] * s, p[1] * s))
            d.polygon(pts, fill=255)
        else:
            if suit == 'S':
                hp = _heart_pts(n, flip=True, top=0.0, bot=0.78)
                d.polygon([tuple(p) for p in hp], fill=255)
            else:
                r = 0.235 * s
                for cx, cy in [(0.5, 0.25), (0.255, 0.56), (0.745, 0.56)]:
                    d.ellipse([cx * s - r, cy * s - r, cx * s + r, cy * s + r], fill=255)
                d.polygon([(0.5 * s, 0.3 * s), (0.3 * s, 0.6 * s), (0.7 * s, 0.6 * s)], fill=255)
            # stem
            st = []
            for t in np.linspace(0, 1, 12):
                w = 0.03 + 0.17 * t ** 2.2
                st.append(((0.5 - w) * s, (0.55 + 0.45 * t) * s))
            for t in np.linspace(1, 0, 12):
                w = 0.03 + 0.17 * t ** 2.2
                st.append(((0.5 + w) * s, (0.55 + 0.45 * t) * s))
            d.polygon(st, fill=255)
    a = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.02)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    return np.ascontiguousarray(a)


def paste_mask(img, mask, cx, cy, h, color, rot=False, wscale=1.0):
    """Alpha-composite a solid colour through `mask` resized to height h, centred at (cx, cy).
    img: float32 HxWx3 (0..1), color: 3 floats."""
    mh, mw = mask.shape
    h = max(2.0, h)
    w = max(2.0, h * mw / mh * wscale)
    hi, wi = int(round(h)), int(round(w))
    m = cv2.resize(mask, (wi, hi), interpolation=cv2.INTER_AREA if hi < mh else cv2.INTER_LINEAR)
    if rot:
        m = m[::-1, ::-1]
    x0 = int(round(cx - wi / 2))
    y0 = int(round(cy - hi / 2))
    H, W = img.shape[:2]
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(W, x0 + wi), min(H, y0 + hi)
    if xb <= xa or yb <= ya:
        return
    mm = m[ya - y0:yb - y0, xa - x0:xb - x0, None]
    reg = img[ya:yb, xa:xb]
    reg *= (1 - mm)
    reg += mm * np.asarray(color, np.float32)


def text_mask(txt, fontpath, h, wscale=1.0):
    """Tight mask of text rendered at roughly height h (cap height) px."""
    f = font(fontpath, h * 1.45 * 2)
    bb = f.getbbox(txt)
    im = Image.new('L', (bb[2] - bb[0] + 8, bb[3] - bb[1] + 8), 0)
    ImageDraw.Draw(im).text((4 - bb[0], 4 - bb[1]), txt, font=f, fill=255)
    a = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.05)
    if len(ys) == 0:
        return np.zeros((2, 2), np.float32)
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


# ----------------------------------------------------------------------------- colours
def jitter(rng, c, s=12):
    return tuple(int(np.clip(v + rng.normal(0, s), 0, 255)) for v in c)


def palette(rng):
    """Court-card palette of an edition."""
    red = jitter(rng, (200, 30, 40), 15)
    blue = jitter(rng, rng.choice([(30, 60, 170), (40, 90, 190), (25, 40, 120)]).tolist(), 12)
    yellow = jitter(rng, rng.choice([(245, 200, 40), (250, 215, 90), (235, 175, 30)]).tolist(), 10)
    black = jitter(rng, (25, 25, 30), 6)
    green = jitter(rng, rng.choice([(40, 130, 60), (30, 110, 90), (90, 150, 50)]).tolist(), 12)
    gold = jitter(rng, (212, 170, 60), 10)
    skin = jitter(rng, rng.choice([(245, 210, 175), (240, 195, 155), (250, 225, 200)]).tolist(), 6)
    white = jitter(rng, (250, 248, 240), 3)
    purple = jitter(rng, (110, 50, 140), 12)
    return dict(red=red, blue=blue, yellow=yellow, black=black, green=green, gold=gold,
                skin=skin, white=white, purple=purple)


# ----------------------------------------------------------------------------- court figure
def court_figure(rng, rank, suit, fw, fh, ed):
    """Draw a double-ended court figure of size (fw, fh) px. Returns RGB uint8 array."""
    S = 3
    W, H = fw * S, fh * S
    P = ed['pal']
    im = Image.new('RGB', (W, H), ed['frame_bg'])
    d = ImageDraw.Draw(im)
    dirn = 1 if rng.random() < 0.5 else -1
    ol = ed['outline']
    lw = max(1, int(round(S * fw / 60.0))) if ol else 0
    olc = P['black']

    def X(u):
        return u * W

    vs = 1.6 if ed['single'] else 1.0  # single-ended portraits fill the whole frame

    def Y(v):
        return v * H * vs

    def poly(pts, fill, outline=True):
        q = [(X(0.5 + (u - 0.5) * dirn), Y(v)) for u, v in pts]
        if outline and ol:
            d.polygon(q, fill=fill, outline=olc, width=lw)
        else:
            d.polygon(q, fill=fill)

    def ell(u, v, ru, rv, fill, outline=True):
        u = 0.5 + (u - 0.5) * dirn
        box = [X(u - ru), Y(v - rv), X(u + ru), Y(v + rv)]
        if outline and ol:
            d.ellipse(box, fill=fill, outline=olc, width=lw)
        else:
            d.ellipse(box, fill=fill)

    def line(pts, fill, w):
        q = [(X(0.5 + (u - 0.5) * dirn), Y(v)) for u, v in pts]
        d.line(q, fill=fill, width=max(1, int(w * W)))

    cols = [P[k] for k in ed['robe_cols']]
    rng.shuffle(cols)
    c1, c2, c3 = cols[0], cols[1], cols[2]
    hair = P[rng.choice(ed['hair_cols'])]
    trim = P['gold'] if rng.random() < 0.6 else P['yellow']
    item = rng.choice(['sword', 'sceptre', 'axe', 'orb']) if rank == 'K' else rng.choice(['flower', 'flower', 'sceptre', 'fan'])
    cy = 0.2  # head centre v

    # item behind
    if item == 'sword':
        poly([(0.16, 0.52), (0.21, 0.52), (0.28, 0.02), (0.245, -0.02), (0.22, 0.02)], (200, 205, 215))
        poly([(0.11, 0.43), (0.27, 0.44), (0.27, 0.465), (0.11, 0.455)], trim)
    if item == 'axe':
        line([(0.2, 0.55), (0.24, 0.03)], (120, 80, 40), 0.025)
        poly([(0.22, 0.05), (0.08, 0.02), (0.06, 0.14), (0.23, 0.12)], (190, 195, 205))
    # body / robe
    body = [(0.0, 0.44), (0.08, 0.35), (0.24, 0.29), (0.76, 0.29), (0.92, 0.35), (1.0, 0.44), (1.0, 0.62), (0.0, 0.62)]
    poly(body, c1)
    poly([(0.5, 0.29), (0.76, 0.29), (0.92, 0.35), (1.0, 0.44), (1.0, 0.62), (0.46, 0.62)], c2)
    # robe pattern on c1 part
    pat = ed['pattern']
    if pat == 'stripes':
        for k in range(5):
            v0 = 0.36 + k * 0.06
            poly([(0.0, v0), (0.48, v0 - 0.05), (0.48, v0 - 0.03), (0.0, v0 + 0.02)], c3, outline=False)
    elif pat == 'dots':
        for k in range(4):
            for j in range(3):
                ell(0.07 + 0.12 * j + 0.05 * (k % 2), 0.38 + 0.06 * k, 0.022, 0.016, c3, outline=False)
    elif pat == 'trefoil':
        for k in range(3):
            for j in range(2):
                u, v = 0.1 + 0.18 * j + 0.08 * (k % 2), 0.38 + 0.08 * k
                for du, dv in [(0, -0.015), (-0.018, 0.006), (0.018, 0.006)]:
                    ell(u + du, v + dv, 0.016, 0.011, c3, outline=False)
    elif pat == 'checks':
        for k in range(4):
            for j in range(4):
                if (k + j) % 2 == 0:
                    u, v = 0.02 + 0.11 * j, 0.36 + 0.06 * k
                    poly([(u, v), (u + 0.11, v), (u + 0.11, v + 0.06), (u, v + 0.06)], c3, outline=False)
    # right side pattern: zigzag band
    zz = []
    for k in range(9):
        zz.append((0.6 + 0.05 * (k % 2), 0.33 + 0.035 * k))
    line(zz, P['black'] if c2 != P['black'] else P['yellow'], 0.012)
    # trim band at split
    poly([(0.46, 0.29), (0.54, 0.29), (0.52, 0.62), (0.44, 0.62)], trim)
    for k in range(5):
        ell(0.49, 0.34 + 0.055 * k, 0.013, 0.01, c3 if rng.random() < 0.5 else P['red'], outline=False)
    # ermine shoulder for king
    if rank == 'K' and ed['ermine']:
        poly([(0.08, 0.35), (0.24, 0.29), (0.76, 0.29), (0.92, 0.35), (0.92, 0.39), (0.08, 0.39)], P['white'])
        for k in range(7):
            ell(0.14 + 0.12 * k, 0.355, 0.008, 0.015, P['black'], outline=False)
    # hair back
    if rank == 'Q':
        poly([(0.33, 0.12), (0.67, 0.12), (0.74, 0.24), (0.72, 0.36), (0.28, 0.36), (0.26, 0.24)], hair)
        if ed['veil']:
            poly([(0.3, 0.08), (0.7, 0.08), (0.86, 0.3), (0.8, 0.42), (0.7, 0.3), (0.3, 0.3), (0.2, 0.42), (0.14, 0.3)], c3)
    else:
        poly([(0.35, 0.12), (0.65, 0.12), (0.7, 0.22), (0.68, 0.3), (0.32, 0.3), (0.3, 0.22)], hair)
    # collar
    col = P['white'] if rng.random() < 0.6 else P['yellow']
    poly([(0.3, 0.27), (0.7, 0.27), (0.74, 0.32), (0.5, 0.35), (0.26, 0.32)], col)
    for k in range(6):
        ell(0.31 + 0.076 * k, 0.322, 0.02, 0.012, col)
    # neck + face
    poly([(0.45, 0.24), (0.55, 0.24), (0.55, 0.29), (0.45, 0.29)], P['skin'])
    ell(0.51, cy, 0.115, 0.085, P['skin'])
    # eyes / nose / mouth, looking to the side
    for eu in (0.465, 0.555):
        ell(eu, cy - 0.01, 0.022, 0.009, P['white'], outline=False)
        ell(eu + 0.01, cy - 0.01, 0.009, 0.008, P['black'], outline=False)
        line([(eu - 0.022, cy - 0.03), (eu + 0.02, cy - 0.032)], hair if rank == 'K' else P['black'], 0.008)
    line([(0.51, cy - 0.008), (0.53, cy + 0.03), (0.51, cy + 0.035)], (150, 90, 70), 0.007)
    if rank == 'K':
        poly([(0.40, cy + 0.01), (0.44, cy + 0.045), (0.51, cy + 0.05), (0.58, cy + 0.045), (0.62, cy + 0.01),
              (0.63, cy + 0.06), (0.58, cy + 0.13), (0.52, cy + 0.16), (0.46, cy + 0.13), (0.40, cy + 0.06)], hair)
        poly([(0.44, cy + 0.05), (0.51, cy + 0.04), (0.58, cy + 0.05), (0.56, cy + 0.06), (0.51, cy + 0.055), (0.46, cy + 0.06)], hair)
        ell(0.51, cy + 0.07, 0.02, 0.008, P['red'], outline=False)
    else:
        ell(0.51, cy + 0.05, 0.022, 0.009, P['red'], outline=False)
        ell(0.45, cy + 0.025, 0.02, 0.012, (240, 160, 150), outline=False)
        ell(0.57, cy + 0.025, 0.02, 0.012, (240, 160, 150), outline=False)
        poly([(0.4, cy - 0.07), (0.62, cy - 0.07), (0.6, cy - 0.04), (0.5, cy - 0.05), (0.41, cy + 0.0)], hair)
    # crown
    if rank == 'K':
        poly([(0.37, 0.12), (0.65, 0.12), (0.66, 0.085), (0.36, 0.085)], trim)
        pts = [(0.36, 0.085)]
        for k in range(5):
            u = 0.36 + 0.3 * (k + 0.5) / 5
            pts += [(u, 0.005), (0.36 + 0.3 * (k + 1) / 5, 0.07)]
        pts[-1] = (0.66, 0.085)
        poly(pts, trim)
        for k in range(5):
            ell(0.36 + 0.3 * (k + 0.5) / 5, 0.008, 0.012, 0.008, P['white'], outline=False)
        for k, jc in enumerate([P['red'], P['blue'], P['green'], P['red']]):
            ell(0.4 + 0.075 * k, 0.103, 0.014, 0.01, jc, outline=False)
    else:
        poly([(0.4, 0.11), (0.62, 0.11), (0.64, 0.06), (0.57, 0.075), (0.51, 0.03), (0.45, 0.075), (0.38, 0.06)], trim)
        for k in range(3):
            ell(0.43 + 0.08 * k, 0.095, 0.012, 0.009, [P['red'], P['blue'], P['green']][k], outline=False)
    # necklace
    if rank == 'Q':
        for k in range(9):
            ell(0.38 + 0.03 * k, 0.335 + 0.02 * math.sin(k / 8 * math.pi), 0.01, 0.007, P['white'] if k % 2 else P['red'], outline=False)
    # item in front + hand
    hu = 0.2 if item in ('sword', 'axe') else 0.8
    if item == 'sceptre':
        line([(0.8, 0.58), (0.8, 0.1)], trim, 0.03)
        ell(0.8, 0.09, 0.04, 0.03, trim)
        poly([(0.79, 0.02), (0.81, 0.02), (0.81, 0.06), (0.79, 0.06)], P['red'])
    elif item == 'orb':
        ell(0.8, 0.42, 0.07, 0.05, trim)
        line([(0.8, 0.37), (0.8, 0.31)], trim, 0.02)
        line([(0.78, 0.335), (0.82, 0.335)], trim, 0.02)
        line([(0.73, 0.42), (0.87, 0.42)], P['red'], 0.01)
    elif item == 'flower':
        line([(0.78, 0.5), (0.8, 0.2)], P['green'], 0.015)
        ell(0.76, 0.35, 0.03, 0.015, P['green'])
        fc = P['red'] if rng.random() < 0.6 else P['blue']
        for a in range(6):
            ell(0.8 + 0.035 * math.cos(a), 0.18 + 0.025 * math.sin(a), 0.025, 0.018, fc)
        ell(0.8, 0.18, 0.02, 0.015, P['yellow'])
    elif item == 'fan':
        poly([(0.8, 0.45), (0.66, 0.28), (0.72, 0.24), (0.8, 0.22), (0.88, 0.24), (0.94, 0.28)], c3)
    ell(hu, 0.46, 0.045, 0.03, P['skin'])
    # suit symbol inside the frame
    im_np = np.asarray(im, np.float32) / 255.0
    im_np = np.ascontiguousarray(im_np)
    sm = suit_mask(suit, ed['suit_style'])
    sc = ed['red'] if suit in 'HD' else ed['black']
    su = 0.5 + (0.17 if hu < 0.5 else -0.17) * dirn
    su = 1 - 0.2 if (0.5 + (hu - 0.5) * dirn) < 0.5 else 0.2
    paste_mask(im_np, sm, su * W, 0.06 * H + 0.02 * H, 0.1 * H, np.array(sc) / 255.0)
    if ed['single']:
        full = im_np
    else:
        # double-ended composition
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        if ed['divide'] == 'diag':
            upper = (yy / H) < 0.5 + 0.12 * (0.5 - xx / W) * 2
        else:
            upper = (yy / H) < 0.5
        full = np.where(upper[..., None], im_np, im_np[::-1, ::-1])
        if ed['divide'] == 'diag':
            dl = np.abs((yy / H) - (0.5 + 0.12 * (0.5 - xx / W) * 2)) < 0.004
        else:
            dl = np.abs((yy / H) - 0.5) < 0.004
        full[dl] = np.array(ed['frame_col'], np.float32) / 255.0
    out = cv2.resize(full, (fw, fh), interpolation=cv2.INTER_AREA)
    return out


# ----------------------------------------------------------------------------- card face
PIPS = {
    2: [(0.5, 0), (0.5, 1)],
    3: [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}
RANKVAL = {'A': 1, 'T': 10, 'J': 11, 'Q': 12, 'K': 13}


def edition(rng):
    """Random card-design parameters shared by all cards of one board."""
    ed = {}
    ed['pal'] = palette(rng)
    ed['red'] = jitter(rng, rng.choice([(200, 20, 30), (215, 35, 35), (180, 20, 40), (225, 50, 40)]).tolist(), 8)
    ed['black'] = jitter(rng, rng.choice([(20, 20, 20), (30, 30, 40), (10, 10, 10)]).tolist(), 5)
    ed['paper'] = jitter(rng, rng.choice([(250, 250, 248), (245, 242, 232), (252, 248, 236), (238, 238, 236)]).tolist(), 3)
    ed['rank_font'] = RANK_FONTS[rng.integers(len(RANK_FONTS))]
    ed['suit_style'] = rng.choice(['geo', 'geo2', 'font', 'fontserif'])
    ed['idx_h'] = rng.uniform(0.11, 0.17)
    ed['idx_suit_h'] = rng.uniform(0.075, 0.11)
    ed['idx_mx'] = rng.uniform(0.04, 0.08)
    ed['idx_my'] = rng.uniform(0.04, 0.07)
    ed['idx_four'] = rng.random() < 0.2
    ed['ten_squeeze'] = rng.uniform(0.6, 0.85)
    ed['pip_h'] = rng.uniform(0.11, 0.145)
    ed['pip_area'] = (rng.uniform(0.28, 0.33), rng.uniform(0.15, 0.2))  # x margin, y margin
    ed['ace_h'] = rng.uniform(0.3, 0.45)
    ed['outline'] = rng.random() < 0.75
    ed['robe_cols'] = list(rng.choice([['red', 'blue', 'yellow'], ['red', 'blue', 'green'], ['blue', 'yellow', 'black'],
                                       ['red', 'yellow', 'black'], ['red', 'green', 'yellow'], ['purple', 'yellow', 'red']]))
    ed['hair_cols'] = ['yellow', 'black', 'gold'] if rng.random() < 0.6 else ['yellow', 'yellow', 'red']
    ed['pattern'] = rng.choice(['stripes', 'dots', 'trefoil', 'checks', 'none'])
    ed['ermine'] = rng.random() < 0.5
    ed['veil'] = rng.random() < 0.5
    ed['divide'] = rng.choice(['diag', 'horiz'])
    ed['single'] = rng.random() < 0.2
    ed['frame_col'] = ed['pal'][rng.choice(['black', 'blue', 'gold', 'red'])]
    ed['frame_bg'] = ed['paper'] if rng.random() < 0.7 else jitter(rng, (250, 235, 170), 8)
    ed['frame_box'] = (rng.uniform(0.16, 0.22), rng.uniform(0.08, 0.12))
    ed['corner_r'] = rng.uniform(0.03, 0.1)
    return ed


def card_face(rng, code, cw, ch, ed):
    """Render a card face of size (cw, ch) px.  Returns float32 RGB (0..1)."""
    paper = np.array(ed['paper'], np.float32) / 255.0
    img = np.empty((ch, cw, 3), np.float32)
    img[:] = paper
    r, s = code[:-1], code[-1]
    col = np.array(ed['red'] if s in 'HD' else ed['black'], np.float32) / 255.0
    sm = suit_mask(s, ed['suit_style'])
    # index geometry first (pips and frame keep clear of it)
    rank_txt = '10' if r == 'T' else r
    tm = _rank_mask(rank_txt, ed['rank_font'])
    ih = ed['idx_h'] * ch
    iw_scale = ed['ten_squeeze'] if r == 'T' else 1.0
    imx = ed['idx_mx'] * cw
    sh = ed['idx_suit_h'] * ch
    tw = ih * tm.shape[1] / tm.shape[0] * iw_scale
    sw = sh * sm.shape[1] / sm.shape[0]
    idx_w = max(tw, sw)
    if idx_w > 0.2 * cw:  # keep indices in the corner
        k = 0.2 * cw / idx_w
        ih, sh, tw, sw, idx_w = ih * k, sh * k, tw * k, sw * k, idx_w * k
    idx_right = imx + idx_w
    # pips / ace / court
    if r in 'KQ':
        fx, fy = ed['frame_box']
        fx = max(fx, idx_right / cw + 0.025)
        x0, y0 = int(round(fx * cw)), int(round(fy * ch))
        fw, fh = cw - 2 * x0, ch - 2 * y0
        if fw > 6 and fh > 6:
            fig = court_figure(rng, r, s, fw, fh, ed)
            img[y0:y0 + fh, x0:x0 + fw] = fig
            fc = np.array(ed['frame_col'], np.float32) / 255.0
            t = max(1, int(round(cw / 70)))
            img[y0:y0 + t, x0:x0 + fw] = fc
            img[y0 + fh - t:y0 + fh, x0:x0 + fw] = fc
            img[y0:y0 + fh, x0:x0 + t] = fc
            img[y0:y0 + fh, x0 + fw - t:x0 + fw] = fc
    elif r == 'A':
        h = ed['ace_h'] * ch * (1.15 if s == 'S' else 1.0)
        h = min(h, 0.62 * cw)
        paste_mask(img, sm, cw / 2, ch / 2, h, col)
        if s == 'S' and ed['outline']:
            # ornamental ring
            cv2.ellipse(img, (int(cw / 2), int(ch / 2)), (int(h * 0.62), int(h * 0.62)), 0, 0, 360,
                        tuple(float(v) for v in col), max(1, int(cw / 80)), cv2.LINE_AA)
    else:
        n = int(r) if r != 'T' else 10
        mx, my = ed['pip_area']
        ph = ed['pip_h'] * ch
        pw = ph * sm.shape[1] / sm.shape[0]
        need = (idx_right + 0.03 * cw + pw / 2) / cw
        if need > mx:
            mx = min(need, 0.36)
            if need > 0.36:  # shrink pips to fit
                pw = max(0.1 * cw, (0.36 * cw - idx_right - 0.03 * cw) * 2)
                ph = pw * sm.shape[0] / sm.shape[1]
        for (u, v) in PIPS[n]:
            px = (mx + u * (1 - 2 * mx)) * cw
            py = (my + v * (1 - 2 * my)) * ch
            paste_mask(img, sm, px, py, ph, col, rot=v > 0.5)
    # corner indices
    cxi = imx + idx_w / 2
    cyi = ed['idx_my'] * ch + ih / 2
    corners = [(False, False), (True, True)]
    if ed['idx_four']:
        corners += [(True, False), (False, True)]
    for flipx, flipy in corners:
        X = cw - cxi if flipx else cxi
        rot = flipy
        Yt = ch - cyi if flipy else cyi
        Ys = (ch - (cyi + ih / 2 + sh * 0.65)) if flipy else (cyi + ih / 2 + sh * 0.65)
        paste_mask(img, tm, X, Yt, ih, col, rot=rot, wscale=iw_scale)
        paste_mask(img, sm, X, Ys, sh, col, rot=rot)
    return img


@functools.lru_cache(maxsize=64)
def _rank_mask(txt, fontpath):
    return text_mask(txt, fontpath, 80)


def card_back(rng, cw, ch):
    c = np.array(rng.choice([(170, 30, 40), (30, 60, 150), (30, 100, 60), (20, 20, 30)]), np.float32) / 255.0
    c = np.clip(c + rng.normal(0, 0.03, 3), 0, 1)
    img = np.ones((ch, cw, 3), np.float32) * 0.97
    m = max(2, int(0.06 * cw))
    yy, xx = np.mgrid[0:ch - 2 * m, 0:cw - 2 * m].astype(np.float32)
    per = max(3.0, cw / rng.uniform(6, 12))
    if rng.random() < 0.5:
        pat = (np.sin((xx + yy) / per * np.pi) * np.sin((xx - yy) / per * np.pi)) > 0
    else:
        rr = np.hypot(xx - xx.mean(), yy - yy.mean())
        pat = np.sin(rr / per * np.pi * 1.5) > 0.2
    inner = np.where(pat[..., None], c, c * 0.6 + 0.4)
    img[m:ch - m, m:cw - m] = inner
    return img


# ----------------------------------------------------------------------------- FREE corner
def free_cell(rng, cw, ch, style):
    """style: dict chosen once per board."""
    img = np.empty((ch, cw, 3), np.float32)
    img[:] = np.array(style['bg'], np.float32) / 255.0
    S = 2
    im = Image.fromarray((img * 255).astype(np.uint8)).resize((cw * S, ch * S))
    d = ImageDraw.Draw(im)
    W, H = cw * S, ch * S
    fg = style['fg']
    kind = style['logo']
    cx, cy = W / 2, H / 2
    if style['text_y'] < 0.4:
        cy = H * 0.58
    elif style['text_y'] > 0.6:
        cy = H * 0.42
    k_ = 0.85 if abs(style['text_y'] - 0.5) > 0.1 else 1.0
    if kind == 'disc':
        r = 0.32 * W * k_
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=style['disc'], outline=fg, width=max(1, int(W / 40)))
    elif kind == 'ring':
        r = 0.36 * W * k_
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=fg, width=max(2, int(W / 14)))
    elif kind == 'star':
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = (0.4 if k % 2 == 0 else 0.17) * W * k_
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=style['disc'])
    elif kind == 'chips3':
        r = 0.18 * W * k_
        for k, c in enumerate(style['chips']):
            a = -math.pi / 2 + k * 2 * math.pi / 3
            x, y = cx + 0.16 * W * k_ * math.cos(a), cy + 0.16 * W * k_ * math.sin(a)
            d.ellipse([x - r, y - r, x + r, y + r], fill=c, outline=fg, width=max(1, int(W / 60)))
    img = np.asarray(im.resize((cw, ch), Image.LANCZOS), np.float32) / 255.0
    img = np.ascontiguousarray(img)
    # text
    tm = text_mask('FREE', style['font'], 60)
    tw = cw * style['text_w']
    th = tw * tm.shape[0] / tm.shape[1]
    if style['text_rot']:
        tm2 = np.ascontiguousarray(np.rot90(tm))
        paste_mask(img, tm2, cw / 2, ch / 2, min(ch * 0.8, tw * 1.1), np.array(style['text'], np.float32) / 255.0)
    else:
        ty = ch * style['text_y']
        paste_mask(img, tm, cw / 2, ty, th, np.array(style['text'], np.float32) / 255.0)
    return img


def free_style(rng, ed):
    bgc = rng.choice([(30, 70, 170), (30, 130, 70), (190, 30, 40), (20, 20, 25), (230, 190, 60), (250, 248, 240),
                      (100, 40, 120), (0, 110, 130)])
    bgc = jitter(rng, tuple(bgc), 10)
    light = sum(bgc) > 450
    st = dict(bg=bgc, fg=(20, 20, 20) if light else (240, 240, 235),
              text=(20, 20, 20) if light else (250, 250, 245),
              logo=rng.choice(['disc', 'ring', 'star', 'chips3', 'none']),
              disc=jitter(rng, tuple(rng.choice([(30, 70, 180), (30, 140, 70), (200, 30, 40), (240, 200, 50)])), 10),
              chips=[jitter(rng, (30, 70, 180)), jitter(rng, (30, 140, 70)), jitter(rng, (200, 30, 40))],
              font=TITLE_FONTS[rng.integers(len(TITLE_FONTS))],
              text_w=rng.uniform(0.6, 0.85), text_rot=rng.random() < 0.15, text_y=rng.choice([0.5, 0.2, 0.82]))
    if st['logo'] == 'none':
        st['text_y'] = 0.5
    elif st['logo'] == 'disc' and rng.random() < 0.5:
        st['text_y'] = 0.5
        st['text_w'] = rng.uniform(0.42, 0.5)
        dl = sum(st['disc']) > 450
        st['text'] = (20, 20, 20) if dl else (250, 250, 245)
    else:
        st['text_y'] = float(rng.choice([0.17, 0.84]))
        st['text_w'] = rng.uniform(0.55, 0.75)
        st['text_rot'] = False
    if st['logo'] != 'none':
        st['text_rot'] = False
    return st


# ----------------------------------------------------------------------------- board texture
def board_design(rng):
    bd = {}
    bd['ed'] = edition(rng)
    bd['style'] = rng.choice(['fullcard', 'fullcard', 'inset', 'lines'])
    bd['aspect'] = rng.uniform(1.2, 1.45)
    bd['card_w_mm'] = rng.uniform(36, 48)
    bd['gap'] = rng.uniform(0.02, 0.08) if bd['style'] == 'fullcard' else 0.0
    bd['inset'] = rng.uniform(0.6, 0.85)
    bd['line_w'] = rng.uniform(0.01, 0.035)
    bc = rng.choice([(20, 90, 50), (20, 20, 25), (30, 50, 120), (140, 25, 30), (200, 170, 120), (240, 235, 220),
                     (90, 30, 50), (10, 70, 80), (60, 60, 65), (160, 110, 60)])
    bd['border_col'] = jitter(rng, tuple(bc), 10)
    if rng.random() < 0.5:
        bd['field_col'] = bd['border_col']
    else:
        bd['field_col'] = jitter(rng, tuple(rng.choice([(20, 20, 25), (30, 100, 60), (235, 230, 215), (40, 60, 130), (150, 30, 35)])), 10)
    bd['cell_bg'] = jitter(rng, tuple(rng.choice([(40, 120, 70), (230, 220, 190), (40, 70, 150), (180, 40, 40), (250, 250, 245), (30, 30, 35)])), 10)
    bd['line_col'] = jitter(rng, tuple(rng.choice([(20, 20, 20), (240, 240, 230), (200, 170, 70)])), 8)
    bd['border_mm'] = [rng.uniform(15, 45) for _ in range(4)]  # top, right, bottom, left
    if rng.random() < 0.6:
        t = rng.uniform(28, 55)
        bd['border_mm'][0] = t
        bd['border_mm'][2] = t if rng.random() < 0.7 else bd['border_mm'][2]
    bd['title'] = rng.random() < 0.7
    bd['title_font'] = TITLE_FONTS[rng.integers(len(TITLE_FONTS))]
    light = sum(bd['border_col']) > 400
    bd['title_col'] = jitter(rng, tuple(rng.choice([(250, 250, 240), (240, 200, 60), (200, 30, 40)] if not light else [(20, 20, 20), (180, 30, 40), (30, 60, 150)])), 8)
    bd['title_both'] = rng.random() < 0.6
    bd['logo'] = rng.random() < 0.6
    bd['free'] = free_style(rng, bd['ed'])
    bd['folds'] = rng.choice(['h', 'v', 'hv', 'none'], p=[0.45, 0.2, 0.25, 0.1])
    bd['fold_lift_mm'] = [rng.uniform(-0.5, 3.5), rng.uniform(-0.5, 2.5)]
    bd['thick_mm'] = rng.uniform(1.8, 3.2)
    bd['linen'] = rng.uniform(0.0, 0.06)
    bd['gloss'] = rng.uniform(0.15, 1.0)
    bd['wear'] = rng.uniform(0, 1)
    bd['edge_col'] = jitter(rng, tuple(rng.choice([(30, 30, 30), (230, 225, 210), tuple(bd['border_col'])])), 6)
    bd['outer_line'] = rng.random() < 0.5
    return bd


def board_geometry(bd):
    """Board-plane geometry in mm: grid from (0,0) to (GW, GH), cell centres, pitch."""
    cw = bd['card_w_mm']
    chh = cw * bd['aspect']
    if bd['style'] == 'fullcard':
        g = bd['gap'] * cw
        GW = 10 * cw + 9 * g
        GH = 10 * chh + 9 * g
        px, py = cw + g, chh + g
        cx = np.arange(10) * px + cw / 2
        cy = np.arange(10) * py + chh / 2
    else:
        px, py = cw, chh
        GW, GH = 10 * cw, 10 * chh
        cx = (np.arange(10) + 0.5) * px
        cy = (np.arange(10) + 0.5) * py
    bt, br, bb, bl = bd['border_mm']
    return dict(GW=GW, GH=GH, px=px, py=py, cx=cx, cy=cy, card_w=cw, card_h=chh,
                bx0=-bl, by0=-bt, bx1=GW + br, by1=GH + bb)


def _rounded_mask(h, w, r):
    m = np.ones((h, w), np.float32)
    r = int(r)
    if r < 1:
        return m
    yy, xx = np.mgrid[0:r, 0:r].astype(np.float32)
    q = np.clip(r - np.hypot(xx + 0.5 - r, yy + 0.5 - r) + 0.5, 0, 1)
    m[:r, :r] = q
    m[:r, -r:] = q[:, ::-1]
    m[-r:, :r] = q[::-1, :]
    m[-r:, -r:] = q[::-1, ::-1]
    return m


def fbm(rng, h, w, scales=(4, 8, 16, 32, 64), amps=None):
    out = np.zeros((h, w), np.float32)
    if amps is None:
        amps = [1.0 / (i + 1) for i in range(len(scales))]
    for s, a in zip(scales, amps):
        gh, gw = max(2, int(h / s) + 2), max(2, int(w / s) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += a * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
    return out


def board_texture(rng, bd, geo, s):
    """Render the board top texture at s px/mm.  Returns uint8 RGB texture and the
    board-mm coordinate of texel (0,0)'s centre minus half a texel: (x0, y0) such that
    texel (i, j) centre is board point (x0 + (i+0.5)/s, y0 + (j+0.5)/s)."""
    x0, y0 = geo['bx0'], geo['by0']
    TW = int(math.ceil((geo['bx1'] - x0) * s))
    TH = int(math.ceil((geo['by1'] - y0) * s))
    img = np.empty((TH, TW, 3), np.float32)
    img[:] = np.array(bd['border_col'], np.float32) / 255.0
    ed = bd['ed']

    def X(x):
        return (x - x0) * s

    def Y(y):
        return (y - y0) * s

    GW, GH = geo['GW'], geo['GH']
    # field under the grid
    gx0, gy0, gx1, gy1 = int(round(X(0))), int(round(Y(0))), int(round(X(GW))), int(round(Y(GH)))
    fc = np.array(bd['field_col'], np.float32) / 255.0
    img[gy0:gy1, gx0:gx1] = fc
    # outer frame line around the grid
    if bd['outer_line']:
        t = max(1, int(round(1.2 * s)))
        o = max(1, int(round(rng.uniform(2, 6) * s)))
        lc = np.array(bd['line_col'], np.float32) / 255.0
        img[gy0 - o - t:gy0 - o, gx0 - o - t:gx1 + o + t] = lc
        img[gy1 + o:gy1 + o + t, gx0 - o - t:gx1 + o + t] = lc
        img[gy0 - o - t:gy1 + o + t, gx0 - o - t:gx0 - o] = lc
        img[gy0 - o - t:gy1 + o + t, gx1 + o:gx1 + o + t] = lc
    cw, chh = geo['card_w'], geo['card_h']
    style = bd['style']
    faces = {}
    if style == 'inset':
        fw = int(round(cw * bd['inset'] * s))
        fh = int(round(chh * bd['inset'] * s))
    elif style == 'lines':
        fw = int(round(cw * s))
        fh = int(round(chh * s))
    else:
        fw = int(round(cw * s))
        fh = int(round(chh * s))
    fw, fh = max(fw, 8), max(fh, 10)
    rmask = _rounded_mask(fh, fw, ed['corner_r'] * fw) if style != 'lines' else np.ones((fh, fw), np.float32)
    fst = bd['free']
    cellbg = np.array(bd['cell_bg'], np.float32) / 255.0
    for r in range(10):
        for c in range(10):
            code = LAYOUT[r][c]
            ccx, ccy = X(geo['cx'][c]), Y(geo['cy'][r])
            if style == 'inset':
                # coloured cell tile
                xa, xb = int(round(X(c * geo['px']))), int(round(X((c + 1) * geo['px'])))
                ya, yb = int(round(Y(r * geo['py']))), int(round(Y((r + 1) * geo['py'])))
                img[ya:yb, xa:xb] = cellbg
            if code == 'FREE':
                key = 'FREE'
                if key not in faces:
                    fcw = int(round(cw * s)) if style != 'inset' else int(round(cw * s * 0.92))
                    fch = int(round(chh * s)) if style != 'inset' else int(round(chh * s * 0.92))
                    faces[key] = (free_cell(rng, fcw, fch, fst), _rounded_mask(fch, fcw, ed['corner_r'] * fcw if style != 'lines' else 0))
                face, m = faces[key]
            else:
                if code not in faces:
                    faces[code] = (card_face(rng, code, fw, fh, ed), rmask)
                face, m = faces[code]
            h, w = face.shape[:2]
            xa, ya = int(round(ccx - w / 2)), int(round(ccy - h / 2))
            reg = img[ya:ya + h, xa:xa + w]
            mm = m[:reg.shape[0], :reg.shape[1], None]
            reg[:] = reg * (1 - mm) + face[:reg.shape[0], :reg.shape[1]] * mm
    if style in ('lines', 'inset'):
        lc = np.array(bd['line_col'], np.float32) / 255.0
        t = max(1, int(round(bd['line_w'] * cw * s)))
        for k in range(0, 11):
            xx = int(round(X(k * geo['px'])))
            yy = int(round(Y(k * geo['py'])))
            a, b = (xx - t // 2, xx - t // 2 + t) if 0 < k < 10 else ((xx, xx + t) if k == 0 else (xx - t, xx))
            img[gy0:gy1, max(a, 0):b] = lc
            a, b = (yy - t // 2, yy - t // 2 + t) if 0 < k < 10 else ((yy, yy + t) if k == 0 else (yy - t, yy))
            img[max(a, 0):b, gx0:gx1] = lc
    # title text on the border
    tc = np.array(bd['title_col'], np.float32) / 255.0
    bt, br, bb, bl = bd['border_mm']
    if bd['title']:
        tm = text_mask('SEQUENCE', bd['title_font'], 80)
        for side in ([0, 2] if bd['title_both'] else [0]):
            bw = bt if side == 0 else bb
            th = bw * rng.uniform(0.35, 0.6) * s
            tw = th * tm.shape[1] / tm.shape[0]
            if tw > 0.8 * GW * s:
                th *= 0.8 * GW * s / tw
            yc = Y(-bw / 2) if side == 0 else Y(GH + bw / 2)
            paste_mask(img, tm, X(GW / 2), yc, th, tc, rot=(side == 2))
            if bd['logo']:
                lx = X(GW / 2) + (tw / 2 + th * 1.2) * (1 if side == 0 else -1)
                lx2 = X(GW / 2) - (tw / 2 + th * 1.2) * (1 if side == 0 else -1)
                for xx_ in (lx, lx2):
                    for k, cc in enumerate([(30, 70, 180), (30, 140, 70), (200, 30, 40)]):
                        r_ = th * 0.35
                        cv2.circle(img, (int(xx_ + (k - 1) * r_ * 1.3), int(yc)), int(r_), tuple(v / 255 for v in cc), -1, cv2.LINE_AA)
    # fold lines
    ff = bd['folds']
    fl = []
    if 'h' in ff:
        fl.append(('h', (geo['by0'] + geo['by1']) / 2))
    if 'v' in ff:
        fl.append(('v', (geo['bx0'] + geo['bx1']) / 2))
    for kind, pos in fl:
        t = max(1, int(round(0.6 * s)))
        if kind == 'h':
            p = int(round(Y(pos)))
            img[p - t:p + t] *= 0.7
            img[p + t:p + 2 * t] = np.minimum(img[p + t:p + 2 * t] * 1.1 + 0.02, 1)
        else:
            p = int(round(X(pos)))
            img[:, p - t:p + t] *= 0.7
            img[:, p + t:p + 2 * t] = np.minimum(img[:, p + t:p + 2 * t] * 1.1 + 0.02, 1)
    # linen emboss + wear + paper noise
    if bd['linen'] > 0:
        per = max(2.2, 0.7 * s)
        lx = np.sin(np.arange(TW, dtype=np.float32) * (2 * np.pi / per))
        ly = np.sin(np.arange(TH, dtype=np.float32) * (2 * np.pi / per))
        lin = ly[:, None] * lx[None, :]
        lin += 0.5 * rng.standard_normal((TH, TW), dtype=np.float32)
        img *= (1 + bd['linen'] * 0.5 * lin)[..., None]
    n = fbm(rng, TH // 4 + 2, TW // 4 + 2, scales=(TW / 16, TW / 48), amps=(1, 0.5))
    n = cv2.resize(n, (TW, TH), interpolation=cv2.INTER_LINEAR)
    img *= (1 + 0.012 * bd['wear'] * n)[..., None]
    # worn edges (slightly lighter) on the border
    if bd['wear'] > 0.6:
        e = np.zeros((TH, TW), np.float32)
        t = max(2, int(round(1.5 * s)))
        e[:t] = 1
        e[-t:] = 1
        e[:, :t] = 1
        e[:, -t:] = 1
        e = cv2.GaussianBlur(e, (0, 0), t * 0.7)
        img = img * (1 - 0.25 * e[..., None]) + 0.8 * 0.25 * e[..., None]
    img = np.clip(img, 0, 1)
    return (img * 255 + 0.5).astype(np.uint8), (x0, y0)
