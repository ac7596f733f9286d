"""mlcm_confusion_matrix and mlcm_multilabel_confusion_matrix: behaviour."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.metrics import confusion_matrix

from sklearn_mlcm import mlcm_confusion_matrix, mlcm_multilabel_confusion_matrix

Y_TRUE = np.array([[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0]])
Y_PRED = np.array([[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [0, 1, 1]])


def test_mlcm_confusion_matrix_hand_worked():
    """A hand-worked example covering categories 1, 2 and 3."""
    # 1: TP 0, 1.  2: TP 0, 2; 1 -> NPL.  3: corner.
    # 4: TP 0; 0 -> 1, 0 -> 2.  5: TP 1; 0 -> 2 (T2 = {0}, P2 = {2}).
    expected = [[3, 1, 2, 0], [0, 2, 0, 1], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert_array_equal(mlcm_confusion_matrix(Y_TRUE, Y_PRED), expected)


def test_mlcm_confusion_matrix_krstinic_hand_worked():
    """The same instances with Krstinić's fractions, worked by hand."""
    # 2: (iii) Y-Z = {1} over Z = {0, 2}: 1 -> 0 and 1 -> 2 get 1/2 each.
    # 4: (ii) |Y|/|Z| = 1/3 on the diagonal, 0 -> 1 and 0 -> 2 get 1/3.
    # 5: (iv) 0 -> 2 gets 1; TP 1.
    third = 1 / 3
    expected = [
        [2 + third, third, 1 + third, 0],
        [0.5, 2, 0.5, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
    ]
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED, method="krstinic")
    assert_allclose(cm, expected)


@pytest.mark.parametrize("normalize, axis", [("true", 1), ("pred", 0)])
def test_mlcm_confusion_matrix_normalize_rows_and_columns(normalize, axis):
    """normalize='true'/'pred' divides by row/column sums; zero lines stay zero."""
    y_true = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 0], [0, 1, 0]])
    raw = mlcm_confusion_matrix(y_true, y_pred)
    normalized = mlcm_confusion_matrix(y_true, y_pred, normalize=normalize)
    assert normalized.dtype == np.float64
    sums = raw.sum(axis=axis)
    expected_sums = (sums > 0).astype(float)
    assert_allclose(normalized.sum(axis=axis), expected_sums)
    assert_array_equal(normalized[raw == 0], 0)
    if normalize == "true":
        assert_allclose(normalized[0], [0.5, 0.5, 0, 0])
    else:
        assert_allclose(normalized[:, 1], [0.5, 0.5, 0, 0])


def test_mlcm_confusion_matrix_normalize_all():
    """normalize='all' divides by the grand total."""
    raw = mlcm_confusion_matrix(Y_TRUE, Y_PRED)
    normalized = mlcm_confusion_matrix(Y_TRUE, Y_PRED, normalize="all")
    assert_allclose(normalized, raw / raw.sum())


def test_mlcm_confusion_matrix_normalize_all_zero_weights():
    """With all-zero weights the normalised matrix is zero, not NaN."""
    normalized = mlcm_confusion_matrix(
        Y_TRUE, Y_PRED, sample_weight=np.zeros(5), normalize="all"
    )
    assert_array_equal(normalized, 0)


def test_mlcm_confusion_matrix_dtypes():
    """int64 counts without weights, float64 with weights or for krstinic."""
    assert mlcm_confusion_matrix(Y_TRUE, Y_PRED).dtype == np.int64
    weighted = mlcm_confusion_matrix(Y_TRUE, Y_PRED, sample_weight=np.ones(5))
    assert weighted.dtype == np.float64
    assert mlcm_confusion_matrix(Y_TRUE, Y_PRED, method="krstinic").dtype == float


def test_mlcm_confusion_matrix_weights_scale_instances():
    """A weight of 2.5 on one instance scales exactly its contribution."""
    weight = np.array([1, 1, 1, 2.5, 1])
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED, sample_weight=weight)
    base = mlcm_confusion_matrix(Y_TRUE, Y_PRED)
    only_4 = mlcm_confusion_matrix(Y_TRUE[[3]], Y_PRED[[3]])
    assert_allclose(cm, base + 1.5 * only_4)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_labels_restrict_label_space(method):
    """labels keeps columns in order; the matrix is that of the restricted data."""
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED, method=method, labels=[2, 0])
    expected = mlcm_confusion_matrix(
        Y_TRUE[:, [2, 0]], Y_PRED[:, [2, 0]], method=method
    )
    assert_array_equal(cm, expected)
    assert cm.shape == (3, 3)


def test_mlcm_confusion_matrix_labels_dataframe_names():
    """labels may name DataFrame columns."""
    pd = pytest.importorskip("pandas")
    df_true = pd.DataFrame(Y_TRUE, columns=["a", "b", "c"])
    df_pred = pd.DataFrame(Y_PRED, columns=["a", "b", "c"])
    cm = mlcm_confusion_matrix(df_true, df_pred, labels=["c", "a"])
    assert_array_equal(cm, mlcm_confusion_matrix(Y_TRUE, Y_PRED, labels=[2, 0]))


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_multiclass_is_sklearn(method):
    """1-D targets give scikit-learn's confusion_matrix in the top-left block."""
    rng = np.random.default_rng(0)
    y_true = rng.choice(["ant", "bee", "cat", "dog"], size=200)
    y_pred = rng.choice(["ant", "bee", "cat", "dog"], size=200)
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method)
    assert_array_equal(cm[:4, :4], confusion_matrix(y_true, y_pred))
    assert_array_equal(cm[4], 0)
    assert_array_equal(cm[:, 4], 0)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_multiclass_labels_subset(method):
    """With labels, the top-left block is confusion_matrix(labels=...), and the
    instances outside the label space land in the NTL row / NPL column."""
    y_true = [0, 1, 2, 2, 1, 0, 2]
    y_pred = [0, 2, 2, 1, 1, 1, 0]
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method, labels=[2, 0])
    assert_array_equal(cm[:2, :2], confusion_matrix(y_true, y_pred, labels=[2, 0]))
    # true 2 -> pred 1 (outside): NPL; true 1 -> pred 2 or 0: NTL row.
    assert_array_equal(cm[:2, 2], [1, 1])
    assert_array_equal(cm[2, :2], [1, 0])
    assert cm[2, 2] == 1  # true 1 -> pred 1: both empty in the restricted space
    assert cm.sum() == len(y_true)


def test_mlcm_confusion_matrix_binary_1d():
    """1-D binary targets are two classes, as in scikit-learn."""
    y_true = [0, 1, 1, 0, 1]
    y_pred = [0, 1, 0, 0, 1]
    cm = mlcm_confusion_matrix(y_true, y_pred)
    assert_array_equal(cm[:2, :2], confusion_matrix(y_true, y_pred))
    assert cm.shape == (3, 3)


def test_mlcm_confusion_matrix_one_label_column():
    """q = 1: a (2, 2) matrix of TP, misses, false alarms and empty-empty."""
    y_true = np.array([[1], [1], [0], [0], [0]])
    y_pred = np.array([[1], [0], [1], [0], [0]])
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), [[1, 1], [1, 2]])


def test_mlcm_confusion_matrix_sparse_matches_dense():
    """CSR and CSC input give the dense result."""
    rng = np.random.default_rng(1)
    y_true = (rng.random((300, 7)) < 0.3).astype(int)
    y_pred = (rng.random((300, 7)) < 0.3).astype(int)
    dense = mlcm_confusion_matrix(y_true, y_pred)
    for fmt in (sparse.csr_matrix, sparse.csc_matrix, sparse.csr_array):
        assert_array_equal(mlcm_confusion_matrix(fmt(y_true), fmt(y_pred)), dense)


def test_mlcm_confusion_matrix_spans_several_blocks():
    """Inputs longer than one kernel block give the sum of their halves."""
    rng = np.random.default_rng(2)
    n = 3 * (1 << 16) + 17
    y_true = rng.random((n, 3)) < 0.4
    y_pred = rng.random((n, 3)) < 0.4
    half = n // 2
    for method in ("heydarian", "krstinic"):
        whole = mlcm_confusion_matrix(y_true, y_pred, method=method)
        parts = mlcm_confusion_matrix(
            y_true[:half], y_pred[:half], method=method
        ) + mlcm_confusion_matrix(y_true[half:], y_pred[half:], method=method)
        assert_allclose(whole, parts, rtol=1e-12)
    assert mlcm_confusion_matrix(y_true, y_pred).dtype == np.int64


def test_mlcm_multilabel_confusion_matrix_tn_complement():
    """tn='complement' counts every cell outside row k and column k."""
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED)
    mcm = mlcm_multilabel_confusion_matrix(Y_TRUE, Y_PRED, tn="complement")
    for k in range(4):
        outside = np.delete(np.delete(cm, k, axis=0), k, axis=1).sum()
        assert mcm[k, 0, 0] == outside
    assert_array_equal(mcm[:, 1, 1], np.diagonal(cm))


def test_mlcm_multilabel_confusion_matrix_labels_and_weights():
    """labels and sample_weight pass through to the 2-D matrix."""
    weight = [1, 2, 1, 1, 3]
    mcm = mlcm_multilabel_confusion_matrix(
        Y_TRUE, Y_PRED, labels=[1, 2], sample_weight=weight
    )
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED, labels=[1, 2], sample_weight=weight)
    assert mcm.shape == (3, 2, 2)
    assert mcm.dtype == np.float64
    assert_allclose(mcm[:, 1, 1], np.diagonal(cm))
    assert_allclose(mcm[:, 0, 1], cm.sum(axis=0) - np.diagonal(cm))


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_labels_none_occur(method):
    """Labels of which none occurs give the MLCM of that label space: every
    instance in the NTL/NPL corner (#24 defect 6: they were refused; the
    scores are read off this matrix). scikit-learn's confusion_matrix refuses
    labels none of which is in y_true (from_sklearn.rst lists it)."""
    y_true, y_pred = [0, 1, 2, 0], [0, 2, 1, 0]
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method, labels=[5, 6])
    assert_array_equal(cm, [[0, 0, 0], [0, 0, 0], [0, 0, 4]])
    with pytest.raises(ValueError, match="At least one label specified"):
        confusion_matrix(y_true, y_pred, labels=[5, 6])
    # a label predicted but never true: scikit-learn refuses it too
    cm = mlcm_confusion_matrix([0, 0, 1], [0, 3, 1], method=method, labels=[3])
    assert_array_equal(cm, [[0, 0], [1, 2]])
    with pytest.raises(ValueError, match="At least one label specified"):
        confusion_matrix([0, 0, 1], [0, 3, 1], labels=[3])


def test_mlcm_multilabel_confusion_matrix_labels_none_occur():
    """Labels of which none occurs give scikit-learn's 2x2 matrices (all true
    negatives), and the no-label index holds every instance (#24 defect 6)."""
    from sklearn.metrics import multilabel_confusion_matrix

    y_true, y_pred = [0, 1, 2, 0], [0, 2, 1, 0]
    ours = mlcm_multilabel_confusion_matrix(y_true, y_pred, labels=[5, 6])
    theirs = multilabel_confusion_matrix(y_true, y_pred, labels=[5, 6])
    assert_array_equal(ours[:2], theirs)
    assert_array_equal(ours[2], [[0, 0], [0, 4]])
