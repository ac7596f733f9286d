"""CSR helpers shared by the sparse kernels of both papers.

The sparse kernels split each instance's label sets into the correct, missed
and wrong labels, scale rows by per-instance factors and assemble the
(q+1, q+1) result from its diagonal, NPL column, NTL row and off-diagonal
block. Nothing here is specific to one paper.
"""

import numpy as np
from scipy import sparse

__all__ = ["assemble", "rows_scaled", "sparse_supports", "split_sparse"]


def split_sparse(y_true, y_pred):
    """``(t, tp, fn, fp)`` as float64 CSR arrays, and the per-row set sizes."""
    t = sparse.csr_array(y_true, dtype=np.float64)
    p = sparse.csr_array(y_pred, dtype=np.float64)
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


def assemble(q, diag, npl, ntl, corner, block):
    """The (q+1, q+1) CSR array from its parts; ``block`` is (q, q) CSR.

    The block holds the bulk of the entries and no diagonal ones (A and B of
    an instance are disjoint), so each of its rows only gains its diagonal and
    NPL cells at the end, and the NTL row comes last: one vectorised copy.
    """
    block = sparse.csr_array(block)
    counts = np.diff(block.indptr)
    index = np.arange(q)
    ntl_cols = np.append(np.flatnonzero(ntl), q)
    indptr = np.zeros(q + 2, dtype=np.int64)
    indptr[1 : q + 1] = np.cumsum(counts + 2)
    indptr[q + 1] = indptr[q] + len(ntl_cols)
    data = np.empty(indptr[-1], dtype=np.float64)
    indices = np.empty(indptr[-1], dtype=np.int64)
    # block entries keep their order, shifted by the two cells of each row
    shift = np.repeat(2 * index, counts)
    where = np.arange(block.nnz) + shift
    data[where] = block.data
    indices[where] = block.indices
    ends = indptr[1 : q + 1]
    data[ends - 2], indices[ends - 2] = diag, index
    data[ends - 1], indices[ends - 1] = npl, q
    data[indptr[q] :] = np.append(ntl, corner)[ntl_cols]
    indices[indptr[q] :] = ntl_cols
    out = sparse.csr_array((data, indices, indptr), shape=(q + 1, q + 1))
    out.eliminate_zeros()
    return out


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
