#!/usr/bin/env python3
"""The pageable benchmark's summary (scripts/bench.sh pageable): RAW_DIR/<app>.json and
RAW_DIR/small.json, as bench_pageable writes them, into PREFIX.md and PREFIX.json.

Issue 25's targets: a one-off call staged within 1.3x of the fastest pinned configuration; a loop
of calls on the same buffers with the registration cache within 1.05x of the pinned loop; both
against pageable Explicit and per-call registration; and small calls (<= 1 MB) on pageable memory
never slower than pageable Explicit: K_tuned's own call (its choice for pageable memory), within
TUNED_NOISE of pageable Explicit's median (two medians of one configuration differ by that much),
and the fastest pageable way, which a pageable tuning would pick.

A staged call moves every byte through the host's copies, so it is no faster than they are alone
(`host_copy` of a report: the call's bytes in the staging ring's pieces on its widest thread
count, timed in turn with calls of the fastest staged configuration: `staged_beside_seconds`).
Where that exceeds STAGED_TARGET x the fastest pinned call, the staged target cannot be met on
this host; reports without it (before 2026-11-28) leave the bound unknown.

    summarize_pageable.py RAW_DIR PREFIX [--apps A,B,...] [--title TEXT] [--command TEXT]
"""
import argparse
import json
import math
import os
import sys

STAGED_TARGET = 1.3
LOOP_TARGET = 1.05
TUNED_NOISE = 1.05


def fastest(measured):
    ok = [m for m in measured if not m.get("error") and m["seconds"] > 0]
    return min(ok, key=lambda m: m["seconds"]) if ok else None


def wrong(report):
    """Configurations whose result differed from pinned Explicit's, or that failed."""
    found = []
    lists = [report.get(key, []) for key in ("pinned", "registered", "staged")]
    singles = [report.get("pageable_explicit")] + list(report.get("loop", {}).values())
    for m in [m for ms in lists for m in ms] + [m for m in singles if isinstance(m, dict)]:
        if m.get("error") or not m.get("correct", False):
            found.append(f'{m["config"]} ({m["memory"]}){": " + m["error"] if m.get("error") else ""}')
    return found


def application(report):
    pinned = fastest(report["pinned"])
    explicit = report["pageable_explicit"]
    registered = fastest(report["registered"])
    staged = fastest(report["staged"])
    loop = report["loop"]
    scale = loop["explicit_scale"]
    row = {
        "app": report["app"],
        "kernel": report["kernel"],
        "mb": report["bytes"] / 1e6,
        "pinned": pinned,
        "pageable_explicit": explicit,
        "registered": registered,
        "staged": staged,
        "staged_vs_pinned": staged["seconds"] / pinned["seconds"],
        "staged_speedup_vs_explicit": explicit["seconds"] / staged["seconds"],
        "staged_speedup_vs_registered": registered["seconds"] / staged["seconds"],
        "loop_calls": report["loop_calls"],
        "loop_pinned_s": loop["pinned"]["seconds"],
        "loop_pinned_same_config_s": loop["pinned_same_config"]["seconds"],
        "loop_cached_s": loop["cached"]["seconds"],
        "loop_config": loop["cached"]["config"],
        "loop_explicit_s": loop["explicit"]["seconds"] * scale,
        "loop_registered_s": loop["registered"]["seconds"] * scale,
        "loop_staged_s": loop["staged"]["seconds"] * scale,
        "cache": report.get("cache", {}),
        "wrong": wrong(report),
    }
    row["loop_cached_vs_pinned"] = row["loop_cached_s"] / row["loop_pinned_s"]
    huge = loop.get("cached_huge_pages")  # reports before 2026-11-29 have none
    if huge and huge.get("seconds"):
        row["loop_huge_s"] = huge["seconds"]
        row["loop_huge_config"] = huge["config"]
        row["loop_huge_vs_pinned"] = huge["seconds"] / row["loop_pinned_s"]
        row["loop_huge_met"] = row["loop_huge_vs_pinned"] <= LOOP_TARGET
    row["loop_speedup_vs_explicit"] = row["loop_explicit_s"] / row["loop_cached_s"]
    row["loop_speedup_vs_registered"] = row["loop_registered_s"] / row["loop_cached_s"]
    host_copy = report.get("host_copy", {})
    row["host_copy_s"] = host_copy.get("seconds", 0) or None
    row["host_copy_threads"] = host_copy.get("threads")
    if row["host_copy_s"]:
        row["host_copy_vs_pinned"] = row["host_copy_s"] / pinned["seconds"]
        row["staged_reachable"] = row["host_copy_vs_pinned"] <= STAGED_TARGET
        # Against the staged calls timed in turn with the copies where the report has them: the
        # host's memory bandwidth drifts between one measurement and the next.
        row["host_copy_beside"] = bool(host_copy.get("staged_beside_seconds"))
        beside = host_copy.get("staged_beside_seconds") or staged["seconds"]
        row["staged_vs_host_copy"] = beside / max(row["host_copy_s"], pinned["seconds"])
    row["staged_met"] = row["staged_vs_pinned"] <= STAGED_TARGET
    row["loop_met"] = row["loop_cached_vs_pinned"] <= LOOP_TARGET
    return row


def small_calls(report):
    rows = []
    for size in report["small"]:
        explicit = size["pageable"][0]
        best = fastest(size["pageable"])
        by_mode = {}
        for mode in ("registered per call", "cached registration", "staged"):
            of_mode = [m for m in size["pageable"] if mode in m["config"]]
            by_mode[mode] = fastest(of_mode)
        tuned = size["tuned"]
        # K_tuned against the Explicit calls interleaved with its own, where the report has them.
        beside = size.get("explicit_beside_tuned", explicit)
        rows.append({
            "n": size["n"],
            "tuned": tuned,
            "explicit_beside_tuned": beside,
            "tuned_vs_explicit": tuned["seconds"] / beside["seconds"],
            "tuned_met": tuned["seconds"] <= beside["seconds"] * TUNED_NOISE,
            "bytes": size["bytes"],
            "pageable_explicit": explicit,
            "pageable_best": best,
            "best_vs_explicit": best["seconds"] / explicit["seconds"],
            "by_mode": by_mode,
            "pinned_best": fastest(size["pinned"]),
            "met": best["seconds"] <= explicit["seconds"],
            "wrong": [m["config"] for m in size["pageable"] + size["pinned"] + [tuned]
                      if m.get("error") or not m.get("correct", False)],
        })
    return rows


def ms(seconds):
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def small_glance(small):
    met = sum(r["met"] for r in small)
    tuned_met = sum(r["tuned_met"] for r in small)
    return (f"- Small calls (<= 1 MB) on pageable memory: K_tuned no slower than pageable Explicit "
            f"(within {TUNED_NOISE}x, the noise of one configuration's medians): **{tuned_met} of "
            f"{len(small)}** sizes; the fastest pageable way no slower than pageable Explicit: "
            f"**{met} of {len(small)}** sizes.")


ALIGNMENT_FILE = "host-alignment.json"  # bench_host_alignment's report
ALIGNMENT_TESTS = ("h2d", "d2h", "both", "mapped_write", "mapped_read")


def host_alignment(report):
    """Each buffer's medians against the first buffer's (cudaHostAlloc'ed, at a page's start)."""
    seconds = report["seconds"]
    base = next(iter(seconds.values()))
    return {"bytes": report["bytes"], "rounds": report["rounds"],
            "buffers": [{"buffer": name,
                         "seconds": times,
                         "ratio": {t: times[t] / base[t] for t in ALIGNMENT_TESTS}}
                        for name, times in seconds.items()]}


def alignment_lines(alignment):
    lines = ["", "## Where host arrays start (bench_host_alignment)", "",
             f"{alignment['bytes'] >> 20} MiB each way, medians of {alignment['rounds']} rounds, "
             "each buffer and test in turn; the time against the first row's (cudaHostAlloc, at a "
             "page's start). `both`: half the bytes each way at once; `mapped`: a kernel reading or "
             "writing the host memory itself.", "",
             "| buffer | " + " | ".join(ALIGNMENT_TESTS) + " |",
             "|---|" + "---:|" * len(ALIGNMENT_TESTS)]
    for row in alignment["buffers"]:
        lines.append(f"| {row['buffer']} | "
                     + " | ".join(f"{row['seconds'][t] * 1e3:.3f} ms ({row['ratio'][t]:.2f}x)"
                                  for t in ALIGNMENT_TESTS) + " |")
    return lines


def markdown(apps, small, title, command, alignment=None):
    lines = [f"# {title}", ""]
    if command:
        lines += [f"Command: `{command}`", ""]
    if apps:
        staged_met = sum(r["staged_met"] for r in apps)
        loop_met = sum(r["loop_met"] for r in apps)
        lines += [
            "## At a glance", "",
            f"- One-off call, staged, within {STAGED_TARGET}x of the fastest pinned configuration: "
            f"**{staged_met} of {len(apps)}** (geometric mean "
            f"{geomean([r['staged_vs_pinned'] for r in apps]):.2f}x); "
            f"speed-up over pageable Explicit {geomean([r['staged_speedup_vs_explicit'] for r in apps]):.2f}x, "
            f"over per-call registration {geomean([r['staged_speedup_vs_registered'] for r in apps]):.2f}x "
            "(geometric means).",
        ]
        bounded = [r for r in apps if r.get("host_copy_s")]
        if bounded:
            reachable = [r for r in bounded if r["staged_reachable"]]
            lines.append(
                f"- The host's copies of the call's bytes alone (the bound of a staged call) within "
                f"{STAGED_TARGET}x of the fastest pinned call, so that the target can be met on this "
                f"host: **{len(reachable)} of {len(bounded)}**; where it can, staged within "
                f"{STAGED_TARGET}x: **{sum(r['staged_met'] for r in reachable)} of "
                f"{len(reachable)}**. Staged against its bound (the slower of the host's copies and "
                f"the pinned call; "
                + ("the staged calls timed in turn with the copies"
                   if all(r.get("host_copy_beside") for r in bounded) else
                   "the copies timed after the staged calls, not in turn with them")
                + f"): geometric mean "
                f"{geomean([r['staged_vs_host_copy'] for r in bounded]):.2f}x.")
        lines += [
            f"- Loop of {apps[0]['loop_calls']} calls with the registration cache within "
            f"{LOOP_TARGET}x of the pinned loop: **{loop_met} of {len(apps)}** (geometric mean "
            f"{geomean([r['loop_cached_vs_pinned'] for r in apps]):.3f}x); speed-up over pageable "
            f"Explicit {geomean([r['loop_speedup_vs_explicit'] for r in apps]):.2f}x, over per-call "
            f"registration {geomean([r['loop_speedup_vs_registered'] for r in apps]):.2f}x.",
        ]
        huge = [r for r in apps if "loop_huge_s" in r]
        if huge:
            lines.append(
                f"- The same loop on pageable arrays in huge pages (the fastest pinned configuration "
                f"with the cache) within {LOOP_TARGET}x of the pinned loop: "
                f"**{sum(r['loop_huge_met'] for r in huge)} of {len(huge)}** (geometric "
                f"mean {geomean([r['loop_huge_vs_pinned'] for r in huge]):.3f}x): what the "
                "cache costs apart from how the allocator laid the arrays out.")
        if small:
            lines.append(small_glance(small))
        wrong_apps = [r["app"] for r in apps if r["wrong"]]
        lines.append("- Results equal to pinned Explicit's, bit for bit: "
                     + ("every configuration" if not wrong_apps else
                        "**not** in " + ", ".join(wrong_apps) + " (below)"))
        lines += ["", "## One-off call (ms, medians)", "",
                  "`host copies`: the call's bytes copied between pageable memory and pinned slots "
                  "alone, on the staging ring's widest thread count; `/ pinned` above "
                  f"{STAGED_TARGET} (✗) makes the staged target unreachable on this host.", "",
                  "| application | MB | pinned best | pageable Explicit | per-call registration "
                  "| staged | staged / pinned | host copies | / pinned | vs Explicit | vs registration |",
                  "|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|"]
        for r in apps:
            if r.get("host_copy_s"):
                bound = (f"{ms(r['host_copy_s'])} ({r['host_copy_threads']} threads) "
                         f"| {r['host_copy_vs_pinned']:.2f}{'' if r['staged_reachable'] else ' ✗'}")
            else:
                bound = "- | -"
            lines.append(
                f"| {r['app']} | {r['mb']:.0f} | {ms(r['pinned']['seconds'])} ({r['pinned']['config']}) "
                f"| {ms(r['pageable_explicit']['seconds'])} "
                f"| {ms(r['registered']['seconds'])} ({r['registered']['config']}) "
                f"| {ms(r['staged']['seconds'])} ({r['staged']['config']}) "
                f"| {r['staged_vs_pinned']:.2f}{'' if r['staged_met'] else ' ✗'} | {bound} "
                f"| {r['staged_speedup_vs_explicit']:.2f}x | {r['staged_speedup_vs_registered']:.2f}x |")
        lines += ["", f"## Loop of {apps[0]['loop_calls']} calls on the same buffers (ms in all)", "",
                  "The cached loop runs the configuration fastest with a warm registration cache "
                  "(a cache is no use to Explicit), from a cold cache; `pinned` runs it on pinned "
                  "memory, `pinned best` the fastest pinned configuration of all; `huge pages` "
                  "runs the fastest pinned configuration with the cache on pageable arrays at the "
                  "start of a transparent huge page (`new[]` puts a large array 16 bytes past a "
                  "4 KiB page, where a kernel's 128-byte lines of host memory straddle two). The loops "
                  "are interleaved in blocks of 10 calls. Pageable Explicit, per-call registration "
                  "and staging keep no state between calls: their loops are "
                  f"{apps[0]['loop_calls']} / slow-loop calls times the time of their shorter loop.", "",
                  "| application | configuration | pinned best | pinned | cached | cached / pinned best "
                  "| huge pages | / pinned best "
                  "| pageable Explicit | per-call registration | staged | cache hits / registrations |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in apps:
            cache = r["cache"]
            lines.append(
                f"| {r['app']} | {r['loop_config']} | {ms(r['loop_pinned_s'])} "
                f"| {ms(r['loop_pinned_same_config_s'])} | {ms(r['loop_cached_s'])} "
                f"| {r['loop_cached_vs_pinned']:.3f}{'' if r['loop_met'] else ' ✗'} "
                + (f"| {ms(r['loop_huge_s'])} ({r['loop_huge_config']}) "
                   f"| {r['loop_huge_vs_pinned']:.3f}{'' if r['loop_huge_met'] else ' ✗'} "
                   if "loop_huge_s" in r else "| - | - ")
                + f"| {ms(r['loop_explicit_s'])} | {ms(r['loop_registered_s'])} "
                f"| {ms(r['loop_staged_s'])} "
                f"| {cache.get('hits', '?')} / {cache.get('registrations', '?')} |")
    if small and not apps:
        lines += ["## At a glance", "", small_glance(small)]
    if small:
        lines += ["", "## Small calls on pageable memory (saxpy, µs, medians)", "",
                  "K_tuned is timed call by call beside pageable Explicit (`/ Explicit`: against "
                  "those Explicit calls); the other ways one after another.", "",
                  "| n | bytes | pageable Explicit | K_tuned | / Explicit | fastest pageable "
                  "| / Explicit | registered per call | cached (later calls) | staged | pinned best |",
                  "|---:|---:|---:|---|---:|---|---:|---|---|---|---|"]
        for r in small:
            def us(m):
                return f"{m['seconds'] * 1e6:.1f} ({m['config']})" if m else "-"
            lines.append(
                f"| {r['n']} | {r['bytes']} | {r['pageable_explicit']['seconds'] * 1e6:.1f} "
                f"| {us(r['tuned'])} | {r['tuned_vs_explicit']:.2f}{'' if r['tuned_met'] else ' ✗'} "
                f"| {us(r['pageable_best'])} | {r['best_vs_explicit']:.2f}{'' if r['met'] else ' ✗'} "
                f"| {us(r['by_mode']['registered per call'])} | {us(r['by_mode']['cached registration'])} "
                f"| {us(r['by_mode']['staged'])} | {us(r['pinned_best'])} |")
    if alignment:
        lines += alignment_lines(alignment)
    wrong_rows = [(r["app"], w) for r in apps for w in r["wrong"]] + \
                 [(f"saxpy {r['n']}", w) for r in small for w in r["wrong"]]
    if wrong_rows:
        lines += ["", "## Wrong results or failures", ""]
        lines += [f"- {app}: {what}" for app, what in wrong_rows]
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw_dir")
    parser.add_argument("prefix")
    parser.add_argument("--apps", default="", help="comma-separated order of the applications")
    parser.add_argument("--title", default="Pageable memory: staging and the registration cache")
    parser.add_argument("--command", default="")
    args = parser.parse_args(argv)
    names = [n for n in args.apps.split(",") if n]
    if not names:
        names = sorted(f[:-5] for f in os.listdir(args.raw_dir)
                       if f.endswith(".json") and f not in ("small.json", ALIGNMENT_FILE))
    apps = []
    for name in names:
        path = os.path.join(args.raw_dir, name + ".json")
        if os.path.exists(path):
            with open(path) as f:
                apps.append(application(json.load(f)))
        else:
            print(f"summarize_pageable: no report for {name}", file=sys.stderr)
    small = []
    small_path = os.path.join(args.raw_dir, "small.json")
    if os.path.exists(small_path):
        with open(small_path) as f:
            small = small_calls(json.load(f))
    alignment = None
    alignment_path = os.path.join(args.raw_dir, ALIGNMENT_FILE)
    if os.path.exists(alignment_path):
        with open(alignment_path) as f:
            alignment = host_alignment(json.load(f))
    with open(args.prefix + ".md", "w") as f:
        f.write(markdown(apps, small, args.title, args.command, alignment))
    with open(args.prefix + ".json", "w") as f:
        json.dump({"title": args.title, "command": args.command,
                   "staged_target": STAGED_TARGET, "loop_target": LOOP_TARGET,
                   "applications": apps, "small": small, "host_alignment": alignment}, f,
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
