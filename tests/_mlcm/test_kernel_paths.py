"""Every dense kernel path against the naive oracles of the two papers.

M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label Confusion Matrix",
IEEE Access 10, 2022 (Algorithms 2-5), and D. Krstinic et al., "Multi-label
classifier performance evaluation with confusion matrix", CS & IT 10(8), 2020
(Algorithm 1), each computed by several dense paths:

- Heydarian without weights: bit-sliced (``_bit_block``);
- Heydarian with integer weights 0..255: rows grouped by weight
  (``_grouped_block``);
- Heydarian with any other weights: float64 products (``_float_block``);
- Krstinic without weights: rows grouped by the denominator, bit-sliced
  (``_grouped_block``);
- Krstinic with weights: float64 products (``_float_block``);
- CSR input of either, weighted or not: sparse products (``_sparse_matrix``).

Each test pins the path it means (the path's function is spied on, the other
paths raise), runs the bit-sliced paths both on ``np.bitwise_count`` and on the
NumPy 1.x fallback, and checks the supports and the samples average's table of
set sizes counted in the same pass.
"""

import collections
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from _oracles import assert_matches_oracle, heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse

from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix
from sklearn_mlcm._mlcm import _bits, _chunking, _heydarian, _krstinic
from sklearn_mlcm._mlcm._bits import small_integer_keys
from sklearn_mlcm._mlcm._chunking import BIT_ROWS, FLOAT_ROWS
from sklearn_mlcm._mlcm._heydarian import heydarian_matrix
from sklearn_mlcm._mlcm._krstinic import krstinic_matrix
from sklearn_mlcm._mlcm._samples import tabulate_sizes

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}
KERNELS = {"heydarian": heydarian_matrix, "krstinic": krstinic_matrix}

# path: (method, kernel module, the path's function, weights, engine)
PATHS = {
    "heydarian-bit": ("heydarian", _heydarian, "_bit_block", "none", "bits"),
    "heydarian-grouped": ("heydarian", _heydarian, "_grouped_block", "integer", "bits"),
    "heydarian-float": ("heydarian", _heydarian, "_float_block", "float", "float"),
    "heydarian-sparse": ("heydarian", _heydarian, "_sparse_matrix", "any", "sparse"),
    "krstinic-grouped": ("krstinic", _krstinic, "_grouped_block", "none", "bits"),
    "krstinic-float": ("krstinic", _krstinic, "_float_block", "float", "float"),
    "krstinic-sparse": ("krstinic", _krstinic, "_sparse_matrix", "any", "sparse"),
}
# the paths that count rows in blocks (the sparse kernels take all at once)
BLOCK_PATHS = [path for path, spec in PATHS.items() if spec[4] != "sparse"]
# every path function of each kernel module, which the other paths must not call
PATH_FUNCTIONS = {
    _heydarian: ("_bit_block", "_grouped_block", "_float_block", "_sparse_matrix"),
    _krstinic: ("_grouped_block", "_float_block", "_sparse_matrix"),
}

# Label counts at the ends of row_counts' 8-byte lanes and of 64-bit words.
EDGE_LABELS = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65]
# Weights that take the float path: fractions, and integers from 256 on.
FLOAT_ONLY_WEIGHTS = [0.5, 0.1, 3.75, 1e-3, 255.5, 256.0, 1000.0]


# q for the paths: small ones, up to 70 (several words of labels, row_counts'
# 8-byte lanes from 8 on), and the edges of lanes and words
WIDE_LABELS = st.one_of(
    st.integers(1, 12), st.integers(1, 70), st.sampled_from(EDGE_LABELS)
)


@st.composite
def path_weights(draw, kind, n):
    """None, integers 0..255 (several groups, zeros), or weights for floats."""
    if kind == "any":
        kind = draw(st.sampled_from(["none", "integer", "float"]))
    if kind == "none":
        return None
    if kind == "integer":
        value = st.one_of(st.sampled_from([0, 1, 2, 3, 255]), st.integers(0, 255))
        weight = np.array(draw(st.lists(value, min_size=n, max_size=n)), dtype=float)
        if n > 1:
            weight[draw(st.integers(0, n - 1))] = 0.0  # a weight-zero group
        return weight
    value = st.one_of(
        st.sampled_from([0.0, 1.0, 2.0, 255.0, *FLOAT_ONLY_WEIGHTS]),
        st.floats(0.0, 100.0, allow_nan=False, allow_subnormal=False),
    )
    weight = np.array(draw(st.lists(value, min_size=n, max_size=n)), dtype=float)
    if small_integer_keys(weight) is not None:  # one weight that is no key
        weight[draw(st.integers(0, n - 1))] = draw(st.sampled_from(FLOAT_ONLY_WEIGHTS))
    return weight


def _refuse(name):
    def refused(*args, **kwargs):
        raise AssertionError(f"{name} called: the test meant another path")

    return refused


def pin_path(mp, path, fallback=False):
    """Spy on the path's block function, make the others raise; the calls' threads.

    With ``fallback``, ``_bits`` runs its NumPy 1.x code (no np.bitwise_count).
    """
    _, module, block, _, _ = PATHS[path]
    threads = []
    original = getattr(module, block)

    def spy(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)

    for name in PATH_FUNCTIONS[module]:
        mp.setattr(module, name, spy if name == block else _refuse(name))
    if fallback:
        mp.setattr(_bits, "NATIVE_POPCOUNT", False)
        mp.delattr(np, "bitwise_count", raising=False)
    return threads


def popcount_modes(path):
    """np.bitwise_count and the fallback for bit-sliced paths; the others once."""
    modes = [False] if _bits.NATIVE_POPCOUNT else []
    return [*modes, True] if PATHS[path][4] == "bits" else [False]


def run_path(path, y_true, y_pred, weight, *, fallback=False, block_rows=None):
    """The public matrix and the kernel's (matrix, supports, no_label) on ``path``."""
    method, module, _, _, engine = PATHS[path]
    if engine == "sparse":
        y_true, y_pred = sparse.csr_array(y_true), sparse.csr_array(y_pred)
    with pytest.MonkeyPatch.context() as mp:
        threads = pin_path(mp, path, fallback)
        if block_rows is not None:
            mp.setattr(module, "BIT_ROWS", block_rows)
            mp.setattr(module, "FLOAT_ROWS", block_rows)
        public = mlcm_confusion_matrix(
            y_true, y_pred, method=method, sample_weight=weight
        )
        public_threads = list(threads)
        assert public_threads, f"{path} was not taken"
        with_supports = KERNELS[method](y_true, y_pred, weight, with_supports=True)
        counts, table = KERNELS[method](
            y_true, y_pred, weight, with_supports=True, samples=True
        )
    # the table changes nothing else the kernel counts
    for a, b in zip(counts, with_supports):
        a, b = (x.toarray() if sparse.issparse(x) else np.asarray(x) for x in (a, b))
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert_table(table, y_true, y_pred, weight)
    if block_rows is None:  # the blocks of tabulate_sizes: the same bits
        assert_same_table(table, tabulate_sizes(y_true, y_pred, weight))
    return public, with_supports, public_threads


def assert_table(table, y_true, y_pred, weight):
    """The samples average's table: each distinct (|T|, |P|, |T & P|), sorted,
    how many rows have it and their total weight, one row at a time."""
    if sparse.issparse(y_true):
        y_true, y_pred = y_true.toarray(), y_pred.toarray()
    expected = {}
    for i in range(len(y_true)):
        t, p = set(np.flatnonzero(y_true[i])), set(np.flatnonzero(y_pred[i]))
        count, total = expected.get((len(t), len(p), len(t & p)), (0, 0.0))
        w = 1.0 if weight is None else weight[i]
        expected[(len(t), len(p), len(t & p))] = (count + 1, total + w)
    keys = sorted(expected)
    assert table.sizes.dtype == table.count.dtype == np.int64
    assert_array_equal(table.sizes.reshape(-1, 3), np.array(keys).reshape(-1, 3))
    assert_array_equal(table.count, [expected[k][0] for k in keys])
    if weight is None:
        assert table.weight is None and table.n_zero_weight == 0
    else:
        assert_allclose(table.weight, [expected[k][1] for k in keys], rtol=1e-12)
        assert table.n_zero_weight == np.count_nonzero(weight == 0)


def assert_same_table(a, b):
    """Two tables with the same bits."""
    for x, y in zip((a.sizes, a.count), (b.sizes, b.count)):
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
    assert (a.weight is None) == (b.weight is None)
    if a.weight is not None:
        assert a.weight.tobytes() == b.weight.tobytes()
    assert a.n_zero_weight == b.n_zero_weight


def assert_supports(result, y_true, weight, expected_matrix):
    """The kernel's own pass: the same matrix, the true totals, the empty rows."""
    matrix, supports, no_label = result
    if sparse.issparse(matrix):
        assert matrix.format == "csr"
        matrix = matrix.toarray()
    assert_array_equal(matrix, expected_matrix)
    empty = ~y_true.any(axis=1)
    if weight is None:
        assert supports.dtype == np.int64 and type(no_label) is int
        assert_array_equal(supports, y_true.sum(axis=0))
        assert no_label == np.count_nonzero(empty)
    else:
        assert supports.dtype == np.float64 and type(no_label) is float
        assert_allclose(supports, weight @ y_true, rtol=1e-12, atol=1e-12)
        assert_allclose(no_label, weight[empty].sum(), rtol=1e-12, atol=1e-12)


def check_path(path, y_true, y_pred, weight, expected, block_rows=None):
    """Each popcount mode of ``path`` against the oracle's ``expected``."""
    method = PATHS[path][0]
    for fallback in popcount_modes(path):
        public, with_supports, _ = run_path(
            path, y_true, y_pred, weight, fallback=fallback, block_rows=block_rows
        )
        assert_matches_oracle(public, expected, method, weight is not None)
        assert_supports(with_supports, y_true, weight, public)


@pytest.mark.parametrize("path", list(PATHS))
@settings(max_examples=250, deadline=None)
@given(data=st.data())
def test_kernel_path_matches_oracle(path, data, mlcm_strategies):
    """Each path equals the oracle, also on rows repeated into several words."""
    method, _, _, weights, _ = PATHS[path]
    y_true, y_pred = data.draw(
        mlcm_strategies.targets(max_samples=40, label_counts=WIDE_LABELS),
        label="targets",
    )
    weight = data.draw(path_weights(weights, len(y_true)), label="weight")
    expected = ORACLES[method](y_true, y_pred, weight)
    # repeated and shuffled rows: groups of several words, interleaved
    repeats = data.draw(st.sampled_from([1, 1, 2, 3, 70]), label="repeats")
    order = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    order = order.permutation(len(y_true) * repeats)
    tall_true = np.tile(y_true, (repeats, 1))[order]
    tall_pred = np.tile(y_pred, (repeats, 1))[order]
    tall_weight = None if weight is None else np.tile(weight, repeats)[order]
    check_path(path, tall_true, tall_pred, tall_weight, repeats * expected)


@pytest.mark.parametrize("path", BLOCK_PATHS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_kernel_path_small_row_blocks_match_oracle(path, data, mlcm_strategies):
    """Blocks of 1, 5, 64 or 100 rows add up to the oracle's matrix."""
    method, _, _, weights, _ = PATHS[path]
    y_true, y_pred = data.draw(
        mlcm_strategies.targets(max_samples=150, label_counts=st.integers(1, 20))
    )
    weight = data.draw(path_weights(weights, len(y_true)))
    block_rows = data.draw(st.sampled_from([1, 5, 64, 100]))
    expected = ORACLES[method](y_true, y_pred, weight)
    check_path(path, y_true, y_pred, weight, expected, block_rows=block_rows)


@pytest.mark.parametrize("q", [255, 256, 300])
@pytest.mark.parametrize("path", list(PATHS))
def test_kernel_path_many_labels(path, q):
    """From 256 labels row_counts sums int16 and group keys are 16-bit."""
    method, _, _, weights, _ = PATHS[path]
    rng = np.random.default_rng(q)
    y_true = rng.random((40, q)) < 0.05
    y_pred = rng.random((40, q)) < 0.05
    y_true[0] = y_pred[0] = True  # full, equal
    y_true[1], y_pred[1] = True, False  # every label missed
    y_true[2], y_pred[2] = False, True  # every label wrong
    y_true[3], y_pred[3] = True, np.arange(q) < 5  # a small subset
    y_true[4], y_pred[4] = np.arange(q) < 5, True  # a small superset
    y_true[5] = y_pred[5] = False
    y_pred[6] = y_true[6]
    y_pred[7] = y_true[7] | (rng.random(q) < 0.02)
    weight = {
        "none": None,
        "integer": rng.integers(0, 256, 40).astype(float),
        "float": rng.random(40) * 10,
        "any": rng.random(40) * 10,
    }[weights]
    expected = ORACLES[method](y_true, y_pred, weight)
    check_path(path, y_true, y_pred, weight, expected)


@pytest.mark.parametrize("path", list(PATHS))
def test_kernel_path_more_rows_than_a_block(path):
    """70 000 rows (more than BIT_ROWS, 9 float blocks) are the oracle times 1400."""
    method, _, _, weights, engine = PATHS[path]
    rng = np.random.default_rng(0)
    y_true = rng.random((50, 24)) < rng.random((50, 1))
    y_pred = rng.random((50, 24)) < rng.random((50, 1))
    y_pred[:5] = y_true[:5]  # equal
    y_pred[5:10] &= y_true[5:10]  # subsets
    y_pred[10:15] |= y_true[10:15]  # supersets
    y_pred[15:18] = False
    y_true[18:21] = False
    y_pred[20] = False
    weight = {
        "none": None,
        "integer": rng.integers(0, 256, 50).astype(float),
        "float": rng.random(50) * 10,
        "any": None,
    }[weights]
    expected = ORACLES[method](y_true, y_pred, weight)
    repeats = 1400
    tall_true = np.tile(y_true, (repeats, 1))
    tall_pred = np.tile(y_pred, (repeats, 1))
    tall_weight = None if weight is None else np.tile(weight, repeats)
    assert len(tall_true) > BIT_ROWS
    for fallback in popcount_modes(path):
        public, with_supports, threads = run_path(
            path, tall_true, tall_pred, tall_weight, fallback=fallback
        )
        rows = {"bits": BIT_ROWS, "float": FLOAT_ROWS, "sparse": len(tall_true)}
        assert len(threads) == -(-len(tall_true) // rows[engine])
        if method == "heydarian" and weight is None:
            assert_matches_oracle(public, repeats * expected, method, False)
        else:  # 70 000 float64 terms a cell: a looser tolerance
            assert public.dtype == np.float64
            assert_allclose(public, repeats * expected, rtol=1e-9)
        assert_supports(with_supports, tall_true, tall_weight, public)


@pytest.mark.parametrize(
    "path", [path for path, spec in PATHS.items() if spec[4] == "bits"]
)  # the bit-sliced paths run their blocks on the pool
def test_kernel_path_blocks_run_on_thread_pool(path, monkeypatch):
    """Several blocks run on the pool's threads and sum to the oracle."""
    method, module, _, weights, _ = PATHS[path]
    # as on a machine of four cores, whatever this one has
    monkeypatch.setattr(_chunking, "os", SimpleNamespace(cpu_count=lambda: 4))
    rng = np.random.default_rng(1)
    y_true = rng.random((1000, 30)) < rng.random((1000, 1))
    y_pred = rng.random((1000, 30)) < rng.random((1000, 1))
    y_pred[::7] = y_true[::7]
    y_true[::11] = False
    weight = None if weights == "none" else rng.integers(0, 4, 1000).astype(float)
    expected = ORACLES[method](y_true, y_pred, weight)
    for fallback in popcount_modes(path):
        public, _, threads = run_path(
            path, y_true, y_pred, weight, fallback=fallback, block_rows=100
        )
        assert len(threads) == 10
        assert all(name.startswith("sklearn_mlcm") for name in threads)
        assert_matches_oracle(public, expected, method, weight is not None)


@pytest.mark.parametrize("path", list(PATHS))
def test_kernel_path_report_supports(path):
    """The report's supports, from the kernel's pass, are the weighted true totals."""
    method, _, _, weights, _ = PATHS[path]
    rng = np.random.default_rng(2)
    y_true = rng.random((200, 12)) < rng.random((200, 1))
    y_pred = rng.random((200, 12)) < 0.3
    y_true[::9] = False
    weight = {
        "none": None,
        "integer": rng.integers(0, 256, 200).astype(float),
        "float": rng.random(200) * 3,
        "any": rng.random(200) * 3,
    }[weights]
    w = np.ones(200) if weight is None else weight
    as_input = sparse.csr_array if PATHS[path][4] == "sparse" else np.asarray
    with pytest.MonkeyPatch.context() as mp:
        threads = pin_path(mp, path)
        report = mlcm_classification_report(
            as_input(y_true),
            as_input(y_pred),
            method=method,
            sample_weight=weight,
            output_dict=True,
            zero_division=0.0,
            include_no_label=True,
        )
    assert threads
    supports = [report[str(j)]["support"] for j in range(12)]
    assert_allclose(supports, w @ y_true, rtol=1e-12)
    assert_allclose(report["no label"]["support"], w[~y_true.any(axis=1)].sum())


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_kernel_sparse_weighted_supports_without_true_labels(method):
    """Weighted CSR supports are float64 even when no instance has a true label."""
    y_true = sparse.csr_array(np.zeros((2, 3), dtype=bool))
    y_pred = sparse.csr_array(np.array([[1, 0, 0], [0, 0, 0]], dtype=bool))
    weight = np.array([1.5, 2.0])
    _, supports, no_label = KERNELS[method](y_true, y_pred, weight, with_supports=True)
    assert supports.dtype == np.float64
    assert_array_equal(supports, [0.0, 0.0, 0.0])
    assert no_label == 3.5 and type(no_label) is float


@pytest.mark.parametrize("weights", ["none", "integer", "float"])
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_report_and_stream_read_each_row_once(method, weights):
    """The report and an accumulator's update read each row once: the kernel's
    block pass gives the matrix, the supports and the samples average's table
    (no second pass over the rows for the set sizes)."""
    from sklearn_mlcm import MLCMAccumulator
    from sklearn_mlcm._mlcm import _samples

    rng = np.random.default_rng(5)
    y_true = rng.random((300, 9)) < 0.3
    y_pred = y_true ^ (rng.random((300, 9)) < 0.2)
    weight = {
        "none": None,
        "integer": rng.integers(0, 4, 300).astype(float),
        "float": rng.random(300),
    }[weights]
    reads = collections.defaultdict(lambda: np.zeros(300, dtype=int))
    original, lock = _chunking.dense_block, threading.Lock()

    def spy(y, start, stop):
        with lock:  # blocks run on the pool's threads
            reads[id(y)][start:stop] += 1
        return original(y, start, stop)

    with pytest.MonkeyPatch.context() as mp:
        for module in (_chunking, _heydarian, _krstinic, _samples):
            mp.setattr(module, "dense_block", spy)
        for module in (_heydarian, _krstinic):  # several blocks and windows
            mp.setattr(module, "BIT_ROWS", 64)
            mp.setattr(module, "FLOAT_ROWS", 16)
        options = {"method": method, "sample_weight": weight, "zero_division": 0.0}
        report = mlcm_classification_report(y_true, y_pred, output_dict=True, **options)
        assert len(reads) == 2  # y_true and y_pred, each row once
        assert all((count == 1).all() for count in reads.values())
        reads.clear()
        acc = MLCMAccumulator(9, method=method)
        acc.update(y_true, y_pred, sample_weight=weight)
        assert len(reads) == 2
        assert all((count == 1).all() for count in reads.values())
        streamed = acc.classification_report(output_dict=True, zero_division=0.0)
    for name in ("samples avg", "micro avg"):
        assert streamed[name] == pytest.approx(report[name], rel=1e-12)
