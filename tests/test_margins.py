"""The resampling engine's per-instance margins, against the kernels' matrices."""

import numpy as np
from _oracles import krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from sklearn_mlcm._uncertainty._margins import krstinic_margins
from sklearn_mlcm._uncertainty._table import InstancePairs


def _margins_of(cm):
    cm = np.asarray(cm, dtype=np.float64)
    return np.stack([np.diag(cm), cm.sum(axis=1), cm.sum(axis=0)])


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_krstinic_margins_of_single_instances_match_the_oracle(mlcm_strategies, data):
    """Krstinic's margins read off the set sizes (the resampling engine's and
    the stream bootstrap's table) are those of the paper's matrix of each
    instance, for every scenario, empty sets, one label and all-one rows."""
    y_true, y_pred = data.draw(mlcm_strategies.targets())
    margins = krstinic_margins(y_true, y_pred)
    assert margins.shape == (y_true.shape[0], 3, y_true.shape[1] + 1)
    for i in range(y_true.shape[0]):
        expected = _margins_of(krstinic_oracle(y_true[i : i + 1], y_pred[i : i + 1]))
        assert_allclose(margins[i], expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_margins_table_of_weights_is_the_weighted_matrix(mlcm_strategies, data):
    """The Krstinic margins of a re-weighting, through the table of distinct
    pairs, are those of the oracle's weighted matrix."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(weighted=True))
    table = InstancePairs(y_true, y_pred, "krstinic")
    got = table.weighted_margins(weight[None, :])[0]
    expected = _margins_of(krstinic_oracle(y_true, y_pred, weight))
    assert_allclose(got, expected, rtol=1e-9, atol=1e-9)
