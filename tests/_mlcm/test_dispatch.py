"""Dispatch: the sparse kernels against the oracles, sparse and dense output."""

import numpy as np
import pytest
from _oracles import assert_matches_oracle, heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse

import sklearn_mlcm._validation._matrices as validation_module
from sklearn_mlcm import (
    MLCMAccumulator,
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_multilabel_confusion_matrix,
)

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


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
    assert_matches_oracle(result.toarray(), expected, method, weight is not None)


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
    monkeypatch.setattr(validation_module, "MAX_DENSE_BYTES", 100)
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
    assert mlcm_classification_report(
        y_true, y_pred, zero_division=0.0
    ) == mlcm_classification_report(TABLE_1_TRUE, TABLE_1_PRED, zero_division=0.0)
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
    assert len(report) == q + 4


def test_mlcm_confusion_matrix_agrees_with_mlcm_fixed():
    """The independent package mlcm-fixed (MIT), when installed, agrees."""
    mlcm_fixed = pytest.importorskip("mlcm_fixed")
    rng = np.random.default_rng(3)
    y_true = (rng.random((300, 6)) < 0.3).astype(int)
    y_pred = (rng.random((300, 6)) < 0.3).astype(int)
    expected, _ = mlcm_fixed.cm(y_true, y_pred)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)


def _many_labels(n_labels, n_samples=6, seed=0):
    """Dense bool targets with few labels set among very many columns."""
    rng = np.random.default_rng(seed)
    y_true = np.zeros((n_samples, n_labels), dtype=bool)
    y_pred = np.zeros((n_samples, n_labels), dtype=bool)
    for y in (y_true, y_pred):
        y[np.arange(n_samples)[:, None], rng.integers(0, n_labels, (n_samples, 3))] = 1
    return y_true, y_pred


def test_mlcm_confusion_matrix_dense_input_many_labels_refused_before_allocation():
    """Dense input whose (q+1)^2 result passes 1 GiB is refused with the
    sparse_output hint, without allocating it; sparse_output=True counts it
    sparsely, and the report and scores read it without densifying."""
    import tracemalloc

    y_true, y_pred = _many_labels(20_000)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"20001 x 20001 matrix, 3.0 GiB.*spar"):
            mlcm_confusion_matrix(y_true, y_pred)
        cm = mlcm_confusion_matrix(y_true, y_pred, sparse_output=True)
        report = mlcm_classification_report(
            y_true, y_pred, output_dict=True, zero_division=0.0
        )
        f1 = mlcm_f1_score(y_true, y_pred, average=None, zero_division=0.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, peak  # a dense result alone would be 3 GiB
    assert sparse.issparse(cm) and cm.shape == (20_001, 20_001)
    # columns no instance uses add nothing: the used ones give the same matrix
    used = np.flatnonzero(y_true.any(axis=0) | y_pred.any(axis=0))
    index = [*used, 20_000]
    assert_array_equal(
        cm[index][:, index].toarray(),
        mlcm_confusion_matrix(y_true[:, used], y_pred[:, used]),
    )
    assert cm.sum() == cm[index][:, index].sum()
    assert len(report) == 20_000 + 4 and f1.shape == (20_000,)


def test_mlcm_accumulator_many_labels_needs_sparse_output():
    """A dense accumulator past the size limit is refused when it is made."""
    with pytest.raises(ValueError, match=r"100001 x 100001 matrix.*sparse_output"):
        MLCMAccumulator(100_000)
    y_true, y_pred = _many_labels(100_000)
    acc = MLCMAccumulator(100_000, method="krstinic", sparse_output=True)
    acc.update(y_true, y_pred)
    # Krstinic's row sums are the label supports
    assert_allclose(acc.confusion_matrix.sum(axis=1)[:-1], y_true.sum(axis=0))
