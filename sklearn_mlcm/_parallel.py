"""Threads for the resampling, which NumPy does without holding the GIL.

``n_jobs`` means what it means in scikit-learn (None: one, unless inside
:func:`joblib.parallel_config`; -1: every processor), and the work is cut
into as many contiguous ranges as there are threads. The threads are a
:class:`concurrent.futures.ThreadPoolExecutor`, not joblib's threading
backend, whose pool costs about 12 ms a call (measured), as much as the
resampling of a small test set; each range runs in a copy of the caller's
context (NumPy 2's error state, the public call's name). The results never
depend on ``n_jobs``: the callers draw every chunk of resamples from its
own stream.
"""

import contextvars
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral

import numpy as np
from joblib import effective_n_jobs

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
    with ThreadPoolExecutor(max_workers=n_workers) as pool:
        futures = [
            pool.submit(contextvars.copy_context().run, func, int(start), int(stop))
            for start, stop in zip(edges[:-1], edges[1:])
        ]
    for future in futures:
        future.result()  # re-raises a range's exception here
