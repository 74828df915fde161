"""An analysed game or match as one self-contained HTML page (``nardy-fast analyse --html``).

``to_html(report)`` turns the frame of ``report.game_report(record, analyse=True)`` (one
game) or of ``matchreport.analyse_match(record)`` (a match: its ``game``,
``score_white``, ``score_black`` columns) into one HTML file that needs nothing else: no
script, no style sheet, font or image from elsewhere, so it opens offline and can be
mailed or shared as it is.  The page holds

- the totals per player: turns, decisions (turns with more than one legal move), the
  moves of each mark (``report.MARKS``), the equity lost (points; EMG at a match, with
  the match winning chances lost beside it), the error rate (points lost per decision x
  1000) and the luck (the sum of the player's rolls' luck, points, ``engine.luck``);
- for each game (at a match, under the score before it): the graph of White's winning
  chance turn by turn (inline SVG, the moves with a mark drawn as dots), the same totals
  for the game and its cube decisions;
- every turn: the board before it (inline SVG: ``core.diagram.board_svg``, the drawing of
  ``Position`` in Jupyter, with the cube when the record is given), the dice and the move
  played, its mark and equity lost, the best move where it differs, and the roll's luck.

Probabilities are for the side named (White's winning chance in the graph); equities and
luck in points of the mover unless a column says White.  The layout is one column on a
phone and the boards beside their text on a wide screen.
"""
from __future__ import annotations

import html
import math
import os

import pandas as pd

from nardy_fast.analysis.matchreport import game_state
from nardy_fast.analysis.report import MARKS, error_rates, with_cube_columns
from nardy_fast.core._io import atomic_write_text
from nardy_fast.core.diagram import board_svg
from nardy_fast.core.matchrecord import MatchRecord
from nardy_fast.core.position import Position
from nardy_fast.core.record import GameRecord

__all__ = ["to_html", "REQUIRED"]

# The columns of an analysed game report the page reads.
REQUIRED = ("turn", "side", "player", "dice", "move", "id", "n_moves", "best_move",
            "equity_loss", "mark", "luck", "p_win_white")
_MARK_COLOURS = {"doubtful": "#d4a017", "error": "#e67e22", "blunder": "#c0392b"}

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
 padding:0.75rem;max-width:60rem;line-height:1.4;color:#222;background:#fff}
h1{font-size:1.4rem;margin:0.2rem 0 0.6rem}h2{font-size:1.2rem;margin:1.6rem 0 0.4rem;
 border-bottom:2px solid #9c5b2e}h3{font-size:1rem;margin:1rem 0 0.3rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:0.9rem;margin:0.3rem 0}
th,td{padding:0.2rem 0.4rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
.graph svg{width:100%;height:auto;max-width:40rem;display:block}
.decision{display:grid;grid-template-columns:1fr;gap:0.3rem;border-top:1px solid #ddd;
 padding:0.6rem 0}
.board svg{width:100%;height:auto;max-width:30rem;display:block}
.move{font-size:0.95rem}.move .dice{font-weight:bold}.move .played{font-family:monospace}
.mark{display:inline-block;padding:0 0.35rem;border-radius:0.3rem;color:#fff;
 font-size:0.8rem;font-weight:bold}
.mark.doubtful{background:#d4a017}.mark.error{background:#e67e22}
.mark.blunder{background:#c0392b}.note{color:#555;font-size:0.85rem}
@media (max-width:30rem){table{font-size:0.78rem}}
@media (min-width:48rem){.decision{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}}
"""


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
    return nan if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v)


def _esc(v):
    return html.escape(str(v), quote=True)


def _table(head, rows, cls):
    out = [f'<div class="scroll"><table class="{cls}"><thead><tr>']
    out += [f"<th>{_esc(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _luck_by(played, key):
    return played.groupby(key, sort=False)["luck"].sum()


def _totals(frame, match, emg=None):
    """The totals table of ``frame`` (one game, or a whole match with ``match``: per
    player name rather than colour); ``emg``: losses in EMG (default: ``match``)."""
    emg = match if emg is None else emg
    mwc = "mwc_loss" in frame.columns
    played = frame[frame["move"] != ""]
    key = "player" if match else "side"
    er = error_rates(played.assign(side=played[key]) if match else played)
    luck = _luck_by(played, key)
    rows = []
    for who, r in er.iterrows():
        name = f"{r['player']} ({who})" if not match else str(who)
        row = [name, int(r["turns"]), int(r["decisions"]),
               " / ".join(str(int(r.get("n_" + m, 0))) for m, _ in MARKS)]
        row += [_num(float(r["equity_lost"]), "{:.3f}"),
                _num(float(r["error_rate"]), "{:.1f}")]
        if mwc:
            row.append(_num(100 * float(r.get("mwc_lost", math.nan)), "{:.2f}%"))
        row.append(_num(float(luck.get(who, 0.0))))
        rows.append(row)
    head = ["player", "turns", "decisions", "/".join(m[0] for m, _ in MARKS) + " marks"]
    head += ["lost (EMG)" if emg else "lost (points)", "error rate"]
    if mwc:
        head.append("MWC lost")
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


def _cube_section(game, record):
    """The cube decisions of a game: judged (the report's cube columns), else the actions
    played (from the record), else a note."""
    if "cube_played" in game.columns:
        rows = []
        for _, r in game.iterrows():
            played = r["cube_played"]
            if isinstance(played, str) and played:
                rows.append([int(r["turn"]), r["side"], played, r.get("cube_proper", ""),
                             _num(float(r.get("cube_loss", math.nan)), "{:.3f}"),
                             _num(float(r.get("take_loss", math.nan)), "{:.3f}")])
        if rows:
            return _table(["turn", "side on roll", "played", "proper",
                           "raise loss (points)", "answer loss (points)"], rows, "cube")
        return '<p class="note">No cube decision in this game.</p>'
    if record is not None and record.cube:
        rows = [[c.before + 1, c.side, c.action, c.stake] for c in record.cube]
        return ('<p class="note">Cube actions played (not judged: analyse with the '
                "cube to judge them).</p>"
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


def _decision(r, uid, cube, match):
    unit = "EMG" if match else "points"
    pos = Position.from_id(r["id"])
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
        text.append(f'<div>equity lost <span class="loss">{_num(loss, "{:.3f}")}</span> '
                    f'{unit} of {n} legal moves</div>')
        if r["best_move"] != r["move"]:
            text.append(f'<div>best: <span class="best played">{_esc(r["best_move"])}'
                        "</span></div>")
    played_cube = r.get("cube_played")
    if isinstance(played_cube, str) and played_cube:
        lost = float(r.get("cube_loss", 0.0)) + float(r.get("take_loss", 0.0))
        text.append(f'<div class="cube-decision">cube: {_esc(played_cube)}; proper '
                    f'{_esc(r.get("cube_proper", ""))}; lost {_num(lost, "{:.3f}")} '
                    f"{unit}</div>")
    text.append(f'<div class="note">P({_esc(r["side"])} wins) before the roll '
                f'{_num(float(r["p_win_white"] if r["side"] == "white" else 1 - r["p_win_white"]), "{:.1%}")}'
                f' &middot; luck of the roll {_num(float(r["luck"]))} points</div></div>')
    return (f'<article class="decision" id="{uid}"><div class="board">'
            f"{board_svg(pos, cube=cube, id_prefix=uid)}</div>{''.join(text)}</article>")


def _game_section(game, k, record, match, label):
    played = game[game["move"] != ""]
    states = record.cube_states() if record is not None and record.rules.cube else []
    out = [f'<section class="game" id="game-{k}"><h2>{_esc(label)}</h2>']
    if match:
        first = game.iloc[0]
        white = played["player"][played["side"] == "white"]
        black = played["player"][played["side"] == "black"]
        names = (white.iloc[0] if len(white) else "White",
                 black.iloc[0] if len(black) else "Black")
        out.append(f'<p class="score">Score before the game: {_esc(names[0])} (White) '
                   f'{_num(float(first["score_white"]), "{:g}")}, {_esc(names[1])} '
                   f'(Black) {_num(float(first["score_black"]), "{:g}")}</p>')
    out.append(_graph(game, f"graph-{k}"))
    if match:                       # one game: the page's totals are the game's
        out.append("<h3>Totals of the game</h3>" + _totals(game, False, emg=True))
    out.append("<h3>Cube decisions</h3>" + _cube_section(game, record))
    out.append("<h3>Moves</h3>")
    for i, (_, r) in enumerate(played.iterrows()):
        t = int(r["turn"]) - 1
        cube = states[t] if t < len(states) else None
        out.append(_decision(r, f"g{k}-t{int(r['turn'])}", cube, match))
    out.append("</section>")
    return "".join(out)


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
        The record the report was made from: its cube states are drawn on the boards.
        A game under rules with a cube whose report has no cube columns has its cube
        decisions judged here (``report.with_cube_columns``: the evaluator's cubeless
        probabilities); at a match without them the cube actions played are listed.

    Returns
    -------
    str
        The HTML text (also when ``path`` is given).

    Raises
    ------
    TypeError
        ``report`` is not a DataFrame, ``record`` not a record.
    ValueError
        ``report`` lacks a column of ``REQUIRED`` or has no move played.
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
    if (record is not None and record.rules.cube and "cube_played" not in report.columns):
        report = _judge_cube(report, record, match)      # judge the cube decisions too
    title = title if title is not None else ("Match analysis" if match else "Game analysis")
    body = [f"<h1>{_esc(title)}</h1>"]
    if match:
        games = [(int(g), f) for g, f in report.groupby("game", sort=True)]
        recs = record.games if record is not None else [None] * len(games)
        body.append('<section id="totals"><h2>Match totals</h2>'
                    + _totals(report, True) + "</section>")
        for (g, frame), rec in zip(games, recs):
            body.append(_game_section(frame, g, rec, True, f"Game {g}"))
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
                "roll, in points of the side that rolled.</p>")
    text = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
    if path is not None:
        atomic_write_text(os.fspath(path), text)
    return text
