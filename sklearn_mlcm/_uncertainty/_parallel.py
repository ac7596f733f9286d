"""Threads for the resampling, which NumPy does without holding the GIL.

``n_jobs`` means what it means in scikit-learn (None: one, unless inside
:func:`joblib.parallel_config`; -1: every processor), capped at the number of
processors. The work is cut into a few contiguous ranges per thread, so that
an interrupt or an error cancels what has not started and waits only for
the ranges under way. The threads are a
:class:`concurrent.futures.ThreadPoolExecutor`, not joblib's threading
backend, whose pool costs about 12 ms a call (measured), as much as the
resampling of a small test set; each range runs in a copy of the caller's
context (context variables such as NumPy 2's error state and the public
call's name). The results never depend on ``n_jobs``: the callers draw every
chunk of resamples from its own stream.
"""

import contextvars
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral

import numpy as np
from joblib import cpu_count, effective_n_jobs

from sklearn_mlcm._param_validation import Interval

__all__ = ["N_JOBS", "n_workers", "run_ranges"]

#: The constraint of every ``n_jobs``: scikit-learn's, without the 0 that
#: joblib refuses later with a message of its own.
N_JOBS = [
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, None, closed="left"),
    None,
]

#: Ranges per thread: short enough that an interrupt waits for little.
RANGES_PER_WORKER = 4


def n_workers(n_jobs):
    """The threads ``n_jobs`` asks for, at most one per processor."""
    return max(1, min(effective_n_jobs(n_jobs), cpu_count()))


def run_ranges(func, n_items, n_jobs):
    """Call ``func(start, stop)`` on contiguous ranges covering
    ``range(n_items)`` in ``n_workers(n_jobs)`` threads (all of it at once in
    the calling thread with one). The first exception of a range (or an
    interrupt of the caller) cancels the ranges not started and is raised
    once the ranges under way have returned."""
    workers = min(n_workers(n_jobs), n_items)
    if workers <= 1:
        func(0, n_items)
        return
    n_ranges = min(n_items, RANGES_PER_WORKER * workers)
    edges = np.linspace(0, n_items, n_ranges + 1).round().astype(int)
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [
            pool.submit(contextvars.copy_context().run, func, int(start), int(stop))
            for start, stop in zip(edges[:-1], edges[1:])
        ]
        for future in futures:
            future.result()  # re-raises a range's exception here
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
