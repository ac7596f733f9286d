"""MLCMDisplay: the artists, the parameter checks, the bounds and legibility."""

import importlib.util
import inspect
import io
import subprocess
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsClassifier

from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    MLCMDisplay,
    mlcm_confusion_matrix,
    most_confused_labels,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Heydarian et al. (2022), Table 1 and its MLCM, Table 4 (j)
T, P = TABLE_1_TRUE, TABLE_1_PRED
CM = np.array(TABLE_4J)


def _ticks(labels):
    return [t.get_text() for t in labels]


def _texts(display):
    return [[t.get_text() for t in row] for row in display.text_]


def _random_matrix(n_rows, seed=0):
    """A sparse-ish count matrix: a heavy diagonal and a few confusions."""
    rng = np.random.default_rng(seed)
    cm = rng.poisson(0.02, (n_rows, n_rows))
    cm[np.diag_indices(n_rows)] += rng.integers(1, 50, n_rows)
    return cm


def test_mlcm_display_from_predictions_artists():
    """Image, tick labels of both axes, cell texts and axis titles of Table 4 (j)."""
    disp = MLCMDisplay.from_predictions(T, P, display_labels=["C0", "C1", "C2"])
    assert_array_equal(disp.im_.get_array(), TABLE_4J)
    assert _ticks(disp.ax_.get_yticklabels()) == ["C0", "C1", "C2", "NTL"]
    assert _ticks(disp.ax_.get_xticklabels()) == ["C0", "C1", "C2", "NPL"]
    assert _texts(disp) == [[str(v) for v in row] for row in TABLE_4J]
    assert disp.ax_.get_ylabel() == "True label (NTL: no true label)"
    assert disp.ax_.get_xlabel() == "Predicted label (NPL: no predicted label)"
    assert disp.figure_ is disp.ax_.figure
    assert len(disp.figure_.axes) == 2  # the matrix and its colorbar
    assert disp.ax_.get_xticklabels()[0].get_rotation() == 0


def test_mlcm_display_labels_none_occur():
    """1-D labels of which none occurs draw the matrix of that label space,
    every instance in the NTL/NPL corner, where scikit-learn's display
    refuses them (from_sklearn.rst, "Labels that occur nowhere"; #24)."""
    disp = MLCMDisplay.from_predictions([0, 1, 2, 0], [0, 2, 1, 0], labels=[5, 6])
    assert_array_equal(disp.im_.get_array(), [[0, 0, 0], [0, 0, 0], [0, 0, 4]])
    assert _ticks(disp.ax_.get_yticklabels()) == ["5", "6", "NTL"]


def test_mlcm_display_colorbar_as_high_as_the_matrix():
    """The colour bar spans the square matrix, not the taller axes box."""
    for y in (np.array(T), np.eye(18, dtype=int)):
        disp = MLCMDisplay.from_predictions(y, y)
        disp.figure_.canvas.draw()
        matrix = disp.ax_.get_window_extent()
        bar = disp.figure_.axes[1].get_window_extent()
        assert bar.height == pytest.approx(matrix.height, rel=0.01)
        assert bar.y0 == pytest.approx(matrix.y0, abs=1)
        assert bar.x0 > matrix.x1


def test_mlcm_display_text_colour_contrast():
    """Light text on dark cells and dark text on light cells."""
    disp = MLCMDisplay.from_predictions(T, P, cmap="viridis")
    dark, light = disp.im_.cmap(0.0), disp.im_.cmap(1.0)
    # 5 is the largest cell (drawn light), 0 the smallest (drawn dark)
    assert disp.text_[0, 0].get_color() == dark
    assert disp.text_[0, 3].get_color() == light
    assert_allclose(disp.im_.get_clim(), (0, 5))


def test_mlcm_display_text_colour_follows_the_norm():
    """With vmax=10, a 4 is a dark cell (light text), a 5 a light one."""
    disp = MLCMDisplay(CM).plot(im_kw={"vmax": 10}, colorbar=False)
    assert disp.text_[0, 2].get_color() == disp.im_.cmap(1.0)
    assert disp.text_[0, 0].get_color() == disp.im_.cmap(0.0)


def test_mlcm_display_without_no_label_row_and_column():
    """include_no_label=False leaves NTL and NPL out of the picture."""
    disp = MLCMDisplay.from_predictions(T, P, include_no_label=False)
    assert_array_equal(disp.im_.get_array(), CM[:3, :3])
    assert _ticks(disp.ax_.get_xticklabels()) == ["0", "1", "2"]
    assert _ticks(disp.ax_.get_yticklabels()) == ["0", "1", "2"]
    assert disp.text_.shape == (3, 3)
    assert disp.ax_.get_ylabel() == "True label"
    assert disp.ax_.get_xlabel() == "Predicted label"


def test_mlcm_display_renamed_no_label():
    """The no-label row and column can be renamed separately."""
    disp = MLCMDisplay.from_predictions(
        T, P, ntl_label="no genre", npl_label="nothing predicted"
    )
    assert _ticks(disp.ax_.get_yticklabels())[-1] == "no genre"
    assert _ticks(disp.ax_.get_xticklabels())[-1] == "nothing predicted"
    assert disp.ax_.get_ylabel() == "True label (no genre: no true label)"
    assert disp.ax_.get_xlabel() == (
        "Predicted label (nothing predicted: no predicted label)"
    )
    # a tick label wider than its cell turns the x ticks vertical
    assert disp.ax_.get_xticklabels()[0].get_rotation() == 90


def test_mlcm_display_normalized_percentages():
    """A row-normalised matrix shows percentages, on the colour bar too."""
    disp = MLCMDisplay.from_predictions(T, P, normalize="true", values_format=".0%")
    assert _texts(disp)[0] == ["45%", "18%", "36%", "0%"]
    assert_allclose(disp.im_.get_array().sum(axis=1), 1.0)
    disp.figure_.canvas.draw()
    bar_ticks = _ticks(disp.figure_.axes[1].get_yticklabels())
    assert bar_ticks and all(t.endswith("%") for t in bar_ticks)


def test_mlcm_display_fractional_values():
    """Krstinić's fractions print with two decimals by default."""
    disp = MLCMDisplay.from_predictions(T, P, method="krstinic")
    assert _texts(disp)[0] == ["4.00", "0.83", "2.17", "0.00"]
    cm = mlcm_confusion_matrix(T, P, method="krstinic")
    assert_allclose(disp.im_.get_array(), cm)


def test_mlcm_display_integer_format_of_whole_floats():
    """values_format='d' prints float counts that are whole numbers (weights)."""
    disp = MLCMDisplay.from_predictions(
        T, P, sample_weight=np.full(9, 2.0), values_format="d"
    )
    assert _texts(disp)[0] == ["10", "4", "8", "0"]


def test_mlcm_display_whole_numbers_beyond_int64():
    """Whole-number cells of 2**63 and more (weights 1e19) print as the numbers
    they are, not as int64's wrapped -9223372036854775808 (#16 item 2)."""
    disp = MLCMDisplay.from_predictions(T, P, sample_weight=np.full(9, 1e19))
    assert _texts(disp)[0] == ["5e+19", "2e+19", "4e+19", "0"]  # fits a cell
    disp = MLCMDisplay.from_predictions(
        T, P, sample_weight=np.full(9, 1e19), values_format="d"
    )
    first = _texts(disp)[0]
    assert first == [str(int(v)) for v in 1e19 * np.array([5, 2, 4, 0])]
    assert first[0] == "50000000000000000000"
    assert not any(text.startswith("-") for row in _texts(disp) for text in row)


@pytest.mark.parametrize(
    "make, caller",
    [
        (
            lambda: MLCMDisplay.from_predictions(
                T, P, normalize="true", values_format="d"
            ),
            "MLCMDisplay.from_predictions",
        ),
        (
            lambda: MLCMDisplay.from_predictions(
                T, P, method="krstinic", values_format="d"
            ),
            "MLCMDisplay.from_predictions",
        ),
        (
            lambda: MLCMDisplay(CM / 2).plot(values_format="d"),
            "MLCMDisplay.plot",
        ),
    ],
)
def test_mlcm_display_integer_format_of_fractions_refused(make, caller):
    """values_format='d' on fractions raises instead of printing 0s and 1s."""
    with pytest.raises(
        ValueError,
        match=rf"'values_format' parameter of {caller} must be a format of "
        r"fractional numbers .*Got 'd' instead",
    ):
        make()


def test_mlcm_display_values_hidden_for_large_matrices():
    """Values hide above 30 rows unless include_values=True asks for them."""
    rng = np.random.default_rng(0)
    y = rng.random((200, 30)) < 0.1
    big = MLCMDisplay.from_predictions(y, y, colorbar=False)
    assert big.text_ is None
    forced = MLCMDisplay.from_predictions(y, y, include_values=True, colorbar=False)
    assert forced.text_.shape == (31, 31)
    small = MLCMDisplay.from_predictions(y[:, :29], y[:, :29], colorbar=False)
    assert small.text_.shape == (30, 30)
    hidden = MLCMDisplay.from_predictions(T, P, include_values=False)
    assert hidden.text_ is None


def test_mlcm_display_forced_values_bounded():
    """include_values=True is refused above 100 rows (too many texts)."""
    with pytest.raises(
        ValueError,
        match=r"'include_values' parameter of MLCMDisplay.plot must be False or "
        r"'auto' for a matrix of more than 100 rows \(101 here",
    ):
        MLCMDisplay(np.eye(101)).plot(include_values=True)


def test_mlcm_display_figure_size_grows_then_is_capped():
    """0.45 inch per cell plus room for labels, from 6.4 x 4.8 to 12 x 10."""
    small = MLCMDisplay.from_predictions(T, P)
    assert_allclose(small.figure_.get_size_inches(), (6.4, 4.8))
    y = np.eye(18, dtype=int)
    medium = MLCMDisplay.from_predictions(y, y)
    assert_allclose(medium.figure_.get_size_inches(), (0.45 * 19 + 3, 10))
    large = MLCMDisplay(_random_matrix(160)).plot()
    assert_allclose(large.figure_.get_size_inches(), (12, 10))


def test_mlcm_display_thousand_labels_bounded():
    """1,000 labels: a capped figure, about 25 labelled ticks, no texts, a PNG."""
    cm = sparse.csr_array(_random_matrix(1001))
    disp = MLCMDisplay(cm).plot()
    width, height = disp.figure_.get_size_inches()
    assert width <= 12 and height <= 10
    assert disp.text_ is None
    assert_array_equal(disp.im_.get_array(), cm.toarray())
    yticks = _ticks(disp.ax_.get_yticklabels())
    xticks = _ticks(disp.ax_.get_xticklabels())
    assert yticks == [str(i) for i in range(0, 1000, 50)] + ["NTL"]
    assert xticks == [str(i) for i in range(0, 1000, 50)] + ["NPL"]
    assert_array_equal(disp.ax_.get_yticks(), [*range(0, 1000, 50), 1000])
    buffer = io.BytesIO()
    disp.figure_.savefig(buffer, format="png")
    image = matplotlib.image.imread(io.BytesIO(buffer.getvalue()), format="png")
    assert image.shape[:2] == (round(100 * height), round(100 * width))


def test_mlcm_display_ticks_thinned_above_sixty_rows():
    """Every tick labelled up to 60 rows; a round step and NTL/NPL above."""
    full = MLCMDisplay(_random_matrix(60)).plot()
    assert len(full.ax_.get_yticklabels()) == 60
    assert full.ax_.get_yticklabels()[0].get_fontsize() >= 6
    thinned = MLCMDisplay(_random_matrix(61)).plot()
    assert _ticks(thinned.ax_.get_yticklabels()) == [
        *(str(i) for i in range(0, 60, 5)),
        "NTL",
    ]
    assert thinned.im_.get_interpolation() == "antialiased"
    if hasattr(thinned.im_, "get_interpolation_stage"):  # matplotlib >= 3.7
        assert thinned.im_.get_interpolation_stage() == "data"
    assert full.im_.get_interpolation() == "nearest"


def test_mlcm_display_sparse_matrix():
    """A sparse matrix (sparse_output=True) is drawn as its dense twin."""
    cm = mlcm_confusion_matrix(T, P, sparse_output=True)
    disp = MLCMDisplay(cm, display_labels=["C0", "C1", "C2"]).plot()
    assert_array_equal(disp.im_.get_array(), TABLE_4J)
    assert _texts(disp) == [[str(v) for v in row] for row in TABLE_4J]
    y_true, y_pred = sparse.csr_array(np.array(T)), sparse.csr_array(np.array(P))
    from_sparse = MLCMDisplay.from_predictions(y_true, y_pred, normalize="true")
    assert_allclose(
        from_sparse.im_.get_array(), mlcm_confusion_matrix(T, P, normalize="true")
    )


def test_mlcm_display_sparse_matrix_too_large():
    """A sparse matrix of more than 5,000 labels is refused, with a hint."""
    cm = sparse.csr_array((5002, 5002), dtype=np.int64)
    with pytest.raises(
        ValueError,
        match=r"MLCMDisplay.plot draws at most 5000 labels.*Got 5001 labels.*"
        r"labels=\[\.\.\.\]",
    ):
        MLCMDisplay(cm).plot()


def test_mlcm_display_plot_on_given_axes_with_keywords():
    """ax, colorbar, cmap, im_kw and text_kw reach matplotlib."""
    fig, ax = plt.subplots()
    disp = MLCMDisplay(CM).plot(
        ax=ax,
        colorbar=False,
        cmap="Blues",
        im_kw={"vmax": 10},
        text_kw={"fontsize": 13},
        xticks_rotation=45,
    )
    assert disp.ax_ is ax and disp.figure_ is fig
    assert len(fig.axes) == 1
    assert disp.im_.get_cmap().name == "Blues"
    assert disp.im_.get_clim() == (0, 10)
    assert disp.text_[0, 0].get_fontsize() == 13
    assert disp.ax_.get_xticklabels()[0].get_rotation() == 45
    assert_allclose(fig.get_size_inches(), (6.4, 4.8))  # the user's figure


def test_mlcm_display_colormap_object():
    """A matplotlib Colormap is accepted as well as its name."""
    disp = MLCMDisplay(CM).plot(cmap=matplotlib.colormaps["magma"])
    assert disp.im_.get_cmap().name == "magma"


def test_mlcm_display_from_estimator_with_dataframe_names():
    """from_estimator predicts; DataFrame columns name the labels."""
    pd = pytest.importorskip("pandas")
    X, y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    y = pd.DataFrame(y, columns=["red", "green", "blue"])
    model = KNeighborsClassifier().fit(X, y)
    disp = MLCMDisplay.from_estimator(model, X, y, normalize="pred", cmap="Blues")
    expected = mlcm_confusion_matrix(y.to_numpy(), model.predict(X), normalize="pred")
    assert_allclose(disp.im_.get_array(), expected)
    assert _ticks(disp.ax_.get_yticklabels()) == ["red", "green", "blue", "NTL"]
    assert disp.im_.get_cmap().name == "Blues"


def test_mlcm_display_from_estimator_lists_its_parameters():
    """from_estimator takes from_predictions' options by name, no **kwargs."""
    estimator = inspect.signature(MLCMDisplay.from_estimator).parameters
    predictions = inspect.signature(MLCMDisplay.from_predictions).parameters
    assert all(p.kind is not p.VAR_KEYWORD for p in estimator.values())
    assert list(estimator)[:3] == ["estimator", "X", "y"]
    assert list(estimator)[3:] == list(predictions)[2:]
    for name in list(estimator)[3:]:
        assert estimator[name].default == predictions[name].default


class _PredictOnly:
    """Has predict() but is no scikit-learn estimator (no tags)."""

    def predict(self, X):
        return X


def test_mlcm_display_from_estimator_refuses_non_classifiers():
    """A regressor or a non-estimator raises, naming 'estimator'."""
    X, y = make_multilabel_classification(n_samples=20, random_state=0)
    model = LinearRegression().fit(X, y)
    expected = (
        r"'estimator' parameter of MLCMDisplay.from_estimator must be a fitted "
        r"scikit-learn classifier .*Got "
    )
    with pytest.raises(ValueError, match=expected + "LinearRegression"):
        MLCMDisplay.from_estimator(model, X, y)
    with pytest.raises(ValueError, match=expected + "<.*_PredictOnly"):
        MLCMDisplay.from_estimator(_PredictOnly(), X, y)
    with pytest.raises(
        TypeError,
        match=r"'estimator' parameter of MLCMDisplay.from_estimator must be an "
        r"object implementing 'predict'. Got <object object",
    ):
        MLCMDisplay.from_estimator(object(), X, y)


def _plot(**kwargs):
    return MLCMDisplay(CM).plot(**kwargs)


def _predictions(**kwargs):
    return MLCMDisplay.from_predictions(T, P, **kwargs)


def _estimator(**kwargs):
    X, y = make_multilabel_classification(n_samples=20, n_classes=3, random_state=0)
    model = KNeighborsClassifier().fit(X, y)
    return MLCMDisplay.from_estimator(model, X, y, **kwargs)


@pytest.mark.parametrize(
    "make, kwargs, error, match",
    [
        (MLCMDisplay, {"confusion_matrix": "abc"}, TypeError, "'confusion_matrix' "),
        (
            MLCMDisplay,
            {"confusion_matrix": CM, "display_labels": "abc"},
            TypeError,
            "'display_labels' parameter of MLCMDisplay must be a list or None. "
            "Got 'abc'",
        ),
        (
            MLCMDisplay,
            {"confusion_matrix": CM, "display_labels": {"a", "b", "c"}},
            TypeError,
            "'display_labels' parameter of MLCMDisplay must be a list",
        ),
        (
            MLCMDisplay,
            {"confusion_matrix": CM, "ntl_label": 0},
            TypeError,
            "'ntl_label' parameter of MLCMDisplay must be a str. Got 0",
        ),
        (
            MLCMDisplay,
            {"confusion_matrix": CM, "npl_label": None},
            TypeError,
            "'npl_label' parameter of MLCMDisplay must be a str. Got None",
        ),
        (
            _plot,
            {"colorbar": "yes"},
            TypeError,
            "'colorbar' parameter of MLCMDisplay.plot must be a bool. Got 'yes'",
        ),
        (
            _plot,
            {"include_no_label": "no"},
            TypeError,
            "'include_no_label' parameter of MLCMDisplay.plot must be a bool. Got 'no'",
        ),
        (
            _plot,
            {"include_values": "yes"},
            ValueError,
            r"'include_values' parameter of MLCMDisplay.plot must be one of "
            r"\{'auto'\} or a bool. Got 'yes'|'include_values' parameter of "
            r"MLCMDisplay.plot must be a bool or one of \{'auto'\}. Got 'yes'",
        ),
        (
            _plot,
            {"xticks_rotation": "diagonal"},
            ValueError,
            "'xticks_rotation' parameter of MLCMDisplay.plot must be one of "
            r"\{'auto', 'horizontal', 'vertical'\} or a float .*Got 'diagonal'",
        ),
        (
            _plot,
            {"xticks_rotation": float("nan")},
            ValueError,
            "'xticks_rotation' parameter of MLCMDisplay.plot .*Got nan",
        ),
        (
            _plot,
            {"values_format": 2},
            TypeError,
            "'values_format' parameter of MLCMDisplay.plot must be a str or None",
        ),
        (
            _plot,
            {"values_format": "{:.2f}"},
            ValueError,
            "'values_format' parameter of MLCMDisplay.plot must be a format "
            r"specification such as 'd', '.2f' or '.0%'. Got '\{:.2f\}'",
        ),
        (_plot, {"cmap": 3}, TypeError, "'cmap' parameter of MLCMDisplay.plot"),
        (
            _plot,
            {"ax": "left"},
            TypeError,
            "'ax' parameter of MLCMDisplay.plot must be an object implementing "
            "'imshow' or None",
        ),
        (
            _plot,
            {"im_kw": [("vmax", 1)]},
            TypeError,
            "'im_kw' parameter of MLCMDisplay.plot must be a dict or None",
        ),
        (
            _plot,
            {"text_kw": "big"},
            TypeError,
            "'text_kw' parameter of MLCMDisplay.plot must be a dict or None",
        ),
        (
            _predictions,
            {"normalize": "rows"},
            ValueError,
            "'normalize' parameter of MLCMDisplay.from_predictions must be one of "
            r"\{'all', 'pred', 'true'\} or None. Got 'rows'",
        ),
        (
            _predictions,
            {"method": "mlcm"},
            ValueError,
            "'method' parameter of MLCMDisplay.from_predictions",
        ),
        (
            _predictions,
            {"display_labels": "abc"},
            TypeError,
            "'display_labels' parameter of MLCMDisplay.from_predictions must be "
            "a list or None",
        ),
        (
            _predictions,
            {"colorbar": 1},
            TypeError,
            "'colorbar' parameter of MLCMDisplay.from_predictions must be a bool",
        ),
        (
            _predictions,
            {"values_format": "xyz"},
            ValueError,
            "'values_format' parameter of MLCMDisplay.from_predictions",
        ),
        (
            _predictions,
            {"colour_bar": True},
            TypeError,
            "MLCMDisplay.from_predictions: got an unexpected keyword argument "
            "'colour_bar'",
        ),
        (
            _estimator,
            {"include_no_label": "no"},
            TypeError,
            "'include_no_label' parameter of MLCMDisplay.from_estimator must be a bool",
        ),
        (
            _estimator,
            {"ntl_label": 1},
            TypeError,
            "'ntl_label' parameter of MLCMDisplay.from_estimator must be a str",
        ),
        (
            _predictions,
            {"top_k": -1},
            ValueError,
            "'top_k' parameter of MLCMDisplay.from_predictions must be an int",
        ),
        (
            _predictions,
            {"order": "clustered"},
            ValueError,
            r"'order' parameter of MLCMDisplay.from_predictions must be one of "
            r"\{'cluster', 'original'\}. Got 'clustered' instead",
        ),
        (
            _estimator,
            {"top_k": "20"},
            TypeError,
            "'top_k' parameter of MLCMDisplay.from_estimator must be an int",
        ),
        (
            _estimator,
            {"order": "cluster "},
            ValueError,
            "'order' parameter of MLCMDisplay.from_estimator must be one of",
        ),
    ],
)
def test_mlcm_display_bad_parameters(make, kwargs, error, match):
    """Each refused parameter is named, with the value that arrived."""
    with pytest.raises(error, match=match):
        make(**kwargs)


@pytest.mark.parametrize(
    "display, match",
    [
        (
            MLCMDisplay(CM, display_labels=["a", "b"]),
            "'display_labels' parameter of MLCMDisplay.plot must have one name "
            "per label: 3 expected, got 2",
        ),
        (
            MLCMDisplay(CM, display_labels=["a", "b", "a"]),
            "display_labels of MLCMDisplay.plot must be unique .*; 'a' is used "
            "twice. "
            "Pass distinct display_labels",
        ),
        (
            MLCMDisplay(np.ones((2, 3))),
            r"confusion_matrix of MLCMDisplay.plot must be a non-empty square 2-D "
            r"matrix. Got shape \(2, 3\)",
        ),
        (
            MLCMDisplay([[4]]),
            r"confusion_matrix of MLCMDisplay.plot must have shape \(n_labels \+ "
            r"1, n_labels \+ 1\) with n_labels >= 1. Got shape \(1, 1\)",
        ),
        (
            MLCMDisplay(-CM),
            "confusion_matrix of MLCMDisplay.plot must be non-negative",
        ),
    ],
)
def test_mlcm_display_bad_data(display, match):
    """What depends on the matrix is checked when plotting, naming the call."""
    with pytest.raises(ValueError, match=match):
        display.plot()


def test_mlcm_display_bad_display_labels_from_predictions():
    """display_labels of the wrong length name from_predictions."""
    with pytest.raises(
        ValueError,
        match="'display_labels' parameter of MLCMDisplay.from_predictions must "
        "have one name per label: 3 expected, got 4",
    ):
        MLCMDisplay.from_predictions(T, P, display_labels=list("abcd"))


def test_mlcm_display_saves_a_non_blank_png(tmp_path):
    """The saved PNG has the matrix's colours, not a blank canvas."""
    disp = MLCMDisplay.from_predictions(T, P)
    path = tmp_path / "mlcm.png"
    disp.figure_.savefig(path, dpi=60)
    image = matplotlib.image.imread(path)
    assert image.shape[0] > 200 and image.shape[1] > 300
    colours = np.unique(image[..., :3].reshape(-1, 3).round(2), axis=0)
    assert len(colours) > 50
    assert image[..., :3].std() > 0.1


def test_mlcm_display_without_matplotlib(monkeypatch):
    """Without matplotlib, plot raises ImportError with the install command."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name == "matplotlib" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(ImportError, match=r"pip install \"sklearn-mlcm\[plot\]\""):
        MLCMDisplay(CM).plot()
    with pytest.raises(ImportError, match="MLCMDisplay.from_predictions requires"):
        MLCMDisplay.from_predictions(T, P)
    with pytest.raises(ImportError, match="MLCMDisplay.from_estimator requires"):
        _estimator()


def test_import_does_not_import_matplotlib():
    """Importing the package never imports matplotlib."""
    code = "import sys, sklearn_mlcm; print('matplotlib' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def _overlaps(boxes):
    return any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def test_mlcm_display_movie_posters_legible(tmp_path, shared_data):
    """18 genres + NTL/NPL: values shown, tick labels and values do not collide."""
    posters = shared_data("posters", "gt.npy", "pred_t09.npy")
    y_true = np.load(posters / "gt.npy")
    y_pred = np.load(posters / "pred_t09.npy")
    names = [f"C{i}" for i in range(18)]
    disp = MLCMDisplay.from_predictions(
        y_true, y_pred, normalize="true", values_format=".0%", display_labels=names
    )
    assert disp.text_.shape == (19, 19)
    fig = disp.figure_
    fig.savefig(tmp_path / "posters.png", dpi=100)
    renderer = fig.canvas.get_renderer()
    xboxes = [t.get_window_extent(renderer) for t in disp.ax_.get_xticklabels()]
    yboxes = [t.get_window_extent(renderer) for t in disp.ax_.get_yticklabels()]
    assert not _overlaps(xboxes) and not _overlaps(yboxes)
    cell = disp.ax_.get_window_extent(renderer).width / 19
    widths = [t.get_window_extent(renderer).width for t in disp.text_.ravel()]
    assert max(widths) < cell
    assert min(t.get_fontsize() for t in disp.text_.ravel()) >= 6


# Five labels: 0 and 3 are confused with each other, so are 1 and 4; label 2 is
# rarely confused with another label but often missed (NPL) and predicted for
# nothing (NTL). Masses 11, 7, 1, 11, 6 (see tests/test_top_confusions.py).
FIVE = np.array(
    [
        [20, 0, 1, 6, 0, 3],
        [0, 15, 0, 0, 4, 2],
        [0, 0, 30, 0, 0, 9],
        [4, 1, 0, 25, 0, 1],
        [0, 2, 0, 0, 12, 0],
        [1, 0, 5, 0, 2, 0],
    ]
)
FIVE_NAMES = ["ant", "bee", "cat", "dog", "eel"]


def _targets_of(cm):
    """One-hot targets whose Heydarian MLCM is the count matrix ``cm``: one
    instance per unit of each cell, with one true and one predicted label
    (none for the NTL row and the NPL column)."""
    cm = np.asarray(cm)
    q = cm.shape[0] - 1
    one_hot = np.vstack([np.eye(q, dtype=int), np.zeros((1, q), dtype=int)])
    rows, cols = np.nonzero(cm)
    counts = cm[rows, cols]
    return (
        np.repeat(one_hot[rows], counts, axis=0),
        np.repeat(one_hot[cols], counts, axis=0),
    )


def test_mlcm_display_targets_of_five():
    """The targets built for the selection tests give the matrix FIVE."""
    assert_array_equal(mlcm_confusion_matrix(*_targets_of(FIVE)), FIVE)


def test_mlcm_display_top_k_cluster_draws_the_picked_block():
    """from_predictions with top_k=4, order="cluster" draws the block of
    most_confused_labels' labels 0, 3, 1, 4 and the no-label row and column,
    says so in the title, and keeps the drawn labels' names."""
    disp = MLCMDisplay.from_predictions(
        *_targets_of(FIVE), display_labels=FIVE_NAMES, top_k=4, order="cluster"
    )
    assert_array_equal(disp.shown_labels_, [0, 3, 1, 4])
    assert_array_equal(
        disp.im_.get_array(),
        [
            [20, 6, 0, 0, 3],
            [4, 25, 1, 0, 1],
            [0, 0, 15, 4, 2],
            [0, 0, 2, 12, 0],
            [1, 0, 0, 2, 0],
        ],
    )
    assert_array_equal(disp.confusion_matrix, disp.im_.get_array())
    assert disp.display_labels == ["ant", "dog", "bee", "eel"]
    assert _ticks(disp.ax_.get_yticklabels()) == ["ant", "dog", "bee", "eel", "NTL"]
    assert _ticks(disp.ax_.get_xticklabels()) == ["ant", "dog", "bee", "eel", "NPL"]
    assert _texts(disp)[1] == ["4", "25", "1", "0", "1"]
    assert disp.ax_.get_title() == (
        "MLCM: 4 of 5 labels most involved in confusion, clustered"
    )


def test_mlcm_display_top_k_keeps_label_order():
    """With order="original" (the default) the drawn labels keep their order;
    the title says how many are drawn."""
    disp = MLCMDisplay.from_predictions(
        *_targets_of(FIVE), display_labels=FIVE_NAMES, top_k=4
    )
    assert_array_equal(disp.shown_labels_, [0, 1, 3, 4])
    assert_array_equal(
        disp.im_.get_array(), FIVE[np.ix_([0, 1, 3, 4, 5], [0, 1, 3, 4, 5])]
    )
    assert _ticks(disp.ax_.get_yticklabels()) == ["ant", "bee", "dog", "eel", "NTL"]
    assert disp.ax_.get_title() == "MLCM: 4 of 5 labels most involved in confusion"


def test_mlcm_display_top_k_without_no_label():
    """include_no_label=False draws the k x k block of the picked labels."""
    disp = MLCMDisplay.from_predictions(
        *_targets_of(FIVE), top_k=2, order="cluster", include_no_label=False
    )
    assert_array_equal(disp.shown_labels_, [0, 3])
    assert_array_equal(disp.im_.get_array(), [[20, 6], [4, 25]])
    assert _ticks(disp.ax_.get_xticklabels()) == ["0", "3"]
    assert disp.ax_.get_title() == (
        "MLCM: 2 of 5 labels most involved in confusion, clustered"
    )


def test_mlcm_display_top_k_at_least_all_labels():
    """top_k >= n_labels draws every label (no error); the title says all; by
    default there is no title, as in ConfusionMatrixDisplay."""
    targets = _targets_of(FIVE)
    for top_k in (5, 6, 1000):
        disp = MLCMDisplay.from_predictions(*targets, top_k=top_k)
        assert_array_equal(disp.shown_labels_, np.arange(5))
        assert_array_equal(disp.im_.get_array(), FIVE)
        assert disp.ax_.get_title() == "MLCM: all 5 labels"
    default = MLCMDisplay.from_predictions(*targets)
    assert_array_equal(default.shown_labels_, np.arange(5))
    assert default.ax_.get_title() == ""
    clustered = MLCMDisplay.from_predictions(T, P, order="cluster")
    assert_array_equal(clustered.shown_labels_, [1, 2, 0])  # Table 4 (j)
    assert clustered.ax_.get_title() == "MLCM: all 3 labels, clustered"
    assert_array_equal(
        clustered.im_.get_array(),
        [[2, 3, 0, 1], [0, 1, 0, 0], [2, 4, 5, 0], [1, 1, 0, 1]],
    )


def test_mlcm_display_plot_draws_only():
    """plot() draws the matrix it is given: choosing labels is the
    constructors' (top_k, order) or most_confused_labels'."""
    parameters = inspect.signature(MLCMDisplay.plot).parameters
    assert "top_k" not in parameters and "order" not in parameters
    with pytest.raises(TypeError, match="unexpected keyword argument 'top_k'"):
        MLCMDisplay(FIVE).plot(top_k=2)
    shown = most_confused_labels(FIVE, top_k=2, order="cluster")
    index = [*shown, 5]
    block = MLCMDisplay(
        FIVE[np.ix_(index, index)], display_labels=[FIVE_NAMES[i] for i in shown]
    ).plot()
    picked = MLCMDisplay.from_predictions(
        *_targets_of(FIVE), display_labels=FIVE_NAMES, top_k=2, order="cluster"
    )
    assert_array_equal(block.im_.get_array(), picked.im_.get_array())
    assert _ticks(block.ax_.get_yticklabels()) == _ticks(picked.ax_.get_yticklabels())
    assert not hasattr(block, "shown_labels_")


def test_mlcm_display_top_k_sparse_beyond_dense_limit():
    """Sparse targets of 20,000 labels (a dense matrix would be 3.2 GB) draw
    with top_k, and by default (40 labels): only the picked block is made
    dense. The refusal of top_k=None (every label) says to use top_k."""
    n_labels = 20_000
    rows = [0, 1, 2, 3, 4, 5]
    true_cols = [10, 10, 19_000, 10, 19_000, 19_000]
    pred_cols = [10, 19_000, 10, 10, 19_000, 19_000]
    y_true = sparse.csr_array(
        (np.ones(6, dtype=np.int8), (rows, true_cols)), shape=(6, n_labels)
    )
    y_pred = sparse.csr_array(
        (np.ones(6, dtype=np.int8), (rows, pred_cols)), shape=(6, n_labels)
    )
    disp = MLCMDisplay.from_predictions(y_true, y_pred, top_k=2, order="cluster")
    assert_array_equal(disp.shown_labels_, [10, 19_000])
    assert_array_equal(disp.im_.get_array(), [[2, 1, 0], [1, 2, 0], [0, 0, 0]])
    assert _ticks(disp.ax_.get_yticklabels()) == ["10", "19000", "NTL"]
    assert disp.ax_.get_title() == (
        "MLCM: 2 of 20,000 labels most involved in confusion, clustered"
    )
    # the default (top_k="auto") draws 40: the two confused labels and the
    # first 38 others (of mass 0: ties go to the earlier label)
    auto = MLCMDisplay.from_predictions(y_true, y_pred)
    assert_array_equal(auto.shown_labels_, [*range(39), 19_000])
    assert auto.ax_.get_title() == (
        "MLCM: 40 of 20,000 labels most involved in confusion"
    )
    with pytest.raises(
        InvalidInputError,
        match=r"MLCMDisplay.from_predictions draws at most 5000 labels.*Got 20000 "
        r"labels.*top_k=",
    ):
        MLCMDisplay.from_predictions(y_true, y_pred, top_k=None)


def test_mlcm_display_from_estimator_top_k_and_order():
    """from_estimator picks the labels of the matrix of predict's output as
    most_confused_labels does."""
    X, y = make_multilabel_classification(n_samples=60, n_classes=5, random_state=0)
    model = KNeighborsClassifier().fit(X, y)
    disp = MLCMDisplay.from_estimator(model, X, y, top_k=3, order="cluster")
    cm = mlcm_confusion_matrix(y, model.predict(X))
    shown = most_confused_labels(cm, top_k=3, order="cluster")
    assert_array_equal(disp.shown_labels_, shown)
    index = [*shown, 5]
    assert_array_equal(disp.im_.get_array(), cm[np.ix_(index, index)])
    assert list(disp.display_labels) == list(shown)


def test_mlcm_display_from_estimator_dataframe_labels_subset():
    """With a frame y, labels= names columns and predict's array is matched
    to them by position (predict's columns are y's)."""
    pd = pytest.importorskip("pandas")
    X, y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    frame = pd.DataFrame(y, columns=["red", "green", "blue"])
    model = KNeighborsClassifier().fit(X, frame)
    disp = MLCMDisplay.from_estimator(model, X, frame, labels=["blue", "red"])
    expected = mlcm_confusion_matrix(y, model.predict(X), labels=[2, 0])
    assert_allclose(disp.im_.get_array(), expected)
    assert _ticks(disp.ax_.get_yticklabels()) == ["blue", "red", "NTL"]
    with pytest.raises(ValueError, match="'labels' parameter .* not in the DataFrame"):
        MLCMDisplay.from_estimator(model, X, frame, labels=["pink"])


@pytest.mark.parametrize(
    "parameter, value",
    [("display_labels", ["$\\foo$", "b", "c"]), ("ntl_label", "$\\frac{1$")],
)
def test_mlcm_display_invalid_mathtext_is_refused_at_plot(parameter, value):
    """A name that is invalid mathtext is refused when plot() is called, not
    when the figure is drawn or saved later (#16 item 11)."""
    disp = MLCMDisplay(np.array(TABLE_4J), **{parameter: value})
    with pytest.raises(
        InvalidParameterError,
        match=f"'{parameter}' parameter of MLCMDisplay.plot must be names",
    ):
        disp.plot()


def test_mlcm_display_valid_mathtext_and_escaped_dollars_draw():
    """Valid mathtext and escaped or single dollar signs are drawn."""
    names = ["$\\alpha$", "costs \\$5", "$5 or more"]
    disp = MLCMDisplay(np.array(TABLE_4J), display_labels=names).plot()
    disp.figure_.savefig(io.BytesIO(), format="png")
    assert [t.get_text() for t in disp.ax_.get_xticklabels()][:3] == names
