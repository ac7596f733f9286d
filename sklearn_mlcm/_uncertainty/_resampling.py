"""The resamples of one call of the intervals: drawn, then scored.

:func:`~._intervals.bootstrap_intervals` resolves its options into one
:class:`Call`, then runs these steps in turn, each reading the call and the
records the steps before it made:

- :func:`observed_scores`: the estimates, off the test set's margins;
- :func:`draw`: the resamples, their margins, sums, cells and the macro
  averages' resampled values and variances (:class:`Draws`);
- :func:`resampled_scores`: every score of every resample, and the
  jackknife's (:class:`Scores`);
- :func:`with_samples_average`: the samples averages, off their own sums.

:mod:`._bounding` then reads the intervals off them.
"""

from dataclasses import dataclass

import numpy as np

from sklearn_mlcm._mlcm._samples import SUMS_SHAPE
from sklearn_mlcm._statistics import samples_average, samples_values, statistic_of

from ._margins import BATCH_CELLS, every_score
from ._parallel import run_ranges
from ._score_intervals import ScoreBasis, resampled_macros
from ._table import UnitTable, resample_counts

__all__ = [
    "Call",
    "Draws",
    "Scored",
    "Scores",
    "draw",
    "observed_scores",
    "resampled_scores",
    "samples_sums",
    "with_samples_average",
]


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
class Call:
    """One call of :func:`~._intervals.bootstrap_intervals`, its options
    resolved.

    ``averages`` are those read off the margins; ``samples`` holds the sums
    of the samples averages when "samples" was asked for (None otherwise).
    ``n_jobs`` is the threads the call uses (1 below
    :data:`~._intervals.THREADED_UNITS` units), ``threads`` their number.
    ``basis`` is what the score intervals of the ratios
    (:data:`~._score_intervals.RATIOS`) read, computed once
    (:class:`~._score_intervals.ScoreBasis`, None without a ratio): the
    labels' Wilson intervals off its moments, the macro averages'
    bootstrap-t off the same resamples' counts.
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
    basis: ScoreBasis | None

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
class Draws:
    """The resamples, drawn: each one's margins (n_resamples, 3, q1); its
    sums of the samples averages (n_resamples, 12 k) or None; the matrix's
    cells (n_resamples, q1 * q1) and the kinds' cells ``contributions``
    (sparse, n_kinds x q1 * q1), or None without the matrix; ``macro``, the
    macro averages of :attr:`Call.basis`'s forms and their linearised
    variances in the resamples, (2, F, n_resamples), or None."""

    margins: np.ndarray
    sums: np.ndarray | None
    cells: np.ndarray | None
    contributions: object
    macro: np.ndarray | None


@dataclass(frozen=True)
class Scored:
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
class Scores:
    """The scores a call bounds: the estimates (``observed``), the
    ``resampled`` values and, for BCa, the ``jackknife``'s (else None)."""

    observed: Scored
    resampled: Scored
    jackknife: Scored | None


def _score_rows(margins, n_jobs, **options):
    """:func:`every_score` of the rows of ``margins`` (resamples or jackknife
    values, each row scored alone), ranges of rows across threads, as a
    :class:`Scored`."""
    parts = {}

    def score(start, stop):
        parts[start] = every_score(margins[start:stop], **options)

    run_ranges(score, margins.shape[0], n_jobs)
    if len(parts) == 1:
        return Scored(*parts[0])
    ordered = [parts[start] for start in sorted(parts)]
    return Scored(
        *(
            {key: np.concatenate([part[i][key] for part in ordered]) for key in table}
            for i, table in enumerate(ordered[0])
        )
    )


def observed_scores(call):
    """The estimates: every score off the test set's margins, as
    ``zero_division`` says ("warn" warns for the metrics in ``warn_for``)."""
    return Scored(
        *every_score(
            call.units.observed(),
            call.metrics,
            call.averages,
            zero_division=call.zero_division,
            warn_for=call.warn_for,
            **call.options,
        )
    )


def draw(call):
    """The resamples' margins, and their sums of the samples averages, their
    cells and their macro averages' values and linearised variances
    (:func:`~._score_intervals.resampled_macros`) where the call asks for
    them (:class:`Draws`).

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
    forms = None if call.basis is None else call.basis.macro
    macro = None if forms is None else np.empty((2, len(forms.keys), n_resamples))
    silent = float(call.silent)
    # the macro averages' variances hold at most VARIANCE_CELLS more at once
    per_resample = max(units.n_kinds, 3 * q1, q1 * q1 if call.matrix else 0)
    batch_chunks = max(1, BATCH_CELLS // call.threads // per_resample // units.chunk)
    if units.draw_positions:  # computed once, before the threads read it
        units.kind_of_position()

    def fill_range(first, stop):
        for batch in range(first, stop, batch_chunks):
            start = batch * units.chunk
            end = min(min(batch + batch_chunks, stop) * units.chunk, n_resamples)
            counts = resample_counts(seed, start, end, units)
            drawn = np.ascontiguousarray(counts.T)  # read by both products
            margins[start:end] = units.margins_of(drawn)
            if sums is not None:
                sums[start:end] = counts @ samples_sums
            if cells is not None:
                cells[start:end] = (contributions.T @ counts.T).T
            if forms is not None:
                macro[:, :, start:end] = resampled_macros(
                    drawn, margins[start:end], units, forms, silent
                )

    run_ranges(fill_range, -(-n_resamples // units.chunk), call.n_jobs)
    return Draws(margins, sums, cells, contributions, macro)


def resampled_scores(call, observed, draws):
    """The :class:`Scores` off the margins: the ``observed`` estimates,
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
    return Scores(observed, resampled, jackknife)


def with_samples_average(call, scores, sums):
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
        jackknife = Scored(
            jackknife.labels, {**jackknife.averaged, **_by_metric(left, samples.slots)}
        )
    return Scores(
        observed=Scored(scores.observed.labels, observed),
        resampled=Scored(scores.resampled.labels, averaged, undefined),
        jackknife=jackknife,
    )


def samples_sums(units, metrics, *, beta, include_no_label):
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
