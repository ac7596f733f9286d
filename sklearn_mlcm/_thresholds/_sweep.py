"""The sweep engine: the three margins of the MLCM at many thresholds at once.

Every MLCM score needs only the diagonal, the row sums and the column sums
of the matrix (:mod:`sklearn_mlcm._uncertainty._margins`); here "margins"
is always that stack, an array (..., 3, q + 1). For Heydarian's matrix the
margins at every threshold of an increasing grid are read off per-label and
per-row histograms of the scores' positions in the grid, without building a
prediction or a matrix per threshold; the derivation is in the Notes of
:func:`~sklearn_mlcm.mlcm_threshold_curve`, and each step below names its
term. Krstinić's matrix, and per-label thresholds that do not rise together,
take one fast matrix per threshold (:func:`matrix_margins`).

Conventions: ``T`` thresholds; the bin of a score is the number of grid
thresholds at or below it, from 0 to T (:class:`Grid`), so a label is
predicted at threshold j exactly when its bin is above j. Arrays indexed by
label and bin are (q, T + 1); by row and bin, (b, T + 1); a sum over the
bins above j or up to j is :func:`bins_above` or :func:`bins_up_to`.

**Two engines, and why** (issue #25). The tuned estimator's per-label
search (:mod:`._search`) computes margins at many thresholds too, and uses
this sweep for its global stage (:meth:`._search.MarginObjective.grid_values`).
Its per-label stage has an engine of its own, the two-state profile
(:meth:`._search.MarginObjective.column_profile`): when only label j's
threshold moves, each instance's predicted set takes one of two values, so
the margins at every candidate are sums over the instances bucketed by their
score of j, O(n + nnz) a step. The two share this module's bins (:class:`Grid`
buckets the search's instances) and running sums (the search's prefix and
suffix over buckets), but neither can do the other's work without being
slower. Measured on the per-label search's benchmark (bibtex, the 10-NN's
scores of its 4,880 training instances, 159 labels, 100 candidates; 2
cores shared with other jobs; the margins bit-identical each way):

- a step of the search by this sweep (a (100, q) grid, column j moving, the
  others fixed): 0.80 s for 20 labels' steps against 0.05 s by the profile,
  16x slower: the sweep redoes every label's histogram and the (n, T + 1)
  tables of every row at each step;
- a global grid of 100 thresholds by the profile's pieces (every label
  moves at once, so an instance's predicted set takes T + 1 values, not two:
  one pass of the coefficients per threshold): 0.277 s against 0.038 s by
  this sweep, 7x slower (a kernel matrix per threshold: 0.531 s, 14x).

Krstinić's fractional matrix has no sweep. Its margins per threshold are
2.7x faster by the search's coefficients than by the kernel's matrices
(0.270 s against 0.743 s, 100 thresholds, same data), but they differ in
their last bits (the fractions are summed in another order), so the curve
keeps the kernel's (:func:`matrix_margins`) and the search its own.
"""

import numpy as np
from scipy import sparse

from sklearn_mlcm._mlcm._chunking import map_row_blocks
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._validation._matrices import fits_dense

__all__ = ["Grid", "bins_above", "bins_up_to", "matrix_margins", "sweep_margins"]

#: Rows of a block are chosen so that about this many cells (rows x labels,
#: rows x thresholds, positives x labels) are held at once: 2 MB tables of
#: int64 stay in the cache and below the size that malloc maps afresh (with
#: page faults) at every block. Measured on 10**5 x 100, 100 thresholds:
#: 2**16: 1.64 s, 2**17: 1.42 s, 2**18: 1.30 s, 2**19: 1.36 s, 2**21: 2.04 s.
BLOCK_CELLS = 1 << 18


# -- bins ------------------------------------------------------------------------

#: Buckets per threshold of the bucketed search (:class:`Grid`).
_BUCKETS_PER_THRESHOLD = 4


class Grid:
    """An increasing grid of thresholds and a fast search of bins in it.

    ``np.searchsorted`` costs a branchy binary search per score (about as
    much as a whole MLCM for 10**7 scores). Here the range of the grid is cut
    into ``4 T`` equal buckets; ``position(x) = floor((x - low) * scale)``
    does not decrease with x in floating point, so every threshold in an
    earlier bucket than a score's is below the score, and every threshold in
    a later bucket above it. A small table gives the number of thresholds in
    earlier buckets, and one vectorised comparison per threshold that
    shares the score's bucket (at most a few for a near-even grid) adds
    those at or below it. Exact, whatever the rounding. A grid with many
    thresholds in one bucket (far from even) uses ``np.searchsorted``.
    """

    def __init__(self, thresholds):
        self.thresholds = thresholds
        T = thresholds.size
        low, high = float(thresholds[0]), float(thresholds[-1])
        self.steps = None
        with np.errstate(over="ignore", divide="ignore"):
            scale = _BUCKETS_PER_THRESHOLD * T / (high - low) if high > low else 0.0
        if T > 1 and 0.0 < scale < np.inf:  # not for a range of subnormals
            self.low, self.scale = low, scale
            self.n_buckets = _BUCKETS_PER_THRESHOLD * T
            bucket = self._position(thresholds)
            self.table = np.searchsorted(bucket, np.arange(self.n_buckets))
            steps = int(np.bincount(bucket).max())
            if steps <= _BUCKETS_PER_THRESHOLD:
                self.steps = steps
                self.after = np.append(thresholds, np.inf)  # after[b]: threshold b

    def _position(self, values):
        with np.errstate(over="ignore"):  # beyond the range: clipped
            position = (values - self.low) * self.scale
        np.clip(position, 0, self.n_buckets - 1, out=position)
        return position.astype(np.intp)

    def bins(self, values):
        """The number of thresholds at or below each value (intp)."""
        if self.steps is None:
            return np.searchsorted(self.thresholds, values, side="right")
        out = self.table[self._position(values)]
        for _ in range(self.steps):  # the thresholds of the score's bucket
            out += self.after[out] <= values
        return out


def bins_above(hist, axis=1):
    """``hist`` indexed by bin (0 to T) along ``axis`` -> the same with T
    entries there: at j, the sum over the bins above j (the scores predicted
    at threshold j). Running sums of non-negative amounts, never a
    difference, so that a sum of zeros stays exactly 0."""
    before = (slice(None),) * axis
    suffix = np.cumsum(hist[(*before, slice(None, None, -1))], axis=axis)
    return suffix[(*before, slice(-2, None, -1))]


def bins_up_to(hist, axis=1):
    """``hist`` indexed by bin (0 to T) along ``axis`` -> the same with T
    entries there: at j, the sum over the bins up to j (the scores not
    predicted at threshold j)."""
    return np.cumsum(hist, axis=axis)[(*(slice(None),) * axis, slice(None, -1))]


def _bins_dense(block, thresholds):
    """(b, q) int64 bins of dense scores: a :class:`Grid`, or (T, q)
    thresholds with non-decreasing columns."""
    if isinstance(thresholds, Grid):
        return thresholds.bins(block)
    out = np.empty(block.shape, dtype=np.int64)
    for k in range(block.shape[1]):
        out[:, k] = np.searchsorted(thresholds[:, k], block[:, k], side="right")
    return out


def _bins_sparse(cols, data, thresholds):
    """Bins of the stored scores of sparse input (column ``cols``)."""
    if isinstance(thresholds, Grid):
        return thresholds.bins(data)
    out = np.empty(data.shape, dtype=np.int64)
    order = np.argsort(cols, kind="stable")
    bounds = np.searchsorted(cols[order], np.arange(thresholds.shape[1] + 1))
    for k in np.flatnonzero(np.diff(bounds)):
        part = order[bounds[k] : bounds[k + 1]]
        out[part] = np.searchsorted(thresholds[:, k], data[part], side="right")
    return out


# -- one block of rows -------------------------------------------------------------


def _small(bins, n_thresholds):
    """Bins in the smallest unsigned type that holds 0..T: the gathers of
    the pairs move 8 times fewer bytes than in int64."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if n_thresholds <= np.iinfo(dtype).max:
            return bins.astype(dtype)
    return bins


class _Block:
    """One block of rows: its scores' bins and its true labels.

    Dense scores: ``bin_matrix`` (b, q) and ``truth`` (b, q) bool. Sparse
    scores: the stored entries whose bin is above 0 (the others are never
    predicted), ``rows``, ``cols``, ``bins`` and ``positive``, sorted by row.
    Both: the true labels ``pos_rows``, ``pos_cols`` and their bins
    ``pos_bins`` (0 when the score is absent or below every threshold).
    """

    def __init__(self, t, scores, thresholds, n_thresholds):
        b, q = t.shape
        self.n_rows, self.n_labels, self.n_thresholds = b, q, n_thresholds
        if sparse.issparse(t):
            self.pos_rows = np.repeat(np.arange(b), np.diff(t.indptr))
            self.pos_cols = t.indices.astype(np.int64)
        else:
            self.pos_rows, self.pos_cols = np.nonzero(t)
        self.full = not sparse.issparse(scores)
        if self.full:
            self.bin_matrix = _small(_bins_dense(scores, thresholds), n_thresholds)
            self.pos_bins = self.bin_matrix[self.pos_rows, self.pos_cols]
            self.truth = t.toarray() if sparse.issparse(t) else t
            return
        rows = np.repeat(np.arange(b), np.diff(scores.indptr))
        cols = scores.indices.astype(np.int64)
        bins = _bins_sparse(cols, scores.data, thresholds)
        kept = bins > 0
        self.rows, self.cols, self.bins = rows[kept], cols[kept], bins[kept]
        entry_keys = self.rows * q + self.cols
        pos_keys = self.pos_rows * q + self.pos_cols
        at = np.zeros(pos_keys.size, dtype=np.int64)
        found = np.zeros(pos_keys.size, dtype=bool)
        if entry_keys.size:
            at = np.minimum(np.searchsorted(entry_keys, pos_keys), entry_keys.size - 1)
            found = entry_keys[at] == pos_keys
        self.pos_bins = np.zeros(pos_keys.size, dtype=np.int64)
        self.pos_bins[found] = self.bins[at[found]]
        self.positive = np.zeros(self.rows.size, dtype=bool)
        self.positive[at[found]] = True

    def row_starts(self):
        """Sparse scores: where each row's entries start (b + 1,)."""
        return np.searchsorted(self.rows, np.arange(self.n_rows + 1))

    def entry_bins(self):
        """The bins of the entries: (b, q) for dense scores, else 1-D."""
        return self.bin_matrix if self.full else self.bins

    def per_entry(self, values):
        """Per-row ``values`` (b,) laid out as the entries (broadcastable)."""
        return values[:, None] if self.full else values[self.rows]

    def label_histogram(self, bins, size, weights=None):
        """(q, size): over every entry (i, k), its weight at (k, bin); the
        bins and weights laid out as the entries (weights may be per row,
        broadcast, or None for one)."""
        q = self.n_labels
        if self.full:
            keys = (bins + (np.arange(q) * size)[None, :]).ravel()
        else:
            keys = self.cols * size + bins
        if weights is not None:
            weights = np.broadcast_to(weights, bins.shape).ravel()
        counts = np.bincount(keys, weights=weights, minlength=q * size)
        return counts.reshape(q, size)

    def wrong_histogram(self, bins, size, weights, pos_bins, pos_weights, exact):
        """:meth:`label_histogram` over the wrong labels only (entries that
        are not true labels). With ``exact`` (whole-number weights): every
        entry less the true labels (their ``pos_bins``, ``pos_weights``),
        exact in float64. Otherwise the true labels' weights are zeroed
        first: no sum is a difference, which would leave rounding residue
        where the true value is 0."""
        if exact:
            cols = self.pos_cols
            if not self.full:  # the layout holds the entries of bin > 0 only
                laid_out = pos_bins > 0
                cols, pos_bins = cols[laid_out], pos_bins[laid_out]
                pos_weights = np.broadcast_to(pos_weights, laid_out.shape)[laid_out]
            return self.label_histogram(bins, size, weights) - _histogram(
                cols, pos_bins, (self.n_labels, size), pos_weights
            )
        wrong = ~self.truth if self.full else ~self.positive
        return self.label_histogram(
            bins, size, np.broadcast_to(weights, bins.shape) * wrong
        )

    def row_counts(self, size):
        """(b, size): the number of entries of each row in each bin."""
        if self.full:
            keys = self.bin_matrix + (np.arange(self.n_rows) * size)[:, None]
            keys = keys.ravel()
        else:
            keys = self.rows * size + self.bins
        counts = np.bincount(keys, minlength=self.n_rows * size)
        return counts.reshape(self.n_rows, size)


def _histogram(first, second, size, weights=None):
    """(size[0], size[1]) array of the (weighted) counts of index pairs."""
    keys = first * size[1] + second
    counts = np.bincount(keys, weights=weights, minlength=size[0] * size[1])
    return counts.reshape(size)




def _wrong_above_pairs(block, wrong_bins, column_weights, row_weights):
    """The pairs (true label e of a row, wrong label k of the same row whose
    bin is above e's), counted three ways, each (q, T + 1):

    - ``starts``: ``column_weights[e]`` at (k, bin(e)) and ``ends``: the same
      at (k, bin(k)), the pairs of the column sums, which hold for
      ``bin(e) <= j < bin(k)``;
    - ``by_label``: ``row_weights[e]`` at (label(e), bin(k)), the ends of the
      pairs of the row sums.

    The weights are given per true label (``block.pos_*`` order);
    ``wrong_bins`` are the bins of dense scores with the true labels' set to
    0 (None for sparse scores). Only the pairs that exist are enumerated:
    for a classifier that scores true labels above wrong ones they are few.
    """
    q, size = block.n_labels, block.n_thresholds + 1
    starts, ends, by_label = (np.zeros(q * size) for _ in range(3))
    pos_rows, pos_bins, pos_cols = block.pos_rows, block.pos_bins, block.pos_cols
    row_starts = None if block.full else block.row_starts()
    width = q if block.full else max(1, int(np.diff(row_starts).max(initial=1)))
    step = max(1, BLOCK_CELLS // width)
    for first in range(0, pos_rows.size, step):
        part = slice(first, first + step)
        rows, bins, cols = pos_rows[part], pos_bins[part], pos_cols[part]
        if block.full:
            gathered = wrong_bins[rows]
            owner, label = np.nonzero(gathered > bins.astype(gathered.dtype)[:, None])
            label_bins = gathered[owner, label]
        else:
            count = row_starts[rows + 1] - row_starts[rows]
            owner = np.repeat(np.arange(rows.size), count)
            offset = np.arange(owner.size) - np.repeat(np.cumsum(count) - count, count)
            entry = row_starts[rows][owner] + offset
            keep = (block.bins[entry] > bins[owner]) & ~block.positive[entry]
            owner, entry = owner[keep], entry[keep]
            label, label_bins = block.cols[entry], block.bins[entry]
        weights = column_weights[part][owner]
        key = label * size
        starts += np.bincount(key + bins[owner], weights=weights, minlength=q * size)
        ends += np.bincount(key + label_bins, weights=weights, minlength=q * size)
        by_label += np.bincount(
            cols[owner] * size + label_bins,
            weights=row_weights[part][owner],
            minlength=q * size,
        )
    return tuple(x.reshape(q, size) for x in (starts, ends, by_label))


def _per_row(groups, values, n_rows, ufunc, empty):
    """``ufunc`` (np.minimum, np.maximum) of ``values`` over each run of
    ``groups`` (sorted row numbers); ``empty`` for rows without values."""
    out = np.full(n_rows, empty, dtype=np.int64)
    if groups.size:
        first = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        out[groups[first]] = ufunc.reduceat(values, first)
    return out


def _block_margins(block, u, with_predicted, exact):
    """The margins of one block at every threshold, (T, 3, q + 1) (diagonal,
    row sums, column sums), and the predicted totals (T, q) or None.
    The terms are those of the Notes of mlcm_threshold_curve. ``exact``:
    the weights are whole numbers, so that every float64 sum is exact."""
    b, q, T = block.n_rows, block.n_labels, block.n_thresholds
    size = T + 1
    pos_rows, pos_cols, pos_bins = block.pos_rows, block.pos_cols, block.pos_bins
    u_pos = u[pos_rows]

    # per row: mu, the lowest bin of a true label (n_t2 = 0 exactly for
    # j < mu), nu, the highest of a wrong one (n_p2 = 0 exactly for j >= nu)
    n_true = np.bincount(pos_rows, minlength=b)
    mu = _per_row(pos_rows, pos_bins, b, np.minimum, T)
    if block.full:
        wrong_bins = block.bin_matrix * ~block.truth  # true labels at bin 0
        nu = wrong_bins.max(axis=1).astype(np.int64)
    else:
        wrong_bins = None
        wrong = ~block.positive
        nu = _per_row(block.rows[wrong], block.bins[wrong], b, np.maximum, 0)
    # (b, T) table: n_p2, the wrong labels of bin above j
    count_neg = block.row_counts(size) - _histogram(pos_rows, pos_bins, (b, size))
    wrong_above = count_neg.sum(axis=1)[:, None] - np.cumsum(count_neg, axis=1)
    n_wrong = wrong_above[:, :-1]
    some_true_u = u * np.maximum(n_true, 1)

    # diagonal: the true labels predicted
    tp = bins_above(_histogram(pos_cols, pos_bins, (q, size), weights=u_pos))

    # row sums: TP + sum_pos u n_p2 [j < mu] (a product) + sum_pos u [j >=
    # bin] max(n_p2, 1): its part [n_p2 = 0] = [j >= nu] is ``lone``, its
    # part n_p2 the pairs (true label, wrong label above it), from the true
    # label's bin (n_p2 there) to the wrong label's
    h = np.where(np.arange(T)[None, :] < mu[:, None], n_wrong, 0)
    truth_u = sparse.csr_array((u_pos, (pos_cols, pos_rows)), shape=(q, b))
    lone = bins_up_to(
        _histogram(pos_cols, np.maximum(pos_bins, nu[pos_rows]), (q, size), u_pos)
    )
    # the column sums' pairs: from a true label's bin to a wrong label's,
    # weight u; with those of the row's lowest true label (one of them)
    # weighing u - u max(n_t, 1), they also hold the part of g over wrong
    # labels [n_t2 = 0] max(n_t, 1) = [j < bin] - [mu <= j < bin]
    lowest = np.zeros(pos_rows.size, dtype=bool)
    at_mu = np.flatnonzero(pos_bins == mu[pos_rows])
    lowest[at_mu[np.unique(pos_rows[at_mu], return_index=True)[1]]] = True
    column_weights = u_pos - lowest * some_true_u[pos_rows]
    starts, ends, by_label = _wrong_above_pairs(
        block, wrong_bins, column_weights, u_pos
    )
    start = _histogram(
        pos_cols, pos_bins, (q, size), u_pos * wrong_above[pos_rows, pos_bins]
    )
    row_sums = tp + truth_u @ h + lone + bins_up_to(start - by_label)

    # column sums: TP + sum over wrong labels of u g: the wrong labels
    # predicted, weighted u max(n_t, 1), and the pairs
    entry_bins = block.entry_bins()
    predicted_wrong = block.wrong_histogram(
        entry_bins,
        size,
        block.per_entry(some_true_u),
        pos_bins,
        some_true_u[pos_rows],
        exact,
    )
    col_sums = tp + bins_above(predicted_wrong) + bins_up_to(starts - ends)

    # the no-label index. A row with no true label has no prediction
    # exactly when n_p2 == 0, for j >= nu: the corner; NTL adds
    # max(n_p2, 1) = n_p2 + [n_p2 == 0]; NPL adds n_t2 where n_p2 == 0, the
    # sum over the labels of ``lone``
    no_true = n_true == 0
    corner = bins_up_to(
        _histogram(
            np.zeros(int(no_true.sum()), dtype=np.intp),
            nu[no_true],
            (1, size),
            u[no_true],
        )
    )[0]
    ntl = corner + u[no_true] @ n_wrong[no_true]
    npl = corner + lone.sum(axis=0)

    predicted = None
    if with_predicted:
        predicted = bins_above(
            block.label_histogram(entry_bins, size, block.per_entry(u))
        ).T
    margins = np.empty((T, 3, q + 1))
    margins[:, 0, :q], margins[:, 1, :q] = tp.T, row_sums.T
    margins[:, 2, :q] = col_sums.T
    margins[:, :, q] = np.stack([corner, ntl, npl], axis=1)
    return margins, predicted


def _rows_per_block(scores, n_thresholds):
    """Rows of a block: about ``BLOCK_CELLS`` cells of its entries and of its
    (rows, T + 1) tables, but enough rows that the block's entries outnumber
    its (q, T + 1) histograms: sparse scores of many labels (10**4 labels,
    60 scores a row) would otherwise spend their time on empty histograms."""
    n, q = scores.shape
    size = n_thresholds + 1
    width = q if not sparse.issparse(scores) else max(1.0, scores.nnz / n)
    rows = max(1, int(BLOCK_CELLS // max(width, size)))
    return max(rows, int(np.ceil(q * size / width)))


def sweep_margins(t, scores, thresholds, weight, *, with_predicted=False):
    """Heydarian's margins at every threshold, without a matrix per threshold.

    ``t`` bool (n, q), dense or CSR; ``scores`` (n, q) float, dense or CSR
    (absent = 0, every threshold above 0); ``thresholds`` increasing (T,) or
    (T, q) with non-decreasing columns; ``weight`` (n,) float64.

    Returns ``(margins, predicted)``: (T, 3, q + 1) float64 (diagonal, row
    sums, column sums) and, with ``with_predicted``, the weighted number of
    predictions of each label (T, q), else None.
    """
    n, q = t.shape
    T = thresholds.shape[0]
    grid = Grid(thresholds) if thresholds.ndim == 1 else thresholds
    total_weight = float(weight.sum())
    # whole-number weights whose sums stay below 2**52: every sum is exact
    exact = bool(np.all(weight == np.round(weight))) and (
        total_weight * (q + 1) ** 2 < 2.0**52
    )
    support = None if exact else (weight > 0).astype(np.float64)

    def block_sums(start, stop):
        """(T, 7, q + 1): margins, predicted totals, counts of one block."""
        rows = slice(start, stop)
        block = _Block(t[rows], scores[rows], grid, T)
        out = np.zeros((T, 7, q + 1))
        out[:, :3], pred = _block_margins(block, weight[rows], with_predicted, exact)
        if with_predicted:
            out[:, 3, :q] = pred
        if not exact:
            out[:, 4:], _ = _block_margins(block, support[rows], False, True)
        return out

    total = map_row_blocks(block_sums, n, _rows_per_block(scores, T))
    margins = total[:, :3]
    predicted = total[:, 3, :q] if with_predicted else None
    if not exact:
        counts = total[:, 4:]
        _settle_rounding(margins, predicted, counts, t, scores, thresholds, weight)
    return margins, predicted


def _settle_rounding(margins, predicted, counts, t, scores, thresholds, weight):
    """Real weights: the sums of pairs are differences of running sums (the
    pairs' starts less their ends), exact only to the rounding of those sums,
    about ``(T + q) eps`` times the total weight. A margin whose true value
    is 0 may keep a residue (4e-16, turning a ratio 0/0 into 0), and one
    that is smaller than the rounding (weights 10**12 times smaller than the
    total) may read 0. So: a margin counted by no instance of positive weight
    (counted in whole numbers, exactly) is 0; a threshold with a margin that
    is counted but within the rounding bound is computed again by one kernel
    matrix, as the scores compute it. In place."""
    T, _, width = margins.shape
    q = width - 1
    margins[counts == 0] = 0.0
    bound = 8 * (T + q + 1) * np.finfo(np.float64).eps * weight.sum() * (q + 1)
    unsure = np.flatnonzero(
        ((counts > 0) & (np.abs(margins) <= bound)).any(axis=(1, 2))
    )
    if unsure.size == 0:
        return
    rows = thresholds[unsure]
    per_label = rows if rows.ndim == 2 else np.repeat(rows[:, None], q, axis=1)
    again, _, _ = matrix_margins(t, scores, per_label, weight, "heydarian")
    margins[unsure] = again


# -- one matrix per threshold ----------------------------------------------------


def matrix_margins(t, scores, thresholds, weight, method, *, with_predicted=False):
    """The margins at each threshold from one fast matrix per threshold
    (Krstinić's matrix, or per-label thresholds that do not rise together).
    Same arguments as :func:`sweep_margins`, ``thresholds`` (T, q) here and
    ``weight`` None for none (the kernels' faster path). Returns ``(margins,
    predicted, hits)``, with ``with_predicted`` the weighted number of
    predictions and of true labels predicted (T, q) (the diagonal of
    Krstinić's matrix holds fractions), else None and None."""
    n, q = t.shape
    T = thresholds.shape[0]
    as_sparse = sparse.issparse(t) or sparse.issparse(scores) or not fits_dense(q)
    true = sparse.csr_array(t) if as_sparse else t
    kernel = METHODS[method]
    margins = np.zeros((T, 3, q + 1))
    predicted = np.zeros((T, q)) if with_predicted else None
    hits = np.zeros((T, q)) if with_predicted else None
    for j in range(T):
        if sparse.issparse(scores):
            hit = scores.data >= thresholds[j][scores.indices]
            pred = sparse.csr_array(
                (hit, scores.indices.copy(), scores.indptr.copy()), shape=scores.shape
            )
            pred.eliminate_zeros()  # in place: on copies of the scores' indices
        else:
            pred = scores >= thresholds[j]
            if as_sparse:
                pred = sparse.csr_array(pred)
        cm = kernel(true, pred, weight)
        margins[j, 0] = cm.diagonal()
        margins[j, 1] = np.asarray(cm.sum(axis=1)).ravel()
        margins[j, 2] = np.asarray(cm.sum(axis=0)).ravel()
        if with_predicted:
            both = pred.multiply(true) if sparse.issparse(pred) else pred & true
            predicted[j] = _column_totals(pred, weight)
            hits[j] = _column_totals(both, weight)
    return margins, predicted, hits


def _column_totals(indicators, weight):
    """The (weighted) number of ones of each column of a bool matrix."""
    if weight is None:
        if sparse.issparse(indicators):
            return np.bincount(indicators.indices, minlength=indicators.shape[1])
        return np.count_nonzero(indicators, axis=0)
    return np.asarray(indicators.T @ weight, dtype=np.float64).ravel()
