#!/usr/bin/env python3
"""Speed of two builds compared on `strata bench`: nps and time to the bench depths.

Usage: python3 scripts/bench_ab.py OLD_BINARY NEW_BINARY [--runs N] [-- BENCH ARGS...]

Runs `BINARY bench BENCH ARGS` alternately for the two binaries, RUNS times each (default 9),
so that slow and fast moments of a shared machine fall on both alike, and prints per binary
and per variant the median nps and the median time to reach the bench depth, with the
ratio new/old. The node counts of each binary must be the same in every run (one thread:
the bench is deterministic); the script says so if they are not.

Example (2 cores): python3 scripts/bench_ab.py /tmp/strata_old target/release/strata --runs 11
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"^(\S+): (\d+) nodes (\d+) nps$")


def run(binary, args):
    """Per variant (and 'total'): (nodes, nps, seconds)."""
    out = subprocess.run([binary, "bench", *args], capture_output=True, text=True, check=True)
    rows = {}
    for line in out.stdout.splitlines():
        m = LINE.match(line.strip())
        if m:
            nodes, nps = int(m.group(2)), int(m.group(3))
            rows[m.group(1)] = (nodes, nps, nodes / max(nps, 1))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("old")
    p.add_argument("new")
    # Everything after `--` goes to `bench` (argparse's REMAINDER would also swallow a
    # `--runs` written after the binaries, as the usage above writes it).
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = p.parse_args(argv[:cut])
    a.bench_args = argv[cut + 1 :]
    results = {a.old: [], a.new: []}
    for i in range(a.runs):
        for b in (a.old, a.new):
            results[b].append(run(b, a.bench_args))
        print(f"run {i + 1}/{a.runs} done", flush=True)
    print(f"cores: {os.cpu_count()}, runs: {a.runs} each, command: bench {' '.join(a.bench_args)}")
    names = list(results[a.old][0].keys())
    med = {}
    for b in (a.old, a.new):
        for n in names:
            counts = {r[n][0] for r in results[b]}
            if len(counts) != 1:
                print(f"warning: {b} {n}: node counts differ between runs: {sorted(counts)}")
            med[(b, n)] = (
                results[b][0][n][0],
                statistics.median(r[n][1] for r in results[b]),
                statistics.median(r[n][2] for r in results[b]),
            )
    print(f"{'variant':<20}{'old nodes':>12}{'new nodes':>12}{'old nps':>12}{'new nps':>12}"
          f"{'nps new/old':>13}{'old s':>9}{'new s':>9}{'time new/old':>14}")
    for n in names:
        o, w = med[(a.old, n)], med[(a.new, n)]
        print(f"{n:<20}{o[0]:>12}{w[0]:>12}{o[1]:>12.0f}{w[1]:>12.0f}{w[1] / o[1]:>13.3f}"
              f"{o[2]:>9.3f}{w[2]:>9.3f}{w[2] / o[2]:>14.3f}")


if __name__ == "__main__":
    main()
