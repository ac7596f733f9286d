"""Paired comparison of classifiers on one test set: bootstrap and permutation.

Two (or more) prediction sets for the same ``y_true`` are compared by the
difference of one MLCM score. Everything the scores need is in three margins
of the matrix (its diagonal, row sums and column sums), and each margin is a
sum over the instances of a contribution that depends only on the pair (true
set, predicted set). A resample, or a swap of the two classifiers'
predictions, is then a re-weighting of the instances: B of them are one
(B, instances) by (instances, margins) product, with no matrix rebuilt. Each
prediction set is read through the table of distinct units instance by
instance (:class:`._table.InstancePairs`): a swap moves single instances
between the two sets, so the weights stay per instance, summed per pair.
"""

import itertools
import warnings
from dataclasses import dataclass
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
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._results import ConfidenceInterval, unpackable
from sklearn_mlcm._summary import (
    format_number,
    label_frame,
    label_rows,
    label_section,
    shorten,
)
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import input_error
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

from ._margins import (
    MAX_RESAMPLES,
    METRICS,
    batches,
    resamples_resolve_tails,
    scores_from_margins,
    undefined_scores,
)
from ._table import InstancePairs, check_groups

__all__ = ["PairedComparisonResult", "mlcm_paired_comparison"]


@unpackable("difference", "pvalue")
@dataclass(frozen=True, repr=False)
class PairedComparisonResult:
    """The outcome of :func:`mlcm_paired_comparison` for one pair (A, B).

    Unpacks like a scipy.stats result: ``difference, pvalue = result``; the
    other fields are attributes. Differences are score(A) minus score(B). It
    prints a summary of at most 40 lines: the difference, its interval and
    p-value, then the labels with the smallest p-values (all labels up to
    20); :meth:`to_frame` gives every label and the average.

    Attributes
    ----------
    difference : float
        The difference of the averaged score, A minus B.

    pvalue : float
        The p-value of the paired permutation test of the averaged score.

    confidence_interval : ConfidenceInterval
        ``(low, high)`` of the paired-bootstrap percentile interval of
        ``difference`` (one-sided, with an infinite bound, for
        ``alternative="less"`` or ``"greater"``).

    pvalue_corrected : float
        ``pvalue`` corrected for the number of pairs compared in one call
        (the same value when one pair is compared).

    score_a, score_b : float
        The averaged score of each prediction set.

    label_differences : ndarray of shape (n_labels,)
        The difference of each label's score.

    label_pvalues : ndarray of shape (n_labels,)
        Each label's permutation p-value, uncorrected.

    label_pvalues_corrected : ndarray of shape (n_labels,)
        The same, corrected for the n_labels tests (``correction``).

    label_confidence_interval : ConfidenceInterval
        ``(low, high)``, arrays of shape (n_labels,): each label's interval.

    label_scores_a, label_scores_b : ndarray of shape (n_labels,)
        Each label's score for each prediction set.

    target_names : list of str
        The label names: frame columns, class values or column indices.

    names : tuple of two
        The names of A and B (``("a", "b")`` for two arrays, else dict keys).

    n_resamples : int
        The number of bootstrap resamples, and of random swaps.

    exact : bool
        True when every one of the 2**n_units swaps was enumerated (then
        ``pvalue`` is exact), False for ``n_resamples`` random swaps.

    bootstrap_distribution : ndarray of shape (n_resamples,)
        The bootstrap differences of the averaged score.

    label_n_undefined : ndarray of shape (n_labels,), dtype=int64
        In how many bootstrap resamples each label's score (of A or B) was
        undefined, a zero denominator, and so set by ``zero_division``.

    n_undefined : int
        In how many bootstrap resamples at least one label's score was.

    metric : str or None
        The score compared (``"f1"``...), the ``metric`` of the call.

    average : str or None
        How the label scores are combined (``"macro"``...).

    method : str or None
        The matrix read, ``"heydarian"`` or ``"krstinic"``.

    confidence_level : float or None
        The nominal coverage of the intervals.

    alternative : str
        The alternative hypothesis, ``"two-sided"``, ``"less"`` or
        ``"greater"``.

    correction : str or None
        The multiple-comparison correction, ``"holm"``, ``"bonferroni"`` or
        None.

    n_units : int or None
        The number of units resampled and swapped: instances, or groups.

    units : str
        What a unit is: ``"instances"``, or ``"groups"`` with ``groups``.

    n_pairs : int or None
        How many pairs the call compared, across which ``pvalue_corrected``
        is corrected.
    """

    difference: float
    pvalue: float
    confidence_interval: ConfidenceInterval
    pvalue_corrected: float
    score_a: float
    score_b: float
    label_differences: np.ndarray
    label_pvalues: np.ndarray
    label_pvalues_corrected: np.ndarray
    label_confidence_interval: ConfidenceInterval
    label_scores_a: np.ndarray
    label_scores_b: np.ndarray
    target_names: list
    names: tuple
    n_resamples: int
    exact: bool
    bootstrap_distribution: np.ndarray
    label_n_undefined: np.ndarray
    n_undefined: int
    metric: str = None
    average: str = None
    method: str = None
    confidence_level: float = None
    alternative: str = "two-sided"
    correction: str = None
    n_units: int = None
    units: str = "instances"
    n_pairs: int = None

    def __repr__(self):
        return _paired_summary(self)

    def to_frame(self):
        """The difference of every label and of the average, one row each.

        Returns
        -------
        frame : pandas.DataFrame
            Index named ``"label"``: the label names (``target_names``),
            then the average's row (``"macro avg"``...). Columns ``kind``
            (``"label"`` or ``"average"``), ``score_a``, ``score_b``,
            ``difference``, ``low``, ``high``, ``pvalue``,
            ``pvalue_corrected`` and ``n_undefined``: for the labels
            ``label_scores_a`` ... ``label_n_undefined``, for the average
            ``score_a`` ... ``n_undefined``, as they are.

        Raises
        ------
        ImportError
            Without pandas (``pip install "sklearn-mlcm[pandas]"``).
        """
        average = f"{self.average} avg" if self.average else "average"
        pairs = {
            "score_a": (self.label_scores_a, self.score_a),
            "score_b": (self.label_scores_b, self.score_b),
            "difference": (self.label_differences, self.difference),
            "low": (self.label_confidence_interval.low, self.confidence_interval.low),
            "high": (
                self.label_confidence_interval.high,
                self.confidence_interval.high,
            ),
            "pvalue": (self.label_pvalues, self.pvalue),
            "pvalue_corrected": (self.label_pvalues_corrected, self.pvalue_corrected),
        }
        columns = {
            name: np.append(np.asarray(labels, dtype=np.float64), overall)
            for name, (labels, overall) in pairs.items()
        }
        columns["n_undefined"] = np.append(
            np.asarray(self.label_n_undefined, dtype=np.int64), self.n_undefined
        )
        return label_frame(
            "PairedComparisonResult.to_frame()",
            list(self.target_names),
            [average],
            columns,
        )


def _pair_correction(result):
    """What the summary says of ``pvalue_corrected``: nothing for one pair
    (it equals ``pvalue``), else the correction and the number of pairs."""
    if result.n_pairs == 1:
        return ""
    pairs = "the pairs" if result.n_pairs is None else f"the {result.n_pairs:,} pairs"
    if result.correction is None:
        return f", uncorrected across {pairs}"
    return (
        f", {result.correction.capitalize()}-corrected across {pairs} "
        f"{format_number(result.pvalue_corrected)}"
    )


def _paired_summary(result):
    """:class:`PairedComparisonResult`'s summary (at most 40 lines)."""
    a, b = (shorten(name, 16) for name in result.names)
    metric = result.metric or "score"
    chosen = metric if result.average is None else f"{metric}, {result.average} avg"
    low, high = result.confidence_interval
    interval = "percentile interval"
    if result.alternative != "two-sided":
        interval = f"one-sided ({result.alternative}) {interval}"
    if result.confidence_level is not None:
        interval = f"{100 * result.confidence_level:g}% {interval}"
    units = result.units
    if result.n_units is not None:
        units = f"{result.n_units:,} {units}"
    if result.exact:
        test = "exact test"
        if result.n_units:
            test = f"exact test: all {2**result.n_units:,} swaps"
    else:
        test = f"{result.n_resamples:,} random swaps"
    lines = [
        f"PairedComparisonResult: {chosen}, {a} minus {b} = "
        f"{format_number(result.difference)}",
        f"{interval} [{format_number(low)}, {format_number(high)}] "
        f"({result.n_resamples:,} paired bootstrap resamples)",
        f"p-value {format_number(result.pvalue)}{_pair_correction(result)} "
        f"({result.alternative} permutation test)",
        f"{units}, {test}" + (f"; {result.method} matrix" if result.method else ""),
        f"{chosen}: {a} {format_number(result.score_a)}, {b} "
        f"{format_number(result.score_b)}",
    ]
    names = result.target_names
    corrected = np.asarray(result.label_pvalues_corrected, dtype=np.float64)
    if result.confidence_level is not None:
        alpha = 1.0 - result.confidence_level
        how = "uncorrected"
        if result.correction:
            how = f"{result.correction.capitalize()}-corrected"
        lines.append(
            f"{int(np.sum(corrected <= alpha)):,} of {len(names):,} labels have "
            f"{how} p-values <= {alpha:g}"
        )
        # random swaps give no p-value below 1 / (R + 1), and the correction
        # none below m times that: say so when that is above the level
        tested = int(np.sum(~np.isnan(corrected))) if result.correction else 1
        floor = min(1.0, tested / (result.n_resamples + 1))
        if not result.exact and floor > alpha:
            lines.append(
                f"(with {result.n_resamples:,} random swaps none can be below "
                f"{floor:.4g}: more n_resamples resolve smaller p-values)"
            )
    if result.n_undefined:
        lines.append(
            f"undefined (zero_division) in {result.n_undefined:,} bootstrap "
            "resamples for at least one label"
        )
    difference = np.asarray(result.label_differences, dtype=np.float64)
    pvalues = np.asarray(result.label_pvalues, dtype=np.float64)
    order = np.lexsort((-np.abs(difference), pvalues))
    ranking = np.empty(len(names))
    ranking[order] = np.arange(len(names))
    shown = label_rows(len(names), ranking)
    columns = (
        result.label_scores_a,
        result.label_scores_b,
        difference,
        *result.label_confidence_interval,
        pvalues,
        corrected,
    )
    lines += label_section(
        names,
        ["label", a, b, "difference", "low", "high", "p-value", "corrected"],
        columns,
        shown,
        result.label_n_undefined,
        "the smallest p-values",
    )
    lines.append("Every label and the average: .to_frame()")
    return "\n".join(lines)


# -- resampling ------------------------------------------------------------------


def _swapped_differences(views, weight, unit, swaps, options):
    """Differences after swapping A's and B's predictions where ``swaps``.

    ``swaps`` (R, n_units) of 0/1: instance i of A takes B's prediction (and
    B takes A's) when ``swaps[:, unit[i]]``. As margins are linear in the
    weights, A' = M(T, A; w (1 - s)) + M(T, B; w s), and B' the rest.
    """
    s = swaps[:, unit] * weight
    keep = weight - s
    view_a, view_b = views
    margins_a = view_a.weighted_margins(keep) + view_b.weighted_margins(s)
    margins_b = view_b.weighted_margins(keep) + view_a.weighted_margins(s)
    score_a, label_a = scores_from_margins(margins_a, **options)
    score_b, label_b = scores_from_margins(margins_b, **options)
    return score_a - score_b, label_a - label_b


def _bootstrap(views, weight, unit, n_units, n_resamples, seed, options):
    """Paired bootstrap: each resample draws the units (instances or groups)
    with replacement once, and weighs both prediction sets alike.

    Returns the averaged and label differences, and per label the number of
    resamples in which its score of A or B was undefined (zero_division).
    """
    rng = np.random.RandomState(seed)
    overall, labels, undefined = [], [], []
    uniform = np.full(n_units, 1.0 / n_units)
    for size in batches(n_resamples, max(n_units, weight.size)):
        counts = rng.multinomial(n_units, uniform, size=size).astype(np.float64)
        w = counts[:, unit] * weight
        margins = [view.weighted_margins(w) for view in views]
        (score_a, label_a), (score_b, label_b) = (
            scores_from_margins(m, **options) for m in margins
        )
        overall.append(score_a - score_b)
        labels.append(label_a - label_b)
        undefined.append(
            undefined_scores(margins[0], options)
            | undefined_scores(margins[1], options)
        )
    return (
        np.concatenate(overall),
        np.concatenate(labels),
        np.concatenate(undefined),
    )


def _permutation(views, weight, unit, n_units, n_resamples, seed, options):
    """The null distribution of the differences under random swaps.

    Every swap vector is enumerated when there are at most ``n_resamples``
    of them (an exact test); otherwise ``n_resamples`` random ones are drawn.
    Returns the overall and label null differences and whether exact.
    """
    exact = n_units < 63 and 2**n_units <= n_resamples
    rng = np.random.RandomState(seed)
    total = 2**n_units if exact else n_resamples
    overall, labels, start = [], [], 0
    for size in batches(total, max(n_units, weight.size)):
        if exact:
            codes = np.arange(start, start + size)[:, None]
            swaps = ((codes >> np.arange(n_units)) & 1).astype(np.float64)
            start += size
        else:
            swaps = rng.randint(0, 2, size=(size, n_units)).astype(np.float64)
        d, dl = _swapped_differences(views, weight, unit, swaps, options)
        overall.append(d)
        labels.append(dl)
    return np.concatenate(overall), np.concatenate(labels), exact


def _pvalues(null, observed, alternative, exact):
    """Permutation p-values of ``observed`` (shape S) from ``null`` (R, *S).

    Random swaps: ``(1 + #extreme) / (R + 1)``, which counts the observed
    assignment among the permutations and is never 0. Enumerated swaps
    (which include the identity): ``#extreme / R``. A NaN observation gives
    NaN; a NaN in the null counts as extreme (conservative).
    """
    tol = 1e-12 * np.maximum(1.0, np.abs(observed))
    with np.errstate(invalid="ignore"):
        if alternative == "two-sided":
            extreme = np.abs(null) >= np.abs(observed) - tol
        elif alternative == "greater":
            extreme = null >= observed - tol
        else:
            extreme = null <= observed + tol
    extreme |= np.isnan(null)
    count = extreme.sum(axis=0)
    n = null.shape[0]
    p = count / n if exact else (count + 1.0) / (n + 1.0)
    return np.where(np.isnan(observed), np.nan, np.minimum(p, 1.0))


def _interval(distribution, confidence_level, alternative):
    """Percentile bounds along axis 0, one-sided for a one-sided alternative."""
    alpha = 1.0 - confidence_level
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        # a label undefined in every resample (zero_division=np.nan) has a
        # NaN interval, not a warning per label
        warnings.simplefilter("ignore", RuntimeWarning)
        if alternative == "two-sided":
            low = np.nanquantile(distribution, alpha / 2, axis=0)
            high = np.nanquantile(distribution, 1 - alpha / 2, axis=0)
        elif alternative == "greater":
            low = np.nanquantile(distribution, alpha, axis=0)
            high = np.full_like(low, np.inf)
        else:
            high = np.nanquantile(distribution, 1 - alpha, axis=0)
            low = np.full_like(high, -np.inf)
    return low, high


def _check_memory(n_resamples, n_labels, n_pairs):
    """Refuse resamples whose label differences, bootstrap and permutation
    ((n_resamples, n_labels) float64 each, one pair at a time), with the
    bootstrap distribution kept for each of ``n_pairs`` pairs, would pass
    the dense limit."""
    size = (2 * n_labels + n_pairs) * n_resamples * 8
    if size > MAX_DENSE_BYTES:
        raise input_error(
            "n_resamples",
            f"small enough for the {n_labels:,} labels' bootstrap and permutation "
            f"differences and the {n_pairs:,} pairs' bootstrap distributions to "
            f"fit in {MAX_DENSE_BYTES / 2**30:g} GiB ((2 x {n_labels:,} + "
            f"{n_pairs:,}) x {n_resamples:,} values would take "
            f"{size / 2**30:.1f} GiB); pass fewer resamples (n_resamples), fewer "
            "labels (labels=...) or fewer prediction sets (reference=... compares "
            "each with one)",
            repr(n_resamples),
        )


def _correct(pvalues, correction):
    """Holm's step-down (or Bonferroni's) correction of a family of p-values;
    NaN p-values stay NaN and do not count in the family."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = p.copy()
    if correction is None:
        return out
    keep = ~np.isnan(p)
    m = int(keep.sum())
    if m == 0:
        return out
    values = p[keep]
    if correction == "bonferroni":
        out[keep] = np.minimum(values * m, 1.0)
        return out
    order = np.argsort(values, kind="stable")
    stepped = np.maximum.accumulate(values[order] * (m - np.arange(m)))
    corrected = np.empty(m)
    corrected[order] = np.minimum(stepped, 1.0)
    out[keep] = corrected
    return out


# -- validation -----------------------------------------------------------------


def _check_prediction_sets(arguments):
    """A dict of predictions needs no y_pred_b; two arrays need both."""
    a, b, reference = (
        arguments["y_pred_a"],
        arguments["y_pred_b"],
        arguments["reference"],
    )
    if isinstance(a, dict):
        if b is not None:
            raise invalid_parameter(
                "y_pred_b",
                "None when y_pred_a is a dict of named prediction sets",
                b,
            )
        if len(a) < 2:
            raise invalid_parameter(
                "y_pred_a", "a dict of at least two named prediction sets", a
            )
        if reference is not None and reference not in a:
            raise invalid_parameter(
                "reference", f"one of the names of y_pred_a {list(a)}", reference
            )
        return
    if b is None:
        raise invalid_parameter(
            "y_pred_b",
            "an array-like or sparse matrix when y_pred_a is one prediction set "
            "(or pass a dict of named prediction sets as y_pred_a)",
            b,
        )
    if reference is not None:
        raise invalid_parameter(
            "reference", "None unless y_pred_a is a dict of prediction sets", reference
        )


def _parameter(name, predictions):
    """The parameter to name in an error about the prediction set ``name``."""
    if set(predictions) == {"a", "b"} and getattr(predictions, "pair", False):
        return f"y_pred_{name}"
    return f"y_pred_a[{name!r}]"


class _Pair(dict):
    """The two prediction sets passed as arrays (errors name y_pred_a/b)."""

    pair = True


# -- the public function ---------------------------------------------------------


@validate_params(
    {
        "y_true": TARGET_CONSTRAINTS["y_true"],
        "y_pred_a": ["array-like", "sparse matrix", dict],
        "y_pred_b": ["array-like", "sparse matrix", None],
        "metric": [Options(*METRICS)],
        "average": [Options("micro", "micro_all", "macro", "weighted")],
        "method": [Options(*METHODS)],
        "labels": ["array-like", None],
        "target_names": [Sequence(), None],
        "sample_weight": ["array-like", None],
        "groups": ["array-like", None],
        "reference": [str, Integral, None],
        "n_resamples": [Interval(Integral, 1, MAX_RESAMPLES)],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [Options("two-sided", "less", "greater")],
        "correction": [Options("holm", "bonferroni"), None],
        "beta": [Interval(Real, 0, None, closed="left")],
        "tn": [Options("complement", "diagonal")],
        "zero_division": ZERO_DIVISION,
        "random_state": [
            Interval(Integral, 0, 2**32 - 1),
            np.random.RandomState,
            None,
        ],
    },
    rules=(_check_prediction_sets, resamples_resolve_tails),
)
def mlcm_paired_comparison(
    y_true,
    y_pred_a,
    y_pred_b=None,
    *,
    metric="f1",
    average="macro",
    method="heydarian",
    labels=None,
    target_names=None,
    sample_weight=None,
    groups=None,
    reference=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    correction="holm",
    beta=1.0,
    tn="complement",
    zero_division="warn",
    random_state=None,
):
    """Compare two classifiers' predictions for one test set, label by label.

    The difference of an MLCM score between prediction sets A and B of the
    same instances, averaged and per label, with a paired-bootstrap
    confidence interval and the p-value of a paired permutation test that
    swaps A's and B's predictions of an instance (or of a whole group). It
    answers "is A better than B *on this kind of test set*": the variation
    it accounts for is that of the test instances, not of the training.

    Read more in the :ref:`User Guide <uncertainty>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape \
            (n_samples, n_labels) or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels. Under
        ``sklearn.config_context(array_api_dispatch=True)``, 2-D indicators
        of any Array API namespace, as every prediction set: they are
        checked in it, on the device of the (first) prediction set, then
        ``y_true`` and each set are copied to the host once (views where
        they lie in the host's memory), where the permutations and the
        paired bootstrap resample the instances (:ref:`array_api`).

    y_pred_a : array-like, sparse matrix, DataFrame or dict
        The predictions of A, of the kind and shape of ``y_true``. Or a dict
        of at least two named prediction sets: then every pair is compared
        (or each set against ``reference``) and ``y_pred_b`` is left out.

    y_pred_b : array-like, sparse matrix or DataFrame, default=None
        The predictions of B, of the shape of ``y_pred_a``.

    metric : str, default="f1"
        The score compared: as :func:`mlcm_f1_score` and its siblings
        (``"fbeta"`` uses ``beta``): "f1", "precision", "recall", "fbeta",
        "specificity", or any other statistic of the registry
        (:func:`confusion_matrix_statistics`), as
        :func:`mlcm_confidence_intervals` takes them.

    average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
        How the label scores are combined into ``difference``: the mean,
        the mean weighted by the MLCM row sums, the pooled counts of the
        labels ("micro", as scikit-learn) or of all q+1 indices including
        the no-label index ("micro_all", Heydarian et al., Table 12). The
        per-label differences are returned in every case.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read; see :func:`mlcm_confusion_matrix`.

    labels : array-like of shape (n_kept,), default=None
        The labels to keep, in that order; see :func:`mlcm_confusion_matrix`.

    target_names : list of str of shape (n_labels,), default=None
        Display names of the labels (of the kept ones with ``labels``), in
        the result's ``target_names``, summary and frame. By default the
        column names of ``y_true`` when it is a DataFrame, the class values
        for 1-D input, and the column indices otherwise. Unique, and not the
        average's row name (``"macro avg"``...).

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights, multiplied into the resampling weights.

    groups : array-like of shape (n_samples,), default=None
        Group (cluster) of each instance, e.g. the patient of each image.
        The bootstrap draws whole groups and the permutation swaps whole
        groups, as instances of one group are not independent. At least two
        groups.

    reference : str or int, default=None
        With a dict ``y_pred_a``: compare each other set to this one (k - 1
        pairs, each set minus the reference) instead of every pair.

    n_resamples : int, default=9999
        Bootstrap resamples, and random swaps of the permutation test (all
        2**n_units swaps are enumerated instead when there are no more than
        this, an exact test). At least enough to resolve the interval's
        tails at ``confidence_level``, ``2 / (1 - confidence_level) - 1``
        rounded up (39 for 95%; ``1 / (1 - confidence_level) - 1``, 19, for
        a one-sided ``alternative``; see Notes). At most 10**6, and refused
        when the labels'
        bootstrap and permutation differences (2 x n_resamples x n_labels
        values) and each pair's bootstrap distribution (n_resamples values)
        would pass 1 GiB.

    confidence_level : float, default=0.95
        Of the intervals, in (0, 1).

    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative hypothesis: A's score differs from, is less than, or
        is greater than B's. One-sided alternatives give one-sided intervals.

    correction : {"holm", "bonferroni"} or None, default="holm"
        The multiple-comparison correction of the per-label p-values (over
        the n_labels tests) and of the overall p-values (over the pairs).

    beta : float, default=1.0
        The weight of recall for ``metric="fbeta"``.

    tn : {"complement", "diagonal"}, default="complement"
        True negatives of ``metric="specificity"``; see
        :func:`mlcm_multilabel_confusion_matrix`.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio. "warn" warns (for the observed
        scores only) and uses 0. With np.nan, undefined label scores are
        left out of the averages.

    random_state : int, RandomState instance or None, default=None
        Seeds the resamples and the swaps: the same seed, the same numbers.

    Returns
    -------
    result : PairedComparisonResult or dict
        For two arrays, a :class:`PairedComparisonResult` (unpacks as
        ``difference, pvalue``). For a dict, a dict from ``(name_a,
        name_b)`` to its result, with ``pvalue_corrected`` corrected across
        the pairs.

    See Also
    --------
    friedman_test : Compares classifiers across many data sets instead.
    scipy.stats.permutation_test : The same test for scalar observations.
    scipy.stats.bootstrap : The same interval for scalar observations.

    Notes
    -----
    With w the sample weights, s the swap vector of the instances (0/1) and
    M(T, P; w) the weighted MLCM, the permuted matrices are A' = M(T, A;
    w (1 - s)) + M(T, B; w s) and B' = M(T, B; w (1 - s)) + M(T, A; w s),
    read through their diagonal, row and column sums, which are linear in
    the weights. This sign-flip by re-weighting is the paired permutation
    test of :func:`scipy.stats.permutation_test` with
    ``permutation_type="samples"``, whose statistic must be a scalar per
    observation; here an observation is a label set and the statistic a
    vector of label scores, which that function does not take. With
    random swaps the p-value is ``(1 + #{|t*| >= |t|}) / (R + 1)``.

    The bootstrap draws n_units units with replacement (multinomial counts)
    and weighs both prediction sets with the same counts; the interval is
    the percentile interval of the differences. Per-label p-values are
    corrected by Holm's step-down method: sorted ascending, ``p_(i)`` is
    multiplied by ``m - i + 1`` and made non-decreasing.

    Each bound of the interval leaves ``alpha`` of the bootstrap
    distribution beyond it (``(1 - confidence_level) / 2``, or ``1 -
    confidence_level`` one-sided), and has resamples beyond it only when
    ``(R + 1) alpha >= 1``: fewer resamples are refused (2 gave a zero-width
    "95% interval"). With that many, the smallest p-value of random swaps,
    ``1 / (R + 1)``, is at most ``alpha``: the test, like the interval, can
    reject at level ``1 - confidence_level``.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
    .. [2] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scandinavian Journal of Statistics 6(2), 65-70, 1979.
    .. [3] B. Efron and R. J. Tibshirani, "An Introduction to the
       Bootstrap", Chapman & Hall, 1993, chapters 13 and 15.

    Examples
    --------
    Heydarian et al. (2022), Table 1, against a classifier that gets the
    first label of every instance right:

    >>> import numpy as np
    >>> from sklearn_mlcm import mlcm_paired_comparison
    >>> y_true = np.array([[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0],
    ...                    [1, 1, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...                    [1, 1, 0]])
    >>> y_pred = np.array([[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1],
    ...                    [1, 1, 1], [0, 1, 1], [0, 1, 1], [1, 0, 1],
    ...                    [0, 0, 1]])
    >>> better = y_pred.copy()
    >>> better[:, 0] = y_true[:, 0]
    >>> result = mlcm_paired_comparison(y_true, better, y_pred, random_state=0)
    >>> difference, pvalue = result
    >>> round(difference, 4), round(pvalue, 4), result.exact
    (0.0447, 0.5, True)
    >>> result.label_differences.round(4)
    array([0.1118, 0.    , 0.0222])

    All 2**9 swaps of the nine instances are enumerated (an exact test). The
    two sets differ on two instances only, so that at least a quarter of the
    swaps give the observed difference or its opposite: no p-value below 0.5
    is possible, and nine instances cannot tell these classifiers apart.
    Printed, the result is a summary (``result.to_frame()`` has every label
    and the average); ``target_names`` names the labels:

    >>> print(mlcm_paired_comparison(y_true, better, y_pred, random_state=0,
    ...                              target_names=["C0", "C1", "C2"]))
    PairedComparisonResult: f1, macro avg, a minus b = 0.0447
    95% percentile interval [0.0000, 0.1304] (9,999 paired bootstrap resamples)
    p-value 0.5000 (two-sided permutation test)
    9 instances, exact test: all 512 swaps; heydarian matrix
    f1, macro avg: a 0.4409, b 0.3962
    0 of 3 labels have Holm-corrected p-values <= 0.05
    <BLANKLINE>
    Each label:
    label       a       b  difference     low    high  p-value  corrected
    C0     0.7368  0.6250      0.1118  0.0000  0.3500   0.5000     1.0000
    C1     0.3636  0.3636      0.0000  0.0000  0.0000   1.0000     1.0000
    C2     0.2222  0.2000      0.0222  0.0000  0.0808   1.0000     1.0000
    Every label and the average: .to_frame()
    """
    if isinstance(y_pred_a, dict):
        predictions = dict(y_pred_a)
    else:
        predictions = _Pair(a=y_pred_a, b=y_pred_b)
    names = list(predictions)
    targets = validate_targets(
        y_true,
        None,
        labels=labels,
        sample_weight=sample_weight,
        predictions=predictions,
        parameters={name: _parameter(name, predictions) for name in names},
    )
    true = targets.space.y_true
    target_names = check_target_names(
        targets.names if target_names is None else target_names,
        len(targets.names),
        {f"{average} avg"},
    )
    cleaned = [targets.predictions[name] for name in names]
    n = true.shape[0]
    if isinstance(predictions, _Pair):
        pairs = [("a", "b")]
    elif reference is not None:
        pairs = [(name, reference) for name in names if name != reference]
    else:
        pairs = list(itertools.combinations(names, 2))
    _check_memory(int(n_resamples), true.shape[1], len(pairs))
    weight = np.ones(n) if targets.weight is None else targets.weight
    unit, n_units = check_groups(groups, n)

    views = {name: InstancePairs(true, y, method) for name, y in zip(names, cleaned)}

    options = {
        "metric": metric,
        "average": average,
        "beta": float(beta),
        "tn": tn,
        "zero_division": 0.0 if zero_division == "warn" else zero_division,
    }
    observed_options = {**options, "zero_division": zero_division}
    rng = check_random_state(random_state)
    boot_seed = int(rng.randint(2**31 - 1))  # one set of resamples for all pairs
    results = {}
    for pair in pairs:
        pair_views = (views[pair[0]], views[pair[1]])
        w = weight[None, :]
        score_a, label_a = scores_from_margins(
            pair_views[0].weighted_margins(w), **observed_options
        )
        score_b, label_b = scores_from_margins(
            pair_views[1].weighted_margins(w), **observed_options
        )
        difference = score_a[0] - score_b[0]
        label_difference = label_a[0] - label_b[0]
        null, label_null, exact = _permutation(
            pair_views,
            weight,
            unit,
            n_units,
            n_resamples,
            int(rng.randint(2**31 - 1)),
            options,
        )
        boot, label_boot, undefined = _bootstrap(
            pair_views, weight, unit, n_units, n_resamples, boot_seed, options
        )
        low, high = _interval(boot, confidence_level, alternative)
        label_low, label_high = _interval(label_boot, confidence_level, alternative)
        label_p = _pvalues(label_null, label_difference, alternative, exact)
        results[pair] = {
            "difference": float(difference),
            "pvalue": float(_pvalues(null, difference, alternative, exact)),
            "confidence_interval": ConfidenceInterval(float(low), float(high)),
            "score_a": float(score_a[0]),
            "score_b": float(score_b[0]),
            "label_differences": label_difference,
            "label_pvalues": label_p,
            "label_pvalues_corrected": _correct(label_p, correction),
            "label_confidence_interval": ConfidenceInterval(label_low, label_high),
            "label_scores_a": label_a[0],
            "label_scores_b": label_b[0],
            "target_names": list(target_names),
            "names": pair,
            "n_resamples": int(n_resamples),
            "exact": bool(exact),
            "bootstrap_distribution": boot,
            "label_n_undefined": undefined.sum(axis=0),
            "n_undefined": int(undefined.any(axis=1).sum()),
        }
    corrected = _correct([r["pvalue"] for r in results.values()], correction)
    settings = {
        "metric": metric,
        "average": average,
        "method": method,
        "confidence_level": float(confidence_level),
        "alternative": alternative,
        "correction": correction,
        "n_units": int(n_units),
        "units": "instances" if groups is None else "groups",
        "n_pairs": len(results),
    }
    packaged = {
        pair: PairedComparisonResult(pvalue_corrected=float(p), **fields, **settings)
        for (pair, fields), p in zip(results.items(), corrected)
    }
    if isinstance(predictions, _Pair):
        return packaged[("a", "b")]
    return packaged
