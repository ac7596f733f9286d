"""Every parameter of every public callable is validated, with one message format.

As scikit-learn's ``sklearn/tests/test_public_functions.py``: the callables are
found by walking ``sklearn_mlcm.__all__`` (functions, constructors and public
methods), so a new public name or parameter is swept without editing this file;
a valid call of each is derived from its signature (the required parameters by
name: targets, scores, an estimator, matrices) and its constraints, so a new
public function or method is swept without editing this file either; a callable
that needs more gets a hand-written call, and the test says so, by name, when
one is missing (a failure, not a collection error). For each parameter, an
object of the wrong type, and a value of the right type outside its
constraints, must raise :class:`~sklearn_mlcm.InvalidParameterError` (a
ValueError and a TypeError, as scikit-learn's), naming the parameter and the
callable. Only parameters that have a value out of range are swept for it, so
that every case checks something.
"""

import functools
import inspect
import math
import numbers
import sys
import warnings

import matplotlib
import numpy as np
import pytest
from paper_data import TABLE_4J
from public_calls import (
    DECISION,
    SCORES,
    P,
    T,
    constraints_of,
    derived_call,
    fitted_estimator,
    parameters_of,
)
from scipy.stats import DegenerateDataWarning
from sklearn.base import clone
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.neighbors import KNeighborsClassifier

import sklearn_mlcm
from sklearn_mlcm._param_validation import (
    Interval,
    Options,
    Sequence,
    _make_constraint,
    validate_params,
)

matplotlib.use("Agg")

# Result records the library returns: not built by users, nothing to validate.
RESULT_RECORDS = {
    "ConfidenceIntervalResult",
    "Confusion",
    "FriedmanResult",
    "LabelSetConfusion",
    "NemenyiResult",
    "PairedComparisonResult",
    "PrometheeResult",
    "ScoreInterval",
    "ThresholdCurveResult",
}


def _tuned_fit(*args, **kwargs):
    """The estimator's constructor, checked where scikit-learn estimators
    check their parameters: in fit (check_estimator requires an __init__
    that only stores them)."""
    return sklearn_mlcm.MLCMTunedThresholdClassifierCV(*args, **kwargs).fit(T, T)


_tuned_fit.__signature__ = inspect.signature(
    sklearn_mlcm.MLCMTunedThresholdClassifierCV
)
_tuned_fit.__mlcm_constraints__ = (
    sklearn_mlcm.MLCMTunedThresholdClassifierCV._parameter_constraints
)


class _Recorder:
    """A stand-in for a tracker's module or run: every attribute is a call
    that is recorded and returns a new recorder."""

    def __init__(self, *args, **kwargs):
        self.calls = []

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append(name)
            return _Recorder()

        return call


def _with_tracker(method, module):
    """``method`` (a report's log_mlflow or log_wandb) called with a stand-in
    for the tracker's module: the sweep checks the parameters, which need no
    tracker, everywhere (the trackers' own tests need them)."""

    @functools.wraps(method)
    def call(*args, **kwargs):
        fake = _Recorder()
        fake.run = None  # wandb's active run: none (run= gives one)
        fake.Table = fake.Html = fake.Image = _Recorder
        saved = sys.modules.get(module)
        sys.modules[module] = fake
        try:
            return method(*args, **kwargs)
        finally:
            if saved is None:
                del sys.modules[module]
            else:
                sys.modules[module] = saved

    return call


def _instances(calls):
    """An instance of each public class to call its methods on: those whose
    methods need a state (data added, scores, a fit), else the one the
    class's valid call builds."""
    tuned = sklearn_mlcm.MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(n_neighbors=1), cv=3
    )
    instances = {
        "MLCMAccumulator": sklearn_mlcm.MLCMAccumulator(
            3, n_resamples=39, random_state=0
        ).update(T, P),
        "MLCMReport": sklearn_mlcm.MLCMReport.from_predictions(
            T, P, y_score=SCORES, thresholds=4, zero_division=0.0
        ),
        "MLCMThresholdCurveDisplay": sklearn_mlcm.MLCMThresholdCurveDisplay(
            [0.3, 0.6], [0.5, 0.7], label_scores=[[0.5, 0.4, 0.6], [0.7, 0.6, 0.8]]
        ),
        "MLCMTunedThresholdClassifierCV": clone(tuned).fit(T, T),
    }
    for name in sklearn_mlcm.__all__:
        if name not in instances and name in calls and inspect.isclass(calls[name][0]):
            func, args, kwargs = calls[name]
            instances[name] = func(*args, **kwargs)
    return instances


def _hand_written_calls():
    """The calls that the derivation cannot make, or that need options (fewer
    resamples or thresholds, to run fast; a mode worth running)."""
    report = sklearn_mlcm.MLCMReport.from_predictions(
        T, P, y_score=SCORES, thresholds=4, zero_division=0.0
    )
    curve = sklearn_mlcm.MLCMThresholdCurveDisplay(
        [0.3, 0.6], [0.5, 0.7], label_scores=[[0.5, 0.4, 0.6], [0.7, 0.6, 0.8]]
    )
    return {
        "decide_labels": (sklearn_mlcm.decide_labels, (SCORES,), {"top_k": 2}),
        "mlcm_threshold_curve": (
            sklearn_mlcm.mlcm_threshold_curve,
            (T, SCORES),
            {"thresholds": 5, "one_vs_rest": True},
        ),
        "mlcm_confidence_intervals": (
            sklearn_mlcm.mlcm_confidence_intervals,
            (T, P),
            {"n_resamples": 39},
        ),
        "mlcm_paired_comparison": (
            sklearn_mlcm.mlcm_paired_comparison,
            (T, T, P),
            {"n_resamples": 39},
        ),
        "most_confused_labels": (
            sklearn_mlcm.most_confused_labels,
            (TABLE_4J,),
            {"top_k": 2, "order": "cluster"},
        ),
        "fuse_measures": (
            sklearn_mlcm.fuse_measures,
            (np.stack([DECISION, DECISION[::-1]]),),
            {"maximize": [True, False]},
        ),
        "MLCMAccumulator.merge": (
            sklearn_mlcm.MLCMAccumulator(3).merge,
            (sklearn_mlcm.MLCMAccumulator(3),),
            {},
        ),
        "MLCMThresholdCurveDisplay": (
            sklearn_mlcm.MLCMThresholdCurveDisplay,
            ([0.3, 0.6], [0.5, 0.7]),
            {},
        ),
        "MLCMThresholdCurveDisplay.plot": (curve.plot, (), {"label_lines": 2}),
        "MLCMThresholdCurveDisplay.from_predictions": (
            sklearn_mlcm.MLCMThresholdCurveDisplay.from_predictions,
            (T, SCORES),
            {"thresholds": 4, "one_vs_rest": True},
        ),
        "MLCMThresholdCurveDisplay.from_estimator": (
            sklearn_mlcm.MLCMThresholdCurveDisplay.from_estimator,
            (fitted_estimator(), T, T),
            {"thresholds": 4},
        ),
        "MLCMReport": (
            sklearn_mlcm.MLCMReport,
            (report.confusion_matrix, report.report),
            {
                "target_names": report.target_names,
                "method": "heydarian",
                "n_samples": report.n_samples,
                "most_confused": report.most_confused,
                "labelset_confusions": report.labelset_confusions,
            },
        ),
        "MLCMReport.from_predictions": (
            sklearn_mlcm.MLCMReport.from_predictions,
            (T, P),
            {"y_score": SCORES, "thresholds": 4},
        ),
        "MLCMReport.from_estimator": (
            sklearn_mlcm.MLCMReport.from_estimator,
            (fitted_estimator(), T, T),
            {"thresholds": 4},
        ),
        "MLCMReport.log_mlflow": (
            _with_tracker(report.log_mlflow, "mlflow"),
            (),
            {"plot": False},
        ),
        "MLCMReport.log_wandb": (
            _with_tracker(report.log_wandb, "wandb"),
            (_Recorder(),),
            {"plot": False},
        ),
        "CriticalDifferenceDisplay": (
            sklearn_mlcm.CriticalDifferenceDisplay,
            (np.array([1.2, 2.0, 2.8]), 1.0),
            {},
        ),
        "MLCMTunedThresholdClassifierCV": (
            _tuned_fit,
            (KNeighborsClassifier(n_neighbors=1),),
            {"cv": 3},
        ),
    }


def _valid_calls():
    """``qualified name -> (callable, args, kwargs)``: one valid call of each
    public callable that has one, hand-written (:func:`_hand_written_calls`)
    or derived from its signature and constraints (:func:`~public_calls.derived_call`):
    a new public function or method gets its case without editing this file.
    A callable without either is missing here, which
    :func:`test_every_public_callable_has_a_valid_call` reports by name."""
    calls = _hand_written_calls()
    names = [name for name in _public_callables() if name not in calls]
    classes = [name for name in names if "." not in name]
    for name in classes:  # first: their instances carry the methods
        if (call := derived_call(getattr(sklearn_mlcm, name))) is not None:
            calls[name] = call
    instances = _instances(calls)
    for name in names:
        if name in calls:
            continue
        owner, _, attr = name.partition(".")
        func = getattr(sklearn_mlcm, owner)
        if attr:
            static = inspect.getattr_static(func, attr)
            if not isinstance(static, (classmethod, staticmethod)):
                if owner not in instances:
                    continue
                func = instances[owner]
            func = getattr(func, attr)
        if (call := derived_call(func)) is not None:
            calls[name] = call
    return calls


def _case(name):
    """The valid call of ``name``, or a failure that says to add one."""
    calls = _valid_calls()
    if name not in calls:
        pytest.fail(
            f"{name}: no valid call can be derived from its signature and "
            "constraints; add one to _hand_written_calls"
        )
    return calls[name]


def _public_callables():
    """Qualified names of every public function, constructor and method."""
    names = []
    for name in sklearn_mlcm.__all__:
        obj = getattr(sklearn_mlcm, name)
        if name == "__version__" or name in RESULT_RECORDS:
            continue
        if inspect.isclass(obj) and issubclass(obj, Exception):
            continue  # raised by the library, not called by users
        if inspect.isclass(obj):
            names.append(name)
            for attr, value in vars(obj).items():
                if attr.startswith("_") or isinstance(value, property):
                    continue
                if callable(value) or isinstance(value, (classmethod, staticmethod)):
                    names.append(f"{name}.{attr}")
        else:
            names.append(name)
    return names


PUBLIC = _public_callables()


def _resolve(name):
    """The public callable ``name`` itself (a class, a function, a method of
    the class), whose signature needs no valid call."""
    owner, _, attr = name.partition(".")
    func = getattr(sklearn_mlcm, owner)
    return getattr(func, attr) if attr else func


def _values_out_of_range(constraints):
    """Values of a type some constraint takes that no constraint accepts."""
    constraints = [_make_constraint(c) for c in constraints]
    candidates = []
    for constraint in constraints:
        if isinstance(constraint, Options):
            if any(isinstance(o, str) for o in constraint.options):
                candidates.append("not-an-option")
            else:
                candidates.append(0.5 if 0.5 not in constraint.options else 0.25)
        elif isinstance(constraint, Interval):
            step = 1 if constraint.kind is numbers.Integral else 0.5
            if constraint.left is not None:
                candidates.append(constraint.left - step)
            if constraint.right is not None:
                candidates.append(constraint.right + step)
            if constraint.kind is numbers.Real:
                candidates.append(math.nan)
        elif isinstance(constraint, Sequence):
            if constraint.min_length:
                candidates.append([])
            if constraint.unique:
                candidates.append(["a", "a"])
            if constraint.options is not None:
                candidates.append(["not-an-option"])
    return [
        value
        for value in candidates
        if not any(c.is_satisfied_by(value) for c in constraints)
    ]


def test_every_public_callable_has_a_valid_call():
    """The registry of valid calls covers exactly the public callables."""
    calls = _valid_calls()
    assert set(PUBLIC) == set(calls), (
        "no valid call can be derived for these public callables; add one to "
        f"_hand_written_calls: {sorted(set(PUBLIC) - set(calls))}"
    )
    parameterless = {name for name in PUBLIC if not parameters_of(calls[name][0])}
    assert parameterless == {
        "MLCMAccumulator.reset",
        "MLCMReport.to_frame",
        "MLCMTunedThresholdClassifierCV.get_metadata_routing",
    }


@pytest.mark.parametrize("name", PUBLIC)
def test_public_callable_is_validated(name):
    """Every public callable with parameters declares a constraint for each."""
    func, args, kwargs = _case(name)
    parameters = parameters_of(func)
    if not parameters:
        return
    constraints = constraints_of(func)
    assert constraints is not None, f"{name} is not decorated with validate_params"
    assert set(constraints) == set(parameters)
    with warnings.catch_warnings():
        # ill-defined ratios of the tiny example, and the ranking measures
        # that multilabel_measures leaves out without a y_score
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        # and the flagged intervals of its few instances (issue #32)
        warnings.filterwarnings("ignore", ".*intervals flagged", DegenerateDataWarning)
        warnings.filterwarnings(
            "ignore", "multilabel_measures got no y_score", UserWarning
        )
        func(*args, **kwargs)  # the valid call passes validation and runs


@pytest.mark.parametrize(
    "name, parameter",
    [
        (name, parameter)
        for name in PUBLIC
        for parameter in parameters_of(_resolve(name))
    ],
)
def test_public_callable_parameter_wrong_type(name, parameter):
    """An object of the wrong type raises InvalidParameterError naming it."""
    func, args, kwargs = _case(name)
    call = _call_with(func, args, kwargs, parameter, object())
    caller = name.replace(".__init__", "")
    with pytest.raises(
        sklearn_mlcm.InvalidParameterError,
        match=f"'{parameter}' parameter of {caller}",
    ):
        call()


def _out_of_range_cases():
    """``(name, parameter, value)`` for every parameter that has a value of a
    right type outside its constraints; the others have nothing to check."""
    calls = _valid_calls()
    return [
        (name, parameter, value)
        for name in PUBLIC
        if name in calls  # a missing call fails its own test, by name
        for parameter in parameters_of(calls[name][0])
        for value in _values_out_of_range(constraints_of(calls[name][0])[parameter])
    ]


OUT_OF_RANGE = _out_of_range_cases()


@pytest.mark.parametrize("name, parameter, value", OUT_OF_RANGE)
def test_public_callable_parameter_out_of_range(name, parameter, value):
    """A value of the right type outside the constraints raises
    InvalidParameterError, which is a ValueError, naming the parameter."""
    func, args, kwargs = _case(name)
    call = _call_with(func, args, kwargs, parameter, value)
    with pytest.raises(ValueError, match=f"'{parameter}' parameter of {name}") as info:
        call()
    assert isinstance(info.value, sklearn_mlcm.InvalidParameterError)


def test_public_callable_out_of_range_sweep_is_not_vacuous():
    """Every swept case has a value to refuse, and the sweep reaches the
    parameters with ranges or options of every kind of callable."""
    assert all(
        not any(
            _make_constraint(c).is_satisfied_by(value)
            for c in constraints_of(_valid_calls()[name][0])[parameter]
        )
        for name, parameter, value in OUT_OF_RANGE
    )
    swept = {(name, parameter) for name, parameter, _ in OUT_OF_RANGE}
    for case in [
        ("mlcm_confusion_matrix", "normalize"),
        ("mlcm_f1_score", "average"),
        ("mlcm_fbeta_score", "beta"),
        ("mlcm_classification_report", "digits"),
        ("most_confused", "top_k"),
    ]:
        assert case in swept


def _call_with(func, args, kwargs, parameter, value):
    """A call of ``func`` with ``parameter`` set to ``value``, the rest valid."""
    names = list(parameters_of(func))
    bound = dict(zip(names, args))
    bound.update(kwargs)
    bound[parameter] = value
    positional = [
        name for name, p in parameters_of(func).items() if p.kind is p.POSITIONAL_ONLY
    ]
    call_args = [bound.pop(name) for name in positional if name in bound]
    return lambda: func(*call_args, **bound)


def test_make_mlcm_scorer_keywords_are_swept():
    """The scorer's keywords are validated with the score function's own
    constraints, when the scorer is made."""
    for parameter in ("labels", "zero_division", "include_no_label"):
        with pytest.raises(
            sklearn_mlcm.InvalidParameterError,
            match=f"'{parameter}' parameter of make_mlcm",
        ):
            sklearn_mlcm.make_mlcm_scorer("f1", **{parameter: object()})


def _new_public_function(monkeypatch, func):
    """``func`` made a public name of the package for one test."""
    monkeypatch.setattr(sklearn_mlcm, func.__name__, func, raising=False)
    monkeypatch.setattr(sklearn_mlcm, "__all__", [*sklearn_mlcm.__all__, func.__name__])


def test_new_public_function_gets_a_derived_call(monkeypatch):
    """A new public function is swept without a hand-written case: its
    targets by name, its other required parameters from its constraints."""

    @validate_params(
        {
            "y_true": ["array-like"],
            "y_pred": ["array-like"],
            "beta": [Interval(numbers.Real, 0, None, closed="neither")],
            "mode": [Options("fast", "exact")],
            "average": [Options("micro", "macro")],
        }
    )
    def mlcm_new_score(y_true, y_pred, beta, mode, *, average="macro"):
        return y_true, y_pred, beta, mode, average

    _new_public_function(monkeypatch, mlcm_new_score)
    assert "mlcm_new_score" in _public_callables()
    func, args, kwargs = _valid_calls()["mlcm_new_score"]
    assert func(*args, **kwargs) == (T, P, 1.0, "exact", "macro")


def test_public_callable_without_a_derivable_call_fails_by_name(monkeypatch):
    """A required parameter with no value by name nor from its constraints
    makes a clear failure that names the callable, not a collection error."""

    @validate_params({"y_true": ["array-like"], "scorer": ["callable"]})
    def mlcm_new_scorer_report(y_true, scorer):
        return scorer(y_true)

    _new_public_function(monkeypatch, mlcm_new_scorer_report)
    assert "mlcm_new_scorer_report" not in _valid_calls()
    with pytest.raises(pytest.fail.Exception, match="mlcm_new_scorer_report: no valid"):
        _case("mlcm_new_scorer_report")
