"""Input validation: every accepted input form -> clean 0/1 indicator arrays.

Everything public goes through :func:`check_mlcm_targets` (the two targets),
:func:`check_sample_weight` and :func:`check_option`. The kernels downstream
assume what these functions guarantee and check nothing themselves.
"""

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import type_of_target, unique_labels

__all__ = [
    "LabelSpace",
    "check_mlcm_targets",
    "check_option",
    "check_sample_weight",
    "check_square_matrix",
    "check_zero_division",
]


@dataclass(frozen=True)
class LabelSpace:
    """The clean targets and the label space they live in.

    Attributes
    ----------
    y_true, y_pred : ndarray of shape (n_samples, n_labels), dtype bool
        Indicator matrices, C-contiguous.
    labels : ndarray of shape (n_labels,)
        For indicator input, the column indices kept (in output order); for
        1-D input, the class values (in output order).
    names : list of str
        Default display names: DataFrame column names, class values or
        column indices, as strings.
    multiclass : bool
        True when the input was 1-D (one label per instance).
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    labels: np.ndarray
    names: list
    multiclass: bool

    @property
    def n_labels(self):
        return self.y_true.shape[1]


def check_option(value, options, name, func_name):
    """Raise ValueError unless ``value`` is one of ``options``.

    ``options`` is a tuple; ``None`` may be one of them.
    """
    for option in options:
        if value is option or (
            isinstance(value, str) and isinstance(option, str) and value == option
        ):
            return value
    shown = sorted(repr(o) for o in options if o is not None)
    text = "{" + ", ".join(shown) + "}"
    if None in options:
        text += " or None"
    raise ValueError(
        f"The {name!r} parameter of {func_name} must be one of {text}. "
        f"Got {value!r} instead."
    )


def check_zero_division(zero_division, func_name):
    """Validate ``zero_division``: "warn", 0.0, 1.0 or np.nan."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(
        zero_division, bool
    ):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(
        f"The 'zero_division' parameter of {func_name} must be one of "
        f"{{'warn', 0.0, 1.0, np.nan}}. Got {zero_division!r} instead."
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


def _as_array(y, name, func_name):
    """Turn one target into a NumPy array or a CSR matrix, keeping column names.

    Returns ``(array, column_names_or_None)``.
    """
    if y is None:
        raise TypeError(
            f"{name} of {func_name} must be an array-like or a scipy sparse "
            "matrix of 0/1 label indicators, or a 1-D array of class labels. "
            "Got None instead."
        )
    if sparse.issparse(y):
        if y.ndim != 2:
            raise ValueError(f"{name} must be 2-D; got {_describe(y)}.")
        return sparse.csr_array(y), None
    if isinstance(y, (str, bytes, numbers.Number)):
        raise TypeError(
            f"{name} of {func_name} must be an array-like of labels, not a "
            f"scalar. Got {y!r} instead."
        )
    names = None
    columns = getattr(y, "columns", None)
    if columns is not None and getattr(y, "ndim", None) == 2:
        names = [str(c) for c in columns]
    if hasattr(y, "to_numpy"):  # pandas DataFrame / Series
        y = y.to_numpy()
    try:
        array = np.asarray(y)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(
            f"{name} of {func_name} could not be read as a rectangular array "
            f"(rows of different lengths?): {exc}"
        ) from None
    if (
        array.dtype == object
        and array.ndim == 1
        and array.size
        and all(isinstance(row, (list, tuple, np.ndarray)) for row in array)
    ):
        raise ValueError(
            f"{name} of {func_name} has rows of different lengths; an indicator "
            "matrix needs one 0/1 column per label in every row."
        )
    if array.ndim not in (1, 2):
        raise ValueError(
            f"{name} of {func_name} must be 1-D (class labels) or 2-D (a 0/1 "
            f"indicator matrix). Got an array with {array.ndim} dimensions."
        )
    return array, names


def _indicator_to_bool(y, name, func_name):
    """Check that a 2-D array or CSR matrix holds only 0/1 and return bool."""
    values = y.data if sparse.issparse(y) else y
    if values.dtype == bool:
        return y
    if values.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} of {func_name} must be a 0/1 indicator matrix of numbers or "
            f"booleans; got values of dtype {values.dtype} (strings or objects?). "
            "Use a 1-D array for class labels, or encode label sets with "
            "sklearn.preprocessing.MultiLabelBinarizer."
        )
    if values.dtype.kind == "f":
        if np.isnan(values).any():
            raise ValueError(
                f"{name} of {func_name} contains NaN; an indicator matrix must "
                "hold only 0 and 1."
            )
    if values.size:
        bad = (values != 0) & (values != 1)
        if bad.any():
            example = values[bad].flat[0].item()
            hint = ""
            if values.dtype.kind == "f" or example < 0 or example > 1:
                hint = (
                    " It looks like scores, probabilities or counts; threshold "
                    "them first (for example y_score >= 0.5)."
                )
            raise ValueError(
                f"{name} of {func_name} must contain only 0 and 1; found "
                f"{example!r}.{hint}"
            )
    if sparse.issparse(y):
        out = y.astype(bool)
        out.eliminate_zeros()
        return out
    return y != 0


def _check_indicator_labels(labels, n_columns, names, func_name):
    """Validate column indices given as ``labels`` for indicator input."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError(
            f"The 'labels' parameter of {func_name} must be a non-empty 1-D list "
            f"of label column indices. Got {labels.tolist()!r} instead."
        )
    if names is not None and labels.dtype.kind in "OUS":
        lookup = {n: i for i, n in enumerate(names)}
        unknown = [str(v) for v in labels if str(v) not in lookup]
        if unknown:
            raise ValueError(
                f"The 'labels' parameter of {func_name} names columns that are not "
                f"in y_true: {unknown}. Known columns: {names}."
            )
        labels = np.array([lookup[str(v)] for v in labels])
    if labels.dtype.kind not in "iu":
        if (
            labels.dtype.kind == "f"
            and np.all(np.isfinite(labels))
            and np.all(labels == np.round(labels))
        ):
            labels = labels.astype(np.int64)
        else:
            raise ValueError(
                f"The 'labels' parameter of {func_name} must hold integer column "
                "indices for indicator input (or column names for a DataFrame). "
                f"Got {labels.tolist()!r} instead."
            )
    labels = labels.astype(np.int64)
    out_of_range = labels[(labels < 0) | (labels >= n_columns)]
    if out_of_range.size:
        raise ValueError(
            f"The 'labels' parameter of {func_name} has indices out of range for "
            f"{n_columns} label columns: {out_of_range.tolist()}. Expected "
            f"integers in [0, {n_columns - 1}]."
        )
    uniq, counts = np.unique(labels, return_counts=True)
    if (counts > 1).any():
        raise ValueError(
            f"The 'labels' parameter of {func_name} has duplicates: "
            f"{uniq[counts > 1].tolist()}. Each label may appear once."
        )
    return labels


def _one_hot(y, classes):
    """1-D class labels -> (n, len(classes)) bool; unknown classes -> empty row."""
    n = y.shape[0]
    out = np.zeros((n, len(classes)), dtype=bool)
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    index = np.fromiter((lookup.get(v, -1) for v in y.tolist()), np.int64, n)
    known = index >= 0
    out[np.flatnonzero(known), index[known]] = True
    return out


def _check_multiclass(y_true, y_pred, labels, func_name):
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise ValueError(f"{name} of {func_name} contains NaN or infinity.")
        kind = type_of_target(y, input_name=name)
        if kind == "continuous":
            raise ValueError(
                f"{name} of {func_name} holds continuous values (for example "
                f"{y[y != np.round(y)][0]!r}); it looks like scores; threshold "
                "them first, or pass class labels."
            )
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"{name} of {func_name} is 1-D but its target type is {kind!r}; "
                "expected binary or multiclass class labels."
            )
    try:
        present = unique_labels(y_true, y_pred)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"y_true and y_pred of {func_name}: {exc}") from None
    if labels is None:
        classes = present
    else:
        classes = np.asarray(labels)
        if classes.ndim != 1 or classes.size == 0:
            raise ValueError(
                f"The 'labels' parameter of {func_name} must be a non-empty 1-D "
                f"list of class labels. Got {classes.tolist()!r} instead."
            )
        uniq, counts = np.unique(classes, return_counts=True)
        if (counts > 1).any():
            raise ValueError(
                f"The 'labels' parameter of {func_name} has duplicates: "
                f"{uniq[counts > 1].tolist()}. Each label may appear once."
            )
        unknown = np.setdiff1d(classes, present)
        if unknown.size == classes.size:
            raise ValueError(
                f"The 'labels' parameter of {func_name}: none of "
                f"{classes.tolist()} occurs in y_true or y_pred (classes present: "
                f"{present.tolist()})."
            )
    return (
        _one_hot(y_true, classes),
        _one_hot(y_pred, classes),
        classes,
        [str(c) for c in classes.tolist()],
    )


def check_mlcm_targets(y_true, y_pred, *, labels=None, func_name, dense=True):
    """Validate the two targets and bring them to one clean label space.

    Parameters
    ----------
    y_true, y_pred : array-like, sparse matrix or DataFrame
        2-D 0/1 indicators (bool, integer or float dtype), or 1-D class labels.
    labels : array-like or None
        Indicator input: column indices (or DataFrame column names) to keep, in
        that order. 1-D input: the class values, in that order.
    func_name : str
        Public function name used in error messages.
    dense : bool
        If True, sparse input is returned as dense bool arrays; otherwise as
        CSR bool matrices.

    Returns
    -------
    LabelSpace
    """
    y_true, true_names = _as_array(y_true, "y_true", func_name)
    y_pred, pred_names = _as_array(y_pred, "y_pred", func_name)
    if y_true.ndim != y_pred.ndim:
        kinds = {1: "1-D class labels", 2: "a 2-D indicator matrix"}
        raise ValueError(
            f"y_true and y_pred of {func_name} must be the same kind of target: "
            f"both 2-D 0/1 indicator matrices or both 1-D class labels. Got "
            f"{kinds[y_true.ndim]} for y_true and {kinds[y_pred.ndim]} for y_pred."
        )
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            f"y_true and y_pred of {func_name} must have the same number of "
            f"samples. Got {y_true.shape[0]} and {y_pred.shape[0]}."
        )
    if y_true.shape[0] == 0:
        raise ValueError(
            f"y_true and y_pred of {func_name} are empty (0 samples); at least "
            "one sample is required."
        )
    if y_true.ndim == 1:
        if sparse.issparse(y_true) or sparse.issparse(y_pred):
            raise ValueError("Sparse input must be a 2-D indicator matrix.")
        t, p, classes, names = _check_multiclass(y_true, y_pred, labels, func_name)
        return LabelSpace(t, p, classes, names, True)

    if y_true.shape[1] != y_pred.shape[1]:
        raise ValueError(
            f"y_true and y_pred of {func_name} must have the same number of label "
            f"columns. Got {y_true.shape[1]} for y_true and {y_pred.shape[1]} for "
            "y_pred."
        )
    n_columns = y_true.shape[1]
    if n_columns == 0:
        raise ValueError(
            f"y_true and y_pred of {func_name} have no label columns; at least "
            "one label is required."
        )
    t = _indicator_to_bool(y_true, "y_true", func_name)
    p = _indicator_to_bool(y_pred, "y_pred", func_name)
    column_names = true_names or pred_names
    names = column_names or [str(i) for i in range(n_columns)]
    if labels is None:
        kept = np.arange(n_columns)
    else:
        kept = _check_indicator_labels(labels, n_columns, column_names, func_name)
        t = t[:, kept]
        p = p[:, kept]
        names = [names[i] for i in kept]
    t = _finish(t, dense)
    p = _finish(p, dense)
    return LabelSpace(t, p, kept, names, False)


def _finish(y, dense):
    if sparse.issparse(y):
        if dense:
            return np.ascontiguousarray(y.toarray(), dtype=bool)
        return sparse.csr_array(y)
    if not dense:
        return sparse.csr_array(y)
    return np.ascontiguousarray(y, dtype=bool)


def check_sample_weight(sample_weight, n_samples, func_name):
    """Validate ``sample_weight``: None, or finite non-negative, length n."""
    if sample_weight is None:
        return None
    try:
        weight = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"The 'sample_weight' parameter of {func_name} must be an array-like "
            f"of numbers. Got {_describe(sample_weight)} instead."
        ) from None
    if weight.ndim == 0:
        raise ValueError(
            f"The 'sample_weight' parameter of {func_name} must be a 1-D array of "
            f"length n_samples={n_samples}. Got the scalar {sample_weight!r}."
        )
    if weight.ndim != 1 or weight.shape[0] != n_samples:
        raise ValueError(
            f"The 'sample_weight' parameter of {func_name} must be a 1-D array of "
            f"length n_samples={n_samples}. Got shape {weight.shape}."
        )
    if not np.all(np.isfinite(weight)):
        raise ValueError(
            f"The 'sample_weight' parameter of {func_name} must be finite; it "
            "contains NaN or infinity."
        )
    if (weight < 0).any():
        raise ValueError(
            f"The 'sample_weight' parameter of {func_name} must be non-negative; "
            f"found {weight[weight < 0][0].item()!r}."
        )
    return weight


def check_square_matrix(cm, func_name, name="cm"):
    """Validate a confusion matrix: 2-D, square, finite, non-negative numbers."""
    if sparse.issparse(cm):
        cm = cm.toarray()
    try:
        array = np.asarray(cm)
    except ValueError:
        raise ValueError(
            f"{name} of {func_name} must be a square 2-D array of counts; it could "
            "not be read as a rectangular array."
        ) from None
    if array.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} of {func_name} must hold numbers; got dtype {array.dtype}."
        )
    if array.ndim != 2 or array.shape[0] != array.shape[1] or array.shape[0] == 0:
        raise ValueError(
            f"{name} of {func_name} must be a non-empty square 2-D matrix. Got "
            f"shape {array.shape}."
        )
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} of {func_name} contains NaN or infinity.")
    if (array < 0).any():
        raise ValueError(
            f"{name} of {func_name} must be non-negative; found "
            f"{array[array < 0][0].item()!r}."
        )
    if array.dtype == bool:
        array = array.astype(np.int64)
    return array
