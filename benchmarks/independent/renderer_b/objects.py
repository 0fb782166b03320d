"""Table clutter: mugs, glasses, bottles, phones, playing cards, chip bowls, boxes, plates..."""
import math

import numpy as np
import cv2

import cards
from cards import jitter
from geom import normalize, fill_poly, bbox_of, warp_rgba, composite, poly_canvas
from scene import light_dir, shade_rel, draw_chip, EZ, render_parts
from surfaces import srgb

N_SEG = 40


def lin(c):
    return (np.array(c, np.float32) / 255.0) ** 2.0


# ----------------------------------------------------------------------------- shadows
def shadow_points(pts, light, plane_z=0.0):
    """Project 3-D points onto plane z=plane_z along the light."""
    pts = np.asarray(pts, np.float64)
    if light['kind'] == 'dir':
        L = light['dir']
        t = (pts[:, 2] - plane_z) / max(L[2], 0.05)
        return pts - t[:, None] * L[None]
    Lp = light['pos']
    t = (Lp[2] - plane_z) / np.maximum(Lp[2] - pts[:, 2], 1.0)
    return Lp[None] + (pts - Lp[None]) * t[:, None]


def shadow_hull(mask, cam, pts, light, val=1.0):
    sp = shadow_points(pts, light)
    pc, z = cam.canvas(sp)
    if (z < 30).any():
        return
    hull = cv2.convexHull(pc.astype(np.float32)).reshape(-1, 2)
    fill_poly(mask, hull, val)


# ----------------------------------------------------------------------------- surface of revolution
def revolve(canvas, occ, gloss, cam, base, profile, colfn, light, amb, ks=0.3, pw=40, open_top=None, glossv=0.0):
    """Vertical body of revolution standing at `base` (world, bottom centre).
    profile: list of (z, r) from bottom to top.  colfn(a, z) -> lin rgb (a: angle array).
    open_top: None or dict(inner=lin rgb, fill=lin rgb or None, level=z)"""
    a = np.linspace(0, 2 * np.pi, N_SEG, endpoint=False)
    ca, sa = np.cos(a), np.sin(a)
    radial = np.stack([ca, sa, np.zeros_like(a)], 1)
    rings = [base[None] + r * radial + z * EZ for z, r in profile]
    pcs = []
    for rg in rings:
        p, zz = cam.canvas(rg)
        if (zz < 40).any():
            return None
        pcs.append(p)
    allp = np.vstack(pcs)
    box = bbox_of(allp, cam.Wc, cam.Hc, pad=3)
    if box is None:
        return None
    hull = cv2.convexHull(allp.astype(np.float32)).reshape(-1, 2)
    L = light_dir(light, base + EZ * profile[-1][0] / 2)
    V = normalize(cam.C - base)
    Hh = normalize(L + V)
    mean_c = colfn(a, profile[0][0] * 0 + profile[len(profile) // 2][0])
    fill_poly(canvas, hull, tuple(np.mean(mean_c, 0) * 0.7))
    for k in range(len(profile) - 1):
        (z0, r0), (z1, r1) = profile[k], profile[k + 1]
        dz, dr = z1 - z0, r1 - r0
        n = radial * dz - EZ[None] * dr
        n /= np.linalg.norm(n, axis=1, keepdims=True)
        mid = base[None] + radial * (r0 + r1) / 2 + EZ * (z0 + z1) / 2
        vis = np.einsum('ij,ij->i', n, (cam.C[None] - mid)) > 0
        sh = shade_rel(n, L, amb)
        spec = ks * np.maximum(n @ Hh, 0) ** pw
        cols = colfn(a, (z0 + z1) / 2)
        p0, p1 = pcs[k], pcs[k + 1]
        for i in range(N_SEG):
            if not vis[i]:
                continue
            j = (i + 1) % N_SEG
            q = np.array([p0[i], p0[j], p1[j], p1[i]])
            fill_poly(canvas, q, tuple(cols[i] * sh[i] + spec[i]), aa=False)
    if open_top is None and profile[-1][1] > 0.5:
        sh = shade_rel(EZ, L, amb)
        spec = ks * max(float(EZ @ Hh), 0) ** pw
        fill_poly(canvas, pcs[-1], tuple(np.mean(colfn(a, profile[-1][0]), 0) * sh + spec))
    if open_top is not None:
        zt, rt = profile[-1]
        top = pcs[-1]
        fill_poly(canvas, top, tuple(open_top['inner'] * 0.6))
        # the interior bottom is seen shifted towards the camera, leaving the far inner wall visible
        zb_ = profile[0][0] + min(8.0, zt * 0.15)
        inner_b = base[None] + profile[0][1] * 0.95 * radial + zb_ * EZ
        pib, _ = cam.canvas(inner_b)
        mb = inside_rim(pib, top, box)
        reg0 = canvas[box[1]:box[3], box[0]:box[2]]
        reg0 *= 1 - mb[..., None] * 0.45
        # inner wall shading: far half brighter (lit), near half dark
        lvl = open_top.get('level')
        if open_top.get('fill') is not None and lvl is not None:
            rl = np.interp(lvl, [p[0] for p in profile], [p[1] for p in profile]) * 0.97
            liq = base[None] + rl * radial + lvl * EZ
            pl, _ = cam.canvas(liq)
            m = inside_rim(pl, top, box)
            reg = canvas[box[1]:box[3], box[0]:box[2]]
            reg *= 1 - m[..., None]
            reg += m[..., None] * open_top['fill'][None, None]
        # rim highlight
        rim = np.round(top * 16).astype(np.int32)
        cv2.polylines(canvas, [rim], True, tuple(float(c) for c in (np.mean(mean_c, 0) * 1.2 + 0.05)),
                      max(1, int(round(1.5 * cam.fr / 1500))), cv2.LINE_AA, shift=4)
    if occ is not None:
        m = np.zeros((box[3] - box[1], box[2] - box[0]), np.float32)
        fill_poly(m, hull - [box[0], box[1]], 1.0)
        o = occ[box[1]:box[3], box[0]:box[2]]
        np.maximum(o, m, out=o)
        g = gloss[box[1]:box[3], box[0]:box[2]]
        g *= (1 - m)
    return np.vstack(rings), box, hull


def inside_rim(poly, top, box):
    """Mask (in box) of polygon `poly` clipped to the open top's rim polygon `top`."""
    m = np.zeros((box[3] - box[1], box[2] - box[0]), np.float32)
    fill_poly(m, poly - [box[0], box[1]], 1.0)
    rim = np.zeros_like(m)
    fill_poly(rim, top - [box[0], box[1]], 1.0)
    return np.minimum(m, rim)


def revolve_box(cam, base, profile):
    a = np.linspace(0, 2 * np.pi, N_SEG, endpoint=False)
    radial = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], 1)
    pts = np.vstack([base[None] + r * radial + z * EZ for z, r in profile])
    p, zz = cam.canvas(pts)
    if (zz < 40).any():
        return None
    return bbox_of(p, cam.Wc, cam.Hc, pad=3)


def glass_effect(canvas, box, hull, tint, strength, rng, backup, opacity):
    """Blend a transparent vessel: refracted (mirrored, blurred) background + rendered body."""
    x0, y0, x1, y1 = box
    reg = canvas[y0:y1, x0:x1]
    m = np.zeros(reg.shape[:2], np.float32)
    fill_poly(m, hull - [x0, y0], 1.0)
    refr = cv2.GaussianBlur(cv2.flip(backup, 1), (0, 0), 1.5)
    out = backup * (0.6 - 0.4 * opacity) + refr * (0.3 - 0.2 * opacity) * tint[None, None] + reg * (0.1 + 0.6 * opacity)
    h, w = m.shape
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    streak = np.exp(-((xx - 0.55) / 0.06) ** 2) * 0.5 + np.exp(-((xx + 0.7) / 0.04) ** 2) * 0.25
    edge = np.exp(-((np.abs(xx) - 0.95) / 0.05) ** 2) * 0.25
    out += (streak + edge)[..., None] * strength
    reg[:] = reg * (1 - m[..., None]) + out * m[..., None]


# ----------------------------------------------------------------------------- flat things
def textured_quad(canvas, occ, gloss, cam, P0, ex, ey, w, h, rgba, glossv=0.0, occ_val=1.0):
    """Planar textured rectangle: texel (0,0) at corner P0, x along ex (w mm), y along ey (h mm)."""
    TH, TW = rgba.shape[:2]
    A = np.zeros((4, 3))
    A[:3, 0] = ex * (w / TW)
    A[:3, 1] = ey * (h / TH)
    A[:3, 2] = P0 + ex * (0.5 * w / TW) + ey * (0.5 * h / TH)
    A[3, 2] = 1
    corners = np.array([P0, P0 + ex * w, P0 + ex * w + ey * h, P0 + ey * h])
    pc, z = cam.canvas(corners)
    if (z < 40).any():
        return None
    box = bbox_of(pc, cam.Wc, cam.Hc, pad=3)
    if box is None:
        return None
    out = warp_rgba(rgba, cam.plane_homography(A), box)
    composite(canvas, box, out, occ, occ_val)
    if gloss is not None:
        g = gloss[box[1]:box[3], box[0]:box[2]]
        a = out[..., 3]
        g *= (1 - a)
        g += a * glossv
    return corners


def box_solid(canvas, occ, gloss, cam, P0, ex, ey, w, h, d, top_rgba, side_col, light, amb, glossv=0.1):
    """Rectangular box lying on the table: footprint corner P0, axes ex, ey, height d."""
    ez = EZ
    c = [P0, P0 + ex * w, P0 + ex * w + ey * h, P0 + ey * h]
    faces = [(c[0], c[1], -ey), (c[1], c[2], ex), (c[2], c[3], ey), (c[3], c[0], -ex)]
    for a, b, n in faces:
        mid = (a + b) / 2 + ez * d / 2
        if np.dot(n, cam.C - mid) <= 0:
            continue
        pts = poly_canvas(cam, np.array([a, b, b + ez * d, a + ez * d]))
        sh = shade_rel(n, light_dir(light, mid), amb)
        fill_poly(canvas, pts, tuple(side_col * sh))
        if occ is not None and pts is not None:
            fill_poly(occ, pts, 1.0)
    return textured_quad(canvas, occ, gloss, cam, P0 + ez * d, ex, ey, w, h, top_rgba, glossv)


def rgba_of(img, alpha=None):
    if alpha is None:
        alpha = np.ones(img.shape[:2], np.float32)
    return np.dstack([img.astype(np.float32), alpha.astype(np.float32)])


def rounded_alpha(h, w, r):
    return cards._rounded_mask(h, w, r)


# ----------------------------------------------------------------------------- object factory
def make_objects(rng, scene, cam, board_poly_xy, n_obj, allow_on_board):
    """Choose object kinds and positions on the table (world coords)."""
    kinds = ['mug', 'mug', 'glass', 'bottle', 'phone', 'phone', 'cards_fan', 'cards_fan', 'deck', 'chip_bowl',
             'loose_chips', 'loose_chips', 'box', 'napkin', 'plate', 'pen', 'placemat', 'discard']
    objs = []
    placed = []
    for _ in range(n_obj):
        k = str(rng.choice(kinds))
        rad = {'mug': 60, 'glass': 45, 'bottle': 45, 'phone': 85, 'cards_fan': 110, 'deck': 60, 'chip_bowl': 90,
               'loose_chips': 60, 'box': 200, 'napkin': 120, 'plate': 120, 'pen': 75, 'placemat': 220, 'discard': 80}[k]
        on_board = allow_on_board and k in ('cards_fan', 'phone', 'discard', 'loose_chips', 'pen', 'deck') and rng.random() < 0.25
        for _try in range(40):
            # pick an image point, cast it to the table
            u = rng.uniform(-0.1, 1.1) * cam.Wc
            v = rng.uniform(-0.05, 1.1) * cam.Hc
            d = np.array([(u - cam.Kc[0, 2]) / cam.fr, (v - cam.Kc[1, 2]) / cam.fr, 1.0]) @ cam.R
            if d[2] >= -0.05:
                continue
            t = -cam.C[2] / d[2]
            P = cam.C + t * d
            tc = scene['table_c']
            lu = (P - tc) @ scene['table_ax']
            lv = (P - tc) @ scene['table_ay']
            if abs(lu) > scene['table_hx'] - rad * 0.5 or abs(lv) > scene['table_hy'] - rad * 0.5:
                continue
            if np.linalg.norm(P[:2] - cam.C[:2]) < 150:
                continue
            inside = board_dist(board_poly_xy, P[:2])
            if on_board:
                if inside < -rad * 1.4 or inside > rad * 0.3:
                    continue
            elif inside > -rad - 15:
                continue
            if any(np.linalg.norm(P[:2] - q[:2]) < rad + qr for q, qr in placed):
                continue
            placed.append((P, rad if k != 'placemat' else 10))
            objs.append(dict(kind=k, pos=P, rad=rad, yaw=rng.uniform(0, 2 * np.pi), on_board=bool(on_board)))
            break
    return objs


def board_dist(poly_xy, p):
    """Signed distance-ish (mm) of point p to convex polygon (positive inside)."""
    n = len(poly_xy)
    dmin = 1e9
    for i in range(n):
        a, b = poly_xy[i], poly_xy[(i + 1) % n]
        e = b - a
        nrm = np.array([-e[1], e[0]]) / np.linalg.norm(e)
        dmin = min(dmin, float(np.dot(p - a, nrm)))
    # orientation: make inside positive
    area = sum(poly_xy[i][0] * poly_xy[(i + 1) % n][1] - poly_xy[(i + 1) % n][0] * poly_xy[i][1] for i in range(n))
    return dmin if area > 0 else -max_dist_out(poly_xy, p)


def max_dist_out(poly_xy, p):
    n = len(poly_xy)
    dmax = -1e9
    for i in range(n):
        a, b = poly_xy[i], poly_xy[(i + 1) % n]
        e = b - a
        nrm = np.array([-e[1], e[0]]) / np.linalg.norm(e)
        dmax = max(dmax, float(np.dot(p - a, nrm)))
    return dmax


def object_shadow(mask, cam, o, light):
    """Rough 3-D hull of an object for its cast shadow."""
    P = o['pos']
    k = o['kind']
    h = {'mug': 95, 'glass': 120, 'bottle': 260, 'phone': 8, 'cards_fan': 1, 'deck': 18, 'chip_bowl': 45,
         'loose_chips': 8, 'box': 55, 'napkin': 1, 'plate': 15, 'pen': 10, 'placemat': 0.5, 'discard': 3}[k]
    r = {'mug': 42, 'glass': 36, 'bottle': 38, 'phone': 75, 'cards_fan': 80, 'deck': 45, 'chip_bowl': 75,
         'loose_chips': 45, 'box': 170, 'napkin': 90, 'plate': 110, 'pen': 70, 'placemat': 1, 'discard': 60}[k]
    if h < 2:
        return
    if k in ('phone', 'box', 'deck', 'pen'):
        dims = o.get('dims')
        if dims is None:
            return
        P0, ex, ey, w, hh = dims
        pts = np.array([P0, P0 + ex * w, P0 + ex * w + ey * hh, P0 + ey * hh])
        pts = np.vstack([pts, pts + EZ * h])
    else:
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ring = np.stack([np.cos(a), np.sin(a), 0 * a], 1) * r
        pts = np.vstack([P + ring, P + ring + EZ * h])
    val = 0.8 if k != 'glass' else 0.35
    shadow_hull(mask, cam, pts, light, val)


def draw_object(canvas, occ, gloss, cam, o, light, amb, rng, scene):
    k = o['kind']
    P = o['pos'].copy()
    yaw = o['yaw']
    ex = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    ey = np.array([math.sin(yaw), -math.cos(yaw), 0.0])  # "down" axis: texture not mirrored from above
    lift = 0.0
    if o.get('on_board'):
        lift = scene['board_thick'] + 0.5
        P = P + EZ * lift
    if k == 'mug':
        body = lin(jitter(rng, tuple(rng.choice([(240, 240, 235), (30, 30, 35), (180, 40, 40), (40, 80, 150), (230, 200, 80), (90, 150, 120), (240, 170, 170)])), 10))
        stripe = lin(jitter(rng, tuple(rng.choice([(250, 250, 250), (200, 40, 40), (40, 40, 120), (20, 20, 20)])), 10))
        has_stripe = rng.random() < 0.4
        sz0, sz1 = rng.uniform(40, 70), rng.uniform(5, 15)
        R = rng.uniform(38, 46)
        H = rng.uniform(85, 105)

        def cf(a, z):
            c = np.tile(body, (len(a), 1))
            if has_stripe and sz0 < z < sz0 + sz1:
                c[:] = stripe
            return c
        drink = lin(tuple(rng.choice([(60, 35, 20), (120, 75, 40), (170, 120, 70), (150, 60, 20)])))
        # handle behind or in front
        ha = rng.uniform(0, 2 * np.pi)
        hdir = np.array([math.cos(ha), math.sin(ha), 0])
        hpts = []
        for t in np.linspace(-0.5 * np.pi, 0.5 * np.pi, 12):
            hpts.append(P + hdir * (R + 18 * math.cos(t)) + EZ * (H * 0.55 + 26 * math.sin(t)))
        hpts = np.array(hpts)
        behind = np.dot(hdir, cam.C - P) < 0

        def draw_handle():
            pc, z = cam.canvas(hpts)
            if (z < 40).any():
                return
            w = max(2, int(round(7 * cam.fr / z.mean())))
            sh = shade_rel(hdir, light_dir(light, P), amb)
            cv2.polylines(canvas, [np.round(pc * 16).astype(np.int32)], False, tuple(float(c) for c in body * sh * 0.9), w, cv2.LINE_AA, shift=4)
            if occ is not None:
                cv2.polylines(occ, [np.round(pc * 16).astype(np.int32)], False, 1.0, w, cv2.LINE_AA, shift=4)
        if behind:
            draw_handle()
        prof = [(0, R * 0.93), (3, R), (H - 2, R), (H, R * 0.985)]
        revolve(canvas, occ, gloss, cam, P, prof, cf, light, amb, ks=0.35, pw=50,
                open_top=dict(inner=body, fill=drink if rng.random() < 0.75 else None, level=H * rng.uniform(0.6, 0.9)))
        if not behind:
            draw_handle()
    elif k in ('glass', 'bottle'):
        tint = np.array(rng.choice([(0.95, 0.97, 0.95), (0.8, 0.9, 0.8), (0.9, 0.75, 0.55)]), np.float32)
        cap = None
        if k == 'glass':
            R = rng.uniform(30, 40)
            H = rng.uniform(90, 140)
            prof = [(0, R * 0.85), (8, R * 0.9), (H, R)]
            base_c = lin((200, 205, 205))
            opacity = 0.1
            liquid = lin(tuple(rng.choice([(230, 235, 235), (240, 150, 40), (120, 20, 40), (60, 30, 15)]))) if rng.random() < 0.6 else None
        else:
            R = rng.uniform(32, 40)
            H = rng.uniform(200, 280)
            prof = [(0, R), (H * 0.6, R), (H * 0.75, R * 0.45), (H * 0.92, R * 0.33), (H, R * 0.35)]
            glass_c = rng.choice([(40, 90, 40), (90, 50, 20), (200, 205, 205)])
            base_c = lin(tuple(glass_c))
            opacity = 0.75 if glass_c[0] < 150 else 0.2
            cap = lin(tuple(rng.choice([(200, 200, 200), (180, 30, 30), (220, 180, 60), (30, 30, 30)])))
            liquid = None
        box = revolve_box(cam, P, prof)
        if box is None:
            return
        backup = canvas[box[1]:box[3], box[0]:box[2]].copy()
        ot = None
        if cap is not None:
            ot = dict(inner=cap / 0.55, fill=None, level=None)
        elif liquid is not None:
            ot = dict(inner=base_c * 0.3, fill=liquid, level=H * rng.uniform(0.3, 0.8))
        res = revolve(canvas, occ, gloss, cam, P, prof, lambda a, z: np.tile(base_c, (len(a), 1)), light, amb, ks=0.8, pw=80,
                      open_top=ot)
        if res is not None:
            pts, box2, hull = res
            if box2 == box:
                glass_effect(canvas, box, hull, tint, 0.2, rng, backup, opacity)
    elif k == 'phone':
        w, h, d = 72 + rng.uniform(-4, 6), 148 + rng.uniform(-6, 14), rng.uniform(7, 10)
        TW, TH = 72, 148
        scr = np.zeros((TH, TW, 3), np.float32)
        if rng.random() < 0.4:
            # lit screen with app icons
            scr[:] = srgb(jitter(rng, tuple(rng.choice([(40, 60, 120), (200, 120, 80), (30, 30, 40)])), 30))
            for i in range(4):
                for j in range(5):
                    cc = srgb(jitter(rng, (128, 128, 128), 90))
                    cv2.rectangle(scr, (8 + i * 15, 20 + j * 20), (18 + i * 15, 30 + j * 20), tuple(float(c) for c in cc), -1)
            scr = scr * 1.3
        else:
            g = np.linspace(0, 1, TH, dtype=np.float32)[:, None]
            scr[:] = 0.03 + 0.05 * g[..., None]
        bez = max(1, 2)
        img = np.zeros((TH, TW, 3), np.float32) + 0.02
        img[bez:-bez, bez:-bez] = scr[bez:-bez, bez:-bez]
        alpha = rounded_alpha(TH, TW, 8)
        case = lin(jitter(rng, tuple(rng.choice([(20, 20, 20), (200, 200, 205), (40, 60, 100), (160, 40, 50), (230, 220, 200)])), 10))
        P0 = P - ex * w / 2 - ey * h / 2
        o['dims'] = (P0, ex, ey, w, h)
        box_solid(canvas, occ, gloss, cam, P0, ex, ey, w, h, d, rgba_of(img ** 2.0, alpha), case, light, amb, glossv=0.9)
    elif k in ('cards_fan', 'discard', 'deck'):
        ed = cards.edition(rng)
        cw_mm, ch_mm = 63.0, 88.0
        TW, TH = 63, 88
        face_up = k == 'discard' or (k == 'cards_fan' and rng.random() < 0.5)
        back = cards.card_back(rng, TW, TH)
        alpha = rounded_alpha(TH, TW, 4)
        ranks = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A']
        if k == 'deck':
            n = 1
            P0 = P - ex * cw_mm / 2 - ey * ch_mm / 2
            o['dims'] = (P0, ex, ey, cw_mm, ch_mm)
            side = lin((235, 235, 230))
            box_solid(canvas, occ, gloss, cam, P0, ex, ey, cw_mm, ch_mm, rng.uniform(5, 20), rgba_of(back ** 2.0, alpha), side, light, amb, glossv=0.3)
            return
        n = int(rng.integers(3, 8))
        piv = P - ey * 60
        for i in range(n):
            if k == 'cards_fan':
                ang = (i - (n - 1) / 2) * rng.uniform(0.12, 0.22)
            else:
                ang = rng.uniform(-0.6, 0.6)
            ca, sa = math.cos(ang), math.sin(ang)
            ex2 = ca * ex + sa * ey
            ey2 = -sa * ex + ca * ey
            if face_up:
                code = ranks[rng.integers(13)] + 'SHDC'[rng.integers(4)]
                if code[0] == 'J':
                    code = 'Q' + code[1]
                tex = cards.card_face(rng, code, TW * 2, TH * 2, ed)
                tex = cv2.resize(tex, (TW, TH), interpolation=cv2.INTER_AREA)
            else:
                tex = back
            if k == 'cards_fan':
                P0 = piv - ex2 * cw_mm / 2 + ey2 * (60 - ch_mm / 2) + EZ * (0.3 * i + 0.2) + ey2 * 0
            else:
                off = rng.normal(0, 10, 2)
                P0 = P - ex2 * cw_mm / 2 - ey2 * ch_mm / 2 + ex * off[0] + ey * off[1] + EZ * (0.3 * i + 0.2)
            textured_quad(canvas, occ, gloss, cam, P0, ex2, ey2, cw_mm, ch_mm, rgba_of(tex ** 2.0, alpha), 0.25)
    elif k == 'chip_bowl':
        R = rng.uniform(55, 80)
        H = rng.uniform(30, 50)
        bowl = lin(jitter(rng, tuple(rng.choice([(240, 240, 235), (200, 60, 50), (60, 90, 150), (30, 30, 30), (180, 150, 100)])), 10))
        prof = [(0, R * 0.55), (H * 0.3, R * 0.8), (H * 0.7, R * 0.95), (H, R)]
        res = revolve(canvas, occ, gloss, cam, P, prof, lambda a, z: np.tile(bowl, (len(a), 1)), light, amb, ks=0.5, pw=60,
                      open_top=dict(inner=bowl, fill=None, level=None))
        if res is None:
            return
        chipc = scene['chip_set']['cols'][str(rng.choice(list(scene['teams_letters'])))]
        cs = dict(scene['chip_set'])
        for i in range(int(rng.integers(8, 20))):
            a = rng.uniform(0, 2 * np.pi)
            rr = R * 0.6 * math.sqrt(rng.random())
            cpos = P + np.array([rr * math.cos(a), rr * math.sin(a), H * rng.uniform(0.35, 0.75)])
            tilt = rng.normal(0, 0.35, 2)
            eu = normalize(np.array([1, 0, tilt[0]]))
            ev = normalize(np.array([0, 1, tilt[1]]))
            en = normalize(np.cross(eu, ev))
            draw_chip(canvas, cam, cs, chipc, cpos, eu, ev, en, light, amb, rng, None, spin=rng.uniform(0, 6.3))
    elif k == 'loose_chips':
        cs = dict(scene['chip_set'])
        letter = str(rng.choice(list(scene['teams_letters'])))
        chipc = cs['cols'][letter]
        n = int(rng.integers(2, 9))
        stack = rng.random() < 0.5
        items = []
        for i in range(n):
            if stack and i > 0 and rng.random() < 0.7:
                q = items[-1]
                cpos = q + np.array([rng.normal(0, 2), rng.normal(0, 2), cs['thick'] + 0.1])
            else:
                a = rng.uniform(0, 2 * np.pi)
                rr = rng.uniform(0, 55)
                cpos = P + np.array([rr * math.cos(a), rr * math.sin(a), 0])
            items.append(cpos)
        items.sort(key=lambda q: (q[2], -np.linalg.norm(q - cam.C)))
        for cpos in items:
            draw_chip(canvas, cam, cs, chipc, cpos + EZ * 0.0, np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), EZ, light, amb, rng, occ,
                      spin=rng.uniform(0, 6.3))
    elif k == 'box':
        w, h, d = rng.uniform(250, 320), rng.uniform(200, 260), rng.uniform(40, 60)
        TW, TH = 200, int(200 * h / w)
        c = srgb(jitter(rng, tuple(rng.choice([(30, 80, 40), (30, 30, 35), (40, 60, 140), (150, 30, 40), (230, 230, 225)])), 12))
        img = np.zeros((TH, TW, 3), np.float32) + c
        tm = cards.text_mask('SEQUENCE', cards.TITLE_FONTS[rng.integers(len(cards.TITLE_FONTS))], 60)
        cards.paste_mask(img, tm, TW / 2, TH * 0.3, TH * 0.14, srgb((250, 240, 200)))
        for i, cc in enumerate([(30, 70, 180), (30, 140, 70), (200, 30, 40)]):
            cv2.circle(img, (int(TW / 2 + (i - 1) * 28), int(TH * 0.65)), 12, tuple(float(v) for v in srgb(cc)), -1, cv2.LINE_AA)
        P0 = P - ex * w / 2 - ey * h / 2
        o['dims'] = (P0, ex, ey, w, h)
        box_solid(canvas, occ, gloss, cam, P0, ex, ey, w, h, d, rgba_of(img ** 2.0), c ** 2.0 * 0.8, light, amb, glossv=0.4)
    elif k == 'napkin':
        w = rng.uniform(150, 220)
        TW = 64
        c = srgb(jitter(rng, tuple(rng.choice([(250, 250, 250), (240, 220, 200), (200, 220, 240), (230, 80, 80)])), 8))
        img = np.zeros((TW, TW, 3), np.float32) + c
        yy, xx = np.mgrid[0:TW, 0:TW].astype(np.float32)
        img *= (1 - 0.08 * (np.abs(xx - TW / 2) < 1))[..., None]
        img *= (1 - 0.06 * (np.abs(yy - TW / 2) < 1))[..., None]
        P0 = P - ex * w / 2 - ey * w / 2 + EZ * 0.3
        textured_quad(canvas, occ, gloss, cam, P0, ex, ey, w, w, rgba_of(img ** 2.0), 0.0)
    elif k == 'placemat':
        w, h = rng.uniform(380, 450), rng.uniform(280, 330)
        TW, TH = 160, int(160 * h / w)
        c = srgb(jitter(rng, tuple(rng.choice([(200, 170, 120), (60, 60, 60), (170, 40, 40), (120, 140, 100), (230, 225, 215)])), 10))
        yy, xx = np.mgrid[0:TH, 0:TW].astype(np.float32)
        weave = 0.85 + 0.15 * (np.sin(xx * 1.6) * np.sin(yy * 1.6) > 0)
        img = c[None, None] * weave[..., None]
        al = rounded_alpha(TH, TW, rng.uniform(0, 40))
        P0 = P - ex * w / 2 - ey * h / 2 + EZ * 0.2
        textured_quad(canvas, None, gloss, cam, P0, ex, ey, w, h, rgba_of(img ** 2.0, al), 0.0)
    elif k == 'plate':
        R = rng.uniform(90, 130)
        c = lin(jitter(rng, tuple(rng.choice([(245, 245, 242), (230, 225, 210), (60, 90, 140)])), 6))
        prof = [(0, R * 0.6), (6, R * 0.85), (14, R)]
        res = revolve(canvas, occ, gloss, cam, P, prof, lambda a, z: np.tile(c, (len(a), 1)), light, amb, ks=0.6, pw=60,
                      open_top=dict(inner=c * 1.6, fill=None, level=None))
        if res is not None:
            snack = tuple(rng.choice([(190, 140, 80), (120, 70, 40), (230, 200, 120)]))
            for i in range(int(rng.integers(0, 7))):
                a = rng.uniform(0, 2 * np.pi)
                rr = R * 0.55 * math.sqrt(rng.random())
                cpos = P + np.array([rr * math.cos(a), rr * math.sin(a), 8])
                ccol = lin(jitter(rng, snack, 8))
                rs_ = rng.uniform(12, 24)
                revolve(canvas, occ, gloss, cam, cpos, [(0, rs_), (4, rs_ * 0.97)], lambda a_, z: np.tile(ccol, (len(a_), 1)), light, amb, ks=0.05, pw=10)
    elif k == 'pen':
        L = rng.uniform(130, 150)
        c = lin(jitter(rng, tuple(rng.choice([(20, 30, 120), (20, 20, 20), (200, 30, 30), (230, 230, 230)])), 10))
        P0 = P - ex * L / 2 + EZ * 5
        P1 = P + ex * L / 2 + EZ * 5
        o['dims'] = (P0 - ey * 5 - EZ * 5, ex, ey, L, 10)
        render_parts(canvas, occ, cam, [dict(caps=[(P0, P1, 5.0, 4.0)], col=c, depth=0, kind='plain', ks=0.5, pw=40, rad_px=4)], light, amb, rng, P)
