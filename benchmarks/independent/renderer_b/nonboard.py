"""Other flat 'subjects' for photos without a Sequence board: chess, go, photo grid, card layouts."""
import math

import numpy as np
import cv2

import cards
from cards import jitter, fbm
from surfaces import srgb
from objects import textured_quad, box_solid, revolve, rgba_of, rounded_alpha, lin
from scene import EZ


def subject_design(rng):
    kind = str(rng.choice(['chess', 'go', 'photo_grid', 'cards_grid', 'cards_scatter', 'none'], p=[0.22, 0.16, 0.16, 0.16, 0.15, 0.15]))
    s = dict(kind=kind)
    if kind == 'chess':
        s['size'] = (rng.uniform(350, 500),) * 2
    elif kind == 'go':
        a = rng.uniform(400, 460)
        s['size'] = (a, a * 1.07)
    elif kind == 'photo_grid':
        s['size'] = (rng.uniform(300, 600), rng.uniform(300, 600))
    elif kind == 'cards_grid':
        s['cols'], s['rows'] = int(rng.integers(3, 8)), int(rng.integers(2, 6))
        s['gap'] = rng.uniform(5, 30)
        s['size'] = (s['cols'] * (63 + s['gap']), s['rows'] * (88 + s['gap']))
    else:
        s['size'] = (rng.uniform(300, 550), rng.uniform(300, 550))
    return s


def draw_subject(rng, canvas, occ, gloss, cam, s, center, yaw, light, amb, scene):
    kind = s['kind']
    w, h = s['size']
    ex = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    ey = np.array([math.sin(yaw), -math.cos(yaw), 0.0])  # "down" axis: texture not mirrored from above
    P0 = center - ex * w / 2 - ey * h / 2
    if kind == 'chess':
        n = 8
        TW = 512
        bw = 0.06
        light_sq = srgb(jitter(rng, tuple(rng.choice([(235, 215, 175), (240, 240, 230), (220, 200, 160)])), 8))
        dark_sq = srgb(jitter(rng, tuple(rng.choice([(140, 90, 55), (60, 110, 70), (110, 70, 50), (40, 40, 45)])), 8))
        border = srgb(jitter(rng, tuple(rng.choice([(90, 55, 30), (30, 30, 30), (200, 180, 150)])), 8))
        img = np.zeros((TW, TW, 3), np.float32) + border
        i0 = int(bw * TW)
        cs = (TW - 2 * i0) / n
        for r in range(n):
            for c in range(n):
                col = light_sq if (r + c) % 2 == 0 else dark_sq
                img[int(i0 + r * cs):int(i0 + (r + 1) * cs), int(i0 + c * cs):int(i0 + (c + 1) * cs)] = col
        img *= (1 + 0.05 * fbm(rng, TW, TW, scales=(64, 16, 4)))[..., None]
        box_solid(canvas, occ, gloss, cam, P0, ex, ey, w, h, rng.uniform(8, 20), rgba_of(np.clip(img, 0, 1) ** 2.0), border ** 2 * 0.7, light, amb, 0.4)
        sq = w * (1 - 2 * bw) / n
        pieces = []
        for _ in range(int(rng.integers(8, 26))):
            r, c = int(rng.integers(n)), int(rng.integers(n))
            pos = P0 + ex * (w * bw + (c + 0.5) * sq) + ey * (w * bw + (r + 0.5) * sq) + EZ * 15
            pieces.append((np.linalg.norm(pos - cam.C), pos, rng.random() < 0.5, rng.choice(['pawn', 'rook', 'tall'])))
        pieces.sort(key=lambda q: -q[0])
        for _, pos, white, pk in pieces:
            col = lin((235, 225, 200)) if white else lin((35, 30, 28))
            R = sq * 0.33
            if pk == 'pawn':
                prof = [(0, R), (4, R), (8, R * 0.6), (22, R * 0.35), (26, R * 0.6), (34, R * 0.55), (40, R * 0.2)]
            elif pk == 'rook':
                prof = [(0, R), (5, R), (9, R * 0.7), (30, R * 0.6), (34, R * 0.75), (42, R * 0.75)]
            else:
                prof = [(0, R * 1.05), (5, R), (10, R * 0.65), (45, R * 0.4), (50, R * 0.65), (58, R * 0.5), (66, R * 0.2)]
            revolve(canvas, occ, gloss, cam, pos, prof, lambda a, z, c=col: np.tile(c, (len(a), 1)), light, amb, ks=0.6, pw=50)
    elif kind == 'go':
        TW = 600
        TH = int(TW * h / w)
        wood = srgb(jitter(rng, (220, 180, 110), 12))
        img = np.zeros((TH, TW, 3), np.float32) + wood
        img *= (1 + 0.08 * fbm(rng, TH, TW, scales=(200, 40, 8)))[..., None]
        n = int(rng.choice([19, 13, 9]))
        m = 0.06
        xs = np.linspace(m * TW, (1 - m) * TW, n)
        ys = np.linspace(m * TH, (1 - m) * TH, n)
        for x in xs:
            cv2.line(img, (int(x), int(ys[0])), (int(x), int(ys[-1])), (0.05, 0.05, 0.05), 1, cv2.LINE_AA)
        for y in ys:
            cv2.line(img, (int(xs[0]), int(y)), (int(xs[-1]), int(y)), (0.05, 0.05, 0.05), 1, cv2.LINE_AA)
        box_solid(canvas, occ, gloss, cam, P0, ex, ey, w, h, rng.uniform(15, 60), rgba_of(np.clip(img, 0, 1) ** 2.0), wood ** 2 * 0.8, light, amb, 0.3)
        stones = []
        for _ in range(int(rng.integers(10, 70))):
            i, j = int(rng.integers(n)), int(rng.integers(n))
            pos = P0 + ex * (xs[i] / TW * w) + ey * (ys[j] / TH * h) + EZ * 16
            stones.append((np.linalg.norm(pos - cam.C), pos, rng.random() < 0.5))
        stones.sort(key=lambda q: -q[0])
        R = (w * (1 - 2 * m) / (n - 1)) * 0.47
        for _, pos, white in stones:
            col = lin((240, 240, 235)) if white else lin((20, 20, 22))
            prof = [(0, R * 0.6), (1.5, R * 0.95), (3, R), (5, R * 0.88), (7, R * 0.6), (8.2, R * 0.25)]
            revolve(canvas, occ, gloss, cam, pos, prof, lambda a, z, c=col: np.tile(c, (len(a), 1)), light, amb, ks=0.5, pw=30)
    elif kind == 'photo_grid':
        nc, nr = int(rng.integers(3, 11)), int(rng.integers(3, 11))
        TW = 600
        TH = int(TW * h / w)
        bg = srgb(jitter(rng, tuple(rng.choice([(250, 250, 250), (20, 20, 20), (230, 220, 200)])), 5))
        img = np.zeros((TH, TW, 3), np.float32) + bg
        g = rng.uniform(0.02, 0.1)
        cw, ch = TW / nc, TH / nr
        for r in range(nr):
            for c in range(nc):
                x0, y0 = int(c * cw + g * cw), int(r * ch + g * ch)
                x1, y1 = int((c + 1) * cw - g * cw), int((r + 1) * ch - g * ch)
                if x1 - x0 < 3 or y1 - y0 < 3:
                    continue
                base = rng.uniform(0.1, 0.9, 3)
                tile = np.zeros((y1 - y0, x1 - x0, 3), np.float32) + base
                yy = np.linspace(0, 1, y1 - y0, dtype=np.float32)[:, None, None]
                tile = tile * (0.6 + 0.6 * yy) * rng.uniform(0.6, 1.2, 3)
                for _ in range(3):
                    cx_, cy_ = rng.integers(0, x1 - x0), rng.integers(0, y1 - y0)
                    cv2.circle(tile, (int(cx_), int(cy_)), int(rng.integers(2, max(3, (x1 - x0) // 2))), tuple(float(v) for v in rng.uniform(0, 1, 3)), -1)
                img[y0:y1, x0:x1] = np.clip(tile, 0, 1)
        textured_quad(canvas, occ, gloss, cam, P0 + EZ * 1.0, ex, ey, w, h, rgba_of(img ** 2.0), 0.6)
    elif kind in ('cards_grid', 'cards_scatter'):
        ed = cards.edition(rng)
        ranks = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'Q', 'K', 'A']
        TW, TH = 90, 126
        al = rounded_alpha(TH, TW, 6)
        if kind == 'cards_grid':
            nc, nr, gap = s['cols'], s['rows'], s['gap']
            spots = [(c, r) for r in range(nr) for c in range(nc)]
        else:
            spots = [None] * int(rng.integers(4, 14))
        for k, sp in enumerate(spots):
            code = ranks[rng.integers(len(ranks))] + 'SHDC'[rng.integers(4)]
            face = rng.random() < 0.8
            tex = cards.card_face(rng, code, TW, TH, ed) if face else cards.card_back(rng, TW, TH)
            if sp is None:
                ang = rng.uniform(0, 2 * np.pi)
                e1 = math.cos(ang) * ex + math.sin(ang) * ey
                e2 = -math.sin(ang) * ex + math.cos(ang) * ey
                Q = center + ex * rng.uniform(-w / 2, w / 2) + ey * rng.uniform(-h / 2, h / 2) - e1 * 31.5 - e2 * 44 + EZ * (0.3 * k + 0.2)
            else:
                c, r = sp
                ang = rng.normal(0, 0.03)
                e1 = math.cos(ang) * ex + math.sin(ang) * ey
                e2 = -math.sin(ang) * ex + math.cos(ang) * ey
                Q = P0 + ex * (c * (63 + gap) + gap / 2) + ey * (r * (88 + gap) + gap / 2) + EZ * 0.3
            textured_quad(canvas, occ, gloss, cam, Q, e1, e2, 63, 88, rgba_of(tex ** 2.0, al), 0.3)
