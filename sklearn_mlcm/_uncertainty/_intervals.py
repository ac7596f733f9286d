"""Bootstrap confidence intervals of every MLCM score, and of the matrix.

The scores need only three margins of the matrix (diagonal, row sums,
column sums), each a sum over the instances of a contribution that depends
on the pair (true set, predicted set) and the weight alone. A resample is a
multinomial draw of how often each distinct kind of unit (instance or group)
is taken (:mod:`._table`), its margins one product of those counts with the
kinds' margins, and every score of the report is read off the same margins:
one set of resamples for all of them.

This module holds the public function, the table of units it resamples
(:func:`unit_table`), the memory bound of a call and
:func:`bootstrap_intervals`, which runs a call's steps in turn: the
resamples drawn and scored (:mod:`._resampling`), then each score's
interval, flagged where it cannot be trusted (:mod:`._bounding`).
"""

from numbers import Integral, Real

import numpy as np
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
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import input_error
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

from ._bounding import matrix_interval, score_intervals
from ._interval_result import (
    ConfidenceIntervalResult,
    ScoreInterval,
    package_result,
)
from ._margins import MAX_RESAMPLES, METRICS, resamples_resolve_tails
from ._parallel import N_JOBS, n_workers
from ._resampling import (
    Call,
    draw,
    observed_scores,
    resampled_scores,
    samples_sums,
    with_samples_average,
)
from ._score_intervals import score_basis
from ._table import (
    DRAW_CELLS,
    UnitTable,
    check_two_units,
    combine_tables,
    dask_table,
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

    The labels of the ratios (:data:`~._score_intervals.RATIOS`) get modified
    Wilson score intervals and their macro averages the bootstrap-t; the others
    the bounds of ``interval``. The flagged intervals and the estimates that
    lie outside their bootstrap interval (its distribution shifted from it)
    are named in one :class:`~scipy.stats.DegenerateDataWarning`
    (:func:`~._bounds.warn_degenerate`); ``names`` names the shown labels
    (their indices by default).

    The steps, one function each: the estimates, the draw, the scores of the
    resamples (and the jackknife's), the samples averages, the bounds.
    """
    samples = None
    if "samples" in averages:
        samples = samples_sums(
            units, metrics, beta=beta, include_no_label=shown > units.n_labels
        )
    if units.n_units < THREADED_UNITS:
        n_jobs = 1
    call = Call(
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
        basis=score_basis(
            units,
            metrics,
            macro="macro" in averages,
            beta=beta,
            tn=tn,
            shown=shown,
            zero_division=0.0 if zero_division == "warn" else zero_division,
        ),
    )
    check_call_memory(call)
    observed = observed_scores(call)
    draws = draw(call)
    scores = resampled_scores(call, observed, draws)
    if samples is not None:
        scores = with_samples_average(call, scores, draws.sums)
    results = score_intervals(call, scores, draws)
    return results, matrix_interval(call, draws) if matrix else None


def check_call_memory(call):
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

    metric : str, default="f1"
        The score the result unpacks as, as :func:`mlcm_f1_score` and the
        other scores compute it: "f1", "precision", "recall", "fbeta",
        "specificity", or any other statistic of the registry
        (:func:`confusion_matrix_statistics`: "accuracy", "jaccard",
        "matthews_corrcoef", "balanced_accuracy",
        "negative_predictive_value", "false_discovery_rate",
        "false_omission_rate", "false_positive_rate", "false_negative_rate",
        "informedness", "markedness", "g_mean", "prevalence"). The result
        holds it beside precision, recall, F1 and specificity.

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
        The bootstrap interval of the micro, weighted and samples averages,
        of the statistics that are no ratio of counts (their labels and
        every average) and of the matrix's cells. "bca": bias-corrected and
        accelerated (second-order accurate; the jackknife over the instances
        or groups gives its acceleration). "percentile": the quantiles of
        the bootstrap distribution. The labels of a ratio of counts
        (precision, recall, F-beta, specificity and the registry's other
        ratios) get modified Wilson score intervals, their macro averages
        the bootstrap-t, whatever ``interval`` says (see Notes).

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
        Once per call, where an interval is flagged (an undefined score, a
        macro average over many rare labels, a bootstrap-t widened to its
        estimate: the warning names them and their reasons) or a score's
        estimate lies outside its percentile or BCa interval with at least
        97.5 % of 39 or more resamples on one side of it (the warning names
        the scores, their bounds and the resamples' mean; see Notes).

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
    percentile interval [0.275, 0.299]). The resampled values are the
    score's own, of the resampled rows; the shift is the bootstrap's
    estimate of the estimate's bias, and neither the estimate nor the
    interval is then a safe statement about the population. BCa is
    undefined when every resample lies on one side of the estimate and
    falls back to the percentile interval (counted in ``n_degenerate``;
    scipy.stats.bootstrap gives NaN and a
    :class:`~scipy.stats.DegenerateDataWarning`); when nearly every
    resample does, its large bias correction can move both bounds past the
    estimate to the other side. Any estimate left outside its percentile or
    BCa interval with at least 97.5 % of the resamples on one side of it
    (from 39 resamples: a centred estimate is that far out with odds below
    2**-39) is named in the warning. The micro average, one ratio of pooled
    counts, is far less exposed.

    Which interval each score gets (issue #32):

    - A label's ratio of counts ``r = X / Y`` (precision, recall, F-beta,
      specificity and the registry's other ratios), ``X`` and ``Y`` sums over
      the instances (or groups) of ``x_i`` and ``y_i``, gets the Wilson
      score interval [2]_ on its effective number of trials, in Brown, Cai
      and DasGupta's modified form [4]_: at one or two hits or misses up to
      50 trials (one to three from 51 to 100) the bound beside them is their
      Poisson one (one hit of one trial at 95%: [0.051, 1], as R's
      ``MKmisc::binomCI`` gives it, not Wilson's [0.21, 1], which
      covered 85% of the samples in which yeast's label of 1.4% prevalence
      was predicted at n = 50, ``benchmarks/bench_coverage.py``). The unit of
      sampling is the instance, a cluster of charges: under Heydarian's
      rules a missed label is charged once to each wrong prediction, so an
      instance may add 3 to ``Y`` and ``x_i``, ``y_i`` are dependent. The
      ratio's linearised (delta-method) variance over the units is
      ``V = sum_i (x_i - r y_i)^2 / Y^2`` and the interval is Wilson's on
      ``n_eff = r (1 - r) / V`` trials (the design effect ``Y / n_eff``
      shrinks ``Y``; Korn and Graubard [3]_), with ``r n_eff`` hits; where
      ``r`` is 0 or 1 (``V = 0``), on Kish's effective size ``Y^2 / sum_i
      y_i^2``. Where every instance is one Bernoulli trial (unweighted,
      ``x_i, y_i`` in {0, 1}) ``n_eff = Y`` and this is Wilson's interval of
      the counts. Ten instances that miss a label and predict three others
      charge its row 30 times: its recall interval is that of no hit in 10
      instances, [0, 0.28], not in 30 charges, [0, 0.11], nor the
      percentile bootstrap's [0, 0]. It needs no resampling and keeps its
      coverage at no hit or no miss, so it is not flagged for few
      positives. A label whose ratio is undefined on the test set (a zero
      denominator) gets [0, 1], every value the population's ratio may take.
    - A macro average ``M`` of such ratios gets the bootstrap-t ([1]_, ch.
      12): each resample's ``t_b = (M_b - M) / se_b``, studentised by its own
      linearised standard error (``se_b^2 = sum_i c_bi u_ib^2``, ``u_ib`` each
      unit's linearised contribution to ``M_b``, ``c_bi`` how often the
      resample drew it; read off the same resamples as the other
      intervals), gives ``[M - t_(1 - a/2) se, M - t_(a/2) se]``, clipped to
      [0, 1]. Resamples that lose a rare label's only positive widen it
      instead of being averaged away. Where nearly every resample lies on
      one side of ``M`` (the shift above), ``t_(a/2)`` and ``t_(1 - a/2)``
      share a sign and the interval would lie beside ``M``: it is then
      widened to reach ``M`` (never past it), an interval that excludes its
      own estimate contradicting it, and flagged where at least 97.5 % of
      the resamples lie on that side (at a low ``confidence_level`` a
      narrow interval can lie beside ``M`` on a small majority: widened,
      not flagged).
    - The micro, weighted and samples averages, the statistics that are no
      ratio of counts (MCC, balanced accuracy, informedness, markedness,
      G-mean: per label and averaged) and the matrix's cells keep the
      percentile or BCa interval of ``interval``.

    The estimates are the scores' own in every case, read off the sums of
    the distinct units (each kind of instance times its multiplicity): bit
    for bit those of :func:`mlcm_f1_score` and the other scores for
    Heydarian's unweighted counts, which are integers; with weights, or
    Krstinić's fractions, the sums run in another order than the kernels'
    and may differ from them, and from the report's and the accumulator's,
    in the last place (about 1e-16).

    Each interval carries a ``flag`` (:attr:`ScoreInterval.flag`): None
    where the library stands behind it, else why not. Per label:
    "undefined: never predicted" (and the other zero denominators: the
    value shown is ``zero_division``'s, not a measurement) and, for a
    bootstrap interval of a statistic that is no ratio, "few positives
    (3 < 5)" (fewer than 5 positives). Per average: "12 of 53 labels have
    < 5 positives" (a macro average where more than 5 % of the labels are
    that rare: no interval of the plug-in macro average held its coverage
    there in the simulations of ``benchmarks/sim_honest.py``), "undefined
    for every label", and "bootstrap-t excluded the estimate (shifted
    resamples): widened to it". The flagged intervals, and the estimates
    outside their percentile or BCa interval, are named in one
    :class:`~scipy.stats.DegenerateDataWarning` per call, which says what
    each kind of flag means; the summary and ``to_frame()`` ("<score>
    flag") show them.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, ch. 14 (BCa) and ch. 12 (the bootstrap-t).
    .. [2] E. B. Wilson, "Probable inference, the law of succession, and
       statistical inference", JASA 22, 1927.
    .. [3] E. L. Korn and B. I. Graubard, "Confidence intervals for
       proportions with small expected number of positive counts estimated
       from survey data", Survey Methodology 24(2), 193-201, 1998.
    .. [4] L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for
       a binomial proportion", Statistical Science 16(2), 101-133, 2001.

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
    (0.716, 0.674, 0.758)
    >>> result.label_confidence_interval.low.round(3)
    array([0.58 , 0.736, 0.645, 0.639])

    Every score of the report, from the same resamples:

    >>> recall, (low, high) = result.scores["recall_micro"]
    >>> round(recall, 3), round(low, 3), round(high, 3)
    (0.714, 0.67, 0.755)

    Printed, a summary (``result.to_frame()`` has every score of every label
    and average); ``target_names`` names the labels:

    >>> print(mlcm_confidence_intervals(y_true, y_pred, n_resamples=999,
    ...                                 target_names=["cat", "dog", "owl", "fox"],
    ...                                 random_state=0))
    ConfidenceIntervalResult: f1, macro avg = 0.7162, 95% bootstrap-t interval [0.6743, 0.7577]
    999 bootstrap resamples of 300 instances, heydarian matrix, 4 labels
    77 distinct instances (true set, predicted set, weight), each resampled as one kind
    <BLANKLINE>
    average           f1     low    high
    micro avg     0.7179  0.6758  0.7576
    macro avg     0.7162  0.6743  0.7577
    weighted avg  0.7174  0.6751  0.7570
    <BLANKLINE>
    Each label (95% modified Wilson score intervals):
    label      f1     low    high   width
    cat    0.6497  0.5797  0.7139  0.1343
    dog    0.7926  0.7362  0.8396  0.1035
    owl    0.7136  0.6451  0.7735  0.1284
    fox    0.7087  0.6388  0.7700  0.1313
    precision, recall, f1, specificity of each label and average: .to_frame()
    """  # noqa: E501 (the summary is wider than the code)
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
