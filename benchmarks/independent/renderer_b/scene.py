"""3-D scene pieces: board placement, chips, objects, hands, lighting."""
import math

import numpy as np
import cv2

from geom import normalize, fill_poly, bbox_of, warp_rgba, composite, poly_canvas
from surfaces import srgb, smoothstep

EZ = np.array([0, 0, 1.0])


# =============================================================================== board in the world
class Board:
    def __init__(self, bd, geo, yaw, center):
        self.bd, self.geo = bd, geo
        self.ex = np.array([math.cos(yaw), math.sin(yaw), 0.0])
        self.ey = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
        self.O = np.asarray(center, np.float64)
        self.bcx = (geo['bx0'] + geo['bx1']) / 2
        self.bcy = (geo['by0'] + geo['by1']) / 2
        self.thick = bd['thick_mm']
        self.folds = []
        f = bd['folds']
        if 'h' in f:
            self.folds.append(('h', self.bcy, (geo['by1'] - geo['by0']) / 2, bd['fold_lift_mm'][0]))
        if 'v' in f:
            self.folds.append(('v', self.bcx, (geo['bx1'] - geo['bx0']) / 2, bd['fold_lift_mm'][1]))

    def z(self, x, y):
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        z = np.full(np.broadcast(x, y).shape, self.thick)
        for kind, m, half, a in self.folds:
            t = np.clip(np.abs((y if kind == 'h' else x) - m) / half, 0, 1)
            z = z + (a * (1 - t) if a > 0 else -a * t)
        return z

    def world(self, x, y, dz=0.0):
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        z = self.z(x, y) + dz
        return (self.O[None] + (x - self.bcx).reshape(-1, 1) * self.ex + (y - self.bcy).reshape(-1, 1) * self.ey
                + np.reshape(z, (-1, 1)) * EZ)

    def panels(self):
        g = self.geo
        xs = [g['bx0'], g['bx1']]
        ys = [g['by0'], g['by1']]
        for kind, m, half, a in self.folds:
            (ys if kind == 'h' else xs).insert(1, m)
        return [(xs[i], xs[i + 1], ys[j], ys[j + 1]) for i in range(len(xs) - 1) for j in range(len(ys) - 1)]

    def affine(self, panel):
        xa, xb, ya, yb = panel
        x0, y0 = xa + 0.25 * (xb - xa), ya + 0.25 * (yb - ya)
        x1, y1 = xa + 0.75 * (xb - xa), ya + 0.75 * (yb - ya)
        z00, z10, z01 = float(self.z(x0, y0)), float(self.z(x1, y0)), float(self.z(x0, y1))
        zx, zy = (z10 - z00) / (x1 - x0), (z01 - z00) / (y1 - y0)
        zc = z00 - zx * x0 - zy * y0
        A = np.zeros((4, 3))
        A[:3, 0] = self.ex + EZ * zx
        A[:3, 1] = self.ey + EZ * zy
        A[:3, 2] = self.O - self.ex * self.bcx - self.ey * self.bcy + EZ * zc
        A[3, 2] = 1
        return A, (zx, zy)

    def frame_at(self, x, y):
        """Tangent frame (eu, ev, en) of the board surface at board point (x, y)."""
        for p in self.panels():
            if p[0] <= x <= p[1] and p[2] <= y <= p[3]:
                A, (zx, zy) = self.affine(p)
                break
        eu = normalize(self.ex + EZ * zx)
        ev = normalize(self.ey + EZ * zy)
        en = -normalize(np.cross(eu, ev))
        return eu, ev, en

    def grid_corners_world(self):
        g = self.geo
        return self.world([0, g['GW'], g['GW'], 0], [0, 0, g['GH'], g['GH']])

    def grid_outline_world(self, n=12):
        g = self.geo
        GW, GH = g['GW'], g['GH']
        t = np.linspace(0, 1, n + 1)[:-1]
        xs = np.concatenate([t * GW, np.full(n, GW), GW - t * GW, np.zeros(n)])
        ys = np.concatenate([np.zeros(n), t * GH, np.full(n, GH), GH - t * GH])
        for kind, m, half, a in self.folds:
            if kind == 'h':
                xs = np.concatenate([xs, [0, GW]])
                ys = np.concatenate([ys, [m, m]])
            else:
                xs = np.concatenate([xs, [m, m]])
                ys = np.concatenate([ys, [0, GH]])
        return self.world(xs, ys)


def render_board(canvas, gloss, depthmask, cam, board, tex, tex_origin, s, light, amb):
    """Warp the board texture (per planar panel) plus the board's side walls into canvas."""
    x0, y0 = tex_origin
    TH, TW = tex.shape[:2]
    rgba = np.dstack([tex, np.full((TH, TW), 255, np.uint8)])
    bmask = np.zeros(canvas.shape[:2], np.float32)
    g = board.geo
    # side walls (drawn first; panels cover whatever lies behind)
    edges = [((g['bx0'], g['by0']), (g['bx1'], g['by0']), -board.ey),
             ((g['bx1'], g['by0']), (g['bx1'], g['by1']), board.ex),
             ((g['bx1'], g['by1']), (g['bx0'], g['by1']), board.ey),
             ((g['bx0'], g['by1']), (g['bx0'], g['by0']), -board.ex)]
    ec = srgb(board.bd['edge_col']) ** 2
    for (xa, ya), (xb, yb), nrm in edges:
        t = np.linspace(0, 1, 9)
        xs, ys = xa + t * (xb - xa), ya + t * (yb - ya)
        top = board.world(xs, ys)
        bot = top - EZ * board.thick
        mid = top.mean(0)
        if np.dot(nrm, cam.C - mid) <= 0:
            continue
        sh = shade_rel(nrm, light_dir(light, mid), amb)
        pts = poly_canvas(cam, np.vstack([top, bot[::-1]]))
        fill_poly(canvas, pts, tuple(ec * sh * 0.8))
        fill_poly(bmask, pts, 1.0)
    for p in board.panels():
        A, _ = board.affine(p)
        xa, xb, ya, yb = p
        ia = max(0, int(math.floor((xa - x0) * s - 1)))
        ib = min(TW, int(math.ceil((xb - x0) * s + 1)))
        ja = max(0, int(math.floor((ya - y0) * s - 1)))
        jb = min(TH, int(math.ceil((yb - y0) * s + 1)))
        sub = rgba[ja:jb, ia:ib]
        Tt = np.array([[1 / s, 0, x0 + (ia + 0.5) / s], [0, 1 / s, y0 + (ja + 0.5) / s], [0, 0, 1.0]])
        Htc = cam.plane_homography(A) @ Tt
        corners = board.world([xa, xb, xb, xa], [ya, ya, yb, yb])
        pc, z = cam.canvas(corners)
        box = bbox_of(pc, cam.Wc, cam.Hc, pad=3)
        if box is None:
            continue
        out = warp_rgba(sub, Htc, box)
        # limit to the panel itself (avoid the 1-texel overlap doubling alpha)
        composite(canvas, box, out)
        bx0, by0, bx1, by1 = box
        np.maximum(bmask[by0:by1, bx0:bx1], out[..., 3], out=bmask[by0:by1, bx0:bx1])
    gloss *= (1 - bmask)
    gloss += bmask * board.bd['gloss']
    return bmask


# =============================================================================== lighting helpers
def light_dir(light, P):
    if light['kind'] == 'dir':
        return light['dir']
    return normalize(light['pos'] - P)


def shade_rel(n, L, amb):
    """Brightness of a surface with normal n relative to a horizontal one (whose
    illumination the global light map already encodes)."""
    n = np.asarray(n)
    num = amb + (1 - amb) * np.maximum(np.tensordot(n, L, axes=([-1], [-1])) if n.ndim > 1 else np.dot(n, L), 0)
    den = amb + (1 - amb) * max(L[2], 0)
    return num / den


# =============================================================================== game position
def game_position(rng, teams, n_total, lines_p=0.4):
    corners = {(0, 0), (0, 9), (9, 0), (9, 9)}
    grid = [['#' if (r, c) in corners else '.' for c in range(10)] for r in range(10)]
    letters = ['B', 'G', 'R'][:teams]
    rng.shuffle(letters)
    counts = [0] * teams
    quota = [n_total // teams + (1 if k < n_total % teams else 0) for k in range(teams)]
    lines = []
    if rng.random() < lines_p and n_total >= 4:
        n_lines = 1 if rng.random() < 0.7 else 2
        for _ in range(n_lines):
            team = int(rng.integers(teams))
            for _try in range(30):
                dr, dc = [(0, 1), (1, 0), (1, 1), (1, -1)][rng.integers(4)]
                r0, c0 = int(rng.integers(10)), int(rng.integers(10))
                cells = [(r0 + k * dr, c0 + k * dc) for k in range(5)]
                if not all(0 <= r < 10 and 0 <= c < 10 for r, c in cells):
                    continue
                if any(grid[r][c] not in ('.', '#') for r, c in cells):
                    continue
                need = sum(1 for r, c in cells if grid[r][c] == '.')
                for r, c in cells:
                    if grid[r][c] == '.':
                        grid[r][c] = letters[team]
                counts[team] += need
                lines.append([team, cells])
                break
        # grow total so that counts stay balanced
        mx = max(counts)
        for k in range(teams):
            quota[k] = max(quota[k], mx - 1 if k > 0 else mx)
    # remaining placements, alternating teams; bias near own chips and blocking
    order = []
    while True:
        progressed = False
        for k in range(teams):
            if counts[k] < quota[k]:
                order.append(k)
                counts[k] += 1
                progressed = True
        if not progressed:
            break
    for k in order:
        empt = [(r, c) for r in range(10) for c in range(10) if grid[r][c] == '.']
        if not empt:
            break
        w = np.ones(len(empt))
        for i, (r, c) in enumerate(empt):
            own = opp = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < 10 and 0 <= cc < 10:
                        ch = grid[rr][cc]
                        if ch == letters[k]:
                            own += 1
                        elif ch in 'BGR':
                            opp += 1
            w[i] += 1.6 * own + 0.8 * opp
        w /= w.sum()
        r, c = empt[rng.choice(len(empt), p=w)]
        grid[r][c] = letters[k]
    return grid, letters, lines


# =============================================================================== chips
CHIP_BASE = {'B': [(25, 70, 185), (20, 50, 150), (35, 95, 200), (15, 60, 170), (40, 80, 160)],
             'G': [(25, 140, 65), (20, 110, 50), (50, 165, 80), (10, 125, 85), (60, 150, 40)],
             'R': [(200, 30, 40), (180, 20, 30), (215, 45, 35), (190, 25, 60), (225, 60, 50)]}


def chip_set(rng, pitch_w):
    cs = {}
    cs['R'] = pitch_w * rng.uniform(0.3, 0.425)
    cs['thick'] = rng.uniform(2.0, 4.0)
    cs['style'] = str(rng.choice(['rim', 'rim_dish', 'rim_emboss', 'star', 'dome', 'rings']))
    cs['relief'] = rng.uniform(0.6, 1.4)
    cs['ks'] = rng.uniform(0.25, 1.0)
    cs['pw'] = rng.uniform(40, 220)
    cs['cols'] = {}
    for k, lst in CHIP_BASE.items():
        c = np.array(lst[rng.integers(len(lst))], np.float32)
        c = np.clip(c + rng.normal(0, 8, 3), 0, 255)
        cs['cols'][k] = (c / 255.0) ** 2.0
    cs['var'] = rng.uniform(0.0, 0.04)
    cs['spokes'] = int(rng.integers(8, 25))
    return cs


_NMAP = {}


def chip_normals(style, T, relief, spokes):
    key = (style, T, relief, spokes)
    if key in _NMAP:
        return _NMAP[key]
    c = (np.arange(T, dtype=np.float32) + 0.5) / T * 2 - 1
    xx, yy = np.meshgrid(c, c)
    rho = np.hypot(xx, yy)
    th = np.arctan2(yy, xx)
    h = np.zeros_like(rho)

    def ring(r0, w):
        return np.exp(-((rho - r0) / w) ** 2)
    h -= smoothstep(0.9, 1.02, rho) * 0.35
    if style in ('rim', 'rim_dish', 'rim_emboss', 'star'):
        h += 0.12 * ring(0.84, 0.06)
    if style == 'rim_dish':
        h -= 0.08 * (1 - np.clip(rho / 0.78, 0, 1) ** 2)
    if style == 'rim_emboss':
        h += 0.05 * ring(0.55, 0.03)
        sp = (np.cos(spokes * th) > 0.55) & (rho > 0.6) & (rho < 0.76)
        h += 0.04 * cv2.GaussianBlur(sp.astype(np.float32), (0, 0), max(0.6, T / 100))
    if style == 'star':
        r_star = 0.32 + 0.14 * np.cos(5 * th)
        h += 0.05 * smoothstep(0.02, -0.02, rho - r_star)
    if style == 'dome':
        h += 0.04 * (1 - rho ** 2)
        h += 0.06 * ring(0.88, 0.05)
    if style == 'rings':
        h += 0.02 * np.sin(rho * 30) * (rho < 0.9)
        h += 0.1 * ring(0.9, 0.05)
    h = cv2.GaussianBlur(h.astype(np.float32), (0, 0), max(0.5, T / 160))
    k = relief * T / 2
    gy, gx = np.gradient(h)
    n = np.dstack([-gx * k, -gy * k, np.ones_like(h)])
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    alpha = np.clip((1 - rho) * T / 2 + 0.5, 0, 1).astype(np.float32)
    _NMAP[key] = (n.astype(np.float32), alpha)
    return _NMAP[key]


def draw_chip(canvas, cam, cs, color, center, eu, ev, en, light, amb, rng, occ=None, spin=0.0):
    """A chip standing on plane (eu, ev) at `center` (bottom centre), en up."""
    R, th = cs['R'], cs['thick']
    ca, sa = math.cos(spin), math.sin(spin)
    eu, ev = ca * eu + sa * ev, -sa * eu + ca * ev
    top_c = center + en * th
    # side wall
    N = 36
    a = np.linspace(0, 2 * np.pi, N, endpoint=False)
    ring = np.cos(a)[:, None] * eu + np.sin(a)[:, None] * ev
    top = top_c + R * ring
    bot = center + R * ring + en * 0.3
    pt, zt = cam.canvas(top)
    pb, zb = cam.canvas(bot)
    if min(zt.min(), zb.min()) < 30:
        return None
    allp = np.vstack([pt, pb])
    box = bbox_of(allp, cam.Wc, cam.Hc, pad=3)
    if box is None:
        return None
    L = light_dir(light, center)
    V = normalize(cam.C - center)
    hull = cv2.convexHull(allp.astype(np.float32)).reshape(-1, 2)
    side_sh = shade_rel(ring, L, amb)
    facing = (ring @ V) > 0
    col = color
    fill_poly(canvas, hull, tuple(col * float(np.median(side_sh[facing]) if facing.any() else 0.5) * 0.8))
    Hh = (L + V)
    Hh /= np.linalg.norm(Hh)
    spec_side = cs['ks'] * 0.5 * np.maximum(ring @ Hh, 0) ** (cs['pw'] / 3)
    for i in range(N):
        if not facing[i]:
            continue
        j = (i + 1) % N
        q = np.array([pt[i], pt[j], pb[j], pb[i]])
        cc = col * side_sh[i] * 0.8 + spec_side[i]
        fill_poly(canvas, q, tuple(cc), aa=False)
    # top face
    Rp = R * cam.fr / max(zt.mean(), 1)
    T = int(min(160, max(24, 2 ** math.ceil(math.log2(max(2.2 * Rp, 1))))))
    n, alpha = chip_normals(cs['style'], T, cs['relief'], cs['spokes'])
    Ll = np.array([L @ eu, L @ ev, L @ en], np.float32)
    Vl = np.array([V @ eu, V @ ev, V @ en], np.float32)
    Hl = Ll + Vl
    Hl /= np.linalg.norm(Hl)
    ndl = n @ Ll
    ndh = np.maximum(n @ Hl, 0)
    den = amb + (1 - amb) * max(L[2], 0)
    dif = (amb + (1 - amb) * np.maximum(ndl, 0)) / den
    fres = 0.04 + 0.96 * (1 - np.clip(n @ Vl, 0, 1)) ** 5
    spec = (cs['ks'] * ndh ** cs['pw'] * min(1.0, cs['pw'] / 80) / den * 0.7 + 0.15 * fres).astype(np.float32)
    img = col[None, None, :] * dif[..., None] + spec[..., None]
    rgba = np.dstack([img.astype(np.float32), alpha])
    s = 2 * R / T
    A = np.zeros((4, 3))
    A[:3, 0] = eu * s
    A[:3, 1] = ev * s
    A[:3, 2] = top_c + (eu + ev) * (0.5 * s - R)
    A[3, 2] = 1
    Htc = cam.plane_homography(A)
    out = warp_rgba(rgba, Htc, box, max_levels=1)
    composite(canvas, box, out)
    if occ is not None:
        m = np.zeros((box[3] - box[1], box[2] - box[0]), np.float32)
        fill_poly(m, hull - [box[0], box[1]], 1.0)
        np.maximum(m, out[..., 3], out=m)
        o = occ[box[1]:box[3], box[0]:box[2]]
        np.maximum(o, m, out=o)
    return box


def chip_positions(rng, board, grid, cs):
    g = board.geo
    R = cs['R']
    items = []
    for r in range(10):
        for c in range(10):
            ch = grid[r][c]
            if ch in 'BGR':
                a = rng.uniform(0, 2 * np.pi)
                d = 0.12 * g['px'] * math.sqrt(rng.random())
                items.append([r, c, ch, g['cx'][c] + d * math.cos(a), g['cy'][r] + d * math.sin(a)])
    # push touching neighbours apart (chips cannot overlap)
    for _ in range(12):
        moved = False
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                a, b = items[i], items[j]
                if abs(a[0] - b[0]) > 1 or abs(a[1] - b[1]) > 1:
                    continue
                dx, dy = b[3] - a[3], b[4] - a[4]
                dist = math.hypot(dx, dy)
                mind = 2 * R + 0.3
                if dist < mind:
                    push = (mind - dist) / 2 + 0.01
                    ux, uy = dx / dist, dy / dist
                    a[3] -= ux * push
                    a[4] -= uy * push
                    b[3] += ux * push
                    b[4] += uy * push
                    moved = True
        if not moved:
            break
    return items


# =============================================================================== capsule figures (hands, pens)
def capsule_poly(p0, p1, r0, r1, n=10):
    d = p1 - p0
    L = np.linalg.norm(d)
    if L < 1e-6:
        d = np.array([1.0, 0])
    else:
        d = d / L
    nrm = np.array([-d[1], d[0]])
    a0 = math.atan2(nrm[1], nrm[0])
    pts = []
    for t in np.linspace(0, np.pi, n):
        a = a0 + t
        pts.append(p0 + r0 * np.array([math.cos(a), math.sin(a)]))
    for t in np.linspace(np.pi, 2 * np.pi, n):
        a = a0 + t
        pts.append(p1 + r1 * np.array([math.cos(a), math.sin(a)]))
    return np.array(pts)


def project_capsules(cam, caps):
    """caps: list of (P0, P1, r0, r1) world. Returns list of canvas polygons (skips behind camera)."""
    polys = []
    for P0, P1, r0, r1 in caps:
        Pc = cam.to_cam(np.array([P0, P1]))
        if Pc[0, 2] < 40 and Pc[1, 2] < 40:
            continue
        if Pc[0, 2] < 40 or Pc[1, 2] < 40:
            # clip the segment to the near plane
            a, b = (Pc[0], Pc[1]) if Pc[0, 2] >= 40 else (Pc[1], Pc[0])
            ra, rb = (r0, r1) if Pc[0, 2] >= 40 else (r1, r0)
            t = (40 - a[2]) / (b[2] - a[2])
            b = a + t * (b - a)
            rb = ra + t * (rb - ra)
            Pc = np.array([a, b])
            r0, r1 = ra, rb
        p = cam.cam_to_canvas(Pc)
        rp0 = r0 * cam.fr / Pc[0, 2]
        rp1 = r1 * cam.fr / Pc[1, 2]
        polys.append(capsule_poly(p[0], p[1], rp0, rp1))
    return polys


def pillow_shade(mask, Lc, amb, rad_px, wrap=0.3):
    """Screen-space normal estimate from a soft mask; returns shading relative factor."""
    sig = max(1.0, rad_px * 0.6)
    b = cv2.GaussianBlur(mask, (0, 0), sig)
    gx = cv2.Sobel(b, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(b, cv2.CV_32F, 0, 1, ksize=3) / 8
    k = 2.2 * sig * 2.5
    nx, ny, nz = -gx * k, -gy * k, np.ones_like(b)
    inv = 1 / np.sqrt(nx * nx + ny * ny + nz * nz)
    ndl = (nx * Lc[0] + ny * Lc[1] - nz * Lc[2]) * inv
    dif = np.maximum((ndl + wrap) / (1 + wrap), 0)
    return amb + (1 - amb) * dif, b, (nx * inv, ny * inv, nz * inv)


def render_parts(canvas, occ, cam, parts, light, amb, rng, center_world):
    """parts: list of dict(caps=[...], col=lin rgb, depth=float, kind='skin'|'cloth'|'plain', extra=[])
    Rendered far-to-near with pillow shading."""
    Lw = light_dir(light, center_world)
    Lc = cam.R @ Lw
    Vc = np.array([0, 0, 1.0])  # towards camera in screen-normal space
    den = amb + (1 - amb) * max(Lw[2], 0)
    if all('order' in p for p in parts):
        parts = sorted(parts, key=lambda p: p['order'])  # anatomical order (dorsal view)
    else:
        parts = sorted(parts, key=lambda p: -p['depth'])
    for p in parts:
        polys = project_capsules(cam, p['caps'])
        polys += p.get('polys', [])
        if not polys:
            continue
        allp = np.vstack(polys)
        box = bbox_of(allp, cam.Wc, cam.Hc, pad=6)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        if (x1 - x0) * (y1 - y0) > 6e6:
            continue
        m = np.zeros((y1 - y0, x1 - x0), np.float32)
        for q in polys:
            fill_poly(m, q - [x0, y0], 1.0)
        rad = p.get('rad_px', 10)
        sh, b, (nx, ny, nz) = pillow_shade(m, Lc, amb, rad)
        sh = sh / den
        col = p['col']
        if p['kind'] == 'skin':
            # sub-surface: shadows go redder
            g = np.clip(sh, 0.05, 3)
            img = np.dstack([col[0] * g ** 0.8, col[1] * g ** 1.0, col[2] * g ** 1.12])
            Hs = normalize(np.array([Lc[0], Lc[1], -Lc[2]]) + Vc)
            spec = 0.05 * np.maximum(nx * Hs[0] + ny * Hs[1] + nz * Hs[2], 0) ** 12
            img += spec[..., None]
            img *= (0.7 + 0.3 * np.clip(b * 1.6, 0, 1))[..., None]
        elif p['kind'] == 'cloth':
            fold = p.get('fold')
            img = col[None, None] * sh[..., None]
            if fold is not None:
                img *= fold[y0:y1, x0:x1, None] if fold.shape[:2] == canvas.shape[:2] else 1
            img *= (0.75 + 0.25 * np.clip(b * 1.6, 0, 1))[..., None]
        else:
            Hs = normalize(np.array([Lc[0], Lc[1], -Lc[2]]) + Vc)
            spec = p.get('ks', 0.3) * np.maximum(nx * Hs[0] + ny * Hs[1] + nz * Hs[2], 0) ** p.get('pw', 30)
            img = col[None, None] * sh[..., None] + spec[..., None]
        for fn in p.get('extra', []):
            fn(img, m, box)
        rgba = np.dstack([img.astype(np.float32), m])
        composite(canvas, box, rgba, occ)


def hand_parts(rng, cam, board, target_xy, seat, skin, sleeve_col, pose, left, cs, chip_col):
    """Build a hand + forearm + upper arm of a player whose shoulder is at `seat` (world),
    reaching to board point target_xy."""
    tgt = board.world([target_xy[0]], [target_xy[1]])[0]
    hh = rng.uniform(45, 150)  # height of the hand above the board
    scale = rng.uniform(0.88, 1.12)
    yaw_jit = rng.uniform(-0.25, 0.25)
    fwd = normalize(np.array([tgt[0] - seat[0], tgt[1] - seat[1], 0.0]))
    ca, sa = math.cos(yaw_jit), math.sin(yaw_jit)
    fwd = np.array([ca * fwd[0] - sa * fwd[1], sa * fwd[0] + ca * fwd[1], 0])
    pitch = rng.uniform(0.15, 0.6)
    hx = normalize(fwd * math.cos(pitch) - EZ * math.sin(pitch))
    hy = normalize(np.cross(EZ, hx))  # left of the hand
    if left:
        hy = -hy
    hz = normalize(np.cross(hx, hy)) if not left else -normalize(np.cross(hx, hy))
    roll = rng.uniform(-0.35, 0.35)
    hy, hz = math.cos(roll) * hy + math.sin(roll) * hz, -math.sin(roll) * hy + math.cos(roll) * hz
    # fingertips should end near the target
    wrist = tgt + EZ * hh - hx * 150 * scale

    def W(p):
        p = np.asarray(p, np.float64) * scale
        return wrist + hx * p[0] + hy * p[1] + hz * p[2]

    def chain(base, yaw, lens, radii, curl):
        pts = [np.array(base, np.float64)]
        d_ang = 0.0
        for L, c in zip(lens, curl):
            d_ang += c
            dvec = np.array([math.cos(d_ang) * math.cos(yaw), math.cos(d_ang) * math.sin(yaw), -math.sin(d_ang)])
            pts.append(pts[-1] + L * dvec)
        caps = []
        for k in range(len(lens)):
            caps.append((W(pts[k]), W(pts[k + 1]), radii[k] * scale, radii[k + 1] * scale))
        return caps, [W(p) for p in pts]

    curls = {
        'relaxed': [[0.3, 0.45, 0.3]] * 4,
        'flat': [[0.08, 0.08, 0.05]] * 4,
        'point': [[0.05, 0.08, 0.05], [1.2, 1.5, 0.9], [1.3, 1.5, 0.9], [1.3, 1.5, 0.9]],
        'pinch': [[0.5, 0.7, 0.4], [0.6, 0.9, 0.5], [0.8, 1.1, 0.6], [0.9, 1.1, 0.6]],
        'fist': [[1.4, 1.6, 1.0]] * 4,
    }[pose]
    fingers = [((85, 24, 0), 0.08, [42, 25, 20], [9.2, 8.6, 7.6, 6.8]),
               ((90, 5, 0), 0.0, [46, 28, 21], [9.6, 9.0, 8.0, 7.0]),
               ((86, -14, -1), -0.07, [43, 26, 20], [9.2, 8.5, 7.5, 6.8]),
               ((77, -31, -3), -0.16, [34, 20, 18], [8.0, 7.4, 6.6, 6.0])]
    parts = []
    skin_depth = lambda caps: float(np.mean([cam.to_cam(np.array([c[0], c[1]]))[:, 2].mean() for c in caps]))
    # palm as four metacarpal capsules + a filler
    palm_caps = [(W((5, 12, 0)), W((82, 24, 0)), 15 * scale, 11 * scale),
                 (W((5, 2, 2)), W((86, 5, 0)), 16 * scale, 12 * scale),
                 (W((5, -8, 2)), W((82, -14, 0)), 16 * scale, 11.5 * scale),
                 (W((5, -16, 0)), W((74, -30, -2)), 15 * scale, 10 * scale)]
    rad_px = 12 * scale * cam.fr / max(cam.to_cam(wrist[None])[0, 2], 50)
    nails = []
    for k, (base, yaw, lens, radii) in enumerate(fingers):
        caps, pts = chain(base, yaw + rng.normal(0, 0.04), lens, radii, [c + rng.normal(0, 0.08) for c in curls[k]])
        parts.append(dict(caps=caps, col=skin * rng.uniform(0.97, 1.03), depth=skin_depth(caps), kind='skin', rad_px=rad_px * 0.6, order=3))
        nails.append((pts[-2], pts[-1], radii[-1] * scale))
    # thumb
    tcurl = [0.25, 0.3, 0.25] if pose != 'pinch' else [0.45, 0.4, 0.3]
    tyaw = rng.uniform(0.45, 0.65) if pose != 'pinch' else 0.3
    caps, tpts = chain((20, 24, -10), tyaw, [30, 24, 20], [12.5, 10.5, 9, 7.8], tcurl)
    parts.append(dict(caps=caps, col=skin * rng.uniform(0.97, 1.03), depth=skin_depth(caps) - 5, kind='skin', rad_px=rad_px * 0.7, order=1))
    nails.append((tpts[-2], tpts[-1], 8 * scale))
    parts.append(dict(caps=palm_caps, col=skin, depth=skin_depth(palm_caps) + 3, kind='skin', rad_px=rad_px * 1.4, order=2))
    # forearm + upper arm (the arm comes from the player's side)
    # two-segment arm from the player's shoulder (leaning in when the target is far)
    shoulder = np.asarray(seat, np.float64).copy()
    reach = 560 * scale
    D = np.linalg.norm(wrist - shoulder)
    torso = None
    if D > reach:  # the player leans over the table: shoulder moves in, torso follows
        shoulder = wrist + (shoulder - wrist) * (reach / D)
        D = reach
        torso = [(shoulder, np.asarray(seat, np.float64) + EZ * 120 - fwd * 150, 62 * scale, 80 * scale)]
    seg = 300 * scale
    mid = (wrist + shoulder) / 2
    bend = math.sqrt(max(0.0, seg * seg - (D / 2) ** 2))
    out = -hy if not left else hy
    out_h = normalize(np.array([out[0], out[1], 0.0]))
    bdir = normalize(-EZ * rng.uniform(0.3, 0.8) + out_h)
    elbow = mid + bdir * bend
    if elbow[2] < tgt[2] + 40:
        elbow[2] = tgt[2] + 40
    arm_caps = [(wrist - hx * 5, elbow, 27 * scale, 37 * scale)]
    up_caps = [(elbow, shoulder, 42 * scale, 50 * scale)]
    if torso is not None:
        parts.append(dict(caps=torso, col=sleeve_col * 0.9, depth=0, kind='cloth', rad_px=rad_px * 4, order=-2))
    sleeve = rng.random()
    if sleeve < 0.35:  # bare forearm, short sleeve
        parts.append(dict(caps=up_caps, col=sleeve_col, depth=skin_depth(up_caps) + 20, kind='cloth', rad_px=rad_px * 3, order=-1))
        parts.append(dict(caps=arm_caps, col=skin, depth=skin_depth(arm_caps) + 20, kind='skin', rad_px=rad_px * 2, order=0))
    else:
        cuff = rng.uniform(0.0, 0.5) if sleeve < 0.8 else 0.0
        wrist2 = wrist + (elbow - wrist) * cuff
        bare = [(wrist - hx * 5, wrist2, 27 * scale, (27 + 10 * cuff) * scale)] if cuff > 0.02 else []
        if bare:
            parts.append(dict(caps=bare, col=skin, depth=skin_depth(bare) + 20, kind='skin', rad_px=rad_px * 2, order=0))
        sl = [(wrist2, elbow, (33 + 7 * cuff) * scale, 40 * scale), (elbow, shoulder, 42 * scale, 48 * scale)]
        parts.append(dict(caps=sl, col=sleeve_col, depth=skin_depth(sl) + 30, kind='cloth', rad_px=rad_px * 3, order=-1))
    # fingernails as small light ellipses on the finger tips (drawn with the hand)
    nail_polys = []
    for a, b, r in nails:
        d = b - a
        P0 = b - d * 0.42 + hz * r * 0.55
        P1 = b - d * 0.06 + hz * r * 0.45
        nail_polys += project_capsules(cam, [(P0, P1, r * 0.62, r * 0.55)])
    if nail_polys:
        dep = skin_depth([(n[0], n[1], 0, 0) for n in nails]) - 8
        parts.append(dict(caps=[], polys=nail_polys, col=np.minimum(skin * 1.15 + np.array([0.06, 0.03, 0.03]), 1), depth=dep, kind='plain', ks=0.4, pw=20, rad_px=3, order=4))
    held = None
    if pose == 'pinch' and chip_col is not None:
        held = (tpts[-1] + nails[0][1]) / 2
    caps_all = [c for p in parts for c in p['caps']]
    return parts, caps_all, held, (hx, hy, hz)


def capsule_shadow(mask, cam, caps, light, plane_z, blur_scale):
    """Draw the shadows of capsules onto plane z=plane_z into mask (canvas coords)."""
    for P0, P1, r0, r1 in caps:
        pts = []
        rr = []
        for P, r in ((P0, r0), (P1, r1)):
            if light['kind'] == 'dir':
                L = light['dir']
                t = (P[2] - plane_z) / max(L[2], 0.05)
                S = P - L * t
                rs = r
            else:
                Lp = light['pos']
                if Lp[2] <= P[2] + 1:
                    return
                t = (Lp[2] - plane_z) / (Lp[2] - P[2])
                S = Lp + (P - Lp) * t
                rs = r * t
            pts.append(S)
            rr.append(rs)
        polys = project_capsules(cam, [(pts[0], pts[1], rr[0], rr[1])])
        for q in polys:
            fill_poly(mask, q, 1.0)
