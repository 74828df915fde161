"""Type stubs of the bear-off move generator (``_bomoves.pyx``)."""
import numpy as np
import numpy.typing as npt

def roll_successors(board6: npt.ArrayLike, d1: int, d2: int) -> npt.NDArray[np.intp]: ...

class MoveTables:
    @property
    def threads(self) -> int: ...
