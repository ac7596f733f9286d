"""Row blocks: the per-thread work buffers and BLAS held to one thread."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from sklearn_mlcm import mlcm_confusion_matrix
from sklearn_mlcm._mlcm._chunking import (
    _BLAS,
    Scratch,
    map_row_blocks,
    single_threaded_blas,
)


def _blas_threads():
    return [
        lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"
    ]


def test_single_threaded_blas_limits_and_restores():
    """Inside, every BLAS runs one thread; after, the original counts are back."""
    before = _blas_threads()
    assert before, "NumPy is linked to a BLAS that threadpoolctl sees"
    with single_threaded_blas():
        assert set(_blas_threads()) == {1}
        with single_threaded_blas():  # nested: still one thread
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {1}
    assert _blas_threads() == before


def test_single_threaded_blas_counts_its_users():
    """Kernels in several threads at once: the original limits come back once,
    when the last one ends (the first one in sets the limit)."""
    before = _blas_threads()
    entered = threading.Barrier(3)
    leave = threading.Event()

    def kernel():
        with single_threaded_blas():
            entered.wait()
            leave.wait()

    workers = [threading.Thread(target=kernel) for _ in range(2)]
    for worker in workers:
        worker.start()
    entered.wait()
    assert _BLAS["users"] == 2
    with single_threaded_blas():  # the main thread joins while two are inside
        assert _BLAS["users"] == 3
        leave.set()
        for worker in workers:
            worker.join()
        assert _BLAS["users"] == 1 and _BLAS["limit"] is not None
    assert _blas_threads() == before
    assert _BLAS["users"] == 0 and _BLAS["limit"] is None


def test_kernels_leave_blas_threads_as_they_were():
    """A dense weighted matrix (BLAS products) restores the BLAS threads."""
    before = _blas_threads()
    rng = np.random.default_rng(0)
    y = rng.random((5000, 6)) < 0.3
    mlcm_confusion_matrix(y, y[::-1], sample_weight=rng.random(5000))
    assert _blas_threads() == before


def test_scratch_reuses_a_buffer_per_thread_and_shape():
    """Same name, shape and dtype: the same array; a smaller one: a view of
    the larger buffer; another thread: its own."""
    scratch = Scratch()
    first = scratch.get("x", (3, 4), np.uint8)
    assert scratch.get("x", (3, 4), np.uint8) is first
    assert scratch.get("x", (3, 5), np.uint8) is not first
    assert scratch.get("x", (3, 5), np.int64).dtype == np.int64
    # a smaller ask takes the start of the larger buffer, in its own shape
    small = scratch.get("x", (2, 3), np.uint16)
    assert small.shape == (2, 3) and small.dtype == np.uint16
    assert small.flags.c_contiguous and np.shares_memory(
        small, scratch.get("x", (3, 5), np.int64)
    )
    other = []
    thread = threading.Thread(
        target=lambda: other.append(scratch.get("x", (3, 4), np.uint8))
    )
    thread.start()
    thread.join()
    assert other[0] is not first


def test_map_row_blocks_sums_every_block_once():
    """Threads or not, each block is counted once, whatever the block size."""
    for threads in (False, True):
        for rows in (1, 7, 64, 1000):
            total = map_row_blocks(
                lambda start, stop: np.array([stop - start, 1]),
                1000,
                rows,
                threads=threads,
            )
            assert total.tolist() == [1000, -(-1000 // rows)]


_FORK_CHILD = """
import multiprocessing
import numpy as np
from sklearn_mlcm import mlcm_confusion_matrix
y = np.random.default_rng(0).random((200_000, 5)) < 0.3
expected = int(mlcm_confusion_matrix(y, y).sum())  # the pool's threads start
def child(_):
    return int(mlcm_confusion_matrix(y, y).sum())
with multiprocessing.get_context("fork").Pool(1) as pool:
    assert pool.apply_async(child, (0,)).get(timeout=60) == expected
from joblib import Parallel, delayed
got = Parallel(n_jobs=2, backend="multiprocessing")(delayed(child)(i) for i in range(2))
assert got == [expected, expected]
print("forked children counted")
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_map_row_blocks_forked_child_does_not_hang():
    """A child forked after the parent ran the threaded kernel (more than
    65,536 rows) starts a pool of its own instead of waiting forever for the
    parent's threads (issue #16, item 6); under a timeout, in a subprocess."""
    result = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c", _FORK_CHILD],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "forked children counted" in result.stdout
