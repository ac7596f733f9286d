"""Bit-sliced counting: the integer engine under the dense kernels.

A block of rows of an indicator matrix is transposed and packed so that each
label is a bit vector over the rows, 64 rows per word. A count over rows is
then a popcount: of one vector (a label's total), of the AND of two (a pair of
labels), of vectors masked by an OR across the labels (a property of the row,
such as "no missed label").

Rows can be grouped: :func:`group_layout` orders the rows of a block by a
small integer key and pads each group to whole words, so that a group's counts
are sums over a range of words (``np.add.reduceat``), all groups in the one
pass that counts the whole block. A kernel counts each group in integers and
scales the group's counts once, where a float kernel would round once per row.

Popcounts use ``np.bitwise_count`` (NumPy >= 2.0). NumPy 1.x has none: single
vectors take the SWAR bit tricks on whole words, and the pair counts, the bulk
of the work, unpack the bits again and take a float32 matrix product, exact
because every partial sum is an integer below 2**24 (:data:`_F32_WORDS` words
per product).
"""

import numpy as np

from ._chunking import Scratch

__all__ = [
    "and_counts",
    "gather_rows",
    "group_layout",
    "pack_columns",
    "pack_with_sizes",
    "popcount",
    "row_counts",
    "small_integer_keys",
]

# Words are little-endian uint64: bit j of word w is row 64 * w + j on every
# platform (np.packbits with bitorder="little" fills the bytes in that order).
WORD = np.dtype("<u8")

# np.bitwise_count exists (NumPy >= 2.0). Read at every call, so that the tests
# can run the NumPy 1.x fallback on NumPy 2 by setting it to False.
NATIVE_POPCOUNT = hasattr(np, "bitwise_count")

# Cap on the words of one (rows x columns x words) AND in and_counts: 1 MiB
# per thread (2 MiB was faster on one thread, slower on two: the cache).
_STEP_WORDS = 1 << 17

# float32 sums of 0/1 products are exact below 2**24: at most 2**18 words
# (2**24 rows) per product of the fallback.
_F32_WORDS = 1 << 18


def pack_columns(y, scratch=None):
    """(rows, q) bool -> (q, words) little-endian uint64 bit vectors.

    The rows are padded with zeros to a multiple of 64; the padding bits are
    zero in every vector (a kernel that counts a complement takes them off).
    ``scratch`` (a ``_chunking.Scratch``) lends the transposed copy.
    """
    rows, q = y.shape
    scratch = Scratch() if scratch is None else scratch
    if _by_words(y):
        return _pack_by_words(np.ascontiguousarray(y), scratch)
    return _packed(_transposed(y, scratch, "pack_columns"))


def _by_words(y):
    """Whether :func:`pack_columns` packs ``y`` without transposing it."""
    rows, q = y.shape
    return rows % 64 == 0 and q >= 32


def _transposed(y, scratch, name):
    """(rows, q) bool -> the (q, rows padded to 64) bool buffer ``name`` of
    ``scratch``, the padding False."""
    rows, q = y.shape
    columns = scratch.get(name, (q, rows + (-rows % 64)), bool)
    columns[:, rows:] = False
    columns[:, :rows] = y.T
    return columns


def _packed(columns):
    return np.packbits(columns, axis=1, bitorder="little").view(WORD)


def pack_with_sizes(t, p, scratch=None):
    """:func:`pack_columns` of two (rows, q) bool blocks, and each row's sizes.

    Returns ``(T, P, sizes)``, with ``sizes`` the ``(n_true, n_pred,
    n_both)`` of :func:`row_counts` (the samples average's set sizes), counted
    in the same pass. Where the blocks are packed through a transposed copy
    (q < 32, or rows not a multiple of 64), ``n_true`` and ``n_pred`` are read
    off that copy while it is in the cache: with one 0/1 byte per label and
    row, a row's size is a sum of q contiguous byte rows, added eight rows per
    word (each byte stays below 256); ``n_both`` is read off the packed
    ``T & P`` (:func:`_row_sizes`). There the sizes are uint8 views of a
    buffer of ``scratch``, valid until its next call. Elsewhere the sizes are
    :func:`row_counts`.
    """
    rows, q = t.shape
    scratch = Scratch() if scratch is None else scratch
    if _by_words(t) or q >= 256:
        sizes = row_counts(t, p, scratch)
        return pack_columns(t, scratch), pack_columns(p, scratch), sizes
    packed = []
    # the three sums, eight rows per word, written in place: no temporaries
    sums = scratch.get("pack_sizes", (3, (rows + (-rows % 64)) // 8), WORD)
    for y, total in zip((t, p), sums):  # one transposed copy at a time
        columns = _transposed(y, scratch, "pack_columns")
        packed.append(_packed(columns))
        # native words: the bytes never carry, so any byte order adds them alike
        np.add.reduce(columns.view(np.uint64), axis=0, out=total)
    T, P = packed
    _row_sizes(T & P, sums[2])
    return T, P, tuple(total.view(np.uint8)[:rows] for total in sums)


# Bytes of unpacked bits per step of _row_sizes: all labels at once up to 32
# labels of a 2**16-row block (one unpacked copy measured faster than steps of
# 512 KiB); more labels take steps of this size.
_UNPACK_BYTES = 1 << 21


def _row_sizes(words, out):
    """Set bits of each row (column bit) of (q, words) bit vectors, q < 256,
    into ``out`` (8 * words uint64, eight rows per word, one byte each): the
    bits unpacked to bytes (:data:`_UNPACK_BYTES` at a time) and added eight
    rows per word."""
    q, n_words = words.shape
    step = max(1, _UNPACK_BYTES // (64 * n_words))
    for start in range(0, q, step):
        chunk = np.ascontiguousarray(words[start : start + step]).view(np.uint8)
        bits = np.unpackbits(chunk, axis=1, bitorder="little").view(np.uint64)
        if start == 0:
            np.add.reduce(bits, axis=0, out=out)
        else:
            out += np.add.reduce(bits, axis=0)
    return out


_SHIFTS = [np.uint64(i) for i in range(8)]


def _pack_by_words(y, scratch):
    """:func:`pack_columns` of whole words of rows, without a bytewise transpose.

    Eight labels of a row are one 8-byte word (one 0/1 byte each), read in
    place as a strided view; ORing the words of 8 consecutive rows shifted by
    0..7 puts those rows' bits of the 8 labels into the 8 bytes of one word,
    and only those bytes (an eighth of the data) are transposed. The last word
    of a row ends at the row's end and may overlap the one before it: it
    writes the same bytes again. 3x faster than the transpose at q = 50 on
    one thread, 1.15x on two; at q = 20 it was 1.3x slower on two threads.
    """
    rows, q = y.shape
    out = np.empty((q, rows // 8), dtype=np.uint8)
    packed = scratch.get("pack_words", (rows // 8,), WORD)
    shifted = scratch.get("pack_words_shifted", (rows // 8,), WORD)
    for offset in [*range(0, q - 8, 8), q - 8]:
        words = _lanes(y, offset).reshape(rows // 8, 8)  # [8 rows, 8 labels]
        np.copyto(packed, words[:, 0])
        for i in range(1, 8):
            np.left_shift(words[:, i], _SHIFTS[i], out=shifted)
            packed |= shifted
        out[offset : offset + 8] = packed.view(np.uint8).reshape(rows // 8, 8).T
    return out.view(WORD)


def _whole(words):
    return np.array([0, words], dtype=np.intp)


def popcount(words, word_bounds=None):
    """Set bits of ``words`` summed over the last axis, as int64.

    With ``word_bounds`` (the word offsets of the groups of a
    :func:`group_layout`, ending with the total), one sum per group: the
    result gains a last axis of ``len(word_bounds) - 1``.
    """
    if word_bounds is None:
        return popcount(words, _whole(words.shape[-1]))[..., 0]
    counts = np.bitwise_count(words) if NATIVE_POPCOUNT else _swar_popcount(words)
    if len(word_bounds) == 2:  # one group: a plain sum is faster
        return counts.sum(axis=-1, dtype=np.int64)[..., None]
    return np.add.reduceat(counts, word_bounds[:-1], axis=-1, dtype=np.int64)


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)


def _swar_popcount(words):
    """Set bits of each uint64 word, for NumPy 1.x: the classic SWAR steps
    (pairs, nibbles, bytes, then the bytes added by one multiplication)."""
    x = words - ((words >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _BYTES_ONE) >> np.uint64(56)


def and_counts(a, b, word_bounds=None, scratch=None):
    """(len(a), len(b)) int64: popcount of ``a[r] & b[c]`` over the words.

    ``a`` and ``b`` are (rows, words) bit vectors of the same rows. With
    ``word_bounds``, one count per group: (len(a), len(b), groups). Without
    ``np.bitwise_count`` the bits are unpacked and multiplied as float32.
    ``scratch`` (a ``_chunking.Scratch``) lends the (rows, columns, words)
    temporaries.
    """
    if word_bounds is None:
        return and_counts(a, b, _whole(a.shape[1]), scratch)[..., 0]
    if not NATIVE_POPCOUNT:
        return np.stack(
            [
                _and_counts_float32(a[:, start:stop], b[:, start:stop])
                for start, stop in zip(word_bounds[:-1], word_bounds[1:])
            ],
            axis=-1,
        )
    scratch = Scratch() if scratch is None else scratch
    n_a, n_b, words = a.shape[0], b.shape[0], a.shape[1]
    out = np.empty((n_a, n_b, len(word_bounds) - 1), dtype=np.int64)
    step = max(1, _STEP_WORDS // max(n_b * words, 1))
    both = scratch.get("and_counts", (step, n_b, words), WORD)
    bits = scratch.get("and_counts_bits", (step, n_b, words), np.uint8)
    for r in range(0, n_a, step):
        stop = min(r + step, n_a)
        rows = stop - r
        np.bitwise_and(a[r:stop, None, :], b[None, :, :], out=both[:rows])
        np.bitwise_count(both[:rows], out=bits[:rows])
        if len(word_bounds) == 2:  # one group: a plain sum is 10% faster
            out[r:stop, :, 0] = bits[:rows].sum(axis=-1, dtype=np.int64)
        else:
            out[r:stop] = np.add.reduceat(
                bits[:rows], word_bounds[:-1], axis=-1, dtype=np.int64
            )
    return out


def _and_counts_float32(a, b):
    out = np.zeros((a.shape[0], b.shape[0]), dtype=np.int64)
    for start in range(0, a.shape[1], _F32_WORDS):
        stop = start + _F32_WORDS
        x = _unpack(a[:, start:stop]).astype(np.float32)
        y = _unpack(b[:, start:stop]).astype(np.float32)
        out += np.rint(x @ y.T).astype(np.int64)
    return out


def _unpack(words):
    as_bytes = np.ascontiguousarray(words).view(np.uint8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")


def group_layout(keys, n_keys, scratch=None):
    """Group a block's rows by ``keys`` (ints in ``[0, n_keys)``), word-aligned.

    Returns ``(source, groups, word_bounds, sizes)``. Row ``i`` of the grouped
    block is row ``source[i]`` of the block, or an empty padding row where
    ``source[i]`` is the block's length (see :func:`gather_rows`). The rows of
    key ``groups[g]`` come in their original order and fill the words
    ``word_bounds[g]:word_bounds[g + 1]`` of the packed vectors, followed by
    padding up to the next word; ``sizes[g]`` is their number. Every group
    starts on a word, so per-group counts are sums over ranges of words.
    """
    n = keys.shape[0]
    counts = np.bincount(keys, minlength=n_keys)
    groups = np.flatnonzero(counts)
    sizes = counts[groups]
    word_bounds = np.zeros(len(groups) + 1, dtype=np.intp)
    np.cumsum(-(-sizes // 64), out=word_bounds[1:])
    # a stable sort of 8- or 16-bit keys is a radix sort, 7x faster than int64's
    small = np.uint8 if n_keys <= 256 else np.uint16 if n_keys <= 65536 else None
    order = np.argsort(keys if small is None else keys.astype(small), kind="stable")
    # the sorted rows of group g move from their rank to row 64 * word_bounds[g]
    ranks = np.zeros(len(groups), dtype=np.intp)
    np.cumsum(sizes[:-1], out=ranks[1:])
    target = np.repeat(64 * word_bounds[:-1] - ranks, sizes)
    target += np.arange(n)
    scratch = Scratch() if scratch is None else scratch
    source = scratch.get("group_layout", (64 * word_bounds[-1],), np.intp)
    source.fill(n)
    source[target] = order
    return source, groups, word_bounds, sizes


def gather_rows(y, source, scratch=None):
    """Rows ``source`` of the (rows, q) block ``y``; index ``rows`` is empty.

    The result is a buffer of ``scratch``, valid until its next call.
    """
    rows, q = y.shape
    scratch = Scratch() if scratch is None else scratch
    padded = scratch.get("gather_rows_in", (rows + 1, q), y.dtype)
    out = scratch.get("gather_rows_out", (len(source), q), y.dtype)
    padded[:-1] = y
    padded[-1] = False
    return padded.take(source, axis=0, out=out)


def small_integer_keys(sample_weight, limit=256):
    """The weights as intp group keys when all are integers in ``[0, limit)``.

    Such weights (repeat counts, integer class weights) group the rows of a
    block into at most ``limit`` groups; None for any other weights.
    """
    if not (sample_weight.min() >= 0 and sample_weight.max() < limit):
        return None
    keys = sample_weight.astype(np.intp)
    return keys if np.array_equal(keys, sample_weight) else None


def row_counts(t, p, scratch=None):
    """Per-row sizes of T, P and T & P of two (rows, q) bool blocks.

    Returned as int16 (int32 from 2**15 labels), so that the per-row
    arithmetic on them moves little memory. Without BLAS, which would start
    its own threads inside the kernels' threads: for 8 <= q < 256 each row is
    read as 8-byte words (one 0/1 byte per label), the words of a row are
    added bytewise and the eight bytes of the sum added by one multiplication;
    otherwise the rows are summed as int16.
    """
    rows, q = t.shape
    if not 8 <= q < 256:
        small = np.int16 if q < 2**15 else np.int32
        return tuple(
            np.add.reduce(x.view(np.uint8), axis=1, dtype=small) for x in (t, p, t & p)
        )
    scratch = Scratch() if scratch is None else scratch
    t = np.ascontiguousarray(t)
    p = np.ascontiguousarray(p)
    # lanes: bytes 8l..8l+7 of each row; the last lane ends at the row's end
    # and masks off the bytes that the lane before it already read
    offsets = [*range(0, q - 8, 8), q - 8]
    overlap = offsets[-2] + 8 - offsets[-1] if len(offsets) > 1 else 0
    keep = np.uint64(~((1 << (8 * overlap)) - 1) & (2**64 - 1))
    sums = [scratch.get(f"row_counts_{i}", (rows,), WORD) for i in range(3)]
    lane_t = scratch.get("row_counts_t", (rows,), WORD)
    lane_p = scratch.get("row_counts_p", (rows,), WORD)
    for i, offset in enumerate(offsets):
        if i == len(offsets) - 1 and overlap:
            np.bitwise_and(_lanes(t, offset), keep, out=lane_t)
            np.bitwise_and(_lanes(p, offset), keep, out=lane_p)
        else:
            np.copyto(lane_t, _lanes(t, offset))
            np.copyto(lane_p, _lanes(p, offset))
        if i == 0:
            np.copyto(sums[0], lane_t)
            np.copyto(sums[1], lane_p)
            np.bitwise_and(lane_t, lane_p, out=sums[2])
        else:
            sums[0] += lane_t
            sums[1] += lane_p
            lane_t &= lane_p
            sums[2] += lane_t
    for total in sums:
        total *= _BYTES_ONE
        total >>= np.uint64(56)
    return tuple(total.astype(np.int16) for total in sums)


# Multiplying by it adds the eight bytes of a word into its top byte.
_BYTES_ONE = np.uint64(0x0101010101010101)


def _lanes(y, offset):
    """Bytes ``offset..offset+7`` of each row of C-contiguous ``y``, as words."""
    return np.ndarray(
        (y.shape[0],), dtype=WORD, buffer=y, offset=offset, strides=(y.shape[1],)
    )
