"""Light sources, illumination / glare maps and the phone camera pipeline."""
import math

import numpy as np

from geom import normalize


def kelvin_rgb(T):
    """Approximate linear RGB of a black body at T kelvin (max channel = 1)."""
    t = T / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    c = np.clip(np.array([r, g, b]) / 255.0, 0.02, 1)
    c = c ** 2.2
    return c / c.max()


def make_lights(rng, center, cam, dim, force=None):
    """Returns dict with lights (first = main/shadow caster), ambient, scenario name."""
    scen = str(rng.choice(['lamp', 'window', 'overhead', 'mixed', 'diffuse', 'flash'],
                          p=[0.24, 0.22, 0.13, 0.15, 0.16, 0.10]))
    scen = force or scen
    lights = []
    amb_col = np.ones(3)
    if scen == 'lamp':
        pos = center + np.array([rng.uniform(-800, 800), rng.uniform(-800, 800), rng.uniform(550, 1400)])
        col = kelvin_rgb(rng.uniform(2500, 3500))
        lights.append(dict(kind='point', pos=pos, col=col, I=1.0, size=rng.uniform(60, 250)))
        amb = rng.uniform(0.15, 0.4)
        amb_col = col * 0.8 + 0.2 * kelvin_rgb(4000)
    elif scen == 'window':
        az = rng.uniform(0, 2 * np.pi)
        el = rng.uniform(0.25, 0.85)
        d = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])
        col = kelvin_rgb(rng.uniform(5000, 7500))
        sun = rng.random() < 0.35
        lights.append(dict(kind='dir', dir=d, col=col, I=1.0, size=0, decay=rng.uniform(500, 1800),
                           win_w=rng.uniform(0.25, 0.7), win_h=rng.uniform(0.2, 0.5), bars=int(rng.integers(0, 4)),
                           sun=sun, center=center))
        if sun:
            lights[0]['sun_col'] = kelvin_rgb(rng.uniform(4500, 5800))
            lights[0]['sun_I'] = rng.uniform(1.5, 4.0)
            lights[0]['sun_dir'] = normalize(d + rng.normal(0, 0.1, 3) * np.array([1, 1, 0]))
            lights[0]['patch'] = (rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(250, 700), rng.uniform(150, 500), rng.uniform(0, np.pi))
        amb = rng.uniform(0.3, 0.6)
        amb_col = kelvin_rgb(rng.uniform(6000, 9000))
    elif scen == 'overhead':
        pos = center + np.array([rng.uniform(-350, 350), rng.uniform(-350, 350), rng.uniform(1000, 2000)])
        col = kelvin_rgb(rng.uniform(2800, 4500))
        lights.append(dict(kind='point', pos=pos, col=col, I=1.0, size=rng.uniform(30, 120),
                           spot=(normalize(center - pos + rng.normal(0, 100, 3)), math.cos(rng.uniform(0.3, 0.6)), rng.uniform(0.05, 0.2))))
        amb = rng.uniform(0.08, 0.3)
        amb_col = col
    elif scen == 'mixed':
        pos = center + np.array([rng.uniform(-900, 900), rng.uniform(-900, 900), rng.uniform(600, 1300)])
        lights.append(dict(kind='point', pos=pos, col=kelvin_rgb(rng.uniform(2500, 3200)), I=1.0, size=rng.uniform(60, 200)))
        az = rng.uniform(0, 2 * np.pi)
        el = rng.uniform(0.2, 0.7)
        d = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])
        lights.append(dict(kind='dir', dir=d, col=kelvin_rgb(rng.uniform(6000, 9000)), I=rng.uniform(0.4, 1.2), size=0,
                           decay=rng.uniform(400, 1500), win_w=rng.uniform(0.25, 0.7), win_h=rng.uniform(0.2, 0.5), bars=int(rng.integers(0, 3)),
                           sun=False, center=center))
        amb = rng.uniform(0.15, 0.4)
    elif scen == 'diffuse':
        pos = center + np.array([rng.uniform(-1200, 1200), rng.uniform(-1200, 1200), rng.uniform(1600, 2600)])
        col = kelvin_rgb(rng.uniform(3500, 6500))
        lights.append(dict(kind='point', pos=pos, col=col, I=1.0, size=rng.uniform(400, 1200)))
        amb = rng.uniform(0.45, 0.8)
        amb_col = col
    else:  # flash in a darker room
        pos = cam.C + cam.R[0] * rng.uniform(-12, 12) + cam.R[1] * rng.uniform(-40, -10)
        col = kelvin_rgb(rng.uniform(5000, 6000))
        lights.append(dict(kind='point', pos=pos, col=col, I=1.0, size=8, flash=True))
        amb = rng.uniform(0.1, 0.3)
        amb_col = kelvin_rgb(rng.uniform(2700, 4000))
    return dict(scen=scen, lights=lights, amb=amb, amb_col=amb_col, dim=dim,
                rough=rng.uniform(1.5, 10), spec_k=rng.uniform(0.2, 0.7))


def plane_points(cam, step, z0=0.0):
    d, xs, ys = cam.ray_dirs(step)
    C = cam.C
    with np.errstate(divide='ignore', invalid='ignore'):
        t = (z0 - C[2]) / d[..., 2]
    hit = (d[..., 2] < -1e-4) & (t > 0) & (t < 6000)
    t = np.where(hit, t, 6000.0)
    # for misses, clamp to far horizontal distance on the plane
    P = C + d * t[..., None]
    P[..., 2] = z0
    return P, hit, xs, ys, d


def illumination(cam, L, P, center):
    """Irradiance on a horizontal surface at points P (…,3), RGB, plus main-light direct part."""
    E = np.zeros(P.shape[:-1] + (3,))
    main = None
    for k, l in enumerate(L['lights']):
        if l['kind'] == 'point':
            v = l['pos'] - P
            dist = np.linalg.norm(v, axis=-1)
            d0 = np.linalg.norm(l['pos'] - center)
            cos = np.clip(v[..., 2] / dist, 0, 1)
            cos0 = max((l['pos'] - center)[2] / d0, 0.05)
            e = l['I'] * cos / cos0 * (d0 / dist) ** 2
            if 'spot' in l:
                ax, cosc, soft = l['spot']
                ca = np.einsum('...i,i->...', -v / dist[..., None], ax)
                e = e * np.clip((ca - cosc) / soft + 0.5, 0, 1) ** 2 * 0.97 + e * 0.03
            e = np.minimum(e, 6)
        else:
            dh = np.array([l['dir'][0], l['dir'][1], 0.0])
            dh = dh / max(np.linalg.norm(dh), 1e-6)
            s = (P - center) @ dh  # positive = towards the window
            e = l['I'] * np.exp(np.clip(s / l['decay'], -3, 1.2))
            if l.get('sun'):
                cx, cy, w, h, rot = l['patch']
                u = (P[..., 0] - center[0] - cx) * math.cos(rot) + (P[..., 1] - center[1] - cy) * math.sin(rot)
                vv = -(P[..., 0] - center[0] - cx) * math.sin(rot) + (P[..., 1] - center[1] - cy) * math.cos(rot)
                soft = 25.0
                inside = np.clip((w / 2 - np.abs(u)) / soft + 0.5, 0, 1) * np.clip((h / 2 - np.abs(vv)) / soft + 0.5, 0, 1)
                nb = l['bars']
                if nb:
                    per = w / (nb + 1)
                    bar = np.abs(((u + w / 2) / per) - np.round((u + w / 2) / per)) * per
                    inside = inside * np.clip((bar - 12) / 8, 0, 1)
                e = e + l['sun_I'] * inside * (l['sun_col'] / l['col']).mean()
        ec = e[..., None] * l['col']
        E += ec
        if k == 0:
            main = ec
    E += L['amb'] / (1 - L['amb'] + 1e-3) * L['amb_col'] * 1.0
    return E, main


def glare_map(cam, L, P, rng):
    """Specular reflection of the light sources in a glossy horizontal surface at P."""
    V = cam.C - P
    V /= np.linalg.norm(V, axis=-1, keepdims=True)
    G = np.zeros(P.shape[:-1] + (3,))
    for l in L['lights']:
        if l['kind'] == 'point':
            Ld = l['pos'] - P
            Ld /= np.linalg.norm(Ld, axis=-1, keepdims=True)
            H = Ld + V
            H /= np.linalg.norm(H, axis=-1, keepdims=True)
            hz = np.clip(H[..., 2], 0, 1)
            # lobe width: surface roughness combined with the angular size of the lamp
            dist = np.linalg.norm(l['pos'] - P, axis=-1).mean()
            ang = math.sqrt(L['rough'] ** 2 + math.degrees(0.5 * l['size'] / max(dist, 100)) ** 2)
            p = math.log(0.5) / math.log(math.cos(math.radians(max(ang, 0.5))))
            g = L['spec_k'] * min(p / 100.0, 8) * hz ** p * l['I']
            if l.get('flash'):
                g = g * 1.5
        else:
            R = np.stack([-V[..., 0], -V[..., 1], V[..., 2]], -1)  # mirror direction
            az = np.arctan2(R[..., 1], R[..., 0])
            el = np.arcsin(np.clip(R[..., 2], -1, 1))
            laz = math.atan2(l['dir'][1], l['dir'][0])
            lel = math.asin(l['dir'][2])
            daz = np.abs(((az - laz + np.pi) % (2 * np.pi)) - np.pi)
            dl = np.abs(el - lel)
            w, h = l['win_w'], l['win_h']
            g = np.clip((w / 2 - daz) / 0.03, 0, 1) * np.clip((h / 2 - dl) / 0.03, 0, 1)
            if l['bars']:
                per = w / (l['bars'] + 1)
                bar = np.abs(((az - laz + w / 2) / per) - np.round((az - laz + w / 2) / per)) * per
                g = g * np.clip((bar - 0.012) / 0.01, 0, 1)
            g = g * 0.9 * l['I']
        G += g[..., None] * l['col']
    return G


# ----------------------------------------------------------------------------- camera pipeline
def aces(x):
    return np.clip((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0, 1)


def tone_lut8(rng):
    """LUT from 8-bit square-root-encoded linear light (x = (q/255)^2 * 4) to 8-bit output."""
    x = (np.arange(256, dtype=np.float64) / 255.0) ** 2 * 4.0
    style = rng.choice(['aces', 'soft', 'punchy'])
    if style == 'aces':
        y = aces(x * 1.1)
    elif style == 'soft':
        y = (1 - np.exp(-x * 1.6)) / (1 - math.exp(-1.6 * 4))
    else:
        y = x / (1 + x) * 1.9
    y = np.clip(y, 0, 1) ** (1 / 2.2)
    lift = rng.uniform(0, 0.06)  # phone 'HDR' shadow lift
    y = np.clip(y + lift * (1 - y) * np.exp(-y * 6), 0, 1)
    return (y * 255 + 0.5).astype(np.uint8)
