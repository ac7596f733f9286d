"""The Heydarian MLCM kernel against a naive oracle of the paper's algorithms.

M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label Confusion Matrix",
IEEE Access 10, 2022: section III, Algorithms 2-5, categories 1-3.
"""

import numpy as np
import pytest
from _oracles import heydarian_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import mlcm_confusion_matrix

# Heydarian et al., Table 4 (a)-(i): the contribution of each instance.
TABLE_4_INSTANCES = {
    "a": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    "b": [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 0, 0, 0]],
    "c": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]],
    "d": [[1, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    "e": [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    "f": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]],
    "g": [[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    "h": [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    "i": [[0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
}
# Heydarian et al., Table 4 (j): the total.
TABLE_4_TOTAL = [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]


@pytest.mark.parametrize(
    "instance, expected",
    list(enumerate(TABLE_4_INSTANCES.values())),
    ids=[f"table_4_{k}" for k in TABLE_4_INSTANCES],
)
def test_mlcm_confusion_matrix_heydarian_table_4_instance(instance, expected):
    """Heydarian Table 4 (a)-(i): each Table 1 instance, by oracle and library."""
    y_true = [TABLE_1_TRUE[instance]]
    y_pred = [TABLE_1_PRED[instance]]
    assert_array_equal(heydarian_oracle(y_true, y_pred), expected)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)


def test_mlcm_confusion_matrix_heydarian_table_4_total():
    """Heydarian Table 4 (j): the nine instances of Table 1 together."""
    assert_array_equal(heydarian_oracle(TABLE_1_TRUE, TABLE_1_PRED), TABLE_4_TOTAL)
    assert_array_equal(mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED), TABLE_4_TOTAL)


def test_mlcm_confusion_matrix_heydarian_table_5_instance():
    """Heydarian Table 5: T2 = {1, 2} and P2 = {3, 4} give four category-3 cells."""
    y_true, y_pred = [[1, 1, 1, 0, 0]], [[1, 0, 0, 1, 1]]
    expected = np.zeros((6, 6), dtype=np.int64)
    expected[0, 0] = 1
    expected[np.ix_([1, 2], [3, 4])] = 1
    assert_array_equal(heydarian_oracle(y_true, y_pred), expected)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)


def test_mlcm_confusion_matrix_heydarian_category_3_regression():
    """True [1,1,0,0], pred [1,0,1,1]: the paper's three cells, no M[0, 3]."""
    y_true, y_pred = [[1, 1, 0, 0]], [[1, 0, 1, 1]]
    expected = np.zeros((5, 5), dtype=np.int64)
    expected[0, 0] = 1
    expected[1, 2] = 1
    expected[1, 3] = 1
    assert_array_equal(heydarian_oracle(y_true, y_pred), expected)
    result = mlcm_confusion_matrix(y_true, y_pred)
    # The authors' package mlcm 0.0.1 wrongly adds M[0, 3] = 1 here.
    assert result[0, 3] == 0
    assert_array_equal(result, expected)


@pytest.mark.parametrize("n_labels", [1, 2, 3, 4])
def test_mlcm_confusion_matrix_heydarian_every_instance_matches_oracle(n_labels):
    """Every single-instance pair of label sets for q <= 4 matches the oracle."""
    rows = [[bool(m >> j & 1) for j in range(n_labels)] for m in range(2**n_labels)]
    for t in rows:
        for p in rows:
            result = mlcm_confusion_matrix([t], [p])
            assert_array_equal(result, heydarian_oracle([t], [p]), err_msg=f"{t} {p}")


@settings(max_examples=2000, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_heydarian_matches_oracle(data, mlcm_strategies):
    """Without weights the kernel equals Algorithms 2-5 exactly, as int64."""
    y_true, y_pred = data.draw(mlcm_strategies.targets(max_labels=7))
    result = mlcm_confusion_matrix(y_true, y_pred, method="heydarian")
    assert result.dtype == np.int64
    assert_array_equal(result, heydarian_oracle(y_true, y_pred))


@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_heydarian_weighted_matches_oracle(data, mlcm_strategies):
    """With weights each instance's counts are scaled by its weight, as float64."""
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(weighted=True, max_labels=7)
    )
    result = mlcm_confusion_matrix(
        y_true, y_pred, method="heydarian", sample_weight=weight
    )
    assert result.dtype == np.float64
    assert_allclose(result, heydarian_oracle(y_true, y_pred, weight), rtol=1e-12)


def test_mlcm_confusion_matrix_heydarian_many_chunks_matches_oracle():
    """Data spanning several row blocks (35 000 rows, q = 64) matches the oracle."""
    rng = np.random.RandomState(0)
    y_true = rng.rand(50, 64) < 0.1
    y_pred = rng.rand(50, 64) < 0.1
    y_pred[:5] = y_true[:5]
    y_pred[5:10] = False
    y_true[10:15] = False
    repeats = 700
    tall_true = np.tile(y_true, (repeats, 1))
    tall_pred = np.tile(y_pred, (repeats, 1))
    expected = repeats * heydarian_oracle(y_true, y_pred)
    assert_array_equal(mlcm_confusion_matrix(tall_true, tall_pred), expected)
    weight = np.tile(rng.rand(50), repeats)
    assert_allclose(
        mlcm_confusion_matrix(tall_true, tall_pred, sample_weight=weight),
        heydarian_oracle(tall_true[:50], tall_pred[:50], weight[:50]) * repeats,
        rtol=1e-9,
    )
