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
s = 1/|Z - Y| in (iv), 1/|Z| in (ii) and (iii). Three implementations:

- dense, unweighted: the denominator of s is a small integer, so the rows of a
  block are grouped by it and each group's ``A (x) B`` is counted in integers
  by the bit-sliced popcounts of ``_bits``, then divided once; the few rows
  with a fraction on the diagonal (scenario ii) or in the unknown row are
  added as float64 products;
- dense, weighted: float64 matrix products of one (rows, 3q) 0/1 array of the
  missed, correct and wrong labels, block by block;
- sparse (CSR): sparse products, never densified.

Every kernel also counts the label supports and, if asked, each instance's set
sizes (the samples average's table, ``_samples``) in the same pass over the
rows.
"""

import numpy as np
from scipy import sparse

from ._bits import (
    and_counts,
    gather_rows,
    group_layout,
    pack_columns,
    popcount,
    row_counts,
)
from ._chunking import (
    BIT_ROWS,
    FLOAT_ROWS,
    Scratch,
    dense_block,
    float_parts,
    map_row_blocks,
    split_total,
)
from ._samples import block_share, map_float_blocks, size_table, table_of_shares
from ._sparse import (
    outer_sum,
    rows_scaled,
    sparse_supports,
    split_sparse,
    with_unknown,
)

__all__ = ["krstinic_matrix"]


def krstinic_matrix(
    y_true,
    y_pred,
    sample_weight=None,
    *,
    with_supports=False,
    samples=False,
    scratch=None,
):
    """The (q+1, q+1) fractional matrix of clean indicator matrices.

    Parameters
    ----------
    y_true, y_pred : ndarray or CSR array of shape (n_samples, q), dtype bool
        Already validated indicators; CSR input takes the sparse kernel.
    sample_weight : ndarray of shape (n_samples,) or None
        Already validated weights.
    with_supports : bool, default=False
        Also return the (weighted) true total of each label and of the
        instances with no true label, counted in the same pass.
    samples : bool, default=False
        Also return the samples average's table of the rows
        (:class:`~._samples.SizeTable`, the one
        :func:`~._samples.tabulate_sizes` makes), counted in the same pass.
    scratch : _chunking.Scratch or None, default=None
        The work buffers of the dense path without weights, kept by a caller
        that runs the kernel often; by default the call's own.

    Returns
    -------
    matrix : ndarray or CSR array of shape (q+1, q+1), dtype float64
        A CSR array for sparse input.
    supports, no_label : ndarray of shape (q,) and number
        Only with ``with_supports``: int64 and int without weights.
    table : SizeTable
        Only with ``samples``: the result is ``(counts, table)``, ``counts``
        being what the call returns without ``samples``.
    """
    if sparse.issparse(y_true):
        matrix, table = _sparse_matrix(y_true, y_pred, sample_weight, samples)
        counts = matrix
        if with_supports:
            counts = (matrix, *sparse_supports(y_true, sample_weight))
        return (counts, table) if samples else counts
    q = y_true.shape[1]
    if sample_weight is None:
        scratch = Scratch() if scratch is None else scratch
        total = map_row_blocks(
            lambda start, stop: _grouped_block(
                y_true, y_pred, start, stop, scratch, with_supports, samples
            ),
            y_true.shape[0],
            BIT_ROWS,
        )
    else:
        total = map_float_blocks(
            _float_block,
            y_true,
            y_pred,
            sample_weight,
            samples,
            rows=FLOAT_ROWS,
            window=BIT_ROWS,
        )
    table = None
    if samples:
        total, shares = total
        table = table_of_shares(shares, q, sample_weight is not None)
    counts = split_total(total, with_supports)
    if with_supports and sample_weight is None:
        # counted in integers, stored as the fractions' dtype
        matrix, supports, no_label = counts
        counts = matrix, np.rint(supports).astype(np.int64), int(no_label)
    return (counts, table) if samples else counts


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


def _grouped_block(y_true, y_pred, start, stop, scratch, with_supports, samples):
    """One block without weights: the (q+2, q+1) total, supports in the last row
    (zeros unless ``with_supports``); with ``samples``, ``(total, share)``:
    the block's share of the samples average's table too, off the same set
    sizes."""
    t = dense_block(y_true, start, stop)
    p = dense_block(y_pred, start, stop)
    q = t.shape[1]
    n_true, n_pred, n_tp = row_counts(t, p, scratch)
    n_fn, n_fp = n_true - n_tp, n_pred - n_tp
    # the denominator of s: |Z - Y| in (iv), |Z| in (ii) and (iii), 0 for none
    one_side = ((n_fn > 0) != (n_fp > 0)) & (n_true > 0) & (n_pred > 0)
    denominator = np.where((n_fn > 0) & (n_fp > 0), n_fp, n_pred * one_side)
    source, groups, word_bounds, sizes = group_layout(denominator, q + 1, scratch)
    T = pack_columns(gather_rows(t, source, scratch), scratch)
    P = pack_columns(gather_rows(p, source, scratch), scratch)
    TP = T & P
    FN = T ^ TP
    FP = P ^ TP
    out = np.zeros((q + 2, q + 1))
    # each group's pairs counted in integers, divided once by its denominator;
    # the words of group 0 (rows without an off-diagonal part) are left out
    first = int(groups[0] == 0)
    if first < len(groups):
        words = slice(word_bounds[first], None)
        fn, fp, tp = FN[:, words], FP[:, words], TP[:, words]
        A = fn | (tp & ~np.bitwise_or.reduce(fn, axis=0))
        B = fp | (tp & ~np.bitwise_or.reduce(fp, axis=0))
        bounds = word_bounds[first:] - word_bounds[first]
        out[:q, :q] = and_counts(A, B, bounds, scratch) @ (1.0 / groups[first:])
    pad = 64 * T.shape[1] - t.shape[0]  # zero bits that are no rows
    any_t = np.bitwise_or.reduce(T, axis=0)
    any_p = np.bitwise_or.reduce(P, axis=0)
    diag = np.arange(q)
    out[diag, diag] = popcount(TP)
    out[:q, q] = popcount(T & ~any_p)  # Z empty: each true label to "unknown"
    out[q, q] = popcount(~(any_t | any_p)) - pad
    if with_supports:
        out[q + 1, :q] = popcount(T)
        out[q + 1, q] = popcount(~any_t) - pad
    # the fractions outside the groups, on the few rows that have them:
    # scenario (ii) puts |Y|/|Z| on the diagonal (Y & Z = Y there), and an
    # empty truth spreads 1/|Z| over the predicted labels in the unknown row
    # (sums of scaled rows, not BLAS products: BLAS would start threads of its
    # own inside the kernel's threads)
    ii = np.flatnonzero((n_fn == 0) & (n_fp > 0) & (n_true > 0))
    extra = n_true[ii] / n_pred[ii] - 1.0
    out[diag, diag] += (t[ii] * extra[:, None]).sum(axis=0)
    ntl = np.flatnonzero((n_true == 0) & (n_pred > 0))
    out[q, :q] = (p[ntl] / n_pred[ntl, None]).sum(axis=0)
    if samples:
        return out, block_share((n_true, n_pred, n_tp), q, scratch=scratch)
    return out


def _float_block(y_true, y_pred, w, start, stop):
    """Weighted sums as float64 matrix products, block by block: the block's
    (q+2, q+1) total and its rows' set sizes (of the samples average)."""
    tp, fn, fp, (n_tp, n_fn, n_fp) = float_parts(y_true, y_pred, start, stop)
    w = w[start:stop]
    q = tp.shape[1]
    n_true = n_tp + n_fn
    n_pred = n_tp + n_fp
    row_sizes = (n_true, n_pred, n_tp)
    diag_scale, scale, safe_pred = _scales(n_true, n_pred, n_fn, n_fp)
    no_true = n_true == 0
    out = np.zeros((q + 2, q + 1))
    diag = np.arange(q)
    out[diag, diag] = (w * diag_scale) @ tp
    # empty sets through the "unknown" label: T -> NPL, Z spread over NTL
    out[:q, q] = (w * (n_pred == 0)) @ fn
    out[q, :q] = (w * no_true / safe_pred) @ fp
    out[q, q] = w[no_true & (n_pred == 0)].sum()
    out[q + 1, :q] = w @ tp + w @ fn
    out[q + 1, q] = w[no_true].sum()
    # s * A (x) B with A = Y - Z (or Y), B = Z - Y (or Z); A in place of fn
    b = fp + tp * (n_fp == 0)[:, None]
    ws = w * scale
    fn *= ws[:, None]
    tp *= (ws * (n_fn == 0))[:, None]
    fn += tp
    out[:q, :q] += fn.T @ b
    return out, row_sizes


def _sparse_matrix(y_true, y_pred, sample_weight, samples):
    """The CSR matrix and, with ``samples``, the samples average's table of
    the rows (else None), from the same split of the label sets."""
    tp, fn, fp, n = split_sparse(y_true, y_pred)
    table = None
    if samples:
        table = size_table(n["t"], n["p"], n["tp"], sample_weight)
    w = np.ones(tp.shape[0]) if sample_weight is None else sample_weight
    n_true, n_pred = n["t"], n["p"]
    diag_scale, scale, safe_pred = _scales(n_true, n_pred, n["fn"], n["fp"])
    pred_empty = n_pred == 0
    diag = tp.T @ (w * diag_scale)
    # instance i adds L_i (x) R_i: s * A (x) B (scenarios ii-iv), Y (x) unknown
    # when Z is empty, unknown (x) Z / |Z| when Y is empty, the corner for both;
    # each part is dropped once used, to keep the peak memory low
    ws = w * scale
    left = rows_scaled(fn, ws + w * pred_empty) + rows_scaled(tp, ws * (n["fn"] == 0))
    del fn
    left = with_unknown(left, w * (n_true == 0) / safe_pred, diag, diag)
    right = fp + rows_scaled(tp, (n["fp"] == 0).astype(np.float64))
    del tp, fp
    right = with_unknown(right, pred_empty.astype(np.float64), diag, np.ones_like(diag))
    return outer_sum(left, right), table
