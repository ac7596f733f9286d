"""The samples average's table: how many instances have each set sizes.

scikit-learn's ``average="samples"`` scores each instance on its own: with T
its true set and P its predicted set, precision ``|T & P| / |P|``, recall
``|T & P| / |T|`` and F-beta ``(1 + b²) |T & P| / (b² |T| + |P|)``, then
averages over the instances, weighted by ``sample_weight``. An instance's
ratios depend only on its three set sizes ``(|T|, |P|, |T & P|)``, so the
average is a function of one small table: each distinct triple of sizes,
how many instances have it and their total weight (a :class:`SizeTable`).
The kernels count the sizes in their own pass over the rows, block by block
(each block's share, :func:`block_share`, added up like its matrix and read
by :func:`table_of_shares`); without a matrix, :func:`tabulate_sizes` reads
them alone (:func:`~._bits.row_counts` on dense blocks, the row lengths of
CSR arrays, the class codes of 1-D input).

Tables add up (blocks, dask chunks, the batches of a stream) and keep their
triples sorted, and the average is read off a table in that order
(:func:`table_sums`): the same instances give the same table, and the same
bits, however they were split (exactly without weights or with integer
weights). ``beta``, ``include_no_label`` and ``zero_division`` are applied
when the table is read.

The sums read off a table are four per ratio (a ``(3, 4)`` array:
precision, recall, F-beta; then ``S, D, U, N``):

- ``S``: the weight times the ratio, over the instances whose ratio is
  defined;
- ``D``: their weight;
- ``U``: the weight of the others (a zero denominator), which take
  ``zero_division``;
- ``N``: how many others there are (whether to warn).

scikit-learn weighs the counts, ``w |T & P| / (w |P|)``, so an instance of
weight zero has undefined ratios: it is counted in ``N`` and weighs nothing.
With ``include_no_label`` the no-label index is one more label: an empty
true set is {NTL} and an empty predicted set {NPL}, and an instance with
both empty is correct (precision, recall and F of 1).
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ._bits import row_counts
from ._chunking import (
    BIT_ROWS,
    Scratch,
    dense_block,
    map_row_blocks,
    map_windows,
)

__all__ = [
    "BINCOUNT_KEYS",
    "RATIOS",
    "RESAMPLED_SUMS",
    "SUMS",
    "SUMS_SHAPE",
    "SizeTable",
    "add_table",
    "empty_table",
    "instance_ratios",
    "block_share",
    "map_float_blocks",
    "merge_tables",
    "set_sizes",
    "single_label_table",
    "size_table",
    "table_of_shares",
    "table_sums",
    "tabulate_sizes",
]

#: The ratios of the samples average, in the order of the sums' first axis.
RATIOS = ("precision", "recall", "fbeta")
#: The sums of each ratio, in the order of the sums' last axis: ``S``, the
#: weighted sum of the defined instances' ratios; ``D``, their weight; ``U``,
#: the weight of the undefined instances; ``N``, how many those are.
SUMS = ("S", "D", "U", "N")
#: The shape of a table's sums: a row per ratio, a column per sum.
SUMS_SHAPE = (len(RATIOS), len(SUMS))
#: The sums a resample or a replicate adds up, ``S``, ``D`` and ``U``
#: (``N``, which only says whether to warn, is read off the whole table).
RESAMPLED_SUMS = SUMS[:3]


@dataclass(frozen=True)
class SizeTable:
    """Distinct set sizes of the instances and how many have each.

    Attributes
    ----------
    sizes : ndarray of shape (k, 3), dtype int64
        ``(|T|, |P|, |T & P|)``, distinct, sorted.
    count : ndarray of shape (k,), dtype int64
        How many instances have them.
    weight : ndarray of shape (k,), dtype float64, or None
        Their total weight; None without weights (the count is the weight).
    n_zero_weight : int
        How many instances have weight zero.
    """

    sizes: np.ndarray
    count: np.ndarray
    weight: object = None
    n_zero_weight: int = 0

    def __add__(self, other):
        return merge_tables([self, other])


def empty_table(weighted):
    """The table of no instance."""
    return SizeTable(
        np.zeros((0, 3), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0) if weighted else None,
    )


#: :func:`_grouped` sorts the rows by one integer key below this many possible
#: keys (``base**3``, base the largest size plus one), by ``np.lexsort`` above.
SORT_KEYS = 1 << 62


def _grouped(sizes, count, weight, n_zero_weight):
    """The table of the rows of ``sizes`` (k, 3), equal rows merged: their
    counts (and weights) summed, in the rows' order, sorted.

    The rows are ordered by one integer key per row where it fits in int64
    (the key of :func:`size_table`, monotone in the row: a stable sort of it
    is the lexicographic sort of the rows, and merges the sorted runs of the
    tables being merged in linear time), otherwise by ``np.lexsort``.
    """
    if sizes.shape[0] == 0:
        return empty_table(weight is not None)
    base = int(sizes.max()) + 1
    if base**3 < SORT_KEYS:
        key = (sizes[:, 0] * base + sizes[:, 1]) * base + sizes[:, 2]
        order = np.argsort(key, kind="stable")
        key = key[order]
        new = np.ones(key.shape[0], dtype=bool)
        np.not_equal(key[1:], key[:-1], out=new[1:])
    else:
        order = np.lexsort(sizes.T[::-1])
        ordered = sizes[order]
        new = np.ones(sizes.shape[0], dtype=bool)
        new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    return SizeTable(
        sizes[order[starts]],
        np.add.reduceat(count[order], starts),
        None if weight is None else np.add.reduceat(weight[order], starts),
        int(n_zero_weight),
    )


#: Keys ``(|T| b + |P|) b + |T & P|`` (b the largest set size plus one)
#: are counted by ``np.bincount`` up to this many, by ``np.unique`` above.
BINCOUNT_KEYS = 1 << 22


def size_table(n_true, n_pred, n_both, weight=None):
    """The :class:`SizeTable` of per-instance set sizes (and weights).

    Each triple is one integer key, monotone in the triple, so the keys'
    order is the table's: a histogram of the keys (``np.bincount``, 10x
    faster than sorting 10**6 rows) where there are few possible keys, the
    sorted distinct keys otherwise.
    """
    n_true, n_pred, n_both = (
        np.asarray(x, dtype=np.int64) for x in (n_true, n_pred, n_both)
    )
    if weight is not None:
        weight = np.asarray(weight, dtype=np.float64)
    n_zero = 0 if weight is None else int(np.count_nonzero(weight == 0))
    if n_true.size == 0:
        return empty_table(weight is not None)
    base = int(max(n_true.max(), n_pred.max())) + 1
    if base**3 >= 1 << 62:  # the key would overflow: sort the triples
        sizes = np.stack([n_true, n_pred, n_both], axis=1)
        return _grouped(sizes, np.ones(n_true.size, dtype=np.int64), weight, n_zero)
    key = (n_true * base + n_pred) * base + n_both
    if base**3 <= BINCOUNT_KEYS:
        count = np.bincount(key, minlength=base**3)
        keys = np.flatnonzero(count != 0)  # 4x faster than of the int64 counts
        count = count[keys]
        total = None
        if weight is not None:
            total = np.bincount(key, weights=weight, minlength=base**3)[keys]
    else:
        keys, inverse = np.unique(key, return_inverse=True)
        inverse = inverse.ravel()
        count = np.bincount(inverse, minlength=keys.size)
        total = None
        if weight is not None:
            total = np.bincount(inverse, weights=weight, minlength=keys.size)
    return _from_keys(keys, count, total, base, n_zero)


def _from_keys(keys, count, weight, base, n_zero_weight=0):
    """The table of the sorted distinct keys ``(|T| b + |P|) b + |T & P|``."""
    sizes = np.empty((keys.shape[0], 3), dtype=np.int64)
    high, sizes[:, 2] = np.divmod(keys, base)
    sizes[:, 0], sizes[:, 1] = np.divmod(high, base)
    return SizeTable(sizes, count.astype(np.int64), weight, n_zero_weight)


#: Without weights, a row block of at most this many possible keys
#: ``(|T| b + |P|) b + |T & P|`` (b = q + 1, q <= 39) is counted as a
#: histogram of its 16-bit keys, added block to block: 3x cheaper than a
#: table per block, merged.
HISTOGRAM_KEYS = 1 << 16


def block_share(sizes, n_labels, weight=None, scratch=None):
    """One block's share of the :class:`SizeTable` of its rows' ``sizes``.

    ``sizes`` are ``(n_true, n_pred, n_both)`` per row (any integer dtype),
    ``weight`` the block's weights or None. Shares add up with ``+`` in
    block order, as a kernel's matrices do (``_chunking.map_row_blocks``),
    and :func:`table_of_shares` reads the table off their sum. Without
    weights and with few possible keys, the share is a histogram of the keys
    (a fixed base, q + 1, so that histograms add); otherwise a one-item list
    of the block's table (the lists are joined and merged), the table
    :func:`tabulate_sizes` makes of the block, bit for bit. ``scratch`` (a
    ``_chunking.Scratch``) lends the keys' buffer.
    """
    base = n_labels + 1
    if weight is None and base**3 <= HISTOGRAM_KEYS:
        # 16-bit keys, written in place: a quarter of the memory traffic of
        # int64 ones, and no temporaries
        n_true, n_pred, n_both = sizes
        scratch = Scratch() if scratch is None else scratch
        key = scratch.get("share_keys", n_true.shape, np.uint16)
        cast = {"out": key, "dtype": np.uint16, "casting": "unsafe"}
        np.multiply(n_true, base, **cast)
        np.add(key, n_pred, **cast)
        np.multiply(key, base, **cast)
        np.add(key, n_both, **cast)
        return np.bincount(key, minlength=base**3)
    return [size_table(*sizes, weight)]


def table_of_shares(total, n_labels, weighted):
    """The :class:`SizeTable` of the sum of :func:`block_share` s (None for no
    block)."""
    if total is None:
        return empty_table(weighted)
    if isinstance(total, list):
        return merge_tables(total)
    keys = np.flatnonzero(total != 0)  # 4x faster than of the int64 counts
    return _from_keys(keys, total[keys], None, n_labels + 1)


def map_float_blocks(block, y_true, y_pred, sample_weight, samples, *, rows, window):
    """The float kernels' pass, and the samples average's table if asked.

    ``block(y_true, y_pred, sample_weight, start, stop)`` returns a block's
    (q+2, q+1) total and its rows' ``(n_true, n_pred, n_both)``; the totals
    are summed over blocks of ``rows`` rows in order, in the calling thread.
    With ``samples``, ``(total, shares)``: the table of each window of
    ``window`` rows (a multiple of ``rows``) is made of its blocks' sizes. The
    kernels' windows are ``BIT_ROWS`` rows, the rows and weights that
    :func:`tabulate_sizes` makes one table of, summed in the same order
    (:func:`table_of_shares` merges them), hence the same bits.
    """

    def close(start, stop, sizes):
        if not samples:
            return []
        parts = (np.concatenate(part) for part in zip(*sizes))
        return [size_table(*parts, sample_weight[start:stop])]

    total, shares = map_windows(
        lambda start, stop: block(y_true, y_pred, sample_weight, start, stop),
        y_true.shape[0],
        rows,
        window,
        close,
    )
    if not samples:
        return total
    return total, [table for tables in shares for table in tables]


def merge_tables(tables):
    """One table of several; weighted if any is (the others' weight is
    their count)."""
    weight = None
    if any(t.weight is not None for t in tables):
        weight = np.concatenate(
            [t.count * 1.0 if t.weight is None else t.weight for t in tables]
        )
    return _grouped(
        np.concatenate([t.sizes for t in tables]),
        np.concatenate([t.count for t in tables]),
        weight,
        sum(t.n_zero_weight for t in tables),
    )


#: Tables without weights that :func:`add_table` merges at once.
MERGED_TABLES = 16


def add_table(running, waiting, table=None):
    """The running table with ``table`` added (None: those waiting merged).

    ``waiting`` is a list of tables not yet merged, updated in place. While
    no table has weights, the counts add up alike in any grouping: a table
    waits, and :data:`MERGED_TABLES` are merged at once (a merge per batch
    cost an accumulator's 10**5-row batch of 20 labels 2%). A weighted table
    is merged after those waiting, alone, as every table was before: its
    float sums keep their order.
    """
    if table is not None and table.weight is None and running.weight is None:
        waiting.append(table)
        if len(waiting) < MERGED_TABLES:
            return running
        table = None
    if waiting:
        running = merge_tables([running, *waiting])
        waiting.clear()
    if table is not None:
        running = merge_tables([running, table])
    return running


def instance_ratios(n_true, n_pred, n_both, *, beta, include_no_label):
    """Each instance's precision, recall and F-beta from its set sizes.

    Returns ``(values, defined)``, both of shape (n, 3): the ratios (0 where
    undefined) and whether their denominator is non-zero.
    """
    n_true = np.asarray(n_true, dtype=np.float64)
    n_pred = np.asarray(n_pred, dtype=np.float64)
    n_both = np.asarray(n_both, dtype=np.float64)
    if include_no_label:  # an empty set is the no-label index
        both_empty = (n_true == 0) & (n_pred == 0)
        n_both = n_both + both_empty
        n_true = np.maximum(n_true, 1.0)
        n_pred = np.maximum(n_pred, 1.0)
    if beta <= 1e50:
        b2 = beta * beta
        f_numerator, f_denominator = (1 + b2) * n_both, b2 * n_true + n_pred
    else:  # b² would overflow: divide through by it (F tends to the recall)
        inverse = (1.0 / beta) ** 2
        f_numerator = (1 + inverse) * n_both
        f_denominator = n_true + inverse * n_pred
    numerators = np.stack([n_both, n_both, f_numerator], axis=-1)
    denominators = np.stack([n_pred, n_true, f_denominator], axis=-1)
    defined = denominators > 0
    values = np.divide(
        numerators, denominators, out=np.zeros(numerators.shape), where=defined
    )
    return values, defined


def table_sums(table, *, beta, include_no_label):
    """The (3, 4) sums ``S, D, U, N`` of a table (see the module), summed in
    the table's order."""
    values, defined = instance_ratios(
        *table.sizes.T, beta=beta, include_no_label=include_no_label
    )
    count = table.count.astype(np.float64)[:, None]
    w = count if table.weight is None else table.weight[:, None]
    undefined = ~defined
    return np.stack(
        [
            np.where(defined, w * values, 0.0).sum(axis=0),
            np.where(defined, w, 0.0).sum(axis=0),
            np.where(undefined, w, 0.0).sum(axis=0),
            np.where(undefined, count, 0.0).sum(axis=0) + table.n_zero_weight,
        ],
        axis=-1,
    )


def set_sizes(t, p, scratch=None):
    """``(n_true, n_pred, n_both)`` per row of two clean (rows, q) blocks,
    dense bool or CSR."""
    if sparse.issparse(t) or sparse.issparse(p):
        t, p = sparse.csr_array(t), sparse.csr_array(p)
        both = sparse.csr_array(t.multiply(p))
        both.eliminate_zeros()
        return tuple(np.diff(x.indptr) for x in (t, p, both))
    return row_counts(np.ascontiguousarray(t), np.ascontiguousarray(p), scratch)


def tabulate_sizes(y_true, y_pred, sample_weight):
    """The :class:`SizeTable` of clean indicator matrices, dense or CSR.

    Dense rows are read in blocks (bounded temporaries, on the kernels'
    threads), each block's table merged in order; CSR input (either of the
    two) in one pass over its index arrays.
    """
    if sparse.issparse(y_true) or sparse.issparse(y_pred):
        return size_table(*set_sizes(y_true, y_pred), sample_weight)
    n, q = y_true.shape
    scratch = Scratch()

    def block(start, stop):
        sizes = set_sizes(
            dense_block(y_true, start, stop), dense_block(y_pred, start, stop), scratch
        )
        w = None if sample_weight is None else sample_weight[start:stop]
        return block_share(sizes, q, w, scratch)

    total = map_row_blocks(block, n, BIT_ROWS)
    return table_of_shares(total, q, sample_weight is not None)


def single_label_table(t, p, n_labels, sample_weight):
    """The :class:`SizeTable` of 1-D class codes (``n_labels`` for a class
    outside ``labels``, an empty set): each set has at most one label."""
    n_true = t < n_labels
    n_pred = p < n_labels
    return size_table(n_true, n_pred, n_true & (t == p), sample_weight)
