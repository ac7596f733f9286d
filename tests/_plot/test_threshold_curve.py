"""MLCMThresholdCurveDisplay: the artists, the chosen labels, the checks."""

import importlib.util
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC

from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    MLCMThresholdCurveDisplay,
    mlcm_threshold_curve,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

Y_TRUE = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
Y_SCORE = np.array([[0.9, 0.4, 0.3], [0.2, 0.6, 0.5], [0.7, 0.3, 0.1], [0.1, 0.2, 0.8]])
GRID = [0.25, 0.5, 0.75]


def _legend(display):
    return [text.get_text() for text in display.ax_.get_legend().get_texts()]


def test_threshold_curve_display_from_predictions_artists():
    """The lines hold the curve's values; the best threshold is marked."""
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=GRID, one_vs_rest=True)
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, one_vs_rest=True, name="net"
    )
    assert_array_equal(display.line_.get_xdata(), GRID)
    assert_allclose(display.line_.get_ydata(), result.scores)
    assert_allclose(display.ovr_line_.get_ydata(), result.ovr_scores)
    assert display.ovr_line_.get_linestyle() == "--"
    assert display.operating_index_ == result.best_index == 1
    assert_allclose(display.operating_point_.get_xdata(), [0.5])
    assert_allclose(display.operating_point_.get_ydata(), [result.scores[1]])
    assert display.label_lines_ == {} and display.ovr_label_lines_ == {}
    assert _legend(display) == [
        "net: MLCM, macro",
        "net: one-vs-rest, macro (scikit-learn)",
        "best: threshold 0.5, 0.722",
    ]
    assert display.ax_.get_xlabel() == "Threshold"
    assert display.ax_.get_ylabel() == "F1"
    assert display.figure_ is display.ax_.figure


def test_threshold_curve_display_without_one_vs_rest_or_point():
    """No one-vs-rest line unless asked; operating_point=None marks nothing."""
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, operating_point=None, metric="recall"
    )
    assert display.ovr_line_ is None
    assert display.operating_point_ is None and display.operating_index_ is None
    assert display.ax_.get_ylabel() == "recall"
    assert _legend(display) == ["MLCM, macro"]


def test_threshold_curve_display_chosen_threshold_joins_the_grid():
    """A float operating point joins a grid made by from_predictions, so it
    is marked exactly; on a given grid plot marks the nearest threshold."""
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=5, operating_point=0.42
    )
    assert 0.42 in display.thresholds
    assert_allclose(display.operating_point_.get_xdata(), [0.42])
    assert _legend(display)[-1].startswith("chosen: threshold 0.42,")
    nearest = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, operating_point=0.55
    )
    assert nearest.operating_index_ == 1
    assert_array_equal(nearest.thresholds, GRID)


def test_threshold_curve_display_sparse_scores_refuse_an_operating_point_at_zero():
    """With sparse scores an operating point at or below 0 cannot join the
    grid (absent scores are 0): it is refused by its own name, not as a
    threshold the caller did not pass."""
    from scipy import sparse

    scores = sparse.csr_matrix(Y_SCORE * (Y_SCORE > 0.25))
    with pytest.raises(InvalidInputError, match="'operating_point' parameter .* 0.0"):
        MLCMThresholdCurveDisplay.from_predictions(Y_TRUE, scores, operating_point=0.0)
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, scores, thresholds=4, operating_point=0.5
    )
    assert 0.5 in display.thresholds


def test_threshold_curve_display_label_lines_by_name_and_by_regret():
    """label_lines names labels, or picks the k labels whose own best score
    is farthest above their score at the operating point."""
    names = ["cat", "dog", "bird"]
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=GRID, one_vs_rest=True)
    display = MLCMThresholdCurveDisplay.from_predictions(
        pd.DataFrame(Y_TRUE, columns=names),
        pd.DataFrame(Y_SCORE, columns=names),
        thresholds=GRID,
        one_vs_rest=True,
        label_lines=["bird", "cat"],
    )
    assert list(display.label_lines_) == ["bird", "cat"]
    assert list(display.ovr_label_lines_) == ["bird", "cat"]
    assert_allclose(display.label_lines_["bird"].get_ydata(), result.label_scores[:, 2])
    assert_allclose(
        display.ovr_label_lines_["cat"].get_ydata(), result.ovr_label_scores[:, 0]
    )
    assert "bird: MLCM, one-vs-rest" in _legend(display)
    # at the best threshold 0.5: label scores [1, 0.5, 2/3], best over the
    # curve [1, 0.667, 1]: the gaps are 0, 1/6 and 1/3
    assert_allclose(result.label_scores[1], [1.0, 0.5, 2 / 3])
    picked = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, label_lines=2
    )
    assert list(picked.label_lines_) == ["2", "1"]
    assert picked.figure_.get_size_inches()[0] > 6.4  # room for the legend


def test_threshold_curve_display_two_dimensional_thresholds():
    """Rows of per-label thresholds are drawn against the row number; a
    float operating point is refused for them."""
    grid = np.array([[0.2, 0.3, 0.4], [0.4, 0.5, 0.6], [0.6, 0.7, 0.8]])
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=grid
    )
    assert_array_equal(display.line_.get_xdata(), [0, 1, 2])
    assert display.ax_.get_xlabel() == "Threshold row"
    assert _legend(display)[-1].startswith(f"best: row {display.operating_index_}")
    with pytest.raises(
        InvalidParameterError, match='"best" or None for a curve of 2-D'
    ):
        MLCMThresholdCurveDisplay.from_predictions(
            Y_TRUE, Y_SCORE, thresholds=grid, operating_point=0.5
        )


def test_threshold_curve_display_plot_on_given_axes_with_keywords():
    """plot draws on the given axes with the given line keywords."""
    _, ax = plt.subplots()
    result = mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=GRID)
    display = MLCMThresholdCurveDisplay(
        result.thresholds, result.scores, label_scores=result.label_scores
    ).plot(
        ax=ax,
        curve_kwargs={"color": "tab:green"},
        operating_point_kw={"marker": "s"},
        label_lines=1,
        label_kw={"linewidth": 3},
    )
    assert display.ax_ is ax
    assert display.line_.get_color() == "tab:green"
    assert display.operating_point_.get_marker() == "s"
    assert display.label_lines_["2"].get_linewidth() == 3


def test_threshold_curve_display_from_estimator():
    """from_estimator scores with predict_proba (or decision_function), names
    the labels by a frame's columns and the legend by the estimator."""
    X, y = make_multilabel_classification(n_samples=120, n_classes=3, random_state=0)
    clf = OneVsRestClassifier(LogisticRegression(max_iter=500)).fit(X, y)
    display = MLCMThresholdCurveDisplay.from_estimator(
        clf,
        X,
        pd.DataFrame(y, columns=["a", "b", "c"]),
        thresholds=GRID,
        label_lines=["b"],
    )
    expected = mlcm_threshold_curve(y, clf.predict_proba(X), thresholds=GRID)
    assert_allclose(display.line_.get_ydata(), expected.scores)
    assert list(display.label_lines_) == ["b"]
    assert _legend(display)[0] == "OneVsRestClassifier: MLCM, macro"
    svc = OneVsRestClassifier(LinearSVC(dual=True, C=0.01, max_iter=20000)).fit(X, y)
    margins = MLCMThresholdCurveDisplay.from_estimator(
        svc, X, y, thresholds=[-1.0, 0.0, 1.0]
    )
    expected = mlcm_threshold_curve(
        y, svc.decision_function(X), thresholds=[-1.0, 0.0, 1.0]
    )
    assert_allclose(margins.line_.get_ydata(), expected.scores)


class _Scaled(ClassifierMixin, BaseEstimator):
    """A classifier whose predict_proba is not a probability."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=float) * 2.0


class _NoScores(ClassifierMixin, BaseEstimator):
    """A classifier with predict only."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros((len(X), 3), dtype=int)


def test_threshold_curve_display_from_estimator_refusals():
    """No scores, probabilities outside [0, 1], or no classifier: refused."""
    with pytest.raises(
        InvalidParameterError, match="predict_proba or decision_function"
    ):
        MLCMThresholdCurveDisplay.from_estimator(_NoScores().fit(0, 0), Y_SCORE, Y_TRUE)
    with pytest.raises(InvalidInputError, match=r"probabilities in \[0, 1\].*to 1.8"):
        MLCMThresholdCurveDisplay.from_estimator(_Scaled().fit(0, 0), Y_SCORE, Y_TRUE)
    with pytest.raises(InvalidParameterError, match="is_classifier"):
        MLCMThresholdCurveDisplay.from_estimator(
            LinearRegression().fit(Y_SCORE, Y_TRUE), Y_SCORE, Y_TRUE
        )


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"label_lines": ["fish"]}, InvalidInputError, r"unknown names \['fish'\]"),
        ({"label_lines": 11}, InvalidParameterError, "'label_lines' parameter"),
        ({"operating_point": np.inf}, InvalidParameterError, "'operating_point' param"),
        ({"operating_point": "worst"}, InvalidParameterError, "'operating_point'"),
        (
            {"average": "micro_all", "one_vs_rest": True},
            InvalidParameterError,
            "no one-vs-rest counterpart",
        ),
    ],
)
def test_threshold_curve_display_bad_parameters(kwargs, error, match):
    """Unknown labels, too many lines, a non-finite point are refused."""
    with pytest.raises(error, match=match):
        MLCMThresholdCurveDisplay.from_predictions(
            Y_TRUE, Y_SCORE, thresholds=GRID, **kwargs
        )


def test_threshold_curve_display_too_many_named_lines():
    """More than ten named labels are refused (the lines would not read)."""
    y_true = np.eye(12, dtype=int)
    names = [str(j) for j in range(11)]
    with pytest.raises(InvalidInputError, match="at most 10 labels"):
        MLCMThresholdCurveDisplay.from_predictions(
            y_true, np.eye(12) * 0.8, thresholds=GRID, label_lines=names
        )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scores": [0.1, 0.2]}, r"'scores' parameter .* of shape \(3,\)"),
        ({"ovr_scores": [[0.1, 0.2, 0.3]]}, "'ovr_scores' parameter"),
        ({"label_scores": np.zeros((2, 3))}, "one row per threshold"),
        (
            {"thresholds": np.zeros((3, 2)), "label_scores": np.zeros((3, 3))},
            "one column per label",
        ),
        (
            {"label_scores": np.zeros((3, 3)), "target_names": ["a"]},
            "one name per label",
        ),
    ],
)
def test_threshold_curve_display_bad_data(kwargs, match):
    """Arrays of shapes that do not fit together are refused by plot."""
    values = {"thresholds": GRID, "scores": [0.1, 0.2, 0.3], **kwargs}
    display = MLCMThresholdCurveDisplay(
        values.pop("thresholds"), values.pop("scores"), **values
    )
    with pytest.raises(InvalidInputError, match=match):
        display.plot()


def test_threshold_curve_display_refuses_thresholds_matplotlib_cannot_draw():
    """Scores near float64's ends make a right curve (mlcm_threshold_curve)
    that matplotlib cannot lay out: from_predictions and plot refuse it,
    saying why and what to do, instead of a wrong curve (the grid was
    [1.5e308, inf, nan]) or matplotlib's overflow."""
    y_score = Y_SCORE.copy()
    y_score[1, 0], y_score[0, 2] = -1.5e308, 1.5e308
    match = (
        r"'thresholds' parameter .* within \[-1e\+306, 1e\+306\] to be drawn.*"
        r"scale the scores down.* Got thresholds from -1\.5e\+308 to 1\.5e\+308"
    )
    with pytest.raises(InvalidInputError, match=match):
        MLCMThresholdCurveDisplay.from_predictions(Y_TRUE, y_score)
    with pytest.raises(InvalidInputError, match="from -1e\\+307 to 0 instead"):
        MLCMThresholdCurveDisplay([-1e307, 0.0], [0.5, 0.6]).plot()


def test_threshold_curve_display_draws_thresholds_up_to_its_bound():
    """Thresholds at the bound (-1e306 and 1e306, or 1e306 alone beside
    smaller ones) are drawn, ticks and all, without an overflow warning, in
    the figures of either size."""
    for grid, label_lines in (
        ([-1e306, 0.0, 1e306], None),
        ([0.0, 0.5e306, 1e306], 1),
        ([0.99e306, 1e306], None),
    ):
        display = MLCMThresholdCurveDisplay(
            grid, np.linspace(0.5, 0.7, len(grid)), label_scores=np.eye(len(grid))
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            display.plot(label_lines=label_lines)
            display.figure_.canvas.draw()
        assert_array_equal(display.line_.get_xdata(), grid)
        assert len(display.ax_.get_xticks()) > 1


def test_threshold_curve_display_label_lines_need_label_scores():
    """label_lines without label_scores: nothing to draw, refused."""
    with pytest.raises(InvalidInputError, match="without label_scores"):
        MLCMThresholdCurveDisplay(GRID, [0.1, 0.2, 0.3]).plot(label_lines=1)


def test_threshold_curve_display_without_matplotlib(monkeypatch):
    """Without matplotlib, plot and the constructors say how to install it."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name == "matplotlib" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(ImportError, match=r"pip install \"sklearn-mlcm\[plot\]\""):
        MLCMThresholdCurveDisplay(GRID, [0.1, 0.2, 0.3]).plot()
    with pytest.raises(ImportError, match="from_predictions requires"):
        MLCMThresholdCurveDisplay.from_predictions(Y_TRUE, Y_SCORE)


def _axes_width(display):
    """The drawn width of the display's axes, in inches."""
    display.figure_.canvas.draw()
    return display.ax_.get_window_extent().width / display.figure_.dpi


def test_threshold_curve_display_target_names_name_the_legend():
    """target_names name the label lines and their legend entries, and
    label_lines may pick labels by them; by default "column j"."""
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE,
        Y_SCORE,
        thresholds=GRID,
        target_names=["cat", "dog", "bird"],
        label_lines=["bird", "cat"],
    )
    assert display.target_names == ["cat", "dog", "bird"]
    assert list(display.label_lines_) == ["bird", "cat"]
    assert _legend(display) == [
        "MLCM, macro",
        "bird",
        "cat",
        "best: threshold 0.5, 0.722",
    ]
    plain = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, label_lines=2
    )
    assert _legend(plain)[1:3] == ["column 2", "column 1"]


def test_threshold_curve_display_legend_names_unnamed_labels_by_column():
    """Labels without names are their columns in the legend ('column 2', the
    index the other outputs print as the name; it said 'label 2'), also when
    ``labels`` keeps some; names that are numbers print as given (bibtex's
    '2005' read 'label 2005')."""
    kept = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, labels=[2, 0], label_lines=["2", "0"]
    )
    assert _legend(kept)[1:3] == ["column 2", "column 0"]
    assert_allclose(
        kept.label_lines_["2"].get_ydata(),
        mlcm_threshold_curve(Y_TRUE, Y_SCORE, thresholds=GRID).label_scores[:, 2],
    )
    years = ["2005", "2006", "2007"]
    named = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, target_names=years, label_lines=["2007"]
    )
    assert _legend(named)[1] == "2007"
    frame = MLCMThresholdCurveDisplay.from_predictions(
        pd.DataFrame(Y_TRUE, columns=years),
        pd.DataFrame(Y_SCORE, columns=years),
        thresholds=GRID,
        label_lines=["2006"],
    )
    assert _legend(frame)[1] == "2006"
    made = MLCMThresholdCurveDisplay(
        GRID, [0.5, 0.6, 0.4], label_scores=np.ones((3, 2)), ovr_label_scores=None
    ).plot(label_lines=["1"])
    assert _legend(made)[1] == "column 1"


def test_threshold_curve_display_legend_explains_every_line_style():
    """With the one-vs-rest lines, a label's legend entry draws both of its
    lines, solid and dashed in its colour, and says which is which (only the
    averages' dashed line was explained)."""
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE,
        Y_SCORE,
        thresholds=GRID,
        target_names=["cat", "dog", "bird"],
        one_vs_rest=True,
        label_lines=["bird", "cat"],
    )
    assert _legend(display) == [
        "MLCM, macro",
        "one-vs-rest, macro (scikit-learn)",
        "bird: MLCM, one-vs-rest",
        "cat: MLCM, one-vs-rest",
        "best: threshold 0.5, 0.722",
    ]
    legend = display.ax_.get_legend()
    for label in ["bird", "cat"]:
        color = display.label_lines_[label].get_color()
        assert display.ovr_label_lines_[label].get_color() == color
        drawn = [
            line.get_linestyle()
            for line in legend.findobj(matplotlib.lines.Line2D)
            if line.get_color() == color
        ]
        assert sorted(drawn) == ["-", "--"]
    black = [
        line.get_linestyle()
        for line in legend.findobj(matplotlib.lines.Line2D)
        if line.get_color() == "black"
    ]
    assert sorted(black) == ["-", "--"]
    alone = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE, Y_SCORE, thresholds=GRID, label_lines=["1"]
    )
    assert _legend(alone) == ["MLCM, macro", "column 1", "best: threshold 0.5, 0.722"]


def test_threshold_curve_display_from_estimator_target_names_over_columns():
    """from_estimator's target_names name the labels instead of the columns
    of a frame y, also with labels; wrong lengths are refused."""
    X, y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    clf = OneVsRestClassifier(LogisticRegression(max_iter=500)).fit(X, y)
    frame = pd.DataFrame(y, columns=["a", "b", "c"])
    display = MLCMThresholdCurveDisplay.from_estimator(
        clf,
        X,
        frame,
        thresholds=GRID,
        labels=["c", "a"],
        target_names=["C", "A"],
        label_lines=["A"],
    )
    assert display.target_names == ["C", "A"]
    assert _legend(display)[1] == "A"
    with pytest.raises(
        InvalidInputError,
        match="'target_names' parameter of MLCMThresholdCurveDisplay.from_estimator "
        "must have one name per label: 2 expected, got 3",
    ):
        MLCMThresholdCurveDisplay.from_estimator(
            clf,
            X,
            frame,
            thresholds=GRID,
            labels=["c", "a"],
            target_names=["C", "A", "B"],
        )
    with pytest.raises(InvalidInputError, match="'x' is used twice"):
        MLCMThresholdCurveDisplay.from_predictions(
            Y_TRUE, Y_SCORE, thresholds=GRID, target_names=["x", "y", "x"]
        )


def test_threshold_curve_display_long_names_do_not_squeeze_the_axes():
    """Names beyond 30 characters end with an ellipsis; the legend beside
    the axes widens the figure made, and the axes keep at least the width
    they have without it."""
    names = ["a" * 80, "b" * 31, "c" * 30]
    bare = MLCMThresholdCurveDisplay.from_predictions(Y_TRUE, Y_SCORE, thresholds=GRID)
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_TRUE,
        Y_SCORE,
        thresholds=GRID,
        target_names=names,
        label_lines=3,
        one_vs_rest=True,
        name="x" * 40,
    )
    legend = _legend(display)
    assert legend[0] == "x" * 29 + "\N{HORIZONTAL ELLIPSIS}: MLCM, macro"
    both = ": MLCM, one-vs-rest"
    assert set(legend[2:5]) == {
        "a" * 29 + "…" + both,
        "b" * 29 + "…" + both,
        "c" * 30 + both,
    }
    assert all(len(text) <= 30 + len(both) for text in legend[2:5])
    assert display.figure_.get_size_inches()[0] > 6.4 + 2.0
    assert bare.figure_.get_size_inches()[0] == 6.4
    assert _axes_width(display) >= _axes_width(bare)
