#!/usr/bin/env python3
"""Throw-away synthetic test videos of a Sequence game seen by a fixed camera.

Independent of the tracker: only the board layout / rules helpers of referee/ are used.

    python render_videos.py OUTDIR --n 20 --seed S [--only I]

writes OUTDIR/game_XXX.mp4 + OUTDIR/game_XXX.json (labels), deterministic per seed.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
import time

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository: referee/
from referee.board import Board  # noqa: E402
from referee.cells import CORNERS, LAYOUT, teams_for  # noqa: E402
from referee.judge import judge  # noqa: E402

cv2.setNumThreads(1)
FPS = 10.0

# ----------------------------------------------------------------------------------------
# game logic
# ----------------------------------------------------------------------------------------


def _mk_windows():
    wins = []
    for r in range(10):
        for c in range(10):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cs = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= rr < 10 and 0 <= cc < 10 for rr, cc in cs):
                    wins.append(tuple(rr * 10 + cc for rr, cc in cs))
    return wins


WINDOWS = _mk_windows()
CELL_WINS = [[w for w in WINDOWS if c in w] for c in range(100)]
CARDS = sorted(set(LAYOUT) - {"FREE"})
CARD_CELLS = {k: [i for i, x in enumerate(LAYOUT) if x == k] for k in CARDS}
ATT = {0: 0.3, 1: 1.0, 2: 4.0, 3: 18.0, 4: 400.0}
DEF = {0: 0.0, 1: 0.0, 2: 0.5, 3: 6.0, 4: 120.0}


def rows_of(g):
    return ["".join(g[r * 10:(r + 1) * 10]) for r in range(10)]


def empty_grid():
    return ["#" if i in CORNERS else "." for i in range(100)]


def judge_g(g, nt):
    return judge(Board.from_rows(rows_of(g)), nt)


def is_full(g, w, T):
    return all(g[c] == T or g[c] == "#" for c in w)


def full_windows(g, T):
    return [w for w in WINDOWS if is_full(g, w, T)]


def completes(g, c, T):
    for w in CELL_WINS[c]:
        if all(g[x] == T or g[x] == "#" or x == c for x in w):
            return True
    return False


def place_scores(g, T, teams, dfac):
    sc = np.zeros(100)
    for w in WINDOWS:
        cnt = {}
        empt = []
        for c in w:
            ch = g[c]
            if ch == ".":
                empt.append(c)
            elif ch != "#":
                cnt[ch] = cnt.get(ch, 0) + 1
        if not empt:
            continue
        ncorner = 5 - len(empt) - sum(cnt.values())
        add = 0.0
        if not cnt:
            add += ATT[ncorner] + sum(dfac * DEF[ncorner] for o in teams if o != T)
        elif len(cnt) == 1:
            (o, n), = cnt.items()
            if o == T:
                add += ATT[min(4, n + ncorner)]
            else:
                add += dfac * DEF[min(4, n + ncorner)]
        for c in empt:
            sc[c] += add
    ok = np.array([x == "." for x in g])
    return np.where(ok, sc + 0.05, 0.0)


def threat(g, c, O):
    s = 0.0
    for w in CELL_WINS[c]:
        if all(g[x] in (O, "#", ".") for x in w):
            s += ATT[min(4, sum(1 for x in w if g[x] in (O, "#")) - 1)]
    return s


def hand_mask(rng, P):
    allowed = np.zeros(100, bool)
    if rng.random() < P["wild"]:
        allowed[:] = True
    else:
        for k in rng.choice(len(CARDS), size=P["hand"], replace=False):
            for c in CARD_CELLS[CARDS[k]]:
                allowed[c] = True
    return allowed


def choose_place(rng, g, T, teams, P, beta, dfac, forbid_complete=False, eps=0.0):
    sc = place_scores(g, T, teams, dfac) * hand_mask(rng, P)
    if eps:
        sc = sc + eps * (sc > 0)
    if forbid_complete:
        for c in np.nonzero(sc)[0]:
            if completes(g, c, T):
                sc[c] = 0
    if sc.sum() <= 0:
        sc = np.array([1.0 if x == "." else 0.0 for x in g])
        if forbid_complete:
            for c in np.nonzero(sc)[0]:
                if completes(g, c, T):
                    sc[c] = 0
        if sc.sum() <= 0:
            return None
    p = sc ** beta
    p /= p.sum()
    return int(rng.choice(100, p=p))


def gen_start(rng, teams, P):
    nt = len(teams)
    n = int(rng.integers(10, 41))
    g = empty_grid()
    allow = {T: (nt == 2 and rng.random() < 0.3) for T in teams}
    beta = rng.uniform(0.7, 1.8)
    for i in range(n):
        T = teams[i % nt]
        forbid = not allow[T] or bool(full_windows(g, T))
        c = choose_place(rng, g, T, teams, P, beta, P["dfac"], forbid_complete=forbid, eps=rng.uniform(0.2, 3.0))
        if c is None:
            return None
        g[c] = T
    j = judge_g(g, nt)
    if j.winner:
        return None
    known = {}
    for T in teams:
        fw = full_windows(g, T)
        if len(fw) != j.sequences[T] or len(fw) > 1:
            return None
        known[T] = fw
    return g, known, n % nt


def compatible(w, others):
    return all(len(set(w) & set(o)) <= 1 for o in others)


def play(rng, g0, known0, teams, first, max_moves, P):
    nt = len(teams)
    g = list(g0)
    known = {T: list(known0[T]) for T in teams}
    cur = judge_g(g, nt)
    moves = []
    ti = first
    for _ in range(max_moves):
        T = teams[ti % nt]
        ti += 1
        done = False
        if rng.random() < P["p_remove"]:
            prot = cur.definitely_protected | cur.possibly_protected
            cand = [c for c in range(100) if g[c] in teams and g[c] != T and c not in prot
                    and not any(c in w for w in known[g[c]])]
            if cand:
                wts = np.array([threat(g, c, g[c]) + 0.5 for c in cand]) ** 1.5
                c = int(cand[rng.choice(len(cand), p=wts / wts.sum())])
                g2 = list(g)
                victim = g[c]
                g2[c] = "."
                new = judge_g(g2, nt)
                if new.sequences == cur.sequences:
                    moves.append(dict(kind="remove", team=T, cell=c, victim=victim, seqs=[], winner=[]))
                    g, cur, done = g2, new, True
        if done:
            continue
        c = choose_place(rng, g, T, teams, P, P["beta"], P["dfac"])
        if c is None:
            return None
        g2 = list(g)
        g2[c] = T
        new = judge_g(g2, nt)
        inc = new.sequences[T] - cur.sequences[T]
        if any(new.sequences[o] != cur.sequences[o] for o in teams if o != T):
            return None
        cands = [w for w in CELL_WINS[c] if is_full(g2, w, T) and compatible(w, known[T])]
        if inc != len(cands):
            return None  # which five cells form the sequence would be ambiguous
        if len(cands) == 2 and not compatible(cands[0], [cands[1]]):
            return None
        known[T] += cands
        moves.append(dict(kind="place", team=T, cell=c, seqs=cands, winner=list(new.winner)))
        g, cur = g2, new
        if new.winner:
            break
    return moves, g, known


def plan_game(rng, nt):
    teams = teams_for(nt)
    want_win = rng.random() < 0.55
    want_seq = rng.random() < 0.88
    if nt == 3:  # with three teams any sequence wins
        want_seq = want_win
    fallback = None
    for attempt in range(400):
        P = dict(beta=rng.uniform(1.5, 4.0), dfac=rng.uniform(0.1, 0.8), hand=int(rng.integers(5, 8)),
                 wild=8 / 104, p_remove=rng.uniform(0.06, 0.14))
        st = gen_start(rng, teams, P)
        if st is None:
            continue
        g0, known0, first = st
        max_moves = 14 if want_win else int(rng.integers(8, 15))
        res = play(rng, g0, known0, teams, first, max_moves, P)
        if res is None:
            continue
        moves, g, known = res
        won = bool(moves[-1]["winner"])
        nseq = sum(len(m["seqs"]) for m in moves)
        if len(moves) < 8:
            continue
        if fallback is None:
            fallback = (g0, first, moves, g, attempt)
        if want_win != won:
            continue
        if not want_win and want_seq and nseq == 0:
            continue
        return dict(start=g0, first=first, moves=moves, final=g, attempts=attempt + 1,
                    want_win=want_win, want_seq=want_seq)
    g0, first, moves, g, attempt = fallback
    return dict(start=g0, first=first, moves=moves, final=g, attempts=-1, want_win=want_win, want_seq=want_seq)


# ----------------------------------------------------------------------------------------
# small drawing helpers
# ----------------------------------------------------------------------------------------
SH = 4  # sub-pixel bits
SHF = float(1 << SH)


def bgr(c):
    return (int(c[2]), int(c[1]), int(c[0]))


def ipt(x, y):
    return (int(round(x * SHF)), int(round(y * SHF)))


def circ(img, x, y, r, col):
    cv2.circle(img, ipt(x, y), max(1, int(round(r * SHF))), col, -1, cv2.LINE_AA, SH)


def poly(img, pts, col):
    a = np.round(np.asarray(pts, float) * SHF).astype(np.int32)
    cv2.fillPoly(img, [a], col, cv2.LINE_AA, SH)


def text_fit(img, s, cx, cy, hpx, col, font, bold=0.12, wmax=None):
    th = max(1, int(round(hpx * bold)))
    (tw, tht), _ = cv2.getTextSize(s, font, 1.0, th)
    sc = hpx / max(tht, 1)
    if wmax is not None and tw * sc > wmax:
        sc = wmax / tw
    (tw, tht), _ = cv2.getTextSize(s, font, sc, th)
    org = (int(round(cx - tw / 2)), int(round(cy + tht / 2)))
    cv2.putText(img, s, org, font, sc, col, th, cv2.LINE_AA)


def draw_suit(img, suit, cx, cy, s, col, flip=False):
    sg = -1.0 if flip else 1.0

    def P(dx, dy):
        return (cx + dx * s, cy + sg * dy * s)

    if suit == "D":
        poly(img, [P(0, -0.5), P(0.37, 0), P(0, 0.5), P(-0.37, 0)], col)
    elif suit == "H":
        for dx in (-0.22, 0.22):
            circ(img, *P(dx, -0.17), 0.265 * s, col)
        poly(img, [P(-0.475, -0.1), P(0.475, -0.1), P(0, 0.48)], col)
    elif suit == "S":
        for dx in (-0.22, 0.22):
            circ(img, *P(dx, 0.1), 0.25 * s, col)
        poly(img, [P(-0.455, 0.04), P(0.455, 0.04), P(0, -0.5)], col)
        poly(img, [P(0, 0.1), P(-0.18, 0.5), P(0.18, 0.5)], col)
    else:  # clubs
        for dx, dy in ((0, -0.24), (-0.24, 0.08), (0.24, 0.08)):
            circ(img, *P(dx, dy), 0.2 * s, col)
        poly(img, [P(-0.1, -0.1), P(0.1, -0.1), P(0.12, 0.12), P(-0.12, 0.12)], col)
        poly(img, [P(0, 0.0), P(-0.18, 0.5), P(0.18, 0.5)], col)


def rounded_rect(img, x0, y0, x1, y1, r, col):
    r = max(0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    if r < 1:
        cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), col, -1)
        return
    cv2.rectangle(img, (int(x0 + r), int(y0)), (int(x1 - r), int(y1)), col, -1)
    cv2.rectangle(img, (int(x0), int(y0 + r)), (int(x1), int(y1 - r)), col, -1)
    for x, y in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        circ(img, x, y, r, col)


def smooth_noise(rng, h, w, cell_px, octaves=3, persistence=0.5):
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    cp = float(cell_px)
    for _ in range(octaves):
        gh, gw = max(2, int(h / cp) + 2), max(2, int(w / cp) + 2)
        base = rng.random((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(base, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= persistence
        cp /= 2.0
        if cp < 1.5:
            break
    return out / tot


# ----------------------------------------------------------------------------------------
# card art
# ----------------------------------------------------------------------------------------
PIPS = {
    "2": [(.5, 0), (.5, 1)],
    "3": [(.5, 0), (.5, .5), (.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (.5, .5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (.5, .75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (.5, .5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "T": [(0, 0), (1, 0), (.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (.5, 5 / 6), (0, 1), (1, 1)],
}
ROBE = [(35, 70, 175), (235, 195, 45), (200, 35, 35)]  # rgb blue yellow red


def draw_court(img, x0, y0, x1, y1, rank, suit, st):
    x0, y0, x1, y1 = int(x0), int(y0), int(x1), int(y1)
    fw, fh = x1 - x0, y1 - y0
    hh = fh // 2
    if fw < 6 or hh < 6:
        return
    half = np.empty((hh, fw, 3), np.uint8)
    half[:] = bgr(st["court_bg"])
    k = (CARDS.index(rank + suit) * 7) % 3
    pal = [ROBE[(k + i) % 3] for i in range(3)]
    cx = fw / 2.0
    sy = 0.56 * hh
    poly(half, [(cx - 0.5 * fw, hh + 1), (cx - 0.3 * fw, sy), (cx - 0.1 * fw, sy), (cx - 0.14 * fw, hh + 1)], bgr(pal[0]))
    poly(half, [(cx - 0.14 * fw, hh + 1), (cx - 0.1 * fw, sy), (cx + 0.1 * fw, sy), (cx + 0.14 * fw, hh + 1)], bgr(pal[1]))
    poly(half, [(cx + 0.14 * fw, hh + 1), (cx + 0.1 * fw, sy), (cx + 0.3 * fw, sy), (cx + 0.5 * fw, hh + 1)], bgr(pal[2]))
    for i in range(3):
        yy = sy + (hh - sy) * (0.3 + 0.3 * i)
        cv2.line(half, (int(cx - 0.45 * fw), int(yy)), (int(cx + 0.45 * fw), int(yy)), bgr(pal[(i + 1) % 3]), 1, cv2.LINE_AA)
    rh = 0.14 * min(fw, hh * 1.4)
    hy = 0.36 * hh
    if rank == "K":
        poly(half, [(cx - rh * 0.9, hy + rh * 0.2), (cx + rh * 0.9, hy + rh * 0.2), (cx, hy + rh * 2.2)],
             bgr((230, 230, 225) if k == 1 else (120, 75, 40)))
    else:
        circ(half, cx - rh * 0.85, hy + rh * 0.3, rh * 0.55, bgr((235, 190, 60) if k != 2 else (50, 35, 30)))
        circ(half, cx + rh * 0.85, hy + rh * 0.3, rh * 0.55, bgr((235, 190, 60) if k != 2 else (50, 35, 30)))
    circ(half, cx, hy, rh, bgr((240, 200, 165)))
    cw_ = rh * (1.1 if rank == "K" else 0.8)
    top = hy - rh * 0.75
    crown = [(cx - cw_, top), (cx - cw_, top - rh * 0.9), (cx - cw_ * 0.5, top - rh * 0.45), (cx, top - rh * 1.1),
             (cx + cw_ * 0.5, top - rh * 0.45), (cx + cw_, top - rh * 0.9), (cx + cw_, top)]
    poly(half, crown, bgr((240, 200, 40)))
    circ(half, cx, top - rh * 0.35, rh * 0.18, bgr((200, 30, 30)))
    sc = st["red"] if suit in "HD" else st["black"]
    draw_suit(half, suit, 0.17 * fw, 0.18 * hh, 0.22 * fw, bgr(sc))
    cv2.line(half, (int(cx + 0.3 * fw), int(0.3 * hh)), (int(cx + 0.38 * fw), hh), bgr(pal[2]), max(1, fw // 30), cv2.LINE_AA)
    img[y0:y0 + hh, x0:x1] = half
    img[y1 - hh:y1, x0:x1] = half[::-1, ::-1]
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), bgr(sc), max(1, fw // 40))


def draw_index(tile, rtxt, suit, col, st, W, H):
    font, bold = st["font"], st["bold"]
    if st["style"] in ("classic", "bigsuit"):
        hx, ht = 0.16 * W, 0.15 * H
        text_fit(tile, rtxt, hx, 0.05 * H + ht / 2 + 0.02 * H, ht, col, font, bold, wmax=0.24 * W)
        draw_suit(tile, suit, hx, 0.05 * H + ht + 0.11 * H, 0.11 * H, col)
    elif st["style"] == "index":
        ht = 0.24 * H
        text_fit(tile, rtxt, 0.24 * W, 0.06 * H + ht / 2, ht, col, font, bold, wmax=0.42 * W)
        draw_suit(tile, suit, 0.24 * W, 0.06 * H + ht + 0.13 * H, 0.18 * H, col)
    else:  # jumbo: suit only in corner
        draw_suit(tile, suit, 0.16 * W, 0.14 * H, 0.16 * H, col)


def draw_card(tile, card, st):
    H, W = tile.shape[:2]
    rank, suit = card[0], card[1]
    col = bgr(st["red"] if suit in "HD" else st["black"])
    g = st["gap_px"]
    rounded_rect(tile, g, g, W - 1 - g, H - 1 - g, st["corner_px"], bgr(st["face"]))
    if st["card_line"]:
        cv2.rectangle(tile, (g + 1, g + 1), (W - 2 - g, H - 2 - g), bgr(st["card_line_col"]), 1, cv2.LINE_AA)
    rtxt = "10" if rank == "T" else rank
    for _ in range(2):  # index in top-left, then the same rotated 180 degrees
        draw_index(tile, rtxt, suit, col, st, W, H)
        tile[:] = tile[::-1, ::-1].copy()
    style = st["style"]
    if rank in "QK":
        if style == "classic":
            draw_court(tile, 0.28 * W, 0.1 * H, 0.72 * W + 1, 0.9 * H, rank, suit, st)
        elif style == "index":
            draw_court(tile, 0.34 * W, 0.22 * H, 0.9 * W - 0.24 * W + 0.1 * W, 0.78 * H, rank, suit, st)
        else:
            draw_court(tile, 0.25 * W, 0.2 * H, 0.75 * W, 0.8 * H, rank, suit, st)
            if style == "jumbo":
                text_fit(tile, rank, 0.5 * W, 0.5 * H, 0.2 * H, col, st["font"], st["bold"] * 1.3)
        return
    if style == "classic":
        if rank == "A":
            draw_suit(tile, suit, W / 2, H / 2, 0.42 * W, col)
        else:
            x0, x1 = 0.34 * W, 0.66 * W
            y0, y1 = 0.19 * H, 0.81 * H
            ps = min(0.2 * W, 0.15 * H)
            for px, py in PIPS[rank]:
                draw_suit(tile, suit, x0 + px * (x1 - x0), y0 + py * (y1 - y0), ps, col, flip=py > 0.5)
    elif style == "bigsuit":
        draw_suit(tile, suit, W / 2, H / 2, (0.55 if rank == "A" else 0.42) * W, col)
        if rank != "A":
            text_fit(tile, rtxt, W / 2, H / 2 + (0.02 if suit in "HD" else 0.1) * H - 0.04 * H, 0.13 * H,
                     bgr(st["face"]), st["font"], st["bold"], wmax=0.24 * W)
    elif style == "jumbo":
        text_fit(tile, rtxt, W / 2, 0.44 * H, 0.3 * H, col, st["font"], st["bold"] * 1.2, wmax=0.62 * W)
        draw_suit(tile, suit, W / 2, 0.74 * H, 0.2 * H, col)
    elif style == "index":
        if rank == "A":
            draw_suit(tile, suit, W / 2, H / 2, 0.3 * W, col)


def draw_free(tile, st, rng):
    H, W = tile.shape[:2]
    g = st["gap_px"]
    fs = st["free_style"]
    rounded_rect(tile, g, g, W - 1 - g, H - 1 - g, st["corner_px"], bgr(st["free_bg"]))
    fc = bgr(st["free_fg"])
    if fs == "ring":
        cv2.circle(tile, (W // 2, H // 2), int(0.38 * W), fc, max(1, W // 22), cv2.LINE_AA)
        text_fit(tile, "FREE", W / 2, H / 2, 0.14 * H, fc, st["font"], 0.14, wmax=0.6 * W)
    elif fs == "star":
        pts = []
        for i in range(10):
            r = (0.42 if i % 2 == 0 else 0.18) * W
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((W / 2 + r * math.cos(a), H / 2 + r * math.sin(a)))
        poly(tile, pts, fc)
        text_fit(tile, "FREE", W / 2, 0.86 * H, 0.1 * H, fc, st["font"], 0.12, wmax=0.7 * W)
    elif fs == "diag":
        pad = np.zeros((H, W, 3), np.uint8)
        text_fit(pad, "FREE", W / 2, H / 2, 0.2 * W, (255, 255, 255), st["font"], 0.15, wmax=0.9 * W)
        M = cv2.getRotationMatrix2D((W / 2, H / 2), 45 if rng.random() < 0.5 else -45, 1.0)
        pad = cv2.warpAffine(pad, M, (W, H))
        a = pad[..., :1].astype(np.float32) / 255
        tile[:] = (tile * (1 - a) + np.array(fc, np.float32) * a).astype(np.uint8)
        cv2.rectangle(tile, (g + W // 10, g + H // 10), (W - 1 - g - W // 10, H - 1 - g - H // 10), fc, 1, cv2.LINE_AA)
    else:  # crown
        cw_ = 0.32 * W
        cy = 0.5 * H
        crown = [(W / 2 - cw_, cy + 0.15 * W), (W / 2 - cw_, cy - 0.2 * W), (W / 2 - cw_ / 2, cy),
                 (W / 2, cy - 0.3 * W), (W / 2 + cw_ / 2, cy), (W / 2 + cw_, cy - 0.2 * W), (W / 2 + cw_, cy + 0.15 * W)]
        poly(tile, crown, fc)
        text_fit(tile, "FREE", W / 2, 0.2 * H, 0.11 * H, fc, st["font"], 0.12, wmax=0.7 * W)
        text_fit(tile, "FREE", W / 2, 0.8 * H, 0.11 * H, fc, st["font"], 0.12, wmax=0.7 * W)


MARGINS = {"forest": (25, 85, 50), "navy": (22, 38, 88), "darkred": (115, 22, 28), "black": (28, 28, 30),
           "royal": (30, 62, 150), "teal": (10, 95, 100), "cream": (228, 218, 190), "grey": (110, 112, 118),
           "purple": (70, 35, 95)}


def make_board_texture(rng, geo, ppu, V):
    """BGR texture of the flat board, ppu pixels per cell width."""
    W, H, m, asp = geo["W"], geo["H"], geo["m"], geo["asp"]
    Wp, Hp = int(round(W * ppu)), int(round(H * ppu))
    name = str(rng.choice(list(MARGINS)))
    mc = np.array(MARGINS[name], float) * rng.uniform(0.88, 1.12)
    mc = np.clip(mc + rng.normal(0, 6, 3), 5, 245)
    tex = np.empty((Hp, Wp, 3), np.float32)
    tex[:] = np.array(bgr(mc), np.float32)
    nz = smooth_noise(rng, Hp, Wp, ppu * 0.8, 3) - 0.5
    tex *= (1 + 0.08 * nz)[..., None]
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    light_margin = mc.mean() > 150
    deco = bgr((60, 50, 30) if light_margin else (225, 190, 90) if rng.random() < 0.6 else (235, 235, 230))
    st = dict(
        style=str(rng.choice(["classic", "bigsuit", "index", "jumbo"], p=[0.35, 0.25, 0.2, 0.2])),
        font=int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                             cv2.FONT_HERSHEY_TRIPLEX])),
        bold=float(rng.uniform(0.08, 0.16)),
        red=tuple(np.clip(np.array([200, 25, 35]) + rng.normal(0, 15, 3), 0, 255)),
        black=tuple(np.clip(np.array([25, 25, 30]) + rng.normal(0, 8, 3), 0, 80)),
        face=tuple(np.clip(np.array([245, 243, 236]) - rng.uniform(0, 25) * np.array([0.6, 0.8, 1.2]), 0, 255)),
        court_bg=tuple(np.clip(np.array([250, 245, 225]) - rng.uniform(0, 20), 0, 255)),
        gap_px=max(1, int(round(ppu * rng.uniform(0.015, 0.05)))),
        corner_px=ppu * rng.uniform(0.0, 0.1),
        card_line=bool(rng.random() < 0.4),
        card_line_col=(150, 150, 150),
        free_style=str(rng.choice(["ring", "star", "diag", "crown"])),
        free_bg=tuple(mc * rng.uniform(0.6, 1.3)) if rng.random() < 0.5 else (235, 225, 200),
    )
    st["free_fg"] = (235, 200, 60) if np.mean(st["free_bg"]) < 140 else (120, 30, 30)
    gap_col = {"margin": None, "white": (235, 235, 230), "black": (20, 20, 20)}[str(rng.choice(["margin", "white", "black"]))]
    cw, ch = ppu, ppu * asp
    for r in range(10):
        for c in range(10):
            x0 = int(round((m + c) * cw))
            y0 = int(round(m * ppu + r * ch))
            x1 = int(round((m + c + 1) * cw))
            y1 = int(round(m * ppu + (r + 1) * ch))
            tile = tex[y0:y1, x0:x1]
            if gap_col is not None:
                tile[:] = bgr(gap_col)
            tl = np.ascontiguousarray(tile)
            card = LAYOUT[r * 10 + c]
            if card == "FREE":
                draw_free(tl, st, rng)
            else:
                draw_card(tl, card, st)
            tex[y0:y1, x0:x1] = tl
    # border decoration and brand text in the margin
    if rng.random() < 0.7:
        d = int(m * ppu * 0.4)
        cv2.rectangle(tex, (d, d), (Wp - 1 - d, Hp - 1 - d), deco, max(1, ppu // 30), cv2.LINE_AA)
    if m > 0.45 and rng.random() < 0.7:
        word = str(rng.choice(["SEQUENCE", "SEQUENCE", "Sequence"]))
        band = np.ascontiguousarray(tex[: int(m * ppu), :])
        text_fit(band, word, Wp / 2, m * ppu / 2, 0.42 * m * ppu, deco, st["font"], 0.12, wmax=0.5 * Wp)
        tex[: int(m * ppu), :] = band
        band = np.ascontiguousarray(tex[Hp - int(m * ppu):, :][::-1, ::-1])
        text_fit(band, word, Wp / 2, m * ppu / 2, 0.42 * m * ppu, deco, st["font"], 0.12, wmax=0.5 * Wp)
        tex[Hp - int(m * ppu):, :] = band[::-1, ::-1]
    # fold creases, paper grain, slight print softness
    t = tex.astype(np.float32)
    fold = str(rng.choice(["none", "half", "thirds"], p=[0.35, 0.4, 0.25]))
    if fold != "none":
        k = 1 + (fold == "thirds")
        vert = rng.random() < 0.5
        for i in range(1, k + 1):
            pos = i / (k + 1)
            if vert:
                x = int(pos * Wp)
                t[:, x - 1:x + 1] *= 0.88
                t[:, x + 1:x + 2] *= 1.06
            else:
                y = int(pos * Hp)
                t[y - 1:y + 1, :] *= 0.88
                t[y + 1:y + 2, :] *= 1.06
    t += rng.normal(0, 2.0, (Hp, Wp, 1)).astype(np.float32)
    t[:2, :] *= 0.55
    t[-2:, :] *= 0.55
    t[:, :2] *= 0.55
    t[:, -2:] *= 0.55
    tex = np.clip(t, 0, 255).astype(np.uint8)
    if os.environ.get("SEQ_DEBUG_TEX"):
        cv2.imwrite(os.environ["SEQ_DEBUG_TEX"], tex)
    V.update(margin_colour=name, card_style=st["style"], free_style=st["free_style"], fold=fold,
             gap_colour="margin" if gap_col is None else str(gap_col), font=st["font"])
    return tex


# ----------------------------------------------------------------------------------------
# table
# ----------------------------------------------------------------------------------------
WOODS = {"oak": (196, 150, 100), "walnut": (105, 68, 42), "cherry": (150, 82, 52), "pine": (214, 178, 128),
         "greywash": (158, 148, 136), "dark": (72, 48, 32), "teak": (160, 110, 65)}
CLOTHS = {"green_felt": (40, 100, 62), "navy": (36, 46, 80), "grey": (120, 120, 126), "beige": (200, 186, 160),
          "burgundy": (100, 32, 42), "white": (224, 224, 218), "charcoal": (48, 48, 52), "olive": (110, 110, 70),
          "sky": (140, 170, 200)}


def make_table_texture(rng, h, w, tpu, V):
    """Material-space texture, grain along x. Returns BGR uint8."""
    kind = str(rng.choice(["wood", "cloth", "pattern"], p=[0.5, 0.25, 0.25]))
    yy = (np.arange(h, dtype=np.float32) / tpu)[:, None]
    xx = (np.arange(w, dtype=np.float32) / tpu)[None, :]
    if kind == "wood":
        name = str(rng.choice(list(WOODS)))
        base = np.array(WOODS[name], np.float32) * rng.uniform(0.9, 1.1)
        pw = rng.uniform(2.0, 4.5)
        off = rng.uniform(0, pw)
        plank = np.floor((yy + off) / pw)
        local = (yy + off) - plank * pw
        nl = smooth_noise(rng, h, w, 6 * tpu, 3)
        sh, sw = max(2, int(h / (0.08 * tpu + 1))), max(2, int(w / (8 * tpu)))
        streak = cv2.resize(rng.random((sh, sw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        pid = plank.astype(np.int64) % 97
        ph = rng.uniform(0, 10, 97).astype(np.float32)[pid]
        sh2, sw2 = max(2, int(h / (0.03 * tpu + 1))), max(2, int(w / (3 * tpu)))
        fine = cv2.resize(rng.random((sh2, sw2)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        rings = np.sin(2 * np.pi * (local * rng.uniform(2.5, 5.0) + 0.7 * nl + ph + 0.02 * xx))
        v = 0.5 + 0.12 * rings + 0.35 * (streak - 0.5) + 0.25 * (fine - 0.5)
        v = np.clip(v, 0, 1)
        tint = rng.uniform(0.88, 1.1, 97).astype(np.float32)[pid]
        img = (base[None, None, :] * (0.72 + 0.5 * v)[..., None]) * tint[..., None]
        seam = (local < 0.035) | (local > pw - 0.02)
        img[np.broadcast_to(seam, (h, w))] *= 0.55
        # butt joints
        nplank = int(h / (pw * tpu)) + 3
        for p in range(-1, nplank):
            y0 = int(round((p * pw - off) * tpu))
            y1 = int(round(((p + 1) * pw - off) * tpu))
            x = rng.uniform(0, 20)
            while x * tpu < w:
                xi = int(x * tpu)
                img[max(0, y0):max(0, y1), xi:xi + 2] *= 0.5
                x += rng.uniform(15, 40)
        V["table"] = f"wood:{name}"
    else:
        name = str(rng.choice(list(CLOTHS)))
        base = np.array(CLOTHS[name], np.float32) * rng.uniform(0.9, 1.1)
        nl = smooth_noise(rng, h, w, 5 * tpu, 3)
        wr = smooth_noise(rng, h, w, 2.5 * tpu, 2)
        shade = 1 + 0.06 * (nl - 0.5) + 0.05 * np.abs(wr - 0.5)
        img = base[None, None, :] * shade[..., None]
        if kind == "pattern":
            pat = str(rng.choice(["gingham", "stripes", "dots", "trellis"]))
            per = rng.uniform(0.8, 2.2)
            amp = rng.uniform(0.04, 0.09)
            if pat == "gingham":
                a = ((xx / per) % 1 < 0.5).astype(np.float32)
                b = ((yy / per) % 1 < 0.5).astype(np.float32)
                p = 1 - amp * (a + b) / 2
            elif pat == "stripes":
                p = 1 - amp * ((xx + 0.6 * yy) / per % 1 < 0.3).astype(np.float32)
            elif pat == "dots":
                dx = (xx / per) % 1 - 0.5
                dy = (yy / per) % 1 - 0.5
                p = 1 - amp * 1.4 * ((dx * dx + dy * dy) < 0.04).astype(np.float32)
            else:
                u = ((xx + yy) / per) % 1
                v2 = ((xx - yy) / per) % 1
                p = 1 - amp * ((u < 0.08) | (v2 < 0.08)).astype(np.float32)
            p = cv2.GaussianBlur(np.broadcast_to(p, (h, w)).astype(np.float32), (0, 0), max(0.6, 0.02 * tpu))
            img = img * p[..., None]
            V["table"] = f"pattern:{name}:{pat}"
        else:
            V["table"] = f"cloth:{name}"
    img = img + rng.normal(0, 2.5, (h, w, 1)).astype(np.float32)
    return cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)


# ----------------------------------------------------------------------------------------
# camera
# ----------------------------------------------------------------------------------------


def normalize(v):
    return v / np.linalg.norm(v)


def rot_axis(axis, ang):
    return cv2.Rodrigues(np.asarray(axis, float) * ang)[0]


class Camera:
    def __init__(self, w, h, f, C, R, k1, k2, cx, cy):
        self.w, self.h, self.f = w, h, f
        self.C = np.asarray(C, float)
        self.R = np.asarray(R, float)
        self.k1, self.k2, self.cx, self.cy = k1, k2, cx, cy
        # beyond the frame the lens polynomial would fold far points back in: keep it monotonic
        self.r2c = 1.3 * ((w / 2) ** 2 + (h / 2) ** 2) / f ** 2

    def project(self, P):
        P = np.atleast_2d(np.asarray(P, float))
        Pc = (P - self.C) @ self.R.T
        z = np.maximum(Pc[:, 2], 1e-3)
        x, y = Pc[:, 0] / z, Pc[:, 1] / z
        r2 = np.minimum(x * x + y * y, self.r2c)
        d = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([self.f * x * d + self.cx, self.f * y * d + self.cy], 1), z

    def rays(self, u, v):
        xd, yd = (u - self.cx) / self.f, (v - self.cy) / self.f
        x, y = xd.copy(), yd.copy()
        for _ in range(8):
            r2 = x * x + y * y
            d = 1 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / d, yd / d
        R = self.R
        D = x[..., None] * R[0] + y[..., None] * R[1] + R[2]
        return D

    def ground(self, u, v):
        D = self.rays(u, v)
        t = -self.C[2] / np.minimum(D[..., 2], -1e-6)
        return self.C[0] + t * D[..., 0], self.C[1] + t * D[..., 1], D

    def bumped(self, ang3, alpha):
        Rd = rot_axis(np.asarray(ang3) * alpha, 1.0) if np.any(ang3) else np.eye(3)
        return Camera(self.w, self.h, self.f, self.C, Rd @ self.R, self.k1, self.k2, self.cx, self.cy)


def look_camera(w, h, f, target, dist, tilt, azim, roll, k1, k2, cx, cy):
    C = np.array([target[0] + dist * math.sin(tilt) * math.cos(azim),
                  target[1] + dist * math.sin(tilt) * math.sin(azim), dist * math.cos(tilt)])
    fz = normalize(np.array([target[0], target[1], 0.0]) - C)
    hint = np.array([-math.cos(azim), -math.sin(azim), 0.0])
    xc = normalize(np.cross(fz, hint))
    yc = np.cross(fz, xc)
    R = np.stack([xc, yc, fz])
    R = rot_axis([0, 0, 1], roll) @ R
    return Camera(w, h, f, C, R, k1, k2, cx, cy)


def board_outline(geo, n=30):
    W, H = geo["W"], geo["H"]
    s = np.linspace(0, 1, n)
    pts = np.concatenate([
        np.stack([-W / 2 + W * s, np.full(n, H / 2)], 1),
        np.stack([np.full(n, W / 2), H / 2 - H * s], 1),
        np.stack([W / 2 - W * s, np.full(n, -H / 2)], 1),
        np.stack([np.full(n, -W / 2), -H / 2 + H * s], 1)])
    return np.concatenate([pts, np.zeros((len(pts), 1))], 1)


def board_fill(uv, h):
    """Board size on screen as a fraction of the frame's short side: sqrt of its projected area."""
    x, y = uv[:, 0], uv[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    return math.sqrt(area) / h


def cell_center(geo, r, c):
    return (-geo["W"] / 2 + geo["m"] + c + 0.5, geo["H"] / 2 - geo["m"] - (r + 0.5) * geo["asp"])


# ----------------------------------------------------------------------------------------
# chips
# ----------------------------------------------------------------------------------------
CHIP_RANGES = {"B": ((15, 30, 110), (95, 170, 235)), "G": ((20, 85, 40), (130, 205, 65)),
               "R": ((160, 15, 35), (235, 80, 30))}


def chip_sprite(rgb, R, light_t, away_t, thick_px, shadow_off, ring):
    """Float sprite of one chip lying on the board, in board-texture pixels."""
    S = int(math.ceil(R * 1.35 + abs(shadow_off) + thick_px + 4))
    yy, xx = np.mgrid[-S:S + 1, -S:S + 1].astype(np.float32)
    lx, ly = light_t
    ax, ay = away_t
    col = np.array(bgr(rgb), np.float32)
    # shadow (falls away from the light)
    sx, sy = -lx * shadow_off, -ly * shadow_off
    ds = np.sqrt((xx - sx) ** 2 + (yy - sy) ** 2)
    shadow = np.clip((R * 1.08 - ds) / (0.22 * R) + 0.5, 0, 1) * 0.55
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, 0.1 * R))
    # base disc = the chip's side wall
    d0 = np.sqrt(xx ** 2 + yy ** 2)
    a0 = np.clip(R - d0 + 0.5, 0, 1)
    # top face shifted away from the camera
    tx, ty = ax * thick_px, ay * thick_px
    dx, dy = xx - tx, yy - ty
    d1 = np.sqrt(dx * dx + dy * dy) / R
    a1 = np.clip((1 - d1) * R + 0.5, 0, 1)
    lam = 0.92 + 0.1 * (dx * lx + dy * ly) / R
    shade = np.where(d1 > 0.86, 0.7 + 0.25 * np.clip((dx * lx + dy * ly) / R, -1, 1), lam)
    if ring:
        shade = shade * (1 - 0.12 * np.exp(-((d1 - 0.62) / 0.035) ** 2)) + 0.06 * np.exp(-((d1 - 0.68) / 0.03) ** 2)
    face = col[None, None, :] * shade[..., None]
    hx, hy = tx + lx * 0.38 * R, ty + ly * 0.38 * R
    spec = np.exp(-(((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.17 * R) ** 2)))
    face = face + 255 * 0.4 * spec[..., None]
    side = col[None, None, :] * 0.45
    colr = side * (1 - a1[..., None]) + face * a1[..., None]
    alpha = np.maximum(a0, a1)
    return dict(col=np.clip(colr, 0, 255).astype(np.float32), a=alpha.astype(np.float32),
                sh=shadow.astype(np.float32), S=S)


def paste_chip(tex, sp, x, y, gain):
    S = sp["S"]
    xi, yi = int(round(x)), int(round(y))
    y0, y1, x0, x1 = yi - S, yi + S + 1, xi - S, xi + S + 1
    H, W = tex.shape[:2]
    cy0, cy1, cx0, cx1 = max(0, y0), min(H, y1), max(0, x0), min(W, x1)
    if cy0 >= cy1 or cx0 >= cx1:
        return
    sl = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
    roi = tex[cy0:cy1, cx0:cx1]
    a = sp["a"][sl][..., None]
    sh = sp["sh"][sl][..., None]
    roi *= (1 - sh)
    roi[:] = roi * (1 - a) + sp["col"][sl] * gain * a


# ----------------------------------------------------------------------------------------
# hand
# ----------------------------------------------------------------------------------------
SKINS = [(232, 188, 160), (226, 176, 142), (205, 150, 112), (176, 120, 84), (140, 92, 62), (96, 62, 42)]
SLEEVES = [(40, 50, 90), (120, 120, 125), (170, 40, 40), (40, 90, 60), (225, 225, 220), (30, 30, 32),
           (200, 160, 90), (90, 60, 120), (60, 120, 170)]

FINGERS = [  # (a, b, dz, r) from knuckle to tip, right hand pinching at the origin
    [(-1.25, 0.45, 0.70, 0.18), (-0.62, 0.40, 0.86, 0.17), (-0.22, 0.26, 0.46, 0.155), (0.0, 0.08, 0.08, 0.135)],
    [(-1.20, 0.12, 0.72, 0.19), (-0.52, 0.07, 0.92, 0.18), (-0.16, -0.06, 0.52, 0.16), (-0.06, -0.2, 0.12, 0.14)],
    [(-1.30, -0.20, 0.68, 0.18), (-0.72, -0.28, 0.84, 0.17), (-0.40, -0.37, 0.46, 0.15), (-0.31, -0.44, 0.16, 0.13)],
    [(-1.45, -0.50, 0.60, 0.15), (-1.02, -0.60, 0.72, 0.14), (-0.74, -0.66, 0.44, 0.125), (-0.63, -0.68, 0.22, 0.11)],
]
THUMB = [(-2.3, 0.55, 0.45, 0.26), (-1.45, 0.86, 0.32, 0.22), (-0.62, 0.56, 0.15, 0.18), (-0.02, 0.2, 0.04, 0.145)]
PALM = [(-2.75, 0.48, 0.75), (-1.95, 0.7, 0.72), (-1.3, 0.64, 0.68), (-1.13, 0.32, 0.74), (-1.1, 0.0, 0.74),
        (-1.22, -0.35, 0.68), (-1.42, -0.68, 0.6), (-2.2, -0.72, 0.66), (-2.8, -0.56, 0.74)]
def hand_world(hs, pl):
    """3D parts of hand, arm and shoulder for hand state hs = (x, y, z, psi, open, carry, shoulder)."""
    x, y, z, psi, op, carry, S = hs
    f = np.array([math.cos(psi), math.sin(psi), 0.0])
    l = np.array([-math.sin(psi), math.cos(psi), 0.0])
    zu = np.array([0.0, 0.0, 1.0])
    sg = pl["sgn"]
    s = pl["scale"]
    gi = pl["girth"]
    H0 = np.array([x, y, z])

    def W(a, b, dz):
        return H0 + s * (a * f + sg * b * l) + np.array([0, 0, s * dz])

    # two-link arm: wrist -> elbow -> shoulder, leaning in when the target is out of reach
    wrist = W(-2.7, -0.04, 0.75)
    Lf, Lu = 4.1 * s, 4.7 * s
    S = np.array(S, float)
    d = np.linalg.norm(S - wrist)
    reach = 0.96 * (Lf + Lu)
    if d > reach:  # lean in a little, then stretch the arm (the body must stay out of the frame)
        lean = min(d - reach, 1.5)
        S = S + (wrist - S) * (lean / d)
        d = np.linalg.norm(S - wrist)
        if d > reach:
            k = d / reach
            Lf, Lu = Lf * k, Lu * k
    e = (S - wrist) / max(d, 1e-6)
    ca = np.clip((Lf * Lf + d * d - Lu * Lu) / (2 * Lf * max(d, 1e-6)), -1, 1)
    bend = 0.55 * (-zu) + 0.85 * (-sg * l)
    bend = bend - bend.dot(e) * e
    bend /= np.linalg.norm(bend) + 1e-9
    elbow = wrist + Lf * (ca * e + math.sqrt(1 - ca * ca) * bend)
    elbow[2] = max(elbow[2], 0.7 * s)
    parts = []
    back = S - np.array([x, y, S[2]])
    back[2] = 0
    back = back / (np.linalg.norm(back) + 1e-9)
    shirt = pl["shirt"]
    torso = np.array([S + 0.3 * s * back - 0.3 * s * zu, S + 2.6 * s * back + 2.5 * s * zu + sg * 1.2 * s * np.cross(zu, back)])
    parts.append(("tube", torso, np.array([1.05, 1.9]) * s * gi, shirt, False))
    fore = np.array([wrist, wrist + 0.5 * (elbow - wrist), elbow])
    parts.append(("tube", fore, np.array([0.38, 0.47, 0.5]) * s * gi, pl["skin"], True))
    upper = np.array([elbow, 0.5 * (elbow + S), S])
    up_col = pl["skin"] if pl["sleeve"] == "none" else shirt
    parts.append(("tube", upper, np.array([0.5, 0.56, 0.66]) * s * gi, up_col, True))
    if pl["sleeve"] == "long":
        k = pl["sleeve_start"]
        p0 = wrist + k * (elbow - wrist)
        sl = np.array([p0, 0.5 * (p0 + elbow), elbow])
        rr = np.array([0.5, 0.55, 0.6]) * s * gi
        parts.append(("tube", sl, rr, shirt, True))
        cuff = np.array([p0, p0 + 0.08 * (elbow - wrist)])
        parts.append(("tube", cuff, rr[:2] + 0.02, tuple(v * pl["cuff_k"] for v in shirt), True))
    elif pl["sleeve"] == "short":
        p0 = elbow + 0.35 * (S - elbow)
        parts.append(("tube", np.array([p0, S]), np.array([0.66, 0.72]) * s * gi, shirt, True))
    parts.append(("poly", np.array([W(a, b, dz) for a, b, dz in PALM]), None, pl["skin"], True))
    parts.append(("tube", np.array([W(a, b, dz) for a, b, dz, _ in THUMB]), np.array([r for *_, r in THUMB]) * s,
                  pl["skin"], True))
    if carry is not None:
        cc = W(0.02, 0.12, -0.02)
        ang = np.linspace(0, 2 * np.pi, 20, endpoint=False)
        Rc = pl["chip_r"]
        ring = cc + Rc * (np.cos(ang)[:, None] * f + np.sin(ang)[:, None] * l) + np.array([0, 0, 0.1]) * np.sin(ang)[:, None]
        parts.append(("chip", ring, None, carry, True))
    for k in (3, 2, 1, 0):
        fing = FINGERS[k]
        pts = []
        for j, (a, b, dz, r) in enumerate(fing):
            if j >= 2:  # open the hand while travelling
                a, dz = a + op * 0.45 * (j - 1) / 2, dz + op * 0.25
                b = b + op * 0.12 * (1.5 - k) * (j - 1) / 2
            pts.append(W(a, b, dz))
        parts.append(("tube", np.array(pts), np.array([r for *_, r in fing]) * s, pl["skin"], True))
    return parts


class HandRenderer:
    def __init__(self, cam, light, px_unit, shadow_k):
        self.set_cam(cam)
        self.light = light
        self.px_unit = px_unit
        self.shadow_k = shadow_k

    def set_cam(self, cam):
        self.cam = cam
        c0, _ = cam.project([[0, 0, 0]])
        self.c0 = c0[0]

    def light_img(self):
        a, _ = self.cam.project([[0, 0, 0], [self.light[0], self.light[1], 0]])
        d = a[1] - a[0]
        return d / (np.linalg.norm(d) + 1e-9)

    def project_parts(self, parts, shadow=False):
        out = []
        L = self.light
        for kind, P, r, col, casts in parts:
            if shadow:
                if not casts:
                    continue
                P = P - (P[:, 2:3] / L[2]) * L[None, :]
            Pc = (P - self.cam.C) @ self.cam.R.T
            depth = Pc[:, 2]
            near = 1.0
            if (depth < near).any():  # clip at the near plane
                if kind != "tube":
                    continue
                i = int(np.argmax(depth < near))
                if i == 0:
                    continue
                t_ = (depth[i - 1] - near) / (depth[i - 1] - depth[i])
                P = np.concatenate([P[:i], P[i - 1:i] + t_ * (P[i:i + 1] - P[i - 1:i])])
                r = np.concatenate([r[:i], r[i - 1:i] + t_ * (r[i:i + 1] - r[i - 1:i])])
            uv, depth = self.cam.project(P)
            rp = None if r is None else r * self.cam.f / depth
            out.append((kind, np.clip(uv, -4000, 6000), rp, col))
        return out

    @staticmethod
    def bbox(pp):
        xs0, ys0, xs1, ys1 = [], [], [], []
        for kind, uv, rp, _ in pp:
            pad = 0 if rp is None else rp.max()
            xs0.append(uv[:, 0].min() - pad)
            ys0.append(uv[:, 1].min() - pad)
            xs1.append(uv[:, 0].max() + pad)
            ys1.append(uv[:, 1].max() + pad)
        if not xs0:
            return 1e9, 1e9, -1e9, -1e9
        return min(xs0), min(ys0), max(xs1), max(ys1)

    @staticmethod
    def draw(img, mask, pp, ox, oy, outline=True):
        for kind, uv, rp, col in pp:
            uv = uv - np.array([ox, oy])
            c = bgr(col)
            dark = tuple(int(v * 0.62) for v in c)
            if kind == "tube":
                passes = [(1.0, dark), (0.0, c)] if (outline and img is not None) else [(0.0, c)]
                for extra, cc in passes:
                    for i in range(len(uv) - 1):
                        p0, p1 = uv[i], uv[i + 1]
                        d = p1 - p0
                        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
                        r0, r1 = rp[i] + extra, rp[i + 1] + extra
                        q = [p0 + n * r0, p1 + n * r1, p1 - n * r1, p0 - n * r0]
                        qa = np.round(np.array(q) * SHF).astype(np.int32)
                        if img is not None:
                            cv2.fillConvexPoly(img, qa, cc, cv2.LINE_AA, SH)
                        if extra == 0.0:
                            cv2.fillConvexPoly(mask, qa, 255, cv2.LINE_AA, SH)
                    for i in range(len(uv)):
                        if img is not None:
                            circ(img, uv[i, 0], uv[i, 1], rp[i] + extra, cc)
                        if extra == 0.0:
                            circ(mask, uv[i, 0], uv[i, 1], rp[i], 255)
            elif kind == "poly":
                qa = np.round(uv * SHF).astype(np.int32)
                if img is not None:
                    cv2.fillPoly(img, [qa], c, cv2.LINE_AA, SH)
                    cv2.polylines(img, [qa], True, dark, 1, cv2.LINE_AA, SH)
                cv2.fillPoly(mask, [qa], 255, cv2.LINE_AA, SH)
            elif kind == "chip":
                qa = np.round(uv * SHF).astype(np.int32)
                if img is not None:
                    cv2.fillPoly(img, [qa], tuple(int(v * 0.55) for v in c), cv2.LINE_AA, SH)
                    ctr = uv.mean(0)
                    inner = np.round((ctr + (uv - ctr) * 0.86) * SHF).astype(np.int32)
                    cv2.fillPoly(img, [inner], c, cv2.LINE_AA, SH)
                cv2.fillPoly(mask, [qa], 255, cv2.LINE_AA, SH)

    def render(self, frame, hs, pl, board_mask):
        """Draws shadow + hand into frame (uint8, in place). Returns (visible, over_board)."""
        parts = hand_world(hs, pl)
        pp = self.project_parts(parts)
        ps = self.project_parts(parts, shadow=True)
        h, w = frame.shape[:2]
        bx0, by0, bx1, by1 = self.bbox(pp)
        sx0, sy0, sx1, sy1 = self.bbox(ps)
        sig_s = max(1.0, self.px_unit * (0.1 + 0.12 * hs[2]))
        pad = int(3 * sig_s) + 4
        x0 = int(max(0, min(bx0, sx0 - pad)))
        y0 = int(max(0, min(by0, sy0 - pad)))
        x1 = int(min(w, max(bx1, sx1 + pad) + 1))
        y1 = int(min(h, max(by1, sy1 + pad) + 1))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return False, False
        roi = frame[y0:y1, x0:x1]
        # shadow
        sm = np.zeros(roi.shape[:2], np.uint8)
        self.draw(None, sm, ps, x0, y0)
        if sm.any():
            smf = cv2.GaussianBlur(sm.astype(np.float32) / 255, (0, 0), sig_s)
            roi[:] = np.clip(roi.astype(np.float32) * (1 - self.shadow_k * smf)[..., None], 0, 255).astype(np.uint8)
        # hand
        col = np.zeros(roi.shape, np.uint8)
        m = np.zeros(roi.shape[:2], np.uint8)
        self.draw(col, m, pp, x0, y0)
        if not m.any():
            return False, False
        mf = m.astype(np.float32) / 255
        sig = max(1.2, 0.2 * self.px_unit)
        mb = cv2.GaussianBlur(mf, (0, 0), sig)
        gx = cv2.Sobel(mb, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(mb, cv2.CV_32F, 0, 1, ksize=3)
        lx, ly = self.light_img()
        lit = -(gx * lx + gy * ly) * sig * 0.9
        thick = np.sqrt(np.clip(mb * 2.0, 0, 1))
        shade = np.clip(0.58 + 0.37 * thick + lit, 0.35, 1.12) * pl["bright"]
        colf = col.astype(np.float32) * shade[..., None]
        out = roi.astype(np.float32) * (1 - mf[..., None]) + colf * mf[..., None]
        roi[:] = np.clip(out, 0, 255).astype(np.uint8)
        vis = m > 80
        over = bool((vis & (board_mask[y0:y1, x0:x1] > 0)).any())
        return bool(vis.any()), over

    def visible(self, hs, pl, only_body=False):
        parts = hand_world(hs, pl)
        if only_body:
            parts = parts[:1]
        pp = self.project_parts(parts)
        h, w = self.cam.h, self.cam.w
        bx0, by0, bx1, by1 = self.bbox(pp)
        x0, y0, x1, y1 = int(max(0, bx0)), int(max(0, by0)), int(min(w, bx1 + 1)), int(min(h, by1 + 1))
        if x1 - x0 < 1 or y1 - y0 < 1:
            return False
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        self.draw(None, m, pp, x0, y0)
        return bool((m > 20).any())


def min_jerk(s):
    s = min(max(s, 0.0), 1.0)
    return s * s * s * (10 - 15 * s + 6 * s * s)


# ----------------------------------------------------------------------------------------
# the game video
# ----------------------------------------------------------------------------------------


def jsonable(o):
    if isinstance(o, dict):
        return {str(k): jsonable(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [jsonable(v) for v in o]
    if isinstance(o, np.ndarray):
        return jsonable(o.tolist())
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating, float)):
        return round(float(o), 4)
    if isinstance(o, np.bool_):
        return bool(o)
    return o


class Scene:
    """Everything static for one camera pose: table frame, maps into the board texture, illumination."""

    def __init__(self, cam, G):
        self.cam = cam
        w, h = cam.w, cam.h
        u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        X, Y, D = cam.ground(u, v)
        geo = G["geo"]
        # table material coords
        ca, sa = math.cos(G["tab_rot"]), math.sin(G["tab_rot"])
        mx = ((ca * X + sa * Y) - G["tab_m0"][0]) * G["tpu"]
        my = ((-sa * X + ca * Y) - G["tab_m0"][1]) * G["tpu"]
        table = cv2.remap(G["table_tex"], mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT).astype(np.float32)
        # beyond the table's edge: a dark, blurry floor
        tx0, tx1, ty0, ty1 = G["table_rect"]
        dout = np.maximum.reduce([tx0 - X, X - tx1, ty0 - Y, Y - ty1])
        px = cam.f / np.linalg.norm(cam.C)
        tmask = np.clip(0.5 - dout * px, 0, 1).astype(np.float32)
        edge = np.exp(-np.abs(dout) * px / 1.5).astype(np.float32) * 0.35
        floor = np.array(bgr(G["floor"]), np.float32)[None, None, :] * (0.8 + 0.4 * v[..., None] / h)
        table = table * (1 - edge[..., None] * 0.8)
        table = table * tmask[..., None] + floor.astype(np.float32) * (1 - tmask[..., None])
        # illumination (world), ambient occlusion around the board, board glare
        L = G["light"]
        ill = G["ill_base"] * (1 + G["ill_g"][0] * X / 20 + G["ill_g"][1] * Y / 20)
        ill *= 1 - G["spot_k"] * np.clip(((X - G["spot_c"][0]) ** 2 + (Y - G["spot_c"][1]) ** 2) / G["spot_r"] ** 2, 0, 1.5)
        W, H = geo["W"], geo["H"]
        ddx = np.maximum(np.abs(X + L[0] * 0.04) - W / 2, 0)
        ddy = np.maximum(np.abs(Y + L[1] * 0.04) - H / 2, 0)
        dd = np.sqrt(ddx ** 2 + ddy ** 2)
        ao = 1 - 0.35 * np.exp(-dd / 0.12) * (dd > 0)
        ill = ill.astype(np.float32)
        self.table = np.clip(table * (ill * ao.astype(np.float32))[..., None], 0, 255).astype(np.uint8)
        # board texture maps, only over the board's bounding box
        ppu = G["ppu"]
        bu = (X + W / 2) * ppu - 0.5
        bv = (H / 2 - Y) * ppu - 0.5
        inside = (bu > -3) & (bu < W * ppu + 2) & (bv > -3) & (bv < H * ppu + 2)
        ys, xs = np.nonzero(inside)
        self.roi = (max(0, ys.min() - 2), min(h, ys.max() + 3), max(0, xs.min() - 2), min(w, xs.max() + 3))
        y0, y1, x0, x1 = self.roi
        self.bu = bu[y0:y1, x0:x1].astype(np.float32)
        self.bv = bv[y0:y1, x0:x1].astype(np.float32)
        self.balpha = cv2.remap(G["board_alpha"], self.bu, self.bv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=0)
        self.bill = ill[y0:y1, x0:x1]
        # specular glare on the (glossy) board print
        Vd = -D[y0:y1, x0:x1] / np.linalg.norm(D[y0:y1, x0:x1], axis=2, keepdims=True)
        Hh = Vd + L[None, None, :]
        Hh /= np.linalg.norm(Hh, axis=2, keepdims=True)
        self.glare = (G["glare_k"] * 255 * np.clip(Hh[..., 2], 0, 1) ** G["glare_n"]).astype(np.float32)
        bm = np.zeros((h, w), np.uint8)
        bm[y0:y1, x0:x1] = (self.balpha > 0.5).astype(np.uint8)
        self.board_mask = bm
        self._key = None
        self._base = None

    def base(self, key, tex):
        if key == self._key:
            return self._base
        y0, y1, x0, x1 = self.roi
        frame = self.table.copy()
        brd = cv2.remap(tex, self.bu, self.bv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        a = self.balpha[..., None]
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        out = roi * (1 - a) + (brd * self.bill[..., None] + self.glare[..., None]) * a
        frame[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
        self._key, self._base = key, frame
        return frame


def render_game(outdir, seed, index, log=print):
    t_start = time.time()
    rng = np.random.default_rng(seed + index)
    V = {}
    nt = 3 if rng.random() < 0.25 else 2
    teams = teams_for(nt)
    plan = plan_game(rng, nt)
    V["plan_attempts"] = plan["attempts"]
    V["intended_outcome"] = "win" if plan["want_win"] else ("sequence" if plan["want_seq"] else "any")

    # ---------------- geometry of the board
    asp = float(rng.uniform(1.0, 1.35))
    m = float(rng.uniform(0.3, 0.9))
    geo = dict(asp=asp, m=m, W=10 + 2 * m, H=10 * asp + 2 * m)
    V.update(cell_aspect=asp, margin_cells=m)

    # ---------------- camera
    w, h = (1280, 720) if rng.random() < 0.4 else (960, 540)
    hfov = math.radians(rng.uniform(52, 75))
    f = (w / 2) / math.tan(hfov / 2)
    tilt = math.radians(rng.uniform(0, 40))
    azim = rng.uniform(0, 2 * math.pi)
    roll = math.radians(rng.normal(0, 3))
    k1 = -rng.uniform(0.02, 0.12)
    k2 = -rng.uniform(0.0, 0.03)
    cx = (w - 1) / 2 + rng.normal(0, 0.006) * w
    cy = (h - 1) / 2 + rng.normal(0, 0.006) * h
    fill = rng.uniform(0.45, 0.8)
    outline = board_outline(geo)
    cam = None
    for tries in range(30):
        off = rng.uniform(-1, 1, 2) * 2.0 * (0.7 ** tries)
        lo, hi = 3.0, 400.0
        for _ in range(40):
            d = math.sqrt(lo * hi)
            c_ = look_camera(w, h, f, off, d, tilt, azim, roll, k1, k2, cx, cy)
            uv, _ = c_.project(outline)
            if board_fill(uv, h) > fill:
                lo = d
            else:
                hi = d
        c_ = look_camera(w, h, f, off, hi, tilt, azim, roll, k1, k2, cx, cy)
        uv, _ = c_.project(outline)
        mg = 0.035
        if uv[:, 0].min() > mg * w and uv[:, 0].max() < (1 - mg) * w and uv[:, 1].min() > mg * h and uv[:, 1].max() < (1 - mg) * h:
            cam = c_
            break
        fill = max(0.45, fill - 0.03)
    assert cam is not None
    uv, _ = cam.project(outline)
    V.update(size=[w, h], hfov_deg=math.degrees(hfov), tilt_deg=math.degrees(tilt), azimuth_deg=math.degrees(azim),
             roll_deg=math.degrees(roll), k1=k1, k2=k2, board_fill_short_side=board_fill(uv, h),
             board_bbox_height_frac=(uv[:, 1].max() - uv[:, 1].min()) / h,
             camera_height_cells=cam.C[2])

    # bump
    bump_px = rng.uniform(3, 0.02 * w)
    ba = rng.uniform(0, 2 * math.pi)
    bump_ang = np.array([bump_px * math.sin(ba) / f, -bump_px * math.cos(ba) / f,
                         rng.uniform(-1, 1) * min(math.radians(0.6), bump_px / (0.6 * w))])
    cam2 = cam.bumped(bump_ang, 1.0)
    uv2, _ = cam2.project(outline)
    V["bump_px"] = bump_px
    V["bump_rot_deg"] = np.degrees(bump_ang)

    # ---------------- light
    lel = math.radians(rng.uniform(48, 75))
    laz = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(lel) * math.cos(laz), math.cos(lel) * math.sin(laz), math.sin(lel)])
    G = dict(geo=geo, light=light)
    G["ill_base"] = 1.0
    G["ill_g"] = rng.uniform(-0.15, 0.15, 2)
    G["spot_c"] = rng.uniform(-8, 8, 2)
    G["spot_r"] = rng.uniform(20, 40)
    G["spot_k"] = rng.uniform(0, 0.25)
    G["glare_k"] = rng.uniform(0, 0.16) if rng.random() < 0.6 else 0.0
    G["glare_n"] = rng.uniform(25, 120)
    V.update(light_elev_deg=math.degrees(lel), light_az_deg=math.degrees(laz), glare=G["glare_k"])

    # ---------------- textures
    px_unit = f / np.linalg.norm(cam.C)  # camera pixels per cell width near the board centre
    ppu = int(np.clip(round(2.0 * px_unit), 48, 110))
    G["ppu"] = ppu
    t0 = time.time()
    board_tex = make_board_texture(rng, geo, ppu, V)
    ba_ = np.ones(board_tex.shape[:2], np.float32)
    G["board_alpha"] = np.pad(ba_, 0)
    # visible world extent, both poses
    bu_ = np.concatenate([np.linspace(0, w - 1, 40), np.full(40, w - 1), np.linspace(w - 1, 0, 40), np.zeros(40)])
    bv_ = np.concatenate([np.zeros(40), np.linspace(0, h - 1, 40), np.full(40, h - 1), np.linspace(h - 1, 0, 40)])
    pts = []
    for c_ in (cam, cam2):
        X, Y, _ = c_.ground(bu_, bv_)
        pts.append(np.stack([X, Y], 1))
    pts = np.concatenate(pts)
    vis_lo, vis_hi = pts.min(0) - 1, pts.max(0) + 1
    if rng.random() < 0.3:  # a table whose edge may show
        half = np.array([geo["W"], geo["H"]]) / 2 + rng.uniform(6, 16, 2)
        trect = (-half[0] + rng.uniform(-1, 1), half[0] + rng.uniform(-1, 1), -half[1] + rng.uniform(-1, 1),
                 half[1] + rng.uniform(-1, 1))
        V["table_edge"] = True
    else:
        trect = (vis_lo[0] - 5, vis_hi[0] + 5, vis_lo[1] - 5, vis_hi[1] + 5)
        V["table_edge"] = False
    G["table_rect"] = trect
    G["floor"] = np.array([60, 50, 45]) * rng.uniform(0.5, 1.4)
    ext_lo = np.maximum(vis_lo, [trect[0] - 1, trect[2] - 1])
    ext_hi = np.minimum(vis_hi, [trect[1] + 1, trect[3] + 1])
    rot = rng.uniform(0, math.pi)
    G["tab_rot"] = rot
    ca, sa = math.cos(rot), math.sin(rot)
    corners = np.array([[ext_lo[0], ext_lo[1]], [ext_lo[0], ext_hi[1]], [ext_hi[0], ext_lo[1]], [ext_hi[0], ext_hi[1]]])
    mc = np.stack([ca * corners[:, 0] + sa * corners[:, 1], -sa * corners[:, 0] + ca * corners[:, 1]], 1)
    m0, m1 = mc.min(0), mc.max(0)
    extent = (m1 - m0).max()
    tpu = float(min(1.1 * px_unit, 2000.0 / extent))
    G["tpu"], G["tab_m0"] = tpu, m0
    tw_, th_ = int((m1 - m0)[0] * tpu) + 2, int((m1 - m0)[1] * tpu) + 2
    G["table_tex"] = make_table_texture(rng, th_, tw_, tpu, V)
    t_tex = time.time() - t0

    # ---------------- chips
    chip_rgb = {}
    for T in teams:
        lo_, hi_ = CHIP_RANGES[T]
        s = rng.uniform(0, 1)
        chip_rgb[T] = tuple(np.clip(np.array(lo_) + s * (np.array(hi_) - np.array(lo_)) + rng.normal(0, 8, 3), 0, 255))
    chip_frac = rng.uniform(0.7, 0.85)
    chip_R = chip_frac / 2
    ring = bool(rng.random() < 0.6)
    V.update(chip_rgb=chip_rgb, chip_diam_cells=chip_frac, chip_ring=ring)
    l_t = np.array([light[0], -light[1]])
    l_t /= np.linalg.norm(l_t)
    away = np.array([-cam.C[0], -cam.C[1]])
    away_t = np.array([away[0], -away[1]]) / (np.linalg.norm(away) + 1e-9) * min(1.0, np.linalg.norm(away[:2]) / cam.C[2])
    thick = 0.075
    sprites = {T: chip_sprite(chip_rgb[T], chip_R * ppu, l_t, away_t, thick * ppu, thick * ppu / math.tan(lel) + 0.02 * ppu,
                              ring) for T in teams}

    def chip_pos(cellno, st):
        r, c = divmod(cellno, 10)
        x, y = cell_center(geo, r, c)
        return x + st[1], y + st[2]

    def board_state_tex(chips):
        tex = board_tex.astype(np.float32)
        for cn in sorted(chips):
            st = chips[cn]
            x, y = chip_pos(cn, st)
            u = (x + geo["W"] / 2) * ppu - 0.5
            v = (geo["H"] / 2 - y) * ppu - 0.5
            paste_chip(tex, sprites[st[0]], u, v, st[3])
        blur = max(0.5, 0.45 * ppu / px_unit)
        tex = cv2.GaussianBlur(tex, (0, 0), blur)
        return np.clip(tex, 0, 255).astype(np.uint8)

    def new_chip(T):
        rr = rng.uniform(0, 0.12)
        aa = rng.uniform(0, 2 * math.pi)
        return [T, rr * math.cos(aa), rr * math.sin(aa), float(rng.uniform(0.95, 1.05))]

    chips = {i: new_chip(plan["start"][i]) for i in range(100) if plan["start"][i] in "BGR"}

    # ---------------- players
    # seats: players sit just beyond the frame edges nearest to the board (their arms come in from there)
    ctr, _ = cam.project([[0, 0, 0]])
    edges = {"top": (ctr[0][0], 0.0), "bottom": (ctr[0][0], h - 1.0), "left": (0.0, ctr[0][1]), "right": (w - 1.0, ctr[0][1])}
    edist, edir = {}, {}
    for k_, (eu, ev) in edges.items():
        X_, Y_, _ = cam.ground(np.array([eu]), np.array([ev]))
        X2, Y2, _ = cam2.ground(np.array([eu]), np.array([ev]))
        p_ = np.array([X_[0], Y_[0]])
        p2 = np.array([X2[0], Y2[0]])
        edist[k_] = max(np.linalg.norm(p_), np.linalg.norm(p2))
        edir[k_] = p_ / np.linalg.norm(p_)
    pairs = [("top", "bottom"), ("left", "right")]
    pair = min(pairs, key=lambda p: edist[p[0]] + edist[p[1]])
    other = [e_ for e_ in edges if e_ not in pair]
    seat_edges = list(pair)
    if rng.random() < 0.5:
        seat_edges = seat_edges[::-1]
    if nt == 3:
        seat_edges.insert(int(rng.integers(0, 3)), min(other, key=lambda e_: edist[e_] + rng.uniform(0, 3)))
    players = {}
    skin_idx = rng.permutation(len(SKINS))
    for i, T in enumerate(teams):
        ek = seat_edges[i]
        ang = math.atan2(edir[ek][1], edir[ek][0]) + rng.normal(0, 0.2)
        u_seat = np.array([math.cos(ang), math.sin(ang)])
        lat = np.array([-u_seat[1], u_seat[0]]) * rng.uniform(-3, 3)
        sh_xy = u_seat * (edist[ek] / max(0.3, abs(np.dot(u_seat, edir[ek]))) + rng.uniform(3.0, 5.0)) + lat
        skin = np.clip(np.array(SKINS[skin_idx[i]]) * rng.uniform(0.92, 1.06) + rng.normal(0, 4, 3), 0, 255)
        shirt = tuple(np.clip(np.array(SLEEVES[int(rng.integers(len(SLEEVES)))]) * rng.uniform(0.85, 1.1), 0, 255))
        players[T] = dict(shoulder=np.array([sh_xy[0], sh_xy[1], rng.uniform(7.5, 10.0)]), u_seat=u_seat,
                          skin=tuple(skin), shirt=shirt,
                          sleeve=str(rng.choice(["long", "short", "none"], p=[0.5, 0.35, 0.15])),
                          sleeve_start=float(rng.uniform(0.05, 0.6)), cuff_k=float(rng.choice([0.75, 0.9, 1.15])),
                          sgn=1 if rng.random() < 0.85 else -1, scale=float(rng.uniform(1.25, 1.45)),
                          girth=float(rng.uniform(0.9, 1.12)), bright=float(rng.uniform(0.95, 1.05)),
                          chip_r=chip_R * 0.95, side=ek)
    V["players"] = {T: dict(frame_edge=p["side"], skin_rgb=p["skin"], sleeve=p["sleeve"], shirt_rgb=p["shirt"],
                            left_handed=p["sgn"] < 0) for T, p in players.items()}

    hr = HandRenderer(cam, light, px_unit, float(rng.uniform(0.3, 0.5)))
    hr2 = HandRenderer(cam2, light, px_unit, hr.shadow_k)
    for T, pl in players.items():  # the body must stay out of the frame while the arm is pulled back
        for _ in range(40):
            S = pl["shoulder"]
            xy = S[:2] - pl["u_seat"] * 3.0
            psi = math.atan2(-pl["u_seat"][1], -pl["u_seat"][0])
            hs = (xy[0], xy[1], 3.0, psi, 1.0, None, S)
            if not (hr.visible(hs, pl, True) or hr2.visible(hs, pl, True)):
                break
            pl["shoulder"] = S + np.array([pl["u_seat"][0], pl["u_seat"][1], 0.0])

    # ---------------- motion plan
    def psi_at(pl, xy):
        d = xy - pl["shoulder"][:2]
        return math.atan2(d[1], d[0])

    def out_distance(P, u, pl, z, psi):
        """Smallest distance along u from P at which the hand is invisible in both poses."""
        def vis(D):
            xy = P + u * D
            hs = (xy[0], xy[1], z, psi, 1.0, (0, 0, 0), pl["shoulder"])
            return hr.visible(hs, pl) or hr2.visible(hs, pl)
        D = 2.0
        while vis(D) and D < 200:
            D *= 1.3
        lo, hi = D / 1.3, D
        for _ in range(8):
            mid = 0.5 * (lo + hi)
            if vis(mid):
                lo = mid
            else:
                hi = mid
        return hi + 0.4

    motions = []
    tcur = float(rng.uniform(1.2, 2.3))
    for mv in plan["moves"]:
        pl = players[mv["team"]]
        r, c = divmod(mv["cell"], 10)
        if mv["kind"] == "place":
            chips_new = new_chip(mv["team"])
        else:
            chips_new = None
        mo = dict(mv=mv, pl=pl, Ts=tcur, newchip=chips_new)
        mo["T_app"] = float(rng.uniform(0.9, 1.4))
        mo["T_down"] = float(rng.uniform(0.18, 0.3))
        mo["T_hold"] = float(rng.uniform(0.25, 0.4))
        mo["T_up"] = float(rng.uniform(0.18, 0.3))
        mo["T_wd"] = float(rng.uniform(0.8, 1.25))
        mo["zt"] = float(rng.uniform(1.5, 3.0))
        mo["zh"] = float(rng.uniform(0.7, 1.3))
        mo["zp"] = 0.12
        mo["arc_in"] = float(rng.normal(0, 0.8))
        mo["arc_out"] = float(rng.normal(0, 0.8))
        mo["rot_out"] = float(rng.normal(0, 0.15))
        mo["wob"] = (float(rng.uniform(0.01, 0.04)), float(rng.uniform(2, 5)), float(rng.uniform(0, 6.28)))
        mo["nudge"] = None
        if rng.random() < 0.15:
            mo["nudge"] = dict(ang=float(rng.uniform(0, 2 * math.pi)), mag=float(rng.uniform(0.03, 0.08)),
                               pick=float(rng.random()))
        mo["tot"] = mo["T_app"] + mo["T_down"] + mo["T_hold"] + mo["T_up"] + mo["T_wd"]
        mo["quiet"] = float(rng.uniform(0.85, 1.45))  # quiet board before this move (exact, set while rendering)
        mo["Te"] = tcur + mo["tot"]
        motions.append(mo)
        tcur = mo["Te"] + 1.2
    tail = float(rng.uniform(2.6, 3.4))
    T_end = motions[-1]["Te"] + tail  # estimate, only scales the exposure drift
    # bump: anchored to a move (times are fixed only while rendering); half the time in a quiet spell
    M = len(motions)
    bump_plan = dict(kind="during", j=int(rng.integers(M)), u=float(rng.uniform(0.05, 0.95)))
    if rng.random() < 0.5:
        j = int(rng.integers(-1, M))
        bump_plan = dict(kind="start", u=float(rng.random())) if j < 0 else dict(kind="after", j=j, u=float(rng.random()))
    V["bump_plan"] = bump_plan
    if bump_plan["kind"] == "start":
        bump_f0 = int(math.ceil(FPS * (1.0 + bump_plan["u"] * max(0.0, motions[0]["Ts"] - 1.4))))
    else:
        bump_f0 = None
    nb = int(rng.integers(2, 4))
    alphas = [0.45, 1.0] if nb == 2 else [0.25, 0.7, 1.0]
    alphas = [a * (1 + rng.normal(0, 0.05)) for a in alphas[:-1]] + [1.0]

    # ---------------- per-frame global effects
    Pe, Pw = rng.uniform(15, 50), rng.uniform(20, 60)
    ae, aw = rng.uniform(0.02, 0.07), rng.uniform(0.01, 0.035, 3)
    phe, phw = rng.uniform(0, 6.28), rng.uniform(0, 6.28, 3)
    drift_lin = rng.uniform(-0.06, 0.06)
    wb0 = np.array([1 + rng.normal(0, 0.04), 1.0, 1 + rng.normal(0, 0.04)])  # B, G, R gains
    gamma = rng.uniform(0.9, 1.1)
    e0 = rng.uniform(0.9, 1.1)
    sigma_blur = rng.uniform(0.4, 0.9)
    nsig = rng.uniform(1.5, 4.5)
    V.update(exposure_amp=ae, wb_amp=aw, blur_sigma=sigma_blur, noise_sigma=nsig, gamma=gamma)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rr2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    vk = rng.uniform(0.1, 0.35)
    vig = np.clip(255 * (1 - vk * rr2), 0, 255).astype(np.uint8)
    vig = cv2.merge([vig, vig, vig])
    bank = []
    for _ in range(5):
        n = rng.normal(0, nsig, (h, w, 1)).astype(np.float32) + rng.normal(0, nsig * 0.5, (h, w, 3)).astype(np.float32)
        bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    ar = np.arange(256, dtype=np.float32) / 255.0

    def effects(frame, t, extra_blur=0.0):
        fr = cv2.GaussianBlur(frame, (0, 0), sigma_blur + extra_blur)
        fr = cv2.multiply(fr, vig, scale=1 / 255.0)
        e = e0 * (1 + ae * math.sin(2 * math.pi * t / Pe + phe) + drift_lin * t / T_end)
        g = e * wb0 * (1 + aw * np.sin(2 * math.pi * t / Pw + phw))
        lut = np.clip(255 * (ar[:, None] ** gamma) * g[None, :], 0, 255).astype(np.uint8).reshape(256, 1, 3)
        fr = cv2.LUT(fr, lut)
        k = int(rng.integers(len(bank)))
        fr = cv2.add(fr, bank[k][0])
        fr = cv2.subtract(fr, bank[k][1])
        return fr

    # ---------------- render
    scenes = {"a": Scene(cam, G), "b": Scene(cam2, G)}
    t_setup = time.time() - t_start
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, f"game_{index:03d}")
    vw = cv2.VideoWriter(base + ".mp4", cv2.VideoWriter_fourcc(*"mp4v"), FPS, (w, h))
    state_ver = 0
    tex_cache = {"ver": -1, "tex": None}
    mi = 0
    events = []
    nudges = []
    grid = list(plan["start"])
    rec = [dict(hand_in=None, off=None, lift_done=False, nudged=False) for _ in motions]

    def hand_state(mo, t):
        tau = t - mo["Ts"]
        a1 = mo["T_app"]
        a2 = a1 + mo["T_down"]
        a3 = a2 + mo["T_hold"]
        a4 = a3 + mo["T_up"]
        a5 = a4 + mo["T_wd"]
        if tau < 0 or tau > a5:
            return None, None
        P = mo["P"]
        pl = mo["pl"]
        placing = mo["mv"]["kind"] == "place"
        team_col = chip_rgb[mo["mv"]["team"] if placing else mo["mv"].get("victim", "B")]
        wa, wf, wp = mo["wob"]
        wob = np.array([math.sin(wf * t + wp), math.cos(1.3 * wf * t + wp)]) * wa
        if tau < a1:
            s = min_jerk(tau / a1)
            u = mo["u_in"]
            xy = mo["Pin"] + (P - mo["Pin"]) * s + np.array([-u[1], u[0]]) * mo["arc_in"] * math.sin(math.pi * s)
            z = mo["zt"] + (mo["zh"] - mo["zt"]) * s
            op = 1 - s
            phase = "in"
        elif tau < a2:
            s = min_jerk((tau - a1) / mo["T_down"])
            xy, z, op, phase = P, mo["zh"] + (mo["zp"] - mo["zh"]) * s, 0.0, "down"
        elif tau < a3:
            xy, z, op, phase = P, mo["zp"], 0.0, "hold"
        elif tau < a4:
            s = min_jerk((tau - a3) / mo["T_up"])
            xy, z, op, phase = P, mo["zp"] + (mo["zh"] - mo["zp"]) * s, 0.0, "up"
        else:
            s = min_jerk((tau - a4) / mo["T_wd"])
            u = mo["u_out"]
            xy = P + (mo["Pout"] - P) * s + np.array([-u[1], u[0]]) * mo["arc_out"] * math.sin(math.pi * s)
            z = mo["zh"] + (mo["zt"] - mo["zh"]) * s
            op = s * 0.6
            phase = "out"
        if phase in ("in", "out"):
            xy = xy + wob
        psi = mo["psi"] + 0.08 * math.sin(0.7 * wf * t + wp)
        carry = None
        if placing and phase in ("in", "down", "hold") and pl.get("show_chip", True):
            carry = team_col
        if not placing and phase in ("up", "out"):
            carry = team_col
        return (xy[0], xy[1], z, psi, op, carry, pl["shoulder"]), phase

    def prepare(mo):
        mv = mo["mv"]
        pl = mo["pl"]
        if mv["kind"] == "place":
            r, c = divmod(mv["cell"], 10)
            mo["P"] = np.array(cell_center(geo, r, c)) + np.array(mo["newchip"][1:3])
        else:
            mo["P"] = np.array(chip_pos(mv["cell"], chips[mv["cell"]]))
        P = mo["P"]
        u = pl["shoulder"][:2] - P
        u = u / np.linalg.norm(u)
        ro = mo["rot_out"]
        u2 = np.array([u[0] * math.cos(ro) - u[1] * math.sin(ro), u[0] * math.sin(ro) + u[1] * math.cos(ro)])
        mo["u_in"], mo["u_out"] = u, u2
        mo["psi"] = psi_at(pl, P)
        mo["Pin"] = P + u * out_distance(P, u, pl, mo["zt"], mo["psi"])
        mo["Pout"] = P + u2 * out_distance(P, u2, pl, mo["zt"], mo["psi"])

    for mo in motions:
        pl = mo["pl"]
        pl.setdefault("show_chip", bool(rng.random() < 0.7))
    V["players_show_chip_in_hand"] = {T: p.get("show_chip", True) for T, p in players.items()}

    def first_visible_offset(mo):
        Ts0 = mo["Ts"]
        mo["Ts"] = 0.0
        d_in = mo["T_app"]
        for tau in np.arange(0.0, mo["T_app"], 0.02):
            hs_, _ = hand_state(mo, float(tau))
            if hr.visible(hs_, mo["pl"]) or hr2.visible(hs_, mo["pl"]):
                d_in = float(tau)
                break
        mo["Ts"] = Ts0
        return d_in

    prepared = {0}
    prepare(motions[0])
    if bump_plan["kind"] == "during" and bump_plan["j"] == 0:
        bump_f0 = int(math.ceil(FPS * (motions[0]["Ts"] + bump_plan["u"] * motions[0]["tot"])))
    scheduled = 1
    N = None
    frames_hand = 0
    t_render0 = time.time()
    fi = -1
    while N is None or fi + 1 < N:
        fi += 1
        t = fi / FPS
        # when the last scheduled move has ended, fix the next move's start: exact quiet gap
        k = scheduled - 1
        if t > motions[k]["Te"] + 1e-6 and not rec[k].get("end_done"):
            rec[k]["end_done"] = True
            lv = rec[k]["last_vis"]
            if scheduled < M:
                nxt = motions[scheduled]
                prepare(nxt)
                prepared.add(scheduled)
                d_in = first_visible_offset(nxt)
                Ts = max(t, (lv + 1) / FPS + nxt["quiet"] - d_in)
                nxt["Ts"], nxt["Te"] = Ts, Ts + nxt["tot"]
                scheduled += 1
                if bump_plan["kind"] == "after" and bump_plan["j"] == k:
                    fvis = int(math.ceil((Ts + d_in) * FPS))
                    bump_f0 = fi + int(bump_plan["u"] * max(0, fvis - 4 - fi))
                if bump_plan["kind"] == "during" and bump_plan["j"] == scheduled - 1:
                    bump_f0 = int(math.ceil(FPS * (Ts + bump_plan["u"] * nxt["tot"])))
            else:
                N = lv + 1 + int(math.ceil(tail * FPS))
                if bump_plan["kind"] == "after" and bump_plan["j"] == k:
                    bump_f0 = fi + int(bump_plan["u"] * max(0, N - 15 - fi))
        # camera pose
        if bump_f0 is None or fi < bump_f0:
            sc, hrr, key_pose = scenes["a"], hr, "a"
        elif fi < bump_f0 + len(alphas) - 1:
            al = alphas[fi - bump_f0]
            sc, key_pose = Scene(cam.bumped(bump_ang, al), G), f"t{fi}"
            hrr = HandRenderer(sc.cam, light, px_unit, hr.shadow_k)
        else:
            sc, hrr, key_pose = scenes["b"], hr2, "b"
        # active motion and state changes
        active = None
        for k in range(mi, scheduled):
            mo = motions[k]
            if mo["Ts"] - 0.001 <= t <= mo["Te"] + 0.001:
                active = k
                break
            if mo["Ts"] > t:
                break
        if active is not None:
            mo = motions[active]
            if active not in prepared:
                prepare(mo)
                prepared.add(active)
            hs, phase = hand_state(mo, t)
            tau = t - mo["Ts"]
            a2 = mo["T_app"] + mo["T_down"]
            if mo["nudge"] and not rec[active]["nudged"] and tau >= a2 + 0.05:
                rec[active]["nudged"] = True
                tc = mo["mv"]["cell"]
                r0, c0 = divmod(tc, 10)
                nb_ = [rr * 10 + cc for rr in range(r0 - 1, r0 + 2) for cc in range(c0 - 1, c0 + 2)
                       if 0 <= rr < 10 and 0 <= cc < 10 and rr * 10 + cc != tc and rr * 10 + cc in chips]
                if nb_:
                    nc = nb_[int(mo["nudge"]["pick"] * len(nb_))]
                    dx = mo["nudge"]["mag"] * math.cos(mo["nudge"]["ang"])
                    dy = mo["nudge"]["mag"] * math.sin(mo["nudge"]["ang"])
                    chips[nc][1] += dx
                    chips[nc][2] += dy
                    state_ver += 1
                    nudges.append(dict(t=round(t, 2), cell=[nc // 10, nc % 10], dx_cells=dx, dy_cells=dy))
            if phase in ("up", "out") and not rec[active]["lift_done"]:
                rec[active]["lift_done"] = True
                mv = mo["mv"]
                if mv["kind"] == "place":
                    chips[mv["cell"]] = mo["newchip"]
                    grid[mv["cell"]] = mv["team"]
                else:
                    del chips[mv["cell"]]
                    grid[mv["cell"]] = "."
                state_ver += 1
        if tex_cache["ver"] != state_ver:
            tex_cache["tex"] = board_state_tex(chips)
            tex_cache["ver"] = state_ver
        frame = sc.base((state_ver, key_pose), tex_cache["tex"]).copy()
        if active is not None and hs is not None:
            frames_hand += 1
            vis, over = hrr.render(frame, hs, mo["pl"], sc.board_mask)
            if os.environ.get("SEQ_DEBUG") and active == int(os.environ["SEQ_DEBUG"]):
                dd = [float(hrr.cam.project(P)[1].min()) for _, P, *_ in hand_world(hs, mo["pl"])]
                print(fi, phase, np.round(hs[:4], 2), np.round(hs[6], 1), "depth", np.round(dd, 1), vis, over, "cam", np.round(hrr.cam.C, 1))
            r_ = rec[active]
            if vis and r_["hand_in"] is None:
                r_["hand_in"] = fi
            if r_["lift_done"] and r_["off"] is None and not over and r_["hand_in"] is not None:
                r_["off"] = fi
            if vis:
                r_["last_vis"] = fi
        if active is not None:
            mi = active
        extra = 0.6 if bump_f0 is not None and bump_f0 <= fi < bump_f0 + len(alphas) - 1 else 0.0
        vw.write(effects(frame, t, extra))
    vw.release()
    t_render = time.time() - t_render0

    # ---------------- labels
    for k, mo in enumerate(motions):
        r_ = rec[k]
        assert r_["hand_in"] is not None, (k, r_)
        if r_["off"] is None:  # over the board until it left the frame
            r_["off"] = r_["last_vis"] + 1
        mv = mo["mv"]
        tt, ti = round(r_["off"] / FPS, 2), round(r_["hand_in"] / FPS, 2)
        rc = [mv["cell"] // 10, mv["cell"] % 10]
        events.append(dict(t=tt, hand_in_t=ti, type="placed" if mv["kind"] == "place" else "removed",
                           team=mv["team"] if mv["kind"] == "place" else mv["victim"],  # a removal: whose chip, as seqcam tells it
                           cell=rc, cells=None))
        for w_ in mv["seqs"]:
            events.append(dict(t=tt, hand_in_t=ti, type="sequence", team=mv["team"], cell=None,
                               cells=[[x // 10, x % 10] for x in w_]))
        if mv["winner"]:
            events.append(dict(t=tt, hand_in_t=ti, type="winner", team=mv["team"], cell=None, cells=None))
        mo_stats = dict(last_visible_t=round(r_.get("last_vis", 0) / FPS, 2))
        V.setdefault("hand_leaves_frame_t", []).append(mo_stats["last_visible_t"])
    assert "".join(grid) == "".join(plan["final"])
    assert judge_g(grid, nt).sequences == judge_g(plan["final"], nt).sequences
    V["nudges"] = nudges
    V["bump_frames"] = len(alphas)
    V["cell_centres_px_before_bump"] = [[round(float(x), 1) for x in cam.project([[*cell_center(geo, i // 10, i % 10), 0]])[0][0]]
                                        for i in range(100)]
    V["cell_centres_px_after_bump"] = [[round(float(x), 1) for x in cam2.project([[*cell_center(geo, i // 10, i % 10), 0]])[0][0]]
                                       for i in range(100)]
    V["render_seconds"] = round(time.time() - t_start, 2)
    V["setup_seconds"] = round(t_setup, 2)
    V["texture_seconds"] = round(t_tex, 2)
    lab = {"size": [w, h], "fps": FPS, "frames": N, "teams": nt, "players": nt,
           "start_grid": rows_of(plan["start"]), "final_grid": rows_of(grid), "events": events,
           "bumps": [round(bump_f0 / FPS, 2)], "seed": seed, "index": index, "varied": jsonable(V)}
    with open(base + ".json", "w") as fh:
        json.dump(lab, fh, indent=1)
    log(f"game_{index:03d}: {w}x{h} teams={nt} moves={len(motions)} frames={N} seqs="
        f"{sum(e['type'] == 'sequence' for e in events)} winner={[e['team'] for e in events if e['type'] == 'winner']} "
        f"time={time.time() - t_start:.1f}s (setup {t_setup:.1f}, render {t_render:.1f})")
    return lab


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", type=int, default=None)
    a = ap.parse_args()
    idx = [a.only] if a.only is not None else range(a.n)
    for i in idx:
        render_game(a.outdir, a.seed, i)


if __name__ == "__main__":
    main()
