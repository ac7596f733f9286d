"""The MLCM kernel of Heydarian, Doyle and Samavi (2022), and nothing else.

For one instance let T be its true labels and P its predicted labels, and split
them into T1 = T & P (correct), T2 = T - P (missed) and P2 = P - T (wrong).
Algorithm 2 adds one to M[r, r] for every r in T1 and one to the corner
M[NTL, NPL] when T and P are both empty. Then, by category:

1. P2 empty (P subset of T): one to M[r, NPL] for every r in T2 (Algorithm 3).
2. T2 empty, P2 not empty (T strict subset of P): one to M[r, c] for every r in
   T and c in P2, or to M[NTL, c] when T is empty (Algorithm 4).
3. T2 and P2 both non-empty: one to M[r, c] for r in T2 and c in P2
   (Algorithm 5).

Categories 2 and 3 are one outer product ``A (x) P2`` with ``A = T2`` when T2
is not empty and ``A = T`` otherwise. Three implementations compute it:

- dense, unweighted: bit-sliced. Each block of rows is transposed and packed
  so that every label is a bit vector over the rows; a cell of the matrix is
  then the popcount of an AND of two bit vectors (64 rows per machine word),
  and "T2 is empty" is an OR across the labels' vectors;
- dense, weighted: the same sums as float64 matrix products, block by block;
- sparse (CSR): sparse products, never densified, for very many labels.

The bit-sliced blocks run on all cores (see ``_chunking``).
"""

import numpy as np
from scipy import sparse

from ._chunking import dense_block, map_row_blocks, row_block_size, split_block
from ._sparse import assemble, rows_scaled, split_sparse

__all__ = ["diagonal_true_negatives", "heydarian_matrix"]

# Rows per block of the bit-sliced kernel: 2**16 rows are 1024 words per label.
_BIT_ROWS = 1 << 16
# Cap on the words of the (labels x labels x words) AND of one step: 1 MiB,
# which stays in the cache (measured on 10**5 x 50).
_BIT_STEP_WORDS = 1 << 17


def heydarian_matrix(y_true, y_pred, sample_weight=None):
    """The (q+1, q+1) MLCM of clean indicator matrices.

    Parameters
    ----------
    y_true, y_pred : ndarray or CSR array of shape (n_samples, q), dtype bool
        Already validated indicators; CSR input takes the sparse kernel.
    sample_weight : ndarray of shape (n_samples,) or None
        Already validated weights.

    Returns
    -------
    ndarray or CSR array of shape (q+1, q+1)
        int64 counts without weights, float64 weighted counts with them; a CSR
        array for sparse input.
    """
    if sparse.issparse(y_true):
        return _sparse_matrix(y_true, y_pred, sample_weight)
    if sample_weight is None:
        return _bit_matrix(y_true, y_pred)
    return _float_matrix(y_true, y_pred, sample_weight)


def _pack_columns(y, pad_rows):
    """(rows, q) bool -> (q, words) uint64: bit i of label r's vector is row i."""
    columns = np.zeros((y.shape[1], y.shape[0] + pad_rows), dtype=bool)
    columns[:, : y.shape[0]] = y.T
    return np.packbits(columns, axis=1, bitorder="little").view(np.uint64)


# Set bits of each byte value, for NumPy 1.x, which has no np.bitwise_count.
_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(words):
    """Set bits of uint64 ``words`` summed over the last axis, as int64."""
    if hasattr(np, "bitwise_count"):  # NumPy >= 2.0
        return np.bitwise_count(words).sum(axis=-1, dtype=np.int64)
    as_bytes = np.ascontiguousarray(words).view(np.uint8)  # last axis x 8
    return _BYTE_POPCOUNT[as_bytes].sum(axis=-1, dtype=np.int64)


def _bit_block(y_true, y_pred, start, stop):
    t = dense_block(y_true, start, stop)
    p = dense_block(y_pred, start, stop)
    q = t.shape[1]
    pad = -t.shape[0] % 64
    T = _pack_columns(t, pad)
    P = _pack_columns(p, pad)
    TP = T & P
    FN = T ^ TP
    FP = P ^ TP
    any_t = np.bitwise_or.reduce(T, axis=0)
    any_fn = np.bitwise_or.reduce(FN, axis=0)
    any_fp = np.bitwise_or.reduce(FP, axis=0)
    out = np.zeros((q + 1, q + 1), dtype=np.int64)
    diag = np.arange(q)
    out[diag, diag] = _popcount(TP)
    # both sets empty; the padding rows are empty too and are taken off
    out[q, q] = _popcount(~(any_t | np.bitwise_or.reduce(P, axis=0))) - pad
    out[:q, q] = _popcount(FN & ~any_fp)  # category 1
    out[q, :q] = _popcount(FP & ~any_t)  # category 2 with T empty
    A = FN | (T & ~any_fn)  # categories 2 and 3: A (x) P2
    step = max(1, _BIT_STEP_WORDS // max(q * T.shape[1], 1))
    for r in range(0, q, step):
        stop = min(r + step, q)
        out[r:stop, :q] += _popcount(A[r:stop, None, :] & FP[None, :, :])
    return out


def _bit_matrix(y_true, y_pred):
    return map_row_blocks(
        lambda start, stop: _bit_block(y_true, y_pred, start, stop),
        y_true.shape[0],
        _BIT_ROWS,
    )


def _float_block(y_true, y_pred, w, start, stop):
    tp, fn, fp = split_block(y_true, y_pred, start, stop, np.float64)
    w = w[start:stop]
    q = tp.shape[1]
    ones = np.ones(q)
    n_fn = fn @ ones
    n_fp = fp @ ones
    true_empty = (tp @ ones + n_fn) == 0
    out = np.zeros((q + 1, q + 1))
    diag = np.arange(q)
    out[diag, diag] = w @ tp
    out[q, q] = w[true_empty & (n_fp == 0)].sum()
    out[:q, q] = (w * (n_fp == 0)) @ fn
    out[q, :q] = (w * true_empty) @ fp
    a = fn + tp * (n_fn == 0)[:, None]
    a *= w[:, None]
    out[:q, :q] += a.T @ fp
    return out


def _float_matrix(y_true, y_pred, sample_weight):
    return map_row_blocks(
        lambda start, stop: _float_block(y_true, y_pred, sample_weight, start, stop),
        y_true.shape[0],
        row_block_size(y_true.shape[1]),
        threads=False,
    )


def _sparse_matrix(y_true, y_pred, sample_weight):
    q = y_true.shape[1]
    t, _, tp, fn, fp, n = split_sparse(y_true, y_pred)
    w = np.ones(t.shape[0]) if sample_weight is None else sample_weight
    true_empty = n["t"] == 0
    a = rows_scaled(fn, w * (n["fp"] > 0)) + rows_scaled(
        tp, w * ((n["fn"] == 0) & (n["fp"] > 0))
    )
    out = assemble(
        q,
        diag=tp.T @ w,
        npl=fn.T @ (w * (n["fp"] == 0)),
        ntl=fp.T @ (w * true_empty),
        corner=w[true_empty & (n["p"] == 0)].sum(),
        block=a.tocsc().T @ fp,  # CSR @ CSR: no conversion of the result
    )
    if sample_weight is None:
        # built directly: scipy's astype would first sort every row's indices
        return sparse.csr_array(
            (np.rint(out.data).astype(np.int64), out.indices, out.indptr),
            shape=out.shape,
        )
    return out


def diagonal_true_negatives(tp):
    """Heydarian's eq. 16: TN of index k is the trace minus ``C[k, k]``.

    ``tp`` is the diagonal of the MLCM. Then the TN total is q times the TP
    total (Tables 7 and 9 of the paper).
    """
    return tp.sum() - tp
