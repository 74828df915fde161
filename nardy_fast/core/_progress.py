"""Progress of the long builds: a tqdm bar when tqdm is installed, else a line per 10 %."""
from __future__ import annotations

import sys

__all__ = ["progress_callback"]


def progress_callback(enabled, desc):
    """A callback taking the percentage done (None closes): tqdm bar, or a line per 10%."""
    if not enabled:
        return lambda pct: None
    try:
        from tqdm.auto import tqdm
        bar = tqdm(total=100, desc=desc, unit="%", leave=False)
    except ImportError:
        bar = None
    state = {"done": 0}

    def update(pct):
        if pct is None:
            if bar is not None:
                bar.close()
            return
        pct = int(pct)
        if bar is not None:
            bar.update(pct - state["done"])
        elif pct // 10 > state["done"] // 10:
            print(f"{desc}: {pct}%", file=sys.stderr)
        state["done"] = pct
    return update
