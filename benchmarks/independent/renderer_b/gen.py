#!/usr/bin/env python
"""Independent synthetic phone-photo generator for the board game Sequence.

usage: gen.py OUTDIR --n N --seed S [--no-board K]

Writes photo_NNNN.jpg/.json (board photos) and noboard_NNNN.jpg/.json.
Scene: a folding Sequence board (procedural card faces, court figures, FREE corners) on a
table (wood / glass / cloth / stone) with 3-D chips, clutter objects, sometimes a hand;
lit by lamps / window / spot / flash; photographed by a pinhole camera with radial
distortion; then a phone-like pipeline (exposure, tone curve, noise, NR, sharpening, JPEG).
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import cv2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cards  # noqa: E402
import geom  # noqa: E402
import scene as sc  # noqa: E402
import objects as ob  # noqa: E402
import surfaces as sf  # noqa: E402
import lighting as lt  # noqa: E402
import nonboard as nb  # noqa: E402

cv2.setNumThreads(1)
# development overrides, e.g. F2_FORCE="hand=1,light=lamp"
FORCE = dict(kv.split('=') for kv in os.environ.get('F2_FORCE', '').split(',') if '=' in kv)

SIZES = [((4032, 3024), 0.2), ((3024, 4032), 0.1), ((1920, 1080), 0.13), ((1080, 1920), 0.07), ((1280, 720), 0.1),
         ((720, 1280), 0.05), ((4000, 3000), 0.06), ((3000, 4000), 0.04), ((1600, 1200), 0.08), ((1200, 1600), 0.04),
         ((2560, 1440), 0.05), ((1440, 1080), 0.04), ((3264, 2448), 0.04)]
EZ = np.array([0, 0, 1.0])


def pick(rng, items):
    w = np.array([p for _, p in items], np.float64)
    return items[rng.choice(len(items), p=w / w.sum())][0]


# ============================================================================ camera placement
def place_camera(rng, W, H, center, outline, span, strict, var):
    tilt = math.radians(rng.uniform(12, 20) if rng.random() < 0.15 else rng.uniform(18, 55))
    psi = var['_psi']
    roll = rng.normal(0, 0.035)
    hfov = math.radians(rng.uniform(60, 74) if rng.random() < 0.8 else rng.uniform(42, 60))
    f = (max(W, H) / 2) / math.tan(hfov / 2)
    k1 = float(np.clip(rng.normal(0.0, 0.035), -0.08, 0.1))
    k2 = float(np.clip(rng.normal(0.0, 0.012), -0.03, 0.03))
    cx = (W - 1) / 2 + rng.normal(0, 0.004 * W)
    cy = (H - 1) / 2 + rng.normal(0, 0.004 * H)
    rs = min(1.0, rng.uniform(1650, 2350) / max(W, H))
    gg = math.gcd(W, H)
    rs = max(1, round(rs * gg)) / gg  # render size is then an exact fraction of the output size
    off = rng.uniform(-0.09, 0.09, 2) * span
    L = center + np.array([off[0], off[1], 0.0])
    fdir = np.array([math.sin(tilt) * math.cos(psi), math.sin(tilt) * math.sin(psi), -math.cos(tilt)])
    fill_t = rng.uniform(0.45, 0.95) if strict else rng.uniform(0.35, 1.2)

    def make(d):
        C = L - d * fdir
        R = geom.look_camera(C, L, roll)
        return geom.Camera(W, H, f, cx, cy, R, C, k1, k2, rs)

    def fill(cam):
        Xc = cam.to_cam(outline)
        if (Xc[:, 2] < 50).any():
            return 9.0, None
        p = cam.output_px(outline)
        return max((p[:, 0].max() - p[:, 0].min()) / W, (p[:, 1].max() - p[:, 1].min()) / H), p

    lo, hi = 150.0, 8000.0
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        fl, _ = fill(make(mid))
        if fl > fill_t:
            lo = mid
        else:
            hi = mid
    d = hi
    cam = make(d)
    if strict:
        for _ in range(200):
            fl, p = fill(cam)
            if p is not None:
                mx, my = 0.036 * W, 0.036 * H
                if p[:, 0].min() >= mx and p[:, 0].max() <= W - 1 - mx and p[:, 1].min() >= my and p[:, 1].max() <= H - 1 - my:
                    break
            d *= 1.03
            cam = make(d)
    var.update(tilt_deg=round(math.degrees(tilt), 1), hfov_deg=round(math.degrees(hfov), 1), roll_deg=round(math.degrees(roll), 1),
               k1=round(k1, 4), k2=round(k2, 4), cam_dist_mm=round(d), cam_height_mm=round(float(cam.C[2])),
               fill_target=round(fill_t, 2), render_scale=round(rs, 3))
    return cam, L


# ============================================================================ table
def render_table(rng, canvas, gloss, cam, scn, var):
    mat = sf.table_material(rng)
    var['table'] = mat['kind']
    P, hit, xs, ys, d = lt.plane_points(cam, 16, 0.0)
    tc, ax, ay = scn['table_c'], scn['table_ax'], scn['table_ay']
    hx, hy = scn['table_hx'], scn['table_hy']
    u = (P - tc) @ ax
    v = (P - tc) @ ay
    ok = hit & (np.abs(u) <= hx + 50) & (np.abs(v) <= hy + 50)
    # table side faces (camera-facing ones)
    T = scn['table_thick']
    side_col = (sf.srgb(mat['side_col']) ** 2) * 0.55
    corners = [tc + ax * sx * hx + ay * sy * hy for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        n = np.cross(b - a, EZ)
        n /= np.linalg.norm(n)
        if np.dot(n, cam.C - (a + b) / 2) <= 0:
            continue
        pts = geom.poly_canvas(cam, np.array([a, b, b - EZ * T, a - EZ * T]))
        geom.fill_poly(canvas, pts, tuple(side_col))
    if not ok.any():
        return mat
    ua, ub = max(-hx, u[ok].min() - 30), min(hx, u[ok].max() + 30)
    va, vb = max(-hy, v[ok].min() - 30), min(hy, v[ok].max() + 30)
    # texel density: near the camera we need most
    dist = np.linalg.norm(P[ok] - cam.C, axis=1)
    ppm = cam.fr / max(dist.min(), 100) * 0.9
    ppm = float(np.clip(ppm, 0.25, 3.0))
    ppm = min(ppm, 1300 / max(ub - ua, vb - va))
    TW, TH = max(8, int(math.ceil((ub - ua) * ppm))), max(8, int(math.ceil((vb - va) * ppm)))
    tex = sf.table_texture(rng, mat, TW, TH, ppm, ua, va)
    rgba = np.dstack([(tex * 255 + 0.5).astype(np.uint8), np.full((TH, TW), 255, np.uint8)])
    A = np.zeros((4, 3))
    A[:3, 0] = ax / ppm
    A[:3, 1] = ay / ppm
    A[:3, 2] = tc + ax * (ua + 0.5 / ppm) + ay * (va + 0.5 / ppm)
    A[3, 2] = 1
    box = (0, 0, cam.Wc, cam.Hc)
    out = geom.warp_rgba(rgba, cam.plane_homography(A), box, max_levels=2)
    out[..., :3] **= 2.0
    # below-horizon mask
    dz = cv2.resize(d[..., 2].astype(np.float32), (len(xs) * 16, len(ys) * 16), interpolation=cv2.INTER_LINEAR)[:cam.Hc, :cam.Wc]
    out[..., 3] *= np.clip(-dz / 0.01, 0, 1)
    geom.composite(canvas, box, out)
    gloss += out[..., 3] * mat['gloss']
    return mat


# ============================================================================ main render
def render(seed, idx, has_board):
    rng = np.random.default_rng([seed, idx, 1 if has_board else 2])
    var = {}
    W, H = pick(rng, SIZES)
    tau = rng.uniform(0, 2 * np.pi)
    tax = np.array([math.cos(tau), math.sin(tau), 0.0])
    tay = np.array([-math.sin(tau), math.cos(tau), 0.0])
    center = np.zeros(3)
    board = None
    if has_board:
        bd = cards.board_design(rng)
        geo = cards.board_geometry(bd)
        byaw = tau + int(rng.integers(4)) * np.pi / 2 + rng.normal(0, 0.05)
        board = sc.Board(bd, geo, byaw, center)
        outline = board.grid_outline_world()
        g = geo
        foot = board.world([g['bx0'], g['bx1'], g['bx1'], g['bx0']], [g['by0'], g['by0'], g['by1'], g['by1']], dz=0)
        foot[:, 2] = 0
        span = max(g['bx1'] - g['bx0'], g['by1'] - g['by0'])
        var.update(board_style=bd['style'], card_aspect=round(bd['aspect'], 3), card_w_mm=round(bd['card_w_mm'], 1),
                   folds=bd['folds'], board_border_rgb=list(bd['border_col']), free_logo=bd['free']['logo'],
                   free_bg=list(bd['free']['bg']), suit_style=bd['ed']['suit_style'], title=bool(bd['title']),
                   court_outline=bool(bd['ed']['outline']), board_gloss=round(bd['gloss'], 2))
    else:
        sd = nb.subject_design(rng)
        syaw = tau + int(rng.integers(4)) * np.pi / 2 + rng.normal(0, 0.3)
        sw, sh = sd['size']
        ex = np.array([math.cos(syaw), math.sin(syaw), 0.0])
        ey = np.array([-math.sin(syaw), math.cos(syaw), 0.0])
        foot = np.array([center + sx * ex * sw / 2 + sy * ey * sh / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        outline = foot.copy()
        span = max(sw, sh)
        var['subject'] = sd['kind']
    # camera: player sits at one side of the table
    psi = tau + int(rng.integers(4)) * np.pi / 2 + rng.uniform(-0.6, 0.6)
    var['_psi'] = psi
    cam, look = place_camera(rng, W, H, center, outline, span, has_board, var)
    del var['_psi']
    # table extents around the board, near edge close to the camera nadir
    fwd = np.array([math.cos(psi), math.sin(psi), 0.0])
    axes = [tax, tay, -tax, -tay]
    near_n = max(axes, key=lambda a: -np.dot(a, fwd))  # outward normal of the camera-side edge
    ext = {}
    for a in axes:
        ext[tuple(np.round(a, 6))] = max(float(np.dot(p - center, a)) for p in foot)
    cam_s = float(np.dot(cam.C - center, near_n))
    edges = {}
    for a in axes:
        key = tuple(np.round(a, 6))
        if a is near_n:
            e = max(ext[key] + rng.uniform(40, 200), cam_s + rng.uniform(-250, 120))
        else:
            e = ext[key] + rng.uniform(60, 700)
        edges[key] = e
    e_px, e_nx = edges[tuple(np.round(tax, 6))], edges[tuple(np.round(-tax, 6))]
    e_py, e_ny = edges[tuple(np.round(tay, 6))], edges[tuple(np.round(-tay, 6))]
    tcen = center + tax * (e_px - e_nx) / 2 + tay * (e_py - e_ny) / 2
    scn = dict(table_c=tcen, table_ax=tax, table_ay=tay, table_hx=(e_px + e_nx) / 2, table_hy=(e_py + e_ny) / 2,
               table_h=rng.uniform(420, 780), table_thick=rng.uniform(18, 45),
               board_thick=board.thick if board else 2.0)
    # lighting
    dim = rng.random() < 0.2
    L = lt.make_lights(rng, center, cam, dim, FORCE.get('light'))
    light, amb = L['lights'][0], L['amb']
    var.update(light=L['scen'], dim=bool(dim), ambient=round(amb, 2))
    Pc = center + EZ * 2
    Ec, mainc = lt.illumination(cam, L, Pc[None], center)
    direct_frac = float(np.clip(mainc.sum() / max(Ec.sum(), 1e-6), 0.05, 0.95))

    # ---------------------------------------------------------------- canvas
    canvas = sf.room_backdrop(rng, cam, scn)
    gloss = np.zeros((cam.Hc, cam.Wc), np.float32)
    occ = np.zeros((cam.Hc, cam.Wc), np.float32)
    render_table(rng, canvas, gloss, cam, scn, var)

    # soft contact shadow around the board / subject footprint
    dpx = cam.fr / max(np.linalg.norm(center - cam.C), 100)
    if has_board or var.get('subject') in ('chess', 'go'):
        fm = np.zeros((cam.Hc, cam.Wc), np.float32)
        fp = geom.poly_canvas(cam, foot)
        geom.fill_poly(fm, fp, 1.0)
        fm = geom.soft_blur(fm, max(1.0, (6 if has_board else 15) * dpx))
        canvas *= (1 - 0.35 * fm)[..., None]

    chips_info = []
    grid = None
    teams = None
    letters = ['B', 'G']
    if has_board:
        g = board.geo
        # texture resolution from the projected size of the board
        pts = board.world(np.array([0, g['GW'], g['GW'], 0, g['GW'] / 2]), np.array([0, 0, g['GH'], g['GH'], g['GH'] / 2]))
        depths = cam.to_cam(pts)[:, 2]
        s = cam.fr / depths.min() * rng.uniform(0.9, 1.25)
        s = float(np.clip(s, 0.9, 4.5))
        s = min(s, 2300.0 / max(g['bx1'] - g['bx0'], g['by1'] - g['by0']))
        tex, org = cards.board_texture(rng, board.bd, g, s)
        var['tex_px_per_mm'] = round(s, 2)
        sc.render_board(canvas, gloss, None, cam, board, tex, org, s, light, amb)
        # game position
        teams = 3 if rng.random() < 0.3 else 2
        u = rng.random()
        n_total = int(rng.integers(0, 76)) if u < 0.85 else int(rng.integers(0, 8))
        grid, letters, lines = sc.game_position(rng, teams, n_total)
        cs = sc.chip_set(rng, g['px'])
        var.update(teams=teams, n_chips=sum(row.count('B') + row.count('G') + row.count('R') for row in grid),
                   lines_of_five=len(lines), chip_style=cs['style'], chip_diam_frac=round(2 * cs['R'] / g['px'], 3),
                   chip_thick_mm=round(cs['thick'], 2))
        chips_info = sc.chip_positions(rng, board, grid, cs)
    else:
        cs = sc.chip_set(rng, rng.uniform(40, 50))
        letters = ['B', 'G'] if rng.random() < 0.7 else ['B', 'G', 'R']
    scn['chip_set'] = cs
    scn['teams_letters'] = letters

    # ---------------------------------------------------------------- objects (chosen now, for shadows)
    n_obj = int(rng.integers(1, 9))
    objs = ob.make_objects(rng, scn, cam, foot[:, :2], n_obj, allow_on_board=has_board and rng.random() < 0.25)
    var['objects'] = [o['kind'] + ('@board' if o['on_board'] else '') for o in objs]
    # ---------------------------------------------------------------- shadows
    S_chip = np.zeros((cam.Hc, cam.Wc), np.float32)
    S_obj = np.zeros((cam.Hc, cam.Wc), np.float32)
    if has_board:
        ldir = sc.light_dir(light, center)
        lh = np.array([ldir[0], ldir[1], 0])
        elev = max(ldir[2], 0.1)
        shift = -lh / max(np.linalg.norm(lh), 1e-6) * cs['thick'] * math.sqrt(max(1 - elev ** 2, 0)) / elev
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        rpx = []
        for r, c, ch, x, y in chips_info:
            Pw = board.world([x], [y])[0]
            ring = Pw + np.stack([np.cos(a), np.sin(a), 0 * a], 1) * cs['R'] * 1.06
            p1, z1 = cam.canvas(ring)
            p2, z2 = cam.canvas(ring + shift)
            hull = cv2.convexHull(np.vstack([p1, p2]).astype(np.float32)).reshape(-1, 2)
            geom.fill_poly(S_chip, hull, 0.55)
            rpx.append(cs['R'] * cam.fr / z1.mean())
        if rpx:
            S_chip = geom.soft_blur(S_chip, max(0.8, 0.12 * float(np.median(rpx))))
    # pre-draw flat objects first so that their geometry (dims) is known; shadows use rough hulls
    for o in objs:
        ob.object_shadow(S_obj, cam, o, light)
    pen = light.get('size', 0) if light['kind'] == 'point' else 30
    blur_obj = max(1.5, dpx * (4 + 0.08 * pen))
    if S_obj.any():
        S_obj = geom.soft_blur(S_obj, blur_obj)
    # shadow of a person leaning over the table
    if rng.random() < 0.2 and L['scen'] not in ('diffuse',):
        pm = np.zeros_like(S_obj)
        side = rng.uniform(0, 2 * np.pi)
        dv = np.array([math.cos(side), math.sin(side), 0])
        base = center + dv * rng.uniform(0.35, 0.8) * span
        sh_pts = []
        for t in np.linspace(0, 2 * np.pi, 40):
            sh_pts.append(base + dv * 180 * math.cos(t) + np.cross(EZ, dv) * 260 * math.sin(t))
        p = geom.poly_canvas(cam, np.array(sh_pts))
        geom.fill_poly(pm, p, 1.0)
        head = base - dv * 230
        hp = geom.poly_canvas(cam, np.array([head + dv * 100 * math.cos(t) + np.cross(EZ, dv) * 85 * math.sin(t) for t in np.linspace(0, 2 * np.pi, 30)]))
        geom.fill_poly(pm, hp, 1.0)
        pm = geom.soft_blur(pm, max(2.0, dpx * rng.uniform(25, 60)))
        S_obj = np.maximum(S_obj, pm * rng.uniform(0.6, 0.95))
        var['person_shadow'] = True
    S = np.clip(S_chip + S_obj, 0, 1)
    canvas *= (1 - direct_frac * S)[..., None]

    # ---------------------------------------------------------------- chips
    if has_board:
        chipmask = np.zeros((cam.Hc, cam.Wc), np.float32)
        order = []
        for r, c, ch, x, y in chips_info:
            Pw = board.world([x], [y])[0]
            order.append((float(np.linalg.norm(Pw - cam.C)), r, c, ch, x, y, Pw))
        order.sort(key=lambda q: -q[0])
        for _, r, c, ch, x, y, Pw in order:
            eu, ev, en = board.frame_at(x, y)
            col = cs['cols'][ch] * (1 + rng.normal(0, cs['var'], 3))
            sc.draw_chip(canvas, cam, cs, np.clip(col, 0, 1), Pw, eu, ev, en, light, amb, rng, chipmask,
                                        spin=rng.uniform(0, 2 * np.pi))
        gloss *= (1 - chipmask)
        canvas *= (1 - direct_frac * S_obj * chipmask)[..., None]
    else:
        nb.draw_subject(rng, canvas, occ, gloss, cam, sd, center, syaw, light, amb, scn)
        occ[:] = 0

    # ---------------------------------------------------------------- objects
    flat = {'placemat': 0, 'napkin': 1, 'cards_fan': 2, 'discard': 2, 'deck': 3, 'phone': 3, 'pen': 3}
    objs.sort(key=lambda o: (flat.get(o['kind'], 5), -np.linalg.norm(o['pos'] - cam.C)))
    for o in objs:
        ob.draw_object(canvas, occ, gloss, cam, o, light, amb, rng, scn)

    # ---------------------------------------------------------------- hand / arm
    if (rng.random() < (0.2 if has_board else 0.15)) or FORCE.get('hand') == '1':
        skin = np.array(sf.srgb(cards.jitter(rng, tuple(rng.choice([(235, 195, 165), (225, 175, 140), (190, 140, 105),
                                                                      (150, 100, 70), (105, 70, 50), (240, 205, 180)])), 6))) ** 2
        sleeve = np.array(sf.srgb(cards.jitter(rng, tuple(rng.choice([(30, 30, 35), (200, 200, 205), (40, 60, 120), (150, 30, 40),
                                                                        (90, 110, 80), (230, 225, 210), (120, 90, 140)])), 15))) ** 2
        pose = str(rng.choice(['relaxed', 'point', 'pinch', 'flat', 'fist'], p=[0.3, 0.25, 0.25, 0.1, 0.1]))
        # from which side of the table does the arm come?
        side_k = int(rng.choice([0, 1, 2, 3], p=[0.2, 0.3, 0.3, 0.2]))  # camera side, left, right, far side
        sd_ang = psi + np.pi + [0, np.pi / 2, -np.pi / 2, np.pi][side_k] + rng.uniform(-0.3, 0.3)
        s_dir = np.array([math.cos(sd_ang), math.sin(sd_ang), 0.0])
        if side_k == 0:
            perp = np.array([-s_dir[1], s_dir[0], 0.0])
            seat = np.array([cam.C[0], cam.C[1], 0.0]) + perp * rng.choice([-1, 1]) * rng.uniform(180, 380) + s_dir * rng.uniform(0, 150)
            seat[2] = min(rng.uniform(330, 450), cam.C[2] - 120)
        else:
            tc_ = scn['table_c']
            t_edge = min(
                (scn['table_hx'] - np.dot(center - tc_, scn['table_ax']) * np.sign(np.dot(s_dir, scn['table_ax']))) / max(abs(np.dot(s_dir, scn['table_ax'])), 1e-3),
                (scn['table_hy'] - np.dot(center - tc_, scn['table_ay']) * np.sign(np.dot(s_dir, scn['table_ay']))) / max(abs(np.dot(s_dir, scn['table_ay'])), 1e-3))
            seat = center + s_dir * (t_edge + rng.uniform(80, 250))
            seat[2] = rng.uniform(330, 450)
        var['hand_side'] = ['camera', 'left', 'right', 'far'][side_k]
        if has_board:
            tr, tcn = int(rng.integers(10)), int(rng.integers(10))
            txy = (board.geo['cx'][tcn] + rng.normal(0, 10), board.geo['cy'][tr] + rng.normal(0, 10))
            bref = board
        else:
            txy = (0.0, 0.0)
            bref = _FlatRef(center + np.array([rng.uniform(-150, 150), rng.uniform(-150, 150), 0]))
        parts, caps_all, held, frame = sc.hand_parts(rng, cam, bref, txy, seat, skin, sleeve, pose,
                                                     left=rng.random() < 0.3, cs=cs, chip_col=None)
        # shadow first
        hm = np.zeros((cam.Hc, cam.Wc), np.float32)
        sc.capsule_shadow(hm, cam, caps_all, light, 3.0, 1)
        hand_h = float(np.mean([c[0][2] for c in caps_all]))
        blur = max(2.0, dpx * (5 + (light.get('size', 30) if light['kind'] == 'point' else 30) * hand_h / max(
            (light['pos'][2] if light['kind'] == 'point' else 2000) - hand_h, 200)))
        hm = geom.soft_blur(hm, blur)
        canvas *= (1 - direct_frac * 0.9 * hm)[..., None]
        sc.render_parts(canvas, occ, cam, parts, light, amb, rng, center)
        if pose == 'pinch' and rng.random() < 0.7:
            hx, hy, hz = frame
            tip = parts[0]['caps'][-1][1]
            cp = tip + hy * 12 - hz * 4
            sc.draw_chip(canvas, cam, cs, cs['cols'][letters[int(rng.integers(len(letters)))]], cp,
                         hx, hz, -hy, light, amb, rng, occ)
        var['hand'] = pose
        gloss *= (1 - np.clip(occ, 0, 1))

    # ---------------------------------------------------------------- light maps
    step = 8
    P, hit, xs, ys, d = lt.plane_points(cam, step, 2.0)
    E, _ = lt.illumination(cam, L, P, center)
    G = lt.glare_map(cam, L, P, rng)
    Ec = lt.illumination(cam, L, (center + EZ * 2)[None], center)[0][0]
    norm = float(Ec.mean())
    E = (E / norm).astype(np.float32)
    G = (G / norm).astype(np.float32)
    full = (len(xs) * step, len(ys) * step)
    E = cv2.resize(E, full, interpolation=cv2.INTER_LINEAR)[:cam.Hc, :cam.Wc]
    G = cv2.resize(G, full, interpolation=cv2.INTER_LINEAR)[:cam.Hc, :cam.Wc]
    # glare breaks up a little on the board's surface texture
    gn = 1 + 0.12 * rng.standard_normal((cam.Hc // 2 + 1, cam.Wc // 2 + 1), dtype=np.float32)
    gn = cv2.resize(gn, (cam.Wc, cam.Hc), interpolation=cv2.INTER_LINEAR)
    img = canvas * E + G * (gloss * gn)[..., None]
    var['glare_peak'] = round(float((G.max(axis=2) * gloss).max()), 2)

    # ---------------------------------------------------------------- camera pipeline
    out, post = finish(rng, cam, img, L, look, dim)
    var.update(post)

    # ---------------------------------------------------------------- labels
    label = {'has_board': bool(has_board), 'image_size': [W, H]}
    if has_board:
        corners = cam.output_px(board.grid_corners_world())
        occl = occluded_cells(cam, board, occ)
        label.update(grid=[''.join(row) for row in grid], occluded=occl, teams=teams,
                     corners_px=[[round(float(x), 2), round(float(y), 2)] for x, y in corners],
                     board_fully_visible=True)
    else:
        label.update(grid=None, occluded=[], teams=None, corners_px=None, board_fully_visible=False)
    label['varied'] = var
    return out, label


class _FlatRef:
    """Minimal stand-in for Board when a hand reaches over a non-Sequence scene."""
    def __init__(self, c):
        self.c = c

    def world(self, x, y, dz=0.0):
        return (self.c + EZ * 2)[None]


def occluded_cells(cam, board, occ):
    g = board.geo
    rr = 0.32 * g['px']
    k = np.arange(48)
    rad = np.sqrt((k + 0.5) / 48) * rr
    ang = k * 2.399963
    dx, dy = rad * np.cos(ang), rad * np.sin(ang)
    out = []
    for r in range(10):
        for c in range(10):
            pts = board.world(g['cx'][c] + dx, g['cy'][r] + dy, dz=0.0)
            p, z = cam.canvas(pts)
            xi = np.clip(np.round(p[:, 0]).astype(int), 0, cam.Wc - 1)
            yi = np.clip(np.round(p[:, 1]).astype(int), 0, cam.Hc - 1)
            if float((occ[yi, xi] > 0.5).mean()) >= 0.5:
                out.append([r, c])
    return out


# ============================================================================ phone camera pipeline
def finish(rng, cam, img, L, look, dim):
    post = {}
    # depth of field (thin lens, blur grows with |1/z - 1/z_focus|)
    P, hit, xs, ys, d = lt.plane_points(cam, 16, 0.0)
    depth = np.where(hit, np.linalg.norm(P - cam.C, axis=-1), 8000.0)
    zf = float(np.linalg.norm(look - cam.C)) * rng.uniform(0.9, 1.1)
    A = rng.uniform(0.3, 1.6)
    sig = A * cam.fr * np.abs(1 / depth - 1 / zf) / 2
    post['dof_aperture'] = round(A, 2)
    if sig.max() > 0.7:
        sig = cv2.resize(sig.astype(np.float32), (len(xs) * 16, len(ys) * 16), interpolation=cv2.INTER_LINEAR)[:cam.Hc, :cam.Wc]
        s1, s2 = 1.2, 3.5
        b1 = cv2.GaussianBlur(img, (0, 0), s1)
        w1 = np.clip(sig * (1 / s1), 0, 1)[..., None]
        if sig.max() > 1.5:
            b2 = cv2.GaussianBlur(img, (0, 0), s2)
            w2 = np.clip((sig - s1) * (1 / (s2 - s1)), 0, 1)[..., None]
            b1 += (b2 - b1) * w2
            del b2
        img += (b1 - img) * w1
        del b1
    # motion blur (hand shake)
    if rng.random() < (0.3 if dim else 0.1):
        ln = rng.uniform(2, 7 if dim else 4)
        ang = rng.uniform(0, np.pi)
        k = int(math.ceil(ln)) * 2 + 1
        ker = np.zeros((k, k), np.float32)
        c = k // 2
        cv2.line(ker, (int(round(c - math.cos(ang) * ln / 2)), int(round(c - math.sin(ang) * ln / 2))),
                 (int(round(c + math.cos(ang) * ln / 2)), int(round(c + math.sin(ang) * ln / 2))), 1.0, 1, cv2.LINE_AA)
        ker /= ker.sum()
        img = cv2.filter2D(img, -1, ker)
        post['motion_blur_px'] = round(ln, 1)
    # white balance (partial adaptation) and auto-exposure, measured on the central area
    x0, y0 = int(cam.ox + cam.Wr * 0.2), int(cam.oy + cam.Hr * 0.2)
    cen = img[y0:y0 + int(cam.Hr * 0.6):4, x0:x0 + int(cam.Wr * 0.6):4]
    meanc = cen.reshape(-1, 3).mean(0) + 1e-6
    alpha = rng.uniform(0.55, 0.95)
    wb = (meanc.mean() / meanc) ** alpha * rng.uniform(0.97, 1.03, 3)
    lum = float((meanc * wb).mean())
    target = 0.2 * 2 ** rng.normal(0, 0.3) * (0.65 if dim else 1.0)
    gains = wb * (target / max(lum, 1e-6))
    post['wb_alpha'] = round(alpha, 2)
    # distortion + chromatic aberration -> render-size image; vignetting and gains folded in
    ca = rng.uniform(0, 0.0015)
    maps = cam.distortion_maps(ca)
    h, w = cam.Hr, cam.Wr
    yy = (np.arange(h, dtype=np.float32) - h / 2) / (max(h, w) / 2)
    xx = (np.arange(w, dtype=np.float32) - w / 2) / (max(h, w) / 2)
    vstr = rng.uniform(0.1, 0.45)
    vig = 1 - vstr * np.clip(xx[None, :] ** 2 + yy[:, None] ** 2, 0, 2) / 2
    chans = []
    for ch in range(3):
        mx, my = maps[ch] if len(maps) == 3 else maps[0]
        c_ = cv2.remap(img[..., ch], mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        c_ *= vig * np.float32(gains[ch])
        chans.append(c_)
    del maps, img
    out = np.dstack(chans)
    del chans
    # colour boost
    sat = rng.uniform(0.9, 1.18)
    if abs(sat - 1) > 0.02:
        lumi = out.mean(axis=2, keepdims=True)
        out -= lumi
        out *= sat
        out += lumi
    # sensor noise + tone curve.  Work in a square-root encoding of linear light, where shot
    # noise has (nearly) constant variance; quantise to 8 bit with the noise as dither and map
    # through the camera's tone curve LUT.
    np.clip(out, 0, 4, out=out)
    out *= 0.25
    cv2.sqrt(out, out)
    out *= 255.0
    gain = rng.uniform(4, 16) if dim else rng.uniform(0.5, 3)
    a = 0.00035 * gain / max(cam.rs, 0.3)
    b = 1.5e-6 * gain * gain / max(cam.rs, 0.3)
    qv = np.arange(256, dtype=np.float64)
    xq = np.maximum((qv / 255.0) ** 2 * 4, 1e-5)
    sig_q = np.clip(63.75 * np.sqrt(a + b / xq), 0, 30)
    sig_lut = np.clip(sig_q * 8, 0, 255).astype(np.uint8)
    q0 = out.astype(np.uint8)
    sig = cv2.LUT(q0, sig_lut).astype(np.float32)
    sig *= 1 / 8.0
    n = rng.standard_normal((h, w, 3), dtype=np.float32)
    n += rng.standard_normal((h, w, 1), dtype=np.float32) * 0.8
    n *= 0.75
    n *= sig
    out += n
    del n, sig, q0
    np.clip(out, 0, 255, out=out)
    out = out.astype(np.uint8)
    lut = lt.tone_lut8(rng)
    out = cv2.LUT(out, lut)
    post['iso_gain'] = round(gain, 2)
    # phone noise reduction: chroma smoothing (+ luma smoothing in low light)
    ycc = cv2.cvtColor(out, cv2.COLOR_RGB2YCrCb)
    nr = rng.uniform(0.8, 2.2) * (1.5 if dim else 1.0)
    ycc[..., 1] = cv2.GaussianBlur(ycc[..., 1], (0, 0), nr)
    ycc[..., 2] = cv2.GaussianBlur(ycc[..., 2], (0, 0), nr)
    if dim or rng.random() < 0.3:
        ycc[..., 0] = cv2.bilateralFilter(ycc[..., 0], 5, 14, 3)
    out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
    post['chroma_nr'] = round(nr, 2)
    # sharpening (render resolution), then to output size
    amt = rng.uniform(0.2, 1.1)
    ssig = rng.uniform(0.7, 1.6)
    blur = cv2.GaussianBlur(out, (0, 0), ssig)
    out = cv2.addWeighted(out, 1 + amt, blur, -amt, 0)
    post['sharpen'] = round(amt, 2)
    if (w, h) != (cam.W, cam.H):
        out = cv2.resize(out, (cam.W, cam.H), interpolation=cv2.INTER_LINEAR)
    q = int(rng.integers(70, 96))
    post['jpeg_q'] = q
    ok, buf = cv2.imencode('.jpg', cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    return buf, post


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--n', type=int, default=10)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--no-board', type=int, default=0)
    ap.add_argument('--start', type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    jobs = [('photo', i, True) for i in range(args.start, args.start + args.n)]
    jobs += [('noboard', i, False) for i in range(args.no_board)]
    t_all = time.time()
    for name, i, hb in jobs:
        t = time.time()
        buf, label = render(args.seed, i, hb)
        with open(os.path.join(args.outdir, f'{name}_{i:04d}.jpg'), 'wb') as f:
            f.write(buf.tobytes())
        with open(os.path.join(args.outdir, f'{name}_{i:04d}.json'), 'w') as f:
            f.write(dump_label(label))
        print(f'{name}_{i:04d} {label["image_size"]} {time.time() - t:.2f}s', flush=True)
    print(f'total {time.time() - t_all:.1f}s for {len(jobs)} images', flush=True)


def dump_label(label):
    """One key per line, compact values; the grid one row per line."""
    lines = []
    for k, v in label.items():
        if k == 'grid' and v is not None:
            rows = ',\n  '.join(json.dumps(r) for r in v)
            lines.append(f' "grid": [\n  {rows}]')
        elif k == 'varied':
            items = ',\n  '.join(f'{json.dumps(kk)}: {json.dumps(vv, default=_json_default)}' for kk, vv in v.items())
            lines.append(f' "varied": {{\n  {items}}}')
        else:
            lines.append(f' {json.dumps(k)}: {json.dumps(v, default=_json_default)}')
    return '{\n' + ',\n'.join(lines) + '\n}\n'


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.str_):
        return str(o)
    raise TypeError(type(o))


if __name__ == '__main__':
    main()
