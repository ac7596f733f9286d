"""The targets of a public call, validated once: a :class:`Targets`.

:func:`validate_targets` is the one entry point of the targets: every public
function that takes ``y_true`` and ``y_pred`` calls it once and hands the
result down; the layers below take that object and never the raw input
again. It reads the two targets into one label space
(:mod:`._label_space`), or checks dask arrays (:mod:`._dask`), and checks the
weights (:func:`check_sample_weight`, :func:`check_weight_sums`) and the
groups. :func:`check_target_names` is the rule of display names: one per
label, strings that the outputs tell apart.
"""

import math
import numbers
import re
import unicodedata
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import unique_labels

from sklearn_mlcm._param_validation import InvalidInputError, current_function

from ._array_api import (
    DeviceTargets,
    HostRows,
    _compat,
    array_api_namespace,
    check_array_api_targets,
    device_weights,
    host_targets,
    to_numpy,
)
from ._dask import check_dask_kinds, check_dask_targets
from ._frames import _library
from ._label_space import _check_pair, _TrueTarget, check_mlcm_targets
from ._messages import input_error

__all__ = [
    "Targets",
    "check_sample_weight",
    "check_weight_sums",
    "check_target_names",
    "validate_targets",
]


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


def check_target_names(
    names, n_labels, reserved=(), *, name="target_names", no_label=(), renamable=False
):
    """Display names as str: one per label, that the outputs tell apart.

    The one rule of every entry point that names labels (``target_names``,
    ``display_labels``, a frame's columns, a CSV header): the names must
    differ once their surrounding whitespace is stripped (``"a"``, ``"a "``
    and ``" a"`` print alike in a right-aligned text column, a markdown cell,
    a plot) and their characters composed (NFC: ``"café"`` with a combining
    accent prints as with ``"é"``), and differ so from the rows the same
    output adds: ``reserved``
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
    rows = {_printed_key(row): (row, "a summary row") for row in reserved}
    axes = ("the no-true-label row", "the no-predicted-label column")
    for row, axis in zip(no_label, axes):
        rows[_printed_key(row)] = (row, axis)
    seen = {}
    for label in names:
        key = _printed_key(label)
        if key in seen:
            other = seen[key]
            if other == label:
                clash = f"{label!r} is used twice"
            elif other.strip() == label.strip():
                clash = f"{other!r} and {label!r} print alike (as {key!r})"
            else:  # the same characters, composed otherwise: repr shows no change
                clash = (
                    f"{ascii(other)} and {ascii(label)} print alike (as {key!r}: "
                    "the same characters, composed differently)"
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
        rule = (
            "unique (compared without surrounding whitespace, in Unicode's "
            "composed form)"
        )
        listed = sorted({*reserved, *no_label})
        if listed:
            rule += f" and differ from the rows {listed}"
        hint = f"Pass distinct {name}"
        if key in rows and renamable:
            hint += ", or pass other ntl_label/npl_label"
        raise InvalidInputError(f"{name} of {caller} must be {rule}; {clash}. {hint}.")
    return names


def _printed_key(name):
    """What ``name`` prints as, to compare names by (:func:`check_target_names`):
    without its surrounding whitespace, and composed (NFC): ``"café"`` written
    with a combining accent prints as the one written with ``"é"``."""
    return unicodedata.normalize("NFC", name).strip()


@dataclass(frozen=True)
class Targets:
    """The validated input of one public call: what every layer below reads.

    Built once, by :func:`validate_targets`; the engine, the unit table of
    the intervals and the packaging take it and never the raw input.

    Attributes
    ----------
    space : LabelSpace or None
        The packed targets and their label space; None for dask input, whose
        chunks are validated where they live (``chunks``). For Array API
        input its rows are copied to the host at their first read only
        (:class:`~._array_api.HostRows`): the engine reads ``device``.
    names : list of str
        The labels' display names, in the matrix's order.
    weight : ndarray of shape (n_samples,), float64, or None
        The validated weights; for dask input, the weights as passed (their
        shape checked, their values checked chunk by chunk).
    groups : ndarray of shape (n_samples,) or None
        The cluster of each instance (dask input: as passed, shape checked).
    kind : {"numpy", "sparse", "frame", "dask", "array_api"}
        How the targets were read; "array_api" for arrays of another
        namespace than NumPy under ``array_api_dispatch`` (``device``).
    chunks : tuple or None
        For dask input: ``(y_true, y_pred, labels)``, the two dask arrays and
        the label positions to keep (or None).
    predictions : dict or None
        For several prediction sets: each set's clean indicators, by name
        (``space.y_pred`` is the last one's).
    device : DeviceTargets or None
        For Array API input: the checked targets and weights in their
        namespace, on the device of ``y_pred``
        (:class:`~._array_api.DeviceTargets`); ``weight`` holds the same
        weights on the host.
    """

    space: object
    names: list
    weight: object = None
    groups: object = None
    kind: str = "numpy"
    chunks: object = None
    predictions: object = None
    device: object = None

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
        namespace = array_api_namespace(y_true, next(iter(predictions.values())))
        if namespace is not None:
            y_true, predictions, sample_weight = _prediction_sets_on_host(
                y_true, predictions, sample_weight, parameters, namespace
            )
            if _compat().is_array_api_obj(labels):
                labels = to_numpy(labels, _compat().array_namespace(labels))
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
    namespace = array_api_namespace(y_true, y_pred)
    device = None
    if namespace is not None:
        views = host_targets(y_true, y_pred, sample_weight, namespace)
        if views is None:  # on an accelerator: counted there
            return _array_api_targets(
                y_true, y_pred, namespace, labels, sample_weight, groups, matrix_sums
            )
        # in the host's memory: NumPy reads it in place, results go back
        y_true, y_pred, sample_weight = views
        device = DeviceTargets(*namespace, None, None)
        library = set()
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
    return Targets(space, list(space.names), weight, groups, kind, device=device)


def _prediction_sets_on_host(y_true, predictions, sample_weight, parameters, namespace):
    """Array API prediction sets (the paired comparison's, which resamples
    the instances on the host): checked in their namespace, on the device of
    the first set (errors name the refused set's parameter), then ``y_true``
    (once) and each set copied to the host explicitly; NumPy views, not
    copies, where they lie in the host's memory. Returns ``(y_true,
    predictions, sample_weight)`` for the NumPy checks (which keep the
    ``labels``)."""
    host = {}
    for name, y in predictions.items():
        try:
            checked, _ = check_array_api_targets(y_true, y, namespace)
        except InvalidInputError as exc:
            parameter = parameters[name]
            raise InvalidInputError(
                re.sub(r"\by_pred\b", lambda _: parameter, str(exc))
            ) from None
        rows = HostRows(checked, [])  # the explicit copy (a view on the CPU)
        if not host:
            true = rows.y_true
        host[name] = rows.y_pred
    compat = _compat()
    if compat.is_array_api_obj(sample_weight) and not compat.is_numpy_array(
        sample_weight
    ):
        sample_weight = to_numpy(sample_weight, compat.array_namespace(sample_weight))
    return true, host, sample_weight


def _array_api_targets(y_true, y_pred, namespace, labels, sample_weight, groups, sums):
    """The :class:`Targets` of Array API input: checked in its namespace,
    kept on the device of ``y_pred`` (``Targets.device``)."""
    device, names = check_array_api_targets(y_true, y_pred, namespace, labels=labels)
    n = device.y_true.shape[0]
    device, weight = device_weights(
        sample_weight, device, lambda w: check_sample_weight(w, n)
    )
    if sums:
        check_weight_sums(weight, len(names))
    if groups is not None:
        if hasattr(groups, "__array_namespace__") or _library(groups) == "torch":
            groups = to_numpy(groups, device.xp)
        groups = _check_groups(np.asarray(groups), n)
    space = HostRows(device, names)
    return Targets(space, names, weight, groups, "array_api", device=device)
