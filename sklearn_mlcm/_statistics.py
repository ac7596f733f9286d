"""Every ratio read off counts: per-class statistics and the averages.

- Kandza-Tadi (2020): correct per-class statistics (precision, recall,
  specificity, F-beta, accuracy) from any square confusion matrix,
  :func:`confusion_matrix_statistics`, and the one-vs-rest counts and safe
  ratios they are made of;
- the per-label ratios of an MLCM and their averages: the one engine behind
  the scores, the report and :func:`mlcm_precision_recall_fscore_support`
  (:func:`matrix_scores`), and the samples average read off its table
  (:func:`samples_average`).

Every function of the second part takes one (q+1, q+1) matrix (dense or
sparse) or a dense stack of them, shape (..., q+1, q+1), and works along the
last axes, so that B resampled matrices are scored in one call. The averages:

- "micro" pools the counts of the scored indices (the q labels, and the
  no-label index too with ``include_no_label``), as scikit-learn's micro
  average pools its labels;
- "micro_all" pools the counts of all q+1 indices whatever is scored, so that
  micro precision, recall and F-beta all equal trace / sum (Heydarian et al.,
  Table 12);
- "macro" is the mean of the per-label values, "weighted" their mean weighted
  by the MLCM row sums (the report's "weight").

"samples" is not read off a matrix: it is scikit-learn's mean over the
instances of each instance's own ratios, kept as sums
(:mod:`._mlcm._samples`) that :func:`samples_average` reads.
"""

import math
import numbers
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import Bunch

from ._mlcm._samples import RATIOS
from ._param_validation import (
    ZERO_DIVISION,
    Interval,
    InvalidInputError,
    Options,
    current_function,
    validate_params,
)
from ._validation._array_api import matrix_namespace, to_namespace
from ._validation._matrices import check_square_matrix

__all__ = ["confusion_matrix_statistics"]


def line_sums(cm, axis):
    """Row (axis=1) or column (axis=0) sums of a dense or sparse matrix."""
    return np.asarray(cm.sum(axis=axis)).ravel()


def one_vs_rest_counts(cm, tn="complement"):
    """TP, FP, FN and TN of every index of a square matrix, or of a dense
    stack of them (shape (..., n, n); the counts are then (..., n)).

    ``tn="complement"`` counts every cell outside row k and column k;
    ``tn="diagonal"`` is Heydarian's eq. 16, the trace minus ``cm[k, k]``.
    """
    exact = _as_exact_integers(cm)
    if exact is not None:  # whole-number amounts: count in int64, exactly
        counts = one_vs_rest_counts(exact, tn)
        return tuple(c.astype(np.float64) for c in counts)
    if sparse.issparse(cm):
        tp = cm.diagonal().copy()
        fp = line_sums(cm, 0) - tp
        fn = line_sums(cm, 1) - tp
        total = cm.sum()
    else:
        cm = np.asarray(cm)
        tp = np.diagonal(cm, axis1=-2, axis2=-1).copy()
        fp = cm.sum(axis=-2) - tp
        fn = cm.sum(axis=-1) - tp
        total = cm.sum(axis=(-2, -1))[..., np.newaxis]
    if tn == "diagonal":
        tn_ = tp.sum(axis=-1, keepdims=True) - tp
    else:
        tn_ = total - tp - fp - fn
        if cm.dtype.kind == "f":
            # The subtraction leaves rounding error where the true count is 0
            # (even -1e-16); a count is never negative, nor that close to 0.
            tn_ = np.where(tn_ <= 16 * np.finfo(np.float64).eps * total, 0.0, tn_)
    return tp, fp, fn, tn_


def _as_exact_integers(cm):
    """A float matrix of whole numbers as int64 (sums fit: checked on input),
    so that TN = total - TP - FP - FN loses no cell however large the counts;
    None for fractional amounts or integer input."""
    if cm.dtype.kind != "f":
        return None
    values = cm.data if sparse.issparse(cm) else cm
    if values.size == 0 or not np.all(values == np.round(values)):
        return None
    if float(values.sum()) >= 2.0**62:  # int64 sums would not be safe
        return None
    return cm.astype(np.int64)


def one_vs_rest(cm, tn="complement"):
    """The (k, 2, 2) stack ``[[TN, FP], [FN, TP]]`` of a square matrix ``cm``."""
    tp, fp, fn, tn_ = one_vs_rest_counts(cm, tn)
    return np.stack([tn_, fp, fn, tp], axis=1).reshape(-1, 2, 2)


def caller_stacklevel():
    """The ``stacklevel`` that points a warning at the first caller outside
    this package, however deep inside it the warning is raised."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def safe_ratio(numerator, denominator, zero_division, metric, condition):
    """``numerator / denominator`` with scikit-learn's ``zero_division`` rules.

    Where the denominator is zero the result is ``zero_division`` (0.0 for
    "warn", which also emits an :class:`UndefinedMetricWarning`).
    """
    denominator = np.asarray(denominator, dtype=np.float64)
    return divide_where_defined(
        numerator, denominator, denominator == 0, zero_division, metric, condition
    )


def divide_where_defined(
    numerator, denominator, undefined, zero_division, metric, condition
):
    """``numerator / denominator`` where ``undefined`` is False, and
    ``zero_division`` where it is True (0.0 for "warn", which also emits
    "{metric} is ill-defined and being set to 0.0 in {condition}" as an
    :class:`UndefinedMetricWarning`)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    fill = 0.0 if zero_division == "warn" else float(zero_division)
    result = np.divide(
        numerator,
        denominator,
        out=np.full(np.broadcast(numerator, denominator, undefined).shape, fill),
        where=~undefined,
    )
    if zero_division == "warn" and undefined.any():
        warnings.warn(
            f"{metric} is ill-defined and being set to 0.0 in {condition}. Use "
            "`zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=caller_stacklevel(),
        )
    return result


# -- the registry: every per-class statistic, declared once -----------------

#: The values of ``average`` besides None read off a matrix, in the order the
#: report shows them; "samples" is read off the instances' set sizes.
AVERAGES = ("micro", "micro_all", "macro", "weighted")


@dataclass(frozen=True)
class SamplesForm:
    """The per-instance form of a statistic: scikit-learn's ``average="samples"``.

    Attributes
    ----------
    ratio : str
        Which ratio of the samples average's sums it reads, one of
        :data:`._mlcm._samples.RATIOS` (its position there is :attr:`index`).
    condition : str
        The instances whose ratio is undefined, in scikit-learn's words
        ("no predicted labels"), for the warning.
    """

    ratio: str
    condition: str

    @property
    def index(self):
        """The position of the ratio on the sums' first axis."""
        return RATIOS.index(self.ratio)


@dataclass(frozen=True)
class Statistic:
    """One per-class statistic of the one-vs-rest counts, declared once.

    Attributes
    ----------
    name : str
        The key of :func:`confusion_matrix_statistics` and of the scores'
        engine (:func:`matrix_scores`).
    header : str
        The column header a report shows.
    formula : callable
        ``formula(tp, fp, fn, tn, beta) -> (numerator, denominator)``, float64
        arrays of the counts' shape; the value is their quotient.
    undefined : callable or None
        ``undefined(tp, fp, fn, tn, beta) -> mask``: where the statistic is
        undefined; None for the usual rule, where the formula's denominator
        is zero (a statistic of products gives the rule on its factors, which
        a product of tiny shares could miss). There it takes ``zero_division``
        (0.0 for "warn", which also raises scikit-learn's
        :class:`~sklearn.exceptions.UndefinedMetricWarning`; NaN is left out
        of the macro and weighted averages).
    metric, condition : str
        The warning's words: "{metric} is ill-defined and being set to 0.0 in
        {condition}", as scikit-learn's.
    higher_is_better : bool or None
        The direction: True, False (an error rate), None (neither: a
        property of the data, as the prevalence).
    samples : SamplesForm or None
        The per-instance form, where it has a samples average.
    options : tuple of str
        The names under which the ``metric`` option of the intervals, the
        paired comparison, the accumulator and the threshold curves takes it.
    doc : str
        The formula and when it is undefined, in words.

    Notes
    -----
    Averaging is the same rule for every statistic (:attr:`averages`): "micro"
    (and "micro_all") applies the formula to the pooled counts; "macro" and
    "weighted" average the per-label values; "samples" averages the
    per-instance values, where the statistic has a samples form.
    """

    name: str
    header: str
    formula: Callable
    undefined: object
    metric: str
    condition: str
    higher_is_better: object
    samples: object = None
    options: tuple = ()
    doc: str = ""

    @property
    def averages(self):
        """The values of ``average`` (besides None) the statistic has."""
        return (*AVERAGES, "samples") if self.samples is not None else AVERAGES


def _as_float(tp, fp, fn, tn):
    asarray, f8 = np.asarray, np.float64
    return asarray(tp, f8), asarray(fp, f8), asarray(fn, f8), asarray(tn, f8)


def _shares(tp, fp, fn, tn):
    """The counts divided by their total (where it is positive), so that the
    products of the correlation-like statistics cannot overflow; every one of
    them is a ratio of products of the same degree, unchanged by the scale."""
    tp, fp, fn, tn = _as_float(tp, fp, fn, tn)
    total = tp + fp + fn + tn
    scale = np.where(total > 0, total, 1.0)
    return tp / scale, fp / scale, fn / scale, tn / scale


def _ratio(numerator, denominator):
    """A statistic ``numerator / denominator`` of sums of counts (names
    joined by "+"), undefined where the denominator is zero (the default
    rule, ``undefined=None``)."""
    positions = {"tp": 0, "fp": 1, "fn": 2, "tn": 3}
    top = [positions[c] for c in numerator.split("+")]
    bottom = [positions[c] for c in denominator.split("+")]

    def formula(tp, fp, fn, tn, beta):
        counts = _as_float(tp, fp, fn, tn)
        return _total(counts, top), _total(counts, bottom)

    return formula, None


def _total(counts, positions):
    total = counts[positions[0]]
    for i in positions[1:]:
        total = total + counts[i]
    return total


def _fbeta(tp, fp, fn, tn, beta):
    tp, fp, fn, _ = _as_float(tp, fp, fn, tn)
    if beta <= 1e50:
        b2 = beta * beta
        return (1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp
    # b² would overflow: divide through by it (F tends to the recall)
    inverse = (1.0 / beta) ** 2
    numerator = (1 + inverse) * tp
    return numerator, numerator + fn + inverse * fp


def _mcc(tp, fp, fn, tn, beta):
    tp, fp, fn, tn = _shares(tp, fp, fn, tn)
    factors = (tp + fp, tp + fn, tn + fp, tn + fn)
    denominator = np.prod([np.sqrt(f) for f in factors], axis=0)
    return tp * tn - fp * fn, denominator


def _any_zero(*sums):
    """Undefined where any of the sums of counts (names joined by "+") is
    zero."""
    positions = {"tp": 0, "fp": 1, "fn": 2, "tn": 3}
    factors = [[positions[c] for c in names.split("+")] for names in sums]

    def undefined(tp, fp, fn, tn, beta):
        counts = _as_float(tp, fp, fn, tn)
        mask = _total(counts, factors[0]) <= 0
        for factor in factors[1:]:
            mask = mask | (_total(counts, factor) <= 0)
        return mask

    return undefined


def _balanced_accuracy(tp, fp, fn, tn, beta):
    tp, fp, fn, tn = _shares(tp, fp, fn, tn)
    return tp * (tn + fp) + tn * (tp + fn), 2 * (tp + fn) * (tn + fp)


def _informedness(tp, fp, fn, tn, beta):
    tp, fp, fn, tn = _shares(tp, fp, fn, tn)
    return tp * tn - fp * fn, (tp + fn) * (tn + fp)


def _markedness(tp, fp, fn, tn, beta):
    tp, fp, fn, tn = _shares(tp, fp, fn, tn)
    return tp * tn - fp * fn, (tp + fp) * (tn + fn)


def _g_mean(tp, fp, fn, tn, beta):
    tp, fp, fn, tn = _shares(tp, fp, fn, tn)
    return np.sqrt(tp) * np.sqrt(tn), np.sqrt(tp + fn) * np.sqrt(tn + fp)


_NO_TRUE = "labels with no true samples"
_NO_PREDICTED = "labels with no predicted samples"
_NO_NEGATIVE = "labels with no negative samples"
_NO_PREDICTED_NEGATIVE = "labels with no predicted negative samples"
_TRUE_ALL_OR_NONE = "labels with all or no true samples"
_PREDICTED_ALL_OR_NONE = "labels with all or no predicted samples"

#: Every per-class statistic, by name, in the order of the report's columns
#: and of :func:`confusion_matrix_statistics`.
STATISTICS = {
    s.name: s
    for s in (
        Statistic(
            "precision",
            "precision",
            *_ratio("tp", "tp+fp"),
            "Precision",
            _NO_PREDICTED,
            True,
            SamplesForm("precision", "no predicted labels"),
            ("precision",),
            "TP / (TP + FP); undefined where TP + FP = 0 (nothing predicted).",
        ),
        Statistic(
            "recall",
            "recall",
            *_ratio("tp", "tp+fn"),
            "Recall",
            _NO_TRUE,
            True,
            SamplesForm("recall", "no true labels"),
            ("recall",),
            "TP / (TP + FN), the true positive rate (TPR); undefined where "
            "TP + FN = 0 (no true sample).",
        ),
        Statistic(
            "fbeta",
            "f1-score",
            _fbeta,
            None,
            "F-score",
            "labels with no true nor predicted samples",
            True,
            SamplesForm("fbeta", "no true nor predicted labels"),
            ("f1", "fbeta"),
            "(1 + b²) TP / ((1 + b²) TP + b² FN + FP); undefined where that "
            "denominator is 0 (for 0 < b < inf: no true nor predicted sample).",
        ),
        Statistic(
            "specificity",
            "specificity",
            *_ratio("tn", "tn+fp"),
            "Specificity",
            _NO_NEGATIVE,
            True,
            None,
            ("specificity",),
            "TN / (TN + FP), the true negative rate (TNR); undefined where "
            "TN + FP = 0 (no negative sample).",
        ),
        Statistic(
            "accuracy",
            "accuracy",
            *_ratio("tp+tn", "tp+tn+fp+fn"),
            "Accuracy",
            "empty labels",
            True,
            doc="(TP + TN) / (TP + TN + FP + FN); undefined for an empty matrix.",
        ),
        Statistic(
            "jaccard",
            "jaccard",
            *_ratio("tp", "tp+fp+fn"),
            "Jaccard",
            "labels with no true or predicted samples",
            True,
            doc="TP / (TP + FP + FN), scikit-learn's jaccard_score (PyCM's J); "
            "undefined where TP + FP + FN = 0. No samples form: the samples "
            "average's sums hold precision, recall and F-beta only.",
        ),
        Statistic(
            "matthews_corrcoef",
            "MCC",
            _mcc,
            _any_zero("tp+fp", "tp+fn", "tn+fp", "tn+fn"),
            "Matthews correlation coefficient",
            f"{_TRUE_ALL_OR_NONE}, or all or no predicted samples",
            True,
            doc="(TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN)), "
            "in [-1, 1]; undefined where a factor of the root is 0.",
        ),
        Statistic(
            "balanced_accuracy",
            "balanced accuracy",
            _balanced_accuracy,
            _any_zero("tp+fn", "tn+fp"),
            "Balanced accuracy",
            _TRUE_ALL_OR_NONE,
            True,
            doc="(TPR + TNR) / 2; undefined where TP + FN = 0 or TN + FP = 0.",
        ),
        Statistic(
            "negative_predictive_value",
            "NPV",
            *_ratio("tn", "tn+fn"),
            "Negative predictive value",
            _NO_PREDICTED_NEGATIVE,
            True,
            doc="TN / (TN + FN); undefined where TN + FN = 0.",
        ),
        Statistic(
            "false_discovery_rate",
            "FDR",
            *_ratio("fp", "fp+tp"),
            "False discovery rate",
            _NO_PREDICTED,
            False,
            doc="FP / (FP + TP) = 1 - precision; undefined where FP + TP = 0.",
        ),
        Statistic(
            "false_omission_rate",
            "FOR",
            *_ratio("fn", "fn+tn"),
            "False omission rate",
            _NO_PREDICTED_NEGATIVE,
            False,
            doc="FN / (FN + TN) = 1 - NPV; undefined where FN + TN = 0.",
        ),
        Statistic(
            "false_positive_rate",
            "FPR",
            *_ratio("fp", "fp+tn"),
            "False positive rate",
            _NO_NEGATIVE,
            False,
            doc="FP / (FP + TN), the fall-out, 1 - specificity; undefined "
            "where FP + TN = 0.",
        ),
        Statistic(
            "false_negative_rate",
            "FNR",
            *_ratio("fn", "fn+tp"),
            "False negative rate",
            _NO_TRUE,
            False,
            doc="FN / (FN + TP), the miss rate, 1 - recall; undefined where "
            "FN + TP = 0.",
        ),
        Statistic(
            "informedness",
            "informedness",
            _informedness,
            _any_zero("tp+fn", "tn+fp"),
            "Informedness",
            _TRUE_ALL_OR_NONE,
            True,
            doc="TPR + TNR - 1 (Youden's J, PyCM's BM), in [-1, 1]; undefined "
            "where TP + FN = 0 or TN + FP = 0.",
        ),
        Statistic(
            "markedness",
            "markedness",
            _markedness,
            _any_zero("tp+fp", "tn+fn"),
            "Markedness",
            _PREDICTED_ALL_OR_NONE,
            True,
            doc="PPV + NPV - 1 (PyCM's MK), in [-1, 1]; undefined where "
            "TP + FP = 0 or TN + FN = 0.",
        ),
        Statistic(
            "g_mean",
            "G-mean",
            _g_mean,
            _any_zero("tp+fn", "tn+fp"),
            "G-mean",
            _TRUE_ALL_OR_NONE,
            True,
            doc="sqrt(TPR TNR) (PyCM's GM); undefined where TP + FN = 0 or "
            "TN + FP = 0.",
        ),
        Statistic(
            "prevalence",
            "prevalence",
            *_ratio("tp+fn", "tp+fp+fn+tn"),
            "Prevalence",
            "empty labels",
            None,
            doc="(TP + FN) / (TP + FP + FN + TN) (PyCM's PRE), a property of "
            "the data, neither good nor bad; undefined for an empty matrix.",
        ),
    )
}

#: Names that stand for a statistic at a fixed parameter: "f1" is F-beta at
#: beta = 1.
ALIASES = {"f1": ("fbeta", 1.0)}


def statistic_of(metric, beta=1.0):
    """The :class:`Statistic` of a name or alias, and the beta it takes."""
    if metric in ALIASES:
        metric, beta = ALIASES[metric]
    return STATISTICS[metric], beta


def _evaluate(statistic, tp, fp, fn, tn, beta):
    """The numerator, denominator and undefined mask of one statistic."""
    numerator, denominator = statistic.formula(tp, fp, fn, tn, beta)
    if statistic.undefined is None:
        undefined = np.asarray(denominator <= 0)
    else:
        undefined = np.asarray(statistic.undefined(tp, fp, fn, tn, beta))
    return numerator, denominator, undefined


def undefined_mask(metric, tp, fp, fn, tn, *, beta=1.0):
    """Where ``metric`` of the one-vs-rest counts is undefined (the
    registry's rule)."""
    statistic, beta = statistic_of(metric, beta)
    return _evaluate(statistic, tp, fp, fn, tn, beta)[2]


def ratio_metric(metric, tp, fp, fn, tn, *, beta=1.0, zero_division="warn"):
    """One per-class statistic of :data:`STATISTICS` (or "f1") from
    one-vs-rest counts.

    Where the registry's rule says it is undefined it takes
    ``zero_division``, as :func:`safe_ratio`: 0.0 for "warn", which also
    emits the statistic's :class:`UndefinedMetricWarning`.
    """
    statistic, beta = statistic_of(metric, beta)
    numerator, denominator, undefined = _evaluate(statistic, tp, fp, fn, tn, beta)
    return divide_where_defined(
        numerator,
        denominator,
        undefined,
        zero_division,
        statistic.metric,
        statistic.condition,
    )


def _check_sums_are_finite(cm):
    """Refuse a matrix whose total overflows float64 (cells near 1e308): its
    TN, row and column sums would be infinite and its ratios wrong."""
    values = cm.data if sparse.issparse(cm) else cm
    if values.size == 0 or values.dtype.kind != "f":
        return
    largest = float(values.max())
    if largest == 0.0 or math.isfinite(largest * float((values / largest).sum())):
        return
    raise InvalidInputError(
        f"The 'cm' parameter of {current_function()} must have a total within "
        f"float64 (below {np.finfo(np.float64).max:.3g}). Got cells up to "
        f"{largest:.3g} instead; divide the matrix by its largest cell: every "
        "ratio is unchanged."
    )


#: The statistics :func:`confusion_matrix_statistics` warns for with
#: ``zero_division="warn"``; the others take 0.0 silently there (scikit-learn's
#: ``warn_for``), so that one empty class raises its four warnings, not twelve.
_STATISTICS_THAT_WARN = ("precision", "recall", "fbeta", "specificity", "accuracy")


@validate_params(
    {
        "cm": ["array-like", "sparse matrix"],
        "beta": [Interval(numbers.Real, 0, None, closed="left")],
        "tn": [Options("complement", "diagonal")],
        "zero_division": ZERO_DIVISION,
    }
)
def confusion_matrix_statistics(cm, *, beta=1.0, tn="complement", zero_division="warn"):
    """Per-class statistics of any square confusion matrix.

    Works on scikit-learn's multi-class :func:`~sklearn.metrics.confusion_matrix`,
    on a 2-D multi-label confusion matrix from :func:`mlcm_confusion_matrix`
    (integer or fractional) or on any other square matrix whose rows are true
    classes and columns predicted classes. Uses the corrected per-class
    formulas of Kandza-Tadi (2020), with an F-beta that is right for every beta.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    cm : array-like of shape (n_classes, n_classes)
        Non-negative, finite counts (or weighted or fractional counts). Under
        ``sklearn.config_context(array_api_dispatch=True)``, a matrix of any
        Array API namespace (the one :func:`mlcm_confusion_matrix` returns for
        tensors): it is copied to the host, read there, and every per-class
        array goes back to its namespace and device (:ref:`array_api`).

    beta : float, default=1.0
        Weight of recall in the F-score, ``beta >= 0``.

    tn : {"complement", "diagonal"}, default="complement"
        ``"complement"``: TN of class i is every cell outside row i and column i
        (the usual multi-class definition, Kandza-Tadi's). ``"diagonal"``:
        Heydarian's eq. 16, the trace minus ``cm[i, i]``.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero. "warn" acts as 0.0 and
        also raises an :class:`~sklearn.exceptions.UndefinedMetricWarning`.

    Returns
    -------
    statistics : :class:`~sklearn.utils.Bunch`
        A dict whose keys are also attributes (``stats.precision`` is
        ``stats["precision"]``). With k = n_classes, arrays of shape (k,)
        unless said otherwise:

        - ``"tp"``, ``"fp"``, ``"fn"``, ``"tn"``: the one-vs-rest counts, of the
          dtype of ``cm`` (int64 for integer input, float64 otherwise);
        - ``"precision"``: TP / (TP + FP), float64;
        - ``"recall"``: TP / (TP + FN), float64;
        - ``"specificity"``: TN / (TN + FP), float64;
        - ``"fbeta"``: (1 + b²) TP / ((1 + b²) TP + b² FN + FP), float64;
        - ``"accuracy"``: (TP + TN) / (TP + TN + FP + FN), float64;
        - every other statistic of the registry, float64, in its order:
          ``"jaccard"`` TP / (TP + FP + FN); ``"matthews_corrcoef"``
          (TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN));
          ``"balanced_accuracy"`` (TPR + TNR) / 2;
          ``"negative_predictive_value"`` TN / (TN + FN);
          ``"false_discovery_rate"`` FP / (FP + TP);
          ``"false_omission_rate"`` FN / (FN + TN);
          ``"false_positive_rate"`` FP / (FP + TN) (fall-out);
          ``"false_negative_rate"`` FN / (FN + TP) (miss rate);
          ``"informedness"`` TPR + TNR - 1; ``"markedness"`` PPV + NPV - 1;
          ``"g_mean"`` sqrt(TPR TNR); ``"prevalence"``
          (TP + FN) / (TP + FP + FN + TN). Each is undefined where a
          denominator (or a factor of one) is zero and then takes
          ``zero_division``; with "warn" these take 0.0 without warning, only
          the five above warn;
        - ``"row_sum"``, ``"column_sum"``: the true and predicted totals of each
          class, of the dtype of ``cm``;
        - ``"overall_accuracy"``: trace / sum, a Python float.

    See Also
    --------
    sklearn.metrics.precision_recall_fscore_support : Computes precision,
        recall and F-beta from labels, not from a matrix, and has no
        specificity or per-class accuracy.
    mlcm_multilabel_confusion_matrix : The same TP, FP, FN and TN as 2x2
        matrices, computed from labels.

    Notes
    -----
    ``TP_i = cm[i, i]``, ``FP_i = sum_j cm[j, i] - TP_i`` and
    ``FN_i = sum_j cm[i, j] - TP_i``. The "generalised" formulas in
    circulation (precision ``trace / (trace + FP_i)`` and the like) are wrong
    even for two classes; Kandza-Tadi replaces them with the ones above. The
    paper's code computes F with ``(1 + b)`` where the formula has
    ``(1 + b²)``, which is right only for ``b = 1``; this function uses
    ``(1 + b²)``.

    References
    ----------
    .. [1] C. C. Kandza-Tadi, "Confusion Matrix for Multi Class", African
       Master of Machine Intelligence (AMMI), AIMS Rwanda, 2020.

    Examples
    --------
    The Cat/Fish/Hen matrix of Kandza-Tadi:

    >>> from sklearn_mlcm import confusion_matrix_statistics
    >>> stats = confusion_matrix_statistics([[4, 1, 1], [6, 2, 2], [3, 0, 6]])
    >>> stats["precision"].round(3)
    array([0.308, 0.667, 0.667])
    >>> stats["recall"].round(3)
    array([0.667, 0.2  , 0.667])
    >>> stats["specificity"].round(4)
    array([0.5263, 0.9333, 0.8125])
    >>> stats["accuracy"].round(2)
    array([0.56, 0.64, 0.76])
    >>> stats["overall_accuracy"]
    0.48
    """
    namespace = matrix_namespace(cm, "cm")
    cm = check_square_matrix(cm)
    _check_sums_are_finite(cm)
    beta = float(beta)

    tp, fp, fn, tn_ = one_vs_rest_counts(cm, tn)
    ratios = {
        name: ratio_metric(
            name,
            tp,
            fp,
            fn,
            tn_,
            beta=beta,
            zero_division=(
                0.0
                if zero_division == "warn" and name not in _STATISTICS_THAT_WARN
                else zero_division
            ),
        )
        for name in STATISTICS
    }
    overall = safe_ratio(
        cm.diagonal().sum(),
        cm.sum(),
        zero_division,
        "Overall accuracy",
        "an empty matrix",
    )
    per_class = {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn_,
        **ratios,
        "row_sum": line_sums(cm, 1),
        "column_sum": line_sums(cm, 0),
    }
    if namespace is not None:  # back to the matrix's namespace and device
        per_class = {
            name: to_namespace(values, *namespace)
            for name, values in per_class.items()
        }
    return Bunch(**per_class, overall_accuracy=float(overall))


# -- the per-label ratios of an MLCM and their averages --------------------


def row_sums(cm):
    """Row sums of a matrix or a stack, shape (..., q+1)."""
    if sparse.issparse(cm):
        return np.asarray(cm.sum(axis=1)).ravel()
    return np.asarray(cm).sum(axis=-1)


def nan_average(values, weights=None):
    """Mean (or weighted mean) along the last axis, leaving NaN out.

    NaN values come from ``zero_division=np.nan`` and are left out of the
    average, as scikit-learn does; an average of nothing is NaN. Where every
    weight is zero the weights are ignored (scikit-learn's ``_nanaverage``).
    Weights are scaled by their largest value first, so that huge finite
    weights (1e308) cannot overflow the sums. Returns a Python float for 1-D
    ``values``, else an array of the leading shape.
    """
    values = np.asarray(values, dtype=np.float64)
    keep = ~np.isnan(values)
    kept = np.where(keep, values, 0.0)
    if weights is None:
        w = keep.astype(np.float64)
    else:
        w = np.where(keep, np.broadcast_to(weights, values.shape), 0.0)
        top = w.max(axis=-1, keepdims=True, initial=0.0)
        w = np.divide(w, top, out=np.zeros_like(w), where=top > 0)
        w = np.where(w.sum(axis=-1, keepdims=True) > 0, w, keep)
    total = w.sum(axis=-1)
    result = np.divide(
        (kept * w).sum(axis=-1),
        total,
        out=np.full(total.shape, np.nan),
        where=total > 0,
    )
    return float(result) if result.ndim == 0 else result


def matrix_scores(
    cm,
    metrics,
    *,
    average=None,
    beta=1.0,
    include_no_label=False,
    zero_division="warn",
    tn="complement",
    warn_for=None,
):
    """Per-label values, or their average, of several ratios of ``cm``.

    Parameters
    ----------
    cm : ndarray or sparse matrix of shape (q+1, q+1), or ndarray (..., q+1, q+1)
        An MLCM, or a stack of MLCMs (dense only).
    metrics : sequence of str
        Names of :data:`STATISTICS` (or "f1").
    average : {"micro", "micro_all", "macro", "weighted"} or None
    warn_for : container of metric names, default=None (all of them)
        Only these warn for ``zero_division="warn"``; the others take its value
        (0.0) silently, as scikit-learn's ``warn_for``.

    Returns
    -------
    dict of metric name to values
        With ``average=None`` arrays of shape (..., shown), shown = q (q+1 with
        ``include_no_label``); otherwise a Python float per metric for one
        matrix and an array of the leading shape for a stack.
    """
    counts = one_vs_rest_counts(cm, tn)
    shown = counts[0].shape[-1] - (0 if include_no_label else 1)
    scored = tuple(x[..., :shown] for x in counts)
    weights = row_sums(cm)[..., :shown] if average == "weighted" else None
    results = {}
    for metric in metrics:
        division = zero_division
        if zero_division == "warn" and warn_for is not None and metric not in warn_for:
            division = 0.0
        if average in ("micro", "micro_all"):
            pooled = scored if average == "micro" else counts
            pooled = (x.sum(axis=-1) for x in pooled)
            value = ratio_metric(metric, *pooled, beta=beta, zero_division=division)
            results[metric] = float(value) if value.ndim == 0 else value
            continue
        values = ratio_metric(metric, *scored, beta=beta, zero_division=division)
        if average is None:
            results[metric] = values
        else:
            results[metric] = nan_average(values, weights)
    return results


def samples_values(sums, zero_division):
    """The samples averages (..., 3) of sums (..., 3, 4), without warning.

    Each instance weighs its weight; the instances of undefined ratio take
    ``zero_division`` (0.0 for "warn"), or are left out for NaN. Where no
    instance weighs anything (every weight zero, or every ratio NaN) the
    average is ``zero_division`` itself: scikit-learn's plain mean of those
    instances, whose ratios all took it.
    """
    total, defined, undefined = sums[..., 0], sums[..., 1], sums[..., 2]
    fill = 0.0 if zero_division == "warn" else float(zero_division)
    if np.isnan(fill):
        numerator, denominator = total, defined
    else:
        numerator, denominator = total + fill * undefined, defined + undefined
    return np.divide(
        numerator,
        denominator,
        out=np.full(np.shape(numerator), fill),
        where=denominator > 0,
    )


def samples_average(sums, metrics, *, zero_division="warn", warn_for=None):
    """The samples average of each of ``metrics`` from its (3, 4) sums.

    Returns a dict of Python floats. With ``zero_division="warn"`` an
    undefined instance ratio of a metric in ``warn_for`` (default: all of
    them) raises scikit-learn's :class:`UndefinedMetricWarning`, once per
    metric.
    """
    values = samples_values(sums, zero_division)
    results = {}
    for metric in metrics:
        statistic, _ = statistic_of(metric)
        index = statistic.samples.index
        results[metric] = float(values[index])
        if (
            zero_division == "warn"
            and sums[index, 3] > 0
            and (warn_for is None or metric in warn_for)
        ):
            warnings.warn(
                f"{statistic.metric} is ill-defined and being set to 0.0 in "
                f"samples with {statistic.samples.condition}. Use "
                "`zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=caller_stacklevel(),
            )
    return results
