"""The public confusion-matrix functions: validate, compute, package."""

from ._mlcm._dask import is_dask_collection
from ._mlcm._dispatch import METHODS, as_output, compute
from ._mlcm._dispatch import normalize as normalize_matrix
from ._param_validation import Options, invalid_parameter, validate_params
from ._statistics import one_vs_rest
from ._validation._targets import validate_targets

__all__ = ["mlcm_confusion_matrix", "mlcm_multilabel_confusion_matrix"]

#: Constraints shared by every function that takes the two targets.
TARGET_CONSTRAINTS = {
    "y_true": ["array-like", "sparse matrix"],
    "y_pred": ["array-like", "sparse matrix"],
    "method": [Options(*METHODS)],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
}


def _check_lazy_output(arguments):
    """A lazy dask result is a dense dask array: it cannot be sparse."""
    lazy = not arguments["compute"] and any(
        is_dask_collection(arguments[name]) for name in ("y_true", "y_pred")
    )
    if lazy and arguments["sparse_output"]:
        raise invalid_parameter(
            "sparse_output",
            "False for a lazy (compute=False) dask result, which is a dense dask array",
            True,
        )


@validate_params(
    {
        **TARGET_CONSTRAINTS,
        "normalize": [Options("true", "pred", "all"), None],
        "sparse_output": ["boolean"],
        "compute": ["boolean"],
    },
    rules=(_check_lazy_output,),
)
def mlcm_confusion_matrix(
    y_true,
    y_pred,
    *,
    method="heydarian",
    labels=None,
    sample_weight=None,
    normalize=None,
    sparse_output=False,
    compute=True,
):
    """Compute the 2-D multi-label confusion matrix (MLCM).

    Rows are true labels and columns predicted labels, as in scikit-learn's
    :func:`~sklearn.metrics.confusion_matrix`, with one extra row and one extra
    column: the last row is "no true label" (NTL) and the last column "no
    predicted label" (NPL). Unlike the one-vs-rest
    :func:`~sklearn.metrics.multilabel_confusion_matrix`, it says *which*
    label a missed label was confused with.

    Read more in the :ref:`User Guide <mlcm>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth: a 0/1 label-indicator matrix (bool, integer or float dtype;
        lists, NumPy arrays, scipy sparse CSR/CSC or pandas DataFrames), or 1-D
        class labels, which are single-label instances. A 2-D array with one
        column is the indicator matrix of one label (scikit-learn would read
        it as 1-D class labels). Under
        ``sklearn.config_context(array_api_dispatch=True)``, 2-D indicators of
        any Array API namespace (torch, CuPy, array_api_strict): the matrix is
        then counted and returned in the namespace of ``y_pred``, on its
        device (:ref:`array_api`).

    y_pred : same kind and shape as ``y_true``
        Predicted labels, as returned by a classifier (thresholded, not scores).

    method : {"heydarian", "krstinic"}, default="heydarian"
        ``"heydarian"``: Heydarian et al. (2022), Algorithms 2-5; integer counts.
        ``"krstinic"``: Krstinić et al. (2020), Algorithm 1; fractional
        contributions whose row sums are the label supports.

    labels : array-like of shape (n_kept,), default=None
        The labels to keep, in that order: column indices (or DataFrame column
        names) for indicator input, class values for 1-D input. The matrix is
        computed on this restricted label space: an instance whose labels all
        lie outside it has an empty label set there and counts in the NTL row
        or the NPL column. By default every column (or every class seen in
        ``y_true`` or ``y_pred``) is used. Each label may be named once:
        repeats are refused (scikit-learn returns an empty row and column for
        them).

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    normalize : {"true", "pred", "all"}, default=None
        Normalise over the true labels (rows: Krstinić's recall matrix, the
        fractions of Heydarian's Table 8 (b)), the predicted labels (columns:
        the precision matrix) or the whole matrix. A zero row or column stays
        zero. None returns raw counts.

    sparse_output : bool, default=False
        Return a scipy sparse CSR array, for very many labels. Sparse input is
        computed without densifying either way; a dense result that would take
        more than 1 GiB raises a ValueError that suggests this option.

    compute : bool, default=True
        For dask arrays (chunked along the rows): False returns the lazy dask
        array of the result instead of computing it. Ignored for other input.

    Returns
    -------
    C : ndarray or scipy.sparse.csr_array of shape (n_labels + 1, n_labels + 1)
        ``C[i, j]`` counts true label ``i`` attributed to predicted label ``j``;
        index ``n_labels`` is NTL (row) and NPL (column). dtype int64 for
        ``method="heydarian"`` without weights or normalisation, float64
        otherwise. A dask array for dask input with ``compute=False``.

    See Also
    --------
    sklearn.metrics.confusion_matrix : The multi-class matrix. For 1-D targets
        this function returns it in the top-left block, with zeros elsewhere.
    sklearn.metrics.multilabel_confusion_matrix : One 2x2 matrix per label; it
        cannot say which label a missed label went to, and its FN and FP totals
        differ.
    mlcm_multilabel_confusion_matrix : The one-vs-rest matrices derived from
        this matrix, in which FN and FP totals agree.
    confusion_matrix_statistics : Per-class statistics of a square matrix.

    Notes
    -----
    With T the true set of an instance, P its predicted set, T2 = T - P and
    P2 = P - T, the Heydarian matrix adds, per instance: one to ``C[r, r]`` for
    r in T & P; one to ``C[NTL, NPL]`` when T and P are empty; one to
    ``C[r, NPL]`` for r in T2 when P2 is empty (category 1); one to ``C[r, c]``
    for r in T (or NTL when T is empty) and c in P2 when T2 is empty
    (category 2); one to ``C[r, c]`` for r in T2 and c in P2 otherwise
    (category 3). This follows the paper, not the authors' package ``mlcm``
    0.0.1, which adds spurious counts in category 3 when at least one label is
    correct and two or more are wrong.

    The Krstinić matrix adds fractions (Algorithm 1, eqs. 11-17) so that each
    true label contributes one unit in total. The paper assumes non-empty label
    sets; as in the authors' code, an empty set is an "unknown" label (the last
    row or column) on which the same rules apply. Without empty sets, the
    top-left block is the paper's matrix and the last row and column are zero.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
       doi:10.1109/ACCESS.2022.3151048
    .. [2] D. Krstinić, M. Braović, L. Šerić and D. Božić-Štulić, "Multi-label
       classifier performance evaluation with confusion matrix", CS & IT 10(8),
       2020. doi:10.5121/csit.2020.100801

    Examples
    --------
    The nine instances of Heydarian et al., Table 1, give Table 4 (j):

    >>> from sklearn_mlcm import mlcm_confusion_matrix
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> mlcm_confusion_matrix(y_true, y_pred)
    array([[5, 2, 4, 0],
           [0, 2, 3, 1],
           [0, 0, 1, 0],
           [0, 1, 1, 1]])

    The fractional matrix of the same data; row sums of the label rows are the
    label supports (7, 5 and 1):

    >>> mlcm_confusion_matrix(y_true, y_pred, method="krstinic").round(2)
    array([[4.  , 0.83, 2.17, 0.  ],
           [0.5 , 1.67, 2.83, 0.  ],
           [0.  , 0.  , 1.  , 0.  ],
           [0.  , 0.5 , 0.5 , 1.  ]])
    """
    computed = _compute_matrix(
        y_true,
        y_pred,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        lazy=not compute,
    )
    if computed.on_device is not None:  # Array API input: stays on its device
        if sparse_output:
            raise invalid_parameter(
                "sparse_output",
                "False for Array API input under array_api_dispatch (the matrix "
                "is returned in the input's namespace, which has no sparse "
                "matrices)",
                True,
            )
        if normalize is None:
            return computed.on_device
        return computed.device.back(normalize_matrix(computed.matrix, normalize))
    cm = as_output(computed.matrix, bool(sparse_output))
    if normalize is None:
        return cm
    return normalize_matrix(cm, normalize)


@validate_params({**TARGET_CONSTRAINTS, "tn": [Options("complement", "diagonal")]})
def mlcm_multilabel_confusion_matrix(
    y_true,
    y_pred,
    *,
    method="heydarian",
    labels=None,
    sample_weight=None,
    tn="complement",
):
    """Compute one-vs-rest 2x2 matrices derived from the MLCM.

    In the ``[[TN, FP], [FN, TP]]`` layout of scikit-learn's
    :func:`~sklearn.metrics.multilabel_confusion_matrix`, but read off the 2-D
    multi-label confusion matrix, so that the FN and FP totals agree: each
    missed label is a false positive of the label it went to. Two differences
    to mind when swapping it in: there is one more matrix than there are
    labels, for the "no label" index (NTL row / NPL column). With the last
    matrix dropped, 1-D multi-class input gives exactly scikit-learn's
    matrices; ``tn="diagonal"`` gives Heydarian's eq. 16 (Tables 7 and 9).

    Read more in the :ref:`User Guide <mlcm>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels; Array API arrays
        under ``array_api_dispatch``, as in :func:`mlcm_confusion_matrix`
        (the matrices are then returned in the namespace of ``y_pred``).

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to derive from; see :func:`mlcm_confusion_matrix`.

    labels : array-like of shape (n_kept,), default=None
        The labels to keep, in that order; see :func:`mlcm_confusion_matrix`.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    tn : {"complement", "diagonal"}, default="complement"
        ``"complement"``: the usual multi-class TN, every cell outside row k
        and column k (scikit-learn's). ``"diagonal"``: Heydarian's eq. 16, TN
        of label k is the trace minus ``C[k, k]`` (Tables 7 and 9); then the
        TN total is q times the TP total.

    Returns
    -------
    multi_confusion : ndarray of shape (n_labels + 1, 2, 2)
        One ``[[TN, FP], [FN, TP]]`` matrix per label, the last one for the
        "no label" index. int64 for ``method="heydarian"`` without weights,
        float64 otherwise.

    See Also
    --------
    sklearn.metrics.multilabel_confusion_matrix : Counts each label on its own
        (n_labels matrices, TN the complement); its FN and FP totals differ.
    mlcm_confusion_matrix : The 2-D matrix these are derived from.

    Notes
    -----
    With C the MLCM: ``TP_k = C[k, k]``, ``FP_k`` the column sum minus
    ``C[k, k]``, ``FN_k`` the row sum minus ``C[k, k]`` (eqs. 15, 17, 18).

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    Heydarian et al., Table 1 gives Table 7 (FN and FP both total 12) with
    the paper's TN:

    >>> from sklearn_mlcm import mlcm_multilabel_confusion_matrix
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> mcm = mlcm_multilabel_confusion_matrix(y_true, y_pred, tn="diagonal")
    >>> mcm[0]
    array([[4, 0],
           [6, 5]])
    >>> mcm.sum(axis=0)
    array([[27, 12],
           [12,  9]])
    """
    computed = _compute_matrix(
        y_true, y_pred, method=method, labels=labels, sample_weight=sample_weight
    )
    multi_confusion = one_vs_rest(computed.matrix, tn)
    if computed.device is not None:  # Array API input: back to its device
        return computed.device.back(multi_confusion)
    return multi_confusion


def _compute_matrix(y_true, y_pred, *, method, labels, sample_weight, lazy=False):
    """The :class:`~._mlcm._record.Computed` of validated parameters, whose
    ``matrix`` is dense, CSR or dask (``on_device`` for Array API input):
    the targets validated once, then the engine."""
    targets = validate_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight
    )
    return compute(targets, method=method, lazy=lazy)
