"""Make ~1000 px PNG previews of generated photos; optionally draw the labels."""
import json, os, sys
import cv2, numpy as np

def main(src, dst, names=None, labels=True, width=1000):
    os.makedirs(dst, exist_ok=True)
    files = sorted(f for f in os.listdir(src) if f.endswith('.jpg'))
    if names:
        files = [f for f in files if any(n in f for n in names)]
    for f in files:
        img = cv2.imread(os.path.join(src, f))
        lab = json.load(open(os.path.join(src, f[:-4] + '.json')))
        s = width / img.shape[1]
        small = cv2.resize(img, (width, int(round(img.shape[0] * s))), interpolation=cv2.INTER_AREA)
        cv2.imwrite(os.path.join(dst, f[:-4] + '.png'), small)
        if labels and lab.get('corners_px'):
            an = small.copy()
            pts = [((x + 0.5) * s - 0.5, (y + 0.5) * s - 0.5) for x, y in lab['corners_px']]
            for i, (x, y) in enumerate(pts):
                cv2.circle(an, (int(round(x)), int(round(y))), 6, (0, 255, 255), 2, cv2.LINE_AA)
                cv2.putText(an, str(i), (int(x) + 8, int(y) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 255, 255), 2, cv2.LINE_AA)
            cv2.polylines(an, [np.round(np.array(pts) * 16).astype(np.int32)], True, (0, 200, 255), 1, cv2.LINE_AA, shift=4)
            # approximate cell centres through the homography of the 4 corners (ignores distortion)
            Hm = cv2.getPerspectiveTransform(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]), np.float32(pts))
            occ = {tuple(rc) for rc in lab['occluded']}
            for r in range(10):
                for c in range(10):
                    p = cv2.perspectiveTransform(np.float32([[[c + 0.5, r + 0.5]]]), Hm)[0, 0]
                    ch = lab['grid'][r][c]
                    col = {'B': (255, 120, 0), 'G': (0, 200, 0), 'R': (0, 0, 255), '#': (200, 200, 200)}.get(ch)
                    if col:
                        cv2.putText(an, ch, (int(p[0]) - 5, int(p[1]) + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 3, cv2.LINE_AA)
                        cv2.putText(an, ch, (int(p[0]) - 5, int(p[1]) + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, col, 1, cv2.LINE_AA)
                    if (r, c) in occ:
                        cv2.drawMarker(an, (int(p[0]), int(p[1])), (0, 0, 255), cv2.MARKER_TILTED_CROSS, 14, 2)
            cv2.imwrite(os.path.join(dst, f[:-4] + '_lab.png'), an)

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3:] or None)
