"""The reasons an interval cannot be trusted (issue #32): per label, per
average, and a simulation that the macro flag fires where coverage fails."""

import numpy as np
from numpy.testing import assert_allclose

from sklearn_mlcm._uncertainty._flags import (
    FEW,
    LabelSupport,
    average_flag,
    label_flags,
    label_support,
)
from sklearn_mlcm._uncertainty._score_intervals import macro_interval, ratio_moments
from sklearn_mlcm._uncertainty._table import UnitTable, combine_tables, tabulate


def _units(t, p, method="heydarian", weight=None, groups=None):
    table = combine_tables([tabulate(t, p, weight, groups)])
    return UnitTable(table, t.shape[1], method, grouped=groups is not None)


def _support(n_true, n_pred, n_negative):
    return LabelSupport(
        *(np.asarray(x, dtype=float) for x in (n_true, n_pred, n_negative))
    )


def test_label_flags_undefined_reasons():
    """A zero denominator gives the metric's reason: never predicted
    (precision), no true instance (recall), neither (F1), no negative
    (specificity); a defined label with few positives is not flagged for a
    score interval."""
    support = _support([0, 3, 9], [2, 0, 9], [9, 9, 0])
    assert label_flags(support, [2, 0, 9], "precision") == [
        None,
        "undefined: never predicted",
        None,
    ]
    assert label_flags(support, [0, 3, 9], "recall")[0] == "undefined: no true instance"
    assert label_flags(support, [0, 3, 9], "f1") == [
        "undefined: no true or predicted instance",
        None,
        None,
    ]
    assert label_flags(support, [9, 9, 0], "specificity")[2] == (
        "undefined: no negative instance"
    )


def test_label_flags_few_positives_for_bootstrap_intervals():
    """A bootstrap interval of a label with fewer than FEW positives says how
    few; the score interval of the same label is not flagged."""
    support = _support([3, FEW, 2.5], [9, 9, 9], [9, 9, 9])
    got = label_flags(support, [3, 5, 2.5], "recall", interval="bootstrap")
    assert got == ["few positives (3 < 5)", None, "few positives (2.5 < 5)"]
    assert label_flags(support, [3, 5, 2.5], "recall") == [None, None, None]
    precision = label_flags(
        _support([9], [1], [9]), [1], "precision", interval="bootstrap"
    )
    assert precision == ["few predictions (1 < 5)"]


def test_average_flag_macro_counts_rare_labels():
    """Macro is flagged with "k of q labels have < 5 positives" once more
    than 5% of the labels are rare; micro, weighted and samples are not."""
    rare = _support([1, 2, 30, 40, 50], [9] * 5, [9] * 5)
    assert average_flag(rare, [1] * 5, "recall", "macro") == (
        "2 of 5 labels have < 5 positives"
    )
    assert average_flag(rare, [1] * 5, "precision", "macro") is None
    for average in ("micro", "weighted", "samples"):
        assert average_flag(rare, [1] * 5, "recall", average) is None
    common = _support([30] * 40, [30] * 40, [30] * 40)
    assert average_flag(common, [1] * 40, "f1", "macro") is None
    two = _support([1, 1] + [30] * 38, [30] * 40, [30] * 40)
    assert average_flag(two, [1] * 40, "f1", "macro") is None  # 2/40 = 5%
    three = _support([1, 1, 1] + [30] * 37, [30] * 40, [30] * 40)
    assert average_flag(three, [1] * 40, "f1", "macro") == (
        "3 of 40 labels have < 5 positives"
    )


def test_average_flag_every_label_undefined():
    """An average none of whose labels is defined says so, micro included."""
    support = _support([3, 3], [0, 0], [9, 9])
    for average in ("macro", "micro"):
        assert average_flag(support, [0, 0], "precision", average) == (
            "undefined for every label (never predicted)"
        )


def test_label_support_counts_and_kish_weights():
    """Without weights the support is the count; with weights Kish's
    (sum w)^2 / sum w^2 of the instances concerned."""
    t = np.array([[1, 0], [1, 1], [0, 1], [1, 0]], dtype=bool)
    p = np.array([[1, 1], [0, 1], [0, 0], [1, 0]], dtype=bool)
    support = label_support(_units(t, p))
    assert_allclose(support.n_true, [3, 2])
    assert_allclose(support.n_pred, [2, 2])
    assert_allclose(support.n_negative, [1, 2])
    weight = np.array([1.0, 2.0, 3.0, 1.0])
    weighted = label_support(_units(t, p, weight=weight))
    assert_allclose(weighted.n_true, [16 / 6, 25 / 13])
    assert_allclose(weighted.n_pred, [4 / 2, 9 / 5])


def test_label_support_groups_count_pairs_of_a_group_once():
    """With groups, a group's instances of one (true set, predicted set)
    count as one instance of their summed weight."""
    t = np.array([[1], [1], [1], [1]], dtype=bool)
    support = label_support(_units(t, t, groups=np.array([0, 0, 1, 2])))
    assert_allclose(support.n_true, [16 / 6])


def test_average_flag_fires_where_macro_coverage_fails():
    """Simulation, Heydarian, samples of 100, 80 replicates: with 20 of 40
    labels at 0.3-1% prevalence the macro-recall bootstrap-t covers < 80% and
    the flag fires in >= 95% of the replicates; with only common labels it
    covers >= 90% and fires in <= 5%."""
    common = [0.1, 0.2, 0.3, 0.4] * 5
    cases = {"rare": [0.003, 0.005, 0.008, 0.01] * 5 + common, "common": common}
    for name, prevalence in cases.items():
        rng = np.random.default_rng(31)
        prevalence = np.array(prevalence)
        t = rng.random((20_000, prevalence.size)) < prevalence
        p = (t & (rng.random(t.shape) < 0.6)) | (rng.random(t.shape) < 0.03)
        truth = macro_interval(
            _units(t, p), "recall", confidence_level=0.95, interval="linearised"
        ).estimate
        covered = flagged = 0
        for replicate in range(80):
            rows = rng.integers(0, t.shape[0], 100)
            units = _units(t[rows], p[rows])
            got = macro_interval(
                units, "recall", confidence_level=0.95, n_resamples=199, seed=replicate
            )
            covered += got.low <= truth <= got.high
            denominator = ratio_moments(units, "recall").denominator
            flag = average_flag(label_support(units), denominator, "recall", "macro")
            flagged += flag is not None
        if name == "rare":
            assert covered / 80 < 0.80 and flagged / 80 >= 0.95
        else:
            assert covered / 80 >= 0.90 and flagged / 80 <= 0.05
