"""The Poisson bootstrap of a stream: replicate weights read off row positions.

A resample with replacement needs the number of instances in advance; a
stream does not know it. The Poisson bootstrap gives each arriving row an
independent Poisson(1) weight in each of B replicates (the multinomial counts
of the ordinary bootstrap are, in law, independent Poisson(1) counts
conditioned on their total), and each replicate adds up the margins
(diagonal, row sums, column sums) of its weighted rows. Rows of one pair
(true set, predicted set) have the same margins: they are computed once per
distinct pair of the batch (:func:`._table.distinct_pairs`, the table's
pairs) and read off for each row, whose weights are its own.

The weights of a row depend on the stream's key and the row's position in
the stream alone, never on how the rows were cut into batches: row i's B
weights are read off the counter-based generator Philox, with the stream's
key, from counter ``i * ceil(B / 4)`` (each counter step gives four 64-bit
words), one word per weight, through the inverse of the Poisson(1)
distribution function. A batch of rows is then one call of the generator,
and the same rows give the same weights however they are batched, on
whichever worker.
"""

import functools

import numpy as np
from scipy import sparse

from sklearn_mlcm._mlcm._samples import (
    RATIOS,
    RESAMPLED_SUMS,
    instance_ratios,
    set_sizes,
)

from ._margins import BATCH_CELLS, INSTANCE_MARGINS, as_dense_bool
from ._table import distinct_pairs

__all__ = [
    "MAX_REPLICATE_BYTES",
    "poisson_counts",
    "poisson_weights",
    "replicate_margins",
    "stream_key",
]

#: The (B, 3, q+1) float64 margins of the replicates are refused past this.
MAX_REPLICATE_BYTES = 1 << 30

# The lookup table reads the top 16 bits of each 64-bit word.
_SHIFT = np.uint64(48)
# Table entry of the few 16-bit buckets that straddle a quantile: the count
# of such a word is found by a binary search of the thresholds.
_STRADDLES = 255


@functools.cache
def _poisson_table():
    """The thresholds of the inverse Poisson(1) distribution function on
    64-bit words, and a lookup table of their top 16 bits.

    A word r (uniform on [0, 2**64)) gives the count
    ``k = #{j : thresholds[j] <= r}``, with ``thresholds[j]`` the nearest
    integer to ``2**64 * P(X <= j)``: P(k = j) is P(X = j) to within 2**-64.
    Counts past the last threshold have probability below 2**-65 and are
    never drawn (the table stops at 19 or so).
    """
    from scipy.stats import poisson  # only when a stream is resampled

    tails = poisson.sf(np.arange(64), 1.0)  # P(X > j), accurate in the tail
    thresholds = np.array(
        [2**64 - round(tail * 2**64) for tail in tails if tail * 2**64 >= 0.5],
        dtype=np.uint64,
    )
    buckets = np.arange(1 << 16, dtype=np.uint64) << _SHIFT
    low = np.searchsorted(thresholds, buckets, side="right")
    high = np.searchsorted(thresholds, buckets | ((1 << 48) - 1), side="right")
    table = np.where(low == high, low, _STRADDLES).astype(np.uint8)
    return thresholds, table


def poisson_counts(words):
    """Poisson(1) counts (uint8, the shape of ``words``) of uniform uint64
    words, by the inverse distribution function."""
    thresholds, table = _poisson_table()
    counts = table[words >> _SHIFT]
    flat = counts.reshape(-1)
    straddle = np.flatnonzero(flat == _STRADDLES)
    if straddle.size:
        flat[straddle] = np.searchsorted(
            thresholds, words.reshape(-1)[straddle], side="right"
        )
    return counts


def stream_key(seed_sequence):
    """The 128-bit Philox key of a stream (a tuple of two Python ints)."""
    return tuple(int(word) for word in seed_sequence.generate_state(2, np.uint64))


def poisson_weights(key, start, n_rows, n_resamples):
    """(n_rows, n_resamples) uint8: the Poisson(1) weights of the rows
    ``start, ..., start + n_rows - 1`` of the stream ``key`` in each
    replicate; each row's weights depend on ``key`` and its position alone."""
    blocks = -(-n_resamples // 4)  # counter steps per row: four words each
    generator = np.random.Philox(
        key=np.array(key, dtype=np.uint64), counter=int(start) * blocks
    )
    words = generator.random_raw(n_rows * 4 * blocks).reshape(n_rows, 4 * blocks)
    return poisson_counts(words[:, :n_resamples])


def replicate_margins(
    y_true, y_pred, weight, *, method, key, start, n_resamples, samples=None
):
    """(3 (q+1), B) float64: the margins of a batch's rows (clean indicators,
    dense bool or CSR, at stream positions ``start, ...``) summed with each
    replicate's Poisson weights, times the sample weights.

    With ``samples``, a tuple of ``(beta, include_no_label)``, also the sums
    ``S, D, U`` of the samples average for each (:mod:`._mlcm._samples`),
    summed with the same weights: ``(margins, sums)``, ``sums`` of shape
    (len(samples) x 3 x 3, B).

    The rows are taken a slice at a time, so that no array holds more than
    about :data:`~._margins.BATCH_CELLS` numbers; integer weights of integer
    margins add up exactly (float64 holds integers to 2**53).
    """
    n, q = y_true.shape
    width = 3 * (q + 1)
    step = max(1, BATCH_CELLS // max(width, 4 * -(-n_resamples // 4)))
    total = np.zeros((width, n_resamples))
    n_sums = 0 if samples is None else len(RATIOS) * len(RESAMPLED_SUMS) * len(samples)
    sums = np.zeros((n_sums, n_resamples))
    for begin in range(0, n, step):
        stop = min(begin + step, n)
        t = as_dense_bool(y_true[begin:stop])
        p = as_dense_bool(y_pred[begin:stop])
        # each distinct pair's margins once, read off for its rows: the same
        # sparse rows, in the same order, as the rows' own margins
        first, row_pair = distinct_pairs(t, p)
        t, p = t[first], p[first]
        margins = INSTANCE_MARGINS[method](t, p).reshape(first.size, width)
        rows = sparse.csr_array(margins)[row_pair]
        counts = poisson_weights(key, start + begin, stop - begin, n_resamples)
        if weight is None:
            weights = counts.astype(np.float64)
        else:
            weights = counts * weight[begin:stop, None]
        # a sparse product: most margins are zero (a row touches its own
        # labels), and it starts no BLAS threads inside the caller's threads
        total += rows.T @ weights
        if samples is not None:
            columns = sparse.csr_array(_instance_sums(t, p, samples))[row_pair]
            sums += columns.T @ weights
    if samples is None:
        return total
    return total, sums


def _instance_sums(t, p, options):
    """(rows, 3 x 3 len(options)): each row's own contribution, weight one, to
    the sums ``S, D, U`` of each ratio of the samples average."""
    sizes = set_sizes(t, p)
    parts = []
    for beta, include_no_label in options:
        values, defined = instance_ratios(
            *sizes, beta=beta, include_no_label=include_no_label
        )
        parts += [np.where(defined, values, 0.0), defined, ~defined]
    return np.concatenate(parts, axis=1).astype(np.float64)
