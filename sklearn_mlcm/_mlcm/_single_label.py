"""Single-label instances (1-D class labels): one cell each, for both papers.

With one true class t and one predicted class p per instance, Heydarian's
Algorithms 2-5 and Krstinić's Algorithm 1 agree: a correct instance adds to
``C[t, t]``, a wrong one to ``C[t, p]`` (category 3, scenario iv, whose
fraction 1 / |Z - Y| is 1); a class outside ``labels`` is an empty set, so
the instance goes to the NTL row (category 2) or the NPL column (category 1),
and to the corner when both are. The matrix is one histogram of the pairs
``(t, p)``, with index q for an empty set.
"""

import numpy as np
from scipy import sparse

__all__ = ["single_label_matrix", "single_label_supports"]


def single_label_matrix(t, p, n_labels, sample_weight=None, *, integer, dense):
    """The (q+1, q+1) matrix of class indices ``t`` and ``p`` (q = empty set).

    int64 when ``integer`` and unweighted, float64 otherwise; a CSR array
    unless ``dense``.
    """
    size = n_labels + 1
    if dense:
        counts = np.bincount(t * size + p, weights=sample_weight, minlength=size**2)
        matrix = counts.reshape(size, size)
    else:
        values = np.ones(t.shape[0]) if sample_weight is None else sample_weight
        matrix = sparse.csr_array((values, (t, p)), shape=(size, size))
        matrix.sum_duplicates()
    if sample_weight is None and integer:
        if dense:
            return matrix.astype(np.int64, copy=False)
        return sparse.csr_array(
            (np.rint(matrix.data).astype(np.int64), matrix.indices, matrix.indptr),
            shape=matrix.shape,
        )
    return matrix.astype(np.float64, copy=False)


def single_label_supports(t, n_labels, sample_weight=None):
    """Per-class true totals and the total of instances with no true class."""
    counts = np.bincount(t, weights=sample_weight, minlength=n_labels + 1)
    if sample_weight is None:
        counts = counts.astype(np.int64)
        return counts[:n_labels], int(counts[n_labels])
    return counts[:n_labels], float(counts[n_labels])
