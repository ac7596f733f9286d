"""Row chunking shared by the two kernels.

The kernels work on bounded blocks of rows so that their temporaries stay a
few megabytes whatever the number of samples, and so that float32 sums of 0/1
values inside one block stay exact (a block never exceeds 2**24 rows).
"""

import numpy as np
from scipy import sparse

__all__ = ["iter_row_chunks"]

# About 64k cells per operand and block: the float temporaries of a block stay
# in the CPU cache (measured fastest on 10**6 x 20). At least 2048 rows, so that
# the per-block (q+1, q+1) accumulation stays small next to the block's own
# work; at most 2**16 rows, so that float32 sums of 0/1 stay exact.
_TARGET_CELLS = 1 << 15
_MIN_ROWS = 1 << 11
_MAX_ROWS = 1 << 16


def _dense_block(y, start, stop):
    block = y[start:stop]
    if sparse.issparse(block):
        return block.toarray().astype(bool, copy=False)
    return block


def iter_row_chunks(y_true, y_pred, sample_weight, dtype):
    """Yield ``(tp, fn, fp, w)`` blocks of rows.

    ``tp = t & p``, ``fn = t & ~p`` and ``fp = p & ~t`` are (rows, q) arrays of
    0/1 in ``dtype``; ``w`` is the matching slice of ``sample_weight``, or ones
    of ``dtype``. Sparse inputs are densified one block at a time.
    """
    n_samples, n_labels = y_true.shape
    rows = int(min(_MAX_ROWS, max(_MIN_ROWS, _TARGET_CELLS // max(n_labels, 1))))
    for start in range(0, n_samples, rows):
        stop = min(start + rows, n_samples)
        t = _dense_block(y_true, start, stop)
        p = _dense_block(y_pred, start, stop)
        if sample_weight is None:
            w = np.ones(stop - start, dtype=dtype)
        else:
            w = sample_weight[start:stop]
        # On bools, t > p is t & ~p; the uint8 view makes astype a plain copy.
        yield (
            (t & p).view(np.uint8).astype(dtype),
            (t > p).view(np.uint8).astype(dtype),
            (p > t).view(np.uint8).astype(dtype),
            w,
        )
