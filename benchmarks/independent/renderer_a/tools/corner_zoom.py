"""Crops around each labelled corner, enlarged, with the exact label point marked (cross).
usage: python corner_zoom.py SET NAME OUT.png"""
import sys, json, cv2, numpy as np
src, name, out = sys.argv[1:4]
img = cv2.imread(f'{src}/{name}.jpg')
lab = json.load(open(f'{src}/{name}.json'))
R, Z = 24, 8
tiles = []
for i, (x, y) in enumerate(lab['corners_px']):
    xi, yi = int(round(x)), int(round(y))
    pad = cv2.copyMakeBorder(img, R, R, R, R, cv2.BORDER_CONSTANT)
    crop = pad[yi:yi + 2 * R + 1, xi:xi + 2 * R + 1]
    big = cv2.resize(crop, None, fx=Z, fy=Z, interpolation=cv2.INTER_NEAREST)
    # pixel centre (xi,yi) is at big coords (R*Z + Z/2)
    cx = (x - xi + R) * Z + Z / 2
    cy = (y - yi + R) * Z + Z / 2
    cv2.drawMarker(big, (int(cx), int(cy)), (0, 255, 255), cv2.MARKER_CROSS, 30, 1)
    cv2.putText(big, str(i), (5, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 255, 255), 2)
    tiles.append(big)
cv2.imwrite(out, np.concatenate(tiles, 1))
