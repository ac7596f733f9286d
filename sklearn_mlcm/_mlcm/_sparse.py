"""CSR helpers shared by the sparse kernels of both papers.

The sparse kernels split each instance's label sets into the correct, missed
and wrong labels, scale rows by per-instance factors and compute the (q+1, q+1)
result as one sparse product of two arrays that carry the NTL/NPL index as a
last column (:func:`with_unknown`). Nothing here is specific to one paper.
"""

import numpy as np
from scipy import sparse

__all__ = [
    "outer_sum",
    "rows_scaled",
    "sparse_supports",
    "split_sparse",
    "with_unknown",
]


def split_sparse(y_true, y_pred, dtype=np.float64):
    """``(tp, fn, fp)`` as CSR arrays of ``dtype``, and the per-row set sizes."""
    t = sparse.csr_array(y_true, dtype=dtype)
    p = sparse.csr_array(y_pred, dtype=dtype)
    tp = t.multiply(p).tocsr()
    tp.eliminate_zeros()
    fn = t - tp
    fp = p - tp
    fn.eliminate_zeros()
    fp.eliminate_zeros()
    sizes = {
        "t": np.diff(t.indptr),
        "p": np.diff(p.indptr),
        "tp": np.diff(tp.indptr),
        "fn": np.diff(fn.indptr),
        "fp": np.diff(fp.indptr),
    }
    return tp, fn, fp, sizes


def rows_scaled(x, scale):
    """``diag(scale) @ x`` for a CSR array, without building the diagonal."""
    x = x.copy()
    x.data *= np.repeat(scale, np.diff(x.indptr))
    x.eliminate_zeros()
    return x


def with_unknown(x, last, diag, values):
    """CSR ``[[x, last], [unit rows]]`` of shape (n + k, q + 1).

    ``x`` (n, q) gains column q (the NTL row / NPL column index) holding
    ``last``, then one row per non-zero of ``diag`` (q,), with ``values`` at
    that label's column. The matrix of a kernel is ``L^T @ R`` of two such
    arrays: instance i adds ``L_i (x) R_i``, and the unit rows ``diag[r] e_r``
    and ``e_r`` put the diagonal in the same product, so that the (missed x
    wrong) pairs, the bulk of a sparse result, are written once, by the
    product, and never copied again. Indices are int32 when they fit.
    """
    n, q = x.shape
    labels = np.flatnonzero(diag)
    lengths = np.diff(x.indptr)
    has_last = last != 0
    indptr = np.zeros(n + len(labels) + 1, dtype=np.int64)
    np.cumsum(lengths + has_last, out=indptr[1 : n + 1])
    indptr[n + 1 :] = indptr[n] + np.arange(1, len(labels) + 1)
    index = np.int32 if max(indptr[-1], q + 1) < 2**31 else np.int64
    data = np.empty(indptr[-1], dtype=np.result_type(x.dtype, last, diag))
    indices = np.empty(indptr[-1], dtype=index)
    # x's entries keep their order, shifted by the last-column cells before them
    where = np.repeat(indptr[:n] - x.indptr[:n], lengths)
    where += np.arange(x.nnz, dtype=np.int64)
    data[where] = x.data
    indices[where] = x.indices
    del where
    rows = np.flatnonzero(has_last)
    data[indptr[rows + 1] - 1] = last[rows]
    indices[indptr[rows + 1] - 1] = q
    data[indptr[n] :] = values[labels]
    indices[indptr[n] :] = labels
    return sparse.csr_array(
        (data, indices, indptr.astype(index)), shape=(n + len(labels), q + 1)
    )


def outer_sum(left, right):
    """``left^T @ right``: the (q+1, q+1) CSR sum of the rows' outer products."""
    return sparse.csr_array(left.T.tocsr() @ right)


def sparse_supports(y_true, weight):
    """Per-label true totals and the total of the instances with no true label.

    Read off the CSR structure, never densified. int64 and int without
    weights, float64 and float with them.
    """
    y = sparse.csr_array(y_true)
    w = np.ones(y.shape[0]) if weight is None else weight
    supports = np.bincount(
        y.indices, weights=np.repeat(w, np.diff(y.indptr)), minlength=y.shape[1]
    ).astype(np.float64)  # np.bincount of no indices is int64, weights or not
    no_label = float(w[np.diff(y.indptr) == 0].sum())
    if weight is None:
        return np.rint(supports).astype(np.int64), int(no_label)
    return supports, no_label
