"""MLCMDisplay's defaults at real label counts: top_k="auto" and the colour scale."""

import io
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from sklearn.datasets import make_multilabel_classification
from sklearn.neighbors import KNeighborsClassifier

from sklearn_mlcm import MLCMDisplay, mlcm_confusion_matrix, most_confused_labels

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm, Normalize, SymLogNorm  # noqa: E402

T, P = TABLE_1_TRUE, TABLE_1_PRED
CM = np.array(TABLE_4J)


def _ticks(labels):
    return [t.get_text() for t in labels]


def _bar_ticks(display):
    display.figure_.canvas.draw()
    return _ticks(display.figure_.axes[1].get_yticklabels())


def _noisy_targets(n_labels, n_samples=400, seed=0):
    """Random targets (about 3 labels per instance) and a prediction that
    keeps 70% of them, moves 10% to the next label and adds a few."""
    rng = np.random.default_rng(seed)
    y_true = (rng.random((n_samples, n_labels)) < 3 / n_labels).astype(np.int64)
    y_pred = y_true * (rng.random(y_true.shape) < 0.7)
    moved = y_true * (rng.random(y_true.shape) < 0.1)
    y_pred = y_pred | np.roll(moved, 1, axis=1)
    y_pred = y_pred | (rng.random(y_true.shape) < 0.5 / n_labels)
    return y_true, y_pred.astype(np.int64)


def _symlog(x, linthresh, vmax):
    """A naive oracle of SymLogNorm(linthresh, linscale=1, base=10, vmin=0)
    of non-negative ``x``: linear below ``linthresh``, log10 above, the
    linear part scaled by ``linscale / (1 - 1 / base)`` as matplotlib does."""
    linear = 1 / (1 - 1 / 10)

    def transform(v):
        if v <= linthresh:
            return v / linthresh * linear
        return linear + np.log10(v / linthresh)

    return transform(x) / transform(vmax)


# -- top_k="auto" ------------------------------------------------------------


def test_mlcm_display_auto_draws_the_18_poster_genres(shared_data):
    """The default draws all 18 genres of the movie posters, untitled."""
    posters = shared_data("posters", "gt.npy", "pred_t05.npy")
    y_true = np.load(posters / "gt.npy")
    y_pred = np.load(posters / "pred_t05.npy")
    disp = MLCMDisplay.from_predictions(y_true, y_pred)
    assert_array_equal(disp.shown_labels_, np.arange(18))
    assert_array_equal(disp.im_.get_array(), mlcm_confusion_matrix(y_true, y_pred))
    assert disp.ax_.get_title() == ""
    assert disp.text_.shape == (19, 19)


@pytest.mark.parametrize("n_labels", [159, 983])
def test_mlcm_display_auto_draws_40_labels_above_40(n_labels):
    """At 159 and 983 labels the default draws the 40 most involved in
    confusion (most_confused_labels' top 40), and the title says so."""
    y_true, y_pred = _noisy_targets(n_labels)
    disp = MLCMDisplay.from_predictions(y_true, y_pred)
    cm = mlcm_confusion_matrix(y_true, y_pred)
    shown = most_confused_labels(cm, top_k=40)
    assert len(shown) == 40
    assert_array_equal(disp.shown_labels_, shown)
    index = [*shown, n_labels]
    assert_array_equal(disp.im_.get_array(), cm[np.ix_(index, index)])
    assert disp.ax_.get_title() == (
        f"MLCM: 40 of {n_labels} labels most involved in confusion"
    )
    assert _ticks(disp.ax_.get_yticklabels()) == [*map(str, shown), "NTL"]


def test_mlcm_display_auto_boundary_at_40_labels():
    """40 labels are all drawn (no title); 41 are cut to 40, titled."""
    y40, p40 = _noisy_targets(40)
    disp = MLCMDisplay.from_predictions(y40, p40, colorbar=False)
    assert_array_equal(disp.shown_labels_, np.arange(40))
    assert disp.ax_.get_title() == ""
    y41, p41 = _noisy_targets(41)
    disp = MLCMDisplay.from_predictions(y41, p41, colorbar=False)
    assert len(disp.shown_labels_) == 40
    assert disp.ax_.get_title() == "MLCM: 40 of 41 labels most involved in confusion"


def test_mlcm_display_top_k_none_draws_every_label():
    """top_k=None draws all 159 labels, untitled, as the old default did."""
    y_true, y_pred = _noisy_targets(159)
    disp = MLCMDisplay.from_predictions(y_true, y_pred, top_k=None)
    assert_array_equal(disp.shown_labels_, np.arange(159))
    assert_array_equal(disp.im_.get_array(), mlcm_confusion_matrix(y_true, y_pred))
    assert disp.ax_.get_title() == ""


def test_mlcm_display_auto_with_cluster_order():
    """order="cluster" with the default: all 18 labels clustered, or the 40
    of 159 clustered, as most_confused_labels orders them."""
    y18, p18 = _noisy_targets(18)
    disp = MLCMDisplay.from_predictions(y18, p18, order="cluster", colorbar=False)
    cm = mlcm_confusion_matrix(y18, p18)
    assert_array_equal(disp.shown_labels_, most_confused_labels(cm, order="cluster"))
    assert disp.ax_.get_title() == "MLCM: all 18 labels, clustered"
    y159, p159 = _noisy_targets(159)
    disp = MLCMDisplay.from_predictions(y159, p159, order="cluster", colorbar=False)
    cm = mlcm_confusion_matrix(y159, p159)
    assert_array_equal(
        disp.shown_labels_, most_confused_labels(cm, top_k=40, order="cluster")
    )
    assert disp.ax_.get_title() == (
        "MLCM: 40 of 159 labels most involved in confusion, clustered"
    )


def test_mlcm_display_from_estimator_auto():
    """from_estimator's default is "auto" too: 40 of 45 labels, titled."""
    X, y = make_multilabel_classification(
        n_samples=200, n_classes=45, n_labels=4, random_state=0
    )
    model = KNeighborsClassifier().fit(X, y)
    disp = MLCMDisplay.from_estimator(model, X, y)
    cm = mlcm_confusion_matrix(y, model.predict(X))
    assert_array_equal(disp.shown_labels_, most_confused_labels(cm, top_k=40))
    assert disp.ax_.get_title() == "MLCM: 40 of 45 labels most involved in confusion"


@pytest.mark.parametrize(
    "call, value, error",
    [
        ("MLCMDisplay.from_predictions", "all", ValueError),
        ("MLCMDisplay.from_predictions", 0, ValueError),
        ("MLCMDisplay.from_predictions", 2.5, TypeError),
        ("MLCMDisplay.from_predictions", True, TypeError),
        ("MLCMDisplay.from_estimator", "Auto", ValueError),
        ("MLCMDisplay.from_estimator", -3, ValueError),
        ("most_confused_labels", "auto ", ValueError),
    ],
)
def test_mlcm_display_top_k_refused(call, value, error):
    """top_k is "auto", None or an int >= 1: anything else is refused,
    naming the parameter, what is expected and what arrived."""
    X, y = make_multilabel_classification(n_samples=20, n_classes=3, random_state=0)
    calls = {
        "MLCMDisplay.from_predictions": lambda: MLCMDisplay.from_predictions(
            T, P, top_k=value
        ),
        "MLCMDisplay.from_estimator": lambda: MLCMDisplay.from_estimator(
            KNeighborsClassifier().fit(X, y), X, y, top_k=value
        ),
        "most_confused_labels": lambda: most_confused_labels(CM, top_k=value),
    }
    with pytest.raises(
        error,
        match=rf"The 'top_k' parameter of {call} must be an int in the range "
        rf"\[1, inf\) or one of \{{'auto'\}} or None. Got {value!r} instead",
    ):
        calls[call]()


# -- the colour scale --------------------------------------------------------


def test_mlcm_display_default_norm_symmetric_log():
    """Cells spanning more than a decade: SymLogNorm(linthresh=the smallest
    non-zero cell, linscale=1, base=10) from 0 to the largest, as the Notes
    of plot() say; the colours follow the oracle of that scale."""
    cm = np.array([[100, 10, 0], [1, 50, 0], [0, 2, 0]])
    disp = MLCMDisplay(cm).plot()
    norm = disp.im_.norm
    assert type(norm) is SymLogNorm
    assert (norm.linthresh, norm.vmin, norm.vmax) == (1.0, 0.0, 100.0)
    assert norm._scale.linscale == 1.0 and norm._scale.base == 10
    for value in (0, 1, 2, 10, 50, 100):  # the oracle's vmin is 0
        assert_allclose(norm(value), _symlog(value, 1.0, 100.0), rtol=1e-12)
    # two decades: 1, 2 and 5 per decade
    assert _bar_ticks(disp) == ["0", "1", "2", "5", "10", "20", "50", "100"]


@settings(max_examples=40, deadline=None)
# found by this property: without zeros the scale started at the smallest
# cell, drawing a 1 in the colour of a 0
@example(cm=np.array([[1, 11], [11, 11]]))
@given(
    cm=hnp.arrays(
        np.int64,
        st.integers(2, 6).map(lambda n: (n, n)),
        elements=st.one_of(st.just(0), st.integers(1, 20), st.integers(0, 50_000)),
    )
)
def test_mlcm_display_default_norm_matches_the_rule(cm):
    """On random count matrices the default scale is the Notes' rule: linear
    for zeros or a span of at most 10, else SymLogNorm(linthresh=max(m,
    M / 10**4)); its colours equal the naive oracle's."""
    disp = MLCMDisplay(cm).plot(colorbar=False, include_values=False)
    norm = disp.im_.norm
    positive = cm[cm > 0]
    if positive.size == 0 or cm.max() <= 10 * positive.min():
        assert type(norm) is Normalize
    else:
        linthresh = max(positive.min(), cm.max() / 10**4)
        assert type(norm) is SymLogNorm
        assert norm.linthresh == pytest.approx(linthresh, rel=1e-12)
        expected = [_symlog(v, linthresh, cm.max()) for v in cm.ravel()]
        assert_allclose(norm(cm).ravel(), expected, rtol=1e-9, atol=1e-12)
    plt.close("all")


def test_mlcm_display_default_norm_linear_within_a_decade():
    """Largest cell at most 10 times the smallest non-zero one (the paper's
    Table 4 (j), 0 to 5; 1 to 10) or all zeros: the linear scale."""
    for cm in (CM, np.array([[10, 1], [0, 0]]), np.zeros((3, 3), dtype=np.int64)):
        disp = MLCMDisplay(cm).plot()
        assert type(disp.im_.norm) is Normalize
    disp = MLCMDisplay(np.array([[11, 1], [0, 0]])).plot()
    assert type(disp.im_.norm) is SymLogNorm


def test_mlcm_display_default_norm_spans_at_most_four_decades():
    """A tiny weighted cell does not stretch the scale: linthresh is at
    least the largest cell / 10**4."""
    cm = np.array([[1000.0, 1e-9], [0.5, 0.0]])
    disp = MLCMDisplay(cm).plot()
    assert disp.im_.norm.linthresh == pytest.approx(0.1)


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_mlcm_display_default_norm_of_normalised_matrices(normalize):
    """A normalised matrix's scale starts at its smallest non-zero share;
    the colour bar reads in percentages with values_format=".0%"."""
    y_true, y_pred = _noisy_targets(12)
    disp = MLCMDisplay.from_predictions(
        y_true, y_pred, normalize=normalize, values_format=".0%"
    )
    cm = mlcm_confusion_matrix(y_true, y_pred, normalize=normalize)
    norm = disp.im_.norm
    assert type(norm) is SymLogNorm
    assert norm.linthresh == pytest.approx(cm[cm > 0].min(), rel=1e-12)
    assert norm.vmax == pytest.approx(cm.max(), rel=1e-12)
    expected = {
        "true": ["0%", "1%", "2%", "5%", "10%", "20%", "50%"],  # 0.65% to 73%
        "pred": ["0%", "1%", "2%", "5%", "10%", "20%", "50%"],
        "all": ["0%", "0.1%", "0.2%", "0.5%", "1%", "2%", "5%"],
    }
    assert _bar_ticks(disp) == expected[normalize]


def test_mlcm_display_colour_bar_ticks_in_counts():
    """Up to three decades the bar reads 1, 2, 5 per decade; above, powers
    of ten, written as counts (1,000, not 10^3)."""
    small = MLCMDisplay(np.array([[88, 1], [3, 0]])).plot()
    assert _bar_ticks(small) == ["0", "1", "2", "5", "10", "20", "50"]
    three = MLCMDisplay(np.array([[1000, 1], [3, 0]])).plot()
    assert _bar_ticks(three) == [
        "0", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1,000"
    ]
    large = MLCMDisplay(np.array([[3660, 1], [3, 0]])).plot()
    assert _bar_ticks(large) == ["0", "1", "10", "100", "1,000"]


def test_mlcm_display_vmin_vmax_bound_the_default_norm():
    """vmin/vmax of im_kw without a norm go into the default scale (linear
    or symmetric-log by the same rule)."""
    disp = MLCMDisplay(CM).plot(im_kw={"vmax": 1000})
    assert type(disp.im_.norm) is SymLogNorm
    assert disp.im_.get_clim() == (0.0, 1000.0)
    disp = MLCMDisplay(CM).plot(im_kw={"vmin": 1, "vmax": 8})
    assert type(disp.im_.norm) is Normalize
    assert disp.im_.get_clim() == (1.0, 8.0)


def test_mlcm_display_im_kw_norm_overrides_the_default():
    """A norm of im_kw wins: a Normalize instance, "linear", LogNorm, None."""
    cm = np.array([[100, 10, 0], [1, 50, 0], [0, 2, 0]])
    own = LogNorm(vmin=1, vmax=100)
    assert MLCMDisplay(cm).plot(im_kw={"norm": own}).im_.norm is own
    linear = MLCMDisplay(cm).plot(im_kw={"norm": "linear"}).im_.norm
    assert not isinstance(linear, SymLogNorm)
    assert_allclose(linear(np.array([10, 100])), [0.1, 1.0])
    assert not isinstance(
        MLCMDisplay(cm).plot(im_kw={"norm": None}).im_.norm, SymLogNorm
    )
    symlog = MLCMDisplay(cm).plot(im_kw={"norm": "symlog"}).im_.norm
    assert type(symlog) is not SymLogNorm  # matplotlib's own, not ours


def test_mlcm_display_text_colour_follows_the_default_norm():
    """The text of a cell contrasts with its colour as drawn: a 10 beside a
    100 is a light cell under the log scale (dark text), a dark one under the
    linear scale (light text)."""
    cm = np.array([[100, 10, 0], [1, 50, 0], [0, 2, 0]])
    default = MLCMDisplay(cm).plot()
    dark, light = default.im_.cmap(0.0), default.im_.cmap(1.0)
    assert default.text_[0, 1].get_color() == dark
    assert default.text_[0, 0].get_color() == dark
    assert default.text_[0, 2].get_color() == light
    assert default.text_[1, 0].get_color() == light  # 1: norm 0.36, teal-blue
    linear = MLCMDisplay(cm).plot(im_kw={"norm": "linear"})
    assert linear.text_[0, 1].get_color() == light
    assert linear.text_[0, 0].get_color() == dark


def test_mlcm_display_text_on_masked_cells_of_a_log_norm():
    """Under LogNorm a zero is masked and drawn as the white background: its
    text is dark, and drawing warns of nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        disp = MLCMDisplay(np.array([[100, 0], [1, 10]])).plot(
            im_kw={"norm": LogNorm()}
        )
        disp.figure_.savefig(io.BytesIO(), format="png")
    assert disp.text_[0, 1].get_color() == disp.im_.cmap(0.0)
    assert disp.text_[1, 0].get_color() == disp.im_.cmap(1.0)


@pytest.mark.parametrize(
    "make",
    [
        lambda: MLCMDisplay(np.zeros((4, 4), dtype=np.int64)).plot(),
        lambda: MLCMDisplay.from_predictions([[0], [0]], [[0], [0]]),
        lambda: MLCMDisplay.from_predictions([[1], [0], [1]], [[1], [1], [0]]),
        lambda: MLCMDisplay(np.array([[1000, 0], [1, 0]])).plot(),
        lambda: MLCMDisplay.from_predictions(T, P, normalize="all"),
    ],
    ids=["zeros", "one-label-zeros", "one-label", "one-label-log", "normalised"],
)
def test_mlcm_display_edge_matrices_draw_without_warnings(make):
    """An all-zero matrix, one label (2 x 2) and a normalised matrix draw
    and save without a warning (every warning is an error here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        disp = make()
        disp.figure_.savefig(io.BytesIO(), format="png")
    assert disp.im_.get_array().shape[0] == len(disp.ax_.get_yticks())
    plt.close(disp.figure_)
