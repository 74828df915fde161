"""``python -m nardy_fast.demo``: the start position, legal moves for a few rolls and a short
random game (uniform over distinct legal results, seeded)."""
import numpy as np

from nardy_fast import Position


def main(seed=2026, turns=12):
    pos = Position.initial()
    print(pos.diagram())
    for roll in [(6, 6), (4, 4), (3, 3), (6, 5), (2, 1)]:
        moves = pos.legal_moves(*roll)
        print(f"\nroll {roll[0]}-{roll[1]}: {len(moves)} legal move(s): "
              + ", ".join(str(m) for m in moves[:8]) + (" ..." if len(moves) > 8 else ""))
    rng = np.random.default_rng(seed)
    print(f"\nA random game, first {turns} turns (seed {seed}):")
    for ply in range(turns):
        d1, d2 = (int(x) for x in rng.integers(1, 7, size=2))
        moves = pos.legal_moves(d1, d2)
        move = moves[int(rng.integers(len(moves)))]
        print(f"{ply + 1:3d}) {pos.side:5s} {d1}{d2}: {move}")
        pos = pos.play(move)
    print()
    print(pos.diagram())


if __name__ == "__main__":
    main()
