"""Row blocks shared by the kernels, run on the machine's cores.

The dense kernels work on bounded blocks of rows so that their temporaries
stay a few megabytes (in the CPU cache) whatever the number of samples, and so
that float32 sums of 0/1 values inside one block stay exact (a block never
exceeds 2**16 rows). Blocks are independent: their matrices are summed, for
the bit-sliced kernel on a pool of threads (NumPy releases the GIL in its
array loops).
"""

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np
from scipy import sparse
from threadpoolctl import ThreadpoolController

__all__ = [
    "BIT_ROWS",
    "FLOAT_ROWS",
    "Scratch",
    "dense_block",
    "float_parts",
    "kept_scratch",
    "map_row_blocks",
    "map_windows",
    "split_total",
]

# Rows per block of the bit-sliced kernels: 2**16 rows are 1024 words per
# label, and float32 sums of 0/1 values inside one block stay exact.
BIT_ROWS = 1 << 16
# Rows per block of the float64 kernels of weighted sums: 8192 rows of q = 20
# are 1.3 MB per temporary (measured fastest on 10**6 x 20; 16384 is 4x
# slower, out of the cache).
FLOAT_ROWS = 1 << 13

_POOL = None
_POOL_LOCK = threading.Lock()

# BLAS limited to one thread while kernels run (see single_threaded_blas)
_BLAS = {"controller": None, "users": 0, "limit": None}
_BLAS_LOCK = threading.Lock()


def _forget_threads_after_fork():
    """In a forked child: the parent's pool threads and lock holders do not
    exist there, so the pool and the locks start anew (a child that reused the
    parent's pool waited forever for threads it does not have)."""
    global _POOL, _POOL_LOCK, _BLAS_LOCK
    _POOL = None
    _POOL_LOCK = threading.Lock()
    _BLAS_LOCK = threading.Lock()
    _BLAS.update(controller=None, users=0, limit=None)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_threads_after_fork)


def _pool():
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(
                max_workers=os.cpu_count() or 1, thread_name_prefix="sklearn_mlcm"
            )
    return _POOL


@contextmanager
def single_threaded_blas():
    """Hold BLAS (OpenBLAS, MKL) to one thread while the kernels run.

    The kernels' matrix products are small (a block of rows against q
    columns): BLAS threads of their own gain nothing there, and inside the
    kernels' thread pool, or on a machine busy with other work, their
    spin-waiting made a weighted 10**6 x 20 matrix 30x slower (4.7 s instead of
    0.14 s) when another process used the cores. The limit is counted, so that
    kernels running in several threads at once lift it only when the last one
    ends. (OpenBLAS 0.3.31 honours a limit set in the main thread, for every
    thread; set from another thread it had no effect, measured.)
    """
    with _BLAS_LOCK:
        if _BLAS["users"] == 0:
            if _BLAS["controller"] is None:
                _BLAS["controller"] = ThreadpoolController()
            _BLAS["limit"] = _BLAS["controller"].limit(limits=1, user_api="blas")
        _BLAS["users"] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS["users"] -= 1
            if _BLAS["users"] == 0:
                _BLAS["limit"].restore_original_limits()
                _BLAS["limit"] = None


def _added(total, part):
    """``total + part``; a tuple part adds item by item (a kernel's matrix and
    its share of the samples average's table, see :func:`map_row_blocks`)."""
    if total is None:
        return part
    if isinstance(part, tuple):
        return tuple(a + b for a, b in zip(total, part))
    return total + part


def map_row_blocks(func, n_samples, rows, *, threads=True):
    """Sum of ``func(start, stop)`` over blocks of ``rows`` rows, in block order.

    With ``threads`` the blocks run on a thread pool with one thread per core
    when there are several of them; otherwise, or for a single block, in the
    calling thread; BLAS runs single-threaded meanwhile. (The float kernels
    gain nothing from threads: their cache-sized blocks are bound by memory
    traffic, measured on 10**6 x 20.) A block may return a tuple: its items
    are summed one by one (an array and a list, say: the lists are joined in
    block order). None for no rows.
    """
    bounds = [(s, min(s + rows, n_samples)) for s in range(0, n_samples, rows)]
    total = None
    with single_threaded_blas():
        if not threads or len(bounds) == 1 or (os.cpu_count() or 1) == 1:
            parts = (func(start, stop) for start, stop in bounds)
        else:
            parts = _pool().map(lambda b: func(*b), bounds)
        for part in parts:
            total = _added(total, part)
    return total


def map_windows(func, n_samples, rows, window, close):
    """:func:`map_row_blocks` in the calling thread, the blocks met by windows.

    ``func(start, stop)`` returns ``(part, extra)`` for a block of ``rows``
    rows; the parts are summed in block order, as :func:`map_row_blocks`
    without threads sums them. The extras of the blocks of each window of
    ``window`` rows (a multiple of ``rows``) are handed over as a list to
    ``close(start, stop, extras)`` once the window is done, so that what a
    window needs is held for one window only. Returns the sum of the parts
    and the list of ``close``'s results, in window order.
    """
    total, closed = None, []
    with single_threaded_blas():
        for first in range(0, n_samples, window):
            last = min(first + window, n_samples)
            extras = []
            for start in range(first, last, rows):
                part, extra = func(start, min(start + rows, last))
                total = _added(total, part)
                extras.append(extra)
            closed.append(close(first, last, extras))
    return total, closed


class Scratch(threading.local):
    """Work buffers of one kernel call: one set per thread, reused block by block.

    A fresh temporary of a megabyte is mapped from the system at every block
    (glibc's malloc maps large requests), and the page faults of two threads
    wait for each other on the process's memory map: reusing the buffers made
    the grouped Krstinic kernel 1.5x faster on two threads (10**6 x 20).

    A buffer grows to the largest size asked of it, and a smaller ask is a view
    of its start: the blocks of a batch that differ in size (its last block)
    take turns on a thread without a new buffer each time. A caller that runs
    the kernels often keeps its Scratch from one call to the next
    (``MLCMAccumulator``).
    """

    def get(self, name, shape, dtype):
        """The buffer ``name`` of this thread, as an uninitialised (shape, dtype).

        Valid until the next ``get`` of ``name`` on this thread, which may
        return the same memory in another shape.
        """
        dtype = np.dtype(dtype)
        buffers = self.__dict__.setdefault("_buffers", {})
        store, view = buffers.get(name, (None, None))
        if view is not None and view.shape == shape and view.dtype == dtype:
            return view
        nbytes = math.prod(shape) * dtype.itemsize
        if store is None or store.size < nbytes:
            buffers.pop(name, None)  # the old buffer goes before the new comes
            store = view = None
            store = np.empty(nbytes, dtype=np.uint8)
        view = store[:nbytes].view(dtype).reshape(shape)
        buffers[name] = store, view
        return view


#: Up to this many labels a caller that runs the kernels often (an
#: accumulator's batches) keeps their work buffers from one call to the next:
#: a few MiB per thread, as one call holds. Fresh buffers cost a 10**5-row
#: batch of 20 labels about 10% (the first touch of their pages); with more
#: labels a batch's work outweighs them, and kept buffers would grow large.
KEPT_SCRATCH_LABELS = 64


def kept_scratch(n_labels):
    """A :class:`Scratch` to keep across calls on ``n_labels`` labels, or None
    (past :data:`KEPT_SCRATCH_LABELS`: each call its own)."""
    return Scratch() if n_labels <= KEPT_SCRATCH_LABELS else None


def dense_block(y, start, stop):
    """Rows ``start:stop`` of a dense or sparse indicator matrix, as dense bool."""
    block = y[start:stop]
    if sparse.issparse(block):
        return block.toarray().astype(bool, copy=False)
    return block


def float_parts(y_true, y_pred, start, stop):
    """``(tp, fn, fp)`` of rows ``start:stop`` as 0/1 float64, and their row sizes.

    ``tp = t & p``, ``fn = t & ~p`` (t > p on bools), ``fp = p & ~t``; the
    uint8 view makes each conversion a plain widening copy. The sizes are
    float64 (rows,) arrays, as matrix-vector products.
    """
    t = dense_block(y_true, start, stop)
    p = dense_block(y_pred, start, stop)
    parts = tuple(x.view(np.uint8).astype(np.float64) for x in (t & p, t > p, p > t))
    ones = np.ones(t.shape[1])
    return (*parts, tuple(part @ ones for part in parts))


def split_total(total, with_supports):
    """A kernel's (q+2, q+1) block total: the matrix, and the supports if asked.

    Rows 0..q are the matrix; row q+1 holds the label supports and the total of
    the instances with no true label.
    """
    q = total.shape[1] - 1
    matrix = np.ascontiguousarray(total[: q + 1])
    if not with_supports:
        return matrix
    no_label = total[q + 1, q]
    no_label = int(no_label) if total.dtype.kind == "i" else float(no_label)
    return matrix, total[q + 1, :q].copy(), no_label
