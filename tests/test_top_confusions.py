"""most_confused, most_confused_labels and labelset_confusions: behaviour,
oracles and errors."""

import sys
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from _oracles import (
    labelset_confusions_oracle,
    most_confused_labels_oracle,
    most_confused_oracle,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse
from sklearn.metrics import confusion_matrix

from sklearn_mlcm import (
    InvalidInputError,
    MLCMAccumulator,
    labelset_confusions,
    mlcm_confusion_matrix,
    most_confused,
    most_confused_labels,
)
from sklearn_mlcm._plot import _top_confusions
from sklearn_mlcm._plot._top_confusions import Confusion, LabelSetConfusion

HYPOTHESIS = settings(max_examples=60, deadline=None)

# Every accepted form of a square matrix, and of an indicator matrix.
MATRIX_FORMATS = {
    "ndarray": np.asarray,
    "list": lambda cm: np.asarray(cm).tolist(),
    "csr_array": sparse.csr_array,
    "csc_matrix": sparse.csc_matrix,
    "coo_array": sparse.coo_array,
    "csr_explicit_zeros": lambda cm: sparse.csr_array(
        (
            np.asarray(cm).ravel(),
            tuple(i.ravel() for i in np.indices(np.shape(cm))),
        ),
        shape=np.shape(cm),
    ),
}
TARGET_FORMATS = {
    "bool_ndarray": lambda y: np.asarray(y, dtype=bool),
    "int_list": lambda y: np.asarray(y, dtype=int).tolist(),
    "csr_array": lambda y: sparse.csr_array(np.asarray(y, dtype=np.int8)),
    "csc_matrix": lambda y: sparse.csc_matrix(np.asarray(y, dtype=float)),
    "dataframe": lambda y: pd.DataFrame(np.asarray(y, dtype=int)),
}
# Weights whose float sums are exact, so that ties are ties for the oracle too.
DYADIC_WEIGHTS = st.sampled_from((0.0, 0.5, 1.0, 2.0, 3.75))


def _widened(y, n_labels, columns):
    """``y`` with its columns placed at ``columns`` of ``n_labels`` columns."""
    out = np.zeros((y.shape[0], n_labels), dtype=bool)
    out[:, columns] = y
    return out


# --------------------------------------------------------------------------
# most_confused
# --------------------------------------------------------------------------


def test_most_confused_table_4j():
    """Heydarian et al., Table 4 (j): every non-zero off-diagonal cell, named."""
    result = most_confused(TABLE_4J, target_names=TABLE_1_NAMES, include_no_label=True)
    assert result == [
        ("C0", "C2", 4),
        ("C1", "C2", 3),
        ("C0", "C1", 2),
        ("C1", "NPL", 1),
        ("NTL", "C1", 1),
        ("NTL", "C2", 1),
    ]
    assert all(type(c) is Confusion for c in result)
    assert result[0].true == "C0" and result[0].predicted == "C2"
    assert result[0].value == 4


def test_most_confused_table_4j_by_index_without_no_label():
    """Without the no-label row and column, labels are named by int indices."""
    result = most_confused(TABLE_4J, include_no_label=False)
    assert result == [(0, 2, 4), (1, 2, 3), (0, 1, 2)]
    assert all(type(c.true) is int and type(c.predicted) is int for c in result)


def test_most_confused_table_1_predictions():
    """The matrix computed from Table 1 gives the same list as Table 4 (j)."""
    cm = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)
    assert most_confused(cm, top_k=3, include_no_label=True) == [
        (0, 2, 4),
        (1, 2, 3),
        (0, 1, 2),
    ]


def test_most_confused_custom_no_label_names():
    """ntl_label and npl_label name the last row and the last column."""
    result = most_confused(
        TABLE_4J, ntl_label="none true", npl_label="none pred", include_no_label=True
    )
    assert result[3:] == [
        (1, "none pred", 1),
        ("none true", 1, 1),
        ("none true", 2, 1),
    ]


@pytest.mark.parametrize("k, expected", [(1, 1), (4, 4), (6, 6), (7, 6), (100, 6)])
def test_most_confused_k_limits_the_list(k, expected):
    """At most k cells; fewer when fewer cells are non-zero."""
    assert len(most_confused(TABLE_4J, top_k=k, include_no_label=True)) == expected


def test_most_confused_ties_in_row_major_order():
    """Equal values are listed by row, then by column, the no-label index
    last; k cuts inside a tie."""
    cm = np.ones((3, 3), dtype=int)
    expected = [
        (0, 1, 1),
        (0, "NPL", 1),
        (1, 0, 1),
        (1, "NPL", 1),
        ("NTL", 0, 1),
        ("NTL", 1, 1),
    ]
    assert most_confused(cm, include_no_label=True) == expected
    assert most_confused(cm, top_k=3, include_no_label=True) == expected[:3]
    assert (
        most_confused(sparse.csr_array(cm), top_k=3, include_no_label=True)
        == expected[:3]
    )
    cm[2, 1] = 5
    assert most_confused(cm, top_k=2, include_no_label=True) == [
        ("NTL", 1, 5),
        (0, 1, 1),
    ]


def test_most_confused_zero_and_diagonal_cells_never_listed():
    """A diagonal matrix has no confusion; zeros are left out."""
    assert most_confused(np.diag([3, 1, 2]), include_no_label=True) == []
    assert (
        most_confused(sparse.csr_array(np.diag([3, 1, 2])), include_no_label=True) == []
    )
    assert most_confused(np.zeros((4, 4)), include_no_label=True) == []


def test_most_confused_value_types():
    """int values for an integer matrix, floats for fractions or normalised."""
    counts = most_confused(TABLE_4J, include_no_label=True)
    assert all(type(c.value) is int for c in counts)
    fractions = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, method="krstinic")
    values = [c.value for c in most_confused(fractions, include_no_label=True)]
    assert all(type(v) is float for v in values)
    assert values == sorted(values, reverse=True)
    normalised = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, normalize="true")
    first = most_confused(normalised, top_k=1, include_no_label=True)[0]
    assert first == (1, 2, 0.5)  # C1 -> C2: 3 of the 6 in row C1
    assert (
        type(
            most_confused(np.array(TABLE_4J, dtype=np.uint8), include_no_label=True)[
                0
            ].value
        )
        is int
    )


def test_most_confused_one_label_and_no_label():
    """A 2x2 matrix (one label) and a 1x1 matrix (no label at all)."""
    cm = np.array([[3, 2], [1, 0]])
    assert most_confused(cm, target_names=["a"], include_no_label=True) == [
        ("a", "NPL", 2),
        ("NTL", "a", 1),
    ]
    assert most_confused(cm, include_no_label=False) == []
    assert most_confused([[7]], include_no_label=True) == []
    assert most_confused([[7]], target_names=[], include_no_label=True) == []


@pytest.mark.parametrize("include_no_label", [True, False])
@pytest.mark.parametrize("matrix_format", MATRIX_FORMATS)
@given(data=st.data())
@HYPOTHESIS
def test_most_confused_matches_oracle(matrix_format, include_no_label, data):
    """Dense and sparse, integer and float matrices agree with the naive loop."""
    n = data.draw(st.integers(1, 6))
    values = st.sampled_from([0, 0, 1, 2, 3]) | st.integers(0, 50)
    rows = st.lists(st.lists(values, min_size=n, max_size=n), min_size=n, max_size=n)
    cm = np.array(data.draw(rows), dtype=np.int64)
    if data.draw(st.booleans()):
        cm = cm / 4  # floats, still with ties
    k = data.draw(st.integers(1, 12))
    expected = most_confused_oracle(cm, k, include_no_label)
    result = most_confused(
        MATRIX_FORMATS[matrix_format](cm), top_k=k, include_no_label=include_no_label
    )
    q = n - 1
    named = [(q if t == "NTL" else t, q if p == "NPL" else p, v) for t, p, v in result]
    assert named == expected
    assert [type(c.value) for c in result] == [type(v) for _, _, v in expected]


@pytest.mark.parametrize("sparse_output", [False, True])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@given(data=st.data())
@HYPOTHESIS
def test_most_confused_accumulator_matrix_matches_oracle(
    sparse_output, method, data, mlcm_strategies
):
    """The matrix of an MLCMAccumulator (dense or CSR) is read as any other."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    acc = MLCMAccumulator(y_true.shape[1], method=method, sparse_output=sparse_output)
    acc.update(y_true, y_pred, weight)
    cm = acc.confusion_matrix
    assert sparse.issparse(cm) == sparse_output
    dense = cm.toarray() if sparse_output else cm
    k = data.draw(st.integers(1, 10))
    result = most_confused(
        cm, top_k=k, ntl_label="q", npl_label="q", include_no_label=True
    )
    q = y_true.shape[1]
    named = [(q if t == "q" else t, q if p == "q" else p, v) for t, p, v in result]
    assert named == most_confused_oracle(dense, k)


def test_most_confused_sparse_is_not_densified():
    """10**4 labels in CSR: the peak memory stays far below a dense matrix."""
    q = 10_000
    rng = np.random.default_rng(0)
    rows = rng.integers(0, q + 1, 50_000)
    cols = rng.integers(0, q + 1, 50_000)
    counts = rng.integers(1, 1000, 50_000)
    cm = sparse.csr_array((counts, (rows, cols)), shape=(q + 1, q + 1))
    tracemalloc.start()
    try:
        result = most_confused(cm, top_k=5, include_no_label=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # a dense int64 matrix is (q + 1)**2 * 8 = 800 MB
    coo = sparse.coo_array(cm)
    off = coo.row != coo.col
    order = np.lexsort((coo.row[off] * (q + 1) + coo.col[off], -coo.data[off]))[:5]
    expected = list(
        zip(
            coo.row[off][order].tolist(),
            coo.col[off][order].tolist(),
            coo.data[off][order].tolist(),
        )
    )
    expected = [(q if t == q else t, p, v) for t, p, v in expected]
    assert [
        (q if t == "NTL" else t, q if p == "NPL" else p, v) for t, p, v in result
    ] == expected


def test_most_confused_as_frame():
    """as_frame=True gives a DataFrame of the same rows, value dtype kept."""
    frame = most_confused(
        TABLE_4J, target_names=TABLE_1_NAMES, as_frame=True, include_no_label=True
    )
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["true", "predicted", "value"]
    assert frame["value"].dtype == np.int64
    assert list(frame.itertuples(index=False, name=None)) == most_confused(
        TABLE_4J, target_names=TABLE_1_NAMES, include_no_label=True
    )
    empty = most_confused(np.eye(3), as_frame=True, include_no_label=True)
    assert empty.shape == (0, 3) and empty["value"].dtype == np.float64


def test_most_confused_as_frame_without_pandas(monkeypatch):
    """Without pandas, as_frame=True raises an ImportError with the pip hint."""
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        most_confused(TABLE_4J, as_frame=True, include_no_label=True)
    assert most_confused(TABLE_4J, top_k=1, include_no_label=True) == [(0, 2, 4)]


@pytest.mark.parametrize(
    "cm, error, match",
    [
        ([[1, 2, 3], [4, 5, 6]], ValueError, "cm of most_confused must be a non-empty"),
        (np.zeros((0, 0)), ValueError, "cm of most_confused must be a non-empty"),
        ([[1, -1], [0, 1]], ValueError, "cm of most_confused must be non-negative"),
        ([[1, np.nan], [0, 1]], ValueError, "cm of most_confused contains NaN"),
        ([["a", "b"], ["c", "d"]], TypeError, "cm of most_confused must hold real"),
        (
            sparse.csr_array(np.array([[1.0, -2.0], [0.0, 1.0]])),
            ValueError,
            "cm of most_confused must be non-negative",
        ),
    ],
)
def test_most_confused_invalid_matrix(cm, error, match):
    """A matrix that is not square, finite, non-negative and numeric is refused."""
    with pytest.raises(error, match=match):
        most_confused(cm, include_no_label=True)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"top_k": 0}, ValueError, "'top_k' parameter of most_confused"),
        ({"top_k": 2.0}, TypeError, "'top_k' parameter of most_confused"),
        ({"target_names": ["a", "b"]}, ValueError, "'target_names' parameter"),
        ({"target_names": "abc"}, TypeError, "'target_names' parameter"),
        ({"target_names": ["a", "a", "b"]}, ValueError, "'a' is used twice"),
        ({"target_names": ["a", "NTL", "b"]}, ValueError, "'NTL' is used as"),
        ({"ntl_label": 0}, TypeError, "'ntl_label' parameter of most_confused"),
        ({"npl_label": None}, TypeError, "'npl_label' parameter of most_confused"),
        ({"include_no_label": 1}, TypeError, "'include_no_label' parameter"),
        ({"as_frame": "yes"}, TypeError, "'as_frame' parameter of most_confused"),
    ],
)
def test_most_confused_invalid_parameters(kwargs, error, match):
    """Each refused parameter is named in the message (the no-label names are
    reserved when the no-label index is listed)."""
    with pytest.raises(error, match=match):
        most_confused(TABLE_4J, **{"include_no_label": True, **kwargs})


def test_most_confused_reserved_names_only_with_no_label():
    """A label may be called "NTL" when the no-label index is left out."""
    result = most_confused(
        TABLE_4J, target_names=["NTL", "b", "c"], include_no_label=False, top_k=1
    )
    assert result == [("NTL", "c", 4)]


# --------------------------------------------------------------------------
# labelset_confusions
# --------------------------------------------------------------------------

TABLE_1_PAIRS = [
    ((), (1, 2), 1),
    ((0,), (0, 1, 2), 1),
    ((0,), (1, 2), 1),
    ((0, 1), (0, 1, 2), 1),
    ((0, 1), (0, 2), 1),
    ((0, 1), (2,), 1),
    ((0, 1, 2), (0, 2), 1),
]


def test_labelset_confusions_table_1():
    """Heydarian et al., Table 1: seven wrong instances, seven distinct pairs,
    listed in the order of their index tuples."""
    result = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED)
    assert result == TABLE_1_PAIRS
    assert all(type(c) is LabelSetConfusion for c in result)
    assert all(type(c.count) is int for c in result)
    assert result[0].true == () and result[0].predicted == (1, 2)


def test_labelset_confusions_table_1_weighted_with_names():
    """Weights sum per pair (floats); target_names turn indices into names."""
    weight = [1, 2, 1, 1, 3, 1, 1, 1, 1]  # instance 5 three times, 2 twice
    result = labelset_confusions(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        top_k=3,
        sample_weight=weight,
        target_names=TABLE_1_NAMES,
    )
    assert result == [
        (("C0", "C1"), ("C0", "C1", "C2"), 3.0),
        (("C0", "C1", "C2"), ("C0", "C2"), 2.0),
        ((), ("C1", "C2"), 1.0),
    ]
    assert all(type(c.count) is float for c in result)


def test_labelset_confusions_counts_repeated_pairs():
    """Table 1 stacked three times, with instance 9 once more: counts add up."""
    y_true = np.array(TABLE_1_TRUE * 3 + [TABLE_1_TRUE[8]])
    y_pred = np.array(TABLE_1_PRED * 3 + [TABLE_1_PRED[8]])
    result = labelset_confusions(y_true, y_pred, top_k=2)
    assert result == [((0, 1), (2,), 4), ((), (1, 2), 3)]


def test_labelset_confusions_empty_sets():
    """An empty set is the empty tuple; two empty sets are no confusion."""
    y_true = [[0, 0], [0, 0], [1, 0], [0, 0]]
    y_pred = [[0, 0], [1, 1], [0, 0], [0, 1]]
    assert labelset_confusions(y_true, y_pred) == [
        ((), (0, 1), 1),
        ((), (1,), 1),
        ((0,), (), 1),
    ]


def test_labelset_confusions_one_label_and_one_instance():
    """One label column, and a single instance, right or wrong."""
    assert labelset_confusions([[1], [0], [1]], [[0], [0], [0]]) == [((0,), (), 2)]
    assert labelset_confusions([[1, 0, 1]], [[1, 0, 0]]) == [((0, 2), (0,), 1)]
    assert labelset_confusions([[1, 0, 1]], [[1, 0, 1]]) == []


def test_labelset_confusions_ties_in_tuple_order():
    """Every pair of subsets of two labels once: k cuts inside the tie, in
    Python's order of (true, predicted) tuples."""
    subsets = [(0, 0), (1, 0), (1, 1), (0, 1)]  # (), (0,), (0, 1), (1,)
    pairs = [(t, p) for t in subsets for p in subsets if t != p]
    rng = np.random.default_rng(0)
    order = rng.permutation(len(pairs))
    y_true = np.array([pairs[i][0] for i in order])
    y_pred = np.array([pairs[i][1] for i in order])
    expected = labelset_confusions_oracle(y_true, y_pred, 12)
    assert [(t, p) for t, p, _ in expected[:4]] == [
        ((), (0,)),
        ((), (0, 1)),
        ((), (1,)),
        ((0,), ()),
    ]
    for k in (1, 4, 5, 12):
        assert labelset_confusions(y_true, y_pred, top_k=k) == expected[:k]
        assert (
            labelset_confusions(sparse.csr_array(y_true), y_pred, top_k=k)
            == (expected[:k])
        )


def test_labelset_confusions_zero_weights_left_out():
    """A pair whose instances all weigh zero is not listed."""
    y_true = [[1, 0], [1, 0], [0, 1]]
    y_pred = [[0, 1], [0, 1], [1, 0]]
    result = labelset_confusions(y_true, y_pred, sample_weight=[0, 0, 0.5])
    assert result == [((1,), (0,), 0.5)]
    assert labelset_confusions(y_true, y_pred, sample_weight=[0, 0, 0]) == []


def test_labelset_confusions_multiclass_is_confusion_matrix():
    """For 1-D class labels the pairs are singletons, counted as the
    off-diagonal cells of scikit-learn's confusion_matrix."""
    y_true = ["cat", "dog", "cat", "bird", "dog", "dog", "cat"]
    y_pred = ["dog", "dog", "dog", "cat", "cat", "bird", "cat"]
    result = labelset_confusions(y_true, y_pred)
    classes = ["bird", "cat", "dog"]
    cm = confusion_matrix(y_true, y_pred, labels=classes)
    expected = [
        ((i,), (j,), int(cm[i, j]))
        for i in range(3)
        for j in range(3)
        if i != j and cm[i, j]
    ]
    expected.sort(key=lambda pair: -pair[2])
    assert result == expected
    named = labelset_confusions(y_true, y_pred, top_k=1, target_names=classes)
    assert named == [(("cat",), ("dog",), 2)]


@pytest.mark.parametrize("target_format", TARGET_FORMATS)
@pytest.mark.parametrize("n_labels", [None, 40, 64, 70, 130])
@given(data=st.data())
@HYPOTHESIS
def test_labelset_confusions_matches_oracle(
    target_format, n_labels, data, mlcm_strategies
):
    """Every input form, with and without weights, agrees with the naive
    count; n_labels spreads the labels over 40 to 130 columns (one, two and
    three 64-bit words, the hashed paths)."""
    y_true, y_pred = data.draw(mlcm_strategies.targets(max_samples=25))
    if n_labels is not None:
        columns = data.draw(
            st.lists(
                st.integers(0, n_labels - 1),
                min_size=y_true.shape[1],
                max_size=y_true.shape[1],
                unique=True,
            )
        )
        y_true = _widened(y_true, n_labels, columns)
        y_pred = _widened(y_pred, n_labels, columns)
    weight = None
    if data.draw(st.booleans()):
        weight = np.array(
            data.draw(
                st.lists(DYADIC_WEIGHTS, min_size=len(y_true), max_size=len(y_true))
            )
        )
    k = data.draw(st.integers(1, 10))
    convert = TARGET_FORMATS[target_format]
    result = labelset_confusions(
        convert(y_true), convert(y_pred), top_k=k, sample_weight=weight
    )
    expected = labelset_confusions_oracle(y_true, y_pred, k, weight)
    assert result == expected
    assert [type(c.count) for c in result] == [type(c) for _, _, c in expected]


@pytest.mark.parametrize("n_labels", [20, 40, 200])
@pytest.mark.parametrize("input_format", ["dense", "sparse"])
def test_labelset_confusions_hash_collisions_fall_back(
    monkeypatch, n_labels, input_format
):
    """Should every key collide, the exact sort still counts each pair."""
    monkeypatch.setattr(_top_confusions, "_mix", lambda x: np.zeros_like(x))
    rng = np.random.default_rng(1)
    y_true = rng.random((300, n_labels)) < 2 / n_labels
    y_pred = rng.random((300, n_labels)) < 2 / n_labels
    y_pred[:100] = y_pred[100:200]
    y_true[:100] = y_true[100:200]  # repeated pairs
    convert = sparse.csr_array if input_format == "sparse" else np.asarray
    weight = rng.integers(0, 3, 300) / 2
    for sample_weight in (None, weight):
        result = labelset_confusions(
            convert(y_true), convert(y_pred), top_k=15, sample_weight=sample_weight
        )
        assert result == labelset_confusions_oracle(y_true, y_pred, 15, sample_weight)


@pytest.mark.parametrize("n_labels", [20, 40, 200])
def test_labelset_confusions_dense_equals_sparse(n_labels):
    """Random targets with many ties: the dense and sparse paths and the
    naive count give one list."""
    rng = np.random.default_rng(n_labels)
    y_true = rng.random((2000, n_labels)) < 3 / n_labels
    y_pred = y_true ^ (rng.random((2000, n_labels)) < 1 / n_labels)
    expected = labelset_confusions_oracle(y_true, y_pred, 25)
    assert labelset_confusions(y_true, y_pred, top_k=25) == expected
    csr_true, csr_pred = sparse.csr_array(y_true), sparse.csr_array(y_pred)
    assert labelset_confusions(csr_true, csr_pred, top_k=25) == expected


def test_labelset_confusions_large_sparse_is_not_densified():
    """10**4 labels in CSR: planted pairs are found, memory stays small."""
    n, q = 20_000, 10_000
    rng = np.random.default_rng(0)
    # sparse.random, not random_array (SciPy >= 1.12): the oldest SciPy runs it
    y_true = sparse.csr_array(
        sparse.random(n, q, density=3e-4, format="csr", random_state=rng)
    )
    y_pred = sparse.csr_array(
        sparse.random(n, q, density=3e-4, format="csr", random_state=rng)
    )
    y_true.data[:] = 1
    y_pred.data[:] = 1
    y_true, y_pred = y_true.tolil(), y_pred.tolil()
    planted = {((5, 17), (17,)): 6, ((9999,), ()): 5, ((), (0, 1)): 4}
    row = 0
    for (true, pred), count in planted.items():
        for _ in range(count):
            y_true[row, :] = 0
            y_pred[row, :] = 0
            for j in true:
                y_true[row, j] = 1
            for j in pred:
                y_pred[row, j] = 1
            row += 1
    y_true, y_pred = sparse.csr_array(y_true), sparse.csr_array(y_pred)
    tracemalloc.start()
    try:
        result = labelset_confusions(y_true, y_pred, top_k=3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # the dense bool targets would take 2 * 200 MB
    assert result == [(t, p, c) for (t, p), c in planted.items()]


def test_labelset_confusions_input_forms_agree():
    """Lists, arrays, sparse matrices and DataFrames give one list."""
    expected = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED)
    for convert in TARGET_FORMATS.values():
        assert labelset_confusions(convert(TABLE_1_TRUE), convert(TABLE_1_PRED)) == (
            expected
        )


def test_labelset_confusions_as_frame():
    """as_frame=True gives a DataFrame of tuples and counts."""
    frame = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED, as_frame=True)
    assert list(frame.columns) == ["true", "predicted", "count"]
    assert frame["count"].dtype == np.int64
    assert list(frame.itertuples(index=False, name=None)) == TABLE_1_PAIRS
    weighted = labelset_confusions(
        TABLE_1_TRUE, TABLE_1_PRED, sample_weight=np.ones(9), as_frame=True, top_k=2
    )
    assert weighted["count"].dtype == np.float64
    assert_array_equal(weighted["count"], [1.0, 1.0])
    empty = labelset_confusions([[1, 0]], [[1, 0]], as_frame=True)
    assert empty.shape == (0, 3)


def test_labelset_confusions_as_frame_without_pandas(monkeypatch):
    """Without pandas, as_frame=True raises an ImportError with the pip hint."""
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="labelset_confusions.*pip install pandas"):
        labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED, as_frame=True)


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs, error, match",
    [
        ([[1, 0]], [[1, 0], [0, 1]], {}, ValueError, "same number of samples"),
        ([[1, 0]], [[1, 0, 1]], {}, ValueError, "same number of label columns"),
        ([[1, 2]], [[1, 0]], {}, ValueError, "y_true of labelset_confusions must"),
        ([[1, 0]], [0], {}, ValueError, "must be the same kind of target"),
        (np.zeros((0, 2)), np.zeros((0, 2)), {}, ValueError, "are empty"),
        (
            [[1, 0]],
            [[0, 1]],
            {"sample_weight": [1, 2]},
            ValueError,
            "'sample_weight' parameter of labelset_confusions must be a 1-D",
        ),
        (
            [[1, 0]],
            [[0, 1]],
            {"sample_weight": [-1]},
            ValueError,
            "'sample_weight' parameter of labelset_confusions must be non-negative",
        ),
        (
            [[1, 0]],
            [[0, 1]],
            {"target_names": ["a"]},
            ValueError,
            "'target_names' parameter of labelset_confusions must have one name",
        ),
        (
            [[1, 0]],
            [[0, 1]],
            {"target_names": ["a", "a"]},
            ValueError,
            "'a' is used twice",
        ),
        ([[1, 0]], [[0, 1]], {"top_k": 0}, ValueError, "'top_k' parameter of labelset"),
        (
            [[1, 0]],
            [[0, 1]],
            {"top_k": None},
            TypeError,
            "'top_k' parameter of labelset",
        ),
        (
            [[1, 0]],
            [[0, 1]],
            {"target_names": "ab"},
            TypeError,
            "'target_names' parameter of labelset_confusions",
        ),
        (
            [[1, 0]],
            [[0, 1]],
            {"as_frame": None},
            TypeError,
            "'as_frame' parameter of labelset_confusions",
        ),
        (object(), [[0, 1]], {}, TypeError, "'y_true' parameter of labelset"),
    ],
)
def test_labelset_confusions_invalid_input(y_true, y_pred, kwargs, error, match):
    """Bad targets, weights, names and options are refused, each named."""
    with pytest.raises(error, match=match):
        labelset_confusions(y_true, y_pred, **kwargs)


def test_labelset_confusions_unsorted_csr_indices():
    """The computation sorts the labels of a CSR row it is given unsorted."""
    indptr, indices = np.array([0, 2, 3]), np.array([2, 0, 1])
    y_true = sparse.csr_array((np.ones(3, dtype=bool), indices, indptr), shape=(2, 3))
    y_pred = sparse.csr_array(np.zeros((2, 3), dtype=bool))
    assert not y_true.has_sorted_indices
    pairs = _top_confusions._top_labelset_pairs(y_true, y_pred, None, 5)
    assert pairs == [((0, 2), (), 1), ((1,), (), 1)]


def test_most_confused_default_keeps_to_label_pairs():
    """By default the list holds confusions between two labels only, as the
    command line shows them; include_no_label=True adds NTL and NPL cells."""
    between = most_confused(TABLE_4J)
    assert all(
        isinstance(c.true, int) and isinstance(c.predicted, int) for c in between
    )
    assert between == [(0, 2, 4), (1, 2, 3), (0, 1, 2)]
    assert len(most_confused(TABLE_4J, include_no_label=True)) == 6


def test_confusion_records_are_exported_named_tuples():
    """The records are public named tuples that unpack."""
    from sklearn_mlcm import Confusion, LabelSetConfusion

    true, predicted, value = most_confused(TABLE_4J, top_k=1)[0]
    assert most_confused(TABLE_4J, top_k=1)[0] == Confusion(0, 2, 4)
    assert (true, predicted, value) == (0, 2, 4)
    first = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED, top_k=1)[0]
    assert isinstance(first, LabelSetConfusion) and len(first) == 3


def test_most_confused_prints_a_table_and_stays_a_list():
    """The list prints a headline and one row per cell (Table 4 (j)), and is
    still a list equal to the list of the same tuples."""
    top = most_confused(TABLE_4J, target_names=TABLE_1_NAMES, include_no_label=True)
    assert isinstance(top, list)
    assert top == list(top) == [tuple(c) for c in top]
    assert type(top[:2]) is list
    assert repr(top).splitlines() == [
        "6 most confused label pairs, largest first",
        "true  predicted  value",
        "C0    C2             4",
        "C1    C2             3",
        "C0    C1             2",
        "C1    NPL            1",
        "NTL   C1             1",
        "NTL   C2             1",
    ]
    assert str(top) == repr(top)


def test_most_confused_prints_label_indices_left_aligned():
    """Without names the label columns hold indices (and NTL/NPL): they are
    labels, left-aligned as names are; the values stay right-aligned."""
    top = most_confused(TABLE_4J, include_no_label=True)
    assert repr(top).splitlines() == [
        "6 most confused label pairs, largest first",
        "true  predicted  value",
        "0     2              4",
        "1     2              3",
        "0     1              2",
        "1     NPL            1",
        "NTL   1              1",
        "NTL   2              1",
    ]


def test_labelset_confusions_prints_a_table_and_stays_a_list():
    """The weighted Table 1 pairs print as sets, with float counts."""
    top = labelset_confusions(
        TABLE_1_TRUE,
        TABLE_1_PRED,
        top_k=2,
        sample_weight=[1, 2, 1, 1, 3, 1, 1, 1, 1],
    )
    assert top == [((0, 1), (0, 1, 2), 3.0), ((0, 1, 2), (0, 2), 2.0)]
    assert repr(top).splitlines() == [
        "2 most frequent (true set, predicted set) pairs, largest count first",
        "true       predicted   count",
        "{0, 1}     {0, 1, 2}  3.0000",
        "{0, 1, 2}  {0, 2}     2.0000",
    ]


def test_labelset_confusions_prints_names_with_line_breaks_on_one_line():
    """A name holding line breaks prints on one line in its set, as
    most_confused prints it, each break escaped (each break was printed, one
    row over many lines, and 30 such rows passed the 40 lines)."""
    names = ["a\n\n\nb", "c"]
    top = labelset_confusions([[1, 0], [0, 1]], [[0, 1], [1, 1]], target_names=names)
    assert top == [(("a\n\n\nb",), ("c",), 1), (("c",), ("a\n\n\nb", "c"), 1)]
    assert repr(top).splitlines() == [
        "2 most frequent (true set, predicted set) pairs, largest count first",
        "true        predicted      count",
        r"{a\n\n\nb}  {c}                1",
        r"{c}         {a\n\n\nb, c}      1",
    ]


def test_confusion_lists_headline_counts_have_thousands_separators():
    """A list of 1,000 or more confusions says so with a separator, as the
    '... and 1,170 more' line below it does (the headline said '1200')."""
    rng = np.random.default_rng(0)
    q = 60
    cm = rng.integers(1, 50, size=(q + 1, q + 1))
    lines = repr(most_confused(cm, top_k=1200)).splitlines()
    assert lines[0] == "1,200 most confused label pairs, largest first"
    assert lines[-1] == "... and 1,170 more pairs (see .to_frame())"
    y_true = rng.random((1500, q)) < 0.3
    y_pred = rng.random((1500, q)) < 0.3
    sets = labelset_confusions(y_true, y_pred, top_k=1000)
    assert repr(sets).splitlines()[0] == (
        "1,000 most frequent (true set, predicted set) pairs, largest count first"
    )


def test_confusion_lists_print_at_most_40_lines():
    """Long lists print 30 rows and say how many more; long names and sets
    are cut."""
    rng = np.random.default_rng(0)
    q = 60
    cm = rng.integers(1, 50, size=(q + 1, q + 1))
    names = [f"label number {j} with a rather long name" for j in range(q)]
    top = most_confused(cm, top_k=500, target_names=names)
    lines = repr(top).splitlines()
    assert len(top) == 500 and len(lines) == 33 <= 40
    assert lines[0] == "500 most confused label pairs, largest first"
    assert lines[-1] == "... and 470 more pairs (see .to_frame())"
    assert all(len(line) <= 88 for line in lines)
    y_true = rng.random((400, q)) < 0.3
    y_pred = rng.random((400, q)) < 0.3
    sets = labelset_confusions(y_true, y_pred, top_k=100, target_names=names)
    lines = repr(sets).splitlines()
    assert len(lines) == 33 and lines[-1] == "... and 70 more pairs (see .to_frame())"
    assert all(len(line) <= 2 * 40 + 20 for line in lines)


def test_confusion_lists_to_frame_equals_as_frame_and_the_tuples():
    """to_frame() is the frame of as_frame=True, whose rows are the tuples."""
    top = most_confused(TABLE_4J, target_names=TABLE_1_NAMES, include_no_label=True)
    frame = top.to_frame()
    pd.testing.assert_frame_equal(
        frame,
        most_confused(
            TABLE_4J, target_names=TABLE_1_NAMES, include_no_label=True, as_frame=True
        ),
    )
    assert list(frame.itertuples(index=False, name=None)) == top
    assert frame["value"].dtype == np.int64
    weight = np.arange(1.0, 10.0)
    sets = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED, sample_weight=weight)
    frame = sets.to_frame()
    pd.testing.assert_frame_equal(
        frame,
        labelset_confusions(
            TABLE_1_TRUE, TABLE_1_PRED, sample_weight=weight, as_frame=True
        ),
    )
    assert list(frame.itertuples(index=False, name=None)) == sets
    assert frame["count"].dtype == np.float64


def test_confusion_lists_to_frame_without_pandas(monkeypatch):
    """Without pandas, to_frame() names itself and the pip hint."""
    top = most_confused(TABLE_4J)
    sets = labelset_confusions(TABLE_1_TRUE, TABLE_1_PRED)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"^ConfusionList\.to_frame\(\) requires"):
        top.to_frame()
    with pytest.raises(ImportError, match=r"^LabelSetConfusionList\.to_frame\(\) "):
        sets.to_frame()


# --------------------------------------------------------------------------
# most_confused_labels
# --------------------------------------------------------------------------

# Five labels: 0 and 3 are confused with each other, so are 1 and 4; label 2 is
# rarely confused with another label but often missed (NPL) and predicted for
# nothing (NTL), which does not count as confusion with another label.
#   confusion mass = row + column - 2 x diagonal of the labels' 5 x 5 block:
#   label 0: 27 + 24 - 40 = 11   label 1: 19 + 18 - 30 = 7   label 2: 1
#   label 3: 30 + 31 - 50 = 11   label 4: 14 + 16 - 24 = 6
FIVE = np.array(
    [
        [20, 0, 1, 6, 0, 3],
        [0, 15, 0, 0, 4, 2],
        [0, 0, 30, 0, 0, 9],
        [4, 1, 0, 25, 0, 1],
        [0, 2, 0, 0, 12, 0],
        [1, 0, 5, 0, 2, 0],
    ]
)


def test_most_confused_labels_top_k_by_hand():
    """top_k keeps the labels of largest mass in their order; ties (labels 0
    and 3, mass 11) go to the earlier label; None or top_k >= n_labels keeps
    every label."""
    assert_array_equal(most_confused_labels(FIVE, top_k=4), [0, 1, 3, 4])
    assert_array_equal(most_confused_labels(FIVE, top_k=1), [0])
    assert_array_equal(most_confused_labels(FIVE, top_k=3), [0, 1, 3])
    for top_k in (None, 5, 6, 1000):
        shown = most_confused_labels(FIVE, top_k=top_k)
        assert_array_equal(shown, np.arange(5))
        assert shown.dtype == np.int64


def test_most_confused_labels_auto():
    """top_k="auto" keeps every label up to 40 and the 40 of largest mass
    above: the top_k=40 selection of 41 labels (MLCMDisplay's default)."""
    assert_array_equal(most_confused_labels(FIVE, top_k="auto"), np.arange(5))
    rng = np.random.default_rng(0)
    for n_labels, kept in ((40, 40), (41, 40), (159, 40)):
        cm = rng.poisson(0.5, (n_labels + 1, n_labels + 1))
        shown = most_confused_labels(cm, top_k="auto")
        assert len(shown) == kept
        expected = most_confused_labels(cm, top_k=40)
        assert_array_equal(shown, expected)
        assert_array_equal(
            most_confused_labels(cm, top_k="auto", order="cluster"),
            most_confused_labels(cm, top_k=40, order="cluster"),
        )


def test_most_confused_labels_cluster_by_hand():
    """top_k=4 drops label 2; order="cluster" puts 3 after 0 and 4 after 1."""
    # Among the picked labels 0, 1, 3, 4, S = C + C.T off the diagonal has
    # S[0, 3] = 10, S[1, 4] = 6, S[1, 3] = 1 and zeros; totals 10, 7, 11, 6.
    # Distances 1 - S[i, j] / sqrt(total_i total_j): d(0, 3) = 0.047,
    # d(1, 4) = 0.074, d(1, 3) = 0.886, the others 1. Average linkage merges
    # {0, 3}, then {1, 4}, then both; 3 and 1 (the closest across) adjoin.
    assert_array_equal(
        most_confused_labels(FIVE, top_k=4, order="cluster"), [0, 3, 1, 4]
    )
    assert_array_equal(most_confused_labels(FIVE, top_k=2, order="cluster"), [0, 3])


def test_most_confused_labels_cluster_table_4j():
    """Heydarian et al. (2022), Table 4 (j): order="cluster" gives C1, C2, C0."""
    # S = C + C.T of the labels: S[0, 1] = 2, S[0, 2] = 4, S[1, 2] = 3, totals
    # 6, 5, 7: similarities 2/sqrt(30) = 0.37, 4/sqrt(42) = 0.62, 3/sqrt(35) =
    # 0.51. {C0, C2} merge first; C1 joins next to C2, its closer neighbour.
    assert_array_equal(most_confused_labels(TABLE_4J, order="cluster"), [1, 2, 0])
    assert_array_equal(most_confused_labels(TABLE_4J, top_k=2), [0, 2])


def test_most_confused_labels_unconfused_labels_last():
    """Labels confused with none of the picked others keep their order, last."""
    perfect = np.diag([3, 1, 4, 1, 5, 9, 2, 6])
    assert_array_equal(most_confused_labels(perfect, order="cluster"), np.arange(7))
    cm = 10 * np.eye(9, dtype=int)
    cm[2, 6], cm[6, 2] = 3, 1  # only labels 2 and 6 are confused
    assert_array_equal(
        most_confused_labels(cm, order="cluster"), [2, 6, 0, 1, 3, 4, 5, 7]
    )
    assert_array_equal(most_confused_labels([[4]], order="cluster"), [])


@pytest.mark.parametrize("n_labels, group", [(60, 3), (1000, 10)])
def test_most_confused_labels_cluster_groups_confused_labels(n_labels, group):
    """Groups of labels confused only with each other, scattered over the label
    indices, come out contiguous (with and without the optimal leaf ordering,
    used up to 500 labels), from a sparse matrix as from a dense one."""
    rng = np.random.default_rng(0)
    groups = rng.permutation(n_labels).reshape(-1, group)
    rows, cols, counts = [], [], []
    for members in groups:
        for i in members:
            for j in members:
                rows.append(i)
                cols.append(j)
                counts.append(rng.integers(40, 60) if i == j else rng.integers(1, 9))
    cm = sparse.csr_array(
        (counts, (rows, cols)), shape=(n_labels + 1, n_labels + 1), dtype=np.int64
    )
    shown = most_confused_labels(cm, order="cluster")
    position = np.empty(n_labels, dtype=int)
    position[shown] = np.arange(n_labels)
    for members in groups:
        assert np.ptp(position[members]) == group - 1
    assert_array_equal(most_confused_labels(cm.toarray(), order="cluster"), shown)


@HYPOTHESIS
@given(data=st.data())
@pytest.mark.parametrize("matrix_format", sorted(MATRIX_FORMATS))
def test_most_confused_labels_matches_oracle(matrix_format, data):
    """top_k of any matrix form picks the oracle's labels; order="cluster"
    returns the same labels, reordered."""
    q = data.draw(st.integers(1, 7))
    cm = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 4), min_size=q + 1, max_size=q + 1),
                min_size=q + 1,
                max_size=q + 1,
            )
        )
    )
    top_k = data.draw(st.one_of(st.none(), st.integers(1, q + 1)))
    expected = most_confused_labels_oracle(cm, top_k)
    given_cm = MATRIX_FORMATS[matrix_format](cm)
    assert most_confused_labels(given_cm, top_k=top_k).tolist() == expected
    clustered = most_confused_labels(given_cm, top_k=top_k, order="cluster")
    assert sorted(clustered.tolist()) == expected


def test_most_confused_labels_sparse_beyond_dense_limit():
    """20,000 sparse labels (a dense matrix would be 3.2 GB): top_k reads the
    sums and clusters the picked block only; clustering more than 5,000
    labels is refused with the way out."""
    n = 20_001
    cm = sparse.csr_array(
        ([7, 3, 2, 5], ([10, 10, 19_000, 20_000], [10, 19_000, 10, 19_000])),
        shape=(n, n),
    )
    assert_array_equal(most_confused_labels(cm, top_k=2, order="cluster"), [10, 19_000])
    assert len(most_confused_labels(cm)) == 20_000  # indices only
    with pytest.raises(
        InvalidInputError,
        match=r"'order' parameter of most_confused_labels must be 'original' for "
        r"more than 5,000 labels: their distances would take 3,051 MB. Got "
        r"'cluster' for 20,000 labels. Pick fewer with top_k",
    ):
        most_confused_labels(cm, order="cluster")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"cm": [[1, 2, 3]]}, InvalidInputError, "cm of most_confused_labels must"),
        ({"cm": [[1, -1], [0, 1]]}, InvalidInputError, "must be non-negative"),
        ({"cm": [[1, np.nan], [0, 1]]}, InvalidInputError, "NaN or infinity"),
        (
            {"top_k": 0},
            ValueError,
            r"'top_k' parameter of most_confused_labels must be an int in the range "
            r"\[1, inf\) or one of \{'auto'\} or None. Got 0 instead",
        ),
        (
            {"top_k": "all"},
            ValueError,
            r"'top_k' parameter of most_confused_labels must be an int in the range "
            r"\[1, inf\) or one of \{'auto'\} or None. Got 'all' instead",
        ),
        (
            {"order": "clustered"},
            ValueError,
            r"'order' parameter of most_confused_labels must be one of "
            r"\{'cluster', 'original'\}. Got 'clustered' instead",
        ),
    ],
)
def test_most_confused_labels_refusals(kwargs, error, match):
    """Refused matrices and parameters are named, with what arrived."""
    arguments = {"cm": TABLE_4J, **kwargs}
    with pytest.raises(error, match=match):
        most_confused_labels(**arguments)
