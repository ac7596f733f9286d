"""Data checks of the classifier-comparison half: every accepted form -> clean arrays.

The parameters' own types and options are checked first, by the decorator of
:mod:`sklearn_mlcm._param_validation`; what depends on the data is checked
here: decision matrices (methods by measures), study results (a 3-D cube or
a long DataFrame), rank tables, correlation matrices, label scores, and the
per-measure options (directions, weights, thresholds) whose length is the
number of measures. Every message names the public function under way
(:func:`~sklearn_mlcm._param_validation.current_function`) and the parameter.
The computations downstream assume what these functions guarantee.
"""

import numbers
import warnings

import numpy as np
from scipy import sparse
from scipy.stats import rankdata

from sklearn_mlcm._validation._array_api import matrix_namespace, to_numpy
from sklearn_mlcm._validation._frames import (
    align_columns,
    frame_columns,
    mixed_frame,
    read_frame,
)
from sklearn_mlcm._validation._messages import input_error as _refuse
from sklearn_mlcm._validation._targets import validate_targets

__all__ = [
    "check_average_ranks",
    "check_correlation_matrix",
    "check_decision_matrix",
    "check_directions",
    "check_label_score",
    "check_multilabel_indicators",
    "check_rank_table",
    "check_results",
    "check_thresholds",
    "check_weight_vector",
    "row_names",
    "split_frame",
]

# NumPy's warning for ragged nested sequences (np.exceptions from NumPy 1.25).
_VISIBLE_DEPRECATION = getattr(np, "exceptions", np).VisibleDeprecationWarning

#: The columns of a long results DataFrame, one row per value.
LONG_COLUMNS = ("dataset", "method", "measure", "value")


def split_frame(obj, name):
    """``(values, column names)`` of a frame; ``(obj, None)`` otherwise.

    The comparison half reads frames with the package's one frame reader
    (:func:`~sklearn_mlcm._validation._frames.read_frame`): pandas, polars, pyarrow,
    xarray and the Arrow stream and interchange protocols. Decision matrices,
    rank tables, correlation matrices and label scores name their columns
    this way; a 1-D object (a Series) has values and no names.
    """
    frame = read_frame(obj, name)
    if frame is None:
        return obj, None
    return frame


def row_names(obj):
    """The names of a 2-D frame's rows, or None.

    A pandas DataFrame's index (None for the default ``RangeIndex`` 0, 1,
    ..., which names nothing), a 2-D xarray DataArray's coordinate of its
    first dimension; None for arrays, lists and frames without an index
    (polars, pyarrow). A decision matrix names its methods this way.
    """
    library = type(obj).__module__.split(".")[0]
    if library == "pandas" and getattr(obj, "ndim", None) == 2:
        index = obj.index
        default = type(index).__name__ == "RangeIndex" and (
            index.start == 0 and index.step == 1
        )
        return None if default else list(index)
    if library == "xarray" and getattr(obj, "ndim", None) == 2:
        dim = obj.dims[0]
        return obj.coords[dim].values.tolist() if dim in obj.coords else None
    return None


def _real_array(values, name, what="real numbers"):
    """``values`` -> a float64 array; InvalidInputError unless real numbers.

    Booleans, integers and floats are accepted; strings, complex numbers,
    datetimes, timedeltas and other objects are refused (a complex value
    would otherwise lose its imaginary part, a date become nanoseconds).
    """
    ragged = _refuse(name, "a rectangular array", "rows of different lengths")
    try:
        with warnings.catch_warnings():  # NumPy < 1.24 warns, then makes objects
            warnings.simplefilter("ignore", _VISIBLE_DEPRECATION)
            array = np.asarray(values)
    except ValueError:  # ragged nested sequences (NumPy >= 1.24)
        raise ragged from None
    if array.dtype.kind == "O":
        wrong = [v for v in array.flat if not isinstance(v, numbers.Real)]
        if any(isinstance(v, (list, tuple, np.ndarray)) for v in wrong):
            raise ragged
        if wrong:
            raise _refuse(
                name,
                f"an array of {what}",
                f"a value of type {type(wrong[0]).__name__}",
            )
    elif array.dtype.kind not in "biuf":
        raise _refuse(name, f"an array of {what}", f"values of dtype {array.dtype}")
    return array.astype(np.float64)


def _first_bad(bad, *axes):
    """The coordinates of the first True of ``bad``, as names when given."""
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return tuple(axis[i] if axis is not None else i for i, axis in zip(index, axes))


def check_decision_matrix(decision_matrix):
    """-> (float64 array of shape (n_methods, n_measures), measure names or None).

    At least 2 methods and 1 measure, every value finite.
    """
    values, names = split_frame(decision_matrix, "decision_matrix")
    matrix = _real_array(values, "decision_matrix")
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 1:
        raise _refuse(
            "decision_matrix",
            "a 2-D array of shape (n_methods, n_measures) with at least 2 "
            "methods and 1 measure",
            f"an array of shape {matrix.shape}",
        )
    bad = ~np.isfinite(matrix)
    if bad.any():
        method, measure = _first_bad(bad, None, names)
        raise _refuse(
            "decision_matrix",
            "finite: every method needs a value of every measure",
            f"NaN or infinity for method {method}, measure {measure!r}",
        )
    return matrix, names


def _first_seen(column):
    """``(codes, names)`` of a key column, the names in order of appearance."""
    index = {}
    codes = np.fromiter(
        (index.setdefault(v, len(index)) for v in column.tolist()),
        np.int64,
        len(column),
    )
    return codes, list(index)


def _is_missing(value):
    """None, NaN, or pandas' NA and NaT (without importing pandas)."""
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, numbers.Real) and value != value


def _long_frame_to_cube(values, columns):
    """A long frame's values and columns -> (cube, datasets, methods, measures).

    ``cube[d, i, j]`` is the value of measure j for method i on dataset d; the
    names keep their order of first appearance.
    """
    missing = [column for column in LONG_COLUMNS if column not in columns]
    if missing:
        raise _refuse(
            "results",
            f"a long DataFrame with the columns {list(LONG_COLUMNS)}",
            f"one without {missing} (columns {list(columns)})",
        )
    values = np.asarray(values, dtype=object)
    column = {name: values[:, columns.index(name)] for name in LONG_COLUMNS}
    keys = list(LONG_COLUMNS[:3])
    for key in keys:
        if any(_is_missing(v) for v in column[key].tolist()):
            raise _refuse(
                "results",
                "a long DataFrame naming every dataset, method and measure",
                f"a missing name in its {key!r} column",
            )
    (d, datasets), (m, methods), (j, measures) = (_first_seen(column[k]) for k in keys)
    shape = (len(datasets), len(methods), len(measures))
    flat = np.ravel_multi_index((d, m, j), shape) if len(d) else d
    _, first = np.unique(flat, return_index=True)
    if len(first) < len(flat):
        repeated = np.ones(len(flat), dtype=bool)
        repeated[first] = False
        row = int(np.argmax(repeated))
        raise _refuse(
            "results",
            "a long DataFrame with one value per (dataset, method, measure)",
            f"more than one value for {tuple(column[k][row] for k in keys)}",
        )
    value = [np.nan if _is_missing(v) else v for v in column["value"].tolist()]
    value = _real_array(  # NumPy infers the column's type: complex, strings
        np.array(value), "results", "real numbers in its 'value' column"
    )
    cube = np.full(shape, np.nan)
    cube.flat[flat] = value
    absent = np.ones(shape, dtype=bool)
    absent.flat[flat] = False
    if absent.any():
        dataset, method, measure = _first_bad(absent, datasets, methods, measures)
        raise _refuse(
            "results",
            "complete: every method needs every measure on every dataset",
            f"{int(absent.sum())} missing values, for example method {method!r} "
            f"has no {measure!r} on dataset {dataset!r}",
        )
    return cube, datasets, methods, measures


def check_results(results):
    """A 3-D array or a long DataFrame -> (cube, datasets, methods, measures).

    The names are None for an array. At least 2 methods, 1 dataset and 1
    measure, every value finite.
    """
    frame = read_frame(results, "results")
    if frame is not None and frame[1] is not None:
        cube, datasets, methods, measures = _long_frame_to_cube(*frame)
    else:
        cube = _real_array(results, "results")
        if cube.ndim != 3:
            raise _refuse(
                "results",
                "a 3-D array of shape (n_datasets, n_methods, n_measures) or a "
                "long DataFrame with dataset, method, measure and value columns",
                f"an array of shape {cube.shape}",
            )
        datasets = methods = measures = None
    if cube.shape[0] < 1 or cube.shape[1] < 2 or cube.shape[2] < 1:
        raise _refuse(
            "results",
            "results of at least 2 methods on at least 1 dataset and 1 measure",
            f"shape {cube.shape} (datasets, methods, measures)",
        )
    bad = ~np.isfinite(cube)
    if bad.any():
        dataset, method, measure = _first_bad(bad, datasets, methods, measures)
        raise _refuse(
            "results",
            "finite; a method missing on a dataset cannot be ranked there: leave "
            "the dataset out, or give the method the worst value of each "
            "measure, as Madjarov et al. did",
            f"NaN or infinity for method {method!r}, measure {measure!r} on "
            f"dataset {dataset!r}",
        )
    return cube, datasets, methods, measures


def check_rank_table(rank_table):
    """-> (float64 array of shape (n_datasets, n_methods), method names).

    Every row must be a ranking of the k methods: ranks in [1, k] summing to
    k (k + 1) / 2, tied methods sharing the average of their ranks, so that
    each row is its own ``scipy.stats.rankdata``. The rows are returned as
    those exact ranks (within 1e-9 of the input).
    """
    values, names = split_frame(rank_table, "rank_table")
    ranks = _real_array(values, "rank_table", "ranks")
    if ranks.ndim != 2 or ranks.shape[0] < 2 or ranks.shape[1] < 2:
        raise _refuse(
            "rank_table",
            "a 2-D array of shape (n_datasets, n_methods) with at least 2 "
            "datasets and 2 methods",
            f"an array of shape {ranks.shape}",
        )
    if not np.all(np.isfinite(ranks)):
        raise _refuse("rank_table", "finite ranks", "NaN or infinity")
    exact = rankdata(np.round(ranks, 9), axis=1)
    bad = (np.abs(exact - ranks) > 1e-9).any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        k = ranks.shape[1]
        raise _refuse(
            "rank_table",
            f"a table whose rows rank the {k} methods (1 = best): ranks in "
            f"[1, {k}] that sum to {k * (k + 1) / 2:g}, tied methods sharing the "
            "average of their ranks; rank the scores of each dataset first, for "
            "example with fuse_measures or scipy.stats.rankdata",
            f"row {row}: {ranks[row].tolist()}",
        )
    return exact, names if names is not None else list(range(ranks.shape[1]))


def check_correlation_matrix(correlations, atol=1e-8):
    """-> (float64 array of shape (n, n), names).

    A non-empty square matrix, symmetric (within ``atol``, NaN where its
    transpose is NaN), with values in [-1, 1] or NaN (undefined). The names
    are the columns of a DataFrame, else the column indices.
    """
    values, names = split_frame(correlations, "correlations")
    matrix = _real_array(values, "correlations")
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.size == 0:
        raise _refuse(
            "correlations",
            "a non-empty square matrix",
            f"an array of shape {matrix.shape}",
        )
    outside = np.abs(matrix) > 1 + atol  # NaN compares False
    if outside.any():
        i, j = _first_bad(outside, None, None)
        raise _refuse(
            "correlations",
            "a correlation matrix, with values in [-1, 1] or NaN",
            f"{matrix[i, j].item()!r} at ({i}, {j})",
        )
    if not np.allclose(matrix, matrix.T, rtol=0.0, atol=atol, equal_nan=True):
        asymmetric = ~np.isclose(matrix, matrix.T, rtol=0.0, atol=atol, equal_nan=True)
        i, j = _first_bad(asymmetric, None, None)
        raise _refuse(
            "correlations",
            "a symmetric correlation matrix",
            f"{matrix[i, j].item()!r} at ({i}, {j}) but {matrix[j, i].item()!r} "
            f"at ({j}, {i})",
        )
    return matrix, names if names is not None else list(range(matrix.shape[0]))


def check_directions(maximize, n, names):
    """``maximize`` -> a bool array of shape (n,).

    A bool applies to every measure; a sequence gives one bool per measure; a
    dict gives the bool of each named measure (extra names are ignored).
    """
    if isinstance(maximize, (bool, np.bool_)):
        return np.full(n, bool(maximize))
    if isinstance(maximize, dict):
        if names is None:
            raise _refuse(
                "maximize",
                "True, False or one bool per measure when the measures have no "
                "names (a NumPy array has none; a DataFrame does)",
                "a dict",
            )
        missing = [name for name in names if name not in maximize]
        if missing:
            raise _refuse(
                "maximize",
                "a dict giving every measure a direction, maximised (True) or "
                "minimised (False); see measure_directions()",
                f"no direction for the measures {missing}",
            )
        values = [maximize[name] for name in names]
    else:
        if np.ndim(maximize) != 1 or len(maximize) != n:
            raise _refuse(
                "maximize",
                f"one bool per measure, shape ({n},)",
                f"shape {np.shape(maximize)}",
            )
        values = list(maximize)
    wrong = [v for v in values if not isinstance(v, (bool, np.bool_))]
    if wrong:
        raise _refuse("maximize", "made of bools", f"the entry {wrong[0]!r}")
    return np.array(values, dtype=bool)


def check_weight_vector(weights, n):
    """Fixed weights -> a float64 array of shape (n,) that sums to 1.

    Non-negative, finite, not all zero; divided by their maximum before their
    sum, so that huge weights do not overflow into zeros.
    """
    if np.asarray(weights).dtype.kind == "b":
        raise _refuse("weights", "'entropy', 'equal' or an array of numbers", "bools")
    values = _real_array(weights, "weights")
    if values.shape != (n,):
        raise _refuse(
            "weights",
            f"one weight per measure, shape ({n},)",
            f"shape {values.shape}",
        )
    if not np.all(np.isfinite(values)) or (values < 0).any() or values.max() == 0:
        raise _refuse(
            "weights",
            "finite and non-negative, not all zero",
            f"{values.tolist()}",
        )
    values = values / values.max()
    return values / values.sum()


def check_thresholds(threshold, n):
    """``threshold`` -> None or a float64 array of shape (n,), finite, >= 0.

    A number (already checked by the decorator) applies to every measure.
    """
    if threshold is None:
        return None
    values = _real_array(threshold, "threshold")
    if values.ndim == 0:
        values = np.full(n, float(values))
    if values.shape != (n,):
        raise _refuse(
            "threshold",
            f"a number or one threshold per measure, shape ({n},)",
            f"shape {values.shape}",
        )
    if not np.all(np.isfinite(values)) or (values < 0).any():
        raise _refuse("threshold", "finite and non-negative", f"{values.tolist()}")
    return values


def _ndim(y):
    """The number of dimensions of any accepted target (list, array, frame)."""
    ndim = getattr(y, "ndim", None)
    return np.ndim(y) if ndim is None else ndim


def check_multilabel_indicators(y_true, y_pred):
    """-> dense bool indicator matrices (n_samples, n_labels), at least 2 labels.

    :func:`~sklearn_mlcm._validation._targets.validate_targets` reads every form
    (lists, arrays, sparse matrices, DataFrames); 1-D class labels and a
    single label column are refused, which the sample-wise and ranking
    measures of scikit-learn do not define.
    """
    space = validate_targets(y_true, y_pred, chunked=False).space
    if _ndim(y_true) != 2 or _ndim(y_pred) != 2:
        raise _refuse(
            "y_true",
            "a 2-D 0/1 indicator matrix of shape (n_samples, n_labels), as "
            "y_pred; encode class labels with "
            "sklearn.preprocessing.MultiLabelBinarizer or label_binarize",
            "1-D class labels",
        )
    t, p = space.y_true, space.y_pred
    if t.shape[1] < 2:
        raise _refuse(
            "y_true",
            "an indicator matrix with at least 2 label columns: scikit-learn's "
            "sample-wise and ranking measures are not defined for one label; "
            "use the binary metrics of sklearn.metrics",
            "1 label column",
        )
    if sparse.issparse(t):
        t, p = t.toarray(), p.toarray()
    return np.asarray(t, dtype=bool), np.asarray(p, dtype=bool)


def check_label_score(y_score, shape, label_names=None):
    """``y_score`` -> a finite float64 array of ``shape`` (one score per label).

    When the targets and ``y_score`` are frames, the score columns are matched
    to the targets' ``label_names`` by name (reordered), or refused.
    """
    score_names = frame_columns(y_score)
    if isinstance(y_score, list) and y_score and getattr(y_score[0], "ndim", 0) == 2:
        raise _refuse(
            "y_score",
            "one column of scores per label, for example "
            "np.column_stack([p[:, 1] for p in proba])",
            "a list of 2-D arrays, what predict_proba of a multi-output "
            "classifier returns (one (n_samples, 2) array per label)",
        )
    namespace = matrix_namespace(y_score, "y_score")
    if namespace is not None:  # Array API scores: to the host, explicitly
        y_score = to_numpy(y_score, namespace[0])
    if sparse.issparse(y_score):
        y_score = y_score.toarray()
    values, _ = split_frame(y_score, "y_score")
    score = _real_array(values, "y_score", "real scores")
    if score.shape != shape:
        raise _refuse(
            "y_score",
            f"of the shape of y_true, {shape} (one score per sample and label)",
            f"shape {score.shape}",
        )
    if label_names is not None and score_names is not None:
        score = align_columns(score, score_names, label_names, name="y_score")
    elif score_names is not None:
        mixed_frame(score, score_names, "y_score", False)
    elif label_names is not None:
        mixed_frame(score, label_names, "y_true", False, other="y_score")
    if not np.all(np.isfinite(score)):
        raise _refuse("y_score", "finite", "NaN or infinity")
    return score


def check_average_ranks(average_ranks, names):
    """A display's average ranks and names -> (float64 array (k,), k names).

    At least 2 finite ranks; one name per rank (by default the indices).
    """
    ranks = _real_array(average_ranks, "average_ranks", "ranks")
    if ranks.ndim != 1 or ranks.size < 2 or not np.all(np.isfinite(ranks)):
        raise _refuse(
            "average_ranks",
            "a 1-D array of at least 2 finite ranks",
            f"{np.asarray(average_ranks).tolist()!r}",
        )
    k = ranks.size
    if names is None:
        return ranks, [str(i) for i in range(k)]
    if len(names) != k:
        raise _refuse(
            "display_labels",
            f"one name per method: {k} expected",
            f"{len(names)} names",
        )
    return ranks, [str(name) for name in names]
