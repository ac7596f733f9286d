"""Invariances shared by every public metric, as scikit-learn's test_common.py.

The registry below holds every public function that turns targets into
numbers: the two matrices, the report, the five scores (and the samples
averages of four of them), every per-class statistic of the statistics'
registry (``confusion_matrix_statistics`` of the MLCM: a new entry there gets
these invariances with no line here), the accumulator (fed in two batches)
and the Madjarov measures, each with both kernels (Heydarian et al. 2022, Krstinic
et al. 2020) where it has a ``method``. The report is
compared as its dict of floats, the measures as their dict of floats. The
functions of scores (decide_labels, mlcm_threshold_curve) have a registry of
their own at the end: their invariances are over (y_true, y_score).
"""

from functools import partial

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.metrics import (
    classification_report,
    confusion_matrix,
    multilabel_confusion_matrix,
)

from sklearn_mlcm import (
    MLCMAccumulator,
    confusion_matrix_statistics,
    decide_labels,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_multilabel_confusion_matrix,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_specificity_score,
    mlcm_threshold_curve,
    multilabel_measures,
)
from sklearn_mlcm._statistics import STATISTICS

METHODS = ("heydarian", "krstinic")
REPORT_HEADERS = ("precision", "recall", "f1-score", "weight", "support")
REPORT_AVERAGES = ("micro avg", "macro avg", "weighted avg", "samples avg")

MATRIX_METRICS = {
    f"{func.__name__}[{method}]": partial(func, method=method)
    for func in (mlcm_confusion_matrix, mlcm_multilabel_confusion_matrix)
    for method in METHODS
}
REPORT_METRICS = {
    f"mlcm_classification_report[{method}]": partial(
        mlcm_classification_report, method=method, output_dict=True, zero_division=0.0
    )
    for method in METHODS
}
SCORES = {
    f"{func.__name__}[{method}]": partial(
        func, method=method, average=None, zero_division=0.0, **extra
    )
    for func, extra in (
        (mlcm_precision_score, {}),
        (mlcm_recall_score, {}),
        (mlcm_f1_score, {}),
        (mlcm_fbeta_score, {"beta": 2.0}),
        (mlcm_specificity_score, {}),
    )
    for method in METHODS
}
# The samples average reads no matrix (no method): one float, invariant under
# label permutations.
SAMPLES_METRICS = {
    f"{func.__name__}[samples]": partial(
        func, average="samples", zero_division=0.0, **extra
    )
    for func, extra in (
        (mlcm_precision_score, {}),
        (mlcm_recall_score, {}),
        (mlcm_f1_score, {}),
        (mlcm_fbeta_score, {"beta": 2.0}),
    )
}


def _statistic(y_true, y_pred, sample_weight=None, labels=None, *, name):
    """One registry statistic of every index of the (Heydarian) MLCM."""
    cm = mlcm_confusion_matrix(
        y_true, y_pred, sample_weight=sample_weight, labels=labels
    )
    return confusion_matrix_statistics(cm, zero_division=0.0)[name]


# Every entry of the statistics' registry, read off the MLCM: one array of
# q+1 values, the no-label index last.
STATISTIC_METRICS = {
    f"confusion_matrix_statistics[{name}]": partial(_statistic, name=name)
    for name in STATISTICS
}


def _accumulated(y_true, y_pred, sample_weight=None, *, method):
    """The accumulator's matrix, fed the first half and then the rest."""
    half = len(y_true) // 2
    parts = [slice(0, half), slice(half, None)]
    weight = None if sample_weight is None else np.asarray(sample_weight)
    acc = MLCMAccumulator(np.shape(y_true)[1], method=method)
    for part in parts:
        acc.update(
            y_true[part],
            y_pred[part],
            None if weight is None else weight[part],
        )
    return acc.confusion_matrix


ACCUMULATOR_METRICS = {
    f"MLCMAccumulator[{method}]": partial(_accumulated, method=method)
    for method in METHODS
}


def _replicated(y_true, y_pred, sample_weight=None, *, method):
    """The (5, 3, q+1) margins of the accumulator's Poisson bootstrap
    replicates (one seed), fed the first half and then the rest. A row's
    weights follow its position, so the instance order and repeated rows
    change them: these take part only in the invariances that keep rows."""
    half = len(y_true) // 2
    weight = None if sample_weight is None else np.asarray(sample_weight)
    acc = MLCMAccumulator(
        np.shape(y_true)[1], method=method, n_resamples=5, random_state=0
    )
    for part in (slice(0, half), slice(half, None)):
        acc.update(y_true[part], y_pred[part], None if weight is None else weight[part])
    return acc._replicates


REPLICATE_METRICS = {
    f"MLCMAccumulator replicates[{method}]": partial(_replicated, method=method)
    for method in METHODS
}
# Measures without weights or labels: invariant, not equivariant, under label
# permutation; the ranking measures need scores and are left out here.
MEASURE_METRICS = {
    "multilabel_measures": partial(
        multilabel_measures,
        measures=[
            "hamming_loss",
            "accuracy",
            "precision",
            "recall",
            "f1",
            "subset_accuracy",
            "micro_precision",
            "micro_recall",
            "micro_f1",
            "macro_precision",
            "macro_recall",
            "macro_f1",
            "mlcm_micro_f1",
            "mlcm_macro_f1",
        ],
        zero_division=0.0,
    )
}
# Everything that takes sample_weight and labels; everything that takes targets.
WEIGHTED_METRICS = {
    **MATRIX_METRICS,
    **REPORT_METRICS,
    **SCORES,
    **SAMPLES_METRICS,
    **STATISTIC_METRICS,
}
ALL_METRICS = {**WEIGHTED_METRICS, **ACCUMULATOR_METRICS, **MEASURE_METRICS}
# With the replicates: for the invariances that keep the rows and their order.
ROW_KEEPING_METRICS = {**ALL_METRICS, **REPLICATE_METRICS}

# Every accepted form of an indicator matrix.
INPUT_FORMATS = {
    "list": lambda y: y.tolist(),
    "ndarray": lambda y: y,
    "fortran_ndarray": np.asfortranarray,
    "csr_matrix": sparse.csr_matrix,
    "csc_matrix": sparse.csc_matrix,
    "csr_array": sparse.csr_array,
    "csc_array": sparse.csc_array,
    "coo_matrix": sparse.coo_matrix,
    "csr_explicit_zeros": lambda y: sparse.csr_matrix(
        (y.ravel(), tuple(i.ravel() for i in np.indices(y.shape))), shape=y.shape
    ),
    "dataframe": pd.DataFrame,
}
INPUT_DTYPES = (bool, np.int8, np.int64, np.float32, np.float64)

HYPOTHESIS = settings(max_examples=50, deadline=None)


def _values(result):
    """A metric's output as an array; a report as its (rows, 5) value table,
    the measures as their values."""
    if isinstance(result, dict):
        if all(isinstance(v, float) for v in result.values()):
            return np.array(list(result.values()))
        return np.array([[row[h] for h in REPORT_HEADERS] for row in result.values()])
    return np.asarray(result)


def _call(name, metric, y_true, y_pred, weight=None, **kwargs):
    """The metric, with sample_weight only where it takes one."""
    if name in MEASURE_METRICS:
        assert weight is None
        # Madjarov's measures are defined for two labels or more
        assume(np.shape(y_true)[1] >= 2)
        return metric(y_true, y_pred, **kwargs)
    return metric(y_true, y_pred, sample_weight=weight, **kwargs)


def _assert_same(actual, expected):
    """Counts (an integer array on either side) exactly, anything else closely."""
    if isinstance(expected, dict):
        assert list(actual) == list(expected)
    actual, expected = _values(actual), _values(expected)
    assert actual.shape == expected.shape
    if actual.dtype.kind in "iu" or expected.dtype.kind in "iu":
        assert_array_equal(actual, expected)
    else:
        assert_allclose(actual, expected, rtol=1e-10, atol=1e-10)


def _permute_labels(name, values, perm):
    """Where label j of the permuted data sits in the original output."""
    q = len(perm)
    index = [*perm, q]
    if name in REPLICATE_METRICS:
        return values[..., index]
    if name.startswith(("mlcm_confusion_matrix", "MLCMAccumulator")):
        return values[np.ix_(index, index)]
    if name.startswith("mlcm_multilabel_confusion_matrix") or name in STATISTIC_METRICS:
        return values[index]
    if name in SCORES:
        return values[list(perm)]
    if name in MEASURE_METRICS or name in SAMPLES_METRICS:
        return values
    return values[[*perm, *range(q, q + len(REPORT_AVERAGES))]]


@pytest.mark.parametrize("name", ALL_METRICS)
@HYPOTHESIS
@given(data=st.data())
def test_all_metrics_instance_order_invariance(name, data, mlcm_strategies):
    """Shuffling the instances (with their weights) changes no output."""
    metric = ALL_METRICS[name]
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(weighted=False if name in MEASURE_METRICS else None)
    )
    order = np.array(data.draw(st.permutations(range(len(y_true)))))
    shuffled_weight = None if weight is None else weight[order]
    _assert_same(
        _call(name, metric, y_true[order], y_pred[order], shuffled_weight),
        _call(name, metric, y_true, y_pred, weight),
    )


@pytest.mark.parametrize("name", ROW_KEEPING_METRICS)
@HYPOTHESIS
@given(data=st.data())
def test_all_metrics_label_permutation_equivariance(name, data, mlcm_strategies):
    """Permuting label columns permutes the outputs; the no-label index stays."""
    metric = ROW_KEEPING_METRICS[name]
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(weighted=False if name in MEASURE_METRICS else None)
    )
    perm = data.draw(st.permutations(range(y_true.shape[1])))
    permuted = _call(name, metric, y_true[:, perm], y_pred[:, perm], weight)
    original = _values(_call(name, metric, y_true, y_pred, weight))
    _assert_same(_values(permuted), _permute_labels(name, original, perm))


@pytest.mark.parametrize(
    "name", {**WEIGHTED_METRICS, **ACCUMULATOR_METRICS, **REPLICATE_METRICS}
)
@HYPOTHESIS
@given(data=st.data())
def test_all_metrics_unit_weights_equal_no_weights(name, data, mlcm_strategies):
    """sample_weight of ones gives the values of no sample_weight."""
    metric = ROW_KEEPING_METRICS[name]
    y_true, y_pred, _ = data.draw(mlcm_strategies.cases(weighted=False))
    _assert_same(
        metric(y_true, y_pred, sample_weight=np.ones(len(y_true))),
        metric(y_true, y_pred),
    )


@pytest.mark.parametrize("name", {**WEIGHTED_METRICS, **ACCUMULATOR_METRICS})
@HYPOTHESIS
@given(data=st.data())
def test_all_metrics_integer_weights_equal_repeated_rows(name, data, mlcm_strategies):
    """An integer weight k equals the instance repeated k times (0: dropped)."""
    metric = ALL_METRICS[name]
    y_true, y_pred, _ = data.draw(mlcm_strategies.cases(weighted=False))
    weight = data.draw(mlcm_strategies.weights(len(y_true), integer=True))
    assume(weight.sum() > 0)
    _assert_same(
        metric(y_true, y_pred, sample_weight=weight),
        metric(np.repeat(y_true, weight, axis=0), np.repeat(y_pred, weight, axis=0)),
    )


@pytest.mark.parametrize("input_format", INPUT_FORMATS)
@pytest.mark.parametrize("name", ROW_KEEPING_METRICS)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_all_metrics_input_format_invariance(name, input_format, data, mlcm_strategies):
    """Lists, arrays, sparse matrices and DataFrames of any dtype agree."""
    metric = ROW_KEEPING_METRICS[name]
    convert = INPUT_FORMATS[input_format]
    y_true, y_pred, weight = data.draw(
        mlcm_strategies.cases(weighted=False if name in MEASURE_METRICS else None)
    )
    accumulated = {**ACCUMULATOR_METRICS, **REPLICATE_METRICS}
    if name in accumulated and input_format.startswith(("csr", "csc", "coo")):
        convert = INPUT_FORMATS["ndarray"]  # batches are sliced as arrays here
    expected = _call(name, metric, y_true, y_pred, weight)
    for dtype in INPUT_DTYPES:
        result = _call(
            name,
            metric,
            convert(y_true.astype(dtype)),
            convert(y_pred.astype(dtype)),
            None if weight is None else list(weight),
        )
        if isinstance(expected, float):  # an average: a Python float
            assert type(result) is float, dtype
        elif not isinstance(expected, dict):
            assert result.dtype == expected.dtype, dtype
        # Counts exactly; sparse input takes its own (sparse) kernel, whose
        # float sums may differ from the dense ones in the last bit.
        _assert_same(result, expected)


@pytest.mark.parametrize("name", {**MATRIX_METRICS, **ACCUMULATOR_METRICS})
@HYPOTHESIS
@given(data=st.data())
def test_matrix_metrics_concatenation_is_sum_of_parts(name, data, mlcm_strategies):
    """The matrices of a concatenation are the sums of the parts' matrices."""
    metric = ALL_METRICS[name]
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_samples=20))
    n = len(y_true)
    cuts = sorted(data.draw(st.sets(st.integers(1, max(n - 1, 1)), max_size=3)))
    bounds = [0, *(c for c in cuts if c < n), n]
    parts = [
        metric(
            y_true[a:b],
            y_pred[a:b],
            sample_weight=None if weight is None else weight[a:b],
        )
        for a, b in zip(bounds, bounds[1:])
    ]
    _assert_same(sum(parts), metric(y_true, y_pred, sample_weight=weight))


@pytest.mark.parametrize("name", WEIGHTED_METRICS)
@HYPOTHESIS
@given(data=st.data())
def test_all_metrics_labels_equal_column_selection(name, data, mlcm_strategies):
    """labels=idx gives the values of the columns y[:, idx], named by idx."""
    metric = ALL_METRICS[name]
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    q = y_true.shape[1]
    idx = data.draw(
        st.lists(st.integers(0, q - 1), min_size=1, max_size=q, unique=True)
    )
    result = metric(y_true, y_pred, labels=idx, sample_weight=weight)
    expected = metric(y_true[:, idx], y_pred[:, idx], sample_weight=weight)
    _assert_same(_values(result), _values(expected))
    if isinstance(result, dict):
        assert list(result) == [str(i) for i in idx] + list(REPORT_AVERAGES)


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_mlcm_multilabel_confusion_matrix_fn_total_equals_fp_total(
    method, data, mlcm_strategies
):
    """Every FN is some label's FP: the FN and FP totals agree (Heydarian III.D)."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    mcm = mlcm_multilabel_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight
    )
    q = y_true.shape[1]
    assert mcm.shape == (q + 1, 2, 2)
    _assert_same(mcm[:, 1, 0].sum(), mcm[:, 0, 1].sum())


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_mlcm_multilabel_confusion_matrix_diagonal_tn_total_is_q_times_tp_total(
    method, data, mlcm_strategies
):
    """With tn="diagonal" (eq. 16), sum TN = q x sum TP for q labels."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases())
    mcm = mlcm_multilabel_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight, tn="diagonal"
    )
    q = y_true.shape[1]
    _assert_same(mcm[:, 0, 0].sum(), q * mcm[:, 1, 1].sum())
    cm = mlcm_confusion_matrix(y_true, y_pred, method=method, sample_weight=weight)
    _assert_same(mcm[:, 1, 1], np.diagonal(cm))


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@pytest.mark.parametrize("classes", [(0, 1, 2, 3, 4), ("a", "b", "c")])
@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_multiclass_is_confusion_matrix(
    method, classes, data, mlcm_strategies
):
    """1-D targets: sklearn's confusion_matrix top-left, zeros in NTL and NPL."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass(classes=classes))
    result = mlcm_confusion_matrix(y_true, y_pred, method=method, sample_weight=weight)
    expected = confusion_matrix(y_true, y_pred, sample_weight=weight)
    q = expected.shape[0]
    assert result.shape == (q + 1, q + 1)
    _assert_same(result[:q, :q], expected)
    assert_array_equal(result[q], 0)
    assert_array_equal(result[:, q], 0)


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@pytest.mark.parametrize("classes", [(0, 1, 2, 3, 4), ("a", "b", "c")])
@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_mlcm_confusion_matrix_multiclass_labels_subset(
    method, classes, data, mlcm_strategies
):
    """1-D targets, labels=subset: confusion_matrix(labels=subset) top-left.

    The instances with a class outside the subset have an empty set there: a
    true class outside goes to the NTL row, a predicted class outside to the
    NPL column.
    """
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass(classes=classes))
    subset = data.draw(
        st.lists(
            st.sampled_from(classes), min_size=1, max_size=len(classes), unique=True
        )
    )
    assume(np.isin(subset, y_true).any())
    result = mlcm_confusion_matrix(
        y_true, y_pred, method=method, labels=subset, sample_weight=weight
    )
    q = len(subset)
    assert result.shape == (q + 1, q + 1)
    expected = confusion_matrix(y_true, y_pred, labels=subset, sample_weight=weight)
    _assert_same(result[:q, :q], expected)
    w = np.ones(len(y_true)) if weight is None else weight
    true_out, pred_out = ~np.isin(y_true, subset), ~np.isin(y_pred, subset)
    ntl = [w[true_out & (y_pred == c)].sum() for c in subset]
    npl = [w[(y_true == c) & pred_out].sum() for c in subset]
    _assert_same(result[q], np.array([*ntl, w[true_out & pred_out].sum()]))
    _assert_same(result[:q, q], np.array(npl))


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_mlcm_multilabel_confusion_matrix_multiclass_is_sklearn_complement(
    method, data, mlcm_strategies
):
    """1-D targets, tn="complement": sklearn's multilabel_confusion_matrix."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass())
    result = mlcm_multilabel_confusion_matrix(
        y_true, y_pred, method=method, sample_weight=weight, tn="complement"
    )
    expected = multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight)
    q = len(expected)
    assert result.shape == (q + 1, 2, 2)
    _assert_same(result[:q], expected)


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_mlcm_classification_report_multiclass_is_classification_report(
    method, data, mlcm_strategies
):
    """1-D targets: sklearn's report; micro avg = accuracy, weight = support."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.multiclass())
    result = mlcm_classification_report(
        y_true,
        y_pred,
        method=method,
        sample_weight=weight,
        output_dict=True,
        zero_division=0.0,
    )
    expected = classification_report(
        y_true, y_pred, sample_weight=weight, output_dict=True, zero_division=0.0
    )
    accuracy = expected.pop("accuracy")
    assert set(result) == {*expected, "micro avg"}
    for key, row in expected.items():
        for header, value in row.items():
            assert_allclose(result[key][header], value, rtol=1e-10, err_msg=key)
        assert_allclose(result[key]["weight"], row["support"], rtol=1e-10)
    for header in ("precision", "recall", "f1-score"):
        assert_allclose(result["micro avg"][header], accuracy, rtol=1e-10)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("zero_division", [0.0, 1.0])
def test_mlcm_classification_report_zero_weights_no_nan(method, zero_division):
    """All label weights zero: zero_division is honoured, no average is NaN.

    scikit-learn's classification_report falls back to the unweighted mean
    when every support is zero; a NaN here is neither that nor zero_division.
    """
    report = mlcm_classification_report(
        [[0, 0]],
        [[0, 1]],
        method=method,
        output_dict=True,
        zero_division=zero_division,
    )
    assert not np.isnan(_values(report)).any(), report


# -- functions of scores: the decision rules and the threshold curve (issue #18)

# Each takes (y_true, y_score, sample_weight) and returns its outputs as a
# tuple of arrays, with what they are indexed by: "rows" (instances), "labels"
# or nothing (invariant). decide_labels takes no weights (None only).
SCORE_FUNCTIONS = {
    "decide_labels": (
        lambda y_true, y_score, sample_weight: (
            decide_labels(
                y_score,
                threshold=0.5,
                top_k=min(2, np.shape(y_score)[1]),
                at_least_one=True,
            ),
        ),
        (("rows", "labels"),),
    ),
    **{
        f"mlcm_threshold_curve[{method}]": (
            partial(
                lambda y_true, y_score, sample_weight, method: (
                    lambda result: (result.scores, result.label_scores)
                )(
                    mlcm_threshold_curve(
                        y_true,
                        y_score,
                        thresholds=[0.2, 0.4, 0.6, 0.8],
                        method=method,
                        sample_weight=sample_weight,
                    )
                ),
                method=method,
            ),
            ((), (None, "labels")),
        )
        for method in METHODS
    },
}
WEIGHTED_SCORE_FUNCTIONS = [name for name in SCORE_FUNCTIONS if "curve" in name]


def _scored_case(data, mlcm_strategies, weighted):
    """y_true (n, q) bool, continuous scores (no ties) and weights."""
    y_true, _, weight = data.draw(mlcm_strategies.cases(weighted=weighted))
    seed = data.draw(st.integers(0, 2**32 - 1))
    y_score = np.random.RandomState(seed).uniform(size=y_true.shape)
    return y_true, y_score, weight


def _permuted(values, axes, rows=None, labels=None):
    """``values`` with its "rows" and "labels" axes re-indexed."""
    index = [slice(None)] * values.ndim
    for axis, kind in enumerate(axes):
        if kind == "rows" and rows is not None:
            index[axis] = rows
        if kind == "labels" and labels is not None:
            index[axis] = labels
    return values[tuple(index)]


@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
@HYPOTHESIS
@given(data=st.data())
def test_score_functions_instance_order(name, data, mlcm_strategies):
    """Shuffling the instances (with their weights) shuffles the predictions
    and leaves the curve unchanged."""
    func, axes = SCORE_FUNCTIONS[name]
    weighted = None if name in WEIGHTED_SCORE_FUNCTIONS else False
    y_true, y_score, weight = _scored_case(data, mlcm_strategies, weighted)
    order = np.array(data.draw(st.permutations(range(len(y_true)))))
    shuffled = func(
        y_true[order], y_score[order], None if weight is None else weight[order]
    )
    for got, expected, kinds in zip(shuffled, func(y_true, y_score, weight), axes):
        _assert_same(got, _permuted(expected, kinds, rows=order))


@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
@HYPOTHESIS
@given(data=st.data())
def test_score_functions_label_permutation(name, data, mlcm_strategies):
    """Permuting the label columns permutes the per-label outputs (scores
    without ties: top_k and at_least_one break ties by label order)."""
    func, axes = SCORE_FUNCTIONS[name]
    weighted = None if name in WEIGHTED_SCORE_FUNCTIONS else False
    y_true, y_score, weight = _scored_case(data, mlcm_strategies, weighted)
    perm = data.draw(st.permutations(range(y_true.shape[1])))
    permuted = func(y_true[:, perm], y_score[:, perm], weight)
    for got, expected, kinds in zip(permuted, func(y_true, y_score, weight), axes):
        _assert_same(got, _permuted(expected, kinds, labels=perm))


@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_score_functions_frames_equal_arrays(name, data, mlcm_strategies):
    """DataFrames (labels named, the scores' columns in another order) and
    sparse true labels give the arrays' outputs."""
    func, _ = SCORE_FUNCTIONS[name]
    y_true, y_score, weight = _scored_case(data, mlcm_strategies, False)
    names = [f"label {j}" for j in range(y_true.shape[1])]
    scores = pd.DataFrame(y_score, columns=names)
    frames = func(pd.DataFrame(y_true, columns=names), scores[names[::-1]], weight)
    if name == "decide_labels":  # the scores' own column order
        frames = func(None, scores, weight)
    for got, expected in zip(frames, func(y_true, y_score, weight)):
        _assert_same(got, expected)
    for got, expected in zip(
        func(sparse.csr_array(y_true), y_score, weight), func(y_true, y_score, weight)
    ):
        _assert_same(got, expected)


@pytest.mark.parametrize("name", WEIGHTED_SCORE_FUNCTIONS)
@HYPOTHESIS
@given(data=st.data())
def test_score_functions_unit_weights_equal_no_weights(name, data, mlcm_strategies):
    """sample_weight of ones gives the curve of no sample_weight."""
    func, _ = SCORE_FUNCTIONS[name]
    y_true, y_score, _ = _scored_case(data, mlcm_strategies, False)
    for got, expected in zip(
        func(y_true, y_score, np.ones(len(y_true))), func(y_true, y_score, None)
    ):
        _assert_same(got, expected)


@pytest.mark.parametrize("name", WEIGHTED_SCORE_FUNCTIONS)
@HYPOTHESIS
@given(data=st.data())
def test_score_functions_integer_weights_equal_repeated_rows(
    name, data, mlcm_strategies
):
    """An integer weight k equals the instance repeated k times."""
    func, _ = SCORE_FUNCTIONS[name]
    y_true, y_score, _ = _scored_case(data, mlcm_strategies, False)
    weight = data.draw(mlcm_strategies.weights(len(y_true), integer=True))
    assume(weight.sum() > 0)
    repeated = func(
        np.repeat(y_true, weight, axis=0), np.repeat(y_score, weight, axis=0), None
    )
    for got, expected in zip(func(y_true, y_score, weight), repeated):
        _assert_same(got, expected)
