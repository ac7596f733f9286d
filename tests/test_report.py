"""mlcm_classification_report: printed numbers by name, dict shape, options.

The printed report's layout is pinned once, in ``tests/test_golden.py``; the
tests here read its cells by row and column name (``report_reading``).
"""

import inspect
import re
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from report_reading import COLUMNS, read_report, report_cells
from scipy.stats import DegenerateDataWarning
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_mlcm._uncertainty._intervals
from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_precision_score,
    mlcm_recall_score,
)
from sklearn_mlcm._report._classification_report import _INTERVAL_DEFAULTS

#: The toy data here have labels with fewer than 5 positives: their macro
#: averages' intervals are flagged and warn (issue #32), which the flags'
#: own tests check (tests/test_intervals.py, tests/test_report_flags.py).
#: The tests here are about the layout and the other warnings.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

# Heydarian et al. (2022), Table 1
T, P = TABLE_1_TRUE, TABLE_1_PRED


def test_mlcm_classification_report_include_no_label():
    """The no-label row (TP = corner, FP = NPL column, FN = NTL row) and q+1 avgs."""
    text = mlcm_classification_report(T, P, include_no_label=True, digits=3)
    assert report_cells(text) == {
        "0": ("1.000", "0.455", "0.625", "11", "7"),
        "1": ("0.400", "0.333", "0.364", "6", "5"),
        "2": ("0.111", "1.000", "0.200", "1", "1"),
        "no label": ("0.500", "0.333", "0.400", "3", "2"),
        "micro avg": ("0.429", "0.429", "0.429", "21", "15"),
        "macro avg": ("0.503", "0.530", "0.397", "21", "15"),
        "weighted avg": ("0.715", "0.429", "0.498", "21", "15"),
        "samples avg": ("0.500", "0.574", "0.511", "21", "15"),
    }


def test_mlcm_classification_report_krstinic():
    """The fractional matrix: weights are supports, micro over the labels."""
    text = mlcm_classification_report(T, P, method="krstinic", zero_division=0.0)
    assert report_cells(text) == {
        "0": ("0.89", "0.57", "0.70", "7", "7"),
        "1": ("0.56", "0.33", "0.42", "5", "5"),
        "2": ("0.15", "1.00", "0.27", "1", "1"),
        "micro avg": ("0.48", "0.51", "0.49", "13", "13"),
        "macro avg": ("0.53", "0.63", "0.46", "13", "13"),
        "weighted avg": ("0.70", "0.51", "0.56", "13", "13"),
        "samples avg": ("0.39", "0.46", "0.40", "13", "13"),
    }


def test_mlcm_classification_report_fractional_amounts():
    """Weighted amounts print with ``digits`` decimals."""
    weight = [1, 1, 1, 1, 1, 1, 1, 1, 0.5]
    text = mlcm_classification_report(T, P, sample_weight=weight, zero_division=0.0)
    cells = report_cells(text)
    assert cells["0"] == ("1.00", "0.48", "0.65", "10.50", "6.50")
    assert cells["micro avg"] == ("0.44", "0.47", "0.46", "17.00", "12.00")


def test_mlcm_classification_report_dict_shape_and_types():
    """output_dict has scikit-learn's shape, all values Python floats."""
    report = mlcm_classification_report(T, P, output_dict=True, zero_division=0.0)
    assert list(report) == [
        "0",
        "1",
        "2",
        "micro avg",
        "macro avg",
        "weighted avg",
        "samples avg",
    ]
    for row in report.values():
        # scikit-learn's keys in its order, the weight before the support
        assert [key for key in row if key in COLUMNS] == list(COLUMNS)
        assert all(type(v) is float for v in row.values())
    assert {key: report["0"][key] for key in COLUMNS} == pytest.approx(
        {
            "precision": 1.0,
            "recall": 5 / 11,
            "f1-score": 10 / 16,
            "weight": 11.0,
            "support": 7.0,
        }
    )
    # the q labels pooled, as scikit-learn's micro average: TP 8, FP 11, FN 10
    cm = mlcm_confusion_matrix(T, P)
    assert np.trace(cm[:3, :3]) == 8
    assert report["micro avg"]["precision"] == pytest.approx(8 / 19)
    assert report["micro avg"]["recall"] == pytest.approx(8 / 18)
    assert report["micro avg"]["f1-score"] == pytest.approx(16 / 37)


def test_mlcm_classification_report_target_names():
    """target_names replace the default names."""
    report = mlcm_classification_report(
        T, P, target_names=["x", "y", "z"], zero_division=0.0
    )
    assert list(report_cells(report))[:3] == ["x", "y", "z"]


def test_mlcm_classification_report_dataframe_names():
    """DataFrame column names are the default target names."""
    pd = pytest.importorskip("pandas")
    columns = ["action", "comedy", "drama"]
    report = mlcm_classification_report(
        pd.DataFrame(T, columns=columns),
        pd.DataFrame(P, columns=columns),
        output_dict=True,
        zero_division=0.0,
    )
    assert list(report)[:3] == columns


def test_mlcm_classification_report_labels_subset():
    """labels selects and orders the rows, names follow."""
    options = {"output_dict": True, "zero_division": 0.0}
    report = mlcm_classification_report(T, P, labels=[2, 0], **options)
    assert list(report)[:2] == ["2", "0"]
    expected = mlcm_classification_report(
        np.array(T)[:, [2, 0]], np.array(P)[:, [2, 0]], **options
    )
    assert report["2"] == expected["0"]


def test_mlcm_classification_report_multiclass_names_and_warning():
    """1-D labels: class values as names; an unpredicted class warns."""
    with pytest.warns(UndefinedMetricWarning) as record:
        report = mlcm_classification_report(
            ["a", "b", "b"], ["a", "a", "c"], output_dict=True
        )
    messages = sorted(str(w.message).split(" is ill-defined")[0] for w in record)
    assert messages == ["Precision", "Recall"]
    assert list(report)[:3] == ["a", "b", "c"]
    assert report["b"]["precision"] == 0.0
    assert report["a"]["recall"] == 1.0


def test_mlcm_classification_report_zero_division_nan_left_out_of_averages():
    """np.nan per-label values are left out of the macro average."""
    report = mlcm_classification_report(
        ["a", "b", "b"], ["a", "a", "c"], output_dict=True, zero_division=np.nan
    )
    assert np.isnan(report["b"]["precision"])
    # precision: a = 0.5, b = nan, c = 0.0 -> macro over a and c.
    assert report["macro avg"]["precision"] == pytest.approx(0.25)


def test_mlcm_classification_report_zero_division_one():
    """zero_division=1.0 fills undefined ratios without warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = mlcm_classification_report(
            ["a", "b", "b"], ["a", "a", "c"], output_dict=True, zero_division=1.0
        )
    assert report["b"]["precision"] == 1.0
    assert report["c"]["recall"] == 1.0


def test_mlcm_classification_report_digits_zero():
    """digits=0 prints whole numbers."""
    text = mlcm_classification_report(T, P, digits=0, zero_division=0.0)
    assert report_cells(text)["0"] == ("1", "0", "1", "11", "7")


def test_mlcm_classification_report_with_intervals_percentile():
    """With a confidence level every number carries its interval, the
    headers stay over their columns and a legend says what the brackets are."""
    text = mlcm_classification_report(
        T,
        P,
        target_names=["C0", "C1", "C2"],
        confidence_level=0.9,
        n_resamples=999,
        interval="percentile",
        random_state=0,
        zero_division=0.0,
    )
    _, legend = read_report(text)  # each value under its header, or refused
    assert report_cells(text) == {
        "C0": (
            "1.00 [0.65, 1.00]   ",
            "0.45 [0.26, 0.66]",
            "0.62 [0.42, 0.79]",
            "11",
            "7",
        ),
        "C1": (
            "0.40 [0.11, 0.73]   ",
            "0.33 [0.14, 0.60]",
            "0.36 [0.16, 0.63]",
            "6",
            "5",
        ),
        "C2": (
            "0.11 [0.01, 0.39]   ",
            "1.00 [0.11, 1.00]",
            "0.20 [0.02, 0.56]",
            "1",
            "1",
        ),
        "micro avg": (
            "0.42 [0.21, 0.62]   ",
            "0.44 [0.25, 0.61]",
            "0.43 [0.23, 0.61]",
            "18",
            "13",
        ),
        "macro avg": (
            "0.50 [0.35, 0.81]   ",
            "0.60 [0.47, 1.00] †1",
            "0.40 [0.21, 0.65] †1",
            "18",
            "13",
        ),
        "weighted avg": (
            "0.75 [0.64, 0.90]   ",
            "0.44 [0.25, 0.61]",
            "0.51 [0.33, 0.67]",
            "18",
            "13",
        ),
        "samples avg": (
            "0.39 [0.16, 0.61]   ",
            "0.46 [0.20, 0.72]",
            "0.40 [0.17, 0.62]",
            "18",
            "13",
        ),
    }
    assert legend == (
        "[low, high]: 90% percentile bootstrap intervals, 999 resamples of the "
        "9 instances"
        "; the labels' ratios modified Wilson score intervals, their macro avg "
        "bootstrap-t"
    )
    assert legend in text.splitlines()


def test_mlcm_classification_report_with_intervals_bca_no_label():
    """BCa, three digits, the no-label row, NaN resamples left out: the
    columns widen with the digits."""
    text = mlcm_classification_report(
        T,
        P,
        confidence_level=0.95,
        n_resamples=999,
        include_no_label=True,
        digits=3,
        zero_division=np.nan,
        random_state=0,
    )
    _, legend = read_report(text)  # each value under its header, or refused
    assert report_cells(text) == {
        "0": (
            "1.000 [0.566, 1.000]   ",
            "0.455 [0.236, 0.692]",
            "0.625 [0.382, 0.818]",
            "11",
            "7",
        ),
        "1": (
            "0.400 [0.071, 0.769]   ",
            "0.333 [0.121, 0.646]",
            "0.364 [0.135, 0.676]",
            "6",
            "5",
        ),
        "2": (
            "0.111 [0.005, 0.445]   ",
            "1.000 [0.051, 1.000]",
            "0.200 [0.012, 0.616]",
            "1",
            "1",
        ),
        "no label": (
            "0.500 [0.026, 0.974]   ",
            "0.333 [0.007, 0.922]",
            "0.400 [0.024, 0.921]",
            "3",
            "2",
        ),
        "micro avg": (
            "0.429 [0.222, 0.632]   ",
            "0.429 [0.222, 0.632]",
            "0.429 [0.222, 0.632]",
            "21",
            "15",
        ),
        "macro avg": (
            "0.503 [0.134, 1.000] †1",
            "0.530 [0.074, 1.000] †2",
            "0.397 [0.106, 0.797] †2",
            "21",
            "15",
        ),
        "weighted avg": (
            "0.715 [0.407, 0.859]   ",
            "0.429 [0.222, 0.632]",
            "0.498 [0.312, 0.715]",
            "21",
            "15",
        ),
        "samples avg": (
            "0.500 [0.241, 0.759]   ",
            "0.574 [0.278, 0.852]",
            "0.511 [0.256, 0.744]",
            "21",
            "15",
        ),
    }
    assert legend == (
        "[low, high]: 95% BCa bootstrap intervals, 999 resamples of the 9 instances"
        "; the labels' ratios modified Wilson score intervals, their macro avg "
        "bootstrap-t"
    )


def test_mlcm_classification_report_with_intervals_n_jobs(monkeypatch):
    """n_jobs draws the report's resamples in threads (the threshold lowered
    for 2,000 instances of 12 labels, nearly all distinct: 7 chunks of 65
    resamples): the same report (text and dict) as one thread; 0 threads are
    refused by name."""
    monkeypatch.setattr(sklearn_mlcm._uncertainty._intervals, "THREADED_UNITS", 1000)
    rng = np.random.default_rng(6)
    y_true = (rng.random((2000, 12)) < 0.4).astype(int)
    y_pred = y_true ^ (rng.random((2000, 12)) < 0.2)
    options = {
        "confidence_level": 0.95,
        "n_resamples": 400,
        "random_state": 1,
        "zero_division": 0.0,
    }
    for output_dict in (False, True):
        one, two = (
            mlcm_classification_report(
                y_true, y_pred, output_dict=output_dict, n_jobs=n_jobs, **options
            )
            for n_jobs in (1, 2)
        )
        assert one == two
    with pytest.raises(
        ValueError, match="'n_jobs' parameter of mlcm_classification_report must be"
    ):
        mlcm_classification_report(y_true, y_pred, n_jobs=0, **options)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_mlcm_classification_report_warns_once_of_its_flagged_intervals(
    monkeypatch, n_jobs
):
    """30 labels, each found twice and missed once in an instance predicting
    the 29 others: the macro recall and F1 average labels with 3 positives
    each, so their bootstrap-t intervals are flagged; the macro recall's,
    below its estimate (every resample's macro recall lying above it), is
    widened to reach it and says so; the report warns once, from the
    caller's line, in threads too, and marks them, one note per reason."""
    monkeypatch.setattr(sklearn_mlcm._uncertainty._intervals, "THREADED_UNITS", 10)
    eye = np.eye(30, dtype=int)
    y_true = np.concatenate([eye, eye, eye])
    y_pred = np.concatenate([eye, eye, 1 - eye])
    match = (
        r"^95% intervals flagged, their coverage not held: recall, macro avg: "
        r"30 of 30 labels have < 5 positives; bootstrap-t excluded the estimate "
        r"\(shifted resamples\): widened to it; f1, macro avg: 30 of 30 labels "
        r"have < 5 positives\. "
    )
    with pytest.warns(DegenerateDataWarning, match=match) as record:
        text = mlcm_classification_report(
            y_true,
            y_pred,
            confidence_level=0.95,
            n_resamples=999,
            zero_division=0.0,
            random_state=0,
            n_jobs=n_jobs,
        )
    assert len(record) == 1
    assert record[0].filename == __file__
    assert re.search(
        r"^   macro avg   0\.06 \[0\.04, 0\.10\]  +0\.06 \[0\.00, 0\.06\] †1  +"
        r"0\.06 \[0\.03, 0\.08\] †2 ",
        text,
        re.M,
    )
    assert (
        "†1 30 of 30 labels have < 5 positives; bootstrap-t excluded the estimate "
        "(shifted resamples): widened to it: 1 interval (macro avg recall)"
    ) in text
    assert "†2 30 of 30 labels have < 5 positives: 1 interval (macro avg f1-score)" in (
        text
    )


def test_mlcm_classification_report_with_intervals_groups_legend():
    """With groups the legend names the groups resampled."""
    text = mlcm_classification_report(
        T,
        P,
        confidence_level=0.95,
        n_resamples=99,
        groups=[0, 0, 1, 1, 2, 2, 3, 3, 3],
        random_state=0,
        zero_division=0.0,
    )
    _, legend = read_report(text)
    assert legend == (
        "[low, high]: 95% BCa bootstrap intervals, 99 resamples of the 4 groups"
        "; the labels' ratios modified Wilson score intervals, their macro avg "
        "bootstrap-t"
    )


def test_mlcm_classification_report_without_level_is_unchanged():
    """confidence_level=None (the default) with the interval options at their
    defaults, given or not: the plain report."""
    plain = mlcm_classification_report(T, P, zero_division=0.0)
    assert plain == mlcm_classification_report(
        T, P, confidence_level=None, zero_division=0.0, **_INTERVAL_DEFAULTS
    )
    assert "[" not in plain
    defaults = inspect.signature(mlcm_classification_report).parameters
    assert {name: defaults[name].default for name in _INTERVAL_DEFAULTS} == (
        _INTERVAL_DEFAULTS
    )


@pytest.mark.parametrize(
    "name, value, shown",
    [
        ("n_resamples", 29, "29"),
        ("interval", "percentile", "'percentile'"),
        ("groups", [0, 0, 1, 1, 2, 2, 3, 3, 3], "[0, 0, 1, 1, 2, 2, 3, 3, 3]"),
        ("groups", np.arange(9) // 2, "ndarray of shape (9,)"),
        ("random_state", 0, "0"),
        ("random_state", np.random.RandomState(0), "RandomState"),
        ("n_jobs", 1, "1"),
        ("n_jobs", -1, "-1"),
    ],
)
def test_mlcm_classification_report_interval_options_need_a_level(name, value, shown):
    """An interval option other than its default without a confidence_level
    is refused by name (it was ignored), as the command line refuses
    --n-resamples and the others without --confidence-level."""
    default = _INTERVAL_DEFAULTS[name]
    message = (
        f"The '{name}' parameter of mlcm_classification_report must be left at "
        f"its default ({default!r}) without a confidence_level: it shapes the "
        "confidence intervals, which only a confidence_level (such as 0.95) asks "
        f"for. Got {shown}"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        mlcm_classification_report(T, P, **{name: value})
    with pytest.raises(ValueError, match=re.escape(message)):
        mlcm_classification_report(T, P, confidence_level=None, **{name: value})
    # with a level the same value is taken
    text = mlcm_classification_report(
        T,
        P,
        confidence_level=0.9,
        zero_division=0.0,
        **{"n_resamples": 19, name: value},
    )
    assert "[low, high]: 90% " in text


def test_mlcm_classification_report_dict_with_intervals():
    """output_dict carries "<score> low" and "<score> high" after each score,
    Python floats, the bounds of mlcm_confidence_intervals for the seed."""
    report = mlcm_classification_report(
        T,
        P,
        output_dict=True,
        confidence_level=0.95,
        n_resamples=999,
        random_state=0,
        zero_division=0.0,
    )
    keys = [
        "precision",
        "precision low",
        "precision high",
        "precision flag",
        "recall",
        "recall low",
        "recall high",
        "recall flag",
        "f1-score",
        "f1-score low",
        "f1-score high",
        "f1-score flag",
        "weight",
        "support",
    ]
    assert list(report) == [
        "0",
        "1",
        "2",
        "micro avg",
        "macro avg",
        "weighted avg",
        "samples avg",
    ]
    for row in report.values():
        # each score's bounds and flag right after it, in scikit-learn's order
        assert [key for key in row if key in keys] == keys
        assert all(type(v) is float for k, v in row.items() if not k.endswith(" flag"))
        assert all(
            v is None or type(v) is str for k, v in row.items() if k.endswith(" flag")
        )
        assert row["recall low"] <= row["recall high"]
    plain = mlcm_classification_report(T, P, output_dict=True, zero_division=0.0)
    for name, row in plain.items():
        assert {k: report[name][k] for k in row} == row
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ci = mlcm_confidence_intervals(T, P, n_resamples=999, random_state=0)
    low, high = ci.scores["recall"].confidence_interval
    assert [report[str(k)]["recall low"] for k in range(3)] == pytest.approx(low)
    assert [report[str(k)]["recall high"] for k in range(3)] == pytest.approx(high)
    low, high = ci.scores["f1_weighted"].confidence_interval
    assert report["weighted avg"]["f1-score low"] == pytest.approx(low)
    assert report["weighted avg"]["f1-score high"] == pytest.approx(high)


@pytest.mark.parametrize("confidence_level", [None, 0.9])
@pytest.mark.parametrize("digits, weight", [(2, 1.0), (5, 1e9 + 0.5), (12, 3.0)])
def test_mlcm_classification_report_headers_stay_over_their_columns(
    confidence_level, digits, weight
):
    """Every value ends where its header ends, with huge weights and many
    digits too: the columns (scikit-learn's 9 characters) widen to fit, where
    they ran into each other ("123456792.62300 123456792.62300" under
    "weight   support")."""
    sample_weight = np.full(len(T), weight)
    sample_weight[0] = 2 * weight + 0.25  # fractional amounts, printed with digits
    resampling = {"n_resamples": 99, "random_state": 0} if confidence_level else {}
    text = mlcm_classification_report(
        T,
        P,
        sample_weight=sample_weight,
        digits=digits,
        confidence_level=confidence_level,
        **resampling,
        zero_division=0.0,
    )
    header, _, *lines = text.split("\nFlagged intervals")[0].splitlines()
    ends = [match.end() for match in re.finditer(r"\S+", header)]
    assert set(COLUMNS) <= set(header.split())
    rows = [line for line in lines if line.strip() and not line.startswith("[")]
    assert len(rows) == 3 + 4
    for line in rows:
        # a value, or a value and its bracketed interval, per column
        # (with intervals, a flag's mark or its blank width after the bracket)
        cells = re.finditer(
            r"-?[\d.]+(?: \[ *[\d.]+, *[\d.]+\](?: †\d+|   )?)?|nan", line
        )
        assert [match.end() for match in cells][-len(ends) :] == ends, line


# -- the samples avg row (issue #24) -------------------------------------------


def test_mlcm_classification_report_samples_avg_is_the_samples_scores():
    """The "samples avg" row holds the samples averages of the scores, with
    the totals of weight and support, for both methods, weights and labels;
    zero_division "warn" warns once per ratio, as the scores do."""
    weight = [1, 2, 1, 0, 1, 3, 1, 0.5, 1]
    for method in ("heydarian", "krstinic"):
        for labels in (None, [2, 0]):
            options = {"sample_weight": weight, "labels": labels}
            with pytest.warns(UndefinedMetricWarning) as record:
                report = mlcm_classification_report(
                    T, P, method=method, output_dict=True, **options
                )
            row = report["samples avg"]
            assert [row[k] for k in ("weight", "support")] == [
                report["weighted avg"]["weight"],
                report["weighted avg"]["support"],
            ]
            for header, score in (
                ("precision", mlcm_precision_score),
                ("recall", mlcm_recall_score),
                ("f1-score", mlcm_f1_score),
            ):
                expected = score(T, P, average="samples", zero_division=0.0, **options)
                assert row[header] == expected
            messages = [str(w.message) for w in record if "in samples" in str(w)]
            assert sorted(m.split()[0] for m in messages) == [
                "F-score",
                "Precision",
                "Recall",
            ]


def test_mlcm_classification_report_samples_avg_is_a_reserved_name():
    """ "samples avg" cannot name a label of multi-label input (its row would
    be ambiguous); 1-D input has no such row and may use it."""
    message = r"'samples avg' is used as a summary row"
    with pytest.raises(ValueError, match=message):
        mlcm_classification_report(
            T, P, target_names=["a", "samples avg", "c"], zero_division=0.0
        )
    report = mlcm_classification_report(
        [0, 1], [0, 1], target_names=["a", "samples avg"], output_dict=True
    )
    assert list(report) == [
        "a",
        "samples avg",
        "micro avg",
        "macro avg",
        "weighted avg",
    ]


@pytest.mark.parametrize("interval", ["percentile", "bca"])
def test_mlcm_classification_report_samples_avg_interval_is_its_bootstrap(interval):
    """The samples avg interval is read off the score itself on each resample:
    the samples F1 of the distinct units weighted by the counts drawn (the
    resamples the report draws, from its seed), and for BCa the jackknife of
    the units left out one at a time."""
    from sklearn.utils import check_random_state

    from sklearn_mlcm._uncertainty._intervals import bootstrap_intervals, unit_table
    from sklearn_mlcm._uncertainty._table import resample_counts
    from sklearn_mlcm._validation._targets import validate_targets

    rng = np.random.default_rng(24)
    y_true = (rng.random((60, 4)) < 0.3).astype(int)
    y_pred = y_true ^ (rng.random((60, 4)) < 0.25)
    units, _ = unit_table(validate_targets(y_true, y_pred), method="heydarian")
    seed = int(check_random_state(3).randint(2**31 - 1))
    scores, _ = bootstrap_intervals(
        units,
        metrics=("precision", "recall", "f1"),
        averages=("micro", "samples"),
        shown=4,
        n_resamples=199,
        seed=seed,
        confidence_level=0.9,
        interval=interval,
        beta=1.0,
        tn="complement",
        zero_division=0.0,
        return_distributions=True,
    )
    # without weights or groups each kind of unit is one distinct pair
    t, p = units.pair_true.astype(int), units.pair_pred.astype(int)
    counts = resample_counts(seed, 0, 199, units)
    expected = [
        mlcm_f1_score(t, p, average="samples", sample_weight=c, zero_division=0.0)
        for c in counts
    ]
    result = scores["f1", "samples"]
    assert_allclose(result.bootstrap_distribution, expected, rtol=1e-12)
    assert result.estimate == pytest.approx(
        mlcm_f1_score(y_true, y_pred, average="samples", zero_division=0.0)
    )
    if interval == "percentile":
        assert_allclose(result.confidence_interval, np.quantile(expected, [0.05, 0.95]))
    text = mlcm_classification_report(
        y_true,
        y_pred,
        confidence_level=0.9,
        n_resamples=199,
        interval=interval,
        random_state=3,
        zero_division=0.0,
        output_dict=True,
    )["samples avg"]
    assert text["f1-score low"] == pytest.approx(result.confidence_interval.low)
    assert text["f1-score high"] == pytest.approx(result.confidence_interval.high)
