"""The table of distinct units: one tabulation of a test set for every resampling.

Vocabulary of :mod:`sklearn_mlcm._uncertainty`:

- *margins*: the three margins of an MLCM, its diagonal, row sums and column
  sums, an array (..., 3, q+1) (:mod:`._margins` computes them and reads
  every score off them); nothing else is called margins;
- *pair*: a distinct (true set, predicted set); an instance's contribution
  to the margins depends on its pair alone (:func:`distinct_pairs`) (the
  paired comparison's pairs of prediction sets are named so in
  :mod:`._paired` alone);
- *unit*: what a resample draws, an instance, or a group with ``groups``;
- *kind*: a distinct unit, (pair, weight) for instances, or a group;
- *the table*: :class:`UnitTable`, the distinct (pair, weight, group) rows
  of a test set with their counts, read as kinds of units; the paired
  comparison reads it instance by instance (:class:`InstancePairs`, the
  same distinct pairs with the pair of each instance) and the Poisson
  bootstrap of a stream batch by batch (:mod:`._poisson`).

A bootstrap resample of n instances says how often each instance is drawn: a
multinomial draw of n among n. Every score needs only the margins, sums over
the instances of a contribution that depends on the pair and the weight
alone, so instances of the same kind are exchangeable: only how often each
kind is drawn matters, and a resample is a multinomial draw of n among the
kinds, with probabilities their shares. Its cost is then the number of kinds,
not of instances. With ``groups`` the unit is the group (the cluster
bootstrap), and a group's contribution is the sum of its instances'.

The table is tabulated chunk by chunk (blocks of rows of a NumPy input, the
chunks of a dask array where they live) and combined in a canonical, sorted
order, so that every chunking gives the same table and a seed the same
resamples; memory is the number of kinds, not of instances.
"""

import numpy as np
from scipy import sparse

from sklearn_mlcm._mlcm._dask import import_dask, is_dask_collection
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._mlcm._samples import (
    RATIOS,
    RESAMPLED_SUMS,
    SUMS_SHAPE,
    instance_ratios,
)
from sklearn_mlcm._param_validation import current_function, public_call
from sklearn_mlcm._validation._label_space import check_mlcm_targets
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import input_error
from sklearn_mlcm._validation._targets import check_sample_weight, check_weight_sums

from ._margins import INSTANCE_MARGINS, as_dense_bool

__all__ = [
    "DRAW_CELLS",
    "InstancePairs",
    "UnitTable",
    "check_groups",
    "check_two_units",
    "combine_tables",
    "dask_table",
    "distinct_pairs",
    "draw_counts",
    "group_codes",
    "resample_counts",
    "tabulate",
]

#: Cells (rows x labels) densified at once while a block of rows is tabulated.
ROW_BLOCK_CELLS = 1 << 23

#: Draws (resamples x units) made at once: small enough to stay in the cache,
#: where drawing, looking up and counting them is about 2x faster than in
#: batches of millions.
DRAW_CELLS = 1 << 17

#: A resample draws n positions when the distinct kinds are more than n / this
#: (n uniform integers and a count, about 9 ns per instance), and a
#: multinomial of the kinds otherwise (one binomial each, about 50 ns).
POSITIONS_RATIO = 6


# -- units: instances or groups ---------------------------------------------------


def group_codes(groups):
    """``(distinct groups, sorted; the code of each instance's group)``.

    Groups whose values do not sort together (None or NaN beside strings,
    in an object array) are refused, naming the kinds found.
    """
    values = np.asarray(groups)
    try:
        distinct, codes = np.unique(values, return_inverse=True)
    except TypeError:
        kinds = sorted({type(value).__name__ for value in values.ravel().tolist()})
        raise input_error(
            "groups",
            "values of one kind that sort together (numbers, or strings)",
            f"values of the types {kinds}",
        ) from None
    return distinct, codes.ravel()


def check_two_units(n_units, groups=None):
    """Refuse fewer than two units to resample: one instance (or, with the
    distinct ``groups``, one group) has the test set as its only resample,
    and the interval [x, x] would claim a certainty there is none of."""
    if n_units >= 2:
        return
    if groups is None:
        raise input_error(
            "y_true",
            "a set of at least two instances (one instance cannot be resampled)",
            f"{n_units} instance",
        )
    raise input_error(
        "groups",
        "at least two distinct groups (one group cannot be resampled)",
        "no group" if n_units == 0 else f"the single group {groups.tolist()[0]!r}",
    )


def check_groups(groups, n_samples):
    """Groups -> (unit of each instance, number of units)."""
    if groups is None:
        check_two_units(n_samples)
        return np.arange(n_samples), n_samples
    values = np.asarray(groups)
    if values.ndim != 1 or values.shape[0] != n_samples:
        raise input_error(
            "groups",
            f"a 1-D array of length n_samples={n_samples}",
            f"shape {values.shape}",
        )
    distinct, unit = group_codes(values)
    check_two_units(distinct.size, groups=distinct)
    return unit, distinct.size


# -- the table ---------------------------------------------------------------------


def _pair_words(t, p):
    """(m, W) uint64: the packed bits of each row's (true set, predicted
    set), read big-endian, so that sorting the words sorts the pairs."""
    bits = np.packbits(np.concatenate([t, p], axis=1), axis=1)
    pad = (-bits.shape[1]) % 8
    if pad:
        bits = np.pad(bits, ((0, 0), (0, pad)))
    return bits.view(">u8").astype(np.uint64)


def _unique_rows(columns):
    """Distinct rows of the 1-D uint64 ``columns`` (sorted, first column
    first): ``(index of each distinct row's first occurrence, inverse)``."""
    n = columns[0].shape[0]
    if len(columns) == 1:
        _, first, inverse = np.unique(
            columns[0], return_index=True, return_inverse=True
        )
        return first, inverse.ravel()
    order = np.lexsort(columns[::-1])
    new = np.zeros(n, dtype=bool)
    new[:1] = True
    for column in columns:
        values = column[order]
        new[1:] |= values[1:] != values[:-1]
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def _word_columns(words):
    return [words[:, j] for j in range(words.shape[1])]


def distinct_pairs(t, p):
    """The distinct pairs of clean dense bool targets ``t`` and ``p`` (m, q),
    sorted: ``(index of each pair's first row, the pair of each row)``."""
    return _unique_rows(_word_columns(_pair_words(t, p)))


def _unpack_pairs(words, n_labels):
    """(k, q) bool true sets and predicted sets of the pair words ``words``."""
    q = n_labels
    bits = np.unpackbits(words.astype(">u8").view(np.uint8), axis=1)
    return bits[:, :q].astype(bool), bits[:, q : 2 * q].astype(bool)


def _key_columns(words, weight, group):
    columns = _word_columns(words)
    if weight is not None:
        columns.append((weight + 0.0).view(np.uint64))  # -0.0 counts as 0.0
    if group is not None:
        columns.append(group.astype(np.uint64))
    return columns


def _merge(words, weight, group, count):
    """Rows with the same key (pair words, weight, group) merged, counts summed."""
    if words.shape[0] == 0:
        return words, weight, group, count
    first, inverse = _unique_rows(_key_columns(words, weight, group))
    return (
        words[first],
        None if weight is None else weight[first],
        None if group is None else group[first],
        np.bincount(inverse, weights=count, minlength=first.size).astype(np.int64),
    )


def tabulate(t, p, weight=None, groups=None):
    """The distinct (pair, weight, group) rows of clean targets ``t`` and ``p``
    (bool or CSR, shape (m, q)), with their counts, block by block.

    Returns ``(words, weight, group_codes, group_values, count)``; ``weight``
    is None without weights, the group fields None without groups.
    """
    m, q = t.shape
    values = codes = None
    if groups is not None:
        values, codes = group_codes(groups)
    step = max(1, ROW_BLOCK_CELLS // max(2 * q, 1))
    parts = []
    for start in range(0, m, step):
        stop = min(start + step, m)
        words = _pair_words(as_dense_bool(t[start:stop]), as_dense_bool(p[start:stop]))
        parts.append(
            _merge(
                words,
                None if weight is None else weight[start:stop],
                None if codes is None else codes[start:stop],
                np.ones(stop - start, dtype=np.int64),
            )
        )
    if not parts:  # no rows: an empty table
        width = (2 * q + 63) // 64
        parts.append(
            (
                np.zeros((0, width), dtype=np.uint64),
                None if weight is None else np.zeros(0),
                None if codes is None else np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
            )
        )
    words, w, g, count = _merge(
        *(None if part[0] is None else np.concatenate(part) for part in zip(*parts))
    )
    return words, w, g, values, count


def combine_tables(tables):
    """One table of the tables of several chunks, in the canonical order:
    the same whatever the chunking. Group values are mapped to the codes of
    their sorted union."""
    words = np.concatenate([t[0] for t in tables])
    weight = None if tables[0][1] is None else np.concatenate([t[1] for t in tables])
    count = np.concatenate([t[4] for t in tables])
    group = values = None
    if tables[0][3] is not None:
        values = group_codes(np.concatenate([t[3] for t in tables]))[0]
        group = np.concatenate(
            [np.searchsorted(values, t[3])[t[2]] for t in tables]
        ).astype(np.int64)
    words, weight, group, count = _merge(words, weight, group, count)
    return words, weight, group, values, count


def row_blocks(matrix, step):
    """``[(start, stop, block)]``: the rows of a CSR array in blocks of
    ``step`` rows (:func:`row_block`)."""
    n = matrix.shape[0]
    bounds = [(start, min(start + step, n)) for start in range(0, n, step)]
    return [(start, stop, row_block(matrix, start, stop)) for start, stop in bounds]


def row_block(matrix, start, stop):
    """Rows ``start`` to ``stop`` of a CSR array, a view of its arrays (a
    slice copies them, and took a third of the variances' time); the array
    itself where the rows are all of it."""
    if start == 0 and stop == matrix.shape[0]:
        return matrix
    first, last = matrix.indptr[start], matrix.indptr[stop]
    return sparse.csr_array(
        (
            matrix.data[first:last],
            matrix.indices[first:last],
            matrix.indptr[start : stop + 1] - first,
        ),
        shape=(stop - start, matrix.shape[1]),
        copy=False,
    )


class UnitTable:
    """The distinct units of a test set, ready to be resampled.

    Built from a combined table (:func:`tabulate`, :func:`combine_tables`).
    A unit is an instance, or a group with ``grouped``. Distinct instances
    (pair, weight) are kept once with their multiplicity; groups are kept one
    by one. ``unit_margins`` (n_kinds, 3 (q+1)) holds each kind's margins
    (diagonal, row sums, column sums, weighted): the margins of counts ``c``
    (B, n_kinds) are ``c @ unit_margins``.
    """

    def __init__(self, table, n_labels, method, *, grouped):
        words, weight, group, values, count = table
        q = n_labels
        first, pair = _unique_rows(_word_columns(words))
        n_pairs = first.size
        if 2 * n_pairs * q > MAX_DENSE_BYTES:
            raise input_error(
                "y_true",
                f"at most {MAX_DENSE_BYTES // 2:,} cells (distinct (true set, "
                "predicted set) pairs x n_labels) to resample; keep fewer labels "
                "(labels=...)",
                f"{n_pairs:,} x {q:,}",
            )
        self.pair_true, self.pair_pred = _unpack_pairs(words[first], q)
        self.method = method
        self.n_labels = q
        margins = _pair_margins(self.pair_true, self.pair_pred, method)
        w = np.ones(count.size) if weight is None else weight
        if grouped:
            n_kinds = values.size
            kinds = sparse.csr_array(
                (count * w, (group, pair)), shape=(n_kinds, n_pairs)
            )
            multiplicity = np.ones(n_kinds)
        else:
            n_kinds = count.size
            kinds = sparse.csr_array(
                (w, (np.arange(n_kinds), pair)), shape=(n_kinds, n_pairs)
            )
            multiplicity = count.astype(np.float64)
        kinds.sum_duplicates()
        #: (n_kinds, n_pairs): the weight of each pair in one unit of each kind
        self.kind_pairs = kinds
        self.unit_margins = sparse.csr_array(kinds @ margins)
        self.multiplicity = multiplicity
        self.n_units = int(round(multiplicity.sum()))
        self.n_kinds = n_kinds
        self.draw_positions = n_kinds * POSITIONS_RATIO >= self.n_units
        #: resamples drawn from one stream: a function of the table alone, so
        #: that a seed gives the same resamples however many threads draw them
        self.chunk = max(
            1, DRAW_CELLS // (self.n_units if self.draw_positions else n_kinds)
        )
        self._kind_of_position = None
        self._observed = None
        self._row_blocks = {}

    def drawn_margins(self, counts):
        """(B, n_kinds) counts of the kinds -> (B, 3, q+1) margins."""
        return self.margins_of(np.ascontiguousarray(counts.T, dtype=np.float64))

    def margins_of(self, drawn):
        """(n_kinds, B) counts of the kinds, C-ordered -> (B, 3, q+1) margins:
        the product reads them as they are (the transposed counts of
        :meth:`drawn_margins`, which the product would copy, are kept by
        the caller for the macro averages' variances)."""
        flat = (self.unit_margins.T @ drawn).T
        return flat.reshape(len(flat), 3, self.n_labels + 1)

    def margin_row_blocks(self, step):
        """``[(start, stop, block)]``: the rows of ``unit_margins`` in blocks
        of ``step`` kinds, each a CSR view of its arrays, built once per
        ``step`` (a CSR array's construction took a tenth of the macro
        variances' time, built again for every batch of resamples)."""
        blocks = self._row_blocks.get(step)
        if blocks is None:  # two threads may build it: the same blocks
            blocks = row_blocks(self.unit_margins, step)
            self._row_blocks[step] = blocks
        return blocks

    def observed(self):
        """The margins (1, 3, q+1) of the test set itself: computed once (a
        pass over every kind's margins), a copy each time."""
        if self._observed is None:
            self._observed = self.drawn_margins(self.multiplicity[None, :])
        return self._observed.copy()

    def kind_of_position(self):
        """The kind at each of the ``n_units`` positions, kinds laid out in
        order, each over as many positions as it has units (int32 below
        2**31 kinds: half the memory of a chunk's draws, which are int64)."""
        if self._kind_of_position is None:
            dtype = np.int32 if self.n_kinds < 2**31 else np.int64
            self._kind_of_position = np.repeat(
                np.arange(self.n_kinds, dtype=dtype),
                self.multiplicity.astype(np.int64),
            )
        return self._kind_of_position

    def samples_sums(self, *, beta, include_no_label):
        """(n_kinds, 3, 4): one unit of each kind's sums of the samples
        average (:mod:`._mlcm._samples`), so that the sums of counts ``c``
        (B, n_kinds) are ``c @ sums``.

        An instance's ratios depend on its pair alone, so they are computed
        once per distinct pair and weighed by the pairs' weights in each
        kind. The count ``N`` says here whether a unit holds an instance of
        positive weight whose ratio is undefined (it is only tested for
        being positive).
        """
        t, p = self.pair_true, self.pair_pred
        values, defined = instance_ratios(
            t.sum(axis=1),
            p.sum(axis=1),
            (t & p).sum(axis=1),
            beta=beta,
            include_no_label=include_no_label,
        )
        undefined = (~defined).astype(np.float64)
        weighted = np.concatenate(
            [np.where(defined, values, 0.0), defined.astype(np.float64), undefined],
            axis=1,
        )
        sums = np.asarray(self.kind_pairs @ weighted).reshape(
            self.n_kinds, len(RESAMPLED_SUMS), len(RATIOS)
        )
        present = self.kind_pairs.copy()
        present.data = (present.data > 0).astype(np.float64)
        any_undefined = (present @ undefined > 0).astype(np.float64)
        out = np.empty((self.n_kinds, *SUMS_SHAPE))
        out[:, :, 0] = sums[:, 0]
        out[:, :, 1] = sums[:, 1]
        out[:, :, 2] = sums[:, 2]
        out[:, :, 3] = any_undefined
        return out

    def cells(self):
        """(n_kinds, (q+1)**2) CSR: each kind's contribution to every cell."""
        q1 = self.n_labels + 1
        rows = []
        kernel = METHODS[self.method]  # on the table's clean rows: no validation
        for t, p in zip(self.pair_true, self.pair_pred):
            cm = sparse.csr_array(
                kernel(sparse.csr_array(t[None, :]), sparse.csr_array(p[None, :]), None)
            )
            rows.append(sparse.csr_array(cm.reshape((1, q1 * q1))))
        pair_cells = sparse.vstack(rows, format="csr") if rows else None
        if pair_cells is None:
            return sparse.csr_array((self.n_kinds, q1 * q1))
        return sparse.csr_array(self.kind_pairs @ pair_cells)


class InstancePairs:
    """The table read instance by instance: the distinct pairs of one
    prediction set (:func:`distinct_pairs`) with the pair of each instance,
    for re-weightings that are not counts of kinds (the paired comparison's
    swaps of two prediction sets, its resamples of groups).

    ``pair_margins[k]`` is the flattened (3, q+1) margins of the MLCM of one
    instance of the k-th pair; ``row_pair[i]`` is the pair of instance i. The
    margins of weights ``w`` of shape (B, n) are then ``(w @ S) @ M`` with S
    the (n, n_pairs) indicator of ``row_pair``.
    """

    def __init__(self, y_true, y_pred, method):
        n, q = y_true.shape
        if 2 * n * q > MAX_DENSE_BYTES:  # the two bool arrays read below
            raise input_error(
                "y_true",
                f"at most {MAX_DENSE_BYTES // 2:,} cells (n_samples x n_labels) "
                "for a paired comparison; compare a subset of the labels "
                "(labels=...) or of the instances",
                f"{n:,} x {q:,}",
            )
        t = as_dense_bool(y_true)
        p = as_dense_bool(y_pred)
        first, row_pair = distinct_pairs(t, p)
        self.n_rows, self.n_labels = n, q
        self.row_pair = row_pair
        margins = INSTANCE_MARGINS[method](t[first], p[first])
        self.pair_margins = margins.reshape(len(first), -1)
        self._selector = sparse.csr_array(
            (np.ones(n), (np.arange(n), row_pair)), shape=(n, len(first))
        )

    def weighted_margins(self, row_weights):
        """(B, n) weights -> (B, 3, q+1) margins."""
        pair_weights = (self._selector.T @ np.asarray(row_weights).T).T
        out = pair_weights @ self.pair_margins
        return out.reshape(len(out), 3, self.n_labels + 1)


def _pair_margins(t, p, method):
    """(n_pairs, 3 (q+1)) CSR margins of the MLCM of each distinct pair,
    built in blocks of pairs so that only the sparse table is held."""
    k, q = t.shape
    step = max(1, ROW_BLOCK_CELLS // (3 * (q + 1)))
    blocks = []
    for start in range(0, k, step):
        stop = min(start + step, k)
        margins = INSTANCE_MARGINS[method](t[start:stop], p[start:stop])
        blocks.append(sparse.csr_array(margins.reshape(stop - start, -1)))
    if not blocks:
        return sparse.csr_array((0, 3 * (q + 1)))
    return sparse.vstack(blocks, format="csr")


def draw_counts(rng, size, units):
    """(size, n_kinds) float64: how often each kind of unit is drawn in each
    of ``size`` resamples of ``n_units`` draws with replacement.

    The law is the multinomial of ``n_units`` draws with probabilities the
    kinds' shares, drawn either as ``n_units`` uniform positions (kinds laid
    out in order, each over as many positions as it has units) counted per
    kind, or as :meth:`numpy.random.Generator.multinomial`, whichever is
    cheaper; the choice depends on the table alone, and the draws are made
    resample after resample, so a seed gives the same counts however the
    resamples are batched.
    """
    n, k = units.n_units, units.n_kinds
    if not units.draw_positions:
        counts = rng.multinomial(n, units.multiplicity / n, size=size)
        return counts.astype(np.float64)
    out = np.empty((size, k))
    step = max(1, DRAW_CELLS // n)
    for start in range(0, size, step):
        rows = min(step, size - start)
        # each draw's kind looked up, then counted per kind: one pass over
        # the draws (counting per position, then reading each kind's count
        # off the running count at its last position, took 2.4x as long for
        # 7,209 positions, and as long for 10**6)
        drawn = rng.integers(0, n, size=(rows, n))
        kinds = units.kind_of_position()[drawn]
        if rows > 1:
            kinds = kinds + (np.arange(rows, dtype=np.int64) * k)[:, None]
        counts = np.bincount(kinds.ravel(), minlength=rows * k).reshape(rows, k)
        out[start : start + rows] = counts
    return out


def chunk_generator(seed, index):
    """The random stream of chunk ``index`` of the resamples of ``seed``: the
    ``index``-th child of the seed's :class:`numpy.random.SeedSequence`."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def resample_counts(seed, start, stop, units):
    """(stop - start, n_kinds) float64: the counts of the kinds in resamples
    ``start`` to ``stop`` of ``seed`` (``start`` a multiple of ``units.chunk``),
    drawn chunk by chunk (``units.chunk`` resamples each), each chunk from its
    own stream, into one array."""
    counts = np.empty((stop - start, units.n_kinds))
    for row in range(start, stop, units.chunk):
        size = min(units.chunk, stop - row)
        rng = chunk_generator(seed, row // units.chunk)
        counts[row - start : row - start + size] = draw_counts(rng, size, units)
    return counts


# -- dask: each chunk tabulated where it lives --------------------------------


def _chunk_table(t, p, w, g, *, labels, caller):
    """The table of one chunk of rows, validated as NumPy input would be.

    The task runs in dask's threads or processes, outside the public call: it
    carries the call's name (``caller``) and runs inside it again.
    """
    q = len(labels) if labels is not None else t.shape[1]
    if t.shape[0] == 0:
        empty = np.zeros((0, q), dtype=bool)
        return tabulate(
            empty,
            empty,
            None if w is None else np.zeros(0),
            None if g is None else np.asarray(g),
        )
    with public_call(caller):
        space = check_mlcm_targets(t, p, labels=labels)
        if w is not None:
            w = check_sample_weight(w, t.shape[0])
            check_weight_sums(w, q)
    return tabulate(space.y_true, space.y_pred, w, g)


def dask_table(targets):
    """The combined table of validated dask input (the call's
    :class:`~sklearn_mlcm._validation._targets.Targets`): ``(table, n_labels, names)``.

    Each chunk of rows is tabulated on its worker; only the chunks' tables
    (their distinct units) come back and are combined, so memory is the
    number of distinct units, not of instances.
    """
    dask, da = import_dask()
    y_true, y_pred, labels = targets.chunks
    sample_weight, groups = targets.weight, targets.groups
    y_true, y_pred = da.asarray(y_true), da.asarray(y_pred)
    q = targets.n_labels
    y_true = y_true.rechunk({1: -1})
    y_pred = y_pred.rechunk(y_true.chunks)
    rows = (y_true.chunks[0],)
    blocks = [y.to_delayed().ravel() for y in (y_true, y_pred)]
    for values in (sample_weight, groups):
        if values is None:
            blocks.append([None] * len(blocks[0]))
            continue
        # NumPy values are cut at the rows' chunks directly: dask cannot
        # size the automatic chunks of an object array (string groups)
        values = (
            da.asarray(values).rechunk(rows)
            if is_dask_collection(values)
            else da.from_array(np.asarray(values), chunks=rows)
        )
        blocks.append(values.to_delayed().ravel())
    chunk = dask.delayed(_chunk_table, pure=True)
    tables = dask.compute(
        *(
            chunk(*parts, labels=labels, caller=current_function())
            for parts in zip(*blocks)
        )
    )
    table = combine_tables(list(tables))
    if sample_weight is not None:  # each chunk's sums were within float64
        check_weight_sums(table[1] * table[4], q)
    return table, q, list(targets.names)
