"""The Krstinic fractional kernel against a naive, exact oracle of Algorithm 1.

D. Krstinic, M. Braovic, L. Seric and D. Bozic-Stulic, "Multi-label classifier
performance evaluation with confusion matrix", CS & IT 10(8), 2020: section
3.2, scenarios (i)-(iv), Algorithm 1; section 3.3 and Tables 4-5.
"""

from fractions import Fraction

import numpy as np
import pytest
from _oracles import krstinic_contribution, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_mlcm import mlcm_confusion_matrix


def _dense(contribution, size):
    out = np.zeros((size, size))
    for (r, k), value in contribution.items():
        out[r, k] = float(value)
    return out


# Krstinic et al., Table 4 (as written out in the papers' README), labels 1..4
# as indices 0..3, with each instance's contribution from section 3.3.
F = Fraction
TABLE_4 = {
    "x1": ("1100", "1100", {(0, 0): 1, (1, 1): 1}),
    "x2": (
        "0110",
        "1110",
        {(1, 0): F(1, 3), (1, 1): F(2, 3), (2, 0): F(1, 3), (2, 2): F(2, 3)},
    ),
    "x3": ("0001", "1001", {(3, 0): F(1, 2), (3, 3): F(1, 2)}),
    "x4": (
        "1111",
        "0111",
        {
            (0, 1): F(1, 3),
            (0, 2): F(1, 3),
            (0, 3): F(1, 3),
            (1, 1): 1,
            (2, 2): 1,
            (3, 3): 1,
        },
    ),
    "x5": ("0110", "0100", {(1, 1): 1, (2, 1): 1}),
    "x6": ("0110", "1100", {(1, 1): 1, (2, 0): 1}),
    "x7": (
        "0101",
        "1010",
        {(1, 0): F(1, 2), (1, 2): F(1, 2), (3, 0): F(1, 2), (3, 2): F(1, 2)},
    ),
}
# Krstinic et al., Table 5: the raw matrix of Table 4.
TABLE_5 = [
    [1, 1 / 3, 1 / 3, 1 / 3],
    [5 / 6, 14 / 3, 1 / 2, 0],
    [4 / 3, 1, 5 / 3, 0],
    [1, 0, 1 / 2, 3 / 2],
]


def _row(bits):
    return [int(b) for b in bits]


@pytest.mark.parametrize("name", list(TABLE_4))
def test_mlcm_confusion_matrix_krstinic_table_4_contribution(name):
    """Krstinic Table 4 / section 3.3: each instance's contribution C."""
    true_bits, pred_bits, cells = TABLE_4[name]
    expected = _dense(cells, 4)
    y = {j for j, b in enumerate(true_bits) if b == "1"}
    z = {j for j, b in enumerate(pred_bits) if b == "1"}
    assert_allclose(_dense(krstinic_contribution(y, z), 4), expected, rtol=1e-15)
    result = mlcm_confusion_matrix(
        [_row(true_bits)], [_row(pred_bits)], method="krstinic"
    )
    assert_allclose(result[:4, :4], expected, rtol=1e-12, atol=1e-15)
    # No empty set, so the unknown row and column stay zero.
    assert_array_equal(result[4], 0)
    assert_array_equal(result[:, 4], 0)
    # Each true label contributes one unit (section 3.2).
    assert_allclose(result.sum(axis=1)[:4], [int(b) for b in true_bits])


def test_mlcm_confusion_matrix_krstinic_table_5():
    """Krstinic Table 5: the raw matrix of the seven instances of Table 4."""
    y_true = [_row(t) for t, _, _ in TABLE_4.values()]
    y_pred = [_row(p) for _, p, _ in TABLE_4.values()]
    assert_allclose(krstinic_oracle(y_true, y_pred)[:4, :4], TABLE_5, rtol=1e-15)
    result = mlcm_confusion_matrix(y_true, y_pred, method="krstinic")
    assert_allclose(result[:4, :4], TABLE_5, rtol=1e-12)
    assert_array_equal(result[4], 0)
    assert_array_equal(result[:, 4], 0)


@pytest.mark.parametrize(
    "y_true, y_pred, cells",
    [
        # Empty prediction: each true label's unit goes to the NPL column.
        ([1, 0, 1], [0, 0, 0], {(0, 3): 1, (2, 3): 1}),
        # Empty truth: one unit spread over the predicted labels.
        ([0, 0, 0], [1, 1, 1], {(3, 0): F(1, 3), (3, 1): F(1, 3), (3, 2): F(1, 3)}),
        ([0, 0, 0], [0, 1, 0], {(3, 1): 1}),
        # Both empty: one in the corner.
        ([0, 0, 0], [0, 0, 0], {(3, 3): 1}),
    ],
    ids=["empty_pred", "empty_true", "empty_true_single", "both_empty"],
)
def test_mlcm_confusion_matrix_krstinic_empty_sets(y_true, y_pred, cells):
    """The unknown label of the papers' README: empty sets in the last row/col."""
    expected = _dense(cells, 4)
    assert_allclose(krstinic_oracle([y_true], [y_pred]), expected, rtol=1e-15)
    result = mlcm_confusion_matrix([y_true], [y_pred], method="krstinic")
    assert_allclose(result, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("n_labels", [1, 2, 3, 4])
def test_mlcm_confusion_matrix_krstinic_every_instance_matches_oracle(n_labels):
    """Every single-instance pair of label sets for q <= 4 matches the oracle."""
    rows = [[bool(m >> j & 1) for j in range(n_labels)] for m in range(2**n_labels)]
    for t in rows:
        for p in rows:
            result = mlcm_confusion_matrix([t], [p], method="krstinic")
            assert_allclose(
                result,
                krstinic_oracle([t], [p]),
                rtol=1e-12,
                atol=1e-15,
                err_msg=f"{t} {p}",
            )


@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_krstinic_matches_oracle(data, mlcm_strategies):
    """Without weights the kernel equals the exact Algorithm 1 (with unknown)."""
    y_true, y_pred = data.draw(mlcm_strategies.targets(max_labels=7))
    result = mlcm_confusion_matrix(y_true, y_pred, method="krstinic")
    assert result.dtype == np.float64
    assert_allclose(result, krstinic_oracle(y_true, y_pred), rtol=1e-12, atol=1e-12)


@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_krstinic_weighted_matches_oracle(data, mlcm_strategies):
    """With weights each instance's contribution is scaled by its weight."""
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(weighted=True, max_labels=7)
    )
    result = mlcm_confusion_matrix(
        y_true, y_pred, method="krstinic", sample_weight=weight
    )
    assert result.dtype == np.float64
    expected = krstinic_oracle(y_true, y_pred, weight)
    assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_krstinic_row_sums_are_supports(data, mlcm_strategies):
    """Each label row sums to its (weighted) support; NTL to the empty truths."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    w = np.ones(len(y_true)) if weight is None else weight
    result = mlcm_confusion_matrix(
        y_true, y_pred, method="krstinic", sample_weight=weight
    )
    row_sums = result.sum(axis=1)
    assert_allclose(row_sums[:-1], w @ y_true, rtol=1e-12, atol=1e-12)
    empty_truth = ~y_true.any(axis=1)
    assert_allclose(row_sums[-1], w[empty_truth].sum(), rtol=1e-12, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_krstinic_total_is_label_count(data, mlcm_strategies):
    """The grand total is the (weighted) sum of max(|Y|, 1) over instances."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    w = np.ones(len(y_true)) if weight is None else weight
    result = mlcm_confusion_matrix(
        y_true, y_pred, method="krstinic", sample_weight=weight
    )
    expected = w @ np.maximum(y_true.sum(axis=1), 1)
    assert_allclose(result.sum(), expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_krstinic_no_empty_set_no_unknown(data, mlcm_strategies):
    """Without empty label sets the last row and column are exactly zero."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    y_true[~y_true.any(axis=1), 0] = True
    y_pred[~y_pred.any(axis=1), -1] = True
    result = mlcm_confusion_matrix(
        y_true, y_pred, method="krstinic", sample_weight=weight
    )
    assert_array_equal(result[-1], 0)
    assert_array_equal(result[:, -1], 0)


def test_mlcm_confusion_matrix_krstinic_many_chunks_matches_oracle():
    """Data spanning several row blocks (35 000 rows, q = 64) matches the oracle."""
    rng = np.random.RandomState(0)
    y_true = rng.rand(50, 64) < 0.1
    y_pred = rng.rand(50, 64) < 0.1
    y_pred[:5] = y_true[:5]
    y_pred[5:10] = False
    y_true[10:15] = False
    weight = rng.rand(50)
    repeats = 700
    tall_true = np.tile(y_true, (repeats, 1))
    tall_pred = np.tile(y_pred, (repeats, 1))
    assert_allclose(
        mlcm_confusion_matrix(tall_true, tall_pred, method="krstinic"),
        repeats * krstinic_oracle(y_true, y_pred),
        rtol=1e-9,
        atol=1e-9,
    )
    assert_allclose(
        mlcm_confusion_matrix(
            tall_true,
            tall_pred,
            method="krstinic",
            sample_weight=np.tile(weight, repeats),
        ),
        repeats * krstinic_oracle(y_true, y_pred, weight),
        rtol=1e-9,
        atol=1e-9,
    )
