"""MLCMMetric: the MLCM as a torchmetrics ``Metric``, summed across processes.

Each batch is thresholded where it lies (on its device, as torchmetrics'
multilabel metrics do), then its 0/1 indicators are counted by the library's
own kernel (:class:`~sklearn_mlcm.MLCMAccumulator`, on the host), and the
counts are added to the metric's states: the (q+1, q+1) matrix, the label
supports, the instances with no true label and the table of the instances'
set sizes (for the samples average). Every state is a sum (or, for the
table, a concatenation that is grouped when read), so torchmetrics' DDP
synchronisation gives the counts of all the processes, and
:meth:`MLCMMetric.to_report` builds the report of all of them.
"""

from numbers import Integral, Real

import numpy as np

from sklearn_mlcm._accumulator import MLCMAccumulator
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._mlcm._samples import SizeTable, merge_tables
from sklearn_mlcm._param_validation import (
    ZERO_DIVISION,
    Interval,
    InvalidInputError,
    Options,
    Sequence,
    public_call,
    validate_params,
)
from sklearn_mlcm._plot._confusion_matrix import MLCMDisplay
from sklearn_mlcm._plot._support import check_matplotlib_support
from sklearn_mlcm._plot._top_confusions import top_confusions
from sklearn_mlcm._reporting._report_object import MLCMReport

try:
    import torch
    from torchmetrics import Metric
except ImportError as exc:  # pragma: no cover - the [torch] extra is absent
    raise ImportError(
        "sklearn_mlcm.torch requires PyTorch and torchmetrics. You can install "
        'them with `pip install "sklearn-mlcm[torch]"`.'
    ) from exc

__all__ = ["MLCMMetric"]


class MLCMMetric(Metric):
    """The multi-label confusion matrix (MLCM) as a torchmetrics metric.

    Accumulates :func:`~sklearn_mlcm.mlcm_confusion_matrix` over the batches
    of an evaluation loop, in constant memory, and across the processes of a
    distributed one: every state is summed (``dist_reduce_fx="sum"``), so
    :meth:`compute` on any rank gives the matrix of all of them. Unlike
    torchmetrics' ``MultilabelConfusionMatrix`` (one 2x2 matrix per label),
    the MLCM says which labels were predicted *instead of* which.

    The inputs follow torchmetrics' multilabel metrics: probabilities, logits
    or 0/1 predictions, thresholded at ``threshold``.

    Read more in the :ref:`User Guide <torch_and_trackers>`.

    Parameters
    ----------
    num_labels : int
        Number of labels (the columns of every batch).

    threshold : float, default=0.5
        Floating-point predictions above it are predicted labels. As in
        torchmetrics, floating-point predictions with any value outside
        [0, 1] are taken for logits and go through a sigmoid first (per
        batch).

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which matrix to accumulate (see
        :func:`~sklearn_mlcm.mlcm_confusion_matrix`).

    ignore_index : int, default=None
        A target value that marks an unknown entry. An MLCM row places each
        instance by its whole true label set, which an unknown entry leaves
        undecided, so an instance with any target equal to ``ignore_index``
        is left out whole (torchmetrics' one-vs-rest metrics leave out the
        entry alone); :attr:`n_ignored` counts them. None: every target
        must be 0 or 1.

    target_names : list of str of shape (num_labels,), default=None
        Display names of the labels, for :meth:`to_report` and :meth:`plot`;
        None for the column indices.

    **kwargs : dict
        torchmetrics' options of every metric (``sync_on_compute``,
        ``process_group``, ``dist_sync_fn``, ...).

    Attributes
    ----------
    confmat : Tensor of shape (num_labels + 1, num_labels + 1), float64
        The running matrix (a state: summed across processes).

    n_samples : Tensor, int64
        Number of instances counted (a state).

    n_ignored : Tensor, int64
        Number of instances left out for an ``ignore_index`` target (a
        state).

    See Also
    --------
    sklearn_mlcm.MLCMAccumulator : The same accumulation for NumPy batches,
        with Poisson bootstrap replicates for intervals.
    torchmetrics.classification.MultilabelConfusionMatrix : One 2x2 matrix
        per label (one-vs-rest): the diagonal of the MLCM's information.

    Notes
    -----
    The matrix is counted on the host: each batch's 0/1 indicators (one byte
    per entry) are copied to the CPU and counted by the library's kernel,
    so the result is that of :func:`~sklearn_mlcm.mlcm_confusion_matrix`
    on the stacked batches: exactly for integer counts and integer weights
    (the states are float64, exact up to 2**53), up to rounding for the
    Krstinić matrix and fractional weights. The states stay on the metric's
    device; a device without float64 (Apple's MPS) cannot hold them.

    The report's intervals are not available from a metric: they resample
    the instances, which it does not keep (use
    :class:`~sklearn_mlcm.MLCMAccumulator` with ``n_resamples`` on NumPy
    batches for Poisson bootstrap intervals), nor are the label-set
    confusions, which pair each instance's two label sets.

    Examples
    --------
    >>> import torch
    >>> from sklearn_mlcm.torch import MLCMMetric
    >>> target = torch.tensor([[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0],
    ...                        [1, 1, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...                        [1, 1, 0]])
    >>> preds = torch.tensor([[0.9, 0.8, 0.1], [0.7, 0.2, 0.6], [0.1, 0.2, 0.3],
    ...                       [0.6, 0.9, 0.7], [0.8, 0.6, 0.9], [0.4, 0.7, 0.8],
    ...                       [0.2, 0.6, 0.9], [0.9, 0.1, 0.6], [0.3, 0.2, 0.7]])
    >>> metric = MLCMMetric(num_labels=3, target_names=["C0", "C1", "C2"])
    >>> metric.update(preds[:5], target[:5])
    >>> metric.update(preds[5:], target[5:])
    >>> metric.compute()
    tensor([[5, 2, 4, 0],
            [0, 2, 3, 1],
            [0, 0, 1, 0],
            [0, 1, 1, 1]])
    >>> report = metric.to_report(zero_division=0.0)
    >>> report
    MLCMReport: 3 labels (C0, C1, C2), 9 instances, method='heydarian'
    micro F1 0.43, macro F1 0.40
    most confused: C0 -> C2 (4)
    """

    is_differentiable = False
    higher_is_better = None
    full_state_update = False

    @validate_params(
        {
            "num_labels": [Interval(Integral, 1, None)],
            "threshold": [Interval(Real, 0, 1, closed="both")],
            "method": [Options(*METHODS)],
            "ignore_index": [Integral, None],
            "target_names": [Sequence(), None],
        }
    )
    def __init__(
        self,
        num_labels,
        threshold=0.5,
        method="heydarian",
        ignore_index=None,
        target_names=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        # refused here, not at the first report: the names must fit the labels
        names = None
        if target_names is not None:
            with public_call("MLCMMetric"):
                names = _checked_names(target_names, int(num_labels))
        self.num_labels = int(num_labels)
        self.threshold = float(threshold)
        self.method = method
        self.ignore_index = None if ignore_index is None else int(ignore_index)
        self.target_names = names
        # the list states are float64 (keys below (q+1)**3, exact): a process
        # that saw no batch sends an empty tensor of the metric's dtype in
        # the synchronisation, which must be the others' (set before the
        # states are added, which keep their own dtypes)
        self.set_dtype(torch.float64)
        q = self.num_labels
        f64 = {"dtype": torch.float64}
        self.add_state("confmat", torch.zeros(q + 1, q + 1, **f64), "sum")
        self.add_state("supports", torch.zeros(q, **f64), "sum")
        self.add_state("no_label_support", torch.zeros((), **f64), "sum")
        self.add_state("n_samples", torch.zeros((), dtype=torch.int64), "sum")
        self.add_state("n_ignored", torch.zeros((), dtype=torch.int64), "sum")
        # how many weighted batches: the matrix is float64 once one was
        self.add_state("n_weighted", torch.zeros((), dtype=torch.int64), "sum")
        self.add_state("n_zero_weight", torch.zeros((), dtype=torch.int64), "sum")
        # the samples average's table, one key per triple of set sizes
        # (|T|, |P|, |T & P|), its count and weight: concatenated across
        # batches and processes, grouped when read
        for name in ("size_keys", "size_counts", "size_weights"):
            self.add_state(name, [], "cat")

    def update(self, preds, target, sample_weight=None):
        """Add one batch.

        Parameters
        ----------
        preds : Tensor of shape (n_samples, num_labels)
            Probabilities or logits (floating point), or 0/1 predictions
            (integer or bool). NaN is refused.

        target : Tensor of shape (n_samples, num_labels)
            Ground truth 0/1 indicators (integer or bool), or
            ``ignore_index``.

        sample_weight : Tensor or array-like of shape (n_samples,), \
                default=None
            Non-negative weights of the batch's instances.
        """
        with public_call("MLCMMetric.update"):
            y_true, y_pred, weight, n_ignored = self._indicators(
                preds, target, sample_weight
            )
            if y_true.shape[0] == 0:
                self.n_ignored += n_ignored
                return
            batch = MLCMAccumulator(self.num_labels, method=self.method)
            batch.update(y_true, y_pred, sample_weight=weight)
        # counted: nothing changed before, all changes now
        self.n_ignored += n_ignored
        matrix, supports, no_label, n_rows, _, _, _, table, *_ = batch._snapshot()
        device = self.confmat.device
        as_state = {"dtype": torch.float64, "device": device}
        self.confmat += torch.as_tensor(np.asarray(matrix, np.float64), **as_state)
        self.supports += torch.as_tensor(np.asarray(supports, np.float64), **as_state)
        self.no_label_support += float(no_label)
        self.n_samples += int(n_rows)
        self.n_weighted += int(weight is not None)
        self.n_zero_weight += int(table.n_zero_weight)
        base = self.num_labels + 1
        sizes = table.sizes
        keys = (sizes[:, 0] * base + sizes[:, 1]) * base + sizes[:, 2]
        counts = table.count if table.weight is None else table.weight
        self.size_keys.append(torch.as_tensor(keys * 1.0, **as_state))
        self.size_counts.append(torch.as_tensor(table.count * 1.0, **as_state))
        self.size_weights.append(torch.as_tensor(counts * 1.0, **as_state))

    def _indicators(self, preds, target, sample_weight):
        """The batch's 0/1 indicators (NumPy, on the host), its weights and
        how many instances ``ignore_index`` left out."""
        for name, value in (("preds", preds), ("target", target)):
            if not isinstance(value, torch.Tensor):
                raise InvalidInputError(
                    f"The {name!r} parameter of MLCMMetric.update must be a "
                    f"torch.Tensor. Got {type(value).__name__} instead."
                )
        q = self.num_labels
        for name, value in (("preds", preds), ("target", target)):
            if value.ndim != 2 or value.shape[1] != q:
                raise InvalidInputError(
                    f"The {name!r} parameter of MLCMMetric.update must have the "
                    f"shape (n_samples, num_labels={q}). Got shape "
                    f"{tuple(value.shape)} instead."
                )
        if preds.shape[0] != target.shape[0]:
            raise InvalidInputError(
                "The 'preds' and 'target' parameters of MLCMMetric.update must "
                f"have the same number of rows. Got {preds.shape[0]} and "
                f"{target.shape[0]} instead."
            )
        preds, target = preds.detach(), target.detach()
        if target.is_floating_point() or target.is_complex():
            raise InvalidInputError(
                "The 'target' parameter of MLCMMetric.update must be an integer "
                f"or bool tensor of 0/1 indicators. Got dtype {target.dtype} "
                "instead."
            )
        weight = None
        if sample_weight is not None:
            if isinstance(sample_weight, torch.Tensor):
                sample_weight = sample_weight.detach().to("cpu", torch.float64)
            weight = np.asarray(sample_weight, dtype=np.float64)
            if weight.shape != (target.shape[0],):
                raise InvalidInputError(
                    "The 'sample_weight' parameter of MLCMMetric.update must "
                    f"have the shape (n_samples,) = ({target.shape[0]},). Got "
                    f"shape {weight.shape} instead."
                )
        n_ignored = 0
        if self.ignore_index is not None:
            unknown = (target == self.ignore_index).any(dim=1)
            n_ignored = int(unknown.sum())
            if n_ignored:
                keep = ~unknown
                preds, target = preds[keep], target[keep]
                if weight is not None:
                    weight = weight[keep.cpu().numpy()]
        allowed = "0 or 1" + ("" if self.ignore_index is None else " (or ignore_index)")
        if ((target != 0) & (target != 1)).any():
            raise InvalidInputError(
                f"The 'target' parameter of MLCMMetric.update must hold {allowed}. "
                f"Got the values {_values(target)} instead."
            )
        if preds.is_floating_point():
            if torch.isnan(preds).any():
                raise InvalidInputError(
                    "The 'preds' parameter of MLCMMetric.update must not hold "
                    "NaN (a NaN score is no decision). Got a NaN instead."
                )
            # torchmetrics' rule: any value outside [0, 1] means logits
            if preds.numel() and not ((preds >= 0) & (preds <= 1)).all():
                preds = preds.sigmoid()
            preds = preds > self.threshold
        elif preds.is_complex():
            raise InvalidInputError(
                "The 'preds' parameter of MLCMMetric.update must be a real "
                f"tensor. Got dtype {preds.dtype} instead."
            )
        elif ((preds != 0) & (preds != 1)).any():
            raise InvalidInputError(
                "The 'preds' parameter of MLCMMetric.update must hold 0 or 1 "
                "when it is an integer tensor (floating point for scores). Got "
                f"the values {_values(preds)} instead."
            )
        y_true = target.to("cpu", torch.uint8).numpy()
        y_pred = preds.to("cpu", torch.uint8).numpy()
        return y_true, y_pred, weight, n_ignored

    def compute(self):
        """The accumulated matrix.

        Returns
        -------
        confusion_matrix : Tensor of shape (num_labels + 1, num_labels + 1)
            int64 for ``method="heydarian"`` without weights, float64
            otherwise, on the metric's device; rows are true labels, the
            last row and column the "no label" index (NTL and NPL).
        """
        if self.method == "heydarian" and int(self.n_weighted) == 0:
            return self.confmat.to(torch.int64)
        return self.confmat.clone()

    @validate_params(
        {
            "target_names": [Sequence(), None],
            "zero_division": ZERO_DIVISION,
            "include_no_label": ["boolean"],
            "top_k": [Interval(Integral, 1, None)],
        }
    )
    def to_report(
        self,
        target_names=None,
        *,
        zero_division="warn",
        include_no_label=False,
        top_k=20,
    ):
        """The accumulated evaluation as an :class:`~sklearn_mlcm.MLCMReport`.

        The report (and its page, tables and picture) of every instance the
        metric counted, on all processes: the states are synchronised as
        :meth:`compute` synchronises them. Nothing is computed from the
        instances again; the predictions need not be kept.

        Parameters
        ----------
        target_names : list of str of shape (num_labels,), default=None
            Display names of the labels; by default the metric's
            ``target_names``, else the column indices.

        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of an undefined ratio in the report.

        include_no_label : bool, default=False
            Report the "no label" index as a row.

        top_k : int, default=20
            How many of the most confused label pairs the report keeps.

        Returns
        -------
        report : MLCMReport
            Its ``labelset_confusions`` is empty, and it has no intervals
            nor threshold curve: those need the instances themselves (see
            the Notes of :class:`MLCMMetric`).
        """
        with self.sync_context(should_sync=self._to_sync):
            state = self._read_state()
        if state["n_samples"] == 0:
            raise ValueError(
                "MLCMMetric.to_report: the metric has counted no instance yet; "
                "call update() with a batch first."
            )
        names = self.target_names if target_names is None else target_names
        names = _checked_names(
            range(self.num_labels) if names is None else names, self.num_labels
        )
        accumulator = _accumulator_of(state, self.num_labels, self.method)
        report = accumulator.classification_report(
            target_names=names,
            output_dict=True,
            zero_division=zero_division,
            include_no_label=bool(include_no_label),
        )
        matrix = state["confmat"]
        return MLCMReport(
            matrix,
            report,
            target_names=names,
            method=self.method,
            n_samples=state["n_samples"],
            most_confused=top_confusions(
                matrix,
                int(top_k),
                names,
                ntl_label="NTL",
                npl_label="NPL",
                include_no_label=bool(include_no_label),
            ),
            labelset_confusions=[],
            include_no_label=bool(include_no_label),
        )

    def _read_state(self):
        """The states as NumPy values (the matrix int64 where it counts)."""
        matrix = self.confmat.detach().cpu().numpy()
        supports = self.supports.detach().cpu().numpy()
        weighted = int(self.n_weighted) > 0
        if not weighted:  # counts: integers
            supports = supports.astype(np.int64)
            if self.method == "heydarian":
                matrix = matrix.astype(np.int64)
        no_label = float(self.no_label_support)
        keys, counts, weights = (
            _concatenated(getattr(self, name))
            for name in ("size_keys", "size_counts", "size_weights")
        )
        base = self.num_labels + 1
        keys = keys.astype(np.int64)
        sizes = np.stack([keys // base**2, keys // base % base, keys % base], axis=1)
        table = merge_tables(
            [
                SizeTable(
                    sizes,
                    counts.astype(np.int64),
                    weights.astype(np.float64) if weighted else None,
                    int(self.n_zero_weight),
                )
            ]
        )
        return {
            "confmat": matrix,
            "supports": supports,
            "no_label_support": no_label if weighted else int(no_label),
            "n_samples": int(self.n_samples),
            "samples": table,
        }

    def plot(self, val=None, ax=None):
        """Draw the matrix with :class:`~sklearn_mlcm.MLCMDisplay`.

        torchmetrics' convention: the computed value (or ``val``, a matrix
        returned by :meth:`compute` or :meth:`forward`) on ``ax``.

        Parameters
        ----------
        val : Tensor of shape (num_labels + 1, num_labels + 1), default=None
            The matrix to draw; None draws :meth:`compute`'s.

        ax : matplotlib Axes, default=None
            Axes to plot on; by default a new figure.

        Returns
        -------
        fig : matplotlib Figure
        ax : matplotlib Axes
        """
        with public_call("MLCMMetric.plot"):
            check_matplotlib_support()
            matrix = self.compute() if val is None else val
            if isinstance(matrix, torch.Tensor):
                matrix = matrix.detach().cpu().numpy()
            names = self.target_names
            display = MLCMDisplay(
                matrix,
                display_labels=names,
            ).plot(ax=ax)
        return display.figure_, display.ax_


def _checked_names(names, n_labels):
    """The display names as str, one per label (the report checks the
    rest)."""
    names = [str(name) for name in names]
    if len(names) != n_labels:
        raise InvalidInputError(
            "The 'target_names' parameter of MLCMMetric must have one name per "
            f"label: {n_labels} expected, got {len(names)}."
        )
    return names


def _concatenated(state):
    """A list state (one tensor per batch), or the tensor the processes'
    synchronisation made of it, as one NumPy array."""
    if isinstance(state, torch.Tensor):
        return state.detach().cpu().numpy().reshape(-1)
    if not state:
        return np.zeros(0)
    return torch.cat([part.reshape(-1) for part in state]).cpu().numpy()


def _accumulator_of(state, n_labels, method):
    """An :class:`MLCMAccumulator` holding the metric's counts, whose
    classification report is that of the counted instances."""
    accumulator = MLCMAccumulator(n_labels, method=method)
    accumulator._matrix = state["confmat"]
    accumulator._supports = state["supports"]
    accumulator._no_label_support = state["no_label_support"]
    accumulator._samples = state["samples"]
    accumulator.n_samples_ = state["n_samples"]
    return accumulator


def _values(tensor):
    """The distinct values of a tensor, at most five, for a message."""
    values = torch.unique(tensor.detach().cpu()).tolist()
    shown = ", ".join(repr(v) for v in values[:5])
    return "{" + shown + (", ..." if len(values) > 5 else "") + "}"
