#!/usr/bin/env python3
"""The registered-memory benchmark's summary (scripts/bench.sh registered): each application tuned
exhaustively on pinned and on registered memory (malloc'ed arrays registered once, as the
registration cache holds a loop's buffers), in one tuner process per application.

What it answers (issue 25, "the tuned call knows the memory"): does the pinned tuning's winner
also win on registered memory, and what does running it there cost against the registered
tuning's winner, both timed in the registered tuning's run (the ratio is taken within one run;
interleaved with the winner only where the pinned winner was a finalist of that run's final round,
else from its own screening, which a slow window of the link can inflate).

RAW_DIR holds <app>/<kernel>.tuning.json (pinned) and <app>/<kernel>.registered.tuning.json.

    summarize_registered.py RAW_DIR PREFIX [--apps A,B,...] [--title TEXT] [--command TEXT]
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
OTHER_MEMORIES = tuple(".%s.tuning.json" % m for m in ("registered", "pageable", "managed"))


def load(raw, app, registered):
    pattern = "*.registered.tuning.json" if registered else "*.tuning.json"
    found = [p for p in sorted(glob.glob(os.path.join(raw, app, pattern)))
             if registered or not p.endswith(OTHER_MEMORIES)]
    if not found:
        return None
    with open(found[0]) as f:
        return json.load(f)


def winner(report):
    if report is None or report.get("winner") is None:
        return None
    return report["candidates"][report["winner"]]


def summarize_app(app, pinned, registered):
    row = {"app": app, "complete": False}
    pinned_best, registered_best = winner(pinned), winner(registered)
    if pinned_best is None or registered_best is None:
        row["problem"] = "no pinned tuning" if pinned_best is None else "no registered tuning"
        return row
    for report, memory in ((pinned, "pinned"), (registered, "registered")):
        if report["settings"].get("memory") != memory:
            row["problem"] = "the %s report is of %s memory" % (
                memory, report["settings"].get("memory", "unnamed"))
            return row
    by_name = {c["name"]: c for c in registered["candidates"] if median_of(c) is not None}
    pinned_there = by_name.get(pinned_best["name"])
    row.update(
        complete=pinned_there is not None,
        kernel=registered["kernel"]["name"],
        pinned_winner=pinned_best["name"], pinned_winner_s=median_of(pinned_best),
        registered_winner=registered_best["name"], registered_winner_s=median_of(registered_best),
        noise=registered["settings"]["noise"],
        same_winner=pinned_best["name"] == registered_best["name"],
        wrong=[c["name"] for c in registered["candidates"]
               if c.get("verification") in ("wrong-result", "failed")])
    if pinned_there is None:
        row["problem"] = "the pinned winner was not timed on registered memory"
        return row
    row["pinned_winner_on_registered_s"] = median_of(pinned_there)
    # Finalists keep their first timing as "screening_s"; the median is the final round's.
    row["pinned_winner_in_final_round"] = bool(pinned_there["timing"].get("screening_s"))
    row["pinned_winner_cost"] = median_of(pinned_there) / median_of(registered_best)
    row["registered_over_pinned"] = median_of(registered_best) / median_of(pinned_best)
    return row


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt_ms(seconds):
    return "%.3f" % (seconds * 1e3) if seconds < 0.01 else "%.1f" % (seconds * 1e3)


def render(rows, title, command):
    done = [r for r in rows if r["complete"]]
    differ = [r for r in done if not r["same_winner"]]
    costly = [r for r in done if r["pinned_winner_cost"] > 1 + r["noise"]]
    screened = [r for r in costly if not r["pinned_winner_in_final_round"]]
    lines = ["# " + title, "", "Command: `%s`" % command, "", "## At a glance", ""]
    lines.append("- Applications tuned on both memories: **%d of %d**." % (len(done), len(rows)))
    lines.append("- The registered tuning picked another winner than the pinned one: **%d of %d**."
                 % (len(differ), len(done)))
    lines.append("- The pinned winner run on registered memory slower than the registered winner "
                 "beyond the tuning's noise: **%d of %d**%s%s." % (
                     len(costly), len(done),
                     " (%s)" % ", ".join("%s %.2fx" % (r["app"], r["pinned_winner_cost"])
                                         for r in costly) if costly else "",
                     "; of these, timed only in screening, not beside the winner: %s" % ", ".join(
                         r["app"] for r in screened) if screened else ""))
    if done:
        lines.append("- Registered memory's best against pinned memory's best (geometric mean): "
                     "%.3fx." % geomean([r["registered_over_pinned"] for r in done]))
    wrong = [r for r in done if r["wrong"]]
    lines.append("- Results equal to Explicit's on registered memory: %s" % (
        "every candidate" if not wrong else
        "; ".join("%s: %s" % (r["app"], ", ".join(r["wrong"])) for r in wrong)))
    lines += ["", "## Winners (ms, medians; both timings on registered memory are from its run)",
              "", "| application | pinned winner | on pinned | registered winner | on registered "
              "| pinned winner on registered | cost of the pinned winner | registered / pinned |",
              "|---|---|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        if not r["complete"]:
            lines.append("| %s | %s | | | | | | |" % (r["app"], r.get("problem", "incomplete")))
            continue
        cost = "%.2fx%s%s" % (r["pinned_winner_cost"],
                              " ✗" if r["pinned_winner_cost"] > 1 + r["noise"] else "",
                              "" if r["pinned_winner_in_final_round"] else " (s)")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %.2fx |" % (
            r["app"], r["pinned_winner"], fmt_ms(r["pinned_winner_s"]), r["registered_winner"],
            fmt_ms(r["registered_winner_s"]), fmt_ms(r["pinned_winner_on_registered_s"]), cost,
            r["registered_over_pinned"]))
    lines += ["", "✗: beyond the registered tuning's noise (its `settings.noise`). (s): the pinned "
              "winner was no finalist of the registered run, so its time there is its screening's, "
              "not interleaved with the winner's.", ""]
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("raw")
    parser.add_argument("prefix")
    parser.add_argument("--apps", help="comma-separated, in this order (default: every folder)")
    parser.add_argument("--title", default="Pinned and registered memory")
    parser.add_argument("--command", default="scripts/bench.sh registered")
    args = parser.parse_args(argv)
    apps = args.apps.split(",") if args.apps else sorted(
        d for d in os.listdir(args.raw) if os.path.isdir(os.path.join(args.raw, d)))
    rows = [summarize_app(app, load(args.raw, app, False), load(args.raw, app, True))
            for app in apps]
    with open(args.prefix + ".md", "w") as f:
        f.write(render(rows, args.title, args.command))
    with open(args.prefix + ".json", "w") as f:
        json.dump({"title": args.title, "command": args.command, "applications": rows}, f,
                  indent=2)
        f.write("\n")
    print("wrote %s.md and %s.json (%d of %d applications complete)" % (
        args.prefix, args.prefix, sum(r["complete"] for r in rows), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
