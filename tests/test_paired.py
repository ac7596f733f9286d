"""The paired comparison: exact values against loop oracles, the statistics
(uniform p-values under the null, power, coverage) and every refusal."""

import itertools
import re
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    PairedComparisonResult,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_paired_comparison,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_specificity_score,
)
from sklearn_mlcm._uncertainty._paired import (
    _bootstrap,
    _correct,
    _swapped_differences,
)
from sklearn_mlcm._uncertainty._table import InstancePairs

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
SCORES = {
    "f1": mlcm_f1_score,
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
}


def _noisy(y, flip, rng):
    """``y`` with each cell flipped with probability ``flip``."""
    return (y ^ (rng.random(y.shape) < flip)).astype(np.int64)


def _population(n, q, rng, density=0.35):
    return (rng.random((n, q)) < density).astype(np.int64)


def _options(**kwargs):
    return {
        "metric": "f1",
        "average": "macro",
        "beta": 1.0,
        "tn": "complement",
        "zero_division": 0.0,
        **kwargs,
    }


# -- values --------------------------------------------------------------------


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("metric", sorted(SCORES))
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_mlcm_paired_comparison_scores_are_the_public_scores(method, metric, average):
    """The observed scores and differences are those of the public scores."""
    rng = np.random.default_rng(0)
    y = _population(60, 4, rng)
    a, b = _noisy(y, 0.2, rng), _noisy(y, 0.3, rng)
    score = SCORES[metric]
    result = mlcm_paired_comparison(
        y,
        a,
        b,
        metric=metric,
        average=average,
        method=method,
        n_resamples=39,
        zero_division=0.0,
        random_state=0,
    )
    kw = {"method": method, "zero_division": 0.0}
    assert_allclose(result.score_a, score(y, a, average=average, **kw))
    assert_allclose(result.score_b, score(y, b, average=average, **kw))
    assert_allclose(
        result.label_differences,
        score(y, a, average=None, **kw) - score(y, b, average=None, **kw),
    )
    assert isinstance(result.difference, float)
    assert result.label_pvalues.shape == (4,)


def test_mlcm_paired_comparison_specificity_and_micro_from_the_matrix():
    """Specificity (both TN conventions) and both micro averages are read off
    the matrices as their definitions say."""
    rng = np.random.default_rng(1)
    y = _population(50, 3, rng)
    a, b = _noisy(y, 0.2, rng), _noisy(y, 0.1, rng)
    for tn in ("complement", "diagonal"):
        result = mlcm_paired_comparison(
            y, a, b, metric="specificity", tn=tn, n_resamples=39, random_state=0
        )
        expected = mlcm_specificity_score(y, a, average=None, tn=tn)
        assert_allclose(result.label_scores_a, expected)
    cm = mlcm_confusion_matrix(y, a).astype(float)
    tp = np.diag(cm)
    fp, fn = cm.sum(axis=0) - tp, cm.sum(axis=1) - tp
    micro = 2 * tp[:3].sum() / (2 * tp[:3].sum() + fp[:3].sum() + fn[:3].sum())
    micro_all = np.trace(cm) / cm.sum()
    for average, expected in (("micro", micro), ("micro_all", micro_all)):
        result = mlcm_paired_comparison(
            y, a, b, average=average, n_resamples=39, random_state=0
        )
        assert_allclose(result.score_a, expected)


def test_margins_match_weighted_matrices():
    """The margins of any weights are those of the weighted public matrix."""
    rng = np.random.default_rng(2)
    y = _population(30, 4, rng)
    a = _noisy(y, 0.3, rng)
    weights = rng.integers(0, 4, size=(5, 30)).astype(float)
    weights[0] = rng.random(30)
    for method in ("heydarian", "krstinic"):
        margins = InstancePairs(
            y.astype(bool), a.astype(bool), method
        ).weighted_margins(weights)
        for w, m in zip(weights, margins):
            cm = mlcm_confusion_matrix(y, a, method=method, sample_weight=w)
            assert_allclose(m[0], np.diag(cm), atol=1e-12)
            assert_allclose(m[1], cm.sum(axis=1), atol=1e-12)
            assert_allclose(m[2], cm.sum(axis=0), atol=1e-12)


def test_swaps_match_the_loop_oracle():
    """Each swap vector gives the difference of the explicitly swapped sets."""
    rng = np.random.default_rng(3)
    y = _population(12, 3, rng)
    a, b = _noisy(y, 0.2, rng), _noisy(y, 0.4, rng)
    tables = (
        InstancePairs(y > 0, a > 0, "heydarian"),
        InstancePairs(y > 0, b > 0, "heydarian"),
    )
    swaps = rng.integers(0, 2, size=(20, 12)).astype(float)
    unit = np.arange(12)
    got, got_labels = _swapped_differences(tables, np.ones(12), unit, swaps, _options())
    for s, d, dl in zip(swaps.astype(bool), got, got_labels):
        a2 = np.where(s[:, None], b, a)
        b2 = np.where(s[:, None], a, b)
        kw = {"zero_division": 0.0}
        assert_allclose(d, mlcm_f1_score(y, a2, **kw) - mlcm_f1_score(y, b2, **kw))
        assert_allclose(
            dl,
            mlcm_f1_score(y, a2, average=None, **kw)
            - mlcm_f1_score(y, b2, average=None, **kw),
        )


def test_exact_pvalue_matches_the_loop_over_all_swaps():
    """For small n every swap is enumerated; the p-value is the share of the
    2**n explicit swaps at least as extreme as the observed difference."""
    rng = np.random.default_rng(4)
    n = 8
    y = _population(n, 3, rng)
    a, b = _noisy(y, 0.1, rng), _noisy(y, 0.4, rng)
    result = mlcm_paired_comparison(
        y, a, b, n_resamples=2**n, zero_division=0.0, random_state=0
    )
    assert result.exact
    kw = {"zero_division": 0.0}
    observed = mlcm_f1_score(y, a, **kw) - mlcm_f1_score(y, b, **kw)
    extreme = 0
    for s in itertools.product([False, True], repeat=n):
        s = np.array(s)[:, None]
        d = mlcm_f1_score(y, np.where(s, b, a), **kw) - mlcm_f1_score(
            y, np.where(s, a, b), **kw
        )
        extreme += abs(d) >= abs(observed) - 1e-12
    assert_allclose(result.pvalue, extreme / 2**n)


def test_bootstrap_matches_the_loop_oracle():
    """Bootstrap differences are those of rows drawn with replacement, from
    the same multinomial counts, with both classifiers on the same rows."""
    rng = np.random.default_rng(5)
    n = 15
    y = _population(n, 3, rng)
    a, b = _noisy(y, 0.2, rng), _noisy(y, 0.3, rng)
    tables = (
        InstancePairs(y > 0, a > 0, "heydarian"),
        InstancePairs(y > 0, b > 0, "heydarian"),
    )
    got, _, _ = _bootstrap(tables, np.ones(n), np.arange(n), n, 30, 7, _options())
    counts = np.random.RandomState(7).multinomial(n, np.full(n, 1 / n), size=30)
    for c, d in zip(counts, got):
        rows = np.repeat(np.arange(n), c)  # the resampled rows themselves
        kw = {"zero_division": 0.0}
        expected = mlcm_f1_score(y[rows], a[rows], **kw) - mlcm_f1_score(
            y[rows], b[rows], **kw
        )
        assert_allclose(d, expected)


def test_holm_correction_by_hand():
    """Holm's step-down values of a hand-worked family; NaN stays out."""
    p = [0.01, 0.04, 0.03, np.nan, 0.5]
    assert_allclose(_correct(p, "holm"), [0.04, 0.09, 0.09, np.nan, 0.5])
    assert_allclose(_correct(p, "bonferroni"), [0.04, 0.16, 0.12, np.nan, 1.0])
    assert_allclose(_correct(p, None), p)


def test_mlcm_paired_comparison_unpacks_and_is_reproducible():
    """Unpacks as (difference, pvalue); the same seed gives the same numbers;
    swapping A and B negates the differences."""
    rng = np.random.default_rng(6)
    y = _population(40, 3, rng)
    a, b = _noisy(y, 0.1, rng), _noisy(y, 0.3, rng)
    first = mlcm_paired_comparison(y, a, b, n_resamples=99, random_state=3)
    again = mlcm_paired_comparison(y, a, b, n_resamples=99, random_state=3)
    difference, pvalue = first
    assert isinstance(first, PairedComparisonResult)
    assert (difference, pvalue) == (first.difference, first.pvalue)
    assert_array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
    assert first.pvalue == again.pvalue
    reverse = mlcm_paired_comparison(y, b, a, n_resamples=99, random_state=3)
    assert_allclose(reverse.difference, -first.difference)
    low, high = first.confidence_interval
    assert low <= first.difference <= high


def test_mlcm_paired_comparison_of_a_dict():
    """A dict compares every pair (or each against the reference), with the
    same numbers as the two-array call and Holm across the pairs."""
    rng = np.random.default_rng(7)
    y = _population(40, 3, rng)
    sets = {
        "x": _noisy(y, 0.1, rng),
        "y": _noisy(y, 0.2, rng),
        "z": _noisy(y, 0.3, rng),
    }
    results = mlcm_paired_comparison(y, sets, n_resamples=49, random_state=0)
    assert list(results) == [("x", "y"), ("x", "z"), ("y", "z")]
    against = mlcm_paired_comparison(
        y, sets, reference="z", n_resamples=49, random_state=0
    )
    assert list(against) == [("x", "z"), ("y", "z")]
    single = mlcm_paired_comparison(
        y, sets["x"], sets["y"], n_resamples=49, random_state=0
    )
    assert_allclose(results[("x", "y")].difference, single.difference)
    pvalues = [r.pvalue for r in results.values()]
    assert_allclose(
        [r.pvalue_corrected for r in results.values()], _correct(pvalues, "holm")
    )
    assert single.pvalue_corrected == single.pvalue


def test_mlcm_paired_comparison_groups_swap_whole_groups():
    """With groups, units are groups: an exact test over 2**groups swaps, and
    a group bootstrap whose interval is wider than the instance one when the
    groups are strongly clustered."""
    rng = np.random.default_rng(8)
    n_groups, size = 6, 20
    groups = np.repeat(np.arange(n_groups), size)
    y = np.repeat(_population(n_groups, 3, rng), size, axis=0)
    a = np.repeat(_noisy(y[::size], 0.2, rng), size, axis=0)
    b = np.repeat(_noisy(y[::size], 0.3, rng), size, axis=0)
    grouped = mlcm_paired_comparison(
        y, a, b, groups=groups, n_resamples=999, zero_division=0.0, random_state=0
    )
    assert grouped.exact  # 2**6 swaps enumerated
    single = mlcm_paired_comparison(
        y, a, b, n_resamples=999, zero_division=0.0, random_state=0
    )
    assert not single.exact
    assert grouped.pvalue >= single.pvalue
    width = np.subtract(*grouped.confidence_interval[::-1])
    assert width > np.subtract(*single.confidence_interval[::-1])


def test_mlcm_paired_comparison_one_sided():
    """One-sided alternatives: one-sided intervals and p-values that add up
    to about one plus the probability of a tie."""
    rng = np.random.default_rng(9)
    y = _population(80, 3, rng)
    a, b = _noisy(y, 0.1, rng), _noisy(y, 0.3, rng)
    greater = mlcm_paired_comparison(
        y, a, b, alternative="greater", n_resamples=499, random_state=0
    )
    less = mlcm_paired_comparison(
        y, a, b, alternative="less", n_resamples=499, random_state=0
    )
    assert greater.pvalue < 0.01 < 0.99 < less.pvalue
    assert greater.confidence_interval.high == np.inf
    assert less.confidence_interval.low == -np.inf


def test_mlcm_paired_comparison_warns_forundefined_scores_observedscores_from_margins():
    """zero_division="warn" warns for the observed scores, not per resample."""
    y = np.array([[1, 0], [1, 0], [0, 0]])
    a = np.array([[1, 0], [0, 0], [0, 0]])
    with pytest.warns(UndefinedMetricWarning) as record:
        mlcm_paired_comparison(y, a, y, n_resamples=39, random_state=0)
    assert len(record) <= 4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = mlcm_paired_comparison(
            y, a, y, n_resamples=39, zero_division=np.nan, random_state=0
        )
    assert np.isnan(result.label_pvalues[1])
    # label 1 is in no true and no predicted set: undefined in every
    # resample; label 0 only in those that draw the third row alone
    assert result.label_n_undefined[1] == result.n_undefined == 39
    assert result.label_n_undefined[0] < 39


def test_mlcm_paired_comparison_countsundefined_scores_resamples():
    """Resamples without a rare label's only positive are counted, as the
    resamples of the loop oracle that miss its row."""
    y = np.zeros((10, 2), dtype=int)
    y[:, 0] = 1
    y[0, 1] = 1  # label 1: one positive, predicted by neither
    a = y.copy()
    a[0, 1] = 0
    result = mlcm_paired_comparison(
        y,
        a,
        a,
        metric="recall",
        n_resamples=200,
        zero_division=0.0,
        random_state=0,
    )
    # recall of label 1 is undefined where row 0 is not drawn
    assert 200 * 0.25 < result.label_n_undefined[1] < 200 * 0.5
    assert result.label_n_undefined[0] == 0


def test_mlcm_paired_comparison_frames_and_class_labels():
    """Frames are aligned by name; 1-D class labels share one set of classes."""
    pd = pytest.importorskip("pandas")
    names = ["C0", "C1", "C2"]
    frame_true = pd.DataFrame(T, columns=names)
    frame_a = pd.DataFrame(P[:, ::-1], columns=names[::-1])
    result = mlcm_paired_comparison(
        frame_true,
        frame_a,
        pd.DataFrame(T, columns=names),
        n_resamples=39,
        random_state=0,
    )
    assert result.target_names == names
    assert_allclose(result.score_a, mlcm_f1_score(T, P))
    classes = mlcm_paired_comparison(
        ["x", "y", "z", "x"],
        ["x", "y", "y", "w"],
        ["x", "x", "z", "x"],
        n_resamples=39,
        zero_division=0.0,
        random_state=0,
    )
    assert classes.target_names == ["w", "x", "y", "z"]


def test_mlcm_paired_comparison_class_labels_as_arrays():
    """1-D class labels given as arrays (or Series) give the classes they hold
    and the scores of the matrix, as lists do."""
    pd = pytest.importorskip("pandas")
    y_true = np.array([0, 1, 2, 1, 0] * 5)
    y_a = np.array([0, 1, 1, 1, 0] * 5)
    y_b = np.array([0, 2, 2, 1, 0] * 5)
    for kind in (np.asarray, list, pd.Series):
        result = mlcm_paired_comparison(
            kind(y_true), kind(y_a), kind(y_b), n_resamples=39, random_state=0
        )
        assert result.target_names == ["0", "1", "2"]
        assert_allclose(result.label_scores_a, mlcm_f1_score(y_true, y_a, average=None))
        assert_allclose(result.label_scores_b, mlcm_f1_score(y_true, y_b, average=None))
    strings = mlcm_paired_comparison(
        np.array(list("abcba")),
        np.array(list("abbba")),
        np.array(list("accbd")),
        n_resamples=39,
        zero_division=0.0,
        random_state=0,
    )
    assert strings.target_names == ["a", "b", "c", "d"]
    # not class labels: the targets' own refusals, not scikit-learn's mix
    with pytest.raises(InvalidInputError, match="the same kind of target"):
        mlcm_paired_comparison(np.eye(3, dtype=int), y_a[:3], y_b[:3])
    with pytest.raises(InvalidInputError, match="holds continuous values"):
        mlcm_paired_comparison(np.array([0.5, 1, 2]), y_a[:3], y_b[:3])


# -- statistics ------------------------------------------------------------------


def test_pvalues_are_uniform_under_the_null():
    """Two prediction sets drawn independently from one noise process: the
    p-values of 300 repetitions are uniform (Kolmogorov-Smirnov)."""
    rng = np.random.default_rng(2024)
    pvalues = []
    for _ in range(300):
        y = _population(120, 3, rng)
        a, b = _noisy(y, 0.25, rng), _noisy(y, 0.25, rng)
        result = mlcm_paired_comparison(
            y,
            a,
            b,
            n_resamples=199,
            zero_division=0.0,
            random_state=int(rng.integers(2**31)),
        )
        pvalues.append(result.pvalue)
    ks = stats.kstest(pvalues, "uniform")
    assert ks.pvalue > 0.01, ks
    rejections = np.mean(np.array(pvalues) < 0.05)
    assert 0.02 <= rejections <= 0.09


def test_pvalues_have_power_against_a_real_difference():
    """A with 15 % of its cells wrong, B with 25 %: rejected at 5 % in most of
    the repetitions."""
    rng = np.random.default_rng(7)
    rejections = []
    for _ in range(40):
        y = _population(150, 3, rng)
        a, b = _noisy(y, 0.15, rng), _noisy(y, 0.25, rng)
        result = mlcm_paired_comparison(
            y,
            a,
            b,
            n_resamples=199,
            zero_division=0.0,
            random_state=int(rng.integers(2**31)),
        )
        rejections.append(result.pvalue < 0.05)
    assert np.mean(rejections) >= 0.8


def test_bootstrap_interval_covers_the_true_difference():
    """From a large population with a known difference of macro F1, 95 %
    intervals computed on test sets of 200 cover it in 90-99 % of 200
    repetitions."""
    rng = np.random.default_rng(11)
    big = 200_000
    y = _population(big, 3, rng)
    a, b = _noisy(y, 0.15, rng), _noisy(y, 0.2, rng)
    kw = {"zero_division": 0.0}
    truth = mlcm_f1_score(y, a, **kw) - mlcm_f1_score(y, b, **kw)
    covered = []
    for _ in range(200):
        rows = rng.integers(0, big, size=200)
        result = mlcm_paired_comparison(
            y[rows],
            a[rows],
            b[rows],
            n_resamples=299,
            zero_division=0.0,
            random_state=int(rng.integers(2**31)),
        )
        low, high = result.confidence_interval
        covered.append(low <= truth <= high)
    assert 0.90 <= np.mean(covered) <= 0.99, np.mean(covered)


# -- refusals ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_resamples": 0}, ValueError, "'n_resamples' parameter .* range \\[1"),
        ({"n_resamples": 10**7}, ValueError, "'n_resamples' parameter"),
        ({"n_resamples": 2.5}, TypeError, "'n_resamples' parameter"),
        ({"confidence_level": 1.0}, ValueError, "'confidence_level' parameter"),
        ({"confidence_level": 0}, ValueError, "'confidence_level' parameter"),
        ({"alternative": "bigger"}, ValueError, "'alternative' parameter"),
        ({"correction": "fdr"}, ValueError, "'correction' parameter"),
        ({"average": None}, TypeError, "'average' parameter"),
        ({"average": "samples"}, ValueError, "'average' parameter"),
        ({"metric": "roc_auc"}, ValueError, "'metric' parameter"),
        ({"random_state": -1}, ValueError, "'random_state' parameter"),
    ],
)
def test_mlcm_paired_comparison_refuses_bad_parameters(kwargs, error, match):
    """Bad parameter values are refused by the validation layer."""
    with pytest.raises(error, match=match):
        mlcm_paired_comparison(T, T, P, **kwargs)


@pytest.mark.parametrize(
    "alternative, n_resamples, minimum, tail, where",
    [
        ("two-sided", 2, "39", "0.025", "each bound"),
        ("two-sided", 38, "39", "0.025", "each bound"),
        ("greater", 18, "19", "0.05", "its bound"),
        ("less", 1, "19", "0.05", "its bound"),
    ],
)
def test_mlcm_paired_comparison_refuses_too_few_resamples_for_the_level(
    alternative, n_resamples, minimum, tail, where
):
    """Fewer resamples than the interval's tails need are refused, naming
    both parameters, the minimum and what arrived; a one-sided interval has
    its whole tail on one side, so it needs half as many."""
    match = (
        rf"'n_resamples' parameter of mlcm_paired_comparison must be at least "
        rf"{minimum} for confidence_level=0.95: the interval leaves {tail} of the "
        rf"resamples beyond {where}, which needs \(n_resamples \+ 1\) x {tail} "
        rf">= 1. Got {n_resamples} instead."
    )
    with pytest.raises(InvalidParameterError, match=match):
        mlcm_paired_comparison(
            T, T, P, n_resamples=n_resamples, alternative=alternative
        )


@pytest.mark.parametrize(
    "alternative, n_resamples", [("two-sided", 39), ("greater", 19)]
)
def test_mlcm_paired_comparison_fewest_resamples_can_reject(alternative, n_resamples):
    """With the fewest resamples the level allows, the smallest p-value of
    random swaps, 1 / (n_resamples + 1), is at most the interval's tail: two
    classifiers that differ clearly get it, below 1 - confidence_level, and
    an interval that excludes 0."""
    rng = np.random.default_rng(3)
    y = _population(300, 3, rng)
    result = mlcm_paired_comparison(
        y,
        y,
        _noisy(y, 0.3, rng),
        n_resamples=n_resamples,
        alternative=alternative,
        random_state=0,
    )
    assert not result.exact
    assert result.pvalue == 1 / (n_resamples + 1) <= 0.05
    assert result.confidence_interval.low > 0


def test_mlcm_paired_comparison_refuses_bad_predictions():
    """Prediction sets of other shapes, labels or kinds are refused."""
    with pytest.raises(ValueError, match=r"'y_pred_b' parameter .* shape of y_pred_a"):
        mlcm_paired_comparison(T, P, P[:, :2])
    with pytest.raises(ValueError, match=r"'y_pred_b' parameter .* shape of y_pred_a"):
        mlcm_paired_comparison(T, P, P[:5])
    with pytest.raises(ValueError, match=re.escape("y_pred_a['q']\" parameter")):
        mlcm_paired_comparison(T, {"p": P, "q": P[:, :2]})
    with pytest.raises(TypeError, match="'y_pred_b' parameter .* dict of named"):
        mlcm_paired_comparison(T, P)
    with pytest.raises(ValueError, match="'y_pred_b' parameter .* None when"):
        mlcm_paired_comparison(T, {"p": P, "q": T}, P)
    with pytest.raises(ValueError, match="'y_pred_a' parameter .* at least two"):
        mlcm_paired_comparison(T, {"p": P})
    with pytest.raises(ValueError, match="'reference' parameter .* one of the names"):
        mlcm_paired_comparison(T, {"p": P, "q": T}, reference="r")
    with pytest.raises(ValueError, match="'reference' parameter .* None unless"):
        mlcm_paired_comparison(T, P, T, reference="p")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(T, columns=["x", "y", "z"])
    other = pd.DataFrame(P, columns=["x", "y", "w"])
    with pytest.raises(ValueError, match="frames with different columns"):
        mlcm_paired_comparison(frame, frame, other)


def test_mlcm_paired_comparison_names_the_prediction_set_refused():
    """A refused prediction set is named by its parameter (y_pred_b, or its
    key in the dict), not as the y_pred the shared checks call it."""
    pd = pytest.importorskip("pandas")
    names = ["C0", "C1", "C2"]
    frame_true = pd.DataFrame(T, columns=names)
    good = pd.DataFrame(P, columns=names)
    other = pd.DataFrame(P, columns=["C0", "C1", "Z"])
    with pytest.raises(InvalidInputError, match=r"missing from y_pred_b: \['C2'\]"):
        mlcm_paired_comparison(frame_true, good, other)
    with pytest.raises(
        InvalidInputError,
        match=re.escape("y_true and y_pred_a['q'] of mlcm_paired_comparison"),
    ):
        mlcm_paired_comparison(frame_true, {"p": good, "q": other, "r": good})
    with pytest.raises(InvalidInputError, match="y_pred_b .* must contain only 0"):
        mlcm_paired_comparison(T, P, P * 2)


def test_mlcm_paired_comparison_refuses_too_large_targets(monkeypatch):
    """Targets past the memory bound are refused before they are densified."""
    monkeypatch.setattr("sklearn_mlcm._uncertainty._table.MAX_DENSE_BYTES", 40)
    with pytest.raises(ValueError, match="'y_true' parameter .* at most 20 cells"):
        mlcm_paired_comparison(T, T, P)


def test_mlcm_paired_comparison_refuses_resamples_past_the_bound(monkeypatch):
    """The (n_resamples, n_labels) bootstrap and permutation differences, and
    the pairs' distributions, are refused before they are allocated (10**6
    resamples of 159 labels took 4 GiB), with the way out."""
    monkeypatch.setattr(
        "sklearn_mlcm._uncertainty._paired.MAX_DENSE_BYTES", (2 * 3 + 1) * 8 * 99
    )
    mlcm_paired_comparison(T, T, P, n_resamples=99)
    with pytest.raises(
        InvalidInputError,
        match=r"'n_resamples' parameter .*\(\(2 x 3 \+ 1\) x 100 values .* fewer "
        "resamples",
    ):
        mlcm_paired_comparison(T, T, P, n_resamples=100)
    # each pair keeps its bootstrap distribution: many sets count (20 sets of
    # 10**6 resamples took 1.5 GB); comparing with one reference keeps fewer
    sets = {str(k): P for k in range(4)}  # 6 pairs, or 3 with a reference
    monkeypatch.setattr(
        "sklearn_mlcm._uncertainty._paired.MAX_DENSE_BYTES", (2 * 3 + 3) * 8 * 99
    )
    mlcm_paired_comparison(T, sets, n_resamples=99, reference="0")
    with pytest.raises(
        InvalidInputError, match=r"\(\(2 x 3 \+ 6\) x 99 values .*\(reference="
    ):
        mlcm_paired_comparison(T, sets, n_resamples=99)


def test_mlcm_paired_comparison_refuses_bad_groups():
    """Groups of the wrong length, a single group or a single instance are
    refused."""
    with pytest.raises(ValueError, match="'groups' parameter .* length n_samples=9"):
        mlcm_paired_comparison(T, T, P, groups=[0, 1])
    with pytest.raises(ValueError, match="'groups' parameter .* at least two distinct"):
        mlcm_paired_comparison(T, T, P, groups=[3] * 9)
    mixed = np.array(["a", None, "b"] * 3, dtype=object)
    with pytest.raises(InvalidInputError, match="'groups' parameter .* sort together"):
        mlcm_paired_comparison(T, T, P, groups=mixed)
    with pytest.raises(ValueError, match="'sample_weight' parameter"):
        mlcm_paired_comparison(T, T, P, sample_weight=[1.0] * 8)
    one = "'y_true' parameter .* at least two instances .* Got 1 instance"
    with pytest.raises(ValueError, match=one):  # nothing to resample
        mlcm_paired_comparison(T[:1], T[:1], P[:1])


@pytest.mark.parametrize("function", ["paired", "intervals"])
def test_resampling_weights_overflowing_the_sums_are_refused(function):
    """Weights whose sums would overflow float64 are refused, as by the
    matrix, instead of NaN estimates and intervals (issue #16 item 3)."""
    weights = [1e308] * 9
    with pytest.raises(InvalidInputError, match="'sample_weight' .* within float64"):
        if function == "paired":
            mlcm_paired_comparison(T, T, P, sample_weight=weights, n_resamples=39)
        else:
            mlcm_confidence_intervals(T, P, sample_weight=weights, n_resamples=39)
    # the same ratios from weights divided by their largest value
    scaled = mlcm_paired_comparison(T, T, P, sample_weight=[1.0] * 9, n_resamples=39)
    assert np.isfinite(scaled.difference)
