"""The 16 multi-label measures of Madjarov et al. (2012), by name.

scikit-learn computes all of them but one-error; this module only names them,
gives each its direction (minimise or maximise) and fills the gaps: one-error,
and coverage counted from 0 as Madjarov et al. and MULAN do.
"""

import math
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    accuracy_score,
    coverage_error,
    f1_score,
    hamming_loss,
    label_ranking_average_precision_score,
    label_ranking_loss,
    precision_score,
    recall_score,
)

from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Sequence,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._scores import mlcm_f1_score
from sklearn_mlcm._validation._frames import frame_columns

from ._validation import check_label_score, check_multilabel_indicators

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


def _jaccard_samples(y_true, y_pred, zero_division):
    """Example-based accuracy: the mean over instances of ``|Y & Z| / |Y | Z|``.

    scikit-learn's ``jaccard_score(average="samples")``, whose
    ``zero_division`` takes no NaN: an instance with no true and no predicted
    label is ``zero_division`` ("warn": 0.0 and a warning), or with NaN left
    out of the mean (NaN when no instance is left), as scikit-learn's other
    sample-averaged scores do.
    """
    union = (y_true | y_pred).sum(axis=1)
    ratio = (y_true & y_pred).sum(axis=1) / np.maximum(union, 1)
    defined = union > 0
    if defined.all():
        return float(ratio.mean())
    if isinstance(zero_division, str):
        warnings.warn(
            "Jaccard is ill-defined and being set to 0.0 in samples with no true "
            "or predicted labels. Use `zero_division` parameter to control this "
            "behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        zero_division = 0.0
    if math.isnan(zero_division):
        return float(ratio[defined].mean()) if defined.any() else math.nan
    return float(np.where(defined, ratio, zero_division).mean())


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
    "accuracy": _Measure(lambda t, p, s, z: _jaccard_samples(t, p, z), True),
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


#: The constraints of ``measures``: a non-empty list of names, no repeats.
_MEASURE_NAMES = [Sequence(str, unique=True, min_length=1), None]


def _known_measures(arguments):
    """Rule: every name of ``measures`` is one of :data:`_MEASURES`."""
    measures = arguments["measures"]
    unknown = [name for name in measures or () if name not in _MEASURES]
    if unknown:
        raise invalid_parameter(
            "measures",
            f"a list of known measure names, {list(_MEASURES)}; {unknown} are not",
            list(measures),
        )


def _scores_for_ranking(arguments):
    """Rule: named ranking measures need ``y_score``."""
    measures = arguments["measures"]
    if arguments["y_score"] is not None or measures is None:
        return
    wanted = [name for name in measures if _MEASURES[name].needs_score]
    if wanted:
        raise invalid_parameter(
            "y_score",
            "the scores of each label (predict_proba or decision_function, one "
            f"column per label) for the ranking measures {wanted}; pass y_score, "
            "or leave them out of 'measures'",
            None,
        )


@validate_params({"measures": _MEASURE_NAMES}, rules=(_known_measures,))
def measure_directions(measures=None):
    """Whether each multi-label measure is maximised (True) or minimised (False).

    The result can be passed as ``maximize=`` to :func:`fuse_measures`,
    :func:`promethee_ii` and :func:`entropy_weights` when the measures are
    named: unused names are ignored.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    measures : list of str, default=None
        Names known to :func:`multilabel_measures`, at least one, each once.
        By default the 16
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
    return {name: _MEASURES[name].greater_is_better for name in names}


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_pred": ["array-like", "sparse matrix"],
        "y_score": ["array-like", "sparse matrix", None],
        "measures": _MEASURE_NAMES,
        "zero_division": ZERO_DIVISION,
    },
    rules=(_known_measures, _scores_for_ranking),
)
def multilabel_measures(
    y_true, y_pred, y_score=None, *, measures=None, zero_division="warn"
):
    """Compute the multi-label measures of Madjarov et al. (2012) by name.

    Hamming loss, example-based accuracy, precision, recall and F1, subset
    accuracy, micro and macro precision, recall and F1 from the predicted
    labels; one-error, coverage, ranking loss and average precision from the
    scores. Every measure but one-error and the example-based accuracy is
    scikit-learn's own function (accuracy is ``jaccard_score`` with
    ``average="samples"``, computed here because that function refuses
    ``zero_division=np.nan``); the MLCM's micro and macro F1
    (:func:`mlcm_f1_score`) can be asked for by name.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels)
        Ground truth 0/1 indicators, at least 2 labels (1-D class labels are
        refused: binarise them first). Under
        ``sklearn.config_context(array_api_dispatch=True)``, arrays of any
        Array API namespace: the targets are checked in it, on the device of
        ``y_pred``, then they and ``y_score`` are copied to the host, where
        every measure is scikit-learn's function of NumPy arrays
        (:ref:`array_api`).

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    y_score : {array-like, sparse matrix, DataFrame} of shape (n_samples, \
            n_labels), default=None
        Scores of each label (``predict_proba`` or ``decision_function``),
        finite real numbers; greater means more likely. Needed by the four
        ranking measures ``"one_error"``, ``"coverage"``, ``"ranking_loss"``
        and ``"average_precision"``.

    measures : list of str, default=None
        The measures to compute, in that order, at least one, each once. By
        default the 16 measures of Madjarov et al.; without ``y_score``, the
        12 that need no score, with a :class:`UserWarning` naming those left
        out. Names:
        ``"hamming_loss"``, ``"accuracy"``, ``"precision"``, ``"recall"``,
        ``"f1"``, ``"subset_accuracy"``, ``"micro_precision"``,
        ``"micro_recall"``, ``"micro_f1"``, ``"macro_precision"``,
        ``"macro_recall"``, ``"macro_f1"``, ``"one_error"``, ``"coverage"``,
        ``"ranking_loss"``, ``"average_precision"``, ``"mlcm_micro_f1"``,
        ``"mlcm_macro_f1"``.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio, as in scikit-learn: example-based
        precision of an instance with no predicted label, recall of one with
        no true label, accuracy and F1 of one with neither; a label's
        precision or recall when it is never predicted or never true. "warn"
        acts as 0.0 and raises an
        :class:`~sklearn.exceptions.UndefinedMetricWarning`; with NaN the
        undefined values are left out of the averages (a measure none of whose
        values is defined is NaN).

    Returns
    -------
    measures : dict of str to float
        The value of each measure, a Python float. Which ones are minimised
        is given by :func:`measure_directions`.

    Raises
    ------
    ValueError
        If a ranking measure is named without ``y_score``, a measure name is
        unknown, repeated or ``measures`` is empty, or the targets are not
        2-D indicator matrices of at least 2 labels.
    TypeError
        If ``y_score`` holds anything but real numbers (strings, complex
        numbers, dates).

    See Also
    --------
    sklearn.metrics.jaccard_score : The example-based accuracy with
        ``average="samples"``, whose ``zero_division`` takes no NaN.
    sklearn.metrics.precision_recall_fscore_support : Example-based and
        label-based precision, recall and F1, called as is.
    sklearn.metrics.hamming_loss : The Hamming loss, called as is.
    sklearn.metrics.coverage_error : Coverage counted from 1; here from 0.
    sklearn.metrics.label_ranking_loss : The ranking loss, called as is.
    sklearn.metrics.label_ranking_average_precision_score : The average
        precision, called as is.
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
    true labels, so its micro F1 (the labels pooled) is 8 / 13:

    >>> multilabel_measures(y_true, y_pred, measures=["micro_f1", "mlcm_micro_f1"])
    {'micro_f1': 0.8, 'mlcm_micro_f1': 0.6153846153846154}
    """
    names = MADJAROV_MEASURES if measures is None else tuple(measures)
    t, p = check_multilabel_indicators(y_true, y_pred)
    if y_score is None and measures is None:
        warnings.warn(
            "multilabel_measures got no y_score, so the ranking measures "
            f"{list(SCORE_MEASURES)} are left out. Pass y_score (predict_proba "
            "or decision_function, one column per label) to compute them, or "
            "name the measures you want with 'measures' to silence this warning.",
            UserWarning,
            stacklevel=3,
        )
        names = tuple(name for name in names if not _MEASURES[name].needs_score)
    label_names = frame_columns(y_true) or frame_columns(y_pred)
    score = (
        None if y_score is None else check_label_score(y_score, t.shape, label_names)
    )

    return {
        name: float(_MEASURES[name].func(t, p, score, zero_division)) for name in names
    }
