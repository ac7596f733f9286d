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
is not empty and ``A = T`` otherwise. Four implementations compute it:

- dense, unweighted: bit-sliced (``_bits``). Each block of rows is packed so
  that every label is a bit vector over the rows; a cell of the matrix is then
  the popcount of an AND of two bit vectors (64 rows per machine word), and
  "T2 is empty" is an OR across the labels' vectors;
- dense, weights that are small integers (0..255, as repeat counts are): the
  rows of a block are grouped by weight and each group is counted as above,
  in integers, then multiplied by its weight once;
- dense, any other weights: float64 matrix products of one (rows, 3q) 0/1
  array of the missed, correct and wrong labels, block by block;
- sparse (CSR): sparse products, never densified, for very many labels.

Every kernel also counts the label supports and, if asked, each instance's set
sizes (the samples average's table, ``_samples``) in the same pass over the
rows (the report needs them). The blocks run on all cores (see ``_chunking``).
"""

import numpy as np
from scipy import sparse

from ._bits import (
    and_counts,
    gather_rows,
    group_layout,
    pack_columns,
    pack_with_sizes,
    popcount,
    row_counts,
    small_integer_keys,
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

__all__ = ["heydarian_matrix"]


def heydarian_matrix(
    y_true,
    y_pred,
    sample_weight=None,
    *,
    with_supports=False,
    samples=False,
    scratch=None,
):
    """The (q+1, q+1) MLCM of clean indicator matrices.

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
        The work buffers of the bit-sliced paths (with ``samples``, or integer
        weights), kept by a caller that runs the kernel often; by default the
        call's own.

    Returns
    -------
    matrix : ndarray or CSR array of shape (q+1, q+1)
        int64 counts without weights, float64 weighted counts with them; a CSR
        array for sparse input.
    supports, no_label : ndarray of shape (q,) and number
        Only with ``with_supports``.
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
        total = _bit_matrix(y_true, y_pred, with_supports, samples, scratch)
    else:
        keys = small_integer_keys(sample_weight)
        if keys is None:
            total = _float_matrix(y_true, y_pred, sample_weight, samples)
        else:
            total = _grouped_matrix(
                y_true, y_pred, keys, sample_weight, samples, scratch
            )
    if not samples:
        return split_total(total, with_supports)
    total, shares = total
    table = table_of_shares(shares, q, sample_weight is not None)
    return split_total(total, with_supports), table


def _packed_counts(T, P, word_bounds, sizes, scratch=None, with_supports=True):
    """Algorithms 2-5 on packed rows, per group: (q+2, q+1, groups) int64.

    ``T`` and ``P`` are (q, words) bit vectors; group g has ``sizes[g]`` rows
    in the words ``word_bounds[g]:word_bounds[g + 1]``, and the other bits of
    those words are zero. Rows 0..q are the matrix; row q+1 holds the label
    supports and the count of rows with no true label (zeros unless
    ``with_supports``).
    """
    q = T.shape[0]
    pads = 64 * np.diff(word_bounds) - sizes  # zero bits that are no rows

    def count(x):
        return popcount(x, word_bounds)

    TP = T & P
    FN = T ^ TP
    FP = P ^ TP
    any_t = np.bitwise_or.reduce(T, axis=0)
    any_fn = np.bitwise_or.reduce(FN, axis=0)
    any_fp = np.bitwise_or.reduce(FP, axis=0)
    no_t = ~any_t
    out = np.zeros((q + 2, q + 1, len(sizes)), dtype=np.int64)
    diag = np.arange(q)
    out[diag, diag] = count(TP)
    # both sets empty; the bits that are no rows are empty too and are taken off
    out[q, q] = count(no_t & ~np.bitwise_or.reduce(P, axis=0)) - pads
    out[:q, q] = count(FN & ~any_fp)  # category 1
    out[q, :q] = count(FP & no_t)  # category 2 with T empty
    # categories 2 and 3: A (x) P2, A = T2, or T when T2 is empty
    out[:q, :q] += and_counts(FN | (T & ~any_fn), FP, word_bounds, scratch)
    if with_supports:
        out[q + 1, :q] = count(T)
        out[q + 1, q] = count(no_t) - pads
    return out


def _bit_block(y_true, y_pred, start, stop, with_supports, samples, scratch=None):
    """One block without weights: its (q+2, q+1) total and, with ``samples``,
    its share of the samples average's table (``(total, share)``)."""
    # fresh temporaries: reusing per-thread buffers here measured 3-7% slower on
    # two threads (10**6 x 20), unlike the grouped kernels, which have more;
    # with the samples' sizes, which keep more, the kernel's per-thread
    # buffers (``scratch``) measured 1.1x faster (10**6 x 20, two threads)
    t = dense_block(y_true, start, stop)
    p = dense_block(y_pred, start, stop)
    if samples:
        T, P, row_sizes = pack_with_sizes(t, p, scratch)
    else:
        T, P = pack_columns(t), pack_columns(p)
    whole = np.array([0, T.shape[1]])
    sizes = np.array([t.shape[0]])
    out = _packed_counts(T, P, whole, sizes, with_supports=with_supports)[..., 0]
    if not samples:
        return out
    return out, block_share(row_sizes, t.shape[1], scratch=scratch)


def _bit_matrix(y_true, y_pred, with_supports, samples, scratch=None):
    # without the sizes, fresh temporaries (see _bit_block): no scratch
    scratch = (Scratch() if scratch is None else scratch) if samples else None
    return map_row_blocks(
        lambda start, stop: _bit_block(
            y_true, y_pred, start, stop, with_supports, samples, scratch
        ),
        y_true.shape[0],
        BIT_ROWS,
    )


def _grouped_block(y_true, y_pred, keys, start, stop, scratch, weight=None):
    """Rows grouped by their integer weight; each group counted in integers.

    With ``weight`` (the block's weights, as floats), ``(total, share)``: the
    block's share of the samples average's table too.
    """
    t, p = dense_block(y_true, start, stop), dense_block(y_pred, start, stop)
    share = None
    if weight is not None:
        share = block_share(row_counts(t, p, scratch), t.shape[1], weight)
    k = keys[start:stop]
    source, weights, word_bounds, sizes = group_layout(k, int(k.max()) + 1, scratch)
    T = pack_columns(gather_rows(t, source, scratch), scratch)
    P = pack_columns(gather_rows(p, source, scratch), scratch)
    first = int(weights[0] == 0)  # the rows of weight 0 add nothing: left out
    if first == len(weights):
        out = np.zeros((t.shape[1] + 2, t.shape[1] + 1))
    else:
        words = slice(word_bounds[first], None)
        bounds = word_bounds[first:] - word_bounds[first]
        counts = _packed_counts(
            T[:, words], P[:, words], bounds, sizes[first:], scratch
        )
        out = counts @ weights[first:].astype(np.float64)
    return out if share is None else (out, share)


def _grouped_matrix(y_true, y_pred, keys, sample_weight, samples, scratch=None):
    scratch = Scratch() if scratch is None else scratch

    def block(start, stop):
        weight = sample_weight[start:stop] if samples else None
        return _grouped_block(y_true, y_pred, keys, start, stop, scratch, weight)

    return map_row_blocks(block, y_true.shape[0], BIT_ROWS)


def _float_block(y_true, y_pred, w, start, stop):
    """Weighted sums as float64 matrix products, block by block: the block's
    (q+2, q+1) total and its rows' set sizes (of the samples average)."""
    tp, fn, fp, (n_tp, n_fn, n_fp) = float_parts(y_true, y_pred, start, stop)
    row_sizes = (n_tp + n_fn, n_tp + n_fp, n_tp)
    w = w[start:stop]
    q = tp.shape[1]
    no_t = (n_tp + n_fn) == 0
    out = np.zeros((q + 2, q + 1))
    diag = np.arange(q)
    out[diag, diag] = w @ tp
    out[q, q] = w[no_t & (n_fp == 0)].sum()
    out[:q, q] = (w * (n_fp == 0)) @ fn  # category 1
    out[q, :q] = (w * no_t) @ fp  # category 2 with T empty
    out[q + 1, :q] = w @ fn + out[diag, diag]
    out[q + 1, q] = w[no_t].sum()
    # A = T2, or T when T2 is empty (T = T1 then), weighted, in place of fn
    fn *= w[:, None]
    tp *= (w * (n_fn == 0))[:, None]
    fn += tp
    out[:q, :q] += fn.T @ fp
    return out, row_sizes


def _float_matrix(y_true, y_pred, sample_weight, samples):
    return map_float_blocks(
        _float_block,
        y_true,
        y_pred,
        sample_weight,
        samples,
        rows=FLOAT_ROWS,
        window=BIT_ROWS,
    )


def _sparse_matrix(y_true, y_pred, sample_weight, samples):
    """The CSR matrix and, with ``samples``, the samples average's table of
    the rows (else None), from the same split of the label sets."""
    # unweighted counts as int64 all through: the product is the result
    dtype = np.int64 if sample_weight is None else np.float64
    tp, fn, fp, n = split_sparse(y_true, y_pred, dtype)
    table = None
    if samples:
        table = size_table(n["t"], n["p"], n["tp"], sample_weight)
    w = np.ones(tp.shape[0], dtype) if sample_weight is None else sample_weight
    no_fp = n["fp"] == 0
    diag = tp.T @ w
    # instance i adds L_i (x) R_i: A (x) P2 (categories 2 and 3), T2 (x) NPL
    # (category 1), NTL (x) P2 with T empty, NTL (x) NPL with both empty;
    # each part is dropped once used, to keep the peak memory low
    left = rows_scaled(fn, w) + rows_scaled(tp, w * ((n["fn"] == 0) & ~no_fp))
    del tp, fn
    left = with_unknown(left, w * (n["t"] == 0), diag, diag)
    right = with_unknown(fp, no_fp.astype(dtype), diag, np.ones_like(diag))
    del fp
    return outer_sum(left, right), table
