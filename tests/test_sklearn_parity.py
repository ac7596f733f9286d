"""Parity with scikit-learn where equivalence is claimed: 1-D multi-class
input, and the samples average of multi-label input.

For 1-D class labels every instance has one true and one predicted label, so
the MLCM's top-left block is scikit-learn's ``confusion_matrix`` and its
no-label row and column are empty. The counterparts must then agree with
scikit-learn's functions number for number: the block (with ``labels``
subsets and supersets, weights and ``normalize``), the scores for every
``average`` and ``zero_division``, and the report's per-class lines. The
samples average reads no matrix: on multi-label input it is scikit-learn's,
warnings included. Each deliberate difference is asserted *as a
difference*, citing its row of the "Coming from scikit-learn" page
(doc/user_guide/from_sklearn.rst).
"""

import re
import warnings

import numpy as np
import pytest
import sklearn
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    accuracy_score,
    classification_report,
    confusion_matrix,
    f1_score,
    fbeta_score,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)

from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_recall_fscore_support,
    mlcm_precision_score,
    mlcm_recall_score,
)

SCORES = [
    (mlcm_precision_score, precision_score, {}),
    (mlcm_recall_score, recall_score, {}),
    (mlcm_f1_score, f1_score, {}),
    (mlcm_fbeta_score, fbeta_score, {"beta": 0.5}),
    (mlcm_fbeta_score, fbeta_score, {"beta": 2.0}),
]
AVERAGES = [None, "micro", "macro", "weighted"]
ZERO_DIVISION = [0.0, 1.0, np.nan]

SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


@st.composite
def multiclass(draw, max_samples=30, max_classes=6):
    """``(y_true, y_pred, sample_weight or None, labels or None)``: 1-D class
    labels, with ``labels`` a subset, a superset (classes not in the data) or
    a reordering of the classes."""
    n = draw(st.integers(1, max_samples))
    k = draw(st.integers(1, max_classes))
    classes = st.integers(0, k - 1)
    y_true = np.array(draw(st.lists(classes, min_size=n, max_size=n)))
    y_pred = np.array(draw(st.lists(classes, min_size=n, max_size=n)))
    weight = draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(1, 4), min_size=n, max_size=n).map(np.array),
            st.lists(st.floats(0.1, 10.0, allow_nan=False), min_size=n, max_size=n).map(
                np.array
            ),
        )
    )
    kind = draw(st.sampled_from(("all", "subset", "superset", "reordered")))
    present = sorted(set(y_true) | set(y_pred))
    if kind == "all":
        labels = None
    elif kind == "subset":
        labels = draw(st.lists(st.sampled_from(present), min_size=1, unique=True))
        if not set(labels) & set(y_true):  # scikit-learn refuses such labels
            labels.append(int(y_true[0]))
    elif kind == "superset":
        labels = present + [k, k + 3]  # classes the data never has
    else:
        labels = draw(st.permutations(present))
    return y_true, y_pred, weight, labels


# scikit-learn's confusion_matrix warns when its matrix is 1 x 1 (one class in
# y_true and y_pred, no labels), a hint to pass labels; the MLCM has its no-label
# row and column, never warns so, and its block is what is compared.
SINGLE_LABEL = "ignore:A single label was found:UserWarning"


@pytest.mark.filterwarnings(SINGLE_LABEL)
@settings(max_examples=300, deadline=None)
@given(case=multiclass())
def test_parity_confusion_matrix_block(case):
    """The MLCM's top-left block is scikit-learn's confusion_matrix, for
    labels subsets, supersets and reorderings, with and without weights."""
    y_true, y_pred, weight, labels = case
    ours = mlcm_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight)
    theirs = confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight)
    assert_allclose(ours[:-1, :-1], theirs)
    if labels is None or set(labels) >= set(y_true) | set(y_pred):
        # every instance has a kept true and predicted label: NTL and NPL empty
        assert ours[-1].sum() == ours[:, -1].sum() == 0


@pytest.mark.filterwarnings(SINGLE_LABEL)
@settings(max_examples=200, deadline=None)
@given(case=multiclass(), normalize=st.sampled_from(["true", "pred", "all"]))
def test_parity_confusion_matrix_normalize(case, normalize):
    """Normalised, the block is scikit-learn's whenever NTL and NPL are empty;
    with a labels subset the instances outside it stay in the NTL row and NPL
    column and take part in the normalisation (from_sklearn.rst, row
    "normalize with a labels subset")."""
    y_true, y_pred, weight, labels = case
    ours = mlcm_confusion_matrix(
        y_true, y_pred, labels=labels, sample_weight=weight, normalize=normalize
    )
    theirs = confusion_matrix(
        y_true, y_pred, labels=labels, sample_weight=weight, normalize=normalize
    )
    if labels is None or set(labels) >= set(y_true) | set(y_pred):
        assert_allclose(ours[:-1, :-1], theirs, atol=1e-12)
    else:
        counts = mlcm_confusion_matrix(
            y_true, y_pred, labels=labels, sample_weight=weight
        )
        axis = {"true": 1, "pred": 0, "all": None}[normalize]
        totals = counts.sum(axis=axis, keepdims=axis is not None)
        expected = np.divide(
            counts, totals, out=np.zeros(counts.shape), where=totals != 0
        )
        assert_allclose(ours, expected, atol=1e-12)


def test_parity_confusion_matrix_normalize_subset_differs():
    """The deliberate difference: a labels subset keeps the instances outside
    it in the NTL row and NPL column, so a normalised row of the block sums to
    less than one (from_sklearn.rst, row "normalize with a labels subset")."""
    y_true, y_pred = [0, 0, 1, 2], [0, 2, 1, 1]
    ours = mlcm_confusion_matrix(y_true, y_pred, labels=[0, 1], normalize="true")
    theirs = confusion_matrix(y_true, y_pred, labels=[0, 1], normalize="true")
    assert_allclose(theirs, [[1.0, 0.0], [0.0, 1.0]])  # instance 2 left out
    assert_allclose(ours[:2, :2], [[0.5, 0.0], [0.0, 1.0]])  # 0 -> 2 is missed
    assert_allclose(ours[0, 2], 0.5)


@settings(max_examples=150, deadline=None)
@given(case=multiclass(), zero_division=st.sampled_from(ZERO_DIVISION))
def test_parity_scores(case, zero_division):
    """precision, recall, F1 and F-beta for every average and zero_division
    are scikit-learn's, labels subsets and supersets included."""
    y_true, y_pred, weight, labels = case
    options = {
        "labels": labels,
        "sample_weight": weight,
        "zero_division": zero_division,
    }
    for ours, theirs, extra in SCORES:
        for average in AVERAGES:
            got = ours(y_true, y_pred, average=average, **extra, **options)
            want = theirs(y_true, y_pred, average=average, **extra, **options)
            assert_allclose(got, want, atol=1e-12, equal_nan=True)
            if average is not None:
                assert type(got) is float


@settings(max_examples=150, deadline=None)
@given(case=multiclass(), average=st.sampled_from(AVERAGES))
def test_parity_precision_recall_fscore_support(case, average):
    """The engine returns scikit-learn's four results, supports included."""
    y_true, y_pred, weight, labels = case
    options = {"labels": labels, "sample_weight": weight, "zero_division": 0.0}
    ours = mlcm_precision_recall_fscore_support(
        y_true, y_pred, beta=2.0, average=average, **options
    )
    theirs = precision_recall_fscore_support(
        y_true, y_pred, beta=2.0, average=average, **options
    )
    for got, want in zip(ours[:3], theirs[:3]):
        assert_allclose(got, want, atol=1e-12)
    if average is None:
        assert_allclose(ours[3], theirs[3])
    else:
        assert ours[3] is theirs[3] is None


def test_parity_scores_warn_like_sklearn():
    """zero_division="warn" warns for the ratio asked for, as scikit-learn's:
    precision_score warns about precision only."""
    from sklearn.exceptions import UndefinedMetricWarning

    y_true, y_pred = [0, 1, 1], [0, 0, 0]  # class 1 never predicted
    for ours, theirs in ((mlcm_precision_score, precision_score),):
        with pytest.warns(UndefinedMetricWarning) as mine:
            ours(y_true, y_pred, average="macro")
        with pytest.warns(UndefinedMetricWarning) as sk:
            theirs(y_true, y_pred, average="macro")
        assert [str(w.message)[:9] for w in mine] == [str(w.message)[:9] for w in sk]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mlcm_recall_score(y_true, y_pred, average="macro")  # recall is defined


@settings(max_examples=100, deadline=None)
@given(case=multiclass())
def test_parity_classification_report_per_class(case):
    """The report's per-class lines and averages are scikit-learn's; "weight"
    is an extra column, equal to the support for 1-D input (from_sklearn.rst,
    row "the report's weight column")."""
    y_true, y_pred, weight, labels = case
    options = {"labels": labels, "sample_weight": weight, "zero_division": 0.0}
    ours = mlcm_classification_report(y_true, y_pred, output_dict=True, **options)
    theirs = classification_report(y_true, y_pred, output_dict=True, **options)
    shown = labels if labels is not None else sorted(set(y_true) | set(y_pred))
    for label in shown:
        mine, sk = ours[str(label)], theirs[str(label)]
        for column in ("precision", "recall", "f1-score", "support"):
            assert mine[column] == pytest.approx(sk[column], abs=1e-12)
        assert mine["weight"] == pytest.approx(mine["support"])
    for heading in ("macro avg", "weighted avg"):
        for column in ("precision", "recall", "f1-score"):
            assert ours[heading][column] == pytest.approx(
                theirs[heading][column], abs=1e-12
            )
    # scikit-learn prints "accuracy" instead of "micro avg" when every class is
    # shown; the micro average over the labels is that accuracy then
    micro = theirs.get("micro avg", {}).get("f1-score", theirs.get("accuracy"))
    assert ours["micro avg"]["f1-score"] == pytest.approx(micro, abs=1e-12)


@pytest.mark.parametrize("digits, weight", [(2, 1.0), (5, 1e9 + 0.5), (12, 1.0)])
def test_parity_classification_report_columns_widen_for_wide_values(digits, weight):
    """The report's columns are scikit-learn's 9 characters, widened where a
    value needs more; scikit-learn's values then end past their headers
    (from_sklearn.rst, row "the report's column widths")."""
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    sample_weight = [weight + 0.25, weight, weight, weight, weight]
    options = {"digits": digits, "sample_weight": sample_weight}

    def misaligned(text):
        header, _, first = text.splitlines()[:3]
        return [match.end() for match in re.finditer(r"\S+", first)][-1] != len(header)

    ours = mlcm_classification_report(y_true, y_pred, **options)
    theirs = classification_report(y_true, y_pred, **options)
    assert not misaligned(ours)
    if digits == 2 and weight == 1.0:  # the usual report: the same columns
        assert not misaligned(theirs)
        assert ours.splitlines()[2].split()[:4] == theirs.splitlines()[2].split()[:4]
        assert len(ours.splitlines()[2]) == len(theirs.splitlines()[2]) + 10
    else:
        assert misaligned(theirs)


def test_parity_classification_report_accuracy_line_differs():
    """scikit-learn's report shows "accuracy" where every class is shown; ours
    always shows the three averages (from_sklearn.rst, row "micro avg and
    accuracy")."""
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    assert "accuracy" in classification_report(y_true, y_pred, output_dict=True)
    ours = mlcm_classification_report(y_true, y_pred, output_dict=True)
    assert "accuracy" not in ours
    assert ours["micro avg"]["f1-score"] == 0.5  # the accuracy


@settings(max_examples=100, deadline=None)
@given(case=multiclass())
def test_parity_multilabel_confusion_matrix(case):
    """One-vs-rest matrices: scikit-learn's, plus one for the no-label index
    (from_sklearn.rst, row "mlcm_multilabel_confusion_matrix")."""
    y_true, y_pred, weight, labels = case
    ours = mlcm_multilabel_confusion_matrix(
        y_true, y_pred, labels=labels, sample_weight=weight
    )
    theirs = multilabel_confusion_matrix(
        y_true, y_pred, labels=labels, sample_weight=weight
    )
    assert ours.shape[0] == theirs.shape[0] + 1
    # scikit-learn's TN of float weights is a difference of sums (-1e-15)
    if labels is None or set(labels) >= set(y_true) | set(y_pred):
        assert_allclose(ours[:-1], theirs, atol=1e-9)
    else:  # TP, FP and FN agree; TN counts the kept instances only
        assert_allclose(ours[:-1, 0, 1:], theirs[:, 0, 1:], atol=1e-9)
        assert_allclose(ours[:-1, 1], theirs[:, 1], atol=1e-9)


def test_parity_micro_all_is_not_sklearn_micro():
    """ "micro_all" is Heydarian's Table 12 convention, not scikit-learn's: it
    counts an instance with no true and no predicted label as correct
    (from_sklearn.rst, row "average='micro_all'")."""
    y_true = np.array([[0, 0], [0, 0], [1, 0], [1, 1]])
    nothing = np.zeros_like(y_true)
    sk = f1_score(y_true, nothing, average="micro", zero_division=0.0)
    assert mlcm_f1_score(y_true, nothing, average="micro", zero_division=0.0) == sk
    paper = mlcm_f1_score(y_true, nothing, average="micro_all", zero_division=0.0)
    assert (sk, paper) == (0.0, 0.4)


def test_parity_object_sample_weight_is_accepted():
    """Numbers held as objects (a pandas object Series) are weights, as in
    scikit-learn."""
    weight = np.array([1, 2, 1, 0.5], dtype=object)
    y_true, y_pred = [0, 1, 1, 2], [0, 1, 2, 2]
    assert_allclose(
        mlcm_confusion_matrix(y_true, y_pred, sample_weight=weight)[:-1, :-1],
        confusion_matrix(y_true, y_pred, sample_weight=weight),
    )
    with pytest.raises(InvalidInputError, match="'sample_weight' parameter"):
        mlcm_confusion_matrix(
            y_true, y_pred, sample_weight=np.array([1, "a", 1, 1], dtype=object)
        )


def test_parity_duplicate_labels_are_refused():
    """scikit-learn gives a matrix whose repeated label has an empty row; we
    refuse (from_sklearn.rst, row "repeated labels")."""
    sk = confusion_matrix([0, 1], [0, 1], labels=[0, 0, 1])
    assert_array_equal(sk, [[0, 0, 0], [0, 1, 0], [0, 0, 1]])  # label 0 lost
    with pytest.raises(InvalidInputError, match="'labels' parameter .* duplicates"):
        mlcm_confusion_matrix([0, 1], [0, 1], labels=[0, 0, 1])


def test_parity_all_zero_weights_differ():
    """scikit-learn 1.9 and later refuse weights that are all zero (earlier
    releases return the zero matrix); the MLCM of nothing is the zero matrix,
    and its ratios follow zero_division (from_sklearn.rst, row "all-zero
    sample_weight")."""
    if SKLEARN_VERSION >= (1, 9):
        with pytest.raises(ValueError, match="at least one non-zero"):
            confusion_matrix([0, 1], [0, 1], sample_weight=[0, 0])
    else:
        zeros = confusion_matrix([0, 1], [0, 1], sample_weight=[0, 0])
        assert_array_equal(zeros, np.zeros((2, 2)))
    cm = mlcm_confusion_matrix([0, 1], [0, 1], sample_weight=[0, 0])
    assert_array_equal(cm, np.zeros((3, 3)))
    assert mlcm_f1_score([0, 1], [0, 1], sample_weight=[0, 0], zero_division=1.0) == 1


def test_parity_target_names_of_another_length_are_refused():
    """scikit-learn warns and mislabels when target_names and labels differ in
    length; we refuse (from_sklearn.rst, row "target_names")."""
    with pytest.warns(UserWarning, match="does not match size of target_names"):
        classification_report([0, 1, 2], [0, 1, 1], labels=[0, 1], target_names=["a"])
    with pytest.raises(InvalidInputError, match="one name per label: 2 expected"):
        mlcm_classification_report(
            [0, 1, 2], [0, 1, 1], labels=[0, 1], target_names=["a"]
        )


def test_parity_matrix_has_the_no_label_row_and_column():
    """The MLCM has one more row (NTL) and column (NPL) than scikit-learn's
    matrix, empty for 1-D input (from_sklearn.rst, row "The matrix")."""
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    theirs = confusion_matrix(y_true, y_pred)
    ours = mlcm_confusion_matrix(y_true, y_pred)
    assert (theirs.shape, ours.shape) == ((3, 3), (4, 4))
    assert_array_equal(ours[:3, :3], theirs)
    assert ours[3].sum() == ours[:, 3].sum() == 0


def test_parity_frame_beside_an_array_is_refused():
    """scikit-learn reads a DataFrame beside an array by position; a frame
    beside an array without column names is refused here unless labels names
    its columns (from_sklearn.rst, row "Frames")."""
    pd = pytest.importorskip("pandas")
    y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0]])
    frame = pd.DataFrame(y_pred[:, ::-1], columns=["c", "b", "a"])
    # scikit-learn takes the frame's columns in their order, c first
    assert_array_equal(
        multilabel_confusion_matrix(y_true, frame),
        multilabel_confusion_matrix(y_true, y_pred[:, ::-1]),
    )
    with pytest.raises(InvalidInputError, match="y_pred of mlcm_confusion_matrix"):
        mlcm_confusion_matrix(y_true, frame)
    # labels names the array's columns: the frame is aligned to them
    assert_array_equal(
        mlcm_confusion_matrix(y_true, frame, labels=["a", "b", "c"]),
        mlcm_confusion_matrix(y_true, y_pred),
    )


def test_parity_errors_are_value_and_type_errors():
    """An invalid parameter raises InvalidParameterError and refused data
    InvalidInputError, each both a ValueError and a TypeError, as
    scikit-learn's InvalidParameterError is: ``except ValueError`` catches
    every refusal whatever was wrong (from_sklearn.rst, row "Errors")."""
    with pytest.raises(ValueError) as theirs:
        confusion_matrix([0, 1], [0, 1], normalize="rows")
    assert isinstance(theirs.value, TypeError)  # scikit-learn's is both too
    for call in (
        lambda: mlcm_confusion_matrix([0, 1], [0, 1], normalize="rows"),
        lambda: mlcm_confusion_matrix([0, 1], [0, 1], normalize=1),
        lambda: mlcm_confusion_matrix([[0, 2]], [[0, 1]]),
    ):
        with pytest.raises(ValueError) as ours:
            call()
        assert isinstance(ours.value, TypeError)
        assert isinstance(ours.value, (InvalidParameterError, InvalidInputError))


# -- the samples average of multi-label input (issue #24) -----------------------


def _recorded(func, *args, **kwargs):
    """``(result, warnings)``: every warning recorded as (category, the words
    before "ill-defined")."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, sorted(
        (w.category.__name__, str(w.message).split(" ill-defined")[0]) for w in caught
    )


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    zero_division=st.sampled_from(["warn", 0.0, 1.0, np.nan]),
)
def test_parity_samples_average_multilabel(mlcm_strategies, data, zero_division):
    """average="samples" of multi-label input is scikit-learn's to 1e-12 for
    the four scores and the engine, with labels subsets, weights (zeros among
    them), empty true and predicted sets and every zero_division, and warns
    as scikit-learn does (the ratio it returns, once)."""
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(label_counts=st.integers(2, 6))
    )
    assume(weight is None or weight.sum() > 0)  # scikit-learn refuses all zeros
    y_true, y_pred = y_true.astype(int), y_pred.astype(int)
    q = y_true.shape[1]
    labels = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, q - 1), min_size=1, max_size=q, unique=True),
        )
    )
    options = {
        "average": "samples",
        "labels": labels,
        "sample_weight": weight,
        "zero_division": zero_division,
    }
    for ours, theirs, extra in SCORES:
        got, our_warnings = _recorded(ours, y_true, y_pred, **extra, **options)
        want, their_warnings = _recorded(theirs, y_true, y_pred, **extra, **options)
        assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
        assert type(got) is float
        assert our_warnings == their_warnings, ours.__name__
    got, our_warnings = _recorded(
        mlcm_precision_recall_fscore_support, y_true, y_pred, beta=2.0, **options
    )
    want, their_warnings = _recorded(
        precision_recall_fscore_support, y_true, y_pred, beta=2.0, **options
    )
    assert_allclose(got[:3], want[:3], rtol=1e-12, atol=1e-12, equal_nan=True)
    assert got[3] is want[3] is None
    assert our_warnings == their_warnings
    if zero_division == "warn":
        assert all(category == "UndefinedMetricWarning" for category, _ in our_warnings)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), zero_division=st.sampled_from([0.0, 1.0, np.nan]))
def test_parity_classification_report_samples_avg(mlcm_strategies, data, zero_division):
    """The report of multi-label input has scikit-learn's "samples avg" row:
    its precision, recall, F1 and support, labels subsets and weights too."""
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(label_counts=st.integers(2, 6))
    )
    assume(weight is None or weight.sum() > 0)
    y_true, y_pred = y_true.astype(int), y_pred.astype(int)
    q = y_true.shape[1]
    labels = data.draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, q - 1), min_size=1, max_size=q, unique=True),
        )
    )
    options = {
        "labels": labels,
        "sample_weight": weight,
        "zero_division": zero_division,
        "output_dict": True,
    }
    ours = mlcm_classification_report(y_true, y_pred, **options)["samples avg"]
    theirs = classification_report(y_true, y_pred, **options)["samples avg"]
    for column in ("precision", "recall", "f1-score", "support"):
        assert_allclose(ours[column], theirs[column], atol=1e-12, equal_nan=True)


def test_parity_classification_report_samples_avg_text():
    """The "samples avg" line is scikit-learn's line (name, three scores),
    with the weight column before the support, after "weighted avg"; 1-D
    input has none, as in scikit-learn."""
    y_true = [[1, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 1]]
    y_pred = [[1, 0, 0], [0, 1, 1], [0, 0, 0], [1, 1, 1]]
    ours = mlcm_classification_report(y_true, y_pred, zero_division=0.0)
    theirs = classification_report(y_true, y_pred, zero_division=0.0)
    our_line, their_line = ours.splitlines()[-1], theirs.splitlines()[-1]
    assert their_line.startswith(" samples avg")
    assert our_line[: len(their_line) - 10] == their_line[:-10]
    assert our_line.split()[-2:] == ["8", "5"] and their_line.split()[-1] == "5"
    assert ours.splitlines()[-2].startswith("weighted avg")
    one_d = mlcm_classification_report([0, 1, 2], [0, 2, 2], zero_division=0.0)
    assert "samples avg" not in one_d
    assert "samples avg" not in classification_report([0, 1], [0, 1])


def test_parity_samples_average_of_1d_input_differs():
    """scikit-learn refuses average="samples" for 1-D input; here each
    instance's class is a one-label set, so precision, recall and F1 are the
    (weighted) accuracy (from_sklearn.rst, row 'average="samples"')."""
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    weight = [1.0, 0.5, 2.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="Samplewise metrics are not available"):
        f1_score(y_true, y_pred, average="samples")
    accuracy = accuracy_score(y_true, y_pred, sample_weight=weight)
    for score in (mlcm_precision_score, mlcm_recall_score, mlcm_f1_score):
        value = score(y_true, y_pred, average="samples", sample_weight=weight)
        assert value == pytest.approx(accuracy, abs=1e-15)


def test_parity_samples_average_include_no_label_is_new():
    """With include_no_label an empty set is the no-label index: an instance
    with no true and no predicted label scores 1, where scikit-learn (which
    has no such option) takes zero_division (from_sklearn.rst, row
    'average="samples"')."""
    y_true, y_pred = [[0, 0], [1, 0]], [[0, 0], [1, 0]]
    theirs = f1_score(y_true, y_pred, average="samples", zero_division=0.0)
    ours = mlcm_f1_score(y_true, y_pred, average="samples", zero_division=0.0)
    assert ours == theirs == 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        value = mlcm_f1_score(y_true, y_pred, average="samples", include_no_label=True)
    assert value == 1.0
