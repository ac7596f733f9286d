"""The registry of per-class statistics: formulas, undefined rules, PyCM.

Every entry of ``STATISTICS`` is checked against the naive oracle
(``statistic_oracle``) on random counts and, where PyCM defines the same
statistic, against PyCM on the one-vs-rest counts of random MLCMs. The
invariances every entry gets are in ``test_common.py``.
"""

import warnings
from pathlib import Path

import numpy as np
import pytest
from _oracles import statistic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_mlcm import confusion_matrix_statistics, mlcm_confusion_matrix
from sklearn_mlcm._mlcm._samples import RATIOS
from sklearn_mlcm._statistics import (
    STATISTICS,
    ratio_metric,
    statistic_of,
    undefined_mask,
)
from sklearn_mlcm._uncertainty._margins import METRICS, SCORES

#: PyCM's name of each registry statistic it computes per class (its "AUC" of
#: a class is (TPR + TNR) / 2, the balanced accuracy).
PYCM_NAMES = {
    "precision": "PPV",
    "recall": "TPR",
    "fbeta": "F1",
    "specificity": "TNR",
    "accuracy": "ACC",
    "jaccard": "J",
    "matthews_corrcoef": "MCC",
    "balanced_accuracy": "AUC",
    "negative_predictive_value": "NPV",
    "false_discovery_rate": "FDR",
    "false_omission_rate": "FOR",
    "false_positive_rate": "FPR",
    "false_negative_rate": "FNR",
    "informedness": "BM",
    "markedness": "MK",
    "g_mean": "GM",
    "prevalence": "PRE",
}

# Whole counts and fractional ones, tiny ones included (the oracle computes
# in exact fractions), down to 1e-150: below that, the products of the
# statistics of products (informedness, markedness, MCC) on shares of the
# total fall to subnormal floats, which hold fewer digits (a count of 2.2e-308
# beside one of 11,273 left 1e-12 of informedness; scaling within 1e±150 is
# test_statistics_unchanged_by_scale's).
COUNT = st.one_of(
    st.integers(0, 3),
    st.integers(0, 10**6),
    st.just(0.0),
    st.floats(1e-150, 50),
)
COUNTS = st.tuples(COUNT, COUNT, COUNT, COUNT)


@pytest.mark.parametrize("name", STATISTICS)
@settings(max_examples=200, deadline=None)
@given(counts=st.lists(COUNTS, min_size=1, max_size=6))
def test_statistics_match_naive_oracle(name, counts):
    """Every statistic equals its textbook formula; undefined ones take NaN."""
    tp, fp, fn, tn = (np.array(c, dtype=np.float64) for c in zip(*counts))
    values = ratio_metric(name, tp, fp, fn, tn, beta=1.0, zero_division=np.nan)
    expected = [statistic_oracle(name, *c) for c in counts]
    assert_array_equal(np.isnan(values), [e is None for e in expected])
    defined = ~np.isnan(values)
    assert_allclose(
        values[defined],
        [e for e in expected if e is not None],
        rtol=1e-12,
        atol=1e-12,
    )


@pytest.mark.parametrize("scale", [1e-150, 1e150])
@pytest.mark.parametrize("name", STATISTICS)
@settings(max_examples=50, deadline=None)
@given(counts=st.lists(st.tuples(*[st.integers(0, 50)] * 4), min_size=1, max_size=6))
def test_statistics_unchanged_by_scale(name, scale, counts):
    """Multiplying every count by 1e-150 or 1e150 (tiny or huge weights)
    changes no statistic: no product underflows or overflows. The values lie
    in [-1, 1], so a difference (informedness, markedness) that is 0 exactly
    may come out a few units of 1e-17 either side: compared to 1e-15 there."""
    tp, fp, fn, tn = (np.array(c, dtype=np.float64) for c in zip(*counts))
    expected = ratio_metric(name, tp, fp, fn, tn, zero_division=np.nan)
    scaled = (x * scale for x in (tp, fp, fn, tn))
    values = ratio_metric(name, *scaled, zero_division=np.nan)
    assert_allclose(values, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", STATISTICS)
@settings(max_examples=100, deadline=None)
@given(
    counts=st.lists(st.tuples(*[st.integers(0, 2)] * 4), min_size=1, max_size=8),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0]),
)
def test_statistics_undefined_rule_is_zero_denominator(name, counts, beta):
    """Each entry's undefined rule holds exactly where its denominator is 0,
    and there the value is zero_division."""
    tp, fp, fn, tn = (np.array(c) for c in zip(*counts))
    statistic = STATISTICS[name]
    _, denominator = statistic.formula(tp, fp, fn, tn, beta)
    mask = undefined_mask(name, tp, fp, fn, tn, beta=beta)
    assert_array_equal(mask, denominator == 0)
    for fill in (1.0, np.nan):
        values = ratio_metric(name, tp, fp, fn, tn, beta=beta, zero_division=fill)
        assert_array_equal(values[mask], fill)
        assert not np.isnan(values[~mask]).any()


@pytest.mark.parametrize("name", STATISTICS)
def test_statistics_warn_in_their_own_words(name):
    """zero_division="warn" gives 0.0 and scikit-learn's warning, naming the
    statistic and the labels it is undefined for."""
    statistic = STATISTICS[name]
    zeros = np.zeros(1)
    message = f"{statistic.metric} is ill-defined and being set to 0.0 in "
    with pytest.warns(Warning, match=message + statistic.condition) as record:
        value = ratio_metric(name, zeros, zeros, zeros, zeros)
    assert record[0].category.__name__ == "UndefinedMetricWarning"
    assert_array_equal(value, [0.0])


@pytest.mark.parametrize("name", STATISTICS)
def test_statistics_direction_matches_perfect_prediction(name):
    """A perfect prediction scores 1 on a higher-is-better statistic and 0 on
    an error rate; the prevalence, neither, is the share of positives."""
    statistic = STATISTICS[name]
    value = ratio_metric(name, 3.0, 0.0, 0.0, 2.0, zero_division=np.nan)
    expected = {True: 1.0, False: 0.0, None: 0.6}[statistic.higher_is_better]
    assert value == pytest.approx(expected)


def test_statistics_samples_forms_read_the_samples_sums():
    """Precision, recall and F-beta (and "f1") have a samples form at their
    position of the sums; the others have none, and no "samples" average."""
    with_samples = {n for n, s in STATISTICS.items() if s.samples is not None}
    assert with_samples == {"precision", "recall", "fbeta"}
    for name in with_samples:
        assert RATIOS[STATISTICS[name].samples.index] == name
        assert STATISTICS[name].averages[-1] == "samples"
    assert statistic_of("f1") == (STATISTICS["fbeta"], 1.0)
    assert "samples" not in STATISTICS["specificity"].averages


def test_statistics_metric_options_are_every_statistic():
    """The ``metric`` options of the intervals and the paired comparison are
    every statistic of the registry (F-beta as "f1" and "fbeta"), in its
    order; the threshold curves and the accumulator's Poisson intervals keep
    the five scores."""
    assert METRICS[:5] == ("precision", "recall", "f1", "fbeta", "specificity")
    assert set(METRICS) == (set(STATISTICS) - {"fbeta"}) | {"f1", "fbeta"}
    assert SCORES == ("precision", "recall", "f1", "fbeta", "specificity")


def test_confusion_matrix_statistics_new_statistics_do_not_warn():
    """Only today's five statistics warn; the new ones take 0.0 silently."""
    with pytest.warns(Warning) as record:
        stats = confusion_matrix_statistics([[3, 0], [0, 0]])
    names = sorted(str(w.message).split(" is ill-defined")[0] for w in record)
    assert names == ["F-score", "Precision", "Recall", "Specificity"]
    assert stats["matthews_corrcoef"][1] == 0.0
    assert stats["jaccard"][0] == 1.0


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_confusion_matrix_statistics_match_naive_oracle_on_mlcm(
    method, data, mlcm_strategies
):
    """On random MLCMs every statistic of every index equals the oracle's."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    cm = mlcm_confusion_matrix(y_true, y_pred, sample_weight=weight, method=method)
    stats = confusion_matrix_statistics(cm, zero_division=np.nan)
    for name in STATISTICS:
        for k in range(cm.shape[0]):
            counts = (stats[c][k] for c in ("tp", "fp", "fn", "tn"))
            expected = statistic_oracle(name, *counts)
            if expected is None:
                assert np.isnan(stats[name][k]), (name, k)
            else:
                assert stats[name][k] == pytest.approx(expected, abs=1e-12), name


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_confusion_matrix_statistics_match_pycm(data, mlcm_strategies):
    """Where PyCM defines a statistic, ours equals PyCM's on the MLCM: PyCM's
    one-vs-rest counts of a square matrix are ours with tn="complement"."""
    pycm = pytest.importorskip(
        "pycm", reason="pycm, the oracle of the per-class statistics, is absent"
    )
    y_true, y_pred, _ = data.draw(mlcm_strategies.cases(weighted=False))
    cm = mlcm_confusion_matrix(y_true, y_pred)
    indices = range(cm.shape[0])
    matrix = {i: {j: int(cm[i, j]) for j in indices} for i in indices}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyCM warns about empty classes
        reference = pycm.ConfusionMatrix(matrix=matrix).class_stat
    stats = confusion_matrix_statistics(cm, zero_division=np.nan)
    for ours, theirs in (("tp", "TP"), ("fp", "FP"), ("fn", "FN"), ("tn", "TN")):
        assert [reference[theirs][i] for i in indices] == stats[ours].tolist()
    compared = 0
    for name, pycm_name in PYCM_NAMES.items():
        for i in indices:
            expected = reference[pycm_name][i]
            if expected == "None":
                continue  # undefined for PyCM: ours takes zero_division
            assert stats[name][i] == pytest.approx(expected, abs=1e-9), (name, i)
            compared += 1
    assert compared > 0


def test_statistics_docs_table_lists_every_entry():
    """The user guide's table of statistics has a row for every registry
    entry, and none for a statistic the registry lacks: the docs' one line of
    a new statistic cannot be forgotten."""
    page = Path(__file__).resolve().parents[1] / "doc" / "user_guide"
    text = (page / "statistics.rst").read_text(encoding="utf-8")
    table = text.split("key                              formula", 1)[1]
    table = table.split("\n=", 2)[1]  # the rows, between the rules
    keys = [
        line.split("``")[1] for line in table.splitlines() if line.startswith("``")
    ]
    rows = [k for k in keys if k != "overall_accuracy"]
    assert len(rows) == len(set(rows))
    assert set(rows) == set(STATISTICS)
