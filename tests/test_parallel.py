"""The threads behind n_jobs: ranges, errors, cancelling and the caller's context."""

import contextvars
import threading
import time

import joblib
import numpy as np
import pytest

from sklearn_mlcm._uncertainty._parallel import RANGES_PER_WORKER, n_workers, run_ranges

CALLER = contextvars.ContextVar("caller", default=None)


@pytest.mark.parametrize(
    "n_jobs, n_items", [(1, 7), (2, 7), (-1, 7), (5, 3), (2, 1), (2, 100)]
)
def test_run_ranges_covers_every_item_once(n_jobs, n_items):
    """The ranges cover range(n_items) once, contiguous, a few per thread:
    one range in the calling thread with one job or one item."""
    ranges, threads = [], set()

    def work(start, stop):
        ranges.append((start, stop))
        threads.add(threading.get_ident())

    run_ranges(work, n_items, n_jobs)
    covered = np.concatenate([np.arange(start, stop) for start, stop in ranges])
    assert sorted(covered) == list(range(n_items))
    workers = min(n_workers(n_jobs), n_items)
    if workers == 1:
        assert ranges == [(0, n_items)] and threads == {threading.get_ident()}
    else:
        assert len(ranges) == min(n_items, RANGES_PER_WORKER * workers)
        assert threading.get_ident() not in threads


def test_n_workers_is_capped_at_the_processors():
    """n_jobs is scikit-learn's (None: 1, -1: every processor), never more
    threads than processors."""
    assert n_workers(None) == 1
    assert n_workers(1) == 1
    assert n_workers(-1) == joblib.cpu_count()
    assert n_workers(10**6) == joblib.cpu_count()
    assert n_workers(-(10**6)) == 1


def test_run_ranges_honours_joblib_parallel_config():
    """n_jobs=None is one thread, or parallel_config's number, as in
    scikit-learn."""
    ranges = []
    run_ranges(lambda start, stop: ranges.append(start), 10, None)
    assert ranges == [0]
    ranges.clear()
    with joblib.parallel_config(n_jobs=2):
        run_ranges(lambda start, stop: ranges.append(start), 10, None)
    assert len(ranges) == (1 if joblib.cpu_count() == 1 else 8)


def test_run_ranges_reraises_and_keeps_the_callers_context():
    """A range's exception reaches the caller; each range runs in a copy of
    the caller's context (its context variables)."""
    seen = []

    def work(start, stop):
        seen.append(CALLER.get())
        if start > 0:
            raise ValueError(f"range {start}-{stop} failed")

    token = CALLER.set("mlcm_confidence_intervals")
    try:
        with pytest.raises(ValueError, match="range 1-2 failed"):
            run_ranges(work, 4, 2)
    finally:
        CALLER.reset(token)
    assert seen and set(seen) == {"mlcm_confidence_intervals"}


@pytest.mark.skipif(joblib.cpu_count() < 2, reason="needs two processors")
def test_run_ranges_error_cancels_the_ranges_not_started():
    """After a range fails, the ranges not yet started are cancelled (not
    run to the end as one range per thread would), and no thread is left
    running when the error is raised."""
    ran = []

    def work(start, stop):
        ran.append(start)
        if start == 0:
            raise RuntimeError("the first range failed")
        time.sleep(0.5)

    before = threading.active_count()
    with pytest.raises(RuntimeError, match="the first range failed"):
        run_ranges(work, 8, 2)
    assert len(ran) < 8
    assert threading.active_count() == before
