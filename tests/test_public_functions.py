"""Every parameter of every public callable is validated, with one message format.

As scikit-learn's ``sklearn/tests/test_public_functions.py``: the callables are
found by walking ``sklearn_mlcm.__all__`` (functions, constructors and public
methods), so a new public name or parameter is swept without editing this file;
only a valid call of each new callable has to be added to ``VALID_CALLS``, and
the test says so when one is missing. For each parameter, an object of the
wrong type, and a value of the right type outside its constraints, must raise
:class:`~sklearn_mlcm.InvalidParameterError` (a ValueError and a TypeError, as
scikit-learn's), naming the parameter and the callable. Only parameters that
have a value out of range are swept for it, so that every case checks
something.
"""

import inspect
import math
import numbers
import warnings

import matplotlib
import numpy as np
import pytest
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from sklearn.base import clone
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.neighbors import KNeighborsClassifier

import sklearn_mlcm
from sklearn_mlcm._param_validation import Interval, Options, Sequence, _make_constraint

matplotlib.use("Agg")

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
# three methods by two measures (higher is better, lower is better)
DECISION = np.array([[0.9, 0.1], [0.7, 0.3], [0.5, 0.2]])
RANKS = np.array([[1.0, 2.0, 3.0], [1.0, 3.0, 2.0], [2.0, 1.0, 3.0], [1.0, 2.0, 3.0]])
# scores of the three labels of Table 1 (true labels high, predicted ones higher)
SCORES = 0.25 + 0.4 * T + 0.3 * P
CORRELATIONS = np.array([[1.0, 0.5, -0.2], [0.5, 1.0, 0.9], [-0.2, 0.9, 1.0]])

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


def _estimator():
    return KNeighborsClassifier(n_neighbors=1).fit(T, T)


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


def _valid_calls():
    """``qualified name -> (callable, args, kwargs)``: one valid call each."""
    scores = {
        name: (getattr(sklearn_mlcm, name), (T, P), {})
        for name in (
            "mlcm_precision_score",
            "mlcm_precision_recall_fscore_support",
            "mlcm_recall_score",
            "mlcm_f1_score",
            "mlcm_specificity_score",
            "mlcm_confusion_matrix",
            "mlcm_multilabel_confusion_matrix",
            "mlcm_classification_report",
        )
    }
    accumulator = sklearn_mlcm.MLCMAccumulator(3)
    display = sklearn_mlcm.MLCMDisplay(np.array(TABLE_4J))
    cd = sklearn_mlcm.CriticalDifferenceDisplay(np.array([1.2, 2.0, 2.8]), 1.0)
    tuned = sklearn_mlcm.MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(n_neighbors=1), cv=3
    )
    report = sklearn_mlcm.MLCMReport.from_predictions(
        T, P, y_score=SCORES, thresholds=4, zero_division=0.0
    )
    curve = sklearn_mlcm.MLCMThresholdCurveDisplay(
        [0.3, 0.6], [0.5, 0.7], label_scores=[[0.5, 0.4, 0.6], [0.7, 0.6, 0.8]]
    )
    return {
        **scores,
        "mlcm_fbeta_score": (sklearn_mlcm.mlcm_fbeta_score, (T, P), {"beta": 2}),
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
        "confusion_matrix_statistics": (
            sklearn_mlcm.confusion_matrix_statistics,
            (TABLE_4J,),
            {},
        ),
        "most_confused": (sklearn_mlcm.most_confused, (TABLE_4J,), {}),
        "most_confused_labels": (
            sklearn_mlcm.most_confused_labels,
            (TABLE_4J,),
            {"top_k": 2, "order": "cluster"},
        ),
        "labelset_confusions": (sklearn_mlcm.labelset_confusions, (T, P), {}),
        "make_mlcm_scorer": (sklearn_mlcm.make_mlcm_scorer, (), {}),
        "mlcm_scorers": (sklearn_mlcm.mlcm_scorers, (), {}),
        "multilabel_measures": (sklearn_mlcm.multilabel_measures, (T, P), {}),
        "measure_directions": (sklearn_mlcm.measure_directions, (), {}),
        "entropy_weights": (
            sklearn_mlcm.entropy_weights,
            (DECISION,),
            {"maximize": [True, False]},
        ),
        "promethee_ii": (
            sklearn_mlcm.promethee_ii,
            (DECISION,),
            {"maximize": [True, False]},
        ),
        "fuse_measures": (
            sklearn_mlcm.fuse_measures,
            (np.stack([DECISION, DECISION[::-1]]),),
            {"maximize": [True, False]},
        ),
        "friedman_test": (sklearn_mlcm.friedman_test, (RANKS,), {}),
        "nemenyi_test": (sklearn_mlcm.nemenyi_test, (RANKS,), {}),
        "measure_correlations": (
            sklearn_mlcm.measure_correlations,
            (np.stack([DECISION, DECISION[::-1], DECISION * 0.5]),),
            {},
        ),
        "least_correlated_measures": (
            sklearn_mlcm.least_correlated_measures,
            (CORRELATIONS,),
            {},
        ),
        "MLCMAccumulator": (sklearn_mlcm.MLCMAccumulator, (3,), {}),
        "MLCMAccumulator.update": (accumulator.update, (T, P), {}),
        "MLCMAccumulator.merge": (
            accumulator.merge,
            (sklearn_mlcm.MLCMAccumulator(3),),
            {},
        ),
        "MLCMAccumulator.reset": (accumulator.reset, (), {}),
        "MLCMAccumulator.classification_report": (
            sklearn_mlcm.MLCMAccumulator(3).update(T, P).classification_report,
            (),
            {},
        ),
        "MLCMAccumulator.confidence_intervals": (
            sklearn_mlcm.MLCMAccumulator(3, n_resamples=39, random_state=0)
            .update(T, P)
            .confidence_intervals,
            (),
            {},
        ),
        "MLCMDisplay": (sklearn_mlcm.MLCMDisplay, (np.array(TABLE_4J),), {}),
        "MLCMDisplay.plot": (display.plot, (), {}),
        "MLCMDisplay.from_predictions": (
            sklearn_mlcm.MLCMDisplay.from_predictions,
            (T, P),
            {},
        ),
        "MLCMDisplay.from_estimator": (
            sklearn_mlcm.MLCMDisplay.from_estimator,
            (_estimator(), T, T),
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
            (_estimator(), T, T),
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
            (_estimator(), T, T),
            {"thresholds": 4},
        ),
        "MLCMReport.plot": (report.plot, (), {}),
        "MLCMReport.plot_threshold_curve": (report.plot_threshold_curve, (), {}),
        "MLCMReport.to_frame": (report.to_frame, (), {}),
        "MLCMReport.to_markdown": (report.to_markdown, (), {}),
        "MLCMReport.to_latex": (report.to_latex, (), {}),
        "MLCMReport.to_html": (report.to_html, (), {}),
        "CriticalDifferenceDisplay": (
            sklearn_mlcm.CriticalDifferenceDisplay,
            (np.array([1.2, 2.0, 2.8]), 1.0),
            {},
        ),
        "CriticalDifferenceDisplay.plot": (cd.plot, (), {}),
        "MLCMTunedThresholdClassifierCV": (
            _tuned_fit,
            (KNeighborsClassifier(n_neighbors=1),),
            {"cv": 3},
        ),
        "MLCMTunedThresholdClassifierCV.fit": (tuned.fit, (T, T), {}),
        "MLCMTunedThresholdClassifierCV.predict": (
            clone(tuned).fit(T, T).predict,
            (T,),
            {},
        ),
        "MLCMTunedThresholdClassifierCV.get_metadata_routing": (
            tuned.get_metadata_routing,
            (),
            {},
        ),
        "CriticalDifferenceDisplay.from_rank_table": (
            sklearn_mlcm.CriticalDifferenceDisplay.from_rank_table,
            (RANKS,),
            {},
        ),
    }


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


def _parameters(func):
    signature = inspect.signature(func)
    return {
        name: p
        for name, p in signature.parameters.items()
        if name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD
    }


def _constraints_of(func):
    target = func.__init__ if inspect.isclass(func) else func
    return getattr(target, "__mlcm_constraints__", None)


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
    parameterless = {name for name in PUBLIC if not _parameters(calls[name][0])}
    assert set(PUBLIC) == set(calls), (
        "add a valid call of each new public callable to VALID_CALLS: "
        f"{sorted(set(PUBLIC) - set(calls))}"
    )
    assert parameterless == {
        "MLCMAccumulator.reset",
        "MLCMReport.to_frame",
        "MLCMTunedThresholdClassifierCV.get_metadata_routing",
    }


@pytest.mark.parametrize("name", PUBLIC)
def test_public_callable_is_validated(name):
    """Every public callable with parameters declares a constraint for each."""
    func, args, kwargs = _valid_calls()[name]
    parameters = _parameters(func)
    if not parameters:
        return
    constraints = _constraints_of(func)
    assert constraints is not None, f"{name} is not decorated with validate_params"
    assert set(constraints) == set(parameters)
    with warnings.catch_warnings():
        # ill-defined ratios of the tiny example, and the ranking measures
        # that multilabel_measures leaves out without a y_score
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.filterwarnings(
            "ignore", "multilabel_measures got no y_score", UserWarning
        )
        func(*args, **kwargs)  # the valid call passes validation and runs


@pytest.mark.parametrize(
    "name, parameter",
    [
        (name, parameter)
        for name in PUBLIC
        for parameter in _parameters(_valid_calls()[name][0])
    ],
)
def test_public_callable_parameter_wrong_type(name, parameter):
    """An object of the wrong type raises InvalidParameterError naming it."""
    func, args, kwargs = _valid_calls()[name]
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
        for parameter in _parameters(calls[name][0])
        for value in _values_out_of_range(_constraints_of(calls[name][0])[parameter])
    ]


OUT_OF_RANGE = _out_of_range_cases()


@pytest.mark.parametrize("name, parameter, value", OUT_OF_RANGE)
def test_public_callable_parameter_out_of_range(name, parameter, value):
    """A value of the right type outside the constraints raises
    InvalidParameterError, which is a ValueError, naming the parameter."""
    func, args, kwargs = _valid_calls()[name]
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
            for c in _constraints_of(_valid_calls()[name][0])[parameter]
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
    names = list(_parameters(func))
    bound = dict(zip(names, args))
    bound.update(kwargs)
    bound[parameter] = value
    positional = [
        name for name, p in _parameters(func).items() if p.kind is p.POSITIONAL_ONLY
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
