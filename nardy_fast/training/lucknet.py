"""Training the luck net (``train_luck_net``, ``nardy-fast train-luck``); the reader of the
net it writes is ``nardy_fast.engine.play.lucknet``.

Training (``train_luck_net``, ``nardy-fast train-luck``): the positions before the
bear-off (contact, and races before both sides are home: rollouts truncate at the
bear-off) from self-play of the evaluator at 0-ply (``_selfplay.play_games``, one PCG64
stream per game from the seed), labelled with their exact per-roll values (``Searcher.roll_values`` at
0-ply, the roller's view); a tenth is held out.  The loss is the squared error of the
*centred* values (each roll's value minus the mean over the 21 rolls, ``1/36`` doubles and
``2/36`` others: only differences between rolls enter the luck), summed over the rolls
with their probabilities and over the seven outputs with weights ``1/2 + |c_k| / max|c|``,
``c`` the outputs' equity coefficients under the rules' points; Adam, minibatches of 256,
the step cut by 0.3 after 70% of the epochs.  ``meta["r2_equity"]`` is the share of the
held-out positions' equity-luck variance that the net predicts.

Refining (``init=``, ``nardy-fast train-luck --init``): training starts from a luck net's
weights instead of random ones, with Adam's moments from zero; the held-out tenth is the
seed's, so the same games and seed as the start's run keep its held-out positions held
out.  The shipped net is the defaults' net refined with ``LUCK_REFINE`` (a smaller step:
the defaults' last step, 3e-4, leaves the weights in the step's noise).

Checkpoints (``checkpoint=FOLDER``; ``nardy-fast train-luck`` keeps ``OUT.partial``
beside its output): the labelled values are saved in files of ``CHECKPOINT_CHUNK``
positions as they are made, and the training's state (weights, Adam's moments, the order
of the positions and the random generator) after every epoch, each file written
atomically.  A call with the same settings continues from the last saved file; a killed
run so ends with the same weights as an uninterrupted one.  A folder of other settings is
refused by name.
"""
from __future__ import annotations

import json
import os

import numpy as np

from nardy_fast.core._checks import check_count, check_step
from nardy_fast._utils._io import atomic_write, atomic_write_text
from nardy_fast._utils._progress import progress_bar
from nardy_fast._utils._resources import check_memory
from nardy_fast._utils._settings import setting_differences
from nardy_fast._utils._warn import warn_user
from nardy_fast.core.position import Position, bearoff_mask
from nardy_fast.core.rng import child_seed
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play._lucknet import MAX_MIDDLE, LuckNet
from nardy_fast.engine.play.lucknet import load_luck_net
from nardy_fast.engine.play.luck import ROLLS, WEIGHTS
from nardy_fast.training import _selfplay

__all__ = ["LUCK_DEFAULTS", "LUCK_REFINE", "luck_data", "train_luck_net", "luck_r2",
           "equity_coefficients"]

# train_luck_net's and nardy-fast train-luck's defaults: the shipped luck net's settings
LUCK_DEFAULTS = {"n_games": 48000, "hidden": 256, "middle": (256, 128), "epochs": 16,
                 "seed": 1, "lr": 1e-3}
# the shipped luck net's second step: the defaults' net refined (``init=``) with these
# settings on the same games and seed (``train-luck --init NET --epochs 3 --lr 3e-5``)
LUCK_REFINE = {"epochs": 3, "lr": 3e-5}
# positions of luck targets per checkpoint file (``luck_data(checkpoint=...)``)
CHECKPOINT_CHUNK = 50_000
# memory a training run takes per self-play game, at its peak: about 83 positions a game,
# each with its targets, inputs and centred targets (a 48,000-game run peaked at 12.9 GB)
BYTES_PER_GAME = 270_000

def _evaluator(evaluator):
    """The evaluator whose rolls a luck net values: the rollouts' (``rollout_evaluator``)
    of ``evaluator`` (None: the shipped one), since luck nets serve the rollouts."""
    return (Evaluator.default() if evaluator is None else evaluator).rollout_evaluator()


def equity_coefficients(searcher):
    """The outputs' equity coefficients under a searcher's rules: ``c`` with equity =
    equity(0) + c . outputs (points per game for each of the seven outputs; what
    ``supervised.fit``'s ``equity=`` weighs)."""
    rows = np.vstack([np.zeros(7), np.eye(7)]).astype(np.float32)
    eq = searcher.equities(rows)
    return eq[1:] - eq[0]


def luck_data(n_games, seed, evaluator=None, progress=None, *, checkpoint=None,
              chunk=CHECKPOINT_CHUNK, plies=0):
    """Positions before the bear-off (contact, and races before both sides are home) from
    ``n_games`` 0-ply self-play games of ``evaluator``'s rollout net (None: the shipped
    classic evaluator's) and their exact per-roll values.

    Returns ``(boards, values)``: uint8 ``(n, 2, 24)`` (side on roll first) and float32
    ``(n, 21, 7)`` (the side on roll's outputs after its best move per roll, ``ROLLS``
    order, the move chosen and valued at ``plies``: 0, the net's own values, or 1, a
    look-ahead over the opponent's 21 rolls, nearer the games' outcomes and about 74
    times the cost, 20 CPU-ms a position; ``Searcher.roll_values``).
    The same ``seed`` gives the same arrays.  ``checkpoint``: a folder where the values
    are saved, ``chunk`` positions a file, and found again by a call with the same
    settings (module docstring); the games are played again, which is quick.
    """
    ev = _evaluator(evaluator)
    n_games = check_count(n_games, "n_games", 1)
    chunk = check_count(chunk, "chunk", 1)
    if isinstance(plies, bool) or plies not in (0, 1):
        raise ValueError(f"plies={plies!r}: expected 0 or 1")
    s = ev.searcher()
    p0 = Position.initial()
    start = np.stack([p0.mover, p0.opponent]).astype(np.uint8)
    bitgens = [np.random.PCG64(child_seed(seed, g)) for g in range(n_games)]
    boards, _, _, _ = _selfplay.play_games(ev.net, start, rules=ev.rules,
                                           tables=None, bitgens=bitgens)
    keep = ~bearoff_mask(boards) & (boards.sum(axis=2).min(axis=1) > 0)
    boards = np.ascontiguousarray(boards[keep])
    values = np.empty((len(boards), len(ROLLS), 7), dtype=np.float32)
    done = 0
    if checkpoint is not None:
        settings = {"n_games": n_games, "seed": int(seed), "chunk": chunk,
                    "evaluator": ev.net.digest(), "rules": ev.rules.to_dict(),
                    "positions": len(boards)}
        if plies:                   # 0: absent, as in the folders made before it existed
            settings["plies"] = int(plies)
        _same_settings(checkpoint, "data.json", settings)
        done = _saved_values(checkpoint, values, chunk)
    bar = progress_bar(range(done, len(boards)), desc="luck targets", unit="pos",
                       progress=progress, mininterval=1.0, initial=done,
                       total=len(boards))
    for k in bar:
        values[k] = s.roll_values(boards[k, 0], boards[k, 1], plies)
        if checkpoint is not None and ((k + 1) % chunk == 0 or k + 1 == len(boards)):
            part = values[k // chunk * chunk: k + 1]
            atomic_write(_chunk_path(checkpoint, k // chunk),
                         lambda tmp, part=part: _save_array(tmp, part))
    return boards, values


def _chunk_path(folder, k):
    return os.path.join(folder, f"values_{k:05d}.npy")


def _save_array(path, array):
    with open(path, "wb") as f:
        np.save(f, array)


def _same_settings(folder, name, settings, *, unrecorded=None):
    """Record ``settings`` in ``folder/name``, or check that the ones recorded there are
    the same (``ValueError`` naming the folder and every setting that differs).
    ``unrecorded``: ``setting_differences``' (what a folder made before a setting was
    recorded stands for)."""
    path = os.path.join(folder, name)
    settings = json.loads(json.dumps(settings))          # as they read back
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        differ = setting_differences(old, settings, unrecorded=unrecorded)
        if differ:
            raise ValueError(f"checkpoint {folder}: made with other settings ("
                             + "; ".join(differ) + "); remove the folder to start again")
        return
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ValueError(f"checkpoint {folder}: exists and is not a folder")
    atomic_write_text(path, json.dumps(settings, sort_keys=True))


def _saved_values(folder, values, chunk):
    """Fill ``values`` from the saved files of ``folder`` in order; the positions
    filled (a file of the wrong shape is ignored, with the ones after it)."""
    done = 0
    while done < len(values):
        path = _chunk_path(folder, done // chunk)
        if not os.path.exists(path):
            break
        part = np.load(path)
        end = min(done + chunk, len(values))
        if part.shape != (end - done,) + values.shape[1:] or part.dtype != values.dtype:
            break
        values[done:end] = part
        done = end
    return done


def _centred(v, weights=WEIGHTS):
    """Per-roll values ``(n, 21, k)`` minus their mean over the rolls (``weights``)."""
    return v - np.einsum("r,nrk->nk", weights, v)[:, None, :]


def luck_r2(luck_net, boards, values, evaluator=None):
    """Share of the equity-luck variance of ``(boards, values)`` (``luck_data``) that
    ``luck_net`` predicts: ``1 - E[sum_r p_r (L - L_hat)^2] / E[sum_r p_r L^2]``."""
    c = equity_coefficients(_evaluator(evaluator).searcher())
    truth = _centred(np.asarray(values, dtype=np.float64)) @ c
    pred = _centred(luck_net.rolls(boards).astype(np.float64)) @ c
    var = (WEIGHTS * truth ** 2).sum(axis=1).mean()
    res = (WEIGHTS * (truth - pred) ** 2).sum(axis=1).mean()
    return float(1.0 - res / var)


def _check_width(value, name):
    value = check_count(value, name, 8)
    if value % 8 or value > 1024:
        raise ValueError(f"{name}={value}: expected a multiple of 8 up to 1024")
    return value


def _check_middle(middle):
    """The middle layers' widths as a tuple, each checked (``_check_width``)."""
    if middle is None or middle == 0:
        return ()
    if isinstance(middle, (int, np.integer)):
        middle = (middle,)
    try:
        middle = tuple(middle)
    except TypeError:
        raise ValueError(f"middle={middle!r}: expected widths of middle layers") from None
    if len(middle) > MAX_MIDDLE:
        raise ValueError(f"middle={middle!r}: at most {MAX_MIDDLE} middle layers")
    return tuple(_check_width(w, "middle width") for w in middle)


def train_luck_net(n_games=LUCK_DEFAULTS["n_games"], hidden=None,
                   epochs=LUCK_DEFAULTS["epochs"], seed=LUCK_DEFAULTS["seed"],
                   evaluator=None, lr=LUCK_DEFAULTS["lr"], progress=None, data=None,
                   middle=None, *, checkpoint=None, init=None):
    """Train a luck net (module docstring) on ``n_games`` self-play games.

    ``hidden``: first-layer units; ``middle``: the widths of the middle layers, in order
    (``()``: none); None: the start's (``init``) or else ``LUCK_DEFAULTS``'.  The defaults
    (``LUCK_DEFAULTS``) are the settings of the shipped net's first step.
    ``data``: ``(boards, values)`` of ``luck_data`` to train on instead (tests).
    ``init``: a luck net (``LuckNet``, or the path of a luck net file) to start from
    instead of random weights (module docstring, "Refining"); a ``hidden`` or ``middle``
    other than its shape is refused.  Returns ``(LuckNet, meta)``; ``meta`` has the
    settings, the positions used, ``r2_equity`` (held-out) and, refined, ``init`` (the
    start's digest and meta).  The same arguments give the same weights.  ``checkpoint``:
    a folder that keeps the run's progress (module docstring); it is left in place, for
    the caller to remove once the net is saved.
    """
    ev = _evaluator(evaluator)
    start, start_meta = _start(init)
    if start is not None:
        shape = (start.n_hidden, tuple(start.middle_units))
        if (hidden is not None and hidden != shape[0]) or \
                (middle is not None and _check_middle(middle) != shape[1]):
            raise ValueError(f"init: a luck net of {'+'.join(map(str, (shape[0], *shape[1])))}"
                             f" units; hidden={hidden!r}, middle={middle!r} differ (leave "
                             f"them out to take the start's)")
        hidden, middle = shape
        if data is None:
            _warn_other_games(start_meta, n_games, seed)
    hidden = _check_width(LUCK_DEFAULTS["hidden"] if hidden is None else hidden, "hidden")
    middle = _check_middle(LUCK_DEFAULTS["middle"] if middle is None else middle)
    epochs = check_count(epochs, "epochs", 1)
    lr = check_step(lr)
    if data is None:                        # before any work or checkpoint folder
        n_games = check_count(n_games, "n_games", 1)
        check_memory(n_games * BYTES_PER_GAME, f"training a luck net on {n_games:,} games",
                     "give fewer games (n_games, train-luck -n)")
    if checkpoint is not None:
        checkpoint = os.fspath(checkpoint)
        _same_settings(checkpoint, "train.json",
                       {"n_games": int(n_games) if data is None else None,
                        "seed": int(seed), "hidden": hidden, "middle": list(middle),
                        "epochs": epochs, "lr": float(lr), "evaluator": ev.net.digest(),
                        "init": None if start is None else start.digest()})
    boards, values = (luck_data(n_games, seed, ev, progress, checkpoint=checkpoint)
                      if data is None else data)
    x = ev.net.encode(np.ascontiguousarray(boards, dtype=np.uint8))
    y = _centred(values.astype(np.float32)).reshape(len(x), -1)
    c = np.abs(equity_coefficients(ev.searcher()))
    weight = (np.repeat(WEIGHTS, 7).reshape(len(ROLLS), 7)
              * (0.5 + c / c.max())).reshape(-1).astype(np.float32)
    g = np.random.default_rng(seed)
    order = g.permutation(len(x))
    n_test = len(x) // 10
    test, train = order[:n_test], order[n_test:]
    if start is None:
        widths = [x.shape[1], hidden, *middle]
        params = []
        for a, b in zip(widths[:-1], widths[1:]):               # He for the ReLU layers
            params += [g.standard_normal((a, b)) * np.sqrt(2.0 / a), np.zeros(b)]
        params += [g.standard_normal((widths[-1], y.shape[1])) * 0.1 / np.sqrt(widths[-1]),
                   np.zeros(y.shape[1])]
    else:                                   # the layers as _grads takes them: x @ w + b
        params = [start.w1, start.b1]
        for w, b in start.middle:
            params += [np.transpose(w), b]
        params += [np.transpose(start.w2), start.b2]
    params = [np.array(p, dtype=np.float32, order="C") for p in params]
    _adam(params, x, y, weight, epochs, lr, g, progress, rows=train,
          state=None if checkpoint is None else os.path.join(checkpoint, "epoch.npz"))
    net = LuckNet(params[0], params[1], params[-2].T, params[-1],
                  [(w.T, b) for w, b in zip(params[2:-2:2], params[3:-2:2])])
    meta = {"n_games": int(n_games) if data is None else None, "seed": int(seed),
            "hidden": hidden, "middle": list(middle), "epochs": epochs, "lr": float(lr),
            "positions": len(x),
            "evaluator": ev.net.digest(), "rules": ev.rules.to_dict(),
            "r2_equity": luck_r2(net, boards[test], values[test], ev) if n_test else None}
    if start is not None:
        meta["init"] = {"digest": start.digest(), **start_meta}
    return net, meta


def _warn_other_games(start_meta, n_games, seed):
    """A ``UserWarning`` when a refined luck net is trained on other games than its start
    (``n_games`` or ``seed`` differ from its record): the held-out split is then not the
    start's, and the held-out R^2 may count positions the start learnt from."""
    was = {k: start_meta.get(k) for k in ("n_games", "seed")}
    now = {"n_games": int(n_games), "seed": int(seed)}
    differ = [f"{k}={now[k]} (the start's {was[k]})" for k in now
              if was[k] is not None and was[k] != now[k]]
    if differ:
        warn_user("init: " + ", ".join(differ) + ": other games than the start was trained "
                  "on, so the held-out positions are not the start's and the held-out R^2 "
                  "may count positions it learnt from")


def _start(init):
    """``(LuckNet, its meta)`` of ``init`` (a ``LuckNet`` or a luck net file's path), or
    ``(None, None)``."""
    if init is None:
        return None, None
    if isinstance(init, LuckNet):
        return init, {}
    if not isinstance(init, (str, os.PathLike)):
        raise TypeError(f"init={init!r}: expected a LuckNet or a luck net file's path")
    return load_luck_net(init)



def _grads(params, x, y, weight, weights32):
    """Gradients of ``sum(weight * (centred prediction - y)^2) / len(x)`` over ``params``,
    the ``(w, b)`` pairs of the layers in order (``x @ w + b``, ReLU between them), and
    the centred prediction ``(n, 147)``."""
    acts = [x]                                          # each layer's input
    for w, c in zip(params[:-2:2], params[1:-2:2]):
        acts.append(np.maximum(acts[-1] @ w + c, 0.0))
    out = (acts[-1] @ params[-2] + params[-1]).reshape(len(x), len(ROLLS), 7)
    centred = _centred(out, weights32).reshape(len(x), -1)
    grad = 2.0 * weight * (centred - y) / len(x)        # centring: sum_r p_r e_r = 0
    grads = []
    for k in range(len(params) // 2 - 1, -1, -1):
        grads[:0] = [acts[k].T @ grad, grad.sum(0)]
        if k:
            grad = (grad @ params[2 * k].T) * (acts[k] > 0)
    return grads, centred


def _adam(params, x, y, weight, epochs, lr, g, progress, batch=256, state=None, rows=None):
    """Minimise sum(weight * (centred prediction - y)^2) by Adam, in place; ``params``
    as ``_grads`` takes them.  ``rows``: the rows of ``x`` and ``y`` learnt (default
    all; indices rather than a copy of the rows, which would double the memory).
    ``state``: a file that holds the state after the last epoch done (written after each
    one, read at the start when it is there)."""
    rows = np.arange(len(x)) if rows is None else np.asarray(rows)
    weights32 = WEIGHTS.astype(np.float32)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1_, b2_, eps, t = 0.9, 0.999, 1e-8, 0
    idx = np.arange(len(rows))
    first = 0
    if state is not None and os.path.exists(state):
        first, t = _load_state(state, params, m, v, idx, g)
    for epoch in progress_bar(range(first, epochs), desc="luck net", unit="epoch",
                              progress=progress, initial=first, total=epochs):
        step = lr * 0.3 if epoch >= int(0.7 * epochs) else lr
        g.shuffle(idx)
        for s0 in range(0, len(idx), batch):
            b = rows[idx[s0:s0 + batch]]
            grads, _ = _grads(params, x[b], y[b], weight, weights32)
            t += 1
            for p, gp, mm, vv in zip(params, grads, m, v):
                mm *= b1_
                mm += (1 - b1_) * gp
                vv *= b2_
                vv += (1 - b2_) * gp * gp
                p -= (step * (mm / (1 - b1_ ** t))
                      / (np.sqrt(vv / (1 - b2_ ** t)) + eps)).astype(np.float32)
        if state is not None:
            _save_state(state, epoch + 1, t, params, m, v, idx, g)


def _save_state(path, epochs_done, t, params, m, v, idx, g):
    arrays = {f"{name}{k}": a for name, group in (("p", params), ("m", m), ("v", v))
              for k, a in enumerate(group)}

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, idx=idx, epochs_done=epochs_done, t=t,
                     rng=json.dumps(g.bit_generator.state), **arrays)
    atomic_write(path, write)


def _load_state(path, params, m, v, idx, g):
    """Restore the state of ``_save_state`` in place; ``(epochs done, Adam's step)``."""
    with np.load(path) as z:
        for name, group in (("p", params), ("m", m), ("v", v)):
            for k, a in enumerate(group):
                saved = z[f"{name}{k}"]
                if saved.shape != a.shape:
                    raise ValueError(f"checkpoint {path}: its layer shapes differ from "
                                     f"this run's; remove the folder to start again")
                a[...] = saved
        if z["idx"].shape != idx.shape:
            raise ValueError(f"checkpoint {path}: made on {len(z['idx'])} positions, not "
                             f"{len(idx)}; remove the folder to start again")
        idx[...] = z["idx"]
        g.bit_generator.state = json.loads(str(z["rng"]))
        return int(z["epochs_done"]), int(z["t"])
