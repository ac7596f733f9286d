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
    ``multilabel`` is False for 1-D class labels.
    """

    matrix: object
    names: list
    supports: object = None
    no_label_support: object = None
    samples: object = None
    multilabel: bool = True
