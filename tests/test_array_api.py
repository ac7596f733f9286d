"""Array API input under array_api_dispatch, through array_api_strict.

The arrays live on array_api_strict's "device1" (tests/array_api_data.py),
which refuses every conversion to NumPy: a public function that drops its
targets to NumPy fails here. The matrices are compared with the oracles of
tests/_oracles.py and with the NumPy path, on random cases (hypothesis); the
matrix readers (statistics, confusions, display) take device matrices; and
every public name that takes targets is run on device arrays, copying its
rows to the host only where its docstring says so.
"""

import warnings

import numpy as np
import pytest
import sklearn
from _oracles import (
    assert_matches_oracle,
    heydarian_oracle,
    krstinic_oracle,
    samples_average_oracle,
)
from array_api_data import ARRAY, CPU, DEVICE, host, on_device, xps
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from public_calls import target_callables
from scipy.stats import DegenerateDataWarning
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    MLCMDisplay,
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_specificity_score,
    most_confused,
    most_confused_labels,
)
from sklearn_mlcm._validation._array_api import HostRows

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


@pytest.fixture
def dispatch(monkeypatch):
    """scikit-learn's array_api_dispatch (which needs SCIPY_ARRAY_API=1)."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


def targets(draw_n=st.integers(1, 25), draw_q=st.integers(1, 5)):
    """(y_true, y_pred, weights or None) with empty, full and mixed rows."""

    @st.composite
    def make(draw):
        n, q = draw(draw_n), draw(draw_q)
        rows = st.lists(st.booleans(), min_size=q, max_size=q)
        special = st.sampled_from([[False] * q, [True] * q])
        row = st.one_of(rows, special)
        y_true = np.array(draw(st.lists(row, min_size=n, max_size=n)), dtype=bool)
        y_pred = np.array(draw(st.lists(row, min_size=n, max_size=n)), dtype=bool)
        kind = draw(st.sampled_from(["none", "integer", "float"]))
        weight = None
        if kind == "integer":
            weight = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
        elif kind == "float":
            values = st.floats(0, 10, allow_nan=False, allow_infinity=False)
            weight = np.array(draw(st.lists(values, min_size=n, max_size=n)))
        return y_true.reshape(n, q), y_pred.reshape(n, q), weight

    return make()


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=150, deadline=None)
@given(case=targets())
def test_mlcm_confusion_matrix_array_api_matches_oracle(method, case):
    """The matrix of device arrays is the oracle's, on their device and namespace."""
    y_true, y_pred, weight = case
    result = mlcm_confusion_matrix(
        on_device(y_true), on_device(y_pred), method=method, sample_weight=weight
    )
    assert result.device == DEVICE
    assert isinstance(result, ARRAY)
    expected = ORACLES[method](y_true, y_pred, weight)
    assert_matches_oracle(host(result), expected, method, weight is not None)


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
@settings(max_examples=60, deadline=None)
@given(case=targets())
def test_mlcm_precision_recall_fscore_support_array_api_matches_numpy(average, case):
    """The scores of device arrays are NumPy's: floats, or arrays on the device."""
    y_true, y_pred, weight = case
    options = {"average": average, "sample_weight": weight, "zero_division": 0.0}
    got = mlcm_precision_recall_fscore_support(
        on_device(y_true), on_device(y_pred), **options
    )
    expected = mlcm_precision_recall_fscore_support(y_true, y_pred, **options)
    for value, want in zip(got, expected):
        if want is None:
            assert value is None
        elif average is None:
            assert value.device == DEVICE
            assert_allclose(host(value), want, rtol=1e-12, atol=1e-12)
        else:
            assert type(value) is float
            assert value == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.usefixtures("dispatch")
@settings(max_examples=60, deadline=None)
@given(case=targets())
def test_mlcm_f1_score_array_api_samples_matches_oracle(case):
    """The samples average of device arrays equals the instance-by-instance oracle."""
    y_true, y_pred, weight = case
    got = mlcm_precision_recall_fscore_support(
        on_device(y_true),
        on_device(y_pred),
        average="samples",
        sample_weight=weight,
        zero_division=0.0,
    )
    precision, recall, fbeta, _ = samples_average_oracle(
        y_true, y_pred, sample_weight=weight
    )
    want = [precision, recall, fbeta]
    want = [0.0 if np.isnan(v) else v for v in want]
    assert_allclose(got[:3], want, rtol=1e-9, atol=1e-12)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_paper_table():
    """Heydarian's Table 1 through device arrays gives Table 4 (j), as int64."""
    result = mlcm_confusion_matrix(on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED))
    assert result.dtype == xps.int64
    assert_array_equal(
        host(result), [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]
    )


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("dtype", [bool, np.int8, np.int64, np.float32, np.float64])
def test_mlcm_confusion_matrix_array_api_input_dtypes(dtype):
    """0/1 indicators of any real dtype give the same counts."""
    result = mlcm_confusion_matrix(
        on_device(TABLE_1_TRUE, dtype), on_device(TABLE_1_PRED, dtype)
    )
    assert_array_equal(host(result), mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_y_true_follows_y_pred():
    """A NumPy or list y_true is moved to the namespace and device of y_pred."""
    for y_true in (TABLE_1_TRUE, np.asarray(TABLE_1_TRUE)):
        result = mlcm_confusion_matrix(y_true, on_device(TABLE_1_PRED))
        assert result.device == DEVICE
        assert_array_equal(
            host(result), mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)
        )


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_mlcm_confusion_matrix_array_api_normalize(normalize):
    """Normalised matrices come back on the device, equal to NumPy's."""
    result = mlcm_confusion_matrix(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), normalize=normalize
    )
    assert result.device == DEVICE
    expected = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, normalize=normalize)
    assert_allclose(host(result), expected)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_labels():
    """``labels`` keeps and orders the columns on the device."""
    result = mlcm_confusion_matrix(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), labels=[2, 0]
    )
    expected = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, labels=[2, 0])
    assert_array_equal(host(result), expected)


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("tn", ["complement", "diagonal"])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_multilabel_confusion_matrix_array_api(tn, method):
    """The one-vs-rest matrices come back on the device, equal to NumPy's."""
    result = mlcm_multilabel_confusion_matrix(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), tn=tn, method=method
    )
    assert result.device == DEVICE
    expected = mlcm_multilabel_confusion_matrix(
        TABLE_1_TRUE, TABLE_1_PRED, tn=tn, method=method
    )
    assert_allclose(host(result), expected)


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "score", [mlcm_precision_score, mlcm_recall_score, mlcm_f1_score]
)
def test_mlcm_f1_score_array_api_scores(score):
    """A score of device arrays: a Python float, or per-label values there."""
    y_true, y_pred = on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED)
    value = score(y_true, y_pred, average="macro")
    assert type(value) is float
    assert value == score(TABLE_1_TRUE, TABLE_1_PRED, average="macro")
    per_label = score(y_true, y_pred, average=None)
    assert per_label.device == DEVICE
    assert_allclose(host(per_label), score(TABLE_1_TRUE, TABLE_1_PRED, average=None))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_specificity_score_array_api():
    """The specificity of device arrays equals NumPy's."""
    value = mlcm_specificity_score(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), average="macro"
    )
    assert type(value) is float
    assert value == mlcm_specificity_score(TABLE_1_TRUE, TABLE_1_PRED, average="macro")


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_classification_report_array_api_matches_numpy(method):
    """The report of device arrays is the NumPy report, text and dict."""
    y_true, y_pred = on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED)
    for output_dict in (False, True):
        got = mlcm_classification_report(
            y_true, y_pred, method=method, output_dict=output_dict, zero_division=0.0
        )
        expected = mlcm_classification_report(
            TABLE_1_TRUE,
            TABLE_1_PRED,
            method=method,
            output_dict=output_dict,
            zero_division=0.0,
        )
        assert got == expected


@pytest.mark.usefixtures("dispatch")
@pytest.mark.filterwarnings(  # Table 1's rare labels flag its macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_mlcm_classification_report_array_api_intervals():
    """With intervals, the rows are read on the host once: the same report,
    its flags included."""
    options = {
        "confidence_level": 0.9,
        "n_resamples": 99,
        "random_state": 0,
        "zero_division": 0.0,
    }
    got = mlcm_classification_report(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), **options
    )
    assert got == mlcm_classification_report(TABLE_1_TRUE, TABLE_1_PRED, **options)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_rows_stay_on_device(monkeypatch):
    """The matrix, the scores and the report never copy the rows to the host."""

    def refuse(self):
        raise AssertionError("the rows were copied to the host")

    monkeypatch.setattr(HostRows, "y_true", property(refuse))
    monkeypatch.setattr(HostRows, "y_pred", property(refuse))
    y_true, y_pred = on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED)
    mlcm_confusion_matrix(y_true, y_pred)
    mlcm_precision_recall_fscore_support(y_true, y_pred, zero_division=0.0)
    mlcm_f1_score(y_true, y_pred, average="samples", zero_division=0.0)
    mlcm_classification_report(y_true, y_pred, zero_division=0.0)


def test_mlcm_confusion_matrix_array_api_without_dispatch():
    """Without dispatch, CPU arrays are read by NumPy as today: a NumPy result."""
    y_true = xps.asarray(np.asarray(TABLE_1_TRUE))
    y_pred = xps.asarray(np.asarray(TABLE_1_PRED))
    result = mlcm_confusion_matrix(y_true, y_pred)
    assert isinstance(result, np.ndarray)
    assert_array_equal(result, mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED))


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "y_true, y_pred, match",
    [
        (
            [[0, 2]],
            [[0, 1]],
            r"y_true of mlcm_confusion_matrix must contain only 0 and 1; found 2",
        ),
        ([[0.0, np.nan]], [[0.0, 1.0]], "y_true of mlcm_confusion_matrix contains NaN"),
        ([[0.5, 1.0]], [[0.0, 1.0]], r"found 0.5\. It looks like scores"),
        ([0, 1], [0, 1], "must be a 2-D 0/1 indicator matrix under array_api_dispatch"),
        ([[0, 1]], [[0, 1, 1]], "must have the same number of label columns"),
        ([[0, 1], [1, 1]], [[0, 1]], "must have the same number of samples"),
        (np.zeros((0, 2)), np.zeros((0, 2)), r"are empty \(0 samples\)"),
        (np.zeros((2, 0)), np.zeros((2, 0)), "have no label columns"),
    ],
)
def test_mlcm_confusion_matrix_array_api_refuses_bad_targets(y_true, y_pred, match):
    """Bad device targets are refused, naming the parameter and what was found."""
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(on_device(y_true), on_device(y_pred))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_refuses_sparse_output():
    """sparse_output=True is refused: the result stays in the input's namespace."""
    with pytest.raises(ValueError, match="'sparse_output' parameter.*Array API input"):
        mlcm_confusion_matrix(
            on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), sparse_output=True
        )


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_refuses_bad_weights_and_labels():
    """Weights and labels are checked as for every other input."""
    y_true, y_pred = on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED)
    with pytest.raises(ValueError, match="'sample_weight' parameter.*non-negative"):
        mlcm_confusion_matrix(y_true, y_pred, sample_weight=on_device([-1.0] + [1] * 8))
    with pytest.raises(
        ValueError, match="'sample_weight' parameter.*length n_samples=9"
    ):
        mlcm_confusion_matrix(y_true, y_pred, sample_weight=[1.0, 2.0])
    with pytest.raises(ValueError, match="'labels' parameter.*out of range"):
        mlcm_confusion_matrix(y_true, y_pred, labels=[0, 3])


@pytest.mark.usefixtures("dispatch")
def test_mlcm_confusion_matrix_array_api_device_weights():
    """Weights on the device weigh as NumPy weights do."""
    weight = np.arange(1.0, 10.0)
    result = mlcm_confusion_matrix(
        on_device(TABLE_1_TRUE),
        on_device(TABLE_1_PRED),
        sample_weight=on_device(weight),
    )
    expected = heydarian_oracle(
        np.asarray(TABLE_1_TRUE), np.asarray(TABLE_1_PRED), weight
    )
    assert_allclose(host(result), expected)


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_confusion_matrix_array_api_host_memory(method):
    """Arrays in the host's memory are counted in place by the NumPy kernels:
    the NumPy bits, returned in the input's namespace."""
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.random((200, 6)) < 0.3, rng.random((200, 6)) < 0.3
    weight = rng.random(200)
    result = mlcm_confusion_matrix(
        xps.asarray(y_true), xps.asarray(y_pred), method=method, sample_weight=weight
    )
    assert isinstance(result, ARRAY)
    assert result.device == CPU
    expected = mlcm_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight
    )
    assert_array_equal(np.asarray(result), expected)
    scores = mlcm_f1_score(xps.asarray(y_true), xps.asarray(y_pred), average=None)
    assert_array_equal(np.asarray(scores), mlcm_f1_score(y_true, y_pred, average=None))


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_confusion_matrix_statistics_array_api(method):
    """The statistics of a device matrix: per-class arrays back on its device,
    equal to NumPy's; the overall accuracy a Python float."""
    cm = mlcm_confusion_matrix(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED), method=method
    )
    got = confusion_matrix_statistics(cm, zero_division=0.0)
    expected = confusion_matrix_statistics(host(cm), zero_division=0.0)
    assert list(got) == list(expected)
    for name, want in expected.items():
        if name == "overall_accuracy":
            assert type(got[name]) is float and got[name] == want
            continue
        assert got[name].device == DEVICE
        assert_array_equal(host(got[name]), want)


@pytest.mark.usefixtures("dispatch")
def test_most_confused_array_api():
    """The confusions of a device matrix are those of its host copy."""
    cm = mlcm_confusion_matrix(on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED))
    expected = most_confused(host(cm), include_no_label=True)
    assert most_confused(cm, include_no_label=True) == expected
    assert most_confused(cm, top_k=2) == [(0, 2, 4), (1, 2, 3)]


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("order", ["original", "cluster"])
def test_most_confused_labels_array_api(order):
    """The picked labels of a device matrix: int64 indices on its device."""
    cm = mlcm_confusion_matrix(on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED))
    got = most_confused_labels(cm, top_k=2, order=order)
    assert got.device == DEVICE and got.dtype == xps.int64
    assert_array_equal(host(got), most_confused_labels(host(cm), top_k=2, order=order))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_display_array_api():
    """The display of device targets, and of a device matrix, draws the
    NumPy matrix (only the matrix comes to the host)."""
    pytest.importorskip("matplotlib")
    expected = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)
    display = MLCMDisplay.from_predictions(
        on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED)
    )
    assert_array_equal(display.im_.get_array(), expected)
    assert [t.get_text() for t in display.ax_.get_xticklabels()][:3] == ["0", "1", "2"]
    cm = mlcm_confusion_matrix(on_device(TABLE_1_TRUE), on_device(TABLE_1_PRED))
    display = MLCMDisplay(cm).plot()
    assert_array_equal(display.im_.get_array(), expected)


@pytest.mark.usefixtures("dispatch")
def test_confusion_matrix_statistics_array_api_refuses_bad_matrices():
    """A device matrix is checked as any other, naming the function."""
    with pytest.raises(ValueError, match="cm of confusion_matrix_statistics must be"):
        confusion_matrix_statistics(on_device([[1, 2, 3]]))
    with pytest.raises(ValueError, match="must be non-negative; found -1"):
        most_confused(on_device([[1, -1], [0, 1]]))


# -- every public name that takes targets dispatches ----------------------------------


class DeviceClassifier(ClassifierMixin, BaseEstimator):
    """A fitted multi-label classifier whose outputs are arrays of the
    namespace of its input: predictions ``X > 0.5``, probabilities ``X``."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X):
        return xps.astype(X > 0.5, xps.int64)

    def predict_proba(self, X):
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags


_T, _P = np.asarray(TABLE_1_TRUE), np.asarray(TABLE_1_PRED)
_SCORES = 0.25 + 0.4 * _T + 0.3 * _P


def _device_call(name):
    """A call of the public name ``name`` on device1 arrays (Table 1)."""
    import sklearn_mlcm

    t, p, s = on_device(_T), on_device(_P), on_device(_SCORES)
    estimator = DeviceClassifier().fit(None, None)
    quiet = {"zero_division": 0.0}
    calls = {
        "MLCMAccumulator.update": lambda: sklearn_mlcm.MLCMAccumulator(3).update(t, p),
        "MLCMDisplay.from_estimator": lambda: MLCMDisplay.from_estimator(
            estimator, s, t
        ),
        "MLCMDisplay.from_predictions": lambda: MLCMDisplay.from_predictions(t, p),
        "MLCMReport.from_estimator": lambda: sklearn_mlcm.MLCMReport.from_estimator(
            estimator, s, t, thresholds=5, **quiet
        ),
        "MLCMReport.from_predictions": lambda: sklearn_mlcm.MLCMReport.from_predictions(
            t, p, y_score=s, thresholds=5, **quiet
        ),
        "MLCMThresholdCurveDisplay.from_estimator": lambda: (
            sklearn_mlcm.MLCMThresholdCurveDisplay.from_estimator(
                estimator, s, t, thresholds=5
            )
        ),
        "MLCMThresholdCurveDisplay.from_predictions": lambda: (
            sklearn_mlcm.MLCMThresholdCurveDisplay.from_predictions(t, s, thresholds=5)
        ),
        "decide_labels": lambda: sklearn_mlcm.decide_labels(s),
        "labelset_confusions": lambda: sklearn_mlcm.labelset_confusions(t, p),
        "mlcm_fbeta_score": lambda: sklearn_mlcm.mlcm_fbeta_score(
            t, p, beta=2.0, **quiet
        ),
        "mlcm_confidence_intervals": lambda: sklearn_mlcm.mlcm_confidence_intervals(
            t, p, n_resamples=99, random_state=0, **quiet
        ),
        "mlcm_paired_comparison": lambda: sklearn_mlcm.mlcm_paired_comparison(
            t, p, on_device(np.roll(_P, 1, axis=0)), n_resamples=99, **quiet
        ),
        "mlcm_threshold_curve": lambda: sklearn_mlcm.mlcm_threshold_curve(t, s),
        "multilabel_measures": lambda: sklearn_mlcm.multilabel_measures(
            t, p, s, **quiet
        ),
    }
    if name in calls:
        return calls[name]
    func = getattr(sklearn_mlcm, name)  # the matrices, the scores, the report
    kwargs = {} if name.endswith("matrix") else quiet
    return lambda: func(t, p, **kwargs)


#: Public names that take targets but do not dispatch, and why.
NOT_DISPATCHED = {
    "MLCMTunedThresholdClassifierCV.fit": (
        "an estimator: it fits the wrapped classifier on folds of X and y and "
        "reads its scores as NumPy arrays, as scikit-learn's "
        "TunedThresholdClassifierCV does; pass NumPy arrays"
    ),
}

#: Public names that copy the rows to the host (HostRows), each saying so in
#: its docstring: they resample or hand the instances to NumPy code.
ROWS_TO_HOST = {
    "mlcm_confidence_intervals",
    "mlcm_paired_comparison",
    "multilabel_measures",
}


def test_every_target_callable_dispatches_or_says_why():
    """Each public name that takes targets or scores has an Array API call
    here, or a reason in NOT_DISPATCHED."""
    names = set(target_callables())
    assert set(NOT_DISPATCHED) <= names
    assert ROWS_TO_HOST <= names


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "name", [n for n in target_callables() if n not in NOT_DISPATCHED]
)
def test_public_name_array_api_keeps_rows_on_device(name, monkeypatch):
    """Every public name that takes targets runs on device1 arrays (which
    refuse NumPy), and copies the rows to the host only where its docstring
    says so (ROWS_TO_HOST)."""
    pytest.importorskip("matplotlib")
    copies = []
    for attribute in ("y_true", "y_pred"):
        original = getattr(HostRows, attribute)

        def read(self, _original=original, _attribute=attribute):
            copies.append(_attribute)
            return _original.fget(self)

        monkeypatch.setattr(HostRows, attribute, property(read))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        # Table 1's rare labels flag the intervals' macro averages (#32)
        warnings.filterwarnings("ignore", ".*intervals flagged", DegenerateDataWarning)
        _device_call(name)()
    if name in ROWS_TO_HOST:
        assert copies, f"{name} is said to copy its rows to the host"
    else:
        assert not copies, f"{name} copied its rows to the host: {copies}"
