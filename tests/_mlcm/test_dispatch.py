"""Dispatch: the sparse kernels against the oracles, sparse and dense output."""

import numpy as np
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse

import sklearn_mlcm._mlcm._dispatch as dispatch_module
from sklearn_mlcm import (
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
    monkeypatch.setattr(dispatch_module, "MAX_DENSE_BYTES", 100)
    y = sparse.csr_array(np.eye(5, dtype=bool))
    with pytest.raises(ValueError, match=r"6 x 6 matrix.*Pass sparse_output=True"):
        mlcm_confusion_matrix(y, y)
    assert sparse.issparse(mlcm_confusion_matrix(y, y, sparse_output=True))


def test_mlcm_confusion_matrix_bad_sparse_output_and_compute():
    """sparse_output and compute must be bools."""
    with pytest.raises(TypeError, match="'sparse_output' .*a bool. Got 'yes'"):
        mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, sparse_output="yes")
    with pytest.raises(TypeError, match="'compute' .*a bool. Got None"):
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


def test_mlcm_confusion_matrix_agrees_with_mlcm_fixed():
    """The independent package mlcm-fixed (MIT), when installed, agrees."""
    mlcm_fixed = pytest.importorskip("mlcm_fixed")
    rng = np.random.default_rng(3)
    y_true = (rng.random((300, 6)) < 0.3).astype(int)
    y_pred = (rng.random((300, 6)) < 0.3).astype(int)
    expected, _ = mlcm_fixed.cm(y_true, y_pred)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)

