"""mlcm_threshold_curve: the MLCM scores at many thresholds, against naive loops."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import f1_score, fbeta_score, precision_score, recall_score

import sklearn_mlcm._thresholds._sweep as sweep
from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    ThresholdCurveResult,
    decide_labels,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_specificity_score,
    mlcm_threshold_curve,
)
from sklearn_mlcm._thresholds._validation import evenly_spaced

# few distinct values: ties between labels and at the thresholds are common
TIED_VALUES = (-1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0)
POSITIVE_THRESHOLDS = (0.1, 0.25, 0.5, 0.6, 0.75, 1.0)
ALL_THRESHOLDS = (-1.0, -0.75, -0.5, 0.0, *POSITIVE_THRESHOLDS)
METRICS = ("f1", "precision", "recall", "fbeta", "specificity")
AVERAGES = ("macro", "weighted", "micro", "micro_all")

Y_TRUE = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
Y_SCORE = np.array([[0.9, 0.4, 0.3], [0.2, 0.6, 0.5], [0.7, 0.3, 0.1], [0.1, 0.2, 0.8]])


def _score_function(metric, beta, tn):
    return {
        "f1": mlcm_f1_score,
        "precision": mlcm_precision_score,
        "recall": mlcm_recall_score,
        "fbeta": lambda *a, **k: mlcm_fbeta_score(*a, beta=beta, **k),
        "specificity": lambda *a, **k: mlcm_specificity_score(*a, tn=tn, **k),
    }[metric]


def naive_curve(y_true, y_score, grid, options):
    """One prediction and one score call per threshold: (T,) and (T, q)."""
    score = _score_function(options["metric"], options["beta"], options["tn"])
    common = {
        "method": options["method"],
        "sample_weight": options["sample_weight"],
        "zero_division": options["zero_division"],
    }
    overall, labels = [], []
    for threshold in grid:
        y_pred = decide_labels(y_score, threshold=threshold)
        labels.append(score(y_true, y_pred, average=None, **common))
        overall.append(score(y_true, y_pred, average=options["average"], **common))
    return np.array(overall), np.array(labels)


# The strategies of curve_cases, built once (not per example: hypothesis
# validates each new strategy object at its first draw)
SCORE_VALUES = st.one_of(
    st.sampled_from(TIED_VALUES), st.floats(-1, 1, allow_subnormal=False)
)
THRESHOLD_CHOICES = {
    True: st.sampled_from(POSITIVE_THRESHOLDS),
    False: st.sampled_from(ALL_THRESHOLDS),
}
THRESHOLD_SETS = {
    key: st.sets(choices, min_size=1, max_size=5)
    for key, choices in THRESHOLD_CHOICES.items()
}
GRID_KINDS = st.sampled_from(("1-D", "2-D rising", "2-D any"))
GRID_ROWS = st.integers(1, 5)
CURVE_OPTIONS = {
    "metric": st.sampled_from(METRICS),
    "average": st.sampled_from(AVERAGES),
    "method": st.sampled_from(("heydarian", "heydarian", "krstinic")),
    "beta": st.sampled_from((0.5, 1.0, 2.0)),
    "tn": st.sampled_from(("complement", "diagonal")),
    "zero_division": st.sampled_from((0.0, 1.0, np.nan)),
}


@st.composite
def curve_cases(draw, mlcm_strategies, sparse_scores=None):
    """``(y_true, y_score, grid, options)`` of a small random curve."""
    y_true, _ = draw(mlcm_strategies.targets(max_samples=9, max_labels=5))
    n, q = y_true.shape
    y_score = np.array(
        draw(st.lists(SCORE_VALUES, min_size=n * q, max_size=n * q))
    ).reshape(n, q)
    if sparse_scores is None:
        sparse_scores = draw(st.booleans())
    kind = draw(GRID_KINDS)
    if kind == "1-D":
        grid = np.array(sorted(draw(THRESHOLD_SETS[sparse_scores])))
    else:
        n_rows = draw(GRID_ROWS)
        cells = st.lists(
            THRESHOLD_CHOICES[sparse_scores],
            min_size=n_rows * q,
            max_size=n_rows * q,
        )
        grid = np.array(draw(cells)).reshape(n_rows, q)
        if kind == "2-D rising":
            grid = np.sort(grid, axis=0)
    weighted = draw(st.booleans())
    options = {
        "metric": draw(CURVE_OPTIONS["metric"]),
        "average": draw(CURVE_OPTIONS["average"]),
        "method": draw(CURVE_OPTIONS["method"]),
        "sample_weight": draw(mlcm_strategies.weights(n)) if weighted else None,
        "beta": draw(CURVE_OPTIONS["beta"]),
        "tn": draw(CURVE_OPTIONS["tn"]),
        "zero_division": draw(CURVE_OPTIONS["zero_division"]),
    }
    return y_true, y_score, grid, sparse_scores, options


@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_mlcm_threshold_curve_matches_one_score_per_threshold(data, mlcm_strategies):
    """At every threshold the averaged and label scores equal the public
    score of decide_labels' predictions: dense and sparse targets and
    scores, weights, every metric, average and method, 1-D and 2-D
    thresholds, ties at the thresholds, empty label sets."""
    y_true, y_score, grid, sparse_scores, options = data.draw(
        curve_cases(mlcm_strategies)
    )
    true_form = data.draw(st.sampled_from(("dense", "csr")))
    with warnings.catch_warnings():
        # ill-defined ratios of tiny cases (zero_division="warn" among others)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected, expected_labels = naive_curve(y_true, y_score, grid, options)
    result = mlcm_threshold_curve(
        sparse.csr_array(y_true) if true_form == "csr" else y_true,
        sparse.csr_matrix(y_score) if sparse_scores else y_score,
        thresholds=grid,
        **options,
    )
    assert isinstance(result, ThresholdCurveResult)
    assert_array_equal(result.thresholds, grid)
    assert result.scores.shape == (len(grid),)
    assert result.label_scores.shape == (len(grid), y_true.shape[1])
    assert_allclose(result.scores, expected, rtol=1e-9, atol=1e-12)
    assert_allclose(result.label_scores, expected_labels, rtol=1e-9, atol=1e-12)


@settings(max_examples=1000, deadline=None)
@given(data=st.data())
def test_sweep_margins_equal_the_oracle_matrix(data, mlcm_strategies):
    """The sweep's margins (diagonal, row and column sums) at every threshold
    are those of Heydarian's loop-by-loop oracle matrix of the predictions,
    and the matrix-per-threshold path gives the same for both methods."""
    y_true, y_score, grid, sparse_scores, options = data.draw(
        curve_cases(mlcm_strategies)
    )
    grid = grid if grid.ndim == 1 else np.sort(grid, axis=0)
    weight = options["sample_weight"]
    u = np.ones(len(y_true)) if weight is None else weight
    scores = sparse.csr_array(y_score) if sparse_scores else y_score
    margins, predicted = sweep.sweep_margins(
        y_true, scores, grid, u, with_predicted=True
    )
    per_label = grid if grid.ndim == 2 else np.repeat(grid[:, None], y_true.shape[1], 1)
    for method, oracle in (
        ("heydarian", heydarian_oracle),
        ("krstinic", krstinic_oracle),
    ):
        by_matrix, predicted_by_matrix, hits = sweep.matrix_margins(
            y_true, scores, per_label, weight, method, with_predicted=True
        )
        for j, threshold in enumerate(per_label):
            y_pred = (y_score >= threshold).astype(int)
            cm = oracle(y_true.astype(int).tolist(), y_pred.tolist(), weight)
            expected = [np.diagonal(cm), cm.sum(axis=1), cm.sum(axis=0)]
            assert_allclose(by_matrix[j], expected, rtol=1e-9, atol=1e-9)
            assert_allclose(predicted_by_matrix[j], u @ y_pred, rtol=1e-9, atol=1e-9)
            assert_allclose(hits[j], u @ (y_pred & y_true), rtol=1e-9, atol=1e-9)
            if method == "heydarian":
                assert_allclose(margins[j], expected, rtol=1e-9, atol=1e-9)
                assert_allclose(predicted[j], u @ y_pred, rtol=1e-9, atol=1e-9)


def test_mlcm_threshold_curve_weights_far_apart():
    """Weights 10**16 apart: a margin smaller than the rounding of the
    running sums is computed again, exactly as the scores compute it, and a
    margin no instance of positive weight counts is 0 (zero_division)."""
    y_true = np.zeros((4, 4), dtype=bool)
    y_score = np.full((4, 4), -1.0)
    y_score[0, 1] = -0.5
    grid = np.array([[-1.0, -0.75, -1.0, -1.0]])
    weight = np.array([2.220446049250313e-16, 0.0, 0.0, 2.0])
    result = mlcm_threshold_curve(
        y_true, y_score, thresholds=grid, sample_weight=weight, zero_division=1.0
    )
    y_pred = decide_labels(y_score, threshold=grid[0])
    expected = mlcm_f1_score(
        y_true, y_pred, average=None, sample_weight=weight, zero_division=1.0
    )
    assert_array_equal(result.label_scores[0], expected)
    assert_array_equal(expected, [0.0, 0.0, 0.0, 0.0])
    rounded = mlcm_threshold_curve(
        Y_TRUE,
        Y_SCORE,
        thresholds=[0.25, 0.5],
        sample_weight=[1.0, 1.0000000000000004, 0.3, 0.0],
        metric="precision",
        zero_division=1.0,
    )
    assert_allclose(
        rounded.label_scores[1],
        mlcm_precision_score(
            Y_TRUE,
            decide_labels(Y_SCORE, threshold=0.5),
            average=None,
            sample_weight=[1.0, 1.0000000000000004, 0.3, 0.0],
            zero_division=1.0,
        ),
    )


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_sweep_margins_blocks_of_rows(data, mlcm_strategies):
    """Blocks of a few rows (and of a few true labels for the pairs) give
    the margins of one block."""
    y_true, y_score, grid, sparse_scores, options = data.draw(
        curve_cases(mlcm_strategies)
    )
    grid = grid if grid.ndim == 1 else np.sort(grid, axis=0)
    scores = sparse.csr_array(y_score) if sparse_scores else y_score
    u = np.ones(len(y_true))
    whole, _ = sweep.sweep_margins(y_true, scores, grid, u)
    saved = sweep.BLOCK_CELLS
    sweep.BLOCK_CELLS = 1  # one row, one true label at a time
    try:
        parts, _ = sweep.sweep_margins(y_true, scores, grid, u)
    finally:
        sweep.BLOCK_CELLS = saved
    assert_allclose(parts, whole, rtol=1e-12, atol=1e-12)


@settings(max_examples=500, deadline=None)
@given(data=st.data())
def test_mlcm_threshold_curve_one_vs_rest_is_scikit_learn(data, mlcm_strategies):
    """ovr_scores and ovr_label_scores are scikit-learn's scores of the
    thresholded predictions (specificity from its one-vs-rest counts)."""
    y_true, y_score, grid, sparse_scores, options = data.draw(
        curve_cases(mlcm_strategies, sparse_scores=False)
    )
    metric = options["metric"]
    average = data.draw(st.sampled_from(("macro", "weighted", "micro")))
    zero_division, weight = options["zero_division"], options["sample_weight"]
    assume(weight is None or weight.sum() > 0)  # scikit-learn 1.9 refuses all zeros
    result = mlcm_threshold_curve(
        y_true,
        y_score,
        thresholds=grid,
        one_vs_rest=True,
        **{**options, "average": average},
    )
    for j, threshold in enumerate(grid):
        y_pred = decide_labels(y_score, threshold=threshold)
        for avg, got in (
            (None, result.ovr_label_scores[j]),
            (average, result.ovr_scores[j]),
        ):
            expected = _sklearn_score(
                metric, y_true, y_pred, avg, weight, zero_division, options["beta"]
            )
            assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


def _sklearn_score(metric, y_true, y_pred, average, weight, zero_division, beta):
    """scikit-learn's one-vs-rest score; specificity from its counts. One
    label's column is read by scikit-learn as binary classes: its score is
    that of the class 1 (labels=[1])."""
    kwargs = {
        "average": average,
        "sample_weight": weight,
        "zero_division": zero_division,
    }
    if y_true.shape[1] == 1:
        y_true, y_pred = y_true.ravel().astype(int), y_pred.ravel()
        kwargs["labels"] = [1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if metric == "specificity":
            from sklearn.metrics import multilabel_confusion_matrix

            mcm = multilabel_confusion_matrix(
                y_true, y_pred, sample_weight=weight, labels=kwargs.get("labels")
            )
            tn, fp = mcm[:, 0, 0].astype(float), mcm[:, 0, 1].astype(float)
            # scikit-learn 1.4 leaves rounding residue (-3e-11) in a weighted
            # TN of 0 (total - tp - fp - fn): cleared, as the package does
            total = mcm[0].sum()
            tn = np.where(np.abs(tn) <= 16 * np.finfo(float).eps * total, 0.0, tn)
            if average == "micro":
                tn, fp = np.array([tn.sum()]), np.array([fp.sum()])
            with np.errstate(invalid="ignore", divide="ignore"):
                values = np.where(
                    tn + fp > 0, tn / np.where(tn + fp > 0, tn + fp, 1), zero_division
                )
            if average is None:
                return values
            if average == "micro":
                return values[0]
            support = mcm[:, 1, 0] + mcm[:, 1, 1]
            weights = support if average == "weighted" else np.ones_like(values)
            keep = ~np.isnan(values)
            if not keep.any():
                return np.nan
            if weights[keep].sum() == 0:
                return values[keep].mean()
            return np.average(values[keep], weights=weights[keep])
        if metric == "fbeta":
            return fbeta_score(y_true, y_pred, beta=beta, **kwargs)
        return {"f1": f1_score, "precision": precision_score, "recall": recall_score}[
            metric
        ](y_true, y_pred, **kwargs)


def test_mlcm_threshold_curve_hand_example():
    """The worked example of the docstring, and its one-vs-rest curve."""
    result = mlcm_threshold_curve(
        Y_TRUE, Y_SCORE, thresholds=[0.25, 0.5, 0.75], one_vs_rest=True
    )
    thresholds, scores = result
    assert_array_equal(thresholds, [0.25, 0.5, 0.75])
    assert_allclose(scores, [11 / 18, 13 / 18, 5 / 9])
    assert_allclose(result.label_scores[0], [2 / 3, 2 / 3, 1 / 2])
    assert_allclose(result.ovr_label_scores[0], [1.0, 0.8, 0.5])
    assert result.best_index == 1 and result.best_threshold == 0.5
    assert result.target_names == ["0", "1", "2"]
    assert (result.metric, result.average, result.method) == (
        "f1",
        "macro",
        "heydarian",
    )


def test_mlcm_threshold_curve_default_grid():
    """None: 100 thresholds evenly spaced from the smallest to the largest
    score; an int: that many; one when every score is equal; sparse scores
    from the smallest stored score above 0."""
    thresholds, scores = mlcm_threshold_curve(Y_TRUE, Y_SCORE)
    assert_allclose(thresholds, np.linspace(0.1, 0.9, 100))
    assert scores.shape == (100,)
    thresholds, _ = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=5)
    assert_allclose(thresholds, [0.1, 0.3, 0.5, 0.7, 0.9])
    thresholds, _ = mlcm_threshold_curve(Y_TRUE, np.full((4, 3), 0.3), thresholds=7)
    assert_array_equal(thresholds, [0.3])
    negative = Y_SCORE.copy()
    negative[0, 0] = -2.0
    thresholds, _ = mlcm_threshold_curve(
        Y_TRUE, sparse.csr_array(negative), thresholds=3
    )
    assert_allclose(thresholds, [0.1, 0.45, 0.8])


def test_mlcm_threshold_curve_frames_are_matched_by_name():
    """A frame y_score with its columns in another order is matched to a
    frame y_true by name; labels picks columns by name."""
    names = ["cat", "dog", "bird"]
    truth = pd.DataFrame(Y_TRUE, columns=names)
    scores = pd.DataFrame(Y_SCORE, columns=names)[["bird", "cat", "dog"]]
    expected = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=4)
    result = mlcm_threshold_curve(truth, scores, thresholds=4)
    assert_allclose(result.label_scores, expected.label_scores)
    assert result.target_names == names
    subset = mlcm_threshold_curve(truth, scores, thresholds=4, labels=["dog", "cat"])
    assert subset.target_names == ["dog", "cat"]
    assert_allclose(
        subset.label_scores,
        mlcm_threshold_curve(
            Y_TRUE[:, [1, 0]], Y_SCORE[:, [1, 0]], thresholds=4
        ).label_scores,
    )


def test_mlcm_threshold_curve_frames_with_repeated_names_are_refused():
    """Frames that repeat a column name cannot be matched by it: y_score in
    another order, and labels naming it, are refused, naming it."""
    truth = pd.DataFrame(Y_TRUE, columns=["a", "a", "b"])
    scores = pd.DataFrame(Y_SCORE[:, [2, 0, 1]], columns=["b", "a", "a"])
    with pytest.raises(InvalidInputError, match=r"the names \['a'\] repeat"):
        mlcm_threshold_curve(truth, scores, thresholds=4)
    match = r"'labels' parameter .* columns that the DataFrame repeats, \['a'\]"
    with pytest.raises(InvalidInputError, match=match):
        mlcm_threshold_curve(truth, truth * 0.5, thresholds=4, labels=["a"])


def test_mlcm_threshold_curve_2d_thresholds():
    """Rows of per-label thresholds: rising columns and any columns give the
    scores of decide_labels with those thresholds."""
    grid = np.array([[0.5, 0.25, 0.75], [0.25, 0.5, 0.75], [0.75, 0.75, 0.25]])
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=grid)
    for j, row in enumerate(grid):
        y_pred = decide_labels(Y_SCORE, threshold=row)
        assert_allclose(
            result.scores[j], mlcm_f1_score(Y_TRUE, y_pred, zero_division=0.0)
        )
    assert_array_equal(result.best_threshold, grid[result.best_index])


@pytest.mark.parametrize(
    "thresholds, match",
    [
        ([0.5, 0.5], r"strictly increasing.*0.5 followed by 0.5 at position 0"),
        ([0.7, 0.2], "strictly increasing"),
        ([0.2, np.nan], "must be finite"),
        (np.ones((2, 2)), r"of shape \(n_thresholds, 3\) when 2-D"),
        ([], "non-empty"),
        (np.zeros((2, 2, 3)), r"shape \(2, 2, 3\)"),
        (["a"], "of real numbers"),
        ([False, True], "dtype bool"),  # was the grid [0.0, 1.0]
    ],
)
def test_mlcm_threshold_curve_bad_thresholds(thresholds, match):
    """Thresholds not increasing, of the wrong shape or not finite."""
    with pytest.raises(InvalidInputError, match=match):
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=thresholds)


def test_mlcm_threshold_curve_object_thresholds_are_numbers():
    """An object array of real numbers is a grid, as decide_labels takes it
    for its thresholds (it was refused here)."""
    grid = np.array([0.25, np.float32(0.5), 1], dtype=object)
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=grid)
    expected = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=[0.25, 0.5, 1.0])
    assert_array_equal(result.scores, expected.scores)


def test_mlcm_threshold_curve_sparse_scores_need_positive_thresholds():
    """Sparse scores: thresholds of 0 or less, or a grid of scores none of
    which is above 0, are refused."""
    with pytest.raises(InvalidInputError, match="above 0 for sparse y_score"):
        mlcm_threshold_curve(Y_TRUE, sparse.csr_array(Y_SCORE), thresholds=[0.0, 0.5])
    with pytest.raises(InvalidInputError, match="stores no score above 0"):
        mlcm_threshold_curve(Y_TRUE, sparse.csr_array(-Y_SCORE))


@pytest.mark.parametrize(
    "y_true, y_score, match",
    [
        (Y_TRUE[:, 0], Y_SCORE[:, 0], "must be a 2-D 0/1 indicator matrix"),
        (Y_TRUE, Y_SCORE[:, :2], r"same shape.*\(4, 3\) and \(4, 2\)"),
        (Y_TRUE, Y_SCORE[:3], r"\(4, 3\) and \(3, 3\)"),
        (Y_TRUE * 2, Y_SCORE, "must contain only 0 and 1"),
        (Y_TRUE, np.where(Y_SCORE > 0.5, np.nan, Y_SCORE), "must hold finite scores"),
        (
            pd.DataFrame(Y_TRUE, columns=["a", "b", "c"]),
            pd.DataFrame(Y_SCORE, columns=["a", "b", "x"]),
            r"frames with different columns.*missing from y_score: \['c'\]",
        ),
        (
            pd.DataFrame(Y_TRUE, columns=["a", "b", "c"]),
            Y_SCORE,
            "cannot be matched by name",
        ),
    ],
)
def test_mlcm_threshold_curve_bad_targets(y_true, y_score, match):
    """Targets and scores that do not fit together are refused."""
    with pytest.raises(InvalidInputError, match=match):
        mlcm_threshold_curve(y_true, y_score)


def test_mlcm_threshold_curve_one_vs_rest_refuses_micro_all():
    """scikit-learn has no micro_all average to compare with."""
    with pytest.raises(InvalidParameterError, match="'micro_all' has no one-vs-rest"):
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, average="micro_all", one_vs_rest=True)


def test_mlcm_threshold_curve_refuses_results_past_the_bound(monkeypatch):
    """Too many thresholds for the labels are refused before the arrays are
    allocated."""
    import sklearn_mlcm._thresholds._validation as validation_module

    monkeypatch.setattr(validation_module, "MAX_DENSE_BYTES", 10_000)
    with pytest.raises(InvalidInputError, match=re.escape("200 thresholds")):
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=200)


def test_mlcm_threshold_curve_extreme_thresholds_do_not_overflow():
    """Thresholds at the ends of float64 are compared, not subtracted: no
    overflow warning, and the scores of predicting everything or nothing."""
    import warnings

    grid = [-1e308, 1e308]  # their difference overflows
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=grid)
        rows = mlcm_threshold_curve(
            Y_TRUE, Y_SCORE, thresholds=np.repeat(np.array(grid)[:, None], 3, axis=1)
        )
    everything = mlcm_f1_score(Y_TRUE, np.ones_like(Y_TRUE))
    assert_allclose(result.scores, [everything, 0.0])
    assert_allclose(rows.scores, result.scores)


#: Scores from -1.5 to 1.5 times this span more than float64 holds (2.7e308).
HUGE = 2.0**1023


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_mlcm_threshold_curve_scores_beyond_float64_span_as_scaled_down(
    data, mlcm_strategies
):
    """Finite scores whose span overflows float64 (-1.35e308 to 1.35e308) give
    the curve of the same scores scaled down by a power of two: thresholds
    scaled back up bit for bit, equal scores, no overflow warning (it was
    three thresholds, an infinite one and NaN, and every score 0)."""
    y_true, _ = data.draw(mlcm_strategies.targets(max_samples=9, max_labels=4))
    n, q = y_true.shape
    values = st.one_of(
        st.sampled_from(TIED_VALUES), st.floats(-1.5, 1.5, allow_subnormal=False)
    )
    y_score = np.array(data.draw(st.lists(values, min_size=n * q, max_size=n * q)))
    y_score = y_score.reshape(n, q)
    y_score.flat[data.draw(st.integers(0, n * q - 1))] = -1.5
    y_score.flat[data.draw(st.integers(0, n * q - 1))] = 1.5
    assume(y_score.min() == -1.5)  # the second draw may cover the first
    options = {
        "thresholds": data.draw(st.sampled_from((None, 2, 7, 100))),
        "method": data.draw(st.sampled_from(("heydarian", "krstinic"))),
        "one_vs_rest": True,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        huge = mlcm_threshold_curve(y_true, y_score * HUGE, **options)
    plain = mlcm_threshold_curve(y_true, y_score, **options)
    assert_array_equal(huge.thresholds, plain.thresholds * HUGE)
    assert huge.thresholds[0] == -1.5 * HUGE and huge.thresholds[-1] == 1.5 * HUGE
    assert_array_equal(huge.scores, plain.scores)
    assert_array_equal(huge.label_scores, plain.label_scores)
    assert_array_equal(huge.ovr_scores, plain.ovr_scores)
    assert huge.best_threshold == plain.best_threshold * HUGE


def test_mlcm_threshold_curve_scores_at_both_ends_of_float64():
    """The issue's scores, -1.5e308 and 1.5e308 among ordinary ones: 100
    finite thresholds from the one to the other, and the best of them is
    the best threshold of the same scores halved."""
    y_score = Y_SCORE.copy()
    y_score[1, 0], y_score[0, 2] = -1.5e308, 1.5e308
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = mlcm_threshold_curve(Y_TRUE, y_score)
    halved = mlcm_threshold_curve(Y_TRUE, y_score / 2)
    assert result.thresholds.shape == (100,)
    assert result.thresholds[0] == -1.5e308 and result.thresholds[-1] == 1.5e308
    assert np.all(np.diff(result.thresholds) > 0)
    assert_array_equal(result.thresholds, halved.thresholds * 2)
    assert_array_equal(result.scores, halved.scores)
    assert result.best_threshold == 2 * halved.best_threshold
    predicted = decide_labels(y_score, threshold=result.best_threshold)
    assert result.scores[result.best_index] == mlcm_f1_score(Y_TRUE, predicted)


@settings(max_examples=500, deadline=None)
@given(
    ends=st.lists(
        st.floats(allow_nan=False, allow_infinity=False), min_size=2, max_size=2
    ),
    count=st.integers(2, 1000),
)
@example(ends=[0.0, 1.7976931348623157e308], count=1000)
@example(ends=[-1.5e308, 1.5e308], count=100)
def test_evenly_spaced_is_linspace_or_finite_beyond_float64_span(ends, count):
    """evenly_spaced is np.linspace, bit for bit, when the span fits in
    float64; otherwise the grid of the ends scaled down by a power of two,
    scaled back up. Either way from low to high exactly, finite, not
    decreasing, and without an overflow warning (np.linspace(0, 1.8e308,
    1000) warns)."""
    low, high = sorted(ends)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grid = evenly_spaced(low, high, count)
    if high - low < float("inf"):
        with np.errstate(over="ignore"):  # its last step, for a span near 1.8e308
            expected = np.linspace(low, high, count)
        assert grid.tobytes() == expected.tobytes()
    else:  # the grid of the ends scaled down by 2**64 (any power), scaled up
        scaled = np.linspace(low * 2.0**-64, high * 2.0**-64, count) * 2.0**64
        assert grid.tobytes() == scaled.tobytes()
    assert grid.shape == (count,)
    assert grid[0] == low and grid[-1] == high
    assert np.all(np.isfinite(grid)) and np.all(grid[1:] >= grid[:-1])


@pytest.mark.parametrize("weight", [1e-320, 5e-324])
def test_mlcm_threshold_curve_subnormal_weights_are_counts(weight):
    """Equal subnormal weights give the unweighted curve, as they give the
    unweighted scores: the weighted average's row sums are scaled before
    they multiply the label scores (they lost their digits there)."""
    rng = np.random.default_rng(0)
    y_true = (rng.random((40, 4)) < 0.3).astype(int)
    y_score = rng.random((40, 4))
    options = {"thresholds": 7, "average": "weighted"}
    weighted = mlcm_threshold_curve(
        y_true, y_score, sample_weight=np.full(40, weight), **options
    )
    plain = mlcm_threshold_curve(y_true, y_score, **options)
    assert_allclose(weighted.scores, plain.scores, rtol=1e-12)
    predicted = decide_labels(y_score, threshold=plain.thresholds[1])
    expected = mlcm_f1_score(
        y_true, predicted, average="weighted", sample_weight=np.full(40, weight)
    )
    assert weighted.scores[1] == pytest.approx(expected, rel=1e-12)


def test_mlcm_threshold_curve_refuses_a_huge_number_before_the_grid():
    """A number of thresholds past the bound is refused before the grid of
    that many values is made (it raised NumPy's MemoryError)."""
    match = re.escape("1,000,000,000,000 thresholds")
    with pytest.raises(InvalidInputError, match="'thresholds' parameter .*" + match):
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=10**12)


@settings(max_examples=500, deadline=None)
@given(
    values=st.lists(
        st.one_of(
            st.floats(-10, 10, allow_subnormal=False),
            st.sampled_from((0.0, 1.0, 0.1, 0.2, 0.3, 1e-300, 5e-324, 1e308)),
        ),
        min_size=1,
        max_size=40,
    ),
    grid=st.sets(
        st.one_of(
            st.floats(-10, 10, allow_subnormal=False), st.sampled_from((0.1, 0.3))
        ),
        min_size=1,
        max_size=30,
    ),
    even=st.booleans(),
)
def test_grid_bins_equal_searchsorted(values, grid, even):
    """The bucketed search gives np.searchsorted's bins exactly: values equal
    to thresholds, between them, beyond both ends, even and uneven grids."""
    grid = np.array(sorted(grid))
    if even and grid.size > 1:
        grid = np.unique(np.linspace(grid[0], grid[-1], grid.size))
    values = np.array(values + grid.tolist() + [np.nextafter(g, -np.inf) for g in grid])
    assert_array_equal(
        sweep.Grid(grid).bins(values), np.searchsorted(grid, values, side="right")
    )


def test_mlcm_threshold_curve_target_names_name_the_kept_labels():
    """target_names name the kept labels, in the order of labels; the
    numbers do not change, and a frame's columns stay the default names."""
    plain = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=[0.25, 0.5, 0.75])
    named = mlcm_threshold_curve(
        Y_TRUE,
        Y_SCORE,
        thresholds=[0.25, 0.5, 0.75],
        target_names=("cat", "dog", "bird"),
    )
    assert plain.target_names == ["0", "1", "2"]
    assert named.target_names == ["cat", "dog", "bird"]
    assert_array_equal(named.scores, plain.scores)
    assert_array_equal(named.label_scores, plain.label_scores)
    kept = mlcm_threshold_curve(
        Y_TRUE, Y_SCORE, thresholds=3, labels=[2, 0], target_names=["bird", "cat"]
    )
    assert kept.target_names == ["bird", "cat"]
    columns = ["a", "b", "c"]
    framed = mlcm_threshold_curve(
        pd.DataFrame(Y_TRUE, columns=columns),
        pd.DataFrame(Y_SCORE, columns=columns),
        thresholds=3,
    )
    assert framed.target_names == columns


@pytest.mark.parametrize(
    "target_names, error, match",
    [
        (
            ["a", "b"],
            InvalidInputError,
            r"'target_names' parameter of mlcm_threshold_curve must have one "
            r"name per label: 3 expected, got 2",
        ),
        (
            ["a", "b", "a"],
            InvalidInputError,
            r"target_names of mlcm_threshold_curve must be unique \(compared "
            r"without surrounding whitespace, in Unicode.s composed form\); "
            r"'a' is used twice",
        ),
        (
            "abc",
            InvalidParameterError,
            r"'target_names' parameter of mlcm_threshold_curve must be a list "
            r"or None\. Got 'abc'",
        ),
    ],
)
def test_mlcm_threshold_curve_target_names_refused(target_names, error, match):
    """target_names of the wrong length, repeated or a str are refused."""
    with pytest.raises(error, match=match):
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=3, target_names=target_names)


def test_threshold_curve_result_summary_small():
    """Three labels: the headline and every label, with the numbers of the
    fields (the docstring's example)."""
    result = mlcm_threshold_curve(
        Y_TRUE,
        Y_SCORE,
        thresholds=[0.25, 0.5, 0.75],
        target_names=["cat", "dog", "bird"],
        one_vs_rest=True,
    )
    assert repr(result).splitlines() == [
        "ThresholdCurveResult: metric='f1', average='macro', method='heydarian', "
        "3 labels",
        "best_threshold=0.5000: score 0.7222 (one-vs-rest 0.7778); in-sample, "
        "optimistic",
        "thresholds chosen out of sample: MLCMTunedThresholdClassifierCV",
        "3 thresholds, from 0.2500 to 0.7500",
        "Per label: its own best threshold and score, and its score at the best "
        "threshold",
        "label  own best threshold  own best score  at best threshold",
        "cat                0.5000          1.0000             1.0000",
        "dog                0.2500          0.6667             0.5000",
        "bird               0.7500          1.0000             0.6667",
    ]
    # the label scores by threshold (rows) and label (columns)
    assert_allclose(
        result.label_scores,
        [[2 / 3, 2 / 3, 0.5], [1.0, 0.5, 2 / 3], [2 / 3, 0.0, 1.0]],
    )
    assert result.best_threshold == 0.5
    assert f"{result.scores[result.best_index]:.4f}" == "0.7222"
    assert f"{result.ovr_scores[result.best_index]:.4f}" == "0.7778"


@pytest.mark.parametrize(
    "thresholds", [[0.25, 0.5, 0.75], [[0.2, 0.3, 0.4], [0.5, 0.5, 0.5]]], ids=str
)
def test_threshold_curve_result_summary_says_the_best_is_in_sample(thresholds):
    """The best threshold (or row) is picked on the data the curve scores:
    the summary says "in-sample, optimistic" beside it, and where thresholds
    chosen out of sample come from."""
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=thresholds)
    lines = repr(result).splitlines()
    assert lines[1].endswith(": score 0.7222; in-sample, optimistic")
    assert lines[2] == (
        "thresholds chosen out of sample: MLCMTunedThresholdClassifierCV"
    )


def test_threshold_curve_result_summary_many_labels_fits_40_lines():
    """200 labels: at most 40 lines, the headline numbers equal the fields,
    the listed labels are those the best threshold serves worst."""
    rng = np.random.default_rng(0)
    y_true = rng.random((300, 200)) < 0.1
    y_score = np.clip(0.4 * y_true + rng.random((300, 200)) * 0.7, 0, 1)
    names = [f"a label with a long name, number {j}" for j in range(200)]
    result = mlcm_threshold_curve(y_true, y_score, thresholds=50, target_names=names)
    lines = repr(result).splitlines()
    assert len(lines) <= 40
    best = result.best_index
    assert lines[1] == (
        f"best_threshold={result.best_threshold:.4f}: score "
        f"{result.scores[best]:.4f}; in-sample, optimistic"
    )
    assert lines[3] == (
        f"50 thresholds, from {result.thresholds[0]:.3e} to "
        f"{result.thresholds[-1]:.4f}"
    )
    assert lines[3] == "50 thresholds, from 2.444e-06 to 1.0000"
    assert lines[-1] == "... and 180 more labels (see .to_frame())"
    gap = result.label_scores.max(axis=0) - result.label_scores[best]
    worst = np.argsort(-gap, kind="stable")[:20]
    listed = [line.split("  ")[0] for line in lines[6:26]]
    assert listed == [names[j][:25] + "..." for j in worst]


def test_threshold_curve_result_summary_two_dimensional():
    """Rows of per-label thresholds: the best row and each label's own
    threshold in its best row."""
    grid = np.array([[0.2, 0.3, 0.4], [0.5, 0.5, 0.5]])
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=grid)
    lines = repr(result).splitlines()
    assert lines[1] == (
        "best_index=1 (a row of per-label thresholds): score 0.7222; in-sample, "
        "optimistic"
    )
    assert lines[3] == "2 rows of per-label thresholds, from 0.2000 to 0.5000"
    assert lines[6:] == [
        "0                  0.5000          1.0000       1.0000",
        "1                  0.3000          0.5714       0.5000",
        "2                  0.4000          0.6667       0.6667",
    ]


def test_threshold_curve_result_summary_formats_thresholds_alike():
    """Every threshold of a summary has 4 decimals (0.0707, 0.1313, not
    0.07071, 0.1313), and a tiny nonzero one 4 significant digits."""
    result = mlcm_threshold_curve(
        Y_TRUE,
        Y_SCORE,
        thresholds=[2.897e-11, 0.07071, 0.1313, 0.5758, 1.0],
        target_names=["cat", "dog", "bird"],
    )
    lines = repr(result).splitlines()
    assert lines[3] == "5 thresholds, from 2.897e-11 to 1.0000"
    best = float(result.best_threshold)
    assert lines[1].startswith(f"best_threshold={best:.4f}: score ")
    column = [line.split()[1] for line in lines[6:]]
    assert all(len(cell.split(".")[1]) == 4 for cell in column), column


def test_threshold_curve_result_to_frame_equals_the_fields():
    """to_frame: a block of rows per label then the average, index "label",
    values equal to the fields exactly."""
    grid = [0.25, 0.5, 0.75]
    result = mlcm_threshold_curve(
        Y_TRUE, Y_SCORE, thresholds=grid, target_names=["a", "b", "c"], one_vs_rest=True
    )
    frame = result.to_frame()
    assert frame.index.name == "label"
    assert list(frame.columns) == ["kind", "row", "threshold", "score", "ovr_score"]
    assert list(frame.index) == ["a"] * 3 + ["b"] * 3 + ["c"] * 3 + ["macro avg"] * 3
    assert list(frame["kind"]) == ["label"] * 9 + ["average"] * 3
    for k, name in enumerate(["a", "b", "c"]):
        rows = frame.loc[name]
        assert_array_equal(rows["row"], [0, 1, 2])
        assert_array_equal(rows["threshold"], grid)
        assert_array_equal(rows["score"], result.label_scores[:, k])
        assert_array_equal(rows["ovr_score"], result.ovr_label_scores[:, k])
    average = frame.loc["macro avg"]
    assert_array_equal(average["score"], result.scores)
    assert_array_equal(average["ovr_score"], result.ovr_scores)
    assert frame["row"].dtype == np.int64 and frame["score"].dtype == np.float64
    wide = frame.pivot_table(index="row", columns="label", values="score")
    assert_array_equal(wide[["a", "b", "c"]].to_numpy(), result.label_scores)
    per_label = np.array([[0.2, 0.3, 0.4], [0.5, 0.5, 0.5]])
    two = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=per_label).to_frame()
    assert "ovr_score" not in two.columns
    assert_array_equal(two.loc["1", "threshold"], [0.3, 0.5])
    assert two.loc["macro avg", "threshold"].isna().all()


def test_threshold_curve_result_to_frame_without_pandas(monkeypatch):
    """Without pandas, to_frame() names itself and the pip hint; the fields
    and the unpacking stay as they were."""
    import sys

    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=3)
    thresholds, scores = result
    assert thresholds is result.thresholds and scores is result.scores
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(
        ImportError, match=r"ThresholdCurveResult\.to_frame\(\) requires pandas"
    ):
        result.to_frame()
