"""The MLCM in the input's Array API namespace, on its device (torch, cupy, ...).

Both methods are sums over the instances of outer products of their label
sets, so both are matrix products of 0/1 indicator parts, which any Array API
namespace computes on its device. With ``tp = T & P`` (correct),
``fn = T & ~P`` (missed), ``fp = P & ~T`` (wrong) as 0/1 floating (n, q)
arrays, their row sums ``n_tp``, ``n_fn``, ``n_fp``, ``n_t = n_tp + n_fn``,
``n_p = n_tp + n_fp`` and the weights ``w`` (ones without weights):

Heydarian et al. (2022), Algorithms 2-5 (:mod:`._heydarian`):

- diagonal: ``w @ tp``;
- category 1 (P2 empty), the NPL column: ``(w * [n_fp == 0]) @ fn``;
- category 2 with T empty, the NTL row: ``(w * [n_t == 0]) @ fp``;
- the corner: the weight of the rows with both sets empty;
- categories 2 and 3, ``A (x) P2``: ``A.T @ fp`` with
  ``A = w * fn + w * [n_fn == 0] * tp`` (T2, or T = T1 when T2 is empty).

Krstinić et al. (2020), Algorithm 1 (:mod:`._krstinic`), with the row scales
``d`` (|Y|/|Z| in scenario ii, else 1) and ``s`` (1/|Z - Y| in iv, 1/|Z| in
ii and iii, else 0):

- diagonal: ``(w * d) @ tp``;
- the NPL column (Z empty): ``(w * [n_p == 0]) @ fn``;
- the NTL row (Y empty): ``(w * [n_t == 0] / max(n_p, 1)) @ fp``;
- the corner: the weight of the rows with both sets empty;
- ``s * A (x) B``: ``A.T @ B`` with ``A = w s fn + w s [n_fn == 0] tp`` and
  ``B = fp + [n_fp == 0] tp``.

No part puts anything on the diagonal of the products (a label is never both
missed and wrong in one row). The rows are taken in blocks (at most
:data:`BLOCK_CELLS` cells each) so that the parts of a block fit in the
device's memory. Unweighted Heydarian counts are products of 0/1 float32
parts, exact in float32 for blocks of fewer than 2**24 rows, summed from
block to block in float64 (exact to 2**53) and returned as int64; everything
else is float64. The supports (row sums of the true sets) and the samples
average's table (the distinct set sizes ``(|T|, |P|, |T & P|)``) are read in
the same pass; only the matrix, the supports and the table, whose size does
not grow with n, are read back to the host.
"""

import numpy as np

from ._samples import SizeTable, empty_table

__all__ = ["BLOCK_CELLS", "array_api_matrix", "array_api_table"]

#: Cells (rows times labels) of one block of rows: 2**24, four float32 parts
#: of 64 MiB each (twice that in float64).
BLOCK_CELLS = 1 << 24


def _parts(t, p, dtype, xp):
    """``tp``, ``fn``, ``fp`` of one block as 0/1 ``dtype`` arrays, and their
    row sums."""
    tp = t & p
    fn = t & xp.logical_not(p)
    fp = p & xp.logical_not(t)
    parts = tuple(xp.astype(x, dtype) for x in (tp, fn, fp))
    return parts, tuple(xp.sum(x, axis=1) for x in parts)


def _heydarian_block(t, p, w, dtype, xp):
    """The block's (q+2, q+1) total: the matrix and, in row q+1, the label
    supports and the weight of the rows with no true label."""
    (tp, fn, fp), (n_tp, n_fn, n_fp) = _parts(t, p, dtype, xp)
    no_t = (n_tp + n_fn) == 0
    zero = xp.zeros_like(n_tp)

    def where(mask, values):
        return xp.where(mask, values, zero)

    diag = xp.matmul(w, tp)
    npl = xp.matmul(where(n_fp == 0, w), fn)  # category 1
    ntl = xp.matmul(where(no_t, w), fp)  # category 2 with T empty
    corner = xp.sum(where(no_t & (n_fp == 0), w))
    supports = xp.matmul(w, fn) + diag
    no_label = xp.sum(where(no_t, w))
    left = fn * w[:, None] + tp * where(n_fn == 0, w)[:, None]
    off = xp.matmul(xp.matrix_transpose(left), fp)  # A (x) P2
    return _assemble(off, diag, npl, ntl, corner, supports, no_label, xp)


def _krstinic_block(t, p, w, dtype, xp):
    """The block's (q+2, q+1) total, as :func:`_heydarian_block`'s."""
    (tp, fn, fp), (n_tp, n_fn, n_fp) = _parts(t, p, dtype, xp)
    n_true, n_pred = n_tp + n_fn, n_tp + n_fp
    zero, one = xp.zeros_like(n_tp), xp.ones_like(n_tp)
    safe_pred = xp.maximum(n_pred, one)
    ii = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
    iii = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
    iv = (n_fn > 0) & (n_fp > 0)
    diag_scale = xp.where(ii, n_true / safe_pred, one)
    scale = xp.where(
        iv, one / xp.maximum(n_fp, one), xp.where(ii | iii, one / safe_pred, zero)
    )
    no_true = n_true == 0
    diag = xp.matmul(w * diag_scale, tp)
    npl = xp.matmul(xp.where(n_pred == 0, w, zero), fn)
    ntl = xp.matmul(xp.where(no_true, w / safe_pred, zero), fp)
    corner = xp.sum(xp.where(no_true & (n_pred == 0), w, zero))
    supports = xp.matmul(w, tp) + xp.matmul(w, fn)
    no_label = xp.sum(xp.where(no_true, w, zero))
    ws = w * scale
    left = fn * ws[:, None] + tp * xp.where(n_fn == 0, ws, zero)[:, None]
    right = fp + tp * xp.astype(n_fp == 0, dtype)[:, None]
    off = xp.matmul(xp.matrix_transpose(left), right)
    return _assemble(off, diag, npl, ntl, corner, supports, no_label, xp)


def _assemble(off, diag, npl, ntl, corner, supports, no_label, xp):
    """The (q+2, q+1) total of a block's parts."""
    q = diag.shape[0]
    eye = xp.eye(q, dtype=off.dtype, device=_device(off))
    top = xp.concat([off + eye * diag[None, :], npl[:, None]], axis=1)
    ntl_row = xp.concat([ntl, xp.reshape(corner, (1,))])[None, :]
    last = xp.concat([supports, xp.reshape(no_label, (1,))])[None, :]
    return xp.concat([top, ntl_row, last], axis=0)


def _device(x):
    import array_api_compat

    return array_api_compat.device(x)


def _size_keys(t, p, xp):
    """Each row's key ``(|T| b + |P|) b + |T & P|`` (b = q + 1), int64."""
    base = t.shape[1] + 1
    sizes = tuple(xp.sum(xp.astype(x, xp.int64), axis=1) for x in (t, p, t & p))
    return (sizes[0] * base + sizes[1]) * base + sizes[2]


def _table(keys, w, q, host, xp):
    """The :class:`SizeTable` of the rows' keys and weights (None without).

    The keys are sorted on the device; the ends of their runs of equal keys
    (``xp.nonzero``, as many as distinct keys) give the distinct keys, their
    counts and, from the cumulative sums of the weights in that order, their
    weights; only those are read back.
    """
    n = keys.shape[0]
    if n == 0:
        return empty_table(w is not None)
    order = xp.argsort(keys, stable=True)
    keys = xp.take(keys, order)
    last = xp.concat(
        [keys[1:] != keys[:-1], xp.ones((1,), dtype=xp.bool, device=_device(keys))]
    )
    (ends,) = xp.nonzero(last)
    distinct = host(xp.take(keys, ends)).astype(np.int64)
    ends_host = host(ends).astype(np.int64)
    count = np.diff(ends_host + 1, prepend=0)
    weight, n_zero = None, 0
    if w is not None:
        sums = host(xp.take(xp.cumulative_sum(xp.take(w, order)), ends))
        weight = np.diff(sums.astype(np.float64), prepend=0.0)
        n_zero = int(xp.sum(xp.astype(w == 0, xp.int64)))
    base = q + 1
    sizes = np.stack(
        [distinct // (base * base), distinct // base % base, distinct % base], axis=1
    )
    return SizeTable(sizes, count.astype(np.int64), weight, n_zero)


def array_api_matrix(device_targets, *, method, samples=False):
    """The matrix of :class:`~sklearn_mlcm._validation._array_api.DeviceTargets`.

    Returns
    -------
    matrix : array of shape (q+1, q+1)
        In the targets' namespace, on their device: int64 counts for
        ``method="heydarian"`` without weights, float64 otherwise.
    host : tuple
        ``(matrix, supports, no_label)`` on the host, as the NumPy kernels
        give them with ``with_supports``.
    table : SizeTable or None
        The samples average's table, with ``samples``.
    """
    dev = device_targets
    xp = dev.xp
    t, p, w = dev.y_true, dev.y_pred, dev.weight
    n, q = t.shape
    counts = method == "heydarian" and w is None
    dtype = xp.float32 if counts else xp.float64
    block = _heydarian_block if method == "heydarian" else _krstinic_block
    rows = max(1, min(BLOCK_CELLS // max(q, 1), 1 << 23))
    total = xp.zeros((q + 2, q + 1), dtype=xp.float64, device=dev.device)
    keys = [] if samples else None
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        tb, pb = t[start:stop, :], p[start:stop, :]
        wb = (
            xp.ones((stop - start,), dtype=dtype, device=dev.device)
            if w is None
            else w[start:stop]
        )
        total = total + xp.astype(block(tb, pb, wb, dtype, xp), xp.float64)
        if samples:
            keys.append(_size_keys(tb, pb, xp))
    table = None
    if samples:
        all_keys = (
            xp.concat(keys)
            if keys
            else xp.zeros((0,), dtype=xp.int64, device=dev.device)
        )
        table = _table(all_keys, w, q, dev.host, xp)
    host_total = dev.host(total)
    matrix = total[: q + 1, :]
    host_matrix = np.ascontiguousarray(host_total[: q + 1])
    supports, no_label = host_total[q + 1, :q].copy(), float(host_total[q + 1, q])
    if w is None:  # counted in integers: stored as the NumPy kernels store them
        supports, no_label = np.rint(supports).astype(np.int64), round(no_label)
        if counts:
            matrix = xp.astype(xp.round(matrix), xp.int64)
            host_matrix = np.rint(host_matrix).astype(np.int64)
    return matrix, (host_matrix, supports, no_label), table


def array_api_table(device_targets):
    """The samples average's table alone (no matrix), of the same keys."""
    dev = device_targets
    xp = dev.xp
    q = dev.y_true.shape[1]
    keys = _size_keys(dev.y_true, dev.y_pred, xp)
    return _table(keys, dev.weight, q, dev.host, xp)
