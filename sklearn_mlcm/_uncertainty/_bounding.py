"""Each score's interval off one call's resamples, flagged where it cannot
be trusted.

:func:`score_intervals` bounds every score of a :class:`~._resampling.Call`
from its :class:`~._resampling.Scores` and :class:`~._resampling.Draws`:

- the labels of a ratio of counts (:data:`~._score_intervals.RATIOS`): the
  modified Wilson score interval on the design-effect number of trials, off the
  call's :class:`~._score_intervals.ScoreBasis` (no resampling);
- their macro averages: the bootstrap-t, off the resamples' macro averages
  and linearised variances, widened to its estimate where it would exclude
  it;
- every other score: the percentile or BCa bounds of its resamples
  (:mod:`._bounds`);

then flags each (:mod:`._flags`) and warns once of the flagged intervals and
of the estimates outside their bootstrap intervals. :func:`matrix_interval`
bounds the matrix's cells.
"""

from dataclasses import dataclass, replace

import numpy as np

from sklearn_mlcm._results import ConfidenceInterval
from sklearn_mlcm._statistics import undefined_mask

from ._bounds import (
    bca_acceleration,
    bootstrap_bounds,
    estimates_outside,
    sum_acceleration,
    warn_degenerate,
)
from ._flags import WIDENED, average_flag, label_flags, label_support
from ._interval_result import ScoreInterval
from ._margins import margin_counts
from ._parallel import run_ranges
from ._score_intervals import (
    RATIOS,
    form_moments,
    label_score_intervals,
    studentised_bounds,
)

__all__ = ["matrix_interval", "score_intervals"]


@dataclass(frozen=True)
class _Task:
    """One score to bound: ``key`` is a metric (its labels, as arrays) or
    ``(metric, average)``; its ``distribution`` over the resamples, its
    ``estimate``, its ``jackknife`` values (None but for BCa) and
    ``n_undefined`` (:attr:`ScoreInterval.n_undefined`)."""

    key: object
    distribution: np.ndarray
    estimate: object
    jackknife: np.ndarray | None
    n_undefined: object


@dataclass(frozen=True)
class _Bounded:
    """A bounded score: its :class:`ScoreInterval`, the columns whose
    estimate lies outside their bootstrap interval
    (:func:`estimates_outside`), and whether a bootstrap-t was ``widened``
    to reach its estimate with at least 97.5 % of the resamples on that side,
    which flags it (:func:`studentised_bounds`)."""

    interval: ScoreInterval
    outside: list
    widened: bool = False


def _tasks(call, scores):
    """One :class:`_Task` per score to bound: each metric's labels, then its
    averages."""
    observed, resampled, jackknife = scores.observed, scores.resampled, scores.jackknife
    tasks = []
    for metric in call.metrics:
        undefined = resampled.undefined[metric]
        tasks.append(
            _Task(
                key=metric,
                distribution=resampled.labels[metric],
                estimate=observed.labels[metric][0],
                jackknife=None if jackknife is None else jackknife.labels[metric],
                n_undefined=undefined.sum(axis=0),
            )
        )
        n_any = int(undefined.any(axis=1).sum())
        for average in call.all_averages:
            if average == "samples":
                if metric not in call.samples.slots:  # it has no samples form
                    continue
                n_any = int(resampled.undefined["samples"].sum())
            key = (metric, average)
            tasks.append(
                _Task(
                    key=key,
                    distribution=resampled.averaged[key],
                    estimate=observed.averaged[key][0],
                    jackknife=(
                        None if jackknife is None else jackknife.averaged[key][:, None]
                    ),
                    n_undefined=n_any,
                )
            )
    return tasks


def _interval_of(call, task):
    """The :class:`_Bounded` interval of one :class:`_Task`."""
    distribution, estimate, jackknife = task.distribution, task.estimate, task.jackknife
    two_d = distribution.reshape(call.n_resamples, -1)
    acceleration = (
        None
        if jackknife is None
        else bca_acceleration(
            jackknife.reshape(jackknife.shape[0], -1), call.units.multiplicity
        )
    )
    est = np.atleast_1d(estimate).astype(np.float64)
    low, high, degenerate = bootstrap_bounds(
        two_d, est, acceleration, call.confidence_level, call.interval
    )
    outside = estimates_outside(two_d, est, low, high)
    if np.ndim(estimate) == 0:
        bounds = ConfidenceInterval(float(low[0]), float(high[0]))
        estimate = float(estimate)
    else:
        bounds = ConfidenceInterval(low, high)
    return _Bounded(
        interval=ScoreInterval(
            estimate=estimate,
            confidence_interval=bounds,
            n_undefined=task.n_undefined,
            n_degenerate=degenerate,
            bootstrap_distribution=(
                distribution if call.return_distributions else None
            ),
        ),
        outside=outside,
    )


def _score_interval_of(call, task, draws):
    """The :class:`_Bounded` score interval of a ratio's labels (modified
    Wilson's on the effective trials, :func:`label_score_intervals`, off the call's
    :class:`~._score_intervals.ScoreBasis`), or the bootstrap-t of its macro
    average, read off the resamples' macro averages and linearised
    variances of ``draws`` and centred on the reported estimate; one that
    would exclude it is widened to reach it (``widened``, then flagged). A
    label whose ratio is undefined on the test set (a zero denominator) gets
    [0, 1], every value the population's ratio may take, or NaN bounds where
    its estimate is NaN (``zero_division=np.nan``)."""
    basis = call.basis
    widened = False
    if isinstance(task.key, str):
        moments = form_moments(basis.forms[task.key], basis.moments)
        found = label_score_intervals(moments, confidence_level=call.confidence_level)
        estimate = np.asarray(task.estimate, dtype=np.float64)
        known = np.isfinite(estimate)
        low = np.where(np.isnan(found.low), np.where(known, 0.0, np.nan), found.low)
        high = np.where(np.isnan(found.high), np.where(known, 1.0, np.nan), found.high)
        bounds = ConfidenceInterval(low, high)
        estimate = task.estimate
    else:
        j = basis.macro.keys.index(task.key[0])
        estimate = float(task.estimate)
        low = high = np.nan
        if np.isfinite(estimate):
            low, high, widened = studentised_bounds(
                estimate,
                float(basis.macro_se[j]),
                draws.macro[0, j],
                draws.macro[1, j],
                confidence_level=call.confidence_level,
            )
        bounds = ConfidenceInterval(float(low), float(high))
    return _Bounded(
        interval=ScoreInterval(
            estimate=estimate,
            confidence_interval=bounds,
            n_undefined=task.n_undefined,
            n_degenerate=0,
            bootstrap_distribution=(
                task.distribution if call.return_distributions else None
            ),
        ),
        outside=[],
        widened=widened,
    )


def _uses_score_interval(key):
    """Whether the score ``key`` gets a score interval (a ratio's labels) or
    the bootstrap-t (a ratio's macro average), not the bootstrap's bounds."""
    if isinstance(key, str):
        return key in RATIOS
    return key[0] in RATIOS and key[1] == "macro"


def _flags(call, tasks, bounded):
    """Each task's flag (:attr:`ScoreInterval.flag`): per label a tuple of
    reasons or None (:func:`label_flags`), per average one
    (:func:`average_flag`, and :data:`~._flags.WIDENED` for a bootstrap-t
    widened to its estimate), from the labels' effective counts and where
    each metric is undefined on the test set."""
    units, shown = call.units, call.shown
    support = label_support(units, include_no_label=shown > units.n_labels)
    counts = [x[:, :shown] for x in margin_counts(units.observed(), call.tn)]
    defined = {}
    flags = {}
    for task in tasks:
        metric = task.key if isinstance(task.key, str) else task.key[0]
        if metric not in defined:
            undefined = undefined_mask(metric, *counts, beta=call.beta)[0]
            defined[metric] = (~undefined).astype(np.float64)
        if isinstance(task.key, str):
            kind = "score" if metric in RATIOS else "bootstrap"
            flags[task.key] = tuple(
                label_flags(support, defined[metric], metric, interval=kind)
            )
            continue
        flag = average_flag(support, defined[metric], metric, task.key[1])
        if bounded[task.key].widened:
            flag = WIDENED if flag is None else f"{flag}; {WIDENED}"
        flags[task.key] = flag
    return flags


def score_intervals(call, scores, draws):
    """Every score's :class:`ScoreInterval`, keyed as
    :func:`~._intervals.bootstrap_intervals` returns them: the scores are
    bounded independently (ranges of them across threads), each flagged
    where its interval cannot be trusted; then the flagged intervals and
    the estimates outside their bootstrap intervals are warned of in one
    warning, in the calling thread (:func:`warn_degenerate`)."""
    tasks = _tasks(call, scores)
    bounded = {}

    def bound_range(start, stop):
        for task in tasks[start:stop]:
            if _uses_score_interval(task.key):
                bounded[task.key] = _score_interval_of(call, task, draws)
            else:
                bounded[task.key] = _interval_of(call, task)

    run_ranges(bound_range, len(tasks), call.n_jobs)
    flags = _flags(call, tasks, bounded)
    warn_degenerate(
        [(task.key, flags[task.key]) for task in tasks],
        [(task.key, bounded[task.key].outside) for task in tasks],
        call.names,
        confidence_level=call.confidence_level,
        interval=call.interval,
        n_resamples=call.n_resamples,
    )
    return {
        task.key: replace(bounded[task.key].interval, flag=flags[task.key])
        for task in tasks
    }


def matrix_interval(call, draws):
    """The cells' :class:`ScoreInterval`: each a sum over the units, whose
    BCa acceleration comes from the moments of the kinds' cells."""
    q1, contributions, cells = call.q1, draws.contributions, draws.cells
    estimate = call.units.multiplicity @ contributions
    acceleration = None
    if call.interval == "bca":
        acceleration = sum_acceleration(contributions, call.units.multiplicity)
    low, high, degenerate = bootstrap_bounds(
        cells, estimate, acceleration, call.confidence_level, call.interval
    )
    return ScoreInterval(
        estimate=estimate.reshape(q1, q1),
        confidence_interval=ConfidenceInterval(
            low.reshape(q1, q1), high.reshape(q1, q1)
        ),
        n_undefined=0,
        n_degenerate=degenerate,
        bootstrap_distribution=(
            cells.reshape(-1, q1, q1) if call.return_distributions else None
        ),
    )
