"""Row chunking shared by the two kernels.

The kernels work on bounded blocks of rows so that their temporaries stay a
few megabytes whatever the number of samples, and so that float32 sums of 0/1
values inside one block stay exact (a block never exceeds 2**24 rows).
"""

import numpy as np
from scipy import sparse

__all__ = ["iter_row_chunks"]

# About 1 MiB of bool per operand and chunk: small enough for the cache-friendly
# temporaries, large enough that per-chunk overhead vanishes.
_TARGET_CELLS = 1 << 20
_MAX_ROWS = 1 << 16


def iter_row_chunks(y_true, y_pred, sample_weight):
    """Yield ``(t, p, w)`` blocks of rows.

    ``t`` and ``p`` are dense C-contiguous bool arrays of shape (rows, q) and
    ``w`` is None or the matching slice of ``sample_weight``. Sparse inputs are
    densified one block at a time.
    """
    n_samples, n_labels = y_true.shape
    rows = int(max(1, min(_MAX_ROWS, _TARGET_CELLS // max(n_labels, 1))))
    for start in range(0, n_samples, rows):
        stop = min(start + rows, n_samples)
        t = y_true[start:stop]
        p = y_pred[start:stop]
        if sparse.issparse(t):
            t = t.toarray().astype(bool, copy=False)
            p = p.toarray().astype(bool, copy=False)
        w = None if sample_weight is None else sample_weight[start:stop]
        yield t, p, w
