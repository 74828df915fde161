"""The engine protocol: ``nardy-fast engine`` answers a line protocol on stdin/stdout.

A program that plays long nardy (a duel runner, a graphical front end, another engine's
tester) starts ``nardy-fast engine`` and talks to it in lines of text, in the spirit of the
UCI protocol of chess engines and UBGI of backgammon engines.  The specification, with a
transcript, is the documentation page ``docs/engine-protocol.md``; in short (``->`` is the
engine's answer)::

    nardy                     -> id name nardy-fast / id version X.Y.Z / nardyok
    isready                   -> readyok
    setoption name plies value 0          the look-ahead, 0..2 (default 2)
    setoption name rules value classic    rule variants, as --rules
    setoption name match value 5 2 1      a match to 5, White 2, Black 1 ('money': none)
    setoption name cube value 2 white     the stake and who may raise (centre|white|black)
    position start | position <ID>
    dice <d1> <d2>
    go                        -> bestmove 1/7 7/12      (the record notation; 'pass')
    eval                      -> eval p_win=0.612 p_mars_win=0.021 equity=+0.245
                                 (p_draw= under draw_rule; mwc=, emg= at a match score)
    cube                      -> cube action=no-double/take nd=+0.52 dt=+0.35 dp=+1.00
    quit

A line the engine cannot parse or act on gets one ``error <what and why>`` line and the
engine goes on serving; the end of the input ends it as ``quit`` does.  Every reply is
flushed at once.  ``serve`` is the loop; ``cmd_engine`` of ``cli_engine`` runs it on the
process's standard streams.
"""
from __future__ import annotations

import math

from nardy_fast.app._args import DEEPEST_PLIES, _position
from nardy_fast.core._checks import check_dice, check_plies
from nardy_fast._utils._version import __version__
from nardy_fast.core.cubestate import CubeState
from nardy_fast.core.matchrules import MatchRules, MatchState
from nardy_fast.core.position import Position
from nardy_fast.core.rules import Rules, as_rules
from nardy_fast.engine.decisions.cube import cube_decision, cube_rules
from nardy_fast.engine.evaluation.evaluator import DECISION_PLIES, Evaluator
from nardy_fast.engine.evaluation.met import solver_for

__all__ = ["Engine", "serve", "ENGINE_NAME", "DEEPEST_PLIES", "COMMANDS", "OPTIONS",
           "LONGEST_LINE", "cube_action_token"]

ENGINE_NAME = "nardy-fast"
COMMANDS = ("nardy", "isready", "setoption", "position", "dice", "go", "eval", "cube",
            "quit")
OPTIONS = ("plies", "rules", "match", "cube")
LONGEST_LINE = 4096         # characters of a command line, spaces at its ends aside
_OWNERS = ("centre", "white", "black")
_MONEY = ("money", "off", "none", "0")


class ProtocolError(ValueError):
    """A line the engine refuses: its text is the ``error`` line's (without ``error``)."""


def cube_action_token(action: str) -> str:
    """A cube decision's ``action`` (``"no double, take"``, ``cube.actions``) as one
    token of the protocol: words joined by ``-``, the two sides' actions by ``/``
    (``"no-double/take"``, ``"double/pass"``, ``"too-good/pass"``, ``"no-raise"``)."""
    return "/".join(part.strip().replace(" ", "-") for part in action.split(","))


def _num(v, signed=False):
    """A value of a reply: 6 decimals (``+`` before an equity), ``none`` when the value
    does not exist (NaN: a raise the side may not make)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "none"
    return f"{v:+.6f}" if signed else f"{v:.6f}"


class Engine:
    """The state of one protocol session and its answers.

    Parameters
    ----------
    plies : int
        The evaluator's look-ahead (0..2; default 2, as ``hint``).
    rules : Rules, str or None
        The rule variants (None: classic).

    Attributes
    ----------
    position : Position
        The position set by ``position`` (the start until then).
    dice : tuple of int or None
        The roll set by ``dice``; kept until the next ``dice`` command.
    """

    def __init__(self, *, plies: int = DECISION_PLIES, rules=None):
        self.plies = self._plies(str(plies))
        self.rules = as_rules(rules)
        self.position = Position.initial()
        self.dice = None
        self.match = None               # (length, white, black, crawford) or None: money
        self.cube = (1, "centre")       # stake, owner colour
        self.done = False

    # -- the loop's step ---------------------------------------------------------------
    def handle(self, line: str) -> list[str]:
        """The reply lines to ``line`` (none for a setting, an empty or comment line);
        an ``error ...`` line for a line refused."""
        n = len(line.strip())
        if n > LONGEST_LINE:            # refused whole: its error does not repeat it
            return [_error(f"line too long: {n} characters; a command is at most "
                           f"{LONGEST_LINE}")]
        words = line.split()
        if not words or words[0].startswith("#"):
            return []
        cmd, args = words[0], words[1:]
        if cmd not in COMMANDS:
            return [_error(f"unknown command {cmd!r}: expected one of "
                           + ", ".join(COMMANDS))]
        try:
            return getattr(self, f"_cmd_{cmd}")(args)
        except (ValueError, TypeError) as e:       # ProtocolError and the API's refusals
            return [_error(f"{cmd}: {e}")]

    # -- commands ----------------------------------------------------------------------
    def _cmd_nardy(self, args):
        _no_args(args)
        return [f"id name {ENGINE_NAME}", f"id version {__version__}", "nardyok"]

    def _cmd_isready(self, args):
        _no_args(args)
        self.evaluator()                # loaded now, not at the first 'go'
        return ["readyok"]

    def _cmd_quit(self, args):
        _no_args(args)
        self.done = True
        return []

    def _cmd_setoption(self, args):
        if len(args) < 3 or args[0] != "name" or "value" not in args[2:]:
            raise ProtocolError("expected 'setoption name <name> value <value>'")
        k = args.index("value", 2)
        name = " ".join(args[1:k]).lower()
        value = " ".join(args[k + 1:])
        if name not in OPTIONS:
            raise ProtocolError(f"unknown option {name!r}: expected one of "
                                + ", ".join(OPTIONS))
        if not value:
            raise ProtocolError(f"option {name}: no value")
        getattr(self, f"_set_{name}")(value)
        return []

    def _set_plies(self, value):
        self.plies = self._plies(value)

    @staticmethod
    def _plies(value):
        try:
            n = int(value)
        except ValueError:
            n = value
        try:
            return check_plies(n, DEEPEST_PLIES)
        except (TypeError, ValueError):
            raise ProtocolError(f"plies {n!r}: expected an integer 0..{DEEPEST_PLIES}") \
                from None

    def _set_rules(self, value):
        rules = Rules.from_text(value)
        if self.match is not None:       # the score must still fit the new rules' unit
            _playable_match(self.match, rules)
        if self.cube != (1, "centre"):   # and the stake set their cube's progression
            stake, owner = self.cube
            try:
                CubeState(stake).check(cube_rules(rules))
                if self.match is not None:
                    _check_cube_at(self.match, self.cube, rules)
            except ValueError as e:
                raise ProtocolError(f"rules {value!r}: the cube set ({stake} {owner}): "
                                    f"{e}") from None
        self.rules = rules

    def _set_match(self, value):
        words = value.split()
        if len(words) == 1 and words[0].lower() in _MONEY:
            self.match = None
            return
        crawford = len(words) == 4 and words[3].lower() == "crawford"
        if len(words) != 3 + crawford:
            raise ProtocolError(f"match {value!r}: expected '<length> <white points> <black "
                                "points>' with 'crawford' after them in the Crawford game, "
                                "or 'money'")
        try:
            length = int(words[0])
            white, black = (float(w) for w in words[1:3])
        except ValueError:
            raise ProtocolError(f"match {value!r}: the length and the points must be "
                                "numbers") from None
        match = (length, white, black, crawford)
        _playable_match(match, self.rules)                 # checked now, refused by name
        _check_cube_at(match, self.cube, self.rules)
        self.match = match

    def _set_cube(self, value):
        words = value.split()
        if len(words) != 2 or words[1].lower() not in _OWNERS:
            raise ProtocolError(f"cube {value!r}: expected '<stake> <owner>', the owner one "
                                "of " + ", ".join(_OWNERS))
        try:
            stake = int(words[0])
        except ValueError:
            raise ProtocolError(f"cube {value!r}: the stake must be an integer") from None
        CubeState(stake).check(cube_rules(self.rules))
        cube = (stake, words[1].lower())
        if self.match is not None:
            _check_cube_at(self.match, cube, self.rules)
        self.cube = cube

    def _cmd_position(self, args):
        if len(args) != 1:
            raise ProtocolError("expected 'position start' or 'position <ID>'")
        self.position = _position(args[0])       # an ID, 'start' (as the commands')
        return []

    def _cmd_dice(self, args):
        if not args:
            raise ProtocolError("expected 'dice <d1> <d2>'")
        self.dice = check_dice(" ".join(args))
        return []

    def _cmd_go(self, args):
        _no_args(args)
        pos = self._live()
        if self.dice is None:
            raise ProtocolError("no dice: send 'dice <d1> <d2>' first")
        move = self.evaluator().best_move(pos, self.dice, plies=self.plies,
                                          match=self._match_state(pos))
        return [f"bestmove {move}"]

    def _cmd_eval(self, args):
        _no_args(args)
        pos = self.position
        state = self._match_state(pos)
        o = self.evaluator().evaluate(pos, plies=self.plies, match=state)
        out = (f"eval p_win={_num(o.p_win)} p_mars_win={_num(o.p_mars_win)} "
               f"equity={_num(o.equity, True)}")
        if self.rules.draw_rule:            # a draw is neither a win nor a loss
            out += f" p_draw={_num(o.p_draw)}"
        if state is not None:
            out += f" mwc={_num(o.extra['mwc'])} emg={_num(o.extra['emg'], True)}"
        return [out]

    def _cmd_cube(self, args):
        _no_args(args)
        pos = self._live()
        rules = cube_rules(self.rules)
        cube = self._cube_state(pos)
        if self.match is None:
            d = cube_decision(pos, cube, rules=rules, plies=self.plies)
        else:
            d = cube_decision(pos, cube, plies=self.plies,
                              match=_state(self.match, rules, pos.side, cube))
        return [f"cube action={cube_action_token(d['action'])} "
                f"nd={_num(d['no_double'], True)} dt={_num(d['double_take'], True)} "
                f"dp={_num(d['double_pass'], True)}"]

    # -- helpers -----------------------------------------------------------------------
    def evaluator(self) -> Evaluator:
        """The shipped evaluator of the session's rules (loaded once per process)."""
        return Evaluator.default(None if self.rules == as_rules(None) else self.rules)

    def _live(self):
        if self.position.is_over(self.rules):   # Black's last turn (draw_rule) is played
            raise ProtocolError(f"the game of position {self.position.id} is over")
        return self.position

    def _cube_state(self, pos):
        stake, owner = self.cube
        view = "centre" if owner == "centre" else ("mover" if owner == pos.side
                                                   else "opponent")
        return CubeState(stake, view, pos.is_first_turn())

    def _match_state(self, pos):
        """The match score of a move or an evaluation (None: money play); the cube is
        part of it only when the rules have one."""
        if self.match is None:
            return None
        cube = self._cube_state(pos) if self.rules.cube is not None else None
        return _state(self.match, self.rules, pos.side, cube)


def _state(match, rules, on_roll, cube):
    length, white, black, crawford = match
    if crawford and rules.cube is None:
        rules = cube_rules(rules)        # the Crawford rule is a rule of the cube
    mr = MatchRules(length=length, crawford=crawford, rules=rules)
    return MatchState(mr, (white, black), on_roll, crawford, cube)


def _playable_match(match, rules):
    """Refuse a score the rules cannot have, and a match no answer can be computed at:
    the cubeful match model (a Crawford game's, a cube's) has no draws (draw_rule)."""
    state = _state(match, rules, "white", None)
    if state.rules.cube:
        try:
            solver_for(state.rules, True)
        except ValueError as e:
            game = "its Crawford game" if match[3] else "the cube"
            raise ProtocolError(f"a match to {match[0]} with {game} under the rules "
                                f"{rules.to_text()!r}: {e}") from None


def _check_cube_at(match, cube, rules):
    """Refuse a cube the match cannot have at its score (a stake beyond what either side
    needs, a cube in the Crawford game), whichever of the two options came first."""
    stake, owner = cube
    if (stake, owner) == (1, "centre"):
        return
    # which colour is on roll does not matter to these checks: let the owner be
    view = "centre" if owner == "centre" else "mover"
    try:
        _state(match, cube_rules(rules), "black" if owner == "black" else "white",
               CubeState(stake, view))
    except ValueError as e:
        raise ProtocolError(f"cube {stake} {owner} at the match score "
                            f"{match[1]:g}-{match[2]:g} to {match[0]}: {e}") from None


def _no_args(args):
    if args:
        raise ProtocolError(f"unexpected {' '.join(args)!r}: the command takes no argument")


def _error(text):
    """One ``error`` line: the text on one line."""
    return "error " + " ".join(str(text).split())


def serve(inp, out, *, plies: int = DECISION_PLIES, rules=None) -> None:
    """Answer the protocol: read lines from ``inp`` until ``quit`` or its end, write the
    replies to ``out``, flushed after each command's reply."""
    engine = Engine(plies=plies, rules=rules)
    while not engine.done:
        line = inp.readline()
        if not line:                    # the end of the input: as 'quit'
            break
        replies = engine.handle(line)
        if replies:
            out.write("".join(r + "\n" for r in replies))
            out.flush()
