"""Threads for the resampling, which NumPy does without holding the GIL.

``n_jobs`` means what it means in scikit-learn (None: one, unless inside
:func:`joblib.parallel_config`; -1: every core), and the work is cut into as
many contiguous ranges as there are threads, so that the few tasks cost
nothing beside the work. The results never depend on ``n_jobs``: the callers
draw every chunk of resamples from its own stream.
"""

from numbers import Integral

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils.parallel import Parallel, delayed

from ._param_validation import Interval

__all__ = ["N_JOBS", "run_ranges"]

#: The constraint of every ``n_jobs``: scikit-learn's, without the 0 that
#: joblib refuses later with a message of its own.
N_JOBS = [
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, None, closed="left"),
    None,
]


def run_ranges(func, n_items, n_jobs):
    """Call ``func(start, stop)`` on contiguous ranges covering
    ``range(n_items)``, one per thread (all of it at once with one)."""
    n_workers = min(effective_n_jobs(n_jobs), n_items)
    if n_workers <= 1:
        func(0, n_items)
        return
    edges = np.linspace(0, n_items, n_workers + 1).round().astype(int)
    Parallel(n_jobs=n_workers, require="sharedmem")(
        delayed(func)(int(start), int(stop))
        for start, stop in zip(edges[:-1], edges[1:])
    )
