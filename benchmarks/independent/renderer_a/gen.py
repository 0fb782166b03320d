#!/usr/bin/env python
"""Independent synthetic 'phone photo' generator for the Sequence board game.

usage: python gen.py OUTDIR --n N --seed S [--no-board K] [--start I]

Writes OUTDIR/photo_NNNN.jpg + .json (board photos) and OUTDIR/noboard_NNNN.jpg + .json.
Randomness: photo i uses numpy.random.default_rng([S, i]); no-board photo k uses
default_rng([S, 1000000 + k]).

Geometry conventions (see sg_camera.py): world in cm, X east (printed columns), Y south
(printed rows), Z down; board grid outer corners at (0,0) .. (grid_w, grid_h) on the board top.
corners_px are exact projections (pinhole + radial distortion + board bend) of the outer
corners of the printed 10x10 card grid (outer edges of the corner cards), pixel centres at
integer coordinates.
"""
import argparse
import json
import os
import sys
import time
import types

import numpy as np
import cv2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sg_art as art          # noqa: E402
import sg_scene as sc         # noqa: E402
import sg_objects as ob       # noqa: E402
import sg_hand as hd          # noqa: E402
from sg_camera import upsample, Camera  # noqa: E402

CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}
TABLE_KINDS = ['wood', 'cloth', 'gingham', 'stripes', 'dots', 'felt', 'solid']
TABLE_P = [0.38, 0.15, 0.1, 0.05, 0.05, 0.12, 0.15]


# ------------------------------------------------------------------ game state
def sample_state(rng):
    teams = 3 if rng.random() < 0.25 else 2
    names = ['B', 'G', 'R'][:teams]
    total = int(rng.integers(0, 71)) if rng.random() < 0.9 else int(rng.integers(0, 8))
    order = list(rng.permutation(names))
    counts = {t: total // teams for t in names}
    for t in order[:total % teams]:
        counts[t] += 1
    grid = [['#' if (r, c) in CORNERS else '.' for c in range(10)] for r in range(10)]
    seqs = []
    if total >= 10 and rng.random() < 0.35:
        t = order[rng.integers(teams)]
        for _ in range(50):
            dr, dc = [(0, 1), (1, 0), (1, 1), (1, -1)][rng.integers(4)]
            r0, c0 = int(rng.integers(0, 10)), int(rng.integers(0, 10))
            cells = [(r0 + k * dr, c0 + k * dc) for k in range(5)]
            if not all(0 <= r < 10 and 0 <= c < 10 for r, c in cells):
                continue
            need = [(r, c) for r, c in cells if (r, c) not in CORNERS]
            if len(need) > counts[t]:
                continue
            for r, c in need:
                grid[r][c] = t
            counts[t] -= len(need)
            seqs.append(dict(team=t, cells=[list(x) for x in cells]))
            break
    # interleave remaining chips, clustered a bit around same-team chips
    todo = []
    for t in names:
        todo += [t] * counts[t]
    todo = [todo[i] for i in rng.permutation(len(todo))]
    for t in todo:
        empty = [(r, c) for r in range(10) for c in range(10) if grid[r][c] == '.']
        wts = np.array([1.0 + 1.5 * sum(grid[r + a][c + b] == t for a in (-1, 0, 1) for b in (-1, 0, 1)
                                        if 0 <= r + a < 10 and 0 <= c + b < 10) for r, c in empty])
        r, c = empty[rng.choice(len(empty), p=wts / wts.sum())]
        grid[r][c] = t
    return teams, grid, seqs


# ------------------------------------------------------------------ helpers
def in_view(cam, pts, frac=0.03):
    p, z = cam.project(pts)
    if (z <= 1).any():
        return False
    mx, my = frac * cam.W, frac * cam.H
    return p[:, 0].min() >= mx and p[:, 0].max() <= cam.W - 1 - mx and \
        p[:, 1].min() >= my and p[:, 1].max() <= cam.H - 1 - my


def place(rng, maps, cam, rect_avoid, r_obj, taken, tries=60):
    """A table point visible in the image, clear of rect_avoid (x0,y0,x1,y1) and of taken circles."""
    X, Y, t = maps.Xt_low, maps.Yt_low, maps.tt_low
    tx0, ty0, tx1, ty1 = maps.table_rect
    ok = (t > 0) & (X > tx0 + r_obj) & (X < tx1 - r_obj) & (Y > ty0 + r_obj) & (Y < ty1 - r_obj)
    ok[0, :] = ok[-1, :] = ok[:, 0] = ok[:, -1] = False
    idx = np.flatnonzero(ok)
    if len(idx) == 0:
        return None
    for _ in range(tries):
        i = idx[rng.integers(len(idx))]
        x, y = float(X.flat[i]), float(Y.flat[i])
        if rect_avoid is not None:
            x0, y0, x1, y1 = rect_avoid
            dx = max(x0 - x, 0, x - x1)
            dy = max(y0 - y, 0, y - y1)
            if np.hypot(dx, dy) < r_obj + 1.0:
                continue
        if any(np.hypot(x - a, y - b) < r_obj + rb for a, b, rb in taken):
            continue
        return x, y
    return None


def chip_pile(rng, cam, x, y, color, cd, L, cache, rmax):
    """A loose pile (or a stack) of chips within rmax cm of (x, y)."""
    n = int(rng.integers(3, 26))
    r = cd['diam'] / 2
    spread = rng.uniform(1.0, max(1.0, min(5.0, (rmax - r) / 2)))
    placed, out = [], []
    stack = rng.random() < 0.3
    for i in range(n):
        if stack:
            px, py = x + rng.normal(0, 0.08), y + rng.normal(0, 0.08)
        else:
            off = rng.normal(0, spread, 2)
            nrm = np.hypot(*off)
            if nrm > rmax - r:
                off *= (rmax - r) / nrm
            px, py = x + off[0], y + off[1]
        z0 = 0.0
        for (qx, qy, qz) in placed:
            if np.hypot(px - qx, py - qy) < 1.8 * r:
                z0 = max(z0, qz + cd['thick'])
        placed.append((px, py, z0))
        out.append(ob.make_chip(rng, cam, px, py, z0, color, cd, L, kind='pile', occluder=True, tex_cache=cache))
    return out


# ------------------------------------------------------------------ scene stages
def setup_camera(rng, W, H, has_board, varied):
    """Board design + camera (full-resolution) with the whole board in view."""
    d = g = None
    if has_board:
        d = art.board_design(rng)
        g = art.BoardGeom(d, 40.0)
        for _ in range(20):
            cam, caminfo = sc.sample_camera(rng, W, H, g.outline, ((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2),
                                            (g.x1 - g.x0, g.y1 - g.y0))
            # texture resolution ~ image resolution at the nearest board point (render scale)
            Pc = (g.outline() - cam.C) @ cam.R.T
            ppc = float(np.clip(cam.f / render_scale(W, H) / Pc[:, 2].min() * 1.1, 10,
                                2400 / max(g.x1 - g.x0, g.y1 - g.y0)))
            g = art.BoardGeom(d, ppc)          # quantised to whole texture pixels
            if in_view(cam, g.outline()):
                break
        else:
            raise RuntimeError('camera')
        center, bw, bh = ((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2), g.x1 - g.x0, g.y1 - g.y0
    else:     # frame a virtual 40-70 cm square of table instead
        bw, bh = rng.uniform(40, 70), rng.uniform(40, 70)
        center = (0.0, 0.0)

        def virt():
            return np.array([[sx * bw / 2, sy * bh / 2, 0.0] for sx, sy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]])
        cam, caminfo = sc.sample_camera(rng, W, H, virt, center, (bw, bh))
    varied['camera'] = caminfo
    return d, g, cam, center, bw, bh


def render_scale(W, H):
    """12 MP photos are rendered at half resolution (see render_photo)."""
    return 2 if max(W, H) > 2100 else 1


def board_and_chips(S, d, g, prisms, smap):
    """Board texture + composite, the board's shadow, the game state and its chips."""
    rng, cam = S.rng, S.cam
    tex = art.make_board_texture(rng, d, g)
    S.a_top = sc.render_board(rng, cam, S.maps, d, g, tex, S.img, S.light)
    S.varied['board'] = dict(cell_w_cm=g.cw, cell_h_cm=g.ch, aspect=g.ch / g.cw, gap_cm=g.gap,
                             margins_cm=[m / g.ppc for m in g.m_px], border=str(d['border']),
                             title=d['title'], grid_lines=d['grid_lines'], fold=str(d['fold']),
                             fold_amp_cm=[g.A1, g.A2], bow_cm=g.bow, thickness_cm=g.thick,
                             texture_px_per_cm=g.ppc, pips=str(d['card']['pips']),
                             idx_corners=d['card']['idx_corners'], free_logo=str(d['free']['kind']),
                             free_rgb=[int(v) for v in d['free']['c1']])
    bp = ob.Prism(np.array([[g.x0, g.y0], [g.x1, g.y0], [g.x1, g.y1], [g.x0, g.y1]]), 0, 0, 0, 0.0,
                  g.thick, None, 0, 0, (0, 0, 0), flat=False)
    ob.shadow_prism(smap, S.kl, cam, bp, S.L)
    teams, grid, seqs = sample_state(rng)
    S.tcols = ob.team_colors(rng)
    S.cd = cd = ob.chip_design(rng, g.cw)
    for r in range(10):
        for c in range(10):
            t = grid[r][c]
            if t in 'BGR':
                cx, cy = g.cell_center(r, c)
                rad, ang = 0.15 * g.cw * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
                x, y = cx + rad * np.cos(ang), cy + rad * np.sin(ang)
                prisms.append(ob.make_chip(rng, cam, x, y, float(g.height(x, y)), S.tcols[t], cd, S.L,
                                           kind='chip', occluder=False, tex_cache=S.cache))
    S.varied['chips'] = dict(n=sum(row.count(t) for row in grid for t in 'BGR'), diam_frac=cd['diam'] / g.cw,
                             thick_cm=cd['thick'], ring=cd['ring'], translucent=cd['translucent'],
                             colors={t: [int(v) for v in c] for t, c in S.tcols.items()}, sequences=seqs)
    return teams, grid


def random_code(rng):
    """A card code as printed on the board, sometimes a jack (hand cards)."""
    if rng.random() < 0.85:
        return art.BOARD[rng.integers(1, 9)][rng.integers(0, 10)]
    return 'J' + 'SHDC'[rng.integers(4)]


def clutter(S, g, prisms, teams, avoid):
    """Things on the table (and sometimes a card dropped on the board)."""
    rng, cam, L = S.rng, S.cam, S.L
    taken, names = [], []
    st_cards = art.card_style(rng)
    n_cl = int(rng.integers(0, 7))
    if g is None:                       # no board: maybe a grid-like distractor in the middle
        n_cl += 2
        g_kind = rng.choice(['chessboard', 'cardgrid', 'none'], p=[0.35, 0.3, 0.35])
        cx, cy = S.center
        if g_kind == 'chessboard':
            p = ob.make_chessboard(rng, cam, cx, cy)
            prisms.append(p)
            taken.append((cx, cy, p.radius()))
        elif g_kind == 'cardgrid':
            nr, nc = int(rng.integers(2, 5)), int(rng.integers(3, 6))
            rot = rng.uniform(0, 2 * np.pi)
            c_, s_ = np.cos(rot), np.sin(rot)
            for i in range(nr):
                for j in range(nc):
                    ox, oy = (j - (nc - 1) / 2) * 7.2, (i - (nr - 1) / 2) * 9.8
                    code = art.BOARD[rng.integers(1, 9)][rng.integers(1, 9)]
                    prisms.append(ob.make_card(rng, cam, cx + c_ * ox - s_ * oy, cy + s_ * ox + c_ * oy, 0.0, code,
                                               st_cards, rot=rot + rng.normal(0, 0.03), kind='table_card'))
            taken.append((cx, cy, 0.5 * np.hypot(nc * 7.2, nr * 9.8)))
        S.varied['distractor'] = str(g_kind)
    for _ in range(n_cl):
        what = rng.choice(['card', 'fan', 'deck', 'pile', 'mug', 'phone', 'paper'],
                          p=[0.2, 0.15, 0.1, 0.25, 0.1, 0.1, 0.1])
        rad = dict(card=5.5, fan=9, deck=5.5, pile=9, mug=7.5, phone=9, paper=18.5)[what]   # footprint
        pos = place(rng, S.maps, cam, avoid, rad, taken)
        if pos is None:
            continue
        x, y = pos
        taken.append((x, y, rad))
        names.append(str(what))
        if what == 'card':
            prisms.append(ob.make_card(rng, cam, x, y, 0.0, random_code(rng), st_cards, kind='table_card'))
        elif what == 'fan':                       # a player's hand put down face up
            rot0 = rng.uniform(0, 2 * np.pi)
            nf = int(rng.integers(3, 8))
            for i in range(nf):
                code = random_code(rng)
                a = rot0 + (i - nf / 2) * 0.18
                prisms.append(ob.make_card(rng, cam, x + 3 * np.sin(a), y - 3 * np.cos(a), 0.03 * i, code,
                                           st_cards, rot=a, kind='table_card'))
        elif what == 'deck':                      # face-down draw pile
            prisms.append(ob.make_card(rng, cam, x, y, 0.0, 'AS', st_cards,
                                       back=rng.choice([(170, 30, 40), (30, 60, 150), (30, 110, 60)]),
                                       kind='deck', t=rng.uniform(0.4, 1.8)))
        elif what == 'pile':
            t = ['B', 'G', 'R'][rng.integers(0, teams)]
            prisms += chip_pile(rng, cam, x, y, S.tcols[t], S.cd, L, S.cache, rad)
        elif what == 'mug':
            prisms.append(ob.make_mug(rng, cam, x, y, L))
        elif what == 'phone':
            prisms.append(ob.make_phone(rng, cam, x, y, L))
        elif what == 'paper':
            prisms.append(ob.make_paper(rng, cam, x, y))
    if g is not None and rng.random() < 0.1:       # a card dropped onto the board's edge
        u = rng.random()
        x = g.x0 + rng.uniform(0, 1) * (g.x1 - g.x0)
        y = g.y0 + rng.uniform(0, 1) * (g.y1 - g.y0)
        if u < 0.5:
            x = g.x0 + rng.uniform(-2, 8) if rng.random() < 0.5 else g.x1 - rng.uniform(-2, 8)
        else:
            y = g.y0 + rng.uniform(-2, 8) if rng.random() < 0.5 else g.y1 - rng.uniform(-2, 8)
        code = art.BOARD[rng.integers(1, 9)][rng.integers(0, 10)]
        zc = float(g.height(np.clip(x, g.x0, g.x1), np.clip(y, g.y0, g.y1))) + S.cd['thick'] + 0.05
        p = ob.make_card(rng, cam, x, y, zc, code, st_cards, kind='card_on_board', t=0.03)
        p.flat, p.occluder = False, True
        prisms.append(p)
        names.append('card_on_board')
    S.varied['clutter'] = names


def draw_objects(S, prisms, smap):
    """Flat things, then all cast shadows, then 3-D things back to front."""
    cam, L, img = S.cam, S.L, S.img
    for p in prisms:
        if p.flat:
            ob.render_prism(img, cam, p, L, S.occ)
    solid = [p for p in prisms if not p.flat]
    for p in solid:
        if p.kind != 'card_on_board':
            ob.shadow_prism(smap, S.kl, cam, p, L)
    smap = cv2.GaussianBlur(smap, (0, 0), max(0.5, S.light['softness'] * S.ppc_img / S.kl))
    img *= (1 - S.light['shadow_strength'] * cv2.resize(smap, (S.W, S.H), interpolation=cv2.INTER_LINEAR))[..., None]

    def depth(p):
        return float(((p.center_world() - cam.C) @ cam.R.T)[2])
    solid.sort(key=lambda p: (p.kind == 'card_on_board', -depth(p)))
    for p in solid:
        ob.render_prism(img, cam, p, L, S.occ)


def add_hand(S, g):
    """A hand + arm reaching in from the frame edge towards a cell (or a table point)."""
    rng, cam, W, H = S.rng, S.cam, S.W, S.H
    hinfo = {}
    for _ in range(25):
        if g is not None:
            r, c = int(rng.integers(0, 10)), int(rng.integers(0, 10))
            tx, ty = g.cell_center(r, c)
            fh = float(g.height(tx, ty)) + S.cd['thick']
        else:
            tx, ty = S.center[0] + rng.uniform(-0.4, 0.4) * S.bw, S.center[1] + rng.uniform(-0.4, 0.4) * S.bh
            fh = 0.0
        parts = hd.build_arm(rng, cam, np.array([tx, ty, 0.0]), fh, hinfo)
        zmin = min(float(((p.C - cam.C) @ cam.R.T)[:, 2].min()) for p in parts)
        ap, az = cam.project(np.vstack([p.C for p in parts if p.name in ('forearm', 'sleeve')]))
        exits = ((ap[:, 0] < 0) | (ap[:, 0] >= W) | (ap[:, 1] < 0) | (ap[:, 1] >= H) | (az < 6)).any()
        if zmin > 0.45 * S.varied['camera']['distance_cm'] and exits:   # arm enters from the frame edge
            break
    else:
        return
    hmap = np.zeros((H // S.kl, W // S.kl), np.float32)
    mh = hd.hand_shadow(hmap, S.kl, cam, parts, S.L, fh)
    hmap = cv2.GaussianBlur(hmap, (0, 0), max(1.0, mh * rng.uniform(0.05, 0.2) * S.ppc_img / S.kl))
    hs = S.light['shadow_strength'] * rng.uniform(0.5, 0.9)
    S.img *= (1 - hs * cv2.resize(hmap, (W, H), interpolation=cv2.INTER_LINEAR))[..., None]
    hrgb, ha = hd.render_hand(rng, cam, parts, S.L, 1)
    if rng.random() < 0.3:                 # the hand is moving
        ln = rng.uniform(3, 15) * max(W, H) / 1920
        n = int(np.ceil(ln)) | 1
        ker = np.zeros((n, n), np.float32)
        an = rng.uniform(0, np.pi)
        cc = n // 2
        cv2.line(ker, (int(round(cc - np.cos(an) * ln / 2)), int(round(cc - np.sin(an) * ln / 2))),
                 (int(round(cc + np.cos(an) * ln / 2)), int(round(cc + np.sin(an) * ln / 2))), 1.0, 1)
        ker /= ker.sum()
        hrgb, ha = cv2.filter2D(hrgb, -1, ker), cv2.filter2D(ha, -1, ker)
        hinfo['hand_motion_blur_px'] = float(ln)
    S.img *= (1 - ha)[..., None]
    S.img += hrgb
    np.maximum(S.occ, ha, out=S.occ)
    S.varied['hand'] = hinfo


def cell_occlusion(cam, g, occ, kl):
    """Cells whose central disc (radius 0.32 cell width) is >= half covered in occ (1/kl res)."""
    out = []
    rad = 0.32 * g.cw
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for r in range(10):
        for c in range(10):
            cx, cy = g.cell_center(r, c)
            P, _ = cam.project(g.world(cx + rad * np.cos(t), cy + rad * np.sin(t)))
            P = (P + 0.5) / kl - 0.5
            x0, y0 = int(np.floor(P[:, 0].min())), int(np.floor(P[:, 1].min()))
            x1, y1 = int(np.ceil(P[:, 0].max())) + 2, int(np.ceil(P[:, 1].max())) + 2
            m = np.zeros((y1 - y0, x1 - x0), np.float32)
            cv2.fillPoly(m, [np.round((P - [x0, y0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
            cov = float((m * occ[y0:y1, x0:x1]).sum() / max(m.sum(), 1e-6))
            if cov >= 0.5:
                out.append([r, c])
    return out


# ------------------------------------------------------------------ one photo
def render_photo(seed, index, has_board=True):
    """Returns (uint8 RGB image, label dict, jpeg quality)."""
    S = types.SimpleNamespace()
    S.rng = rng = np.random.default_rng([seed, index if has_board else 1000000 + index])
    Wf, Hf = sc.sample_size(rng)
    S.light = light = sc.sample_light(rng)
    S.L = light['L']
    S.varied = varied = dict(light={k: v for k, v in light.items() if k not in ('L', 'cast')})
    d, g, cam_full, S.center, S.bw, S.bh = setup_camera(rng, Wf, Hf, has_board, varied)
    varied['image_size'] = [Wf, Hf]
    # 12 MP photos are rendered at half resolution (render camera: f/2, c/2, so that
    # full-res x = 2 x_r, the pyrUp convention) and up-sampled before the sensor simulation.
    # Labels always come from the full-resolution camera.
    rs = render_scale(Wf, Hf)
    cam = cam_full if rs == 1 else Camera(Wf // rs, Hf // rs, cam_full.f / rs, cam_full.k1, cam_full.k2,
                                          cam_full.R, cam_full.C, cx=cam_full.cx / rs, cy=cam_full.cy / rs)
    S.cam, S.W, S.H = cam, cam.W, cam.H
    W, H = cam.W, cam.H
    varied['render_scale'] = 1.0 / rs
    # ---- table (+ room behind it)
    bw, bh, center = S.bw, S.bh, S.center
    tw = rng.uniform(bw + 30, max(bw + 40, 240))
    th = rng.uniform(bh + 30, max(bh + 40, 180))
    tx0 = center[0] - bw / 2 - rng.uniform(10, tw - bw - 10)
    ty0 = center[1] - bh / 2 - rng.uniform(10, th - bh - 10)
    kind = rng.choice(TABLE_KINDS, p=TABLE_P)
    drop = rng.uniform(2.5, 5.0) if kind in ('wood', 'solid') else rng.uniform(5, 25)   # edge / hanging cloth
    S.maps = sc.Maps(cam, g, (tx0, ty0, tx0 + tw, ty0 + th), drop)
    S.img = upsample(sc.room_lowres(rng, cam, S.maps.d_low), W, H).copy()
    S.img, _ = sc.render_table(rng, cam, S.maps, kind, S.img)
    varied['table'] = dict(kind=str(kind), size_cm=[float(tw), float(th)])
    # ---- board, chips, clutter
    S.kl = 2                                         # shadow / label maps at 1/kl of render res
    smap = np.zeros((H // S.kl, W // S.kl), np.float32)
    S.occ = np.zeros((H, W), np.float32)             # occluder coverage (hand, objects)
    S.ppc_img = cam.f / np.linalg.norm(cam.C - np.array([center[0], center[1], 0]))
    S.a_top, S.cache = None, {}
    prisms = []
    label = dict(has_board=bool(has_board), image_size=[Wf, Hf])
    if has_board:
        teams, grid = board_and_chips(S, d, g, prisms, smap)
        label.update(grid=[''.join(row) for row in grid], teams=teams)
    else:
        S.tcols = ob.team_colors(rng)
        S.cd = ob.chip_design(rng, rng.uniform(3.6, 5.2))
        teams = 3 if rng.random() < 0.25 else 2
    clutter(S, g, prisms, teams, None if g is None else (g.x0, g.y0, g.x1, g.y1))
    draw_objects(S, prisms, smap)
    if rng.random() < 0.25 or os.environ.get('SG_FORCE_HAND') == '1':
        add_hand(S, g)
    # ---- labels
    glare_mask = None if S.a_top is None else S.a_top * (1 - S.occ)     # glare only on the visible board
    if has_board:
        occ = cv2.resize(S.occ, (W // S.kl, H // S.kl), interpolation=cv2.INTER_AREA)
        corners, _ = cam_full.project(g.grid_corners())
        label.update(occluded=cell_occlusion(cam, g, occ, S.kl),
                     corners_px=[[round(float(x), 3), round(float(y), 3)] for x, y in corners],
                     board_fully_visible=True)
        bpoly, _ = cam.project(g.outline())
    else:
        label.update(grid=None, occluded=[], teams=None, corners_px=None, board_fully_visible=False)
        bpoly = None
    # ---- light & capture
    linfo = {}
    img = sc.apply_lighting(rng, S.img, light, glare_mask, bpoly, linfo)
    varied['light'].update(linfo)
    cinfo = {}
    out = sc.capture(rng, img, cinfo, up=rs, out_size=(Wf, Hf))
    q = int(rng.integers(60, 96))
    cinfo['jpeg_quality'] = q
    varied['capture'] = cinfo
    label['varied'] = varied
    return out, label, q


def _jsonable(o):
    if isinstance(o, dict):
        return {k: _jsonable(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_jsonable(v) for v in o]
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, np.ndarray):
        return _jsonable(o.tolist())
    return o


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('outdir')
    ap.add_argument('--n', type=int, default=10)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--no-board', type=int, default=0)
    ap.add_argument('--start', type=int, default=0, help='first photo index')
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    cv2.setNumThreads(1)
    jobs = [('photo', i, True) for i in range(a.start, a.start + a.n)] + \
           [('noboard', k, False) for k in range(a.no_board)]
    t_all = time.time()
    for name, i, hb in jobs:
        t0 = time.time()
        img, label, q = render_photo(a.seed, i, hb)
        base = os.path.join(a.outdir, '%s_%04d' % (name, i))
        cv2.imwrite(base + '.jpg', cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
        with open(base + '.json', 'w') as f:
            lab = _jsonable(label)
            f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v)) for k, v in lab.items()) + '\n}\n')
        print('%s_%04d %dx%d %.2fs' % (name, i, img.shape[1], img.shape[0], time.time() - t0), flush=True)
    print('total %.1fs for %d images' % (time.time() - t_all, len(jobs)))


if __name__ == '__main__':
    main()
