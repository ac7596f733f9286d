"""confusion_matrix_statistics: formulas, zero division, conventions."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import fbeta_score, precision_recall_fscore_support

from sklearn_mlcm import (
    confusion_matrix_statistics,
    mlcm_confusion_matrix,
    mlcm_fbeta_score,
    mlcm_recall_score,
)
from sklearn_mlcm._statistics import STATISTICS

CM = np.array([[4, 1, 1], [6, 2, 2], [3, 0, 6]])

KEYS = {
    "tp",
    "fp",
    "fn",
    "tn",
    "precision",
    "recall",
    "specificity",
    "fbeta",
    "accuracy",
    "row_sum",
    "column_sum",
    "overall_accuracy",
    *STATISTICS,
}


def test_confusion_matrix_statistics_keys_and_types():
    """The documented keys, shapes and dtypes."""
    stats = confusion_matrix_statistics(CM)
    assert set(stats) == KEYS
    for key in ("tp", "fp", "fn", "tn", "row_sum", "column_sum"):
        assert stats[key].dtype == np.int64
        assert stats[key].shape == (3,)
    for key in STATISTICS:
        assert stats[key].dtype == np.float64
        assert stats[key].shape == (3,)
    assert type(stats["overall_accuracy"]) is float


def test_confusion_matrix_statistics_counts():
    """TP, FP, FN and complement TN by hand for the Cat/Fish/Hen matrix."""
    stats = confusion_matrix_statistics(CM)
    assert_array_equal(stats["tp"], [4, 2, 6])
    assert_array_equal(stats["fp"], [9, 1, 3])
    assert_array_equal(stats["fn"], [2, 8, 3])
    assert_array_equal(stats["tn"], [10, 14, 13])
    assert_array_equal(stats["row_sum"], [6, 10, 9])
    assert_array_equal(stats["column_sum"], [13, 3, 9])


def test_confusion_matrix_statistics_tn_diagonal():
    """tn='diagonal' is the trace minus the class's own diagonal cell."""
    stats = confusion_matrix_statistics(CM, tn="diagonal")
    assert_array_equal(stats["tn"], [8, 10, 6])
    assert_allclose(stats["specificity"], [8 / 17, 10 / 11, 6 / 9])


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 2.0, 3.7])
def test_confusion_matrix_statistics_fbeta_matches_sklearn(beta):
    """F-beta equals scikit-learn's for every beta (not Kandza-Tadi's (1+b))."""
    y_true = np.repeat([0, 0, 0, 1, 1, 1, 2, 2, 2], CM.ravel())
    y_pred = np.repeat([0, 1, 2, 0, 1, 2, 0, 1, 2], CM.ravel())
    stats = confusion_matrix_statistics(CM, beta=beta)
    expected = fbeta_score(y_true, y_pred, beta=beta, average=None)
    assert_allclose(stats["fbeta"], expected)
    p, r, _, _ = precision_recall_fscore_support(y_true, y_pred)
    assert_allclose(stats["precision"], p)
    assert_allclose(stats["recall"], r)


def test_confusion_matrix_statistics_fractional_matrix():
    """A fractional matrix gives float counts and consistent rates."""
    cm = np.array([[1.5, 0.5], [0.25, 0.75]])
    stats = confusion_matrix_statistics(cm)
    assert stats["tp"].dtype == np.float64
    assert_allclose(stats["precision"], [1.5 / 1.75, 0.75 / 1.25])
    assert_allclose(stats["recall"], [0.75, 0.75])
    assert stats["overall_accuracy"] == pytest.approx(2.25 / 3)


def test_confusion_matrix_statistics_zero_division_warns():
    """An empty class warns with UndefinedMetricWarning and gives 0.0."""
    cm = [[3, 0], [0, 0]]
    with pytest.warns(UndefinedMetricWarning) as record:
        stats = confusion_matrix_statistics(cm)
    messages = sorted(str(w.message).split(" is ill-defined")[0] for w in record)
    assert messages == ["F-score", "Precision", "Recall", "Specificity"]
    assert_array_equal(stats["precision"], [1.0, 0.0])
    assert_array_equal(stats["recall"], [1.0, 0.0])
    assert_array_equal(stats["fbeta"], [1.0, 0.0])


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_confusion_matrix_statistics_zero_division_value(value):
    """zero_division=0 or 1 fills undefined ratios silently."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stats = confusion_matrix_statistics([[3, 0], [0, 0]], zero_division=value)
    assert stats["precision"][1] == value
    assert stats["recall"][1] == value
    assert stats["specificity"][0] == value  # TN + FP = 0 for class 0


def test_confusion_matrix_statistics_zero_division_nan():
    """zero_division=np.nan gives NaN where undefined and numbers elsewhere."""
    stats = confusion_matrix_statistics([[3, 0], [0, 0]], zero_division=np.nan)
    assert np.isnan(stats["precision"][1])
    assert stats["precision"][0] == 1.0


def test_confusion_matrix_statistics_all_zero_matrix():
    """An all-zero matrix has an undefined overall accuracy."""
    stats = confusion_matrix_statistics(np.zeros((2, 2)), zero_division=1.0)
    assert stats["overall_accuracy"] == 1.0


def test_confusion_matrix_statistics_bool_and_sparse_input():
    """Bool and sparse matrices are accepted as counts."""
    stats = confusion_matrix_statistics(sparse.csr_matrix(CM))
    assert_array_equal(stats["tp"], [4, 2, 6])
    stats = confusion_matrix_statistics(np.eye(2, dtype=bool))
    assert_array_equal(stats["tp"], [1, 1])


def test_confusion_matrix_statistics_complement_tn_never_negative():
    """Rounding never makes a complement TN negative (or specificity 1 from 0/0)."""
    cm = [[0, 0, 0], [0.1, 0.1, 0.6], [0, 0, 0]]
    with pytest.warns(UndefinedMetricWarning) as record:
        stats = confusion_matrix_statistics(cm)
    assert any("Specificity is ill-defined" in str(w.message) for w in record)
    assert stats["tn"][1] == 0.0
    assert stats["specificity"][1] == 0.0
    assert (stats["tn"] >= 0).all()


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float16, np.float32])
def test_confusion_matrix_statistics_upcasts_small_dtypes(dtype):
    """Counts come back as int64 or float64, without overflow."""
    cm = np.full((3, 3), 100, dtype=dtype)
    stats = confusion_matrix_statistics(cm)
    expected = np.float64 if np.dtype(dtype).kind == "f" else np.int64
    for key in ("tp", "fp", "fn", "tn", "row_sum"):
        assert stats[key].dtype == expected
    assert_array_equal(stats["tn"], [400, 400, 400])
    assert stats["overall_accuracy"] == pytest.approx(1 / 3)


def test_confusion_matrix_statistics_sparse_duplicates_and_huge_uint64():
    """Sparse duplicates are summed first; uint64 past int64 is refused."""
    cm = sparse.coo_array(([-1.0, 2.0, 3.0], ([0, 0, 1], [0, 0, 1])), shape=(2, 2))
    stats = confusion_matrix_statistics(cm)
    assert_array_equal(stats["tp"], [1.0, 3.0])
    with pytest.raises(ValueError, match="too large for int64"):
        confusion_matrix_statistics(np.array([[2**63 + 5]], dtype=np.uint64))


def test_fbeta_huge_beta_tends_to_recall():
    """beta * beta overflowing float64 gives the recall, not NaN."""
    cm = [[3, 1, 0], [2, 5, 1], [0, 1, 2]]
    stats = confusion_matrix_statistics(cm, beta=1e160)
    assert_allclose(stats["fbeta"], stats["recall"], rtol=1e-12)
    assert_allclose(
        mlcm_fbeta_score(TABLE_1_TRUE, TABLE_1_PRED, beta=1e300, average=None),
        mlcm_recall_score(TABLE_1_TRUE, TABLE_1_PRED, average=None),
        rtol=1e-12,
    )


def test_confusion_matrix_statistics_int64_overflow_refused():
    """Counts whose sums pass int64 are refused instead of wrapping negative."""
    with pytest.raises(ValueError, match="does not fit in int64"):
        confusion_matrix_statistics(np.full((3, 3), 2**62))
    stats = confusion_matrix_statistics(np.full((3, 3), 2**59))  # 9 * 2**59 fits
    assert (stats["fp"] == 2 * 2**59).all()


def test_confusion_matrix_statistics_huge_whole_float_counts_exact():
    """Whole-number float counts near 1e17 lose no cell in TN = total - ..."""
    cm = np.array([[1e17, 0.0], [0.0, 1.0]])
    stats = confusion_matrix_statistics(cm, zero_division=np.nan)
    assert_array_equal(stats["tn"], [1.0, 1e17])
    assert_array_equal(stats["specificity"], [1.0, 1.0])


def test_sparse_duplicates_are_summed_without_wrapping():
    """uint8 255 + 2 is 257, refused; a -1 entry cannot cancel a 1."""
    y = sparse.coo_array(
        (np.array([255, 2], dtype=np.uint8), ([0, 0], [0, 0])), shape=(1, 2)
    )
    with pytest.raises(ValueError, match="found 257"):
        mlcm_confusion_matrix(y, np.zeros((1, 2)))
    y = sparse.coo_array((np.array([1, -1]), ([0, 0], [0, 0])), shape=(1, 2))
    with pytest.raises(ValueError, match=r"negative stored entry \(-1\)"):
        mlcm_confusion_matrix(np.zeros((1, 2)), y)
    cm = sparse.coo_array(
        (np.array([255, 2], dtype=np.uint8), ([0, 0], [0, 0])), shape=(2, 2)
    )
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):  # label 1 empty
        stats = confusion_matrix_statistics(cm)
    assert_array_equal(stats["tp"], [257, 0])


def test_confusion_matrix_statistics_is_a_bunch():
    """The result is a dict whose keys are also attributes (sklearn's Bunch)."""
    from sklearn.utils import Bunch

    stats = confusion_matrix_statistics([[4, 1, 1], [6, 2, 2], [3, 0, 6]])
    assert isinstance(stats, Bunch) and isinstance(stats, dict)
    assert stats.precision is stats["precision"]
    assert stats.overall_accuracy == 0.48


def test_confusion_matrix_statistics_overflowing_total_is_refused():
    """Cells whose total overflows float64 are refused with a way out (their
    TN and sums would be infinite, every ratio wrong); near the limit the
    ratios are those of the matrix scaled down (#16 item 3)."""
    from sklearn_mlcm import InvalidInputError

    with pytest.raises(InvalidInputError, match="'cm' parameter .* divide the matrix"):
        confusion_matrix_statistics([[1e308, 1e308], [0.0, 1e308]])
    big = confusion_matrix_statistics(np.array([[4.0, 1.0], [2.0, 3.0]]) * 1e307)
    small = confusion_matrix_statistics([[4, 1], [2, 3]])
    for key in ("precision", "recall", "specificity", "fbeta", "accuracy"):
        assert_allclose(big[key], small[key], rtol=1e-12)
