#!/usr/bin/env python3
"""Measure what strata's strength levels are worth in Elo: the tables of docs/results.md "Strength levels".

Every figure comes from `strata match` (its `Games:` line); the script only chooses
the pairings and adds up the results. Four commands:

  chess-ladder    each `Skill Level` L against Stockfish's UCI_LimitStrength at UCI_Elo X, for
                  each L:X of --pairs; for each X measured with a level above it and a level
                  below, the level that scores 50% against it (interpolated): the points of
                  the chess ladder (src/rules/chess/info.rs, `strength`). (Stockfish's levels and strata's do
                  not differ alike from one Elo to the next: a level's Elo read off one
                  lopsided match says little, so each point is bracketed.)
  chess-verify    strata at UCI_LimitStrength/UCI_Elo X against Stockfish at the same X, for each
                  X of --elos: a score near 50% means X means what it says.
  ladder          one variant in self-play: each level of --levels against the next; the Elo of
                  the level --anchor is its chess Elo (--anchor-elo), the others follow by adding
                  up the measured differences (that variant's ladder, `strength` in its src/rules/VARIANT/info.rs).
  verify          one variant in self-play: UCI_Elo X against UCI_Elo Y for each X:Y of --pairs,
                  measured difference against the claimed Y - X.

Stockfish's skill levels choose their move at the depth 1 + int(level), level =
((Elo - 1346.6) / 143.4)^(1 / 0.806) (Stockfish 15.1, search.cpp), whatever the clock allows
beyond it; the script caps Stockfish's depth at that pick depth, which leaves its moves as they
are and saves its clock time. strata's levels below 20 stop at their node limit, so their
games are fast too; only full strength (level 20) uses its clock.

Examples (2 cores; docs/results.md "Strength levels" gives every command its tables came from):
  python3 scripts/calibrate_strength.py chess-ladder --games 100 \\
      --pairs 5:1450,7:1450,6:1700,8:1700,10:1700,13:1900,15:1900
  python3 scripts/calibrate_strength.py chess-verify --elos 1450,1700 --games 100
  python3 scripts/calibrate_strength.py ladder --variant pole --levels 0,3,4,5,6,7,10,15,19 \\
      --step-games 100,100,100,100,100,100,100,60 --anchor 10 --anchor-elo 1768 --random-plies 4
  python3 scripts/calibrate_strength.py verify --variant pole --pairs 1000:1200,1500:1700 \\
      --random-plies 4
"""

import argparse
import math
import os
import re
import subprocess
import sys

STRATA = os.environ.get("STRATA", "target/release/strata")
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")

GAMES = re.compile(r"^Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+), Points: ([\d.]+)")


def sf_pick_depth(elo):
    """The depth at which Stockfish 15.1 at UCI_Elo `elo` picks its move."""
    level = max(0.0, (elo - 1346.6) / 143.4) ** (1 / 0.806)
    return 1 + int(min(level, 20.0))


def elo_diff(score):
    """The logistic Elo difference of a score in (0, 1)."""
    score = min(max(score, 0.5 / 1000), 1 - 0.5 / 1000)
    return -400 * math.log10(1 / score - 1)


def interval(w, d, l):
    """95% interval of the Elo difference (trinomial), as (low, high)."""
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    return elo_diff(s - half) if s - half > 0 else -math.inf, elo_diff(s + half) if s + half < 1 else math.inf


def match(a, b, args, variant="chess", games=None):
    """Plays engines `a` and `b` (lists of --engine KEY=VALUE items); returns (w, d, l) of a."""
    games = games or args.games
    cmd = [
        STRATA, "match", "--variant", variant,
        "--engine", *a, "--engine", *b,
        "--games", str(games), "--concurrency", str(args.concurrency),
        "--openings", f"random-plies={args.random_plies}", f"seed={args.seed}",
        "--resign", "movecount=4", "score=1000", "twosided=true",
        "--ratinginterval", str(games),
    ]
    if variant != "chess":
        cmd += ["--maxmoves", str(args.maxmoves)]
    if args.pgnout:
        cmd += ["--pgnout", args.pgnout]
    print("$ " + " ".join(f"'{c}'" if " " in c else c for c in cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    found = [GAMES.match(line) for line in out.splitlines() if GAMES.match(line)]
    if not found:
        sys.exit(f"no result from strata match:\n{out}")
    m = found[-1]
    w, l, d = int(m.group(2)), int(m.group(3)), int(m.group(4))
    return w, d, l


def strata(name, *options, tc):
    return [f"cmd={STRATA}", f"name={name}", f"tc={tc}", *(f"option.{o}" for o in options)]


def level_engine(level, tc):
    return strata(f"L{level}", f"Skill Level={level}", tc=tc)


def elo_engine(elo, tc):
    return strata(f"E{elo}", "UCI_LimitStrength=true", f"UCI_Elo={elo}", tc=tc)


def stockfish(elo, tc):
    return [
        f"cmd={STOCKFISH}", f"name=sf{elo}", f"tc={tc}", f"depth={sf_pick_depth(elo)}",
        "option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}",
    ]


def row(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    lo, hi = interval(w, d, l)
    e = elo_diff(s)
    return n, f"+{w} ={d} -{l}", f"{100 * s:.1f}%", e, f"{e:+.0f} [{lo:+.0f}, {hi:+.0f}]"


def header(cols):
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")


def chess_ladder(args):
    results = []
    header(["level", "against", "games", "+W =D -L", "score", "Elo diff [95%]"])
    for pair in args.pairs.split(","):
        level, sf = (int(x) for x in pair.split(":"))
        w, d, l = match(level_engine(level, args.tc), stockfish(sf, args.tc), args)
        n, wdl, score, e, text = row(w, d, l)
        results.append((level, sf, e))
        print(f"| {level} | Stockfish {sf} | {n} | {wdl} | {score} | {text} |", flush=True)
    # The level that scores 50% against Stockfish at X: between the two levels measured
    # against X on either side of 0, where the difference crosses 0.
    print()
    for sf in sorted({r[1] for r in results}):
        rs = sorted((lv, e) for lv, s2, e in results if s2 == sf)
        for (l1, e1), (l2, e2) in zip(rs, rs[1:]):
            if e1 <= 0 <= e2 and e2 > e1:
                level = l1 + (l2 - l1) * (0 - e1) / (e2 - e1)
                print(f"UCI_Elo {sf}: level {level:.2f} (between {l1} at {e1:+.0f} and {l2} at {e2:+.0f})")


def chess_verify(args):
    header(["UCI_Elo", "games", "+W =D -L", "score", "Elo diff [95%]"])
    for elo in (int(x) for x in args.elos.split(",")):
        w, d, l = match(elo_engine(elo, args.tc), stockfish(elo, args.tc), args)
        n, wdl, score, _, text = row(w, d, l)
        print(f"| {elo} vs Stockfish {elo} | {n} | {wdl} | {score} | {text} |", flush=True)


def ladder(args):
    levels = [int(x) for x in args.levels.split(",")]
    steps = list(zip(levels, levels[1:]))
    games = [int(x) for x in str(args.step_games or args.games).split(",")]
    games += [games[-1]] * (len(steps) - len(games))
    diffs = []
    header(["levels", "games", "+W =D -L", "score", "Elo diff [95%]"])
    for (lo, hi), n in zip(steps, games):
        w, d, l = match(level_engine(hi, args.tc), level_engine(lo, args.tc), args, args.variant, n)
        n, wdl, score, e, text = row(w, d, l)
        diffs.append(e)
        print(f"| {hi} vs {lo} | {n} | {wdl} | {score} | {text} |", flush=True)
    elo = {levels[0]: 0.0}
    for (lo, hi), e in zip(steps, diffs):
        elo[hi] = elo[lo] + e
    shift = args.anchor_elo - elo[args.anchor]
    print()
    print(f"{args.variant} ladder (level {args.anchor} at {args.anchor_elo}): "
          + ", ".join(f"({lv}.0, {elo[lv] + shift:.0f}.0)" for lv in levels))


def verify(args):
    header(["UCI_Elo", "games", "+W =D -L", "score", "Elo diff [95%]", "claimed"])
    for pair in args.pairs.split(","):
        lo, hi = (int(x) for x in pair.split(":"))
        w, d, l = match(elo_engine(hi, args.tc), elo_engine(lo, args.tc), args, args.variant)
        n, wdl, score, _, text = row(w, d, l)
        print(f"| {hi} vs {lo} | {n} | {wdl} | {score} | {text} | {hi - lo:+d} |", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["chess-ladder", "chess-verify", "ladder", "verify"])
    p.add_argument("--variant", default="chess")
    p.add_argument("--levels", default="0,5,10,15,19")
    p.add_argument("--elos", default="1400,1700,2000")
    p.add_argument("--pairs", default="")
    p.add_argument("--anchor", type=int, default=10)
    p.add_argument("--anchor-elo", type=float, default=0.0)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--step-games", default="", help="ladder: games of each step, comma-separated")
    p.add_argument("--tc", default="60+0.6")
    p.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    p.add_argument("--random-plies", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--maxmoves", type=int, default=300)
    p.add_argument("--pgnout", default="")
    args = p.parse_args()
    print(f"cores: {os.cpu_count()}, tc {args.tc}, games {args.games} per line, "
          f"openings random-plies={args.random_plies} seed={args.seed}")
    {"chess-ladder": chess_ladder, "chess-verify": chess_verify, "ladder": ladder, "verify": verify}[args.command](args)


if __name__ == "__main__":
    main()
