"""Independent reference implementations of the network for the engine tests: a numpy
forward pass from the encoding documented in ``_net.pyx``, the equity under the rules'
points, and positions of seeded self-play games."""
import numpy as np

import nardy_fast as nf
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.training.train import training_tables


def np_encode(me, opp):
    """The input encoding as the _net.pyx docstring states it."""
    x = []
    for b in (me, opp):
        for c in b:
            c = int(c)
            x += [c >= 1, c >= 2, c >= 3, (c - 3) / 4 if c > 3 else 0.0]
    for b in (me, opp):
        b = np.asarray(b, dtype=np.int64)
        x += [(15 - b.sum()) / 15, (b * np.arange(24, 0, -1)).sum() / 360, b[18:].sum() / 15]
    return np.array(x, dtype=np.float64)


def np_forward(net, me, opp):
    """The net's outputs in float64 numpy, from the formulas of _net.pyx's docstring
    (with a second hidden layer when the net has one)."""
    x = np_encode(me, opp)
    h = np.maximum(0.0, net.b1 + x @ net.w1.astype(np.float64))
    logits = net.b2 + net.w2.astype(np.float64) @ h
    if net.n_hidden2:
        h2 = np.maximum(0.0, net.b3 + net.w3.astype(np.float64) @ h)
        logits = logits + net.w4.astype(np.float64) @ h2
    return 1.0 / (1.0 + np.exp(-logits))


def np_equity(v, rules=CLASSIC):
    """Equity of the seven outputs under the rules' points (clipped outputs)."""
    w, mw, kw, hw, ml, kl, hl = v
    oin, mars = rules.points("oin"), rules.points("mars")
    koks, hm = rules.points("koks"), rules.points("home_mars")
    return ((w - mw) * oin + (mw - kw - hw) * mars + kw * koks + hw * hm
            - ((1 - w) - ml) * oin - (ml - kl - hl) * mars - kl * koks - hl * hm)


def positions_from_games(n_games=3, seed=5):
    """Positions of a few seeded self-play games of a random net (varied, legal)."""
    net = Net.random(16, seed)
    pos, *_ = _selfplay.play_games(net, np.asarray(nf.Position.initial().boards),
                                   rules=CLASSIC, tables=training_tables(),
                                   bitgens=[block_bit_generator(seed, g)
                                            for g in range(n_games)])
    return pos
