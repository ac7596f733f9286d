"""Bootstrap confidence intervals of every MLCM score, and of the matrix.

The scores need only three margins of the matrix (diagonal, row sums,
column sums), each a sum over the instances of a contribution that depends
on the pair (true set, predicted set) and the weight alone. A resample is a
multinomial draw of how often each distinct kind of unit (instance or group)
is taken (:mod:`._table`), its margins one product of those counts with the
kinds' margins, and every score of the report is read off the same margins:
one set of resamples for all of them.
"""

import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy.special import ndtr, ndtri
from scipy.stats import DegenerateDataWarning
from sklearn.utils import check_random_state

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Interval,
    Options,
    Sequence,
    validate_params,
)
from sklearn_mlcm._results import ConfidenceInterval, unpackable
from sklearn_mlcm._statistics import (
    caller_stacklevel,
    samples_average,
    samples_values,
)
from sklearn_mlcm._summary import (
    format_number,
    format_table,
    label_frame,
    label_rows,
    label_section,
)
from sklearn_mlcm._validation import (
    MAX_DENSE_BYTES,
    check_target_names,
    input_error,
    validate_targets,
)

from ._margins import (
    BATCH_CELLS,
    MAX_RESAMPLES,
    METRICS,
    every_score,
    resamples_resolve_tails,
)
from ._parallel import N_JOBS, n_workers, run_ranges
from ._table import (
    DRAW_CELLS,
    UnitTable,
    check_two_units,
    combine_tables,
    dask_table,
    resample_counts,
    tabulate,
)

__all__ = [
    "ConfidenceIntervalResult",
    "ScoreInterval",
    "bootstrap_intervals",
    "mlcm_confidence_intervals",
    "unit_table",
]

#: Fewer units (instances, or groups) than this are resampled in one thread,
#: whatever ``n_jobs`` says. Measured on two cores: from 30,000 instances up
#: two threads took 0.6 to 0.8 of one thread's time, but below, in a process
#: whose heap a model's training had grown, they took 1.5 to 1.8 times as
#: long (7,209 to 16,384 instances): a small test set's chunks are many
#: short-lived arrays, which glibc's allocator hands back to the system and
#: faults in again in every thread.
THREADED_UNITS = 2**15

#: Floats a thread holds while it draws a chunk of resamples (DRAW_CELLS
#: positions, their counts, running counts and the kinds' counts, each at
#: most DRAW_CELLS), counted in the memory bound for each thread beyond one.
THREAD_FLOATS = 6 * DRAW_CELLS

#: The scores every interval result holds, per label and averaged, besides
#: the one asked for (the score functions' ``average`` options are
#: ``_scores.SCORE_AVERAGES``, a different list).
RESULT_METRICS = ("precision", "recall", "f1", "specificity")
RESULT_AVERAGES = ("micro", "macro", "weighted")


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
    """

    estimate: object
    confidence_interval: ConfidenceInterval
    n_undefined: object
    n_degenerate: int
    bootstrap_distribution: object = None


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
        ``groups``.
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
            the values of :attr:`scores`, as they are.

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
    return label_frame(
        "ConfidenceIntervalResult.to_frame()",
        list(result.target_names),
        [f"{a} avg" for a in averages],
        columns,
    )


def _interval_summary(result):
    """:class:`ConfidenceIntervalResult`'s summary (at most 40 lines)."""
    metric = result.metric or "score"
    kind = {"bca": "BCa", "percentile": "percentile"}.get(
        result.interval, result.interval
    )
    level = f"{100 * result.confidence_level:g}%"
    low, high = result.confidence_interval
    chosen = metric if result.average is None else f"{metric}, {result.average} avg"
    # units are drawn by kind: equal (true set, predicted set, weight)
    # instances are one kind
    distinct = result.units
    if result.units == "instances":
        distinct = "instances (true set, predicted set, weight)"
    lines = [
        f"ConfidenceIntervalResult: {chosen} = {format_number(result.estimate)}, "
        f"{level} {kind} interval [{format_number(low)}, {format_number(high)}]",
        f"{result.n_resamples:,} bootstrap resamples of {result.n_units:,} "
        f"{result.units}, "
        + (f"{result.method} matrix, " if result.method else "")
        + f"{len(result.target_names):,} labels",
        f"{result.n_distinct_units:,} distinct {distinct}, each resampled as one kind",
    ]
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
            for a, v in averages
        ]
        lines += ["", *format_table(["average", metric, "low", "high"], rows)]
    names = result.target_names
    estimate = np.asarray(result.label_estimates, dtype=np.float64)
    label_low, label_high = (
        np.asarray(bound, dtype=np.float64)
        for bound in result.label_confidence_interval
    )
    width = label_high - label_low
    shown = label_rows(len(names), -width)
    lines += label_section(
        names,
        ["label", metric, "low", "high", "width"],
        (estimate, label_low, label_high, width),
        shown,
        result.label_n_undefined,
        "the widest intervals",
    )
    every = ", ".join(key for key in result.scores if "_" not in key)
    lines.append(f"{every} of each label and average: .to_frame()")
    return "\n".join(lines)


# -- the units of the test set ---------------------------------------------------


def unit_table(targets, *, method):
    """Tabulate the distinct units of validated targets: ``(UnitTable,
    target names)``. ``targets`` is the call's
    :class:`~sklearn_mlcm._validation.Targets`. NumPy input is tabulated
    block by block, dask input chunk by chunk where it lives; both give the
    same table."""
    groups = targets.groups
    if targets.kind == "dask":
        table, n_labels, names = dask_table(targets)
    else:
        space = targets.space
        table = combine_tables(
            [tabulate(space.y_true, space.y_pred, targets.weight, groups)]
        )
        n_labels, names = space.n_labels, list(space.names)
    if groups is None:  # (empty targets are refused)
        check_two_units(int(table[4].sum()))
    else:
        check_two_units(table[3].size, groups=table[3])
    units = UnitTable(table, n_labels, method, grouped=groups is not None)
    return units, names


# -- bounds ------------------------------------------------------------------------


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


def _bounds(distribution, observed, acceleration, confidence_level, interval):
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


def _acceleration(jackknife, multiplicity):
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


def _sum_acceleration(contributions, multiplicity):
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


# -- the resampling ----------------------------------------------------------------


def _score_rows(margins, n_jobs, **options):
    """:func:`every_score` of the rows of ``margins`` (resamples or jackknife
    values, each row scored alone), ranges of rows across threads."""
    parts = {}

    def score(start, stop):
        parts[start] = every_score(margins[start:stop], **options)

    run_ranges(score, margins.shape[0], n_jobs)
    if len(parts) == 1:
        return parts[0]
    ordered = [parts[start] for start in sorted(parts)]
    return tuple(
        {key: np.concatenate([part[i][key] for part in ordered]) for key in table}
        for i, table in enumerate(ordered[0])
    )


def _check_memory(n_rows, n_columns, what, hint, parameter, got, threads=1):
    """Refuse a (n_rows, n_columns) float64 array past the dense limit, with
    the working buffers of ``threads`` threads beside it when there are
    several (one thread's are within the measured peak)."""
    reserve = threads * THREAD_FLOATS if threads > 1 else 0
    size = (n_rows * n_columns + reserve) * 8
    if size > MAX_DENSE_BYTES:
        beside = f" beside {threads} threads' buffers" if reserve else ""
        more = ", or fewer threads (n_jobs)" if reserve else ""
        raise input_error(
            parameter,
            f"small enough for {what} to fit in {MAX_DENSE_BYTES / 2**30:g} GiB "
            f"({n_rows:,} x {n_columns:,} values{beside} would take "
            f"{size / 2**30:.1f} GiB); {hint}{more}",
            got,
        )


def bootstrap_intervals(
    units,
    *,
    metrics,
    averages,
    shown,
    n_resamples,
    seed,
    confidence_level,
    interval,
    beta,
    tn,
    zero_division,
    warn_for=(),
    matrix=False,
    return_distributions=False,
    n_jobs=None,
    names=None,
):
    """Every score's :class:`ScoreInterval` from one set of resamples.

    Returns ``(scores, matrix)``: ``scores`` maps a metric to its label
    intervals (arrays of shape (shown,)) and ``(metric, average)`` to its
    averaged interval; ``matrix`` is the cells' :class:`ScoreInterval` or
    None. The estimates follow ``zero_division`` ("warn" warns for the
    metrics in ``warn_for``); the resamples take 0.0 for "warn".

    ``averages`` may hold "samples" (for precision, recall, F1 and F-beta):
    it is not read off the margins but off the sums of each kind of unit
    (:meth:`UnitTable.samples_sums`), drawn with the same counts. Its
    ``n_undefined`` counts the resamples that drew an instance of undefined
    ratio.

    A score whose estimate lies outside its own interval (its bootstrap
    distribution is shifted from it) raises one
    :class:`~scipy.stats.DegenerateDataWarning` naming them
    (:func:`_warn_outside`); ``names`` names the shown labels (their indices
    by default).
    """
    q1 = units.n_labels + 1
    with_samples = "samples" in averages
    averages = tuple(a for a in averages if a != "samples")
    samples_sums = slots = None
    if with_samples:
        samples_sums, slots = _samples_sums(
            units, metrics, beta=beta, include_no_label=shown > units.n_labels
        )
    n_values = len(metrics) * (shown + len(averages) + with_samples)
    if units.n_units < THREADED_UNITS:
        n_jobs = 1
    threads = n_workers(n_jobs)
    # floats per resample at the peak: the margins (3 q1) and the four counts
    # of every index (4 q1), the scores and their sorted copy (2 n_values);
    # with the matrix, its cells, their sorted copy and the masks of the
    # bounds (3 q1**2). Measured: 0.8 to 0.95 of this.
    peak_floats = 7 * q1 + 2 * n_values
    if with_samples:  # the sums of the samples averages, 12 per beta
        peak_floats += samples_sums.shape[1]
    _check_memory(
        n_resamples,
        peak_floats,
        f"{n_values:,} scores",
        "pass fewer resamples (n_resamples) or fewer labels (labels=...)",
        "n_resamples",
        repr(n_resamples),
        threads,
    )
    if matrix:
        _check_memory(
            n_resamples,
            peak_floats + 3 * q1 * q1,
            f"the matrix's {q1 * q1:,} cells",
            "pass fewer resamples (n_resamples), fewer labels (labels=...), or "
            "matrix=False for the per-label intervals only",
            "matrix",
            "True",
            threads,
        )
    if interval == "bca":  # the jackknife's margins, one row per kind of unit
        _check_memory(
            units.n_kinds,
            3 * q1 + n_values,
            f"BCa's jackknife over {units.n_kinds:,} distinct units",
            "pass interval='percentile'",
            "interval",
            "'bca'",
            threads,
        )
    options = {"beta": beta, "tn": tn, "shown": shown}
    silent = 0.0 if zero_division == "warn" else zero_division
    observed = every_score(
        units.observed(),
        metrics,
        averages,
        zero_division=zero_division,
        warn_for=warn_for,
        **options,
    )

    margins = np.empty((n_resamples, 3, q1))
    sums = None
    if with_samples:
        sums = np.empty((n_resamples, samples_sums.shape[1]))
    cells = contributions = None
    if matrix:
        contributions = units.cells()
        cells = np.empty((n_resamples, q1 * q1))

    # chunks of resamples, each from its own stream, drawn in order; their
    # counts of the kinds are multiplied by the kinds' margins (and cells)
    # in batches of chunks: one product per batch streams the sparse margins
    # once (one per chunk of a single resample was 13 % slower at 10**6)
    # (BATCH_CELLS counts in all, shared by the threads: each holds a batch)
    per_resample = max(units.n_kinds, 3 * q1, q1 * q1 if matrix else 0)
    batch_chunks = max(1, BATCH_CELLS // threads // per_resample // units.chunk)
    units.kind_ends()  # computed once, before the threads read it

    def fill_range(first, stop):
        for batch in range(first, stop, batch_chunks):
            start = batch * units.chunk
            end = min(min(batch + batch_chunks, stop) * units.chunk, n_resamples)
            counts = resample_counts(seed, start, end, units)
            margins[start:end] = units.drawn_margins(counts)
            if with_samples:
                sums[start:end] = counts @ samples_sums
            if matrix:
                cells[start:end] = (contributions.T @ counts.T).T

    run_ranges(fill_range, -(-n_resamples // units.chunk), n_jobs)
    boot = _score_rows(
        margins,
        n_jobs,
        metrics=metrics,
        averages=averages,
        zero_division=silent,
        undefined=True,
        **options,
    )

    jack = None
    if interval == "bca":
        total = units.observed().reshape(-1)
        left_out = total[None, :] - units.unit_margins.toarray()
        left_out = np.maximum(left_out, 0.0).reshape(-1, 3, q1)
        jack = _score_rows(
            left_out,
            n_jobs,
            metrics=metrics,
            averages=averages,
            zero_division=silent,
            **options,
        )
    if with_samples:  # the samples averages: observed, resampled, left out
        total = (units.multiplicity @ samples_sums).reshape(-1, 3, 4)
        for slot, part in enumerate(total):
            chosen = [m for m, (k, _) in slots.items() if k == slot]
            estimates = samples_average(
                part, chosen, zero_division=zero_division, warn_for=warn_for
            )
            observed[1].update(
                {(m, "samples"): np.array([estimates[m]]) for m in chosen}
            )
        resampled = sums.reshape(n_resamples, -1, 3, 4)
        boot[1].update(_by_metric(samples_values(resampled, silent), slots))
        boot[2]["samples"] = (resampled[..., 3] > 0).any(axis=(1, 2))
        if jack is not None:
            left = np.maximum(total.reshape(1, -1) - samples_sums, 0.0)
            left = samples_values(left.reshape(units.n_kinds, -1, 3, 4), silent)
            jack[1].update(_by_metric(left, slots))
        averages = (*averages, "samples")

    def interval_of(distribution, estimate, jackknife, n_undefined):
        two_d = distribution.reshape(n_resamples, -1)
        acceleration = (
            None
            if jackknife is None
            else _acceleration(
                jackknife.reshape(jackknife.shape[0], -1), units.multiplicity
            )
        )
        est = np.atleast_1d(estimate).astype(np.float64)
        low, high, degenerate = _bounds(
            two_d, est, acceleration, confidence_level, interval
        )
        outside = _outside(two_d, est, low, high)
        if np.ndim(estimate) == 0:
            bounds = ConfidenceInterval(float(low[0]), float(high[0]))
            estimate = float(estimate)
        else:
            bounds = ConfidenceInterval(low, high)
        return outside, ScoreInterval(
            estimate=estimate,
            confidence_interval=bounds,
            n_undefined=n_undefined,
            n_degenerate=degenerate,
            bootstrap_distribution=distribution if return_distributions else None,
        )

    tasks = []  # (key, the arguments of interval_of): independent, threaded
    for metric in metrics:
        undefined = boot[2][metric]
        tasks.append(
            (
                metric,
                boot[0][metric],
                observed[0][metric][0],
                None if jack is None else jack[0][metric],
                undefined.sum(axis=0),
            )
        )
        n_any = int(undefined.any(axis=1).sum())
        for average in averages:
            if average == "samples":
                n_any = int(boot[2]["samples"].sum())
            tasks.append(
                (
                    (metric, average),
                    boot[1][metric, average],
                    observed[1][metric, average][0],
                    None if jack is None else jack[1][metric, average][:, None],
                    n_any,
                )
            )
    results, outside = {}, {}

    def bound_range(start, stop):
        for key, *arguments in tasks[start:stop]:
            outside[key], results[key] = interval_of(*arguments)

    run_ranges(bound_range, len(tasks), n_jobs)
    results = {task[0]: results[task[0]] for task in tasks}  # in the tasks' order
    # warned here, in the calling thread, once for every score
    _warn_outside(
        [(task[0], outside[task[0]]) for task in tasks],
        names,
        confidence_level=confidence_level,
        interval=interval,
        n_resamples=n_resamples,
    )

    cell_interval = None
    if matrix:
        estimate = units.multiplicity @ contributions
        acceleration = None
        if interval == "bca":
            acceleration = _sum_acceleration(contributions, units.multiplicity)
        low, high, degenerate = _bounds(
            cells, estimate, acceleration, confidence_level, interval
        )
        cell_interval = ScoreInterval(
            estimate=estimate.reshape(q1, q1),
            confidence_interval=ConfidenceInterval(
                low.reshape(q1, q1), high.reshape(q1, q1)
            ),
            n_undefined=0,
            n_degenerate=degenerate,
            bootstrap_distribution=(
                cells.reshape(-1, q1, q1) if return_distributions else None
            ),
        )
    return results, cell_interval


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


def _outside(distribution, estimate, low, high):
    """``[(column, estimate, low, high, mean, side, n_side, n_valid)]`` of the
    columns of ``distribution`` (resamples x columns) whose finite
    ``estimate`` lies outside its bounds (beyond rounding, as :func:`_bounds`
    counts ties) with at least :data:`OUTSIDE_SHARE` of at least
    :data:`OUTSIDE_RESAMPLES` valid resamples strictly on one ``side`` of it
    ("above" or "below": ``n_side`` of ``n_valid``, of mean ``mean``). The
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


def _warn_outside(outside, names, *, confidence_level, interval, n_resamples):
    """One :class:`~scipy.stats.DegenerateDataWarning` naming the scores whose
    estimate lies outside its own interval: ``outside`` holds ``(key,
    [(column, estimate, low, high, mean, side, n_side, n_valid)])`` per score
    (key a metric, per label, or ``(metric, average)``), averages first.

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
        return
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
    warnings.warn(
        f"{len(found):,} estimate{'s' if len(found) > 1 else ''} outside "
        f"{'their' if len(found) > 1 else 'its'} own {level} {kind} bootstrap "
        f"interval ({n_resamples:,} resamples): {shown}"
        + (f"; and {more:,} more" if more > 0 else "")
        + ". The bootstrap distribution of such a score is shifted from its "
        "estimate (a ratio resting on a few instances, which many resamples "
        "miss); the estimate is then likely biased too, and the interval "
        "says little about the population's value (see the Notes of "
        "mlcm_confidence_intervals).",
        DegenerateDataWarning,
        stacklevel=caller_stacklevel(),
    )


def _samples_sums(units, metrics, *, beta, include_no_label):
    """``(sums, slots)``: each kind's sums of the samples averages
    (:meth:`UnitTable.samples_sums`), ``sums`` of shape (n_kinds, 12 k) for
    the k betas needed (1 for F1, ``beta`` for F-beta), and each metric's
    ``(beta slot, ratio index)``."""
    betas, slots = [], {}
    for metric in metrics:
        if metric not in _SAMPLES_INDEX:
            raise ValueError(f"{metric} has no samples average")
        b = 1.0 if metric in ("f1", "precision", "recall") else beta
        if b not in betas:
            betas.append(b)
        slots[metric] = (betas.index(b), _SAMPLES_INDEX[metric])
    sums = [
        units.samples_sums(beta=b, include_no_label=include_no_label).reshape(
            units.n_kinds, -1
        )
        for b in betas
    ]
    return np.concatenate(sums, axis=1), slots


#: Where each metric's sums are in :meth:`UnitTable.samples_sums`.
_SAMPLES_INDEX = {"precision": 0, "recall": 1, "f1": 2, "fbeta": 2}


def _by_metric(values, slots):
    """``{(metric, "samples"): (rows,)}`` of the samples averages ``values``
    (rows, k, 3) of :func:`_samples_sums`'s sums."""
    return {
        (metric, "samples"): values[:, slot, index]
        for metric, (slot, index) in slots.items()
    }


# -- the public function -----------------------------------------------------------


@validate_params(
    {
        "y_true": TARGET_CONSTRAINTS["y_true"],
        "y_pred": TARGET_CONSTRAINTS["y_pred"],
        "metric": [Options(*METRICS)],
        "average": [Options("micro", "micro_all", "macro", "weighted")],
        "method": [Options(*METHODS)],
        "labels": ["array-like", None],
        "target_names": [Sequence(), None],
        "sample_weight": ["array-like", None],
        "groups": ["array-like", None],
        "n_resamples": [Interval(Integral, 1, MAX_RESAMPLES)],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "interval": [Options("bca", "percentile")],
        "beta": [Interval(Real, 0, None, closed="left")],
        "tn": [Options("complement", "diagonal")],
        "zero_division": ZERO_DIVISION,
        "include_no_label": ["boolean"],
        "matrix": ["boolean"],
        "return_distributions": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": [
            Interval(Integral, 0, 2**32 - 1),
            np.random.RandomState,
            None,
        ],
    },
    rules=(resamples_resolve_tails,),
)
def mlcm_confidence_intervals(
    y_true,
    y_pred,
    *,
    metric="f1",
    average="macro",
    method="heydarian",
    labels=None,
    target_names=None,
    sample_weight=None,
    groups=None,
    n_resamples=9999,
    confidence_level=0.95,
    interval="bca",
    beta=1.0,
    tn="complement",
    zero_division="warn",
    include_no_label=False,
    matrix=False,
    return_distributions=False,
    random_state=None,
    n_jobs=None,
):
    """Bootstrap confidence intervals of every MLCM score, and of the matrix.

    How sure is a score computed from one test set? The test set is resampled
    with replacement ``n_resamples`` times (whole groups with ``groups``),
    every score of the report is recomputed on each resample, and each
    interval is read off its bootstrap distribution. The result unpacks as
    the score chosen by ``metric`` and ``average``; the per-label and
    averaged precision, recall, F1 and specificity are all in
    ``result.scores``, from the same resamples, and the matrix's cells in
    ``result.matrix`` with ``matrix=True``.

    A resample only says how often each distinct kind of unit is drawn
    (instances with the same true set, predicted set and weight are one
    kind), so its cost is the number of distinct kinds, not of instances,
    and all scores are read off one product per batch of resamples.

    Read more in the :ref:`User Guide <uncertainty>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame, dask array} of shape \
            (n_samples, n_labels) or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels. A dask array is
        tabulated chunk by chunk where it lives, and gives the same numbers
        as the NumPy array for the same seed.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    metric : {"f1", "precision", "recall", "fbeta", "specificity"}, default="f1"
        The score the result unpacks as, as :func:`mlcm_f1_score` and the
        other scores compute it.

    average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
        How the chosen score is averaged (see :func:`mlcm_f1_score`).

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read.

    labels : array-like of shape (n_kept,), default=None
        The labels to score, in that order.

    target_names : list of str of shape (n_labels,), default=None
        Display names of the labels (of the kept ones with ``labels``), in
        the result's ``target_names``, summary and frame. By default the
        column names of ``y_true`` when it is a DataFrame, the class values
        for 1-D input, and the column indices otherwise. Unique, and none of
        the averages' row names (``"macro avg"``...) or, with
        ``include_no_label=True``, ``"no label"``.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; each resample multiplies them by the
        number of times it drew the instance.

    groups : array-like of shape (n_samples,), default=None
        The group of each instance (the patient of each image, say): whole
        groups are resampled (the cluster bootstrap). At least two groups.

    n_resamples : int, default=9999
        The number of bootstrap resamples, up to 10**6, and at least enough
        to resolve the interval's tails at ``confidence_level``:
        ``2 / (1 - confidence_level) - 1``, rounded up (39 for 95%, 199 for
        99%; see Notes).

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
        the resamples ("warn" acts as 0.0 and warns for the chosen
        ``metric`` on the test set only). NaN values are left out of averages
        and of the bounds; how many resamples had an undefined label score is
        in the result.

    include_no_label : bool, default=False
        Also score the "no label" index (the NTL row and NPL column), last,
        and take it into the averages, as the scores do.

    matrix : bool, default=False
        Also give the interval of every cell of the MLCM
        (``result.matrix``). It holds n_resamples x (n_labels + 1)**2 values
        and is refused past 1 GiB.

    return_distributions : bool, default=False
        Keep every score's bootstrap distribution (n_resamples values per
        label and score) in the result.

    random_state : int, RandomState instance or None, default=None
        The seed of the resamples: the same seed gives the same numbers.

    n_jobs : int, default=None
        The number of threads that draw and score the resamples. None means 1
        unless in a :func:`joblib.parallel_config` context; -1 means every
        processor (at most one thread per processor). The numbers do not
        depend on it: each chunk of resamples has its own random stream,
        derived from the seed. Test sets of fewer than 32,768 units
        (instances, or groups) are resampled in one thread: there threads
        were measured slower.

    Returns
    -------
    result : ConfidenceIntervalResult
        ``estimate, (low, high) = result``; per label
        ``result.label_estimates`` and ``result.label_confidence_interval``;
        every score in ``result.scores``.

    Warns
    -----
    scipy.stats.DegenerateDataWarning
        When a score's estimate lies outside its own interval with at least
        97.5 % of 39 or more resamples on one side of it: the warning names
        the scores, their bounds and the resamples' mean (see Notes).

    See Also
    --------
    mlcm_classification_report : The report, with these intervals when given
        a ``confidence_level``.
    mlcm_paired_comparison : The interval of the difference between two
        classifiers on the same test set, and its p-value.
    scipy.stats.bootstrap : Bootstrap intervals of any statistic; it takes a
        statistic of the data, where here the resamples are counts.

    Notes
    -----
    The bootstrap treats the instances (or the groups) as independent draws
    from the population the test set comes from: the interval is about the
    test sample, not about the training. Its coverage is checked by
    simulation in the tests (about 95 % for 95 % intervals, from a few
    hundred instances). A resample is a multinomial draw of n among the
    distinct kinds of units with probabilities their shares, which is the
    law of drawing n instances with replacement. BCa is computed from Efron
    and Tibshirani's formulas with :func:`scipy.special.ndtr` and
    :func:`scipy.special.ndtri`, as :func:`scipy.stats.bootstrap` does; that
    function draws the resamples itself, of the data, and cannot be given
    weights of instances or vector-valued scores on the oldest SciPy
    supported.

    Each bound leaves ``alpha = (1 - confidence_level) / 2`` of the bootstrap
    distribution beyond it: it is the ``(B + 1) alpha``-th smallest (or
    largest) of the B resamples, with resamples beyond it, only when
    ``(B + 1) alpha >= 1``. Fewer resamples are refused: their bounds would
    be read at the most extreme resamples whatever the level (2 resamples
    gave a zero-width "95% interval"). The level is taken as written, 0.9
    needing 19 resamples. The default, 9999, serves levels up to 99.98%.

    The bootstrap distribution of a ratio of sums need not be centred on the
    test set's ratio. A label whose recall rests on one instance (a miss
    that Heydarian's rules charge once per extra predicted label, 25 times,
    say) has a recall of 1.0 in the 37 % of resamples that do not draw that
    instance; averaged over hundreds of such labels, every resample of the
    macro average can lie above its estimate (MULAN delicious, 983 labels,
    a simulated classifier: macro recall 0.236, resamples' mean 0.287, 95 %
    interval [0.275, 0.299]). The resampled values are the score's own, of
    the resampled rows; the shift is the bootstrap's estimate of the
    estimate's bias, and neither the estimate nor the interval is then a
    safe statement about the population. BCa is undefined when every
    resample lies on one side of the estimate and falls back to the
    percentile interval (counted in ``n_degenerate``; scipy.stats.bootstrap
    gives NaN and a :class:`~scipy.stats.DegenerateDataWarning`); when
    nearly every resample does, its large bias correction can move both
    bounds past the estimate to the other side. Any estimate left outside
    its interval with at least 97.5 % of the resamples on one side of it
    (from 39 resamples: a centred estimate is that far out with odds below
    2**-39) raises that warning, naming the scores. The micro average, one
    ratio of pooled counts, is far less exposed.

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
    (0.716, 0.675, 0.756)
    >>> result.label_confidence_interval.low.round(3)
    array([0.584, 0.738, 0.647, 0.64 ])

    Every score of the report, from the same resamples:

    >>> recall, (low, high) = result.scores["recall_micro"]
    >>> round(recall, 3), round(low, 3), round(high, 3)
    (0.714, 0.67, 0.755)

    Printed, a summary (``result.to_frame()`` has every score of every label
    and average); ``target_names`` names the labels:

    >>> print(mlcm_confidence_intervals(y_true, y_pred, n_resamples=999,
    ...                                 target_names=["cat", "dog", "owl", "fox"],
    ...                                 random_state=0))
    ConfidenceIntervalResult: f1, macro avg = 0.7162, 95% BCa interval [0.6748, 0.7561]
    999 bootstrap resamples of 300 instances, heydarian matrix, 4 labels
    77 distinct instances (true set, predicted set, weight), each resampled as one kind
    <BLANKLINE>
    average           f1     low    high
    micro avg     0.7179  0.6758  0.7576
    macro avg     0.7162  0.6748  0.7561
    weighted avg  0.7174  0.6751  0.7570
    <BLANKLINE>
    Each label:
    label      f1     low    high   width
    cat    0.6497  0.5837  0.7131  0.1294
    dog    0.7926  0.7383  0.8416  0.1034
    owl    0.7136  0.6468  0.7826  0.1358
    fox    0.7087  0.6404  0.7697  0.1293
    precision, recall, f1, specificity of each label and average: .to_frame()
    """
    targets = validate_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight, groups=groups
    )
    units, names = unit_table(targets, method=method)
    shown = units.n_labels + bool(include_no_label)
    metrics = RESULT_METRICS + ((metric,) if metric not in RESULT_METRICS else ())
    averages = RESULT_AVERAGES + ((average,) if average not in RESULT_AVERAGES else ())
    reserved = {f"{a} avg" for a in averages}
    if include_no_label:
        reserved.add("no label")
    names = check_target_names(
        names if target_names is None else target_names, len(names), reserved
    )
    if include_no_label:
        names = [*names, "no label"]
    seed = int(check_random_state(random_state).randint(2**31 - 1))
    scores, cells = bootstrap_intervals(
        units,
        metrics=metrics,
        averages=averages,
        shown=shown,
        n_resamples=int(n_resamples),
        seed=seed,
        confidence_level=float(confidence_level),
        interval=interval,
        beta=float(beta),
        tn=tn,
        zero_division=zero_division,
        warn_for=(metric,),
        matrix=bool(matrix),
        return_distributions=True,
        n_jobs=n_jobs,
        names=names,
    )
    return package_result(
        scores,
        cells,
        metric=metric,
        average=average,
        target_names=list(names),
        interval=interval,
        confidence_level=float(confidence_level),
        n_resamples=int(n_resamples),
        n_units=units.n_units,
        n_distinct_units=units.n_kinds,
        return_distributions=bool(return_distributions),
        method=method,
        units="instances" if targets.groups is None else "groups",
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
    )
