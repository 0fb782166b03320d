#!/usr/bin/env python
"""Write ~1000 px wide PNG copies of generated photos, with corners_px drawn (numbered 0..3)
and occluded cells marked (approximate homography from the corners, for eyeballing only).

usage: python preview.py SETDIR OUTDIR [--plain] [names...]
  --plain  also write an un-annotated copy NAME_plain.png"""
import glob
import json
import os
import sys

import cv2
import numpy as np


def annotate(jpg, out_png, width=1000, raw=False):
    img = cv2.imread(jpg)
    lab = json.load(open(jpg[:-4] + '.json'))
    s = width / img.shape[1]
    small = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    if raw:
        cv2.imwrite(out_png, small)
        return
    if lab.get('corners_px'):
        P = (np.array(lab['corners_px']) + 0.5) * s - 0.5
        cv2.polylines(small, [np.round(P * 16).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA, 4)
        Hm = cv2.getPerspectiveTransform(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]), P.astype(np.float32))
        for r, c in lab['occluded']:
            q = cv2.perspectiveTransform(np.float32([[[c + 0.5, r + 0.5]]]), Hm)[0, 0]
            cv2.drawMarker(small, (int(q[0]), int(q[1])), (255, 0, 255), cv2.MARKER_TILTED_CROSS, 10, 2)
        for i, (x, y) in enumerate(P):
            cv2.circle(small, (int(round(x * 16)), int(round(y * 16))), 3 * 16, (0, 0, 255), -1, cv2.LINE_AA, 4)
            cv2.putText(small, str(i), (int(x) + 6, int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 3)
            cv2.putText(small, str(i), (int(x) + 6, int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 255, 255), 1)
    cv2.imwrite(out_png, small)


if __name__ == '__main__':
    src, dst = sys.argv[1], sys.argv[2]
    plain = '--plain' in sys.argv[3:]
    os.makedirs(dst, exist_ok=True)
    names = [a for a in sys.argv[3:] if a != '--plain'] or \
        [os.path.basename(p)[:-4] for p in sorted(glob.glob(os.path.join(src, '*.jpg')))]
    for n in names:
        annotate(os.path.join(src, n + '.jpg'), os.path.join(dst, n + '.png'))
        if plain:
            annotate(os.path.join(src, n + '.jpg'), os.path.join(dst, n + '_plain.png'), raw=True)
