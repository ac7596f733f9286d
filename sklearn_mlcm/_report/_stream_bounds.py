"""The report's intervals of an accumulator's stream: each score's Poisson
bootstrap percentile interval off the replicates, the samples averages' off
their replicate sums, and the ratios' labels the modified Wilson's off the
streamed moments, each flagged as the one-shot report flags its own
(:func:`~sklearn_mlcm._uncertainty._stream_intervals.honest_intervals`)."""

import numpy as np

from sklearn_mlcm._results import ConfidenceInterval
from sklearn_mlcm._statistics import samples_values
from sklearn_mlcm._uncertainty._intervals import ScoreInterval
from sklearn_mlcm._uncertainty._margins import every_score
from sklearn_mlcm._uncertainty._score_intervals import RATIOS as RATIO_METRICS
from sklearn_mlcm._uncertainty._stream_intervals import (
    STREAM_MACRO,
    honest_intervals,
    matrix_margins,
    percentile_bounds,
)

from ._table import REPORT_AVERAGES, SAMPLES_AVERAGE, ReportBounds, score_key

__all__ = ["percentile_scores", "stream_report_bounds"]


def percentile_scores(
    matrix,
    replicates,
    *,
    metrics,
    averages,
    shown,
    confidence_level,
    beta,
    tn,
    zero_division,
    warn_for,
):
    """Every score's :class:`ScoreInterval` (percentile, with its values in
    the replicates): ``metric`` maps to the label intervals (shape (shown,)),
    ``(metric, average)`` to the averaged one. The estimates follow
    ``zero_division`` ("warn" warns for the metrics in ``warn_for``); the
    replicates take 0.0 for "warn"."""
    options = {"beta": beta, "tn": tn, "shown": shown}
    observed = every_score(
        matrix_margins(matrix),
        metrics,
        averages,
        zero_division=zero_division,
        warn_for=warn_for,
        **options,
    )
    silent = 0.0 if zero_division == "warn" else zero_division
    labels, overall, undefined = every_score(
        replicates, metrics, averages, zero_division=silent, undefined=True, **options
    )

    def interval_of(distribution, estimate, n_undefined):
        low, high = percentile_bounds(distribution, confidence_level)
        if np.ndim(estimate) == 0:
            estimate, bounds = (
                float(estimate),
                ConfidenceInterval(float(low), float(high)),
            )
        else:
            bounds = ConfidenceInterval(low, high)
        return ScoreInterval(estimate, bounds, n_undefined, 0, distribution)

    scores = {}
    for metric in metrics:
        scores[metric] = interval_of(
            labels[metric], observed[0][metric][0], undefined[metric].sum(axis=0)
        )
        n_any = int(undefined[metric].any(axis=1).sum())
        for average in averages:
            scores[metric, average] = interval_of(
                overall[metric, average], observed[1][metric, average][0], n_any
            )
    return scores


def stream_report_bounds(
    matrix,
    replicates,
    replicate_samples,
    state,
    *,
    names,
    statistics,
    n_rows,
    shown,
    confidence_level,
    zero_division,
):
    """The :class:`ReportBounds` of the report's scores of ``statistics``,
    per row and averaged (the samples average from ``replicate_samples``,
    the (B, 3, 3) sums of each replicate, for the statistics with a samples
    form), from the replicates (the report's own values have warned
    already), the ratios' labels the modified Wilson's off ``state``, each
    flagged (:func:`~._uncertainty._stream_intervals.honest_intervals`)."""
    metrics = tuple(score_key(statistic) for statistic in statistics)
    scores = percentile_scores(
        matrix,
        replicates,
        metrics=metrics,
        averages=REPORT_AVERAGES,
        shown=shown,
        confidence_level=confidence_level,
        beta=1.0,
        tn="complement",
        zero_division=zero_division,
        warn_for=(),
    )
    silent = 0.0 if zero_division == "warn" else zero_division
    values = samples_values(replicate_samples, silent)
    lows, highs = percentile_bounds(values, confidence_level)
    for metric, statistic in zip(metrics, statistics):
        if statistic.samples is None:
            continue
        j = statistic.samples.index
        interval = ConfidenceInterval(float(lows[j]), float(highs[j]))
        scores[metric, SAMPLES_AVERAGE] = ScoreInterval(None, interval, 0, 0)
    scores = honest_intervals(
        scores,
        state,
        matrix_margins(matrix),
        shown=shown,
        confidence_level=confidence_level,
        beta=1.0,
        tn="complement",
        names=names,
        n_resamples=len(replicates),
        return_distributions=False,
    )
    legend = (
        f"[low, high]: {100 * confidence_level:g}% percentile Poisson bootstrap "
        f"intervals, {len(replicates):,} replicates of the {n_rows:,} instances"
    )
    if any(metric in RATIO_METRICS for metric in metrics):
        legend += STREAM_MACRO
    return ReportBounds(scores, legend)
