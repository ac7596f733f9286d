"""Scores of an Array API namespace (torch, CuPy, array_api_strict), in it.

Under ``sklearn.config_context(array_api_dispatch=True)``, scores that are an
array of another namespace than NumPy stay in that namespace, on their
device, as targets do (:mod:`sklearn_mlcm._validation._array_api`); they are
checked there by :func:`~._validation.validate_scores` (a
:class:`~._validation.DeviceScores`). Here :func:`decide_device` applies
:func:`~sklearn_mlcm.decide_labels`' rule to them, and :func:`device_margins`
gives the margins of the MLCM at many thresholds, for
:func:`~sklearn_mlcm.mlcm_threshold_curve`.

The margins: each threshold's predictions are compared on the device
(``score >= threshold``, a block of rows by a chunk of thresholds at once,
at most :data:`BLOCK_CELLS` cells, so memory stays bounded as in the NumPy
sweep), and the three margins of each method are sums over the rows of
per-row terms of the correct, missed and wrong labels (the formulas are in
:func:`_heydarian_margins` and :func:`_krstinic_margins`): O(n q) a
threshold, no matrix. Only their (n_thresholds, 3, q + 1) table, the label
totals and the scores' smallest and largest values (for a grid made here)
are read back to the host. Whole-number weights give every sum exactly, so
the margins equal the NumPy sweep's bit for bit; real weights and
Krstinić's fractions agree to their rounding (the sums are taken in another
order).

Scores in the host's memory (CPU tensors, array_api_strict's CPU device)
are read in place by the NumPy code instead (:func:`~._validation.host_scores`),
as targets are: the same numbers bit for bit, without a copy.
"""

import numpy as np

from sklearn_mlcm._validation._array_api import _compat, to_numpy

__all__ = [
    "BLOCK_CELLS",
    "decide_device",
    "device_label_totals",
    "device_margins",
]

#: Cells of one block: rows x labels for the decision rule, rows x thresholds
#: x labels for the margins (a few float64 arrays of 32 MiB each).
BLOCK_CELLS = 1 << 22


# -- the decision rule -------------------------------------------------------------


def decide_device(checked, thresholds, top_k, at_least_one):
    """:func:`~._decision.decide_dense` of
    :class:`~._validation.DeviceScores`: an int64
    (n, q) array on their device, by the same rule (``thresholds`` a NumPy
    float64 (q,) array or None, then ``top_k`` is set)."""
    xp, scores = checked.xp, checked.scores
    n, q = scores.shape
    cut = None if thresholds is None else checked.thresholds(thresholds)
    step = max(1, BLOCK_CELLS // q)
    blocks = []
    for start in range(0, n, step):
        block = scores[start : min(start + step, n), :]
        if cut is None:
            passing = xp.ones(block.shape, dtype=xp.bool, device=checked.device)
        else:
            passing = block >= cut[None, :]
        if top_k is not None and top_k < q:
            passing = _top_k(block, passing, top_k, xp)
        if at_least_one:
            passing = _at_least_one(block, passing, xp, checked.device)
        blocks.append(xp.astype(passing, xp.int64))
    return xp.concat(blocks, axis=0)


def _top_k(block, passing, top_k, xp):
    """Of the passing labels of each row, the ``top_k`` of highest score: a
    stable sort of the negated scores (the earlier label wins ties), the
    ranked labels kept by a running count, put back by the inverse order."""
    order = xp.argsort(-block, axis=1, stable=True)
    ranked = xp.take_along_axis(passing, order, axis=1)
    count = xp.cumulative_sum(xp.astype(ranked, xp.int64), axis=1)
    kept = ranked & (count <= top_k)
    return xp.take_along_axis(kept, xp.argsort(order, axis=1), axis=1)


def _at_least_one(block, passing, xp, device):
    """Rows with no passing label get the label of their highest score (the
    first on ties)."""
    empty = xp.logical_not(xp.any(passing, axis=1))
    best = xp.argmax(block, axis=1)
    labels = xp.arange(block.shape[1], device=device)
    return passing | (empty[:, None] & (labels[None, :] == best[:, None]))


# -- the margins at many thresholds ------------------------------------------------


def _row_sum(x, xp):
    return xp.sum(x, axis=2)


def _weighted(values, scale, w, xp):
    """``sum_i w_i scale_i values_i`` over the rows: ``values`` (b, c, q)
    float64, ``scale`` (b, c) or None, ``w`` (b,) -> (c, q)."""
    factor = w[:, None] if scale is None else w[:, None] * scale
    return xp.sum(factor[:, :, None] * values, axis=0)


def _parts(t, pred, xp):
    """``tp``, ``fn``, ``fp`` of a block (b, c, q) as float64 0/1 arrays,
    and their row sums (b, c)."""
    tp = t & pred
    fn = t & xp.logical_not(pred)
    fp = pred & xp.logical_not(t)
    parts = tuple(xp.astype(x, xp.float64) for x in (tp, fn, fp))
    return parts, tuple(_row_sum(x, xp) for x in parts)


def _where(mask, values, xp):
    return xp.where(mask, values, xp.zeros_like(values))


def _heydarian_margins(tp, fn, fp, sums, w, xp):
    """Heydarian's margins of a block, (c, 3, q + 1): for label k, the
    diagonal ``sum w tp``; the row ``diag + sum w [n_fp = 0] fn + sum w
    (fn + [n_fn = 0] tp) n_fp``; the column ``diag + sum w [n_t = 0] fp +
    sum w (n_fn + [n_fn = 0] n_tp) fp`` (Algorithms 2-5, summed along a
    row and a column; see the Notes of mlcm_threshold_curve); the no-label
    index: the corner (both sets empty), the NTL row (corner plus the wrong
    labels of the rows without true labels), the NPL column (corner plus the
    missed labels of the rows with nothing wrong)."""
    n_tp, n_fn, n_fp = sums
    one = xp.ones_like(n_tp)
    no_true = (n_tp + n_fn) == 0
    no_fn = _where(n_fn == 0, one, xp)
    diag = _weighted(tp, None, w, xp)
    npl = _weighted(fn, _where(n_fp == 0, one, xp), w, xp)
    ntl = _weighted(fp, _where(no_true, one, xp), w, xp)
    corner = xp.sum(w[:, None] * _where(no_true & (n_fp == 0), one, xp), axis=0)
    rows = diag + npl + _weighted(fn + tp * no_fn[:, :, None], n_fp, w, xp)
    cols = diag + ntl + _weighted(fp, n_fn + no_fn * n_tp, w, xp)
    return _assemble(diag, rows, cols, corner, npl, ntl, xp)


def _krstinic_margins(tp, fn, fp, sums, w, xp):
    """Krstinić's margins of a block, (c, 3, q + 1), from the row scales of
    :mod:`sklearn_mlcm._mlcm._array_api` (``d`` on the diagonal, ``s`` of the
    off-diagonal part ``s A (x) B``): the row sums of ``A (x) B`` are ``A``
    times the row sums of ``B``, its column sums ``B`` times those of
    ``A``."""
    n_tp, n_fn, n_fp = sums
    one, zero = xp.ones_like(n_tp), xp.zeros_like(n_tp)
    n_true, n_pred = n_tp + n_fn, n_tp + n_fp
    safe_pred = xp.maximum(n_pred, one)
    ii = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
    iii = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
    iv = (n_fn > 0) & (n_fp > 0)
    d = xp.where(ii, n_true / safe_pred, one)
    s = xp.where(ii | iii, one / safe_pred, zero)
    s = xp.where(iv, one / xp.maximum(n_fp, one), s)
    no_fn, no_fp = _where(n_fn == 0, one, xp), _where(n_fp == 0, one, xp)
    no_true = n_true == 0
    diag = _weighted(tp, d, w, xp)
    npl = _weighted(fn, _where(n_pred == 0, one, xp), w, xp)
    ntl = _weighted(fp, xp.where(no_true, one / safe_pred, zero), w, xp)
    corner = xp.sum(w[:, None] * _where(no_true & (n_pred == 0), one, xp), axis=0)
    a = fn + tp * no_fn[:, :, None]  # A / (w s)
    b = fp + tp * no_fp[:, :, None]  # B
    rows = diag + npl + _weighted(a, s * (n_fp + no_fp * n_tp), w, xp)
    cols = diag + ntl + _weighted(b, s * (n_fn + no_fn * n_tp), w, xp)
    return _assemble(diag, rows, cols, corner, npl, ntl, xp)


def _assemble(diag, rows, cols, corner, npl, ntl, xp):
    """The (c, 3, q + 1) margins: the labels' diagonal, row and column sums,
    and the no-label index's (the corner; the NTL row's sum; the NPL
    column's sum)."""
    last = xp.stack(
        [corner, corner + xp.sum(ntl, axis=1), corner + xp.sum(npl, axis=1)], axis=1
    )
    labels = xp.stack([diag, rows, cols], axis=1)
    return xp.concat([labels, last[:, :, None]], axis=2)


_MARGINS = {"heydarian": _heydarian_margins, "krstinic": _krstinic_margins}


def _chunks(n, q, n_thresholds):
    """Rows of a block and thresholds of a chunk: every threshold at once
    when enough rows fit beside them, else at least 256 rows (or all)."""
    rows = BLOCK_CELLS // max(q * n_thresholds, 1)
    if rows >= min(n, 256):
        return max(rows, 1), n_thresholds
    rows = min(n, 256)
    return rows, max(1, BLOCK_CELLS // (rows * q))


def device_margins(checked, thresholds, method, *, with_predicted=False):
    """The margins at each row of ``thresholds`` (NumPy float64 (T, q), one
    threshold per label) of :class:`~._validation.DeviceScores` with true
    indicators,
    ``method`` "heydarian" or "krstinic".

    Returns ``(margins, predicted, hits)`` on the host: (T, 3, q + 1)
    float64 (diagonal, row sums, column sums) and, with ``with_predicted``,
    the weighted number of predictions and of true labels predicted (T, q),
    else None and None (:func:`~._sweep.matrix_margins`' form).
    """
    xp, device = checked.xp, checked.device
    t, scores = checked.y_true, checked.scores
    n, q = scores.shape
    n_thresholds = thresholds.shape[0]
    cuts = checked.thresholds(thresholds)
    w = checked.weight
    if w is None:
        w = xp.ones((n,), dtype=xp.float64, device=device)
    rows, width = _chunks(n, q, n_thresholds)
    margins_of = _MARGINS[method]
    out = []
    for first in range(0, n_thresholds, width):
        cut = cuts[first : min(first + width, n_thresholds), :]
        total = None
        for start in range(0, n, rows):
            stop = min(start + rows, n)
            pred = scores[start:stop, None, :] >= cut[None, :, :]
            parts, sums = _parts(t[start:stop, None, :], pred, xp)
            wb = w[start:stop]
            block = margins_of(*parts, sums, wb, xp)
            if with_predicted:
                counts = [_weighted(xp.astype(pred, xp.float64), None, wb, xp)]
                counts.append(_weighted(parts[0], None, wb, xp))
                block = xp.concat([block, _padded(counts, xp)], axis=1)
            total = block if total is None else total + block
        out.append(total)
    table = to_numpy(xp.concat(out, axis=0), xp).astype(np.float64)
    if not with_predicted:
        return table, None, None
    return table[:, :3], table[:, 3, :q].copy(), table[:, 4, :q].copy()


def _padded(counts, xp):
    """(c, q) totals stacked as (c, k, q + 1) rows beside the margins."""
    stacked = xp.stack(counts, axis=1)
    c, k, _ = stacked.shape
    device = _compat().device(stacked)
    pad = xp.zeros((c, k, 1), dtype=stacked.dtype, device=device)
    return xp.concat([stacked, pad], axis=2)


def device_label_totals(checked):
    """The weighted number of true labels of each label, (q,) on the host."""
    xp = checked.xp
    t = xp.astype(checked.y_true, xp.float64)
    if checked.weight is None:
        totals = xp.sum(t, axis=0)
    else:
        totals = xp.sum(checked.weight[:, None] * t, axis=0)
    return to_numpy(totals, xp).astype(np.float64)
