"""The fast paths against the oracles: sparse kernels, sparse output, streaming."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse
from test_heydarian import heydarian_oracle
from test_krstinic import krstinic_oracle

import sklearn_mlcm._confusion as confusion_module
from sklearn_mlcm import (
    MLCMAccumulator,
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_multilabel_confusion_matrix,
)

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


def _check(result, expected, method, weighted):
    if method == "heydarian" and not weighted:
        assert result.dtype == np.int64
        assert_array_equal(result, expected)
    else:
        assert result.dtype == np.float64
        assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_sparse_kernel_matches_oracle(
    method, data, mlcm_strategies
):
    """CSR input takes the sparse kernel; sparse_output keeps it sparse."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=7))
    result = mlcm_confusion_matrix(
        sparse.csr_array(y_true),
        sparse.csr_array(y_pred),
        method=method,
        sample_weight=weight,
        sparse_output=True,
    )
    assert sparse.issparse(result) and result.format == "csr"
    expected = ORACLES[method](y_true, y_pred, weight)
    _check(result.toarray(), expected, method, weight is not None)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_accumulator_any_split_equals_one_shot(method, data, mlcm_strategies):
    """Batches split anywhere (empty ones too) add up to the oracle's matrix."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=6))
    n = len(y_true)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    acc = MLCMAccumulator(y_true.shape[1], method=method)
    for start, stop in zip([0, *cuts], [*cuts, n]):
        w = None if weight is None else weight[start:stop]
        acc.update(y_true[start:stop], y_pred[start:stop], sample_weight=w)
    assert acc.n_samples_ == n
    expected = ORACLES[method](y_true, y_pred, weight)
    _check(acc.confusion_matrix, expected, method, weight is not None)


def test_mlcm_confusion_matrix_sparse_output_from_dense():
    """sparse_output=True also works for dense input, with the same values."""
    cm = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, sparse_output=True)
    assert sparse.issparse(cm)
    assert_array_equal(cm.toarray(), TABLE_4J)
    normalized = mlcm_confusion_matrix(
        TABLE_1_TRUE, TABLE_1_PRED, sparse_output=True, normalize="true"
    )
    dense = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, normalize="true")
    assert_allclose(normalized.toarray(), dense)
    for how in ("pred", "all"):
        assert_allclose(
            mlcm_confusion_matrix(
                TABLE_1_TRUE, TABLE_1_PRED, sparse_output=True, normalize=how
            ).toarray(),
            mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, normalize=how),
        )


def test_mlcm_confusion_matrix_dense_result_too_large(monkeypatch):
    """A dense result past the size limit raises and suggests sparse_output."""
    monkeypatch.setattr(confusion_module, "MAX_DENSE_BYTES", 100)
    y = sparse.csr_array(np.eye(5, dtype=bool))
    with pytest.raises(ValueError, match=r"6 x 6 matrix.*Pass sparse_output=True"):
        mlcm_confusion_matrix(y, y)
    assert sparse.issparse(mlcm_confusion_matrix(y, y, sparse_output=True))


def test_mlcm_confusion_matrix_bad_sparse_output_and_compute():
    """sparse_output and compute must be bools."""
    with pytest.raises(TypeError, match="'sparse_output' .*True or False"):
        mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, sparse_output="yes")
    with pytest.raises(TypeError, match="'compute' .*True or False"):
        mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, compute=None)


def test_statistics_report_and_scores_from_sparse():
    """A sparse MLCM gives the same statistics; so does sparse input."""
    dense = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)
    stats_sparse = confusion_matrix_statistics(sparse.csr_array(dense))
    stats_dense = confusion_matrix_statistics(dense)
    for key, value in stats_dense.items():
        assert_allclose(stats_sparse[key], value)
    y_true = sparse.csr_array(np.array(TABLE_1_TRUE))
    y_pred = sparse.csr_array(np.array(TABLE_1_PRED))
    assert mlcm_classification_report(y_true, y_pred) == mlcm_classification_report(
        TABLE_1_TRUE, TABLE_1_PRED
    )
    assert mlcm_f1_score(y_true, y_pred) == mlcm_f1_score(TABLE_1_TRUE, TABLE_1_PRED)
    assert_array_equal(
        mlcm_multilabel_confusion_matrix(y_true, y_pred),
        mlcm_multilabel_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED),
    )


def test_sparse_many_labels_never_densified():
    """10**4 labels, ~5 per instance: sparse output, statistics per label."""
    rng = np.random.default_rng(0)
    n, q = 2000, 10_000
    rows = np.repeat(np.arange(n), 5)
    y_true = sparse.csr_array(
        (np.ones(n * 5, bool), (rows, rng.integers(0, q, n * 5))), shape=(n, q)
    )
    y_pred = sparse.csr_array(
        (np.ones(n * 5, bool), (rows, rng.integers(0, q, n * 5))), shape=(n, q)
    )
    cm = mlcm_confusion_matrix(y_true, y_pred, sparse_output=True)
    assert cm.shape == (q + 1, q + 1) and cm.nnz < 10 * n * 5
    tp = np.asarray(y_true.multiply(y_pred).sum(axis=0)).ravel()
    assert_array_equal(cm.diagonal()[:q], tp)
    stats = confusion_matrix_statistics(cm, zero_division=0.0)
    assert stats["precision"].shape == (q + 1,)
    mcm = mlcm_multilabel_confusion_matrix(y_true, y_pred)
    assert mcm[:, 0, 1].sum() == mcm[:, 1, 0].sum()
    report = mlcm_classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0
    )
    assert len(report) == q + 3


def test_mlcm_accumulator_merge_add_and_reset():
    """merge and + combine accumulators; reset starts over."""
    a = MLCMAccumulator(3).update(TABLE_1_TRUE[:4], TABLE_1_PRED[:4])
    b = MLCMAccumulator(3).update(TABLE_1_TRUE[4:], TABLE_1_PRED[4:])
    total = a + b
    assert_array_equal(total.confusion_matrix, TABLE_4J)
    assert total.n_samples_ == 9
    assert a.n_samples_ == 4  # + makes a new accumulator
    a.merge(b)
    assert_array_equal(a.confusion_matrix, TABLE_4J)
    a.reset()
    assert a.n_samples_ == 0 and not a.confusion_matrix.any()
    assert "MLCMAccumulator(n_labels=3, method='heydarian')" in repr(a)


def test_mlcm_accumulator_weights_sparse_and_dtype():
    """A weighted batch turns counts into float64; sparse_output stays sparse."""
    acc = MLCMAccumulator(3, sparse_output=True)
    acc.update(sparse.csr_array(np.array(TABLE_1_TRUE)), np.array(TABLE_1_PRED))
    assert sparse.issparse(acc.confusion_matrix)
    assert_array_equal(acc.confusion_matrix.toarray(), TABLE_4J)
    dense = MLCMAccumulator(3).update(TABLE_1_TRUE, TABLE_1_PRED)
    assert dense.confusion_matrix.dtype == np.int64
    dense.update(TABLE_1_TRUE, TABLE_1_PRED, sample_weight=np.full(9, 0.5))
    assert dense.confusion_matrix.dtype == np.float64
    assert_allclose(dense.confusion_matrix, 1.5 * np.array(TABLE_4J))


def test_mlcm_accumulator_errors():
    """Mismatched label counts, 1-D batches and bad arguments raise."""
    acc = MLCMAccumulator(3)
    with pytest.raises(ValueError, match="counts 3 labels, but the batch's y_true"):
        acc.update([[1, 0]], [[1, 0]])
    with pytest.raises(ValueError, match="must be 2-D indicator matrices"):
        acc.update([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="y_pred .*only 0 and 1"):
        acc.update([[1, 0, 0]], [[2, 0, 0]])
    with pytest.raises(ValueError, match="same number of label columns"):
        acc.update([[1, 0, 0]], [[1, 0]])
    with pytest.raises(TypeError, match="'n_labels' .*int >= 1. Got 2.5"):
        MLCMAccumulator(2.5)
    with pytest.raises(ValueError, match="'n_labels' .*Got 0"):
        MLCMAccumulator(0)
    with pytest.raises(ValueError, match="'method' parameter of MLCMAccumulator"):
        MLCMAccumulator(3, method="foo")
    with pytest.raises(ValueError, match="same n_labels and method"):
        acc.merge(MLCMAccumulator(4))
    with pytest.raises(TypeError, match="takes another MLCMAccumulator. Got ndarr"):
        acc.merge(np.zeros((4, 4)))
    assert acc.__add__(1) is NotImplemented


def test_mlcm_confusion_matrix_agrees_with_mlcm_fixed():
    """The independent package mlcm-fixed (MIT), when installed, agrees."""
    mlcm_fixed = pytest.importorskip("mlcm_fixed")
    rng = np.random.default_rng(3)
    y_true = (rng.random((300, 6)) < 0.3).astype(int)
    y_pred = (rng.random((300, 6)) < 0.3).astype(int)
    expected, _ = mlcm_fixed.cm(y_true, y_pred)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)
