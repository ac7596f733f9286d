"""MLCMTunedThresholdClassifierCV: its search against brute force, honest
(out-of-fold) tuning, the scikit-learn machinery it takes part in, and every
refusal."""

import pickle
import warnings
from functools import partial

import numpy as np
import pytest
import sklearn
from _oracles import threshold_search_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_multilabel_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import (
    ConvergenceWarning,
    NotFittedError,
    UndefinedMetricWarning,
)
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ShuffleSplit,
    cross_val_predict,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import ClassifierChain, MultiOutputClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

import sklearn_mlcm._thresholds._tuned as tuned_module
from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    MLCMTunedThresholdClassifierCV,
    decide_labels,
    make_mlcm_scorer,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_scorers,
    mlcm_specificity_score,
    mlcm_threshold_curve,
)
from sklearn_mlcm._thresholds._search import (
    MarginObjective,
    ScorerObjective,
    search_thresholds,
)
from sklearn_mlcm._thresholds._stability import ThresholdSpread
from sklearn_mlcm._uncertainty._margins import krstinic_margins

SKLEARN_VERSION = tuple(int(v) for v in sklearn.__version__.split(".")[:2])
TIED_SCORES = (0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0)
GRID = np.array([0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0])
SCORE_FUNCTIONS = {
    "f1": mlcm_f1_score,
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
    "specificity": mlcm_specificity_score,
    "fbeta": partial(mlcm_fbeta_score, beta=2.0),
}


def _data(n=120, q=4, seed=0):
    X, y = make_multilabel_classification(
        n_samples=n, n_classes=q, n_features=8, random_state=seed
    )
    return X, y


class FixedScores(ClassifierMixin, BaseEstimator):
    """A "fitted" classifier whose probabilities are given: ``X[:, 0]`` holds
    the row of ``scores`` to return."""

    def __init__(self, scores=None):
        self.scores = scores

    def fit(self, X, y):
        self.classes_ = np.arange(np.shape(self.scores)[1])
        return self

    def predict_proba(self, X):
        return np.asarray(self.scores)[np.asarray(X)[:, 0].astype(int)]


class FixedMargins(ClassifierMixin, BaseEstimator):
    """The same with a decision function and no probabilities."""

    def __init__(self, scores=None):
        self.scores = scores

    def fit(self, X, y):
        self.classes_ = np.arange(np.shape(self.scores)[1])
        return self

    def decision_function(self, X):
        return np.asarray(self.scores)[np.asarray(X)[:, 0].astype(int)]


def _fixed(scores, kind=FixedScores):
    """A fitted stand-in and the X that indexes its scores."""
    return kind(scores).fit(None, None), np.arange(len(scores))[:, None]


@st.composite
def tuning_cases(draw, mlcm_strategies):
    """(y_true, y_score, weight): scores of few distinct values, so that ties
    between instances, labels and the grid are common."""
    y_true, _ = draw(mlcm_strategies.targets(max_samples=10, max_labels=4))
    n, q = y_true.shape
    values = st.lists(st.sampled_from(TIED_SCORES), min_size=n * q, max_size=n * q)
    y_score = np.array(draw(values)).reshape(n, q)
    weight = draw(st.one_of(st.none(), mlcm_strategies.weights(n)))
    return y_true, y_score, weight


# -- the search against brute force -----------------------------------------------


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_search_matches_brute_force_oracle(mlcm_strategies, data):
    """The margins' search (global grid, then per-label coordinate ascent)
    finds the thresholds, score and grid scores of a brute-force search that
    makes every candidate's predictions with decide_labels and scores them
    with the public score function: every metric and average, both matrices,
    weights, top_k and at_least_one, and instances taken in blocks."""
    y_true, y_score, weight = data.draw(tuning_cases(mlcm_strategies))
    q = y_true.shape[1]
    metric = data.draw(st.sampled_from(sorted(SCORE_FUNCTIONS)))
    average = data.draw(st.sampled_from(("macro", "micro", "weighted", "micro_all")))
    method = data.draw(st.sampled_from(("heydarian", "krstinic")))
    zero_division = data.draw(st.sampled_from((0.0, 1.0, np.nan)))
    top_k = data.draw(st.one_of(st.none(), st.integers(1, q)))
    at_least_one = data.draw(st.booleans())
    per_label = data.draw(st.booleans())
    options = {"beta": 2.0} if metric == "fbeta" else {}
    objective = MarginObjective(
        y_true,
        weight,
        metric=metric,
        average=average,
        method=method,
        zero_division=zero_division,
        block_rows=data.draw(st.sampled_from((None, 1, 3))),  # rows at a time
        **options,
    )

    def score(y_pred):
        return SCORE_FUNCTIONS[metric](
            y_true,
            y_pred,
            average=average,
            method=method,
            sample_weight=weight,
            zero_division=zero_division,
        )

    result = search_thresholds(
        objective,
        y_score,
        GRID,
        [GRID] * q,
        per_label=per_label,
        top_k=top_k,
        at_least_one=at_least_one,
        max_sweeps=3,
    )
    thresholds, best, grid_scores, sweeps = threshold_search_oracle(
        score,
        y_score,
        GRID,
        [GRID] * q,
        per_label=per_label,
        top_k=top_k,
        at_least_one=at_least_one,
        max_sweeps=3,
    )
    assert_allclose(result.grid_scores, grid_scores, atol=1e-12)
    assert_array_equal(result.thresholds, thresholds)
    assert result.score == pytest.approx(best, abs=1e-12)
    assert result.n_sweeps == sweeps


@pytest.mark.parametrize("top_k", [None, 1])
def test_counts_that_are_zero_stay_zero_beside_large_weights(top_k):
    """A count that is exactly 0 is computed as 0, not as the rounding error
    of large weights (1 beside 1.8e-15): the margins at each candidate are
    sums of non-negative amounts, never differences (found by hypothesis on
    NumPy 1.23, where a rounding residue gave an empty label an F1 of
    0.001)."""
    y_true = np.array([[0, 0], [0, 0], [0, 0], [0, 1], [0, 0]], dtype=bool)
    y_score = np.array([[0, 0], [0, 0], [0, 0], [0, 0.1], [0, 0]])
    weight = np.array([0.0, 1.0, 0.0, 1.779826286352204e-15, 0.0])
    grid = np.array([0.0, 0.1, 0.5])
    objective = MarginObjective(
        y_true, weight, metric="f1", average="macro", method="heydarian"
    )
    result = search_thresholds(
        objective,
        y_score,
        grid,
        [grid] * 2,
        per_label=True,
        top_k=top_k,
        at_least_one=False,
    )
    # label 1's one true instance predicted, nothing else predicted as
    # label 1 (F1 1); label 0 never true (F1 0, whatever is predicted)
    assert result.score == 0.5

    def score(y_pred):
        return mlcm_f1_score(y_true, y_pred, sample_weight=weight, zero_division=0)

    thresholds, best, grid_scores, _ = threshold_search_oracle(
        score,
        y_score,
        grid,
        [grid] * 2,
        per_label=True,
        top_k=top_k,
        at_least_one=False,
        max_sweeps=10,
    )
    assert_array_equal(result.thresholds, thresholds)
    assert_array_equal(result.grid_scores, grid_scores)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_per_label_search_never_ends_below_its_global_start(mlcm_strategies, data):
    """The per-label thresholds score at least the best global threshold on
    the scores they were tuned on, and their score is that of their own
    predictions (not an artefact of the incremental margins)."""
    y_true, y_score, weight = data.draw(tuning_cases(mlcm_strategies))
    q = y_true.shape[1]
    top_k = data.draw(st.one_of(st.none(), st.integers(1, q)))
    objective = MarginObjective(
        y_true, weight, metric="f1", average="macro", method="heydarian"
    )
    grids = [np.linspace(y_score[:, j].min(), y_score[:, j].max(), 9) for j in range(q)]
    result = search_thresholds(
        objective, y_score, GRID, grids, per_label=True, top_k=top_k, at_least_one=False
    )
    assert result.score >= max(result.grid_scores) - 1e-12
    y_pred = decide_labels(y_score, threshold=result.thresholds, top_k=top_k)
    expected = mlcm_f1_score(y_true, y_pred, sample_weight=weight, zero_division=0.0)
    assert result.score == pytest.approx(expected, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_krstinic_margins_of_single_instances_match_the_kernel(mlcm_strategies, data):
    """The margins of each instance's fractional matrix, read off the set
    sizes, are the kernel's, in all four scenarios and with empty sets."""
    y_true, y_pred = data.draw(mlcm_strategies.targets())
    margins = krstinic_margins(y_true, y_pred)
    for i in range(y_true.shape[0]):
        cm = mlcm_confusion_matrix(
            y_true[i : i + 1], y_pred[i : i + 1], method="krstinic"
        )
        expected = np.stack([np.diag(cm), cm.sum(axis=1), cm.sum(axis=0)])
        assert_allclose(margins[i], expected, atol=1e-12)


def test_scorer_objective_matches_margin_objective():
    """The slow path (a scorer called on the predictions) scores every
    candidate as the margins do."""
    rng = np.random.default_rng(0)
    y_true = rng.random((30, 3)) < 0.4
    y_score = rng.random((30, 3)).round(1)
    slow = ScorerObjective(make_mlcm_scorer("recall", average="weighted"), y_true, {})
    fast = MarginObjective(
        y_true, None, metric="recall", average="weighted", method="heydarian"
    )
    for per_label in (False, True):
        results = [
            search_thresholds(
                objective,
                y_score,
                GRID,
                [GRID] * 3,
                per_label=per_label,
                top_k=None,
                at_least_one=True,
            )
            for objective in (slow, fast)
        ]
        assert_allclose(results[0].grid_scores, results[1].grid_scores)
        assert_array_equal(results[0].thresholds, results[1].thresholds)


# -- the estimator's tuning --------------------------------------------------------


def test_prefit_tuning_is_a_brute_force_over_the_grid():
    """With cv="prefit" the thresholds are tuned on the scores of the data
    given to fit: the best global threshold is the grid's best for the MLCM
    macro F1 of decide_labels' predictions, and best_score_ is the scorer's
    value of the tuned estimator on those data."""
    rng = np.random.default_rng(1)
    y_true = (rng.random((60, 4)) < 0.35).astype(int)
    y_score = np.clip(y_true * 0.3 + rng.random((60, 4)) * 0.7, 0, 1)
    fixed, X = _fixed(y_score)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed,
        strategy="global",
        cv="prefit",
        refit=False,
        thresholds=GRID,
        store_cv_results=True,
    ).fit(X, y_true)
    expected = [
        mlcm_f1_score(y_true, decide_labels(y_score, threshold=g), zero_division=0.0)
        for g in GRID
    ]
    assert_allclose(tuned.cv_results_["scores"], expected)
    assert tuned.best_threshold_ == GRID[int(np.argmax(expected))]
    assert tuned.best_score_ == pytest.approx(max(expected))
    assert tuned.best_score_ == pytest.approx(make_mlcm_scorer()(tuned, X, y_true))
    assert tuned.estimator_ is fixed


def test_per_label_cv_results_are_the_profiles_at_the_final_thresholds():
    """cv_results_ of a converged per-label search: each label's candidates,
    and the score of each with the other labels at their final thresholds,
    whose best is best_score_ at best_threshold_."""
    rng = np.random.default_rng(2)
    y_true = (rng.random((80, 3)) < 0.4).astype(int)
    y_score = np.clip(y_true * 0.25 + rng.random((80, 3)) * 0.75, 0, 1)
    fixed, X = _fixed(y_score)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed,
        cv="prefit",
        refit=False,
        thresholds=9,
        strategy="per_label",
        store_cv_results=True,
    ).fit(X, y_true)
    results = tuned.cv_results_
    assert results["label_thresholds"].shape == results["label_scores"].shape == (9, 3)
    assert results["n_sweeps"] >= 1
    for j in range(3):
        assert_allclose(
            results["label_thresholds"][:, j],
            np.linspace(y_score[:, j].min(), y_score[:, j].max(), 9),
        )
        for k, candidate in enumerate(results["label_thresholds"][:, j]):
            thresholds = tuned.best_threshold_.copy()
            thresholds[j] = candidate
            y_pred = decide_labels(y_score, threshold=thresholds)
            assert results["label_scores"][k, j] == pytest.approx(
                mlcm_f1_score(y_true, y_pred, zero_division=0.0)
            )
        assert results["label_scores"][:, j].max() == pytest.approx(tuned.best_score_)
    assert tuned.best_score_ >= results["scores"].max()
    assert tuned.best_threshold_.dtype == np.float64


def test_thresholds_are_tuned_on_out_of_fold_scores():
    """Honest tuning: the thresholds and best_score_ are those of a grid
    search on cross_val_predict's out-of-fold probabilities (shuffled 5-fold,
    seeded by random_state), never on the scores of the refitted model."""
    X, y = _data()
    estimator = OneVsRestClassifier(LogisticRegression())
    tuned = MLCMTunedThresholdClassifierCV(
        estimator,
        strategy="global",
        random_state=3,
        thresholds=21,
        store_cv_results=True,
    ).fit(X, y)
    oof = cross_val_predict(
        estimator,
        X,
        y,
        cv=KFold(5, shuffle=True, random_state=3),
        method="predict_proba",
    )
    grid = np.linspace(oof.min(), oof.max(), 21)
    expected = [
        mlcm_f1_score(y, decide_labels(oof, threshold=g), zero_division=0.0)
        for g in grid
    ]
    assert_allclose(tuned.cv_results_["thresholds"], grid)
    assert_allclose(tuned.cv_results_["scores"], expected)
    assert tuned.best_threshold_ == pytest.approx(grid[int(np.argmax(expected))])
    refit = clone(estimator).fit(X, y)
    assert_allclose(tuned.estimator_.predict_proba(X), refit.predict_proba(X))
    y_pred = decide_labels(refit.predict_proba(X), threshold=tuned.best_threshold_)
    assert_array_equal(tuned.predict(X), y_pred)


# -- the thresholds of each fold ----------------------------------------------------


def _three_folds(n):
    """Explicit (train, test) splits of n rows into three unshuffled folds."""
    return [
        (np.setdiff1d(np.arange(n), test), test)
        for test in np.array_split(np.arange(n), 3)
    ]


def test_fold_thresholds_global_are_each_folds_curve_argmax():
    """strategy="global": fold_thresholds_ has shape (n_folds,), and each
    entry is the first best threshold of the MLCM macro F1 curve of that
    fold's held-out rows alone, over the pooled tuning's candidates."""
    rng = np.random.default_rng(5)
    y_true = (rng.random((90, 4)) < 0.35).astype(int)
    y_score = np.clip(y_true * 0.3 + rng.random((90, 4)) * 0.7, 0, 1)
    fixed, X = _fixed(y_score)
    folds = _three_folds(90)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed, strategy="global", cv=folds, thresholds=15, store_cv_results=True
    ).fit(X, y_true)
    grid = tuned.cv_results_["thresholds"]
    assert tuned.fold_thresholds_.shape == (3,)
    for row, (_, test) in zip(tuned.fold_thresholds_, folds):
        curve = mlcm_threshold_curve(
            y_true[test], y_score[test], thresholds=grid, zero_division=0.0
        )
        assert row == grid[int(np.argmax(curve.scores))]


def test_fold_thresholds_per_label_are_each_folds_own_search():
    """strategy="per_label": fold_thresholds_ has shape (n_folds, n_labels),
    and each row is the brute-force search on that fold's held-out rows
    alone (the same global and per-label candidates as the pooled tuning);
    best_threshold_ and best_score_ stay the pooled tuning's."""
    rng = np.random.default_rng(6)
    y_true = (rng.random((60, 3)) < 0.4).astype(int)
    y_score = np.clip(y_true * 0.25 + rng.random((60, 3)) * 0.75, 0, 1)
    fixed, X = _fixed(y_score)
    folds = _three_folds(60)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed, cv=folds, thresholds=7, store_cv_results=True
    ).fit(X, y_true)
    grid = tuned.cv_results_["thresholds"]
    label_grids = list(tuned.cv_results_["label_thresholds"].T)
    assert tuned.fold_thresholds_.shape == (3, 3)
    for row, (_, test) in zip(tuned.fold_thresholds_, folds):
        expected, *_ = threshold_search_oracle(
            partial(mlcm_f1_score, y_true[test], zero_division=0.0),
            y_score[test],
            grid,
            label_grids,
            per_label=True,
            top_k=None,
            at_least_one=False,
            max_sweeps=10,
        )
        assert_allclose(row, expected)
    pooled, best, *_ = threshold_search_oracle(
        partial(mlcm_f1_score, y_true, zero_division=0.0),
        y_score,
        grid,
        label_grids,
        per_label=True,
        top_k=None,
        at_least_one=False,
        max_sweeps=10,
    )
    assert_allclose(tuned.best_threshold_, pooled)
    assert tuned.best_score_ == pytest.approx(best)


@pytest.mark.parametrize("strategy", ["global", "per_label"])
def test_fold_thresholds_of_a_cross_validated_estimator(strategy):
    """An int cv: one row per fold of the shuffled KFold, within each label's
    candidates; the spread summarises the rows."""
    X, y = _data(n=150)
    tuned = MLCMTunedThresholdClassifierCV(
        OneVsRestClassifier(LogisticRegression()),
        strategy=strategy,
        cv=4,
        random_state=0,
        thresholds=21,
    ).fit(X, y)
    shape = (4,) if strategy == "global" else (4, y.shape[1])
    assert tuned.fold_thresholds_.shape == shape
    assert tuned.fold_thresholds_.dtype == np.float64
    spread = tuned.threshold_spread_
    assert spread.n_folds == 4
    assert_allclose(spread.low, tuned.fold_thresholds_.min(axis=0))
    assert_allclose(spread.high, tuned.fold_thresholds_.max(axis=0))
    assert_allclose(spread.median, np.median(tuned.fold_thresholds_, axis=0))
    assert_allclose(spread.range, np.ptp(tuned.fold_thresholds_, axis=0))
    assert np.shape(spread.unstable) == np.shape(tuned.best_threshold_)


@pytest.mark.parametrize(
    "cv, refit", [(0.3, True), (0.3, False), ("prefit", False)], ids=str
)
def test_fold_thresholds_of_one_fold_say_the_spread_cannot_be_judged(cv, refit):
    """One split (a float cv or "prefit"): one row, the tuned thresholds;
    the spread says it cannot be judged (range NaN, unstable None) rather
    than showing a zero spread."""
    X, y = _data()
    estimator = OneVsRestClassifier(LogisticRegression())
    if cv == "prefit":
        estimator.fit(X, y)
    tuned = MLCMTunedThresholdClassifierCV(
        estimator, cv=cv, refit=refit, random_state=0
    ).fit(X, y)
    assert tuned.fold_thresholds_.shape == (1, y.shape[1])
    assert_array_equal(tuned.fold_thresholds_[0], tuned.best_threshold_)
    spread = tuned.threshold_spread_
    assert spread.n_folds == 1
    assert spread.unstable is None
    assert np.isnan(spread.range).all()
    text = repr(spread)
    assert text.splitlines()[0] == (
        "ThresholdSpread: spread across folds cannot be judged (one fold)"
    )
    assert "range" not in text and "stable" not in text
    assert spread.to_frame()["unstable"].tolist() == [None] * y.shape[1]


def test_threshold_spread_flags_a_label_whose_folds_disagree():
    """Label 0 separates at 0.8 in one fold and at 0.2 in the other (range
    0.6 > 0.2 of the grid's span 1): unstable; label 1 separates at 0.5 in
    both: stable. The summary and the frame say so."""
    y_true = np.zeros((20, 2), dtype=int)
    y_true[:, 0] = np.tile([1, 0], 10)
    y_true[:, 1] = np.tile([0, 1], 10)
    y_score = np.zeros((20, 2))
    y_score[:10, 0] = np.where(y_true[:10, 0], 0.85, 0.7)
    y_score[10:, 0] = np.where(y_true[10:, 0], 0.3, 0.1)
    y_score[:, 1] = np.where(y_true[:, 1], 0.55, 0.45)
    fixed, X = _fixed(y_score)
    first, second = np.arange(10), np.arange(10, 20)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed, cv=[(second, first), (first, second)], thresholds=GRID
    ).fit(X, y_true)
    assert_allclose(tuned.fold_thresholds_, [[0.8, 0.5], [0.2, 0.5]])
    spread = tuned.threshold_spread_
    assert_array_equal(spread.unstable, [True, False])
    assert_allclose(spread.span, [1.0, 1.0])
    assert_allclose(spread.range, [0.6, 0.0])
    lines = repr(spread).splitlines()
    assert lines[0] == (
        "ThresholdSpread: 1 of 2 label thresholds unstable across 2 folds"
    )
    assert lines[3].split() == [
        "0",
        "0.8000",
        "0.2000",
        "0.5000",
        "0.8000",
        "0.6000",
        "unstable",
    ]
    assert lines[4].split()[-1] == "stable"
    frame = spread.to_frame(target_names=["moving", "steady"])
    assert frame.loc["moving", "unstable"] is True
    assert frame.loc["steady", "unstable"] is False
    assert list(frame.columns) == [
        "tuned",
        "low",
        "median",
        "high",
        "range",
        "unstable",
    ]


def test_threshold_spread_rule_reads_each_labels_span():
    """Unstable: the folds' range above 0.2 of the label's own span of
    candidates (0.21 of 1 is, 0.19 of 1 is not, 0.3 of 2 is not, 0.3 of 1
    is); a global threshold gives one bool."""
    spread = ThresholdSpread(
        np.array([[0.40, 0.40, 0.1, 0.1], [0.61, 0.59, 0.4, 0.4]]),
        np.array([0.5, 0.5, 0.2, 0.2]),
        np.array([0.0, 0.0, -1.0, 0.0]),
        np.array([1.0, 1.0, 1.0, 1.0]),
    )
    assert_array_equal(spread.unstable, [True, False, False, True])
    assert spread.n_folds == 2
    one = ThresholdSpread(np.array([0.2, 0.5]), 0.3, 0.0, 1.0)
    assert one.unstable is True
    assert one.range == pytest.approx(0.3)
    assert repr(one).splitlines()[0] == (
        "ThresholdSpread: global threshold unstable across 2 folds"
    )


@pytest.mark.parametrize(
    "estimator",
    [
        KNeighborsClassifier(n_neighbors=5),
        RandomForestClassifier(n_estimators=10, random_state=0),
        MLPClassifier(hidden_layer_sizes=(8,), max_iter=50, random_state=0),
        OneVsRestClassifier(LogisticRegression()),
        MultiOutputClassifier(LogisticRegression()),
        ClassifierChain(LogisticRegression(), random_state=0),
        make_pipeline(StandardScaler(), KNeighborsClassifier()),
        OneVsRestClassifier(LinearSVC(dual=True)),  # no FutureWarning in 1.4
    ],
    ids=lambda e: type(e).__name__,
)
@pytest.mark.parametrize("strategy", ["global", "per_label"])
def test_wraps_multilabel_classifiers(estimator, strategy):
    """Native multi-label estimators (probabilities as a list of (n, 2)
    arrays), one-vs-rest, multi-output, chains, pipelines and margins: the
    predictions are decide_labels' of the class-1 scores at the tuned
    thresholds, int64 of y's shape; the other methods delegate."""
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        tuned = MLCMTunedThresholdClassifierCV(
            estimator, strategy=strategy, random_state=0
        ).fit(X, y)
    y_pred = tuned.predict(X)
    assert y_pred.shape == y.shape and y_pred.dtype == np.int64
    assert 0.0 <= tuned.best_score_ <= 1.0
    assert np.shape(tuned.best_threshold_) == (() if strategy == "global" else (4,))
    if hasattr(estimator, "predict_proba"):
        proba = tuned.predict_proba(X)
        raw = tuned.estimator_.predict_proba(X)
        if isinstance(proba, list):
            for mine, theirs in zip(proba, raw):
                assert_array_equal(mine, theirs)
            scores = np.column_stack([p[:, 1] for p in proba])
        else:
            assert_array_equal(proba, raw)
            scores = proba
    else:
        scores = tuned.decision_function(X)
        assert not hasattr(tuned, "predict_proba")
        assert_array_equal(scores, tuned.estimator_.decision_function(X))
    assert hasattr(tuned, "decision_function") == hasattr(
        estimator, "decision_function"
    )
    assert_array_equal(y_pred, decide_labels(scores, threshold=tuned.best_threshold_))
    assert tuned.n_features_in_ == X.shape[1]


def test_labels_with_one_class_in_training_score_zero_or_one():
    """A label never (or always) true in training has one probability column
    in native multi-label estimators: its class-1 score is 0 (or 1)."""
    X, y = _data(q=3)
    y[:, 1] = 0
    y[:, 2] = 1
    tuned = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), strategy="per_label", random_state=0
    ).fit(X, y)
    y_pred = tuned.predict(X)
    assert not y_pred[:, 1].any() and y_pred[:, 2].all()


def test_top_k_and_at_least_one_shape_the_predictions():
    """At most top_k labels, and at least one, per instance."""
    X, y = _data(q=5)
    tuned = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(),
        thresholds=np.linspace(0, 1, 11),
        top_k=2,
        at_least_one=True,
        strategy="per_label",
        random_state=0,
    ).fit(X, y)
    sizes = tuned.predict(X).sum(axis=1)
    assert sizes.max() <= 2 and sizes.min() >= 1


def test_hold_out_split_and_refit():
    """A float cv holds that fraction out for the tuning; with refit=False
    predict uses the model fitted on the rest, with refit=True one fitted on
    everything."""
    X, y = _data(n=100)
    kept = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), cv=0.3, refit=False, random_state=0
    ).fit(X, y)
    assert kept.estimator_.n_samples_fit_ == 70
    refit = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), cv=0.3, random_state=0
    ).fit(X, y)
    assert refit.estimator_.n_samples_fit_ == 100
    assert_array_equal(refit.best_threshold_, kept.best_threshold_)


def test_cv_as_splits_and_splitter():
    """cv given as a splitter or as a list of (train, test) splits that
    partition the data gives the same tuning."""
    X, y = _data()
    splitter = KFold(4, shuffle=True, random_state=1)
    a = MLCMTunedThresholdClassifierCV(KNeighborsClassifier(), cv=splitter).fit(X, y)
    b = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), cv=list(splitter.split(X))
    ).fit(X, y)
    assert_array_equal(a.best_threshold_, b.best_threshold_)
    assert a.best_score_ == b.best_score_
    # a generator of splits, as the docstring's "iterable" and scikit-learn's
    # cv take it (it was refused as not an array-like)
    c = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), cv=splitter.split(X)
    ).fit(X, y)
    assert_array_equal(c.best_threshold_, a.best_threshold_)
    with pytest.raises(InvalidParameterError, match="'cv' parameter .* iterable"):
        MLCMTunedThresholdClassifierCV(KNeighborsClassifier(), cv="kfold").fit(X, y)


def test_parallel_folds_tune_alike():
    """n_jobs fits the folds in parallel, with the same result."""
    X, y = _data()
    fits = [
        MLCMTunedThresholdClassifierCV(
            KNeighborsClassifier(), random_state=2, n_jobs=n_jobs
        ).fit(X, y)
        for n_jobs in (None, 2)
    ]
    assert_array_equal(fits[0].best_threshold_, fits[1].best_threshold_)
    assert fits[0].best_score_ == fits[1].best_score_


def test_feature_names_are_the_estimators():
    """A DataFrame's column names are exposed as feature_names_in_, as the
    fitted estimator has them."""
    pd = pytest.importorskip("pandas")
    X, y = _data(n=60)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    tuned = MLCMTunedThresholdClassifierCV(
        RandomForestClassifier(n_estimators=5, random_state=0), random_state=0
    ).fit(frame, y)
    assert_array_equal(tuned.feature_names_in_, frame.columns)
    assert tuned.n_features_in_ == X.shape[1]
    assert tuned.predict(frame).shape == y.shape


def test_targets_as_sparse_matrix_and_frame_tune_alike():
    """y as a scipy sparse matrix or a DataFrame tunes as the array does."""
    pd = pytest.importorskip("pandas")
    from scipy import sparse

    X, y = _data()
    estimator = OneVsRestClassifier(LogisticRegression())
    fits = [
        MLCMTunedThresholdClassifierCV(estimator, random_state=0).fit(X, target)
        for target in (y, sparse.csr_matrix(y), pd.DataFrame(y, columns=list("abcd")))
    ]
    for other in fits[1:]:
        assert_array_equal(other.best_threshold_, fits[0].best_threshold_)
        assert_array_equal(other.predict(X), fits[0].predict(X))


def test_random_state_makes_the_tuning_repeat():
    """The same random_state gives the same folds, thresholds and scores."""
    X, y = _data()
    fits = [
        MLCMTunedThresholdClassifierCV(
            RandomForestClassifier(n_estimators=5, random_state=0),
            strategy="per_label",
            random_state=7,
            store_cv_results=True,
        ).fit(X, y)
        for _ in range(2)
    ]
    assert_array_equal(fits[0].best_threshold_, fits[1].best_threshold_)
    assert_array_equal(fits[0].cv_results_["scores"], fits[1].cv_results_["scores"])
    assert_array_equal(fits[0].predict(X), fits[1].predict(X))


def test_pickle_and_clone():
    """A fitted estimator pickles and predicts the same; clone gives an
    unfitted copy with the same parameters."""
    X, y = _data()
    tuned = MLCMTunedThresholdClassifierCV(
        KNeighborsClassifier(), strategy="per_label", top_k=2, random_state=0
    ).fit(X, y)
    restored = pickle.loads(pickle.dumps(tuned))
    assert_array_equal(restored.predict(X), tuned.predict(X))
    assert_array_equal(restored.best_threshold_, tuned.best_threshold_)
    copy = clone(tuned)
    assert copy.get_params()["top_k"] == 2
    assert not hasattr(copy, "best_threshold_")
    with pytest.raises(NotFittedError):
        copy.predict(X)


def test_in_grid_search_and_pipeline():
    """GridSearchCV tunes the inner estimator's parameters (each candidate
    tunes its thresholds in its own fit), and the estimator is a pipeline
    step."""
    X, y = _data()
    search = GridSearchCV(
        MLCMTunedThresholdClassifierCV(KNeighborsClassifier(), random_state=0),
        {"estimator__n_neighbors": [3, 9]},
        scoring=make_mlcm_scorer("f1"),
        cv=3,
    ).fit(X, y)
    assert search.best_params_["estimator__n_neighbors"] in (3, 9)
    assert hasattr(search.best_estimator_, "best_threshold_")
    pipe = make_pipeline(
        StandardScaler(), MLCMTunedThresholdClassifierCV(KNeighborsClassifier())
    ).fit(X, y)
    assert pipe.predict(X).shape == y.shape


def test_scikit_learn_scorer_is_called_per_candidate():
    """A scorer that the margins cannot read (scikit-learn's one-vs-rest
    macro F1; an MLCM scorer restricted to some labels; a samples average) is
    called on each candidate's predictions: the grid search of brute force."""
    rng = np.random.default_rng(4)
    y_true = (rng.random((50, 3)) < 0.4).astype(int)
    y_score = np.clip(y_true * 0.3 + rng.random((50, 3)) * 0.7, 0, 1)
    fixed, X = _fixed(y_score)
    for scorer in (
        get_scorer("f1_macro"),
        make_mlcm_scorer("f1", labels=[0, 2], zero_division=0.0),
        make_mlcm_scorer("precision", method="krstinic", zero_division=0.0),
        make_mlcm_scorer("f1", average="samples", zero_division=0.0),
    ):
        tuned = MLCMTunedThresholdClassifierCV(
            fixed,
            scoring=scorer,
            strategy="global",
            cv="prefit",
            refit=False,
            thresholds=GRID,
            store_cv_results=True,
        ).fit(X, y_true)
        expected = [scorer(FixedThreshold(fixed, g), X, y_true) for g in GRID]
        assert_allclose(tuned.cv_results_["scores"], expected)
        assert tuned.best_score_ == pytest.approx(max(expected))


@pytest.mark.parametrize(
    "scoring",
    [
        "mlcm_jaccard_macro",
        "mlcm_neg_false_positive_rate_micro",
        "mlcm_matthews_corrcoef_weighted",
    ],
)
@pytest.mark.parametrize("strategy", ["global", "per_label"])
def test_registry_scorer_read_off_the_margins_is_the_scorer(scoring, strategy):
    """A scorer of a registered statistic beyond the score functions (#31) is
    read off the margins (no call of the scorer), and tunes as the scorer
    called per candidate does: the same scores (an error rate negated, so
    its lowest rate is the best), thresholds and best_score_."""
    rng = np.random.default_rng(5)
    y_true = (rng.random((50, 3)) < 0.4).astype(int)
    y_score = np.clip(y_true * 0.3 + rng.random((50, 3)) * 0.7, 0, 1).round(1)
    fixed, X = _fixed(y_score)
    scorer = mlcm_scorers()[scoring]
    options = {
        "estimator": fixed,
        "strategy": strategy,
        "cv": "prefit",
        "refit": False,
        "thresholds": GRID,
        "store_cv_results": True,
    }
    tuner = MLCMTunedThresholdClassifierCV(**options, scoring=scoring)
    assert isinstance(tuner._objective(scorer, y_true, y_true, {}), MarginObjective)
    fast = tuner.fit(X, y_true)
    # a wrapper without _mlcm_options: the scorer called per candidate

    def called(estimator, X, y):
        return scorer(estimator, X, y)

    slow = MLCMTunedThresholdClassifierCV(**options, scoring=called).fit(X, y_true)
    assert_allclose(fast.cv_results_["scores"], slow.cv_results_["scores"])
    assert_array_equal(fast.best_threshold_, slow.best_threshold_)
    assert fast.best_score_ == pytest.approx(slow.best_score_)
    with warnings.catch_warnings():  # a grid's end predicts nothing or all
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert fast.best_score_ == pytest.approx(scorer(fast, X, y_true))
        expected = [scorer(FixedThreshold(fixed, g), X, y_true) for g in GRID]
    if strategy == "global":
        assert_allclose(fast.cv_results_["scores"], expected)
        assert fast.best_score_ == pytest.approx(max(expected))


def test_registry_scorer_in_grid_search_of_the_tuned_classifier():
    """GridSearchCV over the tuned classifier with the Jaccard scorer, each
    candidate tuning its thresholds for Jaccard by name (#31)."""
    X, y = _data()
    search = GridSearchCV(
        MLCMTunedThresholdClassifierCV(
            KNeighborsClassifier(), scoring="mlcm_jaccard_macro", random_state=0
        ),
        {"estimator__n_neighbors": [3, 9]},
        scoring=mlcm_scorers()["mlcm_jaccard_macro"],
        cv=3,
    ).fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert search.best_index_ == int(np.argmax(scores))
    assert np.all((scores >= 0) & (scores <= 1))
    assert hasattr(search.best_estimator_, "best_threshold_")


class FixedThreshold(ClassifierMixin, BaseEstimator):
    """A fitted classifier's probabilities at one threshold."""

    def __init__(self, estimator=None, threshold=0.5):
        self.estimator = estimator
        self.threshold = threshold

    @property
    def classes_(self):
        return self.estimator.classes_

    def predict(self, X):
        return decide_labels(self.estimator.predict_proba(X), threshold=self.threshold)


def test_convergence_warning_when_the_sweeps_run_out(monkeypatch):
    """A per-label search stopped by the sweep limit with thresholds still
    moving says so."""
    monkeypatch.setattr(tuned_module, "MAX_SWEEPS", 1)
    rng = np.random.default_rng(5)
    y_true = (rng.random((80, 4)) < 0.4).astype(int)
    y_score = np.clip(y_true * 0.2 + rng.random((80, 4)) * 0.8, 0, 1)
    fixed, X = _fixed(y_score)
    with pytest.warns(ConvergenceWarning, match="stopped after 1 sweeps"):
        MLCMTunedThresholdClassifierCV(
            fixed, cv="prefit", refit=False, strategy="per_label"
        ).fit(X, y_true)


def test_decision_function_thresholds_may_leave_zero_one():
    """With margins (decision_function) the thresholds are not probabilities:
    an explicit grid outside [0, 1] is taken."""
    rng = np.random.default_rng(6)
    y_true = (rng.random((40, 3)) < 0.4).astype(int)
    margins = y_true * 2.0 - 1.0 + rng.normal(0, 1, (40, 3))
    fixed, X = _fixed(margins, FixedMargins)
    grid = np.linspace(-2, 2, 9)
    tuned = MLCMTunedThresholdClassifierCV(
        fixed, cv="prefit", refit=False, thresholds=grid
    ).fit(X, y_true)
    assert np.isin(tuned.best_threshold_, grid).all()
    assert_array_equal(
        tuned.predict(X), decide_labels(margins, threshold=tuned.best_threshold_)
    )


@pytest.mark.parametrize("strategy", ["global", "per_label"])
def test_decision_function_beyond_float64_span_tunes_as_scaled_down(strategy):
    """Margins from -1.5 * 2**1023 to 1.5 * 2**1023 (a span that overflows
    float64) tune as the same margins scaled down: the thresholds scaled back
    up bit for bit and the same scores, without an overflow warning (the grid
    was [1.5e308, inf, nan], tuned to 1.5e308 with a score of 0.05)."""
    rng = np.random.default_rng(6)
    y_true = (rng.random((40, 3)) < 0.4).astype(int)
    margins = y_true * 2.0 - 1.0 + rng.normal(0, 1, (40, 3))
    margins = 1.5 * margins / np.abs(margins).max(axis=0)  # each label: +-1.5
    margins[0] = [-1.5, -1.5, -1.5]
    margins[1] = [1.5, 1.5, 1.5]
    tuned = {}
    for scale in (1.0, 2.0**1023):
        fixed, X = _fixed(margins * scale, FixedMargins)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tuned[scale] = MLCMTunedThresholdClassifierCV(
                fixed,
                cv="prefit",
                refit=False,
                strategy=strategy,
                store_cv_results=True,
            ).fit(X, y_true)
    plain, huge = tuned[1.0], tuned[2.0**1023]
    assert_array_equal(huge.best_threshold_, plain.best_threshold_ * 2.0**1023)
    assert huge.best_score_ == plain.best_score_
    assert huge.cv_results_.keys() == plain.cv_results_.keys()
    for key, values in plain.cv_results_.items():
        factor = 2.0**1023 if "thresholds" in key else 1.0
        assert_array_equal(huge.cv_results_[key], values * factor)
    assert_array_equal(huge.predict(X), plain.predict(X))


# -- metadata routing --------------------------------------------------------------


#: The sample weights WeightRecorder's fits received (clones share it).
WEIGHT_LOG = []


class WeightRecorder(ClassifierMixin, BaseEstimator):
    """k-NN that records the sample weights its fit received."""

    def fit(self, X, y, sample_weight=None):
        WEIGHT_LOG.append(None if sample_weight is None else np.asarray(sample_weight))
        self.knn_ = KNeighborsClassifier().fit(X, y)
        self.classes_ = self.knn_.classes_
        return self

    def predict_proba(self, X):
        return self.knn_.predict_proba(X)


def test_sample_weight_is_routed_to_the_estimator_and_the_scorer():
    """With metadata routing, sample_weight reaches the estimator's fit (each
    fold's part, then all of it) and the scorer, which tunes on the weighted
    MLCM: integer weights tune as repeated rows do."""
    X, y = _data(n=60)
    weight = np.random.default_rng(0).integers(1, 4, 60).astype(float)
    with sklearn.config_context(enable_metadata_routing=True):
        WEIGHT_LOG.clear()
        log = WEIGHT_LOG
        estimator = WeightRecorder().set_fit_request(sample_weight=True)
        scorer = make_mlcm_scorer("f1").set_score_request(sample_weight=True)
        MLCMTunedThresholdClassifierCV(
            estimator, scoring=scorer, cv=3, random_state=0
        ).fit(X, y, sample_weight=weight)
        assert [len(w) for w in log] == [40, 40, 40, 60]
        assert_array_equal(log[-1], weight)
        assert sorted(np.concatenate(log[:3])) == sorted(np.repeat(weight, 2))

    fixed, index = _fixed(np.random.default_rng(1).random((60, 4)))
    repeated = np.repeat(np.arange(60), weight.astype(int))
    with sklearn.config_context(enable_metadata_routing=True):
        weighted = MLCMTunedThresholdClassifierCV(
            fixed, scoring=scorer, cv="prefit", refit=False, strategy="per_label"
        ).fit(index, y, sample_weight=weight)
    plain = MLCMTunedThresholdClassifierCV(
        fixed, cv="prefit", refit=False, strategy="per_label"
    ).fit(index[repeated], y[repeated])
    assert_array_equal(weighted.best_threshold_, plain.best_threshold_)
    assert weighted.best_score_ == pytest.approx(plain.best_score_)
    with sklearn.config_context(enable_metadata_routing=True):
        unweighted = MLCMTunedThresholdClassifierCV(
            fixed, cv="prefit", refit=False, strategy="per_label"
        ).fit(index, y)  # routing on, no metadata
    assert unweighted.best_score_ == pytest.approx(
        MLCMTunedThresholdClassifierCV(
            fixed, cv="prefit", refit=False, strategy="per_label"
        )
        .fit(index, y)
        .best_score_
    )


@pytest.mark.parametrize("cv", [3, 0.3])
def test_routed_sample_weight_of_another_length_is_refused(cv):
    """A routed sample_weight of the wrong length is refused naming the
    training set's size: a fold's fit named the fold's size instead, or took
    it silently (this estimator ignores its length)."""
    X, y = _data(n=60)
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = WeightRecorder().set_fit_request(sample_weight=True)
        tuned = MLCMTunedThresholdClassifierCV(
            estimator, cv=cv, refit=cv == 3, random_state=0
        )
        with pytest.raises(
            InvalidInputError,
            match=r"'sample_weight' parameter .* n_samples=60. Got shape \(10,\)",
        ):
            tuned.fit(X, y, sample_weight=np.ones(10))


def test_metadata_without_routing_is_refused():
    """Metadata passed to fit without metadata routing is refused, as
    scikit-learn's TunedThresholdClassifierCV does."""
    X, y = _data(n=30)
    with pytest.raises(InvalidInputError, match="enable_metadata_routing=True"):
        MLCMTunedThresholdClassifierCV(KNeighborsClassifier()).fit(
            X, y, sample_weight=np.ones(30)
        )


# -- refusals -------------------------------------------------------------------------


class NoScores(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros((len(X), 2))


def _fit(y=None, **params):
    X, default_y = _data(n=40, q=3)
    estimator = params.pop("estimator", KNeighborsClassifier())
    return MLCMTunedThresholdClassifierCV(estimator, **params).fit(
        X, default_y if y is None else y
    )


@pytest.mark.parametrize(
    "params, error, match",
    [
        (
            {"estimator": NoScores()},
            InvalidParameterError,
            "'estimator' parameter of MLCMTunedThresholdClassifierCV must be an "
            "object implementing 'fit' and 'predict_proba'",
        ),
        (
            {"response_method": "decision_function"},
            InvalidParameterError,
            "KNeighborsClassifier has no 'decision_function'",
        ),
        ({"thresholds": [0.2, 0.6, 0.4]}, InvalidInputError, "strictly increasing"),
        ({"thresholds": [0.5, 0.5]}, InvalidInputError, "strictly increasing"),
        ({"thresholds": [[0.2, 0.4]]}, InvalidInputError, "1-D array"),
        ({"thresholds": [0.2, np.nan]}, InvalidInputError, "finite numbers"),
        (
            {"thresholds": [-0.5, 0.5, 1.5]},
            InvalidInputError,
            r"within \[0, 1\] for probabilities",
        ),
        ({"top_k": 4}, InvalidInputError, "at most the number of labels, 3"),
        (
            {"thresholds": 10**12},
            InvalidInputError,
            "'thresholds' parameter .* fewer for 3 labels",
        ),
        ({"scoring": "f1_macro"}, InvalidParameterError, "'scoring' parameter"),
        ({"strategy": "each"}, InvalidParameterError, "'strategy' parameter"),
        ({"cv": "prefit"}, InvalidParameterError, "'refit' parameter .* cv='prefit'"),
        ({"cv": 3, "refit": False}, InvalidParameterError, "'refit' parameter"),
        (
            {"cv": ShuffleSplit(3, random_state=0)},
            InvalidParameterError,
            "test folds partition the training instances",
        ),
        ({"cv": 1}, InvalidParameterError, "'cv' parameter"),
        (
            {"n_jobs": 0},
            InvalidParameterError,
            r"'n_jobs' parameter of MLCMTunedThresholdClassifierCV must be an int "
            r"in the range \(-inf, -1\] or an int in the range \[1, inf\) or None",
        ),
    ],
)
def test_invalid_settings_are_refused(params, error, match):
    """Each invalid setting is refused at fit with a message naming it."""
    with pytest.raises(error, match=match):
        _fit(**params)


@pytest.mark.parametrize(
    "y, match",
    [
        (np.array([0, 1] * 20), r"2-D 0/1 indicator matrix .* Got binary targets"),
        (np.array([[0, 2, 1]] * 40), "must contain only 0 and 1; found 2"),
        (np.full((40, 3), 0.3), "Got continuous-multioutput targets"),
        (np.ones((40, 3)) * 1j, "Complex data not supported"),
    ],
)
def test_targets_other_than_indicators_are_refused(y, match):
    """1-D targets and other values than 0 and 1 are refused."""
    with pytest.raises(InvalidInputError, match=match):
        _fit(y=y)


def test_estimator_without_class_values_for_sparse_targets_is_refused():
    """An estimator that fits sparse y without learning it (k-NN keeps the
    sparse columns as its classes_) gets a clear error, not SciPy's
    truth-value error."""
    from scipy import sparse

    X, y = _data()
    with pytest.raises(InvalidInputError, match=r"classes_ .*y\.toarray\(\)"):
        MLCMTunedThresholdClassifierCV(KNeighborsClassifier(), random_state=0).fit(
            X, sparse.csr_matrix(y)
        )


def test_missing_target_is_refused():
    """fit without y says that y is required."""
    X, _ = _data(n=20)
    with pytest.raises(InvalidInputError, match="requires y to be passed"):
        MLCMTunedThresholdClassifierCV(KNeighborsClassifier()).fit(X, None)


@pytest.mark.parametrize(
    "value, match",
    [(np.nan, "contains NaN"), (np.inf, "must contain only 0 and 1; found inf")],
)
def test_non_finite_targets_are_refused_without_a_warning(value, match):
    """Targets of NaN or infinity are refused with the error only: no
    RuntimeWarning of the cast that names their kind comes first."""
    X, _ = _data(n=20)
    for shape in ((20, 1), (20, 2)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(InvalidInputError, match=match):
                MLCMTunedThresholdClassifierCV(KNeighborsClassifier()).fit(
                    X, np.full(shape, value)
                )


def test_nan_scores_are_refused():
    """Non-finite scores from the estimator are refused, at fit and at
    predict, naming the instance and label."""
    scores = np.full((10, 2), 0.5)
    scores[3, 1] = np.nan
    fixed, X = _fixed(scores)
    y = np.zeros((10, 2), dtype=int)
    with pytest.raises(
        InvalidInputError, match="finite scores. Got nan for instance 3"
    ):
        MLCMTunedThresholdClassifierCV(fixed, cv="prefit", refit=False).fit(X, y)
    tuned = MLCMTunedThresholdClassifierCV(
        FixedScores(np.full((10, 2), 0.5)).fit(None, None), cv="prefit", refit=False
    ).fit(X, y)
    tuned.estimator_.scores = scores
    with pytest.raises(InvalidInputError, match="finite scores"):
        tuned.predict(X)


def test_probabilities_outside_zero_one_are_refused():
    """predict_proba values outside [0, 1] are refused: thresholds in [0, 1]
    would not mean what they say."""
    fixed, X = _fixed(np.full((10, 2), 1.5))
    with pytest.raises(InvalidInputError, match=r"probabilities in \[0, 1\]"):
        MLCMTunedThresholdClassifierCV(fixed, cv="prefit", refit=False).fit(
            X, np.zeros((10, 2), dtype=int)
        )


def test_unfitted_prefit_estimator_is_refused():
    """cv="prefit" needs a fitted estimator."""
    X, y = _data(n=20)
    with pytest.raises(NotFittedError, match="must be fitted"):
        MLCMTunedThresholdClassifierCV(
            KNeighborsClassifier(), cv="prefit", refit=False
        ).fit(X, y)


def test_scores_of_another_number_of_labels_are_refused():
    """An estimator whose scores have another number of columns than y has
    labels is refused."""
    fixed, X = _fixed(np.full((10, 3), 0.5))
    with pytest.raises(InvalidInputError, match="one score per label"):
        MLCMTunedThresholdClassifierCV(fixed, cv="prefit", refit=False).fit(
            X, np.zeros((10, 2), dtype=int)
        )


# -- scikit-learn's estimator checks -------------------------------------------------


def _expected_failed_checks(estimator):
    return tuned_module.EXPECTED_FAILED_CHECKS


_CHECK_OPTIONS = (
    {"expected_failed_checks": _expected_failed_checks}
    if SKLEARN_VERSION >= (1, 6)
    else {}
)


@parametrize_with_checks(
    [MLCMTunedThresholdClassifierCV(OneVsRestClassifier(LogisticRegression()))],
    **_CHECK_OPTIONS,
)
def test_scikit_learn_estimator_checks(estimator, check, monkeypatch):
    """scikit-learn's common checks pass, but those listed (with the reason)
    in EXPECTED_FAILED_CHECKS (before 1.6: the ``_xfail_checks`` tag). The
    array-API check (scikit-learn 1.9: NumPy input with array API dispatch
    on gives the same results) runs only when SCIPY_ARRAY_API is set, as in
    scikit-learn's own test suite; it is set for it here, so that it runs."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (ConvergenceWarning, UserWarning))
        check(estimator)
