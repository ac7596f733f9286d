"""The fractional multi-label confusion matrix of Krstinic et al. (2020).

For one instance with true labels Y and predicted labels Z (Algorithm 1):

(i)   Y = Z:                       C = diag(Y)
(ii)  Y - Z empty, Z - Y not:      C = [Y (x) (Z - Y) + |Y| diag(Y)] / |Z|
(iii) Z - Y empty, Y - Z not:      C = [(Y - Z) (x) Z] / |Z| + diag(Z)
(iv)  both differences non-empty:  C = [(Y - Z) (x) (Z - Y)] / |Z - Y| + diag(Y & Z)

The paper assumes no empty label set. As the authors' own code does, an
"unknown" label (the last row and column) is on exactly when a set is empty and
the same four scenarios apply: an empty prediction sends each true label's unit
to the last column, an empty truth spreads one unit over the predicted labels
(1/|Z| each), and both empty add one to the corner.

Vectorised: the diagonal is ``diag(Y & Z)`` scaled by |Y|/|Z| in scenario (ii);
the off-diagonal part of (ii)-(iv) is one outer product ``s * A (x) B`` with
A = Y - Z (or Y when that is empty), B = Z - Y (or Z when that is empty) and
s = 1/|Z - Y| in (iv), 1/|Z| in (ii) and (iii).
"""

import numpy as np

from ._chunking import iter_row_chunks

__all__ = ["krstinic_matrix"]


def krstinic_matrix(y_true, y_pred, sample_weight=None):
    """The (q+1, q+1) fractional matrix of clean indicator matrices.

    Parameters
    ----------
    y_true, y_pred : ndarray or CSR matrix of shape (n_samples, q), dtype bool
        Already validated indicators.
    sample_weight : ndarray of shape (n_samples,) or None
        Already validated weights.

    Returns
    -------
    ndarray of shape (q+1, q+1), dtype float64
    """
    q = y_true.shape[1]
    ones = np.ones(q)
    diag = np.arange(q)
    out = np.zeros((q + 1, q + 1), dtype=np.float64)
    for tp, fn, fp, w in iter_row_chunks(y_true, y_pred, sample_weight, np.float64):
        n_tp = tp @ ones
        n_fn = fn @ ones
        n_fp = fp @ ones
        n_true = n_tp + n_fn
        n_pred = n_tp + n_fp
        safe_pred = np.maximum(n_pred, 1.0)
        scenario_ii = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
        scenario_iii = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
        scenario_iv = (n_fn > 0) & (n_fp > 0)
        # Diagonal: correct labels, scaled by |Y|/|Z| in scenario (ii).
        diag_scale = np.where(scenario_ii, n_true / safe_pred, 1.0)
        out[diag, diag] += (w * diag_scale) @ tp
        # Empty sets through the "unknown" label: T -> NPL, Z spread over NTL.
        out[:q, q] += (w * (n_pred == 0)) @ fn
        out[q, :q] += (w * (n_true == 0) / safe_pred) @ fp
        out[q, q] += w[(n_true == 0) & (n_pred == 0)].sum()
        # Off-diagonal redistribution of scenarios (ii)-(iv): s * A (x) B with
        # A = Y - Z (or Y), B = Z - Y (or Z).
        scale = np.where(
            scenario_iv,
            1.0 / np.maximum(n_fp, 1.0),
            np.where(scenario_ii | scenario_iii, 1.0 / safe_pred, 0.0),
        )
        a = fn + tp * (n_fn == 0)[:, None]
        a *= (w * scale)[:, None]
        b = fp + tp * (n_fp == 0)[:, None]
        out[:q, :q] += a.T @ b
    return out
