"""Accuracy of an evaluation net against long rollouts, on a fixed set of contact positions.

The yardstick of the net (issue 25).  Three steps, each a command:

``--build``: the position set.  Seeded self-play games of the shipped net at 0-ply
(``_selfplay.play_games``, game ``g`` from ``rng.block_bit_generator(seed, g)``) give a
pool of contact positions (a checker of either side still on its first 12 points); each
pooled position gets a phase (``opening``: plies 0-14 of its game; ``late``: the last 12
plies before its game's contact ended; ``middle``: the rest) and a kind
(``nardy_fast.engine.evaluation.kinds``: ``heavy_head``, ``prime``, ``trapped``, ``behind`` or
``plain``, the kinds that training may weigh up with ``train-net --balance``).

``--per-stratum`` positions (default 50) are drawn (seeded) from each of the strata
``opening``, ``middle``, ``late`` (kind ``plain``) and ``heavy_head``, ``prime``,
``trapped``, ``behind`` (any phase): 350 positions, at most one per game and stratum.
A position's part (``split``) is ``heldout`` when its game number is even, else ``dev``:
training must never see the held-out part (``nardy-fast train-net --exclude FILE``
drops every position of the file); ``dev`` may be used to choose settings.

``--label``: each position rolled out (``nf.rollout``, ``--games`` games, policy
``"net"``: the shipped net at 0-ply, the default variance reduction for it: the luck
net; truncated at the bear-off with exact race values; seed ``--seed + 1000 + k`` for
position ``k``).  Resumable: the labelled rows are written every ``--batch`` positions to
the Parquet file (a temporary name, then renamed) and a rerun labels only what is
missing.  Progress and CPU-seconds are printed (``cpu_seconds`` of a position is
recorded with ``--workers 1`` only: the pool's CPU time is not this process's).

``--relabel FILE``: the positions of ``FILE`` without their labels, into a new
``--data`` file, then ``--label`` (policy: ``--net``'s net, default the shipped one).  A
new shipped net is judged against its own rollouts on the same positions.

``--report``: mean and rms absolute error, per phase and per kind, of a net (``--net``,
default the shipped one) at ``--plies`` (default 0,1,2) for the equity, P(win), P(mars
won) and P(mars lost), all from the side on roll's view, against the rollouts; on the
held-out part (``--part heldout``, the default), ``dev`` or ``all``.

``--own``: the quick footing of a training step: the ``--part`` positions rolled out by
``--net``'s own net (``--games`` games, seed ``--seed + k`` for the part's k-th position),
its errors at ``--plies`` against those rollouts; nothing is written (a net in training
is judged against its own play without relabelling the file).

``--versus NET``: the strength gate: NET at 0-ply against the shipped rollout player
(``policy="net"``: v7, the judge up to the wider net) at 0-ply,
``--match-games`` shared-dice games (``engine.strength.play_match``, seed ``--seed``),
points per game of NET with its SE (``--against OTHER``: against that net file instead).

``--reached``: the positions users' games reach (issue 45), a second data file
``benchmarks/data/accuracy_reached.parquet`` (its own file: the self-play set, its labels
and its figures stay as they are, and each file can be relabelled alone).  Seeded games
(``reached_game``) of the shipped judging net at 0-ply against each of ``--sources``:
``greedy`` (the package's greedy policy), ``noisy`` (the net at 0-ply with a Gaussian
error of ``--sigma``, default 0.1 points, added to each candidate's equity: errors like a
human's, frequent between close moves and rare for bad ones; ``net_move``) and ``net1``
(the net at 1-ply).  Each source's ``--pool-games`` games (default 400) are pooled and
drawn from as the self-play set's, ``--per-stratum`` (default 40) per stratum and
source, no position twice; columns as the self-play set's plus ``source`` and
``on_roll`` (the net or the source's player).  Even game numbers are held out, as there:
``train-net --exclude`` takes this file too (``--exclude`` repeated for both).
``--label`` labels the held-out part first (both files).  ``--report --reached``: the
self-play set's figures and the reached set's, per source, in one run and one table,
then the positions whose equity error exceeds 0.15 at each ply.

    python benchmarks/bench_accuracy.py --build --label      # writes the data file
    python benchmarks/bench_accuracy.py --report [--net FILE] [--plies 0,1,2] [--part all]
    python benchmarks/bench_accuracy.py --reached --build --label --report

The data file is ``benchmarks/data/accuracy.parquet`` (``--data``).
"""
import argparse
import math
import os
import time

import numpy as np
import pandas as pd

import nardy_fast as nf
from nardy_fast.engine.evaluation import kinds
from nardy_fast.core.position import contact_mask
from nardy_fast.engine.evaluation.kinds import position_kind
from nardy_fast.core.rng import block_bit_generator
from nardy_fast.core.rules import CLASSIC
from nardy_fast.training import _selfplay
from nardy_fast.engine.evaluation.evaluator import Evaluator
from nardy_fast.engine.evaluation.nets import DEFAULT_NET, rollout_file
from nardy_fast.training.reached import NOISE_SIGMA, SOURCES, net_move, reached_game  # noqa: F401
from nardy_fast.training.train import training_tables

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "accuracy.parquet")
PHASES = ("opening", "middle", "late")
KINDS = tuple(k for k in kinds.KINDS if k != "plain")     # the strata of kinds
STRATA = PHASES + KINDS
QUANTITIES = ("equity", "p_win", "p_mars_win", "p_mars_loss")
WORST = 0.15          # the bound on a single position's equity error (--report)
MAX_PLIES = 3         # the deepest search of Evaluator.probabilities (--plies)


def _pool_rows(game, boards, **extra):
    """The contact positions of one game (``boards``: its positions in order, (T, 2, 24),
    side on roll first) as pool rows: game, ply, phase, kind, position (and ``extra``)."""
    rows = []
    contact = np.flatnonzero(contact_mask(boards))
    if not len(contact):
        return rows
    end = contact[-1]
    for t in contact:
        b = boards[t]
        phase = "opening" if t <= 14 else "late" if t > end - 12 else "middle"
        rows.append(dict(game=game, ply=int(t), phase=phase, kind=position_kind(b, t),
                         position=nf.Position.from_boards(b[0], b[1]).id, **extra))
    return rows


def _stratified(pool, per_stratum, rng, n_games, taken=()):
    """``per_stratum`` positions of each of ``STRATA`` drawn (seeded by ``rng``) from
    ``pool``, at most one per game and stratum, none of ``taken`` nor twice."""
    chosen = []
    taken = set(taken)
    for stratum in STRATA:
        if stratum in PHASES:
            cand = pool[(pool.phase == stratum) & (pool.kind == "plain")]
        else:
            cand = pool[pool.kind == stratum]
        cand = cand[~cand.position.isin(taken | {p for c in chosen for p in c.position})]
        # one per game: a seeded pick of each game's candidates, then a seeded sample
        cand = cand.sample(frac=1.0, random_state=rng.integers(2**31)).drop_duplicates("game")
        if len(cand) < per_stratum:
            raise RuntimeError(f"stratum {stratum}: only {len(cand)} positions in "
                               f"{n_games} games; raise --pool-games")
        chosen.append(cand.sort_values(["game", "ply"]).head(per_stratum)
                      .assign(stratum=stratum))
    out = pd.concat(chosen, ignore_index=True)
    out["split"] = np.where(out.game % 2 == 0, "heldout", "dev")
    return out


def build(n_games, per_stratum, seed):
    """The position set: a DataFrame with one row per position (no labels yet)."""
    ev = Evaluator.default()
    start = np.asarray(nf.Position.initial().boards)
    pos, _, lengths, _ = _selfplay.play_games(
        ev.rollout_net, start, rules=CLASSIC, tables=training_tables(),
        bitgens=[block_bit_generator(seed, g) for g in range(n_games)])
    rows, base = [], 0
    for g, T in enumerate(lengths):
        rows += _pool_rows(g, pos[base: base + T])
        base += T
    return _stratified(pd.DataFrame(rows), per_stratum, np.random.default_rng(seed), n_games)


# --- positions reached against other players (issue 45) --------------------------------

REACHED = os.path.join(os.path.dirname(DATA), "accuracy_reached.parquet")
REACHED_PER_STRATUM = 40                     # per source and stratum (--per-stratum)


def build_reached(n_games, per_stratum, seed, sources=SOURCES, sigma=NOISE_SIGMA):
    """The reached set: for each of ``sources``, ``n_games`` games ``reached_game(source,
    g, seed + 100 * (k + 1))`` (``k``: the source's index in ``SOURCES``) pooled as the
    self-play set's games are and ``per_stratum`` positions drawn from each stratum
    (``_stratified``, seeded by ``seed + 100 * (k + 1)``), no position twice in the file.
    Columns: the self-play set's, and ``source`` and ``on_roll`` (``"net"`` or the
    source's player: who is to move)."""
    from nardy_fast.core.position import WHITE
    ev = Evaluator.default()
    parts = []
    for source in sources:
        if source not in SOURCES:
            raise ValueError(f"source={source!r}: expected one of {', '.join(SOURCES)}")
        s = seed + 100 * (SOURCES.index(source) + 1)
        rows = []
        for g in range(n_games):
            net_white = (g // 2) % 2 == 0
            # the positions before each turn with both sides' checkers on the board (not
            # the end, nor a last turn of the draw rule)
            positions = [p for p in reached_game(source, g, s, ev, sigma).positions()
                         if p.mover.any() and p.opponent.any()]
            boards = np.stack([np.asarray(p.boards) for p in positions])
            for r in _pool_rows(g, boards):
                p = positions[r["ply"]]
                r["on_roll"] = "net" if (p.side == WHITE) == net_white else source
                rows.append(r)
        taken = [p for f in parts for p in f.position]
        parts.append(_stratified(pd.DataFrame(rows), per_stratum, np.random.default_rng(s),
                                 n_games, taken).assign(source=source))
    return pd.concat(parts, ignore_index=True)


def write_atomic(frame, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


LABELS = ("equity", "se_equity", "p_win", "se_p_win", "p_mars_win", "se_p_mars_win",
          "p_mars_loss", "se_p_mars_loss", "p_koks_win", "p_koks_loss", "p_home_mars_win",
          "p_home_mars_loss", "mean_length", "cpu_seconds", "games", "rollout_seed", "policy",
          "estimator")


def relabel_copy(source, path):
    """The positions of ``source`` without their labels, written to ``path`` (new)."""
    if os.path.exists(path):
        raise SystemExit(f"{path} exists: remove it to relabel into it")
    frame = pd.read_parquet(source)
    write_atomic(frame.drop(columns=[c for c in LABELS if c in frame]), path)
    print(f"{len(frame)} positions of {source} -> {path}, labels dropped", flush=True)


def label(path, games, seed, batch, workers, net_path=None):
    """Roll out every position of ``path`` not labelled yet, saving every ``batch``; the
    policy is ``net_path``'s net at 0-ply (default: the shipped evaluator's rollout net,
    ``Evaluator.rollout_net``), recorded with the first 16 hex digits of its digest."""
    ev = Evaluator.default() if net_path is None else Evaluator.load(net_path)
    shipped = os.path.basename(DEFAULT_NET)
    name = (os.path.basename(net_path) if net_path else
            f"shipped {rollout_file(shipped) or shipped}")
    policy_text = f"net 0-ply ({name}, sha256 {ev.rollout_net.digest()[:16]})"
    policy = "net" if net_path is None else ev
    frame = pd.read_parquet(path)
    if "games" not in frame:
        for c in ("equity", "se_equity", "p_win", "se_p_win", "p_mars_win", "se_p_mars_win",
                  "p_mars_loss", "se_p_mars_loss", "p_koks_win", "p_koks_loss",
                  "p_home_mars_win", "p_home_mars_loss", "mean_length", "cpu_seconds"):
            frame[c] = np.nan
        frame["games"] = 0
        frame["rollout_seed"] = -1
        frame["policy"] = ""
        frame["estimator"] = ""
    # the held-out part first, and in it strata (and sources) interleaved (the first of
    # each, then the second, ...), so that a partly labelled set covers every stratum of
    # the part that is reported
    groups = ["source", "stratum"] if "source" in frame else ["stratum"]
    rank = frame.groupby(groups + ["split"]).cumcount().to_numpy()
    later = (frame["split"] != "heldout").to_numpy()
    todo = [k for k in np.lexsort((np.arange(len(frame)), rank, later))
            if frame.at[k, "games"] == 0]
    t_all = time.process_time()
    print(f"{len(todo)} of {len(frame)} positions to label, {games} games each", flush=True)
    for i in range(0, len(todo), batch):
        for k in todo[i: i + batch]:
            t = time.process_time()
            r = nf.rollout(frame.at[k, "position"], games, policy=policy, seed=seed + 1000 + k,
                           workers=workers, progress=False)
            for c in ("equity", "se_equity", "p_win", "se_p_win", "p_mars_win",
                      "se_p_mars_win", "p_mars_loss", "se_p_mars_loss", "p_koks_win",
                      "p_koks_loss", "p_home_mars_win", "p_home_mars_loss", "mean_length"):
                frame.at[k, c] = getattr(r, c)
            frame.at[k, "games"] = r.games
            frame.at[k, "rollout_seed"] = seed + 1000 + k
            frame.at[k, "policy"] = policy_text
            frame.at[k, "estimator"] = r.extra.get("estimator", "none")
            # CPU-seconds of this process: the rollout's own only with one worker
            frame.at[k, "cpu_seconds"] = time.process_time() - t if workers == 1 else np.nan
        write_atomic(frame, path)
        done = int((frame["games"] > 0).sum())
        print(f"  {done}/{len(frame)} labelled, {time.process_time() - t_all:.0f} CPU-s "
              f"this run", flush=True)
    return frame


def errors(frame, ev, plies):
    """Per-position absolute errors of ``ev`` at ``plies`` (columns ``QUANTITIES``)."""
    boards = np.stack([np.asarray(nf.Position.from_id(p).boards) for p in frame.position])
    vals, _ = ev.probabilities(boards, plies=plies)
    net = pd.DataFrame({"equity": ev.equities(vals), "p_win": vals[:, 0],
                        "p_mars_win": vals[:, 1], "p_mars_loss": vals[:, 4]},
                       index=frame.index)
    return (net - frame[list(QUANTITIES)]).abs()


def report(path, net_path, plies, part, beside=None, worst=WORST):
    """The errors of ``net_path``'s net (None: the shipped) at ``plies`` against the
    labels of ``path``'s ``part`` (``table``), per source when the file has one; with
    ``beside`` (a labelled file, the self-play set) its figures too, in the same run and
    table (source ``"selfplay"``).  Printed and returned."""
    ev = Evaluator.default() if net_path is None else Evaluator.load(net_path)
    frames = []
    for f in ([beside] if beside else []) + [path]:
        frame = pd.read_parquet(f)
        if (frame["games"] == 0).any():
            print(f"{f}: {(frame['games'] == 0).sum()} positions not labelled yet; the "
                  f"figures are of the labelled ones")
            frame = frame[frame["games"] > 0]
        if part != "all":
            frame = frame[frame.split == part]
        if "source" not in frame:
            frame = frame.assign(source="selfplay")
        print(f"{f}: {len(frame)} positions ({part}); rollouts: "
              f"{int(frame.games.min())}-{int(frame.games.max())} games "
              f"({', '.join(sorted(frame.policy.unique()))}), median SE of the "
              f"equity {frame.se_equity.median():.4f}, rms "
              f"{np.sqrt((frame.se_equity ** 2).mean()):.4f} (rms_true^2 ~ rms^2 - rms SE^2); "
              f"an exact net would show a mean absolute equity error of about "
              f"{math.sqrt(2 / math.pi) * frame.se_equity.mean():.4f} (the labels' own noise)")
        frames.append(frame)
    print(f"net: {net_path or 'shipped'}")
    frame = pd.concat(frames, ignore_index=True)
    return table(frame, ev, plies, worst=worst)


def table(frame, ev, plies, worst=None):
    """Mean and rms absolute errors of ``ev`` against ``frame``'s labels at each of
    ``plies``, for all positions, per phase and per kind (per ``source`` first when the
    frame has that column), and the standard error of the mean equity error over the
    positions (``se_mae_equity``): printed and returned.  ``worst``: also list the positions
    whose equity error exceeds it, at each ply."""
    rows, bad = [], []
    sources = list(dict.fromkeys(frame["source"])) if "source" in frame else [None]
    for p in plies:
        t = time.process_time()
        err = errors(frame, ev, p)
        secs = time.process_time() - t
        for source in sources:
            mine = frame.index if source is None else frame.index[frame["source"] == source]
            for group, col in (("all", None), ("phase", "phase"), ("kind", "stratum")):
                keys = [("all", mine)] if col is None else [
                    (v, mine[frame.loc[mine, col] == v]) for v in
                    (PHASES if col == "phase" else KINDS)]
                for v, idx in keys:
                    e = err.loc[idx]
                    row = dict(plies=p, group=v, n=len(e))
                    if source is not None:
                        row = dict(source=source, **row)
                    for q in QUANTITIES:
                        row[f"mae_{q}"] = e[q].mean() if len(e) else np.nan
                        if q == "equity":          # the mean's SE over the positions
                            row["se_mae_equity"] = (e[q].std(ddof=1) / math.sqrt(len(e))
                                                    if len(e) > 1 else np.nan)
                        row[f"rms_{q}"] = math.sqrt((e[q] ** 2).mean()) if len(e) else np.nan
                    rows.append(row)
        if worst is not None:
            over = err.index[err["equity"] > worst]
            for k in over:
                bad.append(dict(plies=p, source=frame.at[k, "source"] if "source" in frame
                                else "", stratum=frame.at[k, "stratum"],
                                phase=frame.at[k, "phase"], position=frame.at[k, "position"],
                                rollout=frame.at[k, "equity"], se=frame.at[k, "se_equity"],
                                error=err.at[k, "equity"]))
        print(f"  {p}-ply: {secs:.1f} CPU-s for {len(frame)} positions", flush=True)
    out = pd.DataFrame(rows)
    with pd.option_context("display.width", 250, "display.max_columns", 24,
                           "display.max_rows", 1000, "display.float_format", "{:.4f}".format):
        print(out.to_string(index=False))
        if worst is not None:
            print(f"positions with |equity error| > {worst}: {len(bad)}")
            if bad:
                print(pd.DataFrame(bad).sort_values(["plies", "error"], ascending=[True, False])
                      .to_string(index=False))
    return out


def versus(net_path, n_games, seed, workers, against=None):
    from nardy_fast.engine.play.strength import play_match
    t = time.perf_counter()
    other = "net" if against is None else Evaluator.load(against)
    m = play_match(Evaluator.load(net_path), other, n_games, seed=seed, workers=workers,
                   progress=False)
    print(f"{net_path} 0-ply vs {against or 'the shipped rollout player'} 0-ply: "
          f"{m['games']} games, "
          f"won {m['win_rate']:.4f} "
          f"(SE {m['se_win_rate']:.4f}), {m['ppg']:+.4f} points per game (SE "
          f"{m['se_ppg']:.4f}), share of points {m['points_share']:.4f}; "
          f"{time.perf_counter() - t:.0f} s wall")
    return m


def own(path, net_path, games, seed, part, plies, out=None):
    """The quick footing of a training step: ``--part``'s positions rolled out by
    ``net_path``'s own net at 0-ply (``games`` games, seed ``seed + k`` for the part's
    k-th position, default variance reduction), then its errors at ``plies`` against
    those rollouts (``table``, the positions off by more than ``WORST`` listed).  Nothing
    is written unless ``out`` names a new Parquet file: the positions with these
    rollouts' values beside the file's own labels (``label_*``)."""
    ev = Evaluator.default() if net_path is None else Evaluator.load(net_path)
    policy = "net" if net_path is None else ev
    frame = pd.read_parquet(path)
    if part != "all":
        frame = frame[frame.split == part]
    frame = frame.reset_index(drop=True)
    if out is not None and os.path.exists(out):
        raise SystemExit(f"{out} exists: remove it or name another --own-out file")
    for c in QUANTITIES + ("se_equity",):
        if c in frame:
            frame[f"label_{c}"] = frame[c]
    frame = frame.drop(columns=[c for c in frame if c.startswith(("p_koks", "p_home", "se_p_"))
                                or c in ("mean_length", "cpu_seconds")])
    frame["policy"] = f"net 0-ply ({net_path or 'shipped'}), own"
    t = time.process_time()
    for k in range(len(frame)):
        r = nf.rollout(frame.at[k, "position"], games, policy=policy, seed=seed + k,
                       workers=1, progress=False)
        for c in QUANTITIES:
            frame.at[k, c] = getattr(r, c)
        frame.at[k, "se_equity"] = r.se_equity
        frame.at[k, "games"] = r.games
        frame.at[k, "rollout_seed"] = seed + k
    print(f"net: {net_path or 'shipped'}; {len(frame)} positions ({part}) rolled out by it, "
          f"{games} games each, {time.process_time() - t:.0f} CPU-s; median SE of the "
          f"equity {frame.se_equity.median():.4f}")
    if out is not None:
        write_atomic(frame, out)
        print(f"-> {out}")
    return table(frame, ev, plies, worst=WORST)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=None,
                    help="the data file (default: the self-play set's, with --reached the "
                         "reached set's)")
    ap.add_argument("--build", action="store_true", help="make the position set")
    ap.add_argument("--label", action="store_true", help="roll out what is not labelled")
    ap.add_argument("--relabel", default=None, metavar="FILE",
                    help="copy FILE's positions without labels to --data (new), then "
                         "label them (with --net's net: default the shipped)")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--own", action="store_true",
                    help="roll --part's positions out by --net's own net (--games games, "
                         "seeds --seed + k) and report its errors against them, writing "
                         "nothing: the quick footing of a training step")
    ap.add_argument("--own-out", default=None, metavar="FILE",
                    help="with --own: write the positions and their rollouts by the net "
                         "to this new Parquet file (the file's labels kept as label_*)")
    ap.add_argument("--reached", action="store_true",
                    help="the reached set (games of the net against --sources): --data "
                         "defaults to its file, --build makes it, --report shows the "
                         "self-play set's figures beside it")
    ap.add_argument("--sources", default=",".join(SOURCES),
                    help=f"the reached set's opponents (default {','.join(SOURCES)})")
    ap.add_argument("--sigma", type=float, default=NOISE_SIGMA,
                    help=f"the noisy net's error size (default {NOISE_SIGMA})")
    ap.add_argument("--pool-games", type=int, default=None,
                    help="games per pool (default 800; the reached set: 400 per source)")
    ap.add_argument("--per-stratum", type=int, default=None,
                    help="positions per stratum (default 50; the reached set: "
                         f"{REACHED_PER_STRATUM} per source)")
    ap.add_argument("--games", type=int, default=2592)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--net", default=None, help="an .nfdb net file (default: the shipped)")
    ap.add_argument("--plies", default="0,1,2")
    ap.add_argument("--part", default="heldout", choices=("heldout", "dev", "all"))
    ap.add_argument("--versus", default=None, metavar="NET",
                    help="play NET against the shipped rollout player, both at 0-ply")
    ap.add_argument("--against", default=None, metavar="NET",
                    help="--versus plays against this net file instead of the shipped one")
    ap.add_argument("--match-games", type=int, default=20000)
    args = ap.parse_args()
    for name, least in (("games", 1), ("seed", 0), ("batch", 1), ("workers", 1),
                        ("match_games", 4), ("pool_games", 1), ("per_stratum", 1)):
        if getattr(args, name) is not None and getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected >= {least}"
                     + (" (two pairs: the SE is the spread between pairs)"
                        if name == "match_games" else ""))
    if not 0 <= args.sigma < float("inf"):
        ap.error(f"--sigma {args.sigma}: expected a finite number >= 0")
    try:
        plies = [int(p) for p in args.plies.split(",")]
    except ValueError:
        plies = []
    if not plies or not all(0 <= p <= MAX_PLIES for p in plies):
        ap.error(f"--plies {args.plies}: expected plies 0..{MAX_PLIES}, comma-separated")
    if not (args.build or args.label or args.relabel or args.report or args.own
            or args.versus):
        ap.error("nothing to do: give --build, --label, --relabel, --report, --own or "
                 "--versus")
    if args.data is None:
        args.data = REACHED if args.reached else DATA
    if args.build:
        if os.path.exists(args.data):
            raise SystemExit(f"{args.data} exists: remove it to build the set again")
        t = time.process_time()
        if args.reached:
            frame = build_reached(args.pool_games or 400,
                                  args.per_stratum or REACHED_PER_STRATUM, args.seed,
                                  tuple(args.sources.split(",")), args.sigma)
        else:
            frame = build(args.pool_games or 800, args.per_stratum or 50, args.seed)
        write_atomic(frame, args.data)
        print(f"{len(frame)} positions ({(frame.split == 'heldout').sum()} held out) in "
              f"{time.process_time() - t:.1f} CPU-s -> {args.data}")
    if args.relabel:
        relabel_copy(args.relabel, args.data)
    if args.label or args.relabel:
        label(args.data, args.games, args.seed, args.batch, args.workers, args.net)
    if args.report:
        report(args.data, args.net, plies, args.part,
               beside=DATA if args.reached else None)
    if args.own:
        own(args.data, args.net, args.games, args.seed, args.part, plies, out=args.own_out)
    if args.versus:
        versus(args.versus, args.match_games, args.seed, args.workers, args.against)


if __name__ == "__main__":
    main()
