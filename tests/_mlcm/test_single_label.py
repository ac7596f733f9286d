"""1-D class labels: the histogram kernel against both papers' oracles."""

import numpy as np
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_mlcm._validation._matrices as validation_module
from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


def _one_hot(y, classes):
    return np.array([[v == c for c in classes] for v in y], dtype=bool)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_single_label_matches_oracle(method, data, mlcm_strategies):
    """Any class labels, a labels subset in any order, weights: the oracle's
    matrix of the one-hot sets, classes outside labels being empty sets."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass(classes=(0, 1, 2, 3)))
    present = sorted(set(y_true) | set(y_pred))
    labels = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.sampled_from(present), min_size=1, unique=True),
        )
    )
    classes = present if labels is None else labels
    result = mlcm_confusion_matrix(
        y_true, y_pred, method=method, labels=labels, sample_weight=weight
    )
    expected = ORACLES[method](
        _one_hot(y_true, classes), _one_hot(y_pred, classes), weight
    )
    if method == "heydarian" and weight is None:
        assert result.dtype == np.int64
        assert_array_equal(result, expected)
    else:
        assert result.dtype == np.float64
        assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def test_single_label_many_classes_counted_sparsely(monkeypatch):
    """Past the dense limit, 1-D input is counted into a sparse matrix, and a
    dense result is refused with the sparse_output hint."""
    monkeypatch.setattr(validation_module, "MAX_DENSE_BYTES", 100)
    y_true, y_pred = np.array([0, 1, 2, 3, 4]), np.array([0, 2, 2, 9, 4])
    with pytest.raises(ValueError, match="sparse_output=True"):
        mlcm_confusion_matrix(y_true, y_pred)
    cm = mlcm_confusion_matrix(y_true, y_pred, sparse_output=True)
    assert sparse.issparse(cm) and cm.dtype == np.int64
    monkeypatch.undo()
    assert_array_equal(cm.toarray(), mlcm_confusion_matrix(y_true, y_pred))
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):  # 1, 3, 9
        report = mlcm_classification_report(y_true, y_pred, output_dict=True)
    assert report["9"]["support"] == 0.0 and report["0"]["support"] == 1.0
