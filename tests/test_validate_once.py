"""Every public call validates its targets once, through one entry point.

The public functions and methods that take targets (``y_true``, ``y``,
``y_pred``, ``y_score``) are found by walking ``sklearn_mlcm.__all__``, so a
new one cannot skip this file: :func:`test_every_target_callable_has_a_case`
fails until it has a case here. Each case runs one public call with the entry
points (:func:`~sklearn_mlcm._validation._targets.validate_targets`, and its
sibling for scores,
:func:`~sklearn_mlcm._thresholds._validation.validate_scores`) wrapped in a
spy, and asserts that the call went through them exactly once: the layers below
take the validated object, never the raw input again. A second spy, on the one
reader of raw targets (``_validation._label_space._as_array``, wherever
imported), checks that ``y_true`` is read once per call, below the entry point
too (the tuned estimator's folds, the paired comparison's prediction sets).
"""

import collections
import inspect
import sys
import warnings

import matplotlib
import numpy as np
import pytest
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from public_calls import derived_call, target_callables
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.neighbors import KNeighborsClassifier

import sklearn_mlcm
from sklearn_mlcm._param_validation import validate_params
from sklearn_mlcm._thresholds import _validation as _scores_validation
from sklearn_mlcm._validation import _label_space, _targets

matplotlib.use("Agg")

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
P2 = np.roll(P, 1, axis=0)
SCORES = 0.25 + 0.4 * T + 0.3 * P
WEIGHT = np.arange(1.0, T.shape[0] + 1)
GROUPS = np.arange(T.shape[0]) // 3
ENTRY_POINTS = {"validate_targets": _targets, "validate_scores": _scores_validation}


def _frames():
    pd = pytest.importorskip("pandas")
    columns = ["a", "b", "c"]
    return pd.DataFrame(T, columns=columns), pd.DataFrame(P, columns=columns)


def _dask():
    da = pytest.importorskip("dask.array")
    return da.from_array(T, chunks=4), da.from_array(P, chunks=4)


def _knn():
    return KNeighborsClassifier(n_neighbors=1).fit(T, T)


def _plot(call):
    """A display call, its figure closed."""

    def run():
        import matplotlib.pyplot as plt

        try:
            call()
        finally:
            plt.close("all")

    return run


def _tuned():
    sklearn_mlcm.MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(n_neighbors=1), cv=3, thresholds=5
    ).fit(T, T)


_INTERVALS = {"confidence_level": 0.9, "n_resamples": 19, "random_state": 0}

#: Table 1 has labels with fewer than 5 positives: the intervals of its macro
#: averages are flagged and warn (issue #32, checked in
#: tests/test_report_flags.py); the spies here count validations, not those.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

#: (public callable, case name) -> a call of it, by hand: the forms of input
#: (frames, dask, sparse, class labels) and the options (intervals, groups,
#: scores) that take other paths to the entry point. A target callable
#: without one gets a derived case (:func:`_derived_cases`).
HAND_WRITTEN_CASES = {
    ("mlcm_confusion_matrix", "numpy"): lambda: sklearn_mlcm.mlcm_confusion_matrix(
        T, P, sample_weight=WEIGHT
    ),
    ("mlcm_confusion_matrix", "sparse"): lambda: sklearn_mlcm.mlcm_confusion_matrix(
        __import__("scipy.sparse").sparse.csr_array(T),
        __import__("scipy.sparse").sparse.csr_array(P),
        sparse_output=True,
    ),
    ("mlcm_confusion_matrix", "classes"): lambda: sklearn_mlcm.mlcm_confusion_matrix(
        [0, 1, 2, 1], [0, 2, 2, 1]
    ),
    ("mlcm_confusion_matrix", "frame"): lambda: sklearn_mlcm.mlcm_confusion_matrix(
        *_frames()
    ),
    ("mlcm_confusion_matrix", "dask"): lambda: sklearn_mlcm.mlcm_confusion_matrix(
        *_dask()
    ),
    ("mlcm_multilabel_confusion_matrix", "numpy"): lambda: (
        sklearn_mlcm.mlcm_multilabel_confusion_matrix(T, P)
    ),
    ("mlcm_precision_recall_fscore_support", "numpy"): lambda: (
        sklearn_mlcm.mlcm_precision_recall_fscore_support(T, P, zero_division=0.0)
    ),
    ("mlcm_precision_recall_fscore_support", "samples"): lambda: (
        sklearn_mlcm.mlcm_precision_recall_fscore_support(
            T, P, average="samples", zero_division=0.0
        )
    ),
    ("mlcm_precision_score", "frame"): lambda: sklearn_mlcm.mlcm_precision_score(
        *_frames(), zero_division=0.0
    ),
    ("mlcm_recall_score", "dask"): lambda: sklearn_mlcm.mlcm_recall_score(
        *_dask(), zero_division=0.0
    ),
    ("mlcm_f1_score", "numpy"): lambda: sklearn_mlcm.mlcm_f1_score(
        T, P, average=None, zero_division=0.0
    ),
    ("mlcm_fbeta_score", "numpy"): lambda: sklearn_mlcm.mlcm_fbeta_score(
        T, P, beta=2.0, zero_division=0.0
    ),
    ("mlcm_specificity_score", "numpy"): lambda: sklearn_mlcm.mlcm_specificity_score(
        T, P, zero_division=0.0
    ),
    ("mlcm_classification_report", "numpy"): lambda: (
        sklearn_mlcm.mlcm_classification_report(T, P, zero_division=0.0)
    ),
    ("mlcm_classification_report", "intervals"): lambda: (
        sklearn_mlcm.mlcm_classification_report(
            T, P, zero_division=0.0, sample_weight=WEIGHT, **_INTERVALS
        )
    ),
    ("mlcm_classification_report", "groups"): lambda: (
        sklearn_mlcm.mlcm_classification_report(
            T, P, zero_division=0.0, groups=GROUPS, **_INTERVALS
        )
    ),
    ("mlcm_classification_report", "frame intervals"): lambda: (
        sklearn_mlcm.mlcm_classification_report(
            *_frames(), zero_division=0.0, **_INTERVALS
        )
    ),
    ("mlcm_classification_report", "dask intervals"): lambda: (
        sklearn_mlcm.mlcm_classification_report(
            *_dask(), zero_division=0.0, **_INTERVALS
        )
    ),
    ("mlcm_confidence_intervals", "numpy"): lambda: (
        sklearn_mlcm.mlcm_confidence_intervals(
            T, P, zero_division=0.0, **_INTERVALS
        )
    ),
    ("mlcm_confidence_intervals", "dask"): lambda: (
        sklearn_mlcm.mlcm_confidence_intervals(
            *_dask(), zero_division=0.0, **_INTERVALS
        )
    ),
    ("mlcm_paired_comparison", "pair"): lambda: sklearn_mlcm.mlcm_paired_comparison(
        T, P, P2, zero_division=0.0, **_INTERVALS
    ),
    ("mlcm_paired_comparison", "sets"): lambda: sklearn_mlcm.mlcm_paired_comparison(
        T,
        {"x": P, "y": P2, "z": T},
        zero_division=0.0,
        **_INTERVALS,
    ),
    ("labelset_confusions", "numpy"): lambda: sklearn_mlcm.labelset_confusions(
        T, P, sample_weight=WEIGHT
    ),
    ("mlcm_threshold_curve", "numpy"): lambda: sklearn_mlcm.mlcm_threshold_curve(
        T, SCORES, thresholds=5, zero_division=0.0
    ),
    ("decide_labels", "numpy"): lambda: sklearn_mlcm.decide_labels(
        SCORES, threshold=0.5
    ),
    ("multilabel_measures", "scores"): lambda: sklearn_mlcm.multilabel_measures(
        T, P, SCORES, zero_division=0.0
    ),
    ("MLCMAccumulator.update", "numpy"): lambda: sklearn_mlcm.MLCMAccumulator(3).update(
        T, P
    ),
    ("MLCMAccumulator.update", "replicates"): lambda: sklearn_mlcm.MLCMAccumulator(
        3, n_resamples=19, random_state=0
    ).update(T, P, sample_weight=WEIGHT),
    ("MLCMAccumulator.update", "dask"): lambda: sklearn_mlcm.MLCMAccumulator(3).update(
        *_dask()
    ),
    ("MLCMDisplay.from_predictions", "numpy"): _plot(
        lambda: sklearn_mlcm.MLCMDisplay.from_predictions(T, P)
    ),
    ("MLCMDisplay.from_estimator", "numpy"): _plot(
        lambda: sklearn_mlcm.MLCMDisplay.from_estimator(_knn(), T, T)
    ),
    ("MLCMThresholdCurveDisplay.from_predictions", "numpy"): _plot(
        lambda: sklearn_mlcm.MLCMThresholdCurveDisplay.from_predictions(
            T, SCORES, thresholds=5, zero_division=0.0
        )
    ),
    ("MLCMThresholdCurveDisplay.from_estimator", "numpy"): _plot(
        lambda: sklearn_mlcm.MLCMThresholdCurveDisplay.from_estimator(
            _knn(), T, T, thresholds=5, zero_division=0.0
        )
    ),
    ("MLCMTunedThresholdClassifierCV.fit", "numpy"): _tuned,
    ("MLCMReport.from_predictions", "numpy"): lambda: (
        sklearn_mlcm.MLCMReport.from_predictions(T, P, zero_division=0.0)
    ),
    ("MLCMReport.from_predictions", "scores intervals"): lambda: (
        sklearn_mlcm.MLCMReport.from_predictions(
            T,
            P,
            y_score=SCORES,
            sample_weight=WEIGHT,
            thresholds=5,
            zero_division=0.0,
            **_INTERVALS,
        )
    ),
    ("MLCMReport.from_predictions", "frame scores"): lambda: (
        sklearn_mlcm.MLCMReport.from_predictions(
            *_frames(), y_score=SCORES, thresholds=5, zero_division=0.0
        )
    ),
    ("MLCMReport.from_predictions", "dask"): lambda: (
        sklearn_mlcm.MLCMReport.from_predictions(*_dask(), zero_division=0.0)
    ),
    ("MLCMReport.from_estimator", "numpy"): lambda: (
        sklearn_mlcm.MLCMReport.from_estimator(
            _knn(), T, T, thresholds=5, zero_division=0.0
        )
    ),
}


def _target_callables():
    """Public functions and methods with a parameter among the targets."""
    return target_callables()


def _derived_case(name):
    """A call of the target callable ``name`` with its required parameters
    derived (``public_calls.derived_call``: the Table 1 targets and scores by
    name, the rest from the constraints), or None when they cannot be; an
    instance method runs on an instance its class's derived call builds."""
    owner, _, attr = name.partition(".")
    cls = getattr(sklearn_mlcm, owner)
    if not attr:
        call = derived_call(cls)
        return None if call is None else (lambda: _run(*call))
    method = getattr(cls, attr)
    call = derived_call(method)
    if call is None:
        return None
    if isinstance(inspect.getattr_static(cls, attr), (classmethod, staticmethod)):
        return lambda: _run(*call)
    constructor = derived_call(cls)
    if constructor is None:
        return None

    def run():
        instance = _run(*constructor)
        return _run(getattr(instance, attr), call[1], call[2])

    return run


def _run(func, args, kwargs):
    """``func(*args, **kwargs)``, the undefined ratios of the tiny example
    not warned of, figures closed."""
    import matplotlib.pyplot as plt

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return func(*args, **kwargs)
    finally:
        plt.close("all")


def _derived_cases():
    """``(name, "derived") -> call`` for each target callable that has no
    hand-written case and whose call can be derived."""
    covered = {name for name, _ in HAND_WRITTEN_CASES}
    cases = {}
    for name in _target_callables():
        if name not in covered and (case := _derived_case(name)) is not None:
            cases[(name, "derived")] = case
    return cases


#: Every case: the hand-written ones and those derived for the rest.
CASES = {**HAND_WRITTEN_CASES, **_derived_cases()}


@pytest.fixture
def entry_calls(monkeypatch):
    """Count the calls of the validation entry points, wherever imported."""
    calls = []
    for entry, home in ENTRY_POINTS.items():
        original = getattr(home, entry)

        def spy(*args, _original=original, _entry=entry, **kwargs):
            calls.append(_entry)
            return _original(*args, **kwargs)

        for module in list(sys.modules.values()):
            name = getattr(module, "__name__", "")
            if not name.startswith("sklearn_mlcm"):
                continue
            if getattr(module, entry, None) is original:
                monkeypatch.setattr(module, entry, spy)
    return calls


@pytest.fixture
def target_reads(monkeypatch):
    """Count the reads of raw targets, by parameter name ("y_true", ...)."""
    reads = collections.Counter()
    original = _label_space._as_array

    def spy(y, name):
        reads[name] += 1
        return original(y, name)

    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith("sklearn_mlcm"):
            continue
        if getattr(module, "_as_array", None) is original:
            monkeypatch.setattr(module, "_as_array", spy)
    return reads


def test_every_target_callable_has_a_case():
    """Each public function or method that takes targets is a case here,
    hand-written or derived; one that has neither is named."""
    covered = {name for name, _ in CASES}
    missing = sorted(set(_target_callables()) - covered)
    assert not missing, (
        f"no case can be derived for {missing}: add one to HAND_WRITTEN_CASES"
    )
    assert covered == set(_target_callables())


def test_new_target_function_gets_a_derived_case(monkeypatch, entry_calls):
    """A new public function that takes targets gets a case derived from
    its signature, which runs through the entry point once."""

    @validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
    def mlcm_new_matrix(y_true, y_pred):
        return sklearn_mlcm.mlcm_confusion_matrix(y_true, y_pred)

    monkeypatch.setattr(sklearn_mlcm, "mlcm_new_matrix", mlcm_new_matrix, raising=False)
    monkeypatch.setattr(
        sklearn_mlcm, "__all__", [*sklearn_mlcm.__all__, "mlcm_new_matrix"]
    )
    assert "mlcm_new_matrix" in _target_callables()
    cases = _derived_cases()
    assert list(cases) == [("mlcm_new_matrix", "derived")]
    cm = cases["mlcm_new_matrix", "derived"]()
    assert entry_calls == ["validate_targets"]
    assert cm.tolist() == sklearn_mlcm.mlcm_confusion_matrix(T, P).tolist()


@pytest.mark.parametrize("case", list(CASES), ids=[" ".join(c) for c in CASES])
def test_public_call_validates_once(case, entry_calls):
    """One public call goes through the validation entry point exactly once."""
    CASES[case]()
    assert len(entry_calls) == 1, entry_calls


#: The cases that read raw y_true: all but dask input (whose chunks are read
#: where they live, once per chunk and pass) and decide_labels (no y_true).
READ_CASES = [
    case for case in CASES if "dask" not in case[1] and case[0] != "decide_labels"
]


@pytest.mark.parametrize("case", READ_CASES, ids=[" ".join(c) for c in READ_CASES])
def test_public_call_reads_y_true_once(case, target_reads):
    """No layer below the entry point reads y_true again: one read per call."""
    CASES[case]()
    assert target_reads["y_true"] == 1, dict(target_reads)


def test_tuned_folds_take_the_validated_targets(target_reads, monkeypatch):
    """The tuned estimator's folds take their rows of the validated targets:
    with four folds, y is read once (as y_true and y_pred of the entry point)
    and checked once, where the folds used to check their slice each."""
    checks = []
    original = _label_space.check_mlcm_targets

    def spy(*args, **kwargs):
        checks.append(args)
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith("sklearn_mlcm"):
            continue
        if getattr(module, "check_mlcm_targets", None) is original:
            monkeypatch.setattr(module, "check_mlcm_targets", spy)
    sklearn_mlcm.MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(n_neighbors=1), cv=4, thresholds=5
    ).fit(T, T)
    assert dict(target_reads) == {"y_true": 1, "y_pred": 1}
    assert len(checks) == 1


def test_paired_comparison_reads_y_true_once_for_every_frame(target_reads):
    """y_true is read once for three frames of predictions, each aligned to
    its columns by name in the entry point."""
    pd = pytest.importorskip("pandas")
    columns = ["a", "b", "c"]
    sets = {
        "x": pd.DataFrame(P[:, [2, 0, 1]], columns=["c", "a", "b"]),
        "y": pd.DataFrame(P2[:, [1, 2, 0]], columns=["b", "c", "a"]),
        "z": pd.DataFrame(T, columns=columns),
    }
    targets = _targets.validate_targets(
        pd.DataFrame(T, columns=columns),
        None,
        predictions=sets,
        parameters={name: f"y_pred_a[{name!r}]" for name in sets},
    )
    assert dict(target_reads) == {"y_true": 1, "y_pred": 3}
    assert targets.names == columns
    assert targets.space.y_true.tolist() == T.astype(bool).tolist()
    expected = {"x": P, "y": P2, "z": T}
    for name, y in expected.items():
        assert targets.predictions[name].tolist() == y.astype(bool).tolist()


def test_validate_targets_spy_counts_internal_public_calls(entry_calls):
    """The spy counts a second validation: two public calls, two entries."""
    sklearn_mlcm.mlcm_confusion_matrix(T, P)
    sklearn_mlcm.mlcm_f1_score(T, P, zero_division=0.0)
    assert entry_calls == ["validate_targets", "validate_targets"]


def test_validate_targets_kind_and_names():
    """The Targets record says how the input was read and keeps the names."""
    frames = _frames()
    cases = [
        ((T, P), "numpy", ["0", "1", "2"]),
        (
            (
                __import__("scipy.sparse").sparse.csr_array(T),
                __import__("scipy.sparse").sparse.csr_array(P),
            ),
            "sparse",
            ["0", "1", "2"],
        ),
        (frames, "frame", ["a", "b", "c"]),
        (_dask(), "dask", ["0", "1", "2"]),
    ]
    for (y_true, y_pred), kind, names in cases:
        targets = _targets.validate_targets(
            y_true, y_pred, sample_weight=WEIGHT, groups=GROUPS
        )
        assert (targets.kind, targets.names) == (kind, names)
        assert targets.groups.tolist() == GROUPS.tolist()
    targets = _targets.validate_targets(T, P, sample_weight=WEIGHT, labels=[2, 0])
    assert targets.names == ["2", "0"]
    assert targets.weight.dtype == np.float64
    assert targets.space.y_true.tolist() == T[:, [2, 0]].astype(bool).tolist()
