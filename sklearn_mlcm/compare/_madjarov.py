"""The 16 multi-label measures of Madjarov et al. (2012), by name.

scikit-learn computes all of them but one-error; this module only names them,
gives each its direction (minimise or maximise) and fills the gaps: one-error,
and coverage counted from 0 as Madjarov et al. and MULAN do.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.metrics import (
    accuracy_score,
    coverage_error,
    f1_score,
    hamming_loss,
    jaccard_score,
    label_ranking_average_precision_score,
    label_ranking_loss,
    precision_score,
    recall_score,
)

from sklearn_mlcm._legacy_checks import check_zero_division
from sklearn_mlcm._scores import mlcm_f1_score
from sklearn_mlcm._validation import check_mlcm_targets

__all__ = ["measure_directions", "multilabel_measures"]


@dataclass(frozen=True)
class _Measure:
    """One measure: ``func(y_true, y_pred, y_score, zero_division) -> float``."""

    func: object
    greater_is_better: bool
    needs_score: bool = False


def _one_error(y_true, y_score):
    """Fraction of instances whose top-scored label is not a true label.

    Ties count against the classifier, as in scikit-learn's ranking measures:
    the instance is an error when any label sharing the top score is not a
    true label. Instances without a true label count as correct, as they do
    in ``coverage_error`` (0), ``label_ranking_loss`` (0) and
    ``label_ranking_average_precision_score`` (1).
    """
    top = y_score == y_score.max(axis=1, keepdims=True)
    wrong = (top & ~y_true).any(axis=1) & y_true.any(axis=1)
    return float(wrong.mean())


def _coverage(y_true, y_score):
    """Madjarov's coverage: scikit-learn's ``coverage_error`` minus one.

    ``coverage_error`` counts the labels ranked at or above the lowest-ranked
    true label (from 1) and gives 0 to an instance without a true label;
    Madjarov et al. count the steps down the ranking (from 0), and MULAN
    gives 0 to such an instance too, so 1 is added back for each of them.
    """
    no_true = float((~y_true.any(axis=1)).mean())
    return float(coverage_error(y_true, y_score)) - 1.0 + no_true


_MEASURES = {
    "hamming_loss": _Measure(lambda t, p, s, z: hamming_loss(t, p), False),
    "accuracy": _Measure(
        lambda t, p, s, z: jaccard_score(t, p, average="samples", zero_division=z),
        True,
    ),
    "precision": _Measure(
        lambda t, p, s, z: precision_score(t, p, average="samples", zero_division=z),
        True,
    ),
    "recall": _Measure(
        lambda t, p, s, z: recall_score(t, p, average="samples", zero_division=z),
        True,
    ),
    "f1": _Measure(
        lambda t, p, s, z: f1_score(t, p, average="samples", zero_division=z), True
    ),
    "subset_accuracy": _Measure(lambda t, p, s, z: accuracy_score(t, p), True),
    "micro_precision": _Measure(
        lambda t, p, s, z: precision_score(t, p, average="micro", zero_division=z),
        True,
    ),
    "micro_recall": _Measure(
        lambda t, p, s, z: recall_score(t, p, average="micro", zero_division=z), True
    ),
    "micro_f1": _Measure(
        lambda t, p, s, z: f1_score(t, p, average="micro", zero_division=z), True
    ),
    "macro_precision": _Measure(
        lambda t, p, s, z: precision_score(t, p, average="macro", zero_division=z),
        True,
    ),
    "macro_recall": _Measure(
        lambda t, p, s, z: recall_score(t, p, average="macro", zero_division=z), True
    ),
    "macro_f1": _Measure(
        lambda t, p, s, z: f1_score(t, p, average="macro", zero_division=z), True
    ),
    "one_error": _Measure(lambda t, p, s, z: _one_error(t, s), False, True),
    "coverage": _Measure(lambda t, p, s, z: _coverage(t, s), False, True),
    "ranking_loss": _Measure(
        lambda t, p, s, z: label_ranking_loss(t, s), False, needs_score=True
    ),
    "average_precision": _Measure(
        lambda t, p, s, z: label_ranking_average_precision_score(t, s),
        True,
        needs_score=True,
    ),
    # The MLCM's own scores (Heydarian et al. 2022), by name only.
    "mlcm_micro_f1": _Measure(
        lambda t, p, s, z: mlcm_f1_score(t, p, average="micro", zero_division=z),
        True,
    ),
    "mlcm_macro_f1": _Measure(
        lambda t, p, s, z: mlcm_f1_score(t, p, average="macro", zero_division=z),
        True,
    ),
}
# The 16 measures of Madjarov et al. (2012), in the order of Eftimov & Kocev.
MADJAROV_MEASURES = tuple(name for name in _MEASURES if not name.startswith("mlcm"))
SCORE_MEASURES = tuple(name for name in _MEASURES if _MEASURES[name].needs_score)


def _check_measure_names(measures, func_name):
    """``measures`` -> a tuple of known names (None -> the 16 of Madjarov)."""
    if measures is None:
        return MADJAROV_MEASURES
    if isinstance(measures, str) or not hasattr(measures, "__iter__"):
        raise TypeError(
            f"The 'measures' parameter of {func_name} must be a list of measure "
            f"names or None. Got {measures!r} instead."
        )
    measures = tuple(measures)
    unknown = [name for name in measures if name not in _MEASURES]
    if unknown:
        raise ValueError(
            f"The 'measures' parameter of {func_name} names unknown measures: "
            f"{unknown}. Known measures are {list(_MEASURES)}."
        )
    if len(set(measures)) != len(measures):
        raise ValueError(
            f"The 'measures' parameter of {func_name} names a measure twice: "
            f"{list(measures)}."
        )
    return measures


def measure_directions(measures=None):
    """Whether each multi-label measure is maximised (True) or minimised (False).

    The result can be passed as ``maximize=`` to :func:`fuse_measures`,
    :func:`promethee_ii` and :func:`entropy_weights` when the measures are
    named: unused names are ignored.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    measures : list of str, default=None
        Names known to :func:`multilabel_measures`. By default the 16
        measures of Madjarov et al. (2012) and the two MLCM scores
        (``"mlcm_micro_f1"``, ``"mlcm_macro_f1"``).

    Returns
    -------
    directions : dict of str to bool
        True when greater is better (scikit-learn's ``greater_is_better``),
        False for the losses: Hamming loss, one-error, coverage and ranking
        loss.

    See Also
    --------
    multilabel_measures : Computes the measures.

    Examples
    --------
    >>> from sklearn_mlcm import measure_directions
    >>> measure_directions(["hamming_loss", "micro_f1", "coverage"])
    {'hamming_loss': False, 'micro_f1': True, 'coverage': False}
    >>> sum(measure_directions().values())  # 12 of the 16, and the 2 MLCM scores
    14
    """
    names = tuple(_MEASURES) if measures is None else measures
    names = _check_measure_names(names, "measure_directions")
    return {name: _MEASURES[name].greater_is_better for name in names}


def _check_score(y_score, shape, func_name):
    """``y_score`` -> a finite float64 array of ``shape``."""
    if sparse.issparse(y_score):
        y_score = y_score.toarray()
    if isinstance(y_score, list) and y_score and getattr(y_score[0], "ndim", 0) == 2:
        raise ValueError(
            f"y_score of {func_name} is a list of 2-D arrays, which is what "
            "predict_proba of a multi-output classifier returns (one (n_samples, "
            "2) array per label). Pass one column per label instead, for example "
            "np.column_stack([p[:, 1] for p in proba])."
        )
    if getattr(y_score, "ndim", None) == 2 and hasattr(y_score, "columns"):
        y_score = y_score.to_numpy()
    try:
        score = np.asarray(y_score, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"y_score of {func_name} must be a 2-D array of real scores of shape "
            f"{shape}; it could not be read as one."
        ) from None
    if score.shape != shape:
        raise ValueError(
            f"y_score of {func_name} must have the shape of y_true, {shape} (one "
            f"score per sample and label). Got shape {score.shape}."
        )
    if not np.all(np.isfinite(score)):
        raise ValueError(f"y_score of {func_name} contains NaN or infinity.")
    return score


def multilabel_measures(
    y_true, y_pred, y_score=None, *, measures=None, zero_division="warn"
):
    """Compute the multi-label measures of Madjarov et al. (2012) by name.

    Hamming loss, example-based accuracy, precision, recall and F1, subset
    accuracy, micro and macro precision, recall and F1 from the predicted
    labels; one-error, coverage, ranking loss and average precision from the
    scores. Every measure but one-error is scikit-learn's own function; the
    MLCM's micro and macro F1 (:func:`mlcm_f1_score`) can be asked for by
    name.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels)
        Ground truth 0/1 indicators, at least 2 labels.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    y_score : array-like of shape (n_samples, n_labels), default=None
        Scores of each label (``predict_proba`` or ``decision_function``);
        greater means more likely. Needed by the four ranking measures
        ``"one_error"``, ``"coverage"``, ``"ranking_loss"`` and
        ``"average_precision"``.

    measures : list of str, default=None
        The measures to compute, in that order. By default the 16 measures of
        Madjarov et al.; without ``y_score``, the 12 that need no score, with a
        :class:`UserWarning` naming those left out. Names:
        ``"hamming_loss"``, ``"accuracy"``, ``"precision"``, ``"recall"``,
        ``"f1"``, ``"subset_accuracy"``, ``"micro_precision"``,
        ``"micro_recall"``, ``"micro_f1"``, ``"macro_precision"``,
        ``"macro_recall"``, ``"macro_f1"``, ``"one_error"``, ``"coverage"``,
        ``"ranking_loss"``, ``"average_precision"``, ``"mlcm_micro_f1"``,
        ``"mlcm_macro_f1"``.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio, passed to scikit-learn: example-based
        precision of an instance with no predicted label, recall of one with
        no true label, accuracy and F1 of one with neither; a label's
        precision or recall when it is never predicted or never true.

    Returns
    -------
    measures : dict of str to float
        The value of each measure, a Python float. Which ones are minimised
        is given by :func:`measure_directions`.

    Raises
    ------
    ValueError
        If a ranking measure is asked for without ``y_score``.

    See Also
    --------
    sklearn.metrics.hamming_loss, sklearn.metrics.jaccard_score,
    sklearn.metrics.precision_recall_fscore_support,
    sklearn.metrics.coverage_error, sklearn.metrics.label_ranking_loss,
    sklearn.metrics.label_ranking_average_precision_score : The functions
        called.
    fuse_measures : Ranks methods on many measures at once.

    Notes
    -----
    With ``Y_i`` the true and ``Z_i`` the predicted label set of instance i
    of N, and L labels (Krstinić et al. 2020, section 2.1.1):

    - Hamming loss ``1/N sum |Y_i xor Z_i| / L``;
    - accuracy ``1/N sum |Y_i & Z_i| / |Y_i | Z_i|`` (``jaccard_score``
      with ``average="samples"``);
    - precision ``1/N sum |Y_i & Z_i| / |Z_i|``, recall
      ``1/N sum |Y_i & Z_i| / |Y_i|``, F1
      ``1/N sum 2 |Y_i & Z_i| / (|Y_i| + |Z_i|)``;
    - subset accuracy ``1/N sum [Y_i = Z_i]``.

    The micro averages pool the one-vs-rest counts of all labels, the macro
    averages are the mean over the labels (scikit-learn's ``average``).

    From the scores: one-error is the fraction of instances whose top-scored
    label is not true; coverage ``1/N sum max_{l in Y_i} rank_i(l) - 1``, the
    steps down the ranking needed to cover every true label
    (``coverage_error`` minus one, as in Madjarov et al. and MULAN); ranking
    loss the fraction of (true, false) label pairs ordered wrongly; average
    precision scikit-learn's label ranking average precision. Tied scores
    count against the classifier in all four (scikit-learn's convention).
    An instance without a true label has one-error 0 and coverage 0.

    References
    ----------
    .. [1] G. Madjarov, D. Kocev, D. Gjorgjevikj and S. Džeroski, "An
       extensive experimental comparison of methods for multi-label
       learning", Pattern Recognition 45(9), 3084-3104, 2012.
    .. [2] D. Krstinić, M. Braović, L. Šerić and D. Božić-Štulić, "Multi-label
       classifier performance evaluation with confusion matrix", CS & IT
       10(8), 2020.

    Examples
    --------
    >>> from sklearn_mlcm import multilabel_measures
    >>> y_true = [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
    >>> y_pred = [[1, 0, 0], [0, 1, 0], [1, 1, 1]]
    >>> y_score = [[0.9, 0.4, 0.1], [0.2, 0.8, 0.3], [0.7, 0.6, 0.5]]
    >>> values = multilabel_measures(y_true, y_pred, y_score)
    >>> {name: round(value, 4) for name, value in values.items()}
    {'hamming_loss': 0.2222, 'accuracy': 0.7222, 'precision': 0.8889,
     'recall': 0.8333, 'f1': 0.8222, 'subset_accuracy': 0.3333,
     'micro_precision': 0.8, 'micro_recall': 0.8, 'micro_f1': 0.8,
     'macro_precision': 0.8333, 'macro_recall': 0.8333, 'macro_f1': 0.8333,
     'one_error': 0.0, 'coverage': 1.0, 'ranking_loss': 0.1667,
     'average_precision': 0.9444}

    Without ``y_score``, name the measures wanted. The MLCM counts the missed
    label of the first instance and the wrong label of the third against the
    true labels, so its micro F1 is trace / sum = 4 / 7:

    >>> multilabel_measures(y_true, y_pred, measures=["micro_f1", "mlcm_micro_f1"])
    {'micro_f1': 0.8, 'mlcm_micro_f1': 0.5714285714285714}
    """
    func_name = "multilabel_measures"
    zero_division = check_zero_division(zero_division, func_name)
    names = _check_measure_names(measures, func_name)
    space = check_mlcm_targets(y_true, y_pred, func_name=func_name)
    if _ndim(y_true) != 2 or _ndim(y_pred) != 2:
        raise ValueError(
            f"y_true and y_pred of {func_name} must be 2-D 0/1 indicator "
            "matrices of shape (n_samples, n_labels). Got 1-D class labels; "
            "encode them with sklearn.preprocessing.MultiLabelBinarizer or "
            "label_binarize."
        )
    t, p = space.y_true, space.y_pred
    if t.shape[1] < 2:
        raise ValueError(
            f"y_true and y_pred of {func_name} must have at least 2 label columns; "
            "scikit-learn's sample-wise and ranking measures are not defined for "
            "one label. Got 1; use the binary metrics of sklearn.metrics."
        )
    if sparse.issparse(t):
        t, p = t.toarray(), p.toarray()

    wanted_scores = [name for name in names if _MEASURES[name].needs_score]
    if y_score is None and wanted_scores:
        if measures is not None:
            raise ValueError(
                f"The measures {wanted_scores} of {func_name} rank the labels "
                "and need y_score (predict_proba or decision_function, one "
                "column per label). Pass y_score, or leave them out of "
                "'measures'."
            )
        warnings.warn(
            f"{func_name} got no y_score, so the ranking measures "
            f"{list(SCORE_MEASURES)} are left out. Pass y_score (predict_proba "
            "or decision_function, one column per label) to compute them, or "
            "name the measures you want with 'measures' to silence this warning.",
            UserWarning,
            stacklevel=2,
        )
        names = tuple(name for name in names if not _MEASURES[name].needs_score)
    score = None
    if y_score is not None:
        score = _check_score(y_score, t.shape, func_name)

    return {
        name: float(_MEASURES[name].func(t, p, score, zero_division)) for name in names
    }


def _ndim(y):
    """The number of dimensions of any accepted target (list, array, frame)."""
    ndim = getattr(y, "ndim", None)
    return np.ndim(y) if ndim is None else ndim
