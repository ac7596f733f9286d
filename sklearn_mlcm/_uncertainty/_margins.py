"""The margins of the MLCM, and every score read off them; the resampling rules.

*Margins* are the three margins of an MLCM, its diagonal, row sums and
column sums, an array (..., 3, q+1) (the vocabulary of the package is in
:mod:`._table`). Every score of the library needs only them. Each margin is
a sum over the instances of a contribution that depends only on the pair
(true set, predicted set), given here for single instances by Heydarian's
rules and Krstinić's scenarios (:data:`INSTANCE_MARGINS`); the margins of
any re-weighting of the instances (a bootstrap resample, a swap of two
classifiers' predictions, a Poisson replicate) are then one product of the
weights by the table of the distinct pairs (:mod:`._table`), with no matrix
rebuilt. The scores of many margins at once (:func:`scores_from_margins`,
:func:`every_score`) serve the intervals, the paired comparison, the
accumulator and the threshold curves; the rules on the number of resamples
and of units are here too.
"""

import math
from fractions import Fraction

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import invalid_parameter
from sklearn_mlcm._statistics import STATISTICS, ratio_metric, undefined_mask

__all__ = [
    "BATCH_CELLS",
    "SCORES",
    "INSTANCE_MARGINS",
    "MAX_RESAMPLES",
    "METRICS",
    "as_dense_bool",
    "batches",
    "check_resamples",
    "averaged",
    "heydarian_margins",
    "krstinic_margins",
    "margin_counts",
    "min_resamples",
    "resamples_resolve_tails",
    "every_score",
    "scores_from_margins",
    "undefined_scores",
]

#: More resamples than this are refused: they would take hours, not add
#: precision (the p-value's resolution is already 1e-6).
MAX_RESAMPLES = 10**6

#: At most this many weights (resamples x instances) are held at once.
BATCH_CELLS = 1 << 21

#: The values of the ``metric`` option of the intervals and the paired
#: comparison: every statistic of the registry, under its ``options`` ("f1"
#: and "fbeta" for F-beta) or else its name, in the registry's order.
METRICS = tuple(name for s in STATISTICS.values() for name in s.options or (s.name,))

#: The ``metric`` options of the threshold curves and of the accumulator's
#: Poisson intervals: the registry's ``options`` alone (the five scores whose
#: curves, best thresholds and stream intervals are documented).
SCORES = tuple(name for s in STATISTICS.values() for name in s.options)


# -- the margins of single instances ------------------------------------------


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
    """(k, 3, q+1) margins (diagonal, row sums, column sums) of Krstinic's
    fractional MLCM of each of k single instances, ``t`` and ``p`` (k, q)
    bool: the kernel's four scenarios (``_mlcm/_krstinic.py``) read off the
    set sizes.

    Y & Z is on the diagonal, scaled by |Y|/|Z| in scenario (ii); the
    off-diagonal part ``s * A (x) B`` (A = Y - Z or Y, B = Z - Y or Z) adds
    ``s |B| A`` to the row sums and ``s |A| B`` to the column sums; an empty
    prediction sends each true label to the NPL column, an empty truth
    spreads 1/|Z| over the predicted labels in the NTL row, and both empty
    add the corner.
    """
    k, q = t.shape
    tp, fn, fp = t & p, t & ~p, p & ~t
    n_true, n_pred, n_tp = (x.sum(axis=1)[:, None] for x in (t, p, tp))
    n_fn, n_fp = n_true - n_tp, n_pred - n_tp
    safe_pred = np.maximum(n_pred, 1)
    ii = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
    iii = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
    iv = (n_fn > 0) & (n_fp > 0)
    diag_scale = np.where(ii, n_true / safe_pred, 1.0)
    scale = np.where(iv, 1.0 / np.maximum(n_fp, 1), (ii | iii) / safe_pred)
    a = fn | (tp & (n_fn == 0))
    b = fp | (tp & (n_fp == 0))
    no_true, no_pred = n_true == 0, n_pred == 0
    corner = (no_true & no_pred)[:, 0]
    margins = np.zeros((k, 3, q + 1))
    diag = diag_scale * tp
    margins[:, 0, :q] = diag
    margins[:, 0, q] = corner
    margins[:, 1, :q] = diag + scale * b.sum(axis=1)[:, None] * a + no_pred * fn
    margins[:, 2, :q] = (
        diag + scale * a.sum(axis=1)[:, None] * b + no_true * fp / safe_pred
    )
    margins[:, 1, q] = (no_true * n_fp / safe_pred)[:, 0] + corner
    margins[:, 2, q] = (no_pred * n_fn)[:, 0] + corner
    return margins


#: The margins of single instances, by method.
INSTANCE_MARGINS = {"heydarian": heydarian_margins, "krstinic": krstinic_margins}


def as_dense_bool(y):
    """A clean indicator matrix as dense bool."""
    if sparse.issparse(y):
        y = y.toarray()
    return np.asarray(y, dtype=bool)


# -- scores from margins, vectorised over resamples ----------------------------


def margin_counts(margins, tn):
    """(B, 3, q+1) margins -> TP, FP, FN and TN, each (B, q+1), of every index.

    ``tn="complement"`` counts every cell outside row k and column k (the
    subtraction's rounding error near 0 is cleared); ``"diagonal"`` is the
    trace minus the diagonal cell (Heydarian's eq. 16).
    """
    diag, rows, cols = margins[:, 0], margins[:, 1], margins[:, 2]
    tp, fp, fn = diag, cols - diag, rows - diag
    if tn == "diagonal":
        tn_ = diag.sum(axis=1, keepdims=True) - diag
    else:
        total = rows.sum(axis=1, keepdims=True)
        tn_ = total - tp - fp - fn
        # rounding error where the true count is 0, as one_vs_rest_counts
        # clears it (relative to the total: tiny weights are real counts)
        tn_ = np.where(tn_ <= 16 * np.finfo(np.float64).eps * total, 0.0, tn_)
    return tp, fp, fn, tn_


def averaged(metric, label, counts, rows, average, *, beta, zero_division, shown):
    """The ``average`` (B,) of the label values ``label`` (B, shown).

    "micro" pools the counts of the shown indices, "micro_all" of all q+1;
    "macro" is the mean and "weighted" the mean weighted by the row sums,
    NaN left out (every weight zero: the plain mean).
    """
    if average in ("micro", "micro_all"):
        stop = shown if average == "micro" else rows.shape[1]
        pooled = [x[:, :stop].sum(axis=1) for x in counts]
        value = ratio_metric(metric, *pooled, beta=beta, zero_division=zero_division)
        return np.asarray(value, dtype=np.float64)
    if not np.isnan(label).any():  # the common case, without masks
        if average == "macro":
            return label.mean(axis=1)
        weights = _scaled(rows[:, :shown])
        total = weights.sum(axis=1)
        plain = label.mean(axis=1)  # every weight zero: the plain mean
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, (label * weights).sum(axis=1) / total, plain)
    weights = _scaled(rows[:, :shown]) if average == "weighted" else np.ones_like(label)
    keep = ~np.isnan(label)
    weights = np.where(keep, weights, 0.0)
    unweighted = weights.sum(axis=1) == 0  # every weight zero: plain mean
    weights[unweighted] = keep[unweighted]
    values = np.where(keep, label, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (values * weights).sum(axis=1) / weights.sum(axis=1)


def _scaled(weights):
    """Each row of ``weights`` (B, k) times the power of two that brings its
    largest value into [0.5, 1) (rows of zeros stay): products with tiny
    (subnormal) row sums keep their digits, and other weights give the same
    bits, a power of two being exact."""
    _, exponent = np.frexp(weights.max(axis=1, keepdims=True, initial=0.0))
    return np.ldexp(weights, -exponent)


def scores_from_margins(margins, metric, average, *, beta, tn, zero_division):
    """(B, 3, q+1) margins -> averaged scores (B,) and label scores (B, q)."""
    q = margins.shape[2] - 1
    counts = margin_counts(margins, tn)
    label = ratio_metric(
        metric, *(x[:, :q] for x in counts), beta=beta, zero_division=zero_division
    )
    overall = averaged(
        metric,
        label,
        counts,
        margins[:, 1],
        average,
        beta=beta,
        zero_division=zero_division,
        shown=q,
    )
    return np.asarray(overall, dtype=np.float64), label


def every_score(
    margins,
    metrics,
    averages,
    *,
    beta,
    tn,
    zero_division,
    shown,
    warn_for=(),
    undefined=False,
):
    """Every score of every resample, read off the same margins.

    Returns ``{metric: (B, shown)}`` label values and ``{(metric, average):
    (B,)}`` averages, for ``metrics`` among the registry's names
    (:data:`~sklearn_mlcm._statistics.STATISTICS`, each scored and
    undefined by its declaration, :func:`~sklearn_mlcm._statistics.
    ratio_metric`) and its aliases ("f1"), and ``averages`` among "micro",
    "micro_all", "macro", "weighted"; with ``undefined``,
    also ``{metric: (B, shown) mask}`` of the label values whose ratio had a
    zero denominator. ``shown`` is q, or q+1 to score the no-label index
    too. With ``zero_division="warn"`` only the metrics in ``warn_for``
    warn; the others take 0.0 silently.
    """
    counts = margin_counts(margins, tn)
    shown_counts = tuple(x[:, :shown] for x in counts)
    rows = margins[:, 1]
    labels, overall, masks = {}, {}, {}
    for metric in metrics:
        division = zero_division
        if zero_division == "warn" and metric not in warn_for:
            division = 0.0
        label = ratio_metric(metric, *shown_counts, beta=beta, zero_division=division)
        labels[metric] = label
        if undefined:
            masks[metric] = undefined_mask(metric, *shown_counts, beta=beta)
        for average in averages:  # only a pooled (micro) ratio can warn here
            overall[metric, average] = averaged(
                metric,
                label,
                counts,
                rows,
                average,
                beta=beta,
                zero_division=division,
                shown=shown,
            )
    if undefined:
        return labels, overall, masks
    return labels, overall


# -- resampling -----------------------------------------------------------------


def batches(n_total, n_units, cells=BATCH_CELLS):
    """Batch sizes of at most ``cells`` weights (resamples x units) each."""
    size = max(1, cells // max(n_units, 1))
    while n_total > 0:
        yield min(size, n_total)
        n_total -= size


def undefined_scores(margins, options):
    """(B, q) mask of the label scores of ``options["metric"]`` that are
    undefined: the registry's rule on the counts of the margins."""
    counts = margin_counts(margins, options["tn"])
    return undefined_mask(
        options["metric"],
        *(x[:, :-1] for x in counts),
        beta=options["beta"],
    )


def min_resamples(confidence_level, *, one_sided=False):
    """The fewest resamples that resolve the tails of an interval at
    ``confidence_level``: ``ceil(1 / alpha - 1)``, with ``alpha`` the tail
    beyond each bound, ``(1 - confidence_level) / 2`` (or ``1 -
    confidence_level`` for a one-sided interval).

    The bound is the ``alpha`` quantile of the B resamples. It is the
    ``(B + 1) alpha``-th smallest resample, with resamples beyond it, only
    when ``(B + 1) alpha >= 1``; with fewer resamples it is read at (or
    between) the most extreme ones, whatever the level: 95% intervals of 1
    or 2 resamples are as wide as their spread, or zero wide. The level is
    taken as written (its shortest decimal): 0.9 needs 19 resamples, not the
    20 of the binary 0.9000000000000000222.
    """
    level = Fraction(repr(float(confidence_level)))
    alpha = (1 - level) / (1 if one_sided else 2)
    return max(1, math.ceil(1 / alpha - 1))


def check_resamples(n_resamples, confidence_level, *, one_sided=False):
    """Refuse fewer resamples than :func:`min_resamples`, naming both
    parameters, the minimum and what arrived."""
    minimum = min_resamples(confidence_level, one_sided=one_sided)
    if n_resamples >= minimum:
        return
    tail = (1.0 - confidence_level) / (1.0 if one_sided else 2.0)
    beyond = "beyond its bound" if one_sided else "beyond each bound"
    expected = (
        f"at least {minimum:,} for confidence_level={confidence_level!r}: "
        f"the interval leaves {tail:.4g} of the resamples {beyond}, which "
        f"needs (n_resamples + 1) x {tail:.4g} >= 1"
    )
    if minimum > MAX_RESAMPLES:
        expected += (
            f", more than the {MAX_RESAMPLES:,} resamples allowed; choose a "
            "lower confidence_level"
        )
    raise invalid_parameter("n_resamples", expected, n_resamples)


def resamples_resolve_tails(arguments):
    """The rule of :func:`check_resamples` for ``validate_params``: the
    ``n_resamples`` and ``confidence_level`` of a public function (none
    checked without a level), one-sided for an ``alternative`` other than
    "two-sided"."""
    level = arguments["confidence_level"]
    if level is None:
        return
    one_sided = arguments.get("alternative", "two-sided") != "two-sided"
    check_resamples(arguments["n_resamples"], level, one_sided=one_sided)
