"""torch tensors under array_api_dispatch: results in torch, on the tensors' device.

Each public name that takes targets or scores, on CPU tensors, through both
paths: NumPy's code on the tensors' memory (the shipped path on the CPU),
and the namespace's products and comparisons that a GPU runs (forced on the
CPU by the ``path`` fixture).
"""

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import (
    MLCMAccumulator,
    MLCMReport,
    confusion_matrix_statistics,
    decide_labels,
    labelset_confusions,
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_paired_comparison,
    mlcm_precision_recall_fscore_support,
    mlcm_threshold_curve,
    most_confused,
    multilabel_measures,
)
from sklearn_mlcm._thresholds import _validation as _scores_validation
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
    namespace's matrix products and comparisons that a GPU runs (forced on
    the CPU)."""
    if request.param == "products":
        for module in (_array_api, _scores_validation):
            monkeypatch.setattr(module, "host_view", lambda y, xp: None)
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


def random_scores(n=300, q=5, seed=1):
    rng = np.random.default_rng(seed)
    y_true = rng.random((n, q)) < 0.3
    y_score = np.round(0.5 * y_true + 0.5 * rng.random((n, q)), 2)
    return y_true, y_score


@pytest.mark.usefixtures("dispatch", "path")
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_decide_labels_torch(dtype):
    """Decisions of tensors are NumPy's, as an int64 tensor."""
    _, y_score = random_scores()
    scores = torch.from_numpy(y_score).to(dtype)
    expected_scores = scores.numpy()
    for options in (
        {"threshold": 0.5},
        {"threshold": 0.3, "top_k": 2, "at_least_one": True},
        {"threshold": None, "top_k": 1},
    ):
        got = decide_labels(scores, **options)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.int64
        assert_array_equal(got.numpy(), decide_labels(expected_scores, **options))


@pytest.mark.usefixtures("dispatch", "path")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("weighted", [False, True])
def test_mlcm_threshold_curve_torch(method, weighted):
    """The curve of tensors is NumPy's: exactly for whole-number sums, to
    1e-12 for Krstinić's fractions; with the one-vs-rest scores."""
    y_true, y_score = random_scores()
    weight = np.arange(300) % 4 * 1.0 if weighted else None
    options = {"method": method, "one_vs_rest": True, "thresholds": 21}
    got = mlcm_threshold_curve(
        torch.from_numpy(y_true),
        torch.from_numpy(y_score),
        sample_weight=None if weight is None else torch.from_numpy(weight),
        **options,
    )
    expected = mlcm_threshold_curve(y_true, y_score, sample_weight=weight, **options)
    for name in ("thresholds", "scores", "label_scores", "ovr_label_scores"):
        assert_allclose(
            getattr(got, name), getattr(expected, name), rtol=1e-12, atol=1e-12
        )
    if method == "heydarian":
        assert_array_equal(got.label_scores, expected.label_scores)


@pytest.mark.usefixtures("dispatch", "path")
def test_labelset_confusions_and_report_torch():
    """Label-set confusions and the report with scores: NumPy's."""
    y_true, y_score = random_scores()
    y_pred = y_score > 0.5
    t, p, s = (torch.from_numpy(a) for a in (y_true, y_pred, y_score))
    weight = np.arange(300) % 3 * 1.0
    got = labelset_confusions(t, p, sample_weight=torch.from_numpy(weight))
    assert got == labelset_confusions(y_true, y_pred, sample_weight=weight)
    options = {"thresholds": 11, "zero_division": 0.0}
    report = MLCMReport.from_predictions(t, p, y_score=s, **options)
    expected = MLCMReport.from_predictions(y_true, y_pred, y_score=y_score, **options)
    assert repr(report) == repr(expected)
    assert report.labelset_confusions == expected.labelset_confusions
    assert_array_equal(
        report.threshold_curve.label_scores, expected.threshold_curve.label_scores
    )


@pytest.mark.usefixtures("dispatch", "path")
def test_mlcm_accumulator_torch():
    """Tensor batches accumulate the NumPy matrix, returned as a tensor."""
    y_true, y_pred, _ = random_targets()
    acc = MLCMAccumulator(5)
    for start in range(0, 300, 64):
        rows = slice(start, start + 64)
        acc.update(torch.from_numpy(y_true[rows]), torch.from_numpy(y_pred[rows]))
    matrix = acc.confusion_matrix
    assert isinstance(matrix, torch.Tensor) and matrix.dtype == torch.int64
    assert_array_equal(matrix.numpy(), mlcm_confusion_matrix(y_true, y_pred))
    stats = confusion_matrix_statistics(matrix, zero_division=0.0)
    assert isinstance(stats["precision"], torch.Tensor)
    assert most_confused(matrix) == most_confused(matrix.numpy())


@pytest.mark.usefixtures("dispatch", "path")
@pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_intervals_comparison_and_measures_torch():
    """The names that resample on the host give NumPy's numbers."""
    t, p = torch.tensor(TABLE_1_TRUE), torch.tensor(TABLE_1_PRED)
    options = {"n_resamples": 99, "random_state": 0, "zero_division": 0.0}
    got = mlcm_confidence_intervals(t, p, **options)
    expected = mlcm_confidence_intervals(TABLE_1_TRUE, TABLE_1_PRED, **options)
    assert repr(got) == repr(expected)
    other = np.roll(np.asarray(TABLE_1_PRED), 1, axis=0)
    got = mlcm_paired_comparison(t, p, torch.from_numpy(other), **options)
    expected = mlcm_paired_comparison(TABLE_1_TRUE, TABLE_1_PRED, other, **options)
    assert repr(got) == repr(expected)
    assert multilabel_measures(t, p, zero_division=0.0, measures=["f1"]) == (
        multilabel_measures(
            TABLE_1_TRUE, TABLE_1_PRED, zero_division=0.0, measures=["f1"]
        )
    )


def test_decide_labels_and_curve_torch_without_dispatch():
    """Without dispatch, CPU tensors are read as today: NumPy results."""
    y_true, y_score = random_scores()
    got = decide_labels(torch.from_numpy(y_score))
    assert isinstance(got, np.ndarray)
    assert_array_equal(got, decide_labels(y_score))
    curve = mlcm_threshold_curve(torch.from_numpy(y_true), torch.from_numpy(y_score))
    assert_array_equal(curve.scores, mlcm_threshold_curve(y_true, y_score).scores)
    acc = MLCMAccumulator(5).update(torch.from_numpy(y_true), torch.from_numpy(y_true))
    assert isinstance(acc.confusion_matrix, np.ndarray)


@pytest.mark.usefixtures("dispatch")
def test_torch_array_api_refusals():
    """Sparse tensors of scores or matrices, scores and targets of two
    namespaces, and accumulator batches of two namespaces are refused."""
    xps = pytest.importorskip("array_api_strict")
    y_true, y_score = random_scores()
    scores = torch.from_numpy(y_score)
    with pytest.raises(ValueError, match="y_score of decide_labels must be dense"):
        decide_labels(scores.to_sparse())
    with pytest.raises(
        ValueError,
        match="y_true and y_score of mlcm_threshold_curve must be dense arrays",
    ):
        mlcm_threshold_curve(torch.from_numpy(y_true), scores.to_sparse())
    with pytest.raises(
        ValueError, match="y_score of MLCMReport.from_predictions must be a dense array"
    ):
        MLCMReport.from_predictions(
            torch.from_numpy(y_true),
            torch.from_numpy(y_true),
            y_score=scores.to_sparse(),
        )
    with pytest.raises(
        ValueError, match="cm of confusion_matrix_statistics must be a dense matrix"
    ):
        confusion_matrix_statistics(torch.eye(3).to_sparse())
    with pytest.raises(
        ValueError,
        match="y_true and y_score of mlcm_threshold_curve "
        "must be arrays of one namespace.*for y_score",
    ):
        mlcm_threshold_curve(xps.asarray(y_true), scores)
    column = torch.from_numpy(np.c_[1 - y_score[:, 0], y_score[:, 0]])
    with pytest.raises(
        ValueError, match="y_score of decide_labels must hold arrays of one namespace"
    ):
        decide_labels([column, xps.asarray(column.numpy())])
    acc = MLCMAccumulator(5).update(torch.from_numpy(y_true), torch.from_numpy(y_true))
    with pytest.raises(ValueError, match="so far are arrays of array_api_compat.torch"):
        acc.update(xps.asarray(y_true), xps.asarray(y_true))
