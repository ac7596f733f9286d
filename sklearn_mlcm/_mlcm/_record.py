"""The result record of a computation."""

from dataclasses import dataclass

__all__ = ["Computed"]


@dataclass
class Computed:
    """A validated computation: the matrix and what the report needs.

    ``matrix`` is a dense ndarray, a CSR array (sparse input) or, for dask
    input with ``lazy=True``, a dask array. ``supports`` and
    ``no_label_support`` are the (weighted) true totals per label and of the
    instances with no true label, when asked for. ``samples`` is the
    :class:`~._samples.SizeTable` of the samples average, when asked for;
    ``multilabel`` is False for 1-D class labels. For Array API input
    (``Targets.kind == "array_api"``) ``matrix`` and the rest are the host's
    copies and ``on_device`` is the matrix in the input's namespace, on its
    device; ``device`` is the targets'
    :class:`~sklearn_mlcm._validation._array_api.DeviceTargets`, whose
    ``back`` puts what is read off the matrix back there.
    """

    matrix: object
    names: list
    supports: object = None
    no_label_support: object = None
    samples: object = None
    multilabel: bool = True
    on_device: object = None
    device: object = None
