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

import numpy as np
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import Bunch

from ._param_validation import (
    ZERO_DIVISION,
    Interval,
    InvalidInputError,
    Options,
    current_function,
    validate_params,
)
from ._validation import check_square_matrix

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
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    undefined = denominator == 0
    fill = 0.0 if zero_division == "warn" else float(zero_division)
    result = np.divide(
        numerator,
        denominator,
        out=np.full(np.broadcast(numerator, denominator).shape, fill),
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


def ratio_metric(metric, tp, fp, fn, tn, *, beta=1.0, zero_division="warn"):
    """One per-class ratio from one-vs-rest counts.

    ``metric`` is "precision" TP/(TP+FP), "recall" TP/(TP+FN), "fbeta"
    (1+b²)TP/((1+b²)TP + b²FN + FP) or "specificity" TN/(TN+FP). Undefined
    ratios follow ``zero_division`` (see :func:`safe_ratio`).
    """
    if metric == "precision":
        return safe_ratio(
            tp, tp + fp, zero_division, "Precision", "labels with no predicted samples"
        )
    if metric == "recall":
        return safe_ratio(
            tp, tp + fn, zero_division, "Recall", "labels with no true samples"
        )
    if metric == "specificity":
        return safe_ratio(
            tn, tn + fp, zero_division, "Specificity", "labels with no negative samples"
        )
    if beta <= 1e50:
        b2 = beta * beta
        numerator, denominator = (1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp
    else:  # b² would overflow: divide through by it (F tends to the recall)
        inverse = (1.0 / beta) ** 2
        numerator = (1 + inverse) * np.asarray(tp, dtype=np.float64)
        denominator = numerator + fn + inverse * np.asarray(fp, dtype=np.float64)
    return safe_ratio(
        numerator,
        denominator,
        zero_division,
        "F-score",
        "labels with no true nor predicted samples",
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
        Non-negative, finite counts (or weighted or fractional counts).

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
    cm = check_square_matrix(cm)
    _check_sums_are_finite(cm)
    beta = float(beta)

    tp, fp, fn, tn_ = one_vs_rest_counts(cm, tn)
    ratios = {
        metric: ratio_metric(
            metric, tp, fp, fn, tn_, beta=beta, zero_division=zero_division
        )
        for metric in ("precision", "recall", "specificity", "fbeta")
    }
    accuracy = safe_ratio(
        tp + tn_, tp + tn_ + fp + fn, zero_division, "Accuracy", "empty labels"
    )
    overall = safe_ratio(
        cm.diagonal().sum(),
        cm.sum(),
        zero_division,
        "Overall accuracy",
        "an empty matrix",
    )
    return Bunch(
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn_,
        **ratios,
        accuracy=accuracy,
        row_sum=line_sums(cm, 1),
        column_sum=line_sums(cm, 0),
        overall_accuracy=float(overall),
    )


# -- the per-label ratios of an MLCM and their averages --------------------

#: The values of ``average`` besides None, in the order the report shows them.
AVERAGES = ("micro", "micro_all", "macro", "weighted")


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
    metrics : sequence of {"precision", "recall", "fbeta", "specificity"}
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


#: The position of each metric in the samples average's sums, and what its
#: warning says: scikit-learn's words for an instance-wise ratio.
_SAMPLES_RATIOS = {
    "precision": (0, "Precision", "no predicted labels"),
    "recall": (1, "Recall", "no true labels"),
    "fbeta": (2, "F-score", "no true nor predicted labels"),
    "f1": (2, "F-score", "no true nor predicted labels"),
}


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
        index, name, condition = _SAMPLES_RATIOS[metric]
        results[metric] = float(values[index])
        if (
            zero_division == "warn"
            and sums[index, 3] > 0
            and (warn_for is None or metric in warn_for)
        ):
            warnings.warn(
                f"{name} is ill-defined and being set to 0.0 in samples with "
                f"{condition}. Use `zero_division` parameter to control this "
                "behavior.",
                UndefinedMetricWarning,
                stacklevel=caller_stacklevel(),
            )
    return results
