"""torch tensors under array_api_dispatch: results in torch, on the tensors' device."""

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_precision_recall_fscore_support,
)
from sklearn_mlcm._validation import _array_api

torch = pytest.importorskip(
    "torch", reason="the torch tests need PyTorch: pip install 'sklearn-mlcm[torch]'"
)


@pytest.fixture
def dispatch(monkeypatch):
    """scikit-learn's array_api_dispatch (which needs SCIPY_ARRAY_API=1)."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


@pytest.fixture(params=["in place", "products"])
def path(request, monkeypatch):
    """Both CPU paths: NumPy's kernels on the tensors' memory, and the
    namespace's matrix products that a GPU runs (forced on the CPU)."""
    if request.param == "products":
        monkeypatch.setattr(_array_api, "host_view", lambda y, xp: None)
    return request.param


def random_targets(n=300, q=5, seed=0):
    rng = np.random.default_rng(seed)
    y_true = rng.random((n, q)) < 0.3
    y_pred = rng.random((n, q)) < 0.3
    y_true[:10], y_pred[5:15] = False, True  # empty and full rows
    return y_true, y_pred, rng.integers(0, 4, n).astype(np.float64)


@pytest.mark.usefixtures("dispatch", "path")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [torch.bool, torch.int64, torch.float32])
def test_mlcm_confusion_matrix_torch_matches_numpy(method, weighted, dtype):
    """The matrix of CPU tensors is a tensor equal to the NumPy matrix."""
    y_true, y_pred, weight = random_targets()
    weight = weight if weighted else None
    result = mlcm_confusion_matrix(
        torch.from_numpy(y_true).to(dtype),
        torch.from_numpy(y_pred).to(dtype),
        method=method,
        sample_weight=None if weight is None else torch.from_numpy(weight),
    )
    expected = mlcm_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight
    )
    assert isinstance(result, torch.Tensor)
    assert result.device.type == "cpu"
    assert str(result.dtype) == f"torch.{expected.dtype}"
    assert_allclose(result.numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.usefixtures("dispatch", "path")
def test_mlcm_precision_recall_fscore_support_torch():
    """Per-label scores are tensors, averages Python floats, both NumPy's values."""
    y_true, y_pred, _ = random_targets()
    t, p = torch.from_numpy(y_true), torch.from_numpy(y_pred)
    got = mlcm_precision_recall_fscore_support(t, p, zero_division=0.0)
    expected = mlcm_precision_recall_fscore_support(y_true, y_pred, zero_division=0.0)
    for value, want in zip(got, expected):
        assert isinstance(value, torch.Tensor)
        assert_allclose(value.numpy(), want, rtol=1e-12)
    for average in ("macro", "samples"):
        value = mlcm_f1_score(t, p, average=average, zero_division=0.0)
        assert type(value) is float
        assert value == pytest.approx(
            mlcm_f1_score(y_true, y_pred, average=average, zero_division=0.0),
            rel=1e-12,
        )


@pytest.mark.usefixtures("dispatch", "path")
def test_mlcm_classification_report_torch():
    """The report of tensors is the NumPy report."""
    t, p = torch.tensor(TABLE_1_TRUE), torch.tensor(TABLE_1_PRED)
    got = mlcm_classification_report(t, p, zero_division=0.0)
    assert got == mlcm_classification_report(
        TABLE_1_TRUE, TABLE_1_PRED, zero_division=0.0
    )


def test_mlcm_confusion_matrix_torch_without_dispatch():
    """Without dispatch, a CPU tensor is read as today: a NumPy result."""
    result = mlcm_confusion_matrix(
        torch.tensor(TABLE_1_TRUE), torch.tensor(TABLE_1_PRED)
    )
    assert isinstance(result, np.ndarray)
    assert_array_equal(result, mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_torch_refuses_sparse_tensors():
    """A torch sparse tensor is refused with a hint: dense, or scipy sparse."""
    t = torch.tensor(TABLE_1_TRUE).to_sparse()
    with pytest.raises(ValueError, match="torch sparse tensor. Pass a dense tensor"):
        mlcm_confusion_matrix(t, t)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_torch_refuses_other_namespace():
    """y_true of another namespace than y_pred is refused, naming both."""
    xps = pytest.importorskip("array_api_strict")
    with pytest.raises(ValueError, match="must be arrays of one namespace"):
        mlcm_confusion_matrix(
            xps.asarray(np.asarray(TABLE_1_TRUE)), torch.tensor(TABLE_1_PRED)
        )
