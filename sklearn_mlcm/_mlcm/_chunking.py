"""Row blocks shared by the kernels, run on the machine's cores.

The dense kernels work on bounded blocks of rows so that their temporaries
stay a few megabytes (in the CPU cache) whatever the number of samples, and so
that float32 sums of 0/1 values inside one block stay exact (a block never
exceeds 2**16 rows). Blocks are independent: their matrices are summed, for
the bit-sliced kernel on a pool of threads (NumPy releases the GIL in its
array loops).
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy import sparse

__all__ = [
    "dense_block",
    "iter_row_chunks",
    "map_row_blocks",
    "row_block_size",
    "split_block",
]

# About 32k cells per operand and block for the float kernels (measured fastest
# on 10**6 x 20). At least 2048 rows, so that the per-block (q+1, q+1)
# accumulation stays small next to the block's own work; at most 2**16 rows.
_TARGET_CELLS = 1 << 15
_MIN_ROWS = 1 << 11
_MAX_ROWS = 1 << 16

_POOL = None
_POOL_LOCK = threading.Lock()


def row_block_size(n_labels, target_cells=_TARGET_CELLS):
    """Rows per block for ``n_labels`` columns."""
    return int(min(_MAX_ROWS, max(_MIN_ROWS, target_cells // max(n_labels, 1))))


def _pool():
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(
                max_workers=os.cpu_count() or 1, thread_name_prefix="sklearn_mlcm"
            )
    return _POOL


def map_row_blocks(func, n_samples, rows, *, threads=True):
    """Sum of ``func(start, stop)`` over blocks of ``rows`` rows.

    With ``threads`` the blocks run on a thread pool with one thread per core
    when there are several of them; otherwise, or for a single block, in the
    calling thread. (The float kernels gain nothing from threads: their small
    cache-sized blocks are bound by memory traffic, measured on 10**6 x 20.)
    """
    bounds = [(s, min(s + rows, n_samples)) for s in range(0, n_samples, rows)]
    if not threads or len(bounds) == 1 or (os.cpu_count() or 1) == 1:
        parts = (func(start, stop) for start, stop in bounds)
    else:
        parts = _pool().map(lambda b: func(*b), bounds)
    total = None
    for part in parts:
        total = part if total is None else total + part
    return total


def dense_block(y, start, stop):
    """Rows ``start:stop`` of a dense or sparse indicator matrix, as dense bool."""
    block = y[start:stop]
    if sparse.issparse(block):
        return block.toarray().astype(bool, copy=False)
    return block


def iter_row_chunks(y_true, y_pred, sample_weight, dtype):
    """Yield ``(tp, fn, fp, w)`` blocks of rows, in order, in this thread.

    ``tp = t & p``, ``fn = t & ~p`` and ``fp = p & ~t`` are (rows, q) arrays of
    0/1 in ``dtype``; ``w`` is the matching slice of ``sample_weight``, or ones
    of ``dtype``. Sparse inputs are densified one block at a time.
    """
    n_samples, n_labels = y_true.shape
    rows = row_block_size(n_labels)
    for start in range(0, n_samples, rows):
        stop = min(start + rows, n_samples)
        if sample_weight is None:
            w = np.ones(stop - start, dtype=dtype)
        else:
            w = sample_weight[start:stop]
        yield (*split_block(y_true, y_pred, start, stop, dtype), w)


def split_block(y_true, y_pred, start, stop, dtype):
    """``(tp, fn, fp)`` of rows ``start:stop`` as 0/1 arrays of ``dtype``."""
    t = dense_block(y_true, start, stop)
    p = dense_block(y_pred, start, stop)
    # On bools, t > p is t & ~p; the uint8 view makes astype a plain copy.
    return (
        (t & p).view(np.uint8).astype(dtype),
        (t > p).view(np.uint8).astype(dtype),
        (p > t).view(np.uint8).astype(dtype),
    )
