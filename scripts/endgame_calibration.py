#!/usr/bin/env python3
"""How well chess positions' scores predict their games' results, by kind of endgame: the
measurement behind chess's lone-King evaluation (src/eval/chess/endgames.rs) and the scale
factors tried and not kept (docs/results.md, "Chess: endgames the network misjudges").

usage: scripts/endgame_calibration.py FILE.bin...

Reads chess files written by `strata datagen --format binary` (docs/data-format.md). For each
class of material (from the point of view of the side the score favours), the positions
scored 30 to 2000 centipawns, the share of points that side took, the share its score
predicted (logistic, 180 centipawns a unit, as `train-net --k 180`), and the factor on the
score that predicts the results best ("-": the other side has pawns only; "lone King":
nothing at all). Then the mean squared error of the predictions over all positions, with
the scores as they are and scaled by the scale factors that were tried. Pure Python: about 10 s a 2000-game shard.
"""
import collections
import math
import struct
import sys

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(6)
VALUE = {KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9}
K = 180.0


def records(path):
    """Yields (result for White 0/0.5/1, score for White, [(square, kind, colour)])."""
    d = open(path, "rb").read()
    i = 0
    while i < len(d):
        if d[i] == 0xFF:  # a chunk's header
            if d[i + 8] != 6 or d[i + 9] != 2:
                sys.exit(f"{path}: not a chess file")
            i += 11 + d[i + 10]
            i += 2 + struct.unpack_from("<H", d, i)[0]
            continue
        flags = d[i]
        i += 1
        result = ((flags >> 2) & 3) / 2
        hands = (flags >> 4) & 1
        kbits, cbits = ((flags >> 5) & 3) + 1, ((flags >> 7) & 1) + 1
        while d[i] & 0x80:  # the game's number
            i += 1
        i += 1
        score = struct.unpack_from("<h", d, i)[0]
        i += 2
        n = d[i]
        i += 1
        squares = [c for c in range(n * 8) if d[i + c // 8] >> (c % 8) & 1]
        i += n
        width = kbits + cbits
        size = (len(squares) * width + 7) // 8
        bits = int.from_bytes(d[i : i + size], "little")
        i += size
        pieces = []
        for j, sq in enumerate(squares):
            v = (bits >> (j * width)) & ((1 << width) - 1)
            pieces.append((sq, v >> cbits, v & ((1 << cbits) - 1)))
        if hands:
            entries = d[i]
            i += 1
            for _ in range(entries):
                i += 1
                while d[i] & 0x80:
                    i += 1
                i += 1
        yield result, score, pieces


def square_colour(sq):
    return (sq % 8 + sq // 8) % 2


def passers(ours, theirs, colour):
    their_pawns = [sq for sq, k, _ in theirs if k == PAWN]
    count = 0
    for sq, k, _ in ours:
        if k != PAWN:
            continue
        f, r = sq % 8, sq // 8
        ahead = (lambda s: s > r) if colour == 0 else (lambda s: s < r)
        if not any(abs(t % 8 - f) <= 1 and ahead(t // 8) for t in their_pawns):
            count += 1
    return count


def material(side):
    return sum(VALUE.get(k, 0) for _, k, _ in side)


def kinds(side):
    return "".join(sorted(".NBRQ"[k] for _, k, _ in side if k in VALUE))


def opposite_bishops_alone(ours, theirs):
    a = [sq for sq, k, _ in ours if k == BISHOP]
    b = [sq for sq, k, _ in theirs if k == BISHOP]
    return (
        kinds(ours) == "B"
        and kinds(theirs) == "B"
        and square_colour(a[0]) != square_colour(b[0])
    )


def tried_scale(ours, theirs, strong):
    """The scale factors tried (Stockfish's classical ones), of 64."""
    mine, other = material(ours), material(theirs)
    pawns = sum(1 for _, k, _ in ours if k == PAWN)
    if pawns == 0:
        if kinds(ours) == "NN" and other == 0:
            return 0
        if mine <= other + 3:
            return 0 if mine < 5 else 4 if other <= 3 else 14
    if opposite_bishops_alone(ours, theirs):
        return min(64, 18 + 8 * passers(ours, theirs, strong))
    return 64


def classes(ours, theirs, strong):
    pawns = sum(1 for _, k, _ in ours if k == PAWN)
    their_pawns = sum(1 for _, k, _ in theirs if k == PAWN)
    out = []
    if opposite_bishops_alone(ours, theirs):
        out.append(f"opposite Bishops alone, {min(pawns - their_pawns, 3)} pawns up")
    if pawns == 0:
        lone = "lone King" if len(theirs) == 1 else "-"
        out.append(f"no pawns: {kinds(ours)} against {kinds(theirs) or lone}")
    elif pawns == 1 and material(ours) + material(theirs) <= 10:
        out.append("one pawn, pieces worth <= 10")
    return out or ["the rest"]


def main():
    table = collections.defaultdict(list)
    errors = [0.0, 0.0]
    n = 0
    for path in sys.argv[1:]:
        for result, score, pieces in records(path):
            strong = 0 if score > 0 else 1
            ours = [p for p in pieces if p[2] == strong]
            theirs = [p for p in pieces if p[2] != strong]
            n += 1
            scaled = score * tried_scale(ours, theirs, strong) // 64 if score else 0
            for i, s in enumerate((score, scaled)):
                errors[i] += (result - 1 / (1 + math.exp(-s / K))) ** 2
            if 30 <= abs(score) <= 2000:
                points = result if strong == 0 else 1 - result
                for c in classes(ours, theirs, strong):
                    table[c].append((abs(score), points))
    print(f"{'class':42} {'positions':>9} {'|score|':>7} {'points':>6} {'predicted':>9} {'best factor':>11}")
    for c in sorted(table):
        v = table[c]
        if len(v) < 300:
            continue
        mean = sum(s for s, _ in v) / len(v)
        points = sum(p for _, p in v) / len(v)
        predicted = sum(1 / (1 + math.exp(-s / K)) for s, _ in v) / len(v)

        def err(f):
            return sum((p - 1 / (1 + math.exp(-s * f / K))) ** 2 for s, p in v)

        best = min((f / 50 for f in range(1, 81)), key=err)
        print(f"{c:42} {len(v):9} {mean:7.0f} {points:6.3f} {predicted:9.3f} {best:11.2f}")
    print(f"{n} positions; mean squared error of the predicted results: "
          f"{errors[0] / n:.6f} as scored, {errors[1] / n:.6f} with the scale factors tried")


if __name__ == "__main__":
    main()
