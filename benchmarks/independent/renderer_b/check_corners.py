"""Numerical check of corners_px: render a white grid on a black board (no post effects)
through the same camera / board / texture / distortion / resize chain, then locate the grid
corners by fitting lines to the two edges next to each corner and compare with the label."""
import math
import os
import sys

import numpy as np
import cv2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the renderer's modules
import cards  # noqa
import geom  # noqa
import scene as sc  # noqa
import gen  # noqa


def render_plain(seed, idx):
    rng = np.random.default_rng([seed, idx, 77])
    W, H = gen.pick(rng, gen.SIZES)
    bd = cards.board_design(rng)
    bd['folds'] = str(rng.choice(['h', 'v', 'hv', 'none']))
    geo = cards.board_geometry(bd)
    board = sc.Board(bd, geo, rng.uniform(0, 2 * np.pi), np.zeros(3))
    var = {'_psi': rng.uniform(0, 2 * np.pi)}
    cam, look = gen.place_camera(rng, W, H, np.zeros(3), board.grid_outline_world(), 600, True, var)
    s = float(np.clip(rng.uniform(1.0, 4.0), 1, 4.5))
    x0, y0 = geo['bx0'], geo['by0']
    TW = int(math.ceil((geo['bx1'] - x0) * s))
    TH = int(math.ceil((geo['by1'] - y0) * s))
    # texel centre coordinates -> inside grid?
    xs = x0 + (np.arange(TW) + 0.5) / s
    ys = y0 + (np.arange(TH) + 0.5) / s
    # anti-aliased box: coverage of each texel by the grid rectangle
    cx = np.clip(np.minimum(xs + 0.5 / s, geo['GW']) - np.maximum(xs - 0.5 / s, 0), 0, None) * s
    cy = np.clip(np.minimum(ys + 0.5 / s, geo['GH']) - np.maximum(ys - 0.5 / s, 0), 0, None) * s
    tex = (np.clip(cy[:, None] * cx[None, :], 0, 1) * 255 + 0.5).astype(np.uint8)
    tex = np.dstack([tex] * 3)
    canvas = np.zeros((cam.Hc, cam.Wc, 3), np.float32)
    gloss = np.zeros((cam.Hc, cam.Wc), np.float32)
    light = dict(kind='dir', dir=np.array([0, 0, 1.0]))
    sc.render_board(canvas, gloss, None, cam, board, tex, (x0, y0), s, light, 0.5)
    maps = cam.distortion_maps(0)
    img = cv2.remap(canvas[..., 0], maps[0][0], maps[0][1], cv2.INTER_LINEAR)
    if (cam.Wr, cam.Hr) != (W, H):
        img = cv2.resize(img, (W, H), interpolation=cv2.INTER_LINEAR)
    corners = cam.output_px(board.grid_corners_world())
    return img, corners, cam, board, var


def edge_point(img, p, nrm, half=6):
    """Sub-pixel position of the 0.5 crossing along the normal through p."""
    ts = np.arange(-half, half + 0.001, 0.25)
    pts = p[None] + ts[:, None] * nrm[None]
    v = cv2.remap(img, pts[:, 0:1].astype(np.float32), pts[:, 1:2].astype(np.float32), cv2.INTER_LINEAR)[:, 0]
    for i in range(len(v) - 1):
        if (v[i] - 0.5) * (v[i + 1] - 0.5) <= 0 and v[i] != v[i + 1]:
            t = ts[i] + (0.5 - v[i]) / (v[i + 1] - v[i]) * (ts[i + 1] - ts[i])
            return p + t * nrm
    return None


def measure(img, corners, cam, board):
    g = board.geo
    GW, GH = g['GW'], g['GH']
    bxy = [(0, 0), (GW, 0), (GW, GH), (0, GH)]
    res = []
    for i in range(4):
        lines = []
        for j in ((i - 1) % 4, (i + 1) % 4):
            a, b = np.array(bxy[i], float), np.array(bxy[j], float)
            pts = []
            for t in np.linspace(0.01, 0.06, 12):
                q = a + t * (b - a)
                q2 = a + (t + 0.001) * (b - a)
                p = cam.output_px(board.world([q[0]], [q[1]]))[0]
                p2 = cam.output_px(board.world([q2[0]], [q2[1]]))[0]
                d = (p2 - p) / np.linalg.norm(p2 - p)
                nrm = np.array([-d[1], d[0]])
                e = edge_point(img, p + 3 * nrm * 0, nrm)
                if e is not None:
                    pts.append(e)
            pts = np.array(pts)
            if len(pts) < 4:
                return None
            vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0]), np.array([vx, vy])))
        (p1, d1), (p2, d2) = lines
        A = np.array([d1, -d2]).T
        t = np.linalg.solve(A, p2 - p1)
        res.append(p1 + t[0] * d1)
    return np.array(res)


if __name__ == '__main__':
    errs = []
    for k in range(int(sys.argv[1]) if len(sys.argv) > 1 else 12):
        img, corners, cam, board, var = render_plain(5, k)
        m = measure(img, corners, cam, board)
        if m is None:
            print(k, 'measure failed')
            continue
        e = np.linalg.norm(m - corners, axis=1)
        errs.append(e)
        print(k, (cam.W, cam.H), 'rs=%.2f k1=%.3f' % (cam.rs, cam.k1), 'err px:', np.round(e, 2))
    errs = np.concatenate(errs)
    print('mean %.3f  max %.3f px' % (errs.mean(), errs.max()))
