"""Bootstrap confidence intervals of one classifier's MLCM scores.

The same engine as the paired comparison (:mod:`._paired`): the scores need
only three margins of the matrix (diagonal, row sums, column sums), each a sum
over the instances of a contribution that depends on the pair (true set,
predicted set) alone, so a resample is a re-weighting of the instances and B
resamples are one product, with no matrix rebuilt.
"""

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy import sparse
from scipy.special import ndtr, ndtri
from sklearn.utils import check_random_state

from ._confusion import TARGET_CONSTRAINTS
from ._margins import (
    MAX_RESAMPLES,
    METRICS,
    Margins,
    batches,
    check_groups,
    resampled_margins,
    scores_from_margins,
    undefined_scores,
)
from ._mlcm._dispatch import METHODS
from ._param_validation import (
    ZERO_DIVISION,
    Interval,
    Options,
    validate_params,
)
from ._results import ConfidenceInterval, unpackable
from ._validation import (
    MAX_DENSE_BYTES,
    check_mlcm_targets,
    check_sample_weight,
    input_error,
)

__all__ = ["ConfidenceIntervalResult", "mlcm_confidence_intervals"]


@unpackable("estimate", "confidence_interval")
@dataclass(frozen=True)
class ConfidenceIntervalResult:
    """The outcome of :func:`mlcm_confidence_intervals`.

    Unpacks like a scipy.stats result: ``estimate, (low, high) = result``;
    the other fields are attributes.

    Attributes
    ----------
    estimate : float
        The averaged score on the test set.

    confidence_interval : ConfidenceInterval
        ``(low, high)``, the bootstrap interval of ``estimate``.

    label_estimates : ndarray of shape (n_labels,)
        Each label's score on the test set.

    label_confidence_interval : ConfidenceInterval
        ``(low, high)``, arrays of shape (n_labels,): each label's interval.

    target_names : list
        The label names: frame columns, class values or column indices.

    interval : {"bca", "percentile"}
        How the bounds were read off the bootstrap distribution.

    n_resamples : int
        The number of bootstrap resamples.

    bootstrap_distribution : ndarray of shape (n_resamples,)
        The averaged score of each resample.

    label_bootstrap_distribution : ndarray of shape (n_resamples, n_labels)
        Each label's score in each resample.

    label_n_undefined : ndarray of shape (n_labels,), dtype=int64
        In how many resamples each label's score was undefined (a zero
        denominator) and so set by ``zero_division``.

    n_undefined : int
        In how many resamples at least one label's score was.

    n_degenerate : int
        For ``interval="bca"``: how many of the 1 + n_labels intervals fell
        back to the percentile interval because BCa's corrections were not
        defined (every resample on one side of the estimate, or a jackknife
        with no spread).
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    label_estimates: np.ndarray
    label_confidence_interval: ConfidenceInterval
    target_names: list
    interval: str
    n_resamples: int
    bootstrap_distribution: np.ndarray
    label_bootstrap_distribution: np.ndarray
    label_n_undefined: np.ndarray
    n_undefined: int
    n_degenerate: int


def _draw_counts(rng, size, n_units):
    """(size, n_units) float64: how often each unit is drawn in each of
    ``size`` resamples of ``n_units`` draws with replacement (the multinomial
    counts, from uniform draws and one bincount: 10x faster than
    ``RandomState.multinomial`` row by row)."""
    draws = rng.randint(0, n_units, size=(size, n_units))
    draws += np.arange(size)[:, None] * n_units
    counts = np.bincount(draws.ravel(), minlength=size * n_units)
    return counts.reshape(size, n_units).astype(np.float64)


def _resample(table, weight, unit, n_units, n_resamples, seed, options):
    """The averaged (B,) and label (B, q) scores of ``n_resamples`` bootstrap
    resamples of the units (instances or groups), and the (B, q) mask of the
    label scores that were undefined."""
    rng = np.random.RandomState(seed)
    overall, labels, undefined = [], [], []
    for size in batches(n_resamples, max(n_units, weight.size)):
        counts = _draw_counts(rng, size, n_units)
        margins = resampled_margins(table, counts[:, unit] * weight)
        score, label = scores_from_margins(margins, **options)
        overall.append(score)
        labels.append(label)
        undefined.append(undefined_scores(margins, options))
    return np.concatenate(overall), np.concatenate(labels), np.concatenate(undefined)


def _jackknife(table, weight, unit, n_units, options):
    """The scores with each unit left out: averaged (n_units,), label
    (n_units, q). The margins of all units less those of one."""
    size = 3 * (table.n_labels + 1)
    if n_units * size * 8 > MAX_DENSE_BYTES:
        raise input_error(
            "interval",
            f"'percentile' for {n_units:,} instances or groups: BCa's jackknife "
            f"would hold {n_units:,} x {size} margins",
            "'bca'",
        )
    rows = np.arange(unit.size)
    # (units x pairs) weights, then (units x margins)
    by_unit = sparse.csr_array(
        (weight, (unit, table.row_pair[rows])),
        shape=(n_units, table.pair_margins.shape[0]),
    )
    unit_margins = by_unit @ table.pair_margins
    total = unit_margins.sum(axis=0)
    left_out = (total[None, :] - unit_margins).reshape(n_units, 3, -1)
    return scores_from_margins(np.maximum(left_out, 0.0), **options)


def _percentile(distribution, lower, upper):
    """Quantiles ``lower`` and ``upper`` (scalars or arrays of the columns'
    shape) of each column of ``distribution``, NaN left out."""
    low = _column_quantiles(distribution, lower)
    high = _column_quantiles(distribution, upper)
    return low, high


def _column_quantiles(distribution, q):
    """Quantile ``q[j]`` of column j (linear interpolation, NaN left out)."""
    values = np.sort(distribution, axis=0)  # NaN sort last
    n = (~np.isnan(values)).sum(axis=0)
    q = np.broadcast_to(np.asarray(q, dtype=np.float64), n.shape)
    position = np.where(np.isnan(q), 0.0, q) * np.maximum(n - 1, 0)
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, np.maximum(n - 1, 0))
    fraction = position - below
    columns = np.arange(values.shape[1]) if values.ndim > 1 else None
    if columns is None:
        lo, hi = values[below], values[above]
    else:
        lo, hi = values[below, columns], values[above, columns]
    result = lo + fraction * (hi - lo)
    return np.where((n == 0) | np.isnan(q), np.nan, result)


def _bounds(distribution, observed, jackknife, confidence_level, interval):
    """``(low, high, n_degenerate)`` of each column of ``distribution``.

    BCa (Efron and Tibshirani 1993, ch. 14): the bias correction ``z0`` from
    the share of resamples below the estimate (ties count half, as
    scipy.stats.bootstrap does) and the acceleration ``a`` from the
    jackknife's skewness shift the percentile levels. Where they are not
    defined the percentile interval stands.
    """
    alpha = (1.0 - confidence_level) / 2.0
    plain = _percentile(distribution, alpha, 1.0 - alpha)
    if interval == "percentile":
        return (*plain, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        valid = ~np.isnan(distribution)
        n = valid.sum(axis=0)
        below = ((distribution < observed) & valid).sum(axis=0)
        at_most = ((distribution <= observed) & valid).sum(axis=0)
        z0 = ndtri((below + at_most) / (2.0 * n))
        spread = np.nanmean(jackknife, axis=0) - jackknife
        a = np.nansum(spread**3, axis=0) / (6.0 * np.nansum(spread**2, axis=0) ** 1.5)
        levels = []
        for z in (ndtri(alpha), ndtri(1.0 - alpha)):
            levels.append(ndtr(z0 + (z0 + z) / (1.0 - a * (z0 + z))))
    defined = np.isfinite(levels[0]) & np.isfinite(levels[1]) & np.isfinite(observed)
    low = np.where(defined, _column_quantiles(distribution, levels[0]), plain[0])
    high = np.where(defined, _column_quantiles(distribution, levels[1]), plain[1])
    degenerate = int(np.sum(~defined & (n > 0)))
    return low, high, degenerate


@validate_params(
    {
        "y_true": TARGET_CONSTRAINTS["y_true"],
        "y_pred": TARGET_CONSTRAINTS["y_pred"],
        "metric": [Options(*METRICS)],
        "average": [Options("micro", "micro_all", "macro", "weighted")],
        "method": [Options(*METHODS)],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
        "groups": ["array-like", None],
        "n_resamples": [Interval(Integral, 1, MAX_RESAMPLES)],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "interval": [Options("bca", "percentile")],
        "beta": [Interval(Real, 0, None, closed="left")],
        "tn": [Options("complement", "diagonal")],
        "zero_division": ZERO_DIVISION,
        "random_state": [
            Interval(Integral, 0, 2**32 - 1),
            np.random.RandomState,
            None,
        ],
    }
)
def mlcm_confidence_intervals(
    y_true,
    y_pred,
    *,
    metric="f1",
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    groups=None,
    n_resamples=9999,
    confidence_level=0.95,
    interval="bca",
    beta=1.0,
    tn="complement",
    zero_division="warn",
    random_state=None,
):
    """Bootstrap confidence intervals of an MLCM score, averaged and per label.

    How sure is a score computed from one test set? The test set is resampled
    with replacement ``n_resamples`` times (whole groups with ``groups``), the
    score is recomputed on each resample, and the interval is read off that
    bootstrap distribution. Each resample re-weights the instances, so the
    cost is one matrix product per batch of resamples, not one MLCM per
    resample.

    Read more in the :ref:`User Guide <uncertainty>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    metric : {"f1", "precision", "recall", "fbeta", "specificity"}, default="f1"
        The score, as :func:`mlcm_f1_score` and the other scores compute it.

    average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
        How the label scores are averaged (see :func:`mlcm_f1_score`).

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read.

    labels : array-like of shape (n_kept,), default=None
        The labels to score, in that order.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; each resample multiplies them by the
        number of times it drew the instance.

    groups : array-like of shape (n_samples,), default=None
        The group of each instance (the patient of each image, say): whole
        groups are resampled (the cluster bootstrap). At least two groups.

    n_resamples : int, default=9999
        The number of bootstrap resamples, from 1 to 10**6.

    confidence_level : float, default=0.95
        The nominal coverage of the intervals, in (0, 1).

    interval : {"bca", "percentile"}, default="bca"
        "bca": bias-corrected and accelerated (second-order accurate; the
        jackknife over the instances or groups gives its acceleration).
        "percentile": the quantiles of the bootstrap distribution.

    beta : float, default=1.0
        Weight of recall in the F-score, for ``metric="fbeta"``.

    tn : {"complement", "diagonal"}, default="complement"
        The true negatives of specificity (see :func:`mlcm_specificity_score`).

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero, on the test set and in
        the resamples ("warn" acts as 0.0 and warns for the test set only).
        NaN values are left out of averages and of the bounds; how many
        resamples had an undefined label score is in the result.

    random_state : int, RandomState instance or None, default=None
        The seed of the resamples: the same seed gives the same numbers.

    Returns
    -------
    result : ConfidenceIntervalResult
        ``estimate, (low, high) = result``; per label
        ``result.label_estimates`` and ``result.label_confidence_interval``.

    See Also
    --------
    mlcm_paired_comparison : The interval of the difference between two
        classifiers on the same test set, and its p-value.
    scipy.stats.bootstrap : Bootstrap intervals of any statistic; it takes a
        statistic of the data, where here the resamples are weights.

    Notes
    -----
    The bootstrap treats the instances (or the groups) as independent draws
    from the population the test set comes from: the interval is about the
    test sample, not about the training. Its coverage is checked by
    simulation in the tests (about 95 % for 95 % intervals, from a few
    hundred instances). BCa is computed here from Efron and Tibshirani's
    formulas with :func:`scipy.special.ndtr` and :func:`scipy.special.ndtri`,
    as :func:`scipy.stats.bootstrap` does; that function draws the resamples
    itself, of the data, and cannot be given weights of instances or
    vector-valued scores on the oldest SciPy supported.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, ch. 14.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_mlcm import mlcm_confidence_intervals
    >>> rng = np.random.default_rng(0)
    >>> y_true = (rng.random((300, 4)) < 0.3).astype(int)
    >>> y_pred = y_true ^ (rng.random((300, 4)) < 0.1)
    >>> result = mlcm_confidence_intervals(y_true, y_pred, n_resamples=999,
    ...                                    random_state=0)
    >>> estimate, (low, high) = result
    >>> round(estimate, 3), round(low, 3), round(high, 3)
    (0.716, 0.676, 0.756)
    >>> result.label_confidence_interval.low.round(3)
    array([0.579, 0.739, 0.64 , 0.642])
    """
    space = check_mlcm_targets(y_true, y_pred, labels=labels)
    true, pred, target_names = space.y_true, space.y_pred, space.names
    n = true.shape[0]
    weight = check_sample_weight(sample_weight, n)
    weight = np.ones(n) if weight is None else weight
    unit, n_units = check_groups(groups, n)
    table = Margins(true, pred, method)
    options = {
        "metric": metric,
        "average": average,
        "beta": float(beta),
        "tn": tn,
        "zero_division": 0.0 if zero_division == "warn" else zero_division,
    }
    score, label = scores_from_margins(
        resampled_margins(table, weight[None, :]),
        **{**options, "zero_division": zero_division},
    )
    seed = int(check_random_state(random_state).randint(2**31 - 1))
    boot, label_boot, undefined = _resample(
        table, weight, unit, n_units, n_resamples, seed, options
    )
    jack = jack_label = None
    if interval == "bca":
        jack, jack_label = _jackknife(table, weight, unit, n_units, options)
    low, high, degenerate = _bounds(
        boot[:, None],
        score,
        None if jack is None else jack[:, None],
        confidence_level,
        interval,
    )
    label_low, label_high, label_degenerate = _bounds(
        label_boot, label[0], jack_label, confidence_level, interval
    )
    return ConfidenceIntervalResult(
        estimate=float(score[0]),
        confidence_interval=ConfidenceInterval(float(low[0]), float(high[0])),
        label_estimates=label[0],
        label_confidence_interval=ConfidenceInterval(label_low, label_high),
        target_names=list(target_names),
        interval=interval,
        n_resamples=int(n_resamples),
        bootstrap_distribution=boot,
        label_bootstrap_distribution=label_boot,
        label_n_undefined=undefined.sum(axis=0),
        n_undefined=int(undefined.any(axis=1).sum()),
        n_degenerate=degenerate + label_degenerate,
    )
