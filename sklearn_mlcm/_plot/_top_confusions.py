"""The most frequent confusions: the largest off-diagonal cells of an MLCM,
the labels most involved in confusion, and the most frequent (true label
set, predicted label set) pairs.

Three views of what a classifier mixes up. :func:`most_confused` reads the
largest off-diagonal cells of any square confusion matrix, dense or sparse
(never densified); :func:`most_confused_labels` picks and orders the labels
of a large matrix worth drawing (for :class:`MLCMDisplay`);
:func:`labelset_confusions` counts whole label sets,
without a loop over the instances: each row is packed into bits (dense input)
or read from its CSR indices (sparse input), rows are grouped by a 64-bit key,
and the groups are checked exactly against one member before they are counted.
Both validate, compute (private functions that assume clean input) and
package a list of named tuples, or a DataFrame on request.
"""

from numbers import Integral
from typing import NamedTuple

import numpy as np
from scipy import sparse

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS
from sklearn_mlcm._param_validation import (
    Interval,
    InvalidInputError,
    Options,
    Sequence,
    current_function,
    validate_params,
)
from sklearn_mlcm._plot._array_api import device_labelset_pairs
from sklearn_mlcm._summary import (
    format_number,
    label_table,
    require_pandas,
    shorten,
)
from sklearn_mlcm._validation._array_api import matrix_namespace, to_namespace
from sklearn_mlcm._validation._matrices import check_square_matrix
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

__all__ = [
    "Confusion",
    "LabelSetConfusion",
    "labelset_confusions",
    "most_confused",
    "most_confused_labels",
    "top_confusions",
    "top_labelset_confusions",
]

#: top_k="auto" draws every label up to this many, and this many (the labels
#: most involved in confusion) above: 41 rows and columns with the no-label
#: ones still show each tick label at the display's largest figure.
AUTO_TOP_K = 40
#: order="cluster" clusters at most this many labels: the distances of 5,000
#: labels are 100 MB and their average linkage takes seconds.
MAX_CLUSTER_LABELS = 5000
# order="cluster" orders the leaves optimally (adjacent leaves as similar as
# possible) up to this many labels: 0.5 s at 500 labels, 4 s at 1,000.
_MAX_OPTIMAL_ORDERING = 500


class Confusion(NamedTuple):
    """One off-diagonal cell of a confusion matrix, from :func:`most_confused`.

    Attributes
    ----------
    true : str or int
        The row: a label name (``target_names``), else its index; the last
        row is ``ntl_label`` ("no true label").

    predicted : str or int
        The column: a label name, else its index; the last column is
        ``npl_label`` ("no predicted label").

    value : int or float
        The cell: a Python int for an integer matrix, a float otherwise.
    """

    true: object
    predicted: object
    value: object


class LabelSetConfusion(NamedTuple):
    """A (true set, predicted set) pair, from :func:`labelset_confusions`.

    Attributes
    ----------
    true : tuple
        The true label set: label indices in ascending order (names with
        ``target_names``); ``()`` for an instance with no true label.

    predicted : tuple
        The predicted label set, in the same form.

    count : int or float
        How many instances have this pair: a Python int, or the sum of their
        weights as a float with ``sample_weight``.
    """

    true: tuple
    predicted: tuple
    count: object


#: The most rows a confusion list prints (the rest: ``to_frame``).
SUMMARY_ROWS = 30
#: The widest cell of a printed label set; longer ones end with an ellipsis.
MAX_CELL = 40


class ConfusionList(list):
    """The list :func:`most_confused` returns: a list of :class:`Confusion`.

    Still a plain list (equal to the list of the same tuples, indexed,
    iterated and sliced as one), which prints as a short table (at most 40
    lines) and has :meth:`to_frame`.
    """

    _record = Confusion
    _what = "most_confused"

    def __init__(self, records=(), value_dtype=np.float64):
        super().__init__(records)
        self._value_dtype = np.dtype(value_dtype)

    def __repr__(self):
        return "\n".join(_summary_lines(self))

    def _headline(self):
        n = len(self)
        return f"{n:,} most confused label pair{'s' if n != 1 else ''}, largest first"

    def _cells(self, record):
        true, predicted = shorten(record.true), shorten(record.predicted)
        return [true, predicted, format_number(record[-1])]

    def to_frame(self):
        """The list as a pandas DataFrame, one row per tuple.

        Returns
        -------
        frame : pandas.DataFrame of shape (len(self), 3)
            Columns named after the tuple's fields (``true``, ``predicted``
            and ``value``, or ``count``), in the list's order; the values
            as an int64 or float64 column.

        Raises
        ------
        ImportError
            Without pandas, saying how to install it.
        """
        return _to_frame(
            self, self._record, self._value_dtype, f"{type(self).__name__}.to_frame()"
        )


class LabelSetConfusionList(ConfusionList):
    """The list :func:`labelset_confusions` returns: a list of
    :class:`LabelSetConfusion`, printed as a short table, with
    :meth:`to_frame`."""

    _record = LabelSetConfusion
    _what = "labelset_confusions"

    def _headline(self):
        n = len(self)
        return (
            f"{n:,} most frequent (true set, predicted set) pair"
            f"{'s' if n != 1 else ''}, largest count first"
        )

    def _cells(self, record):
        true, predicted = _set_cell(record.true), _set_cell(record.predicted)
        return [true, predicted, format_number(record[-1])]


# --------------------------------------------------------------------------
# Public functions: validate, compute, package.
# --------------------------------------------------------------------------


@validate_params(
    {
        "cm": ["array-like", "sparse matrix"],
        "top_k": [Interval(Integral, 1, None)],
        "target_names": [Sequence(), None],
        "ntl_label": [str],
        "npl_label": [str],
        "include_no_label": ["boolean"],
        "as_frame": ["boolean"],
    }
)
def most_confused(
    cm,
    *,
    top_k=10,
    target_names=None,
    ntl_label="NTL",
    npl_label="NPL",
    include_no_label=False,
    as_frame=False,
):
    """List the largest off-diagonal cells of a multi-label confusion matrix.

    The ``top_k`` confusions a classifier makes most, read off the 2-D
    multi-label confusion matrix (MLCM): each is a true label, the label
    predicted in its place and the cell's value, largest first. Any square
    matrix will do: counts, Krstinić's fractions or a normalised matrix, as a
    NumPy array or as a scipy sparse matrix (for very many labels, read
    without densifying), such as the ``confusion_matrix`` of an
    :class:`MLCMAccumulator`.

    Read more in the :ref:`User Guide <mlcm>`.

    Parameters
    ----------
    cm : {array-like, sparse matrix} of shape (n_labels + 1, n_labels + 1)
        A matrix from :func:`mlcm_confusion_matrix`: rows are true labels,
        columns predicted labels, and the last row and column the "no label"
        index (NTL row, NPL column). Finite, non-negative numbers. Under
        ``array_api_dispatch``, a matrix of any Array API namespace, copied
        to the host to be read (:ref:`array_api`).

    top_k : int, default=10
        How many cells to list, at most. Fewer are listed when the matrix has
        fewer non-zero off-diagonal cells.

    target_names : array-like of shape (n_labels,), default=None
        Names of the labels, unique, as str. By default the cells are named by
        the label indices, as Python ints.

    ntl_label : str, default="NTL"
        Name of the last row: no true label (wrong labels predicted for an
        instance without true labels).

    npl_label : str, default="NPL"
        Name of the last column: no predicted label (true labels missed with
        nothing wrong predicted in their place).

    include_no_label : bool, default=False
        List the cells of the last row and column too: true labels missed with
        nothing predicted in their place (NPL) and labels predicted for
        instances with no true label (NTL). By default the list keeps to
        confusions between two labels, which the report's recall and precision
        do not show.

    as_frame : bool, default=False
        Return a pandas DataFrame with columns ``true``, ``predicted`` and
        ``value``, one row per cell, instead of a list (pandas is needed).

    Returns
    -------
    confusions : list of Confusion, or DataFrame
        Up to ``top_k`` named tuples ``Confusion(true, predicted, value)``, largest
        value first; ``value`` is a Python int for an integer matrix and a
        float otherwise. The list prints as a table of at most 30 rows and
        has ``to_frame()``, the DataFrame that ``as_frame=True`` returns
        instead.

    See Also
    --------
    mlcm_confusion_matrix : The matrix read here.
    labelset_confusions : The most frequent confusions of whole label sets,
        read from the targets instead of the matrix.
    sklearn.metrics.confusion_matrix : The multi-class matrix, which can be
        read in the same way; scikit-learn issue #15696 asks for the most
        confused pairs of it, which fastai's
        ``ClassificationInterpretation.most_confused`` lists for a
        multi-class model. This function does the same for the MLCM, with the
        no-label row and column.

    Notes
    -----
    The diagonal (correct labels, and the NTL/NPL corner of instances with no
    true and no predicted label) and the zero cells are never listed. Cells of
    equal value are listed in row-major order: by true label, then by
    predicted label, the no-label index last. A missed label that nothing
    replaced is in the NPL column; a label predicted for an instance with no
    true label is in the NTL row (Heydarian et al., Algorithms 3 and 4).

    The selection is linear in the number of cells: one ``np.partition``
    of the off-diagonal values finds the k-th largest, then only the k chosen
    cells are sorted. A sparse matrix is read through its stored entries
    only, never densified.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
       doi:10.1109/ACCESS.2022.3151048

    Examples
    --------
    The MLCM of Heydarian et al., Table 1 is Table 4 (j): C0 went to C2 four
    times, C1 to C2 three times and C0 to C1 twice:

    >>> from sklearn_mlcm import most_confused
    >>> cm = [[5, 2, 4, 0],
    ...       [0, 2, 3, 1],
    ...       [0, 0, 1, 0],
    ...       [0, 1, 1, 1]]
    >>> names = ["C0", "C1", "C2"]
    >>> for confusion in most_confused(cm, target_names=names,
    ...                                include_no_label=True):
    ...     print(confusion)
    Confusion(true='C0', predicted='C2', value=4)
    Confusion(true='C1', predicted='C2', value=3)
    Confusion(true='C0', predicted='C1', value=2)
    Confusion(true='C1', predicted='NPL', value=1)
    Confusion(true='NTL', predicted='C1', value=1)
    Confusion(true='NTL', predicted='C2', value=1)

    Between labels only (the default), by index, the two largest; the list
    prints as a table (``to_frame()`` gives it as a DataFrame):

    >>> top = most_confused(cm, top_k=2)
    >>> top
    2 most confused label pairs, largest first
    true  predicted  value
    0             2      4
    1             2      3
    >>> top == [(0, 2, 4), (1, 2, 3)]
    True
    """
    cm = check_square_matrix(cm)
    n_labels = cm.shape[0] - 1
    names = None
    if target_names is not None:
        names = check_target_names(
            target_names,
            n_labels,
            no_label=(ntl_label, npl_label) if include_no_label else (),
            renamable=True,
        )

    confusions = top_confusions(
        cm,
        int(top_k),
        names,
        ntl_label=ntl_label,
        npl_label=npl_label,
        include_no_label=bool(include_no_label),
    )
    if as_frame:
        what = "most_confused(as_frame=True)"
        return _to_frame(confusions, Confusion, confusions._value_dtype, what)
    return confusions


@validate_params(
    {
        "cm": ["array-like", "sparse matrix"],
        "top_k": [Interval(Integral, 1, None), Options("auto"), None],
        "order": [Options("original", "cluster")],
    }
)
def most_confused_labels(cm, *, top_k=None, order="original"):
    """Pick and order the labels of a multi-label confusion matrix to draw.

    The ``top_k`` labels most involved in confusion with other labels, in
    their order or with the labels confused with each other side by side:
    the selection :class:`MLCMDisplay`'s ``from_predictions`` and
    ``from_estimator`` make with ``top_k`` and ``order``, for a matrix of
    many labels (a picture of 1,000 labels cannot be read whole). With a
    matrix at hand, draw the block it picks::

        shown = most_confused_labels(cm, top_k=20, order="cluster")
        index = [*shown, len(cm) - 1]  # and the NTL row and NPL column
        MLCMDisplay(cm[np.ix_(index, index)],
                    display_labels=[names[i] for i in shown]).plot()

    Read more in the :ref:`User Guide <large_matrices>`.

    Parameters
    ----------
    cm : {array-like, sparse matrix} of shape (n_labels + 1, n_labels + 1)
        A matrix from :func:`mlcm_confusion_matrix` (counts, fractions or
        normalised): rows are true labels, columns predicted labels, the last
        row and column the no-label index. A sparse matrix is read through
        its row sums, column sums and diagonal; only the block of the picked
        labels is made dense, to cluster them. Under ``array_api_dispatch``,
        a matrix of any Array API namespace, copied to the host to be read.

    top_k : int, "auto" or None, default=None
        How many labels to pick: those of largest off-diagonal mass
        ``C[i, :].sum() + C[:, i].sum() - 2 * C[i, i]`` over the labels'
        block ``C`` (the NTL row and NPL column do not count: a label that is
        only missed is not confused with another). Ties go to the earlier
        label. None, or at least the number of labels, picks every label.
        "auto" (the default of :class:`MLCMDisplay`'s constructors) picks
        every label up to 40 labels, and the 40 of largest mass above.

    order : {"original", "cluster"}, default="original"
        "original": the picked labels in the matrix's order. "cluster": labels
        confused with each other side by side, in the leaf order of scipy's
        average-linkage clustering (:func:`scipy.cluster.hierarchy.linkage`,
        optimally ordered up to 500 labels) at the distance
        ``1 - S[i, j] / sqrt(S[i].sum() * S[j].sum())``, where ``S = C +
        C.T`` is the picked labels' symmetrised off-diagonal confusion; labels
        confused with none of the other picked labels come last, in their
        order. At most 5,000 labels are clustered.

    Returns
    -------
    labels : ndarray of shape (n_picked,), dtype=int64
        Indices of the picked labels (rows of ``cm``), in drawing order.
        Under ``array_api_dispatch``, for a matrix of another namespace
        (copied to the host to be read): an int64 array of that namespace,
        on the matrix's device (:ref:`array_api`).

    See Also
    --------
    MLCMDisplay.from_predictions : Draws the picked labels (``top_k``,
        ``order``) and says which in the axes title.
    most_confused : The largest off-diagonal cells themselves.

    Examples
    --------
    Heydarian et al. (2022), Table 4 (j): the masses of C0, C1 and C2 are 6, 5
    and 7; C0 and C1 are both confused with C2, C1 with C2 the most.

    >>> from sklearn_mlcm import most_confused_labels
    >>> cm = [[5, 2, 4, 0],
    ...       [0, 2, 3, 1],
    ...       [0, 0, 1, 0],
    ...       [0, 1, 1, 1]]
    >>> most_confused_labels(cm, top_k=2)
    array([0, 2])
    >>> most_confused_labels(cm, order="cluster")
    array([1, 2, 0])

    "auto" keeps every one of these 3 labels (it drops labels above 40):

    >>> most_confused_labels(cm, top_k="auto")
    array([0, 1, 2])
    """
    namespace = matrix_namespace(cm, "cm")
    cm = check_square_matrix(cm)
    shown = _picked_labels(cm, top_k, order)
    if namespace is not None:  # back to the matrix's namespace and device
        return to_namespace(shown, *namespace)
    return shown


def _picked_labels(cm, top_k, order):
    """:func:`most_confused_labels` of a validated (host) matrix."""
    n_labels = cm.shape[0] - 1
    shown = _top_labels(cm, top_k)
    if order == "original":
        return shown
    if len(shown) > MAX_CLUSTER_LABELS:
        raise InvalidInputError(
            f"The 'order' parameter of {current_function()} must be 'original' "
            f"for more than {MAX_CLUSTER_LABELS:,} labels: their distances "
            f"would take {len(shown) ** 2 * 8 // 2**20:,} MB. Got "
            f"'cluster' for {len(shown):,} labels. Pick fewer with "
            "top_k=... (the labels most involved in confusion)."
        )
    if len(shown) == n_labels:
        block = cm[:n_labels, :n_labels]
    else:
        block = cm[shown][:, shown]
    block = block.toarray() if sparse.issparse(block) else np.asarray(block)
    return shown[_cluster_order(block)]


@validate_params(
    {
        "y_true": TARGET_CONSTRAINTS["y_true"],
        "y_pred": TARGET_CONSTRAINTS["y_pred"],
        "top_k": [Interval(Integral, 1, None)],
        "sample_weight": TARGET_CONSTRAINTS["sample_weight"],
        "target_names": [Sequence(), None],
        "as_frame": ["boolean"],
    }
)
def labelset_confusions(
    y_true,
    y_pred,
    *,
    top_k=10,
    sample_weight=None,
    target_names=None,
    as_frame=False,
):
    """List the most frequent (true label set, predicted label set) pairs.

    Over the instances whose predicted label set differs from their true
    label set, count each pair of sets and list the ``top_k`` most frequent,
    largest count first. Where :func:`most_confused` says which *label* went to which,
    this says which whole *sets* were mixed up: that ``{C0, C1}`` is often
    predicted as ``{C2}``, say, or ``{C0}`` as ``{C0, C1, C2}``.

    Read more in the :ref:`User Guide <mlcm>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels (each instance then
        has a set of one label, the index of its class in sorted order).
        Under ``sklearn.config_context(array_api_dispatch=True)``, 2-D
        indicators of any Array API namespace: the pairs are counted in it,
        on the device of ``y_pred``, and only the top pairs (and those tied
        with the last) come back to the host (:ref:`array_api`).

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    top_k : int, default=10
        How many pairs to list, at most. Fewer are listed when fewer distinct
        pairs occur.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights: a pair's count is the sum of the weights
        of its instances. Pairs of total weight zero are not listed.

    target_names : array-like of shape (n_labels,), default=None
        Names of the labels, unique, as str: the sets are then tuples of
        names. By default tuples of label indices (Python ints).

    as_frame : bool, default=False
        Return a pandas DataFrame with columns ``true``, ``predicted`` and
        ``count``, one row per pair, instead of a list (pandas is needed).

    Returns
    -------
    confusions : list of LabelSetConfusion, or DataFrame
        Up to ``top_k`` named tuples ``LabelSetConfusion(true, predicted, count)``,
        largest count first. ``true`` and ``predicted`` are tuples of labels
        in ascending index order, ``()`` for an empty set; ``count`` is a
        Python int, or a float with ``sample_weight``. The list prints as a
        table of at most 30 rows (sets as ``{0, 2}``) and has ``to_frame()``,
        the DataFrame that ``as_frame=True`` returns instead.

    See Also
    --------
    most_confused : The largest off-diagonal cells of the MLCM, label by label.
    mlcm_confusion_matrix : The 2-D multi-label confusion matrix.
    sklearn.metrics.confusion_matrix : For 1-D class labels, the pairs listed
        here are its largest off-diagonal cells (sets of one class); this is
        the "most confused" list asked for in scikit-learn issue #15696 and
        given by fastai's ``ClassificationInterpretation.most_confused``,
        taken to whole label sets.

    Notes
    -----
    Instances whose two sets are equal (correct predictions, and instances
    with no true and no predicted label) are not counted. Pairs of equal count
    are listed in the order of ``(true, predicted)`` as tuples of label
    indices, Python's order of tuples: by the true set first, a set before
    the longer sets that start with it (``()`` before ``(0,)`` before
    ``(0, 1)`` before ``(1,)``). With ``target_names`` the order is still
    that of the indices. Weighted counts are float sums; two of them are tied
    only when exactly equal.

    The counting is vectorised, in time O(n_samples * n_labels) for dense
    input and O(nnz) for sparse input, plus one sort of the instances: each
    row is packed into 64-bit words (``np.packbits``) or read from its CSR
    indices, rows are grouped by a 64-bit key (the packed pair itself for up
    to 32 labels, a hash otherwise), every group is checked exactly against
    one of its members, and an exact sort of the rows takes over should two
    different pairs ever share a key. Array API targets on an accelerator
    are packed into int64 words of 62 labels, exact keys, and sorted on
    their device; their weighted counts are summed run by run (a segmented
    scan), so they agree with NumPy's to rounding, exactly for whole-number
    weights.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
       doi:10.1109/ACCESS.2022.3151048

    Examples
    --------
    In Heydarian et al., Table 1, seven of the nine instances are wrong, each
    with its own pair of sets (instances 1 and 3 are right):

    >>> from sklearn_mlcm import labelset_confusions
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> for confusion in labelset_confusions(y_true, y_pred):
    ...     print(confusion)
    LabelSetConfusion(true=(), predicted=(1, 2), count=1)
    LabelSetConfusion(true=(0,), predicted=(0, 1, 2), count=1)
    LabelSetConfusion(true=(0,), predicted=(1, 2), count=1)
    LabelSetConfusion(true=(0, 1), predicted=(0, 1, 2), count=1)
    LabelSetConfusion(true=(0, 1), predicted=(0, 2), count=1)
    LabelSetConfusion(true=(0, 1), predicted=(2,), count=1)
    LabelSetConfusion(true=(0, 1, 2), predicted=(0, 2), count=1)

    With weights (instance 5 counted three times, instance 2 twice) and names:

    >>> weight = [1, 2, 1, 1, 3, 1, 1, 1, 1]
    >>> for confusion in labelset_confusions(
    ...     y_true, y_pred, top_k=3, sample_weight=weight,
    ...     target_names=["C0", "C1", "C2"]):
    ...     print(confusion)
    LabelSetConfusion(true=('C0', 'C1'), predicted=('C0', 'C1', 'C2'), count=3.0)
    LabelSetConfusion(true=('C0', 'C1', 'C2'), predicted=('C0', 'C2'), count=2.0)
    LabelSetConfusion(true=(), predicted=('C1', 'C2'), count=1.0)
    """
    targets = validate_targets(
        y_true, y_pred, sample_weight=sample_weight, matrix_sums=False, chunked=False
    )
    names = None
    if target_names is not None:
        names = check_target_names(target_names, targets.n_labels)

    confusions = top_labelset_confusions(targets, int(top_k), names)
    if as_frame:
        what = "labelset_confusions(as_frame=True)"
        return _to_frame(confusions, LabelSetConfusion, confusions._value_dtype, what)
    return confusions


# --------------------------------------------------------------------------
# The computations on validated input (also MLCMReport's).
# --------------------------------------------------------------------------


def top_confusions(cm, top_k, names, *, ntl_label, npl_label, include_no_label):
    """The ``top_k`` largest off-diagonal cells of a validated matrix (ndarray
    or CSR) as :class:`Confusion` tuples, named by ``names`` (checked str
    names, or None for the indices): :func:`most_confused` without the
    checks."""
    n_labels = cm.shape[0] - 1
    rows, columns, values = _largest_off_diagonal(cm, top_k, include_no_label)
    row_names = _index_names(names, n_labels, ntl_label)
    column_names = _index_names(names, n_labels, npl_label)
    return ConfusionList(
        (
            Confusion(row_names(i), column_names(j), value)
            for i, j, value in zip(rows.tolist(), columns.tolist(), values.tolist())
        ),
        value_dtype=values.dtype,
    )


def top_labelset_confusions(targets, top_k, names):
    """The ``top_k`` most frequent pairs of unequal label sets of validated
    targets (:func:`~sklearn_mlcm._validation._targets.validate_targets`'
    :class:`~sklearn_mlcm._validation._targets.Targets`) as
    :class:`LabelSetConfusion` tuples, named by ``names`` (checked, or None
    for the indices): :func:`labelset_confusions` without the checks. Array
    API targets on an accelerator are counted on their device
    (:func:`~._array_api.device_labelset_pairs`)."""
    weight = targets.weight
    if targets.kind == "array_api":
        pairs = device_labelset_pairs(targets.device, top_k)
    else:
        space = targets.space
        pairs = _top_labelset_pairs(space.y_true, space.y_pred, weight, top_k)
    if names is not None:
        pairs = [
            (tuple(names[j] for j in true), tuple(names[j] for j in pred), count)
            for true, pred, count in pairs
        ]
    dtype = np.dtype(np.int64 if weight is None else np.float64)
    return LabelSetConfusionList(
        (LabelSetConfusion(*pair) for pair in pairs), value_dtype=dtype
    )


# --------------------------------------------------------------------------
# Packaging helpers.
# --------------------------------------------------------------------------


def _confusion_mass(cm):
    """How much each label is confused with other labels, in either direction:
    the sum of its row and of its column of the labels' block, less twice its
    diagonal cell (the NTL row and NPL column do not count).

    Read from row sums, column sums and the diagonal: a sparse matrix is not
    made dense.
    """
    n_labels = cm.shape[0] - 1
    labels = cm[:n_labels, :n_labels]  # a view, or a CSR copy of its entries
    rows = np.asarray(labels.sum(axis=1), dtype=np.float64).ravel()
    cols = np.asarray(labels.sum(axis=0), dtype=np.float64).ravel()
    diagonal = np.asarray(labels.diagonal(), dtype=np.float64)
    return rows + cols - 2 * diagonal


def resolve_top_k(top_k, n_labels):
    """``top_k`` as an int or None: "auto" is ``AUTO_TOP_K`` above that many
    labels and None (every label) up to it."""
    if isinstance(top_k, str):  # "auto", the one string validated
        return AUTO_TOP_K if n_labels > AUTO_TOP_K else None
    return top_k


def _top_labels(cm, top_k):
    """Indices of the ``top_k`` labels of largest confusion mass, in label
    order (ties go to the lower index); every label when ``top_k`` is None or
    at least the number of labels ("auto": see ``resolve_top_k``)."""
    n_labels = cm.shape[0] - 1
    top_k = resolve_top_k(top_k, n_labels)
    if top_k is None or top_k >= n_labels:
        return np.arange(n_labels, dtype=np.int64)
    most = np.argsort(-_confusion_mass(cm), kind="stable")[:top_k]
    return np.sort(most).astype(np.int64)


def _cluster_order(block):
    """Leaf order of the average-linkage clustering of the labels of a
    ``(k, k)`` block, so that labels confused with each other sit together.

    The similarity of two labels is their symmetrised confusion
    ``S[i, j] = C[i, j] + C[j, i]`` (diagonal left out) over the geometric
    mean of their confusion totals, ``S[i, j] / sqrt(S[i].sum() * S[j].sum())``,
    in [0, 1] (1: two labels confused only with each other, whatever their
    sizes); the distance is one minus it. Leaves are optimally ordered
    (scipy's ``optimal_ordering``) up to ``_MAX_OPTIMAL_ORDERING`` labels.
    Labels confused with none of the others come last, in their order.
    """
    symmetric = np.add(block, block.T, dtype=np.float64)
    np.fill_diagonal(symmetric, 0.0)
    total = symmetric.sum(axis=1)
    confused = np.flatnonzero(total > 0)
    alone = np.flatnonzero(total == 0)
    if len(confused) <= 2:
        return np.concatenate([confused, alone])
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import squareform

    distance = symmetric[np.ix_(confused, confused)] if len(alone) else symmetric
    del symmetric
    scale = np.sqrt(total[confused])
    distance /= scale[:, None]
    distance /= scale[None, :]
    np.subtract(1.0, distance, out=distance)
    np.clip(distance, 0.0, 1.0, out=distance)  # rounding
    np.fill_diagonal(distance, 0.0)
    tree = linkage(
        squareform(distance, checks=False),
        method="average",
        optimal_ordering=len(confused) <= _MAX_OPTIMAL_ORDERING,
    )
    return np.concatenate([confused[leaves_list(tree)], alone])


def _index_names(names, n_labels, no_label):
    """Index -> its name: ``names[i]`` (or ``i`` itself), ``no_label`` for q."""

    def name(i):
        if i == n_labels:
            return no_label
        return i if names is None else names[i]

    return name


def _to_frame(records, record_type, value_dtype, what):
    """A pandas DataFrame of named tuples, one column per field; ``what``
    names the call in the ImportError without pandas."""
    pandas = require_pandas(what)
    *label_fields, value_field = record_type._fields
    columns = {}
    for position, field in enumerate(label_fields):
        column = np.empty(len(records), dtype=object)  # ints, names or tuples
        column[:] = [record[position] for record in records]
        columns[field] = column
    columns[value_field] = np.array(
        [record[-1] for record in records], dtype=value_dtype
    )
    return pandas.DataFrame(columns)


def _set_cell(labels):
    """A label set as ``{a, b}`` (``{}`` when empty), each name on one line
    (:func:`shorten`), cut to MAX_CELL."""
    text = "{" + ", ".join(shorten(label, MAX_CELL) for label in labels) + "}"
    if len(text) <= MAX_CELL:
        return text
    return text[: MAX_CELL - 2] + "\N{HORIZONTAL ELLIPSIS}}"


def _summary_lines(confusions):
    """The printed table of a confusion list: a headline, then at most
    SUMMARY_ROWS rows and how many more there are."""
    fields = list(confusions._record._fields)
    rows = [confusions._cells(record) for record in confusions[:SUMMARY_ROWS]]
    # the label columns read as text even when the labels are indices
    table = label_table(
        fields, rows, range(len(rows)), len(confusions), noun="pair", align="<<>"
    )
    return [confusions._headline(), *table]


# --------------------------------------------------------------------------
# most_confused: the k largest off-diagonal cells.
# --------------------------------------------------------------------------


def _largest_off_diagonal(cm, k, include_no_label):
    """Rows, columns and values of the k largest positive off-diagonal cells
    of a validated matrix (ndarray or CSR), largest first, ties row-major."""
    size = cm.shape[0] if include_no_label else cm.shape[0] - 1
    empty = np.zeros(0, dtype=np.int64)
    if size == 0:
        return empty, empty, np.zeros(0, dtype=cm.dtype)
    if sparse.issparse(cm):
        coo = sparse.coo_array(cm)
        rows = coo.row.astype(np.int64)
        columns = coo.col.astype(np.int64)
        values = coo.data
        kept = (rows != columns) & (values > 0)
        if not include_no_label:
            kept &= (rows < size) & (columns < size)
        rows, columns, values = rows[kept], columns[kept], values[kept]
        order = _largest(values, k, keys=rows * size + columns)
        return rows[order], columns[order], values[order]
    flat = cm[:size, :size].flatten()  # a C-ordered copy: position = row-major
    flat[:: size + 1] = 0  # the diagonal is never a confusion
    order = _largest(flat, k)
    rows, columns = np.divmod(order, size)
    return rows, columns, flat[order]


def _largest(values, k, keys=None):
    """Positions of the k largest positive ``values``, largest first; equal
    values in the order of ``keys`` (by default of their positions).

    One ``np.partition`` finds the k-th largest value, the threshold; every
    value above it is in, and the ties at the threshold are taken in key
    order until k are chosen; then only the chosen ones are sorted.
    """
    n = values.size
    threshold = np.partition(values, n - k)[n - k] if n > k else 0
    if threshold > 0:
        chosen = np.flatnonzero(values > threshold)
        tied = np.flatnonzero(values == threshold)
        if keys is not None:
            tied = tied[np.argsort(keys[tied], kind="stable")]
        chosen = np.concatenate([chosen, tied[: k - chosen.size]])
    else:  # fewer than k positive values: all of them
        chosen = np.flatnonzero(values > 0)
    order_keys = chosen if keys is None else keys[chosen]
    return chosen[np.lexsort((order_keys, -values[chosen]))]


# --------------------------------------------------------------------------
# labelset_confusions: row sets as packed words or CSR indices.
# --------------------------------------------------------------------------

_U64 = np.uint64
_SEED = _U64(0x9E3779B97F4A7C15)


def _mix(x):
    """splitmix64's finaliser, elementwise: a bijection of the uint64 values
    that spreads every input bit over the output (a hash, not a cipher)."""
    x = np.array(x, dtype=_U64)  # a copy, worked on in place
    x ^= x >> _U64(30)
    x *= _U64(0xBF58476D1CE4E5B9)
    x ^= x >> _U64(27)
    x *= _U64(0x94D049BB133111EB)
    x ^= x >> _U64(31)
    return x


class _DenseSets:
    """The label sets of the rows of a dense bool matrix, as bit words.

    ``columns[j]`` holds word j of every row, uint64: label l is bit
    ``l % 64`` of word ``l // 64``. One 1-D array per word keeps the row
    gathers and comparisons simple. The methods mirror :class:`_SparseSets`.
    """

    def __init__(self, columns, n_labels):
        self.columns = columns
        self.n_labels = n_labels

    @classmethod
    def from_indicators(cls, y):
        n_rows, n_labels = y.shape
        packed = np.packbits(y, axis=1, bitorder="little")
        width = 8 * -(-n_labels // 64)
        if packed.shape[1] != width:
            padded = np.zeros((n_rows, width), dtype=np.uint8)
            padded[:, : packed.shape[1]] = packed
            packed = padded
        words = packed.view("<u8").astype(_U64, copy=False)
        columns = tuple(words[:, j] for j in range(words.shape[1]))  # views
        return cls(columns, n_labels)

    def code(self, rows):
        """The exact uint64 code of each row (one word: at most 64 labels)."""
        return self.columns[0][rows]

    def hashes(self, rows):
        """A uint64 key per row; different sets rarely share one (none at all
        for one word, as :func:`_mix` is a bijection)."""
        key = _mix(self.columns[0][rows] ^ _SEED)
        for column in self.columns[1:]:
            key = _mix(key ^ column[rows])
        return key

    def differ(self, other):
        """Whether the set of each row differs from that of the same row of
        ``other``, exactly."""
        out = self.columns[0] != other.columns[0]
        for mine, theirs in zip(self.columns[1:], other.columns[1:]):
            out |= mine != theirs
        return out

    def all_equal(self, rows, other_rows):
        """Whether the set of ``rows[i]`` is that of ``other_rows[i]``, for all i."""
        return all(
            np.array_equal(column[rows], column[other_rows]) for column in self.columns
        )

    def sort_keys(self, rows):
        """Columns whose joint values identify a set exactly."""
        return [column[rows] for column in self.columns]

    def next_labels(self, rows, position, after):
        """The smallest label above ``after`` of each row, or -1 (the rows
        share their labels up to ``after``, ``position`` of them)."""
        out = np.full(rows.size, -1, dtype=np.int64)
        start = after + 1
        pending = np.ones(rows.size, dtype=bool)
        for j in range(start // 64, len(self.columns)):
            word = self.columns[j][rows]
            if j == start // 64:
                word &= ~_U64((1 << (start % 64)) - 1)  # the labels up to after
            hit = pending & (word != 0)
            word = word[hit]
            lowest = word & (~word + _U64(1))  # the lowest set bit alone
            # exact: a power of two is a float64; frexp(2**b) = (0.5, b + 1)
            out[hit] = 64 * j + np.frexp(lowest.astype(np.float64))[1] - 1
            pending &= ~hit
            if not pending.any():
                break
        return out

    def labels(self, row):
        """The set of one row, as a tuple of ascending Python ints."""
        words = np.array([column[row] for column in self.columns], dtype="<u8")
        bits = np.unpackbits(words.view(np.uint8), bitorder="little")
        return tuple(np.flatnonzero(bits[: self.n_labels]).tolist())


class _SparseSets:
    """The label sets of the rows of a CSR matrix: its sorted indices."""

    def __init__(self, matrix):
        if not matrix.has_sorted_indices:
            matrix = matrix.sorted_indices()
        self.matrix = matrix
        self.indptr = matrix.indptr.astype(np.int64, copy=False)
        self.indices = matrix.indices
        self.n_labels = matrix.shape[1]
        self.lengths = np.diff(self.indptr)

    def hashes(self, rows):
        """A uint64 key per row: the wrapping sum of a hash of each label,
        mixed with the row's length; different sets rarely share one."""
        if self.n_labels <= self.indices.size:  # one hash per label, looked up
            table = _mix(np.arange(self.n_labels, dtype=_U64) ^ _SEED)
            label_keys = table[self.indices]
        else:
            label_keys = _mix(self.indices.astype(_U64) ^ _SEED)
        sums = np.zeros(self.indices.size + 1, dtype=_U64)
        np.cumsum(label_keys, dtype=_U64, out=sums[1:])
        per_row = sums[self.indptr[1:]] - sums[self.indptr[:-1]]
        return _mix(per_row[rows] + self.lengths[rows].astype(_U64))

    def differ(self, other):
        """Whether the set of each row differs from that of the same row of
        ``other``, exactly: by length, else label by label."""
        same_length = self.lengths == other.lengths
        out = ~same_length
        # the labels of the rows of equal length, in the same order on both sides
        mine = self.indices[np.repeat(same_length, self.lengths)]
        theirs = other.indices[np.repeat(same_length, other.lengths)]
        mismatch = np.flatnonzero(mine != theirs)
        if mismatch.size:
            kept = np.flatnonzero(same_length)
            owner = np.repeat(kept, self.lengths[kept])
            out[owner[mismatch]] = True
        return out

    def all_equal(self, rows, other_rows):
        """Whether the set of ``rows[i]`` is that of ``other_rows[i]``, for all i."""
        mine, theirs = self.matrix[rows], self.matrix[other_rows]
        return np.array_equal(mine.indptr, theirs.indptr) and np.array_equal(
            mine.indices, theirs.indices
        )

    def sort_keys(self, rows):
        """Columns whose joint values identify a set exactly: the labels of
        each row, padded with -1."""
        lengths = self.lengths[rows]
        width = int(lengths.max()) if rows.size else 0
        padded = np.full((rows.size, width), -1, dtype=np.int64)
        owner = np.repeat(np.arange(rows.size), lengths)
        within = np.arange(owner.size) - np.repeat(
            np.cumsum(lengths) - lengths, lengths
        )
        padded[owner, within] = self.indices[
            np.repeat(self.indptr[rows], lengths) + within
        ]
        return [*padded.T, lengths]

    def next_labels(self, rows, position, after):
        """The label at ``position`` of each row, or -1 (the rows share their
        labels up to ``after``, the label at ``position - 1``)."""
        found = self.lengths[rows] > position
        out = np.full(rows.size, -1, dtype=np.int64)
        out[found] = self.indices[self.indptr[rows[found]] + position]
        return out

    def labels(self, row):
        """The set of one row, as a tuple of ascending Python ints."""
        return tuple(self.indices[self.indptr[row] : self.indptr[row + 1]].tolist())


def _label_sets(y):
    """Dense bool rows as packed words, CSR rows as their indices."""
    if sparse.issparse(y):
        return _SparseSets(y)
    return _DenseSets.from_indicators(y)


def _top_labelset_pairs(y_true, y_pred, weight, k):
    """The k most frequent (true set, predicted set) pairs of unequal sets,
    as ``(true tuple, predicted tuple, count)``, ordered for the output."""
    if sparse.issparse(y_true) or sparse.issparse(y_pred):  # one form for both
        y_true, y_pred = sparse.csr_array(y_true), sparse.csr_array(y_pred)
    true_sets, pred_sets = _label_sets(y_true), _label_sets(y_pred)
    rows = np.flatnonzero(true_sets.differ(pred_sets))
    if weight is not None:
        rows = rows[weight[rows] > 0]  # a pair of total weight 0 is not listed
    first, counts = _count_pairs(true_sets, pred_sets, rows, weight)
    groups = _top_groups(true_sets, pred_sets, first, counts, k)
    pairs = [
        (true_sets.labels(row), pred_sets.labels(row), count)
        for row, count in zip(first[groups].tolist(), counts[groups].tolist())
    ]
    pairs.sort(key=lambda pair: (-pair[2], pair[0], pair[1]))
    return pairs


def _count_pairs(true_sets, pred_sets, rows, weight):
    """The distinct (true, predicted) pairs among ``rows`` and their counts.

    Returns, for each pair, one instance that has it and the count
    (int64, or the float64 sum of ``weight``).
    """
    q = true_sets.n_labels
    exact = isinstance(true_sets, _DenseSets) and 2 * q <= 64
    if exact:  # both codes fit in one word: the key is the pair itself
        key = (true_sets.code(rows) << _U64(q)) | pred_sets.code(rows)
    else:
        key = _mix(_mix(true_sets.hashes(rows)) ^ pred_sets.hashes(rows))
    order = np.argsort(key)
    members = rows[order]
    starts = _group_starts([key[order]])
    if not (exact or _one_pair_per_group(true_sets, pred_sets, members, starts)):
        # two different pairs share a key: sort the rows exactly instead
        members, starts = _exact_groups(true_sets, pred_sets, rows)
    if weight is None:
        counts = np.diff(np.append(starts, members.size))
    elif members.size:
        counts = np.add.reduceat(weight[members], starts)
    else:
        counts = weight[:0]
    return members[starts], counts


def _one_pair_per_group(true_sets, pred_sets, members, starts):
    """Whether every group holds one pair: each member of a group of two or
    more equals the group's first member, exactly."""
    size = np.diff(np.append(starts, members.size))
    shared = np.repeat(size > 1, size)
    if not shared.any():
        return True
    first = np.repeat(members[starts], size)[shared]
    rows = members[shared]
    return true_sets.all_equal(rows, first) and pred_sets.all_equal(rows, first)


def _group_starts(sorted_columns):
    """Where a new group starts in rows sorted by the given key columns."""
    if sorted_columns[0].size == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.zeros(sorted_columns[0].size, dtype=bool)
    change[0] = True
    for column in sorted_columns:
        change[1:] |= column[1:] != column[:-1]
    return np.flatnonzero(change)


def _exact_groups(true_sets, pred_sets, rows):
    """``rows`` sorted so that equal pairs are adjacent, and group starts."""
    keys = true_sets.sort_keys(rows) + pred_sets.sort_keys(rows)
    order = np.lexsort(keys)
    return rows[order], _group_starts([key[order] for key in keys])


def _top_groups(true_sets, pred_sets, first, counts, k):
    """The k pairs of largest count, ties broken by the smallest
    ``(true, predicted)`` tuples (in no particular order); a pair's sets are
    those of its instance ``first[pair]``."""
    n_groups = counts.size
    if n_groups <= k:
        return np.arange(n_groups)
    threshold = np.partition(counts, n_groups - k)[n_groups - k]
    chosen = np.flatnonzero(counts > threshold)
    tied = np.flatnonzero(counts == threshold)
    tied = _lexicographic_first(true_sets, pred_sets, first, tied, k - chosen.size)
    return np.concatenate([chosen, tied])


def _lexicographic_first(true_sets, pred_sets, first, groups, need):
    """The ``need`` groups whose ``(true, predicted)`` tuples come first.

    Label by label, the true sets and then the predicted ones: at each step
    the groups still tied so far share their labels up to here; those whose
    next label (-1 once a set has ended: a prefix comes first) is below the
    need-th smallest are in, those equal to it stay tied, the rest are out.
    Each step is one ``np.partition``; the tied groups thin out fast.
    """
    selected = []
    alive = groups
    for sets in (true_sets, pred_sets):
        position, after = 0, -1
        while alive.size > need:
            following = sets.next_labels(first[alive], position, after)
            kth = np.partition(following, need - 1)[need - 1]
            below = following < kth
            selected.append(alive[below])
            need -= int(below.sum())
            alive = alive[following == kth]
            if kth < 0:  # every tied set ends here: on to the predicted sets
                break
            position, after = position + 1, int(kth)
    selected.append(alive[:need])  # distinct pairs: at most need are left
    return np.concatenate(selected)
