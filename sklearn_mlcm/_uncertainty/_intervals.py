"""Bootstrap confidence intervals of every MLCM score, and of the matrix.

The scores need only three margins of the matrix (diagonal, row sums,
column sums), each a sum over the instances of a contribution that depends
on the pair (true set, predicted set) and the weight alone. A resample is a
multinomial draw of how often each distinct kind of unit (instance or group)
is taken (:mod:`._table`), its margins one product of those counts with the
kinds' margins, and every score of the report is read off the same margins:
one set of resamples for all of them.
"""

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._mlcm._samples import SUMS_SHAPE
from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Interval,
    Options,
    Sequence,
    validate_params,
)
from sklearn_mlcm._results import ConfidenceInterval
from sklearn_mlcm._statistics import samples_average, samples_values, statistic_of
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import input_error
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

from ._bounds import (
    bca_acceleration,
    bootstrap_bounds,
    estimates_outside,
    sum_acceleration,
    warn_outside,
)
from ._interval_result import (
    ConfidenceIntervalResult,
    ScoreInterval,
    package_result,
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


# -- the units of the test set ---------------------------------------------------


def unit_table(targets, *, method):
    """Tabulate the distinct units of validated targets: ``(UnitTable,
    target names)``. ``targets`` is the call's
    :class:`~sklearn_mlcm._validation._targets.Targets`. NumPy input is tabulated
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


# -- the resampling: one call's steps ----------------------------------------------
#
# bootstrap_intervals runs these in turn, each reading the call's options
# (_Call) and the records the steps before it made:
#   _check_call_memory    refuse what would not fit, before anything is drawn
#   _observed_scores      the estimates, off the test set's margins
#   _draw                 the resamples: their margins, sums and cells (_Draws)
#   _resampled_scores     every score of every resample, and the jackknife's
#   _with_samples_average the samples averages, off their own sums
#   _score_intervals      each score's bounds (percentile or BCa)
#   _matrix_interval      the cells' bounds


@dataclass(frozen=True)
class _Slot:
    """Where a metric's samples average is in :class:`_SamplesSums`'s sums:
    the block of its beta (``beta_slot``) and the ratio in the block
    (``ratio``, as :meth:`UnitTable.samples_sums` orders them)."""

    beta_slot: int
    ratio: int


@dataclass(frozen=True)
class _SamplesSums:
    """Each kind's sums of the samples averages
    (:meth:`UnitTable.samples_sums`): ``sums`` of shape (n_kinds, 12 k) for
    the k betas needed (1 for F1, ``beta`` for F-beta), and each metric's
    :class:`_Slot` in them."""

    sums: np.ndarray
    slots: dict


@dataclass(frozen=True)
class _Call:
    """One call of :func:`bootstrap_intervals`, its options resolved.

    ``averages`` are those read off the margins; ``samples`` holds the sums
    of the samples averages when "samples" was asked for (None otherwise).
    ``n_jobs`` is the threads the call uses (1 below
    :data:`THREADED_UNITS` units), ``threads`` their number.
    """

    units: UnitTable
    metrics: tuple
    averages: tuple
    samples: _SamplesSums | None
    shown: int
    n_resamples: int
    seed: int
    confidence_level: float
    interval: str
    beta: float
    tn: object
    zero_division: object
    warn_for: tuple
    matrix: bool
    return_distributions: bool
    n_jobs: object
    threads: int
    names: object

    @property
    def q1(self):
        """The labels and the no-label index: the margins' width."""
        return self.units.n_labels + 1

    @property
    def options(self):
        """The options of :func:`every_score` that every scoring shares."""
        return {"beta": self.beta, "tn": self.tn, "shown": self.shown}

    @property
    def silent(self):
        """The resamples' ``zero_division``: 0.0 for "warn" (they never warn)."""
        return 0.0 if self.zero_division == "warn" else self.zero_division

    @property
    def all_averages(self):
        """Every average of the result: those off the margins, then "samples"."""
        return self.averages + (("samples",) if self.samples is not None else ())


@dataclass(frozen=True)
class _Draws:
    """The resamples, drawn: each one's margins (n_resamples, 3, q1); its
    sums of the samples averages (n_resamples, 12 k) or None; the matrix's
    cells (n_resamples, q1 * q1) and the kinds' cells ``contributions``
    (sparse, n_kinds x q1 * q1), or None without the matrix."""

    margins: np.ndarray
    sums: np.ndarray | None
    cells: np.ndarray | None
    contributions: object


@dataclass(frozen=True)
class _Scored:
    """Every score of some rows (the test set, the resamples, or the
    jackknife's units left out): ``labels`` maps a metric to its label
    values (rows, shown) and ``averaged`` ``(metric, average)`` to (rows,).
    For the resamples, ``undefined`` maps a metric to where its label ratio
    had a zero denominator (rows, shown), and "samples" to the resamples
    that drew an instance of undefined ratio (rows,)."""

    labels: dict
    averaged: dict
    undefined: dict | None = None


@dataclass(frozen=True)
class _Scores:
    """The scores a call bounds: the estimates (``observed``), the
    ``resampled`` values and, for BCa, the ``jackknife``'s (else None)."""

    observed: _Scored
    resampled: _Scored
    jackknife: _Scored | None


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
    """A bounded score: its :class:`ScoreInterval`, and the columns whose
    estimate lies outside their interval (:func:`estimates_outside`)."""

    interval: ScoreInterval
    outside: list


def _score_rows(margins, n_jobs, **options):
    """:func:`every_score` of the rows of ``margins`` (resamples or jackknife
    values, each row scored alone), ranges of rows across threads, as a
    :class:`_Scored`."""
    parts = {}

    def score(start, stop):
        parts[start] = every_score(margins[start:stop], **options)

    run_ranges(score, margins.shape[0], n_jobs)
    if len(parts) == 1:
        return _Scored(*parts[0])
    ordered = [parts[start] for start in sorted(parts)]
    return _Scored(
        *(
            {key: np.concatenate([part[i][key] for part in ordered]) for key in table}
            for i, table in enumerate(ordered[0])
        )
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

    ``metrics`` are any names of the registry
    (:data:`~sklearn_mlcm._statistics.STATISTICS`, or "f1"), each scored
    and undefined by its declaration. ``averages`` may hold "samples"; the
    metrics that have a samples form (precision, recall, F1 and F-beta) get
    it, the others have no samples interval. It is not read off the margins
    but off the sums of each kind of unit
    (:meth:`UnitTable.samples_sums`), drawn with the same counts. Its
    ``n_undefined`` counts the resamples that drew an instance of undefined
    ratio.

    A score whose estimate lies outside its own interval (its bootstrap
    distribution is shifted from it) raises one
    :class:`~scipy.stats.DegenerateDataWarning` naming them
    (:func:`warn_outside`); ``names`` names the shown labels (their indices
    by default).

    The steps, one function each: the estimates, the draw, the scores of the
    resamples (and the jackknife's), the samples averages, the bounds.
    """
    samples = None
    if "samples" in averages:
        samples = _samples_sums(
            units, metrics, beta=beta, include_no_label=shown > units.n_labels
        )
    if units.n_units < THREADED_UNITS:
        n_jobs = 1
    call = _Call(
        units=units,
        metrics=metrics,
        averages=tuple(a for a in averages if a != "samples"),
        samples=samples,
        shown=shown,
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence_level,
        interval=interval,
        beta=beta,
        tn=tn,
        zero_division=zero_division,
        warn_for=warn_for,
        matrix=matrix,
        return_distributions=return_distributions,
        n_jobs=n_jobs,
        threads=n_workers(n_jobs),
        names=names,
    )
    _check_call_memory(call)
    observed = _observed_scores(call)
    draws = _draw(call)
    scores = _resampled_scores(call, observed, draws)
    if samples is not None:
        scores = _with_samples_average(call, scores, draws.sums)
    results = _score_intervals(call, scores)
    return results, _matrix_interval(call, draws) if matrix else None


def _check_call_memory(call):
    """Refuse a call whose arrays would pass the dense limit: the resamples'
    scores, the matrix's cells, BCa's jackknife (``n_resamples``,
    ``matrix`` and ``interval`` named as the cause)."""
    q1, n_resamples, threads = call.q1, call.n_resamples, call.threads
    with_samples = call.samples is not None
    n_values = len(call.metrics) * (call.shown + len(call.averages) + with_samples)
    # floats per resample at the peak: the margins (3 q1) and the four counts
    # of every index (4 q1), the scores and their sorted copy (2 n_values);
    # with the matrix, its cells, their sorted copy and the masks of the
    # bounds (3 q1**2). Measured: 0.8 to 0.95 of this.
    peak_floats = 7 * q1 + 2 * n_values
    if with_samples:  # the sums of the samples averages, 12 per beta
        peak_floats += call.samples.sums.shape[1]
    _check_memory(
        n_resamples,
        peak_floats,
        f"{n_values:,} scores",
        "pass fewer resamples (n_resamples) or fewer labels (labels=...)",
        "n_resamples",
        repr(n_resamples),
        threads,
    )
    if call.matrix:
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
    if call.interval == "bca":  # the jackknife's margins, one row per kind of unit
        _check_memory(
            call.units.n_kinds,
            3 * q1 + n_values,
            f"BCa's jackknife over {call.units.n_kinds:,} distinct units",
            "pass interval='percentile'",
            "interval",
            "'bca'",
            threads,
        )


def _observed_scores(call):
    """The estimates: every score off the test set's margins, as
    ``zero_division`` says ("warn" warns for the metrics in ``warn_for``)."""
    return _Scored(
        *every_score(
            call.units.observed(),
            call.metrics,
            call.averages,
            zero_division=call.zero_division,
            warn_for=call.warn_for,
            **call.options,
        )
    )


def _draw(call):
    """The resamples' margins, and their sums of the samples averages and
    their cells where the call asks for them (:class:`_Draws`).

    Chunks of resamples, each from its own stream, drawn in order; their
    counts of the kinds are multiplied by the kinds' margins (and cells) in
    batches of chunks: one product per batch streams the sparse margins once
    (one per chunk of a single resample was 13 % slower at 10**6)
    (BATCH_CELLS counts in all, shared by the threads: each holds a batch).
    """
    units, q1, n_resamples, seed = call.units, call.q1, call.n_resamples, call.seed
    margins = np.empty((n_resamples, 3, q1))
    samples_sums = sums = None
    if call.samples is not None:
        samples_sums = call.samples.sums
        sums = np.empty((n_resamples, samples_sums.shape[1]))
    cells = contributions = None
    if call.matrix:
        contributions = units.cells()
        cells = np.empty((n_resamples, q1 * q1))
    per_resample = max(units.n_kinds, 3 * q1, q1 * q1 if call.matrix else 0)
    batch_chunks = max(1, BATCH_CELLS // call.threads // per_resample // units.chunk)
    units.kind_ends()  # computed once, before the threads read it

    def fill_range(first, stop):
        for batch in range(first, stop, batch_chunks):
            start = batch * units.chunk
            end = min(min(batch + batch_chunks, stop) * units.chunk, n_resamples)
            counts = resample_counts(seed, start, end, units)
            margins[start:end] = units.drawn_margins(counts)
            if sums is not None:
                sums[start:end] = counts @ samples_sums
            if cells is not None:
                cells[start:end] = (contributions.T @ counts.T).T

    run_ranges(fill_range, -(-n_resamples // units.chunk), call.n_jobs)
    return _Draws(margins, sums, cells, contributions)


def _resampled_scores(call, observed, draws):
    """The :class:`_Scores` off the margins: the ``observed`` estimates,
    every score of every resample (where each label's ratio was undefined
    too) and, for BCa, of each kind of unit left out (the jackknife)."""
    scoring = {
        "metrics": call.metrics,
        "averages": call.averages,
        "zero_division": call.silent,
        **call.options,
    }
    resampled = _score_rows(draws.margins, call.n_jobs, undefined=True, **scoring)
    jackknife = None
    if call.interval == "bca":
        units = call.units
        total = units.observed().reshape(-1)
        left_out = total[None, :] - units.unit_margins.toarray()
        left_out = np.maximum(left_out, 0.0).reshape(-1, 3, call.q1)
        jackknife = _score_rows(left_out, call.n_jobs, **scoring)
    return _Scores(observed, resampled, jackknife)


def _with_samples_average(call, scores, sums):
    """``scores`` with each metric's samples average: observed, resampled
    (off the resamples' ``sums``) and left out, all off the kinds' sums of
    the samples averages, not the margins. The estimates follow
    ``zero_division`` (and warn for ``warn_for``); the resamples that drew
    an instance of undefined ratio are counted."""
    samples, silent = call.samples, call.silent
    total = (call.units.multiplicity @ samples.sums).reshape(-1, *SUMS_SHAPE)
    observed = dict(scores.observed.averaged)
    for beta_slot, part in enumerate(total):
        chosen = [m for m, slot in samples.slots.items() if slot.beta_slot == beta_slot]
        estimates = samples_average(
            part, chosen, zero_division=call.zero_division, warn_for=call.warn_for
        )
        observed.update({(m, "samples"): np.array([estimates[m]]) for m in chosen})
    resampled = sums.reshape(call.n_resamples, -1, *SUMS_SHAPE)
    averaged = {
        **scores.resampled.averaged,
        **_by_metric(samples_values(resampled, silent), samples.slots),
    }
    undefined = {
        **scores.resampled.undefined,
        "samples": (resampled[..., 3] > 0).any(axis=(1, 2)),
    }
    jackknife = scores.jackknife
    if jackknife is not None:
        left = np.maximum(total.reshape(1, -1) - samples.sums, 0.0)
        left = samples_values(left.reshape(call.units.n_kinds, -1, *SUMS_SHAPE), silent)
        jackknife = _Scored(
            jackknife.labels, {**jackknife.averaged, **_by_metric(left, samples.slots)}
        )
    return _Scores(
        observed=_Scored(scores.observed.labels, observed),
        resampled=_Scored(scores.resampled.labels, averaged, undefined),
        jackknife=jackknife,
    )


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


def _score_intervals(call, scores):
    """Every score's :class:`ScoreInterval`, keyed as
    :func:`bootstrap_intervals` returns them: the scores are bounded
    independently (ranges of them across threads), then the estimates
    outside their intervals are warned of, once, in the calling thread."""
    tasks = _tasks(call, scores)
    bounded = {}

    def bound_range(start, stop):
        for task in tasks[start:stop]:
            bounded[task.key] = _interval_of(call, task)

    run_ranges(bound_range, len(tasks), call.n_jobs)
    warn_outside(
        [(task.key, bounded[task.key].outside) for task in tasks],
        call.names,
        confidence_level=call.confidence_level,
        interval=call.interval,
        n_resamples=call.n_resamples,
    )
    return {task.key: bounded[task.key].interval for task in tasks}


def _matrix_interval(call, draws):
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


def _samples_sums(units, metrics, *, beta, include_no_label):
    """The :class:`_SamplesSums` of ``metrics``: each kind's sums of the
    samples averages (:meth:`UnitTable.samples_sums`) for the betas needed
    (1 for F1, ``beta`` for F-beta), and the :class:`_Slot` of each metric
    that has a samples average (the registry's
    :attr:`~sklearn_mlcm._statistics.Statistic.samples`); the others have
    none, and no samples interval. None when no metric has one."""
    betas, slots = [], {}
    for metric in metrics:
        statistic, b = statistic_of(metric, beta)
        if statistic.samples is None:
            continue
        if statistic.samples.ratio != "fbeta":
            b = 1.0  # precision and recall do not depend on beta
        if b not in betas:
            betas.append(b)
        slots[metric] = _Slot(beta_slot=betas.index(b), ratio=statistic.samples.index)
    if not slots:
        return None
    sums = [
        units.samples_sums(beta=b, include_no_label=include_no_label).reshape(
            units.n_kinds, -1
        )
        for b in betas
    ]
    return _SamplesSums(np.concatenate(sums, axis=1), slots)


def _by_metric(values, slots):
    """``{(metric, "samples"): (rows,)}`` of the samples averages ``values``
    (rows, k, 3) of :class:`_SamplesSums`'s sums."""
    return {
        (metric, "samples"): values[:, slot.beta_slot, slot.ratio]
        for metric, slot in slots.items()
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
        as the NumPy array for the same seed. Under
        ``sklearn.config_context(array_api_dispatch=True)``, 2-D indicators
        of any Array API namespace: they are checked in it, on the device of
        ``y_pred``, then the rows are copied to the host once, explicitly
        (views where they lie there), where the table of distinct instances
        is built and resampled; the result is on the host (:ref:`array_api`).

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
