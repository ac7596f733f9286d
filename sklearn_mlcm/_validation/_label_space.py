"""The two targets, read and checked into one label space (a :class:`LabelSpace`).

:func:`check_mlcm_targets` reads ``y_true`` and ``y_pred`` in every accepted
form (indicator matrices, sparse matrices, frames, 1-D class labels), checks
that they are 0/1 indicators (or class labels of one kind), of one shape, and
keeps the ``labels`` asked for (:func:`check_indicator_labels`); the result
holds clean boolean indicators (or class codes) and the labels' default
names. :func:`label_values` gives the values that name the labels, as
scikit-learn's displays name them.
"""

import math
import numbers
import warnings

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import type_of_target, unique_labels

from sklearn_mlcm._param_validation import InvalidInputError, current_function

from ._frames import (
    _library,
    align_columns,
    frame_columns,
    mixed_frame,
    read_frame,
    repeated_names,
)
from ._messages import _describe

__all__ = [
    "LabelSpace",
    "check_indicator_labels",
    "check_mlcm_targets",
    "label_values",
]

# NumPy 1.x's warning of ragged nested sequences (NumPy 2 raises a ValueError);
# in np.exceptions from NumPy 1.25, only there from NumPy 2
_VISIBLE_DEPRECATION = getattr(np, "exceptions", np).VisibleDeprecationWarning


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


#: What the values of a dtype that is no indicator are, by its kind (a
#: complex array was told "strings or objects?").
_DTYPE_KINDS = {
    "c": "complex numbers",
    "U": "strings",
    "S": "bytes",
    "O": "objects",
    "M": "dates",
    "m": "time spans",
    "V": "records or raw bytes",
}


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
        what = _DTYPE_KINDS.get(values.dtype.kind, "not real numbers")
        raise InvalidInputError(
            f"{name} of {caller} must be a 0/1 indicator matrix of numbers or "
            f"booleans; got values of dtype {values.dtype} ({what}). "
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
    if _array_of_a_namespace(y_pred) and len(y_pred.shape) == 2:
        return np.arange(y_pred.shape[1])  # a tensor's shape: not read here
    space = check_mlcm_targets(y_true, y_pred)
    if space.classes is not None:
        return space.classes
    return np.arange(space.n_labels)


def _array_of_a_namespace(y):
    """An array of an Array API namespace other than NumPy's (torch, CuPy,
    array_api_strict): its shape is read without converting it."""
    if isinstance(y, np.ndarray):
        return False
    return _library(y) in ("torch", "cupy") or hasattr(y, "__array_namespace__")


def _finish(y):
    if sparse.issparse(y):
        return sparse.csr_array(y)
    return np.ascontiguousarray(y, dtype=bool)
