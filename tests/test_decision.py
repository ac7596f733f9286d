"""decide_labels: scores -> 0/1 predictions by a threshold, top k, at least one."""

import re

import numpy as np
import pandas as pd
import pytest
from _oracles import decide_labels_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from scipy import sparse
from sklearn.multiclass import OneVsRestClassifier

import sklearn_mlcm._thresholds._decision as decision
from sklearn_mlcm import InvalidInputError, InvalidParameterError, decide_labels

SCORES = np.array([[0.9, 0.6, 0.2], [0.4, 0.3, 0.1], [0.7, 0.8, 0.5]])
# few distinct values, so that ties (between labels, and at the threshold)
# are common; 0 and negative values for sparse input and decision functions
TIED_VALUES = (-1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0)


@st.composite
def score_cases(draw, positive_thresholds=False):
    """``(y_score, thresholds or None, top_k, at_least_one)``."""
    n = draw(st.integers(1, 10))
    q = draw(st.integers(1, 6))
    value = st.one_of(
        st.sampled_from(TIED_VALUES), st.floats(-2, 2, allow_subnormal=False)
    )
    y_score = np.array(draw(st.lists(value, min_size=n * q, max_size=n * q)))
    y_score = y_score.reshape(n, q)
    low = 0.1 if positive_thresholds else -2.0
    threshold = st.one_of(
        st.sampled_from([v for v in TIED_VALUES if v >= low]),
        st.floats(low, 2, allow_subnormal=False),
    )
    kind = draw(st.sampled_from(("none", "scalar", "per_label")))
    top_k = draw(st.one_of(st.none(), st.integers(1, q)))
    if kind == "none" and top_k is None:
        kind = "scalar"
    thresholds = {
        "none": None,
        "scalar": np.full(q, draw(threshold)),
        "per_label": np.array(draw(st.lists(threshold, min_size=q, max_size=q))),
    }[kind]
    return y_score, thresholds, top_k, draw(st.booleans())


def _call(y_score, thresholds, top_k, at_least_one):
    return decide_labels(
        y_score, threshold=thresholds, top_k=top_k, at_least_one=at_least_one
    )


@settings(max_examples=1000, deadline=None)
@given(case=score_cases())
def test_decide_labels_matches_oracle(case):
    """Dense scores: the rules give the oracle's predictions, ties included."""
    result = _call(*case)
    assert result.dtype == np.int64
    assert_array_equal(result, decide_labels_oracle(*case))


@settings(max_examples=600, deadline=None)
@given(case=score_cases(positive_thresholds=True), data=st.data())
def test_decide_labels_sparse_equals_dense(case, data):
    """Sparse scores (absent = 0) give the dense result, as a CSR array of
    int64 ones, for every sparse format and with explicit zeros stored."""
    y_score, thresholds, top_k, at_least_one = case
    form = data.draw(st.sampled_from(("csr", "csc", "coo", "explicit_zeros")))
    if form == "explicit_zeros":
        rows, cols = np.indices(y_score.shape)
        matrix = sparse.csr_matrix(
            (y_score.ravel(), (rows.ravel(), cols.ravel())), shape=y_score.shape
        )
    else:
        build = {"csr": sparse.csr_matrix, "csc": sparse.csc_array}
        matrix = build.get(form, sparse.coo_matrix)(y_score)
    result = _call(matrix, thresholds, top_k, at_least_one)
    assert isinstance(result, sparse.csr_array)
    assert result.dtype == np.int64
    assert (result.data == 1).all()
    assert_array_equal(result.toarray(), decide_labels_oracle(*case))


@settings(max_examples=200, deadline=None)
@given(case=score_cases())
def test_decide_labels_blocks_of_rows(case):
    """Dense scores decided in blocks of one row give the same result."""
    saved = decision._BLOCK_CELLS
    decision._BLOCK_CELLS = 1  # one row per block
    try:
        assert_array_equal(_call(*case), decide_labels_oracle(*case))
    finally:
        decision._BLOCK_CELLS = saved


def test_decide_labels_hand_example():
    """A threshold, top_k and at_least_one on a worked example."""
    assert_array_equal(decide_labels(SCORES), [[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    assert_array_equal(
        decide_labels(SCORES, threshold=0.55, top_k=1),
        [[1, 0, 0], [0, 0, 0], [0, 1, 0]],
    )
    assert_array_equal(
        decide_labels(SCORES, threshold=0.55, at_least_one=True),
        [[1, 1, 0], [1, 0, 0], [1, 1, 0]],
    )
    assert_array_equal(
        decide_labels(SCORES, threshold=None, top_k=2),
        [[1, 1, 0], [1, 1, 0], [1, 1, 0]],
    )
    assert_array_equal(
        decide_labels(SCORES, threshold=[0.95, 0.5, 0.5]),
        [[0, 1, 0], [0, 0, 0], [0, 1, 1]],
    )


def test_decide_labels_ties_go_to_the_earlier_label():
    """Equal scores: top_k and at_least_one take the earlier label."""
    tied = np.array([[0.3, 0.7, 0.7, 0.7], [0.2, 0.2, 0.1, 0.2]])
    assert_array_equal(
        decide_labels(tied, threshold=None, top_k=2), [[0, 1, 1, 0], [1, 1, 0, 0]]
    )
    assert_array_equal(
        decide_labels(tied, threshold=0.9, at_least_one=True),
        [[0, 1, 0, 0], [1, 0, 0, 0]],
    )
    sparse_tied = decide_labels(
        sparse.csr_array(tied), threshold=None, top_k=2
    ).toarray()
    assert_array_equal(sparse_tied, [[0, 1, 1, 0], [1, 1, 0, 0]])


def test_decide_labels_sparse_absent_scores_rank_as_zero():
    """Sparse top_k: absent labels (score 0) come after positive stored
    scores and before negative ones, in column order."""
    y_score = sparse.csr_array(np.array([[0.0, -0.5, 0.4, 0.0, -0.1]]))
    assert_array_equal(
        decide_labels(y_score, threshold=None, top_k=3).toarray(), [[1, 0, 1, 1, 0]]
    )
    assert_array_equal(
        decide_labels(y_score, threshold=None, top_k=4).toarray(), [[1, 0, 1, 1, 1]]
    )
    negative = sparse.csr_array(np.array([[-0.3, -0.2, -0.9]]))
    assert_array_equal(
        decide_labels(negative, threshold=0.1, at_least_one=True).toarray(),
        [[0, 1, 0]],
    )
    with_gap = sparse.csr_array(np.array([[-0.3, 0.0, -0.9]]))
    assert_array_equal(
        decide_labels(with_gap, threshold=0.1, at_least_one=True).toarray(),
        [[0, 1, 0]],
    )


def test_decide_labels_threshold_is_inclusive():
    """A score equal to the threshold is predicted (scikit-learn's
    FixedThresholdClassifier compares with >=); OneVsRestClassifier's predict
    uses > and is reproduced by the next float above 0.5."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_multilabel_classification(n_samples=60, n_classes=4, random_state=0)
    ovr = OneVsRestClassifier(KNeighborsClassifier(n_neighbors=4)).fit(X, y)
    proba = ovr.predict_proba(X)
    assert (proba == 0.5).any()  # ties at the threshold occur
    assert_array_equal(
        decide_labels(proba, threshold=np.nextafter(0.5, 1)), ovr.predict(X)
    )
    assert_array_equal(decide_labels(proba), (proba >= 0.5).astype(int))
    assert (decide_labels(proba) != ovr.predict(X)).any()


def test_decide_labels_multioutput_probability_list():
    """The list of (n, 2) arrays of a multi-label k-NN's predict_proba is
    read as the probability of class 1 of each label."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_multilabel_classification(n_samples=50, n_classes=3, random_state=1)
    knn = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    proba = knn.predict_proba(X)
    assert isinstance(proba, list) and proba[0].shape == (50, 2)
    assert_array_equal(decide_labels(proba), knn.predict(X))
    assert_array_equal(
        decide_labels(proba, threshold=0.7),
        decide_labels(np.column_stack([p[:, 1] for p in proba]), threshold=0.7),
    )


def test_decide_labels_frames_of_every_library():
    """pandas, polars, pyarrow and xarray frames give the array's result."""
    expected = decide_labels(SCORES, threshold=[0.5, 0.7, 0.3])
    names = ["a", "b", "c"]
    frames = [pd.DataFrame(SCORES, columns=names)]
    for module, build in (
        ("polars", lambda m: m.DataFrame(SCORES, schema=names)),
        ("pyarrow", lambda m: m.table(dict(zip(names, SCORES.T)))),
        (
            "xarray",
            lambda m: m.DataArray(SCORES, dims=("i", "label"), coords={"label": names}),
        ),
    ):
        library = pytest.importorskip(module)
        frames.append(build(library))
    for frame in frames:
        assert_array_equal(
            decide_labels(frame, threshold={"c": 0.3, "a": 0.5, "b": 0.7}), expected
        )
        assert_array_equal(decide_labels(frame, threshold=[0.5, 0.7, 0.3]), expected)


def test_decide_labels_thresholds_by_name():
    """A dict or Series of thresholds is aligned by name: frame columns, or
    column indices for arrays; names of columns left out by labels are
    ignored."""
    frame = pd.DataFrame(SCORES, columns=["a", "b", "c"])
    by_name = pd.Series({"b": 0.7, "c": 0.3, "a": 0.5})
    expected = decide_labels(SCORES, threshold=[0.5, 0.7, 0.3])
    assert_array_equal(decide_labels(frame, threshold=by_name), expected)
    assert_array_equal(
        decide_labels(SCORES, threshold={2: 0.3, 0: 0.5, 1: 0.7}), expected
    )
    assert_array_equal(
        decide_labels(frame, threshold=dict(by_name), labels=["c", "a"]),
        expected[:, [2, 0]],
    )
    assert_array_equal(
        decide_labels(SCORES, threshold={0: 0.5, 2: 0.3}, labels=[2, 0]),
        expected[:, [2, 0]],
    )


def test_decide_labels_refuses_names_that_repeat_where_matched_by_name():
    """A frame whose columns repeat a name: thresholds keyed by name, and
    labels naming it, are refused, naming the repeated names (a Series keyed
    ['a', 'a', 'b'] gave both columns 'a' the last threshold, silently).
    Thresholds in column order, and names that do not repeat, still work."""
    frame = pd.DataFrame(SCORES, columns=["a", "a", "b"])
    repeated = (
        r"'threshold' parameter of decide_labels must be a real number, or an "
        r"array .* in column order, for scores whose columns repeat the names "
        r"\['a'\] .* Got a {} keyed by name instead"
    )
    with pytest.raises(InvalidInputError, match=repeated.format("dict")):
        decide_labels(frame, threshold={"a": 0.5, "b": 0.3})
    series = pd.Series([0.95, 0.5, 0.3], index=["a", "a", "b"])
    with pytest.raises(InvalidInputError, match=repeated.format("Series")):
        decide_labels(frame, threshold=series)
    match = r"'labels' parameter .* columns that the DataFrame repeats, \['a'\]"
    with pytest.raises(InvalidInputError, match=match):
        decide_labels(frame, threshold=0.5, labels=["b", "a"])
    assert_array_equal(
        decide_labels(frame, threshold=series.to_numpy()),
        [[0, 1, 0], [0, 0, 0], [0, 1, 1]],
    )
    assert_array_equal(
        decide_labels(frame, threshold={"a": 0.5, "b": 0.3}, labels=["b"]),
        [[0], [0], [1]],
    )


def test_decide_labels_refuses_thresholds_keyed_by_a_name_twice():
    """A Series of thresholds that keys one label twice is refused, naming
    it, instead of the last of its thresholds silently winning."""
    by_name = pd.Series([0.5, 0.7, 0.3, 0.95], index=[0, 1, 2, 0])
    match = (
        r"'threshold' parameter .* keyed by distinct label names .* Got a Series "
        r"keyed by the names \[0\] more than once"
    )
    with pytest.raises(InvalidInputError, match=match):
        decide_labels(SCORES, threshold=by_name)


def test_decide_labels_labels_select_columns():
    """labels keeps those columns, in that order; per-label thresholds are
    given for the kept labels."""
    assert_array_equal(
        decide_labels(SCORES, threshold=[0.5, 0.65], labels=[2, 1]),
        decide_labels(SCORES[:, [2, 1]], threshold=[0.5, 0.65]),
    )


@pytest.mark.parametrize(
    "y_score, match",
    [
        ([[0.1, np.nan]], r"must hold finite scores; found nan at \(row, label\)"),
        ([[0.1, np.inf]], "must hold finite scores; found inf"),
        ([0.1, 0.2], r"must be 2-D.*reshape\(-1, 1\)"),
        (np.zeros((2, 2, 2)), "must be 2-D"),
        ([["a", "b"]], "must hold real-valued scores"),
        (np.zeros((0, 3)), "at least one sample and one label"),
        ([[0.1], [0.2, 0.3]], "could not be read as a rectangular array"),
        (None, "Got None"),
        (sparse.csr_array(np.array([[np.nan, 1.0]])), r"found nan at \(row, label\)"),
    ],
)
def test_decide_labels_bad_scores(y_score, match):
    """Scores that are not finite numbers of shape (n, q) are refused (None
    by the parameter check, the rest by the data check)."""
    with pytest.raises(ValueError, match=match):
        decide_labels(y_score)


def test_decide_labels_bad_scores_messages_name_the_function():
    """The refusal names y_score and decide_labels."""
    with pytest.raises(ValueError, match="y_score of decide_labels"):
        decide_labels([[np.nan]])


@pytest.mark.parametrize(
    "proba, match",
    [
        ([np.ones((4, 1)), np.ones((4, 2))], r"Got shape \(4, 1\) for label 0"),
        ([np.ones((4, 2)), np.ones((4, 3))], r"shape \(4, 3\) for label 1"),
        ([np.ones((4, 2)), np.ones((5, 2))], "arrays of different lengths: 4 and 5"),
    ],
)
def test_decide_labels_bad_probability_lists(proba, match):
    """A list of per-label probabilities whose positive column cannot be
    told is refused."""
    with pytest.raises(InvalidInputError, match=match):
        decide_labels(proba)


@pytest.mark.parametrize(
    "threshold, kwargs, error, match",
    [
        ([0.5, 0.5], {}, InvalidInputError, r"shape \(3,\). Got shape \(2,\)"),
        ([[0.5, 0.5, 0.5]], {}, InvalidInputError, r"Got shape \(1, 3\)"),
        (["a", "b", "c"], {}, InvalidInputError, "Got values of dtype"),
        # True is no threshold, in an array as in a dict (was read as 1.0)
        ([True, False, True], {}, InvalidInputError, "Got values of dtype bool"),
        (np.array([0.5, True, 0.5], dtype=object), {}, InvalidInputError, "object"),
        ({0: 0.5, 1: True, 2: 0.5}, {}, InvalidInputError, "True for 1"),
        ([0.5, np.nan, 0.5], {}, InvalidInputError, "must be finite"),
        ({0: 0.5, 1: 0.5}, {}, InvalidInputError, r"missing: \[2\]"),
        ({0: 0.5, 1: 0.5, 2: 0.5, 7: 0.1}, {}, InvalidInputError, r"unknown: \[7\]"),
        ({"0": 0.5, "1": 0.5, "2": 0.5}, {}, InvalidInputError, "differ only in type"),
        ({0: "x", 1: 0.5, 2: 0.5}, {}, InvalidInputError, "'x' for 0"),
        (None, {}, InvalidParameterError, "when top_k is None"),
        (0.5, {"top_k": 4}, InvalidInputError, "at most the number of labels, 3"),
        (np.nan, {}, InvalidParameterError, "'threshold' parameter of decide_labels"),
    ],
)
def test_decide_labels_bad_thresholds(threshold, kwargs, error, match):
    """Thresholds of the wrong length, names, values or rule are refused."""
    with pytest.raises(error, match=match):
        decide_labels(SCORES, threshold=threshold, **kwargs)


def test_decide_labels_object_thresholds_are_numbers():
    """An object array of real numbers (a pandas object Series's values, a
    list mixing ints and NumPy floats) is one threshold per label."""
    expected = decide_labels(SCORES, threshold=[0.2, 0.5, 0.8])
    mixed = np.array([0.2, np.float32(0.5), 0.8], dtype=object)
    assert_array_equal(decide_labels(SCORES, threshold=mixed), expected)


def test_decide_labels_sparse_threshold_must_be_positive():
    """Sparse scores: a threshold of 0 or less would predict every absent
    label, so it is refused with the way out."""
    with pytest.raises(InvalidInputError, match=re.escape("y_score.toarray()")):
        decide_labels(sparse.csr_array(SCORES), threshold=[0.5, 0.0, 0.5])


def test_decide_labels_refuses_a_dense_result_past_the_bound(monkeypatch):
    """The dense result is refused before it is allocated past the bound,
    and the sparse top_k's added absent labels likewise."""
    monkeypatch.setattr(decision, "MAX_DENSE_BYTES", 64)
    with pytest.raises(InvalidInputError, match="decide blocks of rows in turn"):
        decide_labels(np.zeros((3, 3)))
    with pytest.raises(InvalidInputError, match="absent labels to add"):
        decide_labels(sparse.csr_array((4, 5)), threshold=None, top_k=5)
