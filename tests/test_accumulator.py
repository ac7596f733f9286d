"""MLCMAccumulator: any split of the batches gives the one-shot matrix."""

import re

import numpy as np
import pytest
from _oracles import assert_matches_oracle, heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy import sparse

from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mlcm_accumulator_any_split_equals_one_shot(method, data, mlcm_strategies):
    """Batches split anywhere (empty ones too) add up to the oracle's matrix."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=6))
    n = len(y_true)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    acc = MLCMAccumulator(y_true.shape[1], method=method)
    for start, stop in zip([0, *cuts], [*cuts, n]):
        w = None if weight is None else weight[start:stop]
        acc.update(y_true[start:stop], y_pred[start:stop], sample_weight=w)
    assert acc.n_samples_ == n
    expected = ORACLES[method](y_true, y_pred, weight)
    assert_matches_oracle(acc.confusion_matrix, expected, method, weight is not None)


def test_mlcm_accumulator_merge_add_and_reset():
    """merge and + combine accumulators; reset starts over."""
    a = MLCMAccumulator(3).update(TABLE_1_TRUE[:4], TABLE_1_PRED[:4])
    b = MLCMAccumulator(3).update(TABLE_1_TRUE[4:], TABLE_1_PRED[4:])
    total = a + b
    assert_array_equal(total.confusion_matrix, TABLE_4J)
    assert total.n_samples_ == 9
    assert a.n_samples_ == 4  # + makes a new accumulator
    a.merge(b)
    assert_array_equal(a.confusion_matrix, TABLE_4J)
    a.reset()
    assert a.n_samples_ == 0 and not a.confusion_matrix.any()
    assert "MLCMAccumulator(n_labels=3, method='heydarian')" in repr(a)


def test_mlcm_accumulator_weights_sparse_and_dtype():
    """A weighted batch turns counts into float64; sparse_output stays sparse."""
    acc = MLCMAccumulator(3, sparse_output=True)
    acc.update(sparse.csr_array(np.array(TABLE_1_TRUE)), np.array(TABLE_1_PRED))
    assert sparse.issparse(acc.confusion_matrix)
    assert_array_equal(acc.confusion_matrix.toarray(), TABLE_4J)
    dense = MLCMAccumulator(3).update(TABLE_1_TRUE, TABLE_1_PRED)
    assert dense.confusion_matrix.dtype == np.int64
    dense.update(TABLE_1_TRUE, TABLE_1_PRED, sample_weight=np.full(9, 0.5))
    assert dense.confusion_matrix.dtype == np.float64
    assert_allclose(dense.confusion_matrix, 1.5 * np.array(TABLE_4J))


def test_mlcm_accumulator_errors():
    """Mismatched label counts, 1-D batches and bad arguments raise."""
    acc = MLCMAccumulator(3)
    with pytest.raises(ValueError, match="update must have the accumulator's 3 label"):
        acc.update([[1, 0]], [[1, 0]])
    with pytest.raises(ValueError, match="must be 2-D indicator matrices"):
        acc.update([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="y_pred .*only 0 and 1"):
        acc.update([[1, 0, 0]], [[2, 0, 0]])
    with pytest.raises(ValueError, match="same number of label columns"):
        acc.update([[1, 0, 0]], [[1, 0]])
    with pytest.raises(TypeError, match=r"'n_labels' .*int in the range \[1, inf\)"):
        MLCMAccumulator(2.5)
    with pytest.raises(ValueError, match="'n_labels' .*Got 0"):
        MLCMAccumulator(0)
    with pytest.raises(ValueError, match="'method' parameter of MLCMAccumulator"):
        MLCMAccumulator(3, method="foo")
    with pytest.raises(ValueError, match="same n_labels and method"):
        acc.merge(MLCMAccumulator(4))
    with pytest.raises(TypeError, match="'other' parameter of MLCMAccumulator.merge"):
        acc.merge(np.zeros((4, 4)))
    assert acc.__add__(1) is NotImplemented


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_mlcm_accumulator_report_equals_one_shot_report(method, data, mlcm_strategies):
    """The accumulator's report is the report of all the batches at once:
    exactly for integer counts, up to float rounding for fractional sums."""
    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_samples=16))
    n = len(y_true)
    cuts = sorted(data.draw(st.sets(st.integers(0, n), max_size=3)))
    bounds = [0, *cuts, n]
    acc = MLCMAccumulator(y_true.shape[1], method=method)
    for a, b in zip(bounds, bounds[1:]):
        acc.update(y_true[a:b], y_pred[a:b], None if weight is None else weight[a:b])
    options = {
        "zero_division": data.draw(st.sampled_from([0.0, 1.0])),
        "include_no_label": data.draw(st.booleans()),
        "digits": data.draw(st.integers(0, 5)),
    }
    one_shot = dict(method=method, sample_weight=weight, **options)
    for output_dict in (False, True):
        expected = mlcm_classification_report(
            y_true, y_pred, output_dict=output_dict, **one_shot
        )
        actual = acc.classification_report(output_dict=output_dict, **options)
        exact = method == "heydarian" and weight is None  # integer counts
        if exact:
            assert actual == expected
        elif output_dict:  # float sums added in another order: last bits
            assert list(actual) == list(expected)
            for name in expected:
                for key, value in expected[name].items():
                    assert type(actual[name][key]) is float
                    assert_allclose(actual[name][key], value, rtol=1e-9, atol=1e-12)


def test_mlcm_accumulator_report_before_any_batch():
    """A report of nothing is refused, as scikit-learn's unfitted estimators."""
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="has seen no instance yet"):
        MLCMAccumulator(3).classification_report()


def test_mlcm_accumulator_report_target_names():
    """target_names name the rows; a wrong count is refused."""
    acc = MLCMAccumulator(3).update(TABLE_1_TRUE, TABLE_1_PRED)
    options = {"target_names": ["C0", "C1", "C2"], "zero_division": 0.0}
    report = acc.classification_report(**options)
    assert report == mlcm_classification_report(TABLE_1_TRUE, TABLE_1_PRED, **options)
    with pytest.raises(ValueError, match="'target_names' .*3 expected, got 2"):
        acc.classification_report(target_names=["a", "b"])


@pytest.mark.parametrize(
    "y_pred, weight, match",
    [
        ([[1, 0]] * 5, None, r"must have the shape of y_true, \(0, 3\)"),
        ("garbage", None, "'y_pred' parameter of MLCMAccumulator.update"),
        (np.zeros((0, 3)), ["a"], "'sample_weight' .*real numbers"),
        (np.zeros((0, 3)), [1.0, 2.0], "'sample_weight' .*length n_samples=0"),
        (np.zeros((0, 2)), None, r"must have the shape of y_true, \(0, 3\)"),
    ],
)
def test_mlcm_accumulator_empty_batch_is_validated(y_pred, weight, match):
    """An empty y_true does not let a wrong y_pred or weights through."""
    acc = MLCMAccumulator(3)
    with pytest.raises((ValueError, TypeError), match=match):
        acc.update(np.zeros((0, 3)), y_pred, sample_weight=weight)
    acc.update(np.zeros((0, 3)), np.zeros((0, 3)), sample_weight=[])
    assert acc.n_samples_ == 0


@pytest.mark.parametrize("sparse_output", [False, True])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_mlcm_accumulator_is_thread_safe(method, sparse_output):
    """4 threads x 1,000 single-row batches lose no update."""
    import threading

    rng = np.random.default_rng(0)
    rows = rng.integers(0, 2, size=(4, 1000, 2, 3)).astype(bool)
    acc = MLCMAccumulator(3, method=method, sparse_output=sparse_output)
    barrier = threading.Barrier(4)

    def work(batches):
        barrier.wait()
        for y_true, y_pred in batches:
            acc.update(y_true[None], y_pred[None])

    threads = [threading.Thread(target=work, args=(rows[i],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flat = rows.reshape(-1, 2, 3)
    expected = mlcm_confusion_matrix(flat[:, 0], flat[:, 1], method=method)
    result = acc.confusion_matrix
    result = result.toarray() if sparse_output else result
    assert acc.n_samples_ == 4000
    assert_allclose(result, expected, rtol=1e-12)
    assert acc.classification_report(zero_division=0.0) == (
        mlcm_classification_report(
            flat[:, 0], flat[:, 1], method=method, zero_division=0.0
        )
    )


def test_mlcm_accumulator_pickles_and_merges_names():
    """A pickled accumulator has its own lock; merge aligns label names."""
    import pickle

    pd = pytest.importorskip("pandas")
    names = ["a", "b", "c"]
    t, p = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
    first = MLCMAccumulator(3).update(
        pd.DataFrame(t[:4], columns=names), pd.DataFrame(p[:4], columns=names)
    )
    second = MLCMAccumulator(3).update(
        pd.DataFrame(t[4:, ::-1], columns=names[::-1]),
        pd.DataFrame(p[4:, ::-1], columns=names[::-1]),
    )
    copy = pickle.loads(pickle.dumps(first))
    copy.merge(second)
    assert_array_equal(copy.confusion_matrix, TABLE_4J)
    assert copy.target_names_ == names
    assert first.n_samples_ == 4  # the original is untouched


def _state(acc):
    """Everything an update may change, as comparable values."""
    matrix = acc.confusion_matrix
    matrix = matrix.toarray() if sparse.issparse(matrix) else matrix
    return (
        matrix.tolist(),
        str(matrix.dtype),
        acc._supports.tolist(),
        acc._no_label_support,
        acc.n_samples_,
        acc.target_names_,
    )


def _frame(y, names):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(np.asarray(y), columns=names)


T3, P3 = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
# Refused updates: (name, args of update, message), on 3 labels.
REFUSED_UPDATES = {
    "bad_value": (lambda: (np.where(T3 == 1, 2, 0), P3), "only 0 and 1"),
    "bad_value_frame": (
        lambda: (_frame(np.where(T3 == 1, 2, 0), list("abc")), _frame(P3, list("abc"))),
        "only 0 and 1",
    ),
    "nan_frame": (
        lambda: (
            _frame(np.where(T3 == 1, np.nan, 0), list("abc")),
            _frame(P3, list("abc")),
        ),
        "NaN",
    ),
    "other_names": (
        lambda: (_frame(T3, list("abz")), _frame(P3, list("abz"))),
        "different columns|accumulator's labels",
    ),
    "str_names": (
        lambda: (_frame(T3, ["0", "1", "2"]), _frame(P3, ["0", "1", "2"])),
        "differ only in type|accumulator's labels",
    ),
    "mixed_frame_array": (
        lambda: (_frame(T3, list("abc")), P3),
        "is a frame .* array",
    ),
    "short_pred": (lambda: (T3, P3[:-1]), "same number of samples"),
    "bad_weight": (lambda: (T3, P3, -np.ones(len(T3))), "non-negative"),
    "weight_length": (lambda: (T3, P3, np.ones(2)), "n_samples"),
    "wrong_columns": (lambda: (T3[:, :2], P3[:, :2]), "3 label columns"),
    "class_labels": (lambda: (T3[:, 0], P3[:, 0]), "2-D"),
    "empty_bad_pred": (lambda: (T3[:0], np.zeros((0, 2))), "shape of y_true"),
    "empty_bad_weight": (lambda: (T3[:0], P3[:0], np.ones(1)), "n_samples"),
}
# The accumulator before the refused update: fresh, after arrays, after frames.
BEFORE = {
    "fresh": lambda: MLCMAccumulator(3),
    "arrays": lambda: MLCMAccumulator(3).update(T3[:4], P3[:4], np.full(4, 2)),
    "frames": lambda: MLCMAccumulator(3).update(
        _frame(T3[:4], list("abc")), _frame(P3[:4], list("abc"))
    ),
    "int_frames": lambda: MLCMAccumulator(3).update(
        _frame(T3[:4], [0, 1, 2]), _frame(P3[:4], [0, 1, 2])
    ),
}


# Valid on a fresh accumulator: the first frame batch names the labels.
VALID_UPDATES = {("other_names", "fresh"), ("str_names", "fresh")}


@pytest.mark.parametrize(
    "before, refused",
    [
        (before, refused)
        for before in BEFORE
        for refused in REFUSED_UPDATES
        if (refused, before) not in VALID_UPDATES
    ],
)
@pytest.mark.parametrize("sparse_output", [False, True])
def test_mlcm_accumulator_refused_update_changes_nothing(
    before, refused, sparse_output
):
    """All or nothing: an update that raises leaves the matrix, the supports,
    the count and the label names as they were (a refused first frame batch
    does not fix target_names_)."""
    acc = BEFORE[before]()
    if sparse_output:
        acc = MLCMAccumulator(3, sparse_output=True).merge(acc)
    make, match = REFUSED_UPDATES[refused]
    args = make()
    state = _state(acc)
    try:
        acc.update(*args)
    except (ValueError, TypeError) as exc:
        assert "'labels' parameter" not in str(exc)
        assert re.search(match, str(exc)) or re.search(
            "frame|array|accumulator", str(exc)
        ), str(exc)
    else:
        pytest.fail(f"{refused} was accepted after {before}")
    assert _state(acc) == state


def test_mlcm_accumulator_refused_first_frame_keeps_no_names():
    """A refused first frame batch leaves target_names_ None: a later frame
    batch of other names is accepted."""
    acc = MLCMAccumulator(3)
    with pytest.raises(ValueError, match="only 0 and 1"):
        acc.update(_frame(T3 * 2, list("abc")), _frame(P3, list("abc")))
    assert acc.target_names_ is None
    acc.update(_frame(T3, list("xyz")), _frame(P3, list("xyz")))
    assert acc.target_names_ == list("xyz")
    assert_array_equal(acc.confusion_matrix, TABLE_4J)


def test_mlcm_accumulator_names_differing_in_type_are_refused():
    """Label names [0, 1, 2] against ['0', '1', '2']: a clear error (merge
    raised KeyError; update blamed a 'labels' parameter never passed)."""
    ints = MLCMAccumulator(3).update(_frame(T3, [0, 1, 2]), _frame(P3, [0, 1, 2]))
    strs = MLCMAccumulator(3).update(
        _frame(T3, ["0", "1", "2"]), _frame(P3, ["0", "1", "2"])
    )
    state = _state(ints)
    match = r"differ only in type \('0' against 0\)"
    with pytest.raises(ValueError, match=match) as info:
        ints.merge(strs)
    assert "'labels' parameter" not in str(info.value)
    assert _state(ints) == state
    with pytest.raises(ValueError, match=r"differ only in type") as info:
        ints.update(_frame(T3, ["0", "1", "2"]), _frame(P3, ["0", "1", "2"]))
    assert "'labels' parameter" not in str(info.value)
    assert _state(ints) == state


def test_mlcm_accumulator_frames_and_arrays_are_not_mixed():
    """Array batches after frame batches (or the reverse, or in a merge) are
    refused: an array's columns cannot be matched to the label names."""
    frames = BEFORE["frames"]()
    arrays = BEFORE["arrays"]()
    with pytest.raises(ValueError, match="frames with the columns"):
        frames.update(T3, P3)
    with pytest.raises(ValueError, match="array batches"):
        arrays.update(_frame(T3, list("abc")), _frame(P3, list("abc")))
    for mine, other in ((frames, arrays), (arrays, frames)):
        state = _state(mine)
        with pytest.raises(ValueError, match="array batches|frames with the columns"):
            mine.merge(other)
        assert _state(mine) == state
    # a fresh accumulator takes either, and so does an empty one in a merge
    assert MLCMAccumulator(3).merge(frames).target_names_ == list("abc")
    assert frames.merge(MLCMAccumulator(3)).n_samples_ == 4


def test_mlcm_accumulator_first_frames_racing_are_aligned(monkeypatch):
    """Two first frame batches in other column orders, the second named while
    the first is being counted (as by another thread), add up by name."""
    import sklearn_mlcm._accumulator as module

    acc = MLCMAccumulator(3)
    compute = module.compute
    order = [2, 0, 1]
    names = [list("abc")[i] for i in order]

    def racing_compute(*args, **kwargs):
        monkeypatch.setattr(module, "compute", compute)
        acc.update(_frame(T3[4:], list("abc")), _frame(P3[4:], list("abc")))
        return compute(*args, **kwargs)

    monkeypatch.setattr(module, "compute", racing_compute)
    acc.update(_frame(T3[:4, order], names), _frame(P3[:4, order], names))
    assert acc.target_names_ == list("abc")
    assert_array_equal(acc.confusion_matrix, TABLE_4J)
    assert acc.n_samples_ == len(T3)


@pytest.mark.parametrize(
    "other", [MLCMAccumulator(2), MLCMAccumulator(3, method="krstinic")]
)
def test_mlcm_accumulator_refused_merge_changes_nothing(other):
    """A merge refused for its n_labels or method leaves the state as it was."""
    acc = BEFORE["frames"]()
    state = _state(acc)
    with pytest.raises(ValueError, match="same n_labels and method"):
        acc.merge(other)
    assert _state(acc) == state


def test_mlcm_accumulator_running_total_overflow_is_refused():
    """Batches whose running total would overflow float64 are refused, and the
    refused batch changes nothing (#16 item 3)."""
    from sklearn_mlcm import InvalidInputError

    acc = MLCMAccumulator(2)
    refused = False
    for _ in range(40):  # 1e307 per batch: the 2nd passes the one-shot bound
        before = acc.confusion_matrix, acc.n_samples_
        try:
            acc.update([[1, 0]], [[1, 0]], sample_weight=[1e307])
        except InvalidInputError as exc:
            assert "running matrix's total within float64" in str(exc)
            refused = True
            break
    assert refused
    # the bound of mlcm_confusion_matrix's weights: total times (n_labels + 1)**2
    assert acc.n_samples_ == before[1] == 1
    np.testing.assert_array_equal(acc.confusion_matrix, before[0])
    assert np.isfinite(acc.confusion_matrix).all()


@pytest.mark.parametrize("n_resamples", [None, 39])
def test_mlcm_accumulator_scores_stay_right_up_to_the_overflow_refusal(n_resamples):
    """Batches of huge weights are refused before the scores read off the
    running matrix overflow: up to the refusal, the report (and the intervals)
    give the unweighted numbers (all weights equal), never NaN or 0 for an F1
    of 0.68 (17 batches of 1e307 once gave a micro F1 of NaN)."""
    from sklearn_mlcm import InvalidInputError

    rng = np.random.default_rng(0)
    y_true = (rng.random((60, 3)) < 0.3).astype(int)
    y_pred = y_true ^ (rng.random((60, 3)) < 0.15)
    acc = MLCMAccumulator(3, n_resamples=n_resamples, random_state=0)
    with pytest.raises(InvalidInputError, match="running matrix's total"):
        for _ in range(40):
            acc.update(y_true, y_pred, sample_weight=np.full(60, 1e305))
    assert acc.n_samples_ > 0
    report = acc.classification_report(output_dict=True, zero_division=0.0)
    expected = mlcm_classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0
    )
    for row in ("0", "micro avg", "macro avg", "weighted avg", "samples avg"):
        for key in ("precision", "recall", "f1-score"):
            assert report[row][key] == pytest.approx(expected[row][key])
    if n_resamples is not None:
        result = acc.confidence_intervals(average="micro")
        assert np.isfinite(result.bootstrap_distribution).all()


# -- the samples avg row: a running table (issue #24) ----------------------------


def test_mlcm_accumulator_samples_avg_is_exact_across_batches_and_merges():
    """The samples average is kept as the table of the instances' set sizes,
    a running sum: batches, merges, pickles and unweighted batches beside
    integer-weighted ones give the one-shot report bit for bit (a running
    sum of the ratios would differ in the last bits)."""
    import pickle

    rng = np.random.default_rng(24)
    y_true = rng.random((500, 5)) < 0.3
    y_pred = y_true ^ (rng.random((500, 5)) < 0.3)
    weight = np.ones(500)
    weight[250:] = rng.integers(0, 4, 250)
    options = {"zero_division": 0.0, "output_dict": True}
    for include_no_label in (False, True):
        expected = mlcm_classification_report(
            y_true,
            y_pred,
            sample_weight=weight,
            include_no_label=include_no_label,
            **options,
        )
        first, second = MLCMAccumulator(5), MLCMAccumulator(5)
        for start in range(0, 250, 7):  # unweighted batches of 7
            stop = min(start + 7, 250)
            first.update(y_true[start:stop], y_pred[start:stop])
        second.update(y_true[250:], y_pred[250:], sample_weight=weight[250:])
        merged = pickle.loads(pickle.dumps(first)).merge(second)
        report = merged.classification_report(
            include_no_label=include_no_label, **options
        )
        assert report["samples avg"] == expected["samples avg"]
        assert report == expected


def test_mlcm_accumulator_samples_tables_merged_in_groups_keep_their_bits():
    """Unweighted batches' tables wait and are merged a group at a time; a
    weighted batch's table is merged alone, after them: the running table has
    the bits of merging each batch's table in turn (weights summed in batch
    order), before, across and after a group's end."""
    from sklearn_mlcm._mlcm._samples import (
        MERGED_TABLES,
        empty_table,
        merge_tables,
        tabulate_sizes,
    )

    rng = np.random.default_rng(30)
    acc, expected = MLCMAccumulator(6), empty_table(weighted=False)
    for i in range(2 * MERGED_TABLES + 5):
        y_true = rng.random((40, 6)) < 0.3
        y_pred = y_true ^ (rng.random((40, 6)) < 0.3)
        # a full group merged at i = MERGED_TABLES + 1, two waiting at the weights
        weight = rng.random(40) * 1e3 if i == MERGED_TABLES + 4 else None
        acc.update(y_true, y_pred, sample_weight=weight)
        expected = merge_tables([expected, tabulate_sizes(y_true, y_pred, weight)])
        if i in (1, 2 * MERGED_TABLES + 4):  # the first read merges two early
            table = acc._snapshot()[7]
            for a, b in zip(
                (table.sizes, table.count), (expected.sizes, expected.count)
            ):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
            assert (table.weight is None) == (expected.weight is None)
            if table.weight is not None:
                assert table.weight.tobytes() == expected.weight.tobytes()


def test_mlcm_accumulator_keeps_work_buffers_between_batches(monkeypatch):
    """Up to 64 labels an accumulator hands the kernels the same work buffers
    at every batch (a pickled copy gets its own); past that, each call its own."""
    import pickle

    import sklearn_mlcm._accumulator as module

    seen, compute = [], module.compute

    def spy(*args, scratch=None, **kwargs):
        seen.append(scratch)
        return compute(*args, scratch=scratch, **kwargs)

    monkeypatch.setattr(module, "compute", spy)
    rng = np.random.default_rng(31)
    for q in (6, 65):
        acc = MLCMAccumulator(q)
        y = rng.random((50, q)) < 0.3
        acc.update(y, y[::-1]).update(y[::-1], y)
        copy = pickle.loads(pickle.dumps(acc)).update(y, y)
        assert_array_equal(
            copy.confusion_matrix,
            mlcm_confusion_matrix(
                np.vstack([y, y[::-1], y]), np.vstack([y[::-1], y, y])
            ),
        )
        first, second, third = seen[-3:]
        if q <= 64:
            assert first is second is not None and third not in (None, first)
        else:
            assert first is second is third is None
