"""The checks of :class:`~sklearn_mlcm.MLCMAccumulator`'s batches.

A batch of the accumulator is two 2-D indicator matrices of the
accumulator's labels (:func:`check_batch_shape`), two frames or two arrays
as the batches before (:func:`check_batch_kinds`), of the Array API
namespace and device of the batches before (:func:`check_batch_namespace`),
frames with the accumulator's label names in any order
(:func:`check_batch_columns`); an
empty batch is validated as any other (:func:`check_empty_batch`); two
accumulators merge when they count alike (:func:`check_same_accumulator`).
The batch's values go through
:func:`~sklearn_mlcm._validation._targets.validate_targets`, as any public
call's.
"""

import numpy as np

from sklearn_mlcm._param_validation import InvalidInputError, current_function
from sklearn_mlcm._validation._array_api import (
    _compat,
    array_api_namespace,
    to_numpy,
)
from sklearn_mlcm._validation._frames import repeated_names
from sklearn_mlcm._validation._label_space import (
    _as_array,
    _asarray_rectangular,
    _indicator_to_bool,
)
from sklearn_mlcm._validation._messages import _describe
from sklearn_mlcm._validation._targets import check_sample_weight

__all__ = [
    "check_batch_shape",
    "check_batch_columns",
    "check_batch_kinds",
    "check_batch_namespace",
    "check_empty_batch",
    "check_same_accumulator",
]


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


def check_batch_namespace(namespace, known, n_seen, sparse_output):
    """A batch is of the namespace and device of the batches before.

    ``namespace`` is the batch's ``(xp, device)`` under
    ``array_api_dispatch`` (None for NumPy, sparse, frame and dask batches),
    ``known`` the accumulator's (None before an Array API batch) and
    ``n_seen`` its number of instances. The matrix goes back to the batches'
    namespace and device, so they are not mixed; and a scipy sparse result
    (``sparse_output=True``) cannot go there.
    """
    caller = current_function()
    if namespace is not None and sparse_output:
        raise InvalidInputError(
            f"The batches of {caller} must be NumPy, scipy sparse, frame or "
            "dask arrays for an accumulator with sparse_output=True, whose "
            "matrix is a scipy sparse matrix on the host; got "
            f"{_kind(namespace)} under array_api_dispatch. Build the "
            "accumulator with sparse_output=False: its matrix then goes back "
            "to their namespace and device."
        )
    if not n_seen or _same_namespace(namespace, known):
        return
    raise InvalidInputError(
        f"The batches of {caller} so far are {_kind(known)}; this batch is "
        f"{_kind(namespace)}. The accumulated matrix goes back to the "
        "namespace and device of the batches, so they are not mixed: pass "
        "batches of one kind, or reset() first."
    )


def _same_namespace(first, second):
    if first is None or second is None:
        return first is second
    return first[0] is second[0] and first[1] == second[1]


def _kind(namespace):
    """The kind of a batch, in words."""
    if namespace is None:
        return "NumPy (or scipy sparse, frame, dask) arrays"
    xp, device = namespace
    return f"arrays of {xp.__name__} on device {device!r} (array_api_dispatch)"


def check_empty_batch(y_pred, sample_weight, n_labels):
    """An empty batch is validated as any other: y_pred empty with the same
    columns, weights of length 0 (an Array API batch by its shape alone,
    with its weights read on the host: no rows to read)."""
    caller = current_function()
    namespace = array_api_namespace(None, y_pred)
    if namespace is not None:
        if tuple(y_pred.shape) not in ((0,), (0, n_labels)):
            raise InvalidInputError(
                f"y_pred of {caller} must have the shape of y_true, "
                f"(0, {n_labels}) for this empty batch. Got an array of shape "
                f"{tuple(y_pred.shape)}."
            )
        if hasattr(sample_weight, "__array_namespace__"):
            xp = _compat().array_namespace(sample_weight)
            sample_weight = to_numpy(sample_weight, xp)
        check_sample_weight(sample_weight, 0)
        return
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
