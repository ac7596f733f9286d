"""Scalar scores read off the MLCM, and scorers for model selection.

The report (:mod:`._report`) and the scores share :func:`label_values` and
:func:`summarize`: one implementation of every number.
"""

import textwrap

from sklearn.metrics import make_scorer

from ._confusion import _compute
from ._statistics import average as mean_of
from ._statistics import (
    check_beta,
    line_sums,
    one_vs_rest_counts,
    ratio_metric,
    safe_ratio,
)
from ._validation import check_bool, check_option, check_zero_division

__all__ = [
    "make_mlcm_scorer",
    "mlcm_f1_score",
    "mlcm_fbeta_score",
    "mlcm_precision_score",
    "mlcm_recall_score",
    "mlcm_scorers",
    "mlcm_specificity_score",
]

_AVERAGES = ("micro", "macro", "weighted", None)


def label_values(cm, metric, *, beta, include_no_label, zero_division, tn="diagonal"):
    """Per-label values of one metric: the q labels, and the no-label index too
    when ``include_no_label``."""
    shown = cm.shape[0] if include_no_label else cm.shape[0] - 1
    tp, fp, fn, tn_ = (x[:shown] for x in one_vs_rest_counts(cm, tn))
    return ratio_metric(metric, tp, fp, fn, tn_, beta=beta, zero_division=zero_division)


def summarize(cm, metric, values, average, *, beta, zero_division, tn="diagonal"):
    """Average per-label ``values`` the paper's way (Heydarian et al., Table 12).

    "micro" pools the counts of all q+1 indices, so that micro precision,
    recall and F-beta all equal trace / sum; "macro" is the mean of ``values``
    and "weighted" their mean weighted by the MLCM row sums.
    """
    if average == "micro":
        if cm.sum() == 0:  # every weight zero: nothing to pool
            return float(
                safe_ratio(0.0, 0.0, zero_division, "Micro average", "an empty matrix")
            )
        counts = (x.sum(keepdims=True) for x in one_vs_rest_counts(cm, tn))
        return float(
            ratio_metric(metric, *counts, beta=beta, zero_division=zero_division)[0]
        )
    weights = line_sums(cm, 1)[: len(values)] if average == "weighted" else None
    return mean_of(values, weights)


def _score(
    y_true,
    y_pred,
    metric,
    *,
    average,
    method,
    labels,
    sample_weight,
    zero_division,
    include_no_label,
    func_name,
    beta=1.0,
    tn="diagonal",
):
    check_option(average, _AVERAGES, "average", func_name)
    zero_division = check_zero_division(zero_division, func_name)
    include_no_label = check_bool(include_no_label, "include_no_label", func_name)
    cm = _compute(
        y_true,
        y_pred,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        func_name=func_name,
    ).matrix
    values = label_values(
        cm,
        metric,
        beta=beta,
        include_no_label=include_no_label,
        zero_division=zero_division,
        tn=tn,
    )
    if average is None:
        return values
    return summarize(
        cm, metric, values, average, beta=beta, zero_division=zero_division, tn=tn
    )


_PARAMETERS = """\
    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.
%(beta)s
    average : {"micro", "macro", "weighted"} or None, default="macro"
        None returns the score of each label. "micro" pools the counts of all
        q+1 indices of the MLCM (the labels and the no-label index), as in
        Heydarian et al., Table 12; "macro" is the mean over the labels and
        "weighted" the mean weighted by the MLCM row sums ("weight" in the
        report). The numbers are those of :func:`mlcm_classification_report`.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read; see :func:`mlcm_confusion_matrix`.

    labels : array-like of shape (n_kept,), default=None
        The labels to score, in that order; the matrix is computed on this
        restricted label space (see :func:`mlcm_confusion_matrix`).

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero. "warn" acts as 0.0 and
        raises an :class:`~sklearn.exceptions.UndefinedMetricWarning`; NaN
        values are left out of the averages.

    include_no_label : bool, default=False
        Also score the no-label index (the NTL row and NPL column), and take
        it into the macro and weighted averages.
%(tn)s
    Returns
    -------
    score : float or ndarray of shape (n_labels,) or (n_labels + 1,)
        A Python float when ``average`` is not None; otherwise one float64
        value per label (plus the no-label index with ``include_no_label``).
"""
_BETA = """
    beta : float
        Weight of recall in the F-score, ``beta >= 0``.
"""
_TN = """
    tn : {"diagonal", "complement"}, default="diagonal"
        True negatives of label k: Heydarian's eq. 16 (the trace minus
        ``C[k, k]``) or every cell outside row k and column k.
"""


def _doc(summary, formula, sklearn_name, example, beta=False, tn=False):
    notes = textwrap.fill(
        "With C the MLCM and k a label: " + formula,
        75,
        initial_indent="    ",
        subsequent_indent="    ",
    )

    def decorate(func):
        func.__doc__ = f"""{summary}

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

{_PARAMETERS % {"beta": _BETA if beta else "", "tn": _TN if tn else ""}}
    See Also
    --------
    sklearn.metrics.{sklearn_name} : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
{notes}

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import {func.__name__}
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
{example}
"""
        return func

    return decorate


@_doc(
    "Compute precision from the multi-label confusion matrix.",
    "``C[k, k] / sum_j C[j, k]``, the diagonal cell over its column.",
    "precision_score",
    """\
    >>> mlcm_precision_score(y_true, y_pred, average=None).round(4)
    array([1.    , 0.4   , 0.1111])
    >>> round(mlcm_precision_score(y_true, y_pred, average="micro"), 4)  # 9 / 21
    0.4286""",
)
def mlcm_precision_score(
    y_true,
    y_pred,
    *,
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
):
    return _score(
        y_true,
        y_pred,
        "precision",
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        func_name="mlcm_precision_score",
    )


@_doc(
    "Compute recall from the multi-label confusion matrix.",
    "``C[k, k] / sum_j C[k, j]``, the diagonal cell over its row.",
    "recall_score",
    """\
    >>> mlcm_recall_score(y_true, y_pred, average=None).round(4)
    array([0.4545, 0.3333, 1.    ])""",
)
def mlcm_recall_score(
    y_true,
    y_pred,
    *,
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
):
    return _score(
        y_true,
        y_pred,
        "recall",
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        func_name="mlcm_recall_score",
    )


@_doc(
    "Compute the F1 score from the multi-label confusion matrix.",
    "``2 TP / (2 TP + FP + FN)`` with ``TP = C[k, k]``, FP the rest of "
    "column k and FN the rest of row k.",
    "f1_score",
    """\
    >>> mlcm_f1_score(y_true, y_pred, average=None).round(4)
    array([0.625 , 0.3636, 0.2   ])
    >>> round(mlcm_f1_score(y_true, y_pred, average="macro"), 4)
    0.3962""",
)
def mlcm_f1_score(
    y_true,
    y_pred,
    *,
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
):
    return _score(
        y_true,
        y_pred,
        "fbeta",
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        func_name="mlcm_f1_score",
    )


@_doc(
    "Compute the F-beta score from the multi-label confusion matrix.",
    "``(1 + b²) TP / ((1 + b²) TP + b² FN + FP)`` with ``TP = C[k, k]``, FP "
    "the rest of column k and FN the rest of row k. The micro average is "
    "trace / sum for every beta, because FN and FP totals are equal.",
    "fbeta_score",
    """\
    >>> mlcm_fbeta_score(y_true, y_pred, beta=2, average=None).round(4)
    array([0.5102, 0.3448, 0.3846])""",
    beta=True,
)
def mlcm_fbeta_score(
    y_true,
    y_pred,
    *,
    beta,
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
):
    func_name = "mlcm_fbeta_score"
    return _score(
        y_true,
        y_pred,
        "fbeta",
        beta=check_beta(beta, func_name),
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        func_name=func_name,
    )


@_doc(
    "Compute specificity (true negative rate) from the multi-label confusion matrix.",
    "``TN / (TN + FP)``, FP the rest of column k and TN, by default, the "
    "other diagonal cells (Heydarian's eq. 16).",
    "recall_score",
    """\
    >>> mlcm_specificity_score(y_true, y_pred, average=None).round(4)
    array([1. , 0.7, 0.5])""",
    tn=True,
)
def mlcm_specificity_score(
    y_true,
    y_pred,
    *,
    average="macro",
    method="heydarian",
    labels=None,
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
    tn="diagonal",
):
    func_name = "mlcm_specificity_score"
    check_option(tn, ("diagonal", "complement"), "tn", func_name)
    return _score(
        y_true,
        y_pred,
        "specificity",
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        func_name=func_name,
        tn=tn,
    )


_SCORE_FUNCTIONS = {
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
    "f1": mlcm_f1_score,
    "fbeta": mlcm_fbeta_score,
    "specificity": mlcm_specificity_score,
}


def make_mlcm_scorer(metric="f1", *, average="macro", method="heydarian", **kwargs):
    """Make a scorer from an MLCM score, for ``GridSearchCV`` and friends.

    Built on scikit-learn's public :func:`~sklearn.metrics.make_scorer`, so
    the result works wherever a scorer does (``scoring=`` of
    ``GridSearchCV``, ``cross_validate`` and ``cross_val_score``), pickles,
    and routes ``sample_weight`` with metadata routing
    (``scorer.set_score_request(sample_weight=True)``).

    Read more in the :ref:`User Guide <scorers>`.

    Parameters
    ----------
    metric : {"f1", "precision", "recall", "fbeta", "specificity"}, default="f1"
        The score: :func:`mlcm_f1_score`, :func:`mlcm_precision_score`,
        :func:`mlcm_recall_score`, :func:`mlcm_fbeta_score` (give ``beta``)
        or :func:`mlcm_specificity_score`.

    average : {"micro", "macro", "weighted"}, default="macro"
        How the per-label scores are combined; a scorer needs one number, so
        None is refused.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read.

    **kwargs
        Further keyword arguments of the score function (``labels``,
        ``zero_division``, ``include_no_label``, ``beta``, ``tn``).

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, sample_weight=None)``; greater is
        better.

    See Also
    --------
    sklearn.metrics.make_scorer : What this function calls.
    mlcm_scorers : Ready-made scorers by name.

    Examples
    --------
    >>> from sklearn.datasets import make_multilabel_classification
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_mlcm import make_mlcm_scorer
    >>> X, y = make_multilabel_classification(n_samples=120, random_state=0)
    >>> search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 9]},
    ...                       scoring=make_mlcm_scorer("f1", average="macro"))
    >>> search.fit(X, y).best_params_
    {'n_neighbors': 9}
    """
    func_name = "make_mlcm_scorer"
    check_option(metric, tuple(_SCORE_FUNCTIONS), "metric", func_name)
    check_option(average, ("micro", "macro", "weighted"), "average", func_name)
    if metric == "fbeta" and "beta" not in kwargs:
        raise ValueError(
            "make_mlcm_scorer(metric='fbeta') needs the 'beta' keyword, as "
            "mlcm_fbeta_score does. Got no 'beta'."
        )
    if metric != "specificity" and "tn" in kwargs:
        raise ValueError(
            f"The 'tn' keyword of make_mlcm_scorer applies to metric='specificity' "
            f"only. Got metric={metric!r}."
        )
    if "beta" in kwargs and metric != "fbeta":
        raise ValueError(
            f"The 'beta' keyword of make_mlcm_scorer applies to metric='fbeta' "
            f"only. Got metric={metric!r}."
        )
    return make_scorer(
        _SCORE_FUNCTIONS[metric], average=average, method=method, **kwargs
    )


def mlcm_scorers(method="heydarian"):
    """Ready-made scorers, named like scikit-learn's, for ``scoring=``.

    Read more in the :ref:`User Guide <scorers>`.

    Parameters
    ----------
    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix the scorers read.

    Returns
    -------
    scorers : dict of str to callable
        ``"mlcm_{metric}_{average}"`` for metric in precision, recall, f1 and
        specificity and average in micro, macro and weighted (twelve scorers),
        each made by :func:`make_mlcm_scorer`. Pass the whole dict, or a
        subset, as ``scoring=`` (with ``refit=`` one of its keys).

    See Also
    --------
    sklearn.metrics.get_scorer_names : scikit-learn's own names
        (``"f1_macro"``, ...), which these mirror.

    Examples
    --------
    >>> from sklearn_mlcm import mlcm_scorers
    >>> sorted(mlcm_scorers())[:4]
    ['mlcm_f1_macro', 'mlcm_f1_micro', 'mlcm_f1_weighted', 'mlcm_precision_macro']
    """
    check_option(method, ("heydarian", "krstinic"), "method", "mlcm_scorers")
    return {
        f"mlcm_{metric}_{average}": make_mlcm_scorer(
            metric, average=average, method=method
        )
        for metric in ("precision", "recall", "f1", "specificity")
        for average in ("micro", "macro", "weighted")
    }
