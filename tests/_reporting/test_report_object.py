"""MLCMReport: the one evaluation object, against the public functions it packages."""

import re
import sys

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

import sklearn_mlcm._mlcm._dispatch as dispatch
from sklearn_mlcm import (
    MLCMDisplay,
    MLCMReport,
    MLCMThresholdCurveDisplay,
    labelset_confusions,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_threshold_curve,
    most_confused,
)

#: Their toy data's macro averages are over labels with fewer than 5
#: positives: flagged intervals, whose warning (issue #32) is checked in
#: tests/test_report_flags.py; the tests here are about the outputs.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

matplotlib.use("Agg")

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
SCORES = 0.25 + 0.4 * T + 0.3 * P - 0.05 * np.arange(9)[:, None] / 9
WEIGHT = np.array([1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 0.5, 1.0])
INTERVALS = {
    "confidence_level": 0.9,
    "n_resamples": 199,
    "interval": "percentile",
    "random_state": 0,
}


def _random_case(n=200, q=8, seed=0):
    """Targets, predictions near them and scores of a noisy classifier."""
    rng = np.random.default_rng(seed)
    y = (rng.random((n, q)) < 0.3).astype(int)
    score = np.clip(0.45 * y + 0.6 * rng.random((n, q)), 0.0, 1.0)
    return y, (score >= 0.5).astype(int), score


def _fitted_case(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 5))
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] + X[:, 2] > 0.3, X[:, 3] < -0.2])
    return X, Y.astype(int)


@pytest.fixture
def kernel_calls(monkeypatch):
    """Count the calls of both counting kernels, as the command line's test."""
    calls = []
    for method, kernel in list(dispatch.METHODS.items()):

        def counted(*args, _kernel=kernel, _method=method, **kwargs):
            calls.append(_method)
            return _kernel(*args, **kwargs)

        monkeypatch.setitem(dispatch.METHODS, method, counted)
    return calls


# -- the numbers are those of the public functions ---------------------------------


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_from_predictions_matrix_equals_mlcm_confusion_matrix(method):
    """The stored matrix is mlcm_confusion_matrix's (Table 4 (j) for Heydarian)."""
    report = MLCMReport.from_predictions(T, P, method=method, zero_division=0.0)
    expected = mlcm_confusion_matrix(T, P, method=method)
    assert_array_equal(report.confusion_matrix, expected)
    assert report.confusion_matrix.dtype == expected.dtype
    if method == "heydarian":
        assert_array_equal(report.confusion_matrix, TABLE_4J)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"sample_weight": WEIGHT},
        {"include_no_label": True},
        {"method": "krstinic", "labels": [2, 0]},
        INTERVALS,
        {**INTERVALS, "sample_weight": WEIGHT, "interval": "bca"},
        {**INTERVALS, "groups": np.arange(9) // 3, "include_no_label": True},
    ],
    ids=[
        "plain",
        "weights",
        "no label",
        "krstinic labels",
        "intervals",
        "bca",
        "groups",
    ],
)
def test_from_predictions_report_equals_classification_report(options):
    """The report dict is mlcm_classification_report(output_dict=True), exactly,
    intervals included (the same seed gives the same numbers)."""
    report = MLCMReport.from_predictions(
        T, P, target_names=None, zero_division=0.0, **options
    )
    expected = mlcm_classification_report(
        T, P, output_dict=True, zero_division=0.0, **options
    )
    assert report.report == expected
    assert list(report.report) == list(expected)
    with_intervals = "confidence_level" in options
    assert ("precision low" in report.report["macro avg"]) is with_intervals
    assert report.confidence_level == options.get("confidence_level")
    if with_intervals:
        text = mlcm_classification_report(T, P, zero_division=0.0, **options)
        # the legend, above the notes of the flagged intervals
        assert report.interval_legend in text.splitlines()
    else:
        assert report.interval_legend is None


def test_from_predictions_report_values_are_python_floats():
    """Every value of the report dict is a Python float, as scikit-learn's,
    but the intervals' flags (None or a reason)."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0, **INTERVALS)
    items = [item for entry in report.report.values() for item in entry.items()]
    values = [v for k, v in items if not k.endswith(" flag")]
    assert values and all(type(v) is float for v in values)
    flags = [v for k, v in items if k.endswith(" flag")]
    assert flags and all(v is None or type(v) is str for v in flags)


def test_from_predictions_warns_as_the_classification_report():
    """zero_division="warn" warns for the undefined ratios, as the report does."""
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        report = MLCMReport.from_predictions(T, P)
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        expected = mlcm_classification_report(T, P, output_dict=True)
    assert report.report == expected


@pytest.mark.parametrize("kind", ["sparse", "one-dimensional", "names"])
def test_from_predictions_input_forms_match_the_report(kind):
    """Sparse input, 1-D class labels (no samples average) and target_names
    give the report and matrix of the public functions."""
    y_true, y_pred, options = T, P, {}
    if kind == "sparse":
        y_true, y_pred = sparse.csr_array(T), sparse.csr_array(P)
    elif kind == "one-dimensional":
        y_true, y_pred = ["a", "b", "c", "a", "b"], ["a", "c", "c", "b", "b"]
    else:
        options = {"target_names": TABLE_1_NAMES}
    report = MLCMReport.from_predictions(y_true, y_pred, zero_division=0.0, **options)
    expected = mlcm_classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0, **options
    )
    assert report.report == expected
    assert_array_equal(report.confusion_matrix, mlcm_confusion_matrix(y_true, y_pred))
    assert ("samples avg" in report.report) is (kind != "one-dimensional")
    names = {"sparse": ["0", "1", "2"], "one-dimensional": ["a", "b", "c"]}
    assert report.target_names == names.get(kind, TABLE_1_NAMES)
    assert report.n_samples == (5 if kind == "one-dimensional" else 9)


def test_from_predictions_frame_names_come_from_columns():
    """With frames the names are the column names, in the report, the
    confusions and the curve; frame scores are matched by column name."""
    pd = pytest.importorskip("pandas")
    columns = ["sports", "politics", "arts"]
    y_true, y_pred = pd.DataFrame(T, columns=columns), pd.DataFrame(P, columns=columns)
    y_score = pd.DataFrame(SCORES, columns=columns)[["arts", "sports", "politics"]]
    report = MLCMReport.from_predictions(
        y_true, y_pred, y_score=y_score, thresholds=5, zero_division=0.0
    )
    assert report.target_names == columns
    assert list(report.report)[:3] == columns
    assert report.most_confused[0] == ("sports", "arts", 4)
    assert report.threshold_curve.target_names == columns
    expected = mlcm_threshold_curve(T, SCORES, thresholds=5)
    assert_allclose(report.threshold_curve.label_scores, expected.label_scores)
    assert_array_equal(report.to_frame().index[:3], columns)


@pytest.mark.parametrize(
    "options, top",
    [
        ({}, ("C0", "C2", 4)),
        ({"sample_weight": WEIGHT}, ("C0", "C2", 6.0)),
        ({"include_no_label": True, "top_k": 3}, ("C0", "C2", 4)),
    ],
    ids=["plain", "weights", "no label"],
)
def test_from_predictions_confusions_equal_the_public_lists(options, top):
    """most_confused and labelset_confusions are those of the public
    functions on the same matrix and targets, named."""
    options = {"top_k": 20, **options}
    report = MLCMReport.from_predictions(
        T, P, target_names=TABLE_1_NAMES, zero_division=0.0, **options
    )
    expected = most_confused(
        report.confusion_matrix,
        top_k=options["top_k"],
        target_names=TABLE_1_NAMES,
        include_no_label=options.get("include_no_label", False),
    )
    assert report.most_confused == expected
    assert report.labelset_confusions == labelset_confusions(
        T,
        P,
        top_k=options["top_k"],
        sample_weight=options.get("sample_weight"),
        target_names=TABLE_1_NAMES,
    )
    assert report.most_confused[0] == top
    assert len(report.most_confused) == min(options["top_k"], len(expected))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"thresholds": [0.3, 0.5, 0.7, 0.9], "metric": "precision", "average": "micro"},
        {"sample_weight": WEIGHT, "thresholds": 7, "average": "weighted"},
        {"labels": [2, 0], "thresholds": 6},
    ],
    ids=["default", "grid", "weights", "labels"],
)
def test_from_predictions_curve_equals_mlcm_threshold_curve(options):
    """The curve is mlcm_threshold_curve's, on the same labels and weights."""
    report = MLCMReport.from_predictions(
        T, P, y_score=SCORES, zero_division=0.0, **options
    )
    expected = mlcm_threshold_curve(T, SCORES, **options)
    curve = report.threshold_curve
    assert_array_equal(curve.thresholds, expected.thresholds)
    assert_allclose(curve.scores, expected.scores)
    assert_allclose(curve.label_scores, expected.label_scores)
    assert curve.best_threshold == expected.best_threshold
    assert (curve.metric, curve.average) == (expected.metric, expected.average)
    assert curve.target_names == report.target_names


def test_from_predictions_curve_takes_target_names():
    """The curve's label names are the report's target_names."""
    report = MLCMReport.from_predictions(
        T, P, y_score=SCORES, target_names=TABLE_1_NAMES, zero_division=0.0
    )
    assert report.threshold_curve.target_names == TABLE_1_NAMES


def test_from_predictions_without_scores_has_no_curve():
    """No y_score, no curve."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    assert report.threshold_curve is None


def test_from_predictions_counts_the_matrix_once(kernel_calls):
    """Matrix, report with intervals, confusions and curve: one kernel call."""
    y, pred, score = _random_case()
    MLCMReport.from_predictions(y, pred, y_score=score, zero_division=0.0, **INTERVALS)
    assert kernel_calls == ["heydarian"]
    kernel_calls.clear()
    MLCMReport.from_predictions(
        y, pred, method="krstinic", zero_division=0.0, **INTERVALS
    )
    assert kernel_calls == ["krstinic"]
    kernel_calls.clear()
    mlcm_confusion_matrix(y, pred)  # the spy counts every call
    mlcm_classification_report(y, pred, zero_division=0.0)
    assert kernel_calls == ["heydarian", "heydarian"]


# -- from_estimator ----------------------------------------------------------------


def test_from_estimator_multioutput_classifier_scores_column_one():
    """A MultiOutputClassifier's list of (n, 2) probabilities: column 1 of each."""
    X, Y = _fitted_case()
    model = MultiOutputClassifier(LogisticRegression()).fit(X, Y)
    report = MLCMReport.from_estimator(model, X, Y, thresholds=9, zero_division=0.0)
    scores = np.column_stack([proba[:, 1] for proba in model.predict_proba(X)])
    expected = mlcm_threshold_curve(Y, scores, thresholds=9)
    assert_allclose(report.threshold_curve.scores, expected.scores)
    assert_array_equal(report.threshold_curve.thresholds, expected.thresholds)
    assert report.report == mlcm_classification_report(
        Y, model.predict(X), output_dict=True, zero_division=0.0
    )


@pytest.mark.parametrize("multioutput", [False, True])
def test_from_estimator_label_of_one_class_in_training(multioutput):
    """A label with one class in training has one probability column: its
    class (estimator.classes_) says whether it is the probability of class 1
    (the report was refused, with advice from_estimator cannot follow)."""
    X, Y = _fitted_case()
    Y = Y.copy()
    Y[:, 0], Y[:, 2] = 0, 1
    tree = DecisionTreeClassifier(random_state=0)
    model = (MultiOutputClassifier(tree) if multioutput else tree).fit(X, Y)
    assert [p.shape[1] for p in model.predict_proba(X)] == [1, 2, 1]
    report = MLCMReport.from_estimator(model, X, Y, thresholds=9, zero_division=0.0)
    scores = np.column_stack(
        [np.zeros(len(X)), model.predict_proba(X)[1][:, 1], np.ones(len(X))]
    )
    expected = mlcm_threshold_curve(Y, scores, thresholds=9)
    assert_array_equal(report.threshold_curve.scores, expected.scores)
    assert_array_equal(report.threshold_curve.thresholds, expected.thresholds)


def test_from_estimator_decision_function_scores():
    """Without predict_proba the curve reads decision_function."""
    X, Y = _fitted_case()
    model = OneVsRestClassifier(RidgeClassifier()).fit(X, Y)
    assert not hasattr(model, "predict_proba")
    report = MLCMReport.from_estimator(model, X, Y, thresholds=9, zero_division=0.0)
    expected = mlcm_threshold_curve(Y, model.decision_function(X), thresholds=9)
    assert_allclose(report.threshold_curve.scores, expected.scores)
    assert report.threshold_curve.thresholds.min() < 0  # decision values


class _PredictOnly(ClassifierMixin, BaseEstimator):
    """A classifier without scores: it predicts the training rows' majority."""

    def fit(self, X, y):
        self.y_ = (np.asarray(y).mean(axis=0) >= 0.5).astype(int)
        return self

    def predict(self, X):
        return np.tile(self.y_, (len(X), 1))


def test_from_estimator_without_scores_or_with_classes_has_no_curve():
    """A classifier without scores, or 1-D class labels: no curve."""
    X, Y = _fitted_case()
    report = MLCMReport.from_estimator(
        _PredictOnly().fit(X, Y), X, Y, zero_division=0.0
    )
    assert report.threshold_curve is None
    classes = Y[:, 0] + Y[:, 1]
    model = LogisticRegression().fit(X, classes)
    report = MLCMReport.from_estimator(model, X, classes, zero_division=0.0)
    assert report.threshold_curve is None
    assert report.report == mlcm_classification_report(
        classes, model.predict(X), output_dict=True, zero_division=0.0
    )


def test_from_estimator_frame_columns_name_the_labels():
    """A frame y: its column names name the labels (predict gives an array)."""
    pd = pytest.importorskip("pandas")
    X, Y = _fitted_case()
    frame = pd.DataFrame(Y, columns=["x", "y", "z"])
    model = MultiOutputClassifier(LogisticRegression()).fit(X, Y)
    report = MLCMReport.from_estimator(
        model, X, frame, labels=["z", "x"], thresholds=5, zero_division=0.0
    )
    assert report.target_names == ["z", "x"]
    assert report.threshold_curve.target_names == ["z", "x"]
    assert_array_equal(
        report.confusion_matrix,
        mlcm_confusion_matrix(Y, model.predict(X), labels=[2, 0]),
    )


def test_from_estimator_refuses_a_regressor():
    """The estimator must be a classifier, named in the message."""
    from sklearn.linear_model import Ridge

    X, Y = _fitted_case()
    with pytest.raises(ValueError, match="'estimator' parameter of MLCMReport"):
        MLCMReport.from_estimator(Ridge().fit(X, Y), X, Y)


# -- the repr, the pictures, the frame ----------------------------------------------


def test_repr_is_short_and_says_the_headline():
    """The repr: at most six lines, the labels, instances, method, F1 with
    intervals, the top confusion and the best threshold, said to be
    in-sample, with where thresholds chosen out of sample come from."""
    report = MLCMReport.from_predictions(
        T,
        P,
        y_score=SCORES,
        target_names=TABLE_1_NAMES,
        thresholds=[0.3, 0.5, 0.7],
        zero_division=0.0,
        **INTERVALS,
    )
    lines = repr(report).splitlines()
    assert len(lines) <= 6
    micro, macro = report.report["micro avg"], report.report["macro avg"]
    assert lines == [
        "MLCMReport: 3 labels (C0, C1, C2), 9 instances, method='heydarian'",
        f"micro F1 0.43 [{micro['f1-score low']:.2f}, {micro['f1-score high']:.2f}]"
        f", macro F1 0.40 [{macro['f1-score low']:.2f}, "
        f"{macro['f1-score high']:.2f}] (flagged: {macro['f1-score flag']})",
        report.interval_legend,
        "most confused: C0 -> C2 (4)",
        f"best threshold: {report.threshold_curve.best_threshold:.3g} (macro F1 "
        f"{report.threshold_curve.scores.max():.2f}; in-sample, optimistic)",
        "  thresholds chosen out of sample: MLCMTunedThresholdClassifierCV",
    ]


def _tuned(**options):
    """A tuned estimator fitted on 150 instances of 4 labels, and 50 more."""
    from sklearn.datasets import make_multilabel_classification

    from sklearn_mlcm import MLCMTunedThresholdClassifierCV

    X, y = make_multilabel_classification(
        n_samples=200, n_classes=4, n_features=8, random_state=0
    )
    tuned = MLCMTunedThresholdClassifierCV(
        OneVsRestClassifier(LogisticRegression()), random_state=0, **options
    ).fit(X[:150], y[:150])
    return tuned, X[150:], y[150:]


def test_from_estimator_of_a_tuned_estimator_carries_its_threshold_spread():
    """A report of MLCMTunedThresholdClassifierCV keeps its threshold_spread_
    (the columns of ``labels``, in their order) and its repr says how many
    thresholds were unstable across the folds; another estimator has
    none."""
    tuned, X, y = _tuned(cv=3)
    report = MLCMReport.from_estimator(tuned, X, y, zero_division=0.0)
    assert report.threshold_spread is tuned.threshold_spread_
    lines = repr(report).splitlines()
    assert lines[-2].endswith("; in-sample, optimistic)")
    assert lines[-1] == f"tuned thresholds: {tuned.threshold_spread_.headline()}"
    assert re.fullmatch(
        r"tuned thresholds: \d of 4 label thresholds unstable across 3 folds",
        lines[-1],
    )
    kept = MLCMReport.from_estimator(tuned, X, y, labels=[2, 0], zero_division=0.0)
    assert_array_equal(
        kept.threshold_spread.fold_thresholds, tuned.fold_thresholds_[:, [2, 0]]
    )
    assert_array_equal(
        kept.threshold_spread.best_threshold, tuned.best_threshold_[[2, 0]]
    )
    plain = MLCMReport.from_estimator(tuned.estimator_, X, y, zero_division=0.0)
    assert plain.threshold_spread is None


def test_repr_of_many_labels_lists_a_few_names():
    """With many labels the repr names five, then '...'; fractions print short."""
    y, pred, _ = _random_case(q=30)
    report = MLCMReport.from_predictions(y, pred, method="krstinic", zero_division=0.0)
    lines = repr(report).splitlines()
    assert lines[0] == (
        "MLCMReport: 30 labels (0, 1, 2, 3, 4, ...), 200 instances, method='krstinic'"
    )
    assert len(lines) == 3
    top = report.most_confused[0]
    assert lines[2] == f"most confused: {top.true} -> {top.predicted} ({top.value:.3g})"


def test_repr_first_line_fits_a_terminal_with_long_names():
    """Names too long to stand beside the counts go on a line of their own,
    whole, as many as fit 79 characters, then how many are left (bibtex's
    'TAG_...' names gave 104 characters, then one name cut short)."""
    y, pred, _ = _random_case(q=30)
    names = [f"TAG_a_rather_long_tag_name_number_{j}" for j in range(30)]
    report = MLCMReport.from_predictions(y, pred, target_names=names, zero_division=0.0)
    lines = repr(report).splitlines()
    assert lines[:2] == [
        "MLCMReport: 30 labels, 200 instances, method='heydarian'",
        "labels: TAG_a_rather_long_tag_name_number_0, ... and 29 more",
    ]


def test_repr_names_many_labels_whole_and_counts_the_rest():
    """983 labels named as delicious's: the repr lists whole names, as many as
    fit one line, and how many more there are (it printed one name cut to
    'TAG_.impo...'); a name longer than a line is cut, within 79 characters."""
    names = ["TAG_.imported", "TAG_.net", "TAG_2.0", "TAG_2007", "TAG_3d"]
    names += [f"TAG_{j}" for j in range(983 - len(names))]
    rng = np.random.default_rng(0)
    y = (rng.random((1000, 983)) < 0.01).astype(int)
    report = MLCMReport.from_predictions(
        y, 1 - y, target_names=names, zero_division=0.0
    )
    lines = repr(report).splitlines()
    assert lines[:2] == [
        "MLCMReport: 983 labels, 1,000 instances, method='heydarian'",
        "labels: TAG_.imported, TAG_.net, TAG_2.0, TAG_2007, TAG_3d, ... and 978 more",
    ]
    assert all(len(line) <= 79 for line in lines)
    long = MLCMReport.from_predictions(
        y[:, :3], y[:, :3], target_names=["x" * 200, "b", "c"], zero_division=0.0
    )
    second = repr(long).splitlines()[1]
    assert second.startswith("labels: xxxx") and second.endswith("..., ... and 2 more")
    assert len(second) <= 79


def test_repr_one_label_one_instance_in_the_singular():
    """One label and one instance read '1 label', '1 instance' (not '1
    labels', '1 instances')."""
    report = MLCMReport.from_predictions([[1]], [[1]])
    assert repr(report).splitlines() == [
        "MLCMReport: 1 label (0), 1 instance, method='heydarian'",
        "micro F1 1.00, macro F1 1.00",
    ]


def test_repr_most_confused_line_shortens_its_names():
    """The "most confused" line cuts its names as the first line does: a
    1,000-character name or one holding a newline keeps the repr short (it
    printed both whole: 1,000 characters wide, or a line break inside)."""
    names = ["x" * 1000, "a\nb", "c"]
    report = MLCMReport.from_predictions(T, P, target_names=names, zero_division=0.0)
    lines = repr(report).splitlines()
    assert len(lines) == 4  # the names on a line of their own: one is long
    assert lines[3] == "most confused: xxxxxxxxxxxxxxxxxxxxxxxxx... -> c (4)"
    assert max(len(line) for line in lines) <= 79
    report = MLCMReport.from_predictions(
        T, P, target_names=["a\nb", "c", "d"], zero_division=0.0
    )
    assert repr(report).splitlines()[2] == r"most confused: a\nb -> d (4)"


def test_plot_refuses_names_matplotlib_cannot_draw_as_target_names():
    """A target name that is wrong mathtext is refused by plot() as the
    report's target_names (the message named 'display_labels', which
    MLCMReport.plot has not); the page draws it, escaped."""
    report = MLCMReport.from_predictions(
        T, P, target_names=["$\\frac{$", "b", "c"], zero_division=0.0
    )
    with pytest.raises(
        ValueError,
        match=r"The 'target_names' parameter of MLCMReport.plot must be names "
        r"matplotlib can draw",
    ):
        report.plot()
    assert "$\\frac{$" in report.to_html()


def test_plot_draws_the_stored_matrix_without_computing(kernel_calls):
    """plot() draws the stored matrix (no kernel call), all labels up to 40."""
    report = MLCMReport.from_predictions(
        T, P, target_names=TABLE_1_NAMES, zero_division=0.0
    )
    kernel_calls.clear()
    display = report.plot()
    assert kernel_calls == []
    assert isinstance(display, MLCMDisplay)
    assert_array_equal(display.im_.get_array(), TABLE_4J)
    ticks = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert ticks == [*TABLE_1_NAMES, "NTL"]
    assert display.ax_.get_title() == ""


def test_plot_auto_top_k_keeps_the_labels_most_confused():
    """Above 40 labels "auto" draws the 40 most involved in confusion, and
    says so in the title; top_k=None draws all."""
    y, pred, _ = _random_case(n=400, q=45)
    report = MLCMReport.from_predictions(y, pred, zero_division=0.0)
    display = report.plot(include_values=False)
    from sklearn_mlcm import most_confused_labels

    shown = most_confused_labels(report.confusion_matrix, top_k=40)
    assert_array_equal(display.shown_labels_, shown)
    index = np.append(shown, 45)
    assert_array_equal(
        display.im_.get_array(), report.confusion_matrix[np.ix_(index, index)]
    )
    assert display.ax_.get_title() == (
        "MLCM: 40 of 45 labels most involved in confusion"
    )
    everything = report.plot(top_k=None, include_values=False)
    assert everything.im_.get_array().shape == (46, 46)


def test_plot_normalize_and_cluster_order():
    """normalize shares each drawn row of its whole row; cluster orders."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    display = report.plot(top_k=2, normalize="true", order="cluster")
    cm = np.array(TABLE_4J, dtype=float)
    rows = cm / cm.sum(axis=1, keepdims=True)
    index = np.append(display.shown_labels_, 3)
    assert_allclose(display.im_.get_array(), rows[np.ix_(index, index)])
    assert display.ax_.get_title() == (
        "MLCM: 2 of 3 labels most involved in confusion, clustered"
    )


def test_plot_threshold_curve_draws_the_stored_curve():
    """plot_threshold_curve draws the stored curve and marks its best point."""
    report = MLCMReport.from_predictions(
        T, P, y_score=SCORES, thresholds=5, zero_division=0.0
    )
    display = report.plot_threshold_curve(label_lines=2)
    assert isinstance(display, MLCMThresholdCurveDisplay)
    assert_allclose(display.line_.get_ydata(), report.threshold_curve.scores)
    assert display.operating_index_ == report.threshold_curve.best_index
    assert list(display.label_lines_) == ["0", "1"]


def test_plot_threshold_curve_without_scores_raises():
    """Without scores there is no curve to draw: a ValueError that says why."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    with pytest.raises(ValueError, match="built without them. Pass y_score"):
        report.plot_threshold_curve()


def test_to_frame_rows_equal_the_report_dict():
    """One row per label then average, the dict's values, kind and intervals."""
    pytest.importorskip("pandas")
    report = MLCMReport.from_predictions(
        T, P, target_names=TABLE_1_NAMES, zero_division=0.0, **INTERVALS
    )
    frame = report.to_frame()
    assert frame.index.name == "label"
    assert list(frame.index) == list(report.report)
    assert list(frame["kind"]) == ["label"] * 3 + ["average"] * 4
    # kind, then the dict's columns: each score and amount, then the bounds
    # and flag of each score
    entry = next(iter(report.report.values()))
    bounds = [c for c in entry if c.endswith((" low", " high", " flag"))]
    assert list(frame.columns) == [
        "kind",
        *(c for c in entry if c not in bounds),
        *bounds,
    ]
    assert {"precision low", "f1-score high", "recall flag"} <= set(bounds)
    for name, entry in report.report.items():
        for column, value in entry.items():
            if column.endswith(" flag"):
                assert frame.loc[name, column] is value
            else:
                assert frame.loc[name, column] == value
    plain_report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    plain = plain_report.to_frame()
    plain_entry = next(iter(plain_report.report.values()))
    assert list(plain.columns) == ["kind", *plain_entry]


def test_to_frame_keeps_integral_amounts_as_integers():
    """weight and support are int64 when every value is an integer (as the
    text prints them), float64 with fractional weights; scores float64."""
    pytest.importorskip("pandas")
    frame = MLCMReport.from_predictions(T, P, zero_division=0.0).to_frame()
    assert frame["weight"].dtype == np.int64
    assert frame["support"].dtype == np.int64
    assert list(frame["weight"]) == [11, 6, 1, 18, 18, 18, 18]
    assert list(frame["support"]) == [7, 5, 1, 13, 13, 13, 13]
    assert frame["precision"].dtype == np.float64
    weighted = MLCMReport.from_predictions(
        T, P, sample_weight=WEIGHT, zero_division=0.0
    ).to_frame()
    assert weighted["weight"].dtype == np.float64
    assert weighted["support"].dtype == np.float64
    assert list(weighted["weight"]) == [15.5, 10.5, 2.0, 28.0, 28.0, 28.0, 28.0]
    assert list(weighted["support"]) == [9.5, 7.5, 2.0, 19.0, 19.0, 19.0, 19.0]


def test_to_frame_keeps_float64_for_whole_amounts_past_int64():
    """Whole weights and supports of 2**63 or more stay float64 in the frame,
    equal to the report's numbers (an int64 cast wrapped them to
    -9223372036854775808); smaller whole amounts still become int64."""
    pytest.importorskip("pandas")
    y_true = [[1, 0], [0, 1], [1, 1], [0, 0], [1, 0]]
    y_pred = [[1, 0], [1, 1], [1, 0], [0, 0], [0, 1]]
    report = MLCMReport.from_predictions(
        y_true, y_pred, sample_weight=np.full(5, 1e19), zero_division=0.0
    )
    frame = report.to_frame()
    assert frame["weight"].dtype == np.float64
    assert frame["support"].dtype == np.float64
    assert list(frame["weight"]) == [3e19, 3e19, 6e19, 6e19, 6e19, 6e19]
    assert list(frame["support"]) == [3e19, 2e19, 5e19, 5e19, 5e19, 5e19]
    for name, entry in report.report.items():
        assert frame.loc[name, "weight"] == entry["weight"]
        assert frame.loc[name, "support"] == entry["support"]
    below = MLCMReport.from_predictions(
        y_true, y_pred, sample_weight=np.full(5, 1e18), zero_division=0.0
    ).to_frame()
    assert below["weight"].dtype == np.int64
    assert list(below["weight"]) == [3 * 10**18, 3 * 10**18, *[6 * 10**18] * 4]


@pytest.mark.parametrize("weight", [1e-10, 1e-300, 5e-324])
def test_tiny_weights_are_not_shown_as_zero(weight):
    """Weights below 1e-9 were "integers" (an absolute tolerance of 1e-9):
    the frame cast them to int64 zeros and the text, markdown and LaTeX
    printed weight and support 0 beside a recall of 0.33 (found by an
    adversarial hunt). The rounding tolerance is relative now: the frame
    keeps the report's float64 numbers and the outputs print them with
    significant digits."""
    pytest.importorskip("pandas")
    y_true = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
    y_pred = [[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 1]]
    report = MLCMReport.from_predictions(
        y_true, y_pred, sample_weight=np.full(4, weight), zero_division=0.0
    )
    frame = report.to_frame()
    assert frame["weight"].dtype == frame["support"].dtype == np.float64
    for name, entry in report.report.items():
        assert frame.loc[name, "weight"] == entry["weight"] > 0
        assert frame.loc[name, "support"] == entry["support"] > 0
    micro = f"{8 * weight:.3g}"
    assert micro != "0"
    text = mlcm_classification_report(
        y_true, y_pred, sample_weight=np.full(4, weight), zero_division=0.0
    )
    text_row = next(line for line in text.splitlines() if "micro avg" in line)
    assert text_row.split()[-2] == micro
    assert f"| micro avg | 0.67 | 0.50 | 0.57 | {micro} |" in report.to_markdown()
    assert f"{micro} &" in report.to_latex()


def test_weights_past_float64s_integers_print_in_significant_digits():
    """Whole weights of 1e300 printed 301-digit integers, digits float64 does
    not hold, hundreds of columns wide; they print as 2e+300."""
    y_true = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
    y_pred = [[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 1]]
    text = mlcm_classification_report(
        y_true, y_pred, sample_weight=np.full(4, 1e300), zero_division=0.0
    )
    assert max(len(line) for line in text.splitlines()) < 80
    assert "8e+300" in text and "6e+300" in text
    # a huge amount alone prints so: the others in its column as they would
    # (12 printed as 1e+01 beside 9e+15, found by a review)
    mixed = mlcm_classification_report(
        y_true, y_pred, sample_weight=[1e300, 12345, 12345, 12345], zero_division=0.0
    )
    row = next(line for line in mixed.splitlines() if line.lstrip().startswith("1 "))
    assert row.split()[-2:] == ["37035", "24690"]


def test_to_frame_and_page_count_the_no_label_row_apart():
    """With include_no_label the "no label" row is of kind "no label", not a
    label, and the page's heading counts the real labels only."""
    pytest.importorskip("pandas")
    report = MLCMReport.from_predictions(
        T, P, target_names=TABLE_1_NAMES, include_no_label=True, zero_division=0.0
    )
    frame = report.to_frame()
    assert list(frame.index[:4]) == [*TABLE_1_NAMES, "no label"]
    assert list(frame["kind"]) == ["label"] * 3 + ["no label"] + ["average"] * 4
    assert "<h3>Every label (3), in the order of the matrix</h3>" in (report.to_html())
    # without include_no_label a label may be named "no label": it is a label
    named = MLCMReport.from_predictions(
        T, P, target_names=["a", "b", "no label"], zero_division=0.0
    ).to_frame()
    assert list(named["kind"]) == ["label"] * 3 + ["average"] * 4


def test_repr_shortens_the_most_confused_names():
    """A long name, or one with a line break, in the most confused pair is
    cut to one short line: the repr keeps its lines."""
    long = "a" * 60 + "\nsecond line"
    report = MLCMReport.from_predictions(
        T, P, target_names=[long, "C1", "C2"], zero_division=0.0
    )
    lines = repr(report).splitlines()
    assert len(lines) == 4  # the names on a line of their own: one is long
    assert lines[3] == "most confused: " + "a" * 25 + "... -> C2 (4)"


def test_to_html_refuses_a_path_in_its_declared_validation(tmp_path, monkeypatch):
    """The path check is a rule of to_html's @validate_params: the refusal
    comes before the page module is reached at all, with the whole path."""
    from sklearn_mlcm._reporting import _page

    reached = []
    monkeypatch.setattr(_page, "write_page", lambda *args: reached.append(args))
    monkeypatch.setattr(_page, "render_page", lambda *args: reached.append(args))
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    expected = (
        "The 'path' parameter of MLCMReport.to_html must be a file to write "
        f"(it is a directory). Got {str(tmp_path)!r} instead."
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        report.to_html(tmp_path)
    assert reached == []


def test_report_options_share_the_classification_reports_constraints():
    """The report's options are declared once (_report.REPORT_CONSTRAINTS):
    both constructors and mlcm_classification_report hold those very
    constraints, so that they cannot drift apart."""
    from sklearn_mlcm._report._classification_report import REPORT_CONSTRAINTS

    assert "confidence_level" in REPORT_CONSTRAINTS
    for function in (
        MLCMReport.from_predictions,
        MLCMReport.from_estimator,
        mlcm_classification_report,
    ):
        declared = function.__mlcm_constraints__
        for name, constraints in REPORT_CONSTRAINTS.items():
            assert declared[name] is constraints, (function, name)


def test_to_frame_without_pandas_says_how_to_install(monkeypatch):
    """Without pandas, an ImportError naming the extra to install."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(
        ImportError,
        match=r"MLCMReport.to_frame\(\) requires pandas.*"
        r'pip install "sklearn-mlcm\[pandas\]"',
    ):
        report.to_frame()


# -- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "target_names, message",
    [
        (
            ["a", "b"],
            r"'target_names' parameter of MLCMReport.from_predictions must "
            r"have one name per label: 3 expected, got 2",
        ),
        (
            ["a", "b", "a"],
            r"must be unique.*'a' is used twice. Pass distinct "
            r"target_names",
        ),
        (["a", "macro avg", "c"], r"'macro avg' is used as a summary row"),
        ("abc", r"'target_names' parameter of MLCMReport.from_predictions must be"),
    ],
    ids=["length", "duplicate", "reserved", "string"],
)
def test_from_predictions_refuses_bad_target_names(target_names, message):
    """target_names of the wrong length, duplicated or a summary row's name
    are refused, naming the parameter."""
    with pytest.raises(ValueError, match=message):
        MLCMReport.from_predictions(T, P, target_names=target_names, zero_division=0.0)


def test_from_predictions_refuses_no_label_names_with_include_no_label():
    """With include_no_label, "no label", NTL and NPL name the extra rows."""
    for name, row in [
        ("no label", "a summary row"),
        ("NTL", "the no-true-label row"),
        ("NPL", "the no-predicted-label column"),
    ]:
        with pytest.raises(ValueError, match=f"{name!r} is used as {row}"):
            MLCMReport.from_predictions(
                T,
                P,
                target_names=["a", name, "c"],
                include_no_label=True,
                zero_division=0.0,
            )


@pytest.mark.parametrize(
    "y_score, options, message",
    [
        (
            SCORES[:5],
            {},
            r"y_score of MLCMReport.from_predictions must have one row "
            r"per instance of y_true: 9 expected, got 5",
        ),
        (
            SCORES[:, :2],
            {},
            r"must have the shape of the labels scored, "
            r"\(n_samples, n_labels\) = \(9, 3\). Got \(9, 2\)",
        ),
        (
            SCORES[:, :2],
            {"labels": [1, 0]},
            r"must have one column per column of "
            r"y_true, 3, before 'labels' keeps some. Got 2 columns",
        ),
        (np.where(SCORES > 0.5, np.nan, SCORES), {}, r"must hold finite scores"),
        (SCORES[:, 0], {}, r"must be 2-D"),
    ],
    ids=["rows", "columns", "labels", "nan", "1-D"],
)
def test_from_predictions_refuses_bad_scores(y_score, options, message):
    """Scores of the wrong shape or values are refused, naming y_score."""
    with pytest.raises(ValueError, match=message):
        MLCMReport.from_predictions(T, P, y_score=y_score, zero_division=0.0, **options)


def test_from_predictions_refuses_scores_of_class_labels():
    """A threshold curve needs 2-D indicators: scores of 1-D classes refused."""
    with pytest.raises(
        ValueError,
        match="y_score of MLCMReport.from_predictions "
        "scores the labels of 2-D indicator targets",
    ):
        MLCMReport.from_predictions([0, 1, 1], [0, 1, 0], y_score=np.eye(3)[:, :2])


def test_from_predictions_refuses_frame_scores_of_other_columns():
    """Frame scores must name each label of frame targets once."""
    pd = pytest.importorskip("pandas")
    y_true = pd.DataFrame(T, columns=["a", "b", "c"])
    y_pred = pd.DataFrame(P, columns=["a", "b", "c"])
    y_score = pd.DataFrame(SCORES, columns=["a", "b", "d"])
    with pytest.raises(
        ValueError,
        match=r"columns must name each label of y_true "
        r"once: \['a', 'b', 'c'\].*missing: \['c'\]",
    ):
        MLCMReport.from_predictions(y_true, y_pred, y_score=y_score)
    with pytest.raises(
        ValueError,
        match="y_score of MLCMReport.from_predictions is a frame with the columns",
    ):
        MLCMReport.from_predictions(T, P, y_score=y_score)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"n_resamples": 999},
            r"'n_resamples' parameter of "
            r"MLCMReport.from_predictions must be left at its default",
        ),
        ({"confidence_level": 0.95, "n_resamples": 10}, r"n_resamples"),
        ({"top_k": 0}, r"'top_k' parameter of MLCMReport.from_predictions"),
        ({"metric": "auc"}, r"'metric' parameter of MLCMReport.from_predictions"),
    ],
    ids=["no level", "too few", "top_k", "metric"],
)
def test_from_predictions_refuses_bad_options(options, message):
    """Interval options without a level, too few resamples and bad options
    are refused, naming the parameter."""
    with pytest.raises(ValueError, match=message):
        MLCMReport.from_predictions(T, P, zero_division=0.0, **options)


def test_from_predictions_refuses_a_bad_threshold_grid():
    """The curve's thresholds are checked as mlcm_threshold_curve checks them."""
    with pytest.raises(ValueError, match="thresholds"):
        MLCMReport.from_predictions(
            T, P, y_score=SCORES, thresholds=[0.5, 0.3], zero_division=0.0
        )


def test_from_predictions_frame_scores_name_their_extra_columns():
    """Frame scores with a column that is no label say which column and how to
    keep the labels (the message listed 'missing: []; repeated: []' only)."""
    pd = pytest.importorskip("pandas")
    columns = ["a", "b", "c"]
    y_true, y_pred = pd.DataFrame(T, columns=columns), pd.DataFrame(P, columns=columns)
    extra = pd.DataFrame(SCORES, columns=["b", "c", "a"]).assign(id=1.0)
    with pytest.raises(
        ValueError,
        match=r"\(missing: \[\]; repeated: \[\]; not a label: \['id'\]\)\. "
        r"Drop the other columns, or pass labels=",
    ):
        MLCMReport.from_predictions(y_true, y_pred, y_score=extra)


def test_from_predictions_frame_scores_need_each_label_once():
    """Frame scores with an extra or a repeated column are refused; with
    labels, extra columns are left out."""
    pd = pytest.importorskip("pandas")
    columns = ["a", "b", "c"]
    y_true, y_pred = pd.DataFrame(T, columns=columns), pd.DataFrame(P, columns=columns)
    extra = pd.DataFrame(
        np.column_stack([SCORES, SCORES[:, 0]]), columns=[*columns, "d"]
    )
    with pytest.raises(ValueError, match=r"must name each label of y_true once"):
        MLCMReport.from_predictions(y_true, y_pred, y_score=extra)
    repeated = pd.DataFrame(SCORES, columns=["a", "b", "b"])
    with pytest.raises(ValueError, match=r"repeated: \['b'\]"):
        MLCMReport.from_predictions(y_true, y_pred, y_score=repeated)
    report = MLCMReport.from_predictions(
        y_true,
        y_pred,
        y_score=extra,
        labels=["c", "a"],
        thresholds=5,
        zero_division=0.0,
    )
    expected = mlcm_threshold_curve(T, SCORES, labels=[2, 0], thresholds=5)
    assert_allclose(report.threshold_curve.label_scores, expected.label_scores)
    assert report.target_names == ["c", "a"]


def test_from_predictions_array_scores_beside_frames_by_position():
    """Array scores beside frame targets are in the frames' column order;
    labels keep the same columns."""
    pd = pytest.importorskip("pandas")
    columns = ["a", "b", "c"]
    y_true, y_pred = pd.DataFrame(T, columns=columns), pd.DataFrame(P, columns=columns)
    report = MLCMReport.from_predictions(
        y_true,
        y_pred,
        y_score=SCORES,
        labels=["c", "a"],
        thresholds=5,
        zero_division=0.0,
    )
    expected = mlcm_threshold_curve(T, SCORES, labels=[2, 0], thresholds=5)
    assert_allclose(report.threshold_curve.label_scores, expected.label_scores)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_from_predictions_matches_the_public_functions_on_random_cases(
    mlcm_strategies, data
):
    """On random targets, weights and scores, every part of the report equals
    the public function that computes it alone."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    method = data.draw(st.sampled_from(["heydarian", "krstinic"]))
    n, q = y_true.shape
    seed = data.draw(st.integers(0, 2**16))
    y_score = np.random.default_rng(seed).random((n, q))
    options = {"sample_weight": weight, "method": method, "zero_division": 0.0}
    report = MLCMReport.from_predictions(
        y_true, y_pred, y_score=y_score, top_k=5, thresholds=4, **options
    )
    assert report.report == mlcm_classification_report(
        y_true, y_pred, output_dict=True, **options
    )
    matrix = mlcm_confusion_matrix(y_true, y_pred, sample_weight=weight, method=method)
    assert_array_equal(report.confusion_matrix, matrix)
    names = [str(i) for i in range(q)]
    assert report.most_confused == most_confused(matrix, top_k=5, target_names=names)
    assert report.labelset_confusions == labelset_confusions(
        y_true, y_pred, top_k=5, sample_weight=weight, target_names=names
    )
    curve = mlcm_threshold_curve(
        y_true, y_score, thresholds=4, sample_weight=weight, method=method
    )
    assert_array_equal(report.threshold_curve.thresholds, curve.thresholds)
    assert_allclose(report.threshold_curve.scores, curve.scores)
    assert report.n_samples == n


@pytest.mark.parametrize(
    "options",
    [{"thresholds": 5}, {"metric": "recall"}, {"average": "micro"}],
    ids=["thresholds", "metric", "average"],
)
def test_from_predictions_refuses_curve_options_without_scores(options):
    """A curve option without scores would be ignored: refused, naming it."""
    (name,) = options
    with pytest.raises(
        ValueError,
        match=f"'{name}' parameter of MLCMReport.from_predictions must be left "
        "at its default .* without scores",
    ):
        MLCMReport.from_predictions(T, P, zero_division=0.0, **options)


def test_from_estimator_refuses_curve_options_without_scores():
    """An estimator without scores and a curve option: refused, naming the
    option and from_estimator."""
    X, Y = _fitted_case()
    with pytest.raises(
        ValueError,
        match="'thresholds' parameter of MLCMReport.from_estimator must be left "
        "at its default",
    ):
        MLCMReport.from_estimator(
            _PredictOnly().fit(X, Y), X, Y, thresholds=5, zero_division=0.0
        )


def test_from_predictions_same_seed_same_intervals():
    """The same random_state gives the same intervals; another seed others."""
    first = MLCMReport.from_predictions(T, P, zero_division=0.0, **INTERVALS)
    again = MLCMReport.from_predictions(T, P, zero_division=0.0, **INTERVALS)
    other = MLCMReport.from_predictions(
        T, P, zero_division=0.0, **{**INTERVALS, "random_state": 1}
    )
    assert first.report == again.report
    assert first.report != other.report


def test_from_predictions_intervals_take_the_names(monkeypatch):
    """The report's intervals are read with the report's names, as
    mlcm_classification_report reads them (so that a warning about an
    interval names the label, not its index)."""
    import sklearn_mlcm._report._classification_report as report_module

    seen = []
    bounds = report_module._report_bounds

    def spy(targets, **options):
        seen.append(options["target_names"])
        return bounds(targets, **options)

    monkeypatch.setattr(report_module, "_report_bounds", spy)
    options = {"confidence_level": 0.9, "n_resamples": 99, "random_state": 0}
    report = MLCMReport.from_predictions(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        target_names=TABLE_1_NAMES,
        zero_division=0.0,
        **options,
    )
    expected = mlcm_classification_report(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        target_names=TABLE_1_NAMES,
        zero_division=0.0,
        output_dict=True,
        **options,
    )
    assert seen == [list(TABLE_1_NAMES), list(TABLE_1_NAMES)]
    assert report.report == expected
