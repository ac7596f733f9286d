"""The MLCM across thresholds: mlcm_threshold_curve and its result.

Validation, computation (the sweep engine of :mod:`._sweep`, and the scores
read off the margins by :mod:`sklearn_mlcm._uncertainty._margins`) and
packaging, in three blocks.
"""

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._param_validation import (
    Interval,
    Options,
    Sequence,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._results import unpackable
from sklearn_mlcm._statistics import ratio_metric
from sklearn_mlcm._summary import (
    MAX_LABEL_ROWS,
    format_number,
    label_rows,
    label_table,
    require_pandas,
    shorten,
)
from sklearn_mlcm._uncertainty._margins import SCORES, scores_from_margins
from sklearn_mlcm._validation._targets import check_target_names

from ._array_api import device_label_totals, device_margins
from ._sweep import matrix_margins, sweep_margins
from ._validation import (
    DeviceScores,
    check_threshold_count,
    check_threshold_grid,
    validate_scores,
)

__all__ = [
    "IN_SAMPLE",
    "OUT_OF_SAMPLE",
    "ThresholdCurveResult",
    "mlcm_threshold_curve",
    "threshold_curve",
]

#: What a best threshold read off the curve is: picked on the very data it
#: scores, so its score flatters it. Every output that shows it says so.
IN_SAMPLE = "in-sample, optimistic"

#: Where thresholds chosen out of sample come from, said beside IN_SAMPLE.
OUT_OF_SAMPLE = "thresholds chosen out of sample: MLCMTunedThresholdClassifierCV"

#: The averages of the curve; scikit-learn's one-vs-rest counterpart has all
#: but "micro_all".
CURVE_AVERAGES = ("macro", "weighted", "micro", "micro_all")


@unpackable("thresholds", "scores")
@dataclass(frozen=True, repr=False)
class ThresholdCurveResult:
    """The outcome of :func:`mlcm_threshold_curve`.

    Unpacks as ``thresholds, scores = result``; the other fields are
    attributes. It prints a summary of at most 40 lines: the score, the best
    threshold and its score (in-sample, hence optimistic: picked on the
    data it scores; :class:`MLCMTunedThresholdClassifierCV` chooses
    thresholds out of sample), the range of the thresholds, then the labels
    that the best threshold serves worst (those whose own best score over the
    curve is farthest above their score at it). :meth:`to_frame` gives every
    number as a table.

    Attributes
    ----------
    thresholds : ndarray of shape (n_thresholds,) or (n_thresholds, n_labels)
        The thresholds, increasing; 2-D for one threshold per label in each
        row.

    scores : ndarray of shape (n_thresholds,)
        The averaged MLCM score of the predictions at each threshold.

    label_scores : ndarray of shape (n_thresholds, n_labels)
        Each label's MLCM score at each threshold.

    target_names : list of str
        The label names: ``target_names`` when given, else a frame's columns
        or the column indices.

    metric : str
        The score: "precision", "recall", "f1", "fbeta" or "specificity".

    average : str
        How ``scores`` averages the label scores.

    method : str
        The matrix: "heydarian" or "krstinic".

    best_index : int
        The first threshold of the highest ``scores`` (NaN left out; 0 when
        every score is NaN).

    best_threshold : float or ndarray of shape (n_labels,)
        ``thresholds[best_index]``.

    ovr_scores : ndarray of shape (n_thresholds,) or None
        With ``one_vs_rest=True``, scikit-learn's one-vs-rest score of the
        same predictions (``sklearn.metrics.f1_score`` and the others);
        otherwise None.

    ovr_label_scores : ndarray of shape (n_thresholds, n_labels) or None
        Likewise, per label.
    """

    thresholds: np.ndarray
    scores: np.ndarray
    label_scores: np.ndarray
    target_names: list
    metric: str
    average: str
    method: str
    best_index: int
    best_threshold: object
    ovr_scores: object = None
    ovr_label_scores: object = None

    def __repr__(self):
        return summarize_curve(self)

    def to_frame(self):
        """The curve as a tidy pandas DataFrame, one row per label (or
        average) and threshold.

        The index, named "label", holds each label's name ``n_thresholds``
        times (its rows in threshold order), then the average's row name
        (such as "macro avg") as many times, so that ``frame.loc["macro
        avg"]`` is the averaged curve and ``frame.loc[name]`` a label's.

        Returns
        -------
        frame : pandas.DataFrame of shape (n_thresholds * (n_labels + 1), 4 or 5)
            Columns ``kind`` ("label" or "average"), ``row`` (the
            threshold's position, int64), ``threshold`` (float64; with 2-D
            thresholds the label's own threshold in that row, NaN for the
            average), ``score`` (``label_scores`` or ``scores``, float64) and,
            with ``one_vs_rest=True``, ``ovr_score``. One column per label:
            ``frame.pivot_table(index="row", columns="label", values="score")``.

        Raises
        ------
        ImportError
            Without pandas, saying how to install it.
        """
        return curve_frame(self)


def _check_one_vs_rest(arguments):
    """scikit-learn has no "micro_all" average to compare with."""
    if arguments["one_vs_rest"] and arguments["average"] == "micro_all":
        raise invalid_parameter(
            "average",
            "one of {'macro', 'micro', 'weighted'} with one_vs_rest=True "
            "(scikit-learn's averages; 'micro_all' has no one-vs-rest counterpart)",
            "micro_all",
        )


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_score": ["array-like", "sparse matrix"],
        "thresholds": [Interval(Integral, 1, None), "array-like", None],
        "metric": [Options(*SCORES)],
        "average": [Options(*CURVE_AVERAGES)],
        "method": [Options(*METHODS)],
        "labels": ["array-like", None],
        "target_names": [Sequence(), None],
        "sample_weight": ["array-like", None],
        "beta": [Interval(Real, 0, None, closed="left")],
        "tn": [Options("complement", "diagonal")],
        "zero_division": [Options(0.0, 1.0, float("nan"))],
        "one_vs_rest": ["boolean"],
    },
    rules=(_check_one_vs_rest,),
)
def mlcm_threshold_curve(
    y_true,
    y_score,
    *,
    thresholds=None,
    metric="f1",
    average="macro",
    method="heydarian",
    labels=None,
    target_names=None,
    sample_weight=None,
    beta=1.0,
    tn="complement",
    zero_division=0.0,
    one_vs_rest=False,
):
    """Compute an MLCM score at many thresholds of the scores at once.

    Which predictions an MLCM counts depends on the threshold that turns a
    classifier's scores into labels. This function gives any MLCM score,
    averaged and per label, of the predictions ``y_score >= threshold`` at a
    grid of thresholds (or at rows of per-label thresholds), without building
    one matrix per threshold: for Heydarian's matrix, every threshold's
    margins are read off histograms of the scores' positions in the grid
    (see Notes). With ``one_vs_rest=True`` it also gives scikit-learn's
    one-vs-rest score of the same predictions, to show where the two
    disagree.

    Read more in the :ref:`User Guide <thresholds>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape \
            (n_samples, n_labels)
        Ground truth 0/1 indicators.

    y_score : {array-like, sparse matrix, DataFrame} of shape \
            (n_samples, n_labels), or list of n_labels arrays of shape \
            (n_samples, 2)
        Scores, as :func:`decide_labels` reads them (finite real numbers; a
        sparse matrix's absent scores are 0). Frames are matched to a frame
        ``y_true`` by column name. Under
        ``sklearn.config_context(array_api_dispatch=True)``, scores of any
        Array API namespace: they and ``y_true`` (which follows them) are
        checked and thresholded there, on their device, and only the
        margins at each threshold (an (n_thresholds, 3, n_labels + 1)
        table) come back; the result is on the host (see Notes and
        :ref:`array_api`).

    thresholds : int, array-like of shape (n_thresholds,) or \
            (n_thresholds, n_labels), default=None
        None: 100 thresholds; an int: that many, evenly spaced from the
        smallest to the largest score (one when they are equal; for sparse
        scores from the smallest stored score above 0). A 1-D array: the
        thresholds, strictly increasing (anything else is refused). A 2-D
        array: one threshold per label (in the order of the kept labels) in
        each row, such as a per-label vector scaled together. Thresholds of
        sparse scores must be above 0.

    metric : {"f1", "precision", "recall", "fbeta", "specificity"}, \
            default="f1"
        The score, as :func:`mlcm_f1_score` and the other scores compute it.

    average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
        How ``scores`` averages the label scores (see :func:`mlcm_f1_score`).

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix to read. Krstinić's takes one fast matrix per
        threshold (see Notes).

    labels : array-like of shape (n_kept,), default=None
        The labels to score, in that order (column indices, or names of a
        frame); the matrix is computed on this restricted label space, as
        the scores do.

    target_names : list of str of shape (n_kept,), default=None
        Names of the scored labels (those of ``labels``, in its order), unique,
        for ``result.target_names``, its summary, its frame and the display's
        legend. By default a frame's column names, else the column indices.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    beta : float, default=1.0
        Weight of recall in the F-score, for ``metric="fbeta"``.

    tn : {"complement", "diagonal"}, default="complement"
        The true negatives of the MLCM's specificity (see
        :func:`mlcm_specificity_score`); the one-vs-rest specificity always
        takes scikit-learn's (the complement).

    zero_division : {0.0, 1.0, np.nan}, default=0.0
        The value of a ratio whose denominator is zero, silently (a curve
        meets many of them at its extreme thresholds). NaN values are left
        out of the averages.

    one_vs_rest : bool, default=False
        Also compute scikit-learn's one-vs-rest score of each threshold's
        predictions: what :func:`sklearn.metrics.f1_score` (and the other
        scores) give with the same ``average``, ``beta`` and
        ``zero_division`` (for a single label, with ``labels=[1]``:
        scikit-learn reads one column as binary classes).
        ``average="micro_all"`` has no counterpart and is refused with it.

    Returns
    -------
    result : ThresholdCurveResult
        ``thresholds, scores = result``; per label ``result.label_scores``,
        the best threshold ``result.best_threshold``, and with
        ``one_vs_rest`` ``result.ovr_scores`` and ``result.ovr_label_scores``.

    See Also
    --------
    decide_labels : The predictions at one threshold (``score >= threshold``).
    sklearn.metrics.precision_recall_curve : The binary, one-vs-rest curve of
        one label; multi-label targets are scored label by label there.
    mlcm_precision_recall_fscore_support : The scores of one set of
        predictions; at every threshold ``result.label_scores[j]`` equals it
        on ``decide_labels(y_score, threshold=result.thresholds[j])``.

    Notes
    -----
    **Why not label by label.** A label's wrong predictions land in other
    labels' rows and columns of the MLCM (Heydarian's categories 2 and 3),
    so the MLCM score of a label depends on the other labels' thresholds too;
    the curve moves them together.

    **The margins.** Every score needs three margins of the matrix: its
    diagonal, row sums and column sums. For one instance with true set T and
    predicted set P, write ``n_t2 = |T - P|`` (missed), ``n_p2 = |P - T|``
    (wrong) and ``n_t = |T|``. Heydarian's Algorithms 2-5 give, for a label k,

    - diagonal: ``[k in T & P]``;
    - row k: ``[k in T & P] (1 + n_p2 [n_t2 = 0]) + [k in T - P] max(n_p2, 1)``;
    - column k: ``[k in T & P] + [k in P - T] g``, with ``g = n_t2`` when
      ``n_t2 > 0`` and ``max(n_t, 1)`` otherwise;

    and for the no-label index: the corner ``[T, P empty]``, the NTL row
    ``[T empty] max(n_p2, 1)`` and the NPL column ``[T, P empty] + [n_p2 = 0]
    n_t2``. Each margin is a sum of these over the (weighted) instances.

    **Across thresholds.** With T increasing thresholds, let the bin of a
    score be the number of thresholds at or below it; label k of instance i
    is predicted at threshold j exactly when ``bin(i, k) > j``. Then
    ``n_t2(i, j)`` is the number of true labels of row i of bin at most j and
    ``n_p2(i, j)`` the number of wrong labels of bin above j: cumulative sums
    of each row's histogram of bins, (n, T) tables. Let ``mu_i`` be the
    smallest bin of a true label of row i (``n_t2 = 0`` exactly for
    ``j < mu_i``) and ``nu_i`` the largest bin of a wrong one (``n_p2 = 0``
    exactly for ``j >= nu_i``). Summed over the rows, for label k and
    threshold j:

    - the diagonal is a histogram of the true labels' bins, summed above j;
    - the row sum adds to it ``sum_{i true} n_p2(i, j) [j < mu_i]`` (a
      sparse (q x n) by (n x T) product: for a true label,
      ``n_p2 [n_t2 = 0]`` is non-zero only where it is predicted), and the
      missed term ``sum_{i true} [j >= bin] max(n_p2, 1)``: its part
      ``[n_p2 = 0]`` is a histogram of ``max(bin, nu_i)``; its part
      ``n_p2`` counts the pairs (true label k, wrong label k' of the same
      row with ``bin(k) <= j < bin(k')``), a histogram of their starts
      (``n_p2`` of the row at ``bin(k)``) less one of their ends
      (``bin(k')``), summed up to j;
    - the column sum adds ``sum_{i wrong} [bin > j] g``. Its part ``n_t2``
      counts the pairs (true label k'', wrong label k with ``bin(k'') <= j <
      bin(k)``): a histogram of their starts (at ``bin(k'')``, by k) less
      one of their ends (at ``bin(k)``), summed up to j; the starts pair
      each true label with the wrong labels of its row scored above it.
      Its part ``[n_t2 = 0] max(n_t, 1) = max(n_t, 1) ([j < bin] - [mu_i
      <= j < bin])``: the first term is a histogram of the wrong labels'
      bins weighted ``max(n_t, 1)``, summed above j; the second is the pairs
      of the row's lowest true label (one of them, of bin ``mu_i``) once
      more, weighted ``-max(n_t, 1)``;
    - the no-label index: a row without true labels is predicted nothing
      exactly for ``j >= nu_i`` (the corner, a histogram of ``nu_i``); the
      NTL row adds ``n_p2`` of those rows, the NPL column ``n_t2 [j >=
      nu_i]``, which is the missed term's part ``[n_p2 = 0]`` summed over
      the labels.

    Only the histograms (one pass over the scores each), the (n, T) table
    of ``n_p2`` and its product with the true labels, and the pairs of a
    true label with the wrong labels scored above it in its row (few for a
    good classifier) depend on the data; no (n x q) prediction is made per
    threshold. The rows are handled in blocks (bounded memory) on the
    machine's cores. The bins themselves come from a bucketed search that
    is exact (see the code). The benchmark ``benchmarks/bench_thresholds.py``
    measures it against one matrix and against a matrix per threshold.

    **Rounding.** Without weights, or with whole-number weights, every sum
    is exact. With real weights, the pairs' sums are differences of running
    sums: a margin counted by no instance of positive weight is set to 0,
    and a threshold with a margin within the rounding of those sums (weights
    10**12 times smaller than their total) is computed again by one matrix.

    **Per-label thresholds.** 2-D thresholds whose columns do not decrease
    from row to row (a vector scaled together, one label's threshold swept
    while the others stay) keep the "predicted while ``j < bin``" order, and
    take the same path, the bins searched label by label. Other 2-D
    thresholds, and Krstinić's matrix (whose fractions weigh each instance
    by its set sizes), take one fast matrix per threshold: n_thresholds
    times :func:`mlcm_confusion_matrix`.

    **Array API scores** on an accelerator take neither path: each
    threshold's predictions are compared there, a block of rows by a chunk
    of thresholds at a time (memory bounded), and each method's three
    margins are sums over the rows of per-row terms (the formulas above for
    Heydarian's matrix; Krstinić's row scales for his). Whole-number sums
    equal the sweep's bit for bit; real weights and fractions agree to
    their rounding.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_mlcm import mlcm_threshold_curve
    >>> y_true = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    >>> y_score = np.array([[0.9, 0.4, 0.3], [0.2, 0.6, 0.5],
    ...                     [0.7, 0.3, 0.1], [0.1, 0.2, 0.8]])
    >>> thresholds, scores = mlcm_threshold_curve(
    ...     y_true, y_score, thresholds=[0.25, 0.5, 0.75])
    >>> scores.round(3)
    array([0.611, 0.722, 0.556])
    >>> result = mlcm_threshold_curve(y_true, y_score, thresholds=[0.25, 0.5, 0.75],
    ...                               one_vs_rest=True)
    >>> result.best_threshold, result.ovr_scores.round(3)
    (0.5, array([0.767, 0.778, 0.556]))

    At 0.25 the first two instances get wrong labels beside their true ones.
    One-vs-rest counts them only as false positives of labels 1 and 2; the
    MLCM also puts them in the rows of the true labels 0 and 1 (Heydarian's
    category 2), which lowers those labels' recall:

    >>> result = mlcm_threshold_curve(y_true, y_score, thresholds=[0.25],
    ...                               one_vs_rest=True)
    >>> result.label_scores.round(3), result.ovr_label_scores.round(3)
    (array([[0.667, 0.667, 0.5  ]]), array([[1. , 0.8, 0.5]]))

    With names, the result prints the best threshold and each label's own
    best (``to_frame()`` gives every number):

    >>> mlcm_threshold_curve(y_true, y_score, thresholds=[0.25, 0.5, 0.75],
    ...                      target_names=["cat", "dog", "bird"])
    ThresholdCurveResult: metric='f1', average='macro', method='heydarian', 3 labels
    best_threshold=0.5000: score 0.7222; in-sample, optimistic
    thresholds chosen out of sample: MLCMTunedThresholdClassifierCV
    3 thresholds, from 0.2500 to 0.7500
    Per label: its own best threshold and score, and its score at the best threshold
    label  own best threshold  own best score  at best threshold
    cat                0.5000          1.0000             1.0000
    dog                0.2500          0.6667             0.5000
    bird               0.7500          1.0000             0.6667
    """
    checked = validate_scores(
        y_score, y_true=y_true, labels=labels, sample_weight=sample_weight
    )
    q = checked.y_true.shape[1]
    names = (
        [str(k) for k in checked.keys]
        if target_names is None
        else check_target_names(target_names, q)
    )
    return threshold_curve(
        checked.y_true,
        checked.scores,
        names,
        checked.weight,
        thresholds=thresholds,
        metric=metric,
        average=average,
        method=method,
        beta=beta,
        tn=tn,
        zero_division=zero_division,
        one_vs_rest=one_vs_rest,
    )


def threshold_curve(
    t,
    scores,
    names,
    weight,
    *,
    thresholds,
    metric,
    average,
    method,
    beta,
    tn,
    zero_division,
    one_vs_rest,
):
    """The :class:`ThresholdCurveResult` of validated targets and scores.

    The computation of :func:`mlcm_threshold_curve`, for callers that hold
    validated input (:func:`~sklearn_mlcm._validation.validate_scores`, or
    an :class:`~sklearn_mlcm.MLCMReport`'s targets): ``t`` the bool
    indicators, ``scores`` the scores of the same labels (dense or CSR, or
    a :class:`~._validation.DeviceScores` that holds the indicators and the
    weights on its device: its margins are counted there,
    :func:`~._array_api.device_margins`), ``names`` the labels' names,
    ``weight`` the validated weights (on the host) or None. Only the
    thresholds are checked here (they depend on the scores).
    """
    n, q = scores.shape
    if isinstance(thresholds, Integral):  # before the grid is made
        check_threshold_count(int(thresholds), q)
    grid = check_threshold_grid(thresholds, scores)
    check_threshold_count(grid.shape[0], q)

    weighted = weight is not None
    weight = np.ones(n) if weight is None else weight
    rising = grid.ndim == 1 or bool((grid[1:] >= grid[:-1]).all())
    per_label = grid if grid.ndim == 2 else np.repeat(grid[:, None], q, axis=1)
    if isinstance(scores, DeviceScores):  # Array API scores: on their device
        margins, predicted, hits = device_margins(
            scores, per_label, method, with_predicted=one_vs_rest
        )
    elif method == "heydarian" and rising:
        margins, predicted = sweep_margins(
            t, scores, grid, weight, with_predicted=one_vs_rest
        )
        hits = margins[:, 0, :q]  # Heydarian's diagonal counts them
    else:
        margins, predicted, hits = matrix_margins(
            t,
            scores,
            per_label,
            weight if weighted else None,
            method,
            with_predicted=one_vs_rest,
        )
    options = {
        "beta": float(beta),
        "zero_division": zero_division,
    }
    score, label = scores_from_margins(margins, metric, average, tn=tn, **options)
    ovr_score = ovr_label = None
    if one_vs_rest:
        positives = (
            device_label_totals(scores)
            if isinstance(scores, DeviceScores)
            else np.asarray(t.T @ weight, dtype=np.float64).ravel()
        )
        ovr_score, ovr_label = _one_vs_rest_scores(
            hits, predicted, positives, weight.sum(), metric, average, **options
        )

    best = 0 if np.isnan(score).all() else int(np.nanargmax(score))
    return ThresholdCurveResult(
        thresholds=grid,
        scores=score,
        label_scores=label,
        target_names=list(names),
        metric=metric,
        average=average,
        method=method,
        best_index=best,
        best_threshold=grid[best].copy() if grid.ndim == 2 else float(grid[best]),
        ovr_scores=ovr_score,
        ovr_label_scores=ovr_label,
    )


def _one_vs_rest_scores(
    tp, predicted, positives, total, metric, average, *, beta, zero_division
):
    """scikit-learn's one-vs-rest scores (T,) and (T, q) from the counts of
    the same predictions: TP, predicted and true totals per label."""
    fp = predicted - tp
    fn = positives[None, :] - tp
    tn = total - tp - fp - fn
    tn = np.where(tn <= 16 * np.finfo(np.float64).eps * total, 0.0, tn)
    label = ratio_metric(metric, tp, fp, fn, tn, beta=beta, zero_division=zero_division)
    if average == "micro":
        pooled = [x.sum(axis=1) for x in (tp, fp, fn, tn)]
        overall = ratio_metric(metric, *pooled, beta=beta, zero_division=zero_division)
        return np.asarray(overall, dtype=np.float64), label
    weights = np.broadcast_to(
        positives if average == "weighted" else np.ones_like(positives), label.shape
    )
    keep = ~np.isnan(label)
    weights = np.where(keep, weights, 0.0)
    unweighted = weights.sum(axis=1) == 0  # every weight zero: plain mean
    weights[unweighted] = keep[unweighted]
    with np.errstate(invalid="ignore", divide="ignore"):
        overall = (np.where(keep, label, 0.0) * weights).sum(axis=1) / weights.sum(
            axis=1
        )
    return overall, label


# --------------------------------------------------------------------------
# Packaging for a reader: the summary and the frame.
# --------------------------------------------------------------------------


def _label_bests(result):
    """Per label: its own best row over the curve (the first, NaN left out),
    whether it has a score at all, and its gap to its score at the best
    row (-inf when undefined)."""
    label = np.asarray(result.label_scores, dtype=np.float64)
    finite = np.where(np.isnan(label), -np.inf, label)
    own = finite.argmax(axis=0)
    defined = np.isfinite(finite.max(axis=0))
    gap = finite.max(axis=0) - finite[result.best_index]
    gap = np.where(np.isfinite(gap), gap, -np.inf)
    return own, defined, gap


def _format_threshold(value):
    """A threshold as a summary prints it: 4 decimals, the same for every
    threshold of a column (probabilities and decision values alike), and 4
    significant digits for a nonzero one that 4 decimals would print as
    zero (``2.897e-11``, not ``0.0000``)."""
    value = float(value)
    if value != 0 and abs(value) < 0.00005:
        return f"{value:.3e}"
    return format_number(value)


def summarize_curve(result):
    """The summary of a ThresholdCurveResult: at most 5 + 2 + MAX_LABEL_ROWS
    lines."""
    thresholds = np.asarray(result.thresholds)
    scores = np.asarray(result.scores)
    best = result.best_index
    q = len(result.target_names)
    per_label = thresholds.ndim == 2
    score = format_number(scores[best])
    if result.ovr_scores is not None:
        score += f" (one-vs-rest {format_number(result.ovr_scores[best])})"
    lines = [
        f"ThresholdCurveResult: metric={result.metric!r}, "
        f"average={result.average!r}, method={result.method!r}, {q:,} labels",
    ]
    if per_label:
        at = "row"
        lines += [
            f"best_index={best} (a row of per-label thresholds): score {score}; "
            f"{IN_SAMPLE}",
            OUT_OF_SAMPLE,
            f"{thresholds.shape[0]:,} rows of per-label thresholds, from "
            f"{_format_threshold(thresholds.min())} to "
            f"{_format_threshold(thresholds.max())}",
        ]
    else:
        at = "threshold"
        lines += [
            f"best_threshold={_format_threshold(result.best_threshold)}: "
            f"score {score}; {IN_SAMPLE}",
            OUT_OF_SAMPLE,
            f"{thresholds.shape[0]:,} thresholds, from "
            f"{_format_threshold(thresholds[0])} to "
            f"{_format_threshold(thresholds[-1])}",
        ]
    own, defined, gap = _label_bests(result)
    if q <= MAX_LABEL_ROWS:
        lines.append(
            f"Per label: its own best threshold and score, and its score at the "
            f"best {at}"
        )
    else:
        lines.append(
            f"The labels the best {at} serves worst (own best score farthest above it):"
        )
    cells = []
    for k in range(q):
        where = "nan"
        if defined[k]:
            where = _format_threshold(
                thresholds[own[k], k] if per_label else thresholds[own[k]]
            )
        cells.append(
            [
                shorten(result.target_names[k]),
                where,
                format_number(result.label_scores[own[k], k]),
                format_number(result.label_scores[best, k]),
            ]
        )
    shown = label_rows(q, -gap)
    header = ["label", "own best threshold", "own best score", f"at best {at}"]
    return "\n".join(lines + label_table(header, cells, shown, q))


def curve_frame(result):
    """The tidy frame of :meth:`ThresholdCurveResult.to_frame`."""
    pandas = require_pandas("ThresholdCurveResult.to_frame()")
    thresholds = np.asarray(result.thresholds, dtype=np.float64)
    label_scores = np.asarray(result.label_scores, dtype=np.float64)
    n, q = label_scores.shape
    # one block of n rows per label, then the average's
    if thresholds.ndim == 1:
        threshold = np.tile(thresholds, q + 1)
    else:
        threshold = np.concatenate([thresholds.T.ravel(), np.full(n, np.nan)])
    names = [*result.target_names, f"{result.average} avg"]
    columns = {
        "kind": np.repeat(np.array(["label"] * q + ["average"], dtype=object), n),
        "row": np.tile(np.arange(n, dtype=np.int64), q + 1),
        "threshold": threshold,
        "score": np.concatenate([label_scores.T.ravel(), result.scores]),
    }
    if result.ovr_scores is not None:
        ovr_label = np.asarray(result.ovr_label_scores, dtype=np.float64)
        columns["ovr_score"] = np.concatenate([ovr_label.T.ravel(), result.ovr_scores])
    index = pandas.Index(np.repeat(np.array(names, dtype=object), n), name="label")
    return pandas.DataFrame(columns, index=index)
