"""The honest intervals of a stream: the report's rules on running sums.

:class:`~sklearn_mlcm.MLCMAccumulator` keeps, besides its Poisson bootstrap
replicates (:mod:`._poisson`), the running sums that the report's score
intervals and flags read, so that a stream's intervals follow the same rules
as :func:`~sklearn_mlcm.mlcm_confidence_intervals`' (:mod:`._bounding`):

- the moments of every per-label ratio (:class:`~._score_intervals.
  RatioMoments`) are linear and quadratic forms of the sums over the
  instances of their margins' components (:data:`~._score_intervals.
  COMPONENTS`) and of their products two by two (:class:`~._score_intervals.
  CountMoments`): sums over the instances, so they add up batch by batch
  and accumulator by accumulator. Each batch's are read by the report's own
  function (:func:`~._score_intervals.count_moments`) off the batch's table
  of units, and the labels of a ratio get the report's modified Wilson
  interval on the design-effect trials, on the same numbers;
- the labels' effective counts (:class:`~._flags.LabelSupport`, Kish's
  ``(sum w)^2 / sum w^2``) come from the running sums of the weights and
  squared weights of the instances where each label is true, predicted, and
  of all instances, so every interval gets the report's flag
  (:func:`~._flags.label_flags`, :func:`~._flags.average_flag`);
- the macro average keeps the Poisson percentile interval (the
  bootstrap-t needs each replicate's linearised variance, a sum over the
  instances of a form whose coefficients are known only once the replicate
  is complete: q x q cross moments per replicate), flagged by the report's
  rule where the labels are too rare for any interval of it to hold.

The state (:class:`StreamSums`) is one (:data:`N_STATE_ROWS`, q + 1)
float64 array, its last column the "no label" index: O(q), whatever the
number of rows or replicates. Its sums are of the weights scaled by a power
of two (exactly), so that squared weights do not overflow where the matrix
does not: the modified Wilson bounds and Kish's counts are ratios of sums of
the same degree, the same for any scale. Everything here is pure: the
accumulator validates. The stream's margins (:func:`matrix_margins`) and
the percentile bounds of its replicates (:func:`percentile_bounds`) are
here too.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from sklearn_mlcm._results import ConfidenceInterval
from sklearn_mlcm._statistics import undefined_mask

from ._bounds import estimates_outside, warn_degenerate
from ._flags import LabelSupport, average_flag, label_flags
from ._interval_result import ScoreInterval
from ._margins import margin_counts
from ._score_intervals import (
    RATIOS,
    CountMoments,
    count_moments,
    form_moments,
    label_score_intervals,
    margin_scale,
    ratio_form,
)
from ._table import UnitTable, combine_tables, tabulate

__all__ = [
    "N_STATE_ROWS",
    "matrix_margins",
    "percentile_bounds",
    "STREAM_MACRO",
    "StreamSums",
    "batch_state",
    "empty_state",
    "honest_intervals",
    "state_moments",
    "state_support",
]

#: The five components' indices of their products two by two (the upper
#: triangle of :class:`~._score_intervals.CountMoments`' ``gram``).
_PAIRS = tuple((i, j) for i in range(5) for j in range(i, 5))

#: The rows of an accumulator's state: the sums of the five components (5),
#: their products (15), the weights and squared weights of the instances
#: where each index is true and where it is predicted (4), and of all
#: instances (2, the same in every column).
N_STATE_ROWS = 5 + len(_PAIRS) + 4 + 2

#: The degree of each row of the state in the weights: 1 for the sums of the
#: components and of the weights, 2 for the products and squared weights.
_DEGREE = np.array([1] * 5 + [2] * len(_PAIRS) + [1, 2, 1, 2, 1, 2])


#: Two states are added where the larger of their sums of weights is at most
#: 2**_SUMS_TOP (as ``margin_scale`` keeps the margins), and their squared
#: sums at least 2**_SQUARES_BOTTOM (normal float64 numbers) where one
#: exponent allows both.
_SUMS_TOP, _SQUARES_BOTTOM = 300, -1000


@dataclass(frozen=True)
class StreamSums:
    """An accumulator's running state: the ``values`` (:data:`N_STATE_ROWS`,
    q + 1) of its rows' weights divided by ``2**exponent`` (each row of
    degree d in the weights divided by ``2**(d * exponent)``). Two add up
    (``+``) at the larger exponent of those that hold a weight, unless the
    other's squared sums would then underflow (batches of weights more than
    2**500 apart): then at the exponent that brings the larger sums to
    2**300, the smaller squares' best chance (:func:`_common_exponent`). A
    state of no weight (no row yet, or rows of weight zero) has no scale,
    and adding it moves no other to its exponent (where a first batch of
    weights near 1e-200 was moved to 2**0, its squared sums underflowed).
    :meth:`columns` reorders the labels."""

    values: np.ndarray
    exponent: int = 0

    def __add__(self, other):
        top = _common_exponent(self, other)
        return StreamSums(_rescaled(self, top) + _rescaled(other, top), top)

    def columns(self, index):
        """The state with its columns (labels) in the order ``index``."""
        return StreamSums(self.values[:, index], self.exponent)


def _common_exponent(*states):
    """The exponent at which :class:`StreamSums` ``states`` are added (see
    its docstring)."""
    weighed = [state for state in states if state.values.any()]
    if not weighed:
        return max(state.exponent for state in states)
    top = max(state.exponent for state in weighed)
    squares = _DEGREE == 2
    lowest = []  # the power of two of each state's smallest squared sum at top
    for state in weighed:
        part = state.values[squares]
        if part.any():
            smallest = part[part > 0].min()
            lowest.append(int(np.frexp(smallest)[1]) + 2 * (state.exponent - top))
    if min(lowest, default=0) >= _SQUARES_BOTTOM:
        return top
    # the largest sum of weights of each state at its own exponent, brought
    # to 2**_SUMS_TOP: every value as large as float64 leaves room for
    return max(
        int(np.frexp(state.values[~squares].max())[1]) + state.exponent
        for state in weighed
    ) - _SUMS_TOP


def _rescaled(sums, exponent):
    """The values of ``sums`` at the scale ``2**exponent`` (exact, but for
    values that become subnormal)."""
    shift = (sums.exponent - exponent) * _DEGREE
    return np.ldexp(sums.values, shift[:, None])


def empty_state(n_labels):
    """The :class:`StreamSums` of no row."""
    return StreamSums(np.zeros((N_STATE_ROWS, n_labels + 1)))


#: What the legend of a stream's report says of its ratios' intervals.
STREAM_MACRO = (
    "; the labels' ratios modified Wilson score intervals, their macro avg the "
    "percentile (flagged where the labels are rare)"
)


def batch_state(y_true, y_pred, weight, *, method):
    """The :class:`StreamSums` of a batch, off its table of units as the
    report tabulates them (clean indicators, dense bool or CSR, and their
    weights or None), the weights scaled by a power of two to at most 1,
    and, where they lie 2**300 apart, by the one-shot's scale of the margins
    (:func:`~._score_intervals.margin_scale`, which centres their range):
    the exponent records both."""
    q = y_true.shape[1]
    exponent = 0
    if weight is not None:
        top = float(np.max(weight, initial=0.0))
        exponent = int(np.frexp(top)[1]) if top > 0 else 0
        weight = np.ldexp(weight, -exponent)
    units = UnitTable(
        combine_tables([tabulate(y_true, y_pred, weight)]), q, method, grouped=False
    )
    # the one-shot's scale of the margins (1 unless weights lie 2**300 apart),
    # recorded in the exponent with the weights' own: one scale for every row
    c = margin_scale(units.unit_margins)
    exponent -= int(np.frexp(c)[1]) - 1
    moments = count_moments(units, units.multiplicity, q + 1, scale=c)
    state = np.empty((N_STATE_ROWS, q + 1))
    state[:5] = moments.sums
    for row, (i, j) in enumerate(_PAIRS, start=5):
        state[row] = moments.gram[i, j]
    # each pair's weight and squared weight summed over the units, then over
    # the pairs where each index is true or predicted (the "no label" index:
    # no true label, no predicted label), as label_support sums them
    m = units.multiplicity
    pairs = units.kind_pairs * c if c != 1.0 else units.kind_pairs
    pair_weight = pairs.T @ m
    pair_square = pairs.power(2).T @ m
    true, pred = units.pair_true, units.pair_pred
    true = np.column_stack([true, ~true.any(axis=1)])
    pred = np.column_stack([pred, ~pred.any(axis=1)])
    start = 5 + len(_PAIRS)
    for row, (x, w) in enumerate(
        (
            (true, pair_weight),
            (true, pair_square),
            (pred, pair_weight),
            (pred, pair_square),
        ),  # fmt: skip
        start=start,
    ):
        state[row] = np.einsum("pk,p->k", x, w)
    state[start + 4] = pair_weight.sum()
    state[start + 5] = pair_square.sum()
    return StreamSums(state, exponent)


def state_moments(state, shown):
    """The :class:`~._score_intervals.CountMoments` of the first ``shown``
    indices of a running ``state``."""
    gram = np.empty((5, 5, shown))
    for row, (i, j) in enumerate(_PAIRS, start=5):
        gram[i, j] = gram[j, i] = state[row, :shown]
    return CountMoments(state[:5, :shown].copy(), gram)


def state_support(state, shown):
    """The :class:`~._flags.LabelSupport` of the first ``shown`` indices of a
    running ``state``: Kish's effective counts, as
    :func:`~._flags.label_support` computes them."""
    start = 5 + len(_PAIRS)
    true_w, true_w2, pred_w, pred_w2, all_w, all_w2 = state[start:, :shown]
    sums = {
        "n_true": (true_w, true_w2),
        "n_pred": (pred_w, pred_w2),
        "n_negative": (all_w - true_w, all_w2 - true_w2),
        "n_not_pred": (all_w - pred_w, all_w2 - pred_w2),
        "n_all": (all_w, all_w2),
    }
    out = {}
    for name, (total, square) in sums.items():
        with np.errstate(divide="ignore", invalid="ignore"):
            out[name] = np.where(square > 0, total * total / square, 0.0)
    return LabelSupport(**out)


def matrix_margins(matrix):
    """(1, 3, q+1) float64: the diagonal, row sums and column sums of a dense
    or CSR matrix."""
    if sparse.issparse(matrix):
        rows = np.asarray(matrix.sum(axis=1)).ravel()
        cols = np.asarray(matrix.sum(axis=0)).ravel()
        margins = [matrix.diagonal(), rows, cols]
    else:
        margins = [np.diagonal(matrix), matrix.sum(axis=1), matrix.sum(axis=0)]
    return np.stack(margins).astype(np.float64)[None]


def percentile_bounds(distribution, confidence_level):
    """The percentile interval of each column of ``distribution``
    (replicates first), NaN values left out (an all-NaN column has NaN
    bounds); linear interpolation, as the one-shot intervals'."""
    levels = [(1.0 - confidence_level) / 2.0, (1.0 + confidence_level) / 2.0]
    if not np.isnan(distribution).any():  # nanquantile is 10x slower
        low, high = np.quantile(distribution, levels, axis=0)
        return low, high
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns
        low, high = np.nanquantile(distribution, levels, axis=0)
    return low, high


def _wilson(interval, moments, metric, *, beta, tn, confidence_level):
    """A ratio's label ``interval`` with the report's modified Wilson bounds on
    the design-effect trials in place of its percentile ones: [0, 1] where the
    ratio is undefined on the stream (NaN where its estimate is NaN), as
    :func:`~._bounding.score_intervals` gives them."""
    found = label_score_intervals(
        form_moments(ratio_form(metric, beta=beta, tn=tn), moments),
        confidence_level=confidence_level,
    )
    known = np.isfinite(np.asarray(interval.estimate, dtype=np.float64))
    low = np.where(np.isnan(found.low), np.where(known, 0.0, np.nan), found.low)
    high = np.where(np.isnan(found.high), np.where(known, 1.0, np.nan), found.high)
    return ScoreInterval(
        interval.estimate,
        ConfidenceInterval(low, high),
        interval.n_undefined,
        0,
        interval.bootstrap_distribution,
    )


def _outside(interval):
    """The columns of a percentile ``interval`` whose estimate lies outside
    it (:func:`~._bounds.estimates_outside`)."""
    distribution = interval.bootstrap_distribution
    low, high = interval.confidence_interval
    two_d = distribution.reshape(distribution.shape[0], -1)
    return estimates_outside(
        two_d,
        np.atleast_1d(np.asarray(interval.estimate, dtype=np.float64)),
        np.atleast_1d(low),
        np.atleast_1d(high),
    )


def honest_intervals(
    scores,
    state,
    margins,
    *,
    shown,
    confidence_level,
    beta,
    tn,
    names,
    n_resamples,
    return_distributions,
):
    """The report's rules applied to a stream's percentile ``scores`` (a
    dict from a metric, or ``(metric, average)``, to its
    :class:`~._interval_result.ScoreInterval`, each with its replicates'
    values): the labels of a ratio (:data:`~._score_intervals.RATIOS`) get
    the modified Wilson interval of the running ``state``'s moments, every
    interval its flag, and the flagged intervals and the estimates outside their
    percentile interval are warned of in one
    :class:`~scipy.stats.DegenerateDataWarning`, as the report warns. The
    other intervals (averages, statistics that are not ratios) stay the
    percentile ones. ``state`` is the stream's :class:`StreamSums`,
    ``margins`` its (1, 3, q + 1) margins,
    ``names`` the ``shown`` indices' names; the replicates' values are kept
    with ``return_distributions`` only."""
    moments = state_moments(state.values, shown)
    support = state_support(state.values, shown)
    counts = [x[:, :shown] for x in margin_counts(margins, tn)]
    defined = {}
    flags, outside, out = [], [], {}
    for key, interval in scores.items():
        metric = key if isinstance(key, str) else key[0]
        if metric not in defined:
            undefined = undefined_mask(metric, *counts, beta=beta)[0]
            defined[metric] = (~undefined).astype(np.float64)
        found = []
        if isinstance(key, str):
            kind = "score" if metric in RATIOS else "bootstrap"
            flag = tuple(label_flags(support, defined[metric], metric, interval=kind))
            if metric in RATIOS:
                interval = _wilson(
                    interval,
                    moments,
                    metric,
                    beta=beta,
                    tn=tn,
                    confidence_level=confidence_level,
                )
            else:
                found = _outside(interval)
        else:
            flag = average_flag(support, defined[metric], metric, key[1])
            if interval.bootstrap_distribution is not None:
                found = _outside(interval)
        flags.append((key, flag))
        outside.append((key, found))
        out[key] = ScoreInterval(
            interval.estimate,
            interval.confidence_interval,
            interval.n_undefined,
            interval.n_degenerate,
            interval.bootstrap_distribution if return_distributions else None,
            flag,
        )
    warn_degenerate(
        flags,
        outside,
        names,
        confidence_level=confidence_level,
        interval="percentile",
        n_resamples=n_resamples,
    )
    return out
