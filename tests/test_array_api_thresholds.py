"""Scores under array_api_dispatch: decide_labels and the threshold curve.

The scores live on array_api_strict's "device1" (tests/array_api_data.py),
which refuses every conversion to NumPy: a public name that drops them to
NumPy fails here. Every result is compared with the NumPy path's on random
cases (hypothesis): the decisions exactly, the curve exactly where its sums
are whole numbers (Heydarian's matrix without weights or with whole-number
weights), to 1e-12 otherwise.
"""

import numpy as np
import pytest
import sklearn
from array_api_data import (
    ARRAY,
    CPU,
    DEVICE,
    assert_curves_equal,
    host,
    on_device,
    xps,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import (
    MLCMThresholdCurveDisplay,
    decide_labels,
    mlcm_threshold_curve,
)
from sklearn_mlcm._thresholds import _array_api, _decision

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
SCORES = 0.25 + 0.4 * T + 0.3 * P
CURVE_ARRAYS = (
    "thresholds",
    "scores",
    "label_scores",
    "ovr_scores",
    "ovr_label_scores",
)


@pytest.fixture
def dispatch(monkeypatch):
    """scikit-learn's array_api_dispatch (which needs SCIPY_ARRAY_API=1)."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


@st.composite
def scored(draw, max_n=30, max_q=5):
    """(y_true, y_score, weights or None): scores on a coarse grid (ties with
    each other and with thresholds), empty and full rows."""
    n, q = draw(st.integers(1, max_n)), draw(st.integers(1, max_q))
    cells = st.lists(st.integers(0, 10), min_size=n * q, max_size=n * q)
    y_score = np.array(draw(cells), dtype=np.float64).reshape(n, q) / 10
    truth = st.lists(st.booleans(), min_size=n * q, max_size=n * q)
    y_true = np.array(draw(truth)).reshape(n, q)
    kind = draw(st.sampled_from(["none", "integer", "float"]))
    weight = None
    if kind == "integer":
        weight = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
        weight = weight.astype(np.float64)
    elif kind == "float":
        values = st.floats(0, 10, allow_nan=False, allow_subnormal=False)
        weight = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    return y_true, y_score, weight


# -- decide_labels ---------------------------------------------------------------


@pytest.mark.usefixtures("dispatch")
@settings(max_examples=60, deadline=None)
@given(case=scored(), rule=st.integers(0, 4), dtype=st.sampled_from(["f8", "f4"]))
def test_decide_labels_array_api_matches_numpy(case, rule, dtype):
    """Decisions of device scores are NumPy's, as int64 on their device."""
    _, y_score, _ = case
    y_score = y_score.astype(dtype)
    q = y_score.shape[1]
    options = [
        {"threshold": 0.5},
        {"threshold": 0.3, "top_k": 1},
        {"threshold": None, "top_k": q},
        {"threshold": 0.95, "at_least_one": True},
        {
            "threshold": np.linspace(0.2, 0.8, q),
            "top_k": min(2, q),
            "at_least_one": True,
        },
    ][rule]
    got = decide_labels(on_device(y_score), **options)
    assert isinstance(got, ARRAY)
    assert got.device == DEVICE and got.dtype == xps.int64
    assert_array_equal(host(got), decide_labels(y_score, **options))


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "threshold",
    [
        0.1,
        float(np.float32(0.1)),
        float(np.nextafter(np.float32(0.1), np.float32(1))),
        np.nextafter(float(np.float32(0.1)), 0.0),
        np.nextafter(float(np.float32(0.1)), 1.0),
        1e300,
        -1e300,
    ],
)
def test_decide_labels_array_api_float32_threshold(threshold):
    """float32 scores are decided as NumPy decides them (in float64), by
    the smallest float32 at or above each threshold, on their device."""
    y_score = np.array([[0.1, 0.2], [0.05, 1e30]], dtype=np.float32)
    got = decide_labels(on_device(y_score), threshold=threshold)
    assert_array_equal(host(got), decide_labels(y_score, threshold=threshold))


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_labels_and_thresholds_by_index():
    """``labels`` keeps device columns; a dict of thresholds is keyed by them."""
    options = {"labels": [2, 0], "threshold": {2: 0.6, 0: 0.9}}
    got = decide_labels(on_device(SCORES), **options)
    assert_array_equal(host(got), decide_labels(SCORES, **options))


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_probability_list():
    """A list of (n, 2) device probability arrays decides on their column 1."""
    probas = [on_device(np.c_[1 - SCORES[:, j], SCORES[:, j]]) for j in range(3)]
    got = decide_labels(probas, threshold=0.6)
    assert got.device == DEVICE
    assert_array_equal(host(got), decide_labels(SCORES, threshold=0.6))


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_blocks(monkeypatch):
    """Rows decided in many blocks give the decisions of one block."""
    monkeypatch.setattr(_array_api, "BLOCK_CELLS", 5)
    rng = np.random.default_rng(0)
    y_score = rng.random((23, 4))
    got = decide_labels(on_device(y_score), threshold=0.4, top_k=2, at_least_one=True)
    expected = decide_labels(y_score, threshold=0.4, top_k=2, at_least_one=True)
    assert_array_equal(host(got), expected)


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_host_memory():
    """Scores in the host's memory are decided in place by NumPy's rule, and
    returned in their namespace."""
    got = decide_labels(xps.asarray(SCORES), threshold=0.6, top_k=1)
    assert isinstance(got, ARRAY) and got.device == CPU
    assert_array_equal(np.asarray(got), decide_labels(SCORES, threshold=0.6, top_k=1))
    probas = [xps.asarray(np.c_[1 - SCORES[:, j], SCORES[:, j]]) for j in range(3)]
    got = decide_labels(probas, threshold=0.6)
    assert got.device == CPU
    assert_array_equal(np.asarray(got), decide_labels(SCORES, threshold=0.6))


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "y_score, match",
    [
        (
            [[np.nan, 1.0]],
            r"must hold finite scores; found nan at \(row, label\) \(0, 0\)",
        ),
        ([[1.0, 2.0], [3.0, np.inf]], r"must hold finite scores; found inf at \(row"),
        ([0.5, 0.2], r"must be 2-D.*shape \(2,\)\. For the scores of one label"),
        (np.zeros((1, 1, 2)), r"must be 2-D.*shape \(1, 1, 2\)\.$"),
        (
            np.zeros((0, 2)),
            r"must have at least one sample and one label. Got shape \(0, 2\)",
        ),
        ([[1 + 1j]], "must hold real-valued scores; got values of dtype"),
    ],
)
def test_decide_labels_array_api_refuses_bad_scores(y_score, match):
    """Bad device scores are refused as NumPy scores are, naming the call."""
    with pytest.raises(ValueError, match="y_score of decide_labels " + match):
        decide_labels(on_device(y_score))


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_refuses_bad_probability_lists():
    """A device probability list needs (n, 2) arrays of one length."""
    column = on_device(np.c_[1 - SCORES[:, 0], SCORES[:, 0]])
    with pytest.raises(ValueError, match=r"shape \(9, 1\) for label 1: a classifier"):
        decide_labels([column, on_device(SCORES[:, :1])])
    with pytest.raises(ValueError, match=r"shape \(9, 3\) for label 1: this is no"):
        decide_labels([column, on_device(SCORES)])
    with pytest.raises(ValueError, match="arrays of different lengths: 9 and 4"):
        decide_labels([column, column[:4, :]])


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_refuses_a_result_past_the_limit(monkeypatch):
    """A dense result past the limit is refused before it is made, without
    the hint of sparse scores (a device has none)."""
    monkeypatch.setattr(_decision, "MAX_DENSE_BYTES", 8 * 26)
    with pytest.raises(
        ValueError,
        match=r"decide blocks of rows in turn \(each "
        r"instance is decided alone\). Got 9 x 3",
    ):
        decide_labels(on_device(SCORES))


@pytest.mark.usefixtures("dispatch")
def test_decide_labels_array_api_refuses_bad_options():
    """Thresholds, labels and top_k are checked as for NumPy scores."""
    y_score = on_device(SCORES)
    with pytest.raises(ValueError, match=r"'threshold' parameter.*shape \(3,\)"):
        decide_labels(y_score, threshold=[0.5, 0.5])
    with pytest.raises(ValueError, match="'labels' parameter.*out of range"):
        decide_labels(y_score, labels=[0, 5])
    with pytest.raises(ValueError, match="'top_k' parameter.*at most the number"):
        decide_labels(y_score, top_k=4)


# -- the threshold curve ----------------------------------------------------------


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=40, deadline=None)
@given(
    case=scored(),
    grid=st.sampled_from(["default", "int", "array", "rising rows", "rows"]),
    metric=st.sampled_from(["f1", "precision", "recall", "specificity"]),
    average=st.sampled_from(["macro", "micro", "weighted"]),
)
def test_mlcm_threshold_curve_array_api_matches_numpy(
    method, case, grid, metric, average
):
    """The curve of device scores is NumPy's: exactly in whole numbers
    (Heydarian, no or whole-number weights), to 1e-12 otherwise; with the
    one-vs-rest scores of the same predictions."""
    y_true, y_score, weight = case
    q = y_score.shape[1]
    thresholds = {
        "default": None,
        "int": 7,
        "array": np.linspace(0.05, 0.95, 10),
        "rising rows": np.outer(np.linspace(0.2, 1.0, 5), np.linspace(0.6, 1.0, q)),
        "rows": np.random.default_rng(q).random((4, q)),
    }[grid]
    options = {
        "thresholds": thresholds,
        "metric": metric,
        "average": average,
        "method": method,
        "sample_weight": weight,
        "one_vs_rest": True,
    }
    got = mlcm_threshold_curve(on_device(y_true), on_device(y_score), **options)
    expected = mlcm_threshold_curve(y_true, y_score, **options)
    whole = weight is None or bool(np.all(weight == np.round(weight)))
    assert_curves_equal(got, expected, exact=method == "heydarian" and whole)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_threshold_curve_array_api_float32_and_labels():
    """float32 scores, kept labels and names: the NumPy curve, exactly."""
    y_score = SCORES.astype(np.float32)
    options = {"labels": [2, 0], "thresholds": 11, "target_names": ["c", "a"]}
    got = mlcm_threshold_curve(on_device(T), on_device(y_score), **options)
    assert_curves_equal(got, mlcm_threshold_curve(T, y_score, **options), exact=True)
    assert repr(got) == repr(mlcm_threshold_curve(T, y_score, **options))


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_threshold_curve_array_api_blocks(monkeypatch, method):
    """Rows in many blocks and thresholds in many chunks (memory bounded) sum
    to the margins of one block."""
    rng = np.random.default_rng(1)
    y_true = rng.random((40, 4)) < 0.4
    y_score = np.round(rng.random((40, 4)), 1)
    expected = mlcm_threshold_curve(y_true, y_score, thresholds=9, method=method)
    for cells in (4 * 9 * 3, 4 * 5):  # 3 rows, all thresholds; 256 rows, 5 a chunk
        monkeypatch.setattr(_array_api, "BLOCK_CELLS", cells)
        got = mlcm_threshold_curve(
            on_device(y_true), on_device(y_score), thresholds=9, method=method
        )
        assert_curves_equal(got, expected, exact=method == "heydarian")


@pytest.mark.usefixtures("dispatch")
def test_mlcm_threshold_curve_array_api_y_true_follows_y_score():
    """A NumPy or list y_true, and device weights, go to the scores' device."""
    weight = np.arange(1.0, 10.0)
    expected = mlcm_threshold_curve(T, SCORES, sample_weight=weight)
    for y_true in (TABLE_1_TRUE, T):
        got = mlcm_threshold_curve(
            y_true, on_device(SCORES), sample_weight=on_device(weight)
        )
        assert_curves_equal(got, expected, exact=True)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_threshold_curve_array_api_host_memory():
    """Scores in the host's memory take the NumPy sweep in place: the same
    curve bit for bit, also with real weights."""
    weight = np.linspace(0.1, 2.0, 9)
    got = mlcm_threshold_curve(
        xps.asarray(T), xps.asarray(SCORES), sample_weight=weight
    )
    expected = mlcm_threshold_curve(T, SCORES, sample_weight=weight)
    assert_curves_equal(got, expected, exact=True)


@pytest.mark.usefixtures("dispatch")
@pytest.mark.parametrize(
    "y_true, y_score, match",
    [
        (
            T[:, :2],
            SCORES,
            r"y_true and y_score of mlcm_threshold_curve must have "
            r"the same shape \(n_samples, n_labels\). Got \(9, 2\) and \(9, 3\)",
        ),
        (T[:, 0], SCORES, "y_true of mlcm_threshold_curve must be a 2-D 0/1"),
        (2 * T, SCORES, "y_true of mlcm_threshold_curve must contain only 0 and 1"),
        (T, SCORES[:, 0], r"y_score of mlcm_threshold_curve must be 2-D"),
    ],
)
def test_mlcm_threshold_curve_array_api_refuses_bad_input(y_true, y_score, match):
    """Bad device targets or scores are refused, naming the call."""
    with pytest.raises(ValueError, match=match):
        mlcm_threshold_curve(on_device(y_true), on_device(y_score))


@pytest.mark.usefixtures("dispatch")
def test_mlcm_threshold_curve_array_api_refuses_bad_weights_and_thresholds():
    """Weights and thresholds are checked as for NumPy input."""
    y_true, y_score = on_device(T), on_device(SCORES)
    with pytest.raises(ValueError, match="'sample_weight' parameter.*non-negative"):
        mlcm_threshold_curve(y_true, y_score, sample_weight=on_device([-1.0] + [1] * 8))
    with pytest.raises(ValueError, match="'thresholds' parameter.*strictly increasing"):
        mlcm_threshold_curve(y_true, y_score, thresholds=[0.5, 0.4])


@pytest.mark.usefixtures("dispatch")
def test_mlcm_threshold_curve_display_array_api():
    """The display of device scores draws the NumPy curve."""
    pytest.importorskip("matplotlib")
    got = MLCMThresholdCurveDisplay.from_predictions(
        on_device(T), on_device(SCORES), thresholds=5, operating_point=0.6
    )
    expected = MLCMThresholdCurveDisplay.from_predictions(
        T, SCORES, thresholds=5, operating_point=0.6
    )
    assert_array_equal(got.line_.get_xydata(), expected.line_.get_xydata())
    assert_array_equal(got.thresholds, expected.thresholds)
