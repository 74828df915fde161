"""Matplotlib figures: race charts, bear-off distributions, rollout
convergence and game graphs.

Every function takes the data first and ``ax=None``: it draws into ``ax`` when given, else
into a new figure, and returns the ``Axes``.  The data are the frames of
``nardy_fast.analysis.report`` (column names as documented there) or positions.

============================  ===============================================================
function                      draws
============================  ===============================================================
``race_chart(frame)``         P(win) and P(mars win) of the side on roll against the pip
                              difference (``report.race_report``), exact and rollout rows
``bearoff_distribution(ps)``  P(bearing off in exactly t turns) of one or two positions
``convergence_chart(frame)``  a rollout estimate and its 95% band against games played
                              (``report.convergence_report``)
``game_chart(frame)``         pip counts of both sides and White's P(win) turn by turn
                              (``report.game_report``)
============================  ===============================================================

The board (``plot_board``) and ``save_figure``, which writes a figure atomically, are in
``nardy_fast.core.diagram``.
"""
import numpy as np

from nardy_fast._utils._frames import require_columns
from nardy_fast.core._checks import as_board6
from nardy_fast.core.diagram import new_axes
from nardy_fast.core.methods import method_kind, method_label
from nardy_fast.core.position import Position, as_position
from nardy_fast.engine.evaluation.cubemodel import CONTACT_EFFICIENCY, RACE_EFFICIENCY, doubling_window
from nardy_fast.tables.bearoff import one_sided

__all__ = ["race_chart", "bearoff_distribution", "convergence_chart", "game_chart"]

# race_chart: one marker per kind of method (core.methods.method_kind); rollouts: crosses
_MARKERS = {"exact": "o", "approximation": "^", "net": "s"}
_KIND_ORDER = {"exact": 0, "approximation": 1, "net": 2, "rollout": 3}


def _whole_numbers(axis):
    """Ticks of whole numbers only (turns), as few as one (a game of no turn)."""
    # lazy: matplotlib is slow to import, and only pictures need it
    import matplotlib.ticker

    axis.set_major_locator(matplotlib.ticker.MaxNLocator(
        "auto", steps=[1, 2, 5, 10], integer=True, min_n_ticks=1))


def _check_bins(bins):
    """``race_chart``'s ``bins``: None, a count of at least 1, or at least two increasing
    edges; else an error naming it (numpy's own named neither ``race_chart`` nor what
    fits, and one edge drew an empty line)."""
    if bins is None or (isinstance(bins, (int, np.integer)) and not isinstance(bins, bool)
                        and bins >= 1):
        return
    if isinstance(bins, (bool, str, float, np.floating)) or np.ndim(bins) != 1:
        raise TypeError(f"race_chart: bins={bins!r}: expected None, a count of at least 1 "
                        "or a sequence of at least two increasing edges")
    edges = np.asarray(bins, dtype=float)
    if len(edges) < 2 or not np.all(np.diff(edges) > 0) or not np.isfinite(edges).all():
        raise ValueError(f"race_chart: bins={bins!r}: expected at least two finite, "
                         "increasing edges (or a count of at least 1)")


def race_chart(frame, ax=None, x="pip_diff", bins=None, cube=None, efficiency=None):
    """P(win) and P(mars win) of the side on roll against ``x`` (default the pip
    difference, mover minus opponent) from a ``report.race_report`` frame.

    Each row is drawn and labelled by how it was obtained (``core.methods.method_label``
    of its ``method``): exact rows (two-sided or mars table) are dots, the one-sided
    approximation triangles, the net squares (one legend entry per method, e.g.
    ``net 0-ply``; the legend says "exact" only for exact rows), rollout rows crosses
    with 95% error bars (1.96 SE; the legend gives their ``games``); a line joins the
    mean of each ``x`` bin over all rows (``bins``: an int or edges; default about 12
    bins), with its own legend entry.  ``cube`` (``"geometric"`` or ``"arithmetic"``) overlays the doubling window
    of a centred cube at stake 1 (``cube.doubling_window``): P(win) from the double point
    to the opponent's pass point shaded as "double, take", above it "double, pass", for
    the cube efficiency ``efficiency`` (default: the race value at the frame's median
    pips of the side on roll, or ``CONTACT_EFFICIENCY``).  Returns the Axes.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, or a new figure's Axes when None.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> ax = nf.race_chart(nf.race_report(nf.race_sample(40, seed=1)))
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('pip difference, side on roll minus opponent (pips)', 'probability (side on roll)')
    """
    require_columns(frame, (x, "p_win", "p_mars_win", "method"), "race_chart",
                    "report.race_report", rows=True)
    _check_bins(bins)
    ax = new_axes(ax)
    kinds = frame["method"].astype(str).map(method_kind)
    labels = frame["method"].astype(str).map(
        lambda m: method_kind(m) if method_kind(m) in ("exact", "rollout") else method_label(m))
    for col, colour, label in (("p_win", "C0", "P(win)"), ("p_mars_win", "C3", "P(mars win)")):
        for name in sorted(labels.unique(), key=lambda n: (_KIND_ORDER.get(
                kinds[labels == n].iloc[0], 9), n)):
            rows = labels == name
            kind = kinds[rows].iloc[0]
            if kind == "rollout":
                se = frame.loc[rows, "se_" + col] if "se_" + col in frame else None
                games = _games(frame.loc[rows, "games"]) if "games" in frame else ""
                ax.errorbar(frame.loc[rows, x], frame.loc[rows, col],
                            yerr=None if se is None else 1.96 * se, fmt="x", ms=4,
                            color=colour, alpha=0.6, elinewidth=0.8,
                            label=f"{label}, {name}{games}"
                                  + (", 95% bars" if se is not None else ""))
            else:
                ax.scatter(frame.loc[rows, x], frame.loc[rows, col], s=12, color=colour,
                           alpha=0.5, marker=_MARKERS.get(kind, "D"),
                           label=f"{label}, {name}")
        if len(frame) >= 4:
            nb = bins if bins is not None else min(12, max(2, len(frame) // 8))
            edges = np.histogram_bin_edges(frame[x], bins=nb)
            idx = np.clip(np.digitize(frame[x], edges) - 1, 0, len(edges) - 2)
            g = frame.groupby(idx)
            centres = g[x].mean()
            ax.plot(centres, g[col].mean(), color=colour, lw=1.5,   # one bin: a point
                    marker="o" if len(centres) == 1 else None,
                    label=f"{label}, mean of each bin (all rows)")
    if cube is not None:
        if efficiency is None:
            if "pips_mover" in frame.columns and len(frame):
                xs, ys = zip(*RACE_EFFICIENCY)
                efficiency = float(np.interp(frame["pips_mover"].median(), xs, ys))
            else:
                efficiency = CONTACT_EFFICIENCY
        try:
            lo, hi = doubling_window(efficiency, cube)
        except (TypeError, ValueError) as e:     # named as race_chart's caller wrote it
            raise ValueError(f"race_chart: {_in_chart_words(e, cube, efficiency)}") \
                from None
        ax.axhspan(lo, hi, color="C2", alpha=0.15,
                   label=f"double, take ({lo:.2f}-{hi:.2f}, x = {efficiency:.2f})")
        ax.axhspan(hi, 1.0, color="C1", alpha=0.12, label="double, pass")
    ax.axvline(0, color="grey", lw=0.7, ls=":")
    ax.set_xlabel("pip difference, side on roll minus opponent (pips)" if x == "pip_diff"
                  else x)
    ax.set_ylabel("probability (side on roll)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Race: win and mars against pip difference")
    ax.legend(fontsize=8, loc="best")
    return ax


def _games(counts):
    """The games of rollout rows for a legend: ``" (36 games)"``, ``" (36-72 games)"``."""
    lo, hi = int(counts.min()), int(counts.max())
    return f" ({lo:,} games)" if lo == hi else f" ({lo:,}-{hi:,} games)"


def _in_chart_words(e, cube, efficiency):
    """``doubling_window``'s refusal in ``race_chart``'s words: its ``progression`` is the
    chart's ``cube``, its ``x`` the chart's ``efficiency``."""
    if str(e).startswith("progression="):
        return (f"cube={cube!r}: expected 'geometric' or 'arithmetic' (or None: no "
                "doubling window)")
    if str(e).startswith("x=") or isinstance(e, TypeError):
        return f"efficiency={efficiency!r}: expected a cube efficiency, a number in 0..1"
    return str(e)


# -- bear-off distribution ---------------------------------------------------------------
def _board6(item, name):
    if isinstance(item, (Position, str)):
        item = as_position(item, name)
        b = item.mover
        if b[:18].any():
            raise ValueError(f"{name} ({item.id}): the side on roll has checkers outside "
                             "its home; the bear-off database does not apply")
        return np.ascontiguousarray(b[23:17:-1], dtype=np.uint8)
    a = np.asarray(item)
    if a.shape in ((24,), (6,)):            # checked as the database checks its boards
        return as_board6(a, name)[0][0]     # (a float or negative count is not cast)
    raise ValueError(f"{name}: expected a Position, an ID, 24 or 6 counts of a bear-off "
                     f"board, got shape {a.shape}")


def _single_board(x):
    """True for one Position, ID or board (not a list of them)."""
    if isinstance(x, (Position, str)):
        return True
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], (Position, str, list, tuple,
                                                                np.ndarray)):
        return False
    return np.ndim(x) == 1


def bearoff_distribution(positions, ax=None, labels=None, tables=None):
    """Bars of P(the side on roll bears off in exactly t turns) for one or two positions.

    ``positions``: a Position/ID/board, or a list of up to two (their side on roll must be
    all home; a board is 24 counts in own numbering or the 6 home counts, point 24 first).
    ``tables``: a one-sided database (default ``bearoff.one_sided()``).  ``labels``:
    one name a position for the legend (a str for one position), which gives the mean
    turns and the EPC (mean x 49/6 pips).  Returns the Axes.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, or a new figure's Axes when None.

    Raises
    ------
    ValueError
        Not one or two positions, ``positions[k]`` a malformed ID, not all home or
        no board (naming ``k``), a negative count, or not one label a position.
    TypeError
        ``positions[k]`` counts that are not integers (naming ``k``).

    Examples
    --------
    >>> import nardy_fast as nf
    >>> ax = nf.bearoff_distribution(nf.race_sample(2, seed=1))
    >>> ax.get_xlabel(), len(ax.patches) > 0
    ('turns to bear off (own turns)', True)
    """
    if _single_board(positions):
        positions = [positions]
    positions = list(positions)
    if not 1 <= len(positions) <= 2:
        raise ValueError(f"bearoff_distribution: expected one or two positions, "
                         f"got {len(positions)}")
    if labels is not None:
        if isinstance(labels, str):
            labels = [labels]
        labels = list(labels)
        if len(labels) != len(positions):
            raise ValueError(f"bearoff_distribution: labels: {len(labels)} for "
                             f"{len(positions)} position(s); expected one a position")
    if tables is None:
        tables = one_sided()
    db = tables
    ax = new_axes(ax)
    width = 0.8 / len(positions)
    for k, item in enumerate(positions):
        b6 = _board6(item, f"positions[{k}]")
        dist = np.asarray(db.distribution(b6), dtype=float)
        t = np.arange(len(dist))
        mean = float(db.mean_turns(b6))
        name = labels[k] if labels else (f"position {k + 1}" if len(positions) > 1 else
                                         "position")
        nz = np.flatnonzero(dist > 1e-9)
        if nz.size:
            t, dist = t[nz[0]:nz[-1] + 1], dist[nz[0]:nz[-1] + 1]
        ax.bar(t + (k - (len(positions) - 1) / 2) * width, dist, width=width,
               color=f"C{k}", alpha=0.85,
               label=f"{name}: mean {mean:.3f} turns, EPC {mean * 49 / 6:.1f} pips")
    _whole_numbers(ax.xaxis)
    ax.set_xlabel("turns to bear off (own turns)")
    ax.set_ylabel("probability")
    ax.set_title("Turns to bear off")
    ax.legend(fontsize=8)
    return ax


# -- convergence ------------------------------------------------------------------------
def convergence_chart(frame, ax=None, column="equity"):
    """A rollout estimate (``column``: ``"equity"`` or ``"p_win"``, of the side on roll) and
    its 95% confidence band against games played, from ``report.convergence_report``;
    returns the Axes.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, or a new figure's Axes when None.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> cr = nf.convergence_report(nf.race_sample(1, seed=1)[0], n_games=(36, 72, 144), seed=1,
    ...                            policy="random", truncate=None, workers=1)
    >>> ax = nf.convergence_chart(cr)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('games rolled out', 'equity (points, side on roll)')
    """
    require_columns(frame, ("games", column, "se_" + column), "convergence_chart",
                    "report.convergence_report", rows=True)
    # lazy: matplotlib is slow to import, and only pictures need it
    import matplotlib.ticker

    if not (frame["games"] > 0).all():
        raise ValueError("convergence_chart: a row of 0 games (not a rollout, e.g. a table's "
                         "value in a race_report): the frame of report.convergence_report "
                         "has one rollout of each size per row")
    ax = new_axes(ax)
    f = frame.sort_values("games")
    g, est, se = f["games"].to_numpy(float), f[column].to_numpy(float), \
        f["se_" + column].to_numpy(float)
    ax.fill_between(g, est - 1.96 * se, est + 1.96 * se, color="C0", alpha=0.25,
                    label="95% confidence band")
    ax.plot(g, est, "o-", color="C0", ms=4, label=column)
    ax.axhline(est[-1], color="grey", lw=0.7, ls=":")
    ax.set_xscale("log")
    ax.set_xticks(g, [f"{int(x):,}" for x in g])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("games rolled out")
    ax.set_ylabel("equity (points, side on roll)" if column == "equity"
                  else "probability (side on roll)")
    ax.set_title(f"Rollout convergence: {column}")
    ax.legend(fontsize=8)
    return ax


# -- game graph -------------------------------------------------------------------------
def _how_valued(frame):
    """How a game report's probabilities were obtained, for a legend: its ``method``
    values as people read them, in order of first use (``"net 0-ply, exact (two-sided
    table)"``; a finished game's row names no method; a rollout with its games, from
    ``attrs["settings"]``), or ``""`` without the column."""
    if "method" not in frame.columns:
        return ""
    names = [m for m in dict.fromkeys(frame["method"].dropna())
             if isinstance(m, str) and m and not m.startswith("final")]   # game over: no value
    rollout = (frame.attrs.get("settings") or {}).get("rollout") or {}
    games = f" of {rollout['n_games']:,} games a position" if rollout.get("n_games") else ""
    return ", ".join(method_label(m) + (games if m == "rollout" else "") for m in names)


def game_chart(frame, ax=None):
    """Pip counts of White and Black per turn and, when the frame has ``p_win_white``,
    White's win probability on a second axis (from ``report.game_report``).

    Returns the pip Axes; the probability Axes is ``ax.right_ax`` when drawn.

    Returns
    -------
    matplotlib.axes.Axes
        The pip Axes (``ax``, or a new figure's); the probability Axes is
        ``ax.right_ax`` when drawn.

    Examples
    --------
    >>> import nardy_fast as nf
    >>> ax = nf.game_chart(nf.game_report(nf.random_game(seed=1, max_turns=6)))
    >>> ax.get_xlabel(), [line.get_label() for line in ax.get_lines()]
    ("turn (one side's move)", ['White pips', 'Black pips'])
    """
    require_columns(frame, ("turn", "pips_white", "pips_black"), "game_chart",
                    "report.game_report", rows=True)
    ax = new_axes(ax, figsize=(8, 4))
    # a record of no turn is one position: a line of one point draws nothing, a marker does
    marker = "o" if len(frame) == 1 else None
    ax.plot(frame["turn"], frame["pips_white"], color="#b8860b", lw=1.6, marker=marker,
            label="White pips")
    ax.plot(frame["turn"], frame["pips_black"], color="black", lw=1.6, marker=marker,
            label="Black pips")
    _whole_numbers(ax.xaxis)
    ax.set_xlabel("turn (one side's move)")
    ax.set_ylabel("pips")
    handles, labels = ax.get_legend_handles_labels()
    if "p_win_white" in frame.columns:
        right = ax.twinx()
        how = _how_valued(frame)
        right.plot(frame["turn"], frame["p_win_white"], color="C0", lw=1.2, ls="--",
                   marker=marker, label="P(White wins)" + (f" ({how})" if how else ""))
        right.set_ylim(-0.02, 1.02)
        right.set_ylabel("P(White wins)")
        h2, l2 = right.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
        ax.right_ax = right
    ax.legend(handles, labels, fontsize=8, loc="lower left")
    ax.set_title("Game graph")
    return ax
