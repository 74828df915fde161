"""The consumer's results equal nardy_fast.successors on a few positions and rolls."""
import numpy as np

import consumer
import nardy_fast as nf

rng = np.random.default_rng(7)
record = nf.random_game(seed=7)
checked = 0
for pos in record.positions()[::5]:
    if pos.is_over():
        continue
    d1, d2 = (int(x) for x in rng.integers(1, 7, 2))
    mine = consumer.results(pos.boards[0], pos.boards[1], d1, d2)
    theirs = nf.successors(pos.boards[0], pos.boards[1], d1, d2)
    assert sorted(map(bytes, mine)) == sorted(map(bytes, theirs)), (pos.id, d1, d2)
    checked += 1
assert checked > 5
print(f"cimport consumer agrees with successors on {checked} positions")
