#!/usr/bin/env python3
"""bench/pageable/summarize_pageable.py on hand-computed reports in bench_pageable's form: the
ratios against issue 25's targets, the scaled loops of the stateless modes, wrong results named.
Run by ctest as bench_pageable_summary_test; needs only python3."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "bench", "pageable", "summarize_pageable.py")


def measured(config, seconds, memory="pageable", correct=True):
    return {"config": config, "memory": memory, "seconds": seconds, "correct": correct}


def report(app, pinned_s, staged_s, pinned_loop_s, cached_loop_s, correct=True):
    return {
        "app": app, "kernel": "saxpy", "bytes": 512e6, "repeats": 5,
        "loop_calls": 100, "slow_loop_calls": 10,
        "pinned": [measured("Explicit", 0.020, "pinned"),
                   measured("Streams 16", pinned_s, "pinned")],
        "pageable_explicit": measured("Explicit", 0.070),
        "registered": [measured("Mapped, registered per call", 0.060),
                       measured("Streams 16, registered per call", 0.050)],
        "staged": [measured("Streams 16, staged", staged_s, correct=correct),
                   measured("Streams 8, staged", 0.5)],
        "loop": {
            "pinned": measured("Streams 16", pinned_loop_s, "pinned"),
            "pinned_same_config": measured("Streams 16", pinned_loop_s, "pinned"),
            "cached": measured("Streams 16, cached registration", cached_loop_s),
            "explicit": measured("Explicit", 0.7), "explicit_scale": 10,
            "registered": measured("Streams 16, registered per call", 0.5),
            "staged": measured("Streams 16, staged", 0.2),
        },
        "cache": {"hits": 198, "registrations": 2, "evictions": 0, "invalidations": 0,
                  "budget": 1 << 30},
    }


SMALL = {"small": [
    {"n": 256, "bytes": 2048,
     "pinned": [measured("Explicit", 30e-6, "pinned")],
     "pageable": [measured("Explicit", 40e-6), measured("Streams 1, staged", 35e-6),
                  measured("Mapped, cached registration", 20e-6),
                  measured("Mapped, registered per call", 90e-6)],
     "tuned": measured("K_tuned: Explicit", 41e-6)},
    {"n": 131072, "bytes": 1 << 20,
     "pinned": [measured("Explicit", 60e-6, "pinned")],
     "pageable": [measured("Explicit", 100e-6), measured("Streams 2, staged", 120e-6)],
     "tuned": measured("K_tuned: Mapped", 130e-6)},
]}


class PageableSummary(unittest.TestCase):
    # `others`: more raw reports by file name; `name_apps`: pass --apps (else the script finds
    # the applications among the raw files itself).
    def summarize(self, reports, small=None, flags=(), others=None, name_apps=True):
        with tempfile.TemporaryDirectory() as raw:
            files = {r["app"] + ".json": r for r in reports}
            if small:
                files["small.json"] = small
            files.update(others or {})
            for name, content in files.items():
                with open(os.path.join(raw, name), "w") as f:
                    json.dump(content, f)
            prefix = os.path.join(raw, "summary")
            apps = ["--apps", ",".join(r["app"] for r in reports)] if name_apps else []
            result = subprocess.run([sys.executable, SCRIPT, raw, prefix, *apps, *flags],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(prefix + ".json") as f:
                summary = json.load(f)
            with open(prefix + ".md") as f:
                return summary, f.read()

    def test_ratios_against_the_targets(self):
        summary, markdown = self.summarize(
            [report("fast", 0.010, 0.012, 1.00, 1.03), report("slow", 0.010, 0.014, 1.00, 1.10)],
            SMALL, ["--title", "Pageable memory on GPU X, 2026-11-28", "--command", "bench.sh"])
        # What a summary is of travels with it, for a program as for a person.
        self.assertEqual(summary["title"], "Pageable memory on GPU X, 2026-11-28")
        self.assertEqual(summary["command"], "bench.sh")
        self.assertIn("# Pageable memory on GPU X, 2026-11-28", markdown)
        fast, slow = summary["applications"]
        self.assertAlmostEqual(fast["staged_vs_pinned"], 1.2)
        self.assertTrue(fast["staged_met"])
        self.assertAlmostEqual(slow["staged_vs_pinned"], 1.4)
        self.assertFalse(slow["staged_met"])
        self.assertTrue(fast["loop_met"])
        self.assertFalse(slow["loop_met"])
        # The fastest registration is Streams 16's, not Mapped's.
        self.assertAlmostEqual(fast["staged_speedup_vs_registered"], 0.050 / 0.012)
        self.assertAlmostEqual(fast["staged_speedup_vs_explicit"], 0.070 / 0.012)
        # Stateless loops: 10 calls scaled to 100.
        self.assertAlmostEqual(fast["loop_explicit_s"], 7.0)
        self.assertAlmostEqual(fast["loop_speedup_vs_registered"], 5.0 / 1.03)
        self.assertIn("**1 of 2**", markdown)
        self.assertIn("1.40 ✗", markdown)

    def test_small_calls_compare_the_fastest_pageable_way_with_explicit(self):
        summary, markdown = self.summarize([report("a", 0.01, 0.012, 1, 1)], SMALL)
        first, second = summary["small"]
        self.assertEqual(first["pageable_best"]["config"], "Mapped, cached registration")
        self.assertTrue(first["met"])
        self.assertEqual(first["by_mode"]["staged"]["config"], "Streams 1, staged")
        self.assertEqual(second["pageable_best"]["config"], "Explicit")
        self.assertTrue(second["met"], "Explicit itself is never slower than Explicit")
        self.assertIn("**2 of 2** sizes", markdown)
        # K_tuned: 41 against 40 us is within the noise, 130 against 100 is not.
        self.assertTrue(first["tuned_met"])
        self.assertFalse(second["tuned_met"])
        self.assertAlmostEqual(second["tuned_vs_explicit"], 1.3)
        self.assertIn("**1 of 2** sizes", markdown)
        self.assertIn("1.30 ✗", markdown)

    def test_k_tuned_is_judged_against_the_explicit_calls_beside_it(self):
        small = json.loads(json.dumps(SMALL))
        # 130 us against the Explicit calls interleaved with it (125 us): within the noise.
        small["small"][1]["explicit_beside_tuned"] = measured("Explicit", 125e-6)
        summary, _ = self.summarize([report("a", 0.01, 0.012, 1, 1)], small)
        second = summary["small"][1]
        self.assertAlmostEqual(second["tuned_vs_explicit"], 1.04)
        self.assertTrue(second["tuned_met"])

    def test_the_host_copies_bound_the_staged_call(self):
        reachable = report("reachable", 0.010, 0.014, 1, 1)
        reachable["host_copy"] = {"threads": 15, "seconds": 0.011}
        beyond = report("beyond", 0.010, 0.020, 1, 1)
        beyond["host_copy"] = {"threads": 15, "seconds": 0.018, "staged_beside_seconds": 0.027}
        older = report("older", 0.010, 0.012, 1, 1)  # a report from before the bound existed
        summary, markdown = self.summarize([reachable, beyond, older])
        first, second, third = summary["applications"]
        self.assertTrue(first["staged_reachable"])
        self.assertAlmostEqual(first["staged_vs_host_copy"], 0.014 / 0.011)
        self.assertFalse(second["staged_reachable"])
        self.assertAlmostEqual(second["host_copy_vs_pinned"], 1.8)
        # Judged against the staged calls timed beside the copies, not the earlier ones.
        self.assertAlmostEqual(second["staged_vs_host_copy"], 1.5)
        self.assertIsNone(third["host_copy_s"])
        self.assertNotIn("staged_reachable", third)
        # 1 of the 2 bounded ones can meet the target; it misses it (1.4x).
        self.assertIn("so that the target can be met on this host: **1 of 2**; where it can, "
                      "staged within 1.3x: **0 of 1**", markdown)
        self.assertIn("| 18.0 (15 threads) | 1.80 ✗ |", markdown)
        self.assertIn("the copies timed after the staged calls, not in turn with them", markdown)
        self.assertIn("| - | - |", markdown)

    def test_the_huge_page_loop_shows_the_cache_apart_from_the_allocator(self):
        huge = report("huge", 0.010, 0.012, 1.00, 1.10)
        huge["loop"]["cached_huge_pages"] = measured(
            "Streams 16, cached registration", 1.04, "pageable, huge pages")
        older = report("older", 0.010, 0.012, 1.00, 1.02)  # before the huge-page loop existed
        summary, markdown = self.summarize([huge, older])
        first, second = summary["applications"]
        self.assertFalse(first["loop_met"])
        self.assertAlmostEqual(first["loop_huge_vs_pinned"], 1.04)
        self.assertTrue(first["loop_huge_met"])
        self.assertNotIn("loop_huge_s", second)
        self.assertIn("pageable arrays in huge pages (the fastest pinned configuration with the "
                      "cache) within 1.05x of the pinned loop: **1 of 1**", markdown)
        self.assertIn("| 1040.0 (Streams 16, cached registration) | 1.040 |", markdown)

    def test_host_addresses_are_against_the_page_aligned_pinned_buffer(self):
        times = {"h2d": 0.002, "d2h": 0.002, "both": 0.001, "mapped_write": 0.002,
                 "mapped_read": 0.002}
        off = dict(times, mapped_write=0.0032, mapped_read=0.0024)
        alignment = {"bytes": 128 << 20, "rounds": 9,
                     "seconds": {"cudaHostAlloc+0": times, "malloc+16": off}}
        # No --apps: the probe's report is not an application's.
        summary, markdown = self.summarize([report("a", 0.01, 0.012, 1, 1)],
                                           others={"host-alignment.json": alignment},
                                           name_apps=False)
        self.assertEqual([a["app"] for a in summary["applications"]], ["a"])
        rows = summary["host_alignment"]["buffers"]
        self.assertAlmostEqual(rows[1]["ratio"]["mapped_write"], 1.6)
        self.assertAlmostEqual(rows[1]["ratio"]["h2d"], 1.0)
        self.assertIn("| malloc+16 | 2.000 ms (1.00x) | 2.000 ms (1.00x) | 1.000 ms (1.00x) "
                      "| 3.200 ms (1.60x) | 2.400 ms (1.20x) |", markdown)

    def test_wrong_results_are_named(self):
        summary, markdown = self.summarize([report("bad", 0.01, 0.012, 1, 1, correct=False)])
        self.assertEqual(summary["applications"][0]["wrong"], ["Streams 16, staged (pageable)"])
        self.assertIn("**not** in bad", markdown)
        self.assertIn("## Wrong results or failures", markdown)


if __name__ == "__main__":
    unittest.main()
