"""Table tops, room backdrop, and other flat procedural textures (sRGB float32 0..1)."""
import math

import numpy as np
import cv2

from cards import fbm, jitter


def srgb(c):
    return np.array(c, np.float32) / 255.0


def smoothstep(a, b, x):
    t = np.clip((x - a) / (b - a), 0, 1)
    return t * t * (3 - 2 * t)


def table_material(rng):
    kind = rng.choice(['wood', 'wood', 'wood', 'glass', 'cloth', 'cloth_check', 'cloth_pattern', 'laminate', 'stone'],
                      p=[0.15, 0.15, 0.12, 0.1, 0.12, 0.1, 0.08, 0.1, 0.08])
    m = {'kind': str(kind)}
    if kind == 'wood':
        m['col'] = jitter(rng, tuple(rng.choice([(150, 105, 70), (110, 75, 50), (185, 150, 110), (85, 55, 38),
                                                   (205, 185, 155), (160, 125, 90), (120, 95, 78)])), 8)
        m['plank_mm'] = rng.uniform(70, 220) if rng.random() < 0.7 else 5000
        m['grain'] = rng.uniform(0.05, 0.17)
        m['gloss'] = rng.uniform(0.05, 0.6)
    elif kind == 'glass':
        m['col'] = jitter(rng, tuple(rng.choice([(60, 65, 60), (40, 45, 45), (90, 85, 80)])), 10)
        m['under'] = jitter(rng, tuple(rng.choice([(120, 90, 60), (150, 140, 130), (60, 50, 70)])), 15)
        m['gloss'] = rng.uniform(0.6, 1.0)
    elif kind == 'cloth':
        m['col'] = jitter(rng, tuple(rng.choice([(240, 238, 230), (200, 40, 40), (40, 70, 120), (220, 200, 150),
                                                   (90, 130, 80), (160, 160, 165), (235, 220, 200)])), 10)
        m['gloss'] = 0.0
    elif kind == 'cloth_check':
        m['col'] = jitter(rng, tuple(rng.choice([(200, 40, 40), (40, 80, 160), (50, 120, 60), (30, 30, 30), (230, 150, 40)])), 10)
        m['col2'] = jitter(rng, (245, 243, 238), 5)
        m['check_mm'] = rng.uniform(8, 40)
        m['gloss'] = 0.0
    elif kind == 'cloth_pattern':
        m['col'] = jitter(rng, tuple(rng.choice([(240, 235, 220), (200, 220, 230), (250, 240, 200)])), 8)
        m['col2'] = jitter(rng, tuple(rng.choice([(200, 60, 70), (60, 100, 160), (70, 140, 80), (220, 160, 40)])), 15)
        m['period_mm'] = rng.uniform(25, 80)
        m['gloss'] = 0.0
    elif kind == 'laminate':
        m['col'] = jitter(rng, tuple(rng.choice([(235, 235, 230), (200, 200, 195), (60, 60, 62), (225, 215, 195), (150, 170, 180)])), 8)
        m['gloss'] = rng.uniform(0.1, 0.5)
    else:  # stone / marble
        m['col'] = jitter(rng, tuple(rng.choice([(235, 232, 228), (60, 60, 65), (200, 190, 175)])), 6)
        m['vein'] = jitter(rng, (120, 120, 125), 20)
        m['gloss'] = rng.uniform(0.3, 0.8)
    m['side_col'] = m['col'] if kind not in ('cloth', 'cloth_check', 'cloth_pattern') else m['col']
    return m


def table_texture(rng, m, W, H, ppm, u0, v0):
    """Texture for table region: texel (i,j) <-> table coords (u0+(i+.5)/ppm, v0+(j+.5)/ppm) mm."""
    kind = m['kind']
    c = srgb(m['col'])
    u = u0 + (np.arange(W, dtype=np.float32) + 0.5) / ppm
    v = v0 + (np.arange(H, dtype=np.float32) + 0.5) / ppm
    if kind == 'wood':
        pw = m['plank_mm']
        plank = np.floor(v / pw)
        # per-plank tone and grain phase
        idx = plank.astype(np.int64) - int(plank.min())
        n_pl = int(idx.max()) + 2
        tone = 1 + rng.normal(0, 0.07, n_pl).astype(np.float32)
        rng.uniform(0, 3000, n_pl)  # keeps the random stream as the published sets drew it
        # long, stretched noise (grain runs along u)
        g1 = fbm(rng, H, max(8, W // 24), scales=(2, 4, 8), amps=(1, .6, .3))
        g1 = cv2.resize(g1, (W, H), interpolation=cv2.INTER_LINEAR)
        warp = fbm(rng, H, W, scales=(max(H, W) / 3, max(H, W) / 8), amps=(1, 0.5))
        vv = v[:, None] + warp * 6 / max(ppm, 0.3) * ppm
        rings = np.sin(vv * (2 * np.pi / rng.uniform(3, 9)) + g1 * 2.0)
        grain = 0.6 * rings + 0.5 * g1
        pores = fbm(rng, H, W, scales=(1.5, 3), amps=(1, 0.5)) * 0.15
        val = (1 + m['grain'] * (grain + pores)) * tone[idx][:, None]
        img = c[None, None, :] * val[..., None]
        # darker grain lines pull towards a deeper brown
        img = img * (1 - 0.12 * np.clip(rings, 0, 1)[..., None] * m['grain'] * 3)
        if pw < 1000:
            seam = np.abs(((v / pw) - np.round(v / pw)) * pw)
            sw = max(0.6, 0.8 / ppm)
            img *= (1 - 0.45 * np.exp(-(seam / sw) ** 2))[:, None, None]
    elif kind == 'glass':
        # glass top: the floor/rug far below seen out of focus, a faint room reflection
        under = srgb(m['under'])
        if rng.random() < 0.5:  # floor boards
            pw = rng.uniform(80, 180)
            ang = rng.uniform(0, np.pi)
            t = (u[None, :] * math.cos(ang) + v[:, None] * math.sin(ang)) / pw
            tone = np.sin(np.floor(t) * 12.9898) * 43758.5453
            tone = (tone - np.floor(tone)) - 0.5
            base = under[None, None] * (1 + 0.25 * tone)[..., None]
        else:  # rug with a large soft pattern
            per = rng.uniform(150, 400)
            pat = np.sin(u[None, :] / per * 2 * np.pi) * np.sin(v[:, None] / per * 2 * np.pi)
            c2 = srgb(jitter(rng, (150, 60, 50), 30))
            k = (pat > 0.3).astype(np.float32)
            base = under[None, None] * (1 - k[..., None]) + c2[None, None] * k[..., None]
        sig = max(2.0, 25 * ppm)
        small = max(1, int(sig / 4))
        b = cv2.resize(base.astype(np.float32), (max(2, W // small), max(2, H // small)), interpolation=cv2.INTER_AREA)
        b = cv2.GaussianBlur(b, (0, 0), sig / small)
        base = cv2.resize(b, (W, H), interpolation=cv2.INTER_LINEAR)
        img = base * 0.32 + c[None, None] * 0.1
        g = (u[None, :] - u.min()) / max(u.max() - u.min(), 1)
        img = img + (0.05 + 0.08 * g)[..., None] * np.array([0.9, 0.95, 1.0], np.float32)
        dust = np.clip(fbm(rng, H, W, scales=(1.5, 3), amps=(1, 0.5)) - 2.0, 0, None)
        img = img + 0.06 * dust[..., None]
    elif kind in ('cloth', 'cloth_check', 'cloth_pattern'):
        if kind == 'cloth':
            img = np.broadcast_to(c, (H, W, 3)).copy()
        elif kind == 'cloth_check':
            cs = m['check_mm']
            a = ((u / cs) % 2 < 1).astype(np.float32)
            b = ((v / cs) % 2 < 1).astype(np.float32)
            k = (a[None, :] + b[:, None]) / 2  # 0, .5, 1 -> gingham
            c2 = srgb(m['col2'])
            img = c2[None, None] * (1 - k[..., None]) + (0.55 * c + 0.45 * c2)[None, None] * k[..., None]
            img = np.where((k >= 0.99)[..., None], c[None, None], img)
        else:
            p = m['period_mm']
            uu, vv = u[None, :] / p, v[:, None] / p
            fx = uu - np.floor(uu) - 0.5
            fy = vv - np.floor(vv) - 0.5 + 0.5 * (np.floor(uu) % 2)
            fy = fy - np.round(fy)
            r = np.hypot(fx, fy)
            ang = np.arctan2(fy, fx)
            petal = r < (0.18 + 0.08 * np.cos(5 * ang))
            img = np.broadcast_to(c, (H, W, 3)).copy()
            img[petal] = srgb(m['col2'])
            img[r < 0.06] = srgb((240, 200, 60))
        # weave + wrinkles
        weave = np.sin(u * 2 * np.pi / 1.2)[None, :] * np.sin(v * 2 * np.pi / 1.2)[:, None] if ppm > 1.2 else 0
        # long soft creases (stretched noise along a random direction) instead of blotches
        ang = rng.uniform(0, np.pi)
        big = int(max(H, W) * 1.5)
        g = rng.standard_normal((6, max(8, big // 40))).astype(np.float32)
        g = cv2.resize(g, (big, big), interpolation=cv2.INTER_CUBIC)
        M = cv2.getRotationMatrix2D((big / 2, big / 2), math.degrees(ang), 1.0)
        g = cv2.warpAffine(g, M, (big, big))[(big - H) // 2:(big - H) // 2 + H, (big - W) // 2:(big - W) // 2 + W]
        crease = np.tanh(g * 1.5)
        img = img * (1 + 0.04 * weave + 0.04 * fbm(rng, H, W, scales=(2, 4)))[..., None] * (1 + 0.05 * crease)[..., None]
    elif kind == 'laminate':
        n = fbm(rng, H, W, scales=(W / 5, 4, 2), amps=(0.4, 0.3, 0.2))
        img = c[None, None] * (1 + 0.02 * n)[..., None]
    else:
        n = fbm(rng, H, W, scales=(W / 2, W / 6, W / 20, W / 60), amps=(1, .6, .4, .3))
        veins = np.abs(np.sin((u[None, :] * 0.01 + v[:, None] * 0.006) + n * 3.0))
        vm = np.clip(1 - veins / 0.04, 0, 1) ** 2 * rng.uniform(0.2, 0.7)
        speck = fbm(rng, H, W, scales=(2, 4), amps=(1, 0.5))
        img = c[None, None] * (1 + 0.012 * n + 0.03 * speck)[..., None]
        img = img * (1 - vm[..., None]) + srgb(m['vein'])[None, None] * vm[..., None]
    return np.clip(img, 0, 1).astype(np.float32)


def room_backdrop(rng, cam, scene, step=8):
    """Blurred room behind/below the table: floor, walls, furniture, window. Linear float."""
    d, xs, ys = cam.ray_dirs(step)
    C = cam.C
    H, W = d.shape[:2]
    floor_z = -scene['table_h']
    wall_col = srgb(jitter(rng, tuple(rng.choice([(230, 225, 215), (200, 210, 215), (225, 215, 190), (180, 170, 160), (120, 110, 100), (210, 190, 170)])), 10))
    floor_col = srgb(jitter(rng, tuple(rng.choice([(140, 100, 65), (170, 130, 90), (90, 70, 55), (180, 180, 175), (110, 110, 120)])), 12))
    Rx, Ry = rng.uniform(1800, 3500), rng.uniform(1800, 3500)
    rot = rng.uniform(0, 2 * np.pi)
    ca, sa = math.cos(rot), math.sin(rot)
    dx = d[..., 0] * ca + d[..., 1] * sa
    dy = -d[..., 0] * sa + d[..., 1] * ca
    cxr = C[0] * ca + C[1] * sa
    cyr = -C[0] * sa + C[1] * ca
    # distance to walls (box) along ray
    with np.errstate(divide='ignore', invalid='ignore'):
        tx = np.where(dx > 0, (Rx - cxr) / dx, (-Rx - cxr) / dx)
        ty = np.where(dy > 0, (Ry - cyr) / dy, (-Ry - cyr) / dy)
        tw = np.minimum(np.abs(tx), np.abs(ty))
        tf = np.where(d[..., 2] < -1e-6, (floor_z - C[2]) / d[..., 2], np.inf)
    hit_floor = tf < tw
    t = np.where(hit_floor, tf, tw)
    P = C[None, None] + d * t[..., None]
    # floor: planks or rug
    fx = P[..., 0] * ca + P[..., 1] * sa
    fy = -P[..., 0] * sa + P[..., 1] * ca
    plank = np.floor(fy / rng.uniform(100, 200))
    ftone = 1 + 0.08 * np.sin(plank * 12.9898) * np.cos(plank * 4.1)
    floor_img = floor_col[None, None] * ftone[..., None]
    # walls
    z = P[..., 2]
    wall_img = wall_col[None, None] * np.ones_like(z)[..., None]
    # skirting board
    wall_img = np.where((z < floor_z + 90)[..., None], wall_col * 0.85, wall_img)
    # furniture / window / pictures (in wall-azimuth space)
    az = np.arctan2(P[..., 1], P[..., 0])
    for k in range(rng.integers(2, 7)):
        a0 = rng.uniform(-np.pi, np.pi)
        aw = rng.uniform(0.1, 0.6)
        z0 = floor_z + rng.uniform(0, 1200)
        z1 = z0 + rng.uniform(300, 1500)
        col = srgb(jitter(rng, tuple(rng.choice([(60, 40, 30), (200, 200, 200), (40, 50, 70), (150, 110, 70), (90, 120, 90), (255, 255, 250)])), 20))
        bright = 1.0
        if rng.random() < 0.25:
            col = srgb((250, 250, 255))
            bright = rng.uniform(2, 5)  # a window
        dd = np.abs(((az - a0 + np.pi) % (2 * np.pi)) - np.pi)
        msk = (dd < aw) & (z > z0) & (z < z1) & ~hit_floor
        wall_img[msk] = col * bright
        if rng.random() < 0.3:
            msk2 = (dd < aw) & hit_floor & (np.hypot(fx, fy) > 600)
            floor_img[msk2] = col * 0.6
    img = np.where(hit_floor[..., None], floor_img, wall_img).astype(np.float32)
    # darker under the table
    under = hit_floor & (np.abs(P[..., 0] - scene['table_c'][0]) < scene['table_hx'] + 200) & (np.abs(P[..., 1] - scene['table_c'][1]) < scene['table_hy'] + 200)
    img[under] *= 0.45
    # light falloff with distance
    img *= (1.0 / (1 + (t / 3000.0) ** 2))[..., None].astype(np.float32)
    img = img ** 2.0  # to linear
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 4))
    img = cv2.resize(img, (len(xs) * step, len(ys) * step), interpolation=cv2.INTER_LINEAR)[:cam.Hc, :cam.Wc]
    return np.ascontiguousarray(img)
