"""Consistency: pixel -> (dense upsampled map) -> board point -> camera.project -> pixel."""
import os, sys, numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))  # the renderer's modules
import sg_art as art, sg_scene as sc
errs = []
for seed in range(12):
    rng = np.random.default_rng(seed)
    W, H = sc.sample_size(rng)
    d = art.board_design(rng)
    g = art.BoardGeom(d, 30.0)
    cam, info = sc.sample_camera(rng, W, H, g.outline, ((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2), (g.x1 - g.x0, g.y1 - g.y0))
    m = sc.Maps(cam, g, (g.x0 - 50, g.y0 - 50, g.x1 + 50, g.y1 + 50))
    ys, xs = rng.integers(0, H, 4000), rng.integers(0, W, 4000)
    X, Y = m.Xb[ys, xs], m.Yb[ys, xs]
    inside = (X > g.x0) & (X < g.x1) & (Y > g.y0) & (Y < g.y1)
    p, _ = cam.project(g.world(X[inside], Y[inside]))
    e = np.hypot(p[:, 0] - xs[inside], p[:, 1] - ys[inside])
    print(seed, W, H, 'fold', g.fold, 'bend', round(g.A1, 2), round(g.A2, 2), round(g.bow, 2), 'k1 %.3f' % cam.k1,
          'err median %.3f  p99 %.3f  max %.3f px' % (np.median(e), np.percentile(e, 99), e.max()))
