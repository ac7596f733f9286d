"""Bad input gets a clear error naming the parameter, never a wrong number."""

import re

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy import sparse

from sklearn_mlcm import (
    InvalidInputError,
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_multilabel_confusion_matrix,
)

Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
TARGET_FUNCTIONS = [
    mlcm_confusion_matrix,
    mlcm_multilabel_confusion_matrix,
    mlcm_classification_report,
]


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_targets_different_sample_counts(func):
    """Different numbers of rows are refused with both counts."""
    with pytest.raises(ValueError, match=r"same number of samples. Got 3 and 2"):
        func(Y, Y[:2])


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_targets_different_label_counts(func):
    """Different numbers of label columns are refused with both counts."""
    with pytest.raises(ValueError, match=r"Got 3 for y_true and 2 for y_pred"):
        func(Y, Y[:, :2])


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
@pytest.mark.parametrize("bad", [2, -1, 0.7])
def test_targets_non_binary_values(func, bad):
    """Values other than 0/1 are refused with a hint to threshold scores."""
    y = Y.astype(float)
    y[1, 2] = bad
    with pytest.raises(ValueError, match=r"y_pred .*only 0 and 1.*threshold them"):
        func(Y, y)


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_targets_nan(func):
    """NaN in an indicator matrix is refused by name."""
    y = Y.astype(float)
    y[0, 0] = np.nan
    with pytest.raises(ValueError, match="y_true of .* contains NaN"):
        func(y, Y)


def test_targets_infinity_is_not_binary():
    """Infinity is not 0/1."""
    y = Y.astype(float)
    y[0, 0] = np.inf
    with pytest.raises(ValueError, match="only 0 and 1; found inf"):
        mlcm_confusion_matrix(y, Y)


def test_targets_strings_in_indicator_matrix():
    """Strings in a 2-D indicator matrix are refused, naming the dtype."""
    y = np.array([["1", "0"], ["0", "1"]])
    with pytest.raises(ValueError, match=r"y_true .*0/1 indicator matrix.*dtype <U1"):
        mlcm_confusion_matrix(y, [[1, 0], [0, 1]])


@pytest.mark.parametrize(
    "y, what",
    [
        (np.ones((2, 2), dtype=complex), "complex128 (complex numbers)"),
        (np.array([["1", "0"], ["0", "1"]]), "<U1 (strings)"),
        (np.ones((2, 2), dtype="m8[s]"), "timedelta64[s] (time spans)"),
    ],
)
def test_targets_of_no_real_dtype_say_what_they_hold(y, what):
    """The refusal says what the values are: a complex array was told
    "(strings or objects?)" (found by an adversarial hunt)."""
    match = rf"y_true .*0/1 indicator matrix.*dtype {re.escape(what)}"
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(y, [[1, 0], [0, 1]])


def test_targets_sparse_non_binary():
    """A sparse matrix holding a 3 is refused like a dense one."""
    y = sparse.csr_matrix(np.array([[3, 0], [0, 1]]))
    with pytest.raises(ValueError, match="y_pred .*only 0 and 1; found 3"):
        mlcm_confusion_matrix([[1, 0], [0, 1]], y)


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_targets_empty(func):
    """Zero samples are refused."""
    with pytest.raises(ValueError, match=r"empty \(0 samples\)"):
        func(np.zeros((0, 3)), np.zeros((0, 3)))


def test_targets_no_label_columns():
    """Zero label columns are refused."""
    with pytest.raises(ValueError, match="no label columns"):
        mlcm_confusion_matrix(np.zeros((2, 0)), np.zeros((2, 0)))


def test_targets_mixed_kinds():
    """A 1-D target against a 2-D one is refused, saying which is which."""
    with pytest.raises(ValueError, match="Got 1-D class labels for y_true and a 2-D"):
        mlcm_confusion_matrix([0, 1, 2], Y)


def test_targets_none():
    """None is a TypeError naming the argument."""
    with pytest.raises(TypeError, match="'y_true' parameter of mlcm_confusion_matr"):
        mlcm_confusion_matrix(None, Y)


def test_targets_scalar():
    """A scalar is a TypeError."""
    with pytest.raises(TypeError, match="'y_pred' parameter .*array-like"):
        mlcm_confusion_matrix(Y, 1)


def test_targets_ragged_rows():
    """Rows of different lengths are refused."""
    with pytest.raises(ValueError, match="y_true .*(different lengths|rectangular)"):
        mlcm_confusion_matrix([[1, 0], [1]], [[1, 0], [0, 1]])


def test_targets_three_dimensions():
    """3-D arrays are refused."""
    with pytest.raises(ValueError, match="3 dimensions"):
        mlcm_confusion_matrix(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))


def test_targets_multiclass_continuous():
    """1-D continuous values look like scores."""
    with pytest.raises(ValueError, match="y_pred .*continuous.*looks like scores"):
        mlcm_confusion_matrix([0, 1, 1], [0.2, 0.9, 0.4])


def test_targets_multiclass_nan():
    """1-D NaN is refused."""
    with pytest.raises(ValueError, match="y_true .*NaN or infinity"):
        mlcm_confusion_matrix([0.0, np.nan], [0, 1])


def test_targets_multiclass_mixed_types():
    """Strings mixed with numbers in 1-D labels are refused."""
    with pytest.raises(ValueError, match="y_true and y_pred of .*Mix"):
        mlcm_confusion_matrix(["a", "b"], [0, 1])


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_sample_weight_wrong_length(func):
    """A sample_weight of the wrong length is refused with the expected length."""
    with pytest.raises(ValueError, match=r"'sample_weight' .*n_samples=3. Got shape"):
        func(Y, Y, sample_weight=[1, 1])


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_sample_weight_negative(func):
    """Negative weights are refused, showing one."""
    with pytest.raises(ValueError, match=r"'sample_weight' .*non-negative; found -1"):
        func(Y, Y, sample_weight=[1, -1, 1])


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_sample_weight_non_finite(bad):
    """NaN and infinite weights are refused."""
    with pytest.raises(ValueError, match=r"'sample_weight' .*must be finite"):
        mlcm_confusion_matrix(Y, Y, sample_weight=[1, bad, 1])


def test_sample_weight_scalar():
    """A scalar weight is refused (scikit-learn wants one per sample)."""
    with pytest.raises(TypeError, match="'sample_weight' .*array-like or None. Got 2"):
        mlcm_confusion_matrix(Y, Y, sample_weight=2)


def test_sample_weight_strings():
    """Non-numeric weights are a TypeError."""
    with pytest.raises(
        TypeError, match="'sample_weight' .*real numbers. Got values of dtype <U1"
    ):
        mlcm_confusion_matrix(Y, Y, sample_weight=["a", "b", "c"])


@pytest.mark.parametrize(
    "labels, match",
    [
        ([0, 3], r"out of range for 3 label columns: \[3\]"),
        ([-1], r"out of range .*\[-1\]"),
        ([0, 0], r"duplicates: \[0\]"),
        ([], "non-empty list of labels. Got an empty one"),
        ([0.5], "integer column indices"),
        (["a"], "integer column indices"),
    ],
)
def test_labels_bad_indicator_labels(labels, match):
    """Bad ``labels`` for indicator input are refused, naming the culprits."""
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(Y, Y, labels=labels)


def test_labels_unknown_dataframe_column():
    """A column name that is not in the DataFrame is refused."""
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(Y, columns=["a", "b", "c"])
    with pytest.raises(
        ValueError,
        match=r"not in the DataFrame: \['z'\]. Its columns are \['a', 'b', 'c'\]",
    ):
        mlcm_confusion_matrix(df, df, labels=["a", "z"])


@pytest.mark.parametrize(
    "labels, match",
    [
        (["cat", "cat"], r"duplicates: \['cat'\]"),
        ([], "non-empty 1-D list of class labels"),
    ],
)
def test_labels_bad_multiclass_labels(labels, match):
    """Bad ``labels`` for 1-D input are refused."""
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(["cat", "hen"], ["hen", "hen"], labels=labels)


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
def test_method_unknown(func):
    """An unknown method is refused with the valid options."""
    msg = (
        r"The 'method' parameter of \w+ must be one of "
        r"\{'heydarian', 'krstinic'\}. Got 'foo' instead."
    )
    with pytest.raises(ValueError, match=msg):
        func(Y, Y, method="foo")


def test_normalize_unknown():
    """An unknown normalize is refused with the valid options."""
    msg = (
        r"The 'normalize' parameter of mlcm_confusion_matrix must be one of "
        r"\{'all', 'pred', 'true'\} or None. Got 'foo' instead."
    )
    with pytest.raises(ValueError, match=msg):
        mlcm_confusion_matrix(Y, Y, normalize="foo")


def test_tn_unknown():
    """An unknown tn is refused in both functions that take it."""
    with pytest.raises(ValueError, match=r"'tn' .*\{'complement', 'diagonal'\}"):
        mlcm_multilabel_confusion_matrix(Y, Y, tn="all")
    with pytest.raises(ValueError, match=r"'tn' .*Got 'all' instead"):
        confusion_matrix_statistics(np.eye(2), tn="all")


def test_target_names_wrong_length():
    """target_names must have one name per label."""
    with pytest.raises(ValueError, match="3 expected, got 2"):
        mlcm_classification_report(Y, Y, target_names=["a", "b"])


def test_digits_bad():
    """digits must be a non-negative int."""
    with pytest.raises(TypeError, match="'digits' .*must be an int"):
        mlcm_classification_report(Y, Y, digits=2.5)
    with pytest.raises(ValueError, match=r"'digits' .*in the range \[0, 20\]"):
        mlcm_classification_report(Y, Y, digits=-1)


@pytest.mark.parametrize(
    "bad, error",
    [
        ("yes", ValueError),
        (0.5, ValueError),
        (2, ValueError),
        (None, TypeError),
        (True, TypeError),
    ],
)
def test_zero_division_bad(bad, error):
    """zero_division must be "warn", 0, 1 or nan; a wrong type is a TypeError."""
    with pytest.raises(error, match="'zero_division' .*must be one of"):
        mlcm_classification_report(Y, Y, zero_division=bad)
    with pytest.raises(error, match="'zero_division' .*must be one of"):
        confusion_matrix_statistics(np.eye(2), zero_division=bad)


@pytest.mark.parametrize("bad", [-1, np.nan, np.inf])
def test_beta_bad_value(bad):
    """beta must be a finite real >= 0."""
    with pytest.raises(ValueError, match=r"'beta' .*a float in the range \[0, inf\)"):
        confusion_matrix_statistics(np.eye(2), beta=bad)


@pytest.mark.parametrize("bad", ["1", True, None])
def test_beta_bad_type(bad):
    """beta of the wrong type is a TypeError."""
    with pytest.raises(TypeError, match=r"'beta' .*a float in the range \[0, inf\)"):
        confusion_matrix_statistics(np.eye(2), beta=bad)


@pytest.mark.parametrize(
    "cm, match",
    [
        (np.ones((2, 3)), r"square 2-D matrix. Got shape \(2, 3\)"),
        (np.ones(3), r"Got shape \(3,\)"),
        (np.zeros((0, 0)), "non-empty"),
        ([[1, -1], [0, 1]], "non-negative; found -1"),
        ([[1, np.nan], [0, 1]], "NaN or infinity"),
    ],
)
def test_confusion_matrix_statistics_bad_matrix(cm, match):
    """A matrix that is not square, finite and non-negative is refused."""
    with pytest.raises(ValueError, match=match):
        confusion_matrix_statistics(cm)


def test_confusion_matrix_statistics_strings():
    """A matrix of strings is a TypeError."""
    with pytest.raises(
        TypeError, match="cm of .* must hold real numbers; got dtype <U1"
    ):
        confusion_matrix_statistics([["a", "b"], ["c", "d"]])


def test_targets_sparse_duplicate_entries_are_summed():
    """Duplicate sparse entries add up: 1 + 1 is a 2 (refused), 0.5 + 0.5 a 1."""
    two = sparse.csr_array(([1, 1], [0, 0], [0, 2, 2]), shape=(2, 2))
    with pytest.raises(ValueError, match="y_true .*only 0 and 1; found 2"):
        mlcm_confusion_matrix(two, [[1, 0], [0, 0]])
    one = sparse.csc_array(([0.5, 0.5], [0, 0], [0, 2, 2]), shape=(2, 2))
    assert_array_equal(
        mlcm_confusion_matrix(one, [[1, 0], [0, 0]]),
        mlcm_confusion_matrix([[1, 0], [0, 0]], [[1, 0], [0, 0]]),
    )


def test_targets_sparse_one_dimensional():
    """A 1-D sparse array is refused, naming the function."""
    y = sparse.coo_array(np.array([1, 0, 1]))
    if y.ndim != 1:
        pytest.skip("SciPy < 1.13 has no 1-D sparse arrays")
    with pytest.raises(
        ValueError, match="y_true of mlcm_confusion_matrix must be a 2-D"
    ):
        mlcm_confusion_matrix(y, y)


def test_targets_object_array_of_numbers():
    """Object arrays (e.g. lists mixing bool and int) of 0/1 are accepted."""
    y = np.array([[True, 0], [1, False]], dtype=object)
    assert_array_equal(mlcm_confusion_matrix(y, y), [[2, 0, 0], [0, 0, 0], [0, 0, 0]])


def test_targets_pandas_nullable_dtypes():
    """pandas' nullable Int64 and boolean columns work; pd.NA is NaN, refused."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1, 0, 1], "b": [0, 1, 1]})
    expected = mlcm_confusion_matrix(frame, frame)
    for dtype in ("Int64", "boolean", "Float64"):
        assert_array_equal(
            mlcm_confusion_matrix(frame.astype(dtype), frame.astype(dtype)), expected
        )
    missing = frame.astype("Int64")
    missing.iloc[1, 0] = pd.NA
    with pytest.raises(ValueError, match="y_pred of .* contains NaN"):
        mlcm_confusion_matrix(frame, missing)


def test_labels_dataframe_integer_column_names():
    """For a DataFrame, labels are column labels, even when they are integers."""
    pd = pytest.importorskip("pandas")
    y = pd.DataFrame(Y, columns=[10, 20, 30])
    cm = mlcm_confusion_matrix(y, y, labels=[30, 10])
    assert_array_equal(cm, mlcm_confusion_matrix(Y[:, [2, 0]], Y[:, [2, 0]]))
    with pytest.raises(ValueError, match=r"not in the DataFrame: \[0\]"):
        mlcm_confusion_matrix(y, y, labels=[0])


def test_labels_not_a_list():
    """A scalar or a string as labels is a TypeError."""
    with pytest.raises(TypeError, match="'labels' .*array-like or None. Got 1"):
        mlcm_confusion_matrix(Y, Y, labels=1)


def test_targets_multiclass_none_values():
    """1-D labels with None mixed in are refused, naming the target."""
    with pytest.raises(ValueError, match="y_true of .* could not be read as 1-D"):
        mlcm_confusion_matrix(np.array(["a", None], dtype=object), ["a", "b"])


def test_sample_weight_complex():
    """Complex weights are a TypeError, not silently truncated."""
    with pytest.raises(TypeError, match="real numbers. Got values of dtype complex"):
        mlcm_confusion_matrix(Y, Y, sample_weight=np.array([1 + 5j, 1, 1]))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"target_names": ["a", "a", "b"]}, "'a' is used twice"),
        ({"target_names": ["micro avg", "b", "c"]}, "'micro avg' is used as a summ"),
        (
            {"target_names": ["no label", "b", "c"], "include_no_label": True},
            "'no label' is used as a summary row",
        ),
    ],
)
def test_target_names_must_be_unique(kwargs, match):
    """Names that would overwrite a row of the report are refused."""
    with pytest.raises(ValueError, match=match):
        mlcm_classification_report(Y, Y, **kwargs)


def test_target_names_and_flags_types():
    """target_names must be a list; output_dict and include_no_label bools."""
    with pytest.raises(TypeError, match="'target_names' .*a list or None. Got 5"):
        mlcm_classification_report(Y, Y, target_names=5)
    with pytest.raises(TypeError, match="'output_dict' .*a bool. Got 'no'"):
        mlcm_classification_report(Y, Y, output_dict="no")
    with pytest.raises(TypeError, match="'include_no_label' .*a bool"):
        mlcm_classification_report(Y, Y, include_no_label=1)


@pytest.mark.parametrize(
    "y, labels, match",
    [
        ([0, 1, 2], [1, None], r"one kind \(all numbers or all strings\). Got \[1, "),
        ([0, 1, 2], [1, "a"], r"one kind .*Got \[1, 'a'\] instead"),
        (["a", "b"], ["b", 1], r"one kind .*Got \['b', 1\] instead"),
        ([0, 1, 2], ["a"], r"kind of the classes \[0, 1, 2\]. Got \['a'\]"),
        ([0, 1, 2], ["0"], r"kind of the classes \[0, 1, 2\]. Got \['0'\]"),
        (["a", "b"], [1, 2], r"kind of the classes \['a', 'b'\]. Got \[1, 2\]"),
    ],
)
def test_multiclass_labels_of_another_kind(y, labels, match):
    """Class labels of mixed kinds, or of another kind than the classes, are
    refused: now that labels which occur nowhere are scored (zero counts, #24),
    ["0"] for class 0 would give a row of zeros (scikit-learn counts class 0)."""
    with pytest.raises(InvalidInputError, match="'labels' parameter of mlcm_confus"):
        mlcm_confusion_matrix(y, y[::-1], labels=labels)
    with pytest.raises(InvalidInputError, match=match):
        mlcm_f1_score(y, y[::-1], labels=labels)


def test_target_names_set_refused():
    """A set has no order: refused, as scikit-learn does."""
    with pytest.raises(TypeError, match="'target_names' parameter .*a list or None"):
        mlcm_classification_report(Y, Y, target_names={"a", "b", "c"})


def _coded(y_true, y_pred, classes):
    """The matrix of ``y_true``, ``y_pred`` once each class is replaced by its
    index in ``classes`` (small integers, read exactly by every path)."""
    index = {c: i for i, c in enumerate(classes)}
    return mlcm_confusion_matrix(
        np.array([index[v] for v in y_true]), np.array([index[v] for v in y_pred])
    )


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([1e19, 0.0, 1e19], [0.0, 1e19, 1e19]),
        ([1e300, -1e300, 0.0, 1e300], [-1e300, 1e300, 0.0, 0.0]),
        ([-1e300, -1e300], [-1e300, 1e19]),
    ],
)
def test_targets_huge_whole_number_floats_are_class_labels(y_true, y_pred):
    """Whole-number floats beyond int64 (1e19, +-1e300) are class labels: the
    matrix of their class indices, the classes named in sorted order."""
    classes = sorted(set(y_true) | set(y_pred))
    assert_array_equal(
        mlcm_confusion_matrix(np.array(y_true), np.array(y_pred)),
        _coded(y_true, y_pred, classes),
    )
    report = mlcm_classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0
    )
    assert list(report)[: len(classes)] == [str(c) for c in classes]
    kept = classes[::-1]
    assert_array_equal(
        mlcm_confusion_matrix(y_true, y_pred, labels=kept),
        _coded(y_true, y_pred, kept),
    )


def test_targets_huge_integers_beside_floats_stay_distinct():
    """Integers beyond 2**53 beside floats (or uint64 beside int64) are not
    rounded into one class by a float64 common type."""
    big = np.array([2**64 - 1, 2**64 - 2, 0], dtype=np.uint64)
    small = np.array([0, 0, 1], dtype=np.int64)
    classes = [0, 1, 2**64 - 2, 2**64 - 1]
    expected = _coded(big.tolist(), small.tolist(), classes)
    assert_array_equal(mlcm_confusion_matrix(big, small), expected)
    wide = np.array([2**62, 2**62 + 1, 3], dtype=np.int64)
    halves = np.array([3.0, 3.0, 2**62])
    classes = [3, 2**62, 2**62 + 1]
    expected = _coded(wide.tolist(), [3, 3, 2**62], classes)
    assert_array_equal(mlcm_confusion_matrix(wide, halves), expected)


@pytest.mark.parametrize("bad", [[1e19, 0.5], [1e300, 2.5, 0.0]])
def test_targets_huge_floats_with_fractions_are_refused(bad):
    """Huge floats beside a fraction are scores, refused with the fraction."""
    with pytest.raises(ValueError, match=r"y_true of .* continuous values"):
        mlcm_confusion_matrix(np.array(bad), np.zeros(len(bad)))


@pytest.mark.parametrize("func", TARGET_FUNCTIONS)
@pytest.mark.parametrize("target", ["y_true", "y_pred"])
@pytest.mark.parametrize("shape", [(3,), (3, 1)])
def test_targets_structured_array_is_refused(func, target, shape):
    """A structured (record) array is refused, naming the parameter and a way
    out, not with "unhashable type: 'writeable void-scalar'"."""
    record = np.zeros(shape, dtype=[("a", np.int64), ("b", np.int64)])
    inputs = {"y_true": np.zeros(3, dtype=int), "y_pred": np.zeros(3, dtype=int)}
    inputs[target] = record
    with pytest.raises(TypeError, match=rf"{target} of .* structured array.*'a', 'b'"):
        func(inputs["y_true"], inputs["y_pred"])


def test_targets_uint64_labels_beyond_int64_in_a_narrow_range():
    """uint64 class labels beyond int64 but close together (the lookup-table
    path) are named by their values, not an OverflowError."""
    y = np.array([2**63 + 5, 2**63, 2**63], dtype=np.uint64)
    report = mlcm_classification_report(y, y[::-1], output_dict=True, zero_division=0.0)
    assert list(report)[:2] == [str(2**63), str(2**63 + 5)]
    expected = _coded(y.tolist(), y[::-1].tolist(), [2**63, 2**63 + 5])
    assert_array_equal(mlcm_confusion_matrix(y, y[::-1]), expected)


def test_targets_list_of_integers_beyond_2_53_stays_exact():
    """A list of integers beyond 2**53 (which NumPy makes float64, merging
    2**64 - 2 into 2**64 - 1) gives the classes of the uint64 array."""
    values = [0, 2**64 - 2, 2**64 - 1]
    array = np.array(values, dtype=np.uint64)
    expected = _coded(values, values[::-1], values)
    assert_array_equal(mlcm_confusion_matrix(values, array[::-1]), expected)
    assert_array_equal(mlcm_confusion_matrix(values, values[::-1]), expected)
    mixed = [-1, 2**63, 2**63 + 1]  # no NumPy integer holds both
    expected = _coded(mixed, mixed[::-1], mixed)
    assert_array_equal(mlcm_confusion_matrix(mixed, mixed[::-1]), expected)
