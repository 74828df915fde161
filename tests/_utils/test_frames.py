"""``require_columns``: a function that reads a report names what it was given instead
of failing inside pandas; then each public reader of a report, given no frame and a frame
without its columns."""
import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import nardy_fast as nf  # noqa: E402
from nardy_fast._utils._frames import require_columns  # noqa: E402


def test_require_columns_names_the_function_the_column_and_the_maker():
    frame = pd.DataFrame({"a": [1], "b": [2]})
    require_columns(frame, ("a", "b"), "f", "g")                 # all there: nothing
    with pytest.raises(ValueError, match=r"^f: the frame has no 'c' column \(use g\)$"):
        require_columns(frame, ("a", "c", "d"), "f", "g")         # the first missing
    with pytest.raises(TypeError, match=r"^f: expected a pandas DataFrame \(use g\), got dict$"):
        require_columns({"a": [1]}, ("a",), "f", "g")             # has keys, not a frame
    with pytest.raises(TypeError, match=r"^f: expected a pandas DataFrame, got Series$"):
        require_columns(frame["a"], (), "f")                      # no maker: no advice
    require_columns(frame.iloc[:0], ("a",), "f")                # no rows asked: none needed
    with pytest.raises(ValueError, match=r"^f: the frame has no rows, so nothing to draw$"):
        require_columns(frame.iloc[:0], ("a",), "f", rows=True)


READERS = {
    "race_chart": (nf.race_chart, "p_win"),       # pip_diff is in the pip report
    "convergence_chart": (nf.convergence_chart, "games"),
    "game_chart": (nf.game_chart, "turn"),
    "error_rates": (nf.error_rates, "equity_loss"),
    "match_error_rates": (nf.match_error_rates, "game"),
    "cube_error_rates": (nf.cube_error_rates, "played"),   # side is in it
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_each_reader_of_a_report_refuses_by_name(name):
    fn, first_missing = READERS[name]
    with pytest.raises(TypeError, match=f"^{name}: expected a pandas DataFrame"):
        fn(42)
    pips = nf.pip_report([nf.Position.initial()])     # a report, but not the one it reads
    with pytest.raises(ValueError, match=f"^{name}: the frame has no '{first_missing}' column"):
        fn(pips)


@pytest.mark.parametrize("name, empty", [
    ("race_chart", lambda: nf.race_report([])),
    ("convergence_chart", lambda: nf.convergence_report(nf.Position.initial(), 36, seed=1,
                                                        policy="random", truncate=None,
                                                        workers=1).iloc[:0]),
    ("game_chart", lambda: nf.game_report(nf.random_game(seed=1, max_turns=2),
                                          progress=False).iloc[:0]),
])
def test_a_chart_of_an_empty_report_says_there_is_nothing_to_draw(name, empty):
    fn = READERS[name][0]
    with pytest.raises(ValueError, match=f"^{name}: the frame has no rows"):
        fn(empty())


def test_error_rates_of_a_report_not_analysed_says_how_to_analyse_it():
    report = nf.game_report(nf.random_game(seed=1, max_turns=4), progress=False)
    with pytest.raises(ValueError, match=r"'equity_loss' column \(use game_report\(\.\.\., "
                                         r"analyse=True\)\)"):
        nf.error_rates(report)


def test_save_frame_refuses_what_is_not_a_frame(tmp_path):
    with pytest.raises(TypeError, match="^save_frame: expected a pandas DataFrame, got int$"):
        nf.save_frame(42, tmp_path / "x.csv")
    assert not list(tmp_path.iterdir())
