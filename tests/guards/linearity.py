"""Measuring how a judge's work grows with its input: the guards' linearity tests share it.

Each test compares the cost of an input with that of one ten times larger (a ratio in one run,
never a time threshold): about ten means linear, about a hundred quadratic.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def best_cost(judge: Callable[[str], object], text: str, runs: int = 5) -> float:
    """The best of ``runs`` runs, without the garbage collector: the least disturbed by other work.

    Measured in this thread's CPU time, not wall time: on a loaded machine the time a run spends
    waiting for a CPU is not its work (wall time made these ratios flake under load).
    """
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            started = time.thread_time()
            judge(text)
            best = min(best, time.thread_time() - started)
    finally:
        gc.enable()
    return best


def cost_ratio(judge: Callable[[str], object], small: str, large: str, runs: int = 5) -> float:
    """How many times ``small``'s cost ``large`` costs: about ten for ten times the input when linear.

    ``small`` is judged once first, so that imports and the parser's caches are not counted.
    """
    judge(small)
    return best_cost(judge, large, runs) / max(best_cost(judge, small, runs), 1e-6)
