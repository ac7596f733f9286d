"""The checks of dask input, before anything is computed.

Dask input is two dask arrays chunked along the rows, never a dask DataFrame
nor mixed with NumPy or pandas (:func:`check_dask_kinds`), of known chunk
sizes and one shape, with weights of one per row (:func:`check_dask_targets`).
The chunks' values are checked where they live, chunk by chunk, by
:func:`~sklearn_mlcm._validation._label_space.check_mlcm_targets`, when the
engine (:mod:`sklearn_mlcm._mlcm._dask`) computes them.
"""

import numpy as np

from sklearn_mlcm._param_validation import InvalidInputError, current_function

from ._label_space import _check_columns, _check_samples, check_indicator_labels

__all__ = [
    "check_dask_kinds",
    "check_dask_targets",
]


def check_dask_kinds(y_true, y_pred):
    """Dask input is two dask arrays: not a dask DataFrame, not mixed with
    NumPy or pandas (whose rows could not be matched to the chunks)."""
    caller = current_function()
    kinds = {}
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        library = type(y).__module__.split(".")[0]
        if library in ("dask", "dask_expr") and hasattr(y, "to_dask_array"):
            raise InvalidInputError(
                f"{name} of {caller} is a dask DataFrame; pass a dask array "
                f"of its label columns: {name}.to_dask_array(lengths=True)."
            )
        kinds[name] = library in ("dask", "dask_expr")
    if kinds["y_true"] != kinds["y_pred"]:
        dask_name = "y_true" if kinds["y_true"] else "y_pred"
        other = "y_pred" if kinds["y_true"] else "y_true"
        raise InvalidInputError(
            f"y_true and y_pred of {caller} must both be dask arrays or "
            f"neither; {dask_name} is a dask array and {other} a "
            f"{type(y_pred if kinds['y_true'] else y_true).__name__}. Convert "
            f"{other} with dask.array.from_array, chunked as {dask_name}."
        )


def check_dask_targets(y_true, y_pred, labels, sample_weight):
    """Validate dask arrays chunked along the rows, before anything is computed.

    Returns the label positions (or None) and the weights as a 1-D dask array
    (or None). The chunks' values are validated on the workers, by
    :func:`check_mlcm_targets`, as NumPy input would be.
    """
    caller = current_function()
    if y_true.ndim != 2 or y_pred.ndim != 2:
        raise InvalidInputError(
            f"Dask input of {caller} must be 2-D indicator matrices chunked "
            f"along the rows. Got arrays of {y_true.ndim} and {y_pred.ndim} "
            "dimensions."
        )
    _check_columns(y_true.shape[1], y_pred.shape[1])
    if np.isnan(y_true.shape[0]) or np.isnan(y_pred.shape[0]):
        raise InvalidInputError(
            f"Dask input of {caller} must have known chunk sizes; call "
            "y.compute_chunk_sizes() first."
        )
    _check_samples(y_true.shape[0], y_pred.shape[0])
    if labels is not None:
        labels = check_indicator_labels(labels, y_true.shape[1], None)
    if sample_weight is not None:
        shape = getattr(sample_weight, "shape", np.shape(sample_weight))
        if len(shape) != 1 or shape[0] != y_true.shape[0]:
            raise InvalidInputError(
                f"The 'sample_weight' parameter of {caller} must be a 1-D array "
                f"of length n_samples={y_true.shape[0]}. Got shape {tuple(shape)}."
            )
    return labels
