"""Scores read off the MLCM, their engine, and scorers for model selection.

:func:`mlcm_precision_recall_fscore_support` is the engine, as scikit-learn's
``precision_recall_fscore_support``: it computes the matrix once and reads
every ratio off it (:mod:`._statistics`, which the report shares). The scores
are thin wrappers that keep one of its results: one implementation of every
number.
"""

from numbers import Real

import numpy as np
from sklearn.metrics import make_scorer

from ._confusion import TARGET_CONSTRAINTS
from ._mlcm._dispatch import METHODS, compute
from ._mlcm._samples import table_sums
from ._param_validation import (
    ZERO_DIVISION,
    Functions,
    Interval,
    Options,
    invalid_parameter,
    public_call,
    validate_keywords,
    validate_params,
)
from ._statistics import AVERAGES, matrix_scores, samples_average, statistic_of
from ._validation._frames import frame_columns, read_frame
from ._validation._targets import validate_targets

__all__ = [
    "make_mlcm_scorer",
    "mlcm_precision_recall_fscore_support",
    "mlcm_f1_score",
    "mlcm_fbeta_score",
    "mlcm_precision_score",
    "mlcm_recall_score",
    "mlcm_scorers",
    "mlcm_specificity_score",
]

#: The values of the score functions' ``average`` (besides None): the
#: matrix's and the instances' ("samples"); a statistic without a samples
#: form (specificity) refuses "samples" (its ``Statistic.averages``).
SCORE_AVERAGES = (*AVERAGES, "samples")

#: The constraints of every score function; fbeta adds beta, specificity tn.
SCORE_CONSTRAINTS = {
    **TARGET_CONSTRAINTS,
    "average": [Options(*SCORE_AVERAGES), None],
    "zero_division": ZERO_DIVISION,
    "include_no_label": ["boolean"],
}
_BETA = {"beta": [Interval(Real, 0, None, closed="left")]}
_TN = {"tn": [Options("complement", "diagonal")]}
_MATRIX_AVERAGE = {"average": [Options(*AVERAGES), None]}


def _substitute(**texts):
    """Fill the ``%(name)s`` placeholders of a docstring with shared text,
    explicitly (imbalanced-learn's ``Substitution``)."""

    def decorate(func):
        func.__doc__ = func.__doc__ % texts
        return func

    return decorate


_DOC = {
    "targets": """y_true : {array-like, sparse matrix, DataFrame} of shape \
            (n_samples, n_labels) or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels. Under
        ``sklearn.config_context(array_api_dispatch=True)``, 2-D indicators of
        any Array API namespace (torch, CuPy, array_api_strict): per-label
        values are then returned in the namespace of ``y_pred``, on its
        device, and averages as Python floats (:ref:`array_api`).

    y_pred : same kind and shape as ``y_true``
        Predicted labels.""",
    "options": """average : {"micro", "micro_all", "macro", "weighted", "samples"} \
            or None, default="macro"
        None returns the score of each label. "micro" pools the counts of the
        scored labels, as scikit-learn's micro average does (with
        ``include_no_label`` the no-label index is one of them). "micro_all"
        pools the counts of all q+1 indices of the MLCM whatever is scored, as
        Heydarian et al., Table 12 do: an instance with no true and no
        predicted label then counts as correct, so on data where half the
        instances have no label, a classifier that predicts nothing scores a
        "micro_all" F1 near 1/3 and a "micro" F1 of 0. "macro" is the mean
        over the labels and "weighted" the mean weighted by the MLCM row sums
        ("weight" in the report). "samples" is scikit-learn's: the mean over
        the instances (weighted by ``sample_weight``) of each instance's own
        ratio, read off its true set T and predicted set P (see Notes of
        :func:`mlcm_precision_recall_fscore_support`). The numbers are those
        of :func:`mlcm_classification_report`.

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
        it into the macro and weighted averages.""",
    "returns": """score : float or ndarray of shape (n_labels,) or (n_labels + 1,)
        A Python float when ``average`` is not None; otherwise one float64
        value per label (plus the no-label index with ``include_no_label``).""",
    "example_data": """>>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0],
    ...           [1, 1, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]""",
    "reference": """.. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
       doi:10.1109/ACCESS.2022.3151048""",
}


#: scikit-learn's names of the ratios in ``warn_for``, and the engine's.
_WARN_NAMES = {"precision": "precision", "recall": "recall", "f-score": "fbeta"}


def _check_warn_for(arguments):
    """``warn_for`` names some of the three ratios, as scikit-learn's."""
    warn_for = arguments["warn_for"]
    if not all(isinstance(n, str) and n in _WARN_NAMES for n in warn_for):
        raise invalid_parameter(
            "warn_for",
            "a list, tuple or set of 'precision', 'recall' and 'f-score'",
            warn_for,
        )


def _prfs(
    y_true,
    y_pred,
    *,
    beta,
    labels,
    average,
    method,
    sample_weight,
    zero_division,
    include_no_label,
    warn_for,
    metrics=("precision", "recall", "fbeta"),
    tn="complement",
):
    """Compute the matrix once and the ratios ``metrics`` off it; the support
    (true instances per scored label) when ``average`` is None, else None.
    Only the ratios named in ``warn_for`` warn for ``zero_division="warn"``.
    ``average="samples"`` reads each instance's set sizes instead, in one
    pass over the validated rows, and builds no matrix."""
    warn_for = {_WARN_NAMES.get(name, name) for name in warn_for}
    targets = validate_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight
    )
    if average == "samples":
        computed = compute(
            targets,
            method=method,
            samples=True,
            matrix=False,
        )
        sums = table_sums(
            computed.samples,
            beta=float(beta),
            include_no_label=bool(include_no_label),
        )
        values = samples_average(
            sums,
            metrics,
            zero_division=zero_division,
            warn_for=warn_for,
        )
        return values, None
    computed = compute(
        targets,
        method=method,
        with_supports=average is None,
    )
    values = matrix_scores(
        computed.matrix,
        metrics,
        average=average,
        beta=float(beta),
        include_no_label=bool(include_no_label),
        zero_division=zero_division,
        tn=tn,
        warn_for=warn_for,
    )
    support = None
    if average is None:
        support = np.asarray(computed.supports)
        if include_no_label:
            support = np.append(support, computed.no_label_support)
    if computed.device is not None:
        values, support = _to_device(values, support, computed.device)
    return values, support


def _to_device(values, support, device):
    """Array API input: the per-label values and supports back in the input's
    namespace, on its device; an average as a Python float (scikit-learn's
    rule)."""
    values = {
        name: float(value) if np.ndim(value) == 0 else device.back(value)
        for name, value in values.items()
    }
    return values, None if support is None else device.back(support)


@validate_params(
    {**SCORE_CONSTRAINTS, **_BETA, "warn_for": [list, tuple, set]},
    rules=(_check_warn_for,),
)
@_substitute(**_DOC)
def mlcm_precision_recall_fscore_support(
    y_true,
    y_pred,
    *,
    beta=1.0,
    labels=None,
    average=None,
    method="heydarian",
    warn_for=("precision", "recall", "f-score"),
    sample_weight=None,
    zero_division="warn",
    include_no_label=False,
):
    """Compute precision, recall, F-beta and support from the MLCM, at once.

    The engine of the scores, as scikit-learn's
    :func:`~sklearn.metrics.precision_recall_fscore_support` is of theirs
    (:func:`mlcm_precision_score`, :func:`mlcm_recall_score`,
    :func:`mlcm_f1_score` and :func:`mlcm_fbeta_score` call it): the
    multi-label confusion matrix is computed once and every ratio is read off
    it, so a caller who wants precision, recall and F1 pays for one matrix.
    A wrongly predicted label counts against the label it replaced, and a
    missed label with nothing predicted in its place against the no-label
    index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s

    beta : float, default=1.0
        Weight of recall in the F-score, ``beta >= 0``.

    labels : array-like of shape (n_kept,), default=None
        The labels to score, in that order; the matrix is computed on this
        restricted label space (see :func:`mlcm_confusion_matrix`).

    average : {"micro", "micro_all", "macro", "weighted", "samples"} or None, \
            default=None
        None returns the values of each label; otherwise as in
        :func:`mlcm_f1_score`. "samples" averages each instance's own
        precision, recall and F-beta (see Notes), as scikit-learn's.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read; see :func:`mlcm_confusion_matrix`.

    warn_for : list, tuple or set, default=("precision", "recall", "f-score")
        The ratios that warn when ill-defined (``zero_division="warn"``), as
        in scikit-learn: a score that returns one of them warns about it
        only.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero. "warn" acts as 0.0 and
        raises an :class:`~sklearn.exceptions.UndefinedMetricWarning`; NaN
        values are left out of the averages.

    include_no_label : bool, default=False
        Also score the no-label index (the NTL row and NPL column), and take
        it into the averages.

    Returns
    -------
    precision : float or ndarray of shape (n_labels,) or (n_labels + 1,)
        A Python float when ``average`` is not None, else float64 per label
        (plus the no-label index with ``include_no_label``).

    recall : float or ndarray of the same shape
        Likewise.

    fbeta_score : float or ndarray of the same shape
        Likewise.

    support : None or ndarray of the same shape
        The number (or weighted number) of true instances of each label, the
        instances with no true label last with ``include_no_label``; None when
        ``average`` is not None, as scikit-learn's. int64 without weights
        (for ``method="heydarian"``), float64 otherwise.

    See Also
    --------
    sklearn.metrics.precision_recall_fscore_support : The one-vs-rest
        counterpart; its counts ignore which label a missed label went to.
    mlcm_classification_report : The same numbers, and the MLCM row sums, as
        a report.

    Notes
    -----
    With C the MLCM and k a label: precision ``C[k, k] / sum_j C[j, k]``,
    recall ``C[k, k] / sum_j C[k, j]``, F-beta ``(1 + b²) TP / ((1 + b²) TP +
    b² FN + FP)`` with FP the rest of column k and FN the rest of row k.
    Because every missed label lands in some column, the FN and FP totals
    agree, so "micro_all" precision, recall and F-beta are all ``trace(C) /
    sum(C)``.

    ``average="samples"`` reads no matrix (``method`` does not change it):
    each instance, with T its true set and P its predicted set among the
    scored labels, has precision ``|T & P| / |P|``, recall ``|T & P| / |T|``
    and F-beta ``(1 + b²) |T & P| / (b² |T| + |P|)``, and the average is their
    mean weighted by ``sample_weight``, as scikit-learn's. A ratio with an
    empty denominator (P empty, T empty, or both for F) takes
    ``zero_division``; as in scikit-learn, whose counts are weighted, so does
    every ratio of an instance of weight zero, which then weighs nothing
    (unless every weight is zero). With ``include_no_label`` an empty set is
    the no-label index: an instance with no true and no predicted label
    scores 1, one with either set empty 0. For 1-D input each set holds the
    instance's class (none for a class outside ``labels``), so with every
    class scored the three are the (weighted) accuracy; scikit-learn refuses
    "samples" for 1-D input.

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_precision_recall_fscore_support
    %(example_data)s
    >>> p, r, f, s = mlcm_precision_recall_fscore_support(y_true, y_pred)
    >>> p.round(4), r.round(4), f.round(4), s
    (array([1.    , 0.4   , 0.1111]), array([0.4545, 0.3333, 1.    ]), \
array([0.625 , 0.3636, 0.2   ]), array([7, 5, 1]))
    >>> p, r, f, s = mlcm_precision_recall_fscore_support(
    ...     y_true, y_pred, average="micro_all")
    >>> round(p, 4), round(r, 4), s  # 9 / 21, the trace over the sum
    (0.4286, 0.4286, None)

    The instance-wise average (the third and sixth instances have no true
    and no predicted label: their ratios take ``zero_division``):

    >>> p, r, f, s = mlcm_precision_recall_fscore_support(
    ...     y_true, y_pred, average="samples", zero_division=0.0)
    >>> round(p, 4), round(r, 4), round(f, 4)
    (0.3889, 0.463, 0.4)
    """
    values, support = _prfs(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        average=average,
        method=method,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        warn_for=warn_for,
    )
    return values["precision"], values["recall"], values["fbeta"], support


#: The scores read off the public engine: its output position, and the name
#: of their ratio in ``warn_for``.
_ENGINE_OUTPUT = {"precision": (0, "precision"), "recall": (1, "recall")}
_ENGINE_OUTPUT["fbeta"] = (2, "f-score")


def _score(metric, y_true, y_pred, *, tn="complement", beta=1.0, **options):
    """One ratio: precision, recall and F-beta from the public engine,
    :func:`mlcm_precision_recall_fscore_support`, which warns about that
    ratio only (as scikit-learn's scores call theirs); the specificity, which
    the engine does not return, from the same matrix computation."""
    if metric in _ENGINE_OUTPUT:
        position, warn_name = _ENGINE_OUTPUT[metric]
        return mlcm_precision_recall_fscore_support(
            y_true, y_pred, beta=beta, warn_for=(warn_name,), **options
        )[position]
    values, _ = _prfs(
        y_true,
        y_pred,
        beta=beta,
        metrics=(metric,),
        warn_for=(metric,),
        tn=tn,
        **options,
    )
    return values[metric]


@validate_params(SCORE_CONSTRAINTS)
@_substitute(**_DOC)
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
    """Compute precision from the multi-label confusion matrix.

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s

    %(options)s

    Returns
    -------
    %(returns)s

    See Also
    --------
    sklearn.metrics.precision_score : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
    With C the MLCM and k a label: ``C[k, k] / sum_j C[j, k]``, the
    diagonal cell over its column.

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_precision_score
    %(example_data)s
    >>> mlcm_precision_score(y_true, y_pred, average=None).round(4)
    array([1.    , 0.4   , 0.1111])
    >>> round(mlcm_precision_score(y_true, y_pred, average="micro_all"), 4)  # 9 / 21
    0.4286
    >>> round(mlcm_precision_score(y_true, y_pred, average="micro"), 4)  # 8 / 19
    0.4211
    """
    return _score(
        "precision",
        y_true,
        y_pred,
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
    )


@validate_params(SCORE_CONSTRAINTS)
@_substitute(**_DOC)
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
    """Compute recall from the multi-label confusion matrix.

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s

    %(options)s

    Returns
    -------
    %(returns)s

    See Also
    --------
    sklearn.metrics.recall_score : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
    With C the MLCM and k a label: ``C[k, k] / sum_j C[k, j]``, the
    diagonal cell over its row.

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_recall_score
    %(example_data)s
    >>> mlcm_recall_score(y_true, y_pred, average=None).round(4)
    array([0.4545, 0.3333, 1.    ])
    """
    return _score(
        "recall",
        y_true,
        y_pred,
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
    )


@validate_params(SCORE_CONSTRAINTS)
@_substitute(**_DOC)
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
    """Compute the F1 score from the multi-label confusion matrix.

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s

    %(options)s

    Returns
    -------
    %(returns)s

    See Also
    --------
    sklearn.metrics.f1_score : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
    With C the MLCM and k a label: ``2 TP / (2 TP + FP + FN)`` with ``TP =
    C[k, k]``, FP the rest of column k and FN the rest of row k.

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_f1_score
    %(example_data)s
    >>> mlcm_f1_score(y_true, y_pred, average=None).round(4)
    array([0.625 , 0.3636, 0.2   ])
    >>> round(mlcm_f1_score(y_true, y_pred, average="macro"), 4)
    0.3962
    """
    return _score(
        "fbeta",
        y_true,
        y_pred,
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
    )


@validate_params({**SCORE_CONSTRAINTS, **_BETA})
@_substitute(**_DOC)
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
    """Compute the F-beta score from the multi-label confusion matrix.

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s
    beta : float
        Weight of recall in the F-score, ``beta >= 0``.
    %(options)s

    Returns
    -------
    %(returns)s

    See Also
    --------
    sklearn.metrics.fbeta_score : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
    With C the MLCM and k a label: ``(1 + b²) TP / ((1 + b²) TP + b² FN +
    FP)`` with ``TP = C[k, k]``, FP the rest of column k and FN the rest of
    row k. The "micro_all" average is trace / sum for every beta, because FN
    and FP totals are equal.

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_fbeta_score
    %(example_data)s
    >>> mlcm_fbeta_score(y_true, y_pred, beta=2, average=None).round(4)
    array([0.5102, 0.3448, 0.3846])
    """
    return _score(
        "fbeta",
        y_true,
        y_pred,
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        beta=beta,
    )


@validate_params({**SCORE_CONSTRAINTS, **_MATRIX_AVERAGE, **_TN})
@_substitute(**_DOC)
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
    tn="complement",
):
    """Compute specificity (true negative rate) from the multi-label confusion matrix.

    The ratio is read off the 2-D multi-label confusion matrix (MLCM), so a
    wrongly predicted label counts against the label it replaced, and a missed
    label with nothing predicted in its place against the no-label index.

    Read more in the :ref:`User Guide <scores>`.

    Parameters
    ----------
    %(targets)s

    %(options)s

    tn : {"complement", "diagonal"}, default="complement"
        The true negatives of label k: every cell outside row k and column k
        (scikit-learn's and Kandza-Tadi's), or the other diagonal cells
        (Heydarian's eq. 16).

    Returns
    -------
    %(returns)s

    See Also
    --------
    sklearn.metrics.recall_score : The one-vs-rest counterpart; its counts
        ignore which label a missed label went to.
    mlcm_classification_report : The same numbers as a report.
    make_mlcm_scorer : A scorer for model selection.

    Notes
    -----
    With C the MLCM and k a label: ``TN / (TN + FP)``, FP the rest of
    column k and TN, by default, every cell outside row k and column k (the
    usual multi-class TN, scikit-learn's and Kandza-Tadi's); with
    ``tn="diagonal"``, the other diagonal cells (Heydarian's eq. 16).

    References
    ----------
    %(reference)s

    Examples
    --------
    Heydarian et al. (2022), Table 1, whose MLCM is Table 4 (j),
    ``[[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]``:

    >>> from sklearn_mlcm import mlcm_specificity_score
    %(example_data)s
    >>> mlcm_specificity_score(y_true, y_pred, average=None).round(4)
    array([1. , 0.8, 0.6])
    >>> mlcm_specificity_score(y_true, y_pred, average=None, tn="diagonal")
    array([1. , 0.7, 0.5])
    """
    return _score(
        "specificity",
        y_true,
        y_pred,
        average=average,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        zero_division=zero_division,
        include_no_label=include_no_label,
        tn=tn,
    )


_SCORE_FUNCTIONS = {
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
    "f1": mlcm_f1_score,
    "fbeta": mlcm_fbeta_score,
    "specificity": mlcm_specificity_score,
}
#: The name of each score function, for make_mlcm_scorer given the function.
_METRIC_NAMES = {function: name for name, function in _SCORE_FUNCTIONS.items()}


def _metric_name(metric):
    """A score's name (``"f1"``) from its name or its public function."""
    return metric if isinstance(metric, str) else _METRIC_NAMES[metric]


def _estimator_score(y_true, y_pred, *, metric, **kwargs):
    """A scorer's call of the score ``metric``: ``y_pred`` comes from ``predict``,
    whose columns are y_true's by position (scikit-learn's contract), so a
    frame ``y_true`` is read as its values, in its column order, and not
    refused as a frame mixed with an array without names."""
    score_func = _SCORE_FUNCTIONS[metric]
    if frame_columns(y_true) is not None and frame_columns(y_pred) is None:
        with public_call(score_func.__name__):  # its refusals name the score
            y_true = read_frame(y_true, "y_true")[0]
    return score_func(y_true, y_pred, **kwargs)


def _check_scorer_keywords(arguments):
    """The keywords must be options of the chosen score, and fbeta needs beta;
    specificity has no samples average."""
    metric, kwargs = _metric_name(arguments["metric"]), arguments["kwargs"]
    if metric == "specificity" and arguments["average"] == "samples":
        raise invalid_parameter(
            "average",
            "one of " + ", ".join(map(repr, AVERAGES)) + " for "
            "metric='specificity' (it has no samples average)",
            "samples",
        )
    if metric == "fbeta" and "beta" not in kwargs:
        raise invalid_parameter(
            "beta",
            "given with metric='fbeta', as mlcm_fbeta_score requires it",
            None,
        )
    validate_keywords(
        _SCORE_FUNCTIONS[metric],
        kwargs,
        exclude=("y_true", "y_pred", "average", "method", "sample_weight"),
    )


@validate_params(
    {
        "metric": [Options(*_SCORE_FUNCTIONS), Functions(*_METRIC_NAMES)],
        "average": [Options(*SCORE_AVERAGES)],
        "method": [Options(*METHODS)],
    },
    rules=(_check_scorer_keywords,),
)
def make_mlcm_scorer(metric="f1", *, average="macro", method="heydarian", **kwargs):
    """Make a scorer from an MLCM score, for ``GridSearchCV`` and friends.

    Built on scikit-learn's public :func:`~sklearn.metrics.make_scorer`, so
    the result works wherever a scorer does (``scoring=`` of
    ``GridSearchCV``, ``cross_validate`` and ``cross_val_score``), pickles,
    and routes ``sample_weight`` with metadata routing
    (``scorer.set_score_request(sample_weight=True)``). The score is named,
    or given as its function as to scikit-learn's ``make_scorer``:
    ``make_mlcm_scorer(mlcm_f1_score, average="macro")`` is
    ``make_mlcm_scorer("f1", average="macro")``.

    Read more in the :ref:`User Guide <scorers>`.

    Parameters
    ----------
    metric : {"f1", "precision", "recall", "fbeta", "specificity"} or callable, \
            default="f1"
        The score: :func:`mlcm_f1_score`, :func:`mlcm_precision_score`,
        :func:`mlcm_recall_score`, :func:`mlcm_fbeta_score` (give ``beta``)
        or :func:`mlcm_specificity_score`, by name or the function itself.
        Other functions are refused: a scorer of another score is
        scikit-learn's ``make_scorer``.

    average : {"micro", "micro_all", "macro", "weighted", "samples"}, \
            default="macro"
        How the per-label scores are combined (see :func:`mlcm_f1_score`); a
        scorer needs one number, so None is refused. "samples" (the mean of
        each instance's own score) is refused for "specificity".

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

    The function instead of its name, as scikit-learn's ``make_scorer`` takes:

    >>> from sklearn_mlcm import mlcm_fbeta_score
    >>> f2 = make_mlcm_scorer(mlcm_fbeta_score, beta=2, average="weighted")
    """
    metric = _metric_name(metric)
    scorer = make_scorer(
        _estimator_score,
        metric=metric,
        average=average,
        method=method,
        **kwargs,
    )
    # what the scorer computes, so that MLCMTunedThresholdClassifierCV can
    # read it off the matrix's margins instead of calling it per threshold
    scorer._mlcm_options = {"metric": metric, "average": average, "method": method}
    scorer._mlcm_options.update(kwargs)
    return scorer


#: The averages of :func:`mlcm_scorers`: scikit-learn's scorer names'
#: (specificity, which scikit-learn has not and which has no samples form,
#: takes the first three).
_SCORER_AVERAGES = ("micro", "macro", "weighted", "samples")


@validate_params({"method": [Options(*METHODS)]})
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
        specificity and average in micro, macro and weighted, and for metric
        in precision, recall and f1 and average samples, as scikit-learn has
        ``"f1_samples"`` (fifteen scorers), each made by
        :func:`make_mlcm_scorer`. Pass the whole dict, or a subset, as
        ``scoring=`` (with ``refit=`` one of its keys).

    See Also
    --------
    sklearn.metrics.get_scorer_names : scikit-learn's own names
        (``"f1_macro"``, ``"f1_samples"``, ...), which these mirror.

    Examples
    --------
    >>> from sklearn_mlcm import mlcm_scorers
    >>> sorted(mlcm_scorers())[:4]
    ['mlcm_f1_macro', 'mlcm_f1_micro', 'mlcm_f1_samples', 'mlcm_f1_weighted']
    """
    averages = {
        metric: [a for a in _SCORER_AVERAGES if a in statistic_of(metric)[0].averages]
        for metric in ("precision", "recall", "f1", "specificity")
    }
    return {
        f"mlcm_{metric}_{average}": make_mlcm_scorer(
            metric, average=average, method=method
        )
        for metric, names in averages.items()
        for average in names
    }
