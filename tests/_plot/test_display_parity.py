"""MLCMDisplay against scikit-learn's ConfusionMatrixDisplay on 1-D input.

Without the no-label row and column (``include_no_label=False``) the display
draws scikit-learn's picture: the same matrix, cell texts, tick labels and
axis titles. Each deliberate difference is asserted as such, citing its row of
the "Coming from scikit-learn" page (doc/user_guide/from_sklearn.rst,
"Displays and command line").
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_mlcm import MLCMDisplay

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.metrics import ConfusionMatrixDisplay  # noqa: E402


def _ticks(ax):
    return (
        [t.get_text() for t in ax.get_xticklabels()],
        [t.get_text() for t in ax.get_yticklabels()],
    )


def _texts(display):
    return [[t.get_text() for t in row] for row in display.text_]


# scikit-learn's confusion_matrix warns when y_true and y_pred hold one class
# (its 1 x 1 matrix); the drawn block is what is compared
@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@settings(max_examples=25, deadline=None)
@given(
    y_true=st.lists(st.integers(0, 4), min_size=1, max_size=25),
    seed=st.integers(0, 2**16),
    normalize=st.sampled_from([None, "true", "pred", "all"]),
)
def test_display_parity_without_no_label(y_true, seed, normalize):
    """Block, texts, ticks and axis titles are scikit-learn's when the NTL row
    and NPL column are not drawn."""
    plt.close("all")  # the figures of the previous example (one test, 25 draws)
    rng = np.random.default_rng(seed)
    y_true = np.array(y_true)
    y_pred = rng.integers(0, 5, y_true.size)
    ours = MLCMDisplay.from_predictions(
        y_true, y_pred, normalize=normalize, include_no_label=False
    )
    theirs = ConfusionMatrixDisplay.from_predictions(
        y_true, y_pred, normalize=normalize
    )
    assert_allclose(
        ours.im_.get_array(), np.nan_to_num(theirs.im_.get_array()), atol=1e-12
    )
    assert _ticks(ours.ax_) == _ticks(theirs.ax_)
    assert ours.ax_.get_xlabel() == theirs.ax_.get_xlabel() == "Predicted label"
    assert ours.ax_.get_ylabel() == theirs.ax_.get_ylabel() == "True label"
    if normalize is None:  # counts: the same integers in every cell
        assert _texts(ours) == _texts(theirs)


def test_display_parity_no_label_row_and_column_are_drawn_by_default():
    """By default the NTL row and NPL column are drawn, zero for 1-D input,
    and the axis titles say what they are (from_sklearn.rst, rows
    "MLCMDisplay's rows and columns" and "MLCMDisplay's axis titles")."""
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    ours = MLCMDisplay.from_predictions(y_true, y_pred)
    theirs = ConfusionMatrixDisplay.from_predictions(y_true, y_pred)
    drawn = ours.im_.get_array()
    assert drawn.shape == (4, 4)
    assert_allclose(drawn[:3, :3], theirs.im_.get_array())
    assert drawn[3].sum() == drawn[:, 3].sum() == 0
    assert _ticks(ours.ax_) == (["0", "1", "2", "NPL"], ["0", "1", "2", "NTL"])
    assert ours.ax_.get_ylabel() == "True label (NTL: no true label)"
    assert ours.ax_.get_xlabel() == "Predicted label (NPL: no predicted label)"


def test_display_parity_display_labels_are_scikit_learns():
    """display_labels holds what scikit-learn's holds: the sorted class values
    (of their dtype), or ``labels`` when given; the ticks show them as str."""
    y_true, y_pred = [10, 20, 30], [10, 30, 30]
    for labels in (None, [30, 10]):
        ours = MLCMDisplay.from_predictions(y_true, y_pred, labels=labels)
        theirs = ConfusionMatrixDisplay.from_predictions(y_true, y_pred, labels=labels)
        assert_array_equal(ours.display_labels, theirs.display_labels)
        assert np.asarray(ours.display_labels).dtype == np.asarray(
            theirs.display_labels
        ).dtype
        n = len(theirs.display_labels)
        assert _ticks(ours.ax_)[0][:n] == _ticks(theirs.ax_)[0]
    for y in (["b", "a", "b"], [1.0, 2.0, 1.0]):
        ours = MLCMDisplay.from_predictions(y, y[::-1])
        theirs = ConfusionMatrixDisplay.from_predictions(y, y[::-1])
        assert_array_equal(ours.display_labels, theirs.display_labels)
