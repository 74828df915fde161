"""Type stubs of the legal move generator (``_movegen.pyx``)."""
from typing import Any

import numpy as np
import numpy.typing as npt

_Board = npt.ArrayLike
_Rules = Any            # a Rules, its dict or text form, or None (classic)

def first_bad_position(boards: npt.NDArray[np.uint8]) -> int: ...
def check_position(mover: _Board, opponent: _Board) -> tuple[npt.NDArray[np.uint8],
                                                            npt.NDArray[np.uint8]]: ...
def successors(mover: _Board, opponent: _Board, d1: int | tuple[int, int],
               d2: int | _Rules | None = None, rules: _Rules = None) -> npt.NDArray[np.uint8]: ...
def successors_with_steps(mover: _Board, opponent: _Board, d1: int | tuple[int, int],
                          d2: int | _Rules | None = None, rules: _Rules = None
                          ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
def successor_counts(movers: _Board, opponents: _Board,
                     rules: _Rules = None) -> npt.NDArray[np.intp]: ...
