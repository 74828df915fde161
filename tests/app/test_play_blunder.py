"""``play`` names a blunder at once: after the human's move, when the engine's evaluation
(``Evaluator.hint`` at the play command's plies) shows it lost a blunder's equity or more
(``analysis.report.MARKS``), "blunder: lost X points ...; best was M"; nothing for a
smaller loss."""
import numpy as np

import nardy_fast as nf
from nardy_fast.analysis.report import MARKS
from nardy_fast.app.play import play_terminal

BLUNDER = dict(MARKS)["blunder"]


def _first_roll(seed):
    d1, d2 = (int(x) for x in np.random.default_rng(seed).integers(1, 7, size=2))
    return d1, d2


def test_a_blunder_is_named_and_a_good_move_is_not(tmp_path):
    ev = nf.Evaluator.default()
    start = nf.random_game(seed=3, max_turns=12).positions()[10]
    cases = {}
    for seed in range(40):
        if len(cases) == 2:
            break
        dice = _first_roll(seed)
        hint = ev.hint(start, dice)
        loss = hint["equity"].iloc[0] - hint["equity"]
        if "blunder" not in cases and loss.iloc[-1] >= BLUNDER:
            cases["blunder"] = (seed, hint.iloc[-1]["move"], loss.iloc[-1], hint)
        small = loss[(loss > 0) & (loss < BLUNDER)]
        if "small" not in cases and len(small):
            cases["small"] = (seed, hint.loc[small.index[-1], "move"], small.iloc[-1], hint)
    assert set(cases) == {"blunder", "small"}
    for kind, (seed, move, loss, hint) in cases.items():
        for typed in (move, hint.iloc[0]["move"]):
            said = []
            answers = iter([typed, "quit"])
            play_terminal(side=start.side, plies=0, seed=seed, start=start,
                          out=str(tmp_path / f"{kind}.mat"), input_fn=lambda p: next(answers),
                          print_fn=said.append)
            notes = [s for s in said if str(s).startswith("  blunder:")]
            if kind == "blunder" and typed == move:
                assert notes == [f"  blunder: lost {loss:.3f} points (equity, net 0-ply); "
                                 f"best was {hint.iloc[0]['move']}"]
            else:
                assert notes == []


def test_in_a_match_the_loss_is_in_emg():
    """At a match score the note weighs the loss in EMG (``hint(match=)``), the engine's
    measure there; a move losing less than the mark gets none."""
    from nardy_fast import MatchRules, MatchState
    from nardy_fast.app.play import blunder_note
    ev = nf.Evaluator.default()
    start = nf.random_game(seed=3, max_turns=12).positions()[10]
    state = MatchState(MatchRules(length=3), (1, 0), start.side, False)
    seen = set()
    for seed in range(40):
        dice = _first_roll(seed)
        hint = ev.hint(start, dice, match=state)
        for k in (0, len(hint) - 1):
            move = start.play(hint.iloc[k]["move"], dice=dice)
            legal = next(m for m in start.legal_moves(dice) if start.play(m) == move)
            loss = hint["emg"].iloc[0] - hint["emg"].iloc[k]
            note = blunder_note(ev, start, dice, legal, 0, state)
            if loss >= BLUNDER:
                assert note == (f"blunder: lost {loss:.3f} points (EMG, net 0-ply); best was "
                                f"{hint.iloc[0]['move']}")
                seen.add("blunder")
            else:
                assert note is None
                seen.add("none")
        if seen == {"blunder", "none"}:
            break
    assert seen == {"blunder", "none"}


def test_hint_ranks_at_the_engine_s_plies(tmp_path):
    """'hint' in play ranks the moves as the engine plays them (at ``plies``), the depth
    the blunder note weighs by."""
    ev = nf.Evaluator.default()
    start = nf.random_game(seed=3, max_turns=12).positions()[10]
    said = []
    answers = iter(["hint", "quit"])
    play_terminal(side=start.side, plies=1, seed=1, start=start, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: next(answers), print_fn=said.append)
    rows = [str(s).split() for s in said if str(s).strip()[:2] in ("1.", "2.")]
    want = ev.hint(start, _first_roll(1), plies=1).head(2)
    assert [r[1:-2] for r in rows] == [m.split() for m in want["move"]]
    assert [float(r[-2]) for r in rows] == [round(e, 3) for e in want["equity"]]
