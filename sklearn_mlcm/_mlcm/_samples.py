"""The samples average's sums: each instance's own ratios, in one pass.

scikit-learn's ``average="samples"`` scores each instance on its own: with T
its true set and P its predicted set, precision ``|T & P| / |P|``, recall
``|T & P| / |T|`` and F-beta ``(1 + b²) |T & P| / (b² |T| + |P|)``, then
averages over the instances, weighted by ``sample_weight``. An instance's
ratios depend only on the three set sizes, so one pass over the rows
(:func:`~._bits.row_counts` on dense blocks, the row lengths of CSR arrays,
the class codes of 1-D input) gives them all; no matrix is built.

The average is kept as four sums per ratio, over the instances (a
``(3, 4)`` array: precision, recall, F-beta; then ``S, D, U, N``):

- ``S``: the weight times the ratio, over the instances whose ratio is
  defined;
- ``D``: their weight;
- ``U``: the weight of the others (a zero denominator), which take
  ``zero_division``;
- ``N``: how many others there are (whether to warn).

The sums are additive (blocks, dask chunks, batches of a stream and the
units of a resample add up) and do not depend on ``zero_division``, which
is applied when they are read (:func:`~sklearn_mlcm._averaging.
samples_average`). scikit-learn weighs the counts, ``w |T & P| / (w |P|)``,
so an instance of weight zero has undefined ratios; it is counted in ``N``
and weighs nothing.

With ``include_no_label`` the no-label index is one more label: an empty
true set is {NTL} and an empty predicted set {NPL}, and an instance with
both empty is correct (precision, recall and F of 1).
"""

import numpy as np
from scipy import sparse

from ._bits import row_counts
from ._chunking import BIT_ROWS, Scratch, dense_block, map_row_blocks

__all__ = [
    "RATIOS",
    "instance_ratios",
    "ratio_sums",
    "samples_sums",
    "set_sizes",
    "single_label_samples_sums",
]

#: The ratios of the samples average, in the order of the sums' first axis.
RATIOS = ("precision", "recall", "fbeta")


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


def ratio_sums(values, defined, weight=None):
    """The (3, 4) sums ``S, D, U, N`` of instances' ratios (see the module)."""
    if weight is not None:  # weighted counts: weight 0 leaves them undefined
        defined = defined & (weight[:, None] > 0)
        w = weight[:, None]
    else:
        w = np.ones((values.shape[0], 1))
    undefined = ~defined
    return np.stack(
        [
            np.where(defined, w * values, 0.0).sum(axis=0),
            np.where(defined, w, 0.0).sum(axis=0),
            np.where(undefined, w, 0.0).sum(axis=0),
            undefined.sum(axis=0).astype(np.float64),
        ],
        axis=-1,
    )


def _option_sums(sizes, weight, options):
    """(len(options), 3, 4): the sums of the set sizes ``(n_true, n_pred,
    n_both)`` for each ``(beta, include_no_label)`` of ``options``."""
    return np.stack(
        [
            ratio_sums(
                *instance_ratios(*sizes, beta=beta, include_no_label=with_no_label),
                weight,
            )
            for beta, with_no_label in options
        ]
    )


def set_sizes(t, p, scratch=None):
    """``(n_true, n_pred, n_both)`` per row of two clean (rows, q) blocks,
    dense bool or CSR."""
    if sparse.issparse(t):
        both = t.multiply(p).tocsr()
        both.eliminate_zeros()
        return tuple(np.diff(x.indptr) for x in (t.tocsr(), p.tocsr(), both))
    return row_counts(np.ascontiguousarray(t), np.ascontiguousarray(p), scratch)


def samples_sums(y_true, y_pred, sample_weight, options):
    """(len(options), 3, 4): the sums of clean indicator matrices, dense or
    CSR, for each ``(beta, include_no_label)`` of ``options``.

    Dense rows are read in blocks (bounded temporaries, on the kernels'
    threads); a CSR array in one pass over its index arrays.
    """
    if sparse.issparse(y_true):
        sizes = set_sizes(y_true, y_pred)
        return _option_sums(sizes, sample_weight, options)
    scratch = Scratch()

    def block(start, stop):
        sizes = set_sizes(
            dense_block(y_true, start, stop), dense_block(y_pred, start, stop), scratch
        )
        w = None if sample_weight is None else sample_weight[start:stop]
        return _option_sums(sizes, w, options)

    n = y_true.shape[0]
    if n == 0:
        return np.zeros((len(options), len(RATIOS), 4))
    return map_row_blocks(block, n, BIT_ROWS)


def single_label_samples_sums(t, p, n_labels, sample_weight, options):
    """(len(options), 3, 4): the sums of 1-D class codes (``n_labels`` for a
    class outside ``labels``, an empty set); each set has at most one label."""
    n_true = t < n_labels
    n_pred = p < n_labels
    n_both = n_true & (t == p)
    return _option_sums((n_true, n_pred, n_both), sample_weight, options)
