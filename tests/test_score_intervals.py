"""Score intervals of per-label ratios and the macro bootstrap-t (issue #32):
exact values, agreement with the engine's scores, and small simulations that
prove the coverage where the percentile bootstrap collapses."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from scipy.stats import DegenerateDataWarning

from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confidence_intervals,
)
from sklearn_mlcm._uncertainty._margins import every_score
from sklearn_mlcm._uncertainty._score_intervals import (
    RATIOS,
    count_moments,
    form_moments,
    label_score_intervals,
    macro_estimate,
    macro_forms,
    macro_interval,
    proportion_interval,
    ratio_form,
    ratio_moments,
    resampled_macros,
    studentised_bounds,
)
from sklearn_mlcm._uncertainty._table import (
    UnitTable,
    combine_tables,
    resample_counts,
    tabulate,
)

METHODS = ("heydarian", "krstinic")


def _units(t, p, method, weight=None):
    table = combine_tables([tabulate(t, p, weight)])
    return UnitTable(table, t.shape[1], method, grouped=False)


def _population(seed, n, prevalence, *, hit=0.6, false_alarm=0.03):
    """A population of ``n`` instances whose classifier finds ``hit`` of the
    true labels and adds each other label with ``false_alarm``."""
    rng = np.random.default_rng(seed)
    t = rng.random((n, len(prevalence))) < prevalence
    p = (t & (rng.random(t.shape) < hit)) | (rng.random(t.shape) < false_alarm)
    return t, p


def test_proportion_interval_wilson_known_values():
    """0 of 10 at 95% is [0, 0.2775] (Wilson 1927), and Wilson's bounds equal
    scipy's binomtest(...).proportion_ci(method="wilson") on a grid."""
    low, high = proportion_interval(0, 10, confidence_level=0.95)
    assert low == 0.0
    assert_allclose(high, 0.2775328, atol=1e-7)
    k = np.arange(0, 31)
    for level in (0.8, 0.95, 0.99):
        low, high = proportion_interval(k, 30, confidence_level=level)
        for j in k:
            ci = stats.binomtest(int(j), 30).proportion_ci(level, method="wilson")
            assert_allclose([low[j], high[j]], [ci.low, ci.high], atol=1e-12)


def test_proportion_interval_modified_wilson_has_the_poisson_bound_near_the_ends():
    """Brown, Cai and DasGupta's modified Wilson, as R's MKmisc::binomCI
    gives it: one hit of one trial at 95% is [0.0513, 1] (the Poisson bound
    chi2_2(0.05) / 2 = -log(0.95), at the one-sided level), not Wilson's
    [0.2065, 1]; one or two hits or misses up to 50 trials and one to three
    from 51 to 100 get the Poisson bound (here the smaller of the two),
    every other count, and every count past 100 trials, Wilson's bounds bit
    for bit; fractional counts follow the same rule."""
    level = 0.95
    low, high = proportion_interval(
        1, 1, confidence_level=level, method="modified-wilson"
    )
    assert_allclose([low, high], [-np.log(level), 1.0], rtol=1e-12)
    assert_allclose(
        proportion_interval(2, 50, confidence_level=level, method="modified-wilson")[0],
        stats.chi2(4).ppf(1 - level) / 100,
        rtol=1e-12,
    )
    for n, most in ((10, 2), (50, 2), (51, 3), (100, 3), (101, 0), (400, 0)):
        k = np.arange(n + 1)
        plain = proportion_interval(k, n, confidence_level=level)
        low, high = proportion_interval(
            k, n, confidence_level=level, method="modified-wilson"
        )
        near = (k >= 1) & (k <= most)
        poisson = stats.chi2(2 * k[near]).ppf(1 - level) / (2 * n)
        assert_allclose(low[near], np.minimum(plain[0][near], poisson), rtol=1e-10)
        assert (low[near] < plain[0][near]).all()  # at 95% the Poisson bound
        assert_array_equal(low[~near], plain[0][~near])
        far = (n - k >= 1) & (n - k <= most)
        poisson = 1.0 - stats.chi2(2 * (n - k[far])).ppf(1 - level) / (2 * n)
        assert_allclose(high[far], np.maximum(plain[1][far], poisson), rtol=1e-10)
        assert_array_equal(high[~far], plain[1][~far])
    low, high = proportion_interval(
        1.5, 7.5, confidence_level=0.9, method="modified-wilson"
    )
    assert_allclose(low, stats.gamma(1.5).ppf(0.1) / 7.5, rtol=1e-10)
    # below 90%, from 51 trials, Wilson's bound can be the smaller: kept
    plain = proportion_interval(3, 60, confidence_level=0.8)
    modified = proportion_interval(
        3, 60, confidence_level=0.8, method="modified-wilson"
    )
    assert stats.chi2(6).ppf(0.2) / 120 > plain[0]
    assert_array_equal(modified[0], plain[0])


def test_proportion_interval_modified_wilson_lifts_the_worst_coverage():
    """The exact binomial coverage of the 95% interval, its minimum over
    proportions in (0, 1) for every n from 1 to 100: Wilson's falls to 79%
    (at one trial, p < 0.21: the label seen once, and right, while it is
    mostly wrong in the population), the modified Wilson's stays above 87%
    (90.9% past ten trials); what the per-label intervals use."""
    p = np.linspace(0.0005, 0.9995, 2000)[:, None]
    worst = {}
    for method in ("wilson", "modified-wilson"):
        found = []
        for n in range(1, 101):
            k = np.arange(n + 1)
            low, high = proportion_interval(k, n, confidence_level=0.95, method=method)
            covered = (low <= p) & (p <= high)
            found.append((stats.binom.pmf(k, n, p) * covered).sum(axis=1).min())
        worst[method] = np.array(found)
    assert worst["wilson"].min() < 0.80
    assert worst["modified-wilson"].min() > 0.87
    assert worst["modified-wilson"][10:].min() > 0.90
    assert (worst["modified-wilson"] >= worst["wilson"] - 1e-12).all()


@pytest.mark.parametrize(
    "n, hits", [(100, 1), (100, 97), (100, 99), (50, 47), (50, 2), (51, 3), (101, 1)]
)
def test_counted_trials_take_the_modified_bound_of_their_count(n, hits):
    """Unweighted instances: a label's effective trials are its count, to
    rounding (100.00000000000001, 50.000000000000036): the label's interval,
    one-shot and streamed, is the modified Wilson interval of ``hits`` of
    ``n``, the Poisson bound where the count calls for it (1 of 100: low
    0.0005, not Wilson's 0.0018; 47 of 50: high 0.979, not the 51-100 rule's
    0.984)."""
    y_true = np.ones((n, 2), dtype=int)
    y_pred = np.zeros((n, 2), dtype=int)
    y_pred[:, 1] = 1
    y_pred[:hits, 0] = 1
    expected = proportion_interval(
        hits, n, confidence_level=0.95, method="modified-wilson"
    )
    accumulator = MLCMAccumulator(2, n_resamples=39, random_state=0)
    accumulator.update(y_true, y_pred)
    with warnings.catch_warnings():  # two labels, no negative: flagged averages
        warnings.simplefilter("ignore", DegenerateDataWarning)
        results = (
            mlcm_confidence_intervals(
                y_true, y_pred, metric="recall", n_resamples=39, random_state=0
            ),
            accumulator.confidence_intervals(metric="recall"),
        )
    for result in results:
        low, high = result.scores["recall"].confidence_interval
        assert_allclose([low[0], high[0]], expected, rtol=1e-12)


def test_weights_far_apart_keep_the_squares_of_the_smallest():
    """Weights 1e-90 and 1e100: the margins' scale brought the largest to 1,
    the smallest's square underflowed, and the label seen once (1 hit of 1
    trial, weight 1e-90) got [0, 1] as its recall interval; the scale now
    centres the range, and it gets the modified Wilson interval of 1 of 1,
    as with unit weights (found by an adversarial hunt)."""
    y = [[1, 0], [0, 1], [0, 1]]
    expected = proportion_interval(
        1, 1, confidence_level=0.95, method="modified-wilson"
    )
    for weight in ([1.0, 1.0, 1.0], [1e-90, 1e100, 1e100], [1e-12, 1e200, 1e200]):
        accumulator = MLCMAccumulator(2, n_resamples=39, random_state=0)
        accumulator.update(y, y, sample_weight=weight)  # the stream alike
        stream = accumulator.confidence_intervals
        for result in (_quiet_intervals(y, y, weight), _quiet(stream, metric="recall")):
            low, high = result.scores["recall"].confidence_interval
            assert_allclose([low[0], high[0]], expected, rtol=1e-12)
            assert np.isfinite(result.scores["recall_macro"].confidence_interval).all()


@pytest.mark.parametrize("weight", [[1e-12, 1e300, 1e300], [1.0, 1e300, 1e300]])
def test_weights_too_far_apart_for_float64_give_no_trial_not_nan(weight):
    """Weights 1e300 beside 1e-12 gave the macro recall interval a NaN bound
    (the reciprocal of a subnormal sum). Past 2**800 apart no common scale
    keeps both squares in float64: the largest stay finite, and the label
    seen only at the smallest weight gets the interval of no trial, [0, 1],
    one-shot and streamed; every bound is a number that holds its estimate."""
    y = [[1, 0], [0, 1], [0, 1]]
    accumulator = MLCMAccumulator(2, n_resamples=39, random_state=0)
    accumulator.update(y, y, sample_weight=weight)
    stream = _quiet(accumulator.confidence_intervals, metric="recall")
    for result in (_quiet_intervals(y, y, weight), stream):
        low, high = result.scores["recall"].confidence_interval
        assert (low[0], high[0]) == (0.0, 1.0)
        for key in ("recall", "recall_macro", "recall_micro"):
            score = result.scores[key]
            low, high = (np.asarray(bound) for bound in score.confidence_interval)
            assert np.isfinite(low).all() and np.isfinite(high).all()
            assert (low <= score.estimate).all() and (score.estimate <= high).all()


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():  # two labels of one or two positives: flagged
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return function(*args, **kwargs)


def _quiet_intervals(y_true, y_pred, weight):
    return _quiet(
        mlcm_confidence_intervals, y_true, y_pred, metric="recall",
        sample_weight=weight, n_resamples=39, random_state=0,
    )  # fmt: skip


def test_proportion_interval_refuses_an_unknown_method():
    """A method it does not know is an error, not Wilson's interval (found by
    an adversarial hunt: "modified_wilson" gave Wilson's bounds)."""
    with pytest.raises(ValueError, match="method must be one of .*'modified_wilson'"):
        proportion_interval(1, 10, confidence_level=0.95, method="modified_wilson")


def test_proportion_interval_jeffreys_is_the_beta_quantiles():
    """Jeffreys' bounds are Beta(x + 1/2, n - x + 1/2) quantiles, 0 at no hit
    and 1 at no miss."""
    k = np.arange(0, 21)
    low, high = proportion_interval(k, 20, confidence_level=0.9, method="jeffreys")
    beta = stats.beta(k + 0.5, 20 - k + 0.5)
    assert_allclose(low[1:], beta.ppf(0.05)[1:], rtol=1e-10)
    assert_allclose(high[:-1], beta.ppf(0.95)[:-1], rtol=1e-10)
    assert low[0] == 0.0 and high[-1] == 1.0


def test_proportion_interval_no_trials_is_nan():
    """No trial gives NaN bounds, never a number."""
    low, high = proportion_interval([0, 1], [0, 2], confidence_level=0.95)
    assert np.isnan(low[0]) and np.isnan(high[0])
    assert 0 < low[1] < high[1] < 1


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("tn", ["complement", "diagonal"])
def test_ratio_moments_estimate_is_the_engine_score(method, tn):
    """X / Y of ratio_moments is every_score's per-label value for each metric,
    method and true-negative rule (weighted)."""
    t, p = _population(3, 300, [0.02, 0.1, 0.3, 0.5, 0.05])
    weight = np.random.default_rng(4).uniform(0.5, 2.0, 300)
    units = _units(t, p, method, weight)
    for metric in ("precision", "recall", "f1", "fbeta", "specificity"):
        labels, _ = every_score(
            units.observed(),
            [metric],
            [],
            beta=2.0,
            tn=tn,
            zero_division=0.0,
            shown=t.shape[1],
        )
        got = ratio_moments(units, metric, beta=2.0, tn=tn)
        assert_allclose(
            got.numerator / got.denominator, labels[metric][0], rtol=1e-10, atol=1e-12
        )


def test_label_score_intervals_reduce_to_wilson_on_counts():
    """Where every instance is one Bernoulli trial per label (predictions that
    are subsets of the truth: Heydarian's category 1 only), the recall
    interval is Wilson's on the counts TP of TP + FN."""
    t, p = _population(5, 200, [0.05, 0.2, 0.5], hit=0.7, false_alarm=0.0)
    result = label_score_intervals(
        ratio_moments(_units(t, p, "heydarian"), "recall"),
        confidence_level=0.95,
        method="wilson",
    )
    tp, positives = (t & p).sum(axis=0), t.sum(axis=0)
    assert_allclose(result.n_eff, positives)
    for k in range(3):
        ci = stats.binomtest(int(tp[k]), int(positives[k])).proportion_ci(
            0.95, method="wilson"
        )
        assert_allclose([result.low[k], result.high[k]], [ci.low, ci.high])


@pytest.mark.parametrize("method", METHODS)
def test_label_score_intervals_zero_hits_do_not_collapse(method):
    """A label with true instances but no hit has recall 0 and an interval
    [0, h] with h > 0; a label with no miss has [l, 1] with l < 1; a label
    never predicted has an undefined precision (NaN bounds)."""
    t = np.zeros((40, 3), dtype=bool)
    t[:6, 0] = t[6:20, 1] = t[20:, 2] = True
    p = t.copy()
    p[:6, 0] = False  # label 0: six positives, all missed, never predicted
    units = _units(t, p, method)
    recall = label_score_intervals(
        ratio_moments(units, "recall"), confidence_level=0.95
    )
    assert recall.estimate[0] == 0 and recall.low[0] == 0 and recall.high[0] > 0.2
    assert recall.estimate[1] == 1 and recall.high[1] == 1 and recall.low[1] < 0.85
    precision = label_score_intervals(
        ratio_moments(units, "precision"), confidence_level=0.95
    )
    assert np.isnan(precision.estimate[0]) and np.isnan(precision.low[0])


@pytest.mark.parametrize("method", METHODS)
def test_label_score_intervals_cover_rare_labels_with_zero_hits(method):
    """Simulation: labels of prevalence 0.5-2% in samples of 100 from an
    over-predicting classifier, 400 replicates. The recall, precision and F1
    score intervals cover the population value in >= 90% of the replicates
    (Monte Carlo SE 0.011 at 0.95), and >= 90% of those with no hit, where a
    percentile bootstrap's [0, 0] covers none."""
    prevalence = np.array([0.005, 0.01, 0.02, 0.3])
    t, p = _population(11, 20_000, prevalence)
    truth = {}
    for metric in ("recall", "precision", "f1"):
        moments = ratio_moments(_units(t, p, method), metric)
        truth[metric] = moments.numerator / moments.denominator
    rng = np.random.default_rng(12)
    covered = {m: np.zeros(4) for m in truth}
    defined = {m: np.zeros(4) for m in truth}
    zero_hit_covered = zero_hit = 0
    for _ in range(400):
        rows = rng.integers(0, t.shape[0], 100)
        units = _units(t[rows], p[rows], method)
        for metric, value in truth.items():
            result = label_score_intervals(
                ratio_moments(units, metric), confidence_level=0.95
            )
            ok = ~np.isnan(result.low)
            inside = ok & (result.low <= value + 1e-12) & (value <= result.high + 1e-12)
            covered[metric] += inside
            defined[metric] += ok
            none = ok & (result.estimate == 0)
            zero_hit += int(none.sum())
            zero_hit_covered += int((inside & none).sum())
    for metric in truth:
        coverage = covered[metric] / defined[metric]
        assert (coverage >= 0.90).all(), (metric, coverage)
    assert zero_hit > 100
    assert zero_hit_covered / zero_hit >= 0.90


@pytest.mark.parametrize("method", METHODS)
def test_macro_interval_estimate_is_the_engine_macro(method):
    """The macro interval's estimate is every_score's macro average, for a
    label with no true instance (zero_division 0.0 and NaN)."""
    t, p = _population(7, 150, [0.0, 0.05, 0.2, 0.4])
    units = _units(t, p, method)
    for zero_division in (0.0, np.nan):
        for metric in ("precision", "recall", "f1"):
            _, averages = every_score(
                units.observed(),
                [metric],
                ["macro"],
                beta=1.0,
                tn="complement",
                zero_division=zero_division,
                shown=4,
            )
            got = macro_interval(
                units,
                metric,
                confidence_level=0.95,
                zero_division=zero_division,
                n_resamples=99,
            )
            assert_allclose(got.estimate, averages[metric, "macro"][0])
            assert got.low <= got.estimate <= got.high
            assert got.se > 0


def _naive_macro_variances(units, forms, drawn, zero_division):
    """Loop by loop, each resample's linearised variance of each macro form:
    ``sum_i c_i u_i^2`` with ``u_i = sum_k a_k (x_ik - r_k y_ik)`` read off
    the dense margins of each kind of unit (diagonal, row and column sums;
    the total and the trace for every label)."""
    margins = units.unit_margins.toarray().reshape(units.n_kinds, 3, -1)
    s = forms.shown

    def parts(m):  # (5, s): diag, rows, cols, total, trace of each label
        return np.array(
            [m[0, :s], m[1, :s], m[2, :s], [m[1].sum()] * s, [m[0].sum()] * s]
        )

    out = np.zeros((len(forms.keys), drawn.shape[1]))
    for b in range(drawn.shape[1]):
        resample = sum(drawn[i, b] * margins[i] for i in range(units.n_kinds))
        for f in range(len(forms.keys)):
            x, y = forms.x[f] @ parts(resample), forms.y[f] @ parts(resample)
            defined = y > 0
            r = np.clip(np.divide(x, y, out=np.zeros(s), where=defined), 0, 1)
            if np.isnan(zero_division):
                scale = 1.0 / max(defined.sum(), 1)
            else:
                scale = 1.0 / s
            a = np.divide(scale, y, out=np.zeros(s), where=defined)
            for i in range(units.n_kinds):
                unit = parts(margins[i])
                u = sum(
                    a[k] * (forms.x[f] @ unit[:, k] - r[k] * (forms.y[f] @ unit[:, k]))
                    for k in range(s)
                )
                out[f, b] += drawn[i, b] * u * u
    return out


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("zero_division", [0.0, np.nan])
@pytest.mark.parametrize("shape", [(40, 3), (25, 1), (60, 5)])
def test_macro_variances_are_the_linearised_variance_loop_by_loop(
    method, zero_division, shape
):
    """Every ratio's macro variance in every resample is the naive loop's,
    the forms that read two of the three margins (precision, recall, their
    error rates) among those that read all three; a label that is never true
    and one never predicted too."""
    rng = np.random.default_rng(shape[0])
    t = rng.random(shape) < 0.3
    p = rng.random(shape) < 0.3
    t[:, 0] = False
    p[:, -1] = False
    units = _units(t, p, method)
    forms = macro_forms(
        {m: ratio_form(m, beta=0.5) for m in RATIOS}, units.n_labels + 1
    )
    drawn = np.ascontiguousarray(resample_counts(3, 0, 7, units).T)
    _, variances = resampled_macros(
        drawn, units.margins_of(drawn), units, forms, zero_division
    )
    expected = _naive_macro_variances(units, forms, drawn, zero_division)
    assert_allclose(variances, expected, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("method", METHODS)
def test_a_macro_variance_does_not_depend_on_the_averages_read_with_it(method):
    """A macro average and its variances are the same bits read alone or
    with every other ratio's (all the forms share one product per block of
    kinds: each form's sums must not depend on the others'), with weights."""
    t, p = _population(11, 300, [0.02, 0.1, 0.3, 0.5, 0.05])
    units = _units(t, p, method, weight=np.random.default_rng(0).random(300))
    drawn = np.ascontiguousarray(resample_counts(5, 0, 40, units).T)
    margins = units.margins_of(drawn)
    every = macro_forms({m: ratio_form(m) for m in RATIOS}, 5)
    together = resampled_macros(drawn, margins, units, every, 0.0)
    for f, metric in enumerate(every.keys):
        alone = macro_forms({metric: ratio_form(metric)}, 5)
        found = resampled_macros(drawn, margins, units, alone, 0.0)
        assert_array_equal(found[:, 0], together[:, f], err_msg=metric)


def test_macro_interval_linearised_se_is_the_bootstrap_spread():
    """The linearised standard error of macro recall is within 15% of the
    standard deviation of its bootstrap distribution (common labels)."""
    t, p = _population(8, 400, [0.2, 0.3, 0.4, 0.5])
    units = _units(t, p, "krstinic")
    from sklearn_mlcm._uncertainty._score_intervals import ratio_form, resampled_macro
    from sklearn_mlcm._uncertainty._table import resample_counts

    values, _ = resampled_macro(
        resample_counts(0, 0, 2000, units), ratio_form("recall"), 0.0, units
    )
    se = macro_interval(
        units, "recall", confidence_level=0.95, interval="linearised"
    ).se
    assert_allclose(se, values.std(), rtol=0.15)


def test_macro_interval_bootstrap_t_covers_where_percentile_fails():
    """Simulation: macro recall over 12 labels of which 4 are rare (1-2%),
    samples of 150 from an over-predicting classifier under Heydarian, 150
    replicates: the bootstrap-t covers >= 85% and more than the percentile
    interval of the same resamples."""
    from sklearn_mlcm._uncertainty._score_intervals import ratio_form, resampled_macro
    from sklearn_mlcm._uncertainty._table import resample_counts

    prevalence = np.array([0.01, 0.015, 0.02, 0.02] + [0.1, 0.2, 0.3, 0.4] * 2)
    t, p = _population(21, 20_000, prevalence, false_alarm=0.05)
    truth = macro_interval(
        _units(t, p, "heydarian"),
        "recall",
        confidence_level=0.95,
        interval="linearised",
    ).estimate
    rng = np.random.default_rng(22)
    student = percentile = 0
    n_replicates = 150
    for replicate in range(n_replicates):
        rows = rng.integers(0, t.shape[0], 150)
        units = _units(t[rows], p[rows], "heydarian")
        got = macro_interval(
            units, "recall", confidence_level=0.95, n_resamples=199, seed=replicate
        )
        student += got.low <= truth <= got.high
        values, _ = resampled_macro(
            resample_counts(replicate, 0, 199, units), ratio_form("recall"), 0.0, units
        )
        low, high = np.quantile(values, [0.025, 0.975])
        percentile += low <= truth <= high
    assert student / n_replicates >= 0.85
    assert student > percentile


def test_label_score_intervals_heydarian_charges_count_instances_not_charges():
    """Under Heydarian, ten instances that miss label 0 and predict three
    others charge its row 30 times; its recall interval is that of 0 hits in
    the 10 instances, [0, 0.2775], not of 0 in 30 charges, [0, 0.1135]."""
    t = np.zeros((12, 4), dtype=bool)
    p = np.zeros((12, 4), dtype=bool)
    t[:10, 0] = True
    p[:10, 1:] = True
    t[10:, 1:] = p[10:, 1:] = True
    moments = ratio_moments(_units(t, p, "heydarian"), "recall")
    assert moments.denominator[0] == 30
    result = label_score_intervals(moments, confidence_level=0.95)
    assert_allclose(result.n_eff[0], 10)
    assert_allclose([result.low[0], result.high[0]], [0, 0.2775328], atol=1e-7)


def test_studentised_bounds_never_exclude_the_estimate():
    """Resamples all above the estimate put the bootstrap-t below it: its
    upper bound is raised to the estimate and ``widened`` says so (all below:
    the lower bound lowered to it); resamples around it leave it as read,
    and a NaN estimate is never widened."""
    rng = np.random.default_rng(0)
    variance = np.full(999, 0.01**2)
    above = 0.5 + np.abs(rng.normal(0.05, 0.01, 999))
    low, high, widened = studentised_bounds(
        0.5, 0.01, above, variance, confidence_level=0.95
    )
    assert widened and low < high == 0.5
    below = 0.5 - np.abs(rng.normal(0.05, 0.01, 999))
    low, high, widened = studentised_bounds(
        0.5, 0.01, below, variance, confidence_level=0.95
    )
    assert widened and 0.5 == low < high
    around = 0.5 + rng.normal(0.0, 0.01, 999)
    low, high, widened = studentised_bounds(
        0.5, 0.01, around, variance, confidence_level=0.95
    )
    assert not widened and low < 0.5 < high
    assert_allclose([low, high], [0.5 - 0.0196, 0.5 + 0.0196], atol=0.003)
    low, high, widened = studentised_bounds(
        np.nan, 0.01, around, variance, confidence_level=0.95
    )
    assert not widened


@pytest.mark.parametrize(
    ("share_above", "level", "flagged"),
    [(0.53, 0.05, False), (0.9, 0.5, False), (0.99, 0.05, True), (0.99, 0.95, True)],
)
def test_a_narrow_bootstrap_t_beside_its_estimate_is_widened_unflagged(
    share_above, level, flagged
):
    """At a low confidence level the bootstrap-t's two quantiles can share a
    sign on a small majority of the resamples (at 5 %, 52.5 % on one side):
    it was flagged "shifted resamples" on balanced data, a false reason
    (found by an adversarial hunt). Every interval is still widened to reach
    its estimate; the flag now needs 97.5 % of the resamples on that side,
    what a 95 % interval would exclude too."""
    rng = np.random.default_rng(1)
    n = 999
    above = rng.random(n) < share_above
    macro = 0.5 + np.where(above, 1.0, -1.0) * np.abs(rng.normal(0.02, 0.005, n))
    low, high, widened = studentised_bounds(
        0.5, 0.01, macro, np.full(n, 0.01**2), confidence_level=level
    )
    assert low <= 0.5 <= high
    assert widened is flagged


def test_a_low_confidence_level_on_balanced_data_flags_no_macro_average():
    """The hunt's case, whole: 2,000 instances, 5 labels, at 5 % every macro
    average was flagged and warned of; none is now."""
    rng = np.random.default_rng(16)
    y_true = (rng.random((2000, 5)) < 0.3).astype(int)
    y_pred = y_true ^ (rng.random((2000, 5)) < 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        result = mlcm_confidence_intervals(
            y_true, y_pred, confidence_level=0.05, n_resamples=199,
            random_state=0, zero_division=0.0,
        )  # fmt: skip
    for key, score in result.scores.items():
        if key.endswith("_macro"):
            low, high = score.confidence_interval
            assert score.flag is None, key
            assert low <= score.estimate <= high, key


def test_macro_interval_contains_its_estimate_on_shifted_resamples():
    """Under Heydarian, 12 labels each found twice and missed once by an
    instance predicting the 11 others: over 97.5% of the resamples' macro
    recall lies above the estimate 2/13, the bootstrap-t is widened to reach
    it, and the linearised interval (no resampling) is never widened."""
    eye = np.eye(12, dtype=bool)
    t = np.concatenate([eye, eye, eye])
    p = np.concatenate([eye, eye, ~eye])
    units = _units(t, p, "heydarian")
    got = macro_interval(units, "recall", confidence_level=0.95, n_resamples=999)
    assert got.estimate == pytest.approx(2 / 13)
    assert got.widened and got.low < got.high == got.estimate
    linear = macro_interval(
        units, "recall", confidence_level=0.95, interval="linearised"
    )
    assert not linear.widened and linear.low < linear.estimate < linear.high


@pytest.mark.parametrize("scale", [1e200, 5.6e-277, 2.0**-1000, 1e-310])
def test_intervals_of_weights_near_float64_limits_equal_those_of_unit_weights(scale):
    """Every interval is a function of ratios of the margins and of their
    squares: weights near float64's limits (whose squares overflow or
    underflow) give the intervals of the same weights near 1, without a
    RuntimeWarning (the suite turns one into an error), not [0, 1]."""
    rng = np.random.default_rng(0)
    y_true = (rng.random((60, 3)) < 0.5).astype(int)
    y_pred = y_true.copy()
    y_pred[rng.random(y_pred.shape) < 0.2] ^= 1
    weight = rng.random(60).round(2) + 0.01
    options = {"metric": "f1", "average": "macro", "n_resamples": 99, "random_state": 0}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*intervals flagged", DegenerateDataWarning)
        expected = mlcm_confidence_intervals(
            y_true, y_pred, sample_weight=weight, **options
        )
        got = mlcm_confidence_intervals(
            y_true, y_pred, sample_weight=weight * scale, **options
        )
    assert got.estimate == pytest.approx(expected.estimate, rel=1e-12)
    assert_allclose(got.confidence_interval, expected.confidence_interval, rtol=1e-12)
    for bound in range(2):
        assert_allclose(
            got.label_confidence_interval[bound],
            expected.label_confidence_interval[bound],
            rtol=1e-12,
        )


@pytest.mark.parametrize("scale", [1e-310, 2.0**-1074])
def test_subnormal_weights_give_the_intervals_of_unit_weights(scale):
    """Weights that are all subnormal numbers (below 2**-1022) asked the
    margins for a scale of 2**1029, which is inf: every label got [0, 1]
    unflagged and every macro average NaN bounds, with the false flag "3 of 3
    labels have < 5 positives" (found by an adversarial hunt). The scale is
    now at most 2**1023, which brings any positive float64 above 2**-51: the
    intervals, flags and report are those of unit weights."""
    rng = np.random.default_rng(2)
    y_true = (rng.random((40, 3)) < 0.4).astype(int)
    y_pred = y_true ^ (rng.random((40, 3)) < 0.2)
    options = {"n_resamples": 99, "random_state": 0, "zero_division": 0.0}
    expected = mlcm_confidence_intervals(y_true, y_pred, **options)
    got = mlcm_confidence_intervals(
        y_true, y_pred, sample_weight=np.full(40, scale), **options
    )
    for key, score in expected.scores.items():
        assert got.scores[key].flag == score.flag, key
        for bound in range(2):
            assert_allclose(
                got.scores[key].confidence_interval[bound],
                score.confidence_interval[bound],
                rtol=1e-12,
                err_msg=key,
            )
    report = mlcm_classification_report(
        y_true, y_pred, sample_weight=np.full(40, scale), output_dict=True,
        confidence_level=0.95, **options,
    )  # fmt: skip
    unit = mlcm_classification_report(
        y_true, y_pred, output_dict=True, confidence_level=0.95, **options
    )
    for row in ("0", "macro avg", "micro avg"):
        assert report[row]["f1-score flag"] == unit[row]["f1-score flag"]
        for key in ("f1-score low", "f1-score high"):
            assert report[row][key] == pytest.approx(unit[row][key], rel=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_a_tiny_count_is_kept_and_rounding_is_not(method):
    """The rounding guard reads each cell's own terms: a false positive of
    weight 1e-12 among weights of 1 is a count (FDR 1 for its label in the
    labels' moments and in the macro averages' resamples alike), while the
    1e-15 that TN = total - rows - cols + diag leaves over weights like
    1.0000000000000022 is none (specificity 0)."""
    rng = np.random.default_rng(0)
    t = np.zeros((40, 3), bool)
    t[:, 0] = rng.random(40) < 0.5
    t[:, 2] = ~t[:, 0]
    p = t.copy()
    p[0, 1] = True
    weight = np.ones(40)
    weight[0] = 1e-12
    units = _units(t, p, method, weight)
    form = ratio_form("false_discovery_rate")
    moments = form_moments(form, count_moments(units, units.multiplicity, 3))
    assert moments.numerator[1] == moments.denominator[1] > 0
    estimate, se = macro_estimate(units, macro_forms({"fdr": form}, 3), 0.0)
    assert estimate[0] == pytest.approx(1 / 3, rel=1e-12)
    # the rounding of a true-negative count over near-1 weights is no count
    t = np.array([[0], [0], [0], [1], [1], [1]], bool)
    p = t.copy()
    p[0] = True
    units = _units(t, p, method, np.array([2.0, 0, 0, 1.0, 12.0, 1 + 2**-49]))
    form = ratio_form("specificity")
    moments = form_moments(form, count_moments(units, units.multiplicity, 1))
    assert moments.numerator[0] == 0.0
    estimate, _ = macro_estimate(units, macro_forms({"tn": form}, 1), 0.0)
    assert estimate[0] == 0.0
