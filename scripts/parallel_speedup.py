#!/usr/bin/env python3
"""Parallel search speed-up (issue 7): time to reach a fixed depth with 1 and with N threads.

    python3 scripts/parallel_speedup.py [--threads 2] [--runs 3]

Runs `strata bench --variant V --depth D --threads T --verbose` for every variant the binary
plays (`strata variants --verbose`, which gives each one's bench depth) at a depth a little
above the bench default: two plies, one in the slow Polyhedron and Future Generation (so that
most positions take a few hundred milliseconds),
RUNS times per thread count, takes each position's median time, and prints per position the
ratio time(N threads) / time(1 thread) and the median ratio over all positions. Positions
whose one-thread time is under 20 ms are listed but left out of the median (the timer's
resolution is a millisecond and thread start-up dominates there).
"""
import argparse
import re
import statistics
import subprocess

# Plies above the bench depth: two, but where a ply costs much more.
EXTRA_PLIES = {"polyhedron": 1, "future-generation": 1}
LINE = re.compile(r"^(\S+) position (\d+): depth (\d+) nodes (\d+) time (\d+) ms")


def depths(strata):
    """Every variant `strata variants --verbose` lists, with the depth to search it to."""
    out = subprocess.run([strata, "variants", "--verbose"],
                         capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        name, *words = line.split(" ")
        bench = int(dict(w.split("=", 1) for w in words if "=" in w)["bench-depth"])
        found[name] = bench + EXTRA_PLIES.get(name, 2)
    return found


def run(strata, variant, depth, threads):
    out = subprocess.run([strata, "bench", "--variant", variant, "--depth", str(depth),
                          "--threads", str(threads), "--verbose"],
                         capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            times[int(m.group(2))] = int(m.group(5))
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strata", default="target/release/strata")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    ratios = []
    for variant, depth in depths(a.strata).items():
        samples = {1: {}, a.threads: {}}
        for _ in range(a.runs):
            for t in samples:
                for pos, ms in run(a.strata, variant, depth, t).items():
                    samples[t].setdefault(pos, []).append(ms)
        for pos in sorted(samples[1]):
            t1 = statistics.median(samples[1][pos])
            tn = statistics.median(samples[a.threads][pos])
            if t1 < 20:
                print(f"{variant} position {pos} depth {depth}: 1 thread {t1:.0f} ms, "
                      f"{a.threads} threads {tn:.0f} ms (too short, left out)")
                continue
            r = tn / t1
            ratios.append(r)
            print(f"{variant} position {pos} depth {depth}: 1 thread {t1:.0f} ms, "
                  f"{a.threads} threads {tn:.0f} ms, ratio {r:.2f}", flush=True)
    print(f"median ratio over {len(ratios)} positions: {statistics.median(ratios):.2f} "
          f"(time with {a.threads} threads / time with 1 thread, median of {a.runs} runs each)")


if __name__ == "__main__":
    main()
