"""Statistics across datasets: the Friedman and Nemenyi tests (Demšar, 2006).

The rank table (datasets by methods) comes from :func:`fuse_measures` or any
other ranking; the tests follow Demšar (2006), as Eftimov & Kocev (2019) do.
"""

from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy import stats

from sklearn_mlcm._param_validation import Interval, validate_params
from sklearn_mlcm._results import unpackable
from sklearn_mlcm._summary import (
    format_number,
    label_table,
    require_pandas,
    shorten,
)

from ._validation import check_rank_table

__all__ = [
    "FriedmanResult",
    "NemenyiResult",
    "friedman_test",
    "nemenyi_test",
]


#: The most methods a summary lists, and the most pairs (the rest:
#: ``to_frame``).
SUMMARY_METHODS = 12
SUMMARY_PAIRS = 20


@unpackable("statistic", "pvalue")
@dataclass(frozen=True, repr=False)
class FriedmanResult:
    """The outcome of :func:`friedman_test`, with k methods on N datasets.

    It unpacks as ``(statistic, pvalue)``, as scipy's
    ``FriedmanchisquareResult`` does: ``stat, p = friedman_test(ranks)``; the
    other fields are attributes. It prints a summary of at most 40 lines
    (the statistics, then the average ranks, best first); :meth:`to_frame`
    gives the average ranks as a table.

    Attributes
    ----------
    statistic : float
        Friedman's chi-square statistic (Demšar's chi²_F).

    pvalue : float
        Its p-value, from the chi-square distribution with k - 1 degrees of
        freedom.

    iman_davenport_statistic : float
        Iman and Davenport's F_F, less conservative than chi²_F.

    iman_davenport_pvalue : float
        Its p-value, from the F distribution with k - 1 and (k - 1)(N - 1)
        degrees of freedom.

    average_ranks : ndarray of shape (k,)
        The mean rank of each method over the datasets.

    names : list
        The method names: the columns of a DataFrame, else 0, ..., k - 1.

    n_datasets : int
        N, the number of rows of the rank table.
    """

    statistic: float
    pvalue: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    average_ranks: np.ndarray
    names: list
    n_datasets: int

    def __repr__(self):
        k = len(self.names)
        lines = [
            f"FriedmanResult: {k:,} methods on n_datasets={self.n_datasets}",
            f"statistic={format_number(self.statistic)}, "
            f"pvalue={format_pvalue(self.pvalue)} (chi-square, {k - 1} df)",
            f"iman_davenport_statistic={format_number(self.iman_davenport_statistic)}"
            f", iman_davenport_pvalue={format_pvalue(self.iman_davenport_pvalue)} "
            f"(F, {k - 1} and {(k - 1) * (self.n_datasets - 1)} df)",
            "Average ranks, best first:",
        ]
        return "\n".join(lines + _rank_lines(self.names, self.average_ranks))

    def to_frame(self):
        """The average ranks as a pandas DataFrame, one row per method.

        Returns
        -------
        frame : pandas.DataFrame of shape (n_methods, 1)
            Index ``names`` (named "method"), in the rank table's order;
            column ``average_rank`` (float64). The statistics are the
            result's attributes.

        Raises
        ------
        ImportError
            Without pandas, saying how to install it.
        """
        pandas = require_pandas("FriedmanResult.to_frame()")
        index = pandas.Index(list(self.names), name="method", dtype=object)
        return pandas.DataFrame(
            {"average_rank": np.asarray(self.average_ranks, dtype=np.float64)},
            index=index,
        )


@unpackable("critical_difference", "pvalues")
@dataclass(frozen=True, repr=False)
class NemenyiResult:
    """The outcome of :func:`nemenyi_test`, with k methods on N datasets.

    It unpacks as ``(critical_difference, pvalues)``: ``cd, p =
    nemenyi_test(ranks)``; the other fields are attributes. It prints a
    summary of at most 40 lines (the critical difference, the average ranks,
    then the significantly different pairs, the largest difference first);
    :meth:`to_frame` gives every pair as a table.

    Attributes
    ----------
    critical_difference : float
        Two methods differ significantly when their average ranks differ by
        more than this: ``q_alpha * sqrt(k (k + 1) / (6 N))``.

    q_alpha : float
        The critical value of the studentised range for k groups and
        infinite degrees of freedom, divided by sqrt(2) (Demšar's Table 5).

    alpha : float
        The significance level.

    average_ranks : ndarray of shape (k,)
        The mean rank of each method.

    names : list
        The method names: the columns of a DataFrame, else 0, ..., k - 1.

    rank_differences : ndarray of shape (k, k)
        ``|average_ranks[i] - average_ranks[j]|``.

    pvalues : ndarray of shape (k, k)
        The p-value of each pair (1 on the diagonal).

    significant : ndarray of shape (k, k), dtype=bool
        ``rank_differences > critical_difference``.

    significant_pairs : list of tuple
        The significantly different pairs as ``(better, worse)`` names, the
        largest difference first.
    """

    critical_difference: float
    q_alpha: float
    alpha: float
    average_ranks: np.ndarray
    names: list
    rank_differences: np.ndarray
    pvalues: np.ndarray
    significant: np.ndarray
    significant_pairs: list

    def __repr__(self):
        k = len(self.names)
        n_pairs = k * (k - 1) // 2
        n_significant = len(self.significant_pairs)
        lines = [
            f"NemenyiResult: {k:,} methods, alpha={self.alpha:g}",
            f"critical_difference={format_number(self.critical_difference)} "
            f"(q_alpha={format_number(self.q_alpha)})",
            "Average ranks, best first:",
            *_rank_lines(self.names, self.average_ranks),
        ]
        if not n_significant:
            lines.append(f"No pair of the {n_pairs:,} differs significantly.")
            return "\n".join(lines)
        lines.append(
            f"{n_significant:,} of {n_pairs:,} pairs differ significantly, the "
            "largest difference first:"
        )
        position = {name: i for i, name in enumerate(self.names)}
        rows = []
        for better, worse in self.significant_pairs[:SUMMARY_PAIRS]:
            i, j = position[better], position[worse]
            rows.append(
                [
                    shorten(better),
                    shorten(worse),
                    format_number(self.rank_differences[i, j]),
                    format_pvalue(self.pvalues[i, j]),
                ]
            )
        header = ["better", "worse", "rank difference", "pvalue"]
        lines += label_table(header, rows, range(len(rows)), n_significant, noun="pair")
        return "\n".join(lines)

    def to_frame(self):
        """Every pair of methods as a pandas DataFrame, one row per pair.

        Returns
        -------
        frame : pandas.DataFrame of shape (n_methods * (n_methods - 1) / 2, 5)
            Columns ``better`` and ``worse`` (the names of the methods of
            lower and higher average rank; on a tie, the earlier method is
            ``better``), ``rank_difference`` (float64, from
            ``rank_differences``), ``pvalue`` (float64, from ``pvalues``)
            and ``significant`` (bool); the largest difference first, pairs
            of equal difference in the order of the methods.

        Raises
        ------
        ImportError
            Without pandas, saying how to install it.
        """
        pandas = require_pandas("NemenyiResult.to_frame()")
        k = len(self.names)
        first, second = np.triu_indices(k, 1)
        ranks = np.asarray(self.average_ranks)
        swap = ranks[second] < ranks[first]
        better = np.where(swap, second, first)
        worse = np.where(swap, first, second)
        differences = np.asarray(self.rank_differences)[first, second]
        order = np.argsort(-differences, kind="stable")
        names = np.empty(k, dtype=object)
        names[:] = list(self.names)
        return pandas.DataFrame(
            {
                "better": names[better[order]],
                "worse": names[worse[order]],
                "rank_difference": differences[order],
                "pvalue": np.asarray(self.pvalues)[first, second][order],
                "significant": np.asarray(self.significant)[first, second][order],
            }
        )


def format_pvalue(value):
    """A p-value to 4 significant digits: small ones stay visible."""
    return f"{float(value):.4g}"


def _rank_lines(names, average_ranks):
    """The table of the methods' average ranks, best first, at most
    SUMMARY_METHODS rows and how many more there are."""
    order = np.argsort(average_ranks, kind="stable")
    rows = [
        [shorten(names[i]), format_number(average_ranks[i])]
        for i in order[:SUMMARY_METHODS].tolist()
    ]
    header = ["method", "average rank"]
    return label_table(header, rows, range(len(rows)), len(names), noun="method")


#: The smallest significance level: below it the studentised range's
#: quantile, which scipy computes as ``1 - cdf`` to about 1e-11, is not exact.
MIN_ALPHA = 1e-10


def _tie_factor(ranks):
    """Friedman's tie correction ``1 - sum (t^3 - t) / (N (k^3 - k))``.

    The mean over the rows of :func:`scipy.stats.tiecorrect`, each row's
    ``1 - sum (t^3 - t) / (k^3 - k)``.
    """
    return float(np.mean([stats.tiecorrect(row) for row in ranks]))


@validate_params({"rank_table": ["array-like"], "tie_correction": ["boolean"]})
def friedman_test(rank_table, *, tie_correction=False):
    """Friedman's test that k methods rank alike on N datasets.

    The statistic is computed from the average ranks as in Demšar (2006),
    with Iman and Davenport's F statistic alongside. Without tie correction
    (the default) it reproduces the p-values of Eftimov & Kocev (2019).

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    rank_table : array-like or DataFrame of shape (n_datasets, n_methods)
        The rank of each method (column) on each dataset (row), 1 the best,
        ties sharing the average rank, as :func:`fuse_measures` and
        :func:`scipy.stats.rankdata` return them: each row holds ranks in
        [1, k] summing to k (k + 1) / 2. At least 2 datasets and 2 methods.

    tie_correction : bool, default=False
        Divide the statistic by ``1 - sum (t^3 - t) / (N (k^3 - k))``, t the
        sizes of the groups of tied ranks (the mean over the datasets of
        :func:`scipy.stats.tiecorrect`), as :func:`scipy.stats.friedmanchisquare`
        does.

    Returns
    -------
    result : FriedmanResult
        ``statistic`` and ``pvalue`` (scipy's names), the Iman-Davenport
        ``iman_davenport_statistic`` and ``iman_davenport_pvalue``, the
        ``average_ranks`` of shape (n_methods,), the method ``names`` and
        ``n_datasets``.

    See Also
    --------
    scipy.stats.friedmanchisquare : Takes the raw measurements, one sample
        per method, and always corrects for ties.
    nemenyi_test : The post-hoc test that says which methods differ.

    Notes
    -----
    With ``R_j`` the average rank of method j:

    - ``chi2_F = 12 N / (k (k + 1)) (sum_j R_j^2 - k (k + 1)^2 / 4)``, with
      k - 1 degrees of freedom;
    - ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``, with k - 1 and
      (k - 1)(N - 1) degrees of freedom (infinite, p-value 0, when every
      dataset ranks the methods the same way).

    References
    ----------
    .. [1] J. Demšar, "Statistical Comparisons of Classifiers over Multiple
       Data Sets", JMLR 7, 1-30, 2006.
    .. [2] T. Eftimov and D. Kocev, "Performance Measures Fusion for
       Experimental Comparison of Methods for Multi-label Classification",
       AAAI-MAKE 2019, CEUR-WS 2350, paper 17.

    Examples
    --------
    Four datasets, three methods:

    >>> from sklearn_mlcm import friedman_test
    >>> ranks = [[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]]
    >>> result = friedman_test(ranks)
    >>> result.average_ranks
    array([1.25, 2.  , 2.75])
    >>> round(result.statistic, 4), round(result.pvalue, 4)
    (4.5, 0.1054)
    >>> round(result.iman_davenport_statistic, 4)
    3.8571
    """
    ranks, names = check_rank_table(rank_table)
    n, k = ranks.shape

    average = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(average**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)  # rounding below 0 when every rank ties
    if tie_correction:
        factor = _tie_factor(ranks)
        chi2 = chi2 / factor if factor > 0 else 0.0
    denominator = n * (k - 1) - chi2
    if denominator > 1e-12 * n * k:
        f_stat = (n - 1) * chi2 / denominator
        f_pvalue = float(stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1)))
    else:  # every dataset ranks the methods alike
        f_stat, f_pvalue = float("inf"), 0.0
    return FriedmanResult(
        statistic=chi2,
        pvalue=float(stats.chi2.sf(chi2, k - 1)),
        iman_davenport_statistic=float(f_stat),
        iman_davenport_pvalue=f_pvalue,
        average_ranks=average,
        names=names,
        n_datasets=n,
    )


def _nemenyi_q_alpha(k, alpha):
    """Demšar's q_alpha: the studentised range's upper alpha quantile / sqrt(2)."""
    return float(stats.studentized_range.isf(alpha, k, np.inf) / np.sqrt(2.0))


@validate_params(
    {
        "rank_table": ["array-like"],
        "alpha": [Interval(Real, MIN_ALPHA, 1, closed="left")],
    }
)
def nemenyi_test(rank_table, *, alpha=0.05):
    """Nemenyi's post-hoc test: which pairs of methods rank differently.

    Every pair of methods is compared (all vs. all) on their average ranks
    over the datasets; a pair differs significantly when the difference of
    their average ranks exceeds the critical difference (Demšar 2006).

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    rank_table : array-like or DataFrame of shape (n_datasets, n_methods)
        The rank of each method (column) on each dataset (row), 1 the best,
        ties sharing the average rank, as :func:`fuse_measures` and
        :func:`scipy.stats.rankdata` return them: each row holds ranks in
        [1, k] summing to k (k + 1) / 2. At least 2 datasets and 2 methods.

    alpha : float, default=0.05
        The significance level, in [1e-10, 1). Below 1e-10 scipy's quantile
        of the studentised range is no longer exact (it is computed as one
        minus the distribution function, to about 1e-11).

    Returns
    -------
    result : NemenyiResult
        ``critical_difference``, ``q_alpha``, ``alpha``, the
        ``average_ranks`` of shape (n_methods,), the method ``names``, the
        pairwise ``rank_differences``, ``pvalues`` and ``significant`` of
        shape (n_methods, n_methods), and the ``significant_pairs`` as
        (better, worse) names.

    See Also
    --------
    friedman_test : The omnibus test to run first.
    CriticalDifferenceDisplay : The critical-difference diagram.

    Notes
    -----
    ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` with ``q_alpha`` the upper
    ``alpha`` quantile of the studentised range of k groups with infinite
    degrees of freedom, divided by sqrt(2), computed by
    :data:`scipy.stats.studentized_range` (``isf(alpha)``) for any k (3.268
    for k = 12 at 0.05, as in Demšar's Table 5). The p-value of a pair is the
    probability that the studentised range exceeds ``sqrt(2) |R_i - R_j| /
    sqrt(k (k + 1) / (6 N))``; it is below ``alpha`` exactly for the
    significant pairs. These are the numbers of scikit-posthocs'
    ``posthoc_nemenyi_friedman``, which is not needed for them.

    References
    ----------
    .. [1] J. Demšar, "Statistical Comparisons of Classifiers over Multiple
       Data Sets", JMLR 7, 1-30, 2006.

    Examples
    --------
    >>> from sklearn_mlcm import nemenyi_test
    >>> ranks = [[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3], [1, 2, 3],
    ...          [1, 2, 3]]
    >>> result = nemenyi_test(ranks)
    >>> round(result.q_alpha, 3), round(result.critical_difference, 3)
    (2.344, 1.353)
    >>> result.average_ranks.round(3)
    array([1.167, 2.   , 2.833])
    >>> result.significant_pairs
    [(0, 2)]
    """
    alpha = float(alpha)
    ranks, names = check_rank_table(rank_table)
    n, k = ranks.shape

    average = ranks.mean(axis=0)
    q_alpha = _nemenyi_q_alpha(k, alpha)
    scale = np.sqrt(k * (k + 1) / (6.0 * n))
    cd = q_alpha * scale
    differences = np.abs(average[:, None] - average[None, :])
    pvalues = stats.studentized_range.sf(np.sqrt(2.0) * differences / scale, k, np.inf)
    pvalues = np.clip(pvalues, 0.0, 1.0)
    np.fill_diagonal(pvalues, 1.0)
    significant = differences > cd
    pairs = [
        (i, j) if average[i] < average[j] else (j, i)
        for i in range(k)
        for j in range(i + 1, k)
        if significant[i, j]
    ]
    pairs.sort(key=lambda pair: -differences[pair])
    return NemenyiResult(
        critical_difference=float(cd),
        q_alpha=q_alpha,
        alpha=alpha,
        average_ranks=average,
        names=names,
        rank_differences=differences,
        pvalues=pvalues,
        significant=significant,
        significant_pairs=[(names[i], names[j]) for i, j in pairs],
    )
