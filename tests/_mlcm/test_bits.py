"""The bit-sliced counting engine of the dense kernels against naive NumPy.

Every function of ``_bits`` is compared with a Python loop or a plain NumPy
sum, both on NumPy 2's ``np.bitwise_count`` and on the NumPy 1.x fallback (a
SWAR popcount, and float32 products of the unpacked bits), which the tests
reach by setting ``NATIVE_POPCOUNT`` to False and removing ``np.bitwise_count``.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.testing import assert_array_equal

from sklearn_mlcm._mlcm import _bits
from sklearn_mlcm._mlcm._bits import (
    and_counts,
    gather_rows,
    group_layout,
    pack_columns,
    pack_with_sizes,
    popcount,
    row_counts,
    small_integer_keys,
)
from sklearn_mlcm._mlcm._chunking import Scratch

# Label counts around the 8-byte lanes of row_counts (8 <= q < 256) and its ends.
ROW_COUNT_LABELS = [1, 2, 3, 7, 8, 9, 15, 16, 17, 20, 63, 64, 65, 100, 255, 256, 300]

POPCOUNTS = ["native", "fallback"]

ALL_ONES = 2**64 - 1


def use_popcount(mp, kind):
    """Run ``_bits`` on ``np.bitwise_count`` or on the NumPy 1.x fallback."""
    if kind == "fallback":
        mp.setattr(_bits, "NATIVE_POPCOUNT", False)
        # as on NumPy 1.x: the fallback must not reach for it
        mp.delattr(np, "bitwise_count", raising=False)
    elif not _bits.NATIVE_POPCOUNT:
        pytest.skip("np.bitwise_count needs NumPy >= 2.0")


def naive_popcount(words):
    """Set bits of each uint64 of ``words``, one Python int at a time."""
    words = np.asarray(words)
    flat = [bin(int(w)).count("1") for w in words.ravel()]
    return np.array(flat, dtype=np.int64).reshape(words.shape)


@st.composite
def word_bounds(draw, words):
    """Strictly increasing word offsets from 0 to ``words``: non-empty groups."""
    inner = draw(st.sets(st.integers(1, words), max_size=5)) - {words}
    return np.array([0, *sorted(inner), words], dtype=np.intp)


def uint64_arrays(shape):
    """uint64 arrays of ``shape`` with all-zero and all-one words turning up."""
    special = st.sampled_from([0, 1, 2**63, ALL_ONES])
    return hnp.arrays(
        np.dtype("<u8"),
        shape,
        elements=st.one_of(special, st.integers(0, ALL_ONES)),
    )


def random_rows(seed, rows, q):
    """(rows, q) bool: random rows of varied density, with an empty and a full row."""
    rng = np.random.default_rng(seed)
    density = rng.random((rows, 1))
    y = rng.random((rows, q)) < density
    y[rng.integers(rows)] = False
    y[rng.integers(rows)] = True
    return y


# pack_columns


@settings(max_examples=300, deadline=None)
@given(y=hnp.arrays(bool, st.tuples(st.integers(1, 200), st.integers(1, 5))))
def test_pack_columns_round_trip(y):
    """Unpacking the little-endian words gives each column, then zero padding."""
    rows, q = y.shape
    packed = pack_columns(y)
    assert packed.dtype == np.dtype("<u8")
    assert packed.shape == (q, -(-rows // 64))
    bits = np.unpackbits(packed.view(np.uint8), axis=1, bitorder="little")
    assert bits.shape == (q, 64 * packed.shape[1])
    assert_array_equal(bits[:, :rows], y.T)
    assert not bits[:, rows:].any()


def test_pack_columns_bit_order():
    """Bit j of word w is row 64 w + j; a reused scratch still pads with zeros."""
    scratch = Scratch()
    full = pack_columns(np.ones((64, 3), dtype=bool), scratch)
    assert_array_equal(full, np.full((3, 1), ALL_ONES, dtype=np.uint64))
    y = np.zeros((60, 3), dtype=bool)
    y[59, 0] = y[0, 2] = True
    # the same (3, 64) buffer, full of ones, now with 4 padding rows
    assert_array_equal(pack_columns(y, scratch), [[1 << 59], [0], [1]])
    y = np.zeros((130, 1), dtype=bool)
    y[[0, 63, 64, 129]] = True
    assert_array_equal(pack_columns(y), [[1 | 1 << 63, 1, 1 << 1]])


def test_pack_columns_non_contiguous():
    """A column slice is packed as its copy would be."""
    y = np.random.default_rng(0).random((70, 9)) < 0.5
    assert_array_equal(pack_columns(y[:, 1::2]), pack_columns(y[:, 1::2].copy()))
    assert_array_equal(pack_columns(y[3:67]), pack_columns(y[3:67].copy()))


# popcount


@pytest.mark.parametrize("kind", POPCOUNTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_popcount_matches_naive(kind, data):
    """Set bits summed over the last axis, and per group of words, as int64."""
    words = data.draw(
        uint64_arrays(hnp.array_shapes(min_dims=1, max_dims=3, max_side=7))
    )
    bounds = data.draw(word_bounds(words.shape[-1]))
    bits = naive_popcount(words)
    expected = np.stack(
        [bits[..., a:b].sum(axis=-1) for a, b in zip(bounds[:-1], bounds[1:])],
        axis=-1,
    )
    with pytest.MonkeyPatch.context() as mp:
        use_popcount(mp, kind)
        total = popcount(words)
        grouped = popcount(words, bounds)
    assert total.dtype == grouped.dtype == np.int64
    assert_array_equal(total, bits.sum(axis=-1))
    assert grouped.shape == (*words.shape[:-1], len(bounds) - 1)
    assert_array_equal(grouped, expected)


@pytest.mark.parametrize("kind", POPCOUNTS)
def test_popcount_non_contiguous_and_full_words(kind, monkeypatch):
    """Word slices of rows count like their copies; 1024 full words give 65536."""
    use_popcount(monkeypatch, kind)
    rng = np.random.default_rng(1)
    words = rng.integers(0, ALL_ONES, (5, 40), dtype=np.uint64, endpoint=True)
    part = words[1::2, 3:31:3]
    assert not part.flags.c_contiguous
    assert_array_equal(popcount(part), naive_popcount(part).sum(axis=-1))
    bounds = np.array([0, 2, 3, 10])
    assert_array_equal(popcount(part, bounds), popcount(part.copy(), bounds))
    full = np.full((2, 1024), ALL_ONES, dtype=np.uint64)
    assert_array_equal(popcount(full), [65536, 65536])
    assert_array_equal(popcount(full, np.array([0, 1, 1024])), [[64, 65472]] * 2)


# and_counts


@pytest.mark.parametrize("kind", POPCOUNTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_and_counts_matches_naive(kind, data):
    """Cell (r, c) is the popcount of a[r] & b[c], in total and per group."""
    words = data.draw(st.integers(1, 8))
    a = data.draw(uint64_arrays(st.tuples(st.integers(1, 5), st.just(words))))
    b = data.draw(uint64_arrays(st.tuples(st.integers(1, 5), st.just(words))))
    bounds = data.draw(word_bounds(words))
    groups = len(bounds) - 1
    expected = np.zeros((len(a), len(b), groups), dtype=np.int64)
    for r in range(len(a)):
        for c in range(len(b)):
            for g in range(groups):
                for w in range(bounds[g], bounds[g + 1]):
                    expected[r, c, g] += bin(int(a[r, w] & b[c, w])).count("1")
    with pytest.MonkeyPatch.context() as mp:
        use_popcount(mp, kind)
        total = and_counts(a, b)
        grouped = and_counts(a, b, bounds)
        # reused buffers, dirty from the call before
        scratch = Scratch()
        reused = [and_counts(a, b, bounds, scratch) for _ in range(2)]
    assert total.dtype == grouped.dtype == np.int64
    assert_array_equal(total, expected.sum(axis=-1))
    assert_array_equal(grouped, expected)
    for result in reused:
        assert_array_equal(result, expected)


@pytest.mark.parametrize("kind", POPCOUNTS)
def test_and_counts_in_steps(kind, monkeypatch):
    """Rows of a taken a few at a time, float32 products a few words at a time."""
    use_popcount(monkeypatch, kind)
    rng = np.random.default_rng(2)
    a = rng.integers(0, ALL_ONES, (7, 5), dtype=np.uint64, endpoint=True)
    b = rng.integers(0, ALL_ONES, (3, 5), dtype=np.uint64, endpoint=True)
    a[0] = b[0] = ALL_ONES
    bounds = np.array([0, 2, 5])
    expected = and_counts(a, b, bounds)
    assert_array_equal(expected[0, 0], [128, 192])
    # 2 rows of a per step (3 x 5 words each), 2 words per float32 product
    monkeypatch.setattr(_bits, "_STEP_WORDS", 30)
    monkeypatch.setattr(_bits, "_F32_WORDS", 2)
    assert_array_equal(and_counts(a, b, bounds), expected)
    assert_array_equal(and_counts(a, b), expected.sum(axis=-1))
    scratch = Scratch()  # buffers of a 2-row step, all ones before each call
    for _ in range(2):
        for name, dtype in [("and_counts", np.uint64), ("and_counts_bits", np.uint8)]:
            scratch.get(name, (2, 3, 5), dtype).fill(255)
        assert_array_equal(and_counts(a, b, bounds, scratch), expected)


# group_layout and gather_rows


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_group_layout_invariants(data):
    """Each row once, groups in key order, rows in order, each group word-aligned."""
    n_keys = data.draw(st.sampled_from([1, 2, 5, 256, 257, 65536, 65537]))
    small = st.integers(0, min(n_keys - 1, 3))
    key = st.one_of(small, st.integers(0, n_keys - 1), st.just(n_keys - 1))
    keys = np.array(data.draw(st.lists(key, min_size=1, max_size=300)), dtype=np.intp)
    n = len(keys)
    scratch = Scratch() if data.draw(st.booleans()) else None
    if scratch is not None:  # a dirty buffer of the size this call will ask for
        size = 64 * sum(-(-c // 64) for c in np.bincount(keys) if c)
        scratch.get("group_layout", (size,), np.intp).fill(-1)
    source, groups, bounds, sizes = group_layout(keys, n_keys, scratch)
    assert_array_equal(groups, np.unique(keys))
    assert_array_equal(sizes, [np.count_nonzero(keys == g) for g in groups])
    assert bounds[0] == 0 and len(bounds) == len(groups) + 1
    assert_array_equal(np.diff(bounds), -(-sizes // 64))
    assert len(source) == 64 * bounds[-1]
    real = source[source != n]
    assert_array_equal(np.sort(real), np.arange(n))  # every row exactly once
    for g, key_value in enumerate(groups):
        start = 64 * bounds[g]
        rows = source[start : start + sizes[g]]
        # the group's rows, in their original order, from the group's first word
        assert_array_equal(rows, np.flatnonzero(keys == key_value))
        # then padding up to the next word
        assert (source[start + sizes[g] : 64 * bounds[g + 1]] == n).all()


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_gather_rows_padding_rows_empty(data):
    """Row i is y[source[i]]; the index n gives an all-False row."""
    y = data.draw(hnp.arrays(bool, st.tuples(st.integers(1, 30), st.integers(1, 9))))
    n = len(y)
    keys = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    source, *_ = group_layout(keys, 5)
    scratch = None
    if data.draw(st.booleans()):  # dirty buffers of the sizes this call asks for
        scratch = Scratch()
        scratch.get("gather_rows_in", (n + 1, y.shape[1]), bool).fill(True)
        scratch.get("gather_rows_out", (len(source), y.shape[1]), bool).fill(True)
    out = gather_rows(y, source, scratch)
    assert out.shape == (len(source), y.shape[1]) and out.dtype == bool
    padding = source == n
    assert not out[padding].any()
    assert_array_equal(out[~padding], y[source[~padding]])


def test_gather_rows_packs_groups_on_words():
    """Grouped rows packed: each group's counts are popcounts of its words."""
    rng = np.random.default_rng(3)
    y = rng.random((300, 6)) < 0.4
    keys = rng.integers(0, 4, 300)
    keys[:100] = 2  # a group of two words
    source, groups, bounds, _ = group_layout(keys, 4)
    packed = pack_columns(gather_rows(y, source))
    expected = np.stack([y[keys == g].sum(axis=0) for g in groups], axis=-1)
    assert_array_equal(popcount(packed, bounds), expected)


# row_counts


def assert_row_counts(t, p, scratch=None):
    counts = row_counts(t, p, scratch)
    expected = (t.sum(axis=1), p.sum(axis=1), (t & p).sum(axis=1))
    small = np.int16 if t.shape[1] < 2**15 else np.int32
    for result, sums in zip(counts, expected):
        assert result.dtype == small
        assert_array_equal(result, sums)


@pytest.mark.parametrize("q", ROW_COUNT_LABELS)
def test_row_counts_matches_sums(q):
    """|T|, |P| and |T & P| per row, on both sides of the 8-byte lanes."""
    t = random_rows(q, 50, q)
    p = random_rows(q + 1000, 50, q)
    p[:5] = t[:5]  # equal rows
    p[5:10] = t[5:10] & p[5:10]  # subsets
    p[10:15] = True  # full: T & P = T
    t[15:20] = True  # 255 labels in the last lane's byte sums
    assert_row_counts(t, p)
    assert_row_counts(t, p, Scratch())
    assert_row_counts(t[:1], p[:1])  # one row


@pytest.mark.parametrize("q", ROW_COUNT_LABELS)
def test_row_counts_non_contiguous(q):
    """Column slices, row slices at an offset and Fortran order count the same."""
    t = random_rows(2 * q, 40, 2 * q + 3)
    p = random_rows(2 * q + 1, 40, 2 * q + 3)
    assert_row_counts(t[:, 1 : 2 * q + 1 : 2], p[:, 2 : 2 * q + 2 : 2])
    assert_row_counts(t[:, 3 : q + 3], p[:, :q])
    full_t, full_p = random_rows(q, 40, q), random_rows(q + 1, 40, q)
    assert_row_counts(full_t[7:9], full_p[7:9])
    assert_row_counts(full_t[39:], full_p[39:])
    assert_row_counts(np.asfortranarray(full_t), np.asfortranarray(full_p))


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 20),
    q=st.one_of(st.integers(1, 300), st.sampled_from(ROW_COUNT_LABELS)),
    seed=st.integers(0, 2**32 - 1),
    reuse=st.booleans(),
)
def test_row_counts_random(rows, q, seed, reuse):
    """Random shapes up to 300 labels, with and without reused scratch buffers."""
    t, p = random_rows(seed, rows, q), random_rows(seed + 1, rows, q)
    scratch = None
    if reuse:  # dirty buffers of the sizes this call asks for
        scratch = Scratch()
        for name in ("0", "1", "2", "t", "p"):
            scratch.get(f"row_counts_{name}", (rows,), np.dtype("<u8")).fill(ALL_ONES)
    assert_row_counts(t, p, scratch)


def test_row_counts_int32_from_2_15_labels():
    """From 2**15 labels the counts are int32, as a full row needs."""
    t = np.ones((2, 2**15), dtype=bool)
    p = t.copy()
    p[1, ::2] = False
    assert_row_counts(t, p)
    assert_row_counts(t[:, 1:], p[:, 1:])  # 2**15 - 1 labels: int16


@pytest.mark.parametrize("steps", [False, True])
@pytest.mark.parametrize("rows, q", [(1, 1), (70, 9), (64, 20), (130, 31), (64, 32),
                                     (200, 40), (65, 255), (10, 256)])  # fmt: skip
def test_pack_with_sizes_matches_pack_columns_and_row_counts(
    rows, q, steps, monkeypatch
):
    """The packed blocks of pack_columns and the sizes of row_counts, through
    the transposed copy (its sums written in dirty reused buffers, T & P
    unpacked a label at a time with ``steps``) and through row_counts."""
    t, p = random_rows(rows + q, rows, q), random_rows(rows + q + 1, rows, q)
    if steps:
        monkeypatch.setattr(_bits, "_UNPACK_BYTES", 1)
    expected = (pack_columns(t), pack_columns(p))
    sizes = [x.astype(np.int64) for x in row_counts(t, p)]
    scratch = Scratch()
    for _ in range(2):  # the second call on the first call's buffers
        T, P, got = pack_with_sizes(t, p, scratch)
        assert_array_equal(T, expected[0])
        assert_array_equal(P, expected[1])
        for size, want in zip(got, sizes):
            assert size.shape == (rows,)
            assert_array_equal(size.astype(np.int64), want)
        if q < 32 or rows % 64:  # the transposed copy and its sums, dirtied
            padded = rows + (-rows % 64)
            scratch.get("pack_columns", (q, padded), bool).fill(True)
            scratch.get("pack_sizes", (3, padded // 8), np.uint64).fill(ALL_ONES)


# small_integer_keys


@pytest.mark.parametrize(
    "weight",
    [[0.0], [255.0], [0.0, 1.0, 2.0, 255.0, 3.0, 0.0], [-0.0, 7.0]],
)
def test_small_integer_keys_integers(weight):
    """Integer weights in [0, 256) become intp keys of the same values."""
    keys = small_integer_keys(np.array(weight))
    assert keys is not None and keys.dtype == np.intp
    assert_array_equal(keys, weight)


@pytest.mark.parametrize(
    "weight",
    [
        [256.0],
        [1.0, 256.0],
        [-1.0, 2.0],
        [0.5],
        [1.0, 2.5],
        [1e-300],
        [255.99999],
        [np.nan],
        [1.0, np.nan],
        [np.nan, 1.0],
        [np.inf],
        [1e300],
    ],
)
def test_small_integer_keys_others_none(weight):
    """Weights past 255, negative, fractional, NaN or infinite give None."""
    assert small_integer_keys(np.array(weight)) is None


def test_small_integer_keys_dtypes_and_limit():
    """Integer dtypes are keys as well; ``limit`` bounds the keys."""
    assert_array_equal(small_integer_keys(np.array([3, 0, 1])), [3, 0, 1])
    assert_array_equal(small_integer_keys(np.array([3, 0], dtype=np.uint8)), [3, 0])
    assert small_integer_keys(np.array([3, 300])) is None
    assert_array_equal(small_integer_keys(np.array([3.0]), limit=4), [3])
    assert small_integer_keys(np.array([4.0]), limit=4) is None
    assert_array_equal(small_integer_keys(np.array([300.0]), limit=65536), [300])
