"""MLCMMetric: the torchmetrics metric counts what mlcm_confusion_matrix counts."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J

from sklearn_mlcm import (
    MLCMReport,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)

torch = pytest.importorskip(
    "torch",
    reason="sklearn_mlcm.torch needs PyTorch: pip install 'sklearn-mlcm[torch]'",
)
pytest.importorskip(
    "torchmetrics",
    reason="sklearn_mlcm.torch needs torchmetrics: pip install 'sklearn-mlcm[torch]'",
)

from sklearn_mlcm.torch import MLCMMetric  # noqa: E402 (after the skips)

TABLE_1_SCORES = torch.tensor(
    [
        [0.9, 0.8, 0.1],
        [0.7, 0.2, 0.6],
        [0.1, 0.2, 0.3],
        [0.6, 0.9, 0.7],
        [0.8, 0.6, 0.9],
        [0.4, 0.7, 0.8],
        [0.2, 0.6, 0.9],
        [0.9, 0.1, 0.6],
        [0.3, 0.2, 0.7],
    ]
)


def _updated(metric, y_true, y_pred, weight, cuts):
    """``metric`` after one update per batch between ``cuts``."""
    bounds = [0, *cuts, len(y_true)]
    for a, b in zip(bounds, bounds[1:]):
        w = None if weight is None else torch.as_tensor(weight[a:b])
        metric.update(torch.as_tensor(y_pred[a:b]), torch.as_tensor(y_true[a:b]), w)
    return metric


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_mlcm_metric_equals_one_shot(method, data, mlcm_strategies):
    """Batches split anywhere (empty rows, weights) give the one-shot matrix
    and report: exactly for integer counts, up to rounding otherwise."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=5))
    n, q = y_true.shape
    cuts = sorted(data.draw(st.sets(st.integers(0, n), max_size=3)))
    metric = _updated(MLCMMetric(q, method=method), y_true, y_pred, weight, cuts)
    expected = mlcm_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight
    )
    actual = metric.compute()
    exact = method == "heydarian" and weight is None
    assert actual.dtype == (torch.int64 if exact else torch.float64)
    assert int(metric.n_samples) == n
    if exact:
        assert_array_equal(actual.numpy(), expected)
    else:
        assert_allclose(actual.numpy(), expected, rtol=1e-12, atol=1e-12)
    report = metric.to_report(zero_division=0.0).report
    one_shot = mlcm_classification_report(
        y_true,
        y_pred,
        method=method,
        sample_weight=weight,
        output_dict=True,
        zero_division=0.0,
    )
    assert list(report) == list(one_shot)
    for name, entry in one_shot.items():
        for key, value in entry.items():
            if exact:
                assert report[name][key] == value
            else:
                assert_allclose(report[name][key], value, rtol=1e-9, atol=1e-12)


def test_mlcm_metric_table_1_from_probabilities_logits_and_indicators():
    """Heydarian et al. (2022), Table 1: probabilities, their logits, 0/1
    integers and bools all give Table 4 (j)."""
    target = torch.tensor(TABLE_1_TRUE)
    decisions = TABLE_1_SCORES > 0.5
    assert_array_equal(decisions.int().numpy(), TABLE_1_PRED)
    logits = torch.logit(TABLE_1_SCORES)  # values outside [0, 1]: sigmoid
    for preds in (TABLE_1_SCORES, logits, decisions.int(), decisions):
        metric = MLCMMetric(num_labels=3)
        metric.update(preds, target)
        assert_array_equal(metric.compute().numpy(), TABLE_4J)


def test_mlcm_metric_threshold():
    """``threshold`` decides the labels: above it (strictly) is predicted."""
    target = torch.tensor([[1, 0], [0, 1]])
    preds = torch.tensor([[0.3, 0.2], [0.25, 0.9]])
    metric = MLCMMetric(2, threshold=0.25)
    metric.update(preds, target)
    expected = mlcm_confusion_matrix(target.numpy(), (preds > 0.25).numpy())
    assert_array_equal(metric.compute().numpy(), expected)


def test_mlcm_metric_ignore_index_leaves_out_the_whole_instance():
    """An instance with a target equal to ``ignore_index`` is left out whole
    (and counted in ``n_ignored``), with its weight."""
    target = torch.tensor([[1, 0, -1], [0, 1, 1], [1, 1, 0], [-1, -1, 0]])
    preds = torch.tensor([[1, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    weight = torch.tensor([1.0, 2.0, 3.0, 4.0])
    metric = MLCMMetric(3, ignore_index=-1)
    metric.update(preds, target, sample_weight=weight)
    kept = [1, 2]
    expected = mlcm_confusion_matrix(
        target[kept].numpy(), preds[kept].numpy(), sample_weight=weight[kept].numpy()
    )
    assert_array_equal(metric.compute().numpy(), expected)
    assert int(metric.n_ignored) == 2
    assert int(metric.n_samples) == 2
    with pytest.raises(ValueError, match=r"must hold 0 or 1\. Got the values"):
        MLCMMetric(3).update(preds, target)


def test_mlcm_metric_reset_and_forward():
    """``forward`` returns the batch's matrix and accumulates it; ``reset``
    forgets every batch."""
    target = torch.tensor(TABLE_1_TRUE)
    preds = torch.tensor(TABLE_1_PRED)
    metric = MLCMMetric(3)
    first = metric(preds[:4], target[:4])
    assert_array_equal(
        first.numpy(), mlcm_confusion_matrix(TABLE_1_TRUE[:4], TABLE_1_PRED[:4])
    )
    second = metric(preds[4:], target[4:])
    assert_array_equal(
        second.numpy(), mlcm_confusion_matrix(TABLE_1_TRUE[4:], TABLE_1_PRED[4:])
    )
    assert_array_equal(metric.compute().numpy(), TABLE_4J)
    assert metric.to_report(zero_division=0.0).n_samples == 9
    metric.reset()
    assert int(metric.n_samples) == 0
    # torchmetrics' own warning for a compute before any update
    with pytest.warns(UserWarning, match="called before the ``update`` method"):
        assert not metric.compute().any()
    with pytest.raises(ValueError, match="has counted no instance yet"):
        metric.to_report()


def test_mlcm_metric_to_report_is_the_report_of_the_predictions():
    """The report of the counted instances is MLCMReport.from_predictions's
    (matrix, report, confusions, page), without the label-set pairs."""
    metric = MLCMMetric(3, target_names=TABLE_1_NAMES)
    metric.update(TABLE_1_SCORES, torch.tensor(TABLE_1_TRUE))
    report = metric.to_report(zero_division=0.0, include_no_label=True)
    expected = MLCMReport.from_predictions(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        target_names=TABLE_1_NAMES,
        zero_division=0.0,
        include_no_label=True,
    )
    assert isinstance(report, MLCMReport)
    assert_array_equal(report.confusion_matrix, expected.confusion_matrix)
    assert report.report == expected.report
    assert report.most_confused == expected.most_confused
    assert report.labelset_confusions == []
    assert report.to_markdown() == expected.to_markdown()
    assert "C0" in report.to_html()
    renamed = metric.to_report(["a", "b", "c"], zero_division=0.0)
    assert renamed.target_names == ["a", "b", "c"]


def test_mlcm_metric_plot_follows_torchmetrics():
    """``plot()`` returns ``(fig, ax)``, the matrix drawn by MLCMDisplay;
    ``val`` draws a given matrix."""
    import matplotlib

    matplotlib.use("Agg")
    metric = MLCMMetric(3, target_names=TABLE_1_NAMES)
    metric.update(torch.tensor(TABLE_1_PRED), torch.tensor(TABLE_1_TRUE))
    fig, ax = metric.plot()
    assert ax.figure is fig
    assert_array_equal(ax.images[0].get_array(), TABLE_4J)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [*TABLE_1_NAMES, "NPL"]
    _, other = metric.plot(torch.eye(4, dtype=torch.int64))
    assert_array_equal(other.images[0].get_array(), np.eye(4))


@pytest.mark.parametrize(
    ("update", "error", "match"),
    [
        (
            lambda m: m.update([[1, 0, 0]], torch.tensor([[1, 0, 0]])),
            TypeError,
            "'preds' parameter of MLCMMetric.update must be a torch.Tensor",
        ),
        (
            lambda m: m.update(torch.ones(2, 2), torch.ones(2, 2, dtype=int)),
            ValueError,
            re.escape("must have the shape (n_samples, num_labels=3). Got shape"),
        ),
        (
            lambda m: m.update(torch.ones(2, 3), torch.ones(3, 3, dtype=int)),
            ValueError,
            "must have the same number of rows. Got 2 and 3",
        ),
        (
            lambda m: m.update(torch.ones(2, 3), torch.ones(2, 3)),
            TypeError,
            "'target' parameter .* must be an integer or bool tensor",
        ),
        (
            lambda m: m.update(
                torch.tensor([[0.2, float("nan"), 0.1]]), torch.ones(1, 3, dtype=int)
            ),
            ValueError,
            "must not hold NaN",
        ),
        (
            lambda m: m.update(torch.full((1, 3), 2), torch.ones(1, 3, dtype=int)),
            ValueError,
            r"'preds' parameter .* must hold 0 or 1 when it is an integer tensor",
        ),
        (
            lambda m: m.update(torch.ones(1, 3), torch.full((1, 3), 2)),
            ValueError,
            r"'target' parameter .* must hold 0 or 1\. Got the values \{2\}",
        ),
        (
            lambda m: m.update(
                torch.ones(2, 3), torch.ones(2, 3, dtype=int), torch.ones(3)
            ),
            ValueError,
            re.escape("'sample_weight' parameter of MLCMMetric.update must have"),
        ),
        (
            lambda m: m.update(
                torch.ones(2, 3), torch.ones(2, 3, dtype=int), torch.tensor([1, -1])
            ),
            ValueError,
            "'sample_weight' parameter of MLCMMetric.update",
        ),
    ],
)
def test_mlcm_metric_update_errors(update, error, match):
    """Bad batches are refused, naming the parameter, and change nothing."""
    metric = MLCMMetric(3)
    with pytest.raises(error, match=match):
        update(metric)
    assert int(metric.n_samples) == 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_labels": 0}, "'num_labels' parameter of MLCMMetric must be"),
        ({"num_labels": 2, "threshold": 1.5}, "'threshold' parameter"),
        ({"num_labels": 2, "method": "x"}, "'method' parameter of MLCMMetric"),
        ({"num_labels": 2, "ignore_index": 0.5}, "'ignore_index' parameter"),
        (
            {"num_labels": 2, "target_names": ["a"]},
            "one name per label: 2 expected, got 1",
        ),
    ],
)
def test_mlcm_metric_init_errors(kwargs, match):
    """Bad options are refused when the metric is built."""
    with pytest.raises(ValueError, match=match):
        MLCMMetric(**kwargs)


def test_mlcm_metric_docstring_examples():
    """The examples of sklearn_mlcm.torch run as written (the package's
    doctests leave this subpackage to this test: it needs torch)."""
    import doctest

    import sklearn_mlcm.torch._metric as module

    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0
