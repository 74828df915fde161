"""Type stubs of the race tables for C and Python (``_racetables.pyx``)."""
from typing import Any

import numpy as np
import numpy.typing as npt

class RaceTables:
    @property
    def one_sided(self) -> Any: ...
    @property
    def two_sided(self) -> Any: ...
    @property
    def mars(self) -> Any: ...
    def __init__(self, one_sided: Any, two_sided: Any = None, mars: Any = None) -> None: ...
    def probabilities(self, x6: npt.ArrayLike, y6: npt.ArrayLike, draw_rule: bool = False,
                      x_first: bool = False) -> tuple[float, float, float, float, str]: ...

def race_one_sided(turns: npt.NDArray[np.float64], first_off: npt.NDArray[np.float64],
                   a: int, b: int, draw_rule: bool = False,
                   on_roll_first: bool = False) -> tuple[float, float, float, float]: ...
