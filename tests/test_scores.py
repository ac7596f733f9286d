"""Scores and scorers, with real scikit-learn model selection as the client."""

import pickle
import warnings

import numpy as np
import pytest
import sklearn
import sklearn.metrics
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from report_reading import report_cells
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_multilabel_classification
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import classification_report, precision_recall_fscore_support
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    cross_val_score,
    cross_validate,
)
from sklearn.multioutput import ClassifierChain, MultiOutputClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    confusion_matrix_statistics,
    make_mlcm_scorer,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_precision_recall_fscore_support,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_scorers,
    mlcm_specificity_score,
)
from sklearn_mlcm._statistics import STATISTICS, matrix_scores

# Heydarian et al. (2022), Table 1
T, P = TABLE_1_TRUE, TABLE_1_PRED

SCORES = {
    "precision": mlcm_precision_score,
    "recall": mlcm_recall_score,
    "f1-score": mlcm_f1_score,
}
_CHAIN_PARAM = (
    "estimator"
    if "estimator" in ClassifierChain(LogisticRegression()).get_params(deep=False)
    else "base_estimator"
)


@pytest.fixture(scope="module")
def multilabel_data():
    X, y = make_multilabel_classification(
        n_samples=150, n_features=8, n_classes=4, random_state=0
    )
    return X, y


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("include_no_label", [False, True])
def test_scores_equal_report_numbers(method, include_no_label):
    """Every score equals the report's number, per label and for each average."""
    kwargs = {
        "method": method,
        "include_no_label": include_no_label,
        "zero_division": 0.0,
    }
    report = mlcm_classification_report(T, P, output_dict=True, **kwargs)
    names = [k for k in report if not k.endswith("avg")]
    for column, score in SCORES.items():
        per_label = score(T, P, average=None, **kwargs)
        assert per_label.dtype == np.float64
        assert_allclose(per_label, [report[n][column] for n in names])
        for average in ("micro", "macro", "weighted"):
            value = score(T, P, average=average, **kwargs)
            assert type(value) is float
            assert value == report[f"{average} avg"][column]


def test_scores_table_1_by_hand():
    """Heydarian et al. (2022), Table 1 / Table 4 (j): scores by hand."""
    # C = [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]
    assert_allclose(mlcm_precision_score(T, P, average=None), [1, 2 / 5, 1 / 9])
    assert_allclose(mlcm_recall_score(T, P, average=None), [5 / 11, 2 / 6, 1])
    assert_allclose(mlcm_f1_score(T, P, average=None), [10 / 16, 4 / 11, 2 / 10])
    spec = mlcm_specificity_score(T, P, average=None, tn="diagonal")
    assert_allclose(spec, [4 / 4, 7 / 10, 8 / 16])  # Heydarian's eq. 16
    # complement TN (the default): 21 - TP - FP - FN per label
    spec = mlcm_specificity_score(T, P, average=None)
    assert_allclose(spec, [10 / 10, 12 / 15, 12 / 20])
    assert mlcm_precision_score(T, P, average="micro_all") == pytest.approx(9 / 21)
    # the q labels pooled: TP 8, FP 11 (columns 5 + 5 + 9 less 8), FN 10
    assert mlcm_precision_score(T, P, average="micro") == pytest.approx(8 / 19)
    assert mlcm_recall_score(T, P, average="micro") == pytest.approx(8 / 18)
    assert mlcm_f1_score(T, P, average="micro") == pytest.approx(16 / 37)
    assert mlcm_f1_score(T, P, average="weighted") == pytest.approx(
        (11 * 10 / 16 + 6 * 4 / 11 + 1 * 2 / 10) / 18
    )


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_mlcm_fbeta_score_micro_all_is_trace_over_sum(beta):
    """Heydarian's micro F-beta (all q+1 indices) is trace / sum for every
    beta (FN and FP totals agree)."""
    cm = mlcm_confusion_matrix(T, P)
    micro = mlcm_fbeta_score(T, P, beta=beta, average="micro_all")
    assert micro == pytest.approx(np.trace(cm) / cm.sum())


def test_mlcm_fbeta_score_beta_one_is_f1():
    """beta=1 gives the F1 score."""
    assert_allclose(
        mlcm_fbeta_score(T, P, beta=1.0, average=None),
        mlcm_f1_score(T, P, average=None),
    )


def test_scores_labels_and_weights():
    """labels and sample_weight reach the matrix."""
    weight = [1, 2, 1, 1, 1, 1, 3, 1, 1]
    value = mlcm_recall_score(T, P, labels=[1], sample_weight=weight, average=None)
    cm = mlcm_confusion_matrix(T, P, labels=[1], sample_weight=weight)
    assert_allclose(value, [cm[0, 0] / cm[0].sum()])


@pytest.mark.parametrize("score", [*SCORES.values(), mlcm_specificity_score])
def test_scores_bad_average(score):
    """An unknown average is refused with the options."""
    with pytest.raises(ValueError, match=r"'average' parameter of mlcm_\w+ must be"):
        score(T, P, average="binary")


def test_mlcm_specificity_score_refuses_samples():
    """Specificity has no samples average (scikit-learn has none either): it
    is refused, naming the averages it takes."""
    message = (
        r"The 'average' parameter of mlcm_specificity_score must be one of "
        r"\{.*'micro_all'.*\} or None. Got 'samples' instead."
    )
    with pytest.raises(InvalidParameterError, match=message):
        mlcm_specificity_score(T, P, average="samples")


def test_mlcm_fbeta_score_bad_beta():
    """beta must be a finite real >= 0."""
    with pytest.raises(ValueError, match="'beta' parameter of mlcm_fbeta_score"):
        mlcm_fbeta_score(T, P, beta=-1)


def test_mlcm_specificity_score_bad_tn():
    """tn must be diagonal or complement."""
    with pytest.raises(ValueError, match="'tn' parameter of mlcm_specificity_score"):
        mlcm_specificity_score(T, P, tn="all")


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (("auc",), {}, ValueError, "'metric' parameter of make_mlcm_scorer"),
        (("f1",), {"average": None}, TypeError, "'average' parameter of make_mlcm"),
        (("fbeta",), {}, TypeError, "'beta' parameter of make_mlcm_scorer must be"),
        (("f1",), {"tn": "diagonal"}, TypeError, "mlcm_f1_score takes no 'tn'"),
        (("f1",), {"beta": 2}, TypeError, "mlcm_f1_score takes no 'beta'"),
        (("f1",), {"method": "bad"}, ValueError, "'method' parameter of make_mlcm"),
        (("f1",), {"zero_division": 7}, ValueError, "'zero_division' parameter of"),
        (("specificity",), {"tn": "all"}, ValueError, "'tn' parameter of make_mlcm"),
        (("fbeta",), {"beta": -1}, ValueError, "'beta' parameter of make_mlcm"),
        (
            ("specificity",),
            {"average": "samples"},
            ValueError,
            "'average' parameter of make_mlcm_scorer must be one of 'micro', "
            "'micro_all', 'macro', 'weighted' for metric='specificity'",
        ),
        ((mlcm_fbeta_score,), {}, TypeError, "'beta' parameter of make_mlcm_scorer"),
        ((mlcm_f1_score,), {"tn": "complement"}, TypeError, "f1_score takes no 'tn'"),
        (
            (precision_recall_fscore_support,),
            {},
            TypeError,
            r"must be one of \{'accuracy', .*'f1', 'false_discovery_rate', .*"
            r"'specificity'\} or one of the functions mlcm_f1_score, mlcm_fbeta_score, "
            r"mlcm_precision_score, mlcm_recall_score, mlcm_specificity_score. Got "
            r"the function sklearn\.metrics\.\w+\.precision_recall_fscore_support "
            r"instead\.",
        ),
        (
            (mlcm_precision_recall_fscore_support,),
            {},
            TypeError,
            "Got the function sklearn_mlcm._scores.mlcm_precision_recall_fscore",
        ),
        ((len,), {}, TypeError, "Got the function builtins.len instead"),
        (
            ("prevalence",),
            {},
            ValueError,
            "'metric' parameter of make_mlcm_scorer must be a score of a model, "
            "higher or lower is better; 'prevalence' is a property of the data",
        ),
        (
            ("jaccard",),
            {"average": "samples"},
            ValueError,
            "'average' parameter of make_mlcm_scorer must be one of 'micro', "
            r"'micro_all', 'macro', 'weighted' for metric='jaccard' \(it has no "
            r"samples average\)",
        ),
        (
            ("false_positive_rate",),
            {"beta": 2},
            TypeError,
            "the scorer of 'false_positive_rate' takes no 'beta'",
        ),
        (("jaccard",), {"tn": "all"}, ValueError, "'tn' parameter of make_mlcm"),
        (("g_mean",), {"zero_division": 7}, ValueError, "'zero_division' param"),
        (("informedness",), {"sample_weight": [1]}, TypeError, "takes no 'sample"),
    ],
)
def test_make_mlcm_scorer_bad_arguments(args, kwargs, error, match):
    """Bad scorer arguments are refused when the scorer is made, not at use."""
    with pytest.raises(error, match=match):
        make_mlcm_scorer(*args, **kwargs)


def test_mlcm_scorers_bad_method():
    """An unknown method is refused."""
    with pytest.raises(ValueError, match="'method' parameter of mlcm_scorers"):
        mlcm_scorers("foo")


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_scorers_names_and_values(multilabel_data, method):
    """The fifteen scorers of the score functions keep their names (the
    samples averages of precision, recall and F1 too, as scikit-learn's
    "f1_samples"), each the score of predict()."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    scorers = {
        name: scorer
        for name, scorer in mlcm_scorers(method).items()
        if name.split("_")[1] in ("precision", "recall", "f1", "specificity")
    }
    assert sorted(scorers) == sorted(
        [
            *(
                f"mlcm_{m}_{a}"
                for m in ("precision", "recall", "f1", "specificity")
                for a in ("micro", "macro", "weighted")
            ),
            "mlcm_precision_samples",
            "mlcm_recall_samples",
            "mlcm_f1_samples",
        ]
    )
    assert {f"{m}_samples" for m in ("precision", "recall", "f1")} <= set(
        sklearn.metrics.get_scorer_names()
    )
    y_pred = model.predict(X)
    # 20 instances have no true label and 12 none predicted: the samples
    # averages' undefined instance ratios warn, as scikit-learn's scorers'
    assert (y.sum(axis=1) == 0).sum() == 20 and (y_pred.sum(axis=1) == 0).sum() == 12
    for name, scorer in scorers.items():
        _, metric, average = name.split("_")
        func = {"f1": mlcm_f1_score, "specificity": mlcm_specificity_score}.get(
            metric, {"precision": mlcm_precision_score}.get(metric, mlcm_recall_score)
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            expected = func(y, y_pred, average=average, method=method)
            assert scorer(model, X, y) == pytest.approx(expected), name
        assert len(caught) == (2 if average == "samples" else 0), name
        for warning in caught:
            assert warning.category is UndefinedMetricWarning
            assert "in samples with no" in str(warning.message)


@pytest.mark.parametrize(
    "name, function, kwargs",
    [
        ("precision", mlcm_precision_score, {"average": "micro"}),
        ("recall", mlcm_recall_score, {"average": "weighted"}),
        ("f1", mlcm_f1_score, {"average": "macro", "zero_division": 1.0}),
        ("fbeta", mlcm_fbeta_score, {"beta": 2.0, "average": "micro_all"}),
        ("specificity", mlcm_specificity_score, {"tn": "diagonal"}),
    ],
)
def test_make_mlcm_scorer_takes_the_score_functions(
    multilabel_data, name, function, kwargs
):
    """A public score function is taken as its name, as scikit-learn's
    make_scorer takes score_func (#24): the same score, the same options read
    by MLCMTunedThresholdClassifierCV, and the scorer pickles."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    by_function = make_mlcm_scorer(function, **kwargs)
    by_name = make_mlcm_scorer(name, **kwargs)
    expected = function(y, model.predict(X), **{"average": "macro", **kwargs})
    assert by_function(model, X, y) == expected
    assert by_name(model, X, y) == expected
    assert by_function._mlcm_options == by_name._mlcm_options
    assert by_function._mlcm_options["metric"] == name
    assert pickle.loads(pickle.dumps(by_function))(model, X, y) == expected


def test_make_mlcm_scorer_fbeta_passes_beta(multilabel_data):
    """Keyword arguments reach the score function."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    scorer = make_mlcm_scorer("fbeta", beta=2.0, average="weighted")
    expected = mlcm_fbeta_score(y, model.predict(X), beta=2.0, average="weighted")
    assert scorer(model, X, y) == pytest.approx(expected)


@pytest.mark.parametrize(
    "estimator, grid",
    [
        (KNeighborsClassifier(), {"n_neighbors": [1, 5, 15]}),
        (
            MultiOutputClassifier(LogisticRegression(solver="liblinear")),
            {"estimator__C": [0.01, 1.0]},
        ),
        (
            ClassifierChain(LogisticRegression(solver="liblinear"), order=[0, 1, 2, 3]),
            # scikit-learn 1.7 renamed ClassifierChain's base_estimator
            {f"{_CHAIN_PARAM}__C": [0.01, 1.0]},
        ),
    ],
    ids=["knn", "multioutput", "chain"],
)
def test_grid_search_cv_single_scorer(multilabel_data, estimator, grid):
    """GridSearchCV with one MLCM scorer picks the argmax of its own folds."""
    X, y = multilabel_data
    cv = KFold(3, shuffle=True, random_state=0)
    scorer = make_mlcm_scorer("f1", average="macro")
    search = GridSearchCV(estimator, grid, scoring=scorer, cv=cv).fit(X, y)
    scores = search.cv_results_["mean_test_score"]
    assert search.best_score_ == scores.max()
    # recompute one candidate's folds by hand
    params = search.cv_results_["params"][0]
    manual = []
    for train, test in cv.split(X):
        model = clone(estimator).set_params(**params).fit(X[train], y[train])
        manual.append(mlcm_f1_score(y[test], model.predict(X[test])))
    assert scores[0] == pytest.approx(np.mean(manual))


def test_grid_search_cv_dict_of_scorers_with_refit(multilabel_data):
    """A dict of scorers with refit=name, run with n_jobs=2, then pickled."""
    X, y = multilabel_data
    scoring = {
        "f1_macro": "f1_macro",
        **{
            k: v
            for k, v in mlcm_scorers().items()
            # the samples average warns on this data's empty instances
            if k.startswith("mlcm_f1") and not k.endswith("_samples")
        },
    }
    search = GridSearchCV(
        KNeighborsClassifier(),
        {"n_neighbors": [1, 3, 9, 21]},
        scoring=scoring,
        refit="mlcm_f1_macro",
        cv=3,
        n_jobs=2,
    ).fit(X, y)
    results = search.cv_results_
    best = int(np.argmax(results["mean_test_mlcm_f1_macro"]))
    assert search.best_index_ == best
    assert search.best_params_ == results["params"][best]
    restored = pickle.loads(pickle.dumps(search))
    assert np.array_equal(restored.predict(X), search.predict(X))
    assert restored.scorer_["mlcm_f1_macro"](restored, X, y) == pytest.approx(
        mlcm_f1_score(y, search.predict(X))
    )


def test_cross_validate_and_cross_val_score(multilabel_data):
    """cross_validate with several scorers and cross_val_score with one."""
    X, y = multilabel_data
    scorers = mlcm_scorers("krstinic")
    results = cross_validate(
        KNeighborsClassifier(),
        X,
        y,
        cv=3,
        scoring={k: scorers[k] for k in ("mlcm_precision_micro", "mlcm_recall_macro")},
    )
    assert results["test_mlcm_precision_micro"].shape == (3,)
    assert np.all(
        (results["test_mlcm_recall_macro"] >= 0)
        & (results["test_mlcm_recall_macro"] <= 1)
    )
    scores = cross_val_score(
        KNeighborsClassifier(), X, y, cv=3, scoring=scorers["mlcm_precision_micro"]
    )
    assert_allclose(scores, results["test_mlcm_precision_micro"])


def test_scorer_sample_weight_metadata_routing(multilabel_data):
    """sample_weight reaches the scorer through metadata routing."""
    X, y = multilabel_data
    weight = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    cv = KFold(3)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_mlcm_scorer("recall", average="macro")
        scorer = scorer.set_score_request(sample_weight=True)
        results = cross_validate(
            KNeighborsClassifier(),
            X,
            y,
            cv=cv,
            scoring=scorer,
            params={"sample_weight": weight},
        )
    expected, unweighted = [], []
    for train, test in cv.split(X):
        y_pred = KNeighborsClassifier().fit(X[train], y[train]).predict(X[test])
        expected.append(mlcm_recall_score(y[test], y_pred, sample_weight=weight[test]))
        unweighted.append(mlcm_recall_score(y[test], y_pred))
    assert_allclose(results["test_score"], expected)
    assert not np.allclose(expected, unweighted)


def _load_emotions(folder, split):
    arff = pytest.importorskip("scipy.io.arff")
    data, meta = arff.loadarff(folder / f"emotions-{split}.arff")
    names = meta.names()
    X = np.array([[row[n] for n in names[:-6]] for row in data], dtype=float)
    y = np.array([[int(row[n]) for n in names[-6:]] for row in data])
    return X, y


class _Thresholded(ClassifierMixin, BaseEstimator):
    """Multi-label probabilities thresholded at ``threshold``."""

    def __init__(self, estimator=None, threshold=0.5):
        self.estimator = estimator
        self.threshold = threshold

    def fit(self, X, y):
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = [np.array([0, 1])] * y.shape[1]
        return self

    def predict(self, X):
        proba = self.estimator_.predict_proba(X)
        return np.column_stack([p[:, 1] >= self.threshold for p in proba]).astype(int)


def test_emotions_mlcm_and_sklearn_macro_f1_model_selection(shared_data):
    """On MULAN emotions, record what each macro F1 selects.

    Over k-nearest-neighbour settings both select the same model. Over the
    decision threshold of a logistic regression, scikit-learn's macro F1
    selects 0.3 and the MLCM's 0.4: the MLCM charges every extra predicted
    label to the true labels, so it prefers fewer, surer labels.
    """
    emotions = shared_data("mulan/emotions", "emotions-train.arff")
    X, y = _load_emotions(emotions, "train")
    assert X.shape == (391, 72) and y.shape == (391, 6)
    cv = KFold(5, shuffle=True, random_state=0)
    scoring = {"f1_macro": "f1_macro", "mlcm_f1_macro": make_mlcm_scorer("f1")}
    knn = GridSearchCV(
        make_pipeline(StandardScaler(), KNeighborsClassifier()),
        {"kneighborsclassifier__n_neighbors": [1, 3, 5, 9, 15, 31]},
        scoring=scoring,
        refit=False,
        cv=cv,
    ).fit(X, y)
    res = knn.cv_results_
    picks = [res["params"][np.argmax(res[f"mean_test_{k}"])] for k in scoring]
    assert picks[0] == picks[1] == {"kneighborsclassifier__n_neighbors": 5}

    model = _Thresholded(
        make_pipeline(
            StandardScaler(), MultiOutputClassifier(LogisticRegression(C=0.1))
        )
    )
    thresholds = [0.2, 0.3, 0.4, 0.5, 0.6]
    search = GridSearchCV(
        model, {"threshold": thresholds}, scoring=scoring, refit=False, cv=cv
    ).fit(X, y)
    res = search.cv_results_
    sk_pick = thresholds[int(np.argmax(res["mean_test_f1_macro"]))]
    mlcm_pick = thresholds[int(np.argmax(res["mean_test_mlcm_f1_macro"]))]
    assert (sk_pick, mlcm_pick) == (0.3, 0.4)


def test_mlcm_scores_micro_leaves_out_empty_instances():
    """average="micro" pools the q labels only: predicting nothing scores 0,
    while "micro_all" counts the two empty instances as correct."""
    y_true = [[0, 0], [0, 0], [1, 0], [1, 1]]
    nothing = [[0, 0]] * 4
    paper = mlcm_f1_score(y_true, nothing, average="micro_all", zero_division=0.0)
    assert paper == 0.4
    assert mlcm_f1_score(y_true, nothing, average="micro", zero_division=0.0) == 0.0
    assert mlcm_recall_score(y_true, nothing, average="micro") == 0.0
    # with the no-label index scored, "micro" pools it too: Heydarian's number
    with_no_label = mlcm_f1_score(
        y_true, nothing, average="micro", include_no_label=True, zero_division=0.0
    )
    assert with_no_label == paper


def test_mlcm_scores_micro_multiclass_is_sklearn_micro():
    """On 1-D class labels the micro average is scikit-learn's."""
    from sklearn.metrics import f1_score, precision_score

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    assert mlcm_f1_score(y_true, y_pred, average="micro") == pytest.approx(
        f1_score(y_true, y_pred, average="micro")
    )
    assert mlcm_precision_score(y_true, y_pred, average="micro") == pytest.approx(
        precision_score(y_true, y_pred, average="micro")
    )
    scorer = make_mlcm_scorer("f1", average="micro_all")
    assert callable(scorer)


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_mlcm_scorer_frame_targets_are_read_by_position(multilabel_data, library):
    """A scorer's y_pred is predict()'s array, whose columns are y's by
    position (scikit-learn's contract): a frame y is scored as its values,
    not refused as a frame mixed with an array."""
    X, y = multilabel_data
    names = [f"label_{j}" for j in range(y.shape[1])]
    if library == "pandas":
        frame = pytest.importorskip("pandas").DataFrame(y, columns=names)
    else:
        frame = pytest.importorskip("polars").DataFrame(
            {n: y[:, j] for j, n in enumerate(names)}
        )
    model = KNeighborsClassifier().fit(X, y)
    expected = mlcm_f1_score(y, model.predict(X), average="macro")
    scorer = make_mlcm_scorer("f1", average="macro")
    assert scorer(model, X, frame) == pytest.approx(expected)
    for name, scorer in mlcm_scorers().items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # the samples averages' (#24)
            assert np.isfinite(scorer(model, X, frame)), name
        assert all(w.category is UndefinedMetricWarning for w in caught), name


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_mlcm_scores_huge_finite_weights_are_scale_free(mlcm_strategies, data):
    """Weights near float64's limit give the scores of the same weights scaled
    down (ratios do not depend on the scale), never an overflowed number
    (#16 item 3)."""
    y_true, y_pred = data.draw(mlcm_strategies.targets())
    n = y_true.shape[0]
    weight = np.asarray(
        data.draw(st.lists(st.floats(0.5, 4.0), min_size=n, max_size=n))
    )
    huge = weight * 1e290
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("error", RuntimeWarning)  # no overflow anywhere
        for average in (None, "micro", "micro_all", "macro", "weighted"):
            options = {"average": average, "zero_division": 0.0}
            got = mlcm_precision_recall_fscore_support(
                y_true, y_pred, sample_weight=huge, **options
            )
            want = mlcm_precision_recall_fscore_support(
                y_true, y_pred, sample_weight=weight, **options
            )
            for g, w in zip(got[:3], want[:3]):
                assert_allclose(g, w, rtol=1e-9, atol=1e-12)


def test_mlcm_scores_weights_overflowing_the_sums_are_refused():
    """Weights whose sums overflow float64 are refused with a way out, where
    the recall was 0 instead of 0.5 (#16 item 3)."""
    y_true, y_pred = [[1, 0], [0, 1]], [[1, 0], [1, 0]]
    assert mlcm_recall_score(y_true, y_pred, sample_weight=[1e300, 1e300]) == 0.5
    message = "'sample_weight' parameter of mlcm_recall_score must keep the matrix"
    with pytest.raises(InvalidInputError, match=message):
        mlcm_recall_score(y_true, y_pred, sample_weight=[1e308, 1e308])
    with pytest.raises(InvalidInputError, match="divide them by their largest"):
        mlcm_confusion_matrix(y_true, y_pred, sample_weight=[1e308, 1e308])


@pytest.mark.parametrize(
    "score, position, warn_for, kwargs",
    [
        (mlcm_precision_score, 0, ("precision",), {}),
        (mlcm_recall_score, 1, ("recall",), {}),
        (mlcm_f1_score, 2, ("f-score",), {}),
        (mlcm_fbeta_score, 2, ("f-score",), {"beta": 2.0}),
    ],
)
def test_mlcm_scores_call_the_public_engine(
    monkeypatch, score, position, warn_for, kwargs
):
    """The four scores are read off mlcm_precision_recall_fscore_support, as
    scikit-learn's off precision_recall_fscore_support, each warning about
    its own ratio only (#19: they called a private _score)."""
    import sklearn_mlcm._scores as scores

    calls = []
    engine = scores.mlcm_precision_recall_fscore_support

    def spy(*args, **options):
        calls.append(options["warn_for"])
        return engine(*args, **options)

    monkeypatch.setattr(scores, "mlcm_precision_recall_fscore_support", spy)
    options = {"average": None, "zero_division": 0.0, **kwargs}
    got = score(TABLE_1_TRUE, TABLE_1_PRED, **options)
    assert calls == [warn_for]
    want = engine(TABLE_1_TRUE, TABLE_1_PRED, **options)[position]
    assert_allclose(got, want)


def test_mlcm_precision_recall_fscore_support_warn_for():
    """warn_for chooses the ratios that warn, as scikit-learn's does; other
    values are refused, naming the parameter."""
    y_true, y_pred = [0, 0, 1], [0, 0, 0]  # class 1 never predicted, 2 absent
    for warn_for in (("precision",), ("recall",), ("precision", "f-score"), ()):
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            mlcm_precision_recall_fscore_support(
                y_true, y_pred, average="macro", warn_for=warn_for
            )
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            precision_recall_fscore_support(
                y_true, y_pred, average="macro", warn_for=warn_for
            )
        assert [str(w.message).split()[0] for w in ours] == [
            str(w.message).split()[0] for w in theirs
        ]
    message = (
        r"The 'warn_for' parameter of mlcm_precision_recall_fscore_support must "
        r"be a list, tuple or set of 'precision', 'recall' and 'f-score'. Got "
        r"\('precision', 'accuracy'\) instead"
    )
    with pytest.raises(InvalidParameterError, match=message):
        mlcm_precision_recall_fscore_support(
            y_true, y_pred, warn_for=("precision", "accuracy")
        )
    with pytest.raises(InvalidParameterError, match="'warn_for' parameter"):
        mlcm_precision_recall_fscore_support(y_true, y_pred, warn_for="precision")


#: 1-D classes 0, 1, 2; the labels 5 and 6 occur in neither target (#24, defect 6).
_ABSENT = {"y_true": [0, 1, 2, 0], "y_pred": [0, 2, 1, 0], "labels": [5, 6]}


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_mlcm_precision_recall_fscore_support_labels_none_occur(average, zero_division):
    """Labels of which none occurs give scikit-learn's answer: the zero_division
    value for every ratio, support 0, and its warnings (#24 defect 6: they were
    refused)."""
    options = {"average": average, "zero_division": zero_division, **_ABSENT}
    y_true, y_pred = options.pop("y_true"), options.pop("y_pred")
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        got = mlcm_precision_recall_fscore_support(y_true, y_pred, **options)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        want = precision_recall_fscore_support(y_true, y_pred, **options)
    value = 0.0 if zero_division == "warn" else zero_division
    for g, w in zip(got[:3], want[:3]):
        assert_allclose(g, w)
        assert_allclose(g, value if average else [value, value])
        assert type(g) is (float if average else np.ndarray)
    if average is None:
        assert got[3].dtype == np.int64
        np.testing.assert_array_equal(got[3], [0, 0])
    else:
        assert got[3] is None
    categories = {w.category for w in ours}
    assert categories == {w.category for w in theirs}
    warned = {UndefinedMetricWarning} if zero_division == "warn" else set()
    assert categories == warned
    assert [str(w.message).split()[0] for w in ours] == [
        str(w.message).split()[0] for w in theirs
    ]


@pytest.mark.parametrize(
    "score, kwargs",
    [
        (mlcm_precision_score, {}),
        (mlcm_recall_score, {}),
        (mlcm_f1_score, {}),
        (mlcm_fbeta_score, {"beta": 2.0}),
    ],
)
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_mlcm_scores_labels_none_occur(score, kwargs, average):
    """The four scores take labels of which none occurs, as scikit-learn's do
    (#24 defect 6), with the zero_division value."""
    theirs = getattr(sklearn.metrics, score.__name__.removeprefix("mlcm_"))
    options = {"average": average, "zero_division": 1.0, "labels": [5, 6], **kwargs}
    got = score(_ABSENT["y_true"], _ABSENT["y_pred"], **options)
    want = theirs(_ABSENT["y_true"], _ABSENT["y_pred"], **options)
    assert_allclose(got, want)
    assert_allclose(got, 1.0 if average else [1.0, 1.0])
    options["zero_division"] = "warn"
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        got = score(_ABSENT["y_true"], _ABSENT["y_pred"], **options)
    assert_allclose(got, 0.0 if average else [0.0, 0.0])


def test_mlcm_classification_report_labels_none_occur():
    """The report of labels of which none occurs is scikit-learn's: the
    zero_division values, support 0 (#24 defect 6: it was refused)."""
    options = {"labels": [5, 6], "zero_division": 1.0, "output_dict": True}
    ours = mlcm_classification_report(_ABSENT["y_true"], _ABSENT["y_pred"], **options)
    theirs = classification_report(_ABSENT["y_true"], _ABSENT["y_pred"], **options)
    assert list(ours) == list(theirs)
    for row, values in theirs.items():
        assert ours[row] == {**values, "weight": 0.0}, row
    text = mlcm_classification_report(
        _ABSENT["y_true"], _ABSENT["y_pred"], labels=[5, 6], zero_division=0.0
    )
    zeros = ("0.00", "0.00", "0.00", "0", "0")
    assert report_cells(text) == {
        "5": zeros,
        "6": zeros,
        "micro avg": zeros,
        "macro avg": zeros,
        "weighted avg": zeros,
    }


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_mlcm_scores_labels_one_is_sklearn_binary_average(mlcm_strategies, data):
    """``labels=[1]`` gives scikit-learn's ``average="binary"`` score of binary
    1-D input, which from_sklearn.rst names as the way to pos_label (#24)."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass(classes=(0, 1)))
    average = data.draw(st.sampled_from(["micro", "macro", "weighted"]))
    for score, kwargs in (
        (mlcm_precision_score, {}),
        (mlcm_recall_score, {}),
        (mlcm_f1_score, {}),
        (mlcm_fbeta_score, {"beta": 0.5}),
    ):
        theirs = getattr(sklearn.metrics, score.__name__.removeprefix("mlcm_"))
        options = {"sample_weight": weight, "zero_division": 0.0, **kwargs}
        got = score(y_true, y_pred, labels=[1], average=average, **options)
        want = theirs(y_true, y_pred, **options)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


# -- average="samples" (issue #24) ---------------------------------------------


def test_mlcm_scores_samples_table_1_by_hand():
    """Heydarian et al. (2022), Table 1 instance by instance: precision
    1, 1, -, 1/3, 2/3, 0, 0, 1/2, 0; recall 1, 2/3, -, 1, 1, -, 0, 1/2, 0;
    F1 1, 4/5, -, 1/2, 4/5, 0, 0, 1/2, 0 ("-": an empty set, zero_division)."""
    for zero_division, fill in ((0.0, 0.0), (1.0, 1.0)):
        p, r, f, s = mlcm_precision_recall_fscore_support(
            T, P, average="samples", zero_division=zero_division
        )
        assert p == pytest.approx((3.5 + fill) / 9, abs=1e-15)
        assert r == pytest.approx((25 / 6 + 2 * fill) / 9, abs=1e-15)
        assert f == pytest.approx((3.6 + fill) / 9, abs=1e-15)
        assert s is None and all(type(v) is float for v in (p, r, f))
    p, r, f, _ = mlcm_precision_recall_fscore_support(
        T, P, average="samples", zero_division=np.nan
    )
    assert (p, r, f) == pytest.approx((3.5 / 8, 25 / 6 / 7, 3.6 / 8), abs=1e-15)
    # the no-label index as a label: instance 3 ({} -> {}) scores 1, instance
    # 6 ({} -> {C1, C2}) 0, and nothing is undefined (no warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p, r, f, _ = mlcm_precision_recall_fscore_support(
            T, P, average="samples", include_no_label=True
        )
    assert (p, r, f) == pytest.approx((4.5 / 9, 31 / 54, 4.6 / 9), abs=1e-15)
    beta = 2.0  # F2 of instance 2 ({0, 1, 2} -> {0, 2}): 5 * 2 / (4 * 3 + 2)
    f2 = mlcm_fbeta_score(T, P, beta=beta, average="samples", zero_division=0.0)
    by_hand = [1, 10 / 14, 0, 5 / 7, 10 / 11, 0, 0, 5 / 10, 0]
    assert f2 == pytest.approx(sum(by_hand) / 9, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    zero_division=st.sampled_from(["warn", 0.0, 1.0, np.nan]),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, 1e60]),
    include_no_label=st.booleans(),
)
def test_mlcm_scores_samples_match_the_oracle(
    mlcm_strategies, data, zero_division, beta, include_no_label
):
    """average="samples" is the oracle's instance-by-instance mean, to 1e-12,
    with labels subsets, weights (zeros among them), every zero_division and
    the no-label index; each ratio warns exactly when one of its instance
    values is undefined, once."""
    from _oracles import samples_average_oracle

    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    q = y_true.shape[1]
    labels = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, q - 1), min_size=1, max_size=q, unique=True),
        )
    )
    options = {
        "labels": labels,
        "sample_weight": weight,
        "include_no_label": include_no_label,
    }
    *expected, undefined = samples_average_oracle(
        y_true, y_pred, beta=beta, zero_division=zero_division, **options
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = mlcm_precision_recall_fscore_support(
            y_true,
            y_pred,
            beta=beta,
            average="samples",
            zero_division=zero_division,
            **options,
        )
    assert_allclose(got[:3], expected, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert got[3] is None
    warned = sorted(str(w.message).split(" is ill-defined")[0] for w in caught)
    assert all(w.category is UndefinedMetricWarning for w in caught)
    if zero_division == "warn":
        names = {"precision": "Precision", "recall": "Recall", "fbeta": "F-score"}
        assert warned == sorted(names[k] for k, n in undefined.items() if n)
    else:
        assert warned == []


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_mlcm_scores_samples_all_weights_zero(zero_division):
    """Every weight zero: every instance ratio is undefined (scikit-learn
    weighs the counts), so the average is zero_division itself."""
    value = mlcm_f1_score(
        T, P, average="samples", sample_weight=[0] * 9, zero_division=zero_division
    )
    assert value == pytest.approx(zero_division, nan_ok=True)
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):
        assert mlcm_f1_score(T, P, average="samples", sample_weight=[0] * 9) == 0.0


def test_mlcm_scores_samples_weight_zero_instance_weighs_nothing():
    """An instance of weight zero changes no samples average (its ratios,
    undefined, weigh nothing), but warns as scikit-learn does."""
    y_true, y_pred = [[1, 0], [1, 1]], [[1, 0], [1, 0]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mlcm_recall_score(y_true, y_pred, average="samples") == 0.75
    with pytest.warns(UndefinedMetricWarning, match="Recall is ill-defined"):
        value = mlcm_recall_score(
            y_true, y_pred, average="samples", sample_weight=[0.0, 2.0]
        )
    assert value == 0.5


def test_mlcm_scores_samples_reads_no_matrix(monkeypatch):
    """average="samples" builds no matrix: the kernels are not called, and
    method does not change the number."""
    import sklearn_mlcm._mlcm._dispatch as dispatch

    def refuse(*args, **kwargs):
        raise AssertionError("a matrix kernel was called")

    for method in ("heydarian", "krstinic"):
        monkeypatch.setitem(dispatch.METHODS, method, refuse)
    values = {
        method: mlcm_f1_score(T, P, average="samples", method=method, zero_division=0.0)
        for method in ("heydarian", "krstinic")
    }
    assert values["heydarian"] == values["krstinic"] == pytest.approx(0.4)


def test_mlcm_scores_samples_blocks_sparse_and_dask_agree(monkeypatch):
    """Dense rows read in blocks (of 64 rows here, on threads), CSR input
    (either side), and dask chunks all give the same table, hence the same
    bits, as one block."""
    import sklearn_mlcm._mlcm._samples as samples_module
    from sklearn_mlcm._mlcm._samples import tabulate_sizes

    rng = np.random.default_rng(24)
    y_true = rng.random((1000, 7)) < 0.3
    y_pred = y_true ^ (rng.random((1000, 7)) < 0.2)
    weight = rng.integers(0, 4, 1000).astype(np.float64)
    options = {"average": "samples", "zero_division": 0.0, "sample_weight": weight}
    whole = mlcm_precision_recall_fscore_support(y_true, y_pred, **options)
    one = tabulate_sizes(y_true, y_pred, weight)
    monkeypatch.setattr(samples_module, "BIT_ROWS", 64)
    blocks = tabulate_sizes(y_true, y_pred, weight)
    for a, b in zip(
        (one.sizes, one.count, one.weight), (blocks.sizes, blocks.count, blocks.weight)
    ):
        assert_array_equal(a, b)
    assert mlcm_precision_recall_fscore_support(y_true, y_pred, **options) == whole
    from scipy import sparse

    for t, p in (
        (sparse.csr_array(y_true), sparse.csr_array(y_pred)),
        (sparse.csr_matrix(y_true), y_pred),
    ):
        assert mlcm_precision_recall_fscore_support(t, p, **options) == whole
    da = pytest.importorskip("dask.array")
    chunked = mlcm_precision_recall_fscore_support(
        da.from_array(y_true, chunks=(300, 7)),
        da.from_array(y_pred, chunks=(300, 7)),
        **{**options, "sample_weight": da.from_array(weight, chunks=300)},
    )
    assert chunked == whole


def test_mlcm_scores_samples_multiclass_is_accuracy():
    """1-D class labels: each set holds the instance's class, so with every
    class scored the three samples averages are the (weighted) accuracy;
    with a labels subset a class outside it is an empty set."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = ["a", "b", "b", "c", "a"], ["a", "b", "c", "c", "b"]
    weight = [1.0, 2.0, 0.5, 1.0, 3.0]
    accuracy = accuracy_score(y_true, y_pred, sample_weight=weight)
    got = mlcm_precision_recall_fscore_support(
        y_true, y_pred, average="samples", sample_weight=weight
    )
    assert got[:3] == pytest.approx((accuracy,) * 3, abs=1e-15)
    # labels ["a", "b"]: instance 3 (b -> c) has P = {}, instance 4 (c -> c)
    # T = P = {} (undefined everywhere), instance 5 (a -> b) is wrong
    p, r, f, _ = mlcm_precision_recall_fscore_support(
        y_true, y_pred, average="samples", labels=["a", "b"], zero_division=np.nan
    )
    assert (p, r, f) == pytest.approx((2 / 3, 2 / 4, 2 / 4), abs=1e-15)


def test_make_mlcm_scorer_samples_in_grid_search(multilabel_data):
    """The samples scorers work in GridSearchCV and equal the score of
    predict(); the scorer of make_mlcm_scorer passes zero_division on."""
    X, y = multilabel_data
    scorers = {
        "f1": make_mlcm_scorer("f1", average="samples", zero_division=0.0),
        "recall": make_mlcm_scorer("recall", average="samples", zero_division=1.0),
    }
    search = GridSearchCV(
        KNeighborsClassifier(),
        {"n_neighbors": [3, 9]},
        scoring=scorers,
        refit="f1",
        cv=KFold(3),
    ).fit(X, y)
    y_pred = search.predict(X)
    expected = mlcm_recall_score(y, y_pred, average="samples", zero_division=1.0)
    assert scorers["recall"](search, X, y) == pytest.approx(expected)
    assert np.isfinite(search.cv_results_["mean_test_f1"]).all()


def test_mlcm_scores_samples_table_paths_agree(monkeypatch):
    """The table of set sizes is the same whether its keys are counted by
    np.bincount, by np.unique (many possible keys) or the triples sorted
    (sizes past 2**21, whose key would overflow): sorted, merged, weighed."""
    from sklearn_mlcm._mlcm import _samples
    from sklearn_mlcm._mlcm._samples import size_table

    rng = np.random.default_rng(7)
    n_true, n_pred = rng.integers(0, 9, 500), rng.integers(0, 9, 500)
    n_both = np.minimum(n_true, n_pred) // 2
    weight = rng.choice([0.0, 0.5, 2.0], 500)
    counted = size_table(n_true, n_pred, n_both, weight)
    monkeypatch.setattr(_samples, "BINCOUNT_KEYS", 0)
    unique = size_table(n_true, n_pred, n_both, weight)
    for a, b in zip(
        (counted.sizes, counted.count, counted.weight),
        (unique.sizes, unique.count, unique.weight),
    ):
        assert_array_equal(a, b)
    assert counted.n_zero_weight == unique.n_zero_weight == (weight == 0).sum()
    assert counted.count.sum() == 500
    big = 2**21
    table = size_table([big, 5, big, 5], [1, 5, 1, 5], [0, 2, 0, 2], [1.0, 2, 3, 4])
    assert_array_equal(table.sizes, [[5, 5, 2], [big, 1, 0]])
    assert_array_equal(table.count, [2, 2])
    assert_array_equal(table.weight, [6.0, 4.0])


def test_mlcm_scores_samples_tables_merge_alike(monkeypatch):
    """Tables merge to the same bits whether their rows are sorted by one
    integer key or lexicographically (np.lexsort): counts, weights summed in
    the tables' order, zero weights."""
    from sklearn_mlcm._mlcm import _samples
    from sklearn_mlcm._mlcm._samples import merge_tables, size_table

    rng = np.random.default_rng(8)
    tables = []
    for weighted in (False, True, True, False):
        n_true, n_pred = rng.integers(0, 7, 300), rng.integers(0, 7, 300)
        n_both = np.minimum(n_true, n_pred) // 2
        weight = rng.choice([0.0, 0.1, 0.7, 3.0], 300) if weighted else None
        tables.append(size_table(n_true, n_pred, n_both, weight))
    keyed = merge_tables(tables)
    monkeypatch.setattr(_samples, "SORT_KEYS", 0)
    sorted_rows = merge_tables(tables)
    for a, b in zip(
        (keyed.sizes, keyed.count, keyed.weight),
        (sorted_rows.sizes, sorted_rows.count, sorted_rows.weight),
    ):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert keyed.n_zero_weight == sorted_rows.n_zero_weight
    assert keyed.count.sum() == 1200


# -- scorers of every registered statistic (#31) --------------------------------

#: The registry's statistics that are scores of a model (all but prevalence).
_DIRECTED = [s for s in STATISTICS.values() if s.higher_is_better is not None]


def _scorer_name(statistic, average):
    """The mlcm_scorers key of a statistic at an average."""
    metric = "f1" if statistic.name == "fbeta" else statistic.name
    prefix = "" if statistic.higher_is_better else "neg_"
    return f"mlcm_{prefix}{metric}_{average}"


def test_mlcm_scorers_names_follow_the_registry():
    """One scorer per registered statistic with a direction and per average
    it has among micro, macro, weighted and samples (51 today; the count is
    read off the registry, so a new entry changes no test), the error rates
    named neg_ as scikit-learn's negated scorers; prevalence has none."""
    expected = [
        _scorer_name(s, a)
        for s in _DIRECTED
        for a in ("micro", "macro", "weighted", "samples")
        if a in s.averages
    ]
    scorers = mlcm_scorers()
    assert list(scorers) == expected
    assert {
        "mlcm_jaccard_macro",
        "mlcm_matthews_corrcoef_weighted",
        "mlcm_neg_false_positive_rate_micro",
        "mlcm_neg_false_negative_rate_macro",
        "mlcm_g_mean_macro",
    } <= set(scorers)
    assert not any("prevalence" in name for name in scorers)
    assert not any("false_positive_rate" in n and "neg_" not in n for n in scorers)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("average", ["micro", "micro_all", "macro", "weighted"])
@pytest.mark.parametrize("statistic", _DIRECTED, ids=lambda s: s.name)
def test_make_mlcm_scorer_of_every_statistic_reads_the_mlcm(
    multilabel_data, statistic, average, method
):
    """A scorer of each registered statistic is the value matrix_scores reads
    off the MLCM of predict(), negated for an error rate (as scikit-learn's
    neg_ scorers); macro equals the mean of confusion_matrix_statistics."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    cm = mlcm_confusion_matrix(y, model.predict(X), method=method)
    extra = {"beta": 1.0} if statistic.name == "fbeta" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = matrix_scores(cm, (statistic.name,), average=average)
        expected = expected[statistic.name]
        per_label = confusion_matrix_statistics(cm)[statistic.name][:-1]
        scorer = make_mlcm_scorer(
            statistic.name, average=average, method=method, **extra
        )
        got = scorer(model, X, y)
    sign = 1.0 if statistic.higher_is_better else -1.0
    assert isinstance(got, float)
    assert got == pytest.approx(sign * expected)
    if average == "macro":
        assert got == pytest.approx(sign * np.mean(per_label))
    if average in ("micro", "macro", "weighted"):
        by_name = mlcm_scorers(method)[_scorer_name(statistic, average)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            assert by_name(model, X, y) == pytest.approx(got)


def test_make_mlcm_scorer_of_a_statistic_takes_its_options(multilabel_data):
    """labels, zero_division, include_no_label, tn and a routed sample_weight
    reach a new statistic's scorer as they reach the score functions."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    y_pred = model.predict(X)
    weight = np.random.default_rng(0).integers(1, 4, y.shape[0])
    options = {"labels": [0, 2, 3], "include_no_label": True, "tn": "diagonal"}
    scorer = make_mlcm_scorer("balanced_accuracy", zero_division=1.0, **options)
    cm = mlcm_confusion_matrix(y, y_pred, labels=[0, 2, 3], sample_weight=weight)
    expected = matrix_scores(
        cm,
        ("balanced_accuracy",),
        average="macro",
        include_no_label=True,
        zero_division=1.0,
        tn="diagonal",
    )["balanced_accuracy"]
    assert scorer(model, X, y, sample_weight=weight) == pytest.approx(expected)


def test_make_mlcm_scorer_of_a_statistic_refuses_bad_targets(multilabel_data):
    """A new statistic's scorer validates its targets as the scores do, and
    the refusal names the scorer."""
    X, y = multilabel_data
    model = KNeighborsClassifier().fit(X, y)
    scorer = make_mlcm_scorer("jaccard")
    with pytest.raises(ValueError, match=r"make_mlcm_scorer\(metric='jaccard'\)"):
        scorer(model, X, y[:, :2])


def test_grid_search_cv_with_a_registry_scorer(multilabel_data):
    """GridSearchCV with the Jaccard scorer and with a negated error rate
    picks the best of its own folds' scores; refit by a mlcm_scorers key."""
    X, y = multilabel_data
    cv = KFold(3, shuffle=True, random_state=0)
    grid = {"n_neighbors": [1, 5, 15]}
    scorers = mlcm_scorers()
    for name in ("mlcm_jaccard_macro", "mlcm_neg_false_negative_rate_micro"):
        search = GridSearchCV(
            KNeighborsClassifier(), grid, scoring=scorers[name], cv=cv
        ).fit(X, y)
        scores = search.cv_results_["mean_test_score"]
        assert search.best_index_ == int(np.argmax(scores))
        assert np.all(scores <= 0) if "neg_" in name else np.all(scores >= 0)
    search = GridSearchCV(
        KNeighborsClassifier(),
        grid,
        scoring={k: scorers[k] for k in ("mlcm_jaccard_macro", "mlcm_f1_macro")},
        refit="mlcm_jaccard_macro",
        cv=cv,
    ).fit(X, y)
    fold_scores = [
        make_mlcm_scorer("jaccard")(
            clone(KNeighborsClassifier(**search.best_params_)).fit(X[a], y[a]),
            X[b],
            y[b],
        )
        for a, b in cv.split(X)
    ]
    assert search.best_score_ == pytest.approx(np.mean(fold_scores))
