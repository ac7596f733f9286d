"""Dispatch: validate the targets, choose the kernel and path, shape the output."""

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import current_function
from sklearn_mlcm._validation import check_mlcm_targets, check_sample_weight

from ._dask import dask_compute, is_dask_collection
from ._heydarian import heydarian_matrix
from ._krstinic import krstinic_matrix
from ._record import Computed, supports_of

__all__ = ["MAX_DENSE_BYTES", "METHODS", "as_output", "compute", "normalize"]

METHODS = {"heydarian": heydarian_matrix, "krstinic": krstinic_matrix}

# A dense result larger than this raises and points to sparse_output=True.
MAX_DENSE_BYTES = 1 << 30


def compute(
    y_true,
    y_pred,
    *,
    method,
    labels,
    sample_weight,
    with_supports=False,
    lazy=False,
):
    """Validate the targets and weights, run the kernel, return a :class:`Computed`.

    ``method`` is one of :data:`METHODS` (checked by the public function).
    """
    func_name = current_function()
    if is_dask_collection(y_true) or is_dask_collection(y_pred):
        return dask_compute(
            y_true,
            y_pred,
            kernel=METHODS[method],
            integer_counts=method == "heydarian",
            labels=labels,
            sample_weight=sample_weight,
            func_name=func_name,
            with_supports=with_supports,
            lazy=lazy,
        )
    space = check_mlcm_targets(y_true, y_pred, labels=labels, func_name=func_name)
    weight = check_sample_weight(sample_weight, space.y_true.shape[0], func_name)
    result = Computed(METHODS[method](space.y_true, space.y_pred, weight), space.names)
    if with_supports:
        result.supports, result.no_label_support = supports_of(space.y_true, weight)
    return result


def as_output(cm, sparse_output):
    """The matrix as a CSR array, or dense if it fits in ``MAX_DENSE_BYTES``."""
    func_name = current_function()
    if is_dask_collection(cm):
        if sparse_output:
            raise ValueError(
                f"sparse_output=True of {func_name} is not available for a lazy "
                "(compute=False) dask result, which is a dense dask array."
            )
        return cm
    if sparse_output:
        return sparse.csr_array(cm)
    if sparse.issparse(cm):
        size = cm.shape[0] * cm.shape[1] * cm.dtype.itemsize
        if size > MAX_DENSE_BYTES:
            raise ValueError(
                f"The result of {func_name} is a {cm.shape[0]} x {cm.shape[1]} "
                f"matrix, {size / 2**30:.1f} GiB as a dense array (at most "
                f"{MAX_DENSE_BYTES / 2**30:.0f} GiB). Pass sparse_output=True to "
                "get a scipy sparse matrix."
            )
        return cm.toarray()
    return cm


def normalize(cm, normalize):
    """Row-, column- or total-normalise; a zero row or column stays zero.

    Works on dense, sparse (CSR) and dask matrices alike.
    """
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    if sparse.issparse(cm):
        cm = sparse.csr_array(cm, dtype=np.float64)
        if axis is None:
            total = cm.sum()
            return cm / total if total else cm
        sums = np.asarray(cm.sum(axis=axis)).ravel()
        scale = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums != 0)
        if axis == 1:
            return sparse.csr_array(sparse.diags_array(scale) @ cm)
        return sparse.csr_array(cm @ sparse.diags_array(scale))
    cm = cm.astype(np.float64)
    total = cm.sum(axis=axis, keepdims=True)
    safe = total + (total == 0)  # works for NumPy and dask arrays alike
    return (cm / safe) * (total != 0)


