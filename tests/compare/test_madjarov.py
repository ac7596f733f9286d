"""multilabel_measures and measure_directions: the 16 measures of Madjarov et al.

sklearn_mlcm/compare/_madjarov.py.

The example-based measures are checked against the definitions of Krstinić et
al. (2020), section 2.1.1 (eqs. 1-6), transcribed with Python sets; the
label-based ones against eqs. 7-10; the ranking ones against MULAN's
definitions (Madjarov et al. 2012), by hand.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import measure_directions, mlcm_f1_score, multilabel_measures

MADJAROV = [
    "hamming_loss",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "subset_accuracy",
    "micro_precision",
    "micro_recall",
    "micro_f1",
    "macro_precision",
    "macro_recall",
    "macro_f1",
    "one_error",
    "coverage",
    "ranking_loss",
    "average_precision",
]
MINIMISED = {"hamming_loss", "one_error", "coverage", "ranking_loss"}
EXAMPLE_BASED = ["hamming_loss", "accuracy", "precision", "recall", "f1"]

Y_TRUE = np.array([[1, 1, 0], [0, 1, 0], [1, 0, 1]])
Y_PRED = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]])
Y_SCORE = np.array([[0.9, 0.4, 0.1], [0.2, 0.8, 0.3], [0.7, 0.6, 0.5]])


def _sets(y):
    return [set(np.flatnonzero(row)) for row in np.asarray(y)]


def krstinic_example_based(y_true, y_pred, zero_division):
    """Krstinić et al. (2020), eqs. 1-6, one instance at a time with sets.

    A ratio whose denominator is empty is ``zero_division``; NaN leaves the
    instance out of the mean (NaN when none is left).
    """
    n_labels = np.asarray(y_true).shape[1]

    def ratio(num, den):
        return num / den if den else zero_division

    def mean(values):
        kept = [v for v in values if not np.isnan(v)]
        return np.mean(kept) if kept else np.nan

    rows = list(zip(_sets(y_true), _sets(y_pred)))
    return {
        "hamming_loss": mean([len(y ^ z) / n_labels for y, z in rows]),  # eq. 5
        "accuracy": mean([ratio(len(y & z), len(y | z)) for y, z in rows]),  # 1
        "precision": mean([ratio(len(y & z), len(z)) for y, z in rows]),  # 2
        "recall": mean([ratio(len(y & z), len(y)) for y, z in rows]),  # 3
        "f1": mean([ratio(2 * len(y & z), len(y) + len(z)) for y, z in rows]),
        "subset_accuracy": mean([float(y == z) for y, z in rows]),  # eq. 6
    }


def mulan_ranking(y_true, y_score):
    """One-error, coverage, ranking loss and average precision, loop by loop.

    Ties count against the classifier (a label's rank is the number of labels
    scored at least as high); an instance without a true label scores 0, 0, 0
    and 1.
    """
    one, cov, loss, ap = [], [], [], []
    for truth, score in zip(_sets(y_true), np.asarray(y_score)):
        if not truth:
            one.append(0.0)
            cov.append(0.0)
            loss.append(0.0)
            ap.append(1.0)
            continue
        rank = {j: int((score >= score[j]).sum()) for j in range(len(score))}
        top = {j for j in range(len(score)) if score[j] == score.max()}
        one.append(float(not top <= truth))
        cov.append(max(rank[j] for j in truth) - 1.0)
        false = set(range(len(score))) - truth
        wrong = sum(score[i] <= score[j] for i in truth for j in false)
        loss.append(wrong / (len(truth) * len(false)) if false else 0.0)
        ap.append(
            np.mean([sum(rank[k] <= rank[j] for k in truth) / rank[j] for j in truth])
        )
    return {
        "one_error": np.mean(one),
        "coverage": np.mean(cov),
        "ranking_loss": np.mean(loss),
        "average_precision": np.mean(ap),
    }


def test_multilabel_measures_names_order_and_types():
    """The 16 measures of Madjarov et al., in order, as Python floats."""
    values = multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE)
    assert list(values) == MADJAROV
    assert all(type(value) is float for value in values.values())


def test_multilabel_measures_hand_example():
    """Every measure of a 3-instance example, worked by hand."""
    values = multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE)
    expected = {
        "hamming_loss": 2 / 9,  # one wrong label in instances 1 and 3
        "accuracy": (1 / 2 + 1 + 2 / 3) / 3,
        "precision": (1 + 1 + 2 / 3) / 3,
        "recall": (1 / 2 + 1 + 1) / 3,
        "f1": (2 / 3 + 1 + 4 / 5) / 3,
        "subset_accuracy": 1 / 3,
        "micro_precision": 4 / 5,  # TP 4, FP 1, FN 1
        "micro_recall": 4 / 5,
        "micro_f1": 4 / 5,
        "macro_precision": (1 + 1 / 2 + 1) / 3,
        "macro_recall": (1 + 1 / 2 + 1) / 3,
        "macro_f1": (1 + 1 / 2 + 1) / 3,
        "one_error": 0.0,
        "coverage": (1 + 0 + 2) / 3,
        "ranking_loss": (0 + 0 + 1 / 2) / 3,
        "average_precision": (1 + 1 + (1 + 2 / 3) / 2) / 3,
    }
    assert values == pytest.approx(expected)


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_multilabel_measures_krstinic_definitions_with_empty_sets(zero_division):
    """Eqs. 1-6 of Krstinić et al., with empty true and predicted sets."""
    y_true = np.array(TABLE_1_TRUE)
    y_pred = np.array(TABLE_1_PRED)
    values = multilabel_measures(
        y_true,
        y_pred,
        measures=[*EXAMPLE_BASED, "subset_accuracy"],
        zero_division=zero_division,
    )
    assert values == pytest.approx(
        krstinic_example_based(y_true, y_pred, zero_division), nan_ok=True
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_multilabel_measures_example_based_oracle(data, mlcm_strategies):
    """Random targets: scikit-learn's functions equal Krstinić's eqs. 1-6."""
    y_true, y_pred = data.draw(mlcm_strategies.targets())
    assume(y_true.shape[1] >= 2)
    zero_division = data.draw(st.sampled_from([0.0, 1.0]))
    values = multilabel_measures(
        y_true,
        y_pred,
        measures=[*EXAMPLE_BASED, "subset_accuracy"],
        zero_division=zero_division,
    )
    assert values == pytest.approx(
        krstinic_example_based(y_true, y_pred, zero_division), nan_ok=True
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_multilabel_measures_ranking_oracle(data, mlcm_strategies):
    """Random targets and tied scores: the four ranking measures, loop by loop."""
    y_true, _ = data.draw(mlcm_strategies.targets())
    assume(y_true.shape[1] >= 2)
    levels = st.sampled_from([0.0, 0.25, 0.5, 1.0])
    y_score = np.array(
        data.draw(
            st.lists(
                st.lists(levels, min_size=y_true.shape[1], max_size=y_true.shape[1]),
                min_size=y_true.shape[0],
                max_size=y_true.shape[0],
            )
        )
    )
    values = multilabel_measures(
        y_true,
        y_true,
        y_score,
        measures=["one_error", "coverage", "ranking_loss", "average_precision"],
    )
    assert values == pytest.approx(mulan_ranking(y_true, y_score))


def test_multilabel_measures_label_based_counts():
    """Micro and macro averages from the one-vs-rest counts (eqs. 7-10)."""
    y_true = np.array([[1, 0], [1, 1], [0, 1], [1, 0]])
    y_pred = np.array([[1, 1], [0, 1], [0, 0], [1, 0]])
    # label 0: TP 2, FP 0, FN 1; label 1: TP 1, FP 1, FN 1
    values = multilabel_measures(
        y_true,
        y_pred,
        measures=[
            "micro_precision",
            "micro_recall",
            "micro_f1",
            "macro_precision",
            "macro_recall",
            "macro_f1",
        ],
    )
    assert values == pytest.approx(
        {
            "micro_precision": 3 / 4,
            "micro_recall": 3 / 5,
            "micro_f1": 6 / 9,
            "macro_precision": (1 + 1 / 2) / 2,
            "macro_recall": (2 / 3 + 1 / 2) / 2,
            "macro_f1": (4 / 5 + 2 / 4) / 2,
        }
    )


def test_multilabel_measures_one_error_ties_count_against():
    """A top score shared by a true and a false label is a one-error."""
    values = multilabel_measures(
        [[1, 0, 0], [0, 1, 0]],
        [[1, 0, 0], [0, 1, 0]],
        [[0.6, 0.6, 0.1], [0.1, 0.9, 0.2]],
        measures=["one_error"],
    )
    assert values == {"one_error": 0.5}


def test_multilabel_measures_no_true_label_is_perfect_ranking():
    """An instance without a true label: one-error 0, coverage 0 (not -1)."""
    values = multilabel_measures(
        [[0, 0, 0], [0, 0, 1]],
        [[0, 0, 0], [0, 0, 1]],
        [[0.2, 0.5, 0.1], [0.2, 0.5, 0.1]],
        measures=["one_error", "coverage", "ranking_loss", "average_precision"],
    )
    # the second instance: its label is ranked third (coverage 2), below both
    # false labels (ranking loss 1), precision 1/3 at its rank
    assert values == pytest.approx(
        {
            "one_error": 0.5,
            "coverage": 1.0,
            "ranking_loss": 0.5,
            "average_precision": (1 + 1 / 3) / 2,
        }
    )


def test_multilabel_measures_mlcm_f1_by_name():
    """The MLCM's micro and macro F1 are those of mlcm_f1_score."""
    values = multilabel_measures(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        measures=["mlcm_micro_f1", "mlcm_macro_f1", "micro_f1"],
        zero_division=0.0,
    )
    assert values["mlcm_micro_f1"] == mlcm_f1_score(
        TABLE_1_TRUE, TABLE_1_PRED, average="micro"
    )
    assert values["mlcm_macro_f1"] == mlcm_f1_score(
        TABLE_1_TRUE, TABLE_1_PRED, average="macro", zero_division=0.0
    )
    # the labels pooled, as scikit-learn's micro: 2 TP / (2 TP + FP + FN)
    assert values["mlcm_micro_f1"] == pytest.approx(16 / 37)
    assert values["micro_f1"] == pytest.approx(16 / 30)  # 2 TP / (2 TP + FP + FN)


def test_multilabel_measures_without_score_warns_and_leaves_out():
    """No y_score: the 12 bipartition measures and a warning naming the rest."""
    with pytest.warns(UserWarning, match="one_error.*are left out"):
        values = multilabel_measures(Y_TRUE, Y_PRED)
    assert list(values) == MADJAROV[:12]


def test_multilabel_measures_named_measures_do_not_warn():
    """Naming only bipartition measures needs no y_score and warns nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = multilabel_measures(Y_TRUE, Y_PRED, measures=["hamming_loss"])
    assert values == pytest.approx({"hamming_loss": 2 / 9})


@pytest.mark.parametrize(
    "convert",
    [sparse.csr_matrix, pd.DataFrame, lambda y: y.tolist(), lambda y: y.astype(bool)],
    ids=["csr", "dataframe", "list", "bool"],
)
def test_multilabel_measures_input_formats(convert):
    """Sparse, DataFrame, list and bool input give the same values."""
    expected = multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE)
    score = pd.DataFrame(Y_SCORE) if convert is pd.DataFrame else Y_SCORE
    values = multilabel_measures(convert(Y_TRUE), convert(Y_PRED), score)
    assert values == expected


@pytest.mark.parametrize("frame_side", ["targets", "y_score"])
def test_multilabel_measures_score_frame_mixed_with_arrays_is_refused(frame_side):
    """Frame targets beside an array y_score (or the reverse) are refused:
    the array's columns cannot be matched to the label names."""
    t = pd.DataFrame(Y_TRUE, columns=list("abc"))
    p = pd.DataFrame(Y_PRED, columns=list("abc"))
    s = Y_SCORE
    if frame_side == "y_score":
        t, p, s = Y_TRUE, Y_PRED, pd.DataFrame(Y_SCORE, columns=list("cab"))
    name = "y_true" if frame_side == "targets" else "y_score"
    with pytest.raises(ValueError, match=rf"{name} of multilabel_measures is a frame"):
        multilabel_measures(t, p, s)


def test_multilabel_measures_zero_division_warns_like_sklearn():
    """zero_division='warn' lets scikit-learn's UndefinedMetricWarning through."""
    with pytest.warns(UndefinedMetricWarning):
        values = multilabel_measures([[1, 0]], [[0, 0]], measures=["precision"])
    assert values == {"precision": 0.0}


def test_multilabel_measures_accuracy_zero_division_warns():
    """Accuracy of an instance with no true and no predicted label warns, 0."""
    with pytest.warns(UndefinedMetricWarning, match="Jaccard is ill-defined"):
        values = multilabel_measures(
            [[1, 0], [0, 0]], [[1, 0], [0, 0]], measures=["accuracy"]
        )
    assert values == {"accuracy": 0.5}


def test_multilabel_measures_zero_division_nan():
    """zero_division=np.nan (documented) leaves undefined instances out.

    scikit-learn's jaccard_score refuses NaN, naming itself; the accuracy is
    computed here instead.
    """
    y_true = [[1, 0], [0, 0], [0, 1]]
    y_pred = [[1, 0], [0, 0], [1, 1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = multilabel_measures(
            y_true, y_pred, measures=EXAMPLE_BASED, zero_division=np.nan
        )
    # the second instance has no label: accuracy, precision, recall and F1 of
    # the other two only
    assert values == pytest.approx(
        {
            "hamming_loss": 1 / 6,
            "accuracy": (1 + 1 / 2) / 2,
            "precision": (1 + 1 / 2) / 2,
            "recall": 1.0,
            "f1": (1 + 2 / 3) / 2,
        }
    )
    nothing = multilabel_measures(
        [[0, 0]], [[0, 0]], measures=["accuracy", "f1"], zero_division=np.nan
    )
    assert np.isnan(nothing["accuracy"]) and np.isnan(nothing["f1"])


def test_multilabel_measures_ranking_without_score_raises():
    """Asking for a ranking measure without y_score is an error, not a zero."""
    with pytest.raises(
        ValueError,
        match=r"'y_score' parameter of multilabel_measures .*\['coverage'\].*Got None",
    ):
        multilabel_measures(Y_TRUE, Y_PRED, measures=["f1", "coverage"])


@pytest.mark.parametrize(
    "measures, error, match",
    [
        (["f1", "f2"], ValueError, r"known measure names.*\['f2'\] are not"),
        (["f1", "f1"], ValueError, "a non-empty list of str without repeats"),
        ([], ValueError, r"a non-empty list of str.*Got \[\] instead"),
        ("f1", TypeError, "a non-empty list of str without repeats or None"),
        ({"f1"}, TypeError, "a non-empty list of str without repeats or None"),
    ],
    ids=["unknown", "repeated", "empty", "string", "set"],
)
def test_multilabel_measures_bad_measures(measures, error, match):
    """Unknown, repeated, no measure names, or not a list."""
    with pytest.raises(error, match="'measures' parameter of multilabel_measures"):
        multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE, measures=measures)
    with pytest.raises(error, match=match):
        multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE, measures=measures)


def test_multilabel_measures_rejects_one_label():
    """One label column is refused: sample-wise measures need two or more."""
    with pytest.raises(ValueError, match="at least 2 label columns"):
        multilabel_measures([[1], [0]], [[1], [1]])


def test_multilabel_measures_rejects_class_labels():
    """1-D class labels are refused with a hint to binarise them."""
    with pytest.raises(ValueError, match="2-D 0/1 indicator matrix.*Binarizer"):
        multilabel_measures([0, 1, 2], [0, 2, 2])


@pytest.mark.parametrize(
    "y_score, error, match",
    [
        (Y_SCORE[:, :2], ValueError, r"of the shape of y_true, \(3, 3\)"),
        (np.where(Y_SCORE > 0.8, np.nan, Y_SCORE), ValueError, "NaN or infinity"),
        (
            [np.zeros((3, 2))] * 3,
            ValueError,
            "np.column_stack.*Got a list of 2-D arrays",
        ),
        ([["a", "b", "c"]] * 3, TypeError, "real scores. Got values of dtype <U1"),
        (Y_SCORE + 1j, TypeError, "real scores. Got values of dtype complex128"),
        (
            np.zeros((3, 3), dtype="datetime64[s]"),
            TypeError,
            "Got values of dtype datetime64",
        ),
        (
            np.zeros((3, 3), dtype="timedelta64[s]"),
            TypeError,
            "Got values of dtype timedelta64",
        ),
        (3.0, TypeError, "must be an array-like or a sparse matrix or None"),
    ],
    ids=[
        "shape",
        "nan",
        "predict_proba_list",
        "strings",
        "complex",
        "datetime",
        "timedelta",
        "scalar",
    ],
)
def test_multilabel_measures_bad_score(y_score, error, match):
    """Wrong shape, NaN, predict_proba's list, and values that are not real."""
    with pytest.raises(error, match="'y_score' parameter of multilabel_measures"):
        multilabel_measures(Y_TRUE, Y_PRED, y_score)
    with pytest.raises(error, match=match):
        multilabel_measures(Y_TRUE, Y_PRED, y_score)


def test_multilabel_measures_complex_score_is_not_truncated():
    """A complex score is refused, not cut to its real part with a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="complex"):
            multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE.astype(complex))


@pytest.mark.parametrize(
    "zero_division, error",
    [(2, ValueError), ("yes", ValueError), (True, TypeError), (None, TypeError)],
)
def test_multilabel_measures_bad_zero_division(zero_division, error):
    """zero_division must be one of scikit-learn's values."""
    with pytest.raises(
        error,
        match=r"'zero_division' parameter of multilabel_measures must be one of "
        r"\{'warn', 0.0, 1.0, np.nan\}",
    ):
        multilabel_measures(Y_TRUE, Y_PRED, Y_SCORE, zero_division=zero_division)


def test_measure_directions_all():
    """Four losses are minimised; the other 12 and the MLCM scores maximised."""
    directions = measure_directions()
    assert list(directions)[:16] == MADJAROV
    assert {name for name, up in directions.items() if not up} == MINIMISED
    assert directions["mlcm_micro_f1"] and directions["mlcm_macro_f1"]
    assert all(type(value) is bool for value in directions.values())


def test_measure_directions_subset_in_order():
    """Named measures come back in the order asked for."""
    assert measure_directions(["coverage", "f1"]) == {"coverage": False, "f1": True}


def test_measure_directions_unknown_name():
    """An unknown name is an error listing the known ones."""
    with pytest.raises(
        ValueError,
        match=r"'measures' parameter of measure_directions must be a list of known "
        r"measure names, \['hamming_loss', .*\['f3'\] are not",
    ):
        measure_directions(["f3"])


@pytest.mark.parametrize(
    "measures, error",
    [([], ValueError), (["f1", "f1"], ValueError), ("f1", TypeError)],
    ids=["empty", "repeated", "string"],
)
def test_measure_directions_bad_measures(measures, error):
    """No names, a repeated name, or a string instead of a list."""
    with pytest.raises(error, match="'measures' parameter of measure_directions"):
        measure_directions(measures)


def test_multilabel_measures_values_follow_directions():
    """A perfect prediction reaches each measure's best value."""
    values = multilabel_measures(Y_TRUE, Y_TRUE, Y_TRUE.astype(float))
    directions = measure_directions(MADJAROV)
    best = {"coverage": (1 + 0 + 1) / 3}  # coverage: the mean of |Y_i| - 1
    for name, value in values.items():
        expected = best.get(name, 1.0 if directions[name] else 0.0)
        assert_allclose(value, expected, err_msg=name)


def test_multilabel_measures_score_frame_aligned_by_name():
    """y_score columns are matched to y_true's by name, or refused."""
    pd = pytest.importorskip("pandas")
    t = np.eye(3, dtype=int)
    s = np.array([[0.9, 0.5, 0.1], [0.2, 0.7, 0.1], [0.1, 0.3, 0.8]])
    frame = pd.DataFrame(t, columns=list("abc"))
    aligned = multilabel_measures(
        frame, frame, pd.DataFrame(s, columns=list("abc")), measures=["coverage"]
    )
    reordered = multilabel_measures(
        frame,
        frame,
        pd.DataFrame(s[:, ::-1], columns=list("cba")),
        measures=["coverage"],
    )
    assert aligned == reordered == {"coverage": 0.0}
    with pytest.raises(ValueError, match=r"y_true and y_score .*from y_score: \['c'\]"):
        multilabel_measures(
            frame, frame, pd.DataFrame(s, columns=list("abz")), measures=["coverage"]
        )
