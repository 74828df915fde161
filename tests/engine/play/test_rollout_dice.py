"""The dice of a rollout's games, game by game (``rng.DICE_SCHEME``).

Game ``i`` of block ``k`` is seeded by the ``i``-th word of the block's stream
(``rng.game_seed_words``) and draws its dice from a stream of its own, apart from its
other random choices, so two rollouts with the same seed throw the same dice in game
``i`` whatever the positions, the policies or the games before it.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nardy_fast as nf
from nardy_fast.core import rng as nrng
from nardy_fast.core.position import WHITE
from nardy_fast.core.rules import Rules
from nardy_fast.engine.play._rollout import PER_GAME_WIDTH, play_blocks
from nardy_fast.engine.play.policy import Policy

RULES = Rules()
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def first_rolls(position, seed, **kw):
    """The codes 6 (d1 - 1) + d2 - 1 of the first three random rolls of each game (-1:
    none), from the C loop's per-game diagnostics."""
    return per_game(position, seed, **kw)[:, 2:5].astype(int)


def per_game(position, seed, *, policy="greedy", n=144, stratify=True, first_block=0):
    """The C loop's per-game diagnostics of games 0 .. n - 1 of block first_block: plain
    equity, reduced equity, the first three random rolls' codes, lucks counted."""
    out = np.zeros((n, PER_GAME_WIDTH))
    c = Policy(policy).c_form(RULES)
    play_blocks(np.array(position.boards), rules=RULES, policies=(c, c),
                side0_white=position.side == WHITE, dice=None, opening_dice=False,
                truncate=False, tables=None, entropy=seed, first_block=first_block,
                n_blocks=1, n_games=first_block * nrng.BLOCK_GAMES + n,
                block_games=nrng.BLOCK_GAMES, stratify=stratify, per_game=out)
    return out


def splitmix_rolls(word, count):
    """The scheme written out in Python: the dice stream of a game from its seed word
    (SplitMix64, its state started at mix(word)), each roll by Lemire's rejection."""
    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    state, rolls = mix(int(word)), []
    while len(rolls) < count:
        while True:
            state = (state + GAMMA) & MASK
            m = (mix(state) >> 32) * 36
            if m & 0xFFFFFFFF >= (2**32 - 36) % 36:
                break
        rolls.append(m >> 32)
    return rolls


def positions():
    game = nf.random_game(seed=5, policy="greedy").positions()
    return game[10], game[11], game[40]


def test_same_seed_same_dice_game_by_game_whatever_the_position():
    """Three positions whose games differ in length: with one seed, game i throws the
    same first three random rolls in each (a stream shared by the block's games in turn
    would give game i the rolls left by the games before it)."""
    a, b, c = (first_rolls(p, 42) for p in positions())
    assert (a[:, 2] >= 0).all()
    assert (a == b).all() and (a == c).all()
    other = first_rolls(positions()[0], 43)
    for k in range(0, 144, 36):                        # the stratified first roll: each
        assert sorted(other[k:k + 36, 0]) == list(range(36))   # once in 36 games, in
    assert (other[:, 0] != a[:, 0]).mean() > 0.9       # another order for another seed
    assert (other[:, 2] != a[:, 2]).mean() > 0.9       # the drawn third: another seed


@pytest.mark.parametrize("seed, block", [(42, 0), (7, 1)])
def test_the_stratified_rolls_follow_the_seeds_order(seed, block):
    """Game g's first random roll is ``first[g mod 36]`` and its second ``reply[(g mod 36
    + shift[(g div 36) mod 36]) mod 36]`` (``rng.stratified_rolls``), in every block; the
    third is the first draw of the game's dice stream (the stratified rolls draw none)."""
    first, shift, reply = nrng.stratified_rolls(seed)
    assert sorted(first) == sorted(shift) == sorted(reply) == list(range(36))
    n = 3 * 36 + 5
    got = first_rolls(positions()[0], seed, n=n, first_block=block)
    g = block * nrng.BLOCK_GAMES + np.arange(n)
    assert got[:, 0].tolist() == first[g % 36].tolist()
    assert got[:, 1].tolist() == reply[(g % 36 + shift[(g // 36) % 36]) % 36].tolist()
    words = nrng.game_seed_words(seed, block, n)
    assert got[:, 2].tolist() == [splitmix_rolls(w, 1)[0] for w in words]


def test_each_first_roll_meets_every_reply_in_a_block():
    """A whole block of 1296 games holds each pair of first and second rolls once."""
    got = first_rolls(nf.Position.initial(), 3, n=nrng.BLOCK_GAMES, policy="random")
    pairs = set(zip(got[:, 0].tolist(), got[:, 1].tolist()))
    assert len(pairs) == 36 * 36


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**63), game=st.integers(0, 40), plies=st.tuples(
    st.integers(0, 200), st.integers(0, 200)), policy=st.sampled_from(["greedy", "random"]))
def test_any_two_positions_throw_the_same_dice_game_by_game(seed, game, plies, policy):
    """Whatever the two positions (of a game, unfinished) and the policy, game i of their
    rollouts with one seed throws the same first three random rolls while both last."""
    g = nf.random_game(seed=game, policy="greedy").positions()[:-1]
    a, b = (first_rolls(g[p % len(g)], seed, policy=policy, n=12) for p in plies)
    both = (a >= 0) & (b >= 0)                  # a game may end before its third roll
    assert (a[both] == b[both]).all() and both[:, 0].all()


def test_random_choices_do_not_move_the_dice():
    """The random policy draws its choices from the game's other stream: its games throw
    the dice the greedy policy's games throw."""
    p = positions()[0]
    assert (first_rolls(p, 7, policy="random") == first_rolls(p, 7)).all()


@pytest.mark.parametrize("block", [0, 3])
def test_the_dice_are_the_documented_scheme(block):
    """Unstratified, every roll comes from the game's dice stream: the C loop's first three
    rolls of each game equal the scheme recomputed in Python from the block's seed words
    (``rng.game_seed_words``: the block's PCG64 stream's raw outputs)."""
    n = 40
    words = nrng.game_seed_words(99, block, n)
    assert words.dtype == np.uint64 and len(set(words.tolist())) == n
    assert words.tolist() == nrng.block_bit_generator(99, block).random_raw(n).tolist()
    got = first_rolls(nf.Position.initial(), 99, n=n, stratify=False, first_block=block)
    assert got.tolist() == [splitmix_rolls(w, 3) for w in words]


def test_a_pair_of_rollouts_with_one_seed_shares_the_luck():
    """What the scheme is for: with one seed, the games of two close moves go alike, so
    their equities correlate game by game and the difference of the two rollouts is less
    noisy than either.  Greedy games of the two best moves of a race decision, a block
    each: the correlation of their per-game equities (SE about 0.04) is far from 0 with
    one seed and near 0 with two."""
    pos = nf.random_game(seed=3, policy="race").positions()[60]
    cands = nf.move_report(pos, (6, 4), seed=1)["id_after"].iloc[:2]
    a, b = (nf.Position.from_id(i) for i in cands)
    n = nrng.BLOCK_GAMES // 2
    ea = per_game(a, 8, n=n)[:, 0]
    same = np.corrcoef(ea, per_game(b, 8, n=n)[:, 0])[0, 1]
    other = np.corrcoef(ea, per_game(b, 9, n=n)[:, 0])[0, 1]
    assert same > 0.3 and abs(other) < 0.16
