"""Contact sheet: python sheet.py OUT.png img1.png img2.png ... (2 columns, 640 px tiles)"""
import sys, cv2, numpy as np
out, files = sys.argv[1], sys.argv[2:]
tiles = []
for f in files:
    im = cv2.imread(f)
    s = 640 / max(im.shape[:2])
    im = cv2.resize(im, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    t = np.full((640, 640, 3), 255, np.uint8)
    y0, x0 = (640 - im.shape[0]) // 2, (640 - im.shape[1]) // 2
    t[y0:y0 + im.shape[0], x0:x0 + im.shape[1]] = im
    cv2.putText(t, f.split('/')[-1], (5, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
    tiles.append(t)
while len(tiles) % 2:
    tiles.append(np.full((640, 640, 3), 255, np.uint8))
rows = [np.concatenate(tiles[i:i + 2], 1) for i in range(0, len(tiles), 2)]
cv2.imwrite(out, np.concatenate(rows, 0))
