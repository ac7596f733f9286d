"""Reading frames: the values and column names of a frame of any library.

:func:`read_frame` reads 2-D frames of pandas, polars, pyarrow and xarray (and
any other library through the Arrow PyCapsule stream or the dataframe
interchange protocol) and their 1-D objects (class labels);
:func:`frame_columns` reads only the column names. Two frames are aligned by
label name (:func:`align_columns`), a frame beside an array only when
``labels`` names every column (:func:`mixed_frame`); names that repeat cannot
tell columns apart (:func:`repeated_names`).
"""

import importlib
import warnings

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import InvalidInputError, current_function

__all__ = [
    "align_columns",
    "frame_columns",
    "mixed_frame",
    "read_frame",
    "repeated_names",
]


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


def repeated_names(names):
    """The names that occur more than once in ``names``, in the order of
    their second occurrence: columns that a name cannot tell apart."""
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return repeated


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
