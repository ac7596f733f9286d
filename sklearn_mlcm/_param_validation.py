"""Declarative parameter validation: one decorator behind every public name.

In the spirit of scikit-learn's ``validate_params`` (which is private to
scikit-learn, so not used here): the constraints of each parameter are
declared above the function, the decorator checks them all before the body
runs, and every refusal has one format::

    The 'normalize' parameter of mlcm_confusion_matrix must be one of
    {'all', 'pred', 'true'} or None. Got 'foo' instead.

A constraint is a type (``str``, ``numbers.Real``), one of the strings
``"array-like"``, ``"sparse matrix"``, ``"boolean"``, ``"callable"``,
``"iterable"``, ``None``, or an object of this module (:class:`Options`,
:class:`Interval`, :class:`HasMethods`, :class:`Functions`, :class:`Sequence`,
:data:`ZERO_DIVISION`'s parts).
A value that none of the constraints accepts raises
:class:`InvalidParameterError`, which is both a ValueError and a TypeError (as
scikit-learn's is), so that code written against scikit-learn (``except
ValueError``) works whatever was wrong: the type or the value.

Only the parameters' own values are checked here. What depends on the data
(shapes, 0/1 values, label names, weights of the right length) is checked in
:mod:`._validation`, which raises :class:`InvalidInputError` (also both a
ValueError and a TypeError), whose messages name the same public function: the
decorator records the name of the outermost public call in a context
variable that :func:`current_function` reads.
"""

import collections.abc
import contextlib
import contextvars
import functools
import inspect
import math
import numbers

import numpy as np
from scipy import sparse

__all__ = [
    "Functions",
    "HasMethods",
    "Interval",
    "InvalidInputError",
    "InvalidParameterError",
    "Options",
    "Sequence",
    "ZERO_DIVISION",
    "check_keywords",
    "current_function",
    "invalid_parameter",
    "public_call",
    "validate_keywords",
    "validate_params",
]


class InvalidParameterError(ValueError, TypeError):
    """A parameter of a public function has a wrong type or value.

    Raised by the declarative checks of every public function and of the
    display and comparison classes. It is both a ValueError and a TypeError, as
    scikit-learn's ``InvalidParameterError`` is, so ``except ValueError`` and
    ``except TypeError`` both catch it.

    Examples
    --------
    >>> from sklearn_mlcm import InvalidParameterError, mlcm_confusion_matrix
    >>> try:
    ...     mlcm_confusion_matrix([0, 1], [0, 1], normalize="rows")
    ... except InvalidParameterError as exc:
    ...     print(exc)
    The 'normalize' parameter of mlcm_confusion_matrix must be one of {'all', \
'pred', 'true'} or None. Got 'rows' instead.
    """


class InvalidInputError(ValueError, TypeError):
    """The data given to a public function cannot be read as asked.

    Raised when targets, scores, weights, label names or matrices are refused:
    values other than 0 and 1, shapes that do not match, label names that
    differ, NaN, a result larger than the memory bound. Like
    :class:`InvalidParameterError` it is both a ValueError and a TypeError; the
    command line prints it as one line (exit status 2), where any other
    exception is a bug.

    Examples
    --------
    >>> from sklearn_mlcm import InvalidInputError, mlcm_confusion_matrix
    >>> try:
    ...     mlcm_confusion_matrix([[0, 2]], [[0, 1]])
    ... except InvalidInputError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ValueError))
    InvalidInputError True
    """


_CURRENT = contextvars.ContextVar("sklearn_mlcm_public_call", default=None)


def current_function():
    """The name of the public function being called (for error messages).

    The one way the caller's name reaches a message: no helper takes it as an
    argument.
    """
    return _CURRENT.get() or "sklearn_mlcm"


@contextlib.contextmanager
def public_call(name):
    """Run a block as part of the public call ``name``.

    For work done outside the decorated function: a dask task, which runs
    later in another thread or process where the context variable set by the
    decorator is not seen, or a scorer that reads a frame before it calls its
    score. A refusal there names the public function, as one inside it does.
    """
    token = _CURRENT.set(name)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _short_repr(value, limit=80):
    """``repr(value)``, shortened for arrays and long containers; a function
    by its qualified name (its repr has an address)."""
    if isinstance(value, np.ndarray) or sparse.issparse(value):
        return f"{type(value).__name__} of shape {value.shape}"
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return f"the function {value.__module__}.{value.__qualname__}"
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 5] + " ...)"
    return text


class _Constraint:
    """Base of the constraint objects: a test, a description, a type test."""

    def is_satisfied_by(self, value):
        raise NotImplementedError


class _InstanceOf(_Constraint):
    def __init__(self, kind):
        self.kind = kind

    def is_satisfied_by(self, value):
        if self.kind in (numbers.Integral, numbers.Real, int, float) and isinstance(
            value, (bool, np.bool_)
        ):
            return False
        return isinstance(value, self.kind)

    def __str__(self):
        names = {
            numbers.Integral: "an int",
            numbers.Real: "a float",
            str: "a str",
            dict: "a dict",
        }
        return names.get(self.kind, f"an instance of {self.kind.__name__!r}")


class _NoneConstraint(_Constraint):
    def is_satisfied_by(self, value):
        return value is None

    def __str__(self):
        return "None"


class _Boolean(_Constraint):
    def is_satisfied_by(self, value):
        return isinstance(value, (bool, np.bool_))

    def __str__(self):
        return "a bool"


class _Callable(_Constraint):
    def is_satisfied_by(self, value):
        return callable(value)

    def __str__(self):
        return "a callable"


class _ArrayLike(_Constraint):
    """Anything NumPy can read as an array, except a scalar, str or set."""

    def is_satisfied_by(self, value):
        if isinstance(value, (str, bytes, set, frozenset, dict)):
            return False
        return (
            hasattr(value, "__len__")
            or hasattr(value, "shape")
            or hasattr(value, "__array__")
            or hasattr(value, "__dataframe__")  # any dataframe library
            or hasattr(value, "__arrow_c_stream__")
            or type(value).__module__.split(".")[0] == "polars"  # a LazyFrame
        )

    def __str__(self):
        return "an array-like"


class _Iterable(_Constraint):
    """Anything to iterate over (a generator of splits), except a str."""

    def is_satisfied_by(self, value):
        return isinstance(value, collections.abc.Iterable) and not isinstance(
            value, (str, bytes)
        )

    def __str__(self):
        return "an iterable"


class _SparseMatrix(_Constraint):
    def is_satisfied_by(self, value):
        return sparse.issparse(value)

    def __str__(self):
        return "a sparse matrix"


class Options(_Constraint):
    """One of a fixed set of values (strings, or numbers compared by value).

    ``None`` is not an option: list the constraint ``None`` beside it.
    """

    def __init__(self, *options):
        self.options = options

    def is_satisfied_by(self, value):
        for option in self.options:
            if isinstance(option, str):
                if isinstance(value, str) and value == option:
                    return True
            elif isinstance(option, float) and math.isnan(option):
                if (
                    isinstance(value, numbers.Real)
                    and not isinstance(value, (bool, np.bool_))
                    and math.isnan(value)
                ):
                    return True
            elif (
                isinstance(value, numbers.Real)
                and not isinstance(value, (bool, np.bool_))
                and value == option
            ):
                return True
        return False

    def __str__(self):
        shown = []
        for option in self.options:
            if isinstance(option, float) and math.isnan(option):
                shown.append("np.nan")
            else:
                shown.append(repr(option))
        if all(isinstance(o, str) for o in self.options):
            shown.sort()
        return "one of {" + ", ".join(shown) + "}"


class Interval(_Constraint):
    """A real or integral number in a range; bounds may be None (unbounded).

    ``closed`` is "both", "left", "right" or "neither". Infinite and NaN
    values are refused unless ``allow_inf`` (and a bound is infinite).
    """

    def __init__(self, kind, left, right, *, closed="both", allow_inf=False):
        if kind not in (numbers.Integral, numbers.Real):
            raise TypeError("kind must be numbers.Integral or numbers.Real")
        self.kind, self.left, self.right = kind, left, right
        self.closed, self.allow_inf = closed, allow_inf

    def accepts_type_of(self, value):
        if isinstance(value, (bool, np.bool_)):
            return False
        return isinstance(value, self.kind)

    def is_satisfied_by(self, value):
        if not self.accepts_type_of(value):
            return False
        if math.isnan(value) or (math.isinf(value) and not self.allow_inf):
            return False
        if self.left is not None:
            if value < self.left or (
                value == self.left and self.closed in ("right", "neither")
            ):
                return False
        if self.right is not None:
            if value > self.right or (
                value == self.right and self.closed in ("left", "neither")
            ):
                return False
        return True

    def __str__(self):
        kind = "an int" if self.kind is numbers.Integral else "a float"
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        open_left = self.left is None or self.closed in ("right", "neither")
        open_right = self.right is None or self.closed in ("left", "neither")
        return (
            f"{kind} in the range {'(' if open_left else '['}{left}, "
            f"{right}{')' if open_right else ']'}"
        )


class HasMethods(_Constraint):
    """An object with the given methods (an estimator: ``"predict"``)."""

    def __init__(self, *methods):
        self.methods = methods

    def is_satisfied_by(self, value):
        return all(callable(getattr(value, m, None)) for m in self.methods)

    def __str__(self):
        shown = " and ".join(repr(m) for m in self.methods)
        return f"an object implementing {shown}"


class Functions(_Constraint):
    """One of the given functions, the very objects (not their names)."""

    def __init__(self, *functions):
        self.functions = functions

    def is_satisfied_by(self, value):
        return any(value is f for f in self.functions)

    def __str__(self):
        names = sorted(f.__name__ for f in self.functions)
        return "one of the functions " + ", ".join(names)


class Sequence(_Constraint):
    """An ordered, sized collection (list, tuple, array, pandas Index), not a
    str, set or dict; optionally with a fixed element type, each element one
    of ``options`` (then named in the message) and no repeats."""

    def __init__(self, element=None, *, options=None, unique=False, min_length=0):
        self.element, self.unique, self.min_length = element, unique, min_length
        self.options = None if options is None else Options(*options)

    def accepts_type_of(self, value):
        if isinstance(value, (str, bytes, set, frozenset, dict)):
            return False
        if isinstance(value, np.ndarray):
            return value.ndim == 1
        return hasattr(value, "__len__") and hasattr(value, "__getitem__")

    def is_satisfied_by(self, value):
        if not self.accepts_type_of(value):
            return False
        items = list(value)
        if len(items) < self.min_length:
            return False
        if self.element is not None and not all(
            isinstance(v, self.element) for v in items
        ):
            return False
        if self.options is not None and not all(
            self.options.is_satisfied_by(v) for v in items
        ):
            return False
        if self.unique:
            try:
                return len(set(items)) == len(items)
            except TypeError:  # unhashable elements
                return False
        return True

    def __str__(self):
        text = "a list"
        if self.min_length:
            text = "a non-empty list"
        if self.element is not None:
            text += f" of {self.element.__name__}"
        if self.unique:
            text += " without repeats"
        if self.options is not None:
            text += f", each {self.options}"
        return text


class _NaN(_Constraint):
    def is_satisfied_by(self, value):
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, (bool, np.bool_))
            and math.isnan(value)
        )

    def __str__(self):
        return "np.nan"


#: The ``zero_division`` values of scikit-learn: "warn", 0.0, 1.0 or np.nan.
ZERO_DIVISION = [Options("warn", 0.0, 1.0, float("nan"))]


def _make_constraint(spec):
    if isinstance(spec, _Constraint):
        return spec
    if spec is None:
        return _NoneConstraint()
    if isinstance(spec, str):
        return {
            "array-like": _ArrayLike,
            "sparse matrix": _SparseMatrix,
            "boolean": _Boolean,
            "callable": _Callable,
            "iterable": _Iterable,
        }[spec]()
    if isinstance(spec, type):
        return _InstanceOf(spec)
    raise TypeError(f"Unknown constraint {spec!r}")


def invalid_parameter(name, expected, value):
    """The one message format of a refused parameter, as an exception."""
    return InvalidParameterError(
        f"The {name!r} parameter of {current_function()} must be {expected}. Got "
        f"{_short_repr(value)} instead."
    )


def _describe(constraints):
    texts = [str(c) for c in constraints if not isinstance(c, _NoneConstraint)]
    text = ", ".join(texts[:-1]) + (" or " if len(texts) > 1 else "") + texts[-1]
    if any(isinstance(c, _NoneConstraint) for c in constraints):
        text += " or None"
    return text


def check_parameter(value, constraints, name):
    """Raise :class:`InvalidParameterError` unless a constraint accepts
    ``value``."""
    constraints = [_make_constraint(c) for c in constraints]
    if any(c.is_satisfied_by(value) for c in constraints):
        return
    raise invalid_parameter(name, _describe(constraints), value)


def _public_name(func):
    qualname = func.__qualname__.split("<locals>.")[-1]
    if qualname.endswith(".__init__"):
        return qualname[: -len(".__init__")]
    return qualname


def validate_params(constraints, *, rules=()):
    """Check the declared parameters of a public function before it runs.

    Parameters
    ----------
    constraints : dict of str to list
        For each parameter, the constraints of which one must hold. Every
        parameter of the function (but ``self``/``cls`` and ``**kwargs``)
        must be declared, so that a new parameter cannot go unchecked.
    rules : sequence of callables
        Checks across parameters, ``rule(arguments)`` with the bound
        arguments as a dict; a rule raises through :func:`invalid_parameter`.
    """

    def decorate(func):
        signature = inspect.signature(func)
        declared = {
            name
            for name, p in signature.parameters.items()
            if name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD
        }
        if declared != set(constraints):
            raise TypeError(
                f"validate_params of {func.__qualname__}: the constraints must "
                f"name exactly its parameters {sorted(declared)}; got "
                f"{sorted(constraints)}."
            )
        public_name = _public_name(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            # the outermost public call names every refusal, down to the data
            token = _CURRENT.set(public_name) if _CURRENT.get() is None else None
            try:
                try:
                    bound = signature.bind(*args, **kwargs)
                except TypeError as exc:
                    raise TypeError(f"{public_name}: {exc}") from None
                bound.apply_defaults()
                arguments = bound.arguments
                for name, specs in constraints.items():
                    check_parameter(arguments[name], specs, name)
                for rule in rules:
                    rule(arguments)
                return func(*args, **kwargs)
            finally:
                if token is not None:
                    _CURRENT.reset(token)

        wrapper.__mlcm_constraints__ = constraints
        return wrapper

    return decorate


def validate_keywords(func, keywords, *, exclude=()):
    """Check ``keywords`` meant for the decorated ``func`` now, against its
    declared constraints (a scorer's options, checked when it is made)."""
    check_keywords(func.__name__, func.__mlcm_constraints__, keywords, exclude=exclude)


def check_keywords(owner, constraints, keywords, *, exclude=()):
    """Check ``keywords`` against ``constraints``, the options of ``owner``
    (a function's name, or a description such as "the scorer of 'jaccard'")."""
    for name, value in keywords.items():
        if name not in constraints or name in exclude:
            allowed = sorted(set(constraints) - set(exclude))
            raise invalid_parameter(
                name,
                f"left out: {owner} takes no {name!r} (its options are {allowed})",
                value,
            )
        check_parameter(value, constraints[name], name)
