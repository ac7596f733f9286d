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
s = 1/|Z - Y| in (iv), 1/|Z| in (ii) and (iii). Dense input is computed as
float64 matrix products on cache-sized blocks of rows; sparse (CSR) input with
sparse products, never densified.
"""

import numpy as np
from scipy import sparse

from ._chunking import map_row_blocks, row_block_size, split_block
from ._sparse import assemble, rows_scaled, split_sparse

__all__ = ["krstinic_matrix"]


def krstinic_matrix(y_true, y_pred, sample_weight=None):
    """The (q+1, q+1) fractional matrix of clean indicator matrices.

    Parameters
    ----------
    y_true, y_pred : ndarray or CSR array of shape (n_samples, q), dtype bool
        Already validated indicators; CSR input takes the sparse kernel.
    sample_weight : ndarray of shape (n_samples,) or None
        Already validated weights.

    Returns
    -------
    ndarray or CSR array of shape (q+1, q+1), dtype float64
        A CSR array for sparse input.
    """
    if sparse.issparse(y_true):
        return _sparse_matrix(y_true, y_pred, sample_weight)
    return map_row_blocks(
        lambda start, stop: _block(y_true, y_pred, sample_weight, start, stop),
        y_true.shape[0],
        row_block_size(y_true.shape[1]),
        threads=False,
    )


def _scales(n_true, n_pred, n_fn, n_fp):
    """Per-row diagonal scale, off-diagonal scale and the empty-set masks."""
    safe_pred = np.maximum(n_pred, 1.0)
    scenario_ii = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
    scenario_iii = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
    scenario_iv = (n_fn > 0) & (n_fp > 0)
    # diagonal: |Y|/|Z| in scenario (ii), one otherwise
    diag_scale = np.where(scenario_ii, n_true / safe_pred, 1.0)
    # off-diagonal: 1/|Z - Y| in (iv), 1/|Z| in (ii) and (iii), none otherwise
    scale = np.where(
        scenario_iv,
        1.0 / np.maximum(n_fp, 1.0),
        np.where(scenario_ii | scenario_iii, 1.0 / safe_pred, 0.0),
    )
    return diag_scale, scale, safe_pred


def _block(y_true, y_pred, sample_weight, start, stop):
    tp, fn, fp = split_block(y_true, y_pred, start, stop, np.float64)
    q = tp.shape[1]
    w = np.ones(stop - start) if sample_weight is None else sample_weight[start:stop]
    ones = np.ones(q)
    n_tp = tp @ ones
    n_fn = fn @ ones
    n_fp = fp @ ones
    n_true = n_tp + n_fn
    n_pred = n_tp + n_fp
    diag_scale, scale, safe_pred = _scales(n_true, n_pred, n_fn, n_fp)
    out = np.zeros((q + 1, q + 1))
    diag = np.arange(q)
    out[diag, diag] = (w * diag_scale) @ tp
    # empty sets through the "unknown" label: T -> NPL, Z spread over NTL
    out[:q, q] = (w * (n_pred == 0)) @ fn
    out[q, :q] = (w * (n_true == 0) / safe_pred) @ fp
    out[q, q] = w[(n_true == 0) & (n_pred == 0)].sum()
    # s * A (x) B with A = Y - Z (or Y), B = Z - Y (or Z)
    a = fn + tp * (n_fn == 0)[:, None]
    a *= (w * scale)[:, None]
    b = fp + tp * (n_fp == 0)[:, None]
    out[:q, :q] += a.T @ b
    return out


def _sparse_matrix(y_true, y_pred, sample_weight):
    q = y_true.shape[1]
    t, p, tp, fn, fp, n = split_sparse(y_true, y_pred)
    w = np.ones(t.shape[0]) if sample_weight is None else sample_weight
    n_true, n_pred = n["t"], n["p"]
    diag_scale, scale, safe_pred = _scales(n_true, n_pred, n["fn"], n["fp"])
    ws = w * scale
    a = rows_scaled(fn, ws) + rows_scaled(tp, ws * (n["fn"] == 0))
    b = fp + rows_scaled(tp, (n["fp"] == 0).astype(np.float64))
    return assemble(
        q,
        diag=tp.T @ (w * diag_scale),
        npl=fn.T @ (w * (n_pred == 0)),
        ntl=fp.T @ (w * (n_true == 0) / safe_pred),
        corner=w[(n_true == 0) & (n_pred == 0)].sum(),
        block=a.tocsc().T @ b,  # CSR @ CSR: no conversion of the result
    )
