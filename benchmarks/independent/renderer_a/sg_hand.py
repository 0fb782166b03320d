"""A hand + forearm reaching over the table, modelled as sphere-swept parts in 3-D,
projected through the camera, shaded from a distance transform, with a soft cast shadow."""
import numpy as np
import cv2

AA, SH, S1 = cv2.LINE_AA, 4, 16
SKIN = [(255, 224, 196), (241, 194, 160), (228, 175, 135), (205, 145, 105), (170, 115, 80), (140, 92, 62),
        (110, 70, 48), (80, 52, 38)]
SLEEVES = [(30, 30, 35), (200, 200, 205), (40, 60, 120), (150, 30, 40), (60, 90, 60), (230, 220, 200),
           (90, 70, 120), (200, 120, 40), (110, 110, 115)]


def _rot(v, axis, ang):
    axis = axis / np.linalg.norm(axis)
    return v * np.cos(ang) + np.cross(axis, v) * np.sin(ang) + axis * axis.dot(v) * (1 - np.cos(ang))


def _sweep(P0, P1, r0, r1, step=0.3):
    L = np.linalg.norm(P1 - P0)
    n = max(2, int(np.ceil(L / (step * min(r0, r1)))) + 1)
    t = np.linspace(0, 1, n)[:, None]
    return P0 + t * (P1 - P0), (r0 + t[:, 0] * (r1 - r0))


class Part:
    def __init__(self, name, C, r, color, kind='skin', nail=None):
        self.name, self.C, self.r, self.color, self.kind, self.nail = name, C, r, color, kind, nail


def build_arm(rng, cam, target, floor_h, extra_info):
    """target: world point (on the board/table) below the middle fingertip; floor_h: height of
    the surface under the hand (cm). Returns list of Parts (world cm) or None."""
    s = rng.uniform(0.88, 1.12)
    handed = rng.choice([-1.0, 1.0])
    psi = rng.uniform(0, 2 * np.pi)
    alpha = np.radians(rng.uniform(5, 28))
    a = np.array([np.cos(psi) * np.cos(alpha), np.sin(psi) * np.cos(alpha), np.sin(alpha)])
    up = np.array([0, 0, -1.0])
    n = up - up.dot(a) * a
    n /= np.linalg.norm(n)
    b = np.cross(a, n) * handed
    rho = np.radians(rng.uniform(-25, 25))
    n, b = _rot(n, a, rho), _rot(b, a, rho)
    skin = np.asarray(SKIN[rng.integers(len(SKIN))], np.float32) * rng.uniform(0.93, 1.05, 3)
    skin = np.clip(skin, 0, 255) / 255
    pose = rng.choice(['flat', 'relaxed', 'pinch', 'point'], p=[0.25, 0.4, 0.2, 0.15])

    def Lc(A, B, N):
        return A * a + B * b + N * n        # relative to the wrist

    parts = []
    # palm: a rounded slab, rendered as the convex hull of its projected top/bottom outlines
    outl = [(0.3, -2.7), (0.3, 2.7), (2.5, 3.6), (5.5, 4.1), (8.3, 4.1), (9.0, 3.2), (9.3, 1.0), (9.3, -1.0),
            (9.0, -3.3), (7.5, -4.3), (4.5, -4.5), (2.0, -3.7)]
    C = [Lc(A * s, B * s, N * s) for A, B in outl for N in (1.0, -1.2)]
    C.append(Lc(4.5 * s, 0, 1.5 * s))
    parts.append(Part('palm', np.array(C), np.full(len(C), 1.4 * s), skin, kind='hull'))
    # fingers
    curl = {'flat': (2, 14), 'relaxed': (10, 30), 'pinch': (25, 50), 'point': (45, 75)}[pose]
    kw = 8.0 * s
    for i, (bb, nn, ln, rb, sp) in enumerate(zip([-2.75, -0.92, 0.92, 2.7], [0, 0.15, 0.05, -0.15],
                                                [7.2, 8.0, 7.5, 6.0], [0.98, 1.0, 0.93, 0.83],
                                                [-7, -2, 3, 9])):
        P = Lc(8.6 * s, bb * s * kw / (8 * s), nn * s)
        d = _rot(a, n, np.radians(-(sp + rng.normal(0, 3)) * handed))
        fn = n.copy()
        c_rng = (0, 8) if (pose == 'point' and i == 0) else curl
        if pose == 'pinch' and i == 0:
            c_rng = (15, 35)
        C, R = [], []
        for k, (fl, rf) in enumerate(zip([0.45, 0.31, 0.24], [1.0, 0.86, 0.76])):
            c = np.radians(rng.uniform(*c_rng))
            lat = np.cross(d, fn)
            d, fn = _rot(d, lat, -c), _rot(fn, lat, -c)
            r0 = rb * s * rf
            P1 = P + d * ln * s * fl
            cc, rr = _sweep(P, P1, r0, r0 * 0.92)
            C.append(cc)
            R.append(rr)
            P = P1
        C, R = np.vstack(C), np.concatenate(R)
        parts.append(Part('finger%d' % i, C, R, skin * np.array([1.0, 0.97, 0.97]),
                          nail=(C[-1], R[-1], d, fn)))
        if i == 1:
            tip_mid = P
    # thumb
    P = Lc(1.6 * s, -2.7 * s, -0.6 * s)
    d = 0.6 * a - 0.65 * b - 0.35 * n
    d /= np.linalg.norm(d)
    tn = np.cross(d, a)
    tn = tn if tn.dot(n) > 0 else -tn
    C, R = [Lc(3.0 * s, -2.2 * s, -0.4 * s)[None]], [np.array([1.7 * s])]
    bend = (10, 25) if pose != 'pinch' else (20, 40)
    for fl, r0, r1 in [(4.4, 1.45, 1.2), (3.2, 1.1, 0.98), (2.6, 0.96, 0.85)]:
        P1 = P + d * fl * s
        cc, rr = _sweep(P, P1, r0 * s, r1 * s)
        C.append(cc)
        R.append(rr)
        P = P1
        d = _rot(d, np.cross(d, a) + 1e-6, -np.radians(rng.uniform(*bend)))
    parts.append(Part('thumb', np.vstack(C), np.concatenate(R), skin, nail=(C[-1][-1], R[-1][-1], d, tn)))
    # forearm + upper arm (in world, relative to the wrist)
    h = np.array([np.cos(psi), np.sin(psi), 0.0])
    beta = np.radians(rng.uniform(5, 25))
    E = -26 * s * h * np.cos(beta) + 26 * s * np.sin(beta) * up
    gamma = np.radians(rng.uniform(15, 40))
    U = E - 30 * s * h * np.cos(gamma) + 30 * s * np.sin(gamma) * up
    U2 = U - 12 * s * h * np.cos(gamma) + 12 * s * np.sin(gamma) * up      # a bit past the shoulder
    fa, fr = _sweep(Lc(0.8 * s, 0, 0), E, 2.6 * s, 3.8 * s)
    ua, ur = _sweep(E, U2, 3.9 * s, 4.6 * s)
    arm_C, arm_R = np.vstack([fa, ua]), np.concatenate([fr, ur])
    dist_back = np.concatenate([np.linalg.norm(fa - fa[0], axis=1),
                                26 * s + np.linalg.norm(ua - E, axis=1)])
    sl = rng.choice(['none', 'cuff', 'short'], p=[0.3, 0.45, 0.25])
    start = {'none': 1e9, 'cuff': rng.uniform(2, 9), 'short': rng.uniform(18, 30)}[sl]
    sleeve_col = np.asarray(SLEEVES[rng.integers(len(SLEEVES))], np.float32) / 255
    bare = dist_back < start
    if bare.any():
        parts.append(Part('forearm', arm_C[bare], arm_R[bare], skin * 0.97))
    if (~bare).any():
        parts.append(Part('sleeve', arm_C[~bare], arm_R[~bare] + rng.uniform(0.4, 1.2), sleeve_col, kind='sleeve'))
    # place: middle fingertip above target
    h_tip = rng.uniform(0.8, 5.0)
    O = np.asarray(target, float) - tip_mid + np.array([0, 0, -(floor_h + h_tip)])
    for p in parts:
        p.C = p.C + O
        if p.nail is not None:
            p.nail = (p.nail[0] + O,) + p.nail[1:]
    # no part may go through the surface
    low = min(((-p.C[:, 2]) - p.r).min() for p in parts)
    if low < floor_h + 0.3:
        lift = floor_h + 0.3 - low
        for p in parts:
            p.C[:, 2] -= lift
            if p.nail is not None:
                p.nail = (p.nail[0] - np.array([0, 0, lift]),) + p.nail[1:]
    extra_info.update(hand_pose=str(pose), skin_rgb=[int(v * 255) for v in skin], sleeve=str(sl),
                      handed='right' if handed > 0 else 'left', arm_yaw_deg=float(np.degrees(psi)),
                      hand_scale=float(s), fingertip_height_cm=float(h_tip))
    return parts


def render_hand(rng, cam, parts, L, k):
    """Render at 1/k resolution. Returns (rgb premultiplied, alpha) at that resolution."""
    W, H = cam.W // k, cam.H // k
    rgb = np.zeros((H, W, 3), np.float32)
    alp = np.zeros((H, W), np.float32)
    # image direction of the light
    c0 = np.mean(parts[0].C, 0)
    p0, _ = cam.project(c0)
    p1, _ = cam.project(c0 + L * 5)
    limg = p1 - p0
    limg = limg / (np.linalg.norm(limg) + 1e-9)
    order = []
    for p in parts:
        P, z = cam.project(p.C)
        ok = z > 6
        if not ok.any():
            continue
        rp = cam.f * p.r[ok] / z[ok] / k
        P = (P[ok] + 0.5) / k - 0.5
        order.append((float(np.mean(z[ok])), p, P, rp))
    # the arm (and sleeve) first so the palm covers the wrist end; the rest back to front
    order.sort(key=lambda t: (t[1].name not in ('forearm', 'sleeve'), -t[0]))
    for depth, p, P, rp in order:
        if p.kind == 'hull':
            rp = rp * 0 + 1
        x0, y0 = int(np.floor((P[:, 0] - rp).min())) - 2, int(np.floor((P[:, 1] - rp).min())) - 2
        x1, y1 = int(np.ceil((P[:, 0] + rp).max())) + 3, int(np.ceil((P[:, 1] + rp).max())) + 3
        X0, Y0, X1, Y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if X0 >= X1 or Y0 >= Y1:
            continue
        w, h = X1 - X0, Y1 - Y0
        m = np.zeros((h, w), np.uint8)
        if p.kind == 'hull':
            hull = cv2.convexHull((P - [X0, Y0]).astype(np.float32))
            cv2.fillPoly(m, [np.round(hull * S1).astype(np.int32)], 255, AA, SH)
        else:
            for (x, y), r in zip(P - [X0, Y0], rp):
                cv2.circle(m, (int(round(x * S1)), int(round(y * S1))), max(1, int(round(r * S1))), 255, -1, AA, SH)
        a = m.astype(np.float32) / 255
        dt = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 5)
        rr = max(1.0, float(np.median(cam.f * p.r[:len(rp)] / depth / k)) if p.kind == 'hull'
                 else float(np.median(rp)))
        x = np.clip(dt / rr, 0, 1)
        prof = np.sqrt(1 - (1 - x) ** 2)
        gx = cv2.Sobel(dt, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(dt, cv2.CV_32F, 0, 1, ksize=3)
        gn = np.sqrt(gx * gx + gy * gy) + 1e-6
        lam = -(gx * limg[0] + gy * limg[1]) / gn * (1 - x)
        shade = 0.5 + 0.45 * prof + 0.22 * lam
        col = p.color[None, None] * shade[..., None]
        if p.kind == 'sleeve':   # fabric folds across the arm axis + weave noise
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            ax = P[-1] - P[0]
            ax = ax / (np.linalg.norm(ax) + 1e-6)
            u = (xx + X0 - P[0, 0]) * ax[0] + (yy + Y0 - P[0, 1]) * ax[1]
            warp = cv2.resize(rng.standard_normal((8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
            fold = np.sin(u / max(2.0, rr * rng.uniform(0.6, 1.0)) + 0.7 * warp)
            col *= (1 + 0.07 * fold * (0.3 + 0.7 * prof))[..., None]
            col *= (1 + 0.03 * rng.standard_normal((h, w)).astype(np.float32))[..., None]
        else:
            noise = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), max(0.7, rr * 0.08))
            col *= (1 + 0.04 * noise)[..., None]
        if p.nail is not None:
            Cn, rn, d, fn = p.nail
            if fn.dot(cam.C - Cn) > 0:
                lat = np.cross(d, fn)
                t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
                pts = Cn + fn * 0.8 * rn - d * 0.3 * rn + np.outer(0.55 * rn * np.cos(t), d) + \
                    np.outer(0.45 * rn * np.sin(t), lat)
                q, zq = cam.project(pts)
                if zq.min() > 6:
                    q = (q + 0.5) / k - 0.5 - [X0, Y0]
                    nm = np.zeros((h, w), np.uint8)
                    cv2.fillPoly(nm, [np.round(q * S1).astype(np.int32)], 255, AA, SH)
                    na = (nm.astype(np.float32) / 255 * 0.75)[..., None]
                    nc = np.clip(p.color * np.array([1.12, 1.0, 1.0]) + 0.12, 0, 1)
                    col = col * (1 - na) + nc[None, None] * shade[..., None] * na
        col = np.clip(col, 0, 1)
        ra, rg = alp[Y0:Y1, X0:X1], rgb[Y0:Y1, X0:X1]
        rg *= (1 - a)[..., None]
        rg += col * a[..., None]
        ra[:] = a + ra * (1 - a)
    return rgb, alp


def hand_shadow(smap, k, cam, parts, L, floor_h):
    Lup = -L[2]
    hs = []
    for p in parts:
        hgt = -p.C[:, 2] - floor_h
        S = p.C.copy()
        S[:, 0] -= L[0] / Lup * hgt
        S[:, 1] -= L[1] / Lup * hgt
        S[:, 2] = -floor_h
        P, z = cam.project(S)
        ok = z > 6
        rp = cam.f * p.r[ok] / z[ok] / k
        P = (P[ok] + 0.5) / k - 0.5
        if p.kind == 'hull':
            hull = cv2.convexHull(P.astype(np.float32))
            cv2.fillPoly(smap, [np.round(hull * S1).astype(np.int32)], 1.0, AA, SH)
            hs.append(hgt.mean())
            continue
        for (x, y), r in zip(P, rp):
            cv2.circle(smap, (int(round(x * S1)), int(round(y * S1))), max(1, int(round(r * S1))), 1.0, -1, AA, SH)
        hs.append(hgt.mean())
    return float(np.mean(hs))
