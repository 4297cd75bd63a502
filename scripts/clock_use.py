#!/usr/bin/env python3
"""Clock use per game from a `strata match --pgnout` file: for each game, each engine's moves,
the seconds it spent in all and on its first 15 moves, and what it had left at the end.

usage: scripts/clock_use.py GAMES.pgn BASE_SECONDS INCREMENT_SECONDS

In four-colour games (a `[Gold ...]` tag) each colour has its own clock and a colour whose King
is captured is skipped, so moves cannot be given to clocks from the PGN alone: the script gives
each engine's moves in all and on its first 15 moves, and no time left.
"""
import re
import sys


def main():
    path, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    games = open(path).read().split("[Event ")[1:]
    totals = {}
    four = False
    for g in games:
        four = four or '[Gold "' in g
        white = re.search(r'\[White "([^"]+)"', g).group(1)
        black = re.search(r'\[Black "([^"]+)"', g).group(1)
        result = re.search(r'\[Result "([^"]+)"', g).group(1)
        body = g.split("\n\n", 1)[1]
        spent = {white: [], black: []}
        for i, c in enumerate(re.findall(r"\{([^}]*)\}", body)):
            m = re.search(r"([\d.]+)s$", c.strip())
            if m:
                spent[white if i % 2 == 0 else black].append(float(m.group(1)))
        cols = []
        for name in (white, black):
            t = spent[name]
            left = base + inc * len(t) - sum(t)
            tail = "" if four else f", left {left:.1f} s"
            cols.append(f"{name}: {len(t)} moves, {sum(t):.1f} s, first 15 {sum(t[:15]):.1f} s{tail}")
            tot = totals.setdefault(name, [0, 0.0, 0.0, 0.0, float("inf")])
            tot[0] += 1
            tot[1] += sum(t[:15])
            tot[2] += left
            tot[3] += len(t)
            tot[4] = min(tot[4], left)
        print(f"{result:8} " + " | ".join(cols))
    for name, (n, first, left, moves, least) in totals.items():
        tail = "" if four else f", mean left {left / n:.2f} s, least left {least:.2f} s"
        print(f"{name}: {n} games, mean first-15 {first / n:.2f} s{tail}, mean moves {moves / n:.0f}")


if __name__ == "__main__":
    main()
