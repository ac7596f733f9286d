"""Eftimov & Kocev (2019): entropy weights, PROMETHEE II, fusion, correlations.

sklearn_mlcm/compare/_eftimov_kocev.py. Hand-worked decision matrices, a
loop-by-loop transcription of the paper's equations as the oracle (with its
factor 1/n in eq. 2, which scales every flow alike), pymcdm's PROMETHEE II
when it is installed, the measures' correlation analysis, and every error
path.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import rankdata

from sklearn_mlcm import (
    PrometheeResult,
    entropy_weights,
    fuse_measures,
    least_correlated_measures,
    measure_correlations,
    measure_directions,
    promethee_ii,
)
from sklearn_mlcm.compare._eftimov_kocev import _ranks_descending

# Three methods on accuracy (maximised) and Hamming loss (minimised).
X = np.array([[0.80, 0.10], [0.70, 0.05], [0.60, 0.20]])
UP_DOWN = [True, False]


def paper_entropy_weights(matrix, maximize):
    """Eftimov & Kocev, eqs. 6-12, one value at a time (constant -> weight 0)."""
    m, n = len(matrix), len(matrix[0])
    k = 1 / (m * (math.exp(0.5) - 1))  # eq. 10

    def w(x):  # eq. 11
        return x * math.exp(1 - x) + (1 - x) * math.exp(x) - 1

    entropies = []
    for j in range(n):
        column = [matrix[i][j] for i in range(m)]
        high, low = max(column), min(column)
        if high == low:
            entropies.append(1.0)
            continue
        if maximize[j]:  # eq. 7
            normal = [(q - low) / (high - low) for q in column]
        else:  # eq. 6
            normal = [(high - q) / (high - low) for q in column]
        total = sum(normal)  # eq. 8
        entropies.append(k * sum(w(q / total) for q in normal))  # eq. 9
    divergence = [1 - e for e in entropies]
    if sum(divergence) == 0:
        return [0.0] * n
    return [d / sum(divergence) for d in divergence]  # eq. 12


def paper_flows(matrix, maximize, weights, preference, threshold=None):
    """Eqs. 1-5, 13-14 with eq. 2's factor 1/n: (positive, negative, net)."""
    m, n = len(matrix), len(matrix[0])
    if threshold is None:  # the largest pairwise difference of each measure
        threshold = [
            max(abs(matrix[a][j] - matrix[b][j]) for a in range(m) for b in range(m))
            for j in range(n)
        ]

    def p(x, j):  # eqs. 13-14
        if x <= 0:
            return 0.0
        if preference == "usual" or threshold[j] == 0 or x > threshold[j]:
            return 1.0
        return x / threshold[j]

    def big_p(a, b, j):  # eq. 1
        d = matrix[a][j] - matrix[b][j]
        return p(d, j) if maximize[j] else p(-d, j)

    def pi(a, b):  # eq. 2
        return sum(weights[j] * big_p(a, b, j) for j in range(n)) / n

    plus = [sum(pi(a, x) for x in range(m)) / (m - 1) for a in range(m)]  # eq. 3
    minus = [sum(pi(x, a) for x in range(m)) / (m - 1) for a in range(m)]  # eq. 4
    net = [plus[a] - minus[a] for a in range(m)]  # eq. 5
    return np.array(plus), np.array(minus), np.array(net)


def test_promethee_ii_result_type_and_shapes():
    """A PrometheeResult of float64 arrays of the documented shapes."""
    result = promethee_ii(X, maximize=UP_DOWN)
    assert isinstance(result, PrometheeResult)
    for name, shape in [
        ("net_flow", (3,)),
        ("positive_flow", (3,)),
        ("negative_flow", (3,)),
        ("preference_index", (3, 3)),
        ("weights", (2,)),
        ("ranks", (3,)),
    ]:
        value = getattr(result, name)
        assert value.dtype == np.float64, name
        assert value.shape == shape, name
    ranks, net_flow = result  # unpacks like a scipy result
    assert_array_equal(ranks, result.ranks)
    assert_array_equal(net_flow, result.net_flow)


def test_promethee_ii_usual_hand_example():
    """Usual preference, equal weights: flows and index worked by hand."""
    result = promethee_ii(X, maximize=UP_DOWN, weights="equal")
    # A beats B on accuracy, B beats A on loss; both beat C on both
    assert_allclose(result.preference_index, [[0, 0.5, 1], [0.5, 0, 1], [0, 0, 0]])
    assert_allclose(result.positive_flow, [0.75, 0.75, 0.0])
    assert_allclose(result.negative_flow, [0.25, 0.25, 1.0])
    assert_allclose(result.net_flow, [0.5, 0.5, -1.0])
    assert_array_equal(result.ranks, [1.5, 1.5, 3.0])


def test_promethee_ii_v_shape_hand_example():
    """V-shape with the default thresholds (0.2 and 0.15), by hand."""
    result = promethee_ii(X, maximize=UP_DOWN, weights="equal", preference="v-shape")
    # pi(A, B) = 0.5 * 0.1 / 0.2; pi(B, A) = 0.5 * 0.05 / 0.15
    # pi(A, C) = 0.5 * (1 + 0.1 / 0.15); pi(B, C) = 0.5 * (0.5 + 1)
    index = [[0, 1 / 4, 0.5 + 1 / 3], [1 / 6, 0, 0.75], [0, 0, 0]]
    assert_allclose(result.preference_index, index)
    assert_allclose(result.positive_flow, np.sum(index, axis=1) / 2)
    assert_allclose(result.negative_flow, np.sum(index, axis=0) / 2)
    assert_array_equal(result.ranks, [1.0, 2.0, 3.0])


def test_promethee_ii_explicit_threshold():
    """A threshold below every difference turns the V-shape into the usual one."""
    usual = promethee_ii(X, maximize=UP_DOWN, weights="equal")
    tiny = promethee_ii(
        X, maximize=UP_DOWN, weights="equal", preference="v-shape", threshold=0.01
    )
    zero = promethee_ii(
        X, maximize=UP_DOWN, weights="equal", preference="v-shape", threshold=[0, 0]
    )
    assert_allclose(tiny.net_flow, usual.net_flow)
    assert_allclose(zero.net_flow, usual.net_flow)


@pytest.mark.parametrize("preference", ["usual", "v-shape"])
def test_promethee_ii_flows_are_papers_times_n(preference):
    """The paper's eq. 2 divides by n: its flows are ours / n, same ranks."""
    rng = np.random.default_rng(0)
    matrix = rng.random((6, 4))
    maximize = [True, False, True, False]
    result = promethee_ii(matrix, maximize=maximize, preference=preference)
    weights = paper_entropy_weights(matrix.tolist(), maximize)
    plus, minus, net = paper_flows(matrix.tolist(), maximize, weights, preference)
    n = matrix.shape[1]
    assert_allclose(result.weights, weights)
    assert_allclose(result.positive_flow, n * plus)
    assert_allclose(result.negative_flow, n * minus)
    assert_allclose(result.net_flow, n * net)
    assert_array_equal(result.ranks, rankdata(-net))


def test_promethee_ii_flow_identities():
    """Net flows sum to 0; positive and negative flows lie in [0, 1]."""
    rng = np.random.default_rng(1)
    result = promethee_ii(rng.random((7, 5)), maximize=True, preference="v-shape")
    assert result.net_flow.sum() == pytest.approx(0.0, abs=1e-12)
    assert (result.positive_flow >= 0).all() and (result.positive_flow <= 1).all()
    assert (result.negative_flow >= 0).all() and (result.negative_flow <= 1).all()
    assert_allclose(np.diagonal(result.preference_index), 0.0)


def test_promethee_ii_ties_share_average_rank():
    """Identical methods tie, as 10.5 in Eftimov & Kocev's Table 2."""
    matrix = [[0.5, 0.3], [0.5, 0.3], [0.5, 0.3], [0.5, 0.3], [0.9, 0.1]]
    result = promethee_ii(matrix, maximize=UP_DOWN)
    assert_array_equal(result.ranks, [3.5, 3.5, 3.5, 3.5, 1.0])


def test_promethee_ii_near_ties_share_average_rank():
    """Net flows within 1e-12 of each other tie (sums in another order)."""
    assert_array_equal(
        _ranks_descending(np.array([0.1 + 0.2, 0.3, -0.6])), [1.5, 1.5, 3]
    )
    # the tolerance chains along the sorted values, as before rankdata
    flows = np.array([0.0, 6e-13, 1.2e-12, -1.0])
    assert_array_equal(_ranks_descending(flows), [2.0, 2.0, 2.0, 4.0])
    assert_array_equal(_ranks_descending(np.array([0.0, 2e-12])), [2.0, 1.0])


def test_promethee_ii_dataframe_and_dict_directions():
    """A DataFrame's columns pick the directions out of a dict."""
    frame = pd.DataFrame(X, columns=["accuracy", "hamming_loss"])
    result = promethee_ii(frame, maximize=measure_directions(), preference="v-shape")
    expected = promethee_ii(X, maximize=UP_DOWN, preference="v-shape")
    assert_allclose(result.net_flow, expected.net_flow)


def test_promethee_ii_user_weights_are_rescaled():
    """Weights [2, 6] act as [0.25, 0.75]."""
    a = promethee_ii(X, maximize=UP_DOWN, weights=[2, 6])
    b = promethee_ii(X, maximize=UP_DOWN, weights=[0.25, 0.75])
    assert_allclose(a.weights, [0.25, 0.75])
    assert_allclose(a.net_flow, b.net_flow)


@pytest.mark.parametrize(
    "weights, expected",
    [([1e308, 1e308], [0.5, 0.5]), ([1e308, 9e307], [1 / 1.9, 0.9 / 1.9])],
)
def test_promethee_ii_huge_weights_do_not_overflow(weights, expected):
    """Weights whose sum overflows are divided by their maximum first."""
    result = promethee_ii(X, maximize=UP_DOWN, weights=weights)
    assert_allclose(result.weights, expected)
    assert_allclose(
        result.net_flow, promethee_ii(X, maximize=UP_DOWN, weights=expected).net_flow
    )


def test_promethee_ii_direction_and_scale_invariance():
    """Negating a measure and its direction, or rescaling it, changes nothing."""
    rng = np.random.default_rng(2)
    matrix = rng.random((5, 3))
    maximize = [True, False, True]
    base = promethee_ii(matrix, maximize=maximize, preference="v-shape")
    flipped = matrix * [1, -1, 1]
    other = promethee_ii(flipped, maximize=[True, True, True], preference="v-shape")
    assert_allclose(other.net_flow, base.net_flow)
    scaled = promethee_ii(
        matrix * [100, 0.5, 3] + [1, 2, -7], maximize=maximize, preference="v-shape"
    )
    assert_allclose(scaled.net_flow, base.net_flow)
    assert_allclose(scaled.weights, base.weights)


def test_entropy_weights_hand_example():
    """Eqs. 6-12 by hand: a column [0, 0.5, 1] against a column [1, 1, 0]."""
    weights = entropy_weights([[0.0, 1.0], [0.5, 1.0], [1.0, 0.0]], maximize=True)
    k = 1 / (3 * (math.sqrt(math.e) - 1))

    def w(x):
        return x * math.exp(1 - x) + (1 - x) * math.exp(x) - 1

    # shares [0, 1/3, 2/3] and [1/2, 1/2, 0]
    e1 = k * (w(1 / 3) + w(2 / 3))
    e2 = k * 2 * w(1 / 2)
    expected = np.array([1 - e1, 1 - e2]) / (2 - e1 - e2)
    assert_allclose(weights, expected)
    assert weights.sum() == pytest.approx(1.0)


def test_entropy_weights_two_methods_are_equal():
    """With two methods every measure that differs carries the same weight."""
    weights = entropy_weights([[0.1, 5.0, 0.3], [0.2, 1.0, 0.9]], maximize=True)
    assert_allclose(weights, [1 / 3, 1 / 3, 1 / 3])


def test_entropy_weights_constant_measure_gets_zero():
    """A constant measure carries no information: weight 0, no division by 0."""
    with np.errstate(all="raise"):
        weights = entropy_weights(
            [[0.9, 0.5, 0.2], [0.7, 0.5, 0.3], [0.2, 0.5, 0.1]], maximize=True
        )
    assert weights[1] == 0.0
    assert weights.sum() == pytest.approx(1.0)


def test_entropy_weights_all_constant_are_zero_and_promethee_ties():
    """Every measure constant: all weights 0 and every method tied."""
    matrix = [[0.5, 0.1], [0.5, 0.1], [0.5, 0.1]]
    assert_array_equal(entropy_weights(matrix, maximize=UP_DOWN), [0.0, 0.0])
    result = promethee_ii(matrix, maximize=UP_DOWN, preference="v-shape")
    assert_array_equal(result.net_flow, [0.0, 0.0, 0.0])
    assert_array_equal(result.ranks, [2.0, 2.0, 2.0])


def test_entropy_weights_direction_matters():
    """The normalisation depends on the direction (eqs. 6 and 7)."""
    matrix = [[0.9, 0.1], [0.7, 0.2], [0.2, 0.5]]
    assert_allclose(
        entropy_weights(matrix, maximize=UP_DOWN),
        paper_entropy_weights(matrix, UP_DOWN),
    )
    assert not np.allclose(
        entropy_weights(matrix, maximize=UP_DOWN),
        entropy_weights(matrix, maximize=True),
    )


def test_promethee_ii_constant_measure_does_not_change_ranks():
    """Adding a constant measure leaves weights, flows and ranks as they were."""
    rng = np.random.default_rng(3)
    matrix = rng.random((6, 3))
    with_constant = np.column_stack([matrix, np.full(6, 0.42)])
    for preference in ("usual", "v-shape"):
        base = promethee_ii(matrix, maximize=True, preference=preference)
        more = promethee_ii(with_constant, maximize=True, preference=preference)
        assert more.weights[3] == 0.0
        assert_allclose(more.weights[:3], base.weights)
        assert_allclose(more.net_flow, base.net_flow)
        assert_array_equal(more.ranks, base.ranks)


@st.composite
def decision_problems(draw):
    """Small decision matrices on a grid (ties), some columns constant."""
    m = draw(st.integers(2, 6))
    n = draw(st.integers(1, 5))
    grid = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 3.0])
    matrix = np.array(
        draw(st.lists(st.lists(grid, min_size=n, max_size=n), min_size=m, max_size=m))
    )
    if draw(st.booleans()):
        matrix[:, draw(st.integers(0, n - 1))] = draw(grid)
    maximize = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return matrix, maximize


@settings(max_examples=100, deadline=None)
@given(
    problem=decision_problems(),
    preference=st.sampled_from(["usual", "v-shape"]),
    weighting=st.sampled_from(["entropy", "equal", "random"]),
    seed=st.integers(0, 2**16),
)
def test_promethee_ii_matches_paper_transcription(problem, preference, weighting, seed):
    """Random matrices with ties and constant columns: flows n x the paper's."""
    matrix, maximize = problem
    m, n = matrix.shape
    if weighting == "random":
        weights = np.random.default_rng(seed).integers(1, 5, n).astype(float)
        expected_weights = weights / weights.sum()
    elif weighting == "equal":
        weights = "equal"
        expected_weights = np.full(n, 1 / n)
    else:
        weights = "entropy"
        expected_weights = np.array(paper_entropy_weights(matrix.tolist(), maximize))
    result = promethee_ii(
        matrix, maximize=maximize, weights=weights, preference=preference
    )
    plus, minus, net = paper_flows(
        matrix.tolist(), maximize, expected_weights, preference
    )
    assert_allclose(result.weights, expected_weights, atol=1e-12)
    assert_allclose(result.positive_flow, n * plus, atol=1e-12)
    assert_allclose(result.negative_flow, n * minus, atol=1e-12)
    assert_allclose(result.net_flow, n * net, atol=1e-12)
    assert_array_equal(result.ranks, rankdata(-np.round(net, 9)))


@pytest.mark.parametrize("preference", ["usual", "vshape"])
def test_promethee_ii_matches_pymcdm(preference):
    """pymcdm's PROMETHEE_II (optional) gives the same net flows."""
    pymcdm = pytest.importorskip("pymcdm.methods")
    rng = np.random.default_rng(4)
    matrix = rng.random((8, 5))
    maximize = np.array([True, False, True, True, False])
    weights = entropy_weights(matrix, maximize=maximize)
    threshold = matrix.max(axis=0) - matrix.min(axis=0)
    p = threshold if preference == "vshape" else None
    body = pymcdm.PROMETHEE_II(preference, p=p)
    expected = body(matrix, weights, np.where(maximize, 1, -1))
    ours = promethee_ii(
        matrix, maximize=maximize, preference="usual" if p is None else "v-shape"
    )
    assert_allclose(ours.net_flow, expected)


# -- fuse_measures -----------------------------------------------------------

CUBE = np.array(
    [
        [[0.52, 0.20], [0.55, 0.21], [0.48, 0.25]],
        [[0.60, 0.10], [0.64, 0.09], [0.62, 0.12]],
    ]
)


def _long(cube, datasets=("emotions", "scene"), methods=("BR", "CC", "kNN")):
    measures = ("accuracy", "hamming_loss")
    rows = [
        (datasets[d], methods[i], measures[j], cube[d, i, j])
        for d in range(cube.shape[0])
        for i in range(cube.shape[1])
        for j in range(cube.shape[2])
    ]
    return pd.DataFrame(rows, columns=["dataset", "method", "measure", "value"])


@pytest.mark.parametrize("preference", ["usual", "v-shape"])
def test_fuse_measures_is_promethee_per_dataset(preference):
    """Each row of the rank table is promethee_ii's ranking of that dataset."""
    ranks = fuse_measures(CUBE, maximize=UP_DOWN, preference=preference)
    assert ranks.shape == (2, 3)
    for d in range(2):
        expected = promethee_ii(CUBE[d], maximize=UP_DOWN, preference=preference)
        assert_array_equal(ranks[d], expected.ranks)


def test_fuse_measures_hand_example():
    """Two datasets ranked by hand with the V-shape and entropy weights."""
    ranks = fuse_measures(CUBE, maximize=UP_DOWN)
    # emotions: kNN worst on both; CC beats BR on accuracy by 0.03 of 0.07 and
    # loses on loss by 0.01 of 0.05. scene: CC best on both; kNN beats BR on
    # accuracy by 0.02 of 0.04 (weight 0.53), loses on loss by 0.02 of 0.03
    # (weight 0.47): 0.53 * 0.5 < 0.47 * 0.67
    assert_array_equal(ranks, [[2.0, 1.0, 3.0], [2.0, 1.0, 3.0]])


def test_fuse_measures_dataframe_names():
    """A long DataFrame gives a DataFrame with dataset and method names."""
    ranks = fuse_measures(_long(CUBE), maximize=measure_directions())
    assert isinstance(ranks, pd.DataFrame)
    assert list(ranks.index) == ["emotions", "scene"]
    assert list(ranks.columns) == ["BR", "CC", "kNN"]
    assert ranks.index.name == "dataset" and ranks.columns.name == "method"
    assert_array_equal(ranks.to_numpy(), fuse_measures(CUBE, maximize=UP_DOWN))


def test_fuse_measures_dataframe_row_order_is_irrelevant():
    """Shuffling the rows of the long DataFrame changes nothing but name order."""
    frame = _long(CUBE)
    shuffled = frame.sample(frac=1.0, random_state=0)
    a = fuse_measures(frame, maximize=measure_directions())
    b = fuse_measures(shuffled, maximize=measure_directions())
    pd.testing.assert_frame_equal(a, b.loc[a.index, a.columns])


def test_fuse_measures_equal_and_fixed_weights():
    """weights='equal' and explicit weights apply to every dataset."""
    equal = fuse_measures(CUBE, maximize=UP_DOWN, weights="equal", preference="usual")
    fixed = fuse_measures(CUBE, maximize=UP_DOWN, weights=[1, 1], preference="usual")
    assert_array_equal(equal, fixed)
    only_loss = fuse_measures(CUBE, maximize=UP_DOWN, weights=[0, 1])
    assert_array_equal(only_loss, rankdata(CUBE[:, :, 1], axis=1))


# -- bad input ---------------------------------------------------------------


NOT_REAL = [
    (np.array([[0.1 + 1j, 0.2], [0.3, 0.4]]), "dtype complex128"),
    (np.array([[1, 2], [3, 4]], dtype="datetime64[D]"), "dtype datetime64"),
    (np.array([[1, 2], [3, 4]], dtype="timedelta64[s]"), "dtype timedelta64"),
    ([["a", "b"], ["c", "d"]], "dtype <U1"),
    ([[0.1, None], [0.3, 0.4]], "a value of type NoneType"),
]
NOT_REAL_IDS = ["complex", "datetime", "timedelta", "strings", "none"]


@pytest.mark.parametrize(
    "matrix, error, match",
    [
        ([0.1, 0.2], ValueError, r"must be a 2-D array.*Got an array of shape \(2,\)"),
        ([[0.1, 0.2]], ValueError, "at least 2 methods"),
        ([[0.1, np.nan], [0.2, 0.3]], ValueError, "NaN or infinity for method 0"),
        ([[0.1, 0.2], [0.3]], ValueError, "rectangular array"),
        (0.5, TypeError, "must be an array-like. Got 0.5"),
        *[(matrix, TypeError, match) for matrix, match in NOT_REAL],
    ],
    ids=["1d", "one_method", "nan", "ragged", "scalar", *NOT_REAL_IDS],
)
def test_promethee_ii_bad_decision_matrix(matrix, error, match):
    """Shape, NaN, ragged rows and values that are not real numbers."""
    with pytest.raises(error, match="'decision_matrix' parameter of promethee_ii"):
        promethee_ii(matrix, maximize=True)
    with pytest.raises(error, match=match):
        promethee_ii(matrix, maximize=True)


@pytest.mark.parametrize("matrix, match", NOT_REAL, ids=NOT_REAL_IDS)
def test_entropy_weights_refuses_values_that_are_not_real(matrix, match):
    """Complex numbers keep no imaginary part silently; dates are no measures."""
    with pytest.raises(
        TypeError, match=f"entropy_weights must be an array of real.*{match}"
    ):
        entropy_weights(matrix, maximize=True)


def test_promethee_ii_complex_dataframe_is_refused():
    """A DataFrame with a complex column is refused like an array."""
    frame = pd.DataFrame({"accuracy": [0.5 + 1j, 0.7], "loss": [0.1, 0.2]})
    with pytest.raises(TypeError, match="'decision_matrix'.*complex"):
        promethee_ii(frame, maximize=measure_directions())


@pytest.mark.parametrize(
    "maximize, error, match",
    [
        ([True], ValueError, r"one bool per measure, shape \(2,\). Got shape \(1,\)"),
        (["max", "min"], TypeError, "made of bools. Got the entry 'max'"),
        ("max", TypeError, "must be a bool, an array-like or a dict"),
        (1, TypeError, "must be a bool, an array-like or a dict"),
        ({"accuracy": True}, TypeError, "when the measures have no names.*Got a dict"),
    ],
    ids=["length", "strings", "string", "int", "dict_without_names"],
)
def test_promethee_ii_bad_maximize(maximize, error, match):
    """The 'maximize' parameter of promethee_ii: length and type."""
    with pytest.raises(error, match=r"The 'maximize' parameter of promethee_ii"):
        promethee_ii(X, maximize=maximize)
    with pytest.raises(error, match=match):
        promethee_ii(X, maximize=maximize)


@pytest.mark.parametrize(
    "weights, error, match",
    [
        ("gini", ValueError, r"one of \{'entropy', 'equal'\} or an array-like"),
        ([0.5], ValueError, r"one weight per measure, shape \(2,\)"),
        ([0.5, -0.5], ValueError, r"non-negative, not all zero. Got \[0.5, -0.5\]"),
        ([0.5, np.nan], ValueError, "finite and non-negative"),
        ([0, 0], ValueError, "not all zero"),
        ([True, False], TypeError, "Got bools"),
        ([0.5 + 0j, 0.5], TypeError, "dtype complex128"),
        (1.0, TypeError, r"one of \{'entropy', 'equal'\} or an array-like"),
    ],
    ids=["name", "length", "negative", "nan", "zeros", "bools", "complex", "scalar"],
)
def test_promethee_ii_bad_weights(weights, error, match):
    """Weights of the wrong length, negative, NaN, all zero, bool or complex."""
    with pytest.raises(error, match="'weights' parameter of promethee_ii"):
        promethee_ii(X, maximize=UP_DOWN, weights=weights)
    with pytest.raises(error, match=match):
        promethee_ii(X, maximize=UP_DOWN, weights=weights)


@pytest.mark.parametrize(
    "preference, error", [("gaussian", ValueError), (None, TypeError)]
)
def test_promethee_ii_bad_preference(preference, error):
    """An unknown preference function, or not a string."""
    with pytest.raises(
        error,
        match=r"'preference' parameter of promethee_ii must be one of "
        r"\{'usual', 'v-shape'\}",
    ):
        promethee_ii(X, maximize=UP_DOWN, preference=preference)


@pytest.mark.parametrize(
    "preference, threshold, error, match",
    [
        ("usual", 0.1, ValueError, "None with preference='usual'.*'v-shape' only"),
        ("v-shape", [0.1], ValueError, r"shape \(2,\). Got shape \(1,\)"),
        ("v-shape", -0.1, ValueError, r"a float in the range \[0, inf\)"),
        ("v-shape", np.inf, ValueError, r"a float in the range \[0, inf\)"),
        ("v-shape", [0.1, -0.1], ValueError, "finite and non-negative"),
        ("v-shape", "wide", TypeError, "a float in the range.*Got 'wide'"),
        ("v-shape", [0.1j, 0.1], TypeError, "dtype complex128"),
    ],
    ids=["usual", "length", "negative", "inf", "negative_entry", "string", "complex"],
)
def test_promethee_ii_bad_threshold(preference, threshold, error, match):
    """Thresholds only with the V-shape, one per measure, non-negative."""
    with pytest.raises(error, match="'threshold' parameter of promethee_ii"):
        promethee_ii(X, maximize=UP_DOWN, preference=preference, threshold=threshold)
    with pytest.raises(error, match=match):
        promethee_ii(X, maximize=UP_DOWN, preference=preference, threshold=threshold)


def test_entropy_weights_bad_input():
    """entropy_weights validates like promethee_ii, under its own name."""
    with pytest.raises(
        ValueError, match="'decision_matrix' parameter of entropy_weights.*finite"
    ):
        entropy_weights([[np.inf, 1.0], [0.0, 1.0]], maximize=True)
    with pytest.raises(ValueError, match="'maximize' parameter of entropy_weights"):
        entropy_weights(X, maximize=[True, False, True])


def test_fuse_measures_missing_method_on_dataset():
    """A method with no value on one dataset is named in the error."""
    frame = _long(CUBE)
    frame = frame[~((frame.dataset == "scene") & (frame.method == "kNN"))]
    with pytest.raises(
        ValueError,
        match="'results' parameter of fuse_measures must be complete.*Got 2 missing "
        "values, for example method 'kNN' has no 'accuracy' on dataset 'scene'",
    ):
        fuse_measures(frame, maximize=measure_directions())


def test_fuse_measures_nan_value():
    """NaN in the array or the DataFrame is refused, with a hint."""
    cube = CUBE.copy()
    cube[1, 2, 0] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity for method 2.*dataset 1"):
        fuse_measures(cube, maximize=UP_DOWN)
    with pytest.raises(ValueError, match="method 'kNN', measure 'accuracy'.*'scene'"):
        fuse_measures(_long(cube), maximize=measure_directions())


def test_fuse_measures_measure_without_direction():
    """A measure that the maximize dict does not cover."""
    frame = _long(CUBE)
    with pytest.raises(
        ValueError,
        match=r"'maximize' parameter of fuse_measures must be a dict giving every "
        r"measure a direction.*no direction for the measures \['hamming",
    ):
        fuse_measures(frame, maximize={"accuracy": True})


def test_fuse_measures_constant_measure_gets_no_weight():
    """A measure constant on every dataset leaves the rank table unchanged."""
    constant = np.concatenate([CUBE, np.full((2, 3, 1), 0.3)], axis=2)
    for preference in ("usual", "v-shape"):
        assert_array_equal(
            fuse_measures(
                constant, maximize=[True, False, True], preference=preference
            ),
            fuse_measures(CUBE, maximize=UP_DOWN, preference=preference),
        )


@pytest.mark.parametrize(
    "frame_edit, error, match",
    [
        (lambda f: f.drop(columns="value"), ValueError, r"Got one without \['value'\]"),
        (lambda f: pd.concat([f, f.iloc[:1]]), ValueError, "more than one value"),
        (lambda f: f.assign(value="high"), TypeError, "real numbers in its 'value'"),
        (lambda f: f.assign(value=f.value + 1j), TypeError, "dtype complex128"),
        (
            lambda f: f.assign(value=pd.Timestamp("2019-01-01")),
            TypeError,
            "dtype datetime64|type Timestamp",
        ),
        (
            lambda f: f.assign(value=pd.Timedelta("1s")),
            TypeError,
            "dtype timedelta64|type Timedelta",
        ),
        (
            lambda f: f.assign(method=f.method.where(f.index > 0)),
            ValueError,
            "a missing name in its 'method' column",
        ),
    ],
    ids=["column", "duplicate", "strings", "complex", "datetime", "timedelta", "name"],
)
def test_fuse_measures_bad_dataframe(frame_edit, error, match):
    """Missing column, duplicated row, values that are not real, no name."""
    with pytest.raises(error, match="'results' parameter of fuse_measures"):
        fuse_measures(frame_edit(_long(CUBE)), maximize=measure_directions())
    with pytest.raises(error, match=match):
        fuse_measures(frame_edit(_long(CUBE)), maximize=measure_directions())


@pytest.mark.parametrize(
    "results, error, match",
    [
        (CUBE[0], ValueError, r"must be a 3-D array.*\(3, 2\)"),
        (CUBE[:, :1], ValueError, "at least 2 methods"),
        (np.empty((0, 3, 2)), ValueError, r"Got shape \(0, 3, 2\)"),
        (CUBE.astype(str), TypeError, "must be an array of real numbers"),
        (CUBE.astype(complex), TypeError, "dtype complex128"),
    ],
    ids=["2d", "one_method", "empty", "strings", "complex"],
)
def test_fuse_measures_bad_array(results, error, match):
    """Arrays of the wrong dimension, size or dtype."""
    with pytest.raises(error, match="'results' parameter of fuse_measures"):
        fuse_measures(results, maximize=UP_DOWN)
    with pytest.raises(error, match=match):
        fuse_measures(results, maximize=UP_DOWN)


def test_fuse_measures_bad_options():
    """preference and weights are checked under fuse_measures' name."""
    with pytest.raises(ValueError, match="'preference' parameter of fuse_measures"):
        fuse_measures(CUBE, maximize=UP_DOWN, preference="linear")
    with pytest.raises(ValueError, match="'weights' parameter of fuse_measures"):
        fuse_measures(CUBE, maximize=UP_DOWN, weights=[1, 2, 3])
    with pytest.raises(TypeError, match="'maximize' parameter of fuse_measures"):
        fuse_measures(CUBE, maximize="max")


# -- correlations ---------------------------------------------------------------

RESULTS = np.array(
    [
        [[0.5, 0.25, 1.0], [0.6, 0.20, 3.0], [0.7, 0.15, 2.0]],
        [[0.2, 0.40, 1.0], [0.4, 0.30, 2.0], [0.3, 0.35, 3.0]],
    ]
)


def test_measure_correlations_hand_example():
    """Two datasets: r = -1, 0.5 and -0.5 on each, by hand."""
    assert_allclose(
        measure_correlations(RESULTS),
        [[1, -1, 0.5], [-1, 1, -0.5], [0.5, -0.5, 1]],
    )


def test_measure_correlations_is_mean_of_corrcoef():
    """Random results: the mean over datasets of NumPy's corrcoef."""
    rng = np.random.default_rng(0)
    results = rng.random((4, 6, 5))
    expected = np.mean([np.corrcoef(d, rowvar=False) for d in results], axis=0)
    assert_allclose(measure_correlations(results), expected)


def test_measure_correlations_constant_measure():
    """A measure constant on one dataset is averaged over the others only."""
    results = RESULTS.copy()
    results[1, :, 2] = 7.0
    with np.errstate(all="raise"):
        corr = measure_correlations(results)
    assert_allclose(corr[0, 2], 0.5)  # dataset 0 only
    assert_allclose(corr[0, 1], -1.0)
    results[0, :, 2] = 7.0
    assert np.isnan(measure_correlations(results)[0, 2])


def test_measure_correlations_dataframe():
    """A long DataFrame gives a DataFrame indexed by measure name."""
    rows = [
        (f"d{d}", f"m{i}", name, RESULTS[d, i, j])
        for d in range(2)
        for i in range(3)
        for j, name in enumerate(["accuracy", "hamming_loss", "coverage"])
    ]
    frame = pd.DataFrame(rows, columns=["dataset", "method", "measure", "value"])
    corr = measure_correlations(frame)
    assert (
        list(corr.index)
        == list(corr.columns)
        == [
            "accuracy",
            "hamming_loss",
            "coverage",
        ]
    )
    assert_allclose(corr.to_numpy(), measure_correlations(RESULTS))


def test_measure_correlations_one_measure():
    """One measure: a 1 x 1 matrix of 1."""
    assert_array_equal(measure_correlations(RESULTS[:, :, :1]), [[1.0]])


def test_measure_correlations_bad_input():
    """Fewer than two methods, NaN or complex values."""
    with pytest.raises(
        ValueError, match="'results' parameter of measure_correlations.*2 methods"
    ):
        measure_correlations(RESULTS[:, :1])
    results = RESULTS.copy()
    results[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="measure_correlations must be finite"):
        measure_correlations(results)
    with pytest.raises(TypeError, match="measure_correlations.*complex128"):
        measure_correlations(RESULTS + 0j)


CORR = np.array(
    [
        [1.0, 0.95, 0.85, 0.4],
        [0.95, 1.0, 0.75, 0.2],
        [0.85, 0.75, 1.0, 0.3],
        [0.4, 0.2, 0.3, 1.0],
    ]
)


@pytest.mark.parametrize(
    "threshold, expected",
    [
        (0.9, [1, 2, 3]),
        (0.8, [1, 2, 3]),
        (0.7, [1, 3]),
        (0.1, [1]),
        (0.99, [0, 1, 2, 3]),
    ],
)
def test_least_correlated_measures_hand_example(threshold, expected):
    """The most correlated pair loses its member with the larger mean |r|."""
    # (0, 1) at 0.95 goes first: mean |r| 2.2 / 3 for 0 against 1.9 / 3 for 1.
    # Then (1, 2) at 0.75: 0.95 / 2 for 1 against 1.05 / 2 for 2. Then (1, 3) at
    # 0.2: a tie, and the later measure goes.
    assert least_correlated_measures(CORR, threshold=threshold) == expected


def test_least_correlated_measures_signs_and_names():
    """Negative correlations count by their size; DataFrame names come back."""
    names = ["hamming_loss", "accuracy", "coverage"]
    corr = pd.DataFrame(
        [[1.0, -0.95, 0.1], [-0.95, 1.0, 0.2], [0.1, 0.2, 1.0]],
        index=names,
        columns=names,
    )
    assert least_correlated_measures(corr, threshold=0.9) == [
        "hamming_loss",
        "coverage",
    ]


@settings(max_examples=50, deadline=None)
@given(
    values=st.lists(st.floats(-1, 1), min_size=15, max_size=15),
    threshold=st.sampled_from([0.7, 0.8, 0.9]),
)
def test_least_correlated_measures_leaves_no_pair_above(values, threshold):
    """Random 6 x 6 symmetric matrices: no kept pair exceeds the threshold."""
    corr = np.eye(6)
    corr[np.triu_indices(6, 1)] = values
    corr = np.triu(corr) + np.triu(corr, 1).T
    kept = least_correlated_measures(corr, threshold=threshold)
    assert kept == sorted(kept) and kept
    sub = np.abs(corr[np.ix_(kept, kept)])
    assert (sub[~np.eye(len(kept), dtype=bool)] <= threshold).all()


ASYMMETRIC = CORR.copy()
ASYMMETRIC[0, 3] = 0.5


@pytest.mark.parametrize(
    "corr, threshold, error, match",
    [
        (CORR, 1.5, ValueError, r"'threshold' parameter.*range \[0, 1\]"),
        (CORR, "0.8", TypeError, r"'threshold' parameter.*Got '0.8'"),
        (CORR, True, TypeError, r"'threshold' parameter.*Got True"),
        (CORR[:2], 0.8, ValueError, r"non-empty square matrix. Got an array"),
        ([["a"]], 0.8, TypeError, "must be an array of real numbers"),
        (ASYMMETRIC, 0.8, ValueError, r"symmetric.*Got 0.5 at \(0, 3\) but 0.4"),
        (CORR + 0.1, 0.8, ValueError, r"values in \[-1, 1\].*Got 1.1 at \(0, 0\)"),
        (CORR + 0j, 0.8, TypeError, "dtype complex128"),
    ],
    ids=[
        "threshold",
        "threshold_string",
        "threshold_bool",
        "not_square",
        "strings",
        "not_symmetric",
        "outside",
        "complex",
    ],
)
def test_least_correlated_measures_bad_input(corr, threshold, error, match):
    """Thresholds outside [0, 1]; matrices that are not correlation matrices."""
    with pytest.raises(error, match="least_correlated_measures"):
        least_correlated_measures(corr, threshold=threshold)
    with pytest.raises(error, match=match):
        least_correlated_measures(corr, threshold=threshold)


def test_least_correlated_measures_nan_and_rounding():
    """NaN (undefined) entries and corrcoef's rounding past 1 are accepted."""
    corr = np.array([[1.0, np.nan, 0.95], [np.nan, 1.0, 0.1], [0.95, 0.1, 1.0]])
    corr[0, 0] = 1 + 1e-15
    # 0 and 2 correlate at 0.95; 2 has the greater mean |r| (NaN counts as 0)
    assert least_correlated_measures(corr, threshold=0.9) == [0, 1]


def test_entropy_weights_and_promethee_values_near_float64_limits():
    """Measures spanning +-1e308 (whose max - min overflows) give the weights
    and ranks of the same measures scaled down, not NaN weights and tied ranks
    (#16 item 3)."""
    small = np.array([[1.0, 1.0], [-1.0, 2.0], [0.0, 3.0]])
    huge = small * np.array([1e308, 1.0])
    assert_allclose(
        entropy_weights(huge, maximize=[True, False]),
        entropy_weights(small, maximize=[True, False]),
    )
    for preference in ("usual", "v-shape"):
        got = promethee_ii(huge, maximize=[True, False], preference=preference)
        want = promethee_ii(small, maximize=[True, False], preference=preference)
        assert_array_equal(got.ranks, want.ranks)
        assert_allclose(got.net_flow, want.net_flow)
    assert len(set(promethee_ii(huge, maximize=[True, True]).ranks)) == 3


# -- summary and frame ----------------------------------------------------------


def test_promethee_result_summary_by_hand():
    """Three methods, equal weights: the tied best two, then the third; the
    headline numbers are the fields'."""
    X = [[0.80, 0.10], [0.70, 0.05], [0.60, 0.20]]
    result = promethee_ii(X, maximize=[True, False], weights="equal")
    assert repr(result).splitlines() == [
        "PrometheeResult: 3 methods (rows), 2 measures (columns)",
        "best: method 0, ranks[0]=1.5000, net_flow[0]=0.5000",
        "Methods by rank:",
        "method    rank  net flow  positive flow  negative flow",
        "0       1.5000    0.5000         0.7500         0.2500",
        "1       1.5000    0.5000         0.7500         0.2500",
        "2       3.0000   -1.0000         0.0000         1.0000",
        "weights of the measures: 0.5000, 0.5000",
    ]
    assert (result.ranks[0], result.net_flow[0]) == (1.5, 0.5)


def test_promethee_result_summary_fits_40_lines():
    """40 methods and 12 measures: at most 40 lines, the best method first,
    the methods and weights left out counted."""
    rng = np.random.default_rng(0)
    result = promethee_ii(rng.random((40, 12)), maximize=True)
    lines = repr(result).splitlines()
    assert len(lines) == 31 <= 40
    best = int(np.argmin(result.ranks))
    assert lines[1] == (
        f"best: method {best}, ranks[{best}]=1.0000, "
        f"net_flow[{best}]={result.net_flow[best]:.4f}"
    )
    assert lines[4].split()[0] == str(best)
    assert lines[-2] == "... and 15 more methods (see .to_frame())"
    assert lines[-1].endswith(", ... (12 in all)")


def test_promethee_result_to_frame_equals_the_fields(monkeypatch):
    """One row per method (its row of the decision matrix), values exactly
    the result's arrays; without pandas the pip hint."""
    import sys

    rng = np.random.default_rng(1)
    result = promethee_ii(rng.random((6, 3)), maximize=[True, False, True])
    frame = result.to_frame()
    assert frame.index.name == "method" and list(frame.index) == list(range(6))
    assert list(frame.columns) == ["rank", "net_flow", "positive_flow", "negative_flow"]
    assert_array_equal(frame["rank"].to_numpy(), result.ranks)
    for column in ("net_flow", "positive_flow", "negative_flow"):
        assert_array_equal(frame[column].to_numpy(), getattr(result, column))
    ranks, flow = result
    assert ranks is result.ranks and flow is result.net_flow
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"PrometheeResult\.to_frame\(\) requires"):
        result.to_frame()


# -- names: frames in, names out --------------------------------------------------

NAMED_X = pd.DataFrame(
    X, index=["BR", "CC", "kNN"], columns=["accuracy", "hamming_loss"]
)


def test_promethee_result_summary_names_from_a_frame():
    """A DataFrame's index names the methods and its columns the measures,
    in the summary; the numbers are those of the array."""
    result = promethee_ii(NAMED_X, maximize=measure_directions(), weights="equal")
    assert result.names == ["BR", "CC", "kNN"]
    assert result.measure_names == ["accuracy", "hamming_loss"]
    assert repr(result).splitlines() == [
        "PrometheeResult: 3 methods (rows), 2 measures (columns)",
        "best: method BR (row 0), ranks[0]=1.5000, net_flow[0]=0.5000",
        "Methods by rank:",
        "method    rank  net flow  positive flow  negative flow",
        "BR      1.5000    0.5000         0.7500         0.2500",
        "CC      1.5000    0.5000         0.7500         0.2500",
        "kNN     3.0000   -1.0000         0.0000         1.0000",
        "weights of the measures: accuracy 0.5000, hamming_loss 0.5000",
    ]
    plain = promethee_ii(X, maximize=UP_DOWN, weights="equal")
    for field in ("net_flow", "positive_flow", "negative_flow", "ranks", "weights"):
        assert_array_equal(getattr(result, field), getattr(plain, field))


def test_promethee_result_to_frame_indexed_by_the_names():
    """to_frame's index holds the frame's method names, in its row order,
    named "method"; the values are the result's arrays."""
    result = promethee_ii(NAMED_X, maximize=UP_DOWN, preference="v-shape")
    frame = result.to_frame()
    assert frame.index.name == "method"
    assert list(frame.index) == ["BR", "CC", "kNN"]
    assert_array_equal(frame["rank"].to_numpy(), [1.0, 2.0, 3.0])
    assert_array_equal(frame["net_flow"].to_numpy(), result.net_flow)
    assert frame.loc["kNN", "rank"] == 3.0


def test_promethee_result_summary_best_named_method_by_rank():
    """The methods print by rank under their names (the best is not the first
    row here), and numbers in the index are names too."""
    frame = NAMED_X.iloc[::-1]
    result = promethee_ii(
        frame, maximize=UP_DOWN, weights="equal", preference="v-shape"
    )
    lines = repr(result).splitlines()
    assert lines[1] == "best: method BR (row 2), ranks[2]=1.0000, net_flow[2]=0.4583"
    assert [line.split()[0] for line in lines[4:7]] == ["BR", "CC", "kNN"]
    numbered = NAMED_X.set_axis([10, 20, 30], axis=0)
    result = promethee_ii(numbered, maximize=UP_DOWN, preference="v-shape")
    assert result.names == [10, 20, 30]
    assert repr(result).splitlines()[1].startswith("best: method 10 (row 0),")
    assert list(result.to_frame().index) == [10, 20, 30]


def test_promethee_result_long_names_cut_in_the_summary_only():
    """A long method or measure name is cut in the summary, kept whole in
    the frame and the fields."""
    long = "a method with a name much longer than a column"
    frame = NAMED_X.set_axis([long, "CC", "kNN"], axis=0).set_axis(
        ["accuracy of every label, averaged over the samples", "HL"], axis=1
    )
    result = promethee_ii(frame, maximize=UP_DOWN, weights="equal")
    assert repr(result).splitlines() == [
        "PrometheeResult: 3 methods (rows), 2 measures (columns)",
        "best: method a method with a name much... (row 0), ranks[0]=1.5000, "
        "net_flow[0]=0.5000",
        "Methods by rank:",
        "method                          rank  net flow  positive flow  negative flow",
        "a method with a name much...  1.5000    0.5000         0.7500         0.2500",
        "CC                            1.5000    0.5000         0.7500         0.2500",
        "kNN                           3.0000   -1.0000         0.0000         1.0000",
        "weights of the measures: accuracy of every label, ... 0.5000, HL 0.5000",
    ]
    assert result.to_frame().index[0] == long
    assert (
        result.measure_names[0] == "accuracy of every label, averaged over the samples"
    )


def test_promethee_result_without_names_uses_the_rows():
    """An array, or a DataFrame with the default index, has no method names:
    the rows' numbers show; a frame's columns still name the measures."""
    default = pd.DataFrame(X, columns=["accuracy", "hamming_loss"])
    result = promethee_ii(default, maximize=UP_DOWN, weights="equal")
    assert result.names is None
    assert result.measure_names == ["accuracy", "hamming_loss"]
    lines = repr(result).splitlines()
    assert lines[1] == "best: method 0, ranks[0]=1.5000, net_flow[0]=0.5000"
    assert lines[-1] == "weights of the measures: accuracy 0.5000, hamming_loss 0.5000"
    assert result.to_frame().index.equals(pd.RangeIndex(3, name="method"))
    plain = promethee_ii(X, maximize=UP_DOWN, weights="equal")
    assert plain.names is None and plain.measure_names is None
    shifted = pd.DataFrame(X, index=pd.RangeIndex(1, 4))
    assert promethee_ii(shifted, maximize=UP_DOWN).names == [1, 2, 3]


def test_promethee_result_names_from_polars_and_xarray():
    """polars has no index (measures named, methods not); a DataArray names
    both by its coordinates."""
    polars = pytest.importorskip("polars")
    xarray = pytest.importorskip("xarray")
    table = polars.DataFrame({"accuracy": X[:, 0], "hamming_loss": X[:, 1]})
    result = promethee_ii(table, maximize=UP_DOWN)
    assert result.names is None
    assert result.measure_names == ["accuracy", "hamming_loss"]
    array = xarray.DataArray(
        X,
        dims=("method", "measure"),
        coords={"method": ["BR", "CC", "kNN"], "measure": ["acc", "hl"]},
    )
    result = promethee_ii(array, maximize=UP_DOWN, weights="equal")
    assert (result.names, result.measure_names) == (["BR", "CC", "kNN"], ["acc", "hl"])
    assert (
        repr(result).splitlines()[-1]
        == "weights of the measures: acc 0.5000, hl 0.5000"
    )


def test_promethee_result_built_without_names_still_works():
    """The six fields of before still build a result, which unpacks as
    (ranks, net_flow) and prints the rows' numbers."""
    result = promethee_ii(X, maximize=UP_DOWN, weights="equal")
    built = PrometheeResult(
        result.net_flow,
        result.positive_flow,
        result.negative_flow,
        result.preference_index,
        result.weights,
        result.ranks,
    )
    assert (built.names, built.measure_names) == (None, None)
    ranks, flow = built
    assert ranks is result.ranks and flow is result.net_flow
    assert repr(built) == repr(result)
