"""The accumulator's intervals follow the report's rules (issue #32): the
labels of a ratio get the report's Wilson interval on the design-effect
trials, off running sums; every interval the report's flag; one
DegenerateDataWarning per call."""

import pickle
import re
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import DegenerateDataWarning
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    InvalidParameterError,
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_recall_score,
)
from sklearn_mlcm._uncertainty._flags import WIDENED
from sklearn_mlcm._uncertainty._stream_intervals import (
    StreamSums,
    batch_state,
    empty_state,
)

RATIO_SCORES = ("precision", "recall", "f1", "specificity")


def _quiet(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


def _stream(y_true, y_pred, weight, cuts, *, method, n_resamples=19, seed=0):
    """An accumulator fed the rows in batches cut at ``cuts``."""
    acc = MLCMAccumulator(
        y_true.shape[1], method=method, n_resamples=n_resamples, random_state=seed
    )
    n = len(y_true)
    for start, stop in zip([0, *cuts], [*cuts, n]):
        w = None if weight is None else weight[start:stop]
        acc.update(y_true[start:stop], y_pred[start:stop], sample_weight=w)
    return acc


def _assert_same_labels(ours, theirs, rtol=1e-12):
    """The label intervals and flags of two results are the same, to
    ``rtol``."""
    for metric in RATIO_SCORES:
        mine, expected = ours.scores[metric], theirs.scores[metric]
        for a, b in zip(mine.confidence_interval, expected.confidence_interval):
            assert_allclose(a, b, rtol=rtol, atol=rtol, equal_nan=True)
        assert mine.flag == expected.flag
        macro = theirs.scores[f"{metric}_macro"].flag
        if macro is not None:  # the stream has no bootstrap-t to widen
            macro = macro.replace(f"; {WIDENED}", "").replace(WIDENED, "") or None
        assert ours.scores[f"{metric}_macro"].flag == macro


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_accumulator_label_bounds_equal_the_report_on_the_same_rows(
    method, data, mlcm_strategies
):
    """Batches split anywhere (empty ones too), with or without weights, and
    merged and pickled halves, give the one-shot function's Wilson bounds and
    flags of every ratio's labels (the "no label" index too) to 1e-12, on
    empty, all-zero and all-one rows, one label; one row is refused by both."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=4))
    # the one-shot's moments of weights near float64's ends under- or
    # overflow (the stream's are scaled): weights within 1e+-100 here
    assume(
        weight is None
        or ((weight == 0) | (np.abs(np.log10(weight + (weight == 0))) < 100)).all()
    )
    n = len(y_true)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    include_no_label = data.draw(st.booleans())
    options = {"confidence_level": 0.9, "zero_division": 0.0}
    options["include_no_label"] = include_no_label
    acc = _stream(y_true, y_pred, weight, cuts, method=method)
    if n < 2:
        with pytest.raises(ValueError, match="at least two rows"):
            acc.confidence_intervals(**options)
        with pytest.raises(ValueError, match="two"):
            mlcm_confidence_intervals(y_true, y_pred, n_resamples=19, **options)
        return
    try:
        theirs = _quiet(
            mlcm_confidence_intervals,
            y_true,
            y_pred,
            method=method,
            sample_weight=weight,
            n_resamples=19,
            interval="percentile",
            random_state=0,
            **options,
        )
    except ValueError:  # every weight zero: the one-shot refuses it
        return
    # the moments are sums: bit for bit with integer weights (exact sums),
    # else to rounding, which the residual's cancellation in the variance
    # (x x - 2 r x y + r r y y) may amplify where the rows are cut apart
    exact = weight is None or (weight == np.round(weight)).all()
    rtol = 1e-12 if exact else 1e-9
    _assert_same_labels(
        _quiet(acc.confidence_intervals, **options), theirs, 1e-12 if not cuts else rtol
    )
    # two halves, each with its own stream, merged after a pickle
    half = n // 2
    first = _stream(y_true[:half], y_pred[:half], _part(weight, 0, half), [],
                    method=method, seed=1)  # fmt: skip
    second = _stream(y_true[half:], y_pred[half:], _part(weight, half, n), [],
                     method=method, seed=2)  # fmt: skip
    merged = pickle.loads(pickle.dumps(first)).merge(second)
    _assert_same_labels(_quiet(merged.confidence_intervals, **options), theirs, rtol)
    # the report's label rows: the same bounds and flags
    report = _quiet(acc.classification_report, output_dict=True, **options)
    expected = _quiet(
        mlcm_classification_report,
        y_true,
        y_pred,
        method=method,
        sample_weight=weight,
        output_dict=True,
        n_resamples=19,
        interval="percentile",
        random_state=0,
        **options,
    )
    for name in [*theirs.target_names]:
        for key in ("precision", "recall", "f1-score"):
            for suffix in (" low", " high"):
                assert report[name][key + suffix] == pytest.approx(
                    expected[name][key + suffix], rel=rtol, abs=rtol, nan_ok=True
                )
            assert report[name][f"{key} flag"] == expected[name][f"{key} flag"]


def _part(weight, start, stop):
    return None if weight is None else weight[start:stop]


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_a_count_left_by_rounding_is_no_count(method):
    """Found by hypothesis under the oldest pins: TN = total - rows - cols +
    diag over weights like 1.0000000000000022 left 1e-15 where the matrix
    has no true negative, and the one-shot's specificity interval was
    [4e-16, 8e-15] about an estimate of 0.0, where the stream (other sums,
    other rounding) gave the score interval [0, 0.89] of no hit in its one
    effective trial (the one false positive, weight 2). Both give that now,
    and the interval holds the report's estimate."""
    y_true = np.array([[0], [0], [0], [0], [0], [0], [1], [1], [1]], bool)
    y_pred = y_true.copy()
    y_pred[0] = True
    weight = np.array([2.0, 0, 0, 0, 0, 0, 1.0, 12.0, 1.0000000000000022])
    options = {"metric": "specificity", "confidence_level": 0.9,
               "zero_division": 0.0, "n_resamples": 19}  # fmt: skip
    one_shot = _quiet(
        mlcm_confidence_intervals, y_true, y_pred, method=method,
        sample_weight=weight, interval="percentile", **options,
    )  # fmt: skip
    first = _stream(y_true[:4], y_pred[:4], weight[:4], [], method=method, seed=1)
    second = _stream(y_true[4:], y_pred[4:], weight[4:], [], method=method, seed=2)
    merged = first.merge(second)
    del options["n_resamples"]
    stream = _quiet(merged.confidence_intervals, **options)
    for result in (one_shot, stream):
        low, high = result.label_confidence_interval
        assert result.label_estimates[0] == 0.0
        assert low[0] == 0.0
        assert high[0] == pytest.approx(0.8946395, abs=1e-6)


def test_accumulator_state_is_scale_free_and_merges_any_scales():
    """Weights 2**600 times larger (whose squares overflow float64) give the
    same bounds as unit weights, merged with a batch of small weights too:
    the running sums are kept at a power-of-two scale."""
    rng = np.random.default_rng(3)
    y_true = rng.random((80, 3)) < 0.3
    y_pred = y_true ^ (rng.random((80, 3)) < 0.2)
    weight = rng.integers(1, 4, 80).astype(float)
    plain = _stream(y_true, y_pred, weight, [40], method="heydarian")
    big = _stream(y_true, y_pred, np.ldexp(weight, 600), [40], method="heydarian")
    for metric in RATIO_SCORES:
        options = {"metric": metric, "confidence_level": 0.9}
        ours = _quiet(big.confidence_intervals, **options).label_confidence_interval
        theirs = _quiet(plain.confidence_intervals, **options)
        assert np.isfinite(ours.low).all()
        assert_array_equal(ours.low, theirs.label_confidence_interval.low)
        assert_array_equal(ours.high, theirs.label_confidence_interval.high)
    scaled = np.ldexp(weight, 600)
    a = batch_state(y_true[:40], y_pred[:40], scaled[:40], method="krstinic")
    b = batch_state(y_true[40:], y_pred[40:], weight[40:], method="krstinic")
    c = batch_state(y_true[40:], y_pred[40:], scaled[40:], method="krstinic")
    whole = batch_state(y_true, y_pred, scaled, method="krstinic")
    # 2**600 apart: added where the larger sums are 2**300, so that the
    # smaller batch's squared sums stay normal numbers
    total = a + b
    assert isinstance(total, StreamSums) and b.exponent < total.exponent < a.exponent
    assert np.isfinite(total.values).all()
    assert (total.values[b.values > 0] >= np.finfo(float).tiny).all()
    assert_array_equal((empty_state(3) + a).values, a.values)
    assert (a + c).exponent == whole.exponent
    assert_allclose((a + c).values, whole.values, rtol=1e-12)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_a_batch_with_a_tiny_weight_is_added_at_its_own_scale(method):
    """A batch with a weight below 2**-300 of its largest had its moments
    scaled once more by the margins' scale, which no exponent recorded: the
    batches were added at two scales, the bounds depended on where the rows
    were cut, and the recall interval [0.274, 0.566] missed its estimate of
    0.26 (found by an adversarial hunt). Every cut gives the one-shot's
    label intervals now."""
    y_true = np.zeros((40, 4), bool)
    y_true[:, 0] = True
    y_pred = np.zeros((40, 4), bool)
    y_pred[:20, 0] = True
    y_pred[20:, 1:] = True
    weight = np.ones(40)
    weight[39] = 1e-100
    one_shot = _quiet(
        mlcm_confidence_intervals, y_true, y_pred, metric="recall", method=method,
        sample_weight=weight, n_resamples=39, random_state=0,
    )  # fmt: skip
    for cuts in ([], [20], [10, 39]):
        acc = _stream(y_true, y_pred, weight, cuts, method=method, n_resamples=39)
        stream = _quiet(acc.confidence_intervals, metric="recall")
        _assert_same_labels(stream, one_shot)
        low, high = stream.scores["recall"].confidence_interval
        estimate = one_shot.scores["recall"].estimate
        assert (low <= estimate).all() and (estimate <= high).all()


@pytest.mark.parametrize("scale", [1e-200, 1e-300])
def test_a_stream_of_tiny_weights_keeps_its_squares(scale):
    """Every weight near 1e-200: the first batch was moved from the empty
    state's exponent 0, its squared sums underflowed, and each label's
    interval was [0, 1] (flagged "3 of 3 labels have < 5 predictions") where
    the one-shot gives [0.58, 0.69]. A state of no weight (no row yet, a
    batch of zero weights) now has no scale of its own."""
    rng = np.random.default_rng(0)
    y_true = rng.random((300, 3)) < 0.3
    y_pred = y_true ^ (rng.random((300, 3)) < 0.1)
    weight = np.full(300, scale)
    weight[100:150] = 0.0  # a batch of no weight between two of tiny weights
    one_shot = _quiet(
        mlcm_confidence_intervals, y_true, y_pred, metric="precision",
        sample_weight=weight, n_resamples=39, random_state=0,
    )  # fmt: skip
    acc = _stream(
        y_true, y_pred, weight, [100, 150], method="heydarian", n_resamples=39
    )
    stream = _quiet(acc.confidence_intervals, metric="precision")
    _assert_same_labels(stream, one_shot, rtol=1e-9)
    assert stream.scores["precision_macro"].flag is None
    zero = batch_state(y_true[:5], y_pred[:5], np.zeros(5), method="heydarian")
    tiny = batch_state(y_true, y_pred, weight, method="heydarian")
    for total in (empty_state(3) + tiny, tiny + zero, zero + tiny):
        assert total.exponent == tiny.exponent
        assert_array_equal(total.values, tiny.values)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("small", [1e-170, 1e-200])
def test_batches_far_apart_keep_the_small_ones_squares(method, small):
    """Batches of weights more than 2**511 apart: added at the larger one's
    exponent, the smaller batch's squared sums underflowed, and a label true
    only in it got [0, 1] (flagged "1 of 3 labels have < 5 positives") where
    the one-shot gives [0.35, 0.85] (found by review). Cut anywhere, merged
    or pickled, the stream gives the one-shot's label intervals."""
    rng = np.random.default_rng(0)
    y_true = rng.random((60, 3)) < 0.4
    y_pred = y_true ^ (rng.random((60, 3)) < 0.2)
    y_true[:40, 0] = y_pred[:40, 0] = False  # label 0 only at the small weights
    y_true[40:] = False
    y_true[40:, 0] = True
    y_pred[40:] = y_true[40:] ^ (rng.random((20, 3)) < 0.3)
    y_pred[40:, 1:] = False
    weight = np.ones(60)
    weight[40:] = small
    for cuts in ([40], [20, 40, 50]):
        stream = _stream(y_true, y_pred, weight, cuts, method=method, n_resamples=39)
        first = _stream(y_true[:40], y_pred[:40], weight[:40], [], method=method,
                        n_resamples=39, seed=1)  # fmt: skip
        second = _stream(y_true[40:], y_pred[40:], weight[40:], [], method=method,
                         n_resamples=39, seed=2)  # fmt: skip
        merged = pickle.loads(pickle.dumps(first)).merge(second)
        for metric in ("recall", "f1"):
            one_shot = _quiet(
                mlcm_confidence_intervals, y_true, y_pred, metric=metric,
                method=method, sample_weight=weight, n_resamples=39, random_state=0,
            )  # fmt: skip
            expected = one_shot.scores[metric].confidence_interval
            for acc in (stream, merged):
                found = _quiet(acc.confidence_intervals, metric=metric)
                bounds = found.scores[metric].confidence_interval
                for got, want in zip(bounds, expected):
                    assert_allclose(got, want, rtol=1e-9, atol=1e-12)
            assert 0.0 < expected[0][0] < expected[1][0] < 1.0


def test_accumulator_flags_and_warning_are_the_reports():
    """A label never predicted and never true is flagged as the report
    flags it, in the result, the dict ("<score> flag") and the text (a
    mark and its note), the macro averages with the rare-label rule, in one
    DegenerateDataWarning; statistics that are not ratios keep their
    bootstrap intervals, flagged where the label has few positives."""
    rng = np.random.default_rng(5)
    y_true = np.column_stack([rng.random(60) < 0.5, rng.random(60) < 0.4,
                              np.zeros(60, bool)])  # fmt: skip
    y_pred = y_true ^ (rng.random((60, 3)) < 0.1)
    y_pred[:, 2] = False
    acc = _stream(y_true, y_pred, None, [25], method="heydarian", n_resamples=39)
    with pytest.warns(DegenerateDataWarning, match="intervals flagged") as record:
        result = acc.confidence_intervals(metric="precision", zero_division=0.0)
    assert len(record) == 1
    message = str(record[0].message)
    assert "precision of '2': undefined: never predicted" in message
    assert "precision, macro avg: 1 of 3 labels have < 5 predictions" in message
    assert result.scores["precision"].flag == (None, None, "undefined: never predicted")
    assert result.scores["recall"].flag[2] == "undefined: no true instance"
    assert result.scores["precision_macro"].flag == "1 of 3 labels have < 5 predictions"
    assert result.scores["precision_micro"].flag is None
    low, high = result.scores["precision"].confidence_interval
    assert (low[2], high[2]) == (0.0, 1.0)  # undefined: every value it may take
    with pytest.warns(DegenerateDataWarning, match="intervals flagged"):
        report = acc.classification_report(
            output_dict=True,
            confidence_level=0.95,
            zero_division=0.0,
            metrics=["precision", "matthews_corrcoef"],
        )
    assert report["2"]["precision flag"] == "undefined: never predicted"
    assert report["macro avg"]["precision flag"] == (
        "1 of 3 labels have < 5 predictions"
    )
    assert report["0"]["precision flag"] is None
    assert report["2"]["MCC flag"].startswith("undefined")
    with pytest.warns(DegenerateDataWarning):
        text = acc.classification_report(confidence_level=0.95, zero_division=0.0)
    assert "\N{DAGGER}" in text and "undefined: never predicted" in text
    assert "macro avg the percentile (flagged where the labels are rare)" in text


def test_accumulator_zero_hit_label_interval_covers_in_simulation():
    """A rare label's recall (5% of its ~20 positives found, so no hit in a
    third of the streams): the stream's Wilson interval covers the
    population's recall in at least 90% of 300 streams of 100 rows in
    batches of 25, and in every stream with no hit, where the Poisson
    percentile interval was [0, 0] and never covered."""
    rng = np.random.default_rng(32)

    def sample(n):
        y_true = np.column_stack([rng.random(n) < 0.5, rng.random(n) < 0.2])
        y_pred = y_true.copy()
        y_pred[:, 1] &= rng.random(n) < 0.05
        return y_true, y_pred

    truth = mlcm_recall_score(*sample(400_000), average=None)[1]
    hits = zero_streams = zero_hits = percentile_zero = 0
    for r in range(300):
        y_true, y_pred = sample(100)
        acc = _stream(y_true, y_pred, None, [25, 50, 75], method="heydarian",
                      n_resamples=39, seed=r)  # fmt: skip
        result = _quiet(acc.confidence_intervals, metric="recall",
                        return_distributions=True)  # fmt: skip
        low, high = result.label_confidence_interval
        covered = low[1] <= truth <= high[1]
        hits += covered
        if not (y_true[:, 1] & y_pred[:, 1]).any():
            zero_streams += 1
            zero_hits += covered
            boot = result.label_bootstrap_distribution[:, 1]
            percentile_zero += np.quantile(boot, 0.975) == 0.0
    assert zero_streams > 50
    assert zero_hits == zero_streams == percentile_zero
    assert hits / 300 >= 0.9


def test_accumulator_interval_sums_are_bounded_before_allocation():
    """The running sums of the intervals (26 per label) count in the memory
    bound, refused before anything exists, with the largest n_resamples that
    fits."""
    with pytest.raises(
        InvalidParameterError, match=re.escape("the intervals' 26 x (n_labels + 1)")
    ):
        MLCMAccumulator(4_000_000, sparse_output=True, n_resamples=3)
    with pytest.raises(InvalidParameterError, match=re.escape("at most 2 resamples")):
        MLCMAccumulator(4_000_000, sparse_output=True, n_resamples=3)
    acc = MLCMAccumulator(3, n_resamples=19)
    assert acc._state.values.shape == (26, 4)
    assert MLCMAccumulator(3)._state is None  # no replicates, no sums


def test_stream_result_summary_names_the_poisson_percentile():
    """A stream's macro average is its Poisson bootstrap percentile (no
    bootstrap-t: the stream cannot keep each replicate's standard error), and
    its rows are weighed one by one, not drawn as distinct kinds: the
    printed result says so; the one-shot function's still says bootstrap-t."""
    rng = np.random.default_rng(0)
    y_true = (rng.random((300, 4)) < 0.4).astype(int)
    y_pred = y_true.copy()
    y_pred[rng.random(y_pred.shape) < 0.1] ^= 1
    acc = MLCMAccumulator(4, n_resamples=199, random_state=0)
    acc.update(y_true[:150], y_pred[:150]).update(y_true[150:], y_pred[150:])
    result = acc.confidence_intervals(metric="recall", average="macro")
    assert result.units == "stream instances"
    summary = str(result).splitlines()
    assert "95% Poisson bootstrap percentile interval" in summary[0]
    assert summary[1].startswith("199 Poisson bootstrap replicates of 300 stream")
    assert not any("each resampled as one kind" in line for line in summary)
    one_shot = mlcm_confidence_intervals(
        y_true, y_pred, metric="recall", average="macro", n_resamples=199
    )
    assert "95% bootstrap-t interval" in str(one_shot).splitlines()[0]
