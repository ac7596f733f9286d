"""MLCMAccumulator: any split of the batches gives the one-shot matrix."""

import numpy as np
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse

from sklearn_mlcm import (
    MLCMAccumulator,
)

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


def _check(result, expected, method, weighted):
    if method == "heydarian" and not weighted:
        assert result.dtype == np.int64
        assert_array_equal(result, expected)
    else:
        assert result.dtype == np.float64
        assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_accumulator_any_split_equals_one_shot(method, data, mlcm_strategies):
    """Batches split anywhere (empty ones too) add up to the oracle's matrix."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=6))
    n = len(y_true)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    acc = MLCMAccumulator(y_true.shape[1], method=method)
    for start, stop in zip([0, *cuts], [*cuts, n]):
        w = None if weight is None else weight[start:stop]
        acc.update(y_true[start:stop], y_pred[start:stop], sample_weight=w)
    assert acc.n_samples_ == n
    expected = ORACLES[method](y_true, y_pred, weight)
    _check(acc.confusion_matrix, expected, method, weight is not None)


def test_mlcm_accumulator_merge_add_and_reset():
    """merge and + combine accumulators; reset starts over."""
    a = MLCMAccumulator(3).update(TABLE_1_TRUE[:4], TABLE_1_PRED[:4])
    b = MLCMAccumulator(3).update(TABLE_1_TRUE[4:], TABLE_1_PRED[4:])
    total = a + b
    assert_array_equal(total.confusion_matrix, TABLE_4J)
    assert total.n_samples_ == 9
    assert a.n_samples_ == 4  # + makes a new accumulator
    a.merge(b)
    assert_array_equal(a.confusion_matrix, TABLE_4J)
    a.reset()
    assert a.n_samples_ == 0 and not a.confusion_matrix.any()
    assert "MLCMAccumulator(n_labels=3, method='heydarian')" in repr(a)


def test_mlcm_accumulator_weights_sparse_and_dtype():
    """A weighted batch turns counts into float64; sparse_output stays sparse."""
    acc = MLCMAccumulator(3, sparse_output=True)
    acc.update(sparse.csr_array(np.array(TABLE_1_TRUE)), np.array(TABLE_1_PRED))
    assert sparse.issparse(acc.confusion_matrix)
    assert_array_equal(acc.confusion_matrix.toarray(), TABLE_4J)
    dense = MLCMAccumulator(3).update(TABLE_1_TRUE, TABLE_1_PRED)
    assert dense.confusion_matrix.dtype == np.int64
    dense.update(TABLE_1_TRUE, TABLE_1_PRED, sample_weight=np.full(9, 0.5))
    assert dense.confusion_matrix.dtype == np.float64
    assert_allclose(dense.confusion_matrix, 1.5 * np.array(TABLE_4J))


def test_mlcm_accumulator_errors():
    """Mismatched label counts, 1-D batches and bad arguments raise."""
    acc = MLCMAccumulator(3)
    with pytest.raises(ValueError, match="update must have the accumulator's 3 label"):
        acc.update([[1, 0]], [[1, 0]])
    with pytest.raises(ValueError, match="must be 2-D indicator matrices"):
        acc.update([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="y_pred .*only 0 and 1"):
        acc.update([[1, 0, 0]], [[2, 0, 0]])
    with pytest.raises(ValueError, match="same number of label columns"):
        acc.update([[1, 0, 0]], [[1, 0]])
    with pytest.raises(TypeError, match=r"'n_labels' .*int in the range \[1, inf\)"):
        MLCMAccumulator(2.5)
    with pytest.raises(ValueError, match="'n_labels' .*Got 0"):
        MLCMAccumulator(0)
    with pytest.raises(ValueError, match="'method' parameter of MLCMAccumulator"):
        MLCMAccumulator(3, method="foo")
    with pytest.raises(ValueError, match="same n_labels and method"):
        acc.merge(MLCMAccumulator(4))
    with pytest.raises(TypeError, match="'other' parameter of MLCMAccumulator.merge"):
        acc.merge(np.zeros((4, 4)))
    assert acc.__add__(1) is NotImplemented

