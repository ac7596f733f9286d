"""The result record of a computation, and the supports the report needs."""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ._chunking import iter_row_chunks

__all__ = ["Computed", "supports_of"]


@dataclass
class Computed:
    """A validated computation: the matrix and what the report needs.

    ``matrix`` is a dense ndarray, a CSR array (sparse input) or, for dask
    input with ``lazy=True``, a dask array. ``supports`` and
    ``no_label_support`` are the (weighted) true totals per label and of the
    instances with no true label, when asked for.
    """

    matrix: object
    names: list
    supports: object = None
    no_label_support: object = None


def supports_of(y_true, weight):
    """Per-label true totals and the total of instances with no true label.

    Dense input is summed block by block as the kernels do; sparse input is
    read off its structure (never densified: 10**6 label columns would need
    gigabytes per block of rows).
    """
    if sparse.issparse(y_true):
        y = sparse.csr_array(y_true)
        w = np.ones(y.shape[0]) if weight is None else weight
        supports = np.bincount(
            y.indices, weights=np.repeat(w, np.diff(y.indptr)), minlength=y.shape[1]
        )
        no_label = float(w[np.diff(y.indptr) == 0].sum())
        if weight is None:
            return np.rint(supports).astype(np.int64), int(no_label)
        return supports, no_label
    # float32 sums of 0/1 within a block are exact; weights need float64
    work = np.float32 if weight is None else np.float64
    supports, no_label = np.zeros(y_true.shape[1]), 0.0
    for t, _, _, w in iter_row_chunks(y_true, y_true, weight, work):
        supports += w @ t
        no_label += float(w[t.sum(axis=1) == 0].sum())
    if weight is None:
        return supports.astype(np.int64), int(no_label)
    return supports, no_label
