"""mlcm_confidence_intervals: against a naive resampling loop, against
scipy.stats.bootstrap, by the coverage of its intervals in simulation, and
every refusal."""

import warnings

import numpy as np
import pytest
import scipy
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    ConfidenceIntervalResult,
    InvalidInputError,
    InvalidParameterError,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_recall_score,
)
from sklearn_mlcm._margins import batches, heydarian_margins

SCIPY_VERSION = tuple(int(part) for part in scipy.__version__.split(".")[:2])


def _noisy(rng, n, q, flip, density=0.3):
    y_true = (rng.random((n, q)) < density).astype(int)
    return y_true, y_true ^ (rng.random((n, q)) < flip)


def test_mlcm_confidence_intervals_resamples_are_a_naive_loop():
    """Each bootstrap value is the score of the resample drawn with the same
    seed-derived counts, computed by the public score on the weighted data."""
    rng = np.random.default_rng(1)
    y_true, y_pred = _noisy(rng, 40, 3, 0.2)
    weight = rng.uniform(0.5, 2.0, 40)
    result = mlcm_confidence_intervals(
        y_true,
        y_pred,
        metric="f1",
        average="weighted",
        sample_weight=weight,
        n_resamples=60,
        interval="percentile",
        zero_division=0.0,
        random_state=7,
    )
    seed = np.random.RandomState(7).randint(2**31 - 1)
    draw = np.random.RandomState(seed)
    # each resample: 40 instances drawn with replacement, by index
    rows = np.concatenate([draw.randint(0, 40, size=(s, 40)) for s in batches(60, 40)])
    counts = np.array([np.bincount(row, minlength=40) for row in rows])
    for b in range(60):
        w = counts[b] * weight
        expected = mlcm_f1_score(
            y_true, y_pred, average="weighted", sample_weight=w, zero_division=0.0
        )
        assert result.bootstrap_distribution[b] == pytest.approx(expected)
        per_label = mlcm_f1_score(
            y_true, y_pred, average=None, sample_weight=w, zero_division=0.0
        )
        assert_allclose(result.label_bootstrap_distribution[b], per_label)
    low, high = result.confidence_interval
    assert low == pytest.approx(np.quantile(result.bootstrap_distribution, 0.025))
    assert high == pytest.approx(np.quantile(result.bootstrap_distribution, 0.975))


def test_mlcm_confidence_intervals_match_scipy_bootstrap():
    """On 1-D classes the micro recall is the accuracy, a mean of 0/1 values:
    percentile and BCa bounds agree with scipy.stats.bootstrap's on that
    mean, within the Monte Carlo error of 20,000 resamples (BCa from SciPy
    1.10, whose bias correction counts ties in the bootstrap distribution as
    half, as ours does: scipy/scipy#15892)."""
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 3, 150)
    y_pred = np.where(rng.random(150) < 0.8, y_true, rng.integers(0, 3, 150))
    correct = (y_true == y_pred).astype(float)
    methods = [("percentile", "percentile")]
    if SCIPY_VERSION >= (1, 10):
        methods.append(("bca", "BCa"))
    for interval, method in methods:
        ours = mlcm_confidence_intervals(
            y_true,
            y_pred,
            metric="recall",
            average="micro",
            n_resamples=20000,
            interval=interval,
            random_state=0,
        )
        assert ours.estimate == pytest.approx(correct.mean())
        theirs = stats.bootstrap(
            (correct,), np.mean, n_resamples=20000, method=method, random_state=0
        ).confidence_interval
        assert ours.confidence_interval.low == pytest.approx(theirs.low, abs=0.01)
        assert ours.confidence_interval.high == pytest.approx(theirs.high, abs=0.01)


def _population(rng, size):
    """A multi-label population: four labels, one of them rare, and a
    classifier that misses and confuses labels at label-dependent rates."""
    density = np.array([0.4, 0.3, 0.2, 0.04])
    y_true = (rng.random((size, 4)) < density).astype(int)
    miss = rng.random((size, 4)) < np.array([0.1, 0.2, 0.3, 0.35])
    extra = rng.random((size, 4)) < np.array([0.05, 0.05, 0.1, 0.02])
    return y_true, np.where(y_true == 1, ~miss, extra).astype(int)


def test_mlcm_confidence_intervals_coverage_in_simulation():
    """Nominal 95% intervals cover the population's score in 93-97% of 1,000
    simulated test sets (the band is about 3 standard errors of a coverage
    of 95%), for the macro F1 and for the recall of a rare label (about 20
    positives per test set), percentile and BCa alike."""
    rng = np.random.default_rng(12345)
    pop_true, pop_pred = _population(rng, 2_000_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        truth_f1 = mlcm_f1_score(pop_true, pop_pred, average="macro")
        truth_recall = mlcm_recall_score(pop_true, pop_pred, average=None)[3]
    hits = {(m, i): 0 for m in ("f1", "recall") for i in ("percentile", "bca")}
    repetitions = 1000
    for r in range(repetitions):
        y_true, y_pred = _population(rng, 500)
        for interval in ("percentile", "bca"):
            f1 = mlcm_confidence_intervals(
                y_true,
                y_pred,
                n_resamples=999,
                interval=interval,
                zero_division=0.0,
                random_state=r,
            )
            low, high = f1.confidence_interval
            hits["f1", interval] += low <= truth_f1 <= high
            recall = mlcm_confidence_intervals(
                y_true,
                y_pred,
                metric="recall",
                n_resamples=999,
                interval=interval,
                zero_division=0.0,
                random_state=r,
            )
            low, high = recall.label_confidence_interval
            hits["recall", interval] += low[3] <= truth_recall <= high[3]
    coverage = {key: hit / repetitions for key, hit in hits.items()}
    for key, value in coverage.items():
        assert 0.93 <= value <= 0.97, (key, coverage)


def test_mlcm_confidence_intervals_groups_resample_whole_groups():
    """Each instance repeated five times as one group gives the interval of
    the instances themselves; ignoring the groups gives a narrower one."""
    rng = np.random.default_rng(3)
    y_true, y_pred = _noisy(rng, 120, 3, 0.15)
    repeated_true, repeated_pred = np.repeat(y_true, 5, 0), np.repeat(y_pred, 5, 0)
    groups = np.repeat(np.arange(120), 5)
    options = {"n_resamples": 4000, "interval": "percentile", "random_state": 0}
    alone = mlcm_confidence_intervals(y_true, y_pred, **options)
    grouped = mlcm_confidence_intervals(
        repeated_true, repeated_pred, groups=groups, **options
    )
    naive = mlcm_confidence_intervals(repeated_true, repeated_pred, **options)

    def width(result):
        return result.confidence_interval.high - result.confidence_interval.low

    assert grouped.estimate == pytest.approx(alone.estimate)
    assert width(grouped) == pytest.approx(width(alone), rel=0.1)
    assert width(naive) < 0.6 * width(grouped)


def test_mlcm_confidence_intervalsundefined_scores_resamples_are_counted():
    """A label absent from some resamples follows zero_division there, and
    the result says in how many resamples it was undefined."""
    y_true = np.array([[1, 0]] * 19 + [[0, 1]])
    y_pred = np.array([[1, 0]] * 19 + [[0, 1]])
    result = mlcm_confidence_intervals(
        y_true,
        y_pred,
        metric="recall",
        n_resamples=500,
        zero_division=np.nan,
        random_state=0,
    )
    # label 1 has one instance: (19/20)**20 of the resamples miss it
    undefined = result.label_n_undefined[1]
    assert 500 * 0.25 < undefined < 500 * 0.5
    assert result.label_n_undefined[0] == 0
    assert np.isnan(result.label_bootstrap_distribution[:, 1]).sum() == undefined
    assert result.n_undefined == undefined
    zero = mlcm_confidence_intervals(
        y_true,
        y_pred,
        metric="recall",
        n_resamples=500,
        zero_division=0.0,
        random_state=0,
    )
    assert (zero.label_bootstrap_distribution[:, 1] == 0).sum() == undefined


def test_mlcm_confidence_intervals_result_and_seed():
    """The result unpacks as (estimate, (low, high)); one seed, one result."""
    rng = np.random.default_rng(4)
    y_true, y_pred = _noisy(rng, 80, 3, 0.2)
    result = mlcm_confidence_intervals(y_true, y_pred, n_resamples=200, random_state=3)
    assert isinstance(result, ConfidenceIntervalResult)
    estimate, (low, high) = result
    assert type(estimate) is float and low <= estimate <= high
    assert estimate == pytest.approx(mlcm_f1_score(y_true, y_pred))
    assert result.label_estimates.shape == (3,)
    assert result.bootstrap_distribution.shape == (200,)
    again = mlcm_confidence_intervals(y_true, y_pred, n_resamples=200, random_state=3)
    assert_allclose(again.bootstrap_distribution, result.bootstrap_distribution)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_resamples": 0}, InvalidParameterError, "'n_resamples' parameter"),
        ({"n_resamples": 10**7}, InvalidParameterError, "'n_resamples' parameter"),
        ({"confidence_level": 1.0}, InvalidParameterError, "'confidence_level'"),
        ({"confidence_level": 0}, InvalidParameterError, "'confidence_level'"),
        ({"interval": "basic"}, InvalidParameterError, "'interval' parameter"),
        ({"groups": [0, 1]}, InvalidInputError, "'groups' parameter .* length"),
        ({"groups": [7] * 6}, InvalidInputError, "at least two distinct groups"),
        ({"metric": "accuracy"}, InvalidParameterError, "'metric' parameter"),
    ],
)
def test_mlcm_confidence_intervals_refusals(kwargs, error, match):
    """Each bad parameter is refused with its name."""
    y = [[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]]
    with pytest.raises(error, match=match):
        mlcm_confidence_intervals(y, y, **kwargs)


def test_mlcm_confidence_intervals_mismatched_targets_are_refused():
    """Predictions of another shape are refused by the data validation."""
    with pytest.raises(InvalidInputError, match="y_pred"):
        mlcm_confidence_intervals([[1, 0], [0, 1]], [[1, 0, 0], [0, 1, 0]])


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def testheydarian_margins_of_single_instances_match_the_kernel(mlcm_strategies, data):
    """The margins of each instance's MLCM, read off the set sizes without the
    kernel (the resampling engine's table), are the kernel's, for every
    category, empty sets, one label and all-one rows."""
    y_true, y_pred = data.draw(mlcm_strategies.targets())
    margins = heydarian_margins(y_true, y_pred)
    for i in range(y_true.shape[0]):
        cm = mlcm_confusion_matrix(y_true[i : i + 1], y_pred[i : i + 1])
        expected = np.stack([np.diag(cm), cm.sum(axis=1), cm.sum(axis=0)])
        assert_array_equal(margins[i], expected)
