"""MLCMDisplay: assertions on the artists, the saved picture and legibility."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsClassifier

from sklearn_mlcm import MLCMDisplay, mlcm_confusion_matrix

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Heydarian et al. (2022), Table 1
T, P = TABLE_1_TRUE, TABLE_1_PRED
POSTERS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "posters"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _ticks(labels):
    return [t.get_text() for t in labels]


def _texts(display):
    return [[t.get_text() for t in row] for row in display.text_]


def test_mlcm_display_from_predictions_artists():
    """Image, tick labels of both axes and cell texts of Table 4 (j)."""
    disp = MLCMDisplay.from_predictions(T, P, display_labels=["C0", "C1", "C2"])
    assert_array_equal(disp.im_.get_array(), TABLE_4J)
    assert _ticks(disp.ax_.get_yticklabels()) == ["C0", "C1", "C2", "NTL"]
    assert _ticks(disp.ax_.get_xticklabels()) == ["C0", "C1", "C2", "NPL"]
    assert _texts(disp) == [[str(v) for v in row] for row in TABLE_4J]
    assert disp.ax_.get_ylabel() == "True label"
    assert disp.ax_.get_xlabel() == "Predicted label"
    assert disp.figure_ is disp.ax_.figure
    assert len(disp.figure_.axes) == 2  # the matrix and its colorbar


def test_mlcm_display_text_colour_contrast():
    """Light text on dark cells and dark text on light cells."""
    disp = MLCMDisplay.from_predictions(T, P, cmap="viridis")
    dark, light = disp.im_.cmap(0.0), disp.im_.cmap(1.0)
    # 5 is the largest cell (drawn light), 0 the smallest (drawn dark)
    assert disp.text_[0, 0].get_color() == dark
    assert disp.text_[0, 3].get_color() == light
    assert_allclose(disp.im_.get_clim(), (0, 5))


def test_mlcm_display_without_no_label_row_and_column():
    """include_no_label=False leaves NTL and NPL out of the picture."""
    disp = MLCMDisplay.from_predictions(T, P, include_no_label=False)
    assert_array_equal(disp.im_.get_array(), np.array(TABLE_4J)[:3, :3])
    assert _ticks(disp.ax_.get_xticklabels()) == ["0", "1", "2"]
    assert _ticks(disp.ax_.get_yticklabels()) == ["0", "1", "2"]
    assert disp.text_.shape == (3, 3)


def test_mlcm_display_renamed_no_label():
    """The no-label row and column can be renamed separately."""
    disp = MLCMDisplay.from_predictions(
        T, P, ntl_label="no genre", npl_label="nothing predicted"
    )
    assert _ticks(disp.ax_.get_yticklabels())[-1] == "no genre"
    assert _ticks(disp.ax_.get_xticklabels())[-1] == "nothing predicted"
    # a label longer than 4 characters turns the x ticks vertical
    assert disp.ax_.get_xticklabels()[0].get_rotation() == 90


def test_mlcm_display_normalized_percentages():
    """A row-normalised matrix shows percentages with values_format='.0%'."""
    disp = MLCMDisplay.from_predictions(T, P, normalize="true", values_format=".0%")
    assert _texts(disp)[0] == ["45%", "18%", "36%", "0%"]
    assert_allclose(disp.im_.get_array().sum(axis=1), 1.0)


def test_mlcm_display_fractional_values():
    """Krstinić's fractions print with two decimals by default."""
    disp = MLCMDisplay.from_predictions(T, P, method="krstinic")
    assert _texts(disp)[0] == ["4.00", "0.83", "2.17", "0.00"]
    cm = mlcm_confusion_matrix(T, P, method="krstinic")
    assert_allclose(disp.im_.get_array(), cm)


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


def test_mlcm_display_figure_grows_with_labels():
    """0.45 inch per cell plus room for labels, at least 6.4 x 4.8 inches."""
    small = MLCMDisplay.from_predictions(T, P)
    assert_allclose(small.figure_.get_size_inches(), (6.4, 4.8))
    y = np.eye(18, dtype=int)
    large = MLCMDisplay.from_predictions(y, y)
    assert_allclose(large.figure_.get_size_inches(), (0.45 * 19 + 3, 0.45 * 19 + 2))


def test_mlcm_display_plot_on_given_axes_with_keywords():
    """ax, colorbar, cmap, im_kw and text_kw reach matplotlib."""
    fig, ax = plt.subplots()
    disp = MLCMDisplay(np.array(TABLE_4J)).plot(
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


def test_mlcm_display_from_estimator_with_dataframe_names():
    """from_estimator predicts; DataFrame columns name the labels."""
    pd = pytest.importorskip("pandas")
    X, y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    y = pd.DataFrame(y, columns=["red", "green", "blue"])
    model = KNeighborsClassifier().fit(X, y)
    disp = MLCMDisplay.from_estimator(model, X, y)
    expected = mlcm_confusion_matrix(y, model.predict(X))
    assert_array_equal(disp.im_.get_array(), expected)
    assert _ticks(disp.ax_.get_yticklabels()) == ["red", "green", "blue", "NTL"]


def test_mlcm_display_from_estimator_refuses_regressors():
    """A regressor is refused with ValueError."""
    X, y = make_multilabel_classification(n_samples=20, random_state=0)
    model = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="only supports classifiers. Got Linear"):
        MLCMDisplay.from_estimator(model, X, y)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"display_labels": ["a", "b"]}, "3 expected, got 2"),
    ],
)
def test_mlcm_display_bad_display_labels(kwargs, match):
    """display_labels must name every label."""
    with pytest.raises(ValueError, match=match):
        MLCMDisplay(np.array(TABLE_4J), **kwargs).plot()


def test_mlcm_display_bad_matrix_and_include_values():
    """A non-square matrix and a bad include_values are refused."""
    with pytest.raises(ValueError, match=r"square .*Got shape \(2, 3\)"):
        MLCMDisplay(np.ones((2, 3))).plot()
    with pytest.raises(ValueError, match="'include_values' .*Got 'yes'"):
        MLCMDisplay(np.array(TABLE_4J)).plot(include_values="yes")
    with pytest.raises(ValueError, match="'normalize' parameter of MLCMDisplay"):
        MLCMDisplay.from_predictions(T, P, normalize="rows")


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
        MLCMDisplay(np.array(TABLE_4J)).plot()
    with pytest.raises(ImportError, match="MLCMDisplay.from_predictions requires"):
        MLCMDisplay.from_predictions(T, P)


def test_import_does_not_import_matplotlib():
    """Importing the package never imports matplotlib."""
    code = "import sys, sklearn_mlcm; print('matplotlib' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def _overlaps(boxes):
    return any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


@pytest.mark.skipif(
    not (POSTERS / "gt.npy").exists(),
    reason=f"the shared movie-poster data is not at {POSTERS} (a user's clone)",
)
def test_mlcm_display_movie_posters_legible(tmp_path):
    """18 genres + NTL/NPL: values shown, tick labels and values do not collide."""
    y_true = np.load(POSTERS / "gt.npy")
    y_pred = np.load(POSTERS / "pred_t09.npy")
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
