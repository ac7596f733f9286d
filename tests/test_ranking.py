"""Friedman, Nemenyi, the measures' correlations and the CD diagram.

Eftimov & Kocev (2019), "Performance Measures Fusion for Experimental
Comparison of Methods for Multi-label Classification", AAAI-MAKE: Tables 2 and
3 (the fused ranks of 12 methods on 11 datasets, complete in the text), the
Friedman p-values and Nemenyi pairs quoted with them, and Tables 4 and 5. The
critical values are those of Demšar (2006), Table 5.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_mlcm import (
    CriticalDifferenceDisplay,
    FriedmanResult,
    NemenyiResult,
    friedman_test,
    least_correlated_measures,
    measure_correlations,
    nemenyi_test,
)

METHODS = [
    "BR",
    "CC",
    "CLR",
    "QWML",
    "HOMER",
    "ML-C4.5",
    "PCT",
    "ML-kNN",
    "RAkEL",
    "ECC",
    "RFML-C4.5",
    "RF-PCT",
]
DATASETS = [
    "emotions",
    "scene",
    "yeast",
    "medical",
    "enron",
    "corel5k",
    "tmc2007",
    "mediamill",
    "bibtex",
    "delicious",
    "bookmarks",
]
# Eftimov & Kocev (2019), Table 2: fused ranks, usual preference function.
TABLE_2 = np.array(
    [
        [7, 10, 8, 11, 5, 3, 4, 12, 6, 9, 2, 1],
        [2, 3, 5, 7, 6, 11, 12, 9, 1, 4, 10, 8],
        [2, 4, 1, 6, 3, 11, 12, 8, 9, 5, 10, 7],
        [8, 5, 3, 1, 2, 4, 12, 10, 7, 9, 11, 6],
        [2, 7, 1, 9, 4, 10, 12, 11, 8, 5, 6, 3],
        [4, 5, 1, 2, 3, 9, 11, 7, 12, 10, 8, 6],
        [3, 1, 4, 5, 6, 11, 12, 10, 7, 9, 8, 2],
        [4, 5, 11, 10, 6, 12, 7, 3, 9, 8, 2, 1],
        [2, 1, 3, 4, 5, 10, 11, 8, 12, 7, 9, 6],
        [4, 3, 10.5, 10.5, 5, 7, 8, 6, 10.5, 10.5, 2, 1],
        [9, 9, 9, 9, 9, 2, 5, 3, 9, 9, 4, 1],
    ]
)
# Eftimov & Kocev (2019), Table 3: fused ranks, V-shape preference function.
TABLE_3 = np.array(
    [
        [8, 10, 9, 11, 5, 3, 4, 12, 6, 7, 2, 1],
        [2, 1, 4, 7, 6, 11, 12, 8, 3, 5, 10, 9],
        [2, 4, 1, 9, 3, 12, 11, 6, 8, 5, 10, 7],
        [10, 9, 2, 1, 4, 3, 12, 6, 7, 8, 11, 5],
        [1, 10, 2, 7, 4, 8, 12, 11, 9, 6, 5, 3],
        [4, 5, 1, 2, 3, 10, 9, 7, 11, 12, 6, 8],
        [3, 2, 4, 6, 5, 11, 12, 10, 7, 8, 9, 1],
        [4, 5, 12, 11, 7, 10, 6, 3, 8, 9, 2, 1],
        [2, 1, 3, 4, 5, 10, 11, 7, 12, 8, 9, 6],
        [4, 3, 10.5, 10.5, 5, 7, 8, 6, 10.5, 10.5, 1, 2],
        [9, 9, 9, 9, 9, 2, 5, 3, 9, 9, 4, 1],
    ]
)
# Eftimov & Kocev (2019), Table 4: average ranks over the datasets with the
# measures left at correlation thresholds 0.7, 0.8, 0.9, and with all of them.
TABLE_4 = np.array(
    [
        [4.82, 4.82, 4.45, 4.45],
        [5.09, 5.18, 5.45, 5.36],
        [5.14, 5.32, 5.23, 5.23],
        [6.77, 6.77, 6.41, 7.05],
        [6.27, 6.55, 6.73, 5.09],
        [8.27, 8.09, 7.91, 7.91],
        [9.09, 9.00, 9.27, 9.27],
        [6.91, 6.91, 6.91, 7.18],
        [8.41, 7.95, 8.50, 8.23],
        [8.59, 8.59, 8.59, 7.95],
        [5.45, 5.45, 5.36, 6.27],
        [3.18, 3.36, 3.18, 4.00],
    ]
)
# Eftimov & Kocev (2019), Table 5: the "practical" ranks of Table 4's columns.
TABLE_5 = np.array(
    [
        [2, 2, 2, 2],
        [3, 3, 5, 5],
        [4, 4, 3, 4],
        [7, 7, 6, 7],
        [6, 6, 7, 3],
        [9, 10, 9, 9],
        [12, 12, 12, 12],
        [8, 8, 8, 8],
        [10, 9, 10, 11],
        [11, 11, 11, 10],
        [5, 5, 4, 6],
        [1, 1, 1, 1],
    ]
)


def _frame(table):
    return pd.DataFrame(
        table,
        index=pd.Index(DATASETS, name="dataset"),
        columns=pd.Index(METHODS, name="method"),
    )


# -- Eftimov & Kocev (2019) ---------------------------------------------------


def test_eftimov_tables_2_3_are_rankings():
    """Tables 2 and 3: every row is a ranking of 12 methods (sum 78)."""
    assert_array_equal(TABLE_2.sum(axis=1), 78)
    assert_array_equal(TABLE_3.sum(axis=1), 78)


def test_friedman_test_eftimov_table_2():
    """Eftimov & Kocev (2019), Table 2: p = 0.000578, printed 0.0005."""
    result = friedman_test(TABLE_2)
    assert result.statistic == pytest.approx(32.748252, abs=1e-6)
    assert round(result.pvalue, 6) == 0.000578
    assert np.floor(result.pvalue * 1e4) / 1e4 == 0.0005


def test_friedman_test_eftimov_table_3():
    """Eftimov & Kocev (2019), Table 3: p = 0.006142, printed 0.0061."""
    result = friedman_test(TABLE_3)
    assert result.statistic == pytest.approx(26.160839, abs=1e-6)
    assert round(result.pvalue, 6) == 0.006142
    assert np.floor(result.pvalue * 1e4) / 1e4 == 0.0061


@pytest.mark.parametrize("table", [TABLE_2, TABLE_3], ids=["table_2", "table_3"])
def test_friedman_test_tie_correction_is_scipys(table):
    """tie_correction=True is scipy's friedmanchisquare (not the paper's)."""
    result = friedman_test(table, tie_correction=True)
    expected = stats.friedmanchisquare(*table.T)
    assert result.statistic == pytest.approx(expected.statistic)
    assert result.pvalue == pytest.approx(expected.pvalue)
    assert result.pvalue < friedman_test(table).pvalue


def test_friedman_test_iman_davenport_eftimov_table_2():
    """Iman-Davenport's F on Table 2, from Demšar's formula (eq. 2)."""
    result = friedman_test(TABLE_2)
    n, k = TABLE_2.shape
    f = (n - 1) * result.statistic / (n * (k - 1) - result.statistic)
    assert result.iman_davenport_statistic == pytest.approx(f)
    assert result.iman_davenport_statistic == pytest.approx(3.710777, abs=1e-6)
    assert result.iman_davenport_pvalue == pytest.approx(
        stats.f.sf(f, k - 1, (k - 1) * (n - 1))
    )


def test_nemenyi_test_eftimov_table_2():
    """Table 2: CD 5.024 (k=12, N=11); (RF-PCT, PCT) and (BR, PCT) differ."""
    result = nemenyi_test(_frame(TABLE_2), alpha=0.05)
    assert round(result.critical_difference, 3) == 5.024
    assert round(result.q_alpha, 3) == 3.268
    assert result.significant_pairs == [("RF-PCT", "PCT"), ("BR", "PCT")]
    assert result.significant.sum() == 4  # both pairs, both ways


def test_nemenyi_test_eftimov_table_3():
    """Table 3: only (RF-PCT, PCT) differs."""
    result = nemenyi_test(_frame(TABLE_3))
    assert round(result.critical_difference, 3) == 5.024
    assert result.significant_pairs == [("RF-PCT", "PCT")]


def test_eftimov_table_4_all_is_mean_of_table_3():
    """Table 4, column "All": the average ranks of Table 3, to 2 decimals."""
    for result in (friedman_test(TABLE_3), nemenyi_test(TABLE_3)):
        assert_allclose(result.average_ranks.round(2), TABLE_4[:, 3])


def test_eftimov_table_5_ranks_table_4():
    """Table 5: each column ranks the matching column of Table 4."""
    assert_array_equal(stats.rankdata(TABLE_4, axis=0), TABLE_5)
    all_column = stats.rankdata(friedman_test(TABLE_3).average_ranks)
    assert_array_equal(all_column, TABLE_5[:, 3])


def test_friedman_test_eftimov_table_4_thresholds():
    """Table 4 ranked per method: the thresholds do not differ (p = 0.935)."""
    ranks = stats.rankdata(TABLE_4, axis=1)  # 12 methods x 4 columns
    assert round(friedman_test(ranks).pvalue, 3) == 0.935


# -- Friedman -----------------------------------------------------------------


def test_friedman_test_result_type():
    """A FriedmanResult of Python floats, an array and the method names."""
    result = friedman_test(_frame(TABLE_2))
    assert isinstance(result, FriedmanResult)
    for name in (
        "statistic",
        "pvalue",
        "iman_davenport_statistic",
        "iman_davenport_pvalue",
    ):
        assert type(getattr(result, name)) is float, name
    assert result.average_ranks.shape == (12,)
    assert result.names == METHODS
    assert result.n_datasets == 11
    assert friedman_test(TABLE_2).names == list(range(12))


def test_friedman_test_hand_example():
    """Four datasets, three methods: chi2 = 4.5, F = 27 / 7, by hand."""
    result = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    assert_allclose(result.average_ranks, [1.25, 2.0, 2.75])
    assert result.statistic == pytest.approx(4.5)
    assert result.pvalue == pytest.approx(np.exp(-2.25))  # chi2 with 2 dof
    assert result.iman_davenport_statistic == pytest.approx(27 / 7)


def test_friedman_test_perfect_agreement():
    """Every dataset ranks alike: chi2 = N (k - 1), F infinite, p-value 0."""
    result = friedman_test([[1, 2, 3]] * 5)
    assert result.statistic == pytest.approx(10.0)
    assert result.iman_davenport_statistic == float("inf")
    assert result.iman_davenport_pvalue == 0.0


def test_friedman_test_all_tied():
    """Every method tied on every dataset: statistic 0, p-value 1."""
    for correction in (False, True):
        result = friedman_test([[2, 2, 2]] * 4, tie_correction=correction)
        assert result.statistic == 0.0
        assert result.pvalue == 1.0


@pytest.mark.parametrize(
    "table, error, match",
    [
        ([1, 2, 3], ValueError, r"must be 2-D.*Got shape \(3,\)"),
        ([[1, 2, 3]], ValueError, "at least 2 datasets"),
        ([[1, 2, 3], [0.9, 0.5, 0.1]], ValueError, "Row 1 of the rank table.*rankdata"),
        ([[1, 2, 3], [1, 2, 4]], ValueError, "Row 1 .*sum to 6"),
        ([[1, 2, 3], [2, 2, np.nan]], ValueError, "NaN or infinity"),
        ([["a", "b"], ["b", "a"]], TypeError, "must hold numbers"),
        ([[1, 2], [1]], ValueError, "rectangular"),
    ],
    ids=["1d", "one_dataset", "scores", "not_a_ranking", "nan", "strings", "ragged"],
)
def test_friedman_test_bad_rank_table(table, error, match):
    """Rank tables that are not rank tables."""
    with pytest.raises(error, match=match):
        friedman_test(table)


def test_friedman_test_bad_tie_correction():
    """tie_correction must be a bool."""
    with pytest.raises(TypeError, match="'tie_correction' parameter of friedman_test"):
        friedman_test(TABLE_2, tie_correction="yes")


# -- Nemenyi ------------------------------------------------------------------


@pytest.mark.parametrize(
    "alpha, expected",
    [
        (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
        (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
    ],
)
def test_nemenyi_test_q_alpha_demsar_table_5(alpha, expected):
    """Demšar (2006), Table 5 (a) and (b): q_alpha for k = 2, ..., 10.

    Demšar prints three decimals, cut rather than rounded (2.3437 as 2.343).
    """
    for k, q in zip(range(2, 11), expected):
        table = np.tile(np.arange(1, k + 1), (3, 1))
        assert nemenyi_test(table, alpha=alpha).q_alpha == pytest.approx(q, abs=1e-3)


def test_nemenyi_test_result_type_and_shapes():
    """A NemenyiResult with (k, k) tables and Python floats."""
    result = nemenyi_test(TABLE_2)
    assert isinstance(result, NemenyiResult)
    assert type(result.critical_difference) is float
    assert type(result.q_alpha) is float
    assert result.alpha == 0.05
    for name in ("rank_differences", "pvalues", "significant"):
        assert getattr(result, name).shape == (12, 12), name
    assert result.significant.dtype == bool
    assert_allclose(np.diagonal(result.pvalues), 1.0)
    assert_allclose(result.pvalues, result.pvalues.T)


def test_nemenyi_test_pvalues_agree_with_critical_difference():
    """A pair's p-value is below alpha exactly when it exceeds the CD."""
    for table in (TABLE_2, TABLE_3):
        for alpha in (0.05, 0.10):
            result = nemenyi_test(table, alpha=alpha)
            off = ~np.eye(12, dtype=bool)
            assert_array_equal((result.pvalues < alpha)[off], result.significant[off])


def test_nemenyi_test_pvalue_at_the_critical_difference():
    """A difference equal to the CD has p-value alpha."""
    result = nemenyi_test(TABLE_2)
    scale = np.sqrt(12 * 13 / (6 * 11))
    p = stats.studentized_range.sf(
        np.sqrt(2) * result.critical_difference / scale, 12, np.inf
    )
    assert p == pytest.approx(0.05, abs=1e-6)


def test_nemenyi_test_matches_scikit_posthocs():
    """scikit-posthocs' posthoc_nemenyi_friedman (optional) gives the p-values."""
    posthocs = pytest.importorskip("scikit_posthocs")
    expected = posthocs.posthoc_nemenyi_friedman(TABLE_2).to_numpy()
    assert_allclose(nemenyi_test(TABLE_2).pvalues, expected, atol=1e-6)


def test_nemenyi_test_hand_example():
    """Six datasets, three methods: CD = 2.343 sqrt(1/3), one pair differs."""
    ranks = [[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3], [1, 2, 3], [1, 2, 3]]
    result = nemenyi_test(ranks)
    assert result.critical_difference == pytest.approx(
        result.q_alpha * np.sqrt(3 * 4 / (6 * 6))
    )
    assert_allclose(result.rank_differences[0], [0, 5 / 6, 10 / 6])
    assert result.significant_pairs == [(0, 2)]


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, "0.05", True])
def test_nemenyi_test_bad_alpha(alpha):
    """alpha must be a number strictly between 0 and 1."""
    with pytest.raises(
        ValueError, match=r"'alpha' parameter of nemenyi_test.*\(0, 1\)"
    ):
        nemenyi_test(TABLE_2, alpha=alpha)


def test_nemenyi_test_bad_rank_table():
    """The rank table is checked under nemenyi_test's name."""
    with pytest.raises(ValueError, match="rank table of nemenyi_test"):
        nemenyi_test([[1, 2, 3], [3, 3, 3]])


# -- correlations ---------------------------------------------------------------

RESULTS = np.array(
    [
        [[0.5, 0.25, 1.0], [0.6, 0.20, 3.0], [0.7, 0.15, 2.0]],
        [[0.2, 0.40, 1.0], [0.4, 0.30, 2.0], [0.3, 0.35, 3.0]],
    ]
)


def test_measure_correlations_hand_example():
    """Two datasets: r = -1, 0.5 and -0.5 on each, by hand."""
    assert_allclose(
        measure_correlations(RESULTS),
        [[1, -1, 0.5], [-1, 1, -0.5], [0.5, -0.5, 1]],
    )


def test_measure_correlations_is_mean_of_corrcoef():
    """Random results: the mean over datasets of NumPy's corrcoef."""
    rng = np.random.default_rng(0)
    results = rng.random((4, 6, 5))
    expected = np.mean([np.corrcoef(d, rowvar=False) for d in results], axis=0)
    assert_allclose(measure_correlations(results), expected)


def test_measure_correlations_constant_measure():
    """A measure constant on one dataset is averaged over the others only."""
    results = RESULTS.copy()
    results[1, :, 2] = 7.0
    with np.errstate(all="raise"):
        corr = measure_correlations(results)
    assert_allclose(corr[0, 2], 0.5)  # dataset 0 only
    assert_allclose(corr[0, 1], -1.0)
    results[0, :, 2] = 7.0
    assert np.isnan(measure_correlations(results)[0, 2])


def test_measure_correlations_dataframe():
    """A long DataFrame gives a DataFrame indexed by measure name."""
    rows = [
        (f"d{d}", f"m{i}", name, RESULTS[d, i, j])
        for d in range(2)
        for i in range(3)
        for j, name in enumerate(["accuracy", "hamming_loss", "coverage"])
    ]
    frame = pd.DataFrame(rows, columns=["dataset", "method", "measure", "value"])
    corr = measure_correlations(frame)
    assert (
        list(corr.index)
        == list(corr.columns)
        == [
            "accuracy",
            "hamming_loss",
            "coverage",
        ]
    )
    assert_allclose(corr.to_numpy(), measure_correlations(RESULTS))


def test_measure_correlations_bad_input():
    """Fewer than two methods, or NaN values."""
    with pytest.raises(ValueError, match="at least 2 methods"):
        measure_correlations(RESULTS[:, :1])
    results = RESULTS.copy()
    results[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="measure_correlations contain NaN"):
        measure_correlations(results)


CORR = np.array(
    [
        [1.0, 0.95, 0.85, 0.4],
        [0.95, 1.0, 0.75, 0.2],
        [0.85, 0.75, 1.0, 0.3],
        [0.4, 0.2, 0.3, 1.0],
    ]
)


@pytest.mark.parametrize(
    "threshold, expected",
    [
        (0.9, [1, 2, 3]),
        (0.8, [1, 2, 3]),
        (0.7, [1, 3]),
        (0.1, [1]),
        (0.99, [0, 1, 2, 3]),
    ],
)
def test_least_correlated_measures_hand_example(threshold, expected):
    """The most correlated pair loses its member with the larger mean |r|."""
    # (0, 1) at 0.95 goes first: mean |r| 2.2 / 3 for 0 against 1.9 / 3 for 1.
    # Then (1, 2) at 0.75: 0.95 / 2 for 1 against 1.05 / 2 for 2. Then (1, 3) at
    # 0.2: a tie, and the later measure goes.
    assert least_correlated_measures(CORR, threshold=threshold) == expected


def test_least_correlated_measures_signs_and_names():
    """Negative correlations count by their size; DataFrame names come back."""
    names = ["hamming_loss", "accuracy", "coverage"]
    corr = pd.DataFrame(
        [[1.0, -0.95, 0.1], [-0.95, 1.0, 0.2], [0.1, 0.2, 1.0]],
        index=names,
        columns=names,
    )
    assert least_correlated_measures(corr, threshold=0.9) == [
        "hamming_loss",
        "coverage",
    ]


@settings(max_examples=50, deadline=None)
@given(
    values=st.lists(st.floats(-1, 1), min_size=15, max_size=15),
    threshold=st.sampled_from([0.7, 0.8, 0.9]),
)
def test_least_correlated_measures_leaves_no_pair_above(values, threshold):
    """Random 6 x 6 symmetric matrices: no kept pair exceeds the threshold."""
    corr = np.eye(6)
    corr[np.triu_indices(6, 1)] = values
    corr = np.triu(corr) + np.triu(corr, 1).T
    kept = least_correlated_measures(corr, threshold=threshold)
    assert kept == sorted(kept) and kept
    sub = np.abs(corr[np.ix_(kept, kept)])
    assert (sub[~np.eye(len(kept), dtype=bool)] <= threshold).all()


@pytest.mark.parametrize(
    "corr, threshold, error, match",
    [
        (CORR, 1.5, ValueError, r"'threshold' parameter.*\[0, 1\]"),
        (CORR, "0.8", ValueError, r"'threshold' parameter"),
        (CORR[:2], 0.8, ValueError, "non-empty square matrix"),
        ([["a"]], 0.8, TypeError, "matrix of numbers"),
    ],
    ids=["threshold", "threshold_string", "not_square", "strings"],
)
def test_least_correlated_measures_bad_input(corr, threshold, error, match):
    """Thresholds outside [0, 1], non-square or non-numeric matrices."""
    with pytest.raises(error, match=match):
        least_correlated_measures(corr, threshold=threshold)


# -- CD diagram -----------------------------------------------------------------


@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_cd_diagram_eftimov_table_3(plt):
    """Table 3: names with average ranks; PCT and RF-PCT in no common bar."""
    disp = CriticalDifferenceDisplay.from_rank_table(_frame(TABLE_3))
    assert disp.critical_difference == pytest.approx(5.0243, abs=1e-4)
    texts = [t.get_text() for t in disp.text_]
    assert texts[0] == "BR (4.45)" and texts[11] == "RF-PCT (4.00)"
    for clique in disp.cliques_:
        assert not {"PCT", "RF-PCT"} <= set(clique)
    # every pair that is not significant shares a bar
    result = nemenyi_test(TABLE_3)
    for i in range(12):
        for j in range(i + 1, 12):
            shared = any(
                {METHODS[i], METHODS[j]} <= set(clique) for clique in disp.cliques_
            )
            assert shared == (not result.significant[i, j])
    assert disp.figure_ is disp.ax_.figure


def test_cd_diagram_layout(plt):
    """Best half on the left, names right-aligned there; the CD bar's text."""
    disp = CriticalDifferenceDisplay([1.2, 3.5, 2.0, 3.3], 1.0, names=list("abcd"))
    disp.plot()
    assert disp.cliques_ == [["a", "c"], ["d", "b"]]
    left = [t.get_text() for t in disp.text_ if t.get_ha() == "right"]
    assert left == ["a (1.20)", "c (2.00)"]
    assert all(t.get_position()[0] < 1 for t in disp.text_ if t.get_ha() == "right")
    assert all(t.get_position()[0] > 4 for t in disp.text_ if t.get_ha() == "left")
    assert "CD = 1.000" in [t.get_text() for t in disp.ax_.texts]


def test_cd_diagram_on_given_axes(plt):
    """Drawing on an existing Axes keeps its figure."""
    fig, ax = plt.subplots()
    disp = CriticalDifferenceDisplay([1.5, 1.5], 0.5).plot(ax=ax)
    assert disp.ax_ is ax and disp.figure_ is fig
    assert disp.cliques_ == [["0", "1"]]


def test_cd_diagram_bad_input(plt):
    """Ranks, names and critical difference are checked."""
    with pytest.raises(ValueError, match="at least 2 finite ranks"):
        CriticalDifferenceDisplay([1.0], 1.0).plot()
    with pytest.raises(ValueError, match="one name per method: 2 expected, got 3"):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0, names=list("abc")).plot()
    with pytest.raises(ValueError, match="critical_difference .* >= 0"):
        CriticalDifferenceDisplay([1.0, 2.0], -1.0).plot()
    with pytest.raises(ValueError, match="one name per method: 12 expected"):
        CriticalDifferenceDisplay.from_rank_table(TABLE_3, names=["a"])


def test_cd_diagram_without_matplotlib(monkeypatch):
    """Without matplotlib: an ImportError with the pip hint."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    with pytest.raises(ImportError, match="pip install matplotlib"):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0).plot()
