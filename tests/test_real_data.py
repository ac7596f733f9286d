"""The real movie-poster predictions ($SKLEARN_MLCM_DATA/posters), both methods."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import f1_score, multilabel_confusion_matrix

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_multilabel_confusion_matrix,
)


@pytest.fixture(scope="module", params=["pred_t05.npy", "pred_t09.npy"])
def posters(request, shared_data):
    folder = shared_data("posters", "gt.npy", request.param)
    return np.load(folder / "gt.npy"), np.load(folder / request.param)


def test_posters_data_is_what_its_readme_says(posters):
    """7,209 posters, 18 genres, 74 without a genre; micro-F1 0.313 or 0.333."""
    y_true, y_pred = posters
    assert y_true.shape == y_pred.shape == (7209, 18)
    assert int((y_true.sum(axis=1) == 0).sum()) == 74
    assert round(f1_score(y_true, y_pred, average="micro"), 3) in (0.313, 0.333)


def test_posters_heydarian(posters):
    """Heydarian: FN total = FP total, TN = 18 x TP, TP equals scikit-learn's."""
    y_true, y_pred = posters
    cm = mlcm_confusion_matrix(y_true, y_pred)
    assert cm.shape == (19, 19)
    mcm = mlcm_multilabel_confusion_matrix(y_true, y_pred, tn="diagonal")
    assert mcm[:, 1, 0].sum() == mcm[:, 0, 1].sum()
    assert mcm[:, 0, 0].sum() == 18 * mcm[:, 1, 1].sum()
    sk = multilabel_confusion_matrix(y_true, y_pred)
    assert_array_equal(np.diagonal(cm)[:18], sk[:, 1, 1])
    # every poster with no genre and no prediction is in the corner
    both_empty = (y_true.sum(axis=1) == 0) & (y_pred.sum(axis=1) == 0)
    assert cm[18, 18] == both_empty.sum()


def test_posters_krstinic(posters):
    """Krstinić: row sums are the genre supports; the NTL row sums to 74."""
    y_true, y_pred = posters
    cm = mlcm_confusion_matrix(y_true, y_pred, method="krstinic")
    assert_allclose(cm.sum(axis=1)[:18], y_true.sum(axis=0))
    assert cm.sum(axis=1)[18] == pytest.approx(74)
    recall = mlcm_confusion_matrix(y_true, y_pred, method="krstinic", normalize="true")
    nonzero = cm.sum(axis=1) > 0
    assert_allclose(recall.sum(axis=1)[nonzero], 1.0)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_posters_report(posters, method):
    """The report runs on real data; its micro average pools the 18 genres
    (scikit-learn's), Heydarian's micro_all is trace / sum of the matrix, and
    its samples average is scikit-learn's."""
    from sklearn.metrics import precision_recall_fscore_support

    y_true, y_pred = posters
    report = mlcm_classification_report(
        y_true, y_pred, method=method, output_dict=True, zero_division=0.0
    )
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method)
    assert len(report) == 18 + 4
    samples = precision_recall_fscore_support(
        y_true, y_pred, average="samples", zero_division=0.0
    )
    row = report["samples avg"]
    got = (row["precision"], row["recall"], row["f1-score"])
    assert got == pytest.approx(samples[:3], abs=1e-12)
    tp, fp, fn = np.trace(cm[:18, :18]), cm[:, :18].sum(), cm[:18].sum()
    assert report["micro avg"]["f1-score"] == pytest.approx(2 * tp / (fp + fn))
    micro_all = mlcm_f1_score(
        y_true, y_pred, method=method, average="micro_all", zero_division=0.0
    )
    assert micro_all == pytest.approx(np.trace(cm) / cm.sum())
    assert report["macro avg"]["support"] == y_true.sum()
    text = mlcm_classification_report(
        y_true, y_pred, method=method, include_no_label=True, zero_division=0.0
    )
    assert "no label" in text
