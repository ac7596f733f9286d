"""Valid calls of public callables, derived from their signatures and constraints.

Shared by ``test_public_functions.py`` (every parameter validated),
``test_validate_once.py`` (every call validates its targets once) and
``test_array_api.py`` (every call that takes targets dispatches): a required
parameter takes its value by name (:data:`ARGUMENTS`: the Table 1 targets and
scores, an estimator fitted on them, the examples' matrices, decision
matrices and rank tables), else a value its ``validate_params`` constraints
accept; so a new public function or method gets a case without a
hand-written one, unless it needs one.
"""

import inspect

import numpy as np
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from sklearn.neighbors import KNeighborsClassifier

from sklearn_mlcm._param_validation import Options, _make_constraint

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
# three methods by two measures (higher is better, lower is better)
DECISION = np.array([[0.9, 0.1], [0.7, 0.3], [0.5, 0.2]])
RANKS = np.array([[1.0, 2.0, 3.0], [1.0, 3.0, 2.0], [2.0, 1.0, 3.0], [1.0, 2.0, 3.0]])
# scores of the three labels of Table 1 (true labels high, predicted ones higher)
SCORES = 0.25 + 0.4 * T + 0.3 * P
CORRELATIONS = np.array([[1.0, 0.5, -0.2], [0.5, 1.0, 0.9], [-0.2, 0.9, 1.0]])


def fitted_estimator():
    """A 1-nearest-neighbour classifier fitted on Table 1 (X = y = T)."""
    return KNeighborsClassifier(n_neighbors=1).fit(T, T)


#: The value of a required parameter, by its name, in the derived calls: the
#: Table 1 targets and scores, an estimator fitted on them, and the matrices,
#: decision matrices and rank tables of the examples above.
ARGUMENTS = {
    "y_true": lambda: T,
    "y_pred": lambda: P,
    "y_score": lambda: SCORES,
    "X": lambda: T,
    "y": lambda: T,
    "estimator": lambda: fitted_estimator(),
    "cm": lambda: np.array(TABLE_4J),
    "confusion_matrix": lambda: np.array(TABLE_4J),
    "n_labels": lambda: 3,
    "decision_matrix": lambda: DECISION,
    "maximize": lambda: [True, False],
    "results": lambda: np.stack([DECISION, DECISION[::-1], DECISION * 0.5]),
    "rank_table": lambda: RANKS,
    "correlations": lambda: CORRELATIONS,
}

_NO_VALUE = object()


def valid_value(constraints):
    """A value that one of ``constraints`` accepts: an option, else a number
    or a boolean; ``_NO_VALUE`` when none of these fits."""
    constraints = [_make_constraint(c) for c in constraints]
    candidates = [
        option
        for c in constraints
        if isinstance(c, Options)
        for option in sorted(c.options, key=repr)
    ]
    for value in [*candidates, 1.0, 2, 0.5, True]:
        if any(c.is_satisfied_by(value) for c in constraints):
            return value
    return _NO_VALUE


def derived_call(func):
    """``(func, (), kwargs)``: a call of ``func`` with each required parameter
    given by its name (:data:`ARGUMENTS`) or a value its constraints accept,
    the others left at their defaults; None when a parameter has neither."""
    constraints = constraints_of(func) or {}
    kwargs = {}
    for name, parameter in parameters_of(func).items():
        if parameter.default is not parameter.empty:
            continue
        if parameter.kind is parameter.POSITIONAL_ONLY or name not in (
            *ARGUMENTS,
            *constraints,
        ):
            return None
        if name in ARGUMENTS:
            kwargs[name] = ARGUMENTS[name]()
        elif (value := valid_value(constraints[name])) is not _NO_VALUE:
            kwargs[name] = value
        else:
            return None
    return func, (), kwargs


#: The parameters that take targets or scores.
TARGET_PARAMETERS = {"y_true", "y", "y_pred", "y_score"}


def target_callables():
    """The public functions and methods (``Class.method``) of
    ``sklearn_mlcm.__all__`` with a parameter among the targets, sorted."""
    import sklearn_mlcm

    names = []
    for name in sklearn_mlcm.__all__:
        obj = getattr(sklearn_mlcm, name)
        members = [(name, obj)]
        if inspect.isclass(obj):
            members = [
                (f"{name}.{attr}", getattr(obj, attr))
                for attr in vars(obj)
                if not attr.startswith("_") and callable(getattr(obj, attr))
            ]
        for qualified, func in members:
            try:
                parameters = inspect.signature(func).parameters
            except (TypeError, ValueError):  # pragma: no cover - builtins
                continue
            if TARGET_PARAMETERS & set(parameters):
                names.append(qualified)
    return sorted(names)


def parameters_of(func):
    """The parameters of ``func`` a caller passes (not self, cls, **kwargs)."""
    signature = inspect.signature(func)
    return {
        name: p
        for name, p in signature.parameters.items()
        if name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD
    }


def constraints_of(func):
    """The ``validate_params`` constraints of ``func`` (of a class: its
    constructor's), or None."""
    target = func.__init__ if inspect.isclass(func) else func
    return getattr(target, "__mlcm_constraints__", None)
