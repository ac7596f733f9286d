"""Array API input (torch, cupy, array_api_strict), scikit-learn's way.

Under ``sklearn.config_context(array_api_dispatch=True)``, targets whose
``y_pred`` is an array of a namespace other than NumPy stay in that
namespace, on ``y_pred``'s device: :func:`array_api_namespace` says whether a
call takes that path, :func:`check_array_api_targets` checks the two targets
there (0/1 indicators of one shape, the ``labels`` to keep) and returns a
:class:`DeviceTargets`. ``y_true`` follows ``y_pred`` (scikit-learn's rule
for metrics since 1.8): a NumPy array or a list is moved to its device, an
array of its namespace on another device too.

``array-api-compat`` (the ``[array-api]`` extra) is imported only here and
only when dispatch is on and such an array arrives. Only the checks' verdicts
(one boolean each) and, for the weights, their n values are read back to the
host; the rows stay on the device.
"""

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn import get_config

from sklearn_mlcm._param_validation import InvalidInputError, current_function

from ._label_space import (
    LabelSpace,
    _asarray_rectangular,
    _check_columns,
    _check_samples,
    check_indicator_labels,
)
from ._messages import _describe

__all__ = [
    "DeviceTargets",
    "array_api_namespace",
    "check_array_api_targets",
    "host_targets",
    "matrix_namespace",
    "namespace_of_state",
    "portable_namespace",
    "to_numpy",
]


def _compat():
    """``array_api_compat``, or an ImportError that says how to install it."""
    try:
        import array_api_compat
    except ImportError:  # pragma: no cover - the test extra installs it
        raise ImportError(
            "Array API input under sklearn.config_context(array_api_dispatch=True) "
            "needs array-api-compat: pip install 'sklearn-mlcm[array-api]'."
        ) from None
    return array_api_compat


def _torch_sparse(y):
    """A torch sparse tensor (any layout but strided): it is no Array API
    array, and the sparse kernels take scipy sparse matrices."""
    layout = getattr(y, "layout", None)
    return layout is not None and "strided" not in str(layout)


def _dispatched(y):
    """Whether ``y`` takes the Array API path: dispatch is on and ``y`` is an
    array of another namespace than NumPy (not a list, a frame, dask or
    scipy sparse input, which keep their own paths)."""
    if not get_config().get("array_api_dispatch", False):
        return False
    if isinstance(y, (list, tuple, np.ndarray)) or sparse.issparse(y):
        return False
    library = type(y).__module__.split(".")[0]
    if library not in ("torch", "cupy") and not hasattr(y, "__array_namespace__"):
        return False
    return library not in ("dask", "dask_expr", "pandas", "polars", "pyarrow", "xarray")


def array_api_namespace(y_true, y_pred, *, name="y_pred"):
    """``(xp, device)`` of ``y_pred`` when the call takes the Array API path,
    else None.

    The path is taken under ``array_api_dispatch=True`` when ``y_pred`` is an
    Array API array of another namespace than NumPy (``y_pred`` decides, as
    in scikit-learn's metrics). Without dispatch, NumPy arrays, lists and
    CPU tensors are read by NumPy as ever; frames, dask and scipy sparse
    input keep their own paths. ``name`` is ``y_pred``'s parameter in the
    messages (``y_score`` for scores, which decide there).
    """
    if not _dispatched(y_pred):
        return None
    if _torch_sparse(y_pred) or _torch_sparse(y_true):
        caller = current_function()
        which = name if y_true is None else f"y_true and {name}"
        raise InvalidInputError(
            f"{which} of {caller} must be dense arrays under "
            "array_api_dispatch; got a torch sparse tensor. Pass a dense tensor "
            "(y.to_dense()), or, for very many labels, a scipy sparse matrix "
            "(scipy.sparse.csr_array(y.to_dense().cpu().numpy())) outside "
            "array_api_dispatch."
        )
    compat = _compat()
    xp = compat.array_namespace(y_pred)
    return xp, compat.device(y_pred)


def matrix_namespace(cm, name):
    """``(xp, device)`` of a matrix passed by the user (``cm`` of
    :func:`~sklearn_mlcm.confusion_matrix_statistics`, say) when it takes the
    Array API path (:func:`array_api_namespace`'s rule), else None. Such a
    matrix is (q+1, q+1): the functions that read it copy it to the host
    (:func:`to_numpy`), and what they return per label goes back there."""
    if not _dispatched(cm):
        return None
    if _torch_sparse(cm):
        caller = current_function()
        raise InvalidInputError(
            f"{name} of {caller} must be a dense matrix under array_api_dispatch; "
            f"got a torch sparse tensor. Pass {name}.to_dense(), or a scipy "
            "sparse matrix outside array_api_dispatch."
        )
    compat = _compat()
    return compat.array_namespace(cm), compat.device(cm)


def portable_namespace(namespace):
    """``(xp, device)`` as something pickle keeps: the namespace by its
    module's name (a module does not pickle); None stays None."""
    if namespace is None:
        return None
    xp, device = namespace
    return xp.__name__, device


def namespace_of_state(state):
    """The ``(xp, device)`` of :func:`portable_namespace`'s ``state``."""
    if state is None:
        return None
    import importlib

    name, device = state
    return importlib.import_module(name), device


def to_numpy(x, xp):
    """An explicit copy of an array of ``xp`` to a NumPy array on the host."""
    compat = _compat()
    if compat.is_numpy_array(x):
        return x
    if compat.is_torch_array(x):
        return x.detach().cpu().numpy()
    if compat.is_cupy_array(x):
        return x.get()
    if compat.is_array_api_strict_namespace(xp):
        import array_api_strict

        return np.asarray(x.to_device(array_api_strict.Device("CPU_DEVICE")))
    return np.from_dlpack(x)


def host_view(y, xp):
    """A NumPy view of an array of ``xp`` in the host's memory (a torch CPU
    tensor, an array_api_strict array on its CPU device), without a copy;
    None for an array elsewhere (a GPU, array_api_strict's other devices)."""
    compat = _compat()
    if compat.is_numpy_array(y):
        return y
    if compat.is_torch_array(y):
        return y.detach().numpy() if y.device.type == "cpu" else None
    if compat.is_array_api_strict_namespace(xp):
        import array_api_strict

        if y.device == array_api_strict.Device("CPU_DEVICE"):
            return np.asarray(y)
    return None


def host_targets(y_true, y_pred, sample_weight, namespace):
    """``(y_true, y_pred, sample_weight)`` as NumPy views where ``y_pred``
    lies in the host's memory (``y_true`` following it there), for the NumPy
    kernels, which count those bits faster than any namespace's products;
    None where ``y_pred`` is elsewhere (a GPU): the namespace's kernels count
    there. What is not an array of the namespace is passed on as it is."""
    xp, device = namespace
    compat = _compat()
    pred = host_view(y_pred, xp)
    if pred is None:
        return None
    if compat.is_array_api_obj(y_true) and not compat.is_numpy_array(y_true):
        if compat.array_namespace(y_true) is not xp:
            caller = current_function()
            raise InvalidInputError(
                f"y_true and y_pred of {caller} must be arrays of one namespace "
                f"under array_api_dispatch; got {_describe(y_true)} for y_true "
                f"and {_describe(y_pred)} for y_pred."
            )
        if compat.device(y_true) != device:
            y_true = compat.to_device(y_true, device)
        y_true = host_view(y_true, xp)
    if compat.is_array_api_obj(sample_weight) and not compat.is_numpy_array(
        sample_weight
    ):
        sample_weight = to_numpy(sample_weight, compat.array_namespace(sample_weight))
    return y_true, pred, sample_weight


def to_namespace(values, xp, device):
    """A NumPy array (or number) as an array of ``xp`` on ``device``."""
    return xp.asarray(values, device=device)


@dataclass(frozen=True)
class DeviceTargets:
    """Validated targets that stay in their namespace and on their device.

    Attributes
    ----------
    xp : module
        The Array API namespace of ``y_pred`` (array-api-compat's).
    device : object
        The device of ``y_pred``: every array here is on it, and the results
        go back to it.
    y_true, y_pred : arrays of shape (n_samples, n_labels), dtype bool, or None
        The kept label columns, in the matrix's order; None where the targets
        lie in the host's memory and NumPy counts them in place
        (:func:`host_targets`): then only the results go back to ``xp``.
    weight : array of shape (n_samples,), float64, or None
        The validated weights.
    """

    xp: object
    device: object
    y_true: object
    y_pred: object
    weight: object = None

    def host(self, x):
        """``x``, an array of this namespace, copied to the host (NumPy)."""
        return to_numpy(x, self.xp)

    def back(self, values):
        """``values`` (NumPy) as an array of this namespace on this device."""
        return to_namespace(values, self.xp, self.device)


class HostRows(LabelSpace):
    """The label space of device targets, for the features that read the
    instances on the host (resampled intervals, the examples of the top
    confusions): the rows are copied there at their first read, and only
    then. The matrix and the scores never read them."""

    def __init__(self, device_targets, names):
        super().__init__(None, None, names)
        self.device_targets = device_targets

    @property
    def y_true(self):
        if self._y_true is None:
            dev = self.device_targets
            self._y_true = np.ascontiguousarray(dev.host(dev.y_true), dtype=bool)
        return self._y_true

    @property
    def y_pred(self):
        if self._y_pred is None:
            dev = self.device_targets
            self._y_pred = np.ascontiguousarray(dev.host(dev.y_pred), dtype=bool)
        return self._y_pred


def _on_device(y, name, xp, device, *, reference="y_pred"):
    """``y`` as an array of ``xp`` on ``device``: an array of ``xp`` moved
    there, a NumPy array or a (nested) list converted. ``reference`` is the
    parameter whose namespace and device decide (``y_score`` for scores)."""
    caller = current_function()
    compat = _compat()
    if y is None or isinstance(y, (str, bytes, numbers.Number)):
        raise InvalidInputError(
            f"{name} of {caller} must be an array of 0/1 label indicators. "
            f"Got {y!r} instead."
        )
    if compat.is_array_api_obj(y) and not compat.is_numpy_array(y):
        if compat.array_namespace(y) is not xp:
            raise InvalidInputError(
                f"y_true and {reference} of {caller} must be arrays of one "
                f"namespace under array_api_dispatch; got {_describe(y)} for "
                f"{name} and an array of {getattr(xp, '__name__', xp)} for "
                f"{reference}."
            )
        if compat.device(y) != device:
            y = compat.to_device(y, device)
        return y
    try:
        values = _asarray_rectangular(y)
    except ValueError as exc:
        raise InvalidInputError(
            f"{name} of {caller} could not be read as a rectangular array "
            f"(rows of different lengths?): {exc}"
        ) from None
    if values.dtype.kind not in "biuf":
        raise InvalidInputError(
            f"{name} of {caller} must be a 0/1 indicator matrix of numbers or "
            f"booleans; got values of dtype {values.dtype}."
        )
    return xp.asarray(values, device=device)


def _indicators(y, name, xp):
    """A 2-D array of 0/1 (bool, integer or real floating) as bool."""
    caller = current_function()
    if y.ndim != 2:
        raise InvalidInputError(
            f"{name} of {caller} must be a 2-D 0/1 indicator matrix under "
            f"array_api_dispatch. Got an array with {y.ndim} dimensions. For 1-D "
            "class labels, pass their one-hot indicators, or call outside "
            "array_api_dispatch."
        )
    if y.dtype == xp.bool:
        return y
    if not xp.isdtype(y.dtype, ("integral", "real floating")):
        raise InvalidInputError(
            f"{name} of {caller} must be a 0/1 indicator matrix of numbers or "
            f"booleans; got values of dtype {y.dtype}."
        )
    ones = y == 1
    # every value must be 0 or 1 (NaN is neither): one verdict to the host
    if not bool(xp.all(ones | (y == 0))):
        bad = xp.logical_not(ones | (y == 0))
        if xp.isdtype(y.dtype, "real floating") and bool(xp.any(xp.isnan(y))):
            raise InvalidInputError(
                f"{name} of {caller} contains NaN; an indicator matrix must "
                "hold only 0 and 1."
            )
        example = float(xp.max(xp.where(bad, y, xp.zeros_like(y)))) or float(
            xp.min(xp.where(bad, y, xp.zeros_like(y)))
        )
        if xp.isdtype(y.dtype, "integral"):
            example = int(example)
        raise InvalidInputError(
            f"{name} of {caller} must contain only 0 and 1; found {example!r}. "
            "It looks like scores, probabilities or counts; threshold them "
            "first (for example y_score >= 0.5)."
        )
    return ones


def check_array_api_targets(y_true, y_pred, namespace, *, labels=None):
    """The two targets checked in their namespace: ``(DeviceTargets without
    weights, names)``; ``namespace`` is :func:`array_api_namespace`'s."""
    caller = current_function()
    xp, device = namespace
    y_pred = _on_device(y_pred, "y_pred", xp, device)
    y_true = _on_device(y_true, "y_true", xp, device)
    if y_true.ndim != y_pred.ndim:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must be the same kind of target: "
            f"both 2-D 0/1 indicator matrices. Got {y_true.ndim}-D y_true and "
            f"{y_pred.ndim}-D y_pred."
        )
    t = _indicators(y_true, "y_true", xp)
    p = _indicators(y_pred, "y_pred", xp)
    _check_samples(t.shape[0], p.shape[0])
    _check_columns(t.shape[1], p.shape[1])
    q = t.shape[1]
    if q == 0:
        raise InvalidInputError(
            f"y_true and y_pred of {caller} have no label columns; at least "
            "one label is required."
        )
    names = [str(i) for i in range(q)]
    if labels is not None:
        if hasattr(labels, "__array_namespace__") and not isinstance(
            labels, np.ndarray
        ):
            labels = to_numpy(labels, _compat().array_namespace(labels))
        kept = check_indicator_labels(labels, q, None)
        index = xp.asarray(kept, device=device)
        t, p = xp.take(t, index, axis=1), xp.take(p, index, axis=1)
        names = [names[i] for i in kept.tolist()]
    return DeviceTargets(xp, device, t, p), names


def device_weights(sample_weight, device_targets, check):
    """The weights on the device and on the host: ``(DeviceTargets with its
    weights, host float64 weights)``. ``check`` is the house check of the
    weights (:func:`~._targets.check_sample_weight` for n samples): an array
    of the namespace is copied to the host once (n numbers) and checked there,
    with the messages of every other input."""
    if sample_weight is None:
        return device_targets, None
    dev = device_targets
    compat = _compat()
    if compat.is_array_api_obj(sample_weight) and not compat.is_numpy_array(
        sample_weight
    ):
        sample_weight = to_numpy(sample_weight, compat.array_namespace(sample_weight))
    weight = check(sample_weight)
    on_device = dev.xp.asarray(weight, device=dev.device)
    targets = DeviceTargets(dev.xp, dev.device, dev.y_true, dev.y_pred, on_device)
    return targets, weight
