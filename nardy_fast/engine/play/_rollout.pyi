"""Type stubs of the C game loop of rollouts (``_rollout.pyx``): the kernels
``engine.rollout`` drives (it validates their inputs; they trust them)."""
from typing import Any

import numpy as np
import numpy.typing as npt

def play_blocks(boards: npt.NDArray[np.uint8], *, rules: Any, policies: tuple[Any, Any],
                side0_white: bool, dice: tuple[int, int] | None, opening_dice: bool,
                truncate: bool, tables: Any, entropy: Any, first_block: int, n_blocks: int,
                n_games: int, block_games: int, stratify: bool = True, cube: Any = None,
                variance_reduction: Any = None, per_game: Any = None,
                filter_window: float = 0.0, race12: Any = None,
                luck_net: Any = None) -> tuple[Any, Any]: ...
def race_values(mover: npt.NDArray[np.uint8], opponent: npt.NDArray[np.uint8], *, rules: Any,
                mover_white: bool, tables: Any) -> dict[str, float]: ...
