"""``app._args``: the rollout options not given take their defaults, the command's own
games and the shared options' policy, seed and truncation."""
import argparse

from nardy_fast.app import cli
from nardy_fast.app._args import rollout_defaults


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
