"""The classification report computed from the MLCM (str or dict)."""

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS
from sklearn_mlcm._mlcm._dispatch import compute
from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Interval,
    Options,
    Sequence,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._uncertainty._intervals import bootstrap_intervals, unit_table
from sklearn_mlcm._uncertainty._margins import MAX_RESAMPLES, resamples_resolve_tails
from sklearn_mlcm._uncertainty._parallel import N_JOBS
from sklearn_mlcm._uncertainty._score_intervals import RATIOS
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

from ._table import (
    DEFAULT_METRICS,
    METRIC_NAMES,
    NO_LABEL_NAME,
    REPORT_AVERAGES,
    SAMPLES_AVERAGE,
    ReportBounds,
    repeated_statistic,
    report_dict,
    report_statistics,
    report_table,
    report_text,
    score_key,
    with_bounds,
)

__all__ = [
    "REPORT_CONSTRAINTS",
    "build_report",
    "metrics_are_distinct",
    "mlcm_classification_report",
]

# More decimals than a float64 holds only pad with zeros (and cost memory).
MAX_DIGITS = 20


#: The options that shape the report's intervals, with their defaults.
_INTERVAL_DEFAULTS = {
    "n_resamples": 9999,
    "interval": "bca",
    "groups": None,
    "random_state": None,
    "n_jobs": None,
}


def options_need(trigger, defaults, without, shapes):
    """A validation rule: the options ``defaults`` (name to default) must keep
    their defaults while the argument ``trigger`` is None, for without it they
    would be ignored; ``without`` and ``shapes`` finish the message ("left at
    its default (...) without {without}: it shapes {shapes}")."""

    def rule(arguments):
        if arguments[trigger] is not None:
            return
        for name, default in defaults.items():
            value = arguments[name]
            if value is not None if default is None else value != default:
                raise invalid_parameter(
                    name,
                    f"left at its default ({default!r}) without {without}: it "
                    f"shapes {shapes}",
                    value,
                )

    rule.__name__ = f"_{trigger}_needed"
    return rule


#: Rule: an interval option other than its default needs a
#: ``confidence_level``: without one there is no interval, and the option
#: would be ignored (the command line refuses ``--n-resamples`` and the
#: others without ``--confidence-level`` alike).
_intervals_need_a_level = options_need(
    "confidence_level",
    _INTERVAL_DEFAULTS,
    "a confidence_level",
    "the confidence intervals, which only a confidence_level (such as 0.95) asks for",
)


def metrics_are_distinct(arguments):
    """Rule: ``metrics`` names each statistic once ("f1" and "f1-score" are
    one column)."""
    repeated = repeated_statistic(arguments["metrics"])
    if repeated is not None:
        first, second = repeated
        raise invalid_parameter(
            "metrics",
            f"a list of distinct statistics ({first!r} and {second!r} name the "
            "same one)",
            arguments["metrics"],
        )


#: The constraints of the report's options (its statistics, names, zero
#: division, the no-label row and the intervals), declared once for every
#: public call that builds a report: :func:`mlcm_classification_report` and
#: :class:`~sklearn_mlcm.MLCMReport`'s constructors.
REPORT_CONSTRAINTS = {
    "metrics": [Sequence(str, options=METRIC_NAMES, unique=True, min_length=1)],
    "target_names": [Sequence(), None],
    "zero_division": ZERO_DIVISION,
    "include_no_label": ["boolean"],
    "confidence_level": [Interval(Real, 0, 1, closed="neither"), None],
    "n_resamples": [Interval(Integral, 1, MAX_RESAMPLES)],
    "interval": [Options("bca", "percentile")],
    "groups": ["array-like", None],
    "random_state": [
        Interval(Integral, 0, 2**32 - 1),
        np.random.RandomState,
        None,
    ],
    "n_jobs": N_JOBS,
}


@validate_params(
    {
        **TARGET_CONSTRAINTS,
        "digits": [Interval(Integral, 0, MAX_DIGITS)],
        "output_dict": ["boolean"],
        **REPORT_CONSTRAINTS,
    },
    rules=(_intervals_need_a_level, resamples_resolve_tails, metrics_are_distinct),
)
def mlcm_classification_report(
    y_true,
    y_pred,
    *,
    method="heydarian",
    labels=None,
    target_names=None,
    sample_weight=None,
    digits=2,
    output_dict=False,
    zero_division="warn",
    include_no_label=False,
    metrics=DEFAULT_METRICS,
    confidence_level=None,
    n_resamples=9999,
    interval="bca",
    groups=None,
    random_state=None,
    n_jobs=None,
):
    """Build a text report of the main metrics, computed from the MLCM.

    scikit-learn's :func:`~sklearn.metrics.classification_report`, but with
    TP, FP and FN read off the 2-D multi-label confusion matrix, so that a
    wrongly predicted label lowers the recall of the label it replaced.

    Read more in the :ref:`User Guide <report>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix the statistics are read from; see
        :func:`mlcm_confusion_matrix`.

    labels : array-like of shape (n_kept,), default=None
        The labels to report, in that order; the matrix is computed on this
        restricted label space (see :func:`mlcm_confusion_matrix`).

    target_names : list of str of shape (n_labels,), default=None
        Display names of the labels, unique once surrounding whitespace is
        stripped (the text prints ``"a"``, ``"a "`` and ``" a"`` alike) and
        none of them an average's row. By default the column names of
        ``y_true`` when it is a DataFrame, the class values for 1-D input, and
        the column indices otherwise.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    digits : int, default=2
        Number of digits of the floating point values. Ignored when
        ``output_dict`` is True.

    output_dict : bool, default=False
        Return a dict instead of a str.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero. "warn" acts as 0.0 and
        raises an :class:`~sklearn.exceptions.UndefinedMetricWarning`.
        ``np.nan`` values are left out of the averages.

    include_no_label : bool, default=False
        Also report the "no label" index (the NTL row and NPL column) as a row
        named ``"no label"``, and take it into the macro and weighted averages.

    metrics : list of str, default=("precision", "recall", "f1-score")
        The report's statistics, one column each, in this order: any
        per-class statistic of :func:`confusion_matrix_statistics` (the
        registry), by its key (``"matthews_corrcoef"``), its column header
        (``"MCC"``) or the alias ``"f1"`` (the report's F-score is F1). Each
        gets its micro, macro and weighted averages and, with a
        ``confidence_level``, its interval. Only precision, recall and F1
        have a samples average: the others print a blank cell in the
        "samples avg" row and have no key in its dict entry. A name given
        twice, or two names of one statistic, is refused.

    confidence_level : float or None, default=None
        With a level in (0, 1), every score (per label and averaged) is
        printed with its confidence interval, as
        :func:`mlcm_confidence_intervals` computes it (one set of resamples
        for all of them): modified Wilson score intervals for the labels'
        ratios (precision, recall, F1...), the bootstrap-t for their macro
        averages, the bootstrap of ``interval`` for the rest; a last line
        says what the brackets are. None: the report without intervals; the
        five options below then keep their defaults (another value is
        refused: it would be ignored). An interval the data cannot support
        is flagged, and the flagged intervals, with any number left outside
        its own bootstrap interval, are named in one
        :class:`~scipy.stats.DegenerateDataWarning` (see the Notes of
        :func:`mlcm_confidence_intervals`).

    n_resamples : int, default=9999
        The number of bootstrap resamples, up to 10**6, and at least
        ``2 / (1 - confidence_level) - 1``, rounded up (39 for 95%): enough
        to resolve the intervals' tails, as :func:`mlcm_confidence_intervals`
        requires.

    interval : {"bca", "percentile"}, default="bca"
        How the bounds are read off the bootstrap distribution: those of the
        micro, weighted and samples averages and of the statistics that are
        no ratio of counts. The labels' ratios get modified Wilson score
        intervals and their macro averages the bootstrap-t, whatever it says.

    groups : array-like of shape (n_samples,), default=None
        The group of each instance: whole groups are resampled (the cluster
        bootstrap).

    random_state : int, RandomState instance or None, default=None
        The seed of the resamples: the same seed gives the same intervals.

    n_jobs : int, default=None
        The number of threads that draw and score the resamples. None means 1
        unless in a :func:`joblib.parallel_config` context; -1 means every
        processor (at most one thread per processor). The intervals do not depend on it. Test sets of fewer
        than 32,768 units (instances, or groups) are resampled in one thread:
        there threads were measured slower.

    Returns
    -------
    report : str or dict
        Text summary of the ``metrics`` (precision, recall, F1 by default),
        weight and support per label
        and of the micro, macro and weighted averages, and for multi-label
        (2-D) input of the samples average, as scikit-learn's. As a dict::

            {"label 1": {"precision": 0.5, "recall": 1.0, "f1-score": 0.67,
                         "weight": 2.0, "support": 1.0},
             ...,
             "micro avg": {...}, "macro avg": {...}, "weighted avg": {...},
             "samples avg": {...}}

        The keys of the scores are the ``metrics``' column headers. With a
        ``confidence_level`` each score is followed by its bounds and its
        flag, ``"precision low"``, ``"precision high"``, ``"precision
        flag"``, ``"recall low"``, ..., ``"f1-score flag"``: the flag is None
        where the interval can be trusted, else the reason it cannot
        (``"undefined: never predicted"``, ``"few positives (3 < 5)"``,
        ``"12 of 53 labels have < 5 positives"``, ``"bootstrap-t excluded the
        estimate (shifted resamples): widened to it"``). All other values are
        Python floats, as scikit-learn's; an undefined score keeps
        ``zero_division``'s value. The text marks a flagged interval
        (``†1``), prints an undefined score as ``—`` and lists the reasons
        under the table.

    See Also
    --------
    sklearn.metrics.classification_report : The one-vs-rest report; its
        "support" counts true instances per label and its micro average runs
        over labels only.
    mlcm_confusion_matrix : The matrix the report is computed from.
    mlcm_confidence_intervals : The intervals of every score (specificity
        too) and of the matrix's cells, as arrays.

    Notes
    -----
    With C the MLCM: precision ``C[k, k] / sum_j C[j, k]``, recall
    ``C[k, k] / sum_j C[k, j]``, F1 their harmonic mean. "weight" is the row
    sum of C (Heydarian et al., Table 12), which for ``method="heydarian"``
    can exceed the number of true instances: a wrong prediction counts against
    every true label when none was missed (category 2), and a missed label once
    per wrong prediction (category 3); "support" is the number of true
    instances per label,
    as in scikit-learn. The three averages run over the shown rows, the q
    labels (q+1 with ``include_no_label=True``): the micro average pools their
    counts, as scikit-learn's does, the macro average is the plain mean and
    the weighted average the mean weighted by "weight".

    "samples avg" (2-D input only, as in scikit-learn) is the mean over the
    instances of each instance's own precision ``|T & P| / |P|``, recall
    ``|T & P| / |T|`` and F1, with T its true set and P its predicted set
    (see :func:`mlcm_precision_recall_fscore_support`); it reads no matrix.
    Its weight and support are the totals, as the other averages'.

    Heydarian et al.'s Table 12 prints another micro average, which pools all
    q+1 indices: the corner ``C[NTL, NPL]`` (instances with no true and no
    predicted label) is then on the diagonal and each of them counts as
    correct, and micro precision, recall and F1 are all ``trace(C) / sum(C)``.
    That number is ``average="micro_all"`` of the scores and of
    :func:`mlcm_precision_recall_fscore_support` (see the example below).

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    >>> from sklearn_mlcm import mlcm_classification_report
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> print(mlcm_classification_report(y_true, y_pred, zero_division=0.0,
    ...                                  target_names=["C0", "C1", "C2"]))
                  precision    recall  f1-score    weight   support
    <BLANKLINE>
              C0       1.00      0.45      0.62        11         7
              C1       0.40      0.33      0.36         6         5
              C2       0.11      1.00      0.20         1         1
    <BLANKLINE>
       micro avg       0.42      0.44      0.43        18        13
       macro avg       0.50      0.60      0.40        18        13
    weighted avg       0.75      0.44      0.51        18        13
     samples avg       0.39      0.46      0.40        18        13
    <BLANKLINE>

    Two of the nine instances have no true and no predicted label: their
    instance ratios are undefined and take ``zero_division`` in the samples
    average (with the default "warn", 0.0 and a warning).

    Other statistics of the registry, by key or header:

    >>> report = mlcm_classification_report(
    ...     y_true, y_pred, metrics=("jaccard", "MCC"), output_dict=True,
    ...     zero_division=0.0)
    >>> round(report["macro avg"]["jaccard"], 4), report["samples avg"]
    (0.2626, {'weight': 18.0, 'support': 13.0})

    Predicting nothing on data where two of four instances have no label: the
    micro average over the labels is 0, while Table 12's convention counts the
    two empty instances as correct.

    >>> from sklearn_mlcm import mlcm_f1_score
    >>> y_true = [[0, 0], [0, 0], [1, 0], [1, 1]]
    >>> nothing = [[0, 0]] * 4
    >>> report = mlcm_classification_report(y_true, nothing, output_dict=True,
    ...                                     zero_division=0.0)
    >>> report["micro avg"]["f1-score"]
    0.0
    >>> mlcm_f1_score(y_true, nothing, average="micro_all", zero_division=0.0)
    0.4

    How sure are these numbers? With a confidence level each one carries its
    interval (nine instances say little: the macro averages over labels with
    fewer than 5 positives are flagged, their reasons under the table, and a
    :class:`~scipy.stats.DegenerateDataWarning` names them, silenced here):

    >>> import warnings
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> with warnings.catch_warnings():
    ...     warnings.filterwarnings("ignore", ".*intervals flagged")
    ...     print(mlcm_classification_report(
    ...         y_true, y_pred, confidence_level=0.9, n_resamples=999,
    ...         interval="percentile", random_state=0, zero_division=0.0))
                              precision                recall              f1-score    weight   support
    <BLANKLINE>
               0   1.00 [0.65, 1.00]     0.45 [0.26, 0.66]     0.62 [0.42, 0.79]           11         7
               1   0.40 [0.11, 0.73]     0.33 [0.14, 0.60]     0.36 [0.16, 0.63]            6         5
               2   0.11 [0.01, 0.39]     1.00 [0.11, 1.00]     0.20 [0.02, 0.56]            1         1
    <BLANKLINE>
       micro avg   0.42 [0.21, 0.62]     0.44 [0.25, 0.61]     0.43 [0.23, 0.61]           18        13
       macro avg   0.50 [0.35, 0.81]     0.60 [0.47, 1.00] †1  0.40 [0.21, 0.65] †1        18        13
    weighted avg   0.75 [0.64, 0.90]     0.44 [0.25, 0.61]     0.51 [0.33, 0.67]           18        13
     samples avg   0.39 [0.16, 0.61]     0.46 [0.20, 0.72]     0.40 [0.17, 0.62]           18        13
    <BLANKLINE>
    [low, high]: 90% percentile bootstrap intervals, 999 resamples of the 9 instances; the labels' ratios modified Wilson score intervals, their macro avg bootstrap-t
    <BLANKLINE>
    Flagged intervals (the data cannot support them as printed):
      †1 1 of 3 labels have < 5 positives: 2 intervals (macro avg recall, macro avg f1-score)
    <BLANKLINE>
    """  # noqa: E501 (the report with intervals is wider than the code)
    targets = validate_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight, groups=groups
    )
    _, report, _ = report_of(
        targets,
        method=method,
        target_names=target_names,
        digits=int(digits),
        output_dict=bool(output_dict),
        zero_division=zero_division,
        include_no_label=bool(include_no_label),
        statistics=report_statistics(metrics),
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        interval=interval,
        random_state=random_state,
        n_jobs=n_jobs,
    )
    return report


def report_of(
    targets,
    *,
    method,
    target_names,
    digits,
    output_dict,
    zero_division,
    include_no_label,
    statistics,
    confidence_level,
    n_resamples,
    interval,
    random_state,
    n_jobs,
):
    """``(computed, report, bounds)`` of validated targets: the one kernel
    call (:func:`~sklearn_mlcm._mlcm._dispatch.compute`), the report (str or
    dict, with the intervals of ``confidence_level`` when it is not None)
    and its :class:`ReportBounds` (None without a level). Shared by
    :func:`mlcm_classification_report` and :class:`~sklearn_mlcm.MLCMReport`,
    so that both read one report off one matrix."""
    computed = compute(targets, method=method, with_supports=True, samples=True)
    samples = computed.samples if computed.multilabel else None
    bounds = None
    if confidence_level is not None:
        bounds = _report_bounds(
            targets,
            statistics=statistics,
            method=method,
            samples=samples is not None,
            include_no_label=include_no_label,
            confidence_level=float(confidence_level),
            n_resamples=int(n_resamples),
            interval=interval,
            zero_division=zero_division,
            random_state=random_state,
            n_jobs=n_jobs,
            target_names=target_names,
        )
    report = build_report(
        computed.matrix,
        computed.names,
        computed.supports,
        computed.no_label_support,
        target_names=target_names,
        digits=digits,
        output_dict=output_dict,
        zero_division=zero_division,
        include_no_label=include_no_label,
        statistics=statistics,
        bounds=bounds,
        samples=samples,
    )
    return computed, report, bounds


def _report_bounds(
    targets,
    *,
    statistics,
    method,
    samples,
    include_no_label,
    confidence_level,
    n_resamples,
    interval,
    zero_division,
    random_state,
    n_jobs,
    target_names=None,
):
    """The :class:`ReportBounds` of the report's numbers: one set of
    resamples (as :func:`mlcm_confidence_intervals` draws them) for every
    score of ``statistics``, per row and averaged (the samples average too
    with ``samples``, for the statistics that have one). ``target_names``
    (checked by :func:`build_report`) names the rows in the warning of an
    estimate outside its interval."""
    units, names = unit_table(targets, method=method)
    if target_names is not None and len(target_names) == len(names):
        names = target_names
    names = [*names, NO_LABEL_NAME] if include_no_label else list(names)
    shown = units.n_labels + include_no_label
    averages = REPORT_AVERAGES + ((SAMPLES_AVERAGE,) if samples else ())
    metrics = tuple(score_key(statistic) for statistic in statistics)
    scores, _ = bootstrap_intervals(
        units,
        metrics=metrics,
        averages=averages,
        shown=shown,
        n_resamples=n_resamples,
        seed=int(check_random_state(random_state).randint(2**31 - 1)),
        confidence_level=confidence_level,
        interval=interval,
        beta=1.0,
        tn="complement",
        zero_division=zero_division,  # the report's own values have warned
        n_jobs=n_jobs,
        names=names,
    )
    units_name = "groups" if targets.groups is not None else "instances"
    legend = (
        f"[low, high]: {100 * confidence_level:g}% "
        f"{'BCa' if interval == 'bca' else 'percentile'} bootstrap intervals, "
        f"{n_resamples:,} resamples of the {units.n_units:,} {units_name}"
    )
    if any(metric in RATIOS for metric in metrics):  # the others: bootstrap only
        legend += (
            "; the labels' ratios modified Wilson score intervals, their macro avg "
            "bootstrap-t"
        )
    return ReportBounds(scores, legend)


def build_report(
    cm,
    names,
    supports,
    no_label_support,
    *,
    target_names,
    digits,
    output_dict,
    zero_division,
    include_no_label,
    statistics,
    bounds=None,
    samples=None,
):
    """The report (str or dict) of a computed matrix and its supports.

    Shared by :func:`mlcm_classification_report` and
    :meth:`MLCMAccumulator.classification_report`, so both print one report;
    ``statistics`` are its columns (registry entries); ``bounds`` (a
    :class:`ReportBounds` of them) adds the intervals; ``samples``, the
    table of the instances' set sizes, the samples average's row
    (:func:`report_table`).
    """
    reserved = {f"{a} avg" for a in REPORT_AVERAGES}
    if samples is not None:
        reserved.add(f"{SAMPLES_AVERAGE} avg")
    if include_no_label:
        reserved.add(NO_LABEL_NAME)
    names = check_target_names(
        names if target_names is None else target_names, len(names), reserved
    )
    if include_no_label:
        names.append(NO_LABEL_NAME)

    table = report_table(
        cm,
        names,
        supports,
        no_label_support,
        statistics=statistics,
        include_no_label=include_no_label,
        zero_division=zero_division,
        samples=samples,
    )
    if bounds is not None:
        table = with_bounds(table, statistics, bounds)
    return report_dict(table) if output_dict else report_text(table, digits)
