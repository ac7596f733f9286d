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
is not empty and ``A = T`` otherwise, which is what the vectorised kernel
computes, block by block, as a matrix product.
"""

import numpy as np

from ._chunking import iter_row_chunks

__all__ = ["heydarian_matrix"]


def heydarian_matrix(y_true, y_pred, sample_weight=None):
    """The (q+1, q+1) MLCM of clean indicator matrices.

    Parameters
    ----------
    y_true, y_pred : ndarray or CSR matrix of shape (n_samples, q), dtype bool
        Already validated indicators.
    sample_weight : ndarray of shape (n_samples,) or None
        Already validated weights.

    Returns
    -------
    ndarray of shape (q+1, q+1)
        int64 counts without weights, float64 weighted counts with them.
    """
    q = y_true.shape[1]
    weighted = sample_weight is not None
    # float32 sums of 0/1 over at most 2**16 rows are exact; weights need float64.
    work = np.float64 if weighted else np.float32
    ones = np.ones(q, dtype=work)
    diag = np.arange(q)
    out = np.zeros((q + 1, q + 1), dtype=np.float64)
    for tp, fn, fp, w in iter_row_chunks(y_true, y_pred, sample_weight, work):
        n_tp = tp @ ones
        n_fn = fn @ ones
        n_fp = fp @ ones
        true_empty = (n_tp + n_fn) == 0
        # Algorithm 2: true positives, and both sets empty.
        out[diag, diag] += w @ tp
        out[q, q] += w[true_empty & (n_fp == 0)].sum()
        # Category 1 (no wrong prediction): missed labels go to the NPL column.
        out[:q, q] += (w * (n_fp == 0)) @ fn
        # Category 2 with T empty: the wrong predictions go to the NTL row.
        out[q, :q] += (w * true_empty) @ fp
        # Categories 2 and 3: A (x) P2 with A = T2, or T (= T & P) if T2 is empty.
        a = fn + tp * (n_fn == 0)[:, None]
        a *= w[:, None]
        out[:q, :q] += a.T @ fp
    if weighted:
        return out
    return np.rint(out).astype(np.int64)
