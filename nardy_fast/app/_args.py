"""What the front ends' parsers share (``cli``, ``cli_engine``, ``demo``): argument types,
the common options, the one-line error, JSON output, the Dask client of
``--scheduler`` and SIGTERM taken as Ctrl-C."""
import argparse
import contextlib
import json
import math
import os
import re
import signal
import tempfile
import threading

from nardy_fast._utils.scheduler import connect
from nardy_fast.app.duel import DEFAULT_TIMEOUT
from nardy_fast.core._checks import check_dice
from nardy_fast.core.matchrules import MAX_LENGTH, MatchRules, MatchState
from nardy_fast.core.position import Position
from nardy_fast.core.rules import Rules
from nardy_fast.engine.play.policy import NAMES as POLICY_NAMES
from nardy_fast.engine.play.settings import MAX_GAMES
from nardy_fast.tables.race12 import cached_race12

# The deepest look-ahead the front ends offer (--plies, the engine protocol's option):
# 0 (the net itself) .. 2.  The API goes one deeper (engine._search.MAX_SEARCH_PLIES), too
# slow for an interactive answer.
DEEPEST_PLIES = 2
PLIES_CHOICES = list(range(DEEPEST_PLIES + 1))


def widths(text):
    """``"64,32"`` -> (64, 32) (layer widths); ``"0"`` or ``""`` -> (); anything else is
    an ``argparse.ArgumentTypeError``."""
    if text.strip() in ("", "0"):
        return ()
    try:
        return tuple(positive_int(t) for t in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected widths like 64,32, or 0") \
            from None


def int_in(lo, hi=None, what=None):
    """An argparse type: an integer in ``lo..hi`` (``hi`` None: any size from ``lo``),
    called ``what`` in its refusal (default ``"an integer lo..hi"``)."""
    what = what or (f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}")

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected {what}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{text}: expected {what}")
        return value
    parse.__name__ = what
    return parse


def path_name(text):
    """An argparse type: a file or folder name, as given; an empty one (``-o "$OUT"`` with
    ``OUT`` unset) is refused naming the option, before any work.  It was taken as no
    file (nothing written: ``show --png``, ``analyse --html``), or failed after the work
    (``play -o`` lost the game's record, ``train -o`` the net) in words naming neither."""
    if not text:
        raise argparse.ArgumentTypeError("'': an empty name; expected a file or folder name")
    return text


path_name.__name__ = "a file or folder name"

# ``"12"`` -> 12, an integer >= 1 (counts, sizes, workers)
positive_int = int_in(1, what="a positive integer")
# a random seed: an integer >= 0, of any size (as the API takes it)
seed = int_in(0)


def step_size(text):
    """An argparse type: a learning rate, a finite number >= 0 (0 leaves the net as it
    is): ``nan``, ``inf`` and negatives are refused before any work, not trained into a
    net that cannot load."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number >= 0") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"{text}: expected a finite number >= 0")
    return value


step_size.__name__ = "a number >= 0"


def in_option_words(message, options):
    """A library's refusal said in a command's words: each ``keyword=value`` (or
    ``keyword = value``) of ``message`` whose keyword ``options`` maps to an option
    (``{"n_games": "-n/--games"}``) becomes ``option value``."""
    return re.sub(r"\b(" + "|".join(map(re.escape, options)) + r") ?= ?",
                  lambda m: options[m.group(1)] + " ", message)


# a match's length, 1..MAX_LENGTH points (--length of every command that takes one)
match_length = int_in(1, MAX_LENGTH)


class CliError(Exception):
    """An error reported as one line on stderr."""


class Interrupted(Exception):
    """Ctrl-C, after the work kept was reported: ``nardy-fast: interrupted: <message>`` on
    stderr and exit status 130."""


SIGTERM_STATUS = 128 + 15      # the shell's status of a job stopped by SIGTERM
# what a value under cube rules is, in the commands' headings (rule book 7a)
CUBE_AWARE_WORDS = ("cube-aware rollouts (the rules' cube in play): the equity is cubeful, "
                    "per unit of the starting stake, and a pass counts as a win of the "
                    "doubler")
CUBELESS_WORDS = ("the equity is cubeless: the game without the cube, each win counted "
                  "once (rule book 7a)")


class _Stop:
    terminated = False


class _Terminated(KeyboardInterrupt):
    """SIGTERM, taken the way Ctrl-C is."""


@contextlib.contextmanager
def sigterm_as_ctrl_c():
    """While a command runs, SIGTERM (a batch scheduler's stop, ``timeout``, ``kill``) acts
    as Ctrl-C: ``KeyboardInterrupt`` where the program is, so every long command keeps and
    reports what it finished, and the status is 143 instead of 130.  Later SIGTERMs while
    it finishes are ignored.  A library function that runs several rollouts stops at a
    cut one (``engine.play.rollout.stop_if_interrupted``), so no answer resting on cut
    rollouts is shown or written.  Installed only in the main thread (signals reach no
    other)."""
    stop = _Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_sigterm(signum, frame):
        if not stop.terminated:
            stop.terminated = True
            raise _Terminated()

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)


def plain(text):
    """A docstring as ``--help`` shows it: reStructuredText's double back-quotes dropped,
    its lines joined into one paragraph (``--help`` refills it anyway; the documentation's
    page of the parser would read an indented line as a new block)."""
    return None if text is None else " ".join(re.sub(r"``([^`]*)``", r"\1", text).split())


def _finite(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item) and getattr(obj, "ndim", 1) == 0:
        return _finite(obj.item())                 # numpy scalars
    return obj


def json_text(obj, indent=1):
    """The one JSON layout of every command: ``indent`` 1 (``None``: one line, as each
    line of ``rollout --json``), UTF-8 text, slashes unescaped, NaN and infinities as
    ``null``, numpy scalars as numbers.  A frame is printed as its list of records."""
    if hasattr(obj, "to_dict") and hasattr(obj, "columns"):
        obj = obj.to_dict(orient="records")
    return json.dumps(_finite(obj), indent=indent, ensure_ascii=False, allow_nan=False,
                      default=str)


def out_folder(path, option="-o/--out"):
    """Make the output folder ``path`` of ``option`` (if missing); True if it was made.
    A ``CliError`` naming the option when it cannot be (a file of that name, no right)."""
    if os.path.isdir(path):
        return False
    if os.path.exists(path):
        raise CliError(f"{option} {path}: a file, not a folder")
    try:
        os.makedirs(path)
    except OSError as e:
        raise CliError(f"{option} {path}: cannot make the folder ({e.strerror or e})") \
            from None
    return True


def earlier_files(folder, pattern, force, what, option="-o/--out"):
    """The files of ``folder`` whose names match ``pattern`` (a regular expression): those
    a command writes there, left by an earlier run.  Some and no ``force``: a
    ``CliError`` naming them (a second run would replace some and leave the others
    beside them, two runs' files that disagree); with ``force`` they are returned, for
    the command to remove those it does not write again.  A folder not there: none."""
    if not os.path.isdir(folder):
        return []
    old = sorted(f for f in os.listdir(folder) if re.fullmatch(pattern, f))
    if old and not force:
        raise CliError(f"{option} {folder}: holds {len(old)} file(s) of an earlier {what} "
                       f"({', '.join(old[:3])}{', ...' if len(old) > 3 else ''}); --force "
                       "replaces them, or name another folder")
    return old


def remove_stale(folder, old, written):
    """Remove the files ``old`` (``earlier_files``) of ``folder`` that this run did not
    write again (``written``: paths), so that the folder holds one run's files."""
    kept = {os.path.basename(w) for w in written}
    for name in old:
        if name not in kept:
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(folder, name))


def new_file(path, force, option="-o/--out", what=None):
    """``path`` if a file may be written there: not a folder, and not an existing file
    unless ``force`` (the ``--force`` of ``add_options(..., "force")``); else a
    ``CliError`` naming ``option`` (``what``: a guess at what the file holds)."""
    if os.path.isdir(path):
        raise CliError(f"{option} {path}: a folder, not a file")
    if os.path.exists(path) and not force:
        raise CliError(f"{option} {path}: exists" + (f" ({what})" if what else "")
                       + "; --force replaces it, or name another file")
    _check_writable(path, option)
    return path


def log_file(path, option="--log"):
    """``path`` if a log may be appended to it: not a folder, in a folder that is there
    and takes files; else a ``CliError`` naming ``option``, before the work (it failed
    after it, as a bare OSError)."""
    if path is None:
        return None
    if os.path.isdir(path):
        raise CliError(f"{option} {path}: a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(f"{option} {path}: no such folder {folder}")
    _check_writable(path, option)
    return path


def _check_writable(path, option):
    """A ``CliError`` naming ``option`` now, before the work, when no file can be made
    in ``path``'s folder (it failed after a whole analysis, naming a temporary file).  A
    folder not there yet is made when the file is written, and not tried here, unless a
    file stands where one of its folders would be made."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        above = os.path.dirname(path)   # the nearest part of the path there, as given
        while above and not os.path.exists(above) and os.path.dirname(above) != above:
            above = os.path.dirname(above)
        if above and os.path.exists(above) and not os.path.isdir(above):
            raise CliError(f"{option} {path}: {above} is a file, not a folder")
        return
    try:
        fd, probe = tempfile.mkstemp(prefix=".nardy-fast-probe-", dir=folder)
    except OSError as e:
        raise CliError(f"{option} {path}: cannot write in {folder} "
                       f"({e.strerror or e})") from None
    os.close(fd)
    os.unlink(probe)


def picture_format(path, option):
    """``path``'s picture format (its extension, ``png`` when it has none), if matplotlib
    writes it; else a ``CliError`` naming ``option`` and the formats it could write."""
    ext = os.path.splitext(os.fspath(path))[1].lstrip(".").lower() or "png"
    import matplotlib.figure    # lazy: matplotlib is slow to import, and only pictures need it
    formats = matplotlib.figure.Figure().canvas.get_supported_filetypes()
    if ext not in formats:
        raise CliError(f"{option} {path}: not a picture format matplotlib writes (.{ext}); "
                       f"expected one of {', '.join('.' + f for f in sorted(formats))}")
    return ext


def in_file(path, option):
    """``path`` if it is a readable file, else a ``CliError`` naming ``option``."""
    if not os.path.exists(path):
        raise CliError(f"{option} {path}: no such file")
    if os.path.isdir(path):
        raise CliError(f"{option} {path}: a folder, not a file")
    if not os.access(path, os.R_OK):
        raise CliError(f"{option} {path}: not readable (permission denied)")
    return path


def read_text(path, size=-1):
    """The text of the UTF-8 file ``path`` (its first ``size`` characters; -1: all; a
    byte-order mark, as some editors write, dropped); a ``CliError`` naming the file when
    it is not UTF-8 text."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read(size)
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not a UTF-8 text file ({e.reason})") from None


# -- argument helpers --------------------------------------------------------------------
def _position(text):
    if text in ("start", "initial"):
        return Position.initial()
    return Position.from_id(text)


def start_position(text, option="--start"):
    """The position of ``option`` a game is played from (``play``, ``duel``): an ID or
    'start'; a bad ID or a finished game (nothing to play; a game record's start, Black's
    last turn under draw_rule included, is one both sides play from) is a ``CliError``
    naming the option."""
    try:
        pos = _position(text)
    except ValueError as e:
        raise CliError(f"{option}: {e}") from None
    if pos.is_over():
        raise CliError(f"{option} {text}: the game is over (a side has borne off every "
                       "checker): no game to play from there")
    return pos


def _dice(text):
    """``"64"``, ``"6-4"``, ``"6,4"`` or ``"6 4"`` -> (6, 4): the API's one parser of a
    roll (``core._checks.check_dice``), its refusal as argparse's."""
    try:
        return check_dice(text)
    except (ValueError, TypeError) as e:       # argparse names the argument itself
        raise argparse.ArgumentTypeError(str(e)) from None


def _rules(text):
    """``"classic"`` or ``"head_rule=generalized scoring=extended"`` -> Rules."""
    try:
        return Rules.from_text(text)
    except (ValueError, TypeError) as e:       # argparse names the option itself
        raise argparse.ArgumentTypeError(str(e)) from None


# The options several commands share: flags and argparse keywords; ``{default}`` in a help
# text is the default the command gives (``add_options``).
_OPTIONS = {
    "position": (("position",), dict(help="position ID, or 'start'")),
    "dice": (("dice",), dict(type=_dice, help="the roll, e.g. 64 or 6-4")),
    "games": (("-n", "--games"), dict(type=int_in(1, MAX_GAMES, "a positive integer up "
                                                         "to 2**53"), default=None,
                                      help="games per rollout (default {default})")),
    "policy": (("--policy",), dict(
        default="net", choices=list(POLICY_NAMES),
        help="rollout policy of both sides: the evaluator at 0-ply (default 'net'), at "
             "1-ply ('net:1'), 'greedy' or 'random'")),
    "seed": (("--seed",), dict(type=seed, default=2026, help="random seed (default {default})")),
    "workers": (("--workers",), dict(type=positive_int, default=None,
                                     help="worker processes (default: every usable core)")),
    "scheduler": (("--scheduler",), dict(default=None, metavar="ADDRESS",
                                         help="address of a Dask scheduler, e.g. "
                                              "tcp://host:8786")),
    "truncate": (("--truncate",), dict(
        default="bearoff", choices=["bearoff", "race12", "none"],
        help="'bearoff' (default): stop a game once both sides are home and score the "
             "rest by the bear-off tables (exact where the two-sided table covers the "
             "race, else the one-sided approximation); 'race12': also stop at a race "
             "without contact (both sides on their last 12 points) and score it by the "
             "race database's one-sided approximation (built by 'nardy-fast bearoff "
             "build --race12'; no cube); 'none': play every game out")),
    "plies": (("--plies",), dict(type=int, default=None, choices=PLIES_CHOICES,
                                 action="store_given",
                                 help="the evaluator's look-ahead: 0 (the net itself, about "
                                      "1 ms a position) to 2 (more accurate, about 0.06 s); "
                                      "default {default} (2 for a single decision: hint, "
                                      "cube, play; 0 for bulk work: analyse, study)")),
    "rules": (("--rules",), dict(type=_rules, default=None, metavar="SPEC",
                                 help="rule variants: 'classic' (default) or name=value "
                                      "pairs, e.g. 'head_rule=generalized "
                                      "scoring=extended'")),
    "json": (("--json",), dict(action="store_true", help="print JSON")),
    "force": (("--force",), dict(action="store_true",
                                 help="replace an existing -o/--out file")),
    "timeout": (("--timeout",), dict(type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                                     help="seconds each answer of an engine may take; one "
                                          "silent longer has hung and forfeits (default "
                                          "{default:g})")),
}


def check_timeout(seconds):
    """The ``--timeout`` of ``add_options(..., "timeout")``: ``CliError`` unless a positive
    number of seconds that a wait takes (``threading.TIMEOUT_MAX``: a longer one was an
    OverflowError's traceback at the first answer awaited)."""
    if not 0 < seconds <= threading.TIMEOUT_MAX:
        raise CliError(f"--timeout {seconds:g}: expected a positive number of seconds "
                       f"(at most {threading.TIMEOUT_MAX:g}, the longest wait here)")
    return seconds


class _StoreGiven(argparse._StoreAction):
    """``store``, and the option's ``dest`` noted in the namespace's ``given_options``: an
    option whose default is a value (``--plies`` of ``hint``: 2) can still be told given
    from not given (``was_given``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        super().__call__(parser, namespace, values, option_string)
        namespace.given_options = getattr(namespace, "given_options", set()) | {self.dest}


def was_given(args, name):
    """Whether the option of ``dest`` ``name`` (one of ``action="store_given"``) was on
    the command line, whatever its value."""
    return name in getattr(args, "given_options", set())


def add_options(p, *names, **defaults):
    """Add the shared options ``names`` (keys of ``_OPTIONS``) to the parser ``p``, in
    order; ``defaults`` (``seed=None``, ``games=500``, ...) replace theirs."""
    p.register("action", "store_given", _StoreGiven)
    for name in names:
        flags, kw = _OPTIONS[name]
        kw = {**kw, **({"default": defaults[name]} if name in defaults else {})}
        if "help" in kw:
            default = kw.get("default")
            kw["help"] = kw["help"].format(default="none: random" if default is None
                                           else default)
        p.add_argument(*flags, **kw)


def add_command(sub, name, func, help, **kw):
    """The parser of the subcommand ``name``, run by ``func``, whose docstring is its
    ``--help`` description; ``help=None`` leaves it out of the list of commands."""
    if help is not None:
        kw["help"] = help
    s = sub.add_parser(name, description=plain(func.__doc__), **kw)
    s.set_defaults(func=func)
    return s


def add_progress(p):
    """``--progress`` / ``--no-progress`` (default None: when stderr is a terminal)."""
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="show a progress bar (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false")


def add_rollout_options(p, games):
    """The options of the commands that roll out: ``--games`` (default ``games``),
    ``--policy``, ``--seed``, ``--workers``, ``--scheduler``, ``--truncate``."""
    add_options(p, "games", "policy", "seed", "workers", "scheduler", "truncate",
                games=games)


def _score(text):
    """``"2-3"`` (or ``"2:3"``, ``"2,3"``, ``"2 3"``; halves as ``"1.5-0"``) -> (2.0, 3.0):
    White's points, then Black's."""
    parts = re.split(r"\s*[-:, ]\s*", text.strip())
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected White's points, then "
                                         "Black's, as '2-3'") from None


def given(args, flags):
    """The options of ``flags`` (``{dest: flag}``) given on the command line: those whose
    value is not None, the default such a parser sets for "not given" (``analyse``,
    ``study`` and ``report`` name the rollout options given where they have no effect)."""
    return [flag for name, flag in flags.items() if getattr(args, name, None) is not None]


ROLLOUT_FLAGS = {"games": "-n/--games", "policy": "--policy", "seed": "--seed",
                 "truncate": "--truncate"}     # the options of rollouts alone


def rollout_defaults(args, games):
    """Give the rollout options not given (None: ``given``) their defaults: ``games`` for
    ``--games``, the shared options' own (``_OPTIONS``) for the others."""
    for name in ROLLOUT_FLAGS:                  # those the command has
        if hasattr(args, name) and getattr(args, name) is None:
            setattr(args, name, games if name == "games" else _OPTIONS[name][1]["default"])


def add_match_options(p, cube_flag=False):
    """``--length``, ``--score``, ``--crawford`` and ``--crawford-game`` (and, with
    ``cube_flag``, ``--cube``): a decision at the score of a match (``match_state``;
    default: money play)."""
    g = p.add_argument_group("at a match score (default: money play)")
    g.add_argument("--length", type=match_length, default=None, metavar="N",
                   help="decide at the score of a match to N points")
    g.add_argument("--score", type=_score, default=None, metavar="W-B",
                   help="the points of White, then Black, e.g. 2-3 (default 0-0)")
    if cube_flag:
        g.add_argument("--cube", action="store_true",
                       help="the match is played with the cube (geometric, centred at 1)")
    g.add_argument("--crawford", action="store_true",
                   help="the match plays the Crawford rule (as 'met' and 'matches')")
    g.add_argument("--crawford-game", action="store_true",
                   help="this game is the Crawford game: a side is one point away and no "
                        "one may double (implies --crawford)")


def match_rules(args, rules):
    """The ``MatchRules`` of ``--length`` and ``--crawford`` (or ``--crawford-game``, where
    the command has it: a Crawford game implies the rule) under ``rules``; the Crawford rule
    without a cube is a ``CliError`` naming the option given."""
    game = getattr(args, "crawford_game", False)
    crawford = args.crawford or game
    if crawford and rules.cube is None:
        raise CliError(f"{'--crawford-game' if game else '--crawford'}: the Crawford rule "
                       "is a rule of the cube; add --cube")
    return MatchRules(length=args.length, crawford=crawford, rules=rules)


def match_state(args, position, rules, cube=None):
    """The ``MatchState`` of ``add_match_options``' options for ``position`` (its side on
    roll), under ``rules`` (with the cube for ``cube``), or None without ``--length``; a
    ``CliError`` naming the option that does not fit."""
    given = [option for option, on in (("--score", args.score is not None),
                                       ("--cube", getattr(args, "cube", False)),
                                       ("--crawford", args.crawford),
                                       ("--crawford-game", args.crawford_game)) if on]
    if args.length is None:
        if given:
            raise CliError(f"{given[0]}: a match score needs the match's length: add "
                           "--length N")
        return None
    score = (0.0, 0.0) if args.score is None else args.score
    try:
        mr = match_rules(args, rules)
        return MatchState(length=mr, score=score, on_roll=position.side,
                          crawford=args.crawford_game, cube=cube)
    except (ValueError, TypeError) as e:
        text = str(e)
        option = ("--crawford-game" if text.startswith("crawford")
                  else "--stake/--owner" if text.startswith("cube")
                  else "--rules" if text.startswith("rules: ") else "--score")
        text = text.removeprefix("score: ").removeprefix("rules: ")   # "--score: white=5"
        raise CliError(f"{option}: {text} (--length {args.length})") from None


def _client(address):
    if address is None:
        return None
    if not address.strip():   # an unset variable ("$SCHEDULER"): not quietly run locally
        raise CliError(f"--scheduler {address!r}: no address; give the Dask scheduler's, "
                       "e.g. tcp://host:8786, or leave the option out to run locally")
    try:
        # lazy: dask is optional (a cluster run) and slow to import
        import dask.distributed  # noqa: F401
    except ImportError:
        raise CliError("--scheduler needs dask.distributed: pip install 'nardy_fast[dask]'") \
            from None
    try:
        return connect(address)
    except ConnectionError as e:          # "scheduler ADDRESS: ...", named as the option
        raise CliError(f"--{e}") from None


def close_client(client):
    """Close the client of ``--scheduler`` (None: nothing to close).  A client that lost
    its scheduler is still trying to reconnect, and closing it cancels the attempt, which
    Dask logs as an error with two tracebacks; the command says in one line what happened
    (``engine.play.parallel``), so that log is left out."""
    if client is None:
        return
    import logging                        # lazy: only --scheduler has a client to close
    log = logging.getLogger("distributed.client")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        client.close()
    finally:
        log.setLevel(level)


def _truncate(args):
    """The rollouts' ``truncate`` of --truncate (None for 'none'); 'race12' needs the race
    database, a ``CliError`` saying how to build it when it has not been."""
    if args.truncate == "race12":
        if cached_race12() is None:
            raise CliError("--truncate race12: the race database has not been built; "
                           "build it once with 'nardy-fast bearoff build --race12'")
    return None if args.truncate == "none" else args.truncate
