"""Type stubs of the one-sided bear-off solver (``_onesided.pyx``)."""
import numpy as np
import numpy.typing as npt

_F = npt.NDArray[np.float64]

def build_one_sided(max_checkers: int = 15) -> tuple[_F, _F, _F, _F]: ...
