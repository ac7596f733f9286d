"""MLCMAccumulator: the MLCM of a stream of batches, in constant memory."""

import numbers

import numpy as np
from scipy import sparse

from ._confusion import METHODS, _compute, as_output
from ._validation import check_bool, check_option

__all__ = ["MLCMAccumulator"]


class MLCMAccumulator:
    """Accumulate a multi-label confusion matrix over batches.

    For evaluation loops that see the data in batches (a deep-learning
    validation loop, a generator over files, a stream): each :meth:`update`
    adds one batch's matrix, so memory stays that of one batch and the
    (q+1, q+1) result. The result equals :func:`mlcm_confusion_matrix` of all
    the batches stacked, however the data is split, because both methods add
    up instance by instance: exactly for integer counts, and up to
    floating-point rounding (a few units in the last place) for weighted or
    fractional sums.

    Read more in the :ref:`User Guide <scale>`.

    Parameters
    ----------
    n_labels : int
        Number of label columns of every batch.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which matrix to accumulate; see :func:`mlcm_confusion_matrix`.

    sparse_output : bool, default=False
        Keep the running matrix as a scipy sparse CSR array and return it so,
        for very many labels.

    Attributes
    ----------
    n_samples_ : int
        Number of instances seen since construction or the last :meth:`reset`.

    See Also
    --------
    mlcm_confusion_matrix : The one-shot computation.

    Examples
    --------
    >>> from sklearn_mlcm import MLCMAccumulator
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> acc = MLCMAccumulator(n_labels=3)
    >>> for start in range(0, 9, 4):  # batches of 4, 4 and 1 instances
    ...     acc = acc.update(y_true[start:start + 4], y_pred[start:start + 4])
    >>> acc.confusion_matrix
    array([[5, 2, 4, 0],
           [0, 2, 3, 1],
           [0, 0, 1, 0],
           [0, 1, 1, 1]])
    >>> acc.n_samples_
    9
    """

    def __init__(self, n_labels, *, method="heydarian", sparse_output=False):
        if isinstance(n_labels, bool) or not isinstance(n_labels, numbers.Integral):
            raise TypeError(
                "The 'n_labels' parameter of MLCMAccumulator must be an int >= 1. "
                f"Got {n_labels!r} instead."
            )
        if n_labels < 1:
            raise ValueError(
                "The 'n_labels' parameter of MLCMAccumulator must be an int >= 1. "
                f"Got {n_labels!r} instead."
            )
        check_option(method, tuple(METHODS), "method", "MLCMAccumulator")
        self.n_labels = int(n_labels)
        self.method = method
        self.sparse_output = check_bool(
            sparse_output, "sparse_output", "MLCMAccumulator"
        )
        self.reset()

    def reset(self):
        """Forget every batch seen so far.

        Returns
        -------
        self : MLCMAccumulator
        """
        q = self.n_labels
        dtype = np.int64 if self.method == "heydarian" else np.float64
        if self.sparse_output:
            self._matrix = sparse.csr_array((q + 1, q + 1), dtype=dtype)
        else:
            self._matrix = np.zeros((q + 1, q + 1), dtype=dtype)
        self.n_samples_ = 0
        return self

    def update(self, y_true, y_pred, sample_weight=None):
        """Add one batch.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels)
            Ground truth 0/1 indicators of the batch (any form
            :func:`mlcm_confusion_matrix` accepts, 2-D). An empty batch
            (zero rows) is fine and adds nothing.

        y_pred : same kind and shape as ``y_true``
            Predicted labels of the batch.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the batch. Once a weighted batch has been
            added, the Heydarian matrix is float64.

        Returns
        -------
        self : MLCMAccumulator
        """
        func_name = "MLCMAccumulator.update"
        try:
            shape = y_true.shape if hasattr(y_true, "shape") else np.shape(y_true)
        except ValueError:  # ragged lists: let the full validation say so
            shape = (None, self.n_labels)
        if len(shape) != 2:
            raise ValueError(
                f"The batches of {func_name} must be 2-D indicator matrices (class "
                "labels would not share one label space across batches). Got "
                f"y_true of shape {tuple(shape)}."
            )
        if shape[1] != self.n_labels:
            raise ValueError(
                f"This accumulator counts {self.n_labels} labels, but the batch's "
                f"y_true has {shape[1]} label columns."
            )
        if shape[0] == 0:
            return self
        n_samples = None if shape[0] is None else int(shape[0])
        cm = _compute(
            y_true,
            y_pred,
            method=self.method,
            labels=None,
            sample_weight=sample_weight,
            func_name=func_name,
        ).matrix
        self._add(cm)
        self.n_samples_ += n_samples if n_samples is not None else len(y_true)
        return self

    def _add(self, cm):
        if self.sparse_output:
            self._matrix = sparse.csr_array(self._matrix + sparse.csr_array(cm))
        elif sparse.issparse(cm):
            self._matrix = self._matrix + as_output(cm, False, "MLCMAccumulator")
        else:
            self._matrix = self._matrix + cm

    def merge(self, other):
        """Add the batches of another accumulator (for example a worker's).

        Parameters
        ----------
        other : MLCMAccumulator
            An accumulator of the same ``n_labels`` and ``method``.

        Returns
        -------
        self : MLCMAccumulator
        """
        if not isinstance(other, MLCMAccumulator):
            raise TypeError(
                "MLCMAccumulator.merge takes another MLCMAccumulator. Got "
                f"{type(other).__name__} instead."
            )
        if (other.n_labels, other.method) != (self.n_labels, self.method):
            raise ValueError(
                "MLCMAccumulator.merge needs the same n_labels and method. Got "
                f"n_labels={other.n_labels}, method={other.method!r} for "
                f"n_labels={self.n_labels}, method={self.method!r}."
            )
        self._add(other._matrix)
        self.n_samples_ += other.n_samples_
        return self

    def __add__(self, other):
        if not isinstance(other, MLCMAccumulator):
            return NotImplemented
        result = MLCMAccumulator(
            self.n_labels, method=self.method, sparse_output=self.sparse_output
        )
        return result.merge(self).merge(other)

    @property
    def confusion_matrix(self):
        """The accumulated (q+1, q+1) matrix (a copy).

        An ndarray (int64 for "heydarian" without weights, float64
        otherwise), or a CSR array with ``sparse_output=True``.
        """
        return self._matrix.copy()

    def __repr__(self):
        return (
            f"MLCMAccumulator(n_labels={self.n_labels}, method={self.method!r}"
            f"{', sparse_output=True' if self.sparse_output else ''}) "
            f"with {self.n_samples_} samples"
        )
