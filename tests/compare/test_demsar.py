"""Friedman and Nemenyi tests over datasets (Demšar 2006).

sklearn_mlcm/compare/_demsar.py. Eftimov & Kocev (2019), "Performance Measures
Fusion for Experimental Comparison of Methods for Multi-label Classification",
AAAI-MAKE: Tables 2 and 3 (the fused ranks of 12 methods on 11 datasets,
complete in the text), the Friedman p-values and Nemenyi pairs quoted with
them, and Tables 4 and 5. The critical values are those of Demšar (2006),
Table 5.
"""

import numpy as np
import pytest
from eftimov_tables import METHODS, TABLE_2, TABLE_3, TABLE_4, TABLE_5, rank_frame
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_mlcm import FriedmanResult, NemenyiResult, friedman_test, nemenyi_test

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
    result = nemenyi_test(rank_frame(TABLE_2), alpha=0.05)
    assert round(result.critical_difference, 3) == 5.024
    assert round(result.q_alpha, 3) == 3.268
    assert result.significant_pairs == [("RF-PCT", "PCT"), ("BR", "PCT")]
    assert result.significant.sum() == 4  # both pairs, both ways


def test_nemenyi_test_eftimov_table_3():
    """Table 3: only (RF-PCT, PCT) differs."""
    result = nemenyi_test(rank_frame(TABLE_3))
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
    result = friedman_test(rank_frame(TABLE_2))
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
        ([1, 2, 3], ValueError, r"must be a 2-D array.*Got an array of shape \(3,\)"),
        ([[1, 2, 3]], ValueError, "at least 2 datasets"),
        ([[1, 2, 3], [0.9, 0.5, 0.1]], ValueError, "rankdata. Got row 1: .0.9"),
        ([[1, 2, 3], [1, 2, 4]], ValueError, r"\[1, 3\] that sum to 6.*Got row 1"),
        ([[1, 2, 3], [2, 2, np.nan]], ValueError, "finite ranks. Got NaN"),
        ([["a", "b"], ["b", "a"]], TypeError, "must be an array of ranks"),
        ([[1, 2], [1 + 1j, 2]], TypeError, "dtype complex128"),
        ([[1, 2], [1]], ValueError, "rectangular"),
        (3, TypeError, "must be an array-like. Got 3"),
    ],
    ids=[
        "1d",
        "one_dataset",
        "scores",
        "not_a_ranking",
        "nan",
        "strings",
        "complex",
        "ragged",
        "scalar",
    ],
)
def test_friedman_test_bad_rank_table(table, error, match):
    """Rank tables that are not rank tables."""
    with pytest.raises(error, match="'rank_table' parameter of friedman_test"):
        friedman_test(table)
    with pytest.raises(error, match=match):
        friedman_test(table)


@pytest.mark.parametrize(
    "row",
    [[1.2, 1.8, 3.0], [1.5, 2.5, 2.0, 4.0], [1, 1, 4, 4], [2, 2, 3, 3]],
    ids=["fractions", "halves", "min_ties", "shifted_ties"],
)
def test_friedman_test_rows_must_be_rankings(row):
    """Rows in [1, k] summing to k (k + 1) / 2 that are still no ranking.

    A row is a ranking when tied methods share the average of their ranks:
    each row equals its own scipy.stats.rankdata.
    """
    k = len(row)
    table = [list(range(1, k + 1)), row]
    with pytest.raises(ValueError, match=r"rank_table.*Got row 1"):
        friedman_test(table)
    with pytest.raises(ValueError, match=r"rank_table.*Got row 1"):
        nemenyi_test(table)


def test_friedman_test_accepts_rankings_within_rounding():
    """Average ranks computed elsewhere, off by rounding, are the exact ranks."""
    noisy = TABLE_2 + 1e-12 * np.random.default_rng(0).standard_normal(TABLE_2.shape)
    assert friedman_test(noisy).statistic == friedman_test(TABLE_2).statistic
    assert_array_equal(friedman_test(noisy).average_ranks, TABLE_2.mean(axis=0))


@pytest.mark.parametrize("tie_correction", ["yes", 1, None])
def test_friedman_test_bad_tie_correction(tie_correction):
    """tie_correction must be a bool: a TypeError, like every wrong type."""
    with pytest.raises(
        TypeError,
        match="'tie_correction' parameter of friedman_test must be a bool",
    ):
        friedman_test(TABLE_2, tie_correction=tie_correction)


def test_friedman_test_tie_factor_by_hand():
    """Ties of Table 2 (4 and 5 methods tied): the correction, by hand."""
    n, k = TABLE_2.shape
    # row 10: four methods share 10.5 (t = 4); row 11: seven share 9 (t = 7)
    factor = 1 - ((4**3 - 4) + (7**3 - 7)) / (n * (k**3 - k))
    corrected = friedman_test(TABLE_2, tie_correction=True).statistic
    assert corrected == pytest.approx(friedman_test(TABLE_2).statistic / factor)


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


@pytest.mark.parametrize(
    "alpha, error",
    [
        (0, ValueError),
        (1, ValueError),
        (-0.1, ValueError),
        (1.5, ValueError),
        (np.nan, ValueError),
        ("0.05", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
)
def test_nemenyi_test_bad_alpha(alpha, error):
    """alpha must be a number in [1e-10, 1); a bool or str is a TypeError."""
    with pytest.raises(
        error,
        match=r"'alpha' parameter of nemenyi_test must be a float in the range "
        r"\[1e-10, 1\)",
    ):
        nemenyi_test(TABLE_2, alpha=alpha)


def test_nemenyi_test_tiny_alpha():
    """alpha = 1e-17 is refused (the CD was infinite); 1e-10 is still exact."""
    with pytest.raises(ValueError, match=r"'alpha' parameter.*Got 1e-17 instead"):
        nemenyi_test(TABLE_2, alpha=1e-17)
    result = nemenyi_test(TABLE_2, alpha=1e-10)
    assert np.isfinite(result.critical_difference)
    # scipy's studentized_range.sf(q) = 1e-10 at q = 10.0028 for k = 12 (the
    # quantile from a direct integral of the tail is 10.002803)
    assert result.q_alpha * np.sqrt(2) == pytest.approx(10.002803, abs=1e-5)


def test_nemenyi_test_bad_rank_table():
    """The rank table is checked under nemenyi_test's name."""
    with pytest.raises(ValueError, match="'rank_table' parameter of nemenyi_test"):
        nemenyi_test([[1, 2, 3], [3, 3, 3]])


def test_friedman_and_nemenyi_results_unpack_like_scipy():
    """``stat, p = friedman_test(r)`` as scipy's FriedmanchisquareResult;
    ``cd, p = nemenyi_test(r)``; every field stays an attribute."""
    from scipy.stats import friedmanchisquare

    ranks = np.array(
        [[1.0, 2.0, 3.0], [1.0, 3.0, 2.0], [2.0, 1.0, 3.0], [1.0, 2.0, 3.0]]
    )
    result = friedman_test(ranks)
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert len(result) == 2 and result[1] == pvalue
    scipy_stat, scipy_p = friedmanchisquare(*ranks.T)
    assert (statistic, pvalue) == pytest.approx((scipy_stat, scipy_p))
    assert "iman_davenport_statistic=" in repr(result)
    cd, pvalues = nemenyi_test(ranks)
    assert cd == nemenyi_test(ranks).critical_difference
    assert pvalues.shape == (3, 3)


# -- summaries and frames -----------------------------------------------------


def test_friedman_result_summary_eftimov_table_3():
    """Table 3: the statistics (p = 0.006142, as the paper's 0.0061), then
    the average ranks by name, RF-PCT first and PCT last."""
    result = friedman_test(rank_frame(TABLE_3))
    lines = repr(result).splitlines()
    assert lines[:5] == [
        "FriedmanResult: 12 methods on n_datasets=11",
        "statistic=26.1608, pvalue=0.006142 (chi-square, 11 df)",
        "iman_davenport_statistic=2.7584, iman_davenport_pvalue=0.0034 "
        "(F, 11 and 110 df)",
        "Average ranks, best first:",
        "method     average rank",
    ]
    assert lines[5] == "RF-PCT           4.0000"
    assert lines[-1] == "PCT              9.2727"
    assert len(lines) == 17
    assert f"{result.statistic:.4f}" == "26.1608"
    assert f"{result.pvalue:.4g}" == "0.006142"
    assert f"{result.iman_davenport_pvalue:.4g}" == "0.0034"
    assert "iman_davenport_statistic=" in str(result)


def test_nemenyi_result_summary_eftimov_table_3():
    """Table 3: CD 5.0243 (q_alpha 3.268, Demšar's Table 5) and the one
    significant pair the paper reports, RF-PCT better than PCT."""
    result = nemenyi_test(rank_frame(TABLE_3))
    lines = repr(result).splitlines()
    assert lines[:2] == [
        "NemenyiResult: 12 methods, alpha=0.05",
        "critical_difference=5.0243 (q_alpha=3.2680)",
    ]
    assert lines[-3:] == [
        "1 of 66 pairs differ significantly, the largest difference first:",
        "better  worse  rank difference   pvalue",
        "RF-PCT  PCT             5.2727  0.02983",
    ]
    assert result.significant_pairs == [("RF-PCT", "PCT")]
    assert f"{result.critical_difference:.4f}" == "5.0243"
    none = nemenyi_test([[1, 2], [2, 1]])
    assert repr(none).splitlines()[-1] == "No pair of the 1 differs significantly."


def test_compare_summaries_fit_40_lines_with_many_methods():
    """40 methods: at most 40 lines, with how many methods and pairs were
    left out."""
    rng = np.random.default_rng(0)
    ranks = np.array([rng.permutation(40) + 1.0 for _ in range(30)])
    ranks[:, :20] = np.sort(ranks[:, :20], axis=1)
    friedman = repr(friedman_test(ranks)).splitlines()
    assert len(friedman) <= 40
    assert friedman[-1] == "... and 28 more methods (see .to_frame())"
    ordered = np.tile(np.arange(1.0, 41.0), (30, 1))
    result = nemenyi_test(ordered)
    lines = repr(result).splitlines()
    assert len(lines) == 40
    assert lines[16] == "... and 28 more methods (see .to_frame())"
    assert lines[17] == (
        f"{len(result.significant_pairs)} of 780 pairs differ significantly, the "
        "largest difference first:"
    )
    assert lines[19].split() == ["0", "39", "39.0000", f"{result.pvalues[0, 39]:.4g}"]
    assert lines[-1] == (
        f"... and {len(result.significant_pairs) - 20} more pairs (see .to_frame())"
    )


def test_compare_summaries_counts_have_thousands_separators():
    """46 methods make 1,035 pairs: the Nemenyi summary says '1,035', as the
    rest of the library writes counts (it said '1035')."""
    ordered = np.tile(np.arange(1.0, 47.0), (30, 1))
    result = nemenyi_test(ordered)
    lines = repr(result).splitlines()
    assert (
        f"{len(result.significant_pairs)} of 1,035 pairs differ significantly, "
        "the largest difference first:"
    ) in lines


def test_friedman_result_to_frame_equals_the_fields():
    """One row per method, in the table's order, the average ranks exactly."""
    result = friedman_test(rank_frame(TABLE_2))
    frame = result.to_frame()
    assert frame.index.name == "method"
    assert list(frame.index) == METHODS
    assert list(frame.columns) == ["average_rank"]
    assert_array_equal(frame["average_rank"].to_numpy(), result.average_ranks)


def test_nemenyi_result_to_frame_equals_the_fields():
    """One row per pair, the largest difference first, each value from the
    matrices of the result; the significant rows are significant_pairs."""
    result = nemenyi_test(rank_frame(TABLE_2))
    frame = result.to_frame()
    assert list(frame.columns) == [
        "better",
        "worse",
        "rank_difference",
        "pvalue",
        "significant",
    ]
    assert len(frame) == 66
    position = {name: i for i, name in enumerate(METHODS)}
    for row in frame.itertuples(index=False):
        i, j = position[row.better], position[row.worse]
        assert result.average_ranks[i] <= result.average_ranks[j]
        assert row.rank_difference == result.rank_differences[i, j]
        assert row.pvalue == result.pvalues[i, j]
        assert row.significant == result.significant[i, j]
    assert (frame["rank_difference"].diff().dropna() <= 0).all()
    significant = frame[frame["significant"]]
    assert list(zip(significant["better"], significant["worse"])) == (
        result.significant_pairs
    )


def test_compare_results_to_frame_without_pandas(monkeypatch):
    """Without pandas, to_frame() names itself and the pip hint."""
    import sys

    friedman, nemenyi = friedman_test(TABLE_2), nemenyi_test(TABLE_2)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"FriedmanResult\.to_frame\(\) requires"):
        friedman.to_frame()
    with pytest.raises(ImportError, match=r"NemenyiResult\.to_frame\(\) requires"):
        nemenyi.to_frame()


# -- names: frames in, names out ------------------------------------------------

NAMED_RANKS = [
    [1, 2, 3, 4],
    [1, 2, 4, 3],
    [1, 3, 2, 4],
    [2, 1, 3, 4],
    [1, 2, 3, 4],
    [1, 2, 4, 3],
]
NAMED_METHODS = ["RF-PCT", "CC", "BR", "kNN"]


def named_rank_frame():
    """Six datasets ranking four named methods, as a pandas DataFrame."""
    import pandas as pd

    return pd.DataFrame(
        NAMED_RANKS,
        index=pd.Index(list("abcdef"), name="dataset"),
        columns=pd.Index(NAMED_METHODS, name="method"),
    )


def test_friedman_result_summary_and_frame_by_name():
    """A rank table's column names name the methods in the summary and the
    frame, best first in print, in the table's order in the frame."""
    result = friedman_test(named_rank_frame())
    assert result.names == NAMED_METHODS
    assert repr(result).splitlines() == [
        "FriedmanResult: 4 methods on n_datasets=6",
        "statistic=13.8000, pvalue=0.00319 (chi-square, 3 df)",
        "iman_davenport_statistic=16.4286, iman_davenport_pvalue=5.254e-05 "
        "(F, 3 and 15 df)",
        "Average ranks, best first:",
        "method  average rank",
        "RF-PCT        1.1667",
        "CC            2.0000",
        "BR            3.1667",
        "kNN           3.6667",
    ]
    frame = result.to_frame()
    assert list(frame.index) == NAMED_METHODS
    assert_array_equal(frame["average_rank"].to_numpy(), [7 / 6, 2, 19 / 6, 22 / 6])


def test_nemenyi_result_summary_and_frame_by_name():
    """The significant pairs print by name, left-aligned, the largest
    difference first; the frame's better and worse columns hold the names."""
    result = nemenyi_test(named_rank_frame())
    assert result.significant_pairs == [("RF-PCT", "kNN"), ("RF-PCT", "BR")]
    assert repr(result).splitlines()[-4:] == [
        "2 of 6 pairs differ significantly, the largest difference first:",
        "better  worse  rank difference    pvalue",
        "RF-PCT  kNN             2.5000  0.004426",
        "RF-PCT  BR              2.0000   0.03665",
    ]
    frame = result.to_frame()
    assert list(zip(frame["better"], frame["worse"])) == [
        ("RF-PCT", "kNN"),
        ("RF-PCT", "BR"),
        ("CC", "kNN"),
        ("CC", "BR"),
        ("RF-PCT", "CC"),
        ("BR", "kNN"),
    ]


def test_compare_results_names_from_every_frame_kind():
    """polars and xarray rank tables name the methods as pandas does; a
    NumPy table numbers them; fuse_measures' frame carries its names on."""
    polars = pytest.importorskip("polars")
    xarray = pytest.importorskip("xarray")
    pandas = pytest.importorskip("pandas")
    expected = repr(friedman_test(named_rank_frame()))
    assert repr(friedman_test(polars.from_pandas(named_rank_frame()))) == expected
    array = xarray.DataArray(
        NAMED_RANKS,
        dims=("dataset", "method"),
        coords={"method": NAMED_METHODS},
    )
    assert repr(friedman_test(array)) == expected
    assert nemenyi_test(array).significant_pairs == [
        ("RF-PCT", "kNN"),
        ("RF-PCT", "BR"),
    ]
    plain = friedman_test(NAMED_RANKS)
    assert plain.names == [0, 1, 2, 3]
    assert repr(plain).splitlines()[5] == "0             1.1667"
    from sklearn_mlcm import fuse_measures, measure_directions

    results = pandas.DataFrame(
        {
            "dataset": ["emotions"] * 6 + ["scene"] * 6,
            "method": ["BR", "BR", "CC", "CC", "kNN", "kNN"] * 2,
            "measure": ["accuracy", "hamming_loss"] * 6,
            "value": [0.52, 0.20, 0.55, 0.21, 0.48, 0.25]
            + [0.60, 0.10, 0.64, 0.09, 0.62, 0.11],
        }
    )
    fused = friedman_test(fuse_measures(results, maximize=measure_directions()))
    assert fused.names == ["BR", "CC", "kNN"]
    assert list(fused.to_frame().index) == ["BR", "CC", "kNN"]
    assert repr(fused).splitlines()[5:] == [
        "CC            1.0000",
        "BR            2.2500",
        "kNN           2.7500",
    ]
