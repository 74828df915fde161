"""What the front ends' parsers share (``cli``, ``cli_engine``, ``demo``): argument types,
the common options, the one-line error and the Dask client of ``--scheduler``."""
import argparse

from nardy_fast.engine.policy import NAMES as POLICY_NAMES


def positive_int(text):
    """``"12"`` -> 12; anything else is an ``argparse.ArgumentTypeError``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: expected a positive integer")
    return value


class CliError(Exception):
    """An error reported as one line on stderr."""


# -- argument helpers --------------------------------------------------------------------
def _position(text):
    from nardy_fast.core.position import Position

    if text in ("start", "initial"):
        return Position.initial()
    return Position.from_id(text)


def _dice(text):
    """``"64"``, ``"6-4"``, ``"6,4"`` or ``"6 4"`` -> (6, 4)."""
    digits = [c for c in text if not c.isspace() and c not in "-,/x:"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise argparse.ArgumentTypeError(
            f"dice {text!r}: expected two dice 1..6 such as 64 or 6-4")
    return int(digits[0]), int(digits[1])


def _rules(text):
    """``"classic"`` or ``"head_rule=generalized scoring=extended"`` -> Rules."""
    from nardy_fast.core.rules import Rules

    try:
        return Rules.from_text(text)
    except (ValueError, TypeError) as e:
        raise argparse.ArgumentTypeError(f"--rules: {e}") from None


def _add_rules(p):
    p.add_argument("--rules", type=_rules, default=None, metavar="SPEC",
                   help="rule variants: 'classic' (default) or name=value pairs, e.g. "
                        "'head_rule=generalized scoring=extended'")


def _add_rollout_opts(p, games):
    p.add_argument("-n", "--games", type=positive_int, default=games,
                   help=f"games per rollout (default {games})")
    p.add_argument("--policy", default="net",
                   choices=list(POLICY_NAMES),
                   help="rollout policy of both sides: the evaluator at 0-ply (default "
                        "'net'), at 1-ply ('net:1'), 'greedy' or 'random'")
    p.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    p.add_argument("--workers", type=positive_int, default=None,
                   help="worker processes (default: the rollout's own choice)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="address of a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--truncate", default="bearoff", choices=["bearoff", "none"],
                   help="'bearoff' (default): stop a game once both sides are home and "
                        "score the rest exactly; 'none': play every game out")


def _client(address):
    if not address:
        return None
    try:
        from dask.distributed import Client
    except ImportError:
        raise CliError("--scheduler needs dask.distributed: pip install 'nardy_fast[dask]'") \
            from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise CliError(f"--scheduler {address}: cannot connect ({e})") from None


def _truncate(args):
    return None if args.truncate == "none" else args.truncate
