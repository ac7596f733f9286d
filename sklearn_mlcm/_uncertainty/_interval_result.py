"""The results of the bootstrap intervals, and their packaging.

:class:`ScoreInterval` is one score's interval, as
:func:`~sklearn_mlcm._uncertainty._intervals.bootstrap_intervals` gives it;
:class:`ConfidenceIntervalResult` is what
:func:`~sklearn_mlcm.mlcm_confidence_intervals` returns (and
:class:`~sklearn_mlcm.MLCMAccumulator`'s Poisson bootstrap too), its summary
and frame; :func:`package_result` packs the scores into it.
"""

from dataclasses import dataclass

import numpy as np

from sklearn_mlcm._results import ConfidenceInterval, unpackable
from sklearn_mlcm._summary import (
    format_number,
    format_table,
    label_frame,
    label_rows,
    label_section,
)

__all__ = [
    "STREAM_UNITS",
    "ConfidenceIntervalResult",
    "ScoreInterval",
    "package_result",
]


@unpackable("estimate", "confidence_interval")
@dataclass(frozen=True)
class ScoreInterval:
    """One score (or the matrix): its estimate and its bootstrap interval.

    Unpacks as ``estimate, (low, high) = interval``. For an averaged score
    the values are Python floats; per label, arrays of shape (n_labels,);
    for the matrix, arrays of shape (n_labels + 1, n_labels + 1).

    Attributes
    ----------
    estimate : float or ndarray
        The value on the test set.

    confidence_interval : ConfidenceInterval
        ``(low, high)``, of the shape of ``estimate``.

    n_undefined : int or ndarray of shape (n_labels,), dtype=int64
        Per label: in how many resamples the label's ratio had a zero
        denominator (and so took ``zero_division``). For an average: in how
        many resamples at least one label's did. 0 for the matrix.

    n_degenerate : int
        For BCa: how many of the values' intervals fell back to the
        percentile interval (every resample on one side of the estimate, or
        a jackknife with no spread).

    bootstrap_distribution : ndarray of shape (n_resamples, ...) or None
        The value in each resample, with ``return_distributions=True``.

    flag : str, tuple of (str or None), or None
        Why the interval cannot be trusted, or None where it can (the
        reasons of :mod:`~sklearn_mlcm._uncertainty._flags`: "undefined:
        never predicted", "12 of 53 labels have < 5 positives"...). For an
        averaged score one reason or None; per label a tuple of
        ``n_labels`` of them; None for the matrix.
    """

    estimate: object
    confidence_interval: ConfidenceInterval
    n_undefined: object
    n_degenerate: int
    bootstrap_distribution: object = None
    flag: object = None


@unpackable("estimate", "confidence_interval")
@dataclass(frozen=True, repr=False)
class ConfidenceIntervalResult:
    """The outcome of :func:`mlcm_confidence_intervals`.

    Unpacks like a scipy.stats result: ``estimate, (low, high) = result``, the
    score chosen by ``metric`` and ``average``; every score of the report is
    in ``scores``, the matrix's cells in ``matrix``. It prints a summary of
    at most 40 lines: the chosen score and its interval, every average of
    it, then the labels with the widest intervals (all labels up to 20);
    :meth:`to_frame` gives every score of every label and average.

    Attributes
    ----------
    estimate : float
        The chosen averaged score on the test set.

    confidence_interval : ConfidenceInterval
        ``(low, high)``, the bootstrap interval of ``estimate``.

    label_estimates : ndarray of shape (n_labels,)
        Each label's value of the chosen score.

    label_confidence_interval : ConfidenceInterval
        ``(low, high)``, arrays of shape (n_labels,): each label's interval.

    scores : dict of str to ScoreInterval
        Every score, from the same resamples: per label under the metric's
        name, ``"precision"``, ``"recall"``, ``"f1"`` and ``"specificity"``
        (arrays of shape (n_labels,)), and averaged under
        ``"<metric>_<average>"`` for the averages "micro", "macro" and
        "weighted" (``"f1_macro"``, ``"recall_micro"``: floats). The chosen
        ``metric`` and ``average`` are there too (``"fbeta"``,
        ``"f1_micro_all"``).

    matrix : ScoreInterval or None
        With ``matrix=True``: each cell of the MLCM, estimate and bounds of
        shape (n_labels + 1, n_labels + 1).

    target_names : list of str
        The label names: frame columns, class values or column indices (and
        ``"no label"`` last with ``include_no_label=True``).

    interval : {"bca", "percentile"}
        How the bounds were read off the bootstrap distribution.

    confidence_level : float
        The nominal coverage of the intervals.

    n_resamples : int
        The number of bootstrap resamples.

    n_units : int
        The number of units resampled: instances, or groups with ``groups``.

    n_distinct_units : int
        How many of them differ (in pair and weight, for instances): the
        size of each resample's draw.

    bootstrap_distribution : ndarray of shape (n_resamples,)
        The chosen averaged score in each resample.

    label_bootstrap_distribution : ndarray of shape (n_resamples, n_labels) \
            or None
        The chosen score of each label in each resample, with
        ``return_distributions=True``.

    label_n_undefined : ndarray of shape (n_labels,), dtype=int64
        In how many resamples each label's chosen score was undefined (a zero
        denominator) and so set by ``zero_division``.

    n_undefined : int
        In how many resamples at least one label's was.

    n_degenerate : int
        For ``interval="bca"``: how many of the chosen score's 1 + n_labels
        intervals fell back to the percentile interval.

    metric : str or None
        The chosen score (``"f1"``, ``"fbeta"``...), the ``metric`` of the
        call.

    average : str or None
        How it is averaged (``"macro"``...), the ``average`` of the call.

    method : str or None
        The matrix read, ``"heydarian"`` or ``"krstinic"``.

    units : str
        What a resampled unit is: ``"instances"``, or ``"groups"`` with
        ``groups``; ``"stream instances"`` from
        :meth:`MLCMAccumulator.confidence_intervals`, whose replicates weigh
        each instance of the stream by Poisson(1) counts.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    label_estimates: np.ndarray
    label_confidence_interval: ConfidenceInterval
    scores: dict
    matrix: object
    target_names: list
    interval: str
    confidence_level: float
    n_resamples: int
    n_units: int
    n_distinct_units: int
    bootstrap_distribution: np.ndarray
    label_bootstrap_distribution: object
    label_n_undefined: np.ndarray
    n_undefined: int
    n_degenerate: int
    metric: str = None
    average: str = None
    method: str = None
    units: str = "instances"

    def __repr__(self):
        return _interval_summary(self)

    def to_frame(self):
        """Every score of every label and average, one row each.

        Returns
        -------
        frame : pandas.DataFrame
            Index named ``"label"``: the label names (``target_names``),
            then ``"micro avg"``, ``"macro avg"``, ``"weighted avg"`` (and
            ``"micro_all avg"`` when it was chosen). Column ``kind``
            (``"label"`` or ``"average"``), then for each score of
            :attr:`scores` (``precision``, ``recall``, ``f1``,
            ``specificity``, and the chosen ``metric``) its estimate and
            bounds, ``"<score>"``, ``"<score> low"`` and ``"<score> high"``:
            the values of :attr:`scores`, as they are; and ``"<score> flag"``,
            why the interval cannot be trusted (:attr:`ScoreInterval.flag`),
            or None.

        Raises
        ------
        ImportError
            Without pandas (``pip install "sklearn-mlcm[pandas]"``).
        """
        return _interval_frame(self)


def _interval_averages(result):
    """The averages of ``result.scores``, in the order computed."""
    averages = []
    for key in result.scores:
        metric, _, average = key.partition("_")
        if average and average not in averages:
            averages.append(average)
    return averages


def _interval_frame(result):
    """:meth:`ConfidenceIntervalResult.to_frame`."""
    averages = _interval_averages(result)
    parts = {
        "": lambda value: value.estimate,
        " low": lambda value: value.confidence_interval.low,
        " high": lambda value: value.confidence_interval.high,
    }
    columns = {}
    n_labels = len(result.target_names)
    for metric in (key for key in result.scores if "_" not in key):
        averaged = [result.scores.get(f"{metric}_{a}") for a in averages]
        for suffix, part in parts.items():
            values = [np.nan if v is None else part(v) for v in averaged]
            columns[metric + suffix] = np.concatenate(
                [
                    np.asarray(part(result.scores[metric]), dtype=np.float64),
                    np.array(values, dtype=np.float64),
                ]
            )
        label_flag = result.scores[metric].flag or (None,) * n_labels
        columns[f"{metric} flag"] = np.array(
            [*label_flag, *(None if v is None else v.flag for v in averaged)],
            dtype=object,
        )
    return label_frame(
        "ConfidenceIntervalResult.to_frame()",
        list(result.target_names),
        [f"{a} avg" for a in averages],
        columns,
    )


def _interval_summary(result):
    """:class:`ConfidenceIntervalResult`'s summary (at most 40 lines)."""
    metric = result.metric or "score"
    kind = _interval_kind(result, result.metric, result.average)
    level = f"{100 * result.confidence_level:g}%"
    low, high = result.confidence_interval
    chosen = metric if result.average is None else f"{metric}, {result.average} avg"
    # units are drawn by kind: equal (true set, predicted set, weight)
    # instances are one kind
    distinct = result.units
    if result.units == "instances":
        distinct = "instances (true set, predicted set, weight)"
    stream = result.units == STREAM_UNITS
    drawn = "Poisson bootstrap replicates" if stream else "bootstrap resamples"
    lines = [
        f"ConfidenceIntervalResult: {chosen} = {format_number(result.estimate)}, "
        f"{level} {kind} interval [{format_number(low)}, {format_number(high)}]",
        f"{result.n_resamples:,} {drawn} of {result.n_units:,} "
        f"{result.units}, "
        + (f"{result.method} matrix, " if result.method else "")
        + f"{len(result.target_names):,} labels",
    ]
    if not stream:  # a stream weighs each instance of its own
        lines.append(
            f"{result.n_distinct_units:,} distinct {distinct}, "
            "each resampled as one kind"
        )
    if result.n_undefined:
        lines.append(
            f"undefined (zero_division) in {result.n_undefined:,} resamples for "
            "at least one label"
        )
    if result.n_degenerate:
        overall = f"the {result.average} avg" if result.average else "the overall score"
        lines += [
            f"{result.n_degenerate:,} of the {1 + len(result.target_names):,} BCa "
            f"intervals of {metric} ({len(result.target_names):,} labels and "
            f"{overall}) fell back to the percentile interval:",
            "  BCa is undefined there (every resample on one side of the estimate, "
            "or no jackknife spread), so their bounds are percentile bounds",
        ]
    averages = [
        (a, result.scores[f"{result.metric}_{a}"])
        for a in _interval_averages(result)
        if f"{result.metric}_{a}" in result.scores
    ]
    if averages:
        rows = [
            [f"{a} avg", format_number(v.estimate)]
            + [format_number(bound) for bound in v.confidence_interval]
            + ["*" if v.flag else ""]
            for a, v in averages
        ]
        lines += ["", *format_table(["average", metric, "low", "high", ""], rows)]
        lines += [f"* {a} avg: {v.flag}" for a, v in averages if v.flag]
    names = result.target_names
    estimate = np.asarray(result.label_estimates, dtype=np.float64)
    label_low, label_high = (
        np.asarray(bound, dtype=np.float64)
        for bound in result.label_confidence_interval
    )
    width = label_high - label_low
    shown = label_rows(len(names), -width)
    section = label_section(
        names,
        ["label", metric, "low", "high", "width"],
        (estimate, label_low, label_high, width),
        shown,
        result.label_n_undefined,
        "the widest intervals",
    )
    # the labels' intervals are made otherwise than the chosen average's
    label_kind = _interval_kind(result, result.metric, None)
    section[1] = f"{section[1][:-1]} ({level} {label_kind} intervals):"
    lines += section
    label_flags = result.scores[result.metric].flag if result.metric else None
    flagged = [(n, f) for n, f in zip(names, label_flags or ()) if f is not None]
    if flagged:
        shown_flags = "; ".join(f"{n}: {f}" for n, f in flagged[:3])
        more = f"; and {len(flagged) - 3:,} more" if len(flagged) > 3 else ""
        lines.append(f"flagged {metric} intervals: {shown_flags}{more}")
    every = ", ".join(key for key in result.scores if "_" not in key)
    lines.append(f"{every} of each label and average: .to_frame()")
    return "\n".join(lines)


#: The units of an accumulator's stream (:class:`ConfidenceIntervalResult`).
STREAM_UNITS = "stream instances"


def _interval_kind(result, metric, average):
    """How the interval of ``metric`` (averaged by ``average``) was made: the
    modified Wilson score interval for a ratio's labels, the bootstrap-t for
    its macro average, else the bootstrap of ``result.interval``."""
    from ._score_intervals import RATIOS

    if metric in RATIOS and average is None:
        return "modified Wilson score"
    if result.units == STREAM_UNITS:
        return "Poisson bootstrap percentile"
    if metric in RATIOS and average == "macro":
        return "bootstrap-t"
    return {"bca": "BCa", "percentile": "percentile"}.get(
        result.interval, result.interval
    )


def package_result(
    scores,
    cells,
    *,
    metric,
    average,
    target_names,
    interval,
    confidence_level,
    n_resamples,
    n_units,
    n_distinct_units,
    return_distributions,
    method,
    units="instances",
):
    """A :class:`ConfidenceIntervalResult` of the ``scores`` (metric or
    (metric, average) -> :class:`ScoreInterval`) and matrix ``cells``, the
    chosen ``metric`` and ``average`` in front; the distributions dropped
    unless ``return_distributions`` (but the chosen score's). ``method`` is
    the matrix read; ``units`` what a resampled unit is."""
    chosen, label = scores[metric, average], scores[metric]
    named = {}
    for key, value in scores.items():
        name = key if isinstance(key, str) else f"{key[0]}_{key[1]}"
        named[name] = value if return_distributions else _without_distribution(value)
    if cells is not None and not return_distributions:
        cells = _without_distribution(cells)
    return ConfidenceIntervalResult(
        estimate=chosen.estimate,
        confidence_interval=chosen.confidence_interval,
        label_estimates=label.estimate,
        label_confidence_interval=label.confidence_interval,
        scores=named,
        matrix=cells,
        target_names=target_names,
        interval=interval,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_units=n_units,
        n_distinct_units=n_distinct_units,
        bootstrap_distribution=chosen.bootstrap_distribution,
        label_bootstrap_distribution=(
            label.bootstrap_distribution if return_distributions else None
        ),
        label_n_undefined=label.n_undefined,
        n_undefined=chosen.n_undefined,
        n_degenerate=chosen.n_degenerate + label.n_degenerate,
        metric=metric,
        average=average,
        method=method,
        units=units,
    )


def _without_distribution(value):
    """The :class:`ScoreInterval` ``value`` without its bootstrap values."""
    return ScoreInterval(
        value.estimate,
        value.confidence_interval,
        value.n_undefined,
        value.n_degenerate,
        None,
        value.flag,
    )
