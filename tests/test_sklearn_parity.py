"""Parity with scikit-learn where equivalence is claimed: 1-D multi-class input.

For 1-D class labels every instance has one true and one predicted label, so
the MLCM's top-left block is scikit-learn's ``confusion_matrix`` and its
no-label row and column are empty. The counterparts must then agree with
scikit-learn's functions number for number: the block (with ``labels``
subsets and supersets, weights and ``normalize``), the scores for every
``average`` and ``zero_division``, and the report's per-class lines. Each
deliberate difference is asserted *as a difference*, citing its row of the
"Coming from scikit-learn" page (doc/user_guide/from_sklearn.rst).
"""

import re
import warnings

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import (
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


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


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
    theirs = _quiet(
        confusion_matrix,
        y_true,
        y_pred,
        labels=labels,
        sample_weight=weight,
        normalize=normalize,
    )
    theirs = np.nan_to_num(theirs)  # scikit-learn's 0/0 rows are NaN, ours 0
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
