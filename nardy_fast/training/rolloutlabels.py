"""Rollout labels: a net fine-tuned on rollouts of the positions users reach
(``train_on_rollouts``, ``nardy-fast train-rollouts``).

Look-ahead targets (``supervised.train_supervised``) bootstrap on the net: where the net
is wrong, its look-ahead is wrong the same way, so its largest errors (lopsided primes,
heavy heads) stay.  Rollout labels carry the game's end instead.  Three steps:

1. ``label_positions``: contact positions, of two kinds:

   - every ``every``-th position before a move of ``selfplay_games`` 0-ply self-play
     games of the net (``labels.selfplay_positions``, seed ``seed``);
   - every ``every_reached``-th position of ``source_games`` games of the net against
     each of ``reached.SOURCES`` (greedy play, a noisy net, the net at 1-ply;
     ``reached.reached_positions``, seeds ``seed + 100 (k + 1)``),

   each position once (its first visit), none of ``exclude`` (the benchmarks' files).
2. ``rollout_labels``: each position valued by a 0-ply rollout of the shipped rollout
   player (``rollout``'s default policy, variance reduction and truncation at the
   bear-off), ``games`` games, position ``k``'s seed ``seed * 1_000_003 + k``: the labels
   do not depend on the number of workers, the chunks or the resumes.
3. ``fit_rollout_labels``: the net trained on the labels' seven probabilities
   (``supervised.fit``: Adam on the cross-entropy, ``epochs`` passes in an order drawn
   from ``numpy.random.default_rng(seed)``, batches of ``batch``).  The labels are not
   clipped: a variance-reduced rollout's estimate may leave ``[0, 1]`` by its noise, and
   the cross-entropy's gradient is linear in the target, so the noise averages out.

Checkpoints (``checkpoint=FOLDER``; ``nardy-fast train-rollouts`` keeps ``OUT.partial``
beside its output): the settings, the positions and the labels in files of ``CHUNK``
positions, each written atomically as it is made.  A run with the same settings
continues from the saved files and ends with the same net as an uninterrupted one; a
folder of other settings is refused by name.
"""
from __future__ import annotations

import hashlib
import os

import numpy as np

from nardy_fast._utils._io import atomic_write
from nardy_fast.core._checks import check_count, check_step
from nardy_fast.core.position import Position, contact_mask
from nardy_fast.core.rng import DICE_SCHEME, EARLIER_DICE_SCHEME
from nardy_fast.core.rules import CLASSIC
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.play.parallel import run_chunks
from nardy_fast.engine.play.rollout import rollout, stop_if_interrupted
from nardy_fast.training.labels import board_keys, selfplay_positions
from nardy_fast.training.lucknet import _chunk_path, _save_array, _same_settings
from nardy_fast.training.reached import SOURCES, reached_positions
from nardy_fast.training.supervised import fit

__all__ = ["ROLLOUT_DEFAULTS", "LABELS", "label_positions", "rollout_labels",
           "fit_rollout_labels", "train_on_rollouts"]

# train_on_rollouts' and nardy-fast train-rollouts' defaults: the shipped judge's settings
ROLLOUT_DEFAULTS = {"selfplay_games": 1300, "source_games": 180, "every": 4,
                    "every_reached": 2, "games": 72, "seed": 4600, "epochs": 1,
                    "lr": 5e-5, "batch": 128}
# the columns of a label: the rollout's seven probabilities, its equity and the SE
LABELS = ("p_win", "p_mars_win", "p_koks_win", "p_home_mars_win", "p_mars_loss",
          "p_koks_loss", "p_home_mars_loss", "equity", "se_equity")
CHUNK = 500                  # positions per labelling task and per checkpoint file
SEED_STRIDE = 1_000_003      # position k's rollout seed: seed * SEED_STRIDE + k


def label_positions(evaluator=None, *, selfplay_games=ROLLOUT_DEFAULTS["selfplay_games"],
                    source_games=ROLLOUT_DEFAULTS["source_games"],
                    every=ROLLOUT_DEFAULTS["every"],
                    every_reached=ROLLOUT_DEFAULTS["every_reached"],
                    seed=ROLLOUT_DEFAULTS["seed"], exclude=None):
    """The positions to label (step 1 of the module docstring).

    Parameters
    ----------
    evaluator : Evaluator or None
        Whose judging net plays the games (None: the shipped one).
    selfplay_games, source_games : int
        Self-play games; games against each of ``reached.SOURCES`` (>= 0 each, not both 0).
    every, every_reached : int
        Keep every ``every``-th self-play position and every ``every_reached``-th
        position of the other games (>= 1).
    seed : int
        Root entropy of the games.
    exclude : ndarray of uint8, shape (m, 2, 24), optional
        Positions (side on roll first) never to label, e.g. a benchmark's.

    Returns
    -------
    boards : ndarray of uint8, shape (n, 2, 24)
        Side on roll first: the self-play positions, then the others, in game order.
    kind : ndarray of str, shape (n,)
        ``"self-play"`` or the source of the position's game.
    """
    ev = Evaluator.default() if evaluator is None else evaluator
    selfplay_games, source_games, every, every_reached = _position_settings(
        selfplay_games, source_games, every, every_reached)
    parts, kinds = [], []
    if selfplay_games:
        sp = selfplay_positions(ev.net, selfplay_games, seed)[::every]
        parts.append(sp)
        kinds.append(np.full(len(sp), "self-play"))
    if source_games:
        rb, src = reached_positions(ev, source_games, seed)
        parts.append(rb[::every_reached])
        kinds.append(src[::every_reached])
    boards = np.concatenate(parts).astype(np.uint8)
    kind = np.concatenate(kinds)
    held = set() if exclude is None else set(board_keys(np.asarray(exclude, np.uint8)))
    keys = board_keys(boards)
    keep = contact_mask(boards) & np.array([k not in held for k in keys], dtype=bool)
    # each position once: its first visit
    _, first = np.unique(np.array(keys, dtype=object)[keep], return_index=True)
    idx = np.flatnonzero(keep)[np.sort(first)]
    return boards[idx], kind[idx]


def _position_settings(selfplay_games, source_games, every, every_reached):
    """``label_positions``' counts, checked (``ValueError`` naming the one at fault)."""
    selfplay_games = check_count(selfplay_games, "selfplay_games", 0)
    source_games = check_count(source_games, "source_games", 0)
    if selfplay_games == 0 and source_games == 0:
        raise ValueError("selfplay_games and source_games are both 0: no positions")
    return (selfplay_games, source_games, check_count(every, "every", 1),
            check_count(every_reached, "every_reached", 1))


def _label_chunk(spec):
    """Labels of one chunk ``(boards, games, seed0)``: rows of ``LABELS``."""
    boards, games, seed0 = spec
    out = np.empty((len(boards), len(LABELS)), dtype=np.float64)
    for k, b in enumerate(boards):
        o = rollout(Position.from_boards(b[0], b[1]), games, seed=seed0 + k, workers=1,
                    progress=False)
        stop_if_interrupted([o], "rollout_labels")    # Ctrl-C here: the chunk is not done
        out[k] = [getattr(o, q) for q in LABELS]
    return out


def rollout_labels(boards, *, games=ROLLOUT_DEFAULTS["games"], seed=ROLLOUT_DEFAULTS["seed"],
                   workers=None, client=None, checkpoint=None, chunk=CHUNK, progress=None):
    """Each position's 0-ply rollout by the shipped rollout player (step 2).

    Parameters
    ----------
    boards : ndarray of uint8, shape (n, 2, 24)
        Positions, side on roll first, both sides' checkers on the board.
    games : int
        Games per rollout.
    seed : int
        Position ``k``'s rollout seed is ``seed * 1_000_003 + k``.
    workers, client
        Local processes (None: all cores) or a Dask client (``engine.play.parallel``).
    checkpoint : str or None
        A folder where each chunk's labels are saved and found again by a call with the
        same positions and settings (others are refused by name; module docstring).
    chunk : int
        Positions per task and per checkpoint file.
    progress : bool or None
        A bar counting positions.

    Returns
    -------
    labels : ndarray of float64, shape (n, 9)
        Columns ``LABELS``: probabilities and equity from the side on roll's view (points
        per game, cubeless), and the equity's SE.
    interrupted : bool
        True when Ctrl-C stopped it: the rows not labelled are NaN (and the chunks done
        are saved).
    """
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    games = check_count(games, "games", 1)
    chunk = check_count(chunk, "chunk", 1)
    labels = np.full((len(boards), len(LABELS)), np.nan)
    if checkpoint is not None:
        _same_settings(checkpoint, "labels.json",
                       {"games": games, "seed": int(seed), "dice": DICE_SCHEME,
                        "chunk": chunk, "positions": len(boards),
                        "boards": hashlib.sha256(boards.tobytes()).hexdigest()[:16]},
                       unrecorded={"dice": EARLIER_DICE_SCHEME})
    # the chunks saved before (in any order: workers finish out of order) are read once
    starts = [i for i in range(0, len(boards), chunk)
              if not (checkpoint is not None and _read_chunk(checkpoint, i // chunk,
                                                             labels[i:i + chunk]))]
    specs = [(boards[i:i + chunk], games, seed * SEED_STRIDE + i) for i in starts]

    def on_result(j, rows):
        i = starts[j]
        labels[i:i + len(rows)] = rows
        if checkpoint is not None:
            atomic_write(_chunk_path(checkpoint, i // chunk),
                         lambda tmp: _save_array(tmp, rows))
    interrupted = run_chunks(_label_chunk, specs, on_result,
                             sizes=[len(s[0]) for s in specs], workers=workers,
                             client=client, progress=progress, desc="rollout labels")
    return labels, bool(interrupted)


def _read_chunk(folder, k, out):
    """Fill ``out`` from chunk ``k``'s file in ``folder``; False when there is no such
    file or it has another shape (the chunk is then labelled again)."""
    path = _chunk_path(folder, k)
    if not os.path.exists(path):
        return False
    part = np.load(path)
    if part.shape != out.shape or part.dtype != out.dtype:
        return False
    out[:] = part
    return True


def _save_positions(path, boards, kind):
    with open(path, "wb") as f:
        np.savez(f, boards=boards, kind=kind)


def fit_rollout_labels(evaluator, boards, labels, *, epochs=ROLLOUT_DEFAULTS["epochs"],
                       lr=ROLLOUT_DEFAULTS["lr"], batch=ROLLOUT_DEFAULTS["batch"],
                       seed=ROLLOUT_DEFAULTS["seed"]):
    """``evaluator``'s judging net trained on rollout labels (step 3).

    Parameters
    ----------
    evaluator : Evaluator
        The start (not changed).
    boards : ndarray of uint8, shape (n, 2, 24)
    labels : ndarray, shape (n, 9) or (n, 7)
        ``rollout_labels``' rows (the first seven columns are learnt).
    epochs, lr, batch, seed
        Passes, Adam step, positions per step, the order's seed.

    Returns
    -------
    net : Net
        The trained net.
    loss : float
        The last epoch's mean cross-entropy.
    """
    labels = np.asarray(labels)
    if labels.ndim != 2 or labels.shape[1] < 7 or len(labels) != len(boards):
        raise ValueError(f"labels: expected shape ({len(boards)}, 9), got {labels.shape}")
    if not np.isfinite(labels[:, :7]).all():
        raise ValueError("labels: some rows are not labelled (NaN); finish the labelling")
    net = evaluator.net
    return fit(net, net.encode(np.asarray(boards, np.uint8)),
               labels[:, :7].astype(np.float32), check_count(epochs, "epochs", 1),
               check_count(batch, "batch", 1), float(lr), np.random.default_rng(seed))


def _checked(s):
    """``s`` (``ROLLOUT_DEFAULTS``' keys) with each value checked (``ValueError`` naming
    it), before any work or file."""
    (s["selfplay_games"], s["source_games"], s["every"],
     s["every_reached"]) = _position_settings(s["selfplay_games"], s["source_games"],
                                              s["every"], s["every_reached"])
    for key in ("games", "epochs", "batch"):
        s[key] = check_count(s[key], key, 1)
    s["lr"] = check_step(s["lr"])
    s["seed"] = check_count(s["seed"], "seed", 0)
    return s


def train_on_rollouts(out, *, init=None, checkpoint=None, exclude=None, workers=None,
                      client=None, progress=None, **settings):
    """Steps 1-3: ``init`` (an Evaluator or a net file; None: the shipped judge)
    fine-tuned on rollout labels, written to ``out``.

    ``settings``: any of ``ROLLOUT_DEFAULTS``' keys.  ``checkpoint``: the folder of the
    run's progress (module docstring).  Returns the Evaluator written, or None when
    Ctrl-C stopped the labelling (its progress is in ``checkpoint``).  Its
    ``meta["training"]`` is ``{"method": "rollout labels", ...settings, "positions",
    "init": the start's training record, "init_digest"}``.
    """
    unknown = set(settings) - set(ROLLOUT_DEFAULTS)
    if unknown:
        raise TypeError(f"train_on_rollouts: unknown settings {sorted(unknown)}; "
                        f"expected some of {sorted(ROLLOUT_DEFAULTS)}")
    s = _checked({**ROLLOUT_DEFAULTS, **settings})
    start = (Evaluator.default() if init is None else
             init if isinstance(init, Evaluator) else Evaluator.load(init))
    if start.rules != CLASSIC:
        # the positions are of classic games and the labels classic rollouts of the
        # shipped player: the net written would carry rules it never saw
        raise ValueError(f"init: a net of the rules {start.rules.to_text()!r}; rollout "
                         "labels are made under the classic rules only")
    if checkpoint is not None:
        _same_settings(checkpoint, "settings.json",
                       {**{k: s[k] for k in ("selfplay_games", "source_games", "every",
                                             "every_reached", "games", "seed")},
                        "judge": start.net.digest(),
                        # the labels' player: the shipped one, whatever the start
                        "rollout_player": Evaluator.default().rollout_net.digest(),
                        "exclude": None if exclude is None else len(exclude)})
    path = None if checkpoint is None else os.path.join(checkpoint, "positions.npz")
    if path is not None and os.path.exists(path):
        with np.load(path) as z:
            boards, kind = z["boards"], z["kind"]
    else:
        boards, kind = label_positions(start, exclude=exclude, **{
            k: s[k] for k in ("selfplay_games", "source_games", "every", "every_reached",
                              "seed")})
        if path is not None:
            atomic_write(path, lambda tmp: _save_positions(tmp, boards, kind))
    labels, interrupted = rollout_labels(boards, games=s["games"], seed=s["seed"],
                                         workers=workers, client=client,
                                         checkpoint=checkpoint, progress=progress)
    if interrupted:
        return None
    net, loss = fit_rollout_labels(start, boards, labels, epochs=s["epochs"], lr=s["lr"],
                                   batch=s["batch"], seed=s["seed"])
    counts = {str(k): int((kind == k).sum()) for k in ("self-play",) + SOURCES}
    ev = Evaluator(net, rules=start.rules, meta={"training": {
        "method": "rollout labels", **s, "positions": counts, "loss": float(loss),
        "init": dict(start.meta.get("training", {})), "init_digest": start.net.digest()}})
    ev.save(out)
    return ev
