"""Supervised training of the evaluation net on look-ahead targets (issue 25).

Instead of TD(lambda) returns, each position learns its 1-ply look-ahead value under a
frozen copy of the net (``labels.lookahead_targets``), as LongNardi trains.  A run is a
sequence of rounds; in round ``r``:

1. the net as it was at the start of the round (frozen) plays ``games`` self-play games
   at 0-ply, games ``r * games`` to ``(r + 1) * games - 1`` of the run's seed
   (``labels.selfplay_games``);
2. every position gets the frozen net's look-ahead target at ``plies``, corrected by the
   rest of its game when ``lam > 0`` (``_selfplay.blend_targets``: with ``lam = 1`` the
   game's result with the luck of each roll taken out, an unbiased one-game rollout;
   look-ahead targets bootstrap on the frozen net and keep its bias, results do not);
3. positions in ``exclude`` (a held-out benchmark set) are dropped;
4. with ``balance > 1``, the contact positions (a checker of either side on its first 12
   points) of the rarer kinds (``engine.evaluation.kinds``: heavy head, prime, trapped, behind, plain)
   are repeated, each kind ``min(balance, round(1 / (5 s)))`` times (at least once; ``s``
   its share of the round's contact positions), so that every kind nears a fifth of the
   contact positions learnt, as in the accuracy benchmark's strata;
5. the net learns them: ``epochs`` passes in a seeded order (``SeedSequence(seed,
   spawn_key=(r,))``), minibatches of ``batch`` positions, Adam (step ``lr``, or with
   ``lr_final`` held for half the epochs and then moved linearly to ``lr_final`` at the
   last, ``schedule.step_at``; betas 0.9 and 0.999, its moments started afresh each round), cross-entropy of the seven sigmoid
   outputs, in numpy (float32).

After each round the net is written to ``path`` (the package's net file, atomically) with
the settings and rounds done in ``meta["training"]``; a call with the same settings and
the same start finds it there and continues with the next round (a larger ``rounds``
extends a finished run), so an interrupted run ends with the same weights as an
uninterrupted one (numpy's matrix products may differ
in the last bits between machines and BLAS builds; on one machine they repeat).

The command: ``nardy-fast train-net -o NET --init START --seed S --rounds R ...``.

``average_nets`` averages the weights of nets trained from one start (runs of other seeds
or settings, or one run's checkpoints): the mean of nets that sit near each other takes
out part of the noise each picked up from its last minibatches and games, as stochastic
weight averaging does (``nardy-fast average-nets``; ``train-net --snapshots DIR`` keeps
each round's net for the mean of one run's last rounds).
"""
from __future__ import annotations

import math
import numbers
import os
import time

import numpy as np

from nardy_fast._utils._progress import show_progress
from nardy_fast._utils._warn import warn_user
from nardy_fast.engine.evaluation.kinds import KINDS, position_kinds
from nardy_fast.core.position import contact_mask
from nardy_fast.core.rng import child_seed, root_entropy
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation._net import MAX_HIDDEN, Net
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.training import _selfplay
from nardy_fast.training.labels import board_keys, lookahead_targets, selfplay_games
from nardy_fast.training.checkpoint import run_checkpoint
from nardy_fast.training.schedule import step_at

__all__ = ["train_supervised", "SUPERVISED_DEFAULTS", "average_nets", "widen", "deepen", "fit",
           "loss_grads"]

# Settings of a run (changing one starts a new run, not a resume).
SUPERVISED_DEFAULTS = {
    "rounds": 4,           # rounds of self-play, labelling and learning
    "games": 1000,         # self-play games per round (about 85 positions each)
    "plies": 1,            # look-ahead of the targets
    "keep": 0,             # at 2 plies, each roll's moves compared at 1 ply (0: all)
    "epochs": 3,           # passes over a round's positions
    "batch": 128,          # positions per Adam step
    "lr": 3e-4,            # Adam step
    "lr_final": None,      # Adam step of a round's last epoch (schedule.step_at; None: lr)
    "lam": 0.0,            # decay of the games' corrections to the targets (blend_targets)
    "balance": 1,          # most repeats of a rare kind's contact positions (1: none)
}


def train_supervised(path, *, seed, init=None, hidden=None, hidden2=None, exclude=None,
                     progress=None, log=None, until=None, snapshots=None, threads=1,
                     replace=False, **settings):
    """Train a net on look-ahead targets and save it to ``path`` (checkpointed, resumable).

    Parameters
    ----------
    path : str or os.PathLike
        The net file (written after every round).  A checkpoint of the same settings found
        there is resumed; any other file there is refused (``ValueError``) unless
        ``replace``.
    seed : int or None
        Root entropy of the self-play dice and the learning order (None: fresh, recorded
        in the net's ``meta["training"]["seed"]``; pass it again to resume).
    init : str, os.PathLike, Evaluator or None
        Start from this net (default: the shipped classic net); recorded by the SHA-256
        of its weights.  A net of other rules than the classic ones is a ``ValueError``
        (the games are classic).
    hidden : int, optional
        Widen the start net to this many hidden units (a multiple of 8, at least the
        start's): the start's units and new ones with small seeded incoming weights and
        zero outgoing ones, so the wider net starts with the start net's outputs.
    hidden2 : int, optional
        Give the start net a second hidden layer of this many units, or widen its second
        layer to this many (``deepen``: new units with zero outgoing weights, so it
        starts with the start net's outputs); recorded in the settings as ``hidden2``.
    exclude : array_like of uint8, shape (m, 2, 24), optional
        Positions never learnt (the held-out part of the accuracy benchmark); recorded by
        their count.
    progress : bool or None
        Print a line per round.  True: the lines; False: none; None (default): the
        lines when standard error is a terminal (``core._progress``).
    log : callable, optional
        ``log(dict)`` gets a line per round (positions, loss, seconds).
    until : int, optional
        Stop after this many rounds done (a later call continues).
    snapshots : str or os.PathLike, optional
        A folder (made if missing) that keeps each round's net too, as
        ``round_001.nfdb``, ``round_002.nfdb``, ...: the net after that round, the same
        as ``path`` then.  The mean of a run's last rounds (``average_nets``) is a
        stochastic weight average.  A file there that a round would write over and that
        is not that round's net of this run is refused (``ValueError``) unless
        ``replace``.
    threads : int or None
        Threads of the 2-ply targets' search (default 1; None: every usable core).  The
        targets, and so the weights, do not depend on it.
    replace : bool
        Start a new run over a file at ``path`` that is not this run's checkpoint, and
        write its rounds' nets over the files of ``snapshots`` (default False: refused,
        naming what is there).
    **settings
        ``SUPERVISED_DEFAULTS`` keys: rounds, games, plies, keep, epochs, batch, lr,
        lr_final, lam, balance.  ``keep`` (``labels.lookahead_targets``): at ``plies = 2``, 1
        values each roll's 0-ply choice at 1 ply (about 4 ms a position), 0 (the default)
        compares every move at 1 ply (about 0.12 s).

    Returns
    -------
    Evaluator

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C, saying the rounds kept at ``path`` (``train_supervised: 3 of 4 rounds
        kept in PATH ...``, or that none finished); the same call resumes from them.
    """
    unknown = set(settings) - set(SUPERVISED_DEFAULTS)
    if unknown:
        raise TypeError(f"train_supervised: unknown settings {sorted(unknown)}; expected "
                        f"{sorted(SUPERVISED_DEFAULTS)}")
    for k, v in settings.items():     # 1.7 rounds were cut to 1, "2" games taken for 2
        integral = isinstance(SUPERVISED_DEFAULTS[k], int)
        if isinstance(v, bool) or not isinstance(v, numbers.Integral if integral else
                                                 numbers.Real):
            if v is None and k == "lr_final":     # unset: lr throughout
                continue
            raise TypeError(f"{k}={v!r}: expected " + ("an integer" if integral else
                                                        "a number"))
    seed = root_entropy(seed)          # an int >= 0 (1.5 was cut to 1; None: fresh)
    cfg = {k: type(v)(settings.get(k, v)) for k, v in SUPERVISED_DEFAULTS.items()
           if v is not None}
    lr_final = settings.get("lr_final")
    cfg["lr_final"] = None if lr_final is None else float(lr_final)
    for k in ("rounds", "games", "epochs", "batch", "balance"):
        if cfg[k] < 1:
            raise ValueError(f"{k} = {cfg[k]}: must be >= 1")
    if cfg["keep"] < 0:
        raise ValueError(f"keep = {cfg['keep']}: must be >= 0")
    if cfg["keep"] and cfg["plies"] == 1:
        raise ValueError(f"keep = {cfg['keep']}: no effect with plies = 1 (it filters "
                         f"the moves compared at 1 ply in a 2-ply target)")
    if cfg["plies"] not in (1, 2):
        raise ValueError(f"plies = {cfg['plies']}: expected 1 or 2")
    for k in ("lr", "lr_final"):        # inf: a round played, then a net of NaN weights
        if cfg[k] is not None and not 0 < cfg[k] < math.inf:
            raise ValueError(f"{k} = {cfg[k]}: must be a finite number > 0")
    if not 0.0 <= cfg["lam"] <= 1.0:
        raise ValueError(f"lam = {cfg['lam']}: must be in [0, 1]")
    start_ev = (init if isinstance(init, Evaluator) else
                Evaluator.default() if init is None else Evaluator.load(init))
    if start_ev.rules != CLASSIC:
        # the self-play and its targets are classic games: the net written (classic)
        # would carry rules other than the start's without a word
        raise ValueError(f"init: a net of the rules {start_ev.rules.to_text()!r}; "
                         "train_supervised plays and labels classic games only")
    start = start_ev.net.copy()
    if hidden is not None:
        start = widen(start, int(hidden), seed)
    if hidden2 is not None:
        start = deepen(start, hidden2, seed)
    excluded = set(board_keys(exclude)) if exclude is not None else set()
    cfg.update(method="lookahead", seed=int(seed), init=start.digest(),
               hidden=start.n_hidden, excluded=len(excluded))
    if start.n_hidden2:                  # one-layer runs keep the settings they had
        cfg["hidden2"] = start.n_hidden2
    net, done = _resume(path, cfg, start, replace)
    stop = cfg["rounds"] if until is None else min(int(until), cfg["rounds"])
    if snapshots is not None:          # before the first round, so a bad folder fails now
        os.makedirs(snapshots, exist_ok=True)
        if not replace:
            _check_snapshots(snapshots, cfg, range(done + 1, stop + 1))
    saved = done                        # the rounds of the net on disk at path
    try:
        while done < stop:
            t0 = time.process_time()
            frozen = _inert_second_layer_dropped(net)
            pos, after, lengths = selfplay_games(frozen, cfg["games"], cfg["seed"],
                                                 done * cfg["games"])
            targets = lookahead_targets(frozen, pos, cfg["plies"], threads=threads,
                                        keep=cfg["keep"])
            if cfg["lam"] > 0:
                targets = _selfplay.blend_targets(targets, after, lengths, cfg["lam"])
            plies = np.concatenate([np.arange(n) for n in lengths])
            if excluded:
                keep = np.array([k not in excluded for k in board_keys(pos)], dtype=bool)
                pos, targets, plies = pos[keep], targets[keep], plies[keep]
            t_label = time.process_time() - t0
            rows = kind_repeats(pos, plies, cfg["balance"])
            rng = np.random.default_rng(child_seed(cfg["seed"], done))
            net, loss = fit(net, frozen.encode(pos)[rows], targets[rows], cfg["epochs"],
                            cfg["batch"], cfg["lr"], rng, lr_final=cfg["lr_final"])
            done += 1
            line = dict(round=done, positions=len(pos), learnt=len(rows),
                        loss=round(loss, 5), label_cpu_s=round(t_label, 1),
                        cpu_s=round(time.process_time() - t0, 1))
            ev = Evaluator(net, rules=CLASSIC,
                           meta={"training": dict(cfg, rounds_done=done)})
            ev.save(path)
            saved = done
            if snapshots is not None:
                ev.save(os.path.join(snapshots, snapshot_name(done)))
            if show_progress(progress):
                print("  " + ", ".join(f"{k} {v}" for k, v in line.items()), flush=True)
            if log:
                log(line)
    except KeyboardInterrupt:           # say what is kept, and how to go on
        raise KeyboardInterrupt(
            f"train_supervised: {saved:,} of {cfg['rounds']:,} rounds kept in "
            f"{os.fspath(path)} (the net after round {saved}; the round under way is "
            "played again); the same call resumes"
            if saved else "train_supervised: no round finished yet, nothing kept"
        ) from None
    return Evaluator(net, rules=CLASSIC, meta={"training": dict(cfg, rounds_done=done)})


def _inert_second_layer_dropped(net):
    """A copy of ``net``, without its second layer when that layer's outgoing weights are
    all zero (``deepen``'s start): the same outputs (``w4 = 0`` is the one-layer net) from
    the faster one-layer path, for a round's self-play and targets."""
    if net.n_hidden2 and not net.w4.any():
        return Net(net.w1, net.b1, net.w2, net.b2)
    return net.copy()


def _check_snapshots(folder, cfg, rounds):
    """Refuse (``ValueError`` naming it) a file of ``folder`` that a round of ``rounds``
    would write over, unless it is the net of that round of this run (``cfg`` but for
    ``rounds``, as ``_resume`` reads a checkpoint), which the round writes again."""
    settings = {k: v for k, v in cfg.items() if k != "rounds"}
    for r in rounds:
        name = os.path.join(folder, snapshot_name(r))
        if not os.path.exists(name):
            continue
        try:
            _, held = run_checkpoint(name, settings, "rounds_done",
                                     defaults=SUPERVISED_DEFAULTS)
        except ValueError:
            held = None
        if held != r:
            raise ValueError(f"snapshots: {name} exists and is not the net of round {r} of "
                             "this run; name another folder, or ask to replace it "
                             "(--force, replace=True)")


def snapshot_name(rounds_done):
    """The file name of the net after ``rounds_done`` rounds in a run's snapshots folder
    (``train_supervised(..., snapshots=DIR)``): ``round_001.nfdb`` and so on."""
    return f"round_{int(rounds_done):03d}.nfdb"


def kind_repeats(boards, plies, balance):
    """The rows to learn in a round: every position once, the contact positions of the
    rarer kinds repeated (module docstring, step 4).

    Parameters
    ----------
    boards : ndarray of uint8, shape (n, 2, 24)
        The round's positions, side on roll first.
    plies : ndarray of int, shape (n,)
        Each position's ply in its game.
    balance : int
        The most times a position is learnt (1: each once).

    Returns
    -------
    ndarray of int64
        Row indices into ``boards``, ascending; the repeats of a row follow it.
    """
    n = len(boards)
    times = np.ones(n, dtype=np.int64)
    if balance > 1 and n:
        contact = contact_mask(boards)
        kinds = position_kinds(boards, plies)
        total = int(contact.sum())
        for k in range(len(KINDS)):
            mine = contact & (kinds == k)
            if mine.any():
                times[mine] = min(int(balance),
                                  max(1, round(total / len(KINDS) / int(mine.sum()))))
    return np.repeat(np.arange(n, dtype=np.int64), times)


def average_nets(nets, names=None):
    """The net whose weights are the mean of ``nets``' weights.

    Parameters
    ----------
    nets : sequence of Evaluator
        At least two nets of one shape (hidden units) and rules, best trained from one
        start: the mean of unrelated nets is no net at all.
    names : sequence of str, optional
        How to name each net in an error (default: its place, ``net 1``, ...).

    Returns
    -------
    Evaluator
        The mean, under the nets' rules; ``meta["average"]`` lists the SHA-256 digest of
        each net's weights, in order, and ``meta["training"]`` is ``{"method":
        "average", "sources": [...]}``, each net's own training record in that order
        (``{}`` for a net without one).
    """
    nets = list(nets)
    names = [f"net {k + 1}" for k in range(len(nets))] if names is None else list(names)
    if len(nets) < 2:
        raise ValueError(f"average_nets: expected at least 2 nets, got {len(nets)}")
    for ev, name in zip(nets, names):
        if not isinstance(ev, Evaluator):
            raise TypeError(f"{name}: expected an Evaluator, got {type(ev).__name__}")
        shape, first = (ev.net.n_hidden, ev.net.n_hidden2), (nets[0].net.n_hidden,
                                                               nets[0].net.n_hidden2)
        if shape != first:
            raise ValueError(f"{name}: {shape[0]} hidden units (second layer {shape[1]}), "
                             f"{names[0]} has {first[0]} ({first[1]}): only nets of one "
                             f"shape average")
        if ev.rules != nets[0].rules:
            raise ValueError(f"{name}: trained under other rules than {names[0]} "
                             f"({ev.rules.to_text()!r} against "
                             f"{nets[0].rules.to_text()!r})")
    _warn_unrelated(nets, names)
    arrays = [ev.net.arrays() for ev in nets]
    mean = {k: np.mean([np.asarray(a[k], dtype=np.float64) for a in arrays], axis=0)
            for k in arrays[0]}
    return Evaluator(Net(**mean), rules=nets[0].rules,
                     meta={"average": [ev.net.digest() for ev in nets],
                           "training": {"method": "average",
                                        "sources": [dict(ev.meta.get("training", {}))
                                                    for ev in nets]}})


def _start_of(ev):
    """The start a net's training record names: the net it began from (``init``'s
    digest), or for a run from random weights its seed; None when the record says
    neither (a net without one, an average)."""
    t = ev.meta.get("training") or {}
    if t.get("init"):
        return f"the net {str(t['init'])[:16]}"
    if t.get("method") in (None, "td") and "seed" in t and "hidden" in t:
        return f"random weights of seed {t['seed']}"
    return None


def _warn_unrelated(nets, names):
    """A ``UserWarning`` naming a net given twice (the mean counts it twice) and nets
    whose training records name different starts (their mean is no net at all; the
    averaged rounds of one run share their start)."""
    digests = [ev.net.digest() for ev in nets]
    for k, d in enumerate(digests):
        if d in digests[:k]:
            warn_user(f"average_nets: {names[k]} has the weights of "
                      f"{names[digests.index(d)]}: the mean counts that net twice")
    starts = [_start_of(ev) for ev in nets]
    known = [k for k, s in enumerate(starts) if s is not None]
    if len({starts[k] for k in known}) > 1 and not _one_line(nets, starts, digests, known):
        k0 = known[0]
        k1 = next(k for k in known if starts[k] != starts[k0])
        warn_user(f"average_nets: {names[k1]} and {names[k0]} were trained from different "
                  f"starts ({starts[k1]}; {starts[k0]}): the mean of unrelated nets is no "
                  "net at all")


def _one_line(nets, starts, digests, known):
    """Whether the nets of ``known`` (indices) are one line of training: joined where two
    share a start or where one began from the other (its start is the other's weights: a
    net averaged with a run trained from it)."""
    group = {k: k for k in known}

    def root(k):
        while group[k] != k:
            k = group[k]
        return k
    for i in known:
        for j in known:
            if starts[i] == starts[j] or starts[i] == f"the net {digests[j][:16]}":
                group[root(i)] = root(j)
    return len({root(k) for k in known}) == 1


def widen(net, hidden, seed):
    """``net`` with ``hidden`` units: its own first, then new ones (small random incoming
    weights, zero outgoing), so the outputs are unchanged (``train-net --hidden``).

    Parameters
    ----------
    net : Net
        A one-layer or two-layer net.  A second layer's incoming weights from the new
        units are zero too.
    hidden : int
        Units of the widened layer: a multiple of 8, at least ``net``'s, up to 1024.
    seed : int
        Seeds the new units' incoming weights.

    Returns
    -------
    Net
        ``net`` itself when ``hidden`` is its width.
    """
    if hidden > MAX_HIDDEN:             # before the arrays: 10**12 units asked for TiBs
        raise ValueError(f"hidden = {hidden}: expected a multiple of 8 up to {MAX_HIDDEN}")
    if hidden % 8 or hidden < net.n_hidden:
        raise ValueError(f"hidden = {hidden}: must be a multiple of 8 and at least the "
                         f"start net's {net.n_hidden}")
    if hidden == net.n_hidden:
        return net
    a, extra = net.arrays(), hidden - net.n_hidden
    # key 2**31: a stream apart from the rounds' (keyed 0, 1, ...: none reaches 2**31)
    rng = np.random.default_rng(child_seed(int(seed), 2**31))
    second = ()
    if net.n_hidden2:
        second = (np.hstack([a["w3"], np.zeros((a["w3"].shape[0], extra))]), a["b3"],
                  a["w4"])
    return Net(np.hstack([a["w1"], rng.normal(0.0, 0.1, (a["w1"].shape[0], extra))]),
               np.concatenate([a["b1"], np.zeros(extra)]),
               np.hstack([a["w2"], np.zeros((a["w2"].shape[0], extra))]), a["b2"],
               *second)


def deepen(net, hidden2, seed):
    """``net`` with a second hidden layer of ``hidden2`` ReLU units on its first: their
    incoming weights He-scaled and seeded, their outgoing weights zero, so the outputs are
    ``net``'s (``_net``: ``sigmoid(b2 + w2 @ h + w4 @ h2)`` with ``w4 = 0``).  A net with
    a second layer already has it widened to ``hidden2`` units the same way (its own
    units first, then new ones with zero outgoing weights).

    Parameters
    ----------
    net : Net
        A one-layer net, or a two-layer net of at most ``hidden2`` second-layer units.
    hidden2 : int
        Units of the (new or widened) second layer, a multiple of 8 up to 1024.
    seed : int
        Root entropy of the new weights (a stream apart from training's).

    Returns
    -------
    Net
        ``net`` itself when its second layer has ``hidden2`` units.
    """
    hidden2 = int(hidden2)
    if hidden2 <= 0 or hidden2 % 8 or hidden2 > MAX_HIDDEN:
        raise ValueError(f"hidden2 = {hidden2}: expected a multiple of 8 up to {MAX_HIDDEN}")
    if hidden2 < net.n_hidden2:
        raise ValueError(f"hidden2 = {hidden2}: the net's second layer has "
                         f"{net.n_hidden2} units already; it can be widened, not narrowed")
    if hidden2 == net.n_hidden2:
        return net
    a = net.arrays()
    # key 2**31 + 1: apart from the rounds' (0, 1, ...) and widen's (2**31)
    rng = np.random.default_rng(child_seed(int(seed), 2**31 + 1))
    H, extra = net.n_hidden, hidden2 - net.n_hidden2
    w3 = rng.normal(0.0, (2.0 / H) ** 0.5, (extra, H))
    b3, w4 = np.zeros(extra), np.zeros((a["w2"].shape[0], extra))
    if net.n_hidden2:
        w3, b3, w4 = (np.vstack([a["w3"], w3]), np.concatenate([a["b3"], b3]),
                      np.hstack([a["w4"], w4]))
    return Net(a["w1"], a["b1"], a["w2"], a["b2"], w3, b3, w4)


def _resume(path, cfg, start, replace=False):
    """The checkpointed net and rounds done at ``path`` when its settings equal ``cfg``
    but for ``rounds`` (round ``r`` depends on the seed and ``r`` only, so a finished run
    continues to more rounds); else a copy of ``start`` and 0.  Another file there is
    refused unless ``replace`` (``checkpoint.run_checkpoint``).  A checkpoint of more
    rounds than ``cfg["rounds"]`` is a ``ValueError``: its net is past the round asked
    for, and no round can be taken back."""
    old, done = run_checkpoint(path, {k: v for k, v in cfg.items() if k != "rounds"},
                               "rounds_done", defaults=SUPERVISED_DEFAULTS, replace=replace)
    if old is None:
        return start.copy(), 0
    if done > cfg["rounds"]:
        raise ValueError(
            f"{path}: holds {done} rounds of this run, more than the {cfg['rounds']} "
            f"asked for; ask for {done} or more to use it, write to another file for "
            "a shorter run, or take the round's net from the run's snapshots folder")
    return old.net.copy(), done


def loss_grads(p, x, t, equity=None):
    """Cross-entropy of a batch and its gradient.

    Parameters
    ----------
    p : dict of ndarray
        The weights ``w1`` (N_INPUTS, H), ``b1`` (H,), ``w2`` (7, H), ``b2`` (7,), and
        with a second layer ``w3`` (H2, H), ``b3`` (H2,), ``w4`` (7, H2) (``_net``).
    x : ndarray, shape (n, N_INPUTS)
        Encoded positions.
    t : ndarray, shape (n, 7)
        Targets in [0, 1].
    equity : (float, ndarray of shape (7,)) or None
        ``(w, c)``: add ``w`` times the squared equity error ``(c . (o - t))^2`` of each
        position, ``c`` the outputs' equity coefficients (points per game for each
        output), so that the loss weighs what the equity weighs.  None: none.

    Returns
    -------
    loss : float
        The cross-entropy summed over the seven outputs and the n positions (nats), plus
        the weighted squared equity errors when ``equity`` is given.
    grads : dict of ndarray
        The gradient of ``loss / n`` for each weight array.
    """
    deep = "w3" in p
    z = x @ p["w1"] + p["b1"]
    h = np.maximum(z, 0.0)
    logits = h @ p["w2"].T + p["b2"]
    if deep:
        z2 = h @ p["w3"].T + p["b3"]
        h2 = np.maximum(z2, 0.0)
        logits = logits + h2 @ p["w4"].T
    with np.errstate(over="ignore"):       # exp(-z) = inf for z < -88 gives o = 0, its limit
        o = 1.0 / (1.0 + np.exp(-logits))
    oc = np.clip(o, 1e-7, 1 - 1e-7)
    loss = float(-(t * np.log(oc) + (1 - t) * np.log(1 - oc)).sum())
    g = o - t                                     # d loss / d output logits, per position
    if equity is not None:
        w, c = equity
        e = (o - t) @ c                           # each position's equity error
        loss += float(w * (e ** 2).sum())
        g = g + (2 * w * e)[:, None] * c * o * (1 - o)
    g = g / len(x)                                # d (loss / n) / d output logits
    dh = g @ p["w2"]
    grads = {"w2": g.T @ h, "b2": g.sum(axis=0)}
    if deep:
        dz2 = (g @ p["w4"]) * (z2 > 0)
        dh = dh + dz2 @ p["w3"]
        grads.update(w3=dz2.T @ h, b3=dz2.sum(axis=0), w4=g.T @ h2)
    dz = dh * (z > 0)
    grads.update(w1=x.T @ dz, b1=dz.sum(axis=0))
    return loss, grads


def fit(net, x, targets, epochs, batch, lr, rng, equity=None, lr_final=None):
    """Adam on the cross-entropy of ``net``'s outputs against ``targets``.

    Parameters
    ----------
    net : Net
        The start (not changed).
    x : ndarray of float32, shape (n, N_INPUTS)
        Encoded positions (``Net.encode``).
    targets : ndarray of float32, shape (n, 7)
        Probabilities, or unbiased noisy estimates of them that may leave [0, 1] (the
        corrected targets of ``_selfplay.blend_targets``).  They are not clipped: the
        gradient of the cross-entropy is linear in the target, so noise that averages to
        zero leaves the expected step alone, where clipping would pull rare outcomes up.
    epochs, batch : int
    lr : float
        Adam step (of the first half of the epochs when ``lr_final`` is given).
    rng : numpy.random.Generator
        The order of the positions in each epoch.
    equity : (float, ndarray of shape (7,)) or None
        An added squared equity error (``loss_grads``); None (default): none.
    lr_final : float or None
        Adam step of the last epoch, reached linearly over the second half of the epochs
        (``schedule.step_at``, epoch ``e`` of ``epochs`` at fraction ``(e + 1) / epochs``);
        None (default): ``lr`` throughout.

    Returns
    -------
    net : Net
        The trained net.
    loss : float
        Mean loss (``loss_grads``: the cross-entropy summed over the seven outputs, nats)
        over the last epoch.
    """
    p = {k: v.astype(np.float32) for k, v in net.arrays().items()}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    b1_, b2_, eps, step = np.float32(0.9), np.float32(0.999), np.float32(1e-8), 0
    t = targets.astype(np.float32)
    if equity is not None:
        equity = (np.float32(equity[0]), np.asarray(equity[1], dtype=np.float32))
    n, loss = len(x), 0.0
    for e in range(epochs):
        step_e = np.float32(step_at(lr, lr_final, (e + 1) / epochs))
        order = rng.permutation(n)
        total = 0.0
        for i in range(0, n, batch):
            idx = order[i: i + batch]
            loss_sum, grads = loss_grads(p, x[idx], t[idx], equity)
            total += loss_sum
            step += 1
            c1, c2 = 1 - b1_ ** step, 1 - b2_ ** step
            for k in p:
                m[k] = b1_ * m[k] + (1 - b1_) * grads[k]
                v2[k] = b2_ * v2[k] + (1 - b2_) * grads[k] ** 2
                p[k] -= step_e * (m[k] / c1) / (np.sqrt(v2[k] / c2) + eps)
        loss = total / n
    return Net(**p), loss
