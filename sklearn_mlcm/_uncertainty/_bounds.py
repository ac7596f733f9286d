"""The bounds of bootstrap distributions: percentile and BCa, and the one
warning of the intervals that cannot be trusted.

The last step of :func:`~sklearn_mlcm._uncertainty._intervals.bootstrap_intervals`
(:mod:`._bounding`): the resampled values of each score (resamples x columns)
and, for BCa, the jackknife's (each kind of unit left out) give its bounds
(Efron and Tibshirani 1993, ch. 14); the flagged intervals and the estimates
that lie outside their own interval are named in one
:class:`~scipy.stats.DegenerateDataWarning` per call.
"""

import warnings

import numpy as np
from scipy.special import ndtr, ndtri
from scipy.stats import DegenerateDataWarning

from sklearn_mlcm._statistics import caller_stacklevel

__all__ = [
    "OUTSIDE_NAMED",
    "OUTSIDE_RESAMPLES",
    "OUTSIDE_SHARE",
    "bca_acceleration",
    "bootstrap_bounds",
    "estimates_outside",
    "flagged_message",
    "outside_message",
    "sum_acceleration",
    "warn_degenerate",
    "warn_outside",
]


def _quantiles(ordered, n_valid, level):
    """Quantile ``level[j]`` (linear interpolation) of row j of ``ordered``
    (columns x resamples, sorted, NaN last, ``n_valid[j]`` values)."""
    level = np.broadcast_to(np.asarray(level, dtype=np.float64), n_valid.shape)
    top = np.maximum(n_valid - 1, 0)
    position = np.where(np.isnan(level), 0.0, level) * top
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, top)
    fraction = position - below
    lo = np.take_along_axis(ordered, below[:, None], axis=1)[:, 0]
    hi = np.take_along_axis(ordered, above[:, None], axis=1)[:, 0]
    result = lo + fraction * (hi - lo)
    return np.where((n_valid == 0) | np.isnan(level), np.nan, result)


def bootstrap_bounds(distribution, observed, acceleration, confidence_level, interval):
    """``(low, high, n_degenerate)`` of each column of ``distribution``
    (resamples x columns), NaN left out.

    BCa (Efron and Tibshirani 1993, ch. 14): the bias correction ``z0`` from
    the share of resamples below the estimate (ties count half, as
    scipy.stats.bootstrap does) and the ``acceleration`` (from the
    jackknife) shift the percentile levels. Where they are not defined the
    percentile interval stands.
    """
    alpha = (1.0 - confidence_level) / 2.0
    ordered = np.sort(distribution.T, axis=1)  # one sort per column, NaN last
    valid = ~np.isnan(distribution)
    n = valid.sum(axis=0)
    plain = (_quantiles(ordered, n, alpha), _quantiles(ordered, n, 1.0 - alpha))
    if interval == "percentile":
        return (*plain, 0)
    # values within rounding of the estimate are ties with it: the same
    # ratio computed from other sums (weights scaled by 0.1, say) may land
    # an ulp to either side, which would move z0 and the bounds
    tol = 1e-12 * np.maximum(np.abs(observed), 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        below = ((distribution < observed - tol) & valid).sum(axis=0)
        at_most = ((distribution <= observed + tol) & valid).sum(axis=0)
        z0 = ndtri((below + at_most) / (2.0 * n))
        levels = [
            ndtr(z0 + (z0 + z) / (1.0 - acceleration * (z0 + z)))
            for z in (ndtri(alpha), ndtri(1.0 - alpha))
        ]
    defined = np.isfinite(levels[0]) & np.isfinite(levels[1]) & np.isfinite(observed)
    low = np.where(defined, _quantiles(ordered, n, levels[0]), plain[0])
    high = np.where(defined, _quantiles(ordered, n, levels[1]), plain[1])
    return low, high, int(np.sum(~defined & (n > 0)))


def bca_acceleration(jackknife, multiplicity):
    """BCa's acceleration of each column of the leave-one-unit-out values
    (kinds x columns), each kind counting ``multiplicity`` times, NaN left
    out. Spreads within rounding of the mean count as none: equal values
    have no skewness (NaN, and the percentile interval), not a random one."""
    valid = ~np.isnan(jackknife)
    with np.errstate(invalid="ignore", divide="ignore"):
        if valid.all():
            mean = multiplicity @ jackknife / multiplicity.sum()
            weight = multiplicity[:, None]
        else:
            weight = np.where(valid, multiplicity[:, None], 0.0)
            values = np.where(valid, jackknife, 0.0)
            mean = (values * weight).sum(axis=0) / weight.sum(axis=0)
        spread = np.where(valid, mean - jackknife, 0.0)
        tiny = 1e-12 * np.maximum(np.abs(mean), 1.0)
        spread = np.where(np.abs(spread) <= tiny, 0.0, spread)
        square = spread * spread  # not ** 3: NumPy's pow is 10x slower
        if valid.all():
            third = multiplicity @ (square * spread)
            return third / (6.0 * (multiplicity @ square) ** 1.5)
        return (weight * square * spread).sum(axis=0) / (
            6.0 * (weight * square).sum(axis=0) ** 1.5
        )


def sum_acceleration(contributions, multiplicity):
    """BCa's acceleration of a sum over the units (a cell of the matrix):
    leaving unit i out gives the total less x_i, so the jackknife's spread is
    x_i less the mean, from the raw moments of the sparse contributions."""
    n = multiplicity.sum()
    s1 = multiplicity @ contributions
    s2 = multiplicity @ contributions.power(2)
    s3 = multiplicity @ contributions.power(3)
    mean = s1 / n
    second = s2 - n * mean**2
    third = s3 - 3 * mean * s2 + 2 * n * mean**3
    with np.errstate(invalid="ignore", divide="ignore"):
        return third / (6.0 * np.maximum(second, 0.0) ** 1.5)


#: An estimate outside its interval is warned of when this share of the
#: resamples lies on one side of it: in the outer 2.5 % of its own bootstrap
#: distribution, where the resamples of a centred one fall with odds of
#: 2**-39 or less (with :data:`OUTSIDE_RESAMPLES`).
OUTSIDE_SHARE = 0.975

#: ... and from this many valid resamples: the fewest that resolve a 95 %
#: interval's tails (:func:`min_resamples`).
OUTSIDE_RESAMPLES = 39

#: How many of the scores outside their intervals the warning names.
OUTSIDE_NAMED = 3

#: How many flagged averages, and labels of one reason, the warning names.
FLAGGED_NAMED = 5


def estimates_outside(distribution, estimate, low, high):
    """``[(column, estimate, low, high, mean, side, n_side, n_valid)]`` of the
    columns of ``distribution`` (resamples x columns) whose finite
    ``estimate`` lies outside its bounds (beyond rounding, as
    :func:`bootstrap_bounds` counts ties) with at least :data:`OUTSIDE_SHARE`
    of at least :data:`OUTSIDE_RESAMPLES` valid resamples strictly on one
    ``side`` of it ("above" or "below": ``n_side`` of ``n_valid``, of mean
    ``mean``). The
    percentile interval then lies beyond the estimate, and BCa's, whose bias
    correction is then large, can overshoot to the other side. A narrow
    interval (a low level, a few resamples) that misses a centred estimate by
    chance is not one of them."""
    tol = 1e-12 * np.maximum(np.abs(estimate), 1.0)
    with np.errstate(invalid="ignore"):
        outside = (estimate < low - tol) | (estimate > high + tol)
    found = []
    for j in np.flatnonzero(outside).tolist():  # NaN is never outside
        values = distribution[:, j]
        valid = values[~np.isnan(values)]
        above = int((valid > estimate[j] + tol[j]).sum())
        below = int((valid < estimate[j] - tol[j]).sum())
        side, n_side = ("above", above) if above >= below else ("below", below)
        if valid.size >= OUTSIDE_RESAMPLES and n_side >= OUTSIDE_SHARE * valid.size:
            bounds = (estimate[j], low[j], high[j])
            found.append((j, *bounds, valid.mean(), side, n_side, valid.size))
    return found


def warn_outside(outside, names, *, confidence_level, interval, n_resamples):
    """One :class:`~scipy.stats.DegenerateDataWarning` naming the scores whose
    estimate lies outside its own interval (:func:`outside_message`), if
    any."""
    message = outside_message(
        outside,
        names,
        confidence_level=confidence_level,
        interval=interval,
        n_resamples=n_resamples,
    )
    if message is not None:
        warnings.warn(message, DegenerateDataWarning, stacklevel=caller_stacklevel())


def outside_message(outside, names, *, confidence_level, interval, n_resamples):
    """The words that name the scores whose estimate lies outside its own
    interval, or None: ``outside`` holds ``(key, [(column, estimate, low,
    high, mean, side, n_side, n_valid)])`` per score (key a metric, per
    label, or ``(metric, average)``), averages first.

    The bootstrap is then not centred on the estimate (a ratio that rests on
    few units: the resamples that miss them move it one way). The bounds are
    kept as read (scipy.stats.bootstrap keeps its percentile bounds too, and
    gives NaN and this warning where BCa is undefined); this says so rather
    than leaving it silent.
    """
    averaged, per_label = [], []
    for key, found in outside:
        for column, *values in found:
            if isinstance(key, tuple):
                averaged.append((f"{key[0]}, {key[1]} avg", *values))
            else:
                label = names[column] if names is not None else column
                per_label.append((f"{key} of label {label!r}", *values))
    found = averaged + per_label
    if not found:
        return None
    bca = interval == "bca"
    kind = "BCa" if bca else "percentile"
    level = f"{100 * confidence_level:g}%"
    named = found[:OUTSIDE_NAMED]
    shown = "; ".join(
        f"{what} = {estimate:.4g} outside [{low:.4g}, {high:.4g}] "
        f"({n_side:,} of {valid:,} resamples {side} it, their mean {mean:.4g}"
        + (", BCa undefined: percentile bounds" if bca and n_side == valid else "")
        + ")"
        for what, estimate, low, high, mean, side, n_side, valid in named
    )
    more = len(found) - OUTSIDE_NAMED
    return (
        f"{len(found):,} estimate{'s' if len(found) > 1 else ''} outside "
        f"{'their' if len(found) > 1 else 'its'} own {level} {kind} bootstrap "
        f"interval ({n_resamples:,} resamples): {shown}"
        + (f"; and {more:,} more" if more > 0 else "")
        + ". The bootstrap distribution of such a score is shifted from its "
        "estimate (a ratio resting on a few instances, which many resamples "
        "miss); the estimate is then likely biased too, and the interval "
        "says little about the population's value (see the Notes of "
        "mlcm_confidence_intervals)."
    )


#: What each kind of flag means, said once in the warning where one of its
#: kind is named (the reasons' words, :mod:`._flags`).
_FLAG_MEANINGS = (
    (
        "undefined",
        "a score with a zero denominator is zero_division's value, not a measurement",
    ),
    (
        "labels have <",
        "a macro average over labels this rare has no interval that holds its coverage",
    ),
    ("few ", "a bootstrap interval of a label this rare collapses"),
    (
        "bootstrap-t excluded",
        "a bootstrap-t that excluded its estimate (resamples shifted to one "
        "side) was widened to reach it; the estimate is likely biased",
    ),
)


def flagged_message(flags, names, *, confidence_level):
    """The words that name the intervals carrying a flag
    (:attr:`ScoreInterval.flag`), or None: ``flags`` holds ``(key, flag)``
    per score, key a metric (flag a tuple, one reason or None per label) or
    ``(metric, average)`` (one reason or None).

    The flagged averages come first, each with its reason; then the flagged
    labels, grouped by metric and reason ("precision of 'Class9', 'Class3':
    undefined: never predicted"), :data:`FLAGGED_NAMED` names a group; then
    what the kinds of reasons named mean, each once. These are the
    intervals whose coverage the library cannot stand behind (see
    :mod:`~sklearn_mlcm._uncertainty._flags`).
    """
    averaged, per_label = [], {}
    for key, flag in flags:
        if isinstance(key, tuple):
            if flag is not None:
                averaged.append(f"{key[0]}, {key[1]} avg: {flag}")
            continue
        for column, reason in enumerate(flag or ()):
            if reason is not None:
                label = names[column] if names is not None else column
                per_label.setdefault((key, reason), []).append(repr(label))
    if not averaged and not per_label:
        return None
    groups = []
    for (metric, reason), labels in per_label.items():
        shown = ", ".join(labels[:FLAGGED_NAMED])
        more = len(labels) - FLAGGED_NAMED
        shown += f" and {more:,} more" if more > 0 else ""
        groups.append(f"{metric} of {shown}: {reason}")
    named = averaged[:FLAGGED_NAMED] + groups[:FLAGGED_NAMED]
    more = len(averaged) + len(groups) - len(named)
    said = " ".join(averaged + [reason for _, reason in per_label])
    meanings = [meaning for words, meaning in _FLAG_MEANINGS if words in said]
    level = f"{100 * confidence_level:g}%"
    return (
        f"{level} intervals flagged, their coverage not held: "
        + "; ".join(named)
        + (f"; and {more:,} more" if more > 0 else "")
        + ". "
        + "".join(f"{meaning[0].upper()}{meaning[1:]}. " for meaning in meanings)
        + "The flags are in the result (ScoreInterval.flag, the report's "
        "'<score> flag')."
    )


def warn_degenerate(flags, outside, names, *, confidence_level, interval, n_resamples):
    """One :class:`~scipy.stats.DegenerateDataWarning` per call, where any
    interval is flagged (:func:`flagged_message`) or any estimate lies
    outside its bootstrap interval (:func:`outside_message`): both said in
    it, the flagged first."""
    messages = [
        flagged_message(flags, names, confidence_level=confidence_level),
        outside_message(
            outside,
            names,
            confidence_level=confidence_level,
            interval=interval,
            n_resamples=n_resamples,
        ),
    ]
    messages = [message for message in messages if message is not None]
    if messages:
        warnings.warn(
            " ".join(messages), DegenerateDataWarning, stacklevel=caller_stacklevel()
        )
