"""The label-set confusions of Array API targets, counted on their device.

:func:`~sklearn_mlcm.labelset_confusions` of targets that stay in their
namespace (:class:`~sklearn_mlcm._validation._array_api.DeviceTargets`, under
``array_api_dispatch``): each row's true and predicted sets are packed into
int64 words of 62 labels (exact keys, whatever the number of labels), the
rows whose two sets differ are sorted by their words (stable sorts, last
word first: a lexicographic sort), and the ends of the runs of equal words
are the distinct pairs. Their counts are the runs' lengths, or the sums of
their weights (a segmented scan: each sum adds weights of its own run only,
pairwise, so that no run's sum is a difference of running totals). All of
it on the device; only the pairs of the ``top_k`` largest counts (and the
pairs tied with the last of them) come back to the host, as their words and
counts, where they are unpacked and ordered as the NumPy code orders them.
"""

import numpy as np

from sklearn_mlcm._validation._array_api import to_numpy

__all__ = ["device_labelset_pairs"]

#: Labels per int64 word of a packed set (2**62 - 1 at most: no sign bit).
WORD_BITS = 62
#: Cells (rows x labels) packed at once.
BLOCK_CELLS = 1 << 22


def _words(y, xp, device):
    """The rows of a (b, q) bool array as (b, W) int64 words of 62 labels."""
    b, q = y.shape
    words = []
    for first in range(0, q, WORD_BITS):
        last = min(first + WORD_BITS, q)
        powers = xp.asarray(
            np.left_shift(np.int64(1), np.arange(last - first, dtype=np.int64)),
            device=device,
        )
        bits = xp.astype(y[:, first:last], xp.int64)
        words.append(xp.sum(bits * powers[None, :], axis=1))
    return xp.stack(words, axis=1)


def _packed_rows(dev):
    """(differing rows, their true and predicted words (m, 2W)), the rows
    whose sets differ (and whose weight is positive), packed block by
    block."""
    xp, device = dev.xp, dev.device
    t, p = dev.y_true, dev.y_pred
    n, q = t.shape
    step = max(1, BLOCK_CELLS // q)
    blocks, kept = [], []
    for start in range(0, n, step):
        stop = min(start + step, n)
        tb, pb = t[start:stop, :], p[start:stop, :]
        differ = xp.any(tb != pb, axis=1)
        if dev.weight is not None:
            differ = differ & (dev.weight[start:stop] > 0)
        (rows,) = xp.nonzero(differ)
        words = xp.concat([_words(tb, xp, device), _words(pb, xp, device)], axis=1)
        blocks.append(xp.take(words, rows, axis=0))
        kept.append(rows + start)
    return xp.concat(kept), xp.concat(blocks, axis=0)


def _lexicographic_order(words, xp):
    """The order of the rows sorted by their words, the first word first."""
    order = xp.argsort(words[:, -1], stable=True)
    for j in range(words.shape[1] - 2, -1, -1):
        column = xp.take(words[:, j], order)
        order = xp.take(order, xp.argsort(column, stable=True))
    return order


def _segment_sums(values, last, xp, device):
    """The sum of each run of ``values`` (``last`` marks the end of each
    run), by a segmented inclusive scan (Hillis and Steele): log2 of the
    longest run passes, each adding to a value one of its own run only."""
    m = values.shape[0]
    is_start = xp.concat([xp.ones((1,), dtype=xp.bool, device=device), last[:-1]])
    (starts,) = xp.nonzero(is_start)
    (ends,) = xp.nonzero(last)
    run = xp.cumulative_sum(xp.astype(is_start, xp.int64)) - 1
    first = xp.take(starts, run)
    position = xp.arange(m, device=device)
    longest = int(xp.max(ends - starts)) + 1  # one number to the host
    zeros = xp.zeros_like(values)
    step = 1
    while step < longest:
        shifted = xp.concat([zeros[:step], values[: m - step]])
        values = values + xp.where(position - step >= first, shifted, zeros)
        step *= 2
    return xp.take(values, ends)


def _unpack(words, q):
    """Host (c, W) int64 words -> tuples of the labels set, ascending."""
    shifts = np.arange(WORD_BITS, dtype=np.int64)
    bits = (words[:, :, None] >> shifts) & 1
    bits = bits.reshape(words.shape[0], -1)[:, :q]
    return [tuple(np.flatnonzero(row).tolist()) for row in bits]


def device_labelset_pairs(dev, top_k):
    """The ``top_k`` most frequent pairs of unequal label sets of
    :class:`~sklearn_mlcm._validation._array_api.DeviceTargets`, as
    ``(true tuple, predicted tuple, count)``, ordered as
    :func:`~._top_confusions._top_labelset_pairs` orders them (largest
    count first, then the sets as tuples)."""
    xp, device = dev.xp, dev.device
    q = dev.y_true.shape[1]
    rows, words = _packed_rows(dev)
    m = rows.shape[0]
    if m == 0:
        return []
    order = _lexicographic_order(words, xp)
    words = xp.take(words, order, axis=0)
    change = xp.any(words[1:, :] != words[:-1, :], axis=1)
    last = xp.concat([change, xp.ones((1,), dtype=xp.bool, device=device)])
    (ends,) = xp.nonzero(last)
    if dev.weight is None:
        before = xp.asarray([-1], dtype=ends.dtype, device=device)
        counts = xp.astype(ends - xp.concat([before, ends[:-1]]), xp.int64)
    else:
        weights = xp.take(xp.take(dev.weight, rows), order)
        counts = _segment_sums(weights, last, xp, device)
    if counts.shape[0] > top_k:  # the pairs tied with the top_k-th count too
        kth = xp.sort(counts, descending=True)[top_k - 1]
        (chosen,) = xp.nonzero(counts >= kth)
        counts, ends = xp.take(counts, chosen), xp.take(ends, chosen)
    host_words = to_numpy(xp.take(words, ends, axis=0), xp).astype(np.int64)
    host_counts = to_numpy(counts, xp).tolist()
    width = host_words.shape[1] // 2
    pairs = list(
        zip(
            _unpack(host_words[:, :width], q),
            _unpack(host_words[:, width:], q),
            host_counts,
        )
    )
    pairs.sort(key=lambda pair: (-pair[2], pair[0], pair[1]))
    return pairs[:top_k]
