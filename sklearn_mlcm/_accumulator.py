"""MLCMAccumulator: the MLCM of a stream of batches, in constant memory."""

from numbers import Integral

import numpy as np
from scipy import sparse

from ._mlcm._dispatch import METHODS, as_output, compute
from ._param_validation import Interval, Options, validate_params
from ._validation import (
    check_batch_shape,
    check_dense_size,
    check_same_accumulator,
)

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

    @validate_params(
        {
            "n_labels": [Interval(Integral, 1, None)],
            "method": [Options(*METHODS)],
            "sparse_output": ["boolean"],
        }
    )
    def __init__(self, n_labels, *, method="heydarian", sparse_output=False):
        if not sparse_output:
            check_dense_size(
                n_labels,
                hint="Pass sparse_output=True to accumulate a sparse matrix.",
            )
        self.n_labels = int(n_labels)
        self.method = method
        self.sparse_output = bool(sparse_output)
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

    @validate_params(
        {
            "y_true": ["array-like", "sparse matrix"],
            "y_pred": ["array-like", "sparse matrix"],
            "sample_weight": ["array-like", None],
        }
    )
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
        n_samples = check_batch_shape(y_true, self.n_labels)
        if n_samples == 0:
            return self
        cm = compute(
            y_true,
            y_pred,
            method=self.method,
            labels=None,
            sample_weight=sample_weight,
        ).matrix
        self._add(cm)
        self.n_samples_ += n_samples if n_samples is not None else len(y_true)
        return self

    def _add(self, cm):
        if self.sparse_output:
            self._matrix = sparse.csr_array(self._matrix + sparse.csr_array(cm))
        elif sparse.issparse(cm):
            self._matrix = self._matrix + as_output(cm, False)
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
        check_same_accumulator(self, other)
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


# The constraint names the class, so it is declared once the class exists.
MLCMAccumulator.merge = validate_params({"other": [MLCMAccumulator]})(
    MLCMAccumulator.merge
)
