"""The threads behind n_jobs: ranges, errors and the caller's context."""

import contextvars
import threading

import joblib
import numpy as np
import pytest

from sklearn_mlcm._parallel import run_ranges

CALLER = contextvars.ContextVar("caller", default=None)


@pytest.mark.parametrize("n_jobs, n_items", [(1, 7), (2, 7), (-1, 7), (5, 3), (2, 1)])
def test_run_ranges_covers_every_item_once(n_jobs, n_items):
    """The ranges cover range(n_items) once, contiguous, one per thread: one
    range (and no thread) with one job or one item."""
    ranges, threads = [], set()

    def work(start, stop):
        ranges.append((start, stop))
        threads.add(threading.get_ident())

    run_ranges(work, n_items, n_jobs)
    covered = np.concatenate([np.arange(start, stop) for start, stop in ranges])
    assert sorted(covered) == list(range(n_items))
    workers = min(joblib.effective_n_jobs(n_jobs), n_items)
    assert len(ranges) == workers
    if workers == 1:
        assert threads == {threading.get_ident()}


def test_run_ranges_honours_joblib_parallel_config():
    """n_jobs=None is one thread, or parallel_config's number, as in
    scikit-learn."""
    ranges = []
    run_ranges(lambda start, stop: ranges.append(start), 10, None)
    assert ranges == [0]
    ranges.clear()
    with joblib.parallel_config(n_jobs=2):
        run_ranges(lambda start, stop: ranges.append(start), 10, None)
    assert sorted(ranges) == [0, 5]


def test_run_ranges_reraises_and_keeps_the_callers_context():
    """A range's exception reaches the caller; each range runs in a copy of
    the caller's context (context variables, NumPy 2's error state)."""
    seen = []

    def work(start, stop):
        seen.append(CALLER.get())
        if start > 0:
            raise ValueError(f"range {start}-{stop} failed")

    token = CALLER.set("mlcm_confidence_intervals")
    try:
        with pytest.raises(ValueError, match="range 2-4 failed"):
            run_ranges(work, 4, 2)
    finally:
        CALLER.reset(token)
    assert seen == ["mlcm_confidence_intervals"] * 2
