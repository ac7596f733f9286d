"""Dispatch: validated targets in; choose the kernel and path, shape the output."""

import numpy as np
from scipy import sparse

from sklearn_mlcm._validation._matrices import check_dense_size, fits_dense

from ._array_api import array_api_matrix, array_api_table
from ._dask import dask_compute, is_dask_collection
from ._heydarian import heydarian_matrix
from ._krstinic import krstinic_matrix
from ._record import Computed
from ._samples import single_label_table, tabulate_sizes
from ._single_label import single_label_matrix, single_label_supports

__all__ = ["METHODS", "as_output", "compute", "normalize"]

METHODS = {"heydarian": heydarian_matrix, "krstinic": krstinic_matrix}


def compute(
    targets,
    *,
    method,
    with_supports=False,
    lazy=False,
    samples=False,
    matrix=True,
    scratch=None,
):
    """Run the kernel on validated targets, return a :class:`Computed`.

    ``targets`` is the :class:`~sklearn_mlcm._validation.Targets` of the
    public call (:func:`~sklearn_mlcm._validation.validate_targets`).

    ``method`` is one of :data:`METHODS` (checked by the public function).
    ``samples`` asks for the table of the samples average
    (:class:`~._samples.SizeTable`), counted by the kernel in its one pass
    over the rows; without ``matrix`` no kernel runs (``Computed.matrix`` is
    None) and the table is read off the rows alone. ``scratch`` (a
    ``_chunking.Scratch``) lends the dense kernels' work buffers, so that a
    caller that runs them often (an accumulator's batches) keeps them from one
    call to the next; by default each call has its own.
    """
    if targets.kind == "dask":
        return dask_compute(
            targets,
            kernel=METHODS[method],
            integer_counts=method == "heydarian",
            with_supports=with_supports,
            lazy=lazy,
            samples=samples,
            matrix=matrix,
        )
    if targets.kind == "array_api":
        return _array_api_compute(targets, method, with_supports, samples, matrix)
    result = _compute(targets, method, with_supports, samples, matrix, scratch)
    if targets.device is not None:  # Array API input in the host's memory
        result.device = targets.device
        if result.matrix is not None:
            result.on_device = targets.device.back(result.matrix)
    return result


def _compute(targets, method, with_supports, samples, matrix, scratch=None):
    """:func:`compute` of targets in the host's memory (NumPy, sparse, frames)."""
    space, weight = targets.space, targets.weight
    dense = fits_dense(space.n_labels)
    if space.codes is not None:  # 1-D class labels: one histogram of the pairs
        t, p = space.codes
        result = Computed(None, space.names, multilabel=False)
        if samples:
            result.samples = single_label_table(t, p, space.n_labels, weight)
        if matrix:
            result.matrix = single_label_matrix(
                t,
                p,
                space.n_labels,
                weight,
                integer=method == "heydarian",
                dense=dense,
            )
        if with_supports:
            supports = single_label_supports(t, space.n_labels, weight)
            result.supports, result.no_label_support = supports
        return result
    y_true, y_pred = space.y_true, space.y_pred
    if not matrix:
        sums = tabulate_sizes(y_true, y_pred, weight) if samples else None
        return Computed(None, space.names, samples=sums)
    sums = None
    if not sparse.issparse(y_true) and not dense:
        # the dense kernels would build a matrix past the limit: count sparse,
        # and let as_output refuse to densify (with its hint) if asked to; the
        # table stays the dense rows' (its weights summed block by block)
        if samples:
            sums, samples = tabulate_sizes(y_true, y_pred, weight), False
        y_true, y_pred = sparse.csr_array(y_true), sparse.csr_array(y_pred)
    # the supports and the samples average's table come from the kernel's own
    # pass over the rows
    counts = METHODS[method](
        y_true,
        y_pred,
        weight,
        with_supports=with_supports,
        samples=samples,
        scratch=scratch,
    )
    if samples:
        counts, sums = counts
    if not with_supports:
        return Computed(counts, space.names, samples=sums)
    cm, supports, no_label = counts
    return Computed(cm, space.names, supports, no_label, samples=sums)


def _array_api_compute(targets, method, with_supports, samples, matrix):
    """:func:`compute` of Array API targets: in their namespace, on their
    device (:mod:`._array_api`); the host holds what is read off the matrix."""
    device = targets.device
    if not matrix:
        table = array_api_table(device) if samples else None
        return Computed(None, targets.names, samples=table, device=device)
    check_dense_size(
        targets.n_labels,
        hint="Pass a scipy sparse matrix of the targets outside "
        "array_api_dispatch: the sparse kernels never build the dense matrix.",
    )
    on_device, host, table = array_api_matrix(device, method=method, samples=samples)
    cm, supports, no_label = host
    if not with_supports:
        supports = no_label = None
    return Computed(
        cm,
        targets.names,
        supports,
        no_label,
        samples=table,
        on_device=on_device,
        device=device,
    )


def as_output(cm, sparse_output):
    """The matrix as a CSR array, or dense if it fits in ``MAX_DENSE_BYTES``."""
    if is_dask_collection(cm):  # lazy: sparse_output was refused for it
        return cm
    if sparse_output:
        return sparse.csr_array(cm)
    if sparse.issparse(cm):
        check_dense_size(
            cm.shape[0] - 1,
            itemsize=cm.dtype.itemsize,
            hint="Pass sparse_output=True to get a scipy sparse matrix.",
        )
        return cm.toarray()
    return cm


def normalize(cm, normalize):
    """Row-, column- or total-normalise; a zero row or column stays zero.

    Works on dense, sparse (CSR) and dask matrices alike.
    """
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    if sparse.issparse(cm):
        cm = sparse.csr_array(cm, dtype=np.float64, copy=True)
        if axis is None:
            total = cm.sum()
            return cm / total if total else cm
        sums = np.asarray(cm.sum(axis=axis)).ravel()
        scale = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums != 0)
        # each stored value times its row's (or column's) scale, in place on the
        # copy: no diagonal matrix (scipy.sparse.diags_array needs SciPy 1.11)
        if axis == 1:
            cm.data *= np.repeat(scale, np.diff(cm.indptr))
        else:
            cm.data *= scale[cm.indices]
        cm.eliminate_zeros()  # as the product with a diagonal matrix did
        return cm
    cm = cm.astype(np.float64)
    total = cm.sum(axis=axis, keepdims=True)
    safe = total + (total == 0)  # works for NumPy and dask arrays alike
    return (cm / safe) * (total != 0)
