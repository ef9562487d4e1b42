#!/usr/bin/env python3
"""The form's floor (CaseSummary::form_floor) of runs 13a and 13b, which predate it in the tool,
recomputed offline: G and g minimax-fitted (nested ternary searches, the largest relative error
is convex in them) with the profile's L+o and large-piece boundary, on the judged medians inside
g's domain. Reproduces the tool's floors of run 14 to the printed digit.

usage: form_floor_offline.py <overlap-calibrate> <run dir>...   (from this folder)
"""
import json, os, subprocess, sys, tempfile

CASES = ['host_to_device', 'device_to_host', 'bidirectional.host_to_device',
         'bidirectional.device_to_host', 'simultaneous.host_to_device',
         'simultaneous.device_to_host']


def ternary(f, lo, hi, steps=80):
    for _ in range(steps):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if f(m1) < f(m2):
            hi = m2
        else:
            lo = m1
    return f((lo + hi) / 2)


def floor(points, latency, boundary):
    """Largest relative error of the best G (one per piece class) and g >= 0."""
    classes = [[p for p in points if p[0] / p[1] < boundary],
               [p for p in points if p[0] / p[1] >= boundary]]

    def worst(g):
        return max(ternary(lambda G: max(abs(latency + k * G + (n - 1) * g - t) / t
                                          for k, n, t in c), 5e-12, 6e-11)
                   for c in classes if c)
    return ternary(worst, 0, 20e-6, 60)


tool = sys.argv[1]
for run in sys.argv[2:]:
    with tempfile.TemporaryDirectory() as tmp:
        refit = os.path.join(tmp, 'profile.json')
        subprocess.run([tool, '--from-raw', os.path.join(run, 'h100-pcie5.raw.json'), '--force',
                        '--name', 'h100-pcie5', '--output', refit], check=True,
                       capture_output=True)
        profile = json.load(open(refit))
    accuracy = json.load(open(os.path.join(run, 'h100-pcie5-accuracy.json')))
    out = []
    for case in CASES:
        link = profile['link'][case.split('.')[-1]]
        points = [(r['bytes'], r['pieces'],
                   r['fast_mode']['median_s'] if 'fast_mode' in r else r['measured']['median_s'])
                  for r in accuracy['rows'] if r['case'] == case and not r['outside_domain']]
        boundary = float('inf')
        if '.' in case and link.get('bidirectional_large_piece_seconds_per_byte'):
            boundary = link['bidirectional_large_piece_min_bytes']
        out.append('%s %.2f %%' % (case, 100 * floor(points, link['latency_s'], boundary)))
    print(run + ': ' + '; '.join(out))
