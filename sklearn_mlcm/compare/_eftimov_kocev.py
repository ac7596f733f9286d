"""Measures fusion (Eftimov & Kocev 2019): entropy weights, PROMETHEE II, correlations.

One dataset is a decision matrix, methods by measures. Each measure gets a
weight from its exponential entropy (eqs. 6-12), PROMETHEE II turns the
pairwise preferences into net flows (eqs. 1-5, 13-14) and the net flows into
ranks; :func:`fuse_measures` does it for every dataset of a study and returns
the rank table that :func:`friedman_test` and :func:`nemenyi_test` read. The
paper's correlation analysis picks the measures to fuse:
:func:`measure_correlations` and :func:`least_correlated_measures`.

Each public function validates (the decorator, then the data checks of
:mod:`sklearn_mlcm.compare._validation`), computes with a private function
that assumes clean input, and packages the result.
"""

from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy.stats import rankdata

from sklearn_mlcm._param_validation import (
    Interval,
    Options,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._results import unpackable
from sklearn_mlcm._summary import format_number, label_table, require_pandas, shorten

from ._validation import (
    check_correlation_matrix,
    check_decision_matrix,
    check_directions,
    check_results,
    check_thresholds,
    check_weight_vector,
    row_names,
)

__all__ = [
    "PrometheeResult",
    "entropy_weights",
    "fuse_measures",
    "least_correlated_measures",
    "measure_correlations",
    "promethee_ii",
]

# Net flows closer than this are ties: the same preferences summed in another
# order differ in the last bits, and ties must share their rank (Table 2's 10.5).
_TIE_TOLERANCE = 1e-12
_PREFERENCES = ("usual", "v-shape")


#: The most methods a summary lists, and the most measure weights.
SUMMARY_METHODS = 25
SUMMARY_WEIGHTS = 6


@unpackable("ranks", "net_flow")
@dataclass(frozen=True, repr=False)
class PrometheeResult:
    """The outcome of :func:`promethee_ii` on one decision matrix.

    It unpacks as ``(ranks, net_flow)``: ``ranks, flow = promethee_ii(X,
    maximize=...)``; the other fields are attributes. It prints a summary of
    at most 40 lines (the methods by rank with their flows, then the
    measures' weights), by name when the decision matrix was a DataFrame;
    :meth:`to_frame` gives the methods as a table.

    With m methods and n measures:

    Attributes
    ----------
    net_flow : ndarray of shape (m,)
        ``positive_flow - negative_flow``, in [-1, 1]; the greater the better.

    positive_flow : ndarray of shape (m,)
        How much each method is preferred to the others, in [0, 1].

    negative_flow : ndarray of shape (m,)
        How much the others are preferred to it, in [0, 1].

    preference_index : ndarray of shape (m, m)
        ``preference_index[a, b]``, the weighted preference of method a over
        method b (the average preference index pi(a, b) of eq. 2, without its
        factor 1/n); 0 on the diagonal.

    weights : ndarray of shape (n,)
        The weights of the measures; they sum to 1 (or are all 0 when no
        measure tells the methods apart).

    ranks : ndarray of shape (m,)
        1 for the greatest net flow; tied methods share the average of their
        ranks (10.5 in Eftimov & Kocev's Table 2).

    names : list or None
        The methods' names, one per row of the decision matrix: the index of
        a DataFrame (or the row coordinate of a DataArray); None when the
        rows have no names (an array, or a DataFrame with the default index
        0, 1, ...), and the summary and :meth:`to_frame` use the row numbers.

    measure_names : list or None
        The measures' names, one per column: a frame's column names; None
        for an array.
    """

    net_flow: np.ndarray
    positive_flow: np.ndarray
    negative_flow: np.ndarray
    preference_index: np.ndarray
    weights: np.ndarray
    ranks: np.ndarray
    names: list = None
    measure_names: list = None

    def __repr__(self):
        m, n = len(self.net_flow), len(self.weights)
        best = int(np.argmin(self.ranks))  # the first of the best rank
        method = str(best)
        if self.names is not None:
            method = f"{shorten(self.names[best])} (row {best})"
        lines = [
            f"PrometheeResult: {m:,} methods (rows), {n:,} measures (columns)",
            f"best: method {method}, ranks[{best}]="
            f"{format_number(self.ranks[best])}, "
            f"net_flow[{best}]={format_number(self.net_flow[best])}",
            "Methods by rank:",
        ]
        order = np.argsort(self.ranks, kind="stable")
        rows = [
            [
                str(i) if self.names is None else shorten(self.names[i]),
                format_number(self.ranks[i]),
                format_number(self.net_flow[i]),
                format_number(self.positive_flow[i]),
                format_number(self.negative_flow[i]),
            ]
            for i in order[:SUMMARY_METHODS].tolist()
        ]
        header = ["method", "rank", "net flow", "positive flow", "negative flow"]
        lines += label_table(header, rows, range(len(rows)), m, noun="method")
        weights = [format_number(w) for w in self.weights[:SUMMARY_WEIGHTS]]
        if self.measure_names is not None:
            weights = [
                f"{shorten(name)} {weight}"
                for name, weight in zip(self.measure_names, weights)
            ]
        weights = ", ".join(weights)
        if n > SUMMARY_WEIGHTS:
            weights += f", ... ({n:,} in all)"
        lines.append(f"weights of the measures: {weights}")
        return "\n".join(lines)

    def to_frame(self):
        """The methods as a pandas DataFrame, one row per method.

        Returns
        -------
        frame : pandas.DataFrame of shape (n_methods, 4)
            Index named "method": the methods' ``names``, or their rows of
            the decision matrix (0, 1, ...) without names; columns
            ``rank``, ``net_flow``, ``positive_flow`` and ``negative_flow``
            (float64). The weights and the preference index are the
            result's attributes.

        Raises
        ------
        ImportError
            Without pandas, saying how to install it.
        """
        pandas = require_pandas("PrometheeResult.to_frame()")
        m = len(self.net_flow)
        columns = {
            "rank": self.ranks,
            "net_flow": self.net_flow,
            "positive_flow": self.positive_flow,
            "negative_flow": self.negative_flow,
        }
        data = {key: np.asarray(value, np.float64) for key, value in columns.items()}
        if self.names is None:
            index = pandas.RangeIndex(m, name="method")
        else:
            index = pandas.Index(list(self.names), name="method", dtype=object)
        return pandas.DataFrame(data, index=index)


#: The constraints of ``maximize``: one bool, one per measure, or by name.
_MAXIMIZE = ["boolean", "array-like", dict]
#: The constraints of ``weights``: a rule, or one non-negative weight each.
_WEIGHTS = [Options("entropy", "equal"), "array-like"]


def _threshold_needs_v_shape(arguments):
    """Rule: a threshold is the V-shape's; the usual function has none."""
    if arguments["threshold"] is not None and arguments["preference"] != "v-shape":
        raise invalid_parameter(
            "threshold",
            f"None with preference={arguments['preference']!r} (a threshold "
            "applies to preference='v-shape' only)",
            arguments["threshold"],
        )


def _resolve_weights(weights, n):
    """``weights`` -> "entropy", or float64 array of shape (n,) summing to 1."""
    if isinstance(weights, str):
        return weights if weights == "entropy" else np.full(n, 1.0 / n)
    return check_weight_vector(weights, n)


def _overflow_scale(matrix):
    """Per column, 1, or its largest magnitude where its span (max - min)
    overflows float64 (values near +-1e308). Dividing a column by a positive
    number changes no min-max normalisation, no sign of a difference and no
    ratio of differences, and keeps the differences finite."""
    with np.errstate(over="ignore"):
        span = matrix.max(axis=0) - matrix.min(axis=0)
    scale = np.abs(matrix).max(axis=0)
    return np.where(np.isfinite(span) | (scale == 0), 1.0, scale)


def _entropy_weights(matrix, maximize):
    """Eqs. 6-12 on clean input. A constant measure has entropy 1, weight 0."""
    matrix = matrix / _overflow_scale(matrix)
    m = matrix.shape[0]
    low, high = matrix.min(axis=0), matrix.max(axis=0)
    span = high - low
    informative = span > 0
    # eqs. 6-7: direction-aware min-max normalisation; the best value is 1
    normal = np.where(maximize, matrix - low, high - matrix) / np.where(
        informative, span, 1.0
    )
    share = normal / np.where(informative, normal.sum(axis=0), 1.0)  # eq. 8
    w = share * np.exp(1 - share) + (1 - share) * np.exp(share) - 1  # eq. 11
    k = 1.0 / (m * (np.sqrt(np.e) - 1.0))  # eq. 10
    entropy = np.where(informative, k * w.sum(axis=0), 1.0)  # eq. 9
    # W <= sqrt(e) - 1, so entropy <= 1; clip the rounding error
    divergence = np.clip(1.0 - entropy, 0.0, None)
    total = divergence.sum()
    if total == 0:
        return np.zeros_like(divergence)
    return divergence / total  # eq. 12


@validate_params({"decision_matrix": ["array-like"], "maximize": _MAXIMIZE})
def entropy_weights(decision_matrix, *, maximize):
    """Weights of the measures from their exponential entropy (Eftimov & Kocev).

    A measure whose values differ a lot between the methods carries more
    information, has a lower entropy and gets a greater weight. A constant
    measure tells the methods nothing apart: its weight is 0.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    decision_matrix : array-like or DataFrame of shape (n_methods, n_measures)
        The value of each measure (column) for each method (row): finite
        real numbers (complex numbers, dates and strings are refused), at
        least two methods.

    maximize : bool, array-like of shape (n_measures,) of bool, or dict
        Whether each measure is maximised (True) or minimised (False). A dict
        maps column names of a DataFrame to bools (see
        :func:`measure_directions`); a single bool applies to every measure.

    Returns
    -------
    weights : ndarray of shape (n_measures,)
        Non-negative weights summing to 1; all 0 when every measure is
        constant.

    See Also
    --------
    promethee_ii : Uses these weights by default.

    Notes
    -----
    With m methods, ``q_ij`` the value of measure j for method i (eqs. 6-12):

    - normalise, the best value to 1: ``q'_ij = (q_ij - min_i q_ij) / (max_i
      q_ij - min_i q_ij)`` for a maximised measure, ``(max_i q_ij - q_ij) /
      (max_i q_ij - min_i q_ij)`` for a minimised one;
    - ``D_j = sum_i q'_ij``;
    - entropy ``e_j = K sum_i W(q'_ij / D_j)`` with
      ``W(x) = x e^(1-x) + (1-x) e^x - 1`` and ``K = 1 / (m (e^0.5 - 1))``;
      since ``W <= e^0.5 - 1``, ``e_j <= 1``;
    - weight ``w_j = (1 - e_j) / sum_k (1 - e_k)``.

    The text of the paper lost the exponent 0.5 of ``K``. A constant measure
    (``max = min``) would divide by zero; it is given entropy 1, so weight 0.

    References
    ----------
    .. [1] T. Eftimov and D. Kocev, "Performance Measures Fusion for
       Experimental Comparison of Methods for Multi-label Classification",
       AAAI-MAKE 2019, CEUR-WS 2350, paper 17.

    Examples
    --------
    Three methods, two measures; the second is constant:

    >>> from sklearn_mlcm import entropy_weights
    >>> entropy_weights([[0.9, 0.5], [0.7, 0.5], [0.2, 0.5]], maximize=True)
    array([1., 0.])
    >>> entropy_weights([[0.9, 0.1], [0.7, 0.3], [0.2, 0.2]], maximize=[True, False])
    array([0.4647..., 0.5352...])
    """
    matrix, names = check_decision_matrix(decision_matrix)
    direction = check_directions(maximize, matrix.shape[1], names)
    return _entropy_weights(matrix, direction)


def _ranks_descending(values):
    """Rank 1 for the greatest value, ties sharing the average rank.

    Values within :data:`_TIE_TOLERANCE` of their neighbour in sorted order
    are snapped to one group before :func:`scipy.stats.rankdata` ranks the
    groups.
    """
    order = np.argsort(-values, kind="stable")
    gaps = -np.diff(values[order]) > _TIE_TOLERANCE
    groups = np.empty(len(values))
    groups[order] = np.concatenate(([0], np.cumsum(gaps)))
    return rankdata(groups)


def _promethee(
    matrix, maximize, weights, preference, threshold, names=None, measures=None
):
    """PROMETHEE II on clean input: weights sum to 1 (or are all 0); the
    result carries the methods' ``names`` and the ``measures``' names."""
    scale = _overflow_scale(matrix)
    matrix = matrix / scale
    if threshold is not None:
        threshold = threshold / scale
    m = matrix.shape[0]
    signed = np.where(maximize, matrix, -matrix)
    # d[a, b, j] = q_j(a) - q_j(b) for a maximised measure, its negative if
    # minimised (eq. 1), so that d > 0 always means "a is better than b"
    d = signed[:, None, :] - signed[None, :, :]
    if preference == "usual":  # eq. 13
        pref = (d > 0).astype(np.float64)
    else:  # eq. 14, with a threshold of 0 the usual function
        if threshold is None:
            threshold = matrix.max(axis=0) - matrix.min(axis=0)
        positive = threshold > 0
        pref = np.where(
            positive,
            np.clip(d / np.where(positive, threshold, 1.0), 0.0, 1.0),
            (d > 0).astype(np.float64),
        )
    index = pref @ weights  # eq. 2 without 1/n: pi(a, b) in [0, 1]
    positive_flow = index.sum(axis=1) / (m - 1)  # eq. 3
    negative_flow = index.sum(axis=0) / (m - 1)  # eq. 4
    net_flow = positive_flow - negative_flow  # eq. 5
    return PrometheeResult(
        net_flow=net_flow,
        positive_flow=positive_flow,
        negative_flow=negative_flow,
        preference_index=index,
        weights=weights,
        ranks=_ranks_descending(net_flow),
        names=names,
        measure_names=measures,
    )


@validate_params(
    {
        "decision_matrix": ["array-like"],
        "maximize": _MAXIMIZE,
        "weights": _WEIGHTS,
        "preference": [Options(*_PREFERENCES)],
        "threshold": [Interval(Real, 0, None, closed="left"), "array-like", None],
    },
    rules=(_threshold_needs_v_shape,),
)
def promethee_ii(
    decision_matrix,
    *,
    maximize,
    weights="entropy",
    preference="usual",
    threshold=None,
):
    """Rank methods on several measures at once with PROMETHEE II.

    Every pair of methods is compared on every measure; a preference function
    turns each difference into a preference in [0, 1], the weights of the
    measures sum them into a preference index, and each method's net flow
    (how much it is preferred to the others minus how much they are preferred
    to it) ranks it. This is the performance-measures fusion of Eftimov &
    Kocev (2019) on one dataset.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    decision_matrix : array-like or DataFrame of shape (n_methods, n_measures)
        The value of each measure (column) for each method (row): finite
        real numbers (complex numbers, dates and strings are refused), at
        least two methods.

    maximize : bool, array-like of shape (n_measures,) of bool, or dict
        Whether each measure is maximised (True) or minimised (False). A dict
        maps column names of a DataFrame to bools (see
        :func:`measure_directions`); a single bool applies to every measure.

    weights : {"entropy", "equal"} or array-like of shape (n_measures,), \
            default="entropy"
        "entropy": :func:`entropy_weights` of this decision matrix; "equal":
        1 / n_measures each; or finite non-negative weights, not all 0,
        divided by their maximum and then by their sum (so that they sum to 1
        even when the sum of the given weights overflows).

    preference : {"usual", "v-shape"}, default="usual"
        The preference function of every measure. "usual" (eq. 13): a method
        better by any amount is fully preferred. "v-shape" (eq. 14): the
        preference grows linearly with the difference up to ``threshold``.

    threshold : float or array-like of shape (n_measures,), default=None
        The V-shape's threshold of strict preference, per measure; a
        threshold of 0 gives the usual function. By default the largest
        pairwise difference of each measure on this decision matrix
        (``max - min``), as in the paper. Only for ``preference="v-shape"``.

    Returns
    -------
    result : PrometheeResult
        With ``net_flow``, ``positive_flow``, ``negative_flow`` (arrays of
        shape (n_methods,)), ``preference_index`` (n_methods, n_methods),
        ``weights`` (n_measures,) and ``ranks`` (n_methods,), 1 for the best,
        ties sharing the average rank; ``names`` (the methods: a
        DataFrame's index) and ``measure_names`` (its columns), None for an
        array.

    See Also
    --------
    fuse_measures : PROMETHEE II on each dataset of a study, as a rank table.
    entropy_weights : The default weights.

    Notes
    -----
    With ``d_j(a, b) = q_j(a) - q_j(b)`` for a maximised measure and
    ``q_j(b) - q_j(a)`` for a minimised one, ``P_j(a, b) = p(d_j(a, b))``
    with ``p(x) = [x > 0]`` (usual) or ``p(x) = min(max(x / t_j, 0), 1)``
    (V-shape, threshold ``t_j``). Then, for m methods and n measures with
    weights summing to 1:

    - preference index ``pi(a, b) = sum_j w_j P_j(a, b)``;
    - ``phi+(a) = 1/(m-1) sum_x pi(a, x)``, ``phi-(a) = 1/(m-1) sum_x pi(x, a)``;
    - net flow ``phi(a) = phi+(a) - phi-(a)``; ranks by decreasing net flow.

    **Flows convention.** The paper's eq. 2 also divides ``pi`` by n, the
    number of measures; the usual PROMETHEE II (Brans & Mareschal) and
    pymcdm's ``PROMETHEE_II`` do not. This function follows the usual
    definition, so that ``pi(a, b)`` is the weighted share of the measures on
    which a beats b and the flows do not shrink as measures are added: the
    paper's flows are these divided by n, and the ranks are the same. (The
    text's eqs. 3-4 print ``1/(n-1)``; the sums run over the m methods, so
    the normalisation is ``1/(m-1)``.)

    References
    ----------
    .. [1] T. Eftimov and D. Kocev, "Performance Measures Fusion for
       Experimental Comparison of Methods for Multi-label Classification",
       AAAI-MAKE 2019, CEUR-WS 2350, paper 17.
    .. [2] J.-P. Brans and B. Mareschal, "PROMETHEE methods", in Multiple
       Criteria Decision Analysis: State of the Art Surveys, Springer, 2005.

    Examples
    --------
    Three methods on accuracy (maximised) and Hamming loss (minimised), the
    same weight for each:

    >>> from sklearn_mlcm import promethee_ii
    >>> X = [[0.80, 0.10],
    ...      [0.70, 0.05],
    ...      [0.60, 0.20]]
    >>> result = promethee_ii(X, maximize=[True, False], weights="equal")
    >>> result.net_flow
    array([ 0.5,  0.5, -1. ])
    >>> result.ranks
    array([1.5, 1.5, 3. ])
    >>> promethee_ii(X, maximize=[True, False], weights="equal",
    ...              preference="v-shape").ranks
    array([1., 2., 3.])

    A DataFrame names the methods (its index) and the measures (its columns);
    the result prints them:

    >>> import pandas as pd
    >>> frame = pd.DataFrame(X, index=["BR", "CC", "kNN"],
    ...                      columns=["accuracy", "hamming_loss"])
    >>> print(promethee_ii(frame, maximize={"accuracy": True, "hamming_loss": False},
    ...                    weights="equal"))
    PrometheeResult: 3 methods (rows), 2 measures (columns)
    best: method BR (row 0), ranks[0]=1.5000, net_flow[0]=0.5000
    Methods by rank:
    method    rank  net flow  positive flow  negative flow
    BR      1.5000    0.5000         0.7500         0.2500
    CC      1.5000    0.5000         0.7500         0.2500
    kNN     3.0000   -1.0000         0.0000         1.0000
    weights of the measures: accuracy 0.5000, hamming_loss 0.5000
    """
    matrix, names = check_decision_matrix(decision_matrix)
    n = matrix.shape[1]
    direction = check_directions(maximize, n, names)
    weights = _resolve_weights(weights, n)
    threshold = check_thresholds(threshold, n)
    if isinstance(weights, str):
        weights = _entropy_weights(matrix, direction)
    methods = row_names(decision_matrix)
    return _promethee(matrix, direction, weights, preference, threshold, methods, names)


@validate_params(
    {
        "results": ["array-like"],
        "maximize": _MAXIMIZE,
        "preference": [Options(*_PREFERENCES)],
        "weights": _WEIGHTS,
    }
)
def fuse_measures(results, *, maximize, preference="v-shape", weights="entropy"):
    """Rank the methods of a study on each dataset, all measures fused.

    Runs :func:`promethee_ii` on each dataset's decision matrix (methods by
    measures), with entropy weights and thresholds computed per dataset as in
    Eftimov & Kocev (2019), and returns the rank table of their Tables 2 and
    3, ready for :func:`friedman_test` and :func:`nemenyi_test`.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    results : array-like of shape (n_datasets, n_methods, n_measures) or DataFrame
        The value of each measure for each method on each dataset: a 3-D
        array, or a long DataFrame with the columns ``dataset``, ``method``,
        ``measure`` and ``value``, one row per value (names keep the order in
        which they first appear). Every method needs every measure on every
        dataset: finite real numbers; at least 2 methods.

    maximize : bool, array-like of shape (n_measures,) of bool, or dict
        Whether each measure is maximised (True) or minimised (False): for a
        DataFrame a dict from measure name to bool (such as
        :func:`measure_directions`, whose unused names are ignored), for an
        array one bool per measure; a single bool applies to every measure.

    preference : {"v-shape", "usual"}, default="v-shape"
        The preference function (Table 3 uses "v-shape", Table 2 "usual"). The
        V-shape threshold of each measure is its largest difference on that
        dataset.

    weights : {"entropy", "equal"} or array-like of shape (n_measures,), \
            default="entropy"
        "entropy": the entropy weights of each dataset's decision matrix;
        "equal", or fixed non-negative weights used on every dataset (as in
        :func:`promethee_ii`).

    Returns
    -------
    ranks : ndarray of shape (n_datasets, n_methods) or DataFrame
        The rank of each method on each dataset, 1 the best, ties sharing the
        average rank. A DataFrame (index "dataset", columns "method") for
        DataFrame input; an array for array input.

    See Also
    --------
    promethee_ii : The ranking of one dataset, with its flows and weights.
    friedman_test, nemenyi_test : The statistics on the rank table.

    References
    ----------
    .. [1] T. Eftimov and D. Kocev, "Performance Measures Fusion for
       Experimental Comparison of Methods for Multi-label Classification",
       AAAI-MAKE 2019, CEUR-WS 2350, paper 17.

    Examples
    --------
    Two datasets, three methods, accuracy and Hamming loss:

    >>> import pandas as pd
    >>> from sklearn_mlcm import fuse_measures, measure_directions
    >>> results = pd.DataFrame({
    ...     "dataset": ["emotions"] * 6 + ["scene"] * 6,
    ...     "method": ["BR", "BR", "CC", "CC", "kNN", "kNN"] * 2,
    ...     "measure": ["accuracy", "hamming_loss"] * 6,
    ...     "value": [0.52, 0.20, 0.55, 0.21, 0.48, 0.25,
    ...               0.60, 0.10, 0.64, 0.09, 0.62, 0.11]})
    >>> fuse_measures(results, maximize=measure_directions())
    method     BR   CC  kNN
    dataset
    emotions  2.0  1.0  3.0
    scene     2.5  1.0  2.5
    """
    cube, datasets, methods, measures = check_results(results)
    n_datasets, n_methods, n_measures = cube.shape
    direction = check_directions(maximize, n_measures, measures)
    weights = _resolve_weights(weights, n_measures)

    ranks = np.empty((n_datasets, n_methods))
    for d, matrix in enumerate(cube):
        w = _entropy_weights(matrix, direction) if isinstance(weights, str) else weights
        ranks[d] = _promethee(matrix, direction, w, preference, None).ranks

    if datasets is None:
        return ranks
    import pandas as pd

    return pd.DataFrame(
        ranks,
        index=pd.Index(datasets, name="dataset"),
        columns=pd.Index(methods, name="method"),
    )


@validate_params({"results": ["array-like"]})
def measure_correlations(results):
    """Pearson correlations between the measures, averaged over the datasets.

    On each dataset, the measures are correlated over the methods (the
    columns of its decision matrix); the correlation matrices are then
    averaged over the datasets, as in the correlation analysis of Eftimov &
    Kocev (2019).

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    results : array-like of shape (n_datasets, n_methods, n_measures) or DataFrame
        As for :func:`fuse_measures`: a 3-D array, or a long DataFrame with
        the columns ``dataset``, ``method``, ``measure`` and ``value``. At
        least 2 methods.

    Returns
    -------
    correlations : ndarray of shape (n_measures, n_measures) or DataFrame
        The average Pearson correlation of each pair of measures, signed (a
        loss and a score that agree correlate negatively); 1 on the diagonal.
        A dataset on which a measure is constant (no correlation is defined)
        is left out of that measure's averages; a pair with no dataset left
        is NaN. A DataFrame indexed by measure for DataFrame input.

    See Also
    --------
    least_correlated_measures : Picks measures that are not correlated.
    numpy.corrcoef : The correlation of one dataset.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_mlcm import measure_correlations
    >>> results = np.array([[[0.5, 0.25, 1.0], [0.6, 0.20, 3.0], [0.7, 0.15, 2.0]],
    ...                     [[0.2, 0.40, 1.0], [0.4, 0.30, 2.0], [0.3, 0.35, 3.0]]])
    >>> measure_correlations(results)
    array([[ 1. , -1. ,  0.5],
           [-1. ,  1. , -0.5],
           [ 0.5, -0.5,  1. ]])
    """
    cube, _, _, measures = check_results(results)
    n_measures = cube.shape[2]
    with np.errstate(divide="ignore", invalid="ignore"):  # a constant measure
        r = np.stack([np.corrcoef(matrix, rowvar=False) for matrix in cube])
    r = r.reshape(-1, n_measures, n_measures)  # corrcoef of 1 measure is 0-D
    defined = ~np.isnan(r)
    counts = defined.sum(axis=0)
    total = np.where(defined, r, 0.0).sum(axis=0)
    mean = np.divide(total, counts, out=np.full(total.shape, np.nan), where=counts > 0)
    mean = (mean + mean.T) / 2  # corrcoef's r_ij and r_ji differ in the last bit
    np.fill_diagonal(mean, 1.0)
    if measures is None:
        return mean
    import pandas as pd

    index = pd.Index(measures, name="measure")
    return pd.DataFrame(mean, index=index, columns=index.copy())


@validate_params({"correlations": ["array-like"], "threshold": [Interval(Real, 0, 1)]})
def least_correlated_measures(correlations, *, threshold=0.8):
    """A set of measures left once the correlated ones are removed.

    While two measures correlate by more than ``threshold`` in absolute
    value, the member of the most correlated pair with the greater mean
    absolute correlation to the other remaining measures is removed (a greedy
    rule like that of caret's ``findCorrelation``). No two of the measures
    left correlate above the threshold, as in the correlation analysis of
    Eftimov & Kocev (2019) at the thresholds 0.7, 0.8 and 0.9.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    correlations : array-like or DataFrame of shape (n_measures, n_measures)
        A symmetric correlation matrix with values in [-1, 1] (both within
        1e-8), such as :func:`measure_correlations` returns. NaN entries
        (undefined correlations) count as 0.

    threshold : float, default=0.8
        The largest absolute correlation allowed between two kept measures,
        in [0, 1].

    Returns
    -------
    measures : list
        The kept measures in their original order: names (the columns of a
        DataFrame) or column indices.

    See Also
    --------
    measure_correlations : The averaged correlation matrix.

    Notes
    -----
    The paper says it removed "the performance measures that have the
    average absolute correlation greater than some threshold" without giving
    the rule; its sets cannot be recomputed without Madjarov et al.'s table
    of values. This function uses the common greedy rule above, which is
    deterministic and guarantees that no kept pair exceeds the threshold.
    Ties (equal mean correlations) remove the later measure.

    Examples
    --------
    >>> from sklearn_mlcm import least_correlated_measures
    >>> corr = [[1.0, 0.95, 0.3],
    ...         [0.95, 1.0, 0.5],
    ...         [0.3, 0.5, 1.0]]
    >>> least_correlated_measures(corr, threshold=0.9)
    [0, 2]
    >>> least_correlated_measures(corr, threshold=0.99)
    [0, 1, 2]
    """
    matrix, names = check_correlation_matrix(correlations)

    strength = np.abs(np.nan_to_num(matrix, nan=0.0))
    np.fill_diagonal(strength, 0.0)
    kept = list(range(len(names)))
    while len(kept) > 1:
        sub = strength[np.ix_(kept, kept)]
        if sub.max() <= threshold:
            break
        a, b = np.unravel_index(np.argmax(sub), sub.shape)
        a, b = min(a, b), max(a, b)
        mean = sub.sum(axis=1) / (len(kept) - 1)
        kept.pop(a if mean[a] > mean[b] else b)
    return [names[i] for i in kept]
