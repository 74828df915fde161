"""Training the evaluation network by self-play: TD(lambda) through the C game loop.

The net plays both sides at 0-ply (``_selfplay``); a race of both homes ends a game with
its exact bear-off value (``training_tables``), a finished game with its result.  Each
position's target is its TD(lambda) return (``_selfplay.lambda_targets``), and the net
takes one SGD step per position (cross-entropy, ``_net.Net.sgd``).  After each batch's
games it also learns ``races`` random races of both homes with the tables' values as
targets (``random_races``): the evaluator answers those races from the tables, but a
net that knows them is better near the end of contact and can be checked against them.

Games are played in batches of ``batch`` games by the net as it was at the start of the
batch, spread over ``threads`` threads (the C loop runs without the GIL); the positions
are then learnt from in game order.  Game ``g`` draws its dice from
``rng.block_bit_generator(seed, g)``, so a run depends on its seed and settings only, not
on the number of threads, and a run resumed from a checkpoint continues exactly as an
uninterrupted one would.

The shipped net is made by ``nardy-fast train``: a run with its defaults, then a run
from that net (``init``) with a smaller step (see the README and ``benchmarks/RESULTS.md``
for the commands and their run times).
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nardy_fast.engine.evaluation import _search

from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation._net import MAX_HIDDEN, Net
from nardy_fast.tables import bearoff
from nardy_fast.tables.race import default_race_tables
from nardy_fast.core._checks import check_count, check_threads
from nardy_fast._utils._progress import progress_bar
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.parallel import _signals_held
from nardy_fast.training.checkpoint import run_checkpoint
from nardy_fast.training.schedule import step_at
from nardy_fast.tables.onesided import n_boards
from nardy_fast.core.position import Position
from nardy_fast.core.rng import block_bit_generator, root_entropy, side_seed
from nardy_fast.core.rules import Rules, as_rules

__all__ = ["train", "DEFAULTS"]

# Hyper-parameters of the shipped net (changing one starts a new run, not a resume).
DEFAULTS = {
    "hidden": 128,         # hidden units
    "lam": 0.7,            # TD(lambda)
    "lr": 0.03,            # SGD step per position, first half of the run (0.1 diverges)
    "lr_final": 0.003,     # ... decayed linearly to this at the end
    "batch": 32,           # games played by one frozen net
    "races": 64,           # random races of both homes learnt per batch (exact targets)
}


def training_tables():
    """The race tables that value the races ending self-play games: the default one- and
    two-sided databases (no mars table, so that a run does not depend on which optional
    tables a machine has built; ``race.default_race_tables``)."""
    return default_race_tables(mars=False)


def random_races(entropy, k, n):
    """``n`` random races of both homes (side on roll first), seeded by ``(entropy, k)``:
    each side's bear-off board drawn uniformly from the boards of 1..15 checkers or, for
    half of them, of 1..8 checkers (the short races the two-sided table holds)."""
    rng = np.random.default_rng(side_seed(entropy, k))
    hi = np.repeat(np.where(np.arange(n) % 2 == 0, bearoff.N_BOARDS, n_boards(8)), 2)
    b6 = bearoff.board_of(rng.integers(1, hi))
    races = np.zeros((n, 2, 24), np.uint8)
    races[:, :, 18:] = b6.reshape(n, 2, 6)[:, :, ::-1]
    return races


def _lr(cfg, done):
    return step_at(cfg["lr"], cfg["lr_final"], done / max(cfg["games"], 1))


def _check_settings(**given):
    """``train``'s numbers, each refused by name before any game: a count not an integer
    (10.7 was cut to 10), a net of no unit, a step that is not a finite number >= 0, a
    lambda outside [0, 1] (NaN, -1 or 5 trained weights that cannot load)."""
    for name, lo in (("n_games", 1), ("hidden", 1), ("batch", 1), ("races", 0),
                     ("checkpoint_every", 1), ("check_every", 0), ("check_games", 2)):
        check_count(given[name], name, lo)
    for name in ("lr", "lr_final"):
        value = given[name]
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                             np.floating)):
            raise TypeError(f"{name}={value!r}: expected a number >= 0")
        if not (math.isfinite(value) and value >= 0):       # 0: the net stays as it is
            raise ValueError(f"{name}={value}: expected a finite number >= 0")
    lam = given["lam"]
    if isinstance(lam, bool) or not isinstance(lam, (int, float, np.integer, np.floating)) \
            or not 0.0 <= lam <= 1.0:
        raise ValueError(f"lam={lam!r}: expected a number in [0, 1]")


def train(path, n_games=1_000_000, *, seed=None, hidden=DEFAULTS["hidden"], lam=DEFAULTS["lam"],
          lr=DEFAULTS["lr"], lr_final=DEFAULTS["lr_final"], batch=DEFAULTS["batch"],
          races=DEFAULTS["races"],
          rules=None, threads=None, checkpoint_every=5000, check_every=0, check_games=2000,
          check=None, until=None, progress=None, log=None, init=None, replace=False):
    """Train a net by self-play and save it to ``path`` (checkpointed, resumable).

    Parameters
    ----------
    path : str or os.PathLike
        The net file.  A checkpoint of the same settings found there is resumed; any
        other file there is refused (``ValueError``) unless ``replace``.
    n_games : int
        Self-play games in all.
    seed : int or None
        Root entropy of the dice and the initial weights (None: fresh, recorded in the
        net's ``meta["training"]["seed"]``; pass it again to resume).
    hidden, lam, lr, lr_final, batch, races :
        Net size (hidden units: a multiple of 8 up to 1024) and learning settings
        (``DEFAULTS``).
    rules : Rules, optional
        Move rules of the games (default classic); the net maximises the classic points
        (oin 1, mars 2) when it chooses moves, whatever the rules' scoring.
    threads : int, optional
        Threads playing the games (default: every usable core).  Does not change the
        result.
    checkpoint_every : int
        Games between checkpoints (written atomically to ``path``, with the games done and
        the wall-clock seconds of the run so far, the earlier calls of a resumed run
        included, in ``meta["training"]``).
    check_every, check_games : int
        Every ``check_every`` games (0: never), measure the net so far with ``check``
        over ``check_games`` games and log its figures.  A check comes at the end of the
        first ``batch`` of games at or past the mark, and the next mark is counted from
        there (``check_every=500``, ``batch=32``: at 512, 1,024, 1,536, ... games).
    check : callable, optional
        The strength check, ``check(evaluator, n_games, seed) -> dict``: ``evaluator`` an
        ``Evaluator`` of a copy of the net so far (under ``rules``), ``n_games`` is
        ``check_games``, ``seed`` the run's root entropy + 1; the dict's figures are
        logged with ``games``.  Needed when ``check_every`` > 0.  ``nardy-fast train``
        passes ``nardy_fast.engine.play.strength.vs_greedy`` (the net at 0-ply against
        ``greedy``, shared dice, both orders: ``vs_greedy_win_rate``,
        ``vs_greedy_points_share``, their standard errors and ``vs_greedy_games``).
    until : int, optional
        Stop (with a checkpoint) once this many games are done; a later call with the
        same settings continues exactly where this one stopped.
    progress : bool or None
        A bar with games per second.  True: a bar; False: none; None (default): a bar
        when standard error is a terminal (``core._progress``).
    log : callable, optional
        ``log(dict)`` receives a line per checkpoint and strength check.
    init : str, os.PathLike, Evaluator or None
        Start from this net's weights instead of random ones (fine-tuning a net for a
        rule variant: the shipped classic net trained on under ``rules``); its hidden size
        replaces ``hidden``.  Recorded as the SHA-256 of its weights (``meta["training"]
        ["init"]``), so a resume needs the same start.
    replace : bool
        Start a new run over a file at ``path`` that is not this run's checkpoint
        (default False: refused, naming what is there).

    Returns
    -------
    Evaluator

    Examples
    --------
    >>> import os, tempfile
    >>> import nardy_fast as nf
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.npz")
    >>> ev = nf.train_self_play(path, n_games=4, seed=1, hidden=8, threads=1, progress=False)
    >>> ev.meta["training"]["games"], os.path.exists(path)
    (4, True)
    """
    rules = as_rules(rules)
    entropy = root_entropy(seed)
    _check_settings(n_games=n_games, hidden=hidden, lam=lam, lr=lr, lr_final=lr_final,
                    batch=batch, races=races, checkpoint_every=checkpoint_every,
                    check_every=check_every, check_games=check_games)
    start_net = _init_net(init)
    if start_net is not None:
        hidden = start_net.n_hidden
    elif hidden % 8 or hidden > MAX_HIDDEN:    # the net's C code takes no other width
        raise ValueError(f"hidden={hidden}: expected a multiple of 8 up to {MAX_HIDDEN}")
    cfg = dict(games=int(n_games), seed=entropy, hidden=int(hidden), lam=float(lam),
               lr=float(lr), lr_final=float(lr_final), batch=int(batch), races=int(races),
               rules=rules.to_dict())
    if start_net is not None:
        cfg["init"] = start_net.digest()
    if cfg["games"] < 1 or cfg["batch"] < 1:
        raise ValueError("games and batch must be >= 1")
    if check_every and check is None:
        raise ValueError(f"check_every={check_every}: needs the strength check, check= "
                         "(e.g. nardy_fast.engine.play.strength.vs_greedy)")
    threads = check_threads(threads)
    # classic points whatever the rules: without the cube's fields, whose wins all score 1
    move_rules = Rules(**{**rules.to_dict(), "scoring": "classic", "oin_points": 1.0,
                          "mars_points": 2.0, "cube": None, "beaver": False,
                          "autodouble": False})
    net, done, before = _resume(path, cfg, start_net, replace)
    start = np.asarray(Position.initial().boards)
    tables = training_tables()
    bar = progress_bar(total=cfg["games"], initial=done, unit="game", desc="self-play",
                       progress=progress)
    next_ckpt = done + checkpoint_every
    next_check = done + check_every if check_every else None
    t0 = time.perf_counter()
    stop = cfg["games"] if until is None else min(int(until), cfg["games"])
    saved = done                        # the games of the checkpoint on disk
    try:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            while done < stop:
                n = min(cfg["batch"], cfg["games"] - done)
                bitgens = [block_bit_generator(entropy, done + i) for i in range(n)]
                parts = np.array_split(np.arange(n), min(threads, n))
                # Ctrl-C is taken once the batch is played, not inside the pool's locks: an
                # interrupt raised there could leave a future's lock held, and the pool's
                # shutdown then waited for ever on a thread blocked on it
                with _signals_held():
                    futures = [pool.submit(_selfplay.play_games, net, start,
                                           rules=move_rules, tables=tables,
                                           bitgens=[bitgens[i] for i in part])
                               for part in parts]
                    played = [f.result() for f in futures]
                pos, nxt, lengths, z = (np.concatenate(r) for r in zip(*played))
                targets = _selfplay.lambda_targets(nxt, lengths, z, cfg["lam"])
                races = random_races(entropy, done, cfg["races"])
                race_values = _search.Searcher(net, move_rules, tables).values(races, 0)
                net.sgd(np.concatenate([pos, races]), np.concatenate([targets, race_values]),
                        _lr(cfg, done))
                done += n
                bar.update(n)
                if done >= next_ckpt or done == stop:
                    _save(path, net, cfg, done, before + time.perf_counter() - t0)
                    saved = done
                    next_ckpt = done + checkpoint_every
                    if log:
                        log({"games": done, "seconds": time.perf_counter() - t0})
                if next_check is not None and done >= next_check:
                    figures = check(Evaluator(net.copy(), rules=rules), check_games,
                                    entropy + 1)
                    if log:
                        log({"games": done, **figures})
                    next_check = done + check_every
    except KeyboardInterrupt:           # say what is kept, and how to go on
        bar.close()
        raise KeyboardInterrupt(
            f"train: {saved:,} of {cfg['games']:,} games kept in {os.fspath(path)} (its "
            "last checkpoint; the games since are played again); the same call resumes"
            if saved else "train: no checkpoint written yet, nothing kept") from None
    bar.close()
    return Evaluator(net, rules=rules, meta={"training": dict(cfg, games_done=done)})


def _init_net(init):
    """The Net to start from (``train``'s ``init``), or None."""
    if init is None:
        return None
    ev = init if isinstance(init, Evaluator) else Evaluator.load(init)
    if ev.net.n_hidden2:
        raise ValueError(f"init: a net with a second hidden layer ({ev.net.n_hidden2} "
                         f"units); TD training takes one-layer nets (train-net trains both)")
    return ev.net.copy()


def _resume(path, cfg, start_net=None, replace=False):
    """The checkpointed net, games done and seconds taken at ``path`` when its settings
    equal ``cfg``; else ``start_net`` (a copy) or a fresh net, 0 and 0.0
    (``checkpoint.run_checkpoint``: another file there is refused unless ``replace``)."""
    ev, done = run_checkpoint(path, cfg, "games_done", replace=replace)
    if ev is not None:
        return (ev.net.copy(), min(done, cfg["games"]),
                float(ev.meta["training"].get("seconds", 0.0)))
    if start_net is not None:
        return start_net.copy(), 0, 0.0
    return Net.random(cfg["hidden"], cfg["seed"]), 0, 0.0


def _save(path, net, cfg, done, seconds):
    Evaluator(net, rules=as_rules(cfg["rules"]),
              meta={"training": dict(cfg, games_done=done, seconds=round(seconds, 1))}
              ).save(path)
