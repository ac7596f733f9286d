"""Data validation: every accepted input form -> one validated object.

A public call validates its data once, through the one entry point,
:func:`validate_targets` (a :class:`Targets`: packed targets, label space and
names, weights, groups, how the input was read), or its sibling for scores,
:func:`validate_scores` (a :class:`Scores`); the layers below take that
object and never the raw input again. The checks it is built from, those
that depend on the data: the two targets (:func:`check_mlcm_targets`:
indicator matrices, sparse matrices, frames, 1-D class labels), the labels to
keep, the weights (:func:`check_sample_weight`), square matrices
(:func:`check_square_matrix`), display names (:func:`check_target_names`),
and scores with their thresholds (:func:`check_scores`,
:func:`check_scored_targets`, :func:`check_thresholds`; scores beside targets
validated already, :func:`check_target_scores`).
The parameters' own types and options are checked before, by the decorator
of :mod:`._param_validation`; error messages here name the same public
function, the public call under way, which the decorator records in a context
variable (:func:`~._param_validation.current_function`): no function here
takes the caller's name as an argument. The kernels
downstream assume what these functions guarantee and check nothing themselves.
"""

import importlib
import math
import numbers
import re
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import type_of_target, unique_labels

from ._param_validation import InvalidInputError, current_function

# NumPy 1.x's warning of ragged nested sequences (NumPy 2 raises a ValueError);
# in np.exceptions from NumPy 1.25, only there from NumPy 2
_VISIBLE_DEPRECATION = getattr(np, "exceptions", np).VisibleDeprecationWarning

__all__ = [
    "LabelSpace",
    "Scores",
    "Targets",
    "align_columns",
    "check_batch_shape",
    "check_batch_columns",
    "check_batch_kinds",
    "check_dask_kinds",
    "check_dask_targets",
    "check_empty_batch",
    "check_dense_size",
    "check_indicator_labels",
    "check_mlcm_targets",
    "check_same_accumulator",
    "check_sample_weight",
    "check_scored_targets",
    "check_scores",
    "check_target_scores",
    "check_threshold_grid",
    "check_thresholds",
    "check_weight_sums",
    "check_square_matrix",
    "check_target_names",
    "evenly_spaced",
    "frame_columns",
    "input_error",
    "label_values",
    "mixed_frame",
    "read_frame",
    "repeated_names",
    "validate_scores",
    "validate_targets",
]


class LabelSpace:
    """The clean targets and the names of their labels.

    Attributes
    ----------
    y_true, y_pred : ndarray or CSR array of shape (n_samples, n_labels), bool
        Indicator matrices: dense C-contiguous arrays, or CSR arrays (with no
        stored zeros or duplicates) for sparse input. For 1-D class labels
        they are built from ``codes`` when first read.
    names : list of str
        Default display names: DataFrame column names, class values or
        column indices, as strings.
    codes : tuple of two int64 ndarrays of shape (n_samples,), or None
        For 1-D class labels: each instance's class index, ``n_labels`` for a
        class outside ``labels`` (an empty label set).
    classes : ndarray of shape (n_labels,) or None
        For 1-D class labels: the class values themselves, which ``names``
        shows as strings.
    """

    def __init__(self, y_true, y_pred, names, codes=None, classes=None):
        self._y_true, self._y_pred = y_true, y_pred
        self.names = names
        self.codes = codes
        self.classes = classes

    @property
    def n_labels(self):
        return len(self.names)

    @property
    def y_true(self):
        if self._y_true is None:
            self._y_true = _one_hot(self.codes[0], self.n_labels)
        return self._y_true

    @property
    def y_pred(self):
        if self._y_pred is None:
            self._y_pred = _one_hot(self.codes[1], self.n_labels)
        return self._y_pred


def input_error(name, expected, got):
    """The one message format of refused data, as an exception to raise:
    ``The 'name' parameter of f must be <expected>. Got <got> instead.``,
    ``got`` already described (a shape, a value, a type)."""
    caller = current_function()
    return InvalidInputError(
        f"The {name!r} parameter of {caller} must be {expected}. Got {got} instead."
    )


def _describe(y):
    """A short description of an input for error messages."""
    if sparse.issparse(y):
        return f"a scipy sparse matrix of shape {y.shape}"
    shape = getattr(y, "shape", None)
    kind = type(y).__name__
    if shape is not None:
        return f"a {kind} of shape {tuple(shape)}"
    return f"a {kind}"


def _widened(values):
    """Integer data as int64 and floats as float64 (bool stays), so that sums
    of duplicate entries cannot wrap (uint8 255 + 2 is 257, not 1)."""
    if values.dtype.kind in "iu":
        if values.dtype == np.uint64 and values.size and values.max() >= 2**63:
            return values.astype(np.float64)
        return values.astype(np.int64)
    if values.dtype.kind == "f":
        return values.astype(np.float64)
    return values


def _sum_sparse_duplicates(y, name, *, indicators=True):
    """A CSR copy of sparse input with its duplicate entries summed, in a
    dtype wide enough; a negative stored entry is refused before it can
    cancel a duplicate (1 + -1 is not an absent label). A matrix of counts
    (``indicators=False``) is the sum of its entries, as scipy defines it."""
    caller = current_function()
    canonical = y.format in ("csr", "csc") and y.has_canonical_format
    data = y.data if canonical else sparse.coo_array(y).data
    if indicators and data.dtype.kind in "if" and data.size and (data < 0).any():
        raise InvalidInputError(
            f"{name} of {caller} has a negative stored entry "
            f"({data[data < 0][0].item()!r}); every entry must be 0 or 1."
        )
    if canonical:  # no duplicates to sum: a copy in the wide dtype
        return sparse.csr_array(y, dtype=_widened(y.data[:0]).dtype, copy=True)
    coo = sparse.coo_array(y)
    out = sparse.csr_array((_widened(coo.data), (coo.row, coo.col)), shape=coo.shape)
    out.sum_duplicates()  # a value is the sum of its duplicate entries
    return out


def _frame_to_numpy(frame):
    """A pandas DataFrame or Series as a NumPy array; numeric and boolean
    columns, including pandas' nullable dtypes, become float64 with NaN for
    missing values."""
    dtypes = list(frame.dtypes) if frame.ndim == 2 else [frame.dtype]
    kinds = {getattr(dtype, "kind", "O") for dtype in dtypes}
    plain = all(isinstance(dtype, np.dtype) for dtype in dtypes)
    if kinds <= set("biuf") and not (plain and len(kinds) == 1):
        return frame.to_numpy(dtype=np.float64, na_value=np.nan)
    return frame.to_numpy()


def _library(y):
    """The top-level module of an object's type ("pandas", "polars", ...)."""
    return type(y).__module__.split(".")[0]


def _is_arrow_table(y):
    """A pyarrow Table or RecordBatch (not its interchange object, whose
    ``column_names`` is a method)."""
    return _library(y) == "pyarrow" and type(y).__name__ in ("Table", "RecordBatch")


def _is_arrow_array(y):
    """A pyarrow Array (of any type) or ChunkedArray: one column."""
    if _library(y) != "pyarrow":
        return False
    pyarrow = importlib.import_module("pyarrow")
    return isinstance(y, (pyarrow.Array, pyarrow.ChunkedArray))


def read_frame(y, name):
    """The one frame reader: ``(values, column names)`` of a frame, else None.

    2-D frames of pandas, polars, pyarrow (Table, RecordBatch) and xarray (a
    2-D DataArray, named by the coordinate of its second dimension) are read
    directly, any other library through the Arrow PyCapsule stream (with
    pyarrow) or the dataframe interchange protocol (with pandas); the names
    are the column names. 1-D objects of these libraries (pandas and polars
    Series, pyarrow Array and ChunkedArray, a 1-D DataArray, a non-table
    Arrow stream) are one column of values, class labels: their names are
    None. NumPy arrays, lists and sparse matrices are no frames: None.
    Missing values become NaN (or None in object columns).
    """
    caller = current_function()
    library, ndim = _library(y), getattr(y, "ndim", None)
    if isinstance(y, np.ndarray) or sparse.issparse(y) or library == "dask":
        return None  # dask input has checks of its own (check_dask_kinds)
    if library == "pandas" and ndim in (1, 2):
        if ndim == 1:  # a Series or an Index
            return _frame_to_numpy(y), None
        return _frame_to_numpy(y), list(y.columns)
    if library == "polars" and type(y).__name__ in ("DataFrame", "LazyFrame"):
        if type(y).__name__ == "LazyFrame":
            raise InvalidInputError(
                f"{name} of {caller} is a polars LazyFrame; collect it first "
                "(lazy_frame.collect())."
            )
        return y.to_numpy(), list(y.columns)
    if library == "polars" and type(y).__name__ == "Series":
        return y.to_numpy(), None
    if _is_arrow_table(y):
        columns = [
            y.column(i).to_numpy(zero_copy_only=False) for i in range(y.num_columns)
        ]
        if len({c.dtype.kind in "biuf" for c in columns}) > 1:  # numbers and text
            columns = [c.astype(object) for c in columns]
        values = np.column_stack(columns) if columns else np.empty((y.num_rows, 0))
        return values, list(y.column_names)
    if _is_arrow_array(y):
        return y.to_numpy(zero_copy_only=False), None
    if library == "xarray" and ndim in (1, 2):
        names = None
        if ndim == 2:
            dim = y.dims[1]
            names = y.coords[dim].values.tolist() if dim in y.coords else None
        return np.asarray(y.values), names
    if hasattr(y, "__arrow_c_stream__"):
        pyarrow = _import_frame_reader("pyarrow", y, name)
        try:
            table = pyarrow.table(y)
        except (pyarrow.ArrowInvalid, TypeError):  # a stream of one column
            return read_frame(pyarrow.chunked_array(y), name)
        return read_frame(table, name)
    if hasattr(y, "__dataframe__"):
        _import_frame_reader("pandas", y, name)
        from pandas.api.interchange import from_dataframe

        with warnings.catch_warnings():  # pandas 3 deprecates the protocol
            warnings.simplefilter("ignore", DeprecationWarning)
            frame = from_dataframe(y)
        return _frame_to_numpy(frame), list(frame.columns)
    return None


def _import_frame_reader(module, y, name):
    """pyarrow or pandas, to read a frame of another library, or ImportError."""
    caller = current_function()
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"{name} of {caller} is a {type(y).__name__}, which is read with "
            f"{module}: `pip install {module}`."
        ) from None


def _asarray_rectangular(y):
    """``np.asarray(y)``; a ValueError for ragged nested sequences.

    NumPy 2 raises that ValueError itself; NumPy 1.x made them an object array
    with a VisibleDeprecationWarning, turned into the ValueError here (the
    caller's message, without the warning first).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", _VISIBLE_DEPRECATION)
        try:
            return np.asarray(y)
        except _VISIBLE_DEPRECATION as exc:
            raise ValueError(str(exc)) from None


def _as_array(y, name):
    """Turn one target into a NumPy array or a CSR array, keeping column labels.

    Returns ``(array, column_labels_or_None)``.
    """
    caller = current_function()
    if y is None:
        raise InvalidInputError(
            f"{name} of {caller} must be an array-like or a scipy sparse "
            "matrix of 0/1 label indicators, or a 1-D array of class labels. "
            "Got None instead."
        )
    if sparse.issparse(y):
        if y.ndim != 2:
            raise InvalidInputError(
                f"{name} of {caller} must be a 2-D sparse indicator matrix. "
                f"Got {_describe(y)}."
            )
        return _sum_sparse_duplicates(y, name), None
    if isinstance(y, (str, bytes, numbers.Number)):
        raise InvalidInputError(
            f"{name} of {caller} must be an array-like of labels, not a "
            f"scalar. Got {y!r} instead."
        )
    columns = None
    frame = read_frame(y, name)
    if frame is not None:
        y, columns = frame
    try:
        array = _asarray_rectangular(y)
        if array.dtype.kind == "f" and array.ndim == 1 and isinstance(y, list):
            array = _exact_list(y, array)
    except ValueError as exc:  # ragged nested sequences
        raise InvalidInputError(
            f"{name} of {caller} could not be read as a rectangular array "
            f"(rows of different lengths?): {exc}"
        ) from None
    if array.dtype.names is not None:
        raise InvalidInputError(
            f"{name} of {caller} is a structured array with the fields "
            f"{', '.join(map(repr, array.dtype.names))}; pass plain values: one "
            "field for class labels (y['field']), or the fields as label columns "
            "(numpy.lib.recfunctions.structured_to_unstructured(y))."
        )
    if (
        array.dtype == object
        and array.ndim == 1
        and array.size
        and all(isinstance(row, (list, tuple, np.ndarray)) for row in array)
    ):
        raise InvalidInputError(
            f"{name} of {caller} has rows of different lengths; an indicator "
            "matrix needs one 0/1 column per label in every row."
        )
    if array.ndim not in (1, 2):
        raise InvalidInputError(
            f"{name} of {caller} must be 1-D (class labels) or 2-D (a 0/1 "
            f"indicator matrix). Got an array with {array.ndim} dimensions."
        )
    return array, columns


def _exact_list(y, array):
    """A list of class labels with integers beyond 2**53, which NumPy makes
    float64 (merging neighbours, 2**64 - 2 into 2**64), as an object array of
    the Python numbers; ``array`` otherwise."""
    if any(isinstance(v, numbers.Integral) and abs(int(v)) > 2**53 for v in y):
        return _python_numbers(np.array(y, dtype=object))
    return array


def _indicator_to_bool(y, name):
    """Check that a 2-D array or CSR matrix holds only 0/1 and return bool."""
    caller = current_function()
    values = y.data if sparse.issparse(y) else y
    if values.dtype == bool:
        if sparse.issparse(y):
            y = y.copy()
            y.eliminate_zeros()  # stored False entries are not labels
        return y
    if values.dtype == object and all(isinstance(v, numbers.Real) for v in values.flat):
        y = values = values.astype(np.float64)  # e.g. lists mixing bool and int
    if values.dtype.kind not in "biuf":
        raise InvalidInputError(
            f"{name} of {caller} must be a 0/1 indicator matrix of numbers or "
            f"booleans; got values of dtype {values.dtype} (strings or objects?). "
            "Use a 1-D array for class labels, or encode label sets with "
            "sklearn.preprocessing.MultiLabelBinarizer."
        )
    if values.dtype.itemsize > 1:
        # one comparison gives both the answer and the check: every non-zero
        # value must be a 1 (NaN is non-zero and not 1)
        ones = values == 1
        valid = np.count_nonzero(values) == np.count_nonzero(ones)
    else:  # int8 / uint8: two cheap passes, then a free view as bool
        ones = None
        valid = values.size == 0 or (values.min() >= 0 and values.max() <= 1)
    if not valid:
        _raise_not_binary(values, name)
    if sparse.issparse(y):
        out = y.astype(bool)
        out.eliminate_zeros()
        return out
    if ones is not None:
        return ones
    return values.view(bool)  # int8 / uint8 of 0 and 1 are bools already


def _raise_not_binary(values, name):
    """The error for an indicator matrix with other values than 0 and 1."""
    caller = current_function()
    if values.dtype.kind == "f" and np.isnan(values).any():
        raise InvalidInputError(
            f"{name} of {caller} contains NaN; an indicator matrix must "
            "hold only 0 and 1."
        )
    bad = (values != 0) & (values != 1)
    example = values[bad].flat[0].item()
    hint = ""
    if values.dtype.kind == "f" or example < 0 or example > 1:
        hint = (
            " It looks like scores, probabilities or counts; threshold "
            "them first (for example y_score >= 0.5)."
        )
    raise InvalidInputError(
        f"{name} of {caller} must contain only 0 and 1; found {example!r}.{hint}"
    )


def _check_unique(labels):
    caller = current_function()
    try:
        uniq, counts = np.unique(labels, return_counts=True)
    except TypeError:  # None among numbers, or other values that do not sort
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must hold class values of "
            f"one kind (all numbers or all strings). Got {list(labels)!r} instead."
        ) from None
    if (counts > 1).any():
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} has duplicates: "
            f"{uniq[counts > 1].tolist()}. Each label may appear once."
        )


def repeated_names(names):
    """The names that occur more than once in ``names``, in the order of
    their second occurrence: columns that a name cannot tell apart."""
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return repeated


def check_indicator_labels(labels, n_columns, columns):
    """``labels`` -> column positions. For a DataFrame ``labels`` are column
    labels (``columns``); otherwise integer column indices."""
    caller = current_function()
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must be a list or array of "
            f"labels. Got {labels!r} instead."
        )
    if len(labels) == 0:
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must be a non-empty list of "
            "labels. Got an empty one."
        )
    if columns is not None:
        lookup = {c: i for i, c in enumerate(columns)}
        unknown = [v for v in labels if v not in lookup]
        if unknown:
            raise InvalidInputError(
                f"The 'labels' parameter of {caller} names columns that are not "
                f"in the DataFrame: {unknown}. Its columns are {columns}."
            )
        ambiguous = [v for v in repeated_names(columns) if v in labels]
        if ambiguous:
            raise InvalidInputError(
                f"The 'labels' parameter of {caller} names columns that the "
                f"DataFrame repeats, {ambiguous}: a name cannot tell those columns "
                f"apart. Its columns are {columns}; give every column a distinct "
                "name."
            )
        positions = np.array([lookup[v] for v in labels], dtype=np.int64)
        _check_unique(positions)
        return positions
    positions = np.asarray(labels)
    if positions.ndim != 1 or positions.dtype.kind not in "iu":
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must hold integer column "
            "indices for indicator input (column labels for a DataFrame). Got "
            f"{positions.tolist()!r} instead."
        )
    positions = positions.astype(np.int64)
    out_of_range = positions[(positions < 0) | (positions >= n_columns)]
    if out_of_range.size:
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} has indices out of range for "
            f"{n_columns} label columns: {out_of_range.tolist()}. Expected "
            f"integers in [0, {n_columns - 1}]."
        )
    _check_unique(positions)
    return positions


def _class_codes(y, classes):
    """1-D class labels -> int64 class indices; unknown classes -> len(classes)."""
    n_classes = len(classes)
    try:
        order = np.argsort(classes, kind="stable")
        ordered = classes[order]
        position = np.searchsorted(ordered, y)
        clipped = np.minimum(position, n_classes - 1)
        known = (position < n_classes) & (ordered[clipped] == y)
        return np.where(known, order[clipped], n_classes).astype(np.int64)
    except TypeError:  # values that do not sort together: look them up
        lookup = {c: i for i, c in enumerate(classes.tolist())}
        return np.fromiter(
            (lookup.get(v, n_classes) for v in y.tolist()), np.int64, y.shape[0]
        )


def _one_hot(codes, n_labels):
    """Class indices -> (n, n_labels) bool; index n_labels -> an empty row."""
    out = np.zeros((codes.shape[0], n_labels), dtype=bool)
    known = codes < n_labels
    out[np.flatnonzero(known), codes[known]] = True
    return out


def _integer_class_codes(y_true, y_pred):
    """Class indices of two integer arrays by a lookup table over their range,
    without sorting (the common case of 1-D input); None for a wide range."""
    low = min(int(y_true.min()), int(y_pred.min()))
    span = max(int(y_true.max()), int(y_pred.max())) - low + 1
    if span > 1 << 22:
        return None
    t = (y_true - low).astype(np.intp, copy=False)
    p = (y_pred - low).astype(np.intp, copy=False)
    present = np.flatnonzero(
        (np.bincount(t, minlength=span) > 0) | (np.bincount(p, minlength=span) > 0)
    )
    lookup = np.empty(span, dtype=np.int64)
    lookup[present] = np.arange(len(present))
    classes = np.array([c + low for c in present.tolist()])  # Python ints: exact
    dtype = np.result_type(y_true, y_pred)
    if dtype.kind in "iu":  # the input's dtype, as unique_labels keeps it
        classes = classes.astype(dtype)
    return (lookup[t], lookup[p]), classes


def _exact_numbers(y_true, y_pred):
    """Numeric class labels that NumPy's common type would not hold exactly,
    as object arrays of Python numbers; None for every other input.

    Whole-number floats beyond int64 (1e19, -1e300) are class labels that
    ``type_of_target`` casts to int64 and calls continuous; integers beyond
    2**53 beside floats, or uint64 beside signed integers, share float64 as
    common type, which merges neighbouring labels (2**62 and 2**62 + 1).
    Python ints and floats compare exactly instead.
    """
    arrays = (y_true, y_pred)
    numbers_only = [
        y.dtype.kind in "biuf"
        or (y.dtype == object and all(isinstance(v, numbers.Real) for v in y.tolist()))
        for y in arrays
    ]
    if not all(numbers_only) or not all(y.size for y in arrays):
        return None
    if any(y.dtype == object for y in arrays):  # Python numbers already
        return _python_numbers(y_true), _python_numbers(y_pred)
    huge_float = any(y.dtype.kind == "f" and np.abs(y).max() >= 2.0**63 for y in arrays)
    rounded = np.result_type(y_true, y_pred).kind == "f" and any(
        y.dtype.kind in "iu" and max(abs(int(y.min())), abs(int(y.max()))) > 2**53
        for y in arrays
    )
    if not (huge_float or rounded):
        return None
    return _python_numbers(y_true), _python_numbers(y_pred)


def _python_numbers(values):
    """A 1-D array of Python ints and floats (dtype object)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values.tolist()
    return out


def _fractions(y):
    """The values of 1-D numbers (a float or an object array) that are not
    whole numbers (NaN and infinity included)."""
    return [v for v in y.tolist() if isinstance(v, float) and not v.is_integer()]


def _raise_continuous(y, name):
    """The error for 1-D float labels with a fraction: scores, not classes."""
    caller = current_function()
    example = _fractions(y)[0]
    if not math.isfinite(example):
        raise InvalidInputError(f"{name} of {caller} contains NaN or infinity.")
    raise InvalidInputError(
        f"{name} of {caller} holds continuous values (for example "
        f"{example!r}); it looks like scores; threshold them first, or pass "
        "class labels."
    )


def _check_multiclass(y_true, y_pred, labels):
    caller = current_function()
    if labels is None and y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        # integer class labels are never continuous: no type_of_target needed
        fast = _integer_class_codes(y_true, y_pred)
        if fast is not None:
            return fast
    exact = _exact_numbers(y_true, y_pred)
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise InvalidInputError(f"{name} of {caller} contains NaN or infinity.")
        huge = y.dtype.kind == "f" and y.size and np.abs(y).max() >= 2.0**63
        big = y.dtype == object and all(
            isinstance(v, numbers.Real) for v in y.tolist()
        )  # Python ints beyond 2**53 (_exact_list)
        if exact is not None or huge or big:  # type_of_target casts to int64
            if _fractions(y):
                _raise_continuous(y, name)
            continue  # whole numbers: class labels, at any size
        try:
            kind = type_of_target(y, input_name=name)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(
                f"{name} of {caller} could not be read as 1-D class labels: {exc}"
            ) from None
        if kind == "continuous":
            _raise_continuous(y, name)
        if kind not in ("binary", "multiclass"):
            raise InvalidInputError(
                f"{name} of {caller} is 1-D but its target type is {kind!r}; "
                "expected binary or multiclass class labels."
            )
    if exact is not None:  # Python numbers compare exactly
        y_true, y_pred = exact
        present = _python_numbers(
            np.array(sorted(set(y_true.tolist()) | set(y_pred.tolist())), dtype=object)
        )
    else:
        try:
            present = unique_labels(y_true, y_pred)
        except (ValueError, TypeError) as exc:
            message = f"y_true and y_pred of {caller}: {exc}"
            raise InvalidInputError(message) from None
    if labels is None:
        classes = present
    else:
        classes = _check_class_labels(labels, present, exact is not None)
    codes = (_class_codes(y_true, classes), _class_codes(y_pred, classes))
    return codes, classes


def _value_kind(values):
    """"number" or "string" when every value is one, else None (mixed)."""
    if isinstance(values, np.ndarray) and values.dtype.kind != "O":
        return "string" if values.dtype.kind in "US" else "number"
    values = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if all(isinstance(v, (numbers.Real, np.bool_)) for v in values):
        return "number"
    if all(isinstance(v, (str, bytes)) for v in values):
        return "string"
    return None


def _check_class_labels(labels, present, exact):
    """``labels`` of 1-D input -> a 1-D array of classes, of the kind of the
    classes ``present``. Labels that occur nowhere are kept: they score zero
    counts, as in scikit-learn's scores (#24)."""
    caller = current_function()
    classes = np.asarray(labels)
    if exact and classes.dtype.kind in "iuf":
        classes = _python_numbers(classes)
    if classes.ndim != 1 or classes.size == 0:
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must be a non-empty 1-D "
            f"list of class labels. Got {classes.tolist()!r} instead."
        )
    # the values as given: NumPy turns [1, "a"] into strings
    kind = _value_kind(labels if isinstance(labels, np.ndarray) else list(labels))
    if kind is None:
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must hold class values of "
            f"one kind (all numbers or all strings). Got {list(labels)!r} instead."
        )
    if kind != _value_kind(present):
        # scikit-learn compares them as strings ("0" is class 0) or finds
        # none: either way a number the user did not mean
        raise InvalidInputError(
            f"The 'labels' parameter of {caller} must hold values of the "
            f"kind of the classes {present.tolist()}. Got "
            f"{classes.tolist()!r} instead."
        )
    _check_unique(classes)
    return classes


def _check_samples(n_true, n_pred):
    """The two targets have the same number of samples, at least one."""
    caller = current_function()
    if n_true != n_pred:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must have the same number of "
            f"samples. Got {n_true} and {n_pred}."
        )
    if n_true == 0:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} are empty (0 samples); at least "
            "one sample is required."
        )


def _check_columns(q_true, q_pred):
    """The two indicator matrices have the same number of label columns."""
    caller = current_function()
    if q_true != q_pred:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must have the same number of label "
            f"columns. Got {q_true} for y_true and {q_pred} for y_pred."
        )


def check_mlcm_targets(y_true, y_pred, *, labels=None):
    """Validate the two targets and bring them to one clean label space.

    Parameters
    ----------
    y_true, y_pred : array-like, sparse matrix or DataFrame
        2-D 0/1 indicators (bool, integer or float dtype), or 1-D class labels.
        A 2-D array with one column is one label's indicators.
    labels : array-like or None
        Indicator input: column indices to keep, in that order (column labels
        for a DataFrame). 1-D input: the class values, in that order.

    Returns
    -------
    LabelSpace
        Sparse input stays sparse (CSR); everything else is dense bool.
    """
    return _check_pair(_TrueTarget(y_true), y_pred, labels)


class _TrueTarget:
    """``y_true`` read once (:func:`_as_array`), to be paired with one
    prediction set or several (the paired comparison's): the forms of it a
    pair needs (its columns in the order of ``labels``, beside an array
    without column names; its checked bool values; its kept labels) are made
    at the first pair that needs them, and every later pair takes them as
    made. Every pair of valid sets needs the same clean indicators."""

    def __init__(self, y_true):
        self.values, self.columns = _as_array(y_true, "y_true")
        self._made = {}

    def once(self, key, make, *args):
        """``make(*args)``, made at the first call with ``key``."""
        if key not in self._made:
            self._made[key] = make(*args)
        return self._made[key]


def _check_pair(true, y_pred, labels):
    """:func:`check_mlcm_targets` of ``y_true`` read once (a :class:`_TrueTarget`)."""
    caller = current_function()
    y_true, true_columns = true.values, true.columns
    y_pred, pred_columns = _as_array(y_pred, "y_pred")
    if y_true.ndim != y_pred.ndim:
        kinds = {1: "1-D class labels", 2: "a 2-D indicator matrix"}
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must be the same kind of target: "
            f"both 2-D 0/1 indicator matrices or both 1-D class labels. Got "
            f"{kinds[y_true.ndim]} for y_true and {kinds[y_pred.ndim]} for y_pred."
        )
    _check_samples(y_true.shape[0], y_pred.shape[0])
    if y_true.ndim == 1:
        codes, classes = _check_multiclass(y_true, y_pred, labels)
        names = [str(c) for c in classes.tolist()]
        return LabelSpace(None, None, names, codes, classes)

    _check_columns(y_true.shape[1], y_pred.shape[1])
    n_columns = y_true.shape[1]
    if n_columns == 0:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} have no label columns; at least "
            "one label is required."
        )
    form = "as given"
    if (true_columns is None) != (pred_columns is None):
        if true_columns is not None:
            form = "by labels"
            y_true = true.once(
                form, mixed_frame, y_true, true_columns, "y_true", labels
            )
        else:
            y_pred = mixed_frame(y_pred, pred_columns, "y_pred", labels)
        true_columns = pred_columns = list(labels)
    if true_columns is not None and pred_columns is not None:
        y_pred = align_columns(y_pred, pred_columns, true_columns)
        pred_columns = true_columns
    columns = true_columns if true_columns is not None else pred_columns
    t = true.once(("bool", form), _indicator_to_bool, y_true, "y_true")
    p = _indicator_to_bool(y_pred, "y_pred")
    if columns is not None:
        names = [str(c) for c in columns]
    else:
        names = [str(i) for i in range(n_columns)]
    kept = None
    if labels is not None:
        kept = check_indicator_labels(labels, n_columns, columns)
        p = p[:, kept]
        names = [names[i] for i in kept]
    key = ("clean", form, None if kept is None else kept.tobytes())
    t = true.once(key, _keep_columns, t, kept)
    return LabelSpace(t, _finish(p), names)


def _keep_columns(y, kept):
    """The clean indicators of the kept columns (all for None)."""
    return _finish(y if kept is None else y[:, kept])


def label_values(y_true, y_pred, labels=None):
    """The values that name the labels of the MLCM of ``y_true`` and
    ``y_pred``, in its order, as scikit-learn's displays name them.

    ``labels`` as given; else the column names of a frame (of any library);
    the class values of 1-D class labels, sorted (as
    :func:`~sklearn.utils.multiclass.unique_labels` gives them); the column
    indices of an indicator matrix. Only 1-D input is read beyond its shape
    and column names.
    """
    if labels is not None:
        return labels
    for y in (y_true, y_pred):
        columns = frame_columns(y)
        if columns is not None:
            return list(columns)
    if sparse.issparse(y_true) or _library(y_true) == "dask":
        return np.arange(y_true.shape[1])
    if isinstance(y_true, np.ndarray) and y_true.ndim == 2:
        return np.arange(y_true.shape[1])
    space = check_mlcm_targets(y_true, y_pred)
    if space.classes is not None:
        return space.classes
    return np.arange(space.n_labels)


def mixed_frame(values, columns, name, labels, *, other=None):
    """A frame's values beside an array without column names: its columns in
    the order ``labels`` gives the array's columns, or a ValueError.

    The array's columns cannot be matched by name: taking them in the frame's
    order would silently mislabel them, so the mix is refused unless
    ``labels`` names every column, in the array's order. ``other`` is the
    array's parameter; a function without ``labels`` passes ``labels=False``.
    """
    caller = current_function()
    if other is None:
        other = "y_pred" if name == "y_true" else "y_true"
    named = labels is not None and labels is not False
    if named and not isinstance(labels, (str, bytes)) and hasattr(labels, "__len__"):
        if (
            len(labels) == len(columns)
            and len(set(map(repr, labels))) == len(labels)
            and all(label in columns for label in labels)
        ):
            return align_columns(values, columns, list(labels), name=name)
    how = "both as arrays"
    if labels is not False:
        how += f", or name every column in 'labels', in the order of {other}'s columns"
    raise InvalidInputError(
        f"{name} of {caller} is a frame with the columns {list(columns)} and "
        f"{other} an array without column names, whose columns cannot be "
        f"matched by name. Pass both as frames with the label names as "
        f"columns, {how}."
    )


def align_columns(y_pred, pred_columns, true_columns, *, name="y_pred"):
    """The columns of ``y_pred`` (or another frame's values, ``name``) in
    y_true's order, matched by name, or a ValueError."""
    caller = current_function()
    if pred_columns == true_columns:
        return y_pred
    repeated = repeated_names(true_columns)
    repeated += [c for c in repeated_names(pred_columns) if c not in repeated]
    if repeated:
        raise InvalidInputError(
            f"y_true and {name} of {caller} are frames whose columns are matched "
            f"by name, and the names {repeated} repeat: a name cannot tell those "
            f"columns apart. Got the columns {true_columns} and {pred_columns}. "
            "Give every column a distinct name (or pass both frames with their "
            "columns in the same order)."
        )
    missing = [c for c in true_columns if c not in pred_columns]
    extra = [c for c in pred_columns if c not in true_columns]
    if missing or extra or len(set(pred_columns)) != len(pred_columns):
        raise InvalidInputError(
            f"y_true and {name} of {caller} are frames with different "
            f"columns: {true_columns} and {pred_columns} (missing from {name}: "
            f"{missing}; not in y_true: {extra}). Give them the same label names; "
            "their order may differ."
        )
    position = {c: i for i, c in enumerate(pred_columns)}
    return y_pred[:, [position[c] for c in true_columns]]


def _finish(y):
    if sparse.issparse(y):
        return sparse.csr_array(y)
    return np.ascontiguousarray(y, dtype=bool)


def check_sample_weight(sample_weight, n_samples):
    """Validate ``sample_weight``: None, or finite non-negative, length n."""
    caller = current_function()
    if sample_weight is None:
        return None
    raw = np.asarray(sample_weight)
    if raw.dtype == object and all(
        isinstance(v, numbers.Real) for v in raw.ravel().tolist()
    ):
        # numbers held as objects (a pandas object Series): as scikit-learn
        raw = raw.astype(np.float64)
    if raw.dtype.kind not in "biuf":
        raise InvalidInputError(
            f"The 'sample_weight' parameter of {caller} must be an array-like "
            f"of real numbers. Got values of dtype {raw.dtype} instead."
        )
    weight = raw.astype(np.float64)
    if weight.ndim == 0:
        raise InvalidInputError(
            f"The 'sample_weight' parameter of {caller} must be a 1-D array of "
            f"length n_samples={n_samples}. Got the scalar {sample_weight!r}."
        )
    if weight.ndim != 1 or weight.shape[0] != n_samples:
        raise InvalidInputError(
            f"The 'sample_weight' parameter of {caller} must be a 1-D array of "
            f"length n_samples={n_samples}. Got shape {weight.shape}."
        )
    if not np.all(np.isfinite(weight)):
        raise InvalidInputError(
            f"The 'sample_weight' parameter of {caller} must be finite; it "
            "contains NaN or infinity."
        )
    if (weight < 0).any():
        raise InvalidInputError(
            f"The 'sample_weight' parameter of {caller} must be non-negative; "
            f"found {weight[weight < 0][0].item()!r}."
        )
    return weight


def check_weight_sums(weight, n_labels):
    """Refuse weights whose sums could overflow float64 in the matrix.

    A cell of the MLCM is at most the sum of the weights, a row or column sum
    ``n_labels + 1`` times that, and the total ``(n_labels + 1)**2`` times:
    past float64's largest number they would be infinite, and every ratio read
    off them wrong (a recall of 0 for 0.5). Ratios do not change when every
    weight is divided by the same number, so the message says so.
    """
    caller = current_function()
    if weight is None or weight.size == 0:
        return
    largest = float(weight.max())
    if largest == 0.0:
        return
    total = largest * math.fsum((weight / largest).tolist())
    if math.isfinite(total * (n_labels + 1) ** 2):
        return
    raise InvalidInputError(
        f"The 'sample_weight' parameter of {caller} must keep the matrix's "
        f"sums within float64 (their total times (n_labels + 1)**2 below "
        f"{np.finfo(np.float64).max:.3g}). Got weights up to {largest:.3g} "
        f"summing to {total:.3g} instead; divide them by their largest value: "
        "every ratio is unchanged."
    )


def check_square_matrix(cm, *, name="cm"):
    """Validate a confusion matrix: 2-D, square, finite, non-negative numbers.

    Returns an int64 or float64 ndarray, or a CSR array for sparse input
    (which is never densified: an MLCM of 10**5 labels has 10**10 cells).
    """
    caller = current_function()
    if sparse.issparse(cm):
        if cm.dtype.kind in "biuf":
            matrix = _sum_sparse_duplicates(cm, name, indicators=False)
        else:
            matrix = sparse.csr_array(cm)
        values = matrix.data
    else:
        try:
            matrix = values = np.asarray(cm)
        except ValueError:
            raise InvalidInputError(
                f"{name} of {caller} must be a square 2-D array of counts; it "
                "could not be read as a rectangular array."
            ) from None
    if values.dtype.kind not in "biuf":
        raise InvalidInputError(
            f"{name} of {caller} must hold real numbers; got dtype {values.dtype}."
        )
    shape = matrix.shape
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] == 0:
        raise InvalidInputError(
            f"{name} of {caller} must be a non-empty square 2-D matrix. Got "
            f"shape {shape}."
        )
    if (
        values.dtype == np.uint64
        and values.size
        and values.max() > np.uint64(np.iinfo(np.int64).max)
    ):
        raise InvalidInputError(
            f"{name} of {caller} holds counts too large for int64; found "
            f"{values.max().item()!r}."
        )
    if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
        raise InvalidInputError(f"{name} of {caller} contains NaN or infinity.")
    if (values < 0).any():
        raise InvalidInputError(
            f"{name} of {caller} must be non-negative; found "
            f"{values[values < 0][0].item()!r}."
        )
    if values.dtype.kind in "iub" and values.size:
        _check_int64_sums(values, name)
    # int64 counts or float64 amounts, whatever came in (no uint8 or float16
    # overflow in the sums)
    return matrix.astype(np.float64 if values.dtype.kind == "f" else np.int64)


def _check_int64_sums(values, name):
    """Integer counts whose total passes int64 would wrap in the row, column
    and total sums (negative FP counts): refused, as no int64 can hold them."""
    caller = current_function()
    largest = int(values.max())
    if largest * values.size < 2**63:
        return  # no sum of these cells can overflow
    total = sum(int(v) for v in values.ravel().tolist())
    if total >= 2**63:
        raise InvalidInputError(
            f"{name} of {caller} holds counts whose total, {total}, does not "
            "fit in int64 (at most 2**63 - 1); its row, column and total sums "
            "would overflow. Pass the counts as float64 to work in floating point."
        )


def check_target_names(
    names, n_labels, reserved=(), *, name="target_names", no_label=(), renamable=False
):
    """Display names as str: one per label, that the outputs tell apart.

    The one rule of every entry point that names labels (``target_names``,
    ``display_labels``, a frame's columns, a CSV header): the names must
    differ once their surrounding whitespace is stripped (``"a"``, ``"a "``
    and ``" a"`` print alike in a right-aligned text column, a markdown cell,
    a plot), and differ so from the rows the same output adds: ``reserved``
    (the averages' rows, ``"no label"``) and ``no_label``, the names of the
    no-true-label row and the no-predicted-label column (``ntl_label``,
    ``npl_label``) where the output draws them. ``renamable``: the caller
    takes ``ntl_label``/``npl_label``, which the hint offers.

    ``names`` is an ordered sequence (its type was checked by the decorator);
    ``name`` is the parameter the messages name (``display_labels`` of
    :class:`MLCMDisplay`).
    """
    caller = current_function()
    names = [str(label) for label in names]
    if len(names) != n_labels:
        raise InvalidInputError(
            f"The {name!r} parameter of {caller} must have one name "
            f"per label: {n_labels} expected, got {len(names)}."
        )
    rows = {row.strip(): (row, "a summary row") for row in reserved}
    axes = ("the no-true-label row", "the no-predicted-label column")
    for row, axis in zip(no_label, axes):
        rows[row.strip()] = (row, axis)
    seen = {}
    for label in names:
        key = label.strip()
        if key in seen:
            other = seen[key]
            clash = (
                f"{label!r} is used twice"
                if other == label
                else f"{other!r} and {label!r} print alike (as {key!r})"
            )
        elif key in rows:
            row, what = rows[key]
            clash = (
                f"{label!r} is used as {what}"
                if row == label
                else f"{label!r} prints as {what}, {row!r}"
            )
        else:
            seen[key] = label
            continue
        rule = "unique (compared without surrounding whitespace)"
        listed = sorted({*reserved, *no_label})
        if listed:
            rule += f" and differ from the rows {listed}"
        hint = f"Pass distinct {name}"
        if key in rows and renamable:
            hint += ", or pass other ntl_label/npl_label"
        raise InvalidInputError(
            f"{name} of {caller} must be {rule}; {clash}. {hint}."
        )
    return names


def check_batch_shape(y_true, n_labels):
    """The number of rows of an accumulator's batch (None if unknown yet).

    A batch must be 2-D with ``n_labels`` columns: class labels would not share
    one label space across batches.
    """
    caller = current_function()
    try:
        shape = (
            y_true.shape
            if hasattr(y_true, "shape")
            else _asarray_rectangular(y_true).shape
        )
    except ValueError:  # ragged lists: the full validation says so later
        return None
    shape = tuple(shape)
    if shape == (0,):  # an empty list: an empty batch
        return 0
    if len(shape) != 2:
        raise InvalidInputError(
            f"The batches of {caller} must be 2-D indicator matrices (class "
            "labels would not share one label space across batches). Got "
            f"y_true of shape {tuple(shape)}."
        )
    if shape[1] != n_labels:
        raise InvalidInputError(
            f"y_true of {caller} must have the accumulator's {n_labels} label "
            f"columns. Got {shape[1]}."
        )
    if isinstance(shape[0], float) and np.isnan(shape[0]):
        return None  # dask, unknown chunk sizes: the dask checks say so
    return int(shape[0])


def frame_columns(y):
    """The column names of a 2-D frame of any library, or None.

    Reads only the names (no values are converted) of the frames
    :func:`read_frame` reads; None for 1-D objects (class labels) and arrays.
    """
    if isinstance(y, np.ndarray) or sparse.issparse(y):
        return None
    library = _library(y)
    if library == "pandas" or (library == "polars" and type(y).__name__ == "DataFrame"):
        columns = getattr(y, "columns", None) if getattr(y, "ndim", 2) == 2 else None
        return None if columns is None else list(columns)
    if _is_arrow_table(y):
        return list(y.column_names)
    if library in ("polars", "pyarrow") or (
        library == "xarray" and getattr(y, "ndim", None) != 2
    ):
        return None  # a Series, an Array: 1-D
    if library == "xarray":
        dim = y.dims[1]
        return y.coords[dim].values.tolist() if dim in y.coords else None
    if hasattr(y, "__arrow_c_stream__"):
        try:
            import pyarrow
        except ImportError:  # the values cannot be read either: said later
            return None
        try:
            return list(pyarrow.table(y).column_names)
        except (pyarrow.ArrowInvalid, TypeError):  # a stream of one column
            return None
    if hasattr(y, "__dataframe__"):
        with warnings.catch_warnings():  # pandas 3 deprecates the protocol
            warnings.simplefilter("ignore", DeprecationWarning)
            return list(y.__dataframe__().column_names())
    return None


def check_batch_columns(names, known, *, what="the batch"):
    """A frame batch (or ``what`` else) has the accumulator's label names,
    in any order, compared exactly (0 is not '0').

    Returns ``known``, to select and order the batch's columns by name.
    """
    caller = current_function()
    names, known = list(names), list(known)
    if len(set(names)) == len(names) and set(names) == set(known):
        return known
    repeated = repeated_names(names)
    if repeated:
        raise InvalidInputError(
            f"The columns of {what} of {caller} must have distinct names: they "
            f"are matched to the accumulator's labels by name, and the names "
            f"{repeated} repeat: a name cannot tell those columns apart. Got "
            f"{names}."
        )
    hint = ""
    if sorted(map(str, names)) == sorted(map(str, known)):
        hint = (
            f" The names differ only in type ({names[0]!r} against "
            f"{known[_known_index(known, names[0])]!r}); give every batch label "
            "names of one type."
        )
    raise InvalidInputError(
        f"The columns of {what} of {caller} must be the accumulator's "
        f"labels {known} (in any order). Got {names}.{hint}"
    )


def _known_index(known, name):
    """The position of the name of ``known`` that reads as ``name``."""
    return [str(k) for k in known].index(str(name))


def check_batch_kinds(true_names, pred_names, known, n_seen):
    """A batch is two frames or two arrays, of the kind of the batches before.

    ``true_names`` and ``pred_names`` are the batch's column names (None for
    an array), ``known`` the accumulator's label names (None before any frame)
    and ``n_seen`` its number of instances. An array's columns cannot be
    matched by name, so arrays and frames are not mixed, within a batch or
    across batches. Returns the batch's names (None for arrays).
    """
    caller = current_function()
    if (true_names is None) != (pred_names is None):
        name = "y_true" if true_names is not None else "y_pred"
        other = "y_pred" if name == "y_true" else "y_true"
        raise InvalidInputError(
            f"{name} of {caller} is a frame with the columns "
            f"{list(true_names or pred_names)} and {other} an array without "
            "column names, whose columns cannot be matched by name. Pass both "
            "as frames with the label names as columns, or both as arrays."
        )
    names = true_names if true_names is not None else pred_names
    if names is None and known is not None:
        raise InvalidInputError(
            f"The batches of {caller} so far are frames with the columns "
            f"{list(known)}; this batch is two arrays without column names, whose "
            "columns cannot be matched by name. Pass frames with these columns."
        )
    if names is not None and known is None and n_seen:
        raise InvalidInputError(
            f"The accumulator of {caller} has added {n_seen} instances of "
            f"array batches, whose columns have no names; this batch is frames "
            f"with the columns {list(names)}, which cannot be matched to them. "
            "Pass arrays, or reset() first."
        )
    return names


def check_empty_batch(y_pred, sample_weight, n_labels):
    """An empty batch is validated as any other: y_pred empty with the same
    columns, weights of length 0."""
    caller = current_function()
    y_pred, _ = _as_array(y_pred, "y_pred")
    if y_pred.shape not in ((0,), (0, n_labels)):
        raise InvalidInputError(
            f"y_pred of {caller} must have the shape of y_true, (0, {n_labels}) "
            f"for this empty batch. Got {_describe(y_pred)}."
        )
    _indicator_to_bool(y_pred, "y_pred")
    check_sample_weight(sample_weight, 0)


def check_same_accumulator(mine, other):
    """Two accumulators can be merged: same ``n_labels``, ``method`` and
    ``n_resamples``."""
    caller = current_function()
    if (other.n_labels, other.method) != (mine.n_labels, mine.method):
        raise InvalidInputError(
            f"The 'other' parameter of {caller} must have the same n_labels "
            f"and method. Got n_labels={other.n_labels}, method={other.method!r} "
            f"for n_labels={mine.n_labels}, method={mine.method!r}."
        )
    if other.n_resamples != mine.n_resamples:  # replicates add one by one
        raise InvalidInputError(
            f"The 'other' parameter of {caller} must keep as many bootstrap "
            f"replicates. Got n_resamples={other.n_resamples} for "
            f"n_resamples={mine.n_resamples}."
        )


# A dense (q+1, q+1) result larger than this is refused before it is built.
MAX_DENSE_BYTES = 1 << 30


def dense_bytes(n_labels, itemsize=8):
    """The size in bytes of a dense (q+1, q+1) matrix of q = ``n_labels``."""
    return (int(n_labels) + 1) ** 2 * itemsize


def fits_dense(n_labels, itemsize=8):
    """True when a dense (q+1, q+1) matrix stays within :data:`MAX_DENSE_BYTES`."""
    return dense_bytes(n_labels, itemsize) <= MAX_DENSE_BYTES


def check_dense_size(n_labels, *, hint, itemsize=8):
    """Refuse a dense (q+1, q+1) matrix above :data:`MAX_DENSE_BYTES`, before
    it is allocated, with a ``hint`` of what to do instead."""
    caller = current_function()
    size = dense_bytes(n_labels, itemsize)
    if size > MAX_DENSE_BYTES:
        raise InvalidInputError(
            f"The result of {caller} is a {n_labels + 1} x {n_labels + 1} "
            f"matrix, {size / 2**30:.1f} GiB as a dense array (at most "
            f"{MAX_DENSE_BYTES / 2**30:.0f} GiB). {hint}"
        )


def check_dask_kinds(y_true, y_pred):
    """Dask input is two dask arrays: not a dask DataFrame, not mixed with
    NumPy or pandas (whose rows could not be matched to the chunks)."""
    caller = current_function()
    kinds = {}
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        library = type(y).__module__.split(".")[0]
        if library in ("dask", "dask_expr") and hasattr(y, "to_dask_array"):
            raise InvalidInputError(
                f"{name} of {caller} is a dask DataFrame; pass a dask array "
                f"of its label columns: {name}.to_dask_array(lengths=True)."
            )
        kinds[name] = library in ("dask", "dask_expr")
    if kinds["y_true"] != kinds["y_pred"]:
        dask_name = "y_true" if kinds["y_true"] else "y_pred"
        other = "y_pred" if kinds["y_true"] else "y_true"
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must both be dask arrays or "
            f"neither; {dask_name} is a dask array and {other} a "
            f"{type(y_pred if kinds['y_true'] else y_true).__name__}. Convert "
            f"{other} with dask.array.from_array, chunked as {dask_name}."
        )


def check_dask_targets(y_true, y_pred, labels, sample_weight):
    """Validate dask arrays chunked along the rows, before anything is computed.

    Returns the label positions (or None) and the weights as a 1-D dask array
    (or None). The chunks' values are validated on the workers, by
    :func:`check_mlcm_targets`, as NumPy input would be.
    """
    caller = current_function()
    if y_true.ndim != 2 or y_pred.ndim != 2:
        raise InvalidInputError(
            f"Dask input of {caller} must be 2-D indicator matrices chunked "
            f"along the rows. Got arrays of {y_true.ndim} and {y_pred.ndim} "
            "dimensions."
        )
    _check_columns(y_true.shape[1], y_pred.shape[1])
    if np.isnan(y_true.shape[0]) or np.isnan(y_pred.shape[0]):
        raise InvalidInputError(
            f"Dask input of {caller} must have known chunk sizes; call "
            "y.compute_chunk_sizes() first."
        )
    _check_samples(y_true.shape[0], y_pred.shape[0])
    if labels is not None:
        labels = check_indicator_labels(labels, y_true.shape[1], None)
    if sample_weight is not None:
        shape = getattr(sample_weight, "shape", np.shape(sample_weight))
        if len(shape) != 1 or shape[0] != y_true.shape[0]:
            raise InvalidInputError(
                f"The 'sample_weight' parameter of {caller} must be a 1-D array "
                f"of length n_samples={y_true.shape[0]}. Got shape {tuple(shape)}."
            )
    return labels


# -- the one entry point of the targets -------------------------------------------


@dataclass(frozen=True)
class Targets:
    """The validated input of one public call: what every layer below reads.

    Built once, by :func:`validate_targets`; the engine, the unit table of
    the intervals and the packaging take it and never the raw input.

    Attributes
    ----------
    space : LabelSpace or None
        The packed targets and their label space; None for dask input, whose
        chunks are validated where they live (``chunks``).
    names : list of str
        The labels' display names, in the matrix's order.
    weight : ndarray of shape (n_samples,), float64, or None
        The validated weights; for dask input, the weights as passed (their
        shape checked, their values checked chunk by chunk).
    groups : ndarray of shape (n_samples,) or None
        The cluster of each instance (dask input: as passed, shape checked).
    kind : {"numpy", "sparse", "frame", "dask"}
        How the targets were read.
    chunks : tuple or None
        For dask input: ``(y_true, y_pred, labels)``, the two dask arrays and
        the label positions to keep (or None).
    predictions : dict or None
        For several prediction sets: each set's clean indicators, by name
        (``space.y_pred`` is the last one's).
    """

    space: object
    names: list
    weight: object = None
    groups: object = None
    kind: str = "numpy"
    chunks: object = None
    predictions: object = None

    @property
    def n_labels(self):
        return len(self.names)


_FRAME_LIBRARIES = {"pandas", "polars", "pyarrow", "xarray"}


def _check_groups(groups, n):
    """None, or a 1-D array of one group per instance."""
    if groups is None:
        return None
    shape = getattr(groups, "shape", None)
    if shape is None:
        groups = np.asarray(groups)
        shape = groups.shape
    if len(shape) != 1 or shape[0] != n:
        raise input_error(
            "groups",
            f"a 1-D array of length n_samples={n}",
            f"shape {tuple(shape)}",
        )
    return groups


def _raw_values(y):
    """Something ``np.shape`` reads without converting a sparse matrix."""
    if sparse.issparse(y) or hasattr(y, "shape"):
        return np.empty(tuple(y.shape), dtype=bool)
    return y


def _check_prediction_sets(y_true, predictions, parameters, labels):
    """One label space for ``y_true`` and every prediction set: ``(space,
    {name: clean predictions})``; ``space`` is the last set's (y_true and the
    names are the same in every one). Errors name the refused set by its
    parameter, ``parameters[name]``."""
    shapes = {name: np.shape(_raw_values(y)) for name, y in predictions.items()}
    first_name, first_shape = next(iter(shapes.items()))
    for name, shape in shapes.items():
        if shape != first_shape:
            raise input_error(
                parameters[name],
                f"of the shape of {parameters[first_name]}, {first_shape}",
                f"shape {shape}",
            )
    true = _TrueTarget(y_true)  # read once, for every set
    if len(first_shape) == 1 and labels is None and true.values.ndim == 1:
        # 1-D class labels: one set of classes for all prediction sets, of
        # the values themselves (_raw_values stands in for arrays by shape)
        try:
            labels = unique_labels(
                true.values, *(np.asarray(y) for y in predictions.values())
            )
        except ValueError:  # not class labels: _check_pair says why
            labels = None
    # each set is paired with y_true as read and checked once: frames are
    # aligned to y_true's columns, 1-D classes to one set, and every space
    # holds the same y_true and label names
    cleaned, space = {}, None
    for name, y in predictions.items():
        try:
            space = _check_pair(true, y, labels)
        except InvalidInputError as exc:
            # the checks call every prediction set y_pred: name the one refused
            parameter = parameters[name]
            raise InvalidInputError(
                re.sub(r"\by_pred\b", lambda _: parameter, str(exc))
            ) from None
        cleaned[name] = space.y_pred
    return space, cleaned


def validate_targets(
    y_true,
    y_pred,
    *,
    labels=None,
    sample_weight=None,
    groups=None,
    predictions=None,
    parameters=None,
    matrix_sums=True,
    chunked=True,
):
    """Validate a public call's targets, weights and groups, once: a :class:`Targets`.

    The one entry point of the targets: every public function that takes
    ``y_true`` and ``y_pred`` calls it once and hands the result down.
    Indicator matrices, sparse matrices, frames and 1-D class labels go
    through :func:`check_mlcm_targets`, the weights through
    :func:`check_sample_weight` and :func:`check_weight_sums`; dask arrays
    through :func:`check_dask_kinds` and :func:`check_dask_targets` (their
    values are checked chunk by chunk when computed).

    Several prediction sets (the paired comparison) come as ``predictions``,
    a dict of named sets in place of ``y_pred`` (None), with ``parameters``
    naming each set's parameter in errors: ``y_true`` is read and checked
    once for all of them, each set aligned to it, and their clean indicators
    are :attr:`Targets.predictions`. Without ``matrix_sums`` the weights' sums
    are not bounded by the matrix's (for counts that build no matrix).
    Without ``chunked``, dask arrays are read whole, as any array-like
    (for the functions that do not count chunk by chunk).
    """
    if predictions is not None:
        space, cleaned = _check_prediction_sets(y_true, predictions, parameters, labels)
        weight = check_sample_weight(sample_weight, space.y_true.shape[0])
        check_weight_sums(weight, space.n_labels)
        names = list(space.names)
        return Targets(space, names, weight, None, "numpy", predictions=cleaned)
    library = {_library(y_true), _library(y_pred)}
    if chunked and library & {"dask", "dask_expr"}:
        check_dask_kinds(y_true, y_pred)
        kept = check_dask_targets(y_true, y_pred, labels, sample_weight)
        n, q = y_true.shape[0], y_true.shape[1] if kept is None else len(kept)
        groups = _check_groups(groups, n)
        names = [str(i) for i in (range(q) if kept is None else kept)]
        chunks = (y_true, y_pred, kept)
        return Targets(None, names, sample_weight, groups, "dask", chunks)
    space = check_mlcm_targets(y_true, y_pred, labels=labels)
    n = space.codes[0].shape[0] if space.codes is not None else space.y_true.shape[0]
    weight = check_sample_weight(sample_weight, n)
    if matrix_sums:
        check_weight_sums(weight, space.n_labels)
    if groups is not None:
        groups = _check_groups(np.asarray(groups), n)
    if library & _FRAME_LIBRARIES:
        kind = "frame"
    elif space.codes is None and sparse.issparse(space.y_true):
        kind = "sparse"
    else:
        kind = "numpy"
    return Targets(space, list(space.names), weight, groups, kind)


# -- scores and thresholds: decision rules and threshold curves -----------------


def _positive_columns(y_score, name):
    """The list of (n_samples, 2) probability arrays that scikit-learn's
    ``MultiOutputClassifier.predict_proba`` (and the multi-label
    ``predict_proba`` of forests and k-NN) returns, as one (n_samples,
    n_labels) array of the second column of each: the probability of the
    class 1 (scikit-learn sorts ``classes_``)."""
    caller = current_function()
    columns = []
    for j, proba in enumerate(y_score):
        proba = np.asarray(proba)
        if proba.ndim != 2 or proba.shape[1] != 2:
            why = (
                "a classifier that saw one class only in training cannot tell "
                "its one column's class from here"
                if proba.ndim == 2 and proba.shape[1] == 1
                else "this is no binary label's probabilities"
            )
            raise InvalidInputError(
                f"{name} of {caller} is a list of per-label probability "
                "arrays (MultiOutputClassifier.predict_proba); each must have "
                "shape (n_samples, 2), the probability of class 1 second. Got "
                f"shape {proba.shape} for label {j}: {why}. Pass the "
                "(n_samples, n_labels) array of the scores of class 1 instead."
            )
        if columns and proba.shape[0] != columns[0].shape[0]:
            raise InvalidInputError(
                f"{name} of {caller} is a list of per-label probability "
                "arrays of different lengths: "
                f"{columns[0].shape[0]} and {proba.shape[0]} (label {j})."
            )
        columns.append(proba[:, 1])
    return np.column_stack(columns)


def _is_proba_list(y):
    """A non-empty list or tuple of 2-D arrays (one per label)."""
    return (
        isinstance(y, (list, tuple))
        and len(y) > 0
        and all(len(getattr(a, "shape", ())) == 2 for a in y)
    )


def _read_scores(y_score, name):
    """``(values, column names or None)``: finite real scores as a dense
    float array of 2 dimensions, or a canonical CSR array without stored
    zeros (absent scores are 0)."""
    caller = current_function()
    if y_score is None:
        raise InvalidInputError(
            f"{name} of {caller} must be an array-like, a frame or a scipy "
            "sparse matrix of scores of shape (n_samples, n_labels). Got None."
        )
    if isinstance(y_score, (str, bytes, numbers.Number)):
        raise InvalidInputError(
            f"{name} of {caller} must be an array of scores of shape "
            f"(n_samples, n_labels), not a scalar. Got {y_score!r} instead."
        )
    columns = None
    if sparse.issparse(y_score):
        if y_score.ndim != 2 or y_score.dtype.kind not in "biuf":
            raise InvalidInputError(
                f"{name} of {caller} must be a 2-D sparse matrix of real "
                f"scores. Got {_describe(y_score)} of dtype {y_score.dtype}."
            )
        values = _sum_sparse_duplicates(y_score, name, indicators=False)
        if values.dtype.kind != "f":
            values = values.astype(np.float64)
        values.eliminate_zeros()
        data = values.data
    else:
        if _is_proba_list(y_score):
            values = _positive_columns(y_score, name)
        else:
            frame = read_frame(y_score, name)
            if frame is not None:
                y_score, columns = frame
            try:
                values = _asarray_rectangular(y_score)
            except ValueError:  # ragged rows
                raise InvalidInputError(
                    f"{name} of {caller} could not be read as a rectangular "
                    "array of scores (rows of different lengths?)."
                ) from None
        if values.dtype == object and all(
            isinstance(v, numbers.Real) for v in values.ravel().tolist()
        ):
            values = values.astype(np.float64)
        if values.dtype.kind not in "biuf":
            raise InvalidInputError(
                f"{name} of {caller} must hold real-valued scores; got values "
                f"of dtype {values.dtype}."
            )
        if values.ndim != 2:
            hint = (
                " For the scores of one label, pass y_score.reshape(-1, 1)."
                if values.ndim == 1
                else ""
            )
            raise InvalidInputError(
                f"{name} of {caller} must be 2-D, of shape (n_samples, "
                f"n_labels). Got an array of shape {values.shape}.{hint}"
            )
        if values.dtype.kind != "f":
            values = values.astype(np.float64)
        data = values
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise InvalidInputError(
            f"{name} of {caller} must have at least one sample and one label. "
            f"Got shape {values.shape}."
        )
    if not np.isfinite(data).all():
        position = np.argwhere(~np.isfinite(data))[0]
        if sparse.issparse(values):
            row = int(np.searchsorted(values.indptr, position[0], side="right") - 1)
            position = (row, int(values.indices[position[0]]))
        value = data.flat[np.flatnonzero(~np.isfinite(data))[0]].item()
        raise InvalidInputError(
            f"{name} of {caller} must hold finite scores; found {value!r} at "
            f"(row, label) {tuple(int(i) for i in position)}. Impute or drop "
            "those instances first."
        )
    return values, columns


def check_scores(y_score, *, labels=None, name="y_score"):
    """Validate scores of shape (n_samples, n_labels) and keep ``labels``.

    Returns ``(scores, keys, all_keys)``: a dense float array (float32 and
    float64 stay, other numbers become float64) or a canonical CSR array
    without stored zeros; the kept labels' names, by which thresholds are
    matched (frame column names, or the integer column indices), and the
    names of every column.
    """
    scores, columns = _read_scores(y_score, name)
    all_keys = list(columns) if columns is not None else list(range(scores.shape[1]))
    keys = all_keys
    if labels is not None:
        kept = check_indicator_labels(labels, scores.shape[1], columns)
        scores = scores[:, kept]
        keys = [all_keys[i] for i in kept]
    return _finish_scores(scores), keys, all_keys


def _finish_scores(scores):
    if sparse.issparse(scores):
        scores = sparse.csr_array(scores)
        scores.sort_indices()
        return scores
    return np.ascontiguousarray(scores)


def check_scored_targets(y_true, y_score, *, labels=None):
    """Validate true indicators and the scores of the same labels.

    Frames are matched by column name (the scores' columns are put in
    y_true's order); a frame beside an array is refused unless ``labels``
    names every column, as for two targets. Returns ``(y_true, scores,
    keys)``: bool indicators (dense, or CSR for sparse input), the scores as
    :func:`check_scores` returns them, the kept labels' names and the
    names of every column.
    """
    caller = current_function()
    y_true, true_columns = _as_array(y_true, "y_true")
    if y_true.ndim != 2:
        raise InvalidInputError(
            f"y_true of {caller} must be a 2-D 0/1 indicator matrix of shape "
            f"(n_samples, n_labels), one column per scored label. Got "
            f"{_describe(y_true)}. Binarize class labels first "
            "(sklearn.preprocessing.label_binarize or MultiLabelBinarizer)."
        )
    scores, score_columns = _read_scores(y_score, "y_score")
    if y_true.shape != scores.shape:
        raise InvalidInputError(
            f"y_true and y_score of {caller} must have the same shape "
            f"(n_samples, n_labels). Got {y_true.shape} and {scores.shape}."
        )
    if (true_columns is None) != (score_columns is None):
        if true_columns is not None:
            y_true = mixed_frame(
                y_true, true_columns, "y_true", labels, other="y_score"
            )
        else:
            scores = mixed_frame(
                scores, score_columns, "y_score", labels, other="y_true"
            )
        true_columns = score_columns = list(labels)
    if true_columns is not None:
        scores = align_columns(
            scores, score_columns, true_columns, name="y_score"
        )
    t = _indicator_to_bool(y_true, "y_true")
    all_keys = (
        list(true_columns) if true_columns is not None else list(range(t.shape[1]))
    )
    keys = all_keys
    if labels is not None:
        kept = check_indicator_labels(labels, scores.shape[1], true_columns)
        t, scores = t[:, kept], scores[:, kept]
        keys = [all_keys[i] for i in kept]
    return _finish(t), _finish_scores(scores), keys, all_keys


@dataclass(frozen=True)
class Scores:
    """The validated scores of one public call (:func:`validate_scores`).

    Attributes
    ----------
    scores : ndarray or CSR array of shape (n_samples, n_labels)
        As :func:`check_scores` returns them, the kept labels only.
    keys, all_keys : list
        The kept labels' names (frame columns or column indices), by which
        thresholds are matched, and the names of every column.
    y_true : ndarray or CSR array of shape (n_samples, n_labels), bool, or None
        The true indicators of the same labels, when given.
    weight : ndarray of shape (n_samples,), float64, or None
        The validated weights, when given.
    """

    scores: object
    keys: list
    all_keys: list
    y_true: object = None
    weight: object = None


def validate_scores(y_score, *, y_true=None, labels=None, sample_weight=None):
    """Validate a public call's scores (and its true indicators and weights,
    if any), once: a :class:`Scores`.

    The sibling of :func:`validate_targets` for the functions that read
    scores: :func:`check_scores` alone, or :func:`check_scored_targets` with
    ``y_true``, then :func:`check_sample_weight` and
    :func:`check_weight_sums`.
    """
    if y_true is None:
        scores, keys, all_keys = check_scores(y_score, labels=labels)
        return Scores(scores, keys, all_keys)
    t, scores, keys, all_keys = check_scored_targets(y_true, y_score, labels=labels)
    weight = check_sample_weight(sample_weight, t.shape[0])
    check_weight_sums(weight, t.shape[1])
    return Scores(scores, keys, all_keys, t, weight)


def check_target_scores(y_score, targets, y_true, y_pred, *, labels=None):
    """The scores of the labels of validated ``targets``, in their order.

    For a public call that has validated its targets already
    (:func:`validate_targets`) and takes scores beside them
    (:class:`~sklearn_mlcm.MLCMReport`): the targets are not read again, only
    the column names of ``y_true`` and ``y_pred`` to match the scores'.
    Scores are read as :func:`check_scores` reads them. A frame of scores is
    matched by column name to frame targets (extra columns allowed only with
    ``labels``), or beside array targets needs ``labels`` naming every column
    (:func:`mixed_frame`); an array of scores has the targets' columns, and
    ``labels`` keeps the same ones. Returns a dense float array or a CSR
    array of shape (n_samples, n_labels).
    """
    caller = current_function()
    space = targets.space
    if space.codes is not None:
        raise InvalidInputError(
            f"y_score of {caller} scores the labels of 2-D indicator targets; "
            "y_true and y_pred are 1-D class labels. Binarize them first "
            "(sklearn.preprocessing.label_binarize), or leave y_score out."
        )
    n, q = space.y_true.shape
    scores, score_columns = _read_scores(y_score, "y_score")
    if scores.shape[0] != n:
        raise InvalidInputError(
            f"y_score of {caller} must have one row per instance of y_true: "
            f"{n} expected, got {scores.shape[0]}."
        )
    frames = [frame_columns(y) for y in (y_true, y_pred)]
    columns = frames[0] if frames[0] is not None else frames[1]
    both = frames[0] is not None and frames[1] is not None
    if score_columns is not None:
        if columns is None:  # array targets: the frame's order is labels'
            scores = mixed_frame(scores, score_columns, "y_score", labels)
        else:
            lookup = {str(c): i for i, c in enumerate(score_columns)}
            repeated = repeated_names([str(c) for c in score_columns])
            missing = [name for name in targets.names if name not in lookup]
            extra = len(score_columns) - q if labels is None else 0
            if repeated or missing or extra:
                known = set(targets.names)
                other = [c for c in score_columns if str(c) not in known]
                hint = (
                    " Drop the other columns, or pass labels=... naming the "
                    "scored ones."
                    if other and labels is None
                    else ""
                )
                raise InvalidInputError(
                    f"y_score of {caller} is a frame whose columns must name "
                    f"each label of y_true once: {targets.names}. Got the "
                    f"columns {list(score_columns)} (missing: {missing}; "
                    f"repeated: {repeated}; not a label: {other}).{hint}"
                )
            scores = scores[:, [lookup[name] for name in targets.names]]
    elif labels is not None and (columns is None or both):
        width = len(columns) if columns is not None else np.shape(
            _raw_values(y_true)
        )[1]
        if scores.shape[1] != width:
            raise InvalidInputError(
                f"y_score of {caller} must have one column per column of "
                f"y_true, {width}, before 'labels' keeps some. Got "
                f"{scores.shape[1]} columns."
            )
        scores = scores[:, check_indicator_labels(labels, width, columns)]
    if scores.shape != (n, q):
        raise InvalidInputError(
            f"y_score of {caller} must have the shape of the labels scored, "
            f"(n_samples, n_labels) = {(n, q)}. Got {scores.shape}."
        )
    return _finish_scores(scores)


def check_thresholds(threshold, keys, all_keys=None, *, positive=False):
    """One threshold per kept label, as a float64 array of shape (n_labels,).

    ``threshold`` is a real number (every label), an array-like of one
    number per kept label in their order, or a dict or pandas Series keyed by
    label name (``keys``: frame columns, or column indices), which must name
    every kept label and no unknown one (names of ``all_keys``, the columns
    that ``labels`` left out, are ignored). ``positive`` (sparse scores,
    whose absent entries are 0) asks every threshold to be above 0.
    """
    q = len(keys)
    if isinstance(threshold, dict) or (
        _library(threshold) == "pandas" and getattr(threshold, "ndim", 0) == 1
    ):
        values = _thresholds_by_name(threshold, keys, all_keys or keys)
    else:
        raw = _real_array(threshold)
        if raw.dtype.kind not in "iuf":
            raise input_error(
                "threshold",
                "a real number, one per label, or a dict keyed by label name",
                f"values of dtype {raw.dtype}",
            )
        if raw.ndim == 0:
            values = np.full(q, float(raw))
        elif raw.ndim != 1 or raw.shape[0] != q:
            raise input_error(
                "threshold",
                f"a real number or an array of one threshold per label, of "
                f"shape ({q},)",
                f"shape {raw.shape}",
            )
        else:
            values = raw.astype(np.float64)
    if not np.isfinite(values).all():
        raise input_error(
            "threshold",
            "finite",
            f"{values[~np.isfinite(values)][0].item()!r}",
        )
    if positive and (values <= 0).any():
        k = int(np.flatnonzero(values <= 0)[0])
        raise input_error(
            "threshold",
            "above 0 for sparse y_score, whose absent scores are 0 and would all "
            "pass a threshold of 0 or less (every absent label predicted); "
            "pass dense scores (y_score.toarray()) for such thresholds",
            f"{values[k].item()!r} for label {keys[k]!r}",
        )
    return values


def _real_array(values):
    """``values`` as an array; an object array of real numbers (a list
    mixing ints and NumPy floats, a pandas object Series) as float64. Bools
    stay bool, to be refused: True is no threshold."""
    raw = np.asarray(values)
    if raw.dtype == object and all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
        for v in raw.ravel().tolist()
    ):
        raw = raw.astype(np.float64)
    return raw


def _thresholds_by_name(threshold, keys, all_keys):
    """A dict or Series of thresholds, aligned by name to ``keys``."""
    caller = current_function()
    if isinstance(threshold, dict):
        names, given = list(threshold), list(threshold.values())
    else:
        names, given = list(threshold.index), list(threshold.to_numpy())
    kind = "a dict" if isinstance(threshold, dict) else "a Series"
    if repeated_names(keys):
        raise input_error(
            "threshold",
            "a real number, or an array of one threshold per label in column "
            f"order, for scores whose columns repeat the names "
            f"{repeated_names(keys)} (a threshold keyed by name cannot tell "
            "those columns apart; or give every column a distinct name)",
            f"{kind} keyed by name",
        )
    if repeated_names(names):
        raise input_error(
            "threshold",
            "keyed by distinct label names (one threshold per name)",
            f"{kind} keyed by the names {repeated_names(names)} more than once",
        )
    lookup = {}
    for label, value in zip(names, given):
        if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
            raise input_error(
                "threshold",
                "a mapping of label names to real numbers",
                f"{value!r} for {label!r}",
            )
        lookup[label] = float(value)
    unknown = [label for label in names if label not in all_keys]
    missing = [label for label in keys if label not in lookup]
    if unknown or missing:
        hint = ""
        if sorted(map(str, names)) == sorted(map(str, keys)) or (
            unknown and all(str(u) in map(str, keys) for u in unknown)
        ):
            hint = (
                " The names differ only in type (0 is not '0'); key the "
                "thresholds by the labels' own names."
            )
        raise InvalidInputError(
            f"The 'threshold' parameter of {caller} must name every label "
            f"scored, {keys}, and no unknown one. Got the names {names} (missing: "
            f"{missing}; unknown: {unknown}).{hint}"
        )
    return np.array([lookup[label] for label in keys], dtype=np.float64)


def check_threshold_count(n_thresholds, q):
    """Refuse more thresholds than a curve or a search over them holds in
    1 GiB (about 12 float64 arrays of shape (n_thresholds, n_labels)),
    before any grid is made."""
    if n_thresholds * (q + 1) * 8 * 12 > MAX_DENSE_BYTES:
        raise input_error(
            "thresholds",
            f"fewer for {q:,} labels: the curve (or the search) holds about 12 "
            "(n_thresholds, n_labels) float64 arrays, at most 1 GiB; pass fewer "
            "thresholds or labels",
            f"{n_thresholds:,} thresholds",
        )


def evenly_spaced(low, high, count):
    """``np.linspace(low, high, count)``, also when ``high - low`` overflows.

    Finite scores from near -1.8e308 to near 1.8e308 span more than float64
    holds: ``np.linspace`` then steps by infinity and returns infinities and
    NaN. Such a grid is made halfway (``low / 2`` to ``high / 2``, whose span
    is finite) and doubled. Halving and doubling are exact there (an end of
    so wide a span is far from the subnormal numbers), and ``np.linspace``'s
    arithmetic commutes with a power of two, so the grid is that of the
    scores scaled by any power of two into range, scaled back: the same
    predictions, bit for bit. A span that fits takes ``np.linspace`` itself,
    without its overflow warning for a span near float64's largest number:
    only its last step overflows there, and ``np.linspace`` puts ``high``
    in its place.
    """
    with np.errstate(over="ignore"):
        span = np.float64(high) - np.float64(low)
        if np.isfinite(span):
            return np.linspace(low, high, count)
        return 2.0 * np.linspace(low / 2.0, high / 2.0, count)


def check_threshold_grid(thresholds, scores, *, default=100):
    """The thresholds of a curve: a (T,) increasing float64 array, or a
    (T, n_labels) array of one threshold per label in each row.

    ``thresholds`` is None (``default`` thresholds), an int (that many): evenly
    spaced from the smallest to the largest score (for sparse scores, from
    the smallest stored score above 0: absent scores are 0 and thresholds
    must be above 0), one if those are equal; or an array-like, 1-D strictly
    increasing or 2-D of shape (T, n_labels). Every threshold is finite, and
    above 0 for sparse scores.
    """
    is_sparse = sparse.issparse(scores)
    q = scores.shape[1]
    if thresholds is None or isinstance(thresholds, numbers.Integral):
        count = default if thresholds is None else int(thresholds)
        values = scores.data if is_sparse else scores
        if is_sparse:
            values = values[values > 0]
            if values.size == 0:
                raise input_error(
                    "thresholds",
                    "given (an array of thresholds above 0) for sparse y_score "
                    "that stores no score above 0 (absent scores are 0, and "
                    "thresholds of sparse scores must be above 0)",
                    repr(thresholds),
                )
        low, high = float(values.min()), float(values.max())
        grid = (
            np.unique(evenly_spaced(low, high, count))
            if high > low
            else np.array([low])
        )
        return grid
    raw = _real_array(thresholds)
    if raw.dtype.kind not in "iuf" or raw.ndim not in (1, 2) or raw.size == 0:
        raise input_error(
            "thresholds",
            f"None, an int, a non-empty 1-D increasing array of thresholds, or "
            f"a 2-D array of shape (n_thresholds, {q}), of real numbers",
            f"an array of shape {raw.shape} and dtype {raw.dtype}",
        )
    grid = raw.astype(np.float64)
    if not np.isfinite(grid).all():
        raise input_error(
            "thresholds", "finite", f"{grid[~np.isfinite(grid)][0].item()!r}"
        )
    if grid.ndim == 1 and (grid[1:] <= grid[:-1]).any():
        j = int(np.flatnonzero(grid[1:] <= grid[:-1])[0])
        raise input_error(
            "thresholds",
            "strictly increasing (each threshold once, in increasing order; "
            "np.unique(thresholds) sorts them)",
            f"{grid[j].item()!r} followed by {grid[j + 1].item()!r} at position {j}",
        )
    if grid.ndim == 2 and grid.shape[1] != q:
        raise input_error(
            "thresholds",
            f"of shape (n_thresholds, {q}) when 2-D: one threshold per scored "
            "label in each row",
            f"shape {grid.shape}",
        )
    if is_sparse and (grid <= 0).any():
        raise input_error(
            "thresholds",
            "above 0 for sparse y_score, whose absent scores are 0 and would all "
            "pass a threshold of 0 or less; pass dense scores for such thresholds",
            f"{grid[grid <= 0].flat[0].item()!r}",
        )
    return grid
