"""``app._args``: the rollout options not given take their defaults, the command's own
games and the shared options' policy, seed and truncation; an option of
``action="store_given"`` is told given from not given whatever its value."""
import argparse

from nardy_fast.app import cli
from nardy_fast.app._args import rollout_defaults, was_given


def test_rollout_defaults_fill_only_what_was_not_given():
    ns = argparse.Namespace(games=None, policy="greedy", seed=None, truncate=None)
    rollout_defaults(ns, 77)
    assert vars(ns) == {"games": 77, "policy": "greedy", "seed": 2026, "truncate": "bearoff"}


def test_the_commands_leave_their_rollout_options_not_given_until_filled():
    parser = cli.build_parser()
    for argv, games in ((["study", "ids.txt", "--store", "s"], cli.STUDY_GAMES),
                        (["report", "ids.txt"], cli.REPORT_GAMES),
                        (["analyse", "game.txt"], cli.DEFAULT_GAMES)):
        args = parser.parse_args(argv)
        assert args.games is None                     # "not given", until filled
        rollout_defaults(args, games)
        assert (args.games, args.seed, args.policy) == (games, 2026, "net")


def test_an_option_given_at_its_default_value_is_told_from_one_not_given():
    parser = cli.build_parser()
    for argv, want in ((["hint", "start", "61"], False),
                       (["hint", "start", "61", "--plies", "2"], True),     # the default
                       (["hint", "start", "61", "--plies", "0", "--plies", "2"], True),
                       (["analyse", "game.txt", "--plies", "0"], True),     # the default
                       (["analyse", "game.txt", "--method", "net"], False)):
        args = parser.parse_args(argv)
        assert was_given(args, "plies") is want, argv
        assert args.plies == (2 if argv[0] == "hint" else int(argv[-1]) if want else 0)
    assert not was_given(argparse.Namespace(plies=2), "plies")
