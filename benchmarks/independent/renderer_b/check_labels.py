"""Sanity checks + summary statistics for a generated directory: python check_labels.py DIR"""
import collections
import json
import os
import sys


def main(d):
    files = sorted(f for f in os.listdir(d) if f.endswith('.json'))
    bad = 0
    stats = collections.defaultdict(collections.Counter)
    nchips = []
    for f in files:
        lab = json.load(open(os.path.join(d, f)))
        if not os.path.exists(os.path.join(d, f[:-5] + '.jpg')):
            print(f, 'missing jpg')
            bad += 1
        W, H = lab['image_size']
        v = lab['varied']
        stats['size'][f'{W}x{H}'] += 1
        stats['light'][v['light']] += 1
        stats['table'][v['table']] += 1
        stats['hand'][v.get('hand', 'none')] += 1
        if not lab['has_board']:
            stats['subject'][v['subject']] += 1
            continue
        g = lab['grid']
        err = []
        if len(g) != 10 or any(len(r) != 10 for r in g):
            err.append('grid shape')
        for r in range(10):
            for c in range(10):
                ch = g[r][c]
                corner = (r, c) in ((0, 0), (0, 9), (9, 0), (9, 9))
                if corner != (ch == '#'):
                    err.append(f'corner mark {r},{c}')
                if ch not in '#.BGR':
                    err.append('bad char')
                if ch == 'R' and lab['teams'] != 3:
                    err.append('R with 2 teams')
        cnt = collections.Counter(ch for row in g for ch in row if ch in 'BGR')
        n = sum(cnt.values())
        nchips.append(n)
        if n > 75:
            err.append(f'{n} chips')
        if cnt and max(cnt.values()) - min(cnt.get(k, 0) for k in 'BGR'[:lab['teams']] if True) > 3 and lab['teams'] == len(cnt):
            err.append(f'unbalanced {dict(cnt)}')
        for x, y in lab['corners_px']:
            if not (0.03 * W <= x <= W - 1 - 0.03 * W and 0.03 * H <= y <= H - 1 - 0.03 * H):
                err.append(f'corner near edge {x:.0f},{y:.0f}')
        for r, c in lab['occluded']:
            if not (0 <= r < 10 and 0 <= c < 10):
                err.append('occluded out of range')
        if lab['board_fully_visible'] is not True:
            err.append('not fully visible')
        stats['teams'][lab['teams']] += 1
        stats['style'][v['board_style']] += 1
        stats['occluded>0'][len(lab['occluded']) > 0] += 1
        stats['lines_of_five'][v['lines_of_five']] += 1
        if err:
            bad += 1
            print(f, err)
    for k, c in stats.items():
        print(f'{k:14s}', dict(sorted(c.items(), key=lambda kv: str(kv[0]))))
    if nchips:
        print('chips: min %d max %d mean %.1f' % (min(nchips), max(nchips), sum(nchips) / len(nchips)))
    print('files', len(files), 'with problems', bad)


if __name__ == '__main__':
    main(sys.argv[1])
