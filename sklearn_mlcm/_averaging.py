"""Per-label ratios of an MLCM and their averages: the one engine behind the
scores, the report and :func:`mlcm_precision_recall_fscore_support`.

Every function here takes one (q+1, q+1) matrix (dense or sparse) or a dense
stack of them, shape (..., q+1, q+1), and works along the last axes, so that
B resampled matrices are scored in one call. The averages:

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

import warnings

import numpy as np
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning

from ._statistics import caller_stacklevel, one_vs_rest_counts, ratio_metric

__all__ = [
    "AVERAGES",
    "matrix_scores",
    "nan_average",
    "row_sums",
    "samples_average",
    "samples_values",
]

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
