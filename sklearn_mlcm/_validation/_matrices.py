"""Matrices given and matrices to be built: a square matrix, the size of a dense one.

:func:`check_square_matrix` validates a confusion matrix passed by the user
(2-D, square, finite, non-negative, sums that fit int64);
:data:`MAX_DENSE_BYTES` bounds a dense (q+1, q+1) result, which
:func:`fits_dense` tests and :func:`check_dense_size` refuses before it is
allocated.
"""

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import InvalidInputError, current_function

from ._array_api import matrix_namespace, to_numpy
from ._label_space import _sum_sparse_duplicates

__all__ = [
    "check_dense_size",
    "check_square_matrix",
]


def check_square_matrix(cm, *, name="cm"):
    """Validate a confusion matrix: 2-D, square, finite, non-negative numbers.

    Returns an int64 or float64 ndarray, or a CSR array for sparse input
    (which is never densified: an MLCM of 10**5 labels has 10**10 cells).
    Under ``array_api_dispatch`` a matrix of another namespace (a
    :func:`~sklearn_mlcm.mlcm_confusion_matrix` of tensors, on their device)
    is copied to the host explicitly: it is (q+1, q+1) numbers.
    """
    caller = current_function()
    namespace = matrix_namespace(cm, name)
    if namespace is not None:
        cm = to_numpy(cm, namespace[0])
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
