"""The interval and paired-comparison results print one screen and carry names.

Their summaries hold at most 40 lines at 159 and 983 labels, print the
fields' own numbers, show the labels that matter (checked against a sort of
the fields), and their frames hold the fields bit for bit; ``target_names``
renames the labels and changes no number (#26 item 2).
"""

import re
import sys

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy.stats import DegenerateDataWarning

from sklearn_mlcm import (
    ConfidenceIntervalResult,
    InvalidInputError,
    InvalidParameterError,
    MLCMAccumulator,
    PairedComparisonResult,
    mlcm_confidence_intervals,
    mlcm_paired_comparison,
)
from sklearn_mlcm._results import ConfidenceInterval
from sklearn_mlcm._summary import MAX_LABEL_ROWS, MAX_LINES, format_number

#: The toy data here have labels with fewer than 5 positives: their macro
#: averages' intervals are flagged and warn (issue #32), which the flags'
#: own tests check (tests/test_intervals.py, tests/test_report_flags.py).
#: The tests here are about the layout and the other warnings.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

#: The smallest resamples a 95% interval takes: fast at 983 labels.
FAST = {"n_resamples": 39, "random_state": 0, "zero_division": 0.0}


def _data(n_labels, n_samples=300, seed=0):
    """Sparse true sets (about 1.2 labels each) and two noisy predictions."""
    rng = np.random.default_rng(seed)
    y_true = (rng.random((n_samples, n_labels)) < 1.2 / n_labels**0.5 / 4).astype(
        np.int64
    )
    y_a = y_true ^ (rng.random(y_true.shape) < 0.01)
    y_b = y_true ^ (rng.random(y_true.shape) < 0.03)
    return y_true, y_a, y_b


#: What these sparse labels warn of: the macro precision's bootstrap lies
#: above it (labels predicted in a few instances, missed by many resamples).
SHIFTED = r"precision, weighted avg = [0-9.]+ outside \[[0-9.]+, [0-9.]+\] \(39 of 39"


def _names(n_labels):
    return [f"tag {i:04d}" for i in range(n_labels)]


def _label_lines(text, names):
    """The lines of the summary's label table, in order, by the names."""
    return [line for line in text.splitlines() if line.split("  ")[0] in names]


# -- ConfidenceIntervalResult ---------------------------------------------------


@pytest.mark.parametrize("n_labels", [159, 983])
def test_mlcm_confidence_intervals_summary_fits_one_screen(n_labels):
    """At 159 and 983 labels repr and str hold at most 40 lines, show 20
    labels and say how many more the frame has."""
    y_true, y_a, _ = _data(n_labels)
    with pytest.warns(DegenerateDataWarning, match=SHIFTED):
        result = mlcm_confidence_intervals(y_true, y_a, **FAST)
    text = repr(result)
    assert str(result) == text
    assert len(text.splitlines()) <= MAX_LINES
    assert len(_label_lines(text, result.target_names)) == MAX_LABEL_ROWS
    left = n_labels - MAX_LABEL_ROWS
    assert f"... and {left:,} more labels (see .to_frame())" in text


def test_mlcm_confidence_intervals_summary_headline_is_the_fields():
    """The first lines print the chosen score, its interval, level, kind,
    resamples, units and method from the result's own fields."""
    y_true, y_a, _ = _data(30)
    result = mlcm_confidence_intervals(
        y_true, y_a, metric="recall", average="weighted", **FAST
    )
    low, high = result.confidence_interval
    first, second = repr(result).splitlines()[:2]
    assert first == (
        f"ConfidenceIntervalResult: recall, weighted avg = "
        f"{format_number(result.estimate)}, 95% BCa interval "
        f"[{format_number(low)}, {format_number(high)}]"
    )
    assert second == (
        "39 bootstrap resamples of 300 instances, heydarian matrix, 30 labels"
    )
    assert repr(result).splitlines()[2] == (
        f"{result.n_distinct_units} distinct instances (true set, predicted set, "
        "weight), each resampled as one kind"
    )
    for average in ("micro", "macro", "weighted"):
        value = result.scores[f"recall_{average}"]
        row = "  ".join(
            format_number(v) for v in (value.estimate, *value.confidence_interval)
        )
        assert re.search(
            rf"^{average} avg +{row.replace('  ', ' +')}$", repr(result), re.M
        )


def test_mlcm_confidence_intervals_summary_shows_the_widest_intervals():
    """Past 20 labels the table lists the widest intervals, widest first,
    ties in label order, with the given names."""
    y_true, y_a, _ = _data(159)
    names = _names(159)
    with pytest.warns(DegenerateDataWarning, match=SHIFTED):
        result = mlcm_confidence_intervals(y_true, y_a, target_names=names, **FAST)
    width = np.subtract(*result.label_confidence_interval[::-1])
    expected = sorted(range(159), key=lambda i: (-width[i], i))[:MAX_LABEL_ROWS]
    lines = _label_lines(repr(result), names)
    assert [line.split("  ")[0] for line in lines] == [names[i] for i in expected]
    i = expected[0]
    cells = [
        result.label_estimates[i],
        *(b[i] for b in result.label_confidence_interval),
    ]
    assert lines[0].split()[2:5] == [format_number(v) for v in cells]


def test_mlcm_confidence_intervals_summary_of_few_labels_lists_each():
    """Up to 20 labels every label shows, in label order, with the "no label"
    row and the chosen score's name, and nothing is said left out."""
    y_true, y_a, _ = _data(4)
    result = mlcm_confidence_intervals(
        y_true, y_a, metric="fbeta", beta=2.0, include_no_label=True, **FAST
    )
    text = repr(result)
    assert [
        line.split("  ")[0] for line in _label_lines(text, result.target_names)
    ] == [
        "0",
        "1",
        "2",
        "3",
        "no label",
    ]
    assert re.search(r"^label +fbeta +low +high +width$", text, re.M)
    assert "more label" not in text


def test_mlcm_confidence_intervals_summary_counts_undefined_and_degenerate():
    """Undefined resamples and BCa fallbacks are said, with their numbers
    (of markedness, not a ratio of counts: its labels keep BCa intervals,
    where F1's now get score intervals, issue #32)."""
    y_true = np.zeros((40, 3), dtype=np.int64)
    y_true[:20, 0] = 1
    y_pred = y_true.copy()
    y_pred[::3, 1] = 1
    result = mlcm_confidence_intervals(
        y_true,
        y_pred,
        metric="markedness",
        n_resamples=39,
        random_state=0,
        zero_division=np.nan,
    )
    text = repr(result)
    assert result.n_degenerate > 0
    assert (
        f"{result.n_degenerate} of the 4 BCa intervals of markedness (3 labels and "
        "the "
        "macro avg) fell back to the percentile interval:\n  BCa is undefined "
        "there (every resample on one side of the estimate, or no jackknife "
        "spread), so their bounds are percentile bounds"
    ) in text
    assert re.search(r"^label +markedness +low +high +width +undefined$", text, re.M)


def test_mlcm_confidence_intervals_frame_is_the_fields():
    """to_frame holds every score of every label and average, bit for bit,
    indexed by the names, its kind column first."""
    pytest.importorskip("pandas")
    y_true, y_a, _ = _data(12)
    names = _names(12)
    result = mlcm_confidence_intervals(
        y_true, y_a, average="micro_all", target_names=names, **FAST
    )
    frame = result.to_frame()
    averages = ["micro avg", "macro avg", "weighted avg", "micro_all avg"]
    assert frame.index.name == "label"
    assert list(frame.index) == [*names, *averages]
    assert list(frame["kind"]) == ["label"] * 12 + ["average"] * 4
    metrics = ["precision", "recall", "f1", "specificity"]
    assert list(frame.columns) == ["kind"] + [
        f"{m}{s}" for m in metrics for s in ("", " low", " high", " flag")
    ]
    for metric in metrics:
        value = result.scores[metric]
        assert_array_equal(frame[metric].to_numpy()[:12], value.estimate)
        assert_array_equal(frame[f"{metric} low"].to_numpy()[:12], value[1].low)
        assert_array_equal(frame[f"{metric} high"].to_numpy()[:12], value[1].high)
        for row, average in zip(averages, ["micro", "macro", "weighted", "micro_all"]):
            value = result.scores[f"{metric}_{average}"]
            assert frame.loc[row, metric] == value.estimate
            assert frame.loc[row, f"{metric} low"] == value.confidence_interval.low
            assert frame.loc[row, f"{metric} high"] == value.confidence_interval.high
    assert_array_equal(frame["f1"].to_numpy()[:12], result.label_estimates)
    assert frame.loc["micro_all avg", "f1"] == result.estimate


def test_mlcm_confidence_intervals_frame_needs_pandas(monkeypatch):
    """Without pandas, to_frame says how to install it."""
    result = mlcm_confidence_intervals(*_data(3)[:2], **FAST)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(
        ImportError,
        match=r"ConfidenceIntervalResult.to_frame\(\) requires pandas.*"
        r'"sklearn-mlcm\[pandas\]"',
    ):
        result.to_frame()


def test_mlcm_confidence_intervals_target_names_only_rename():
    """target_names reach the result, and every number stays bit-identical."""
    y_true, y_a, _ = _data(25)
    plain = mlcm_confidence_intervals(y_true, y_a, **FAST)
    named = mlcm_confidence_intervals(y_true, y_a, target_names=_names(25), **FAST)
    assert plain.target_names == [str(i) for i in range(25)]
    assert named.target_names == _names(25)
    assert named.estimate == plain.estimate
    assert named.confidence_interval == plain.confidence_interval
    assert_array_equal(named.label_estimates, plain.label_estimates)
    for bound in (0, 1):
        assert_array_equal(
            named.label_confidence_interval[bound],
            plain.label_confidence_interval[bound],
        )
    assert repr(named).splitlines()[:6] == repr(plain).splitlines()[:6]


def test_mlcm_confidence_intervals_target_names_of_a_frame():
    """A frame's column names are the names, unless target_names are given."""
    pd = pytest.importorskip("pandas")
    y_true, y_a, _ = _data(3)
    columns = ["cat", "dog", "owl"]
    frame_true = pd.DataFrame(y_true, columns=columns)
    frame_pred = pd.DataFrame(y_a, columns=columns)
    result = mlcm_confidence_intervals(frame_true, frame_pred, **FAST)
    assert result.target_names == columns
    assert list(result.to_frame().index[:3]) == columns
    assert re.search(r"^owl +", repr(result), re.M)
    renamed = mlcm_confidence_intervals(
        frame_true, frame_pred, target_names=["A", "B", "C"], **FAST
    )
    assert renamed.target_names == ["A", "B", "C"]
    assert list(renamed.to_frame().index[:3]) == ["A", "B", "C"]


def test_mlcm_confidence_intervals_target_names_with_labels():
    """With labels, one name per kept label; "no label" comes last."""
    y_true, y_a, _ = _data(5)
    result = mlcm_confidence_intervals(
        y_true,
        y_a,
        labels=[3, 1],
        target_names=["three", "one"],
        include_no_label=True,
        **FAST,
    )
    assert result.target_names == ["three", "one", "no label"]


@pytest.mark.parametrize(
    "target_names, error, match",
    [
        (
            ["a", "b"],
            InvalidInputError,
            r"The 'target_names' parameter of mlcm_confidence_intervals must have "
            r"one name per label: 3 expected, got 2\.",
        ),
        (
            ["a", "b", "a"],
            InvalidInputError,
            r"target_names of mlcm_confidence_intervals must be unique .* and "
            r"differ from the rows .*; 'a' is used twice\. Pass distinct "
            r"target_names\.",
        ),
        (
            ["a", "macro avg", "c"],
            InvalidInputError,
            r"'macro avg' is used as a summary row\. Pass distinct target_names\.",
        ),
        (
            "abc",
            InvalidParameterError,
            r"The 'target_names' parameter of mlcm_confidence_intervals must be",
        ),
    ],
)
def test_mlcm_confidence_intervals_target_names_refused(target_names, error, match):
    """Names of the wrong length, repeated or an average's are refused."""
    y_true, y_a, _ = _data(3)
    with pytest.raises(error, match=match):
        mlcm_confidence_intervals(y_true, y_a, target_names=target_names, **FAST)


def test_mlcm_confidence_intervals_no_label_name_refused():
    """With include_no_label, a label may not be named "no label"."""
    y_true, y_a, _ = _data(2)
    with pytest.raises(InvalidInputError, match=r"'no label' is used as a summary row"):
        mlcm_confidence_intervals(
            y_true, y_a, target_names=["no label", "b"], include_no_label=True, **FAST
        )


def test_mlcm_confidence_intervals_groups_and_percentile_in_summary():
    """Grouped resamples are said to be of groups, and the interval's kind."""
    y_true, y_a, _ = _data(6, n_samples=60)
    result = mlcm_confidence_intervals(
        y_true,
        y_a,
        groups=np.arange(60) // 3,
        interval="percentile",
        confidence_level=0.9,
        average="micro",
        **FAST,
    )
    assert result.units == "groups"
    first, second = repr(result).splitlines()[:2]
    assert "90% percentile interval" in first
    assert second.startswith("39 bootstrap resamples of 20 groups, ")
    assert repr(result).splitlines()[2] == (
        f"{result.n_distinct_units} distinct groups, each resampled as one kind"
    )


def test_accumulator_confidence_intervals_summary():
    """The accumulator's result prints its method and its headline's
    interval: the macro F1's Poisson bootstrap percentile (a stream keeps no
    replicate's standard error, so no bootstrap-t; issue #32)."""
    y_true, y_a, _ = _data(4)
    accumulator = MLCMAccumulator(4, method="krstinic", n_resamples=39, random_state=0)
    result = accumulator.update(y_true, y_a).confidence_intervals(zero_division=0.0)
    assert result.method == "krstinic"
    first, second = repr(result).splitlines()[:2]
    assert "95% Poisson bootstrap percentile interval" in first
    assert second.startswith("39 Poisson bootstrap replicates of ")
    assert second.endswith("stream instances, krstinic matrix, 4 labels")


def test_confidence_interval_result_unpacks_and_builds_as_before():
    """The fields and unpacking are unchanged: a result built without the
    new fields unpacks, prints and has the defaults."""
    interval = ConfidenceInterval(np.array([0.1, 0.2]), np.array([0.5, 0.6]))
    result = ConfidenceIntervalResult(
        0.4,
        ConfidenceInterval(0.2, 0.6),
        np.array([0.3, 0.5]),
        interval,
        {},
        None,
        ["x", "y"],
        "percentile",
        0.95,
        99,
        10,
        8,
        np.zeros(99),
        None,
        np.zeros(2, dtype=np.int64),
        0,
        0,
    )
    estimate, (low, high) = result
    assert (estimate, low, high) == (0.4, 0.2, 0.6)
    assert (result.metric, result.average, result.method) == (None, None, None)
    assert result.units == "instances"
    text = repr(result)
    assert text.splitlines()[0] == (
        "ConfidenceIntervalResult: score = 0.4000, 95% percentile interval "
        "[0.2000, 0.6000]"
    )
    assert re.search(r"^y +0\.5000 +0\.2000 +0\.6000 +0\.4000$", text, re.M)


# -- PairedComparisonResult -----------------------------------------------------


@pytest.mark.parametrize("n_labels", [159, 983])
def test_mlcm_paired_comparison_summary_fits_one_screen(n_labels):
    """At 159 and 983 labels the summary holds at most 40 lines, shows 20
    labels and says how many more the frame has."""
    y_true, y_a, y_b = _data(n_labels)
    result = mlcm_paired_comparison(y_true, y_a, y_b, **FAST)
    text = repr(result)
    assert str(result) == text
    assert len(text.splitlines()) <= MAX_LINES
    assert len(_label_lines(text, result.target_names)) == MAX_LABEL_ROWS
    left = n_labels - MAX_LABEL_ROWS
    assert f"... and {left:,} more labels (see .to_frame())" in text


def test_mlcm_paired_comparison_summary_headline_is_the_fields():
    """The first lines print the difference, interval, p-values, test, units
    and scores from the result's own fields."""
    y_true, y_a, y_b = _data(30)
    result = mlcm_paired_comparison(
        y_true, y_a, y_b, metric="precision", average="micro", **FAST
    )
    low, high = result.confidence_interval
    n_significant = int(np.sum(result.label_pvalues_corrected <= 0.05))
    assert repr(result).splitlines()[:6] == [
        "PairedComparisonResult: precision, micro avg, a minus b = "
        + format_number(result.difference),
        f"95% percentile interval [{format_number(low)}, {format_number(high)}] "
        "(39 paired bootstrap resamples)",
        f"p-value {format_number(result.pvalue)} (two-sided permutation test)",
        "300 instances, 39 random swaps; heydarian matrix",
        f"precision, micro avg: a {format_number(result.score_a)}, "
        f"b {format_number(result.score_b)}",
        f"{n_significant} of 30 labels have Holm-corrected p-values <= 0.05",
    ]


def test_mlcm_paired_comparison_summary_says_when_swaps_are_too_few():
    """When m / (R + 1) is above the level, no corrected p-value can pass it:
    the summary says so; with enough swaps, or uncorrected, it does not."""
    y_true, y_a, y_b = _data(30)
    few = mlcm_paired_comparison(y_true, y_a, y_b, **FAST)
    assert (
        "(with 39 random swaps none can be below 0.75: more n_resamples "
        "resolve smaller p-values)"
    ) in repr(few)
    plain = mlcm_paired_comparison(y_true, y_a, y_b, correction=None, **FAST)
    assert "none can be below" not in repr(plain)
    assert re.search(r"labels have uncorrected p-values <= 0\.05$", repr(plain), re.M)
    enough = mlcm_paired_comparison(y_true, y_a, y_b, **{**FAST, "n_resamples": 999})
    assert "none can be below" not in repr(enough)


def test_mlcm_paired_comparison_summary_shows_the_smallest_pvalues():
    """Past 20 labels the table lists the smallest p-values first, ties by the
    largest absolute difference, then label order, with the given names."""
    y_true, y_a, y_b = _data(159)
    names = _names(159)
    result = mlcm_paired_comparison(y_true, y_a, y_b, target_names=names, **FAST)
    p, d = result.label_pvalues, np.abs(result.label_differences)
    expected = sorted(range(159), key=lambda i: (p[i], -d[i], i))[:MAX_LABEL_ROWS]
    lines = _label_lines(repr(result), names)
    assert [line.split("  ")[0] for line in lines] == [names[i] for i in expected]
    i = expected[0]
    cells = [
        result.label_scores_a[i],
        result.label_scores_b[i],
        result.label_differences[i],
        result.label_confidence_interval.low[i],
        result.label_confidence_interval.high[i],
        result.label_pvalues[i],
        result.label_pvalues_corrected[i],
    ]
    assert lines[0].split()[2:9] == [format_number(v) for v in cells]


def test_mlcm_paired_comparison_summary_names_sets_and_exact_test():
    """Named prediction sets head the columns; an exact test says how many
    swaps; groups and one-sided intervals are said."""
    y_true, y_a, y_b = _data(3, n_samples=8)
    results = mlcm_paired_comparison(
        y_true,
        {"forest": y_a, "knn": y_b},
        alternative="greater",
        groups=np.arange(8) // 2,
        **FAST,
    )
    text = repr(results["forest", "knn"])
    assert text.splitlines()[0].startswith("PairedComparisonResult: f1, macro avg, ")
    assert "forest minus knn" in text.splitlines()[0]
    assert text.splitlines()[1].startswith(
        "95% one-sided (greater) percentile interval"
    )
    assert (
        text.splitlines()[3] == "4 groups, exact test: all 16 swaps; heydarian matrix"
    )
    assert re.search(r"^label +forest +knn +difference +low +high", text, re.M)


def test_mlcm_paired_comparison_frame_is_the_fields():
    """to_frame holds every label and the average, bit for bit, indexed by
    the names."""
    pytest.importorskip("pandas")
    y_true, y_a, y_b = _data(12)
    names = _names(12)
    result = mlcm_paired_comparison(
        y_true, y_a, y_b, average="weighted", target_names=names, **FAST
    )
    frame = result.to_frame()
    assert frame.index.name == "label"
    assert list(frame.index) == [*names, "weighted avg"]
    assert list(frame["kind"]) == ["label"] * 12 + ["average"]
    fields = {
        "score_a": ("label_scores_a", "score_a"),
        "score_b": ("label_scores_b", "score_b"),
        "difference": ("label_differences", "difference"),
        "pvalue": ("label_pvalues", "pvalue"),
        "pvalue_corrected": ("label_pvalues_corrected", "pvalue_corrected"),
        "n_undefined": ("label_n_undefined", "n_undefined"),
    }
    assert list(frame.columns) == [
        "kind",
        "score_a",
        "score_b",
        "difference",
        "low",
        "high",
        "pvalue",
        "pvalue_corrected",
        "n_undefined",
    ]
    for column, (label_field, field) in fields.items():
        assert_array_equal(frame[column].to_numpy()[:12], getattr(result, label_field))
        assert frame[column].iloc[12] == getattr(result, field)
    for column, bound in (("low", 0), ("high", 1)):
        assert_array_equal(
            frame[column].to_numpy()[:12], result.label_confidence_interval[bound]
        )
        assert frame[column].iloc[12] == result.confidence_interval[bound]
    assert frame["n_undefined"].dtype == np.int64


def test_mlcm_paired_comparison_frame_needs_pandas(monkeypatch):
    """Without pandas, to_frame says how to install it."""
    result = mlcm_paired_comparison(*_data(3), **FAST)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(
        ImportError,
        match=r"PairedComparisonResult.to_frame\(\) requires pandas.*"
        r'"sklearn-mlcm\[pandas\]"',
    ):
        result.to_frame()


def test_mlcm_paired_comparison_target_names_only_rename():
    """target_names reach every pair's result; every number stays
    bit-identical."""
    y_true, y_a, y_b = _data(25)
    sets = {"a": y_a, "b": y_b, "c": y_true}
    plain = mlcm_paired_comparison(y_true, sets, **FAST)
    named = mlcm_paired_comparison(y_true, sets, target_names=_names(25), **FAST)
    for pair, result in named.items():
        other = plain[pair]
        assert other.target_names == [str(i) for i in range(25)]
        assert result.target_names == _names(25)
        assert (result.difference, result.pvalue) == (other.difference, other.pvalue)
        assert result.pvalue_corrected == other.pvalue_corrected
        assert_array_equal(result.label_differences, other.label_differences)
        assert_array_equal(result.label_pvalues, other.label_pvalues)
        assert_array_equal(result.bootstrap_distribution, other.bootstrap_distribution)


def test_mlcm_paired_comparison_target_names_of_a_frame():
    """A frame's column names are the names, unless target_names are given."""
    pd = pytest.importorskip("pandas")
    y_true, y_a, y_b = _data(3)
    columns = ["cat", "dog", "owl"]
    frames = [pd.DataFrame(y, columns=columns) for y in (y_true, y_a, y_b)]
    result = mlcm_paired_comparison(*frames, **FAST)
    assert result.target_names == columns
    assert list(result.to_frame().index) == [*columns, "macro avg"]
    renamed = mlcm_paired_comparison(*frames, target_names=["A", "B", "C"], **FAST)
    assert list(renamed.to_frame().index) == ["A", "B", "C", "macro avg"]


@pytest.mark.parametrize(
    "target_names, error, match",
    [
        (
            ["a", "b", "c", "d"],
            InvalidInputError,
            r"The 'target_names' parameter of mlcm_paired_comparison must have "
            r"one name per label: 3 expected, got 4\.",
        ),
        (
            ("a", "a", "b"),
            InvalidInputError,
            r"target_names of mlcm_paired_comparison must be unique .*; 'a' is "
            r"used twice\. Pass distinct target_names\.",
        ),
        (
            ["macro avg", "b", "c"],
            InvalidInputError,
            r"'macro avg' is used as a summary row\. Pass distinct target_names\.",
        ),
        (
            {"a", "b", "c"},
            InvalidParameterError,
            r"The 'target_names' parameter of mlcm_paired_comparison must be",
        ),
    ],
)
def test_mlcm_paired_comparison_target_names_refused(target_names, error, match):
    """Names of the wrong length, repeated or the average's are refused."""
    y_true, y_a, y_b = _data(3)
    with pytest.raises(error, match=match):
        mlcm_paired_comparison(y_true, y_a, y_b, target_names=target_names, **FAST)


def test_paired_comparison_result_builds_as_before():
    """A result built without the new fields unpacks and prints."""
    interval = ConfidenceInterval(np.array([-0.1]), np.array([0.3]))
    result = PairedComparisonResult(
        0.1,
        0.2,
        ConfidenceInterval(-0.1, 0.3),
        0.2,
        0.6,
        0.5,
        np.array([0.1]),
        np.array([0.2]),
        np.array([0.2]),
        interval,
        np.array([0.6]),
        np.array([0.5]),
        ["x"],
        ("a", "b"),
        99,
        False,
        np.zeros(99),
        np.zeros(1, dtype=np.int64),
        0,
    )
    difference, pvalue = result
    assert (difference, pvalue) == (0.1, 0.2)
    assert result.alternative == "two-sided"
    assert result.confidence_level is None
    lines = repr(result).splitlines()
    assert lines[0] == "PairedComparisonResult: score, a minus b = 0.1000"
    assert (
        lines[1]
        == "percentile interval [-0.1000, 0.3000] (99 paired bootstrap resamples)"
    )
    assert re.search(
        r"^x +0\.6000 +0\.5000 +0\.1000 +-0\.1000 +0\.3000 +0\.2000 +0\.2000$",
        "\n".join(lines),
        re.M,
    )


@pytest.mark.parametrize(
    "correction, said",
    [("holm", "Holm-corrected across the 2 pairs"), (None, "uncorrected across")],
)
def test_mlcm_paired_comparison_summary_names_the_pairs_corrected(correction, said):
    """Several pairs: the p-value line says the correction and how many pairs
    (one pair says nothing of a correction, above)."""
    y_true, y_a, y_b = _data(6)
    results = mlcm_paired_comparison(
        y_true,
        {"a": y_a, "b": y_b, "c": y_a},
        reference="a",
        correction=correction,
        **FAST,
    )
    result = results[("b", "a")]
    assert result.n_pairs == 2
    line = repr(result).splitlines()[2]
    if correction is None:
        assert line == (
            f"p-value {format_number(result.pvalue)}, {said} the 2 pairs "
            "(two-sided permutation test)"
        )
    else:
        assert line == (
            f"p-value {format_number(result.pvalue)}, {said} "
            f"{format_number(result.pvalue_corrected)} (two-sided permutation test)"
        )
