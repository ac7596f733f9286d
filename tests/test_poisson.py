"""The Poisson bootstrap of MLCMAccumulator: its weights against their law,
its replicates against a naive row-by-row oracle, its intervals by their
coverage in simulation and against the ordinary bootstrap in law, and the
accumulator's guarantees (batches, merges, pickles, threads, refusals)."""

import math
import pickle
import re
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse, stats
from scipy.stats import DegenerateDataWarning
from sklearn.exceptions import NotFittedError, UndefinedMetricWarning

from sklearn_mlcm import (
    ConfidenceIntervalResult,
    InvalidInputError,
    InvalidParameterError,
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_specificity_score,
)
from sklearn_mlcm._uncertainty._poisson import poisson_weights


def _noisy(rng, n, q, flip, density=0.3):
    y_true = (rng.random((n, q)) < density).astype(int)
    return y_true, y_true ^ (rng.random((n, q)) < flip)


def _margins_of(cm):
    cm = np.asarray(cm, dtype=np.float64)
    return np.stack([np.diag(cm), cm.sum(axis=1), cm.sum(axis=0)])


# -- the oracle: every row's weights drawn on their own, one matrix a replicate


def _poisson_oracle(word):
    """The Poisson(1) count of a uniform 64-bit word: the smallest k with
    word / 2**64 < P(X <= k), summing the probabilities one by one."""
    u, k = word / 2**64, 0
    cdf = math.exp(-1.0)
    while u >= cdf:
        k += 1
        cdf += math.exp(-1.0) / math.factorial(k)
    return k


def _oracle_weights(seed, n_rows, n_resamples):
    """(n_rows, B): row i's weights, from a Philox generator of its own set to
    the counter i * ceil(B / 4) of the stream's key (the documented stream)."""
    key = np.random.SeedSequence(seed).generate_state(2, np.uint64)
    steps = math.ceil(n_resamples / 4)
    weights = np.empty((n_rows, n_resamples), dtype=np.int64)
    for i in range(n_rows):
        words = np.random.Philox(key=key, counter=i * steps).random_raw(n_resamples)
        weights[i] = [_poisson_oracle(int(word)) for word in words]
    return weights


def _oracle_replicates(y_true, y_pred, weight, seed, n_resamples, method):
    """(B, 3, q+1): the margins of mlcm_confusion_matrix of all the rows with
    each replicate's Poisson weights (times the sample weights)."""
    poisson = _oracle_weights(seed, len(y_true), n_resamples)
    out = []
    for b in range(n_resamples):
        w = poisson[:, b] * (1.0 if weight is None else weight)
        cm = mlcm_confusion_matrix(y_true, y_pred, method=method, sample_weight=w)
        out.append(_margins_of(cm))
    return np.array(out), poisson


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_poisson_replicates_equal_a_naive_oracle(method, data, mlcm_strategies):
    """Batches cut anywhere (empty ones too) give the replicates of the
    oracle that draws each row's weights on its own and computes one weighted
    matrix per replicate: exactly for integer counts, up to rounding for
    fractions; sample weights multiply the Poisson weights."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=5))
    n = len(y_true)
    n_resamples = data.draw(st.integers(1, 9))  # 4 words a counter step
    seed = data.draw(st.integers(0, 2**32 - 1))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    acc = MLCMAccumulator(
        y_true.shape[1], method=method, n_resamples=n_resamples, random_state=seed
    )
    for start, stop in zip([0, *cuts], [*cuts, n]):
        w = None if weight is None else weight[start:stop]
        acc.update(y_true[start:stop], y_pred[start:stop], sample_weight=w)
    expected, _ = _oracle_replicates(y_true, y_pred, weight, seed, n_resamples, method)
    if method == "heydarian" and weight is None:
        assert_array_equal(acc._replicates, expected)
    else:
        assert_allclose(acc._replicates, expected, rtol=1e-9, atol=1e-9)


SCORES = {
    "f1": mlcm_f1_score,
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
    "specificity": mlcm_specificity_score,
}


def test_poisson_replicates_scores_are_weighted_scores():
    """Each replicate's value of every score (per label, micro, macro,
    weighted) is the public score of the rows weighted by that replicate's
    Poisson weights times the sample weights."""
    rng = np.random.default_rng(5)
    y_true, y_pred = _noisy(rng, 60, 3, 0.2)
    weight = rng.uniform(0.5, 2.0, 60)
    acc = MLCMAccumulator(3, n_resamples=39, random_state=9)
    for start in range(0, 60, 25):
        stop = start + 25
        acc.update(y_true[start:stop], y_pred[start:stop], weight[start:stop])
    poisson = _oracle_weights(9, 60, 39)
    result = acc.confidence_intervals(return_distributions=True)
    for metric, score in SCORES.items():
        for b in range(39):
            w = poisson[:, b] * weight
            assert_allclose(
                result.scores[metric].bootstrap_distribution[b],
                score(y_true, y_pred, average=None, sample_weight=w),
            )
            for average in ("micro", "macro", "weighted"):
                value = result.scores[f"{metric}_{average}"].bootstrap_distribution[b]
                expected = score(y_true, y_pred, average=average, sample_weight=w)
                assert value == pytest.approx(expected)


# -- the weights' law ----------------------------------------------------------


def test_poisson_weights_follow_poisson_one_independently():
    """10**6 weights of one stream fit Poisson(1) (chi-square on the counts
    0..6 and 7+), and weights of neighbouring rows and replicates are
    uncorrelated."""
    counts = poisson_weights((12345, 678), 0, 5000, 200).astype(np.float64)
    observed = np.bincount(counts.ravel().astype(np.int64), minlength=8)
    observed = np.append(observed[:7], observed[7:].sum())
    probabilities = stats.poisson.pmf(np.arange(7), 1.0)
    probabilities = np.append(probabilities, 1.0 - probabilities.sum())
    _, pvalue = stats.chisquare(observed, probabilities * counts.size)
    assert pvalue > 0.001
    assert counts.mean() == pytest.approx(1.0, abs=0.005)
    assert counts.var() == pytest.approx(1.0, abs=0.01)
    bound = 5 / math.sqrt(counts.size)
    rows = np.corrcoef(counts[:-1].ravel(), counts[1:].ravel())[0, 1]
    replicates = np.corrcoef(counts[:, :-1].ravel(), counts[:, 1:].ravel())[0, 1]
    assert abs(rows) < bound and abs(replicates) < bound


def test_poisson_weights_do_not_depend_on_batch_boundaries():
    """A row's weights depend on its position alone; other keys and other
    positions give other weights."""
    key = (1, 2)
    whole = poisson_weights(key, 10, 50, 7)
    parts = [
        poisson_weights(key, 10 + a, b - a, 7) for a, b in ((0, 3), (3, 4), (4, 50))
    ]
    assert_array_equal(np.concatenate(parts), whole)
    assert not np.array_equal(poisson_weights((1, 3), 10, 50, 7), whole)
    assert not np.array_equal(poisson_weights(key, 11, 50, 7), whole)


# -- the statistics as products ------------------------------------------------


def _population(rng, size):
    """Four labels, one of them rare, and a classifier that misses and
    confuses labels at label-dependent rates (as tests/test_intervals.py)."""
    density = np.array([0.4, 0.3, 0.2, 0.04])
    y_true = (rng.random((size, 4)) < density).astype(int)
    miss = rng.random((size, 4)) < np.array([0.1, 0.2, 0.3, 0.35])
    extra = rng.random((size, 4)) < np.array([0.05, 0.05, 0.1, 0.02])
    return y_true, np.where(y_true == 1, ~miss, extra).astype(int)


def test_poisson_intervals_coverage_in_simulation():
    """Nominal 95% Poisson-bootstrap percentile intervals, from test sets of
    1,000 instances streamed in batches of 100, cover the population's macro
    F1 and the recall of its rare label (4%, about 40 positives a test set)
    in 93-97% of 1,000 repetitions (the band is about three standard errors
    wide). With 20 positives the percentile interval itself undercovers a
    little (92-94% in two simulations of test sets of 500, for the
    multinomial bootstrap as for the Poisson one)."""
    rng = np.random.default_rng(2024)
    pop_true, pop_pred = _population(rng, 2_000_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        truth_f1 = mlcm_f1_score(pop_true, pop_pred, average="macro")
        truth_recall = mlcm_recall_score(pop_true, pop_pred, average=None)[3]
    repetitions, hits_f1, hits_recall = 1000, 0, 0
    for r in range(repetitions):
        y_true, y_pred = _population(rng, 1000)
        acc = MLCMAccumulator(4, n_resamples=999, random_state=r)
        for start in range(0, 1000, 100):
            acc.update(y_true[start : start + 100], y_pred[start : start + 100])
        result = acc.confidence_intervals(zero_division=0.0)
        low, high = result.confidence_interval
        hits_f1 += low <= truth_f1 <= high
        low, high = result.scores["recall"].confidence_interval
        hits_recall += low[3] <= truth_recall <= high[3]
    coverage = hits_f1 / repetitions, hits_recall / repetitions
    assert 0.93 <= coverage[0] <= 0.97, coverage
    assert 0.93 <= coverage[1] <= 0.97, coverage


def test_poisson_and_multinomial_bootstrap_agree_in_law():
    """On 400 instances, the Poisson bootstrap's distribution of the macro F1
    and of a label's recall cannot be told from the ordinary (multinomial)
    bootstrap's by a two-sample Kolmogorov-Smirnov test (4,000 resamples
    each, fixed seeds), while the same test tells it from the bootstrap of
    half the rows (a spread sqrt(2) wider)."""
    rng = np.random.default_rng(11)
    y_true, y_pred = _noisy(rng, 400, 4, 0.15)
    acc = MLCMAccumulator(4, n_resamples=4000, random_state=3)
    for start in range(0, 400, 64):
        acc.update(y_true[start : start + 64], y_pred[start : start + 64])
    half = MLCMAccumulator(4, n_resamples=4000, random_state=4)
    half.update(y_true[:200], y_pred[:200])
    for metric in ("f1", "recall"):
        options = {"metric": metric, "zero_division": 0.0, "return_distributions": True}
        poisson = acc.confidence_intervals(**options)
        multinomial = mlcm_confidence_intervals(
            y_true,
            y_pred,
            n_resamples=4000,
            interval="percentile",
            random_state=5,
            **options,
        )
        smaller = half.confidence_intervals(**options)
        for column in (None, 1):
            if column is None:
                ours = poisson.bootstrap_distribution
                theirs = multinomial.bootstrap_distribution
                other = smaller.bootstrap_distribution
            else:
                ours = poisson.label_bootstrap_distribution[:, column]
                theirs = multinomial.label_bootstrap_distribution[:, column]
                other = smaller.label_bootstrap_distribution[:, column]
            assert stats.ks_2samp(ours, theirs).pvalue > 0.01, (metric, column)
            assert np.std(ours) == pytest.approx(np.std(theirs), rel=0.1)
            assert stats.ks_2samp(other, theirs).pvalue < 1e-6, (metric, column)


# -- the intervals -------------------------------------------------------------


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("sparse_output", [False, True])
def test_poisson_confidence_intervals_estimates_and_bounds(method, sparse_output):
    """The estimate is the public score of all the batches, the averages'
    bounds the percentile interval of the replicates' scores, the labels'
    the one-shot function's Wilson intervals (#32), for every metric and
    average; the result is the one-shot function's."""
    rng = np.random.default_rng(6)
    y_true, y_pred = _noisy(rng, 150, 4, 0.2)
    acc = MLCMAccumulator(
        4, method=method, sparse_output=sparse_output, n_resamples=300, random_state=1
    )
    acc.update(y_true[:70], y_pred[:70]).update(y_true[70:], y_pred[70:])
    for metric, score in SCORES.items():
        one_shot = mlcm_confidence_intervals(
            y_true,
            y_pred,
            metric=metric,
            method=method,
            n_resamples=19,
            confidence_level=0.9,
            interval="percentile",
            random_state=0,
        )
        for average in ("macro", "weighted", "micro", "micro_all"):
            result = acc.confidence_intervals(
                metric=metric,
                average=average,
                confidence_level=0.9,
                return_distributions=True,
            )
            assert isinstance(result, ConfidenceIntervalResult)
            estimate, (low, high) = result
            assert type(estimate) is float and type(low) is float
            expected = score(y_true, y_pred, method=method, average=average)
            assert estimate == pytest.approx(expected)
            assert_allclose(
                result.label_estimates,
                score(y_true, y_pred, method=method, average=None),
            )
            boot = result.bootstrap_distribution
            assert boot.shape == (300,)
            assert low == pytest.approx(np.quantile(boot, 0.05))
            assert high == pytest.approx(np.quantile(boot, 0.95))
            label_low, label_high = result.label_confidence_interval
            assert result.label_bootstrap_distribution.shape == (300, 4)
            expected = one_shot.label_confidence_interval
            assert_allclose(label_low, expected.low, rtol=1e-12, atol=1e-12)
            assert_allclose(label_high, expected.high, rtol=1e-12, atol=1e-12)
            assert result.interval == "percentile"
            assert result.n_resamples == 300 and result.n_degenerate == 0
            assert result.n_units == result.n_distinct_units == 150
            assert result.matrix is None and result.confidence_level == 0.9
            assert result.target_names == ["0", "1", "2", "3"]
            # every score of the report, from the same replicates
            for name in SCORES:
                assert_allclose(
                    result.scores[name].estimate,
                    SCORES[name](y_true, y_pred, method=method, average=None),
                )
                for other in ("micro", "macro", "weighted"):
                    low, high = result.scores[f"{name}_{other}"].confidence_interval
                    assert type(low) is float and low <= high


def test_poisson_confidence_intervals_count_undefined_replicates():
    """A label on one row only is absent from the replicates that weigh that
    row zero (about e**-1 of them): its recall follows zero_division there,
    and the result counts them."""
    y_true = np.array([[1, 0]] * 19 + [[0, 1]])
    acc = MLCMAccumulator(2, n_resamples=1000, random_state=0).update(y_true, y_true)
    with pytest.warns(DegenerateDataWarning, match="1 of 2 labels have < 5"):
        result = acc.confidence_intervals(
            metric="recall", zero_division=np.nan, return_distributions=True
        )
    undefined = result.label_n_undefined[1]
    poisson = _oracle_weights(0, 20, 1000)
    assert undefined == (poisson[19] == 0).sum()
    assert 1000 * 0.3 < undefined < 1000 * 0.45
    assert result.label_n_undefined[0] == (poisson[:19].sum(axis=0) == 0).sum()
    assert np.isnan(result.label_bootstrap_distribution[:, 1]).sum() == undefined
    assert result.n_undefined == undefined
    assert not np.isnan(result.label_confidence_interval.low[1])
    with pytest.warns(DegenerateDataWarning, match="1 of 2 labels have < 5"):
        zero = acc.confidence_intervals(
            metric="recall", zero_division=0.0, return_distributions=True
        )
    assert (zero.label_bootstrap_distribution[:, 1] == 0).sum() == undefined


def test_poisson_confidence_intervals_label_names_of_frames():
    """Frame batches name the labels of the result."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(7)
    y_true, y_pred = _noisy(rng, 40, 3, 0.2)
    names = ["cat", "dog", "eel"]
    acc = MLCMAccumulator(3, n_resamples=50, random_state=0)
    acc.update(pd.DataFrame(y_true, columns=names), pd.DataFrame(y_pred, columns=names))
    assert acc.confidence_intervals().target_names == names


@pytest.mark.parametrize("include_no_label", [False, True])
def test_poisson_report_with_intervals(include_no_label):
    """The report's bounds are those of confidence_intervals (the labels'
    Wilson intervals, the averages' percentile intervals of the replicates,
    the no-label row too; the samples
    average's those of its score on the replicates' weighted rows), its
    values the plain report's; the text has the one-shot report's layout and says what
    the brackets are."""
    rng = np.random.default_rng(15)
    y_true, y_pred = _noisy(rng, 120, 3, 0.2)
    acc = MLCMAccumulator(3, n_resamples=200, random_state=0)
    acc.update(y_true[:50], y_pred[:50]).update(y_true[50:], y_pred[50:])
    options = {"include_no_label": include_no_label, "zero_division": 0.0}
    plain = acc.classification_report(output_dict=True, **options)
    report = acc.classification_report(
        output_dict=True, confidence_level=0.9, **options
    )
    result = acc.confidence_intervals(confidence_level=0.9, **options)
    assert list(report) == list(plain) == [*result.target_names, *AVERAGE_ROWS]
    for name, entry in plain.items():
        for key, value in entry.items():
            assert report[name][key] == value
    for header, metric in (("precision", "precision"), ("recall", "recall"),
                           ("f1-score", "f1")):  # fmt: skip
        low, high = result.scores[metric].confidence_interval
        for i, name in enumerate(result.target_names):
            assert report[name][f"{header} low"] == pytest.approx(low[i])
            assert report[name][f"{header} high"] == pytest.approx(high[i])
            assert type(report[name][f"{header} low"]) is float
        for average in ("micro", "macro", "weighted"):
            low, high = result.scores[f"{metric}_{average}"].confidence_interval
            assert report[f"{average} avg"][f"{header} low"] == pytest.approx(low)
            assert report[f"{average} avg"][f"{header} high"] == pytest.approx(high)
    # the samples average of each replicate: the score of the rows weighted
    # by the replicate's Poisson weights, drawn by the oracle
    poisson = _oracle_weights(0, len(y_true), 200)
    for header, score in (("precision", mlcm_precision_score),
                          ("recall", mlcm_recall_score),
                          ("f1-score", mlcm_f1_score)):  # fmt: skip
        values = [
            score(y_true, y_pred, average="samples", sample_weight=w, **options)
            for w in poisson.T
        ]
        low, high = np.quantile(values, [0.05, 0.95])
        assert report["samples avg"][f"{header} low"] == pytest.approx(low)
        assert report["samples avg"][f"{header} high"] == pytest.approx(high)
    text = acc.classification_report(confidence_level=0.9, **options)
    one_shot = mlcm_classification_report(
        y_true,
        y_pred,
        confidence_level=0.9,
        n_resamples=200,
        interval="percentile",
        random_state=0,
        **options,
    )
    ours, theirs = text.splitlines(), one_shot.splitlines()
    assert ours[0] == theirs[0] and len(ours) == len(theirs)
    assert [len(line) for line in ours[:-1]] == [len(line) for line in theirs[:-1]]
    assert ours[-1] == (
        "[low, high]: 90% percentile Poisson bootstrap intervals, 200 replicates "
        "of the 120 instances; the labels' ratios modified Wilson score intervals, "
        "their macro avg the percentile (flagged where the labels are rare)"
    )


AVERAGE_ROWS = ["micro avg", "macro avg", "weighted avg", "samples avg"]


def test_poisson_confidence_intervals_refusals():
    """Intervals need replicates and two rows; bad options are refused."""
    plain = MLCMAccumulator(3).update([[1, 0, 0]], [[1, 0, 0]])
    with pytest.raises(InvalidParameterError, match="needs bootstrap replicates"):
        plain.confidence_intervals()
    match = re.escape("classification_report(confidence_level=...) needs bootstrap")
    with pytest.raises(InvalidParameterError, match=match):
        plain.classification_report(confidence_level=0.95)
    empty = MLCMAccumulator(3, n_resamples=39)
    with pytest.raises(NotFittedError, match="before confidence_intervals"):
        empty.confidence_intervals()
    with pytest.raises(NotFittedError, match="before classification_report"):
        empty.classification_report(confidence_level=0.95)
    acc = MLCMAccumulator(3, n_resamples=39).update([[1, 0, 0]], [[1, 0, 0]])
    one_row = "needs at least two rows to resample .* has seen 1"
    with pytest.raises(ValueError, match=one_row):  # [x, x]: no interval at all
        acc.confidence_intervals()
    with pytest.raises(ValueError, match=one_row):
        acc.classification_report(confidence_level=0.95)
    with pytest.raises(InvalidParameterError, match="'confidence_level' parameter"):
        acc.confidence_intervals(confidence_level=1.0)
    with pytest.raises(InvalidParameterError, match="'metric' parameter"):
        acc.confidence_intervals(metric="accuracy")


def test_poisson_confidence_intervals_refuse_too_few_replicates_for_the_level():
    """An accumulator of fewer replicates than the tails of the asked interval
    need is refused when the interval is asked for, naming the level, the
    minimum, its n_resamples and what to do; a lower level takes them."""
    y_true, y_pred = _noisy(np.random.default_rng(2), 80, 3, 0.2)
    acc = MLCMAccumulator(3, n_resamples=19, random_state=0).update(y_true, y_pred)
    match = (
        r"MLCMAccumulator.confidence_intervals needs at least 39 replicates for "
        r"confidence_level=0.95: the interval leaves 0.025 of the replicates "
        r"beyond each bound, which needs \(n_resamples \+ 1\) x 0.025 >= 1. This "
        r"accumulator keeps n_resamples=19; build it with more \(for example "
        r"MLCMAccumulator\(3, n_resamples=1000\)\) or ask for a lower "
        r"confidence_level."
    )
    with pytest.raises(InvalidParameterError, match=match):
        acc.confidence_intervals()
    match = r"classification_report\(confidence_level=...\) needs at least 39"
    with pytest.raises(InvalidParameterError, match=match):
        acc.classification_report(confidence_level=0.95)
    with pytest.raises(InvalidParameterError, match="more than the 1,000,000 all"):
        acc.confidence_intervals(confidence_level=0.999999)
    result = acc.confidence_intervals(confidence_level=0.9)  # needs 19
    assert result.n_resamples == 19 and result.confidence_level == 0.9
    report = acc.classification_report(confidence_level=0.9, zero_division=0.0)
    assert "90% percentile Poisson" in report


# -- the accumulator's guarantees with replicates ---------------------------------


def test_poisson_same_seed_same_replicates_other_seed_others():
    """One seed (an int, a SeedSequence, NumPy's global state) gives one set
    of replicates; another seed gives others."""
    rng = np.random.default_rng(8)
    y_true, y_pred = _noisy(rng, 50, 3, 0.2)

    def replicates(random_state):
        acc = MLCMAccumulator(3, n_resamples=20, random_state=random_state)
        return acc.update(y_true, y_pred)._replicates

    assert_array_equal(replicates(4), replicates(4))
    assert_array_equal(replicates(4), replicates(np.random.SeedSequence(4)))
    assert not np.array_equal(replicates(4), replicates(5))
    np.random.seed(0)
    first = replicates(None)
    np.random.seed(0)
    assert_array_equal(replicates(None), first)
    assert_array_equal(
        replicates(np.random.RandomState(1)), replicates(np.random.RandomState(1))
    )


def test_poisson_merge_adds_replicates_of_independent_streams():
    """Workers with spawned streams merge without a warning into the sum of
    their replicates; the merged accumulator's own stream goes on; + makes a
    new accumulator with a stream of its own."""
    rng = np.random.default_rng(9)
    y_true, y_pred = _noisy(rng, 90, 3, 0.2)
    seeds = np.random.SeedSequence(42).spawn(3)
    workers = [MLCMAccumulator(3, n_resamples=30, random_state=s) for s in seeds]
    for k, worker in enumerate(workers):
        worker.update(y_true[30 * k : 30 * (k + 1)], y_pred[30 * k : 30 * (k + 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        total = workers[0] + workers[1]
        total.merge(workers[2])
    assert_allclose(total._replicates, sum(w._replicates for w in workers))
    assert total.n_samples_ == 90
    assert_array_equal(total.confusion_matrix, mlcm_confusion_matrix(y_true, y_pred))
    # the first worker goes on with its own stream, from row 30
    first = MLCMAccumulator(3, n_resamples=30, random_state=seeds[0])
    first.update(y_true[:30], y_pred[:30]).update(y_true[30:], y_pred[30:])
    workers[0].update(y_true[30:], y_pred[30:])
    assert_array_equal(workers[0]._replicates, first._replicates)


def test_poisson_merge_of_one_stream_warns():
    """Two accumulators of one integer seed, or one accumulator merged twice,
    tie rows' weights together: the merge warns (and still adds)."""
    rng = np.random.default_rng(10)
    y_true, y_pred = _noisy(rng, 40, 3, 0.2)
    a = MLCMAccumulator(3, n_resamples=10, random_state=0).update(y_true, y_pred)
    b = MLCMAccumulator(3, n_resamples=10, random_state=0).update(y_true, y_pred)
    with pytest.warns(UserWarning, match="same bootstrap weights"):
        a + b
    with pytest.warns(UserWarning, match="same bootstrap weights"):
        a.merge(b)
    assert_array_equal(a._replicates, 2 * b._replicates)
    c = MLCMAccumulator(3, n_resamples=10, random_state=1).update(y_true, y_pred)
    total = MLCMAccumulator(3, n_resamples=10, random_state=2).merge(c)
    with pytest.warns(UserWarning, match="same bootstrap weights"):
        total.merge(c)


def test_poisson_merge_refuses_other_replicates():
    """Accumulators of different n_resamples (or none) are not merged, and
    the refused merge changes nothing."""
    acc = MLCMAccumulator(2, n_resamples=10).update([[1, 0]], [[1, 0]])
    before = acc._replicates.copy()
    for other in (MLCMAccumulator(2), MLCMAccumulator(2, n_resamples=11)):
        with pytest.raises(InvalidInputError, match="as many bootstrap replicates"):
            acc.merge(other.update([[1, 0]], [[0, 1]]))
    assert_array_equal(acc._replicates, before)
    assert acc.n_samples_ == 1


def test_poisson_pickled_accumulator_goes_on_with_its_stream():
    """A pickled copy holds the replicates and the stream's position: both go
    on alike, and merging the copy into its original warns."""
    rng = np.random.default_rng(12)
    y_true, y_pred = _noisy(rng, 60, 3, 0.2)
    acc = MLCMAccumulator(3, n_resamples=16, random_state=7).update(
        y_true[:25], y_pred[:25]
    )
    copy = pickle.loads(pickle.dumps(acc))
    acc.update(y_true[25:], y_pred[25:])
    copy.update(y_true[25:], y_pred[25:])
    assert_array_equal(copy._replicates, acc._replicates)
    once = MLCMAccumulator(3, n_resamples=16, random_state=7).update(y_true, y_pred)
    assert_array_equal(copy._replicates, once._replicates)
    with pytest.warns(UserWarning, match="same bootstrap weights"):
        acc.merge(copy)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_poisson_accumulator_is_thread_safe(method):
    """4 threads x 500 single-row batches of one row: no row is lost, no
    position is used twice (the replicates are then the row's margins times
    the sum of the weights of positions 0..1999, whatever the order)."""
    row_true, row_pred = np.array([[1, 1, 0]]), np.array([[1, 0, 1]])
    acc = MLCMAccumulator(3, method=method, n_resamples=8, random_state=3)
    barrier = threading.Barrier(4)

    def work():
        barrier.wait()
        for _ in range(500):
            acc.update(row_true, row_pred)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert acc.n_samples_ == 2000 and acc._next_row == 2000
    single = _margins_of(mlcm_confusion_matrix(row_true, row_pred, method=method))
    total = _oracle_weights(3, 2000, 8).sum(axis=0)
    assert_allclose(acc._replicates, total[:, None, None] * single[None], rtol=1e-12)


def _state(acc):
    return (
        acc.confusion_matrix.tolist(),
        acc._replicates.tolist(),
        acc._next_row,
        acc.n_samples_,
        sorted(acc._streams),
    )


@pytest.mark.parametrize(
    "args, match",
    [
        ((np.array([[2, 0, 0]]), np.array([[1, 0, 0]])), "only 0 and 1"),
        ((np.array([[1, 0, 0]]), np.array([[1, 0, 0]]), [-1.0]), "non-negative"),
        ((np.array([[1, 0, 0]]), np.array([[1, 0, 0]] * 2)), "same number"),
        ((np.array([[1, 0]]), np.array([[1, 0]])), "3 label columns"),
    ],
)
def test_poisson_refused_update_changes_nothing(args, match):
    """All or nothing: a refused batch leaves the replicates, the stream's
    position and the streams as they were, so the next batch gets the
    weights it would have had without it."""
    rng = np.random.default_rng(13)
    y_true, y_pred = _noisy(rng, 30, 3, 0.2)
    acc = MLCMAccumulator(3, n_resamples=12, random_state=0)
    acc.update(y_true[:10], y_pred[:10])
    state = _state(acc)
    with pytest.raises((ValueError, TypeError), match=match):
        acc.update(*args)
    assert _state(acc) == state
    acc.update(y_true[10:], y_pred[10:])
    once = MLCMAccumulator(3, n_resamples=12, random_state=0).update(y_true, y_pred)
    assert_array_equal(acc._replicates, once._replicates)


def test_poisson_replicate_overflow_is_refused():
    """Weights whose Poisson multiples would overflow a replicate's float64
    total are refused before the matrix's would, and change nothing."""
    acc = MLCMAccumulator(2, n_resamples=50, random_state=0)
    refused = False
    for _ in range(40):
        state = _state(acc)
        try:
            acc.update([[1, 0]], [[1, 0]], sample_weight=[1e307])
        except InvalidInputError as exc:
            assert "running matrix's total within float64" in str(exc)
            refused = True
            break
    assert refused and acc.n_samples_ < 17
    assert _state(acc) == state
    assert np.isfinite(acc._replicates).all()


def test_poisson_replicates_memory_is_bounded():
    """Replicates past 1 GiB are refused before they exist, with the largest
    n_resamples that fits."""
    with pytest.raises(InvalidParameterError, match=re.escape("at most 422,060")):
        MLCMAccumulator(99, n_resamples=500_000)
    with pytest.raises(InvalidParameterError, match="'n_resamples' parameter"):
        MLCMAccumulator(3, n_resamples=0)
    with pytest.raises(InvalidParameterError, match="'random_state' parameter"):
        MLCMAccumulator(3, n_resamples=5, random_state=-1)


def test_poisson_sparse_and_frames_and_repr():
    """Sparse batches and sparse_output give the dense replicates; repr says
    how many replicates the accumulator keeps."""
    rng = np.random.default_rng(14)
    y_true, y_pred = _noisy(rng, 40, 5, 0.2)
    dense = MLCMAccumulator(5, n_resamples=9, random_state=2).update(y_true, y_pred)
    sparse_acc = MLCMAccumulator(5, sparse_output=True, n_resamples=9, random_state=2)
    sparse_acc.update(sparse.csr_array(y_true), sparse.csr_matrix(y_pred))
    assert_array_equal(sparse_acc._replicates, dense._replicates)
    assert "n_resamples=9" in repr(dense)
    assert dense.reset()._replicates.sum() == 0 and dense._next_row == 0


def test_poisson_dask_batches_are_refused():
    """A dask batch is refused with the way out: its rows are not here."""
    da = pytest.importorskip("dask.array")
    acc = MLCMAccumulator(2, n_resamples=5)
    y = da.from_array(np.array([[1, 0], [0, 1]]), chunks=1)
    with pytest.raises(InvalidInputError, match="one computed block at a time"):
        acc.update(y, y)
    assert acc.n_samples_ == 0
