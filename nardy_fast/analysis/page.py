"""An analysed game or match as one self-contained HTML page (``nardy-fast analyse --html``).

``to_html(report)`` turns the frame of ``report.game_report(record, analyse=True)`` (one
game) or of ``matchreport.analyse_match(record)`` (a match: its ``game``,
``score_white``, ``score_black`` columns) into one HTML file that needs nothing else: no
script, no style sheet, font or image from elsewhere, so it opens offline and can be
mailed or shared as it is.  The page holds

- the result (who won, by oin, mars or koks, and the points, from the record; at a match
  the final score) and the settings of the analysis (``report.analysis_settings``:
  method, plies, the net file's digest, the rollout settings, toolkit version, date);
- an index of the errors and blunders (moves and cube decisions, each by the player's
  name and colour: an answer is the opponent's), each linking to its turn;
- the totals per player: turns, decisions (turns with more than one legal move), the
  moves of each mark (``report.MARKS``), the equity lost (points; EMG at a match, with
  the match winning chances lost beside it), the error rate (points lost per decision x
  1000), with the cube judged its cube decisions (its raises or no raises, and its
  answers to the opponent's raises) and what they lost, and the luck (the sum of the
  player's rolls' luck, points, ``engine.luck``);
- for each game (at a match, under the score before it): the graph of White's winning
  chance turn by turn (inline SVG, the moves with a mark drawn as dots), the same totals
  for the game and its cube decisions that are close or wrong (``cubereport.CLOSE``, as
  GNU Backgammon lists them), with a count of the others;
- every turn: the board before it (a small inline SVG drawn here, the layout of
  ``core.diagram.plot_board``, whose pieces are ``<symbol>``s defined once per page),
  the dice and the move played, its mark and equity lost, the best move where the
  played one is not, the candidates (the report's ``candidates``: the best moves with
  their equity, loss and win / mars / koks chances; with the cube, where a game is won
  at the stake, the mars and koks columns say they score nothing) and the roll's luck;
  a game's last turn of a raise passed (no roll) shows its board and the cube decision.

Probabilities are for the side named (White's winning chance in the graph); equities and
luck in points of the mover unless a column says White.  The layout is one column on a
phone and the boards beside their text on a wide screen.
"""
from __future__ import annotations

import html
import json
import math
import os

import pandas as pd

from nardy_fast.analysis.cubereport import CLOSE
from nardy_fast.engine.decisions.cube import CUBE_PLIES
from nardy_fast.engine.play.luck import LUCK_PLIES
from nardy_fast.analysis.matchreport import game_state
from nardy_fast.analysis.report import MARKS, error_rates, mark, with_cube_columns
from nardy_fast._utils._frames import require_columns
from nardy_fast._utils._io import atomic_write_text
from nardy_fast.core.matchrecord import MatchRecord
from nardy_fast.core.position import BLACK, WHITE, Position
from nardy_fast.core.methods import method_kind, method_label
from nardy_fast.core.record import GameRecord
from nardy_fast.core.result import shown

__all__ = ["to_html", "REQUIRED", "board", "listed_cube_decisions", "cube_totals"]

# The columns of an analysed game report the page reads.
REQUIRED = ("turn", "side", "player", "dice", "move", "id", "n_moves", "best_move",
            "equity_loss", "mark", "luck", "p_win_white")
_MARK_COLOURS = {"doubtful": "#d4a017", "error": "#e67e22", "blunder": "#c0392b"}
_INDEXED = ("error", "blunder")          # the marks listed in the page's index
_WORST = {"error": 0, "blunder": 1}

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
 padding:0.75rem;max-width:60rem;line-height:1.4;color:#222;background:#fff}
h1{font-size:1.4rem;margin:0.2rem 0 0.6rem}h2{font-size:1.2rem;margin:1.6rem 0 0.4rem;
 border-bottom:2px solid #9c5b2e}h3{font-size:1rem;margin:1rem 0 0.3rem}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-size:0.9rem;
 margin:0.3rem 0}
th,td{padding:0.2rem 0.4rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{white-space:normal;vertical-align:bottom}
th:first-child,td:first-child{text-align:left}
.graph svg{width:100%;height:auto;max-width:40rem;display:block}
.decision{display:grid;grid-template-columns:1fr;gap:0.3rem;border-top:1px solid #ddd;
 padding:0.6rem 0}
.board svg{width:100%;height:auto;max-width:26rem;display:block}
.move{font-size:0.95rem;min-width:0}.move .dice{font-weight:bold}
.played,.cand td:nth-child(2){font-family:monospace}
.cand{font-size:0.8rem}.cand .se{font-size:0.7rem;color:#666}.cand tr.you td{font-weight:bold;background:#f6ecd9}
.cand td:nth-child(2){text-align:left}
.mark{display:inline-block;padding:0 0.35rem;border-radius:0.3rem;color:#fff;
 font-size:0.8rem;font-weight:bold}
.mark.doubtful{background:#d4a017}.mark.error{background:#e67e22}
.mark.blunder{background:#c0392b}.note{color:#555;font-size:0.85rem}
dl.settings{display:grid;grid-template-columns:max-content 1fr;gap:0 0.8rem;margin:0.3rem 0;
 font-size:0.9rem}dl.settings dt{font-weight:bold}dl.settings dd{margin:0;overflow-wrap:anywhere}
@media (max-width:30rem){table{font-size:0.7rem}th,td{padding:0.15rem 0.2rem}
 td:first-child{white-space:normal}}
@media (min-width:48rem){.decision{grid-template-columns:minmax(0,2fr) minmax(0,3fr)}}
"""

# -- the board: one set of <symbol>s per page, a few <use>s per board -------------------
# Layout of ``core.diagram.plot_board`` in SVG units (20 per checker width): the board
# spans x 0..260 (12 points and the bar at 120..140), y 30..270; the top row is White's
# points 12..1 (Black's 24..13) from left to right, the bottom row White's 13..24.
_U, _TOP, _BOTTOM = 20.0, 30.0, 270.0
_R, _STEP, _MAX_STACK = 8.8, 18.4, 5
_WHITE_FILL, _BLACK_FILL = "#f7f3e8", "#2b2b2b"
_VIEW = "-20 0 365 296"


def _x(c):
    """x centre of column c (0..11, left to right), the bar between the halves."""
    return (c + (1 if c >= 6 else 0) + 0.5) * _U


def _defs():
    """The hidden SVG whose symbols every board uses: the empty board with both
    numberings, a White and a Black checker."""
    dark, light = [], []
    labels = []
    for row in ("top", "bottom"):
        base, tip = (_TOP, _TOP + 4.8 * _U) if row == "top" else (_BOTTOM, _BOTTOM - 4.8 * _U)
        wy, by = (23, 11) if row == "top" else (280, 292)
        for c in range(12):
            x = _x(c)
            (dark if c % 2 == 0 else light).append(
                f"M{x - 10:g} {base:g}H{x + 10:g}L{x:g} {tip:g}Z")
            wpoint = 12 - c if row == "top" else 13 + c
            labels.append(f'<text x="{x:g}" y="{wy}">{wpoint}</text>')
            labels.append(f'<text x="{x:g}" y="{by}" fill="#666">{(wpoint + 11) % 24 + 1}'
                          "</text>")
        labels.append(f'<text x="-6" y="{wy}" text-anchor="end" font-weight="bold">W</text>')
        labels.append(f'<text x="-6" y="{by}" text-anchor="end" font-weight="bold" '
                      'fill="#666">B</text>')
    return ('<svg class="board-defs" width="0" height="0" aria-hidden="true" '
            'style="position:absolute"><defs>'
            '<symbol id="nb-board" overflow="visible" font-family="sans-serif" '
            'font-size="9" text-anchor="middle">'
            f'<rect x="0" y="{_TOP:g}" width="260" height="240" fill="#e3c79f" '
            'stroke="#5a3a1a" stroke-width="2"/>'
            f'<rect x="120" y="{_TOP:g}" width="20" height="240" fill="#b08a5a" '
            'stroke="#5a3a1a"/>'
            f'<path fill="#9c5b2e" d="{"".join(dark)}"/>'
            f'<path fill="#f4e2c2" d="{"".join(light)}"/>' + "".join(labels) + "</symbol>"
            f'<symbol id="nb-w" overflow="visible"><circle r="{_R}" fill="{_WHITE_FILL}" '
            'stroke="#000"/></symbol>'
            f'<symbol id="nb-b" overflow="visible"><circle r="{_R}" fill="{_BLACK_FILL}" '
            'stroke="#000"/></symbol></defs></svg>')


def board(position: Position | str, cube=None) -> str:
    """The board of ``position`` as a small inline SVG (the layout of
    ``core.diagram.plot_board``: checkers with counts, both numberings, pips and checkers
    off, the side on roll, the ``CubeState`` when given).  It draws with the symbols of
    the page (``to_html`` puts them once at the top of the page), so it is only for a
    page made by ``to_html``."""
    pos = position if isinstance(position, Position) else Position.from_id(position)
    white, black = pos.white, pos.black
    out = [f'<svg viewBox="{_VIEW}" role="img" font-family="sans-serif" font-size="9" '
           f'text-anchor="middle" aria-label="board, {pos.side} on roll">'
           '<use href="#nb-board"/>']
    for row in ("top", "bottom"):
        for c in range(12):
            wpoint = 12 - c if row == "top" else 13 + c
            widx = wpoint - 1
            bidx = (widx + 12) % 24
            if white[widx]:
                n, sym, ink = int(white[widx]), "nb-w", "#000"
            elif black[bidx]:
                n, sym, ink = int(black[bidx]), "nb-b", "#fff"
            else:
                continue
            x = _x(c)
            ys = [_TOP + _R + 0.4 + _STEP * k if row == "top" else
                  _BOTTOM - _R - 0.4 - _STEP * k for k in range(min(n, _MAX_STACK))]
            out += [f'<use href="#{sym}" x="{x:g}" y="{y:.1f}"/>' for y in ys]
            if n > 1:
                out.append(f'<text x="{x:g}" y="{ys[-1] + 3:.1f}" fill="{ink}" '
                           f'font-weight="bold">{n}</text>')
    pm, po = pos.pips
    om, oo = pos.off
    on_w = pos.side == WHITE
    wp, bp = (pm, po) if on_w else (po, pm)
    wo, bo = (om, oo) if on_w else (oo, om)
    for name, y, fill, ink, pips, off, on in (("White", 66, _WHITE_FILL, "#000", wp, wo, on_w),
                                              ("Black", 186, _BLACK_FILL, "#fff", bp, bo,
                                               not on_w)):
        edge = ("#c0392b" if name == "Black" else "#000") if on else fill
        bold = ' font-weight="bold"' if on else ""
        out.append(f'<rect x="266" y="{y}" width="76" height="48" rx="6" fill="{fill}" '
                   f'stroke="{edge}" stroke-width="{2.5 if on else 0.8}"/>'
                   f'<text x="304" y="{y + 14}" fill="{ink}"{bold}>{name}'
                   f'{" (on roll)" if on else ""}</text>'
                   f'<text x="304" y="{y + 28}" fill="{ink}">pips {pips}</text>'
                   f'<text x="304" y="{y + 42}" fill="{ink}">off {off}</text>')
    if cube is not None:
        owner = None if cube.owner == "centre" else (
            pos.side if cube.owner == "mover" else (BLACK if on_w else WHITE))
        cy = 150 if owner is None else (64 if owner == WHITE else 236)
        out.append(f'<rect x="121.6" y="{cy - 8.4:g}" width="16.8" height="16.8" '
                   f'fill="#fdf6e3" stroke="#000"/><text x="130" y="{cy + 3:g}" '
                   f'font-weight="bold">{cube.stake}</text>')
    out.append("</svg>")
    return "".join(out)


def _check(report):
    if not isinstance(report, pd.DataFrame):
        raise TypeError(f"report: expected a pandas DataFrame (game_report(..., analyse=True) "
                        f"or analyse_match), got {type(report).__name__}")
    missing = [c for c in REQUIRED if c not in report.columns]
    if missing:
        raise ValueError(f"report: no {', '.join(map(repr, missing))} column(s); expected "
                         "the frame of game_report(..., analyse=True) or analyse_match")
    if not (report["move"] != "").any():
        raise ValueError("report: no turn was played; the page needs at least one move")


def _num(v, fmt="{:+.3f}", nan="-"):
    """``v`` by ``fmt``; ``nan`` for None or NaN.  A value that rounds to zero is written
    as zero (a luck of -0.00001 is "+0.000", not "-0.000")."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return nan
    spec, rest = fmt[2:].split("}", 1)                 # "{:SPEC}REST"
    return shown(v, spec) + rest


def _measured(se):
    """``se`` is a standard error that was measured and is not 0 (rollouts)."""
    return se is not None and isinstance(se, (int, float)) and se == se and se > 0


def _loss(loss, se):
    """A loss with its standard error in brackets where it was measured (rollouts:
    ``0.052 (SE 0.011)``; exact losses and the net's have none to show)."""
    text = _num(loss, "{:.3f}")
    return text + f" (SE {se:.3f})" if _measured(se) else text


def _esc(v):
    return html.escape(str(v), quote=True)


class _Raw(str):
    """A table cell that is HTML already (a link), not text to escape."""


def _table(head, rows, cls, row_classes=None):
    out = [f'<div class="scroll"><table class="{cls}"><thead><tr>']
    out += [f"<th>{_esc(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, r in enumerate(rows):
        rc = row_classes[i] if row_classes else ""
        out.append((f'<tr class="{rc}">' if rc else "<tr>")
                   + "".join(f"<td>{c if isinstance(c, _Raw) else _esc(c)}</td>" for c in r)
                   + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _luck_by(played, key):
    return played.groupby(key, sort=False)["luck"].sum()


def _other(side):
    """The other colour."""
    return "black" if side == "white" else "white"


def _by_colour(frame, key, games):
    """Indexed by ``(game, colour)`` (``games``: each row's game), the ``key``
    (``"player"`` or ``"side"``) of that colour's rows: a row's opponent, the side that
    answers its raise, is ``[(game, _other(side))]``."""
    return frame.groupby([games, frame["side"]], sort=False)[key].first()


def cube_totals(frame: pd.DataFrame, key: str = "side") -> tuple[dict, dict]:
    """Per ``key`` (``"side"`` or ``"player"``) of an analysed report's judged cube
    decisions: ``(count, lost)``, how many it made (each raise or no raise of the side on
    roll, each answer of its opponent) and what they lost (``cube_loss`` plus
    ``take_loss``: points, EMG at a match), as the page's totals and ``nardy-fast analyse
    --cube`` give them; two empty dicts without cube columns.  ``TypeError`` /
    ``ValueError`` naming what is wrong: not a frame, a key other than those two, a
    column missing."""
    require_columns(frame, (), "cube_totals", "game_report(..., analyse=True, cube=True)")
    if key not in ("side", "player"):
        raise ValueError(f"cube_totals: key={key!r}: expected 'side' or 'player'")
    if "cube_played" not in frame.columns:
        return {}, {}
    require_columns(frame, ("side", "player", "cube_loss", "take_loss"), "cube_totals",
                    "game_report(..., analyse=True, cube=True)")
    games = frame["game"] if "game" in frame.columns else pd.Series(1, index=frame.index)
    who = _by_colour(frame, key, games)
    n, lost = {}, {}
    for (_, r), g in zip(frame.iterrows(), games):
        if not _is_text(r["cube_played"]):
            continue
        other = _other(r["side"])
        turns = [(r[key], r.get("cube_loss", math.nan))]
        if str(r["cube_played"]).startswith("double"):          # answered
            turns.append((who.get((g, other), other), r.get("take_loss", math.nan)))
        for name, loss in turns:
            n[name] = n.get(name, 0) + 1
            lost[name] = lost.get(name, 0.0) + (0.0 if math.isnan(loss) else float(loss))
    return n, lost


def _totals(frame, match, emg=None):
    """The totals table of ``frame`` (one game, or a whole match with ``match``: per
    player name rather than colour); ``emg``: losses in EMG (default: ``match``).  With
    the cube judged, each player's cube decisions and what they lost have columns of
    their own beside the moves'."""
    emg = match if emg is None else emg
    mwc = "mwc_loss" in frame.columns
    cube = "cube_played" in frame.columns
    played = frame[frame["move"] != ""]
    key = "player" if match else "side"
    er = error_rates(played.assign(side=played[key]) if match else played)
    luck = _luck_by(played, key)
    n_cube, cube_lost = cube_totals(frame, key)
    rows = []
    for who, r in er.iterrows():
        name = f"{r['player']} ({who})" if not match else str(who)
        row = [name, int(r["turns"]), int(r["decisions"]),
               " / ".join(str(int(r.get("n_" + m, 0))) for m, _ in MARKS)]
        row += [_num(float(r["equity_lost"]), "{:.3f}"),
                _num(float(r["error_rate"]), "{:.1f}")]
        if mwc:
            row.append(_num(100 * float(r.get("mwc_lost", math.nan)), "{:.2f}%"))
        if cube:
            row += [n_cube.get(who, 0), _num(cube_lost.get(who, 0.0), "{:.3f}")]
        row.append(_num(float(luck.get(who, 0.0))))
        rows.append(row)
    head = ["player", "turns", "decisions", "/".join(m[0] for m, _ in MARKS) + " marks"]
    head += ["lost (EMG)" if emg else "lost (points)", "error rate"]
    if mwc:
        head.append("MWC lost")
    if cube:
        head += ["cube decisions", "cube lost (EMG)" if emg else "cube lost (points)"]
    head.append("luck (points)")
    return _table(head, rows, "totals")


def _graph(game, uid):
    """Inline SVG: White's P(win) before each turn, marked moves as dots."""
    w, h, left, right, top, bottom = 480, 220, 44, 10, 12, 36
    turns = game["turn"].to_numpy(float)
    p = game["p_win_white"].to_numpy(float)
    t0, t1 = float(turns.min()), float(max(turns.max(), turns.min() + 1))

    def xy(t, v):
        return (left + (t - t0) / (t1 - t0) * (w - left - right),
                top + (1 - v) * (h - top - bottom))

    parts = [f'<svg class="graph-svg" id="{uid}" viewBox="0 0 {w} {h}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg" aria-label="White\'s winning chance '
             'by turn">']
    for v in (0, 0.25, 0.5, 0.75, 1):
        x0, y = xy(t0, v)
        x1, _ = xy(t1, v)
        dash = "" if v in (0, 1) else ' stroke-dasharray="3 3"'
        parts.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" '
                     f'stroke="#bbb"{dash}/>')
        parts.append(f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="13" '
                     f'text-anchor="end">{int(v * 100)}%</text>')
    step = max(1, int(round((t1 - t0) / 6)))
    for t in range(int(t0), int(t1) + 1, step):
        x, y = xy(t, 0)
        parts.append(f'<text x="{x:.1f}" y="{y + 15:.1f}" font-size="13" '
                     f'text-anchor="middle">{t}</text>')
    parts.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 4}" font-size="14" '
                 'text-anchor="middle">turn (before the move)</text>')
    ok = ~pd.isna(p)
    pts = " ".join("{:.1f},{:.1f}".format(*xy(t, v)) for t, v in zip(turns[ok], p[ok]))
    parts.append(f'<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="{pts}"/>')
    for _, r in game.iterrows():
        colour = _MARK_COLOURS.get(r["mark"])
        if colour and not pd.isna(r["p_win_white"]):
            x, y = xy(float(r["turn"]), float(r["p_win_white"]))
            parts.append(f'<circle class="graph-mark" cx="{x:.1f}" cy="{y:.1f}" r="4.5" '
                         f'fill="{colour}"><title>turn {int(r["turn"])}: {_esc(r["side"])} '
                         f'{_esc(r["mark"])}</title></circle>')
    parts.append(f'<text x="{left + 4}" y="{top + 12}" font-size="14" fill="#1f77b4">'
                 'P(White wins)</text></svg>')
    return '<figure class="graph">' + "".join(parts) + "</figure>"


def _is_text(v):
    return isinstance(v, str) and v != ""


def _cube_rows(game):
    """The rows of ``game`` with a judged cube decision (the report's cube columns)."""
    if "cube_played" not in game.columns:
        return game.iloc[:0]
    return game.loc[[_is_text(v) for v in game["cube_played"]]]


def _cube_lost(r):
    return float(r.get("cube_loss", 0.0)) + float(r.get("take_loss", 0.0))


def _cube_shown(r):
    """A cube decision the page lists: a raise, a close one (``cubereport.CLOSE``) or a
    wrong one (a loss above 0.001), as GNU Backgammon lists them."""
    close = r.get("cube_close")
    return (str(r["cube_played"]).startswith("double") or _cube_lost(r) > 1e-3
            or (close is not None and not pd.isna(close) and bool(close)))


def listed_cube_decisions(report: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The judged cube decisions of an analysed report (its cube columns) that the page
    and ``nardy-fast analyse`` list, as GNU Backgammon does: the raises, the close ones
    (a raise costing less than ``cubereport.CLOSE``) and the wrong ones (a loss above
    0.001); and the number of the others.  ``(rows, 0)`` without cube columns."""
    judged = _cube_rows(report)
    if not len(judged):
        return judged, 0
    shown = judged.loc[[bool(_cube_shown(r)) for _, r in judged.iterrows()]]
    return shown, len(judged) - len(shown)


def _cube_section(game, record, k, match):
    """The cube decisions of a game that are close or wrong, judged (the report's cube
    columns) with a count of the others; else the actions played (from the record),
    else a note."""
    unit = "EMG" if match else "points"
    if "cube_played" in game.columns:
        shown, rest = listed_cube_decisions(game)
        if not len(shown) and not rest:
            return '<p class="note">No cube decision in this game.</p>'
        rows = []
        for _, r in shown.iterrows():
            t = int(r["turn"])
            rows.append([_Raw(f'<a href="#g{k}-t{t}">{t}</a>'), r["side"], r["cube_played"],
                         r.get("cube_proper", ""),
                         _num(float(r.get("cube_loss", math.nan)), "{:.3f}"),
                         _num(float(r.get("take_loss", math.nan)), "{:.3f}")])
        note = (f'<p class="note">{rest} other cube decision{"s" if rest != 1 else ""}: '
                f"no raise, none close (a raise would cost {CLOSE:g} {unit} or more), "
                "played right.</p>" if rest else "")
        if not rows:
            return note
        return _table(["turn", "side on roll", "played", "proper",
                       f"raise loss ({unit})", f"answer loss ({unit})"], rows, "cube") + note
    if record is not None and record.cube:
        rows = [[c.before + 1, c.side, c.action, c.stake] for c in record.cube]
        return ('<p class="note">Cube actions played (not judged: analyse with --cube, '
                "or game_report(..., cube=True), to judge them).</p>"
                + _table(["before turn", "side", "action", "stake"], rows, "cube"))
    if record is not None and record.rules.cube is None:
        return '<p class="note">No cube in these rules.</p>'
    return '<p class="note">No cube decision in this report.</p>'


def _judge_cube(report, record, match):
    """``report`` with the cube columns of ``report.with_cube_columns``: of the game, or
    of each game of the match at its score (``matchreport.game_state``)."""
    if not match:
        return with_cube_columns(report, record)
    parts = []
    for k, game in enumerate(record.games):
        frame = report[report["game"] == k + 1]
        parts.append(with_cube_columns(frame, game, match=game_state(record, k)))
    return pd.concat(parts)


def _pct(v):
    return _num(v, "{:.1%}")


def _read_candidates(r):
    """A turn's candidates (the report's ``candidates``, JSON) as dicts, JSON ``null`` (a
    value not measured) as NaN, as reports written before it held it; [] without any."""
    text = r.get("candidates")
    if not _is_text(text):
        return []
    return [{k: math.nan if v is None else v for k, v in c.items()}
            for c in json.loads(text)]


def _candidates(cands, match, scored=True):
    """The candidates table of a turn (``_read_candidates``), or "".  Not ``scored``
    (with the cube: a game is won at the stake, rule book 7a) the mars and koks columns
    say they score nothing, and a money equity that it is cubeless (each win counted once)."""
    if not cands:
        return ""
    koks = any("p_koks_win" in c for c in cands)
    mars = ["mars"] + (["koks"] if koks else [])
    if not scored:
        mars = [f"{m} (no score)" for m in mars]
    head = ["#", "move", "MWC" if match else "equity" if scored else "equity (no cube)",
            "loss (EMG)" if match else "loss", "win", *mars, "lose", *mars]
    rows, classes = [], []
    for c in cands:
        value = _pct(c["mwc"]) if match and "mwc" in c else _num(c["equity"])
        loss = c.get("emg_loss", c["equity_loss"]) if match else c["equity_loss"]
        se = None if match else c.get("se_equity_loss")
        cell = _num(loss, "{:.3f}")             # its SE below it: the table stays narrow
        if _measured(se):
            cell = _Raw(f'{_esc(cell)}<br><span class="se">SE {se:.3f}</span>')
        row = [c["rank"], c["move"], value, cell, _pct(c["p_win"]),
               _pct(c["p_mars_win"])]
        row += [_pct(c.get("p_koks_win", math.nan))] if koks else []
        row += [_pct(c["p_lose"]), _pct(c["p_mars_loss"])]
        row += [_pct(c.get("p_koks_loss", math.nan))] if koks else []
        rows.append(row)
        classes.append("you" if c["played"] else "")
    return _table(head, rows, "cand", classes)


def _valued_by(cands):
    """A note naming the tables that valued a turn's moves (``_read_candidates``: exact,
    or the one-sided approximation), which the page's settings (the net at its plies, or
    rollouts) do not say; "" when the settings' method valued them all."""
    names = dict.fromkeys(c.get("method") for c in cands)
    tables = [m for m in names if isinstance(m, str)
              and method_kind(m) in ("exact", "approximation")]
    if not tables:
        return ""
    return ('<div class="note">moves valued by '
            + ", ".join(_esc(method_label(m)) for m in tables) + "</div>")


def _best_differs(r):
    """The played move is not a best one (``rank_played`` > 1), or without that column
    its loss shows (>= 0.0005) and its text differs from the best move's."""
    rank = r.get("rank_played")
    if rank is not None and not pd.isna(rank):
        return int(rank) > 1
    loss = float(r["equity_loss"])
    return r["best_move"] != r["move"] and not math.isnan(loss) and loss >= 0.0005


def _decision(r, uid, cube, match, answerer="", scored=True):
    unit = "EMG" if match else "points"
    text = [f'<div class="move"><div><b>Turn {int(r["turn"])}</b> &middot; '
            f'{_esc(r["player"])} ({_esc(r["side"])}) &middot; '
            f'<span class="dice">{_esc(r["dice"])}</span>: '
            f'<span class="played">{_esc(r["move"])}</span>']
    if r["mark"]:
        text.append(f' <span class="mark {_esc(r["mark"])}">{_esc(r["mark"])}</span>')
    text.append("</div>")
    n = int(r["n_moves"]) if not pd.isna(r["n_moves"]) else 0
    loss = float(r["equity_loss"])
    if n <= 1:
        text.append('<div class="note">the only legal move</div>')
    else:
        se = None if match else r.get("se_equity_loss")
        text.append(f'<div>equity lost <span class="loss">{_esc(_loss(loss, se))}</span> '
                    f'{unit} of {n} legal moves</div>')
        if _best_differs(r):
            text.append(f'<div>best: <span class="best played">{_esc(r["best_move"])}'
                        "</span></div>")
        cands = _read_candidates(r)
        text.append(_candidates(cands, match, scored))
        text.append(_valued_by(cands))
    played_cube = r.get("cube_played")
    if _is_text(played_cube):
        text.append(_cube_line(r, unit, answerer))
    text.append(f'<div class="note">P({_esc(r["side"])} wins) before the roll '
                f'{_p_mover(r)}'
                f' &middot; luck of the roll {_num(float(r["luck"]))} points</div></div>')
    return _article(uid, r, cube, "".join(text))


def _cube_line(r, unit, answerer):
    """A turn's cube decision: what was played, what was proper, and what each side's
    part lost: the raise (or no raise) the side on roll's, the answer ``answerer``'s
    (it lost that, not the side on roll, whose turn the line stands under)."""
    played = str(r["cube_played"])
    head = (f'<div class="cube-decision">cube: {_esc(played)}; proper '
            f'{_esc(r.get("cube_proper", ""))}; ')
    raised = float(r.get("cube_loss", 0.0))
    if not played.startswith("double"):
        return head + f"lost {_num(raised, '{:.3f}')} {unit}</div>"
    answer = played.split(",")[-1].strip() or "answer"
    return (head + f'the raise lost {_num(raised, "{:.3f}")} {unit} ({_esc(r["player"])}), '
            f'the {_esc(answer)} {_num(float(r.get("take_loss", 0.0)), "{:.3f}")} {unit} '
            f"({_esc(answerer)})</div>")


def _p_mover(r):
    """The side on roll's winning chance before its turn, as a percentage."""
    p = float(r["p_win_white"])
    return _num(p if r["side"] == "white" else 1 - p, "{:.1%}")


def _cube_turn(r, uid, cube, match, answerer=""):
    """A turn of a cube decision alone (a raise passed: the game ended before the roll):
    the board, who raised, what was played and proper, and what it lost."""
    unit = "EMG" if match else "points"
    text = (f'<div class="move"><div><b>Turn {int(r["turn"])}</b> &middot; '
            f'{_esc(r["player"])} ({_esc(r["side"])}) &middot; no roll</div>'
            f'{_cube_line(r, unit, answerer)}<div class="note">P({_esc(r["side"])} wins) before '
            f"the raise {_p_mover(r)}</div></div>")
    return _article(uid, r, cube, text)


def _article(uid, r, cube, text):
    """A turn's article: the board before it (with ``cube``) beside ``text``."""
    return (f'<article class="decision" id="{uid}"><div class="board">'
            f"{board(r['id'], cube)}</div>{text}</article>")


_KINDS = {"oin": "by oin", "mars": "by mars", "koks": "by koks",
          "home_mars": "by home mars", "win": "at the cube's stake",
          "drop": "by a dropped raise"}


def _points(v):
    return f"{v:g} point{'' if v == 1 else 's'}"


def _game_result(record, frame):
    """One sentence: who won the game, how, and the points (the record's ``result``;
    without the record, the report's ``result_white``)."""
    if record is not None:
        res = record.result()
        if res is None:
            return "The game is not over."
        if res["winner"] is None:
            return "The game is a draw."
        name = record.white if res["winner"] == WHITE else record.black
        how = _KINDS.get(res["kind"], res["kind"])
        if record.rules.cube is not None and res["kind"] != "drop":
            how += ", at the cube's stake"           # rule book 7a: no mars with the cube
        return f"{name} ({res['winner']}) wins {how}: {_points(float(res['points']))}."
    if "result_white" in frame.columns and not pd.isna(frame["result_white"].iloc[-1]):
        v = float(frame["result_white"].iloc[-1])
        if v == 0:
            return "The game is a draw."
        return f"{'White' if v > 0 else 'Black'} wins {_points(abs(v))}."
    return "The result is not in the report."


def _match_result(record):
    if record is None:
        return ""
    final = record.final_score()
    n = record.rules.length
    score = ", ".join(f"{_esc(p)} {v:g}" for p, v in final.items())
    won = [p for p, v in final.items() if v >= n]
    if won:
        return (f"<p class=\"result\">Final score {score} (match to {n}): {_esc(won[0])} "
                "wins the match.</p>")
    return (f"<p class=\"result\">Score so far {score} (match to {n}): the match is not "
            "over; the analysis covers the games played.</p>")


def _settings(report):
    """The settings of the analysis (``attrs["settings"]``, ``analysis_settings``)."""
    st = report.attrs.get("settings")
    if not st:
        return '<p class="note">The settings of the analysis are not recorded in this ' \
               "report.</p>"
    items = [("method", st.get("method")),
             ("plies", "-" if st.get("plies") is None else st.get("plies")),
             ("net", st.get("net"))]
    roll = st.get("rollout")
    if roll:
        items.append(("rollouts", f"{roll['n_games']} games a move, policy "
                      f"{roll['policy']}, truncate {roll['truncate']}, seed {roll['seed']}"))
    if st.get("cube"):
        items.append(("cube", f"judged; cubeless chances from {st['cube']}"))
    items += [("toolkit", f"nardy_fast {st.get('version')}"), ("date", st.get("date"))]
    return ('<dl class="settings">' + "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>"
                                              for k, v in items) + "</dl>")


def _index(report, match):
    """The table of the errors and blunders (moves and cube decisions), each turn a link
    to its anchor; "" when there is none."""
    unit = "EMG" if match else "points"
    games = report["game"] if match else pd.Series(1, index=report.index)
    # each game's players by colour: an answer is the opponent's, named as a move's player
    names = _by_colour(report, "player", games)
    rows = []
    for (i, r), g in zip(report.iterrows(), games):
        t = int(r["turn"])
        link = _Raw(f'<a href="#g{int(g)}-t{t}">{t}</a>')
        pre = [int(g)] if match else []
        if r["move"] != "" and r["mark"] in _INDEXED:
            best = r["best_move"] if _best_differs(r) else ""
            rows.append(pre + [link, f'{r["player"]} ({r["side"]})', r["move"], best,
                               _loss(float(r["equity_loss"]),
                                     None if match else r.get("se_equity_loss")),
                               r["mark"]])
        if "cube_played" in report.columns and _is_text(r["cube_played"]):
            other = _other(r["side"])
            answerer = f'{names.get((g, other), other.capitalize())} ({other})'
            for what, col, who in (("cube", "cube_loss", f'{r["player"]} ({r["side"]})'),
                                   ("answer", "take_loss", answerer)):
                lost = float(r.get(col, math.nan))
                m = mark(lost) if not math.isnan(lost) else ""
                if m in _INDEXED:
                    rows.append(pre + [link, who, f'{what}: {r["cube_played"]}',
                                       r.get("cube_proper", ""), _num(lost, "{:.3f}"), m])
    if not rows:
        return '<p class="note">No error or blunder.</p>'
    head = (["game"] if match else []) + ["turn", "player", "played", "best / proper",
                                          f"lost ({unit})", "mark"]
    return _table(head, rows, "index")


def _crawford_words(record, k):
    """What the Crawford rule makes of game ``k`` (0-based) of the MatchRecord ``record``:
    ``" (the Crawford game: no cube)"``, ``" (post-Crawford)"`` or ``""``."""
    if record is None or k >= len(record.scores):
        return ""
    stage = record.rules.crawford_stage(record.scores[k].values(), record.crawford_game(k))
    return {"crawford": " (the Crawford game: no cube)", "post": " (post-Crawford)"}.get(
        stage, "")


def _game_section(game, k, record, match, label, crawford=""):
    played = game[game["move"] != ""]
    states = record.cube_states() if record is not None and record.rules.cube else []
    scored = not _with_cube(game, record)
    out = [f'<section class="game" id="game-{k}"><h2>{_esc(label)}</h2>']
    # each colour's player in this game (the colour itself when it made no move)
    players = {side: (played["player"][played["side"] == side].iloc[0]
                      if (played["side"] == side).any() else side.capitalize())
               for side in ("white", "black")}
    if match:
        first = game.iloc[0]
        names = (players["white"], players["black"])
        out.append(f'<p class="score">Score before the game: {_esc(names[0])} (White) '
                   f'{_num(float(first["score_white"]), "{:g}")}, {_esc(names[1])} '
                   f'(Black) {_num(float(first["score_black"]), "{:g}")}{crawford}</p>')
    if match:
        out.append(f'<p class="result">{_esc(_game_result(record, game))}</p>')
    out.append(_graph(game, f"graph-{k}"))
    if match:                       # one game: the page's totals are the game's
        out.append("<h3>Totals of the game</h3>" + _totals(game, False, emg=True))
    out.append("<h3>Cube decisions</h3>" + _cube_section(game, record, k, match))
    out.append("<h3>Moves</h3>")
    # every turn played, and a last turn of a cube decision alone (a raise passed, no
    # roll): the index and the cube table link to each
    shown = game[(game["move"] != "").to_numpy() | game.index.isin(_cube_rows(game).index)]
    for _, r in shown.iterrows():
        t = int(r["turn"]) - 1
        cube = states[t] if t < len(states) else None
        uid = f"g{k}-t{int(r['turn'])}"
        other = _other(r["side"])
        answerer = f"{players[other]} ({other})"
        out.append(_decision(r, uid, cube, match, answerer, scored) if r["move"] != ""
                   else _cube_turn(r, uid, cube, match, answerer))
    out.append("</section>")
    return "".join(out)


def _check_record(report, record, match):
    """``record`` is the one ``report`` was made from: the position before each of the
    report's turns is the record's (else the page would state another game's result
    and draw its cube beside these boards); a ``ValueError`` names the first that is not."""
    frames = ([f for _, f in report.groupby("game", sort=True)] if match else [report])
    games = record.games if match else [record]
    if len(games) != len(frames):
        raise ValueError(f"record: {len(games)} game(s), the report {len(frames)}; "
                         "expected the match the report was made from")
    for k, (frame, game) in enumerate(zip(frames, games), 1):
        ids = [p.id for p in game.positions()]
        for turn, pid in zip(frame["turn"].astype(int), frame["id"]):
            mine = ids[turn - 1] if 0 < turn <= len(ids) else "none"
            if mine != pid:
                where = f"game {k} " if match else ""
                raise ValueError(f"record: not the {'match' if match else 'game'} of report "
                                 f"({where}turn {turn}: the report's position {pid}, the "
                                 f"record's {mine})")


def _with_cube(report, record):
    """The game or match of ``report`` is played with the cube: its record's rules say
    so, or without the record, its cube decisions were judged."""
    if record is not None:
        return bool(record.rules.cube)
    return "cube_played" in report.columns


def to_html(report, path=None, title=None, record=None):
    """The analysed game or match ``report`` as one self-contained HTML page.

    Parameters
    ----------
    report : pandas.DataFrame
        ``report.game_report(record, analyse=True)`` (columns ``REQUIRED``; with
        ``cube=True`` its cube columns give the cube decisions) or
        ``matchreport.analyse_match(record)`` (a match: ``game``, ``score_white``,
        ``score_black``; losses in EMG).
    path : str, os.PathLike or None
        Also write the page there (UTF-8, to a temporary name, then renamed).
    title : str or None
        The page's title (default: "Game analysis" or "Match analysis").
    record : GameRecord, MatchRecord or None
        The record the report was made from: its result is stated and its cube states
        are drawn on the boards.  A game or match under rules with a cube whose report
        has no cube columns has its cube decisions judged here
        (``report.with_cube_columns``: the evaluator's cubeless probabilities; at a match
        each game at its score, ``matchreport.game_state``).

    Returns
    -------
    str
        The HTML text (also when ``path`` is given).

    Raises
    ------
    TypeError
        ``report`` is not a DataFrame, ``record`` not a record.
    ValueError
        ``report`` lacks a column of ``REQUIRED`` or has no move played, or ``record``
        is not the game (or match) it was made from.
    """
    _check(report)
    if record is not None and not isinstance(record, (GameRecord, MatchRecord)):
        raise TypeError(f"record: expected a GameRecord, a MatchRecord or None, got "
                        f"{type(record).__name__}")
    match = "game" in report.columns and "score_white" in report.columns
    if match and isinstance(record, GameRecord):
        raise TypeError("record: a match report needs its MatchRecord, got a GameRecord")
    if not match and isinstance(record, MatchRecord):
        raise TypeError("record: a game report needs its GameRecord, got a MatchRecord")
    if record is not None:
        _check_record(report, record, match)
    if (record is not None and record.rules.cube and "cube_played" not in report.columns):
        settings = report.attrs.get("settings")
        report = _judge_cube(report, record, match)      # judge the cube decisions too
        if settings:
            report.attrs["settings"] = {**settings, "cube": f"evaluator ({CUBE_PLIES} plies)"}
    title = title if title is not None else ("Match analysis" if match else "Game analysis")
    body = [_defs(), f"<h1>{_esc(title)}</h1>", '<section id="summary">']
    if match:
        body.append(_match_result(record) or '<p class="note">The final score needs the '
                    "match record.</p>")
    else:
        body.append(f'<p class="result">{_esc(_game_result(record, report))}</p>')
    body.append("<h3>Settings</h3>" + _settings(report) + "</section>")
    body.append('<section id="index"><h2>Errors and blunders</h2>'
                + _index(report, match) + "</section>")
    if match:
        games = [(int(g), f) for g, f in report.groupby("game", sort=True)]
        recs = record.games if record is not None else [None] * len(games)
        body.append('<section id="totals"><h2>Match totals</h2>'
                    + _totals(report, True) + "</section>")
        for (g, frame), rec in zip(games, recs):
            body.append(_game_section(frame, g, rec, True, f"Game {g}",
                                      _crawford_words(record, g - 1)))
    else:
        body.append('<section id="totals"><h2>Totals</h2>' + _totals(report, False)
                    + "</section>")
        body.append(_game_section(report, 1, record, False, "The game"))
    body.append('<p class="note">Decisions: turns with more than one legal move. Lost: '
                "the equity, in points (EMG at a match), the moves played lost against "
                "the best. Marks: "
                + ", ".join(f"{m} ({m[0]}) from {t:g}" for m, t in MARKS)
                + " lost. Error rate: equity lost per decision x 1000. MWC lost: match "
                "winning chances lost. Luck: what the rolls gained against the average "
                f"roll, valued by the net at {LUCK_PLIES}-ply (the bear-off tables where "
                "they apply) "
                "whatever the plies above, in points of the side that rolled. "
                "Candidates: the best moves by "
                "the analysis (the played one highlighted), with the mover's chances to "
                "win and lose, any way and by mars (koks under extended scoring)."
                + (" With the cube a game is won at the stake whatever the loser's "
                   "position (rule book, section 7a): a mars (or koks) scores no more "
                   "than any win, so its columns say 'no score'"
                   + (", and the MWC counts every win at the stake." if match else
                      "; the equity beside them is cubeless: the game without the "
                      "cube, each win counted once.")
                   if _with_cube(report, record) else "")
                + " Cube "
                f"decisions listed: raises, and those close (a raise costing less than "
                f"{CLOSE:g}) or wrong.</p>")
    text = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
    if path is not None:
        atomic_write_text(os.fspath(path), text)
    return text
