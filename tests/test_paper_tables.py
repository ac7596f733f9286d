"""Every table listed in ../shared/papers/README.md, reproduced with its numbers.

Each test cites its paper and table. Heydarian et al. (2022), "MLCM:
Multi-Label Confusion Matrix", IEEE Access; Krstinić et al. (2020),
"Multi-label classifier performance evaluation with confusion matrix", CS & IT;
Kandza-Tadi (2020), "Confusion Matrix for Multi Class", AMMI.
"""

from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from report_reading import report_cells
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix

from sklearn_mlcm import (
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
)

# Heydarian et al. (2022), Table 1: nine instances, three classes.
H_TRUE = np.array(TABLE_1_TRUE)
H_PRED = np.array(TABLE_1_PRED)

# Heydarian et al. (2022), Table 4 (a)-(i): each instance's contribution.
H_TABLE_4 = [
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 0, 0, 0]],
    [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]],
    [[1, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]],
    [[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
]

# Heydarian et al. (2022), Table 8 (a): the raw 9-class ECG MLCM.
ECG = np.array(
    [
        [58, 1, 0, 1, 0, 5, 4, 2, 3, 7],
        [1, 105, 0, 0, 1, 1, 0, 0, 4, 13],
        [0, 2, 24, 0, 0, 0, 0, 0, 0, 3],
        [1, 1, 1, 9, 0, 4, 1, 0, 0, 4],
        [2, 5, 2, 1, 54, 2, 1, 0, 0, 7],
        [5, 3, 1, 0, 1, 10, 4, 2, 5, 20],
        [1, 0, 0, 5, 4, 9, 48, 6, 2, 24],
        [3, 1, 1, 0, 1, 9, 1, 42, 3, 18],
        [4, 5, 0, 0, 4, 8, 2, 0, 161, 11],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
)


def _realise(matrix):
    """Single-label instances whose MLCM is ``matrix`` (NPL = empty prediction).

    A true label r predicted as c is one instance {r} -> {c}; a cell of the NPL
    column is one instance {r} -> {}. Heydarian's algorithm counts each such
    instance in exactly that cell, so Table 8 (a) is reproduced from labels.
    """
    q = matrix.shape[0] - 1
    y_true, y_pred = [], []
    for r in range(q):
        for c in range(q + 1):
            for _ in range(matrix[r, c]):
                t = np.zeros(q, dtype=int)
                p = np.zeros(q, dtype=int)
                t[r] = 1
                if c < q:
                    p[c] = 1
                y_true.append(t)
                y_pred.append(p)
    return np.array(y_true), np.array(y_pred)


ECG_TRUE, ECG_PRED = _realise(ECG)


@pytest.mark.parametrize("instance", range(9))
def test_mlcm_confusion_matrix_heydarian_table_4_instances(instance):
    """Heydarian et al. (2022), Table 4 (a)-(i): each instance's contribution."""
    cm = mlcm_confusion_matrix(H_TRUE[[instance]], H_PRED[[instance]])
    assert_array_equal(cm, H_TABLE_4[instance])


def test_mlcm_confusion_matrix_heydarian_table_4j():
    """Heydarian et al. (2022), Table 4 (j): the total MLCM of Table 1."""
    cm = mlcm_confusion_matrix(H_TRUE, H_PRED)
    assert cm.dtype == np.int64
    assert_array_equal(cm, TABLE_4J)


def test_mlcm_confusion_matrix_heydarian_table_5_instance():
    """Heydarian et al. (2022), Table 5: T2 = {C1, C2}, P2 = {C3, C4} -> 2x2 FNs."""
    cm = mlcm_confusion_matrix([[1, 1, 1, 0, 0]], [[1, 0, 0, 1, 1]])
    expected = np.zeros((6, 6), dtype=int)
    expected[0, 0] = 1
    expected[1, 3] = expected[1, 4] = expected[2, 3] = expected[2, 4] = 1
    assert_array_equal(cm, expected)


def test_multilabel_confusion_matrix_heydarian_table_2():
    """Heydarian et al. (2022), Table 2: scikit-learn's sums are FN 5, FP 9."""
    mcm = multilabel_confusion_matrix(H_TRUE, H_PRED)
    assert_array_equal(mcm[0], [[2, 0], [2, 5]])
    assert_array_equal(mcm[1], [[1, 3], [3, 2]])
    assert_array_equal(mcm[2], [[2, 6], [0, 1]])
    assert_array_equal(mcm.sum(axis=0), [[5, 9], [5, 8]])


def test_mlcm_multilabel_confusion_matrix_heydarian_table_7():
    """Heydarian et al. (2022), Table 7: FN = FP = 12, TP 9, TN 27 (= 3 x 9),
    with the paper's TN (eq. 16, ``tn="diagonal"``)."""
    mcm = mlcm_multilabel_confusion_matrix(H_TRUE, H_PRED, tn="diagonal")
    assert mcm.shape == (4, 2, 2)
    assert_array_equal(mcm[0], [[4, 0], [6, 5]])
    assert_array_equal(mcm[1], [[7, 3], [4, 2]])
    assert_array_equal(mcm[2], [[8, 8], [0, 1]])
    assert_array_equal(mcm[3], [[8, 1], [2, 1]])
    assert_array_equal(mcm.sum(axis=0), [[27, 12], [12, 9]])


def test_mlcm_confusion_matrix_heydarian_table_8a_realised():
    """Heydarian et al. (2022), Table 8 (a): single-label instances rebuild it."""
    assert_array_equal(mlcm_confusion_matrix(ECG_TRUE, ECG_PRED), ECG)


def test_mlcm_confusion_matrix_heydarian_table_8b():
    """Heydarian et al. (2022), Table 8 (b): row-normalised percentages, rounded."""
    table_8b = [
        [72, 1, 0, 1, 0, 6, 5, 2, 4, 9],
        [1, 84, 0, 0, 1, 1, 0, 0, 3, 10],
        [0, 7, 83, 0, 0, 0, 0, 0, 0, 10],
        [5, 5, 5, 43, 0, 19, 5, 0, 0, 19],
        [3, 7, 3, 1, 73, 3, 1, 0, 0, 9],
        [10, 6, 2, 0, 2, 20, 8, 4, 10, 39],
        [1, 0, 0, 5, 4, 9, 48, 6, 2, 24],
        [4, 1, 1, 0, 1, 11, 1, 53, 4, 23],
        [2, 3, 0, 0, 2, 4, 1, 0, 83, 6],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
    normalized = mlcm_confusion_matrix(ECG_TRUE, ECG_PRED, normalize="true")
    assert_array_equal(np.round(100 * normalized), table_8b)


# Heydarian et al. (2022), Table 9: [[TN, FP], [FN, TP]] of C0..C8 and NPL.
TABLE_9 = [
    [[453, 17], [23, 58]],
    [[406, 18], [20, 105]],
    [[487, 5], [5, 24]],
    [[502, 7], [12, 9]],
    [[457, 11], [20, 54]],
    [[501, 38], [41, 10]],
    [[463, 13], [51, 48]],
    [[469, 10], [37, 42]],
    [[350, 17], [34, 161]],
    [[511, 107], [0, 0]],
]


def test_mlcm_multilabel_confusion_matrix_heydarian_table_9():
    """Heydarian et al. (2022), Table 9: the ten matrices from Table 8 (a)."""
    mcm = mlcm_multilabel_confusion_matrix(ECG_TRUE, ECG_PRED, tn="diagonal")
    assert_array_equal(mcm, TABLE_9)
    # Section IV-C: FN and FP both total 243; TN / TP = q = 9.
    assert mcm[:, 1, 0].sum() == mcm[:, 0, 1].sum() == 243
    assert mcm[:, 0, 0].sum() == 9 * mcm[:, 1, 1].sum()


def test_confusion_matrix_statistics_heydarian_table_9_from_matrix():
    """Heydarian et al. (2022), Table 9: eq. 15-18 read off Table 8 (a) itself."""
    stats = confusion_matrix_statistics(ECG, tn="diagonal", zero_division=0.0)
    table = np.array(TABLE_9)
    assert_array_equal(stats["tn"], table[:, 0, 0])
    assert_array_equal(stats["fp"], table[:, 0, 1])
    assert_array_equal(stats["fn"], table[:, 1, 0])
    assert_array_equal(stats["tp"], table[:, 1, 1])


#: Table 12, as the report prints it: (precision, recall, f1-score, weight,
#: support) of each row, read by name (the support and the micro and samples
#: lines are not in the paper: see the test's docstring).
TABLE_12 = {
    "0": ("0.77", "0.72", "0.74", "81", "81"),
    "1": ("0.85", "0.84", "0.85", "125", "125"),
    "2": ("0.83", "0.83", "0.83", "29", "29"),
    "3": ("0.56", "0.43", "0.49", "21", "21"),
    "4": ("0.83", "0.73", "0.78", "74", "74"),
    "5": ("0.21", "0.20", "0.20", "51", "51"),
    "6": ("0.79", "0.48", "0.60", "99", "99"),
    "7": ("0.81", "0.53", "0.64", "79", "79"),
    "8": ("0.90", "0.83", "0.86", "195", "195"),
    "micro avg": ("0.79", "0.68", "0.73", "754", "754"),
    "macro avg": ("0.73", "0.62", "0.67", "754", "754"),
    "weighted avg": ("0.79", "0.68", "0.72", "754", "754"),
    "samples avg": ("0.68", "0.68", "0.68", "754", "754"),
}


def test_mlcm_classification_report_heydarian_table_12():
    """Heydarian et al. (2022), Table 12: every per-class, macro and weighted
    number, and the paper's micro average, 511/754 = 0.68, as
    ``average="micro_all"`` (it pools all q+1 indices).

    The report's own micro line is scikit-learn's (the q labels pooled: 511 /
    647 precision, 511 / 754 recall), which Table 12 does not print. The
    support column is not in Table 12 (the paper's instances are not
    published); for the single-label realisation it equals the weight. Nor is
    the samples line: each single-label stand-in is right or wrong as a whole
    (its predicted set is empty in the NPL column: precision 0, by
    zero_division), so it is their accuracy, 511 / 754 too.
    """
    text = mlcm_classification_report(ECG_TRUE, ECG_PRED, zero_division=0.0)
    assert report_cells(text) == TABLE_12
    p, r, f, support = mlcm_precision_recall_fscore_support(
        ECG_TRUE, ECG_PRED, average="micro_all"
    )
    assert (p, r, f) == pytest.approx((511 / 754,) * 3)
    assert (round(p, 2), round(r, 2), round(f, 2), support) == (0.68, 0.68, 0.68, None)


def test_mlcm_classification_report_heydarian_table_12_dict():
    """Heydarian et al. (2022), Table 12, as a dict of Python floats."""
    report = mlcm_classification_report(
        ECG_TRUE, ECG_PRED, output_dict=True, zero_division=0.0
    )
    precision = [0.77, 0.85, 0.83, 0.56, 0.83, 0.21, 0.79, 0.81, 0.90]
    recall = [0.72, 0.84, 0.83, 0.43, 0.73, 0.20, 0.48, 0.53, 0.83]
    f1 = [0.74, 0.85, 0.83, 0.49, 0.78, 0.20, 0.60, 0.64, 0.86]
    weight = [81, 125, 29, 21, 74, 51, 99, 79, 195]
    for k in range(9):
        row = report[str(k)]
        assert round(row["precision"], 2) == precision[k]
        assert round(row["recall"], 2) == recall[k]
        assert round(row["f1-score"], 2) == f1[k]
        assert row["weight"] == weight[k]
    assert report["micro avg"]["precision"] == pytest.approx(511 / 647)
    assert report["micro avg"]["recall"] == pytest.approx(511 / 754)
    expected_avgs = {
        "micro avg": (0.79, 0.68, 0.73),
        "macro avg": (0.73, 0.62, 0.67),
        "weighted avg": (0.79, 0.68, 0.72),
        "samples avg": (0.68, 0.68, 0.68),  # the stand-ins' accuracy
    }
    for heading, values in expected_avgs.items():
        row = report[heading]
        got = (row["precision"], row["recall"], row["f1-score"])
        assert tuple(round(v, 2) for v in got) == values
        assert row["weight"] == 754
    assert all(type(v) is float for row in report.values() for v in row.values())


# Krstinić et al. (2020), Table 1: a 4-class multi-class matrix (N = 45).
K_TABLE_1 = np.array([[8, 0, 0, 0], [4, 9, 1, 1], [3, 0, 7, 0], [1, 0, 2, 9]])


def _multiclass_from(matrix):
    rows, cols = np.nonzero(matrix)
    counts = matrix[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_krstinic_tables_1_to_3(method):
    """Krstinić et al. (2020), Tables 1-3: matrix, precision and recall matrices.

    Table 1 prints 0.80 as the recall of λ3, whose row is 3, 0, 7, 0: the
    recall is 7 / 10 = 0.70, as the paper's own Table 3 says.
    """
    y_true, y_pred = _multiclass_from(K_TABLE_1)
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method)
    assert_array_equal(cm[:4, :4], K_TABLE_1)
    assert_array_equal(cm[4], 0)
    assert_array_equal(cm[:, 4], 0)
    precision = mlcm_confusion_matrix(y_true, y_pred, method=method, normalize="pred")
    table_2 = [
        [0.5, 0, 0, 0],
        [0.25, 1, 0.1, 0.1],
        [0.19, 0, 0.7, 0],
        [0.06, 0, 0.2, 0.9],
    ]
    assert_allclose(precision[:4, :4], table_2, atol=0.005)
    assert_allclose(np.diagonal(precision)[:4], [0.50, 1.00, 0.70, 0.90])
    recall = mlcm_confusion_matrix(y_true, y_pred, method=method, normalize="true")
    table_3 = [
        [1, 0, 0, 0],
        [0.27, 0.6, 0.07, 0.07],
        [0.3, 0, 0.7, 0],
        [0.08, 0, 0.17, 0.75],
    ]
    assert_allclose(recall[:4, :4], table_3, atol=0.005)
    assert_allclose(np.diagonal(recall)[:4], [1.00, 0.60, 0.70, 0.75])


# Krstinić et al. (2020), Table 4 as written out in the papers README.
K_TRUE = np.array(
    [
        [1, 1, 0, 0],
        [0, 1, 1, 0],
        [0, 0, 0, 1],
        [1, 1, 1, 1],
        [0, 1, 1, 0],
        [0, 1, 1, 0],
        [0, 1, 0, 1],
    ]
)
K_PRED = np.array(
    [
        [1, 1, 0, 0],
        [1, 1, 1, 0],
        [1, 0, 0, 1],
        [0, 1, 1, 1],
        [0, 1, 0, 0],
        [1, 1, 0, 0],
        [1, 0, 1, 0],
    ]
)
F = Fraction
K_TABLE_5 = [
    [F(1), F(1, 3), F(1, 3), F(1, 3)],
    [F(5, 6), F(14, 3), F(1, 2), F(0)],
    [F(4, 3), F(1), F(5, 3), F(0)],
    [F(1), F(0), F(1, 2), F(3, 2)],
]


def test_mlcm_confusion_matrix_krstinic_table_5():
    """Krstinić et al. (2020), Table 5: the raw fractional matrix, exactly."""
    cm = mlcm_confusion_matrix(K_TRUE, K_PRED, method="krstinic")
    assert cm.dtype == np.float64
    assert_allclose(cm[:4, :4], np.array(K_TABLE_5, dtype=float), rtol=1e-12)
    assert_array_equal(cm[4], 0)
    assert_array_equal(cm[:, 4], 0)
    # Every true label's row sums to its support (Section 3.2).
    assert_allclose(cm.sum(axis=1)[:4], K_TRUE.sum(axis=0))
    # Table 5's margins: precision (last row) and recall (last column).
    stats = confusion_matrix_statistics(cm[:4, :4])
    assert_allclose(stats["precision"], [0.24, 0.78, 0.56, 0.82], atol=0.005)
    assert_allclose(stats["recall"], [0.50, 0.78, 0.42, 0.50], atol=0.005)


def test_mlcm_confusion_matrix_krstinic_tables_6_and_7():
    """Krstinić et al. (2020), Tables 6 and 7: precision and recall matrices."""
    precision = mlcm_confusion_matrix(
        K_TRUE, K_PRED, method="krstinic", normalize="pred"
    )
    table_6 = [
        [0.24, 0.06, 0.11, 0.18],
        [0.20, 0.78, 0.17, 0],
        [0.32, 0.17, 0.56, 0],
        [0.24, 0, 0.17, 0.82],
    ]
    assert_allclose(precision[:4, :4], table_6, atol=0.005)
    recall = mlcm_confusion_matrix(K_TRUE, K_PRED, method="krstinic", normalize="true")
    table_7 = [
        [0.50, 0.17, 0.17, 0.17],
        [0.14, 0.78, 0.08, 0],
        [0.33, 0.25, 0.42, 0],
        [0.33, 0, 0.17, 0.50],
    ]
    assert_allclose(recall[:4, :4], table_7, atol=0.005)


# Kandza-Tadi (2020): the Cat/Fish/Hen example.
CAT, FISH, HEN = "Cat", "Fish", "Hen"
KT_TRUE = [CAT] * 6 + [FISH] * 10 + [HEN] * 9
KT_PRED = (
    [CAT] * 4 + [HEN, FISH] + [CAT] * 6 + [HEN] * 2 + [FISH] * 2 + [CAT] * 3 + [HEN] * 6
)


def test_confusion_matrix_statistics_kandza_tadi_cat_fish_hen():
    """Kandza-Tadi (2020): precision, recall, specificity, F1, accuracies."""
    cm = confusion_matrix(KT_TRUE, KT_PRED)
    assert_array_equal(cm, [[4, 1, 1], [6, 2, 2], [3, 0, 6]])
    stats = confusion_matrix_statistics(cm)
    assert_allclose(stats["precision"], [0.308, 0.667, 0.667], atol=5e-4)
    assert_allclose(stats["recall"], [0.667, 0.200, 0.667], atol=5e-4)
    assert_allclose(stats["specificity"], [10 / 19, 14 / 15, 0.8125])
    assert_allclose(stats["fbeta"], [0.421, 0.308, 0.667], atol=5e-4)
    assert_allclose(stats["accuracy"], [0.56, 0.64, 0.76])
    assert stats["overall_accuracy"] == pytest.approx(0.48)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_confusion_matrix_statistics_kandza_tadi_through_mlcm(method):
    """Kandza-Tadi (2020): the same numbers from the MLCM of the 1-D labels."""
    cm = mlcm_confusion_matrix(KT_TRUE, KT_PRED, method=method)
    assert_array_equal(cm[:3, :3], [[4, 1, 1], [6, 2, 2], [3, 0, 6]])
    stats = confusion_matrix_statistics(cm, zero_division=np.nan)
    assert_allclose(stats["precision"][:3], [0.308, 0.667, 0.667], atol=5e-4)
    assert_allclose(stats["specificity"][:3], [10 / 19, 14 / 15, 0.8125])
    assert_allclose(stats["accuracy"][:3], [0.56, 0.64, 0.76])
