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

import pickle

import numpy as np
import pytest
import sklearn
from array_api_data import ARRAY, DEVICE, assert_curves_equal, host, on_device, xps
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import (
    MLCMAccumulator,
    MLCMReport,
    labelset_confusions,
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_paired_comparison,
    multilabel_measures,
)
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


# -- MLCMAccumulator ----------------------------------------------------------------


def batches(y_true, y_pred, size=4, weight=None):
    """The device batches of the rows, ``size`` at a time."""
    for start in range(0, y_true.shape[0], size):
        rows = slice(start, start + size)
        yield (
            on_device(y_true[rows]),
            on_device(y_pred[rows]),
            None if weight is None else on_device(weight[rows]),
        )


@pytest.mark.usefixtures("dispatch", "rows_refused")
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("weighted", [False, True])
def test_mlcm_accumulator_array_api_matches_numpy(method, weighted):
    """Device batches accumulate the NumPy matrix (counted on their device,
    summed on the host) and it goes back to their namespace and device; the
    report is NumPy's; the rows stay on the device."""
    rng = np.random.default_rng(4)
    y_true, y_pred = rng.random((30, 4)) < 0.4, rng.random((30, 4)) < 0.4
    weight = rng.integers(0, 4, 30).astype(np.float64) if weighted else None
    acc = MLCMAccumulator(4, method=method)
    for t, p, w in batches(y_true, y_pred, 7, weight):
        acc.update(t, p, sample_weight=w)
    expected = mlcm_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight
    )
    matrix = acc.confusion_matrix
    assert isinstance(matrix, ARRAY) and matrix.device == DEVICE
    assert str(matrix.dtype).endswith(str(expected.dtype))
    assert_allclose(host(matrix), expected, rtol=1e-12, atol=1e-12)
    options = {"zero_division": 0.0, "output_dict": True}
    report = acc.classification_report(**options)
    expected_report = mlcm_classification_report(
        y_true, y_pred, method=method, sample_weight=weight, **options
    )
    assert report.keys() == expected_report.keys()
    for row, values in expected_report.items():
        assert report[row] == pytest.approx(values, rel=1e-12, abs=1e-12)
    assert acc.n_samples_ == 30


@pytest.mark.usefixtures("dispatch")
@pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_mlcm_accumulator_array_api_replicates_copy_rows(rows_counted):
    """With replicates, each batch's rows are copied to the host once (the
    Poisson weights are drawn there): the NumPy stream's intervals exactly."""
    acc = MLCMAccumulator(3, n_resamples=99, random_state=0)
    reference = MLCMAccumulator(3, n_resamples=99, random_state=0)
    for start in (0, 4, 8):
        rows = slice(start, start + 4)
        acc.update(on_device(T[rows]), on_device(P[rows]))
        reference.update(T[rows], P[rows])
    assert rows_counted == ["y_true", "y_pred"] * 3
    got = acc.confidence_intervals(zero_division=0.0)
    expected = reference.confidence_intervals(zero_division=0.0)
    assert got.estimate == expected.estimate
    assert tuple(got.confidence_interval) == tuple(expected.confidence_interval)
    assert_array_equal(host(acc.confusion_matrix), reference.confusion_matrix)


@pytest.mark.usefixtures("dispatch", "rows_refused")
def test_mlcm_accumulator_array_api_merge_pickle_and_empty_batches():
    """An empty device batch adds nothing; merged and unpickled accumulators
    keep the batches' namespace and device."""
    first, second = MLCMAccumulator(3), MLCMAccumulator(3)
    first.update(on_device(T[:5]), on_device(P[:5]))
    first.update(on_device(np.zeros((0, 3))), on_device(np.zeros((0, 3))))
    second.update(on_device(T[5:]), on_device(P[5:]))
    merged = MLCMAccumulator(3).merge(first).merge(second)
    for acc in (merged, first + second, pickle.loads(pickle.dumps(merged))):
        assert acc.confusion_matrix.device == DEVICE
        assert_array_equal(host(acc.confusion_matrix), mlcm_confusion_matrix(T, P))
    reset = pickle.loads(pickle.dumps(merged)).reset()
    assert isinstance(reset.update(T, P).confusion_matrix, np.ndarray)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_accumulator_array_api_refuses_mixed_batches():
    """Batches of another namespace or device than the first, a NumPy batch
    after device batches (and the reverse), and device batches of a sparse
    accumulator are refused, changing nothing."""
    acc = MLCMAccumulator(3).update(on_device(T), on_device(P))
    cpu = (xps.asarray(T), xps.asarray(P))
    with pytest.raises(
        ValueError,
        match=r"so far are arrays of array_api_strict on "
        r"device array_api_strict.Device\('device1'\).*this batch is "
        r"arrays of array_api_strict on device .*CPU_DEVICE",
    ):
        acc.update(*cpu)
    with pytest.raises(ValueError, match=r"this batch is NumPy \(or scipy sparse"):
        acc.update(T, P)
    assert acc.n_samples_ == 9
    numpy_acc = MLCMAccumulator(3).update(T, P)
    with pytest.raises(ValueError, match=r"so far are NumPy \(or scipy sparse, frame"):
        numpy_acc.update(on_device(T), on_device(P))
    with pytest.raises(ValueError, match="batches of MLCMAccumulator.merge so far"):
        numpy_acc.merge(acc)
    with pytest.raises(ValueError, match="for an accumulator with sparse_output=True"):
        MLCMAccumulator(3, sparse_output=True).update(on_device(T), on_device(P))
    with pytest.raises(ValueError, match=r"must have the shape of y_true, \(0, 3\)"):
        MLCMAccumulator(3).update(
            on_device(np.zeros((0, 3))), on_device(np.zeros((0, 2)))
        )


# -- intervals, paired comparison, Madjarov's measures: rows on the host ------------


@pytest.mark.usefixtures("dispatch")
@pytest.mark.filterwarnings(  # Table 1's rare labels flag its macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_mlcm_confidence_intervals_array_api_copies_rows_once(rows_counted):
    """The intervals of device targets resample their rows on the host,
    copied there once: NumPy's intervals, flags included, for the same
    seed."""
    options = {"n_resamples": 199, "random_state": 0, "zero_division": 0.0}
    got = mlcm_confidence_intervals(on_device(T), on_device(P), **options)
    expected = mlcm_confidence_intervals(T, P, **options)
    assert rows_counted == ["y_true", "y_pred"]
    assert got.estimate == expected.estimate
    assert tuple(got.confidence_interval) == tuple(expected.confidence_interval)
    assert repr(got) == repr(expected)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_paired_comparison_array_api():
    """Device prediction sets are checked on their device, then copied to
    the host, where they are resampled: NumPy's comparison, for the same
    seed; a dict of sets too."""
    options = {"n_resamples": 199, "random_state": 0, "zero_division": 0.0}
    other = np.roll(P, 1, axis=0)
    got = mlcm_paired_comparison(
        on_device(T), on_device(P), on_device(other), **options
    )
    expected = mlcm_paired_comparison(T, P, other, **options)
    assert repr(got) == repr(expected)
    assert got.pvalue == expected.pvalue
    sets = {"x": on_device(P), "y": on_device(other), "z": on_device(T)}
    got = mlcm_paired_comparison(T, sets, labels=[2, 0], **options)
    expected = mlcm_paired_comparison(
        T, {"x": P, "y": other, "z": T}, labels=[2, 0], **options
    )
    assert repr(got) == repr(expected)


@pytest.mark.usefixtures("dispatch")
def test_mlcm_paired_comparison_array_api_refuses_bad_sets():
    """A bad device prediction set is refused by its parameter's name."""
    bad = on_device(2 * P)
    with pytest.raises(ValueError, match="y_pred_b of mlcm_paired_comparison must"):
        mlcm_paired_comparison(on_device(T), on_device(P), bad, n_resamples=99)
    with pytest.raises(ValueError, match=r"y_pred_a\['y'\] of mlcm_paired_comparison"):
        mlcm_paired_comparison(T, {"x": on_device(P), "y": bad}, n_resamples=99)


@pytest.mark.usefixtures("dispatch")
def test_multilabel_measures_array_api(rows_counted):
    """Madjarov's measures of device targets and scores are NumPy's: the
    rows and the scores are copied to the host, where scikit-learn's
    functions read them."""
    options = {"zero_division": 0.0}
    got = multilabel_measures(on_device(T), on_device(P), on_device(SCORES), **options)
    assert got == multilabel_measures(T, P, SCORES, **options)
    assert rows_counted == ["y_true", "y_pred"]
