"""MLCMAccumulator: the MLCM of a stream of batches, in constant memory."""

import math
import threading
import warnings
from numbers import Integral, Real

import numpy as np
from scipy import sparse
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state

from ._batch_checks import (
    check_batch_columns,
    check_batch_kinds,
    check_batch_namespace,
    check_batch_shape,
    check_empty_batch,
    check_same_accumulator,
)
from ._mlcm._chunking import kept_scratch
from ._mlcm._dask import is_dask_collection
from ._mlcm._dispatch import METHODS, as_output, compute
from ._mlcm._samples import RATIOS, RESAMPLED_SUMS, add_table, empty_table
from ._param_validation import (
    ZERO_DIVISION,
    Interval,
    InvalidInputError,
    InvalidParameterError,
    Options,
    Sequence,
    current_function,
    validate_params,
)
from ._report._classification_report import (
    MAX_DIGITS,
    REPORT_CONSTRAINTS,
    build_report,
    metrics_are_distinct,
)
from ._report._stream_bounds import percentile_scores, stream_report_bounds
from ._report._table import (
    DEFAULT_METRICS,
    NO_LABEL_NAME,
    report_statistics,
)
from ._uncertainty._interval_result import STREAM_UNITS
from ._uncertainty._intervals import (
    RESULT_AVERAGES,
    RESULT_METRICS,
    package_result,
)
from ._uncertainty._margins import MAX_RESAMPLES, SCORES, min_resamples
from ._uncertainty._poisson import MAX_REPLICATE_BYTES, replicate_margins, stream_key
from ._uncertainty._stream_intervals import (
    N_STATE_ROWS,
    batch_state,
    empty_state,
    honest_intervals,
    matrix_margins,
)
from ._validation._array_api import (
    namespace_of_state,
    portable_namespace,
    to_namespace,
)
from ._validation._frames import align_columns, read_frame
from ._validation._matrices import check_dense_size
from ._validation._messages import input_error
from ._validation._targets import validate_targets

__all__ = ["MLCMAccumulator"]


class MLCMAccumulator:
    """Accumulate a multi-label confusion matrix over batches.

    For evaluation loops that see the data in batches (a deep-learning
    validation loop, a generator over files, a stream): each :meth:`update`
    adds one batch's matrix, so memory stays that of one batch and the
    (q+1, q+1) result (and, up to 64 labels, the counting kernels' work
    buffers, kept from batch to batch: a few MiB per core). The result
    equals :func:`mlcm_confusion_matrix` of all the batches stacked, however
    the data is split, because both methods add up instance by instance:
    exactly for integer counts, and up to floating-point rounding (a few
    units in the last place) for weighted or fractional sums.

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

    n_resamples : int, default=None
        Also keep this many Poisson bootstrap replicates of the stream, for
        :meth:`confidence_intervals` and the report's intervals: each row
        gets an independent Poisson(1) weight in each replicate, and each
        replicate adds up the diagonal, row sums and column sums of its
        weighted matrix, and the sums of the report's samples average
        (``n_resamples x (3 x (n_labels + 1) + 18)`` numbers, and 26 x
        (n_labels + 1) running sums for the labels' score intervals and
        flags; at most 1 GiB). None keeps the matrix alone. An interval at a
        confidence level c needs at least ``2 / (1 - c) - 1`` replicates,
        rounded up (39 for 95%), to resolve its tails, as in
        :func:`mlcm_confidence_intervals`; fewer are refused when the
        interval is asked for.

    random_state : int, RandomState instance, SeedSequence or None, \
            default=None
        The stream of the replicates' weights. Row i of the stream gets the
        same weights whatever the batches it comes in: the same seed and the
        same rows in the same order give the same replicates. A
        :class:`numpy.random.SeedSequence` is used as it is: give each of
        several accumulators that will be merged its own stream with
        ``SeedSequence(seed).spawn(n)``. Ignored without ``n_resamples``.

    Attributes
    ----------
    n_samples_ : int
        Number of instances seen since construction or the last :meth:`reset`.

    target_names_ : list or None
        The column names of the first frame batch (pandas, polars, pyarrow,
        xarray); later frame batches are aligned to them by name. None until a
        frame is seen.

    Notes
    -----
    Under ``sklearn.config_context(array_api_dispatch=True)`` a batch of
    tensors (any Array API namespace) is counted on its device, as by
    :func:`mlcm_confusion_matrix`, and its (q+1, q+1) matrix, label supports
    and table of set sizes come to the host, where the running sums are
    kept: every batch already sends its checks' verdicts and its table
    there, so a device-side sum would save no synchronisation, and the host
    keeps integer counts exact past 2**53, merges, pickles and reports
    without a device. :attr:`confusion_matrix` goes back to the batches'
    namespace and device. With ``n_resamples`` each batch's rows are copied
    to the host too: the replicates' Poisson weights are drawn there.

    One accumulator may be shared between threads: :meth:`update`,
    :meth:`merge`, :meth:`reset` and the readers hold an internal lock while
    they touch the running state, so no update is lost. With replicates,
    each row still gets its own weights, but which ones depends on the order
    in which the threads reach the accumulator.

    The Poisson bootstrap (Hanley and MacGibbon 2006; torchmetrics'
    ``BootStrapper``) stands for the ordinary bootstrap when the number of
    rows is not known in advance: the multinomial counts of a resample are
    independent Poisson(1) counts conditioned on their total, and the scores
    are ratios that hardly feel that total. Row i's weights are read off the
    counter-based generator :class:`numpy.random.Philox` at a position that
    depends on i alone, so they do not depend on the batch boundaries: the
    replicates equal those of the same rows in one batch, exactly for integer
    counts and up to floating-point rounding otherwise, as the matrix does.

    :meth:`merge` adds the replicates of two accumulators, replicate by
    replicate, which is the Poisson bootstrap of the rows of both only if
    their rows were weighted by different streams. Two accumulators built
    with the same integer seed weigh their i-th rows alike: their merge
    resamples pairs of rows together, still a valid bootstrap when the rows
    are independent, but one with half as many units, and meaningless if both
    saw the same rows. Merging streams that coincide therefore warns; build
    workers' accumulators with ``random_state=None`` or with the children of
    ``SeedSequence(seed).spawn(n_workers)``.

    See Also
    --------
    mlcm_confusion_matrix : The one-shot computation.
    mlcm_confidence_intervals : The one-shot intervals (the ordinary
        bootstrap of the whole test set, percentile or BCa).

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
            "n_resamples": [Interval(Integral, 1, MAX_RESAMPLES), None],
            "random_state": [
                Interval(Integral, 0, None),
                np.random.RandomState,
                np.random.SeedSequence,
                None,
            ],
        }
    )
    def __init__(
        self,
        n_labels,
        *,
        method="heydarian",
        sparse_output=False,
        n_resamples=None,
        random_state=None,
    ):
        if not sparse_output:
            check_dense_size(
                n_labels,
                hint="Pass sparse_output=True to accumulate a sparse matrix.",
            )
        if n_resamples is not None:
            _check_replicate_size(int(n_resamples), int(n_labels))
        self.n_labels = int(n_labels)
        self.method = method
        self.sparse_output = bool(sparse_output)
        self.n_resamples = None if n_resamples is None else int(n_resamples)
        self.random_state = random_state
        self._seed_sequence = _seed_sequence(random_state)
        self._key = stream_key(self._seed_sequence)
        self._lock = threading.Lock()
        self._scratch = kept_scratch(self.n_labels)
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
            # the instances' set sizes, of the samples average, a running
            # sum as the matrix, a few tables merged at a time (add_table)
            self._samples = empty_table(weighted=False)
            self._waiting = []
            self.target_names_ = None
            self.n_samples_ = 0
            # the (xp, device) of Array API batches, where the matrix goes back
            self._namespace = None
            # the replicates' margins, the next row's position in this
            # accumulator's stream, and the streams whose rows were added
            self._replicates = self._replicate_samples = self._state = None
            if self.n_resamples is not None:
                self._replicates = np.zeros((self.n_resamples, 3, q + 1))
                # the sums the score intervals and flags read (O(q))
                self._state = empty_state(q)
                self._replicate_samples = np.zeros(
                    (
                        self.n_resamples,
                        len(_SAMPLES_OPTIONS),
                        len(RATIOS),
                        len(RESAMPLED_SUMS),
                    )
                )
            self._next_row = 0
            self._streams = set()
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
            frame's names are kept in :attr:`target_names_`, and the columns
            of later frames are matched to them by name (exactly: ``0`` is not
            ``"0"``). Frames and arrays are not mixed, within a batch or
            across batches, as an array's columns have no names to match. A
            refused batch changes nothing. Under ``array_api_dispatch``,
            arrays of any Array API namespace, of one namespace and device
            batch after batch: see the Notes of :class:`MLCMAccumulator`.

        y_pred : same kind and shape as ``y_true``
            Predicted labels of the batch.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the batch. Once a weighted batch has been
            added, the Heydarian matrix is float64. With replicates, each
            replicate's Poisson weight of a row multiplies its sample weight.

        Returns
        -------
        self : MLCMAccumulator
        """
        y_true, true_names = _read_batch(y_true, "y_true")
        y_pred, pred_names = _read_batch(y_pred, "y_pred")
        n_samples = check_batch_shape(y_true, self.n_labels)
        with self._lock:
            known, n_seen = self.target_names_, self.n_samples_
            known_namespace = self._namespace
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
                if labels is not None and self.target_names_ is None:
                    self.target_names_ = list(labels)
            return self
        if self.n_resamples is not None:  # the rows themselves are weighed
            self._check_not_dask(y_true, y_pred)
        targets = validate_targets(y_true, y_pred, sample_weight=sample_weight)
        namespace = _namespace(targets)
        check_batch_namespace(namespace, known_namespace, n_seen, self.sparse_output)
        if self.n_resamples is not None:
            y_true, y_pred = targets.space.y_true, targets.space.y_pred
            sample_weight = targets.weight
        options = {"with_supports": True, "samples": True, "scratch": self._scratch}
        computed = compute(targets, method=self.method, **options)
        matrix, supports = computed.matrix, computed.supports
        n_rows = n_samples if n_samples is not None else len(y_true)
        replicates = replicate_sums = start = state = None
        try:
            if self.n_resamples is not None:
                start = self._reserve(n_rows)
                replicates = replicate_margins(
                    y_true,
                    y_pred,
                    sample_weight,
                    method=self.method,
                    key=self._key,
                    start=start,
                    n_resamples=self.n_resamples,
                    samples=_SAMPLES_OPTIONS,
                )
                replicates, replicate_sums = _replicate_arrays(
                    *replicates, self.n_resamples
                )
                state = batch_state(y_true, y_pred, sample_weight, method=self.method)
            # all or nothing: the state changes only once the batch is counted
            with self._lock:
                self._check_unchanged(known, n_seen, names)
                check_batch_namespace(
                    namespace, self._namespace, self.n_samples_, self.sparse_output
                )
                if labels is not None and self.target_names_ is None:
                    self.target_names_ = list(labels)
                elif labels is not None and self.target_names_ != labels:
                    # another thread's first frame named the labels meanwhile
                    matrix, supports, replicates, state = _reorder(
                        matrix, supports, labels, self.target_names_, replicates, state
                    )
                self._check_total(matrix, replicates, "sample_weight")
                self._add(matrix, replicates, computed.samples, replicate_sums, state)
                self._supports = self._supports + supports
                self._no_label_support = (
                    self._no_label_support + computed.no_label_support
                )
                self.n_samples_ += n_rows
                self._namespace = namespace
                if replicates is not None:
                    self._streams.add(self._key)
                start = None  # added: the positions are used
        finally:
            if start is not None:
                self._release(start, n_rows)
        return self

    def _check_not_dask(self, y_true, y_pred):
        """Refuse a dask batch when the replicates weigh each row: its rows
        are not here."""
        for name, y in (("y_true", y_true), ("y_pred", y_pred)):
            if is_dask_collection(y):
                raise input_error(
                    name,
                    "a NumPy, sparse or frame batch when the accumulator keeps "
                    "bootstrap replicates (n_resamples), which weigh each row "
                    "where it is read; update with one computed block at a "
                    "time: acc.update(y_true.blocks[i].compute(), "
                    "y_pred.blocks[i].compute())",
                    "a dask array",
                )

    def _reserve(self, n_rows):
        """The stream position of a batch's first row; the next batch's rows
        follow it."""
        with self._lock:
            start = self._next_row
            self._next_row += n_rows
            return start

    def _release(self, start, n_rows):
        """Give back the positions of a refused batch, unless another batch
        took the next ones meanwhile (its rows keep theirs: a gap in the
        positions changes no law)."""
        with self._lock:
            if self._next_row == start + n_rows:
                self._next_row = start

    def _check_unchanged(self, known, n_seen, names):
        """Another thread may have added batches since this one was checked:
        check it again against the state it is added to (the caller holds
        the lock)."""
        if (self.target_names_, bool(self.n_samples_)) == (known, bool(n_seen)):
            return
        check_batch_kinds(names, names, self.target_names_, self.n_samples_)
        if names is not None and self.target_names_ is not None:
            check_batch_columns(names, self.target_names_)

    def _check_total(self, cm, replicates, parameter):
        """Refuse a batch after which the running matrix's total (or a
        replicate's) times (n_labels + 1)**2 would overflow float64, the bound
        check_weight_sums puts on one call's weights: the scores add up to a
        few times the total (2 TP + FP + FN), and past float64 every ratio read
        off them would be wrong. The caller holds the lock, and nothing has
        changed yet."""
        room = (self.n_labels + 1) ** 2
        with np.errstate(over="ignore", invalid="ignore"):
            finite = cm.dtype.kind != "f" or math.isfinite(
                (float(self._matrix.sum()) + float(cm.sum())) * room
            )
            if replicates is not None:  # each replicate's total (row sums)
                totals = self._replicates[:, 1].sum(axis=1)
                totals = totals + replicates[:, 1].sum(axis=1)
                finite = finite and bool(np.isfinite(totals * room).all())
        if not finite:
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

    def _add(self, cm, replicates, samples, replicate_samples=None, state=None):
        """Add a matrix, the sums of the samples average (and replicates of
        both, and the sums of the score intervals) to the running ones; the
        caller holds the lock."""
        if self.sparse_output:
            self._matrix = sparse.csr_array(self._matrix + sparse.csr_array(cm))
        elif sparse.issparse(cm):
            self._matrix = self._matrix + as_output(cm, False)
        else:
            self._matrix = self._matrix + cm
        self._samples = add_table(self._samples, self._waiting, samples)
        if replicates is not None:
            self._replicates += replicates
            self._replicate_samples += replicate_samples
            self._state = self._state + state

    def merge(self, other):
        """Add the batches of another accumulator (for example a worker's).

        With replicates, replicate b of ``other`` is added to replicate b
        of this accumulator, whose own stream goes on where it was. That is
        the Poisson bootstrap of the rows of both when their streams differ;
        merging rows weighted by a stream this accumulator already holds
        (two accumulators built with the same integer seed, or the same
        accumulator twice) warns, as their replicates are then not
        independent (see the Notes of :class:`MLCMAccumulator`).

        Parameters
        ----------
        other : MLCMAccumulator
            An accumulator of the same ``n_labels``, ``method`` and
            ``n_resamples`` (and, if both saw frames, the same label names).

        Returns
        -------
        self : MLCMAccumulator
        """
        check_same_accumulator(self, other)
        (
            matrix,
            supports,
            no_label,
            n_samples,
            names,
            replicates,
            streams,
            samples,
            replicate_samples,
            namespace,
            state,
        ) = other._snapshot()
        with self._lock:
            known, n_seen = self.target_names_, self.n_samples_
        if n_samples or names is not None:
            check_batch_kinds(names, names, known, n_seen)
        if names is not None and known is not None:
            order = check_batch_columns(names, known, what="'other'")
            matrix, supports, replicates, state = _reorder(
                matrix, supports, names, order, replicates, state
            )
        with self._lock:
            if (self.target_names_, self.n_samples_) != (known, n_seen):
                raise RuntimeError(
                    "MLCMAccumulator.merge: the accumulator changed while 'other' "
                    "was being merged; merge again."
                )
            self._check_total(matrix, replicates, "other")
            if n_samples:
                check_batch_namespace(
                    namespace, self._namespace, self.n_samples_, self.sparse_output
                )
                self._namespace = namespace
            shared = streams & (self._streams | {self._key})
            if self.target_names_ is None and names is not None:
                self.target_names_ = list(names)
            self._add(matrix, replicates, samples, replicate_samples, state)
            self._supports = self._supports + supports
            self._no_label_support = self._no_label_support + no_label
            self.n_samples_ += n_samples
            self._streams |= streams
        if shared:
            warnings.warn(
                "MLCMAccumulator.merge: 'other' holds rows weighted by a random "
                "stream this accumulator already uses (the same random_state, "
                "or the same rows merged twice): rows at the same positions "
                "have the same bootstrap weights, and the replicates resample "
                "them together. Give each accumulator its own stream: "
                "random_state=None, or the children of "
                "numpy.random.SeedSequence(seed).spawn(n).",
                UserWarning,
                stacklevel=3,  # the caller of merge, past the validation
            )
        return self

    def _snapshot(self):
        """A consistent copy of the running state, read under the lock."""
        with self._lock:
            self._samples = add_table(self._samples, self._waiting)
            return (
                self._matrix.copy(),
                self._supports.copy(),
                self._no_label_support,
                self.n_samples_,
                self.target_names_,
                None if self._replicates is None else self._replicates.copy(),
                set(self._streams),
                self._samples,
                (
                    None
                    if self._replicate_samples is None
                    else self._replicate_samples.copy()
                ),
                self._namespace,
                self._state,  # frozen: never changed in place
            )

    def __add__(self, other):
        if not isinstance(other, MLCMAccumulator):
            return NotImplemented
        with self._lock:  # a new stream of its own, derived from this one
            (seed,) = self._seed_sequence.spawn(1)
        result = MLCMAccumulator(
            self.n_labels,
            method=self.method,
            sparse_output=self.sparse_output,
            n_resamples=self.n_resamples,
            random_state=seed,
        )
        return result.merge(self).merge(other)

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_lock"], state["_scratch"]  # no pickles; a copy gets its own
        state["_namespace"] = portable_namespace(state.get("_namespace"))
        return state

    def __setstate__(self, state):
        state["_namespace"] = namespace_of_state(state.get("_namespace"))
        self.__dict__.update(state)
        self._lock = threading.Lock()
        self._scratch = kept_scratch(self.n_labels)

    @property
    def confusion_matrix(self):
        """The accumulated (q+1, q+1) matrix (a copy).

        An ndarray (int64 for "heydarian" without weights, float64
        otherwise), or a CSR array with ``sparse_output=True``. For Array
        API batches (under ``array_api_dispatch``), an array of their
        namespace, on their device, as :func:`mlcm_confusion_matrix` of the
        batches stacked returns it.
        """
        with self._lock:
            matrix, namespace = self._matrix.copy(), self._namespace
        if namespace is None:
            return matrix
        return to_namespace(matrix, *namespace)

    @validate_params(
        {
            "metric": [Options(*SCORES)],
            "average": [Options("micro", "micro_all", "macro", "weighted")],
            "confidence_level": [Interval(Real, 0, 1, closed="neither")],
            "beta": [Interval(Real, 0, None, closed="left")],
            "tn": [Options("complement", "diagonal")],
            "zero_division": ZERO_DIVISION,
            "include_no_label": ["boolean"],
            "return_distributions": ["boolean"],
        }
    )
    def confidence_intervals(
        self,
        *,
        metric="f1",
        average="macro",
        confidence_level=0.95,
        beta=1.0,
        tn="complement",
        zero_division="warn",
        include_no_label=False,
        return_distributions=False,
    ):
        """Intervals of every MLCM score of the stream so far, by the report's rules.

        The stream's counterpart of :func:`mlcm_confidence_intervals`: every
        score is read off the accumulated matrix, and off each of the
        ``n_resamples`` replicates the accumulator kept (build it with
        ``n_resamples``). The labels of a ratio get the one-shot function's
        modified Wilson interval (off running sums, see Notes), the others
        and the averages the percentile interval of the replicates; each is flagged
        as the one-shot function flags it. BCa is not offered: its
        acceleration needs the jackknife, the scores with each row left out,
        and a stream does not keep its rows. Nor are the intervals of the
        matrix's cells: the replicates
        keep the margins the scores need, not whole matrices.

        Read more in the :ref:`User Guide <uncertainty>`.

        Parameters
        ----------
        metric : {"f1", "precision", "recall", "fbeta", "specificity"}, \
                default="f1"
            The score the result unpacks as, as :func:`mlcm_f1_score` and the
            other scores compute it.

        average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
            How the chosen score is averaged (see :func:`mlcm_f1_score`).

        confidence_level : float, default=0.95
            The nominal coverage of the intervals, in (0, 1).

        beta : float, default=1.0
            Weight of recall in the F-score, for ``metric="fbeta"``.

        tn : {"complement", "diagonal"}, default="complement"
            The true negatives of specificity (see
            :func:`mlcm_specificity_score`).

        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of a ratio whose denominator is zero, on the stream and
            in the replicates ("warn" acts as 0.0 and warns for the chosen
            ``metric`` on the stream only). NaN values are left out of
            averages and bounds; the result says in how many replicates each
            label's score was undefined.

        include_no_label : bool, default=False
            Also score the "no label" index (the NTL row and NPL column),
            last, and take it into the averages, as the scores do.

        return_distributions : bool, default=False
            Keep every score's values in the replicates (n_resamples values
            per label and score) in the result.

        Returns
        -------
        result : ConfidenceIntervalResult
            As :func:`mlcm_confidence_intervals` returns, with
            ``interval="percentile"``, ``units="stream instances"``,
            ``matrix=None`` and, as ``n_units``
            and ``n_distinct_units``, the number of rows (each row gets its
            own weights): ``estimate, (low, high) = result``; per label
            ``result.label_estimates`` and
            ``result.label_confidence_interval``; every score in
            ``result.scores``.

        See Also
        --------
        mlcm_confidence_intervals : The ordinary bootstrap of a whole test
            set, percentile or BCa, with groups and the matrix's cells.

        Notes
        -----
        The replicates are the Poisson bootstrap of the stream's rows: each
        row gets an independent Poisson(1) weight in each replicate. Its law
        is that of the ordinary bootstrap as the stream grows (the tests
        compare the two on 400 instances, and check the coverage of these
        intervals by simulation).

        A label's ratio ``X / Y`` gets the modified Wilson interval on the
        design-effect trials ``r (1 - r) / Var(r)``, whose linearised
        variance needs ``X``, ``Y`` and the sums ``S_xx``, ``S_xy``,
        ``S_yy`` over the rows: linear and quadratic forms of the sums of
        each row's margins (diagonal, row and column sums, total, trace) and
        of their products two by two, which the accumulator keeps per label
        and adds batch by batch, so
        the bounds are :func:`mlcm_confidence_intervals`' on the same rows
        (to rounding). A label with no hit gets ``[0, z^2 / (n + z^2)]``, not
        [0, 0]. The macro average stays the percentile interval: the
        one-shot bootstrap-t needs each replicate's linearised variance,
        whose coefficients are known only once the replicate is complete,
        that is ``q x q`` cross moments per replicate. It is flagged by the
        one-shot rule instead (more than 5% of the labels with fewer than 5
        positives, Kish's counts off the running sums of the weights), where
        no interval of it holds its coverage. Every flag is in
        ``ScoreInterval.flag``, in the one-shot words, and the flagged
        intervals are named in one :class:`~scipy.stats.DegenerateDataWarning`.

        References
        ----------
        .. [1] J. A. Hanley and B. MacGibbon, "Creating non-parametric
           bootstrap samples using Poisson frequencies", Computer Methods
           and Programs in Biomedicine 83(1), 57-62, 2006.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_mlcm import MLCMAccumulator
        >>> rng = np.random.default_rng(0)
        >>> y_true = (rng.random((300, 4)) < 0.3).astype(int)
        >>> y_pred = y_true ^ (rng.random((300, 4)) < 0.1)
        >>> acc = MLCMAccumulator(4, n_resamples=999, random_state=0)
        >>> for start in range(0, 300, 64):  # batches of 64 rows
        ...     acc = acc.update(y_true[start:start + 64], y_pred[start:start + 64])
        >>> f1, (low, high) = acc.confidence_intervals()
        >>> round(f1, 3), round(low, 3), round(high, 3)
        (0.716, 0.677, 0.755)
        >>> recall, (low, high) = acc.confidence_intervals().scores["recall_micro"]
        >>> round(recall, 3), round(low, 3), round(high, 3)
        (0.714, 0.674, 0.755)
        """
        self._check_replicates(confidence_level)
        matrix, _, _, n_rows, names, replicates, *_, state = self._snapshot()
        shown = self.n_labels + bool(include_no_label)
        names = self._names(names) + ([NO_LABEL_NAME] if include_no_label else [])
        metrics = RESULT_METRICS + ((metric,) if metric not in RESULT_METRICS else ())
        averages = RESULT_AVERAGES + (
            (average,) if average not in RESULT_AVERAGES else ()
        )
        scores = percentile_scores(
            matrix,
            replicates,
            metrics=metrics,
            averages=averages,
            shown=shown,
            confidence_level=float(confidence_level),
            beta=float(beta),
            tn=tn,
            zero_division=zero_division,
            warn_for=(metric,),
        )
        scores = honest_intervals(
            scores,
            state,
            matrix_margins(matrix),
            shown=shown,
            confidence_level=float(confidence_level),
            beta=float(beta),
            tn=tn,
            names=names,
            n_resamples=self.n_resamples,
            return_distributions=True,  # package_result keeps them or not
        )
        return package_result(
            scores,
            None,
            metric=metric,
            average=average,
            target_names=names,
            interval="percentile",
            confidence_level=float(confidence_level),
            n_resamples=self.n_resamples,
            n_units=n_rows,
            n_distinct_units=n_rows,
            return_distributions=bool(return_distributions),
            method=self.method,
            units=STREAM_UNITS,
        )

    def _check_replicates(self, confidence_level, parameter=None):
        """Intervals need replicates, enough of them to resolve the tails of
        an interval at ``confidence_level`` (:func:`._margins.min_resamples`),
        and at least two rows."""
        caller = current_function()
        what = caller if parameter is None else f"{caller}({parameter}=...)"
        if self.n_resamples is None:
            raise InvalidParameterError(
                f"{what} needs bootstrap replicates: build the accumulator "
                f"with n_resamples (for example MLCMAccumulator({self.n_labels}, "
                "n_resamples=1000)). This one has n_resamples=None."
            )
        minimum = min_resamples(confidence_level)
        if self.n_resamples < minimum:
            tail = (1.0 - confidence_level) / 2.0
            advice = (
                f"build it with more (for example MLCMAccumulator({self.n_labels}, "
                f"n_resamples={max(minimum, 1000)})) or ask for a lower "
                "confidence_level"
                if minimum <= MAX_RESAMPLES
                else f"more than the {MAX_RESAMPLES:,} allowed: ask for a lower "
                "confidence_level"
            )
            raise InvalidParameterError(
                f"{what} needs at least {minimum:,} replicates for "
                f"confidence_level={confidence_level!r}: the interval leaves "
                f"{tail:.4g} of the replicates beyond each bound, which needs "
                f"(n_resamples + 1) x {tail:.4g} >= 1. This accumulator keeps "
                f"n_resamples={self.n_resamples}; {advice}."
            )
        if self.n_samples_ == 0:
            raise NotFittedError(
                "This MLCMAccumulator has seen no instance yet; call update() "
                f"with a batch before {caller.split('.')[-1]}()."
            )
        if self.n_samples_ < 2:
            raise ValueError(
                f"{caller} needs at least two rows to resample (one row cannot "
                "be resampled); this MLCMAccumulator has seen 1."
            )

    def _names(self, names):
        """The label names: the frames' columns, else the column indices."""
        if names is None:
            return [str(i) for i in range(self.n_labels)]
        return list(names)

    @validate_params(
        {
            "target_names": [Sequence(), None],
            "digits": [Interval(Integral, 0, MAX_DIGITS)],
            "output_dict": ["boolean"],
            "zero_division": ZERO_DIVISION,
            "include_no_label": ["boolean"],
            "metrics": REPORT_CONSTRAINTS["metrics"],
            "confidence_level": [Interval(Real, 0, 1, closed="neither"), None],
        },
        rules=(metrics_are_distinct,),
    )
    def classification_report(
        self,
        *,
        target_names=None,
        digits=2,
        output_dict=False,
        zero_division="warn",
        include_no_label=False,
        metrics=DEFAULT_METRICS,
        confidence_level=None,
    ):
        """The report of every batch so far, as :func:`mlcm_classification_report`.

        Equal to ``mlcm_classification_report`` of all the batches stacked,
        with the same ``method``: the accumulator keeps the label supports,
        the total of instances with no true label and the table of the
        instances' set sizes (for the samples average, a running sum too)
        next to the matrix. With ``confidence_level`` (and replicates,
        ``n_resamples``), each score comes with its interval, in the layout
        of ``mlcm_classification_report(..., confidence_level=...)``.
        ``metrics`` chooses the statistics, as
        :func:`mlcm_classification_report`'s.

        Parameters
        ----------
        target_names : list of str of shape (n_labels,), default=None
            Display names of the labels. By default the frame column names of
            the batches (:attr:`target_names_`), else the column indices.

        digits : int, default=2
            Number of digits of the floating point values (at most 20).

        output_dict : bool, default=False
            Return a dict of dicts of Python floats instead of a str.

        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of a ratio whose denominator is zero.

        include_no_label : bool, default=False
            Add the "no label" row (NTL row and NPL column) and take it into
            the macro and weighted averages.

        metrics : list of str, default=("precision", "recall", "f1-score")
            The report's statistics, in order: any per-class statistic of
            the registry, by name, header or alias (see
            :func:`mlcm_classification_report`); each gets its averages and,
            with ``confidence_level``, its interval.

        confidence_level : float, default=None
            Print each score with its interval of this nominal coverage, as
            :meth:`confidence_intervals` gives it (the ratios' labels the
            modified Wilson's, the others the replicates' percentile), flagged
            as the one-shot report flags it (``"<score> low"``, ``"<score> high"``
            and ``"<score> flag"`` keys with ``output_dict=True``; marks and
            notes in the text). Needs an accumulator built with
            ``n_resamples``.

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
         samples avg      0.667     0.667     0.667         4         4
        <BLANKLINE>

        With intervals, from 999 Poisson bootstrap replicates of a stream of
        300 instances in batches of 64:

        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> y_true = (rng.random((300, 3)) < 0.3).astype(int)
        >>> y_pred = y_true ^ (rng.random((300, 3)) < 0.1)
        >>> acc = MLCMAccumulator(3, n_resamples=999, random_state=0)
        >>> for start in range(0, 300, 64):
        ...     acc = acc.update(y_true[start:start + 64], y_pred[start:start + 64])
        >>> print(acc.classification_report(confidence_level=0.95, zero_division=0.0))
                               precision             recall           f1-score    weight   support
        <BLANKLINE>
                   0   0.73 [0.63, 0.81]  0.73 [0.65, 0.79]  0.73 [0.66, 0.79]        95        81
                   1   0.69 [0.58, 0.78]  0.76 [0.68, 0.82]  0.72 [0.65, 0.78]        91        75
                   2   0.78 [0.69, 0.84]  0.79 [0.72, 0.85]  0.78 [0.73, 0.83]       110        95
        <BLANKLINE>
           micro avg   0.74 [0.69, 0.78]  0.76 [0.72, 0.81]  0.75 [0.71, 0.79]       296       251
           macro avg   0.73 [0.69, 0.78]  0.76 [0.72, 0.81]  0.75 [0.70, 0.79]       296       251
        weighted avg   0.74 [0.69, 0.79]  0.76 [0.72, 0.81]  0.75 [0.71, 0.79]       296       251
         samples avg   0.53 [0.48, 0.58]  0.57 [0.51, 0.62]  0.54 [0.48, 0.59]       296       251
        <BLANKLINE>
        [low, high]: 95% percentile Poisson bootstrap intervals, 999 replicates of the 300 instances; the labels' ratios modified Wilson score intervals, their macro avg the percentile (flagged where the labels are rare)
        <BLANKLINE>
        """  # noqa: E501 (the report with intervals is wider than the code)
        if confidence_level is not None:
            self._check_replicates(confidence_level, "confidence_level")
        elif self.n_samples_ == 0:
            raise NotFittedError(
                "This MLCMAccumulator has seen no instance yet; call update() "
                "with a batch before classification_report()."
            )
        (
            matrix,
            supports,
            no_label,
            n_rows,
            names,
            replicates,
            _,
            samples,
            replicate_samples,
            _,
            state,
        ) = self._snapshot()
        which = _SAMPLES_OPTIONS.index((1.0, bool(include_no_label)))
        statistics = report_statistics(metrics)
        bounds = None
        if confidence_level is not None:
            names = self._names(names)
            if target_names is not None and len(target_names) == len(names):
                names = list(target_names)
            bounds = stream_report_bounds(
                matrix,
                replicates,
                replicate_samples[:, which],
                state,
                names=names + [NO_LABEL_NAME] * bool(include_no_label),
                statistics=statistics,
                n_rows=n_rows,
                shown=self.n_labels + bool(include_no_label),
                confidence_level=float(confidence_level),
                zero_division=zero_division,
            )
        return build_report(
            matrix,
            [str(name) for name in self._names(names)],
            supports,
            no_label,
            target_names=target_names,
            digits=int(digits),
            output_dict=bool(output_dict),
            zero_division=zero_division,
            include_no_label=bool(include_no_label),
            statistics=statistics,
            bounds=bounds,
            samples=samples,
        )

    def __repr__(self):
        resamples = self.n_resamples
        return (
            f"MLCMAccumulator(n_labels={self.n_labels}, method={self.method!r}"
            f"{', sparse_output=True' if self.sparse_output else ''}"
            f"{f', n_resamples={resamples}' if resamples is not None else ''}) "
            f"with {self.n_samples_} samples"
        )


def _reorder(matrix, supports, names, order, replicates=None, state=None):
    """A (q+1, q+1) matrix, its supports, its (B, 3, q+1) replicates and its
    (N_STATE_ROWS, q+1) state (or None), labelled ``names``, in the label
    order ``order`` (the same names); the no-label index stays last."""
    position = {name: i for i, name in enumerate(names)}
    index = [*(position[name] for name in order), len(names)]
    if replicates is not None:
        replicates, state = replicates[:, :, index], state.columns(index)
    return matrix[index][:, index], supports[index[:-1]], replicates, state


#: The samples averages an accumulator keeps: F1 (beta 1), without and with
#: the no-label index, which the report chooses.
_SAMPLES_OPTIONS = ((1.0, False), (1.0, True))
#: The floats of a replicate's sums of those averages (S, D, U per ratio).
_REPLICATE_SUMS = len(RATIOS) * len(RESAMPLED_SUMS) * len(_SAMPLES_OPTIONS)


def _replicate_arrays(margins, sums, n_resamples):
    """The (B, 3, q+1) margins and the (B, k, 3, 3) sums (ratio, then S, D, U)
    of :func:`replicate_margins`' (3 (q+1), B) and (9 k, B) arrays."""
    margins = margins.T.reshape(n_resamples, 3, -1)
    sums = sums.T.reshape(n_resamples, -1, len(RESAMPLED_SUMS), len(RATIOS))
    sums = sums.swapaxes(-1, -2)
    return margins, np.ascontiguousarray(sums)


def _seed_sequence(random_state):
    """The SeedSequence of an accumulator's stream: a SeedSequence as it is,
    an int as its entropy, a RandomState (or None: NumPy's global one) draws
    128 bits of entropy."""
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, Integral):
        return np.random.SeedSequence(int(random_state))
    state = check_random_state(random_state)
    return np.random.SeedSequence(state.randint(0, 2**32, size=4).tolist())


def _check_replicate_size(n_resamples, n_labels):
    """Refuse replicates past :data:`MAX_REPLICATE_BYTES`, before they exist."""
    per_replicate = 3 * (n_labels + 1) + _REPLICATE_SUMS
    state = N_STATE_ROWS * (n_labels + 1) * 8  # the intervals' sums, once
    size = n_resamples * per_replicate * 8 + state
    if size > MAX_REPLICATE_BYTES:
        most = max(0, MAX_REPLICATE_BYTES - state) // (per_replicate * 8)
        raise InvalidParameterError(
            f"The 'n_resamples' parameter of MLCMAccumulator must keep the "
            f"replicates (n_resamples x (3 x (n_labels + 1) + {_REPLICATE_SUMS}) "
            f"float64 margins and sums, and the intervals' {N_STATE_ROWS} x "
            "(n_labels + 1) sums) "
            f"within {MAX_REPLICATE_BYTES / 2**30:.0f} GiB: at most {most:,} "
            f"resamples for {n_labels:,} labels. Got {n_resamples:,} "
            f"({size / 2**30:.1f} GiB) instead; use fewer resamples, or score "
            "a subset of the labels."
        )


def _namespace(targets):
    """The ``(xp, device)`` of an Array API batch, else None."""
    device = targets.device
    return None if device is None else (device.xp, device.device)


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
