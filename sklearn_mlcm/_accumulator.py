"""MLCMAccumulator: the MLCM of a stream of batches, in constant memory."""

import math
import threading
from numbers import Integral

import numpy as np
from scipy import sparse
from sklearn.exceptions import NotFittedError

from ._mlcm._dispatch import METHODS, as_output, compute
from ._param_validation import (
    ZERO_DIVISION,
    Interval,
    InvalidInputError,
    Options,
    Sequence,
    validate_params,
)
from ._report import MAX_DIGITS, build_report
from ._validation import (
    align_columns,
    check_batch_columns,
    check_batch_kinds,
    check_batch_shape,
    check_dense_size,
    check_empty_batch,
    check_same_accumulator,
    read_frame,
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

    label_names_ : list or None
        The column names of the first frame batch (pandas, polars, pyarrow,
        xarray); later frame batches are aligned to them by name. None until a
        frame is seen.

    Notes
    -----
    One accumulator may be shared between threads: :meth:`update`,
    :meth:`merge`, :meth:`reset` and the readers hold an internal lock while
    they touch the running state, so no update is lost.

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
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forget every batch seen so far (and the label names).

        Returns
        -------
        self : MLCMAccumulator
        """
        q = self.n_labels
        dtype = np.int64 if self.method == "heydarian" else np.float64
        with self._lock:
            if self.sparse_output:
                self._matrix = sparse.csr_array((q + 1, q + 1), dtype=dtype)
            else:
                self._matrix = np.zeros((q + 1, q + 1), dtype=dtype)
            self._supports = np.zeros(q, dtype=np.int64)
            self._no_label_support = 0
            self.label_names_ = None
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

        Safe to call from several threads at once: each batch is counted on
        its own, then added under a lock.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels)
            Ground truth 0/1 indicators of the batch (any form
            :func:`mlcm_confusion_matrix` accepts, 2-D). An empty batch
            (zero rows) is validated and adds nothing. The columns of a frame
            (pandas, polars, pyarrow, xarray) are label names: the first
            frame's names are kept in :attr:`label_names_`, and the columns
            of later frames are matched to them by name (exactly: ``0`` is not
            ``"0"``). Frames and arrays are not mixed, within a batch or
            across batches, as an array's columns have no names to match. A
            refused batch changes nothing.

        y_pred : same kind and shape as ``y_true``
            Predicted labels of the batch.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the batch. Once a weighted batch has been
            added, the Heydarian matrix is float64.

        Returns
        -------
        self : MLCMAccumulator
        """
        y_true, true_names = _read_batch(y_true, "y_true")
        y_pred, pred_names = _read_batch(y_pred, "y_pred")
        n_samples = check_batch_shape(y_true, self.n_labels)
        with self._lock:
            known, n_seen = self.label_names_, self.n_samples_
        names = check_batch_kinds(true_names, pred_names, known, n_seen)
        labels = None
        if names is not None:  # the columns in the order of the known names
            labels = check_batch_columns(names, names if known is None else known)
            y_true = align_columns(y_true, true_names, labels, name="y_true")
            check_batch_columns(pred_names, labels)
            y_pred = align_columns(y_pred, pred_names, labels)
        if n_samples == 0:
            check_empty_batch(y_pred, sample_weight, self.n_labels)
            with self._lock:  # a valid empty frame batch names the labels
                self._check_unchanged(known, n_seen, names)
                if labels is not None and self.label_names_ is None:
                    self.label_names_ = list(labels)
            return self
        computed = compute(
            y_true,
            y_pred,
            method=self.method,
            labels=None,
            sample_weight=sample_weight,
            with_supports=True,
        )
        matrix, supports = computed.matrix, computed.supports
        # all or nothing: the state changes only once the batch is counted
        with self._lock:
            self._check_unchanged(known, n_seen, names)
            if labels is not None and self.label_names_ is None:
                self.label_names_ = list(labels)
            elif labels is not None and self.label_names_ != labels:
                # another thread's first frame named the labels meanwhile
                matrix, supports = _reorder(matrix, supports, labels, self.label_names_)
            self._check_total(matrix, "sample_weight")
            self._add(matrix)
            self._supports = self._supports + supports
            self._no_label_support = self._no_label_support + computed.no_label_support
            self.n_samples_ += n_samples if n_samples is not None else len(y_true)
        return self

    def _check_unchanged(self, known, n_seen, names):
        """Another thread may have added batches since this one was checked:
        check it again against the state it is added to (the caller holds
        the lock)."""
        if (self.label_names_, bool(self.n_samples_)) == (known, bool(n_seen)):
            return
        check_batch_kinds(names, names, self.label_names_, self.n_samples_)
        if names is not None and self.label_names_ is not None:
            check_batch_columns(names, self.label_names_)

    def _check_total(self, cm, parameter):
        """Refuse a batch after which the running matrix's total would
        overflow float64 (every sum and ratio read off it would be wrong);
        the caller holds the lock, and nothing has changed yet."""
        if cm.dtype.kind != "f":
            return
        with np.errstate(over="ignore"):
            total = float(self._matrix.sum()) + float(cm.sum())
        if not math.isfinite(total):
            raise InvalidInputError(
                f"The {parameter!r} parameter of MLCMAccumulator.update must keep "
                "the running matrix's total within float64: this batch would "
                "make it overflow. Divide every weight by the same large number "
                "(ratios are unchanged)."
                if parameter == "sample_weight"
                else f"The {parameter!r} parameter of MLCMAccumulator.merge must "
                "keep the running matrix's total within float64: merging it "
                "would make it overflow."
            )

    def _add(self, cm):
        """Add a matrix to the running one; the caller holds the lock."""
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
            An accumulator of the same ``n_labels`` and ``method`` (and, if
            both saw frames, the same label names).

        Returns
        -------
        self : MLCMAccumulator
        """
        check_same_accumulator(self, other)
        matrix, supports, no_label, n_samples, names = other._snapshot()
        with self._lock:
            known, n_seen = self.label_names_, self.n_samples_
        if n_samples or names is not None:
            check_batch_kinds(names, names, known, n_seen)
        if names is not None and known is not None:
            order = check_batch_columns(names, known, what="'other'")
            matrix, supports = _reorder(matrix, supports, names, order)
        with self._lock:
            if (self.label_names_, self.n_samples_) != (known, n_seen):
                raise RuntimeError(
                    "MLCMAccumulator.merge: the accumulator changed while 'other' "
                    "was being merged; merge again."
                )
            self._check_total(matrix, "other")
            if self.label_names_ is None and names is not None:
                self.label_names_ = list(names)
            self._add(matrix)
            self._supports = self._supports + supports
            self._no_label_support = self._no_label_support + no_label
            self.n_samples_ += n_samples
        return self

    def _snapshot(self):
        """A consistent copy of the running state, read under the lock."""
        with self._lock:
            return (
                self._matrix.copy(),
                self._supports.copy(),
                self._no_label_support,
                self.n_samples_,
                self.label_names_,
            )

    def __add__(self, other):
        if not isinstance(other, MLCMAccumulator):
            return NotImplemented
        result = MLCMAccumulator(
            self.n_labels, method=self.method, sparse_output=self.sparse_output
        )
        return result.merge(self).merge(other)

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_lock"]  # a lock does not pickle; a copy gets its own
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def confusion_matrix(self):
        """The accumulated (q+1, q+1) matrix (a copy).

        An ndarray (int64 for "heydarian" without weights, float64
        otherwise), or a CSR array with ``sparse_output=True``.
        """
        with self._lock:
            return self._matrix.copy()

    @validate_params(
        {
            "target_names": [Sequence(), None],
            "digits": [Interval(Integral, 0, MAX_DIGITS)],
            "output_dict": ["boolean"],
            "zero_division": ZERO_DIVISION,
            "include_no_label": ["boolean"],
        }
    )
    def classification_report(
        self,
        *,
        target_names=None,
        digits=2,
        output_dict=False,
        zero_division="warn",
        include_no_label=False,
    ):
        """The report of every batch so far, as :func:`mlcm_classification_report`.

        Equal to ``mlcm_classification_report`` of all the batches stacked,
        with the same ``method``: the accumulator keeps the label supports and
        the total of instances with no true label next to the matrix.

        Parameters
        ----------
        target_names : list of str of shape (n_labels,), default=None
            Display names of the labels. By default the frame column names of
            the batches (:attr:`label_names_`), else the column indices.

        digits : int, default=2
            Number of digits of the floating point values (at most 20).

        output_dict : bool, default=False
            Return a dict of dicts of Python floats instead of a str.

        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of a ratio whose denominator is zero.

        include_no_label : bool, default=False
            Add the "no label" row (NTL row and NPL column) and take it into
            the macro and weighted averages.

        Returns
        -------
        report : str or dict
            As :func:`mlcm_classification_report` returns.

        Examples
        --------
        >>> from sklearn_mlcm import MLCMAccumulator
        >>> acc = MLCMAccumulator(n_labels=2)
        >>> acc = acc.update([[1, 0], [0, 1]], [[1, 0], [1, 0]])
        >>> acc = acc.update([[1, 1]], [[1, 1]])
        >>> print(acc.classification_report(digits=3))
                      precision    recall  f1-score    weight   support
        <BLANKLINE>
                   0      0.667     1.000     0.800         2         2
                   1      1.000     0.500     0.667         2         2
        <BLANKLINE>
           micro avg      0.750     0.750     0.750         4         4
           macro avg      0.833     0.750     0.733         4         4
        weighted avg      0.833     0.750     0.733         4         4
        <BLANKLINE>
        """
        if self.n_samples_ == 0:
            raise NotFittedError(
                "This MLCMAccumulator has seen no instance yet; call update() "
                "with a batch before classification_report()."
            )
        matrix, supports, no_label, _, names = self._snapshot()
        if names is None:
            names = [str(i) for i in range(self.n_labels)]
        return build_report(
            matrix,
            [str(name) for name in names],
            supports,
            no_label,
            target_names=target_names,
            digits=int(digits),
            output_dict=bool(output_dict),
            zero_division=zero_division,
            include_no_label=bool(include_no_label),
        )

    def __repr__(self):
        return (
            f"MLCMAccumulator(n_labels={self.n_labels}, method={self.method!r}"
            f"{', sparse_output=True' if self.sparse_output else ''}) "
            f"with {self.n_samples_} samples"
        )


def _reorder(matrix, supports, names, order):
    """A (q+1, q+1) matrix and its supports, labelled ``names``, in the label
    order ``order`` (the same names); the no-label index stays last."""
    position = {name: i for i, name in enumerate(names)}
    index = [*(position[name] for name in order), len(names)]
    return matrix[index][:, index], supports[index[:-1]]


def _read_batch(y, name):
    """``(values, column names)`` of a frame batch, ``(y, None)`` otherwise
    (arrays, sparse and dask input are validated as they are)."""
    frame = read_frame(y, name)
    if frame is None:
        return y, None
    return frame


# The constraint names the class, so it is declared once the class exists.
MLCMAccumulator.merge = validate_params({"other": [MLCMAccumulator]})(
    MLCMAccumulator.merge
)
