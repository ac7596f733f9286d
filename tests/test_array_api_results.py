"""Result objects under array_api_dispatch: what is counted on the device,
and what is copied to the host, name by name.

The targets live on array_api_strict's "device1" (tests/array_api_data.py),
which refuses every conversion to NumPy: a public name that drops them to
NumPy fails here. The rows are copied to the host only through
:class:`~sklearn_mlcm._validation._array_api.HostRows`, explicitly, by the
names whose docstrings say so (the resampled intervals, the paired
comparison, the accumulator's replicates, Madjarov's measures): the
``rows_refused`` fixture makes every such copy fail, ``rows_counted``
counts them.
"""

import numpy as np
import pytest
import sklearn
from array_api_data import assert_curves_equal, on_device, xps
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import MLCMReport, labelset_confusions
from sklearn_mlcm._plot import _array_api as _labelsets
from sklearn_mlcm._validation._array_api import HostRows

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
SCORES = 0.25 + 0.4 * T + 0.3 * P


@pytest.fixture
def dispatch(monkeypatch):
    """scikit-learn's array_api_dispatch (which needs SCIPY_ARRAY_API=1)."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


@pytest.fixture
def rows_refused(monkeypatch):
    """Any copy of the rows to the host fails the test."""

    def refuse(self):
        raise AssertionError("the rows were copied to the host")

    monkeypatch.setattr(HostRows, "y_true", property(refuse))
    monkeypatch.setattr(HostRows, "y_pred", property(refuse))


@pytest.fixture
def rows_counted(monkeypatch):
    """The copies of the rows to the host, by attribute."""
    copies = []
    for name in ("y_true", "y_pred"):
        original = getattr(HostRows, name)

        def read(self, _original=original, _name=name):
            if getattr(self, f"_{_name}") is None:
                copies.append(_name)
            return _original.fget(self)

        monkeypatch.setattr(HostRows, name, property(read))
    return copies


@st.composite
def label_sets(draw, max_n=40):
    """(y_true, y_pred, weights or None): few labels (repeated pairs, ties)
    or many (several 62-label words)."""
    n = draw(st.integers(1, max_n))
    q = draw(st.sampled_from([1, 2, 3, 5, 62, 63, 130]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    density = 0.5 if q <= 5 else 0.03
    y_true = rng.random((n, q)) < density
    y_pred = y_true ^ (rng.random((n, q)) < (0.3 if q <= 5 else 0.01))
    kind = draw(st.sampled_from(["none", "integer", "float"]))
    weight = None
    if kind == "integer":
        weight = rng.integers(0, 4, n).astype(np.float64)
    elif kind == "float":
        weight = rng.random(n) * 10
    return y_true, y_pred, weight


# -- labelset_confusions -------------------------------------------------------------


@pytest.mark.usefixtures("dispatch", "rows_refused")
@settings(max_examples=80, deadline=None)
@given(case=label_sets(), top_k=st.sampled_from([1, 2, 3, 10, 1000]))
def test_labelset_confusions_array_api_matches_numpy(case, top_k):
    """The pairs of device targets are NumPy's, in its order, counted on the
    device: exactly for counts and whole-number weights, to rounding for
    real weights (each run summed pairwise)."""
    y_true, y_pred, weight = case
    got = labelset_confusions(
        on_device(y_true), on_device(y_pred), top_k=top_k, sample_weight=weight
    )
    expected = labelset_confusions(y_true, y_pred, top_k=top_k, sample_weight=weight)
    if weight is None or np.all(weight == np.round(weight)):
        assert got == expected
        assert [type(c.count) for c in got] == [type(c.count) for c in expected]
    else:
        assert len(got) == len(expected)
        got_counts = sorted(c.count for c in got)
        assert_allclose(got_counts, sorted(c.count for c in expected), rtol=1e-12)


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_labelset_confusions_array_api_weights_of_every_scale():
    """A run's weighted count adds its own weights only: a pair of weight 1
    beside pairs of weight 1e20 keeps its count (a difference of running
    totals would give 0)."""
    y_true = np.array([[1, 0], [1, 0], [0, 1], [1, 1]], dtype=bool)
    y_pred = np.array([[0, 1], [0, 1], [1, 0], [0, 0]], dtype=bool)
    weight = np.array([1e20, 1e20, 1.0, 3.0])
    got = labelset_confusions(
        on_device(y_true), on_device(y_pred), sample_weight=weight
    )
    assert got == [((0,), (1,), 2e20), ((0, 1), (), 3.0), ((1,), (0,), 1.0)]


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_labelset_confusions_array_api_blocks_and_names(monkeypatch):
    """Rows packed in many blocks give the pairs of one block; names and the
    frame are NumPy's."""
    monkeypatch.setattr(_labelsets, "BLOCK_CELLS", 7)
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.random((50, 3)) < 0.4, rng.random((50, 3)) < 0.4
    names = ["a", "b", "c"]
    got = labelset_confusions(
        on_device(y_true), on_device(y_pred), top_k=4, target_names=names
    )
    assert got == labelset_confusions(y_true, y_pred, top_k=4, target_names=names)
    assert repr(got) == repr(
        labelset_confusions(y_true, y_pred, top_k=4, target_names=names)
    )


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_labelset_confusions_array_api_paper_table():
    """Heydarian et al., Table 1: seven pairs of one instance each."""
    got = labelset_confusions(on_device(T), on_device(P))
    assert got == labelset_confusions(T, P)
    assert len(got) == 7 and got[0] == ((), (1, 2), 1)
    assert labelset_confusions(on_device(T), on_device(T)) == []


# -- MLCMReport ------------------------------------------------------------------------


@pytest.mark.usefixtures("dispatch", "rows_refused")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_report_array_api_matches_numpy(method):
    """The report of device targets is NumPy's (matrix, report, confusions,
    label sets, size), without a copy of the rows."""
    options = {"method": method, "zero_division": 0.0, "sample_weight": np.arange(9.0)}
    got = MLCMReport.from_predictions(on_device(T), on_device(P), **options)
    expected = MLCMReport.from_predictions(T, P, **options)
    assert isinstance(got.confusion_matrix, np.ndarray)
    assert_array_equal(got.confusion_matrix, expected.confusion_matrix)
    assert got.report == expected.report
    assert got.most_confused == expected.most_confused
    assert got.labelset_confusions == expected.labelset_confusions
    assert got.n_samples == 9
    assert repr(got) == repr(expected)
    assert got.to_markdown() == expected.to_markdown()


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_mlcm_report_array_api_scores():
    """A report of device targets and scores holds the NumPy curve; the
    scores follow y_pred's device; ``labels`` keeps the same columns."""
    options = {"thresholds": 5, "zero_division": 0.0, "labels": [2, 0]}
    expected = MLCMReport.from_predictions(T, P, y_score=SCORES, **options)
    for y_score in (on_device(SCORES), xps.asarray(SCORES)):
        got = MLCMReport.from_predictions(
            on_device(T), on_device(P), y_score=y_score, **options
        )
        assert_curves_equal(got.threshold_curve, expected.threshold_curve, exact=True)
        assert repr(got) == repr(expected)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_report_array_api_host_memory_scores_follow_y_pred():
    """Targets in the host's memory take device scores there, explicitly."""
    got = MLCMReport.from_predictions(
        xps.asarray(T),
        xps.asarray(P),
        y_score=on_device(SCORES),
        thresholds=5,
        zero_division=0.0,
    )
    expected = MLCMReport.from_predictions(
        T, P, y_score=SCORES, thresholds=5, zero_division=0.0
    )
    assert_curves_equal(got.threshold_curve, expected.threshold_curve, exact=True)


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_mlcm_report_array_api_refuses_bad_scores():
    """Device scores of another shape than the targets' are refused."""
    t, p = on_device(T), on_device(P)
    with pytest.raises(ValueError, match="one row per instance of y_true: 9 expected"):
        MLCMReport.from_predictions(t, p, y_score=on_device(SCORES[:4]))
    with pytest.raises(ValueError, match="one column per column of y_true, 3, before"):
        MLCMReport.from_predictions(t, p, y_score=on_device(SCORES[:, :2]), labels=[0])
    with pytest.raises(ValueError, match=r"must have the shape of the labels scored"):
        MLCMReport.from_predictions(t, p, y_score=on_device(SCORES[:, :2]))
