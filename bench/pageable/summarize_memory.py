#!/usr/bin/env python3
"""The summary of tunings on two memories, pinned and another (registered or pageable), in one tuner
process per application or kernel: scripts/bench.sh registered (the applications, registered) and
scripts/bench.sh corpus-pageable (the corpus kernels, pageable).

What it answers (issue 25, "the tuned call knows the memory"): does the pinned tuning's winner
also win on the other memory, and what does running it there cost against that memory's winner,
both timed in the other memory's run (the ratio is taken within one run; interleaved with the
winner only where the pinned winner was a finalist of that run's final round, else from its own
screening, which a slow window of the link can inflate). On pageable memory also each way of
handling pageable arrays at its best against the pinned winner: registered per call and staged
from the pageable tuning (a one-off call's ways: issue 25's staging target is 1.3x), cached
registration from a tuning on registered memory (--registered-raw: a loop's arrays, registered
once; target 1.05x), each against the pinned winner of its own tuner process.

RAW_DIR holds <app>/<kernel>.tuning.json (pinned) and <app>/<kernel>.<memory>.tuning.json.

    summarize_memory.py RAW_DIR PREFIX [--memory registered|pageable] [--registered-raw DIR]
                        [--apps A,B,...] [--title TEXT] [--command TEXT]
"""
import argparse
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from summarize import median_of  # noqa: E402  (bench/summarize.py reads these reports too)

# The report stems overlap-tune gives memories other than pinned: <kernel>.<memory>.tuning.json.
OTHER_MEMORIES = ("registered", "pageable", "managed")
# The ways of handling pageable arrays the tuner tries (PageableMode's names in the reports), and
# issue 25's target for each against the pinned winner where it has one.
PAGEABLE_MODES = (("registered per call", None), ("cached registration", 1.05),
                  ("staged", 1.3))


def load(raw, app, memory):
    pattern = "*.tuning.json" if memory == "pinned" else "*.%s.tuning.json" % memory
    others = tuple(".%s.tuning.json" % m for m in OTHER_MEMORIES)
    found = [p for p in sorted(glob.glob(os.path.join(raw, app, pattern)))
             if memory != "pinned" or not p.endswith(others)]
    if not found:
        return None
    with open(found[0]) as f:
        return json.load(f)


def winner(report):
    if report is None or report.get("winner") is None:
        return None
    return report["candidates"][report["winner"]]


def against_pinned(candidate, pinned_best):
    return {"candidate": candidate["name"], "median_s": median_of(candidate),
            "over_pinned": median_of(candidate) / median_of(pinned_best)}


def summarize_app(app, pinned, other, memory):
    row = {"app": app, "complete": False}
    pinned_best, other_best = winner(pinned), winner(other)
    if pinned_best is None or other_best is None:
        row["problem"] = "no pinned tuning" if pinned_best is None else "no %s tuning" % memory
        return row
    for report, expected in ((pinned, "pinned"), (other, memory)):
        if report["settings"].get("memory") != expected:
            row["problem"] = "the %s report is of %s memory" % (
                expected, report["settings"].get("memory", "unnamed"))
            return row
    timed = [c for c in other["candidates"] if median_of(c) is not None]
    pinned_there = {c["name"]: c for c in timed}.get(pinned_best["name"])
    row.update(
        complete=True,
        kernel=other["kernel"]["name"],
        pinned_winner=pinned_best["name"], pinned_winner_s=median_of(pinned_best),
        other_winner=other_best["name"], other_winner_s=median_of(other_best),
        noise=other["settings"]["noise"],
        same_winner=pinned_best["name"] == other_best["name"],
        wrong=[c["name"] for c in other["candidates"]
               if c.get("verification") in ("wrong-result", "failed")])
    row["other_over_pinned"] = median_of(other_best) / median_of(pinned_best)
    if memory == "pageable":
        explicit = [c for c in timed if c.get("variant") == "Explicit"]
        row["explicit_s"] = min(median_of(c) for c in explicit) if explicit else None
        row["modes"] = {}
        for mode, _ in PAGEABLE_MODES:
            best = min((c for c in timed if c.get("pageable") == mode), key=median_of,
                       default=None)
            row["modes"][mode] = None if best is None else against_pinned(best, pinned_best)
    if pinned_there is None:  # pruned away on this memory
        row["pinned_winner_cost"] = None
        return row
    row["pinned_winner_on_other_s"] = median_of(pinned_there)
    # Finalists keep their first timing as "screening_s"; the median is the final round's.
    row["pinned_winner_in_final_round"] = bool(pinned_there["timing"].get("screening_s"))
    row["pinned_winner_cost"] = median_of(pinned_there) / median_of(other_best)
    return row


def add_cached_loop(row, pinned, registered):
    """Cached registration from a tuning on registered memory (a loop's arrays, registered once),
    against the pinned winner of the same tuner process."""
    if "modes" not in row or winner(pinned) is None or winner(registered) is None:
        return
    if registered["settings"].get("memory") != "registered":
        return
    cached = against_pinned(winner(registered), winner(pinned))
    cached["pinned_winner_s"] = median_of(winner(pinned))
    row["modes"]["cached registration"] = cached


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt_ms(seconds):
    if seconds is None:
        return "-"
    return "%.3f" % (seconds * 1e3) if seconds < 0.01 else "%.1f" % (seconds * 1e3)


def render_modes(rows):
    """On pageable memory: each way of handling the arrays at its best against the pinned winner."""
    tuned = [r for r in rows if "modes" in r]
    lines = ["", "## Pageable arrays, each way at its best against the pinned winner (ms, medians)",
             "", "| kernel | pinned winner | pageable Explicit | %s |" % " | ".join(
                 "%s%s" % (mode, " (target %.2fx)" % target if target else "")
                 for mode, target in PAGEABLE_MODES),
             "|---|---:|---:|" + "---:|" * len(PAGEABLE_MODES)]
    for r in tuned:
        cells = []
        for mode, target in PAGEABLE_MODES:
            best = r["modes"][mode]
            cells.append("-" if best is None else "%s (%.2fx%s)" % (
                fmt_ms(best["median_s"]), best["over_pinned"],
                " ✗" if target and best["over_pinned"] > target else ""))
        lines.append("| %s | %s | %s | %s |" % (r["app"], fmt_ms(r["pinned_winner_s"]),
                                                fmt_ms(r["explicit_s"]), " | ".join(cells)))
    return lines


def render(rows, memory, title, command):
    done = [r for r in rows if r["complete"]]
    differ = [r for r in done if not r["same_winner"]]
    priced = [r for r in done if r["pinned_winner_cost"] is not None]
    costly = [r for r in priced if r["pinned_winner_cost"] > 1 + r["noise"]]
    screened = [r for r in costly if not r["pinned_winner_in_final_round"]]
    lines = ["# " + title, "", "Command: `%s`" % command, "", "## At a glance", ""]
    lines.append("- Tuned on both memories: **%d of %d**." % (len(done), len(rows)))
    lines.append("- The %s tuning picked another winner than the pinned one: **%d of %d**."
                 % (memory, len(differ), len(done)))
    lines.append("- The pinned winner run on %s memory slower than the %s winner "
                 "beyond the tuning's noise: **%d of %d** timed there%s%s." % (
                     memory, memory, len(costly), len(priced),
                     " (%s)" % ", ".join("%s %.2fx" % (r["app"], r["pinned_winner_cost"])
                                         for r in costly) if costly else "",
                     "; of these, timed only in screening, not beside the winner: %s" % ", ".join(
                         r["app"] for r in screened) if screened else ""))
    if done:
        lines.append("- %s memory's best against pinned memory's best (geometric mean): "
                     "%.3fx." % (memory.capitalize(),
                                 geomean([r["other_over_pinned"] for r in done])))
    for mode, target in PAGEABLE_MODES if memory == "pageable" else ():
        timed = [r for r in rows if r.get("modes", {}).get(mode)]
        if target and timed:
            within = [r for r in timed if r["modes"][mode]["over_pinned"] <= target]
            lines.append("- %s within %.2fx of the pinned winner: **%d of %d**." % (
                mode.capitalize(), target, len(within), len(timed)))
    wrong = [r for r in done if r["wrong"]]
    lines.append("- Results equal to Explicit's on %s memory: %s" % (memory, (
        "every candidate" if not wrong else
        "; ".join("%s: %s" % (r["app"], ", ".join(r["wrong"])) for r in wrong))))
    lines += ["", "## Winners (ms, medians; both timings on %s memory are from its run)" % memory,
              "", "| application | pinned winner | on pinned | %s winner | on %s "
              "| pinned winner on %s | cost of the pinned winner | %s / pinned |" % (
                  (memory,) * 4),
              "|---|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        if not r["complete"]:
            lines.append("| %s | %s | | | | | | |" % (r["app"], r.get("problem", "incomplete")))
            continue
        cost = "not timed" if r["pinned_winner_cost"] is None else "%.2fx%s%s" % (
            r["pinned_winner_cost"], " ✗" if r["pinned_winner_cost"] > 1 + r["noise"] else "",
            "" if r["pinned_winner_in_final_round"] else " (s)")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %.2fx |" % (
            r["app"], r["pinned_winner"], fmt_ms(r["pinned_winner_s"]), r["other_winner"],
            fmt_ms(r["other_winner_s"]), fmt_ms(r.get("pinned_winner_on_other_s")), cost,
            r["other_over_pinned"]))
    lines += ["", "✗: beyond the %s tuning's noise (its `settings.noise`). (s): the pinned "
              "winner was no finalist of the %s run, so its time there is its screening's, "
              "not interleaved with the winner's. Not timed: the %s tuning pruned the pinned "
              "winner away." % (memory, memory, memory)]
    if memory == "pageable":
        lines += render_modes(rows)
        lines += ["", "✗: beyond issue 25's target. Each way's best over every variant that "
                  "tried it; the ratio against the pinned winner of the same tuner process (for "
                  "cached registration, the registered tuning's, whose pinned winner may differ "
                  "a little from the column's)."]
    return "\n".join(lines + [""])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("raw")
    parser.add_argument("prefix")
    parser.add_argument("--memory", choices=("registered", "pageable"), default="registered")
    parser.add_argument("--registered-raw", help="with --memory pageable: the raw reports of "
                        "tunings on pinned and registered memory (scripts/bench.sh corpus-pageable "
                        "with BENCH_MEMORY=registered), whose winners give cached registration")
    parser.add_argument("--apps", help="comma-separated, in this order (default: every folder)")
    parser.add_argument("--title", default=None)
    parser.add_argument("--command", default="scripts/bench.sh registered")
    args = parser.parse_args(argv)
    apps = args.apps.split(",") if args.apps else sorted(
        d for d in os.listdir(args.raw) if os.path.isdir(os.path.join(args.raw, d)))
    rows = [summarize_app(app, load(args.raw, app, "pinned"), load(args.raw, app, args.memory),
                          args.memory) for app in apps]
    if args.memory == "pageable" and args.registered_raw:
        for row in rows:
            add_cached_loop(row, load(args.registered_raw, row["app"], "pinned"),
                            load(args.registered_raw, row["app"], "registered"))
    title = args.title or "Pinned and %s memory" % args.memory
    with open(args.prefix + ".md", "w") as f:
        f.write(render(rows, args.memory, title, args.command))
    with open(args.prefix + ".json", "w") as f:
        json.dump({"title": title, "command": args.command, "memory": args.memory,
                   "applications": rows}, f, indent=2)
        f.write("\n")
    print("wrote %s.md and %s.json (%d of %d complete)" % (
        args.prefix, args.prefix, sum(r["complete"] for r in rows), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
