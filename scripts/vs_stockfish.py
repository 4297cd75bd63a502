#!/usr/bin/env python3
"""Play strata against Stockfish (UCI_LimitStrength) through python-chess, with real clocks.

    python3 scripts/vs_stockfish.py --games 20 --tc 10+0.1 --elo 2000

Each opening (a few balanced book moves) is played twice with colours swapped. Clocks are
kept by this script from wall time; a side whose clock runs out loses. Prints a line per game
and the final score of strata with an Elo estimate.
"""
import argparse
import math
import time

import chess
import chess.engine
import chess.pgn

OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6", "d2d4 g8f6 c2c4 g7g6",
    "c2c4 e7e5 b1c3 g8f6", "e2e4 e7e6 d2d4 d7d5", "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 e7e5 f1c4 g8f6", "d2d4 d7d5 g1f3 g8f6", "e2e4 d7d6 d2d4 g8f6",
]


def play_game(strata_cmd, sf_cmd, strata_white, opening, tc, elo, sf_threads):
    base, inc = tc
    eng = {True: None, False: None}
    strata = chess.engine.SimpleEngine.popen_uci(strata_cmd)
    sf = chess.engine.SimpleEngine.popen_uci(sf_cmd)
    sf.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": sf_threads, "Hash": 16})
    strata.configure({"Hash": 16})
    eng[strata_white] = strata
    eng[not strata_white] = sf
    board = chess.Board()
    for m in opening.split():
        board.push_uci(m)
    clock = {chess.WHITE: base, chess.BLACK: base}
    result, reason = None, None
    try:
        while not board.is_game_over(claim_draw=True):
            side = board.turn
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t0 = time.monotonic()
            r = eng[side].play(board, limit)
            used = time.monotonic() - t0
            clock[side] -= used
            if clock[side] < 0:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "time forfeit"
                break
            clock[side] += inc
            if r.move is None or r.move not in board.legal_moves:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "illegal move"
                break
            board.push(r.move)
        if result is None:
            result = board.result(claim_draw=True)
            outcome = board.outcome(claim_draw=True)
            reason = outcome.termination.name.lower() if outcome else "?"
    finally:
        strata.quit()
        sf.quit()
    return result, reason, board, clock


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--elo", type=int, default=2000)
    ap.add_argument("--strata", default="target/release/strata")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--sf-threads", type=int, default=1)
    ap.add_argument("--pgn", default=None)
    a = ap.parse_args()
    base, inc = a.tc.split("+")
    tc = (float(base), float(inc))
    w = d = l = 0
    pgn = open(a.pgn, "w") if a.pgn else None
    for g in range(a.games):
        opening = OPENINGS[(g // 2) % len(OPENINGS)]
        strata_white = g % 2 == 0
        res, reason, board, clock = play_game(a.strata, a.stockfish, strata_white, opening, tc, a.elo, a.sf_threads)
        score = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
        if not strata_white:
            score = 1.0 - score
        w += score == 1.0
        d += score == 0.5
        l += score == 0.0
        print(f"game {g + 1}: strata {'white' if strata_white else 'black'} {res} ({reason}), "
              f"{board.fullmove_number} moves, clocks w {clock[chess.WHITE]:.1f}s b {clock[chess.BLACK]:.1f}s; "
              f"total +{w} ={d} -{l}", flush=True)
        if pgn:
            game = chess.pgn.Game.from_board(board)
            game.headers["White"] = "strata" if strata_white else f"stockfish-{a.elo}"
            game.headers["Black"] = f"stockfish-{a.elo}" if strata_white else "strata"
            game.headers["Result"] = res
            game.headers["Termination"] = reason
            print(game, file=pgn, end="\n\n", flush=True)
    n = w + d + l
    s = (w + d / 2) / n
    elo = -400 * math.log10(1 / s - 1) if 0 < s < 1 else float("inf") * (1 if s else -1)
    print(f"strata vs stockfish UCI_Elo {a.elo} at {a.tc}: +{w} ={d} -{l}, score {100 * s:.1f}%, "
          f"Elo difference {elo:+.0f}")


if __name__ == "__main__":
    main()
