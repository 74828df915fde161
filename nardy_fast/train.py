"""Training the evaluation network by self-play: TD(lambda) through the C game loop.

The net plays both sides at 0-ply (``_selfplay``); a race of both homes ends a game with
its exact bear-off value (``race_probabilities``' tables), a finished game with its
result.  Each position's target is its TD(lambda) return (``_selfplay.lambda_targets``),
and the net takes one SGD step per position (cross-entropy, ``_net.Net.sgd``).

Games are played in batches of ``batch`` games by the net as it was at the start of the
batch, spread over ``threads`` threads (the C loop runs without the GIL); the positions
are then learnt from in game order.  Game ``g`` draws its dice from
``rng.block_bit_generator(seed, g)``, so a run depends on its seed and settings only, not
on the number of threads, and a run resumed from a checkpoint continues exactly as an
uninterrupted one would.

The shipped net is made by ``nardy-fast train`` with its defaults (see the README and
``benchmarks/RESULTS.md`` for the command and its run time).
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nardy_fast import _selfplay
from nardy_fast._net import Net, N_OUTPUTS
from nardy_fast.evaluator import Evaluator, rules_codes
from nardy_fast.parallel import default_workers
from nardy_fast.position import Position
from nardy_fast.rng import block_bit_generator, root_entropy
from nardy_fast.rules import as_rules

__all__ = ["train", "TrainConfig", "DEFAULTS"]

# Hyper-parameters of the shipped net (changing one starts a new run, not a resume).
DEFAULTS = {
    "hidden": 128,         # hidden units
    "lam": 0.7,            # TD(lambda)
    "lr": 0.01,            # SGD step per position, first half of the run
    "lr_final": 0.003,     # ... decayed linearly to this at the end
    "batch": 32,           # games played by one frozen net
}


class TrainConfig(dict):
    """The settings that determine a training run (stored in its checkpoints)."""


def _race_terminals(races, ends, next_values, lengths, rules):
    """Z of every game: the result (finished) or the exact race value (race)."""
    from nardy_fast.race import race_probabilities
    out = np.empty((len(lengths), N_OUTPUTS), dtype=np.float32)
    ends_at = np.cumsum(lengths) - 1
    for g in range(len(lengths)):
        if ends[g] == _selfplay.END_FINISHED:
            out[g] = next_values[ends_at[g]]
        else:
            o = race_probabilities(Position.from_boards(races[g, 0], races[g, 1]), rules)
            out[g] = (o.p_win, o.p_mars_win, o.p_koks_win, o.p_home_mars_win,
                      o.p_mars_loss, o.p_koks_loss, o.p_home_mars_loss)
    return out


def _lr(cfg, done):
    frac = done / max(cfg["games"], 1)
    if frac <= 0.5:
        return cfg["lr"]
    return cfg["lr"] + (cfg["lr_final"] - cfg["lr"]) * (frac - 0.5) / 0.5


def train(path, games=200_000, *, seed=0, hidden=DEFAULTS["hidden"], lam=DEFAULTS["lam"],
          lr=DEFAULTS["lr"], lr_final=DEFAULTS["lr_final"], batch=DEFAULTS["batch"],
          rules=None, threads=None, checkpoint_every=5000, check_every=0, check_games=2000,
          progress=True, log=None):
    """Train a net by self-play and save it to ``path`` (checkpointed, resumable).

    Parameters
    ----------
    path : str or os.PathLike
        The net file.  A checkpoint of the same settings found there is resumed.
    games : int
        Self-play games in all.
    seed : int
        Root entropy of the dice and the initial weights.
    hidden, lam, lr, lr_final, batch :
        Net size and learning settings (``DEFAULTS``).
    rules : Rules, optional
        Move rules of the games (default classic); the net maximises the classic points
        (oin 1, mars 2) when it chooses moves.
    threads : int, optional
        Threads playing the games (default: every usable core).  Does not change the
        result.
    checkpoint_every : int
        Games between checkpoints (written atomically to ``path``).
    check_every, check_games : int
        Every ``check_every`` games (0: never), play ``check_games`` games of the net
        (0-ply) against ``greedy`` (shared dice, both orders) and log the score.
    progress : bool
        Show a tqdm bar with games per second.
    log : callable, optional
        ``log(dict)`` receives a line per checkpoint and strength check.

    Returns
    -------
    Evaluator
    """
    rules = as_rules(rules)
    entropy = root_entropy(seed)
    cfg = TrainConfig(games=int(games), seed=entropy, hidden=int(hidden), lam=float(lam),
                      lr=float(lr), lr_final=float(lr_final), batch=int(batch),
                      rules=rules.to_dict())
    if cfg["games"] < 1 or cfg["batch"] < 1:
        raise ValueError("games and batch must be >= 1")
    threads = default_workers() if threads is None else int(threads)
    if threads < 1:
        raise ValueError(f"threads={threads}: must be >= 1")
    net, done = _resume(path, cfg)
    start = np.asarray(Position.initial().boards)
    codes = rules_codes(rules)
    points = (1.0, 2.0, 2.0, 2.0)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=cfg["games"], initial=done, unit="game", desc="self-play")
    next_ckpt = done + checkpoint_every
    next_check = done + check_every if check_every else None
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        while done < cfg["games"]:
            n = min(cfg["batch"], cfg["games"] - done)
            bitgens = [block_bit_generator(entropy, done + i) for i in range(n)]
            parts = np.array_split(np.arange(n), min(threads, n))
            futures = [pool.submit(_selfplay.play_games, net, start, rules_c=codes,
                                   points=points, bitgens=[bitgens[i] for i in part])
                       for part in parts if len(part)]
            results = [f.result() for f in futures]
            pos = np.concatenate([r[0] for r in results])
            nxt = np.concatenate([r[1] for r in results])
            lengths = np.concatenate([r[2] for r in results])
            ends = np.concatenate([r[3] for r in results])
            races = np.concatenate([r[4] for r in results])
            z = _race_terminals(races, ends, nxt, lengths, rules)
            targets = _selfplay.lambda_targets(nxt, lengths, z, cfg["lam"])
            net.sgd(pos, targets, _lr(cfg, done))
            done += n
            if bar is not None:
                bar.update(n)
            if done >= next_ckpt or done == cfg["games"]:
                _save(path, net, cfg, done, time.perf_counter() - t0)
                next_ckpt = done + checkpoint_every
                if log:
                    log({"games": done, "seconds": time.perf_counter() - t0})
            if next_check is not None and done >= next_check:
                from nardy_fast.match import play_match
                m = play_match(Evaluator(net, rules=rules), "greedy", check_games,
                               seed=entropy + 1, rules=rules, progress=False)
                if log:
                    log({"games": done, "vs_greedy_win_rate": m["win_rate"],
                         "vs_greedy_points_share": m["points_share"]})
                next_check = done + check_every
    if bar is not None:
        bar.close()
    return Evaluator(net, rules=rules, meta={"training": dict(cfg, games_done=done)})


def _resume(path, cfg):
    """The checkpointed net and games done at ``path`` when its settings equal ``cfg``;
    else a fresh net."""
    if os.path.exists(path):
        ev = Evaluator.load(path)
        old = ev.meta.get("training", {})
        if {k: old.get(k) for k in cfg} == dict(cfg) and old.get("games_done", 0) > 0:
            return ev.net.copy(), int(old["games_done"])
        if {k: old.get(k) for k in cfg if k != "games"} == {k: v for k, v in cfg.items()
                                                            if k != "games"}:
            return ev.net.copy(), int(old.get("games_done", 0))
    return Net.random(cfg["hidden"], cfg["seed"]), 0


def _save(path, net, cfg, done, seconds):
    Evaluator(net, rules=as_rules(cfg["rules"]),
              meta={"training": dict(cfg, games_done=done, seconds=round(seconds, 1))}
              ).save(path)
