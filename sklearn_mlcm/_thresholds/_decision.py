"""Decision rules: scores -> the 0/1 predictions an MLCM counts.

A multi-label classifier gives scores (``predict_proba``,
``decision_function``, a network's sigmoids); :func:`decide_labels` turns
them into indicator predictions by a threshold (one, or one per label), the
top k labels of each instance, and the "at least one label" fallback. The
rules act on each instance alone, so they run in blocks of rows (bounded
memory), and sparse scores stay sparse.
"""

from numbers import Integral, Real

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import Interval, invalid_parameter, validate_params
from sklearn_mlcm._validation._array_api import matrix_namespace
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import input_error

from ._array_api import decide_device
from ._validation import DeviceScores, check_thresholds, validate_scores

__all__ = ["decide_dense", "decide_labels", "decide_sparse", "response_scores"]

#: Rows of dense scores handled at once: about 2**22 cells (tens of MB of
#: temporaries for the ranking of ``top_k``).
_BLOCK_CELLS = 1 << 22


def _check_rule(arguments):
    """``threshold=None`` leaves only ``top_k`` to decide: it must be given."""
    if arguments["threshold"] is None and arguments["top_k"] is None:
        raise invalid_parameter(
            "threshold",
            "a float, one per label, or a dict when top_k is None (None, no "
            "threshold, only with top_k)",
            None,
        )


@validate_params(
    {
        "y_score": ["array-like", "sparse matrix"],
        "threshold": [Interval(Real, None, None), "array-like", dict, None],
        "top_k": [Interval(Integral, 1, None), None],
        "at_least_one": ["boolean"],
        "labels": ["array-like", None],
    },
    rules=(_check_rule,),
)
def decide_labels(
    y_score, *, threshold=0.5, top_k=None, at_least_one=False, labels=None
):
    """Turn scores into 0/1 label predictions by a decision rule.

    The step between a classifier's scores and the predictions an MLCM
    counts, written as data: a threshold (one for every label, or one per
    label), the ``top_k`` best labels of each instance, and the "at least one
    label" fallback. A label is predicted when its score is **at least** the
    threshold (``score >= threshold``, as scikit-learn's
    :class:`~sklearn.model_selection.FixedThresholdClassifier`).

    Read more in the :ref:`User Guide <thresholds>`.

    Parameters
    ----------
    y_score : {array-like, sparse matrix, DataFrame} of shape \
            (n_samples, n_labels), or list of n_labels arrays of shape \
            (n_samples, 2)
        Scores of each label: ``predict_proba`` or ``decision_function`` of a
        multi-label classifier, a network's sigmoids; any finite real
        numbers (NaN and infinity are refused). A frame of any library the
        package reads (pandas, polars, pyarrow, xarray) names the labels by
        its columns. A scipy sparse matrix holds the scores that are not 0
        (an absent score is 0) and gives a sparse result. The list of
        (n_samples, 2) arrays of scikit-learn's ``MultiOutputClassifier``
        (and of multi-label forests and k-NN) is read as the second column of
        each, the probability of class 1; an array of one column (a label
        that had one class only in training) or of more than two is refused,
        as its positive column cannot be told. Under
        ``sklearn.config_context(array_api_dispatch=True)``, scores of any
        Array API namespace (torch, CuPy, array_api_strict; or a list of
        such probability arrays) are checked and decided in their namespace,
        on their device: only the verdicts of the checks come back to the
        host (:ref:`array_api`).

    threshold : float, array-like of shape (n_labels,), dict or None, \
            default=0.5
        A float: one threshold for every label. An array-like: one per label,
        in the order of the (kept) labels. A dict or pandas Series keyed by
        label name (frame column names, or column indices for arrays), aligned
        by name: it must name every scored label and no unknown one (names of
        columns that ``labels`` leaves out are ignored), and is refused for
        scored columns that repeat a name. None: no threshold, only with
        ``top_k`` (exactly the ``top_k`` best labels of every instance). With
        sparse ``y_score`` every threshold must be above 0: absent scores
        are 0.

    top_k : int, default=None
        Keep at most the ``top_k`` highest-scoring labels of those that pass
        the threshold (with ``threshold=None``: exactly ``top_k`` labels).
        Equal scores are broken by label order: the earlier label wins. At
        most the number of labels.

    at_least_one : bool, default=False
        Where no label passes, predict the label of the highest score (the
        earliest one on ties), so that no instance has an empty prediction.
        The raw scores are compared, also with one threshold per label.

    labels : array-like of shape (n_kept,), default=None
        The labels to decide, in that order: column indices, or column names
        of a frame. The result has one column per kept label.

    Returns
    -------
    y_pred : ndarray of shape (n_samples, n_labels), dtype=int64, or CSR array
        0/1 indicator predictions, integers as scikit-learn's multi-label
        ``predict`` gives. Sparse ``y_score`` gives a
        :class:`scipy.sparse.csr_array` of int64 ones, built without
        densifying. Under ``array_api_dispatch``, Array API scores give an
        int64 array of their namespace, on their device.

    See Also
    --------
    sklearn.model_selection.FixedThresholdClassifier : One threshold for a
        binary classifier (``>=``, as here); multi-label targets are refused.
    sklearn.multiclass.OneVsRestClassifier : Its multi-label ``predict``
        thresholds at 0.5 (``predict_proba``) or 0 (``decision_function``)
        with a strict ``>``: a score exactly at the threshold is not
        predicted there; pass ``np.nextafter(0.5, 1)`` to reproduce it.
    mlcm_threshold_curve : The MLCM scores of the predictions at many
        thresholds at once.

    Notes
    -----
    The rules apply in this order: the threshold, then ``top_k`` among the
    labels that pass it, then ``at_least_one`` for the instances left with no
    label. Each instance is decided alone; dense scores are handled in blocks
    of rows, so temporary memory stays bounded, and the result is refused
    before it is allocated when it would pass 1 GiB (call it on blocks of
    rows, or pass sparse scores).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_mlcm import decide_labels
    >>> y_score = np.array([[0.9, 0.6, 0.2],
    ...                     [0.4, 0.3, 0.1],
    ...                     [0.7, 0.8, 0.5]])
    >>> decide_labels(y_score)
    array([[1, 1, 0],
           [0, 0, 0],
           [1, 1, 1]])
    >>> decide_labels(y_score, top_k=1, at_least_one=True)
    array([[1, 0, 0],
           [1, 0, 0],
           [0, 1, 0]])

    One threshold per label, by name for a frame:

    >>> import pandas as pd
    >>> frame = pd.DataFrame(y_score, columns=["cat", "dog", "bird"])
    >>> decide_labels(frame, threshold={"cat": 0.8, "dog": 0.5, "bird": 0.45})
    array([[1, 1, 0],
           [0, 0, 0],
           [0, 1, 1]])
    """
    checked = validate_scores(y_score, labels=labels)
    scores, keys, all_keys = checked.scores, checked.keys, checked.all_keys
    n, q = scores.shape
    is_sparse = sparse.issparse(scores)
    on_device = isinstance(scores, DeviceScores)
    thresholds = None
    if threshold is not None:
        thresholds = check_thresholds(
            threshold, keys, all_keys, positive=is_sparse
        )
    if top_k is not None and top_k > q:
        raise input_error(
            "top_k", f"at most the number of labels, {q}", repr(top_k)
        )
    if is_sparse:
        return decide_sparse(scores, thresholds, top_k, at_least_one)
    if n * q * 8 > MAX_DENSE_BYTES:
        raise input_error(
            "y_score",
            f"at most {MAX_DENSE_BYTES // 8:,} cells (n_samples x n_labels) for a "
            "dense int64 result of 1 GiB; decide blocks of rows in turn (each "
            "instance is decided alone)"
            + ("" if on_device else ", or pass sparse scores"),
            f"{n:,} x {q:,}",
        )
    if on_device:  # Array API scores: decided on their device
        return decide_device(scores, thresholds, top_k, at_least_one)
    decided = decide_dense(scores, thresholds, top_k, at_least_one)
    if checked.device is not None:  # read in place: back to their namespace
        return checked.device.back(decided)
    return decided


# -- dense scores -----------------------------------------------------------------


def decide_dense(scores, thresholds, top_k, at_least_one):
    """The rule on clean dense scores (n, q): an int64 (n, q) array.

    ``thresholds`` is a float64 (q,) array or None (then ``top_k`` is set).
    """
    n, q = scores.shape
    out = np.empty((n, q), dtype=np.int64)
    step = max(1, _BLOCK_CELLS // q)
    for start in range(0, n, step):
        block = scores[start : start + step]
        if thresholds is None:
            passing = np.ones(block.shape, dtype=bool)
        else:
            passing = block >= thresholds
        if top_k is not None and top_k < q:
            passing = _top_k_dense(block, passing, top_k)
        if at_least_one:
            empty = np.flatnonzero(~passing.any(axis=1))
            passing[empty, np.argmax(block[empty], axis=1)] = True
        out[start : start + step] = passing
    return out


def _top_k_dense(block, passing, top_k):
    """Of the passing labels of each row, the ``top_k`` of highest score
    (a stable sort of the negated scores: the earlier label wins ties)."""
    order = np.argsort(-block, axis=1, kind="stable")
    ranked = np.take_along_axis(passing, order, axis=1)
    kept = ranked & (np.cumsum(ranked, axis=1) <= top_k)
    out = np.zeros_like(passing)
    np.put_along_axis(out, order, kept, axis=1)
    return out


# -- sparse scores ----------------------------------------------------------------


def decide_sparse(scores, thresholds, top_k, at_least_one):
    """The rule on a canonical CSR array of scores without stored zeros
    (absent scores are 0): a CSR array of int64 ones, as the dense rule
    would give on ``scores.toarray()``, without densifying.

    ``thresholds`` (above 0, so that absent scores never pass) or None (then
    ``top_k`` is set and the absent zeros rank between the positive and the
    negative stored scores, earlier labels first).
    """
    n, q = scores.shape
    indptr, cols, data = scores.indptr, scores.indices.astype(np.int64), scores.data
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    if thresholds is not None:
        keep = data >= thresholds[cols]
        rows, cols, data = rows[keep], cols[keep], data[keep]
        if top_k is not None:
            order = np.lexsort((cols, -data, rows))
            rows, cols = rows[order], cols[order]
            keep = _rank_within(rows) < top_k
            rows, cols = rows[keep], cols[keep]
    else:
        rows, cols = _exact_top_k_sparse(scores, rows, top_k)
    if at_least_one:
        has = np.zeros(n, dtype=bool)
        has[rows] = True
        empty = np.flatnonzero(~has)
        if empty.size:
            best = _best_label_sparse(scores, empty)
            rows = np.concatenate([rows, empty])
            cols = np.concatenate([cols, best])
    out = sparse.csr_array(
        (np.ones(rows.size, dtype=np.int64), (rows, cols)), shape=(n, q)
    )
    out.sort_indices()
    return out


def _rank_within(groups):
    """0, 1, 2, ... within each run of equal values of a sorted array."""
    if groups.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    lengths = np.diff(np.r_[starts, groups.size])
    return np.arange(groups.size) - np.repeat(starts, lengths)


def _absent_columns(scores, rows, counts):
    """For each row ``rows[r]``, its first ``counts[r]`` absent columns
    (ascending): the m-th absent column of a row whose stored columns are
    c_0 < c_1 < ... is ``m + #{j: c_j - j <= m}``, and ``c_j - j`` does not
    decrease along the row, so one searchsorted answers every query."""
    n, q = scores.shape
    indptr = scores.indptr
    lengths = np.diff(indptr)
    entry_rows = np.repeat(np.arange(n, dtype=np.int64), lengths)
    position = np.arange(indptr[-1], dtype=np.int64) - indptr[:-1][entry_rows]
    keys = entry_rows * (q + 1) + (scores.indices - position)
    query_rows = np.repeat(rows, counts)
    m = _rank_within(query_rows)
    before = np.searchsorted(keys, query_rows * (q + 1) + m, side="right")
    return query_rows, m + before - indptr[query_rows]


def _exact_top_k_sparse(scores, rows, top_k):
    """The ``top_k`` best labels of every row of sparse scores, absent
    scores (0) included: stored positive scores first, then absent labels in
    column order, then stored negative scores."""
    n, q = scores.shape
    cols, data = scores.indices.astype(np.int64), scores.data
    order = np.lexsort((cols, -data, rows))
    rows, cols, data = rows[order], cols[order], data[order]
    rank = _rank_within(rows)
    n_stored = np.diff(scores.indptr)
    n_absent = q - n_stored
    n_positive = np.bincount(rows[data > 0], minlength=n)
    keep = rank + np.where(data < 0, n_absent[rows], 0) < top_k
    wanted = np.clip(top_k - n_positive, 0, n_absent)
    total = int(wanted.sum())
    if total * 24 > MAX_DENSE_BYTES:
        raise input_error(
            "top_k",
            "small enough for a sparse result of at most 1 GiB (most rows "
            "store fewer positive scores than top_k, so absent labels fill "
            "the rest); pass a smaller top_k or a threshold",
            f"{top_k} ({total:,} absent labels to add)",
        )
    target = np.flatnonzero(wanted)
    absent_rows, absent_cols = _absent_columns(scores, target, wanted[target])
    return (
        np.concatenate([rows[keep], absent_rows]),
        np.concatenate([cols[keep], absent_cols]),
    )


def _best_label_sparse(scores, empty):
    """The label of the highest score of each row in ``empty`` (absent
    scores are 0; the earliest label on ties)."""
    n, q = scores.shape
    sub = scores[empty]  # the rows in question only
    sub = sparse.csr_array(sub)
    indptr, cols, data = sub.indptr, sub.indices.astype(np.int64), sub.data
    lengths = np.diff(indptr)
    rows = np.repeat(np.arange(len(empty)), lengths)
    best_stored = np.full(len(empty), -np.inf)
    np.maximum.at(best_stored, rows, data)
    has_absent = lengths < q
    take_zero = has_absent & (best_stored < 0)
    best = np.empty(len(empty), dtype=np.int64)
    zero_rows = np.flatnonzero(take_zero)
    if zero_rows.size:
        _, first_absent = _absent_columns(sub, zero_rows, np.ones_like(zero_rows))
        best[zero_rows] = first_absent
    stored_rows = np.flatnonzero(~take_zero)
    if stored_rows.size:
        hit = data == best_stored[rows]
        # canonical CSR: within a row columns ascend, so the first hit of a
        # row is its earliest best label
        hit_rows, first = np.unique(rows[hit], return_index=True)
        best_col = np.empty(len(empty), dtype=np.int64)
        best_col[hit_rows] = cols[hit][first]
        best[stored_rows] = best_col[stored_rows]
    return best


# -- scores of a fitted classifier -------------------------------------------------


def _one_class_outputs(probas, classes):
    """A per-label list of ``predict_proba`` arrays with each label that had
    one class only in training (one column, its class's probability, 1)
    made the (n_samples, 2) pair ``[P(0), P(1)]``, as the estimator's
    ``classes_`` of that output say: the probability of class 1 is then that
    column for class 1 and 0 for class 0. Labels of other classes, or
    without ``classes_`` per output, are left as they are."""
    if not isinstance(classes, (list, tuple)) or len(classes) != len(probas):
        return probas
    completed = []
    for proba, seen in zip(probas, classes):
        seen = np.asarray(seen)
        if np.ndim(proba) == 2 and np.shape(proba)[1] == 1 and seen.shape == (1,):
            if seen[0] in (0, 1):
                column = np.asarray(proba, dtype=np.float64)[:, 0]
                one = column if seen[0] == 1 else 1.0 - column
                proba = np.column_stack([1.0 - one, one])
        completed.append(proba)
    return completed


def _extreme(values, which):
    """The smallest or largest value, a Python float; of an Array API array
    under ``array_api_dispatch``, in its namespace (one number read back)."""
    namespace = matrix_namespace(values, "predict_proba")
    if namespace is None:
        return float(getattr(np, which)(values))
    return float(getattr(namespace[0], which)(values))


def response_scores(estimator, X, response_method):
    """The scores of a fitted classifier on X, as scikit-learn's displays
    get them: ``predict_proba`` or ``decision_function`` ("auto" tries them
    in that order). Probabilities outside [0, 1] are refused: thresholds in
    [0, 1] would not mean what they say."""
    methods = (
        ("predict_proba", "decision_function")
        if response_method == "auto"
        else (response_method,)
    )
    for method in methods:
        func = getattr(estimator, method, None)  # pipelines: available_if
        if callable(func):
            break
    else:
        raise invalid_parameter(
            "estimator",
            f"a fitted classifier with {' or '.join(methods)} (response_method="
            f"{response_method!r})",
            estimator,
        )
    scores = func(X)
    if method == "predict_proba":
        if isinstance(scores, (list, tuple)):
            scores = _one_class_outputs(scores, getattr(estimator, "classes_", None))
        parts = scores if isinstance(scores, (list, tuple)) else [scores]
        low = min(_extreme(part, "min") for part in parts)
        high = max(_extreme(part, "max") for part in parts)
        if low < 0 or high > 1 or not (np.isfinite(low) and np.isfinite(high)):
            raise input_error(
                "estimator",
                "a classifier whose predict_proba gives probabilities in [0, 1] "
                "(use response_method='decision_function' for other scores)",
                f"predict_proba values from {low!r} to {high!r}",
            )
    return scores
