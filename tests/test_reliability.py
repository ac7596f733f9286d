"""Any input, valid or not: the oracle's answer or a clear error, nothing else.

Hypothesis draws a multi-label case, then a container (lists, NumPy arrays of
every dtype, every scipy sparse format with explicit zeros and duplicate
entries, pandas, polars, pyarrow and xarray frames, dask arrays) and maybe a
corruption (a value that is not 0/1, a huge finite value, a NaN, a string, a
structured array, a ragged row, a shape mismatch, bad weights, weights whose
sums overflow float64, a frame beside an array). Valid weights are sometimes
huge finite numbers (1e300), whose matrix is still the oracle's. 1-D class
labels come in every library's 1-D object (lists, NumPy arrays, pandas and
polars Series, pyarrow Array and ChunkedArray, xarray DataArray), with class
values of every kind, huge finite ones included. A
valid input must give exactly the naive oracle's matrix; an invalid one must
raise ValueError or TypeError naming the parameter at fault. Any other
exception, or a number for an invalid input, fails.
"""

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse

from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}

NUMERIC_DTYPES = [
    bool,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
]
SPARSE_FORMATS = ["csr", "csc", "coo", "bsr", "dia", "lil", "dok"]


def _sparse(y, fmt, dtype, duplicates, explicit_zeros):
    """``y`` in a scipy sparse format; maybe a stored zero, maybe each 1 split
    into duplicate entries 1 and 0 (whose sum is the same 0/1 matrix)."""
    rows, cols = np.nonzero(y)
    data = np.ones(len(rows), dtype=dtype)
    if duplicates and len(rows):
        rows, cols = np.concatenate([rows, rows]), np.concatenate([cols, cols])
        data = np.concatenate([data, np.zeros(len(data), dtype=dtype)])
    if explicit_zeros:
        zero_rows, zero_cols = np.nonzero(~y)
        rows = np.concatenate([rows, zero_rows[:2]])
        cols = np.concatenate([cols, zero_cols[:2]])
        data = np.concatenate([data, np.zeros(min(2, len(zero_rows)), dtype=dtype)])
    coo = sparse.coo_matrix((data, (rows, cols)), shape=y.shape)
    if fmt == "coo":
        return coo
    return coo.asformat(fmt)


@st.composite
def containers(draw, y, dask=False):
    """``y`` (bool, n x q) in some container the library accepts (a dask
    array when ``dask``: dask input is two dask arrays)."""
    kind = (
        "dask"
        if dask
        else draw(
            st.sampled_from(
                ["list", "ndarray", "sparse", "pandas", "polars", "pyarrow", "xarray"]
            )
        )
    )
    dtype = draw(st.sampled_from(NUMERIC_DTYPES))
    if kind == "list":
        return y.astype(dtype).tolist()
    if kind == "ndarray":
        order = draw(st.sampled_from(["C", "F"]))
        return np.asarray(y.astype(dtype), order=order)
    if kind == "sparse":
        if dtype is np.float16:
            dtype = np.float32  # scipy sparse has no float16
        return _sparse(
            y,
            draw(st.sampled_from(SPARSE_FORMATS)),
            dtype,
            draw(st.booleans()),
            draw(st.booleans()),
        )
    if kind == "pandas":
        pd = pytest.importorskip("pandas")
        columns = [f"l{j}" for j in range(y.shape[1])]
        return pd.DataFrame(y.astype(dtype), columns=columns)
    if kind == "polars":
        pl = pytest.importorskip("polars")
        dtype = dtype if dtype not in (np.float16,) else np.float32
        return pl.DataFrame({f"l{j}": y[:, j].astype(dtype) for j in range(y.shape[1])})
    if kind == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        dtype = dtype if dtype not in (np.float16,) else np.float32
        return pa.table({f"l{j}": y[:, j].astype(dtype) for j in range(y.shape[1])})
    if kind == "xarray":
        xr = pytest.importorskip("xarray")
        names = [f"l{j}" for j in range(y.shape[1])]
        return xr.DataArray(
            y.astype(dtype), dims=("sample", "label"), coords={"label": names}
        )
    da = pytest.importorskip("dask.array")
    return da.from_array(y.astype(dtype), chunks=(max(1, y.shape[0] // 2), -1))


FRAME_LIBRARIES = {"pandas", "polars", "pyarrow", "xarray"}


def _is_frame(y):
    """A 2-D object of a frame library (its columns have names)."""
    library = type(y).__module__.split(".")[0]
    return library in FRAME_LIBRARIES and getattr(y, "ndim", 2) == 2


# Corruptions of one target: (name, function of the bool array, parameter named).
def _with_value(value):
    def corrupt(y):
        out = y.astype(object if isinstance(value, str) or value is None else float)
        out[0, 0] = value
        return out

    return corrupt


def _structured(y):
    """The rows of ``y`` as a structured array, one field per label."""
    fields = [(f"l{j}", np.int64) for j in range(y.shape[1])]
    return np.array([tuple(row) for row in y.astype(int).tolist()], dtype=fields)


CORRUPTIONS = {
    "two": _with_value(2),
    "huge": _with_value(1e300),
    "huge_negative": _with_value(-1e19),
    "huge_integer": lambda y: np.where(
        np.arange(y.size).reshape(y.shape) == 0, np.uint64(2**64 - 1), y
    ).astype(np.uint64),
    "structured": _structured,
    "minus_one": _with_value(-1),
    "half": _with_value(0.5),
    "nan": _with_value(np.nan),
    "inf": _with_value(np.inf),
    "string": _with_value("a"),
    "none": _with_value(None),
    "complex": lambda y: y.astype(complex) + 1j,
    "datetime": lambda y: y.astype("datetime64[ns]"),
    "ragged": lambda y: [list(row) for row in y.astype(int)] + [[1]],
    "extra_column": lambda y: np.column_stack([y, y[:, :1]]),
    "extra_row": lambda y: np.vstack([y, y[:1]]),
    "3d": lambda y: y[None],
    "scalar": lambda y: 1,
    "string_container": lambda y: "garbage",
}

WEIGHT_CORRUPTIONS = {
    "negative": lambda w: np.append(w[:-1], -1.0),
    "nan": lambda w: np.append(w[:-1], np.nan),
    "strings": lambda w: np.array(["a"] * len(w)),
    "short": lambda w: w[:-1] if len(w) > 1 else np.ones(3),
    "scalar": lambda w: 2.0,
    "2d": lambda w: w[:, None],
    "complex": lambda w: w.astype(complex),
    "overflow": lambda w: np.full(len(w), 1e308),  # the sums would be infinite
}
# Valid weights at any scale: huge finite ones give the oracle's matrix too.
WEIGHT_SCALES = st.sampled_from([1.0, 1.0, 1.0, 1e300])


def _run(metric, method, y_true, y_pred, weight, n_labels):
    if metric == "matrix":
        return mlcm_confusion_matrix(
            y_true, y_pred, method=method, sample_weight=weight
        )
    if metric == "report":
        report = mlcm_classification_report(
            y_true,
            y_pred,
            method=method,
            sample_weight=weight,
            output_dict=True,
            zero_division=0.0,
        )
        return np.array([row["weight"] for row in report.values()])
    acc = MLCMAccumulator(n_labels, method=method)
    return acc.update(y_true, y_pred, sample_weight=weight).confusion_matrix


def _expected(metric, method, y_true, y_pred, weight, n_averages=4):
    """The oracle's matrix, or the report's "weight" column: the MLCM row sums,
    then ``n_averages`` averages over the q labels (micro, macro, weighted,
    and samples for 2-D input; 1-D input has no samples row)."""
    cm = ORACLES[method](y_true, y_pred, weight)
    if metric == "report":
        rows = cm.sum(axis=1)[: y_true.shape[1]]
        return np.concatenate([rows, [rows.sum()] * n_averages])
    return cm


@pytest.mark.parametrize("metric", ["matrix", "report", "accumulator"])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_input_gives_the_oracle_or_a_clear_error(
    metric, method, data, mlcm_strategies
):
    """Valid input: the oracle's numbers; invalid: ValueError/TypeError naming
    the parameter; never another exception or a number for bad input."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_samples=8))
    if weight is not None:
        weight = weight * data.draw(WEIGHT_SCALES)
    target = data.draw(st.sampled_from(["y_true", "y_pred"]))
    corruption = data.draw(
        st.one_of(
            st.none(),
            st.sampled_from(sorted(CORRUPTIONS)),
            st.sampled_from([f"weight:{k}" for k in sorted(WEIGHT_CORRUPTIONS)]),
        )
    )
    dask = data.draw(st.sampled_from([False] * 5 + [True]))
    inputs = {
        "y_true": data.draw(containers(y_true, dask)),
        "y_pred": data.draw(containers(y_pred, dask)),
        "sample_weight": weight,
    }
    at_fault = None
    mixed = _is_frame(inputs["y_true"]) != _is_frame(inputs["y_pred"])
    if mixed:
        at_fault = "mix"  # a frame beside an array: columns cannot be matched
    if corruption is not None and corruption.startswith("weight:"):
        base = np.ones(len(y_true)) if weight is None else weight
        inputs["sample_weight"] = WEIGHT_CORRUPTIONS[corruption[7:]](base)
        at_fault = "sample_weight"
    elif corruption is not None:
        inputs[target] = CORRUPTIONS[corruption](
            y_true if target == "y_true" else y_pred
        )
        at_fault = target
    try:
        result = _run(
            metric,
            method,
            inputs["y_true"],
            inputs["y_pred"],
            inputs["sample_weight"],
            y_true.shape[1],
        )
    except (ValueError, TypeError) as exc:
        assert at_fault is not None, f"valid input refused: {exc!r}"
        message = str(exc)
        names = {"y_true", "y_pred", "sample_weight"}
        mentioned = {n for n in names if re.search(rf"\b{n}\b", message)}
        assert mentioned, f"the message names no parameter: {message!r}"
        if corruption is not None and corruption.startswith("weight:") and not mixed:
            assert "sample_weight" in mentioned, message
        return
    if at_fault is not None:
        # a corruption may be harmless only where it leaves valid 0/1 input:
        # none of these does
        pytest.fail(f"{corruption} of {at_fault} gave a number: {result!r}")
    if sparse.issparse(result):
        result = result.toarray()
    result = np.asarray(result)
    expected = _expected(metric, method, y_true, y_pred, weight)
    if method == "heydarian" and weight is None and metric != "report":
        assert_array_equal(result, expected)
    else:
        assert_allclose(result, expected, rtol=1e-9, atol=1e-9)


# Class values of every kind, in increasing order (class index i -> value i):
# small integers, strings, whole-number floats of any size (beyond int64),
# uint64 beyond int64.
CLASS_VALUES = {
    "int": np.array([0, 1, 2, 3, 4]),
    "str": np.array(["a", "b", "c", "d", "e"]),
    "whole_float": np.array([-2.0, 0.0, 1.0, 3.0, 1e15]),
    "huge_float": np.array([-1e300, -1e19, 0.0, 1e19, 1e300]),
    "huge_uint": np.array([0, 1, 2**63, 2**64 - 2, 2**64 - 1], dtype=np.uint64),
}


@st.composite
def labels_1d(draw, values):
    """1-D class labels ``values`` in some library's 1-D object (``values``
    themselves when the library cannot hold them, corrupted as they are)."""
    kind = draw(
        st.sampled_from(
            ["list", "ndarray", "pandas", "polars", "pyarrow", "chunked", "xarray"]
        )
    )
    if kind == "list":
        return values.tolist()
    if kind == "ndarray":
        return values
    if kind == "pandas":
        return pytest.importorskip("pandas").Series(values)
    if kind == "polars":
        return pytest.importorskip("polars").Series(values)
    if kind in ("pyarrow", "chunked"):
        pa = pytest.importorskip("pyarrow")
        if kind == "pyarrow":
            return pa.array(values)
        cut = draw(st.integers(0, len(values)))
        return pa.chunked_array(
            [values[:cut], values[cut:]], type=pa.array(values).type
        )
    return pytest.importorskip("xarray").DataArray(values, dims="sample")


# Corruptions of 1-D class labels (of the values, before the container).
def _numbers(v):
    """``v`` as floats (numbers) or objects (strings), to append a number to."""
    return v.astype(float if v.dtype.kind in "iuf" else object)


CORRUPTIONS_1D = {
    "nan": lambda v: np.append(_numbers(v[1:]), np.nan),
    "inf": lambda v: np.append(_numbers(v[1:]), np.inf),
    "fraction": lambda v: np.append(_numbers(v[1:]), 0.5),
    "none": lambda v: np.append(v[1:].astype(object), None),
    "structured": lambda v: np.zeros(len(v), dtype=[("a", np.int64), ("b", float)]),
    "extra": lambda v: np.append(v, v[:1]),
    "2d": lambda v: np.eye(len(v), 2, dtype=int),
}


@pytest.mark.parametrize("metric", ["matrix", "report"])
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_1d_input_gives_the_oracle_or_a_clear_error(metric, data, mlcm_strategies):
    """1-D class labels of every library and every kind of class value (huge
    finite ones included), with weights at any scale, give the oracle's
    matrix of their class indices; corrupted ones a ValueError/TypeError
    naming the parameter."""
    codes_true, codes_pred, weight = data.draw(mlcm_strategies.multiclass())
    if weight is not None:
        weight = weight * data.draw(WEIGHT_SCALES)
    values = CLASS_VALUES[data.draw(st.sampled_from(sorted(CLASS_VALUES)))]
    raw = {"y_true": values[codes_true], "y_pred": values[codes_pred]}
    corruption = data.draw(
        st.one_of(st.none(), st.sampled_from(sorted(CORRUPTIONS_1D)))
    )
    target = data.draw(st.sampled_from(["y_true", "y_pred"]))
    if corruption in ("nan", "inf", "fraction") and values.dtype.kind == "U":
        corruption = "none"  # a list of strings and a number is strings
    if corruption is not None:
        raw[target] = CORRUPTIONS_1D[corruption](raw[target])
    inputs = {}
    for name, v in raw.items():
        try:
            inputs[name] = v
            if v.ndim == 1 and v.dtype.names is None:
                inputs[name] = data.draw(labels_1d(v))
        except (TypeError, ValueError, OverflowError, ArithmeticError):
            # the library cannot hold these corrupted values: pass the array
            assert corruption is not None, "a library refused valid labels"
    try:
        result = _run(
            metric, "heydarian", inputs["y_true"], inputs["y_pred"], weight, 0
        )
    except (ValueError, TypeError) as exc:
        assert corruption is not None, f"valid input refused: {exc!r}"
        assert re.search(rf"\b{target}\b|y_true and y_pred", str(exc)), str(exc)
        return
    assert corruption is None, f"{corruption} of {target} gave a number: {result!r}"
    present = np.union1d(codes_true, codes_pred)  # classes in increasing order
    one_hot = np.eye(len(present), dtype=bool)
    y_true = one_hot[np.searchsorted(present, codes_true)]
    y_pred = one_hot[np.searchsorted(present, codes_pred)]
    # 1-D input: the report has no samples avg row
    expected = _expected(metric, "heydarian", y_true, y_pred, weight, n_averages=3)
    assert_allclose(np.asarray(result), expected, rtol=1e-9, atol=1e-9)


def _run_limited(code, limit_bytes=1 << 30, timeout=60):
    """Run ``code`` in a subprocess whose address space is capped."""
    script = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({limit_bytes}, {limit_bytes}))
        """
    ) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "code, expected",
    [
        (
            """
            import numpy as np
            from sklearn_mlcm import mlcm_confusion_matrix
            y = np.zeros((4, 20_000), dtype=bool)
            y[np.arange(4), [1, 50, 7_000, 19_999]] = True
            try:
                mlcm_confusion_matrix(y, y)
            except ValueError as exc:
                print("refused", "sparse_output=True" in str(exc))
            cm = mlcm_confusion_matrix(y, y, sparse_output=True)
            print("sparse", cm.shape, cm.sum())
            """,
            "refused True\nsparse (20001, 20001) 4",
        ),
        (
            """
            from sklearn_mlcm import MLCMAccumulator
            try:
                MLCMAccumulator(100_000)
            except ValueError as exc:
                print("refused", "sparse_output=True" in str(exc))
            acc = MLCMAccumulator(100_000, sparse_output=True)
            print("sparse", acc.confusion_matrix.shape)
            """,
            "refused True\nsparse (100001, 100001)",
        ),
        (
            """
            import numpy as np
            from scipy import sparse
            from sklearn_mlcm import mlcm_classification_report
            rng = np.random.default_rng(0)
            rows = np.repeat(np.arange(3_000), 3)
            y = sparse.csr_array(
                (np.ones(9_000, dtype=bool), (rows, rng.integers(0, 10**6, 9_000))),
                shape=(3_000, 10**6),
            )
            report = mlcm_classification_report(y, y, output_dict=True)
            print("report", len(report) > 3)
            """,
            "report True",
        ),
    ],
    ids=["dense-20k-labels", "accumulator-100k-labels", "sparse-report-1e6-columns"],
)
def test_memory_bounded_cases_under_a_limit(code, expected):
    """Cases that allocated 3 to 75 GiB now run in a 3 GiB address space
    (the imports alone take about 1 GiB of it); past it the subprocess would
    end in a MemoryError."""
    result = _run_limited(code, limit_bytes=3 << 30)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == expected
