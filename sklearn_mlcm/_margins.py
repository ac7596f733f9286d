"""The resampling engine: MLCM scores from three margins of re-weighted samples.

Every score of the library needs only three margins of the MLCM: its
diagonal, its row sums and its column sums. Each margin is a sum over the
instances of a contribution that depends only on the pair (true set,
predicted set), so the margins of any re-weighting of the instances (a
bootstrap resample, a swap of two classifiers' predictions) are one product
of the weights by a table of the distinct pairs' contributions, with no
matrix rebuilt. The paired comparison and the confidence intervals are built
on it.
"""

import numpy as np
from scipy import sparse

from ._confusion import mlcm_confusion_matrix
from ._statistics import ratio_metric
from ._validation import MAX_DENSE_BYTES, input_error

__all__ = [
    "BATCH_CELLS",
    "MAX_RESAMPLES",
    "METRICS",
    "Margins",
    "as_dense_bool",
    "batches",
    "check_groups",
    "heydarian_margins",
    "krstinic_margins",
    "resampled_margins",
    "scores_from_margins",
    "undefined_scores",
]

#: More resamples than this are refused: they would take hours, not add
#: precision (the p-value's resolution is already 1e-6).
MAX_RESAMPLES = 10**6

#: At most this many weights (resamples x instances) are held at once.
BATCH_CELLS = 1 << 21

METRICS = {
    "precision": "precision",
    "recall": "recall",
    "f1": "fbeta",
    "fbeta": "fbeta",
    "specificity": "specificity",
}


# -- the margins of re-weighted samples -------------------------------------


class Margins:
    """Per-instance margin contributions of one prediction set.

    ``pair_margins[k]`` is the (3, q+1) stack (diagonal, row sums, column
    sums) of the MLCM of one instance with the k-th distinct (true set,
    predicted set) pair; ``row_pair[i]`` is the pair of instance i. The
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
        keys = np.packbits(np.concatenate([t, p], axis=1), axis=1)
        _, first, row_pair = np.unique(
            keys, axis=0, return_index=True, return_inverse=True
        )
        row_pair = row_pair.ravel()
        if method == "heydarian":
            margins = heydarian_margins(t[first], p[first])
        else:  # Krstinic's fractions: the kernel, once per distinct pair
            margins = np.empty((len(first), 3, q + 1))
            for k, i in enumerate(first):
                cm = mlcm_confusion_matrix(
                    t[i : i + 1], p[i : i + 1], method=method, sparse_output=True
                )
                margins[k, 0] = cm.diagonal()
                margins[k, 1] = np.asarray(cm.sum(axis=1)).ravel()
                margins[k, 2] = np.asarray(cm.sum(axis=0)).ravel()
        self.n_rows, self.n_labels = n, q
        self.row_pair = row_pair
        self.pair_margins = margins.reshape(len(first), -1)
        self._selector = sparse.csr_array(
            (np.ones(n), (np.arange(n), row_pair)), shape=(n, len(first))
        )

    def margins(self, row_weights):
        """(B, n) weights -> (B, 3, q+1): diagonal, row and column sums."""
        pair_weights = (self._selector.T @ np.asarray(row_weights).T).T
        out = pair_weights @ self.pair_margins
        return out.reshape(len(out), 3, self.n_labels + 1)


def heydarian_margins(t, p):
    """(k, 3, q+1) margins (diagonal, row sums, column sums) of the MLCM of
    each of k single instances, ``t`` and ``p`` (k, q) bool: Heydarian's
    rules (Algorithms 2-5) read off the set sizes, without the kernel.

    With T2 = T - P and P2 = P - T: T & P is on the diagonal; both sets empty
    add the corner; P2 empty (category 1) sends each of T2 to the NPL column;
    T2 empty (category 2) charges each of P2 to every true label (to the NTL
    row when T is empty); otherwise (category 3) each of T2 to each of P2.
    """
    k, q = t.shape
    both = t & p
    t2, p2 = t & ~p, p & ~t
    n_t, n_t2, n_p2 = (x.sum(axis=1)[:, None] for x in (t, t2, p2))
    n_p = p.sum(axis=1)[:, None]
    empty = (n_t == 0) & (n_p == 0)
    cat1 = (n_t2 > 0) & (n_p2 == 0)
    cat2 = (n_t2 == 0) & (n_p2 > 0)
    cat3 = (n_t2 > 0) & (n_p2 > 0)
    margins = np.zeros((k, 3, q + 1))
    margins[:, 0, :q] = both
    margins[:, 0, q] = empty[:, 0]
    rows = both + cat1 * t2 + cat2 * t * n_p2 + cat3 * t2 * n_p2
    cols = both + cat2 * p2 * np.maximum(n_t, 1) + cat3 * p2 * n_t2
    margins[:, 1, :q] = rows
    margins[:, 2, :q] = cols
    margins[:, 1, q] = (empty + cat2 * (n_t == 0) * n_p2)[:, 0]
    margins[:, 2, q] = (empty + cat1 * n_t2)[:, 0]
    return margins


def krstinic_margins(t, p):
    """(k, 3, q+1) margins of Krstinić's fractional matrix of each of k single
    instances, ``t`` and ``p`` (k, q) bool, read off the set sizes (the
    kernel's four scenarios, ``_mlcm/_krstinic.py``).

    Every true label's row sums to one (or the unknown row's, for an empty
    truth); the diagonal holds Y & Z, scaled by |Y|/|Z| when Z is a strict
    superset of Y; the columns: |Y|/|Z| on each of Z when Z is a strict
    superset, 1 + |Y - Z|/|Z| on each of Z when Z is a strict subset,
    |Y - Z|/|Z - Y| on each wrong label otherwise; an empty prediction sends
    |Y| to the unknown column, an empty truth 1/|Z| to each predicted label.
    """
    k, q = t.shape
    both = t & p
    fn, fp = t & ~p, p & ~t
    n_t, n_p, n_fn, n_fp = (x.sum(axis=1)[:, None] for x in (t, p, fn, fp))
    safe_p = np.maximum(n_p, 1)
    superset = (n_fn == 0) & (n_fp > 0) & (n_t > 0)  # scenario (ii)
    subset = (n_fn > 0) & (n_fp == 0) & (n_p > 0)  # scenario (iii)
    crossed = (n_fn > 0) & (n_fp > 0)  # scenario (iv)
    no_truth = (n_t == 0) & (n_p > 0)
    margins = np.zeros((k, 3, q + 1))
    margins[:, 0, :q] = np.where(superset, both * (n_t / safe_p), both)
    margins[:, 1, :q] = t
    margins[:, 2, :q] = (
        superset * p * (n_t / safe_p)
        + subset * p * (1 + n_fn / safe_p)
        + crossed * (fp * (n_fn / np.maximum(n_fp, 1)) + both)
        + ((n_fn == 0) & (n_fp == 0)) * both
        + no_truth * p / safe_p
    )
    empty = ((n_t == 0) & (n_p == 0))[:, 0]
    margins[:, 0, q] = empty
    margins[:, 1, q] = empty + no_truth[:, 0]
    margins[:, 2, q] = empty + ((n_p == 0) * n_t)[:, 0]
    return margins


def as_dense_bool(y):
    """A clean indicator matrix as dense bool."""
    if sparse.issparse(y):
        y = y.toarray()
    return np.asarray(y, dtype=bool)


def resampled_margins(table, row_weights):
    """The margins (B, 3, q+1) of the samples re-weighted by ``row_weights``."""
    return table.margins(row_weights)


# -- scores from margins, vectorised over resamples ----------------------------


def scores_from_margins(margins, metric, average, *, beta, tn, zero_division):
    """(B, 3, q+1) margins -> averaged scores (B,) and label scores (B, q)."""
    diag, rows, cols = margins[:, 0], margins[:, 1], margins[:, 2]
    q = diag.shape[1] - 1
    tp, fp, fn = diag, cols - diag, rows - diag
    total = rows.sum(axis=1, keepdims=True)
    if tn == "diagonal":
        tn_ = diag.sum(axis=1, keepdims=True) - diag
    else:
        tn_ = total - tp - fp - fn
        # rounding error where the true count is 0, as one_vs_rest_counts
        # clears it (relative to the total: tiny weights are real counts)
        tn_ = np.where(tn_ <= 16 * np.finfo(np.float64).eps * total, 0.0, tn_)
    kind = METRICS[metric]
    beta = 1.0 if metric == "f1" else beta
    label = ratio_metric(
        kind,
        tp[:, :q],
        fp[:, :q],
        fn[:, :q],
        tn_[:, :q],
        beta=beta,
        zero_division=zero_division,
    )
    if average in ("micro", "micro_all"):
        stop = q if average == "micro" else q + 1
        pooled = [x[:, :stop].sum(axis=1) for x in (tp, fp, fn, tn_)]
        overall = ratio_metric(kind, *pooled, beta=beta, zero_division=zero_division)
    else:
        weights = rows[:, :q] if average == "weighted" else np.ones_like(label)
        keep = ~np.isnan(label)
        weights = np.where(keep, weights, 0.0)
        unweighted = weights.sum(axis=1) == 0  # every weight zero: plain mean
        weights[unweighted] = keep[unweighted]
        values = np.where(keep, label, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            overall = (values * weights).sum(axis=1) / weights.sum(axis=1)
    return np.asarray(overall, dtype=np.float64), label


# -- resampling -----------------------------------------------------------------


def batches(n_total, n_units):
    """Batch sizes of at most ``BATCH_CELLS`` weights each."""
    size = max(1, BATCH_CELLS // max(n_units, 1))
    while n_total > 0:
        yield min(size, n_total)
        n_total -= size


def undefined_scores(margins, options):
    """(B, q) mask of the label scores whose ratio has a zero denominator."""
    diag, rows, cols = margins[:, 0, :-1], margins[:, 1, :-1], margins[:, 2, :-1]
    metric = options["metric"]
    if metric == "precision":
        return cols == 0
    if metric == "recall":
        return rows == 0
    if metric == "specificity":
        all_diag = margins[:, 0]
        if options["tn"] == "diagonal":
            tn = all_diag.sum(axis=1, keepdims=True)[:, :1] - diag
        else:
            total = margins[:, 1].sum(axis=1, keepdims=True)
            tn = total - rows - cols + diag
        return tn + (cols - diag) <= 0
    return (rows == 0) & (cols == 0)  # F-scores: no true, no predicted


def check_groups(groups, n_samples):
    """Groups -> (unit of each instance, number of units)."""
    if groups is None:
        return np.arange(n_samples), n_samples
    values = np.asarray(groups)
    if values.ndim != 1 or values.shape[0] != n_samples:
        raise input_error(
            "groups",
            f"a 1-D array of length n_samples={n_samples}",
            f"shape {values.shape}",
        )
    _, unit = np.unique(values, return_inverse=True)
    unit = unit.ravel()
    n_units = int(unit.max()) + 1
    if n_units < 2:
        raise input_error(
            "groups",
            "at least two distinct groups (one group cannot be resampled)",
            f"the single group {values[0]!r}",
        )
    return unit, n_units
