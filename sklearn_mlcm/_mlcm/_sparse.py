"""CSR helpers shared by the sparse kernels of both papers.

The sparse kernels split each instance's label sets into the correct, missed
and wrong labels, scale rows by per-instance factors and assemble the
(q+1, q+1) result from its diagonal, NPL column, NTL row and off-diagonal
block. Nothing here is specific to one paper.
"""

import numpy as np
from scipy import sparse

__all__ = ["pair_product", "rows_scaled", "sparse_supports", "split_sparse"]


def split_sparse(y_true, y_pred, dtype=np.float64):
    """``(t, p, tp, fn, fp)`` as CSR arrays of ``dtype``, and the per-row set sizes."""
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
    return t, p, tp, fn, fp, sizes


def rows_scaled(x, scale):
    """``diag(scale) @ x`` for a CSR array, without building the diagonal."""
    x = x.copy()
    x.data *= np.repeat(scale, np.diff(x.indptr))
    x.eliminate_zeros()
    return x


def pair_product(left, left_last, right, right_last, diag):
    """The (q+1, q+1) CSR sum of per-instance outer products, plus a diagonal.

    Instance i contributes ``L_i (x) R_i`` with ``L_i = [left_i, left_last_i]``
    and ``R_i = [right_i, right_last_i]`` (index q is the NTL row / NPL
    column), and ``diag`` (q,) is added on the diagonal. Everything is one
    sparse product ``L^T @ R``: the diagonal comes in as at most q extra rows
    ``diag[r] e_r (x) e_r``, so that the (missed x wrong) pairs, the bulk of a
    sparse result, are written once, by the product, and never copied again.
    """
    labels = np.flatnonzero(diag)
    big_left = _stack_rows(left, left_last, labels, diag[labels])
    big_right = _stack_rows(right, right_last, labels, np.ones_like(diag[labels]))
    return sparse.csr_array(big_left.T.tocsr() @ big_right)


def _stack_rows(x, last, labels, values):
    """CSR ``[[x, last], [unit rows]]``: x (n, q) gains column q = ``last``,
    then one row per label with ``values`` at its column."""
    n, q = x.shape
    lengths = np.diff(x.indptr)
    has_last = last != 0
    indptr = np.zeros(n + len(labels) + 1, dtype=np.int64)
    np.cumsum(lengths + has_last, out=indptr[1 : n + 1])
    indptr[n + 1 :] = indptr[n] + np.arange(1, len(labels) + 1)
    data = np.empty(indptr[-1], dtype=np.result_type(x.dtype, last, values))
    indices = np.empty(indptr[-1], dtype=np.int64)
    # x's entries keep their order, shifted by the last-column cells before them
    where = np.arange(x.nnz, dtype=np.int64)
    where += np.repeat(indptr[:n] - x.indptr[:n], lengths)
    data[where] = x.data
    indices[where] = x.indices
    rows = np.flatnonzero(has_last)
    data[indptr[rows + 1] - 1] = last[rows]
    indices[indptr[rows + 1] - 1] = q
    data[indptr[n] :] = values
    indices[indptr[n] :] = labels
    return sparse.csr_array((data, indices, indptr), shape=(n + len(labels), q + 1))


def sparse_supports(y_true, weight):
    """Per-label true totals and the total of the instances with no true label.

    Read off the CSR structure, never densified. int64 and int without
    weights, float64 and float with them.
    """
    y = sparse.csr_array(y_true)
    w = np.ones(y.shape[0]) if weight is None else weight
    supports = np.bincount(
        y.indices, weights=np.repeat(w, np.diff(y.indptr)), minlength=y.shape[1]
    )
    no_label = float(w[np.diff(y.indptr) == 0].sum())
    if weight is None:
        return np.rint(supports).astype(np.int64), int(no_label)
    return supports, no_label
