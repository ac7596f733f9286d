"""The declarative parameter layer itself: constraints, messages, error types."""

import math
import numbers
import threading

import numpy as np
import pytest
from scipy import sparse

from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Functions,
    HasMethods,
    Interval,
    Options,
    Sequence,
    current_function,
    public_call,
    validate_keywords,
    validate_params,
)


@validate_params(
    {
        "x": ["array-like", "sparse matrix"],
        "mode": [Options("a", "b"), None],
        "k": [Interval(numbers.Integral, 1, 10)],
        "rate": [Interval(numbers.Real, 0, 1, closed="neither")],
        "flag": ["boolean"],
        "names": [Sequence(str, unique=True), None],
        "zero_division": ZERO_DIVISION,
    }
)
def _demo(x, *, mode=None, k=1, rate=0.5, flag=False, names=None, zero_division=0.0):
    """A function with one parameter of each kind; returns the current name."""
    return current_function()


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (
            {"mode": "c"},
            ValueError,
            "The 'mode' parameter of _demo must be one of {'a', 'b'} or None. "
            "Got 'c' instead.",
        ),
        (
            {"mode": 1},
            TypeError,
            "The 'mode' parameter of _demo must be one of {'a', 'b'} or None. "
            "Got 1 instead.",
        ),
        (
            {"k": 0},
            ValueError,
            "The 'k' parameter of _demo must be an int in the range [1, 10]. "
            "Got 0 instead.",
        ),
        ({"k": 2.0}, TypeError, "'k' parameter of _demo must be an int in"),
        ({"k": True}, TypeError, "'k' parameter of _demo must be an int in"),
        (
            {"rate": 1},
            ValueError,
            "The 'rate' parameter of _demo must be a float in the range (0, 1). "
            "Got 1 instead.",
        ),
        ({"rate": math.nan}, ValueError, "'rate' parameter of _demo"),
        ({"flag": "no"}, TypeError, "The 'flag' parameter of _demo must be a bool."),
        ({"flag": 1}, TypeError, "'flag' parameter of _demo must be a bool"),
        ({"names": "ab"}, TypeError, "'names' parameter of _demo must be a list of"),
        ({"names": {"a", "b"}}, TypeError, "'names' parameter of _demo"),
        ({"names": ["a", "a"]}, ValueError, "a list of str without repeats"),
        (
            {"zero_division": 2},
            ValueError,
            "must be one of {'warn', 0.0, 1.0, np.nan}. Got 2 instead.",
        ),
        ({"zero_division": None}, TypeError, "'zero_division' parameter of _demo"),
    ],
)
def test_validate_params_messages(kwargs, error, message):
    """Each refusal names the parameter and the function, the expected values
    and what arrived; a wrong type is a TypeError, a wrong value a ValueError."""
    with pytest.raises(error) as info:
        _demo([1], **kwargs)
    assert message in str(info.value)


def test_validate_params_accepts_valid_values():
    """Valid values of every kind pass, NumPy scalars included."""
    assert _demo(sparse.csr_array(np.eye(2))) == "_demo"
    _demo(
        np.zeros(3),
        mode="a",
        k=np.int64(10),
        rate=np.float32(0.25),
        flag=np.True_,
        names=np.array(["a", "b"]),
        zero_division=math.nan,
    )
    _demo((1, 2), names=("x",), zero_division="warn")


@pytest.mark.parametrize("x", [None, 3, "abc", {1, 2}, object()])
def test_validate_params_array_like_refuses_scalars_and_sets(x):
    """A scalar, str, set or arbitrary object is not an array-like."""
    with pytest.raises(TypeError, match="'x' parameter of _demo must be an array-like"):
        _demo(x)


def test_validate_params_long_values_are_shortened():
    """An array in a message is described by its shape, not printed."""
    with pytest.raises(TypeError, match="Got ndarray of shape \\(1000,\\) instead"):
        _demo([1], mode=np.zeros(1000))


def test_validate_params_must_declare_every_parameter():
    """A parameter without constraints is a programming error, at import."""
    with pytest.raises(TypeError, match="must name exactly its parameters"):

        @validate_params({"a": [None]})
        def f(a, b=None):
            return a


def test_validate_params_bad_call_names_the_function():
    """A missing or unexpected argument names the public function."""
    with pytest.raises(TypeError, match="_demo: missing a required argument: 'x'"):
        _demo()
    with pytest.raises(TypeError, match="_demo: got an unexpected keyword"):
        _demo([1], other=1)


def test_current_function_is_the_outermost_public_call():
    """A public function calling another keeps the outer name in messages."""

    @validate_params({"y": ["array-like"]})
    def outer(y):
        return _demo(y)

    assert outer([1]) == "outer"
    assert _demo([1]) == "_demo"
    assert current_function() == "sklearn_mlcm"


def test_current_function_is_per_thread():
    """Concurrent calls in threads each see their own public name."""
    seen = []

    @validate_params({"y": ["array-like"]})
    def other(y):
        return current_function()

    def run(func, name):
        for _ in range(200):
            seen.append(func([1]) == name)

    threads = [
        threading.Thread(target=run, args=(_demo, "_demo")),
        threading.Thread(target=run, args=(other, "other")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 400 and all(seen)


def test_has_methods():
    """HasMethods accepts objects with the callables it names."""

    @validate_params({"estimator": [HasMethods("fit", "predict")]})
    def use(estimator):
        return True

    class Model:
        def fit(self):
            return self

        def predict(self):
            return None

    assert use(Model())
    with pytest.raises(TypeError, match="implementing 'fit' and 'predict'"):
        use(object())


def test_functions():
    """Functions accepts the very functions it names, not others of the same
    name; a refusal names the function that arrived by its qualified name."""

    @validate_params({"f": [Options("sum"), Functions(math.floor, math.ceil)]})
    def use(f):
        return f

    assert use(math.floor) is math.floor
    assert use("sum") == "sum"
    message = (
        "The 'f' parameter of use must be one of {'sum'} or one of the functions "
        "ceil, floor. Got the function math.sqrt instead."
    )
    with pytest.raises(TypeError) as info:
        use(math.sqrt)
    assert str(info.value) == message
    with pytest.raises(TypeError, match="Got the function .*_demo instead"):
        use(_demo)
    with pytest.raises(TypeError, match="functions ceil, floor. Got 'floor' inst"):
        use("floor")


def test_validate_keywords():
    """Keywords meant for a decorated function are checked against its
    constraints, and unknown ones refused, naming the public call under way."""
    with public_call("maker"):
        validate_keywords(_demo, {"k": 3})
        with pytest.raises(ValueError, match="'k' parameter of maker"):
            validate_keywords(_demo, {"k": 30})
        with pytest.raises(
            TypeError, match="'other' parameter of maker .*_demo takes no"
        ):
            validate_keywords(_demo, {"other": 1})
        with pytest.raises(TypeError, match="_demo takes no 'x'"):
            validate_keywords(_demo, {"x": [1]}, exclude=("x",))


def test_interval_and_options_describe_themselves():
    """The descriptions used in messages."""
    assert str(Interval(numbers.Real, 0, None, closed="left")) == (
        "a float in the range [0, inf)"
    )
    assert str(Interval(numbers.Integral, None, 5)) == "an int in the range (-inf, 5]"
    assert str(Options("b", "a")) == "one of {'a', 'b'}"
    with pytest.raises(TypeError, match="kind must be"):
        Interval(int, 0, 1)


def test_caller_name_travels_one_way():
    """The public call's name reaches messages through the context variable
    only: no function of the package takes it as an argument (``func_name``,
    ``caller``), but the dask tasks that carry it to another thread (the
    matrix's, the samples average's and the resampling table's)."""
    import ast
    from pathlib import Path

    import sklearn_mlcm

    package = Path(sklearn_mlcm.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                arguments = node.args.args + node.args.kwonlyargs
                names = {a.arg for a in arguments} & {"func_name", "caller"}
                if names:
                    found.append(f"{path.relative_to(package)}:{node.name}")
    assert found == [
        "_mlcm/_dask.py:_block_counts",
        "_mlcm/_dask.py:_block_samples",
        "_uncertainty/_table.py:_chunk_table",
    ]


def test_public_call_names_work_done_elsewhere():
    """public_call sets the name for a block (a dask task) and restores the
    one before it."""
    assert current_function() == "sklearn_mlcm"
    with public_call("outer"):
        with public_call("inner"):
            assert current_function() == "inner"
        assert current_function() == "outer"
    assert current_function() == "sklearn_mlcm"
