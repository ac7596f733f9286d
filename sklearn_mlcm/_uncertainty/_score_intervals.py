"""Score intervals for per-label ratios, and a studentised interval for macro
averages: intervals that keep their coverage where the bootstrap's collapse.

A per-label ratio (precision, recall, specificity, F-beta) of an MLCM is a
ratio of two sums over the instances, ``r = X / Y`` with ``X = sum_i x_i``
and ``Y = sum_i y_i``, each a linear form of the instance's one-vs-rest
counts (:func:`ratio_form`, :data:`COMPONENTS`). Its percentile bootstrap
is [0, 0] when a sample has no hit, and [1, 1] when it has no miss: the
resamples cannot vary what the sample lacks. A score interval (Wilson's, or
Jeffreys') keeps its coverage there.

Under Heydarian's rules an instance is not one Bernoulli trial per label: a
missed label is charged once to each of the predicted labels (category 3),
a false label to every true label (category 2), so ``y_i`` may be 2, 3 or
more, and ``x_i`` and ``y_i`` of one instance are dependent. The unit of
sampling is the instance (the group with ``groups``): a cluster. The ratio's
variance is then the linearised (delta-method) variance of a ratio estimator
of cluster sums, and the interval is Wilson's on the effective number of
trials ``n_eff = r (1 - r) / Var(r)``, as for proportions estimated from
cluster samples (Korn and Graubard 1998). See :func:`label_score_intervals`.

A macro average is a mean of q such ratios. Its studentised (bootstrap-t)
interval (:func:`macro_interval`) divides each resample's deviation by that
resample's linearised standard error, so that resamples which lose a rare
label's only positive (a jump of the label's ratio to ``zero_division``)
widen the interval instead of being averaged away.

Everything here is pure and vectorised over the labels: no validation, the
caller (the report, the intervals) validates once. The units' counts
(:func:`unit_counts`) and their sums and products (:func:`count_moments`)
are read once per call, and every ratio's moments off them
(:func:`form_moments`); every macro average's resampled values and
variances come from one product per batch of resamples
(:func:`resampled_macros`).
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.special import betaincinv, ndtri

from ._table import resample_counts

__all__ = [
    "COMPONENTS",
    "RATIOS",
    "SCORE_INTERVALS",
    "CountMoments",
    "LabelIntervals",
    "MacroForms",
    "MacroInterval",
    "RatioForm",
    "RatioMoments",
    "ScoreBasis",
    "UnitCounts",
    "count_moments",
    "effective_trials",
    "form_moments",
    "label_score_intervals",
    "macro_estimate",
    "macro_forms",
    "macro_interval",
    "proportion_interval",
    "ratio_form",
    "ratio_moments",
    "resampled_macro",
    "resampled_macros",
    "score_basis",
    "studentised_bounds",
    "unit_counts",
]

#: The registry's statistics that are ratios of counts (and "f1"), by their
#: numerator's and denominator's counts: each gets a score interval per
#: label and the bootstrap-t for its macro average. The others (MCC, balanced
#: accuracy, informedness, markedness, G-mean) are not ratios of sums.
RATIOS = {
    "precision": (("tp",), ("tp", "fp")),
    "recall": (("tp",), ("tp", "fn")),
    "f1": None,
    "fbeta": None,
    "specificity": (("tn",), ("tn", "fp")),
    "accuracy": (("tp", "tn"), ("tp", "tn", "fp", "fn")),
    "jaccard": (("tp",), ("tp", "fp", "fn")),
    "negative_predictive_value": (("tn",), ("tn", "fn")),
    "false_discovery_rate": (("fp",), ("fp", "tp")),
    "false_omission_rate": (("fn",), ("fn", "tn")),
    "false_positive_rate": (("fp",), ("fp", "tn")),
    "false_negative_rate": (("fn",), ("fn", "tp")),
    "prevalence": (("tp", "fn"), ("tp", "fn", "fp", "tn")),
}

#: The score intervals of a proportion, by name.
SCORE_INTERVALS = ("wilson", "jeffreys")

#: The macro intervals, by name: the studentised bootstrap, or the normal
#: interval on the linearised standard error alone (no resampling).
MACRO_INTERVALS = ("bootstrap-t", "linearised")


# -- a proportion ------------------------------------------------------------------


def proportion_interval(hits, trials, *, confidence_level, method="wilson"):
    """``(low, high)`` of the score interval of ``hits`` out of ``trials``.

    Vectorised: ``hits`` and ``trials`` broadcast, and may be fractional (an
    effective number of trials). ``trials == 0`` gives NaN bounds.

    Parameters
    ----------
    hits, trials : array-like of float
        The successes and the trials, ``0 <= hits <= trials``.
    confidence_level : float
        In (0, 1).
    method : {"wilson", "jeffreys"}, default="wilson"
        Wilson's score interval (1927), or Jeffreys' equal-tailed Bayesian
        interval (Brown, Cai and DasGupta 2001), whose lower bound is 0 at
        no hit and upper bound 1 at no miss.

    Returns
    -------
    low, high : ndarray of float
        The bounds, within [0, 1].

    Notes
    -----
    With ``p = hits / n`` and ``z`` the normal quantile of ``(1 + level) /
    2``, Wilson's bounds are

    .. math::

        \\frac{p + z^2 / (2n) \\pm z \\sqrt{p (1 - p) / n + z^2 / (4 n^2)}}
             {1 + z^2 / n},

    the two roots of ``|p - \\pi| = z \\sqrt{\\pi (1 - \\pi) / n}``: at no hit
    the interval is ``[0, z^2 / (n + z^2)]``, not [0, 0]. Jeffreys' bounds are
    the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of
    ``Beta(hits + 1/2, n - hits + 1/2)``.

    Examples
    --------
    >>> from sklearn_mlcm._uncertainty._score_intervals import proportion_interval
    >>> low, high = proportion_interval(0, 10, confidence_level=0.95)
    >>> print(f"[{float(low):.4f}, {float(high):.4f}]")
    [0.0000, 0.2775]
    """
    hits = np.asarray(hits, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    hits, n = np.broadcast_arrays(hits, n)
    defined = n > 0
    safe = np.where(defined, n, 1.0)
    p = np.clip(np.where(defined, hits / safe, 0.0), 0.0, 1.0)
    if method == "jeffreys":
        tail = (1.0 - confidence_level) / 2.0
        a, b = p * safe + 0.5, (1.0 - p) * safe + 0.5
        low = np.where(p <= 0.0, 0.0, betaincinv(a, b, tail))
        high = np.where(p >= 1.0, 1.0, betaincinv(a, b, 1.0 - tail))
    else:
        z = ndtri((1.0 + confidence_level) / 2.0)
        z2n = z * z / safe
        centre = (p + z2n / 2.0) / (1.0 + z2n)
        half = z / (1.0 + z2n) * np.sqrt(p * (1.0 - p) / safe + z2n / (4.0 * safe))
        low = np.where(p <= 0.0, 0.0, np.clip(centre - half, 0.0, 1.0))
        high = np.where(p >= 1.0, 1.0, np.clip(centre + half, 0.0, 1.0))
    return np.where(defined, low, np.nan), np.where(defined, high, np.nan)


# -- a per-label ratio of sums over the units ---------------------------------------

#: The counts of one unit that every ratio's numerator and denominator are
#: linear forms of: its one-vs-rest TP, FP and FN of each label (read off its
#: margins: ``TP = diag``, ``FP = cols - diag``, ``FN = rows - diag``), every
#: cell of its matrix (``total``) and its diagonal (``trace``), the last two
#: one number per unit, the same for every label.
COMPONENTS = ("tp", "fp", "fn", "total", "trace")

#: The true negatives of each ``tn`` rule, as sums of :data:`COMPONENTS`:
#: every cell outside the label's row and column (``total - TP - FP - FN``),
#: or the diagonal without the label's own cell (``trace - TP``).
_TRUE_NEGATIVES = {
    "complement": {"total": 1.0, "tp": -1.0, "fp": -1.0, "fn": -1.0},
    "diagonal": {"trace": 1.0, "tp": -1.0},
}


@dataclass(frozen=True)
class RatioForm:
    """A per-label ratio ``X / Y`` as linear forms of each unit's counts:
    ``x`` and ``y`` hold the coefficients (5,) of :data:`COMPONENTS`, the
    same for every label."""

    x: np.ndarray
    y: np.ndarray


def ratio_form(metric, *, beta=1.0, tn="complement"):
    """The :class:`RatioForm` of ``metric`` (a name of :data:`RATIOS`):

    - precision: ``x = TP``, ``y = TP + FP``; recall: ``y = TP + FN``;
    - F-beta: ``x = (1 + b^2) TP``, ``y = (1 + b^2) TP + FP + b^2 FN``, both
      divided by ``b^2`` when ``b^2`` would overflow;
    - specificity: ``x = TN``, ``y = TN + FP``, TN as ``tn`` says
      (:data:`_TRUE_NEGATIVES`);
    - the registry's other ratios: the sums of their counts (:data:`RATIOS`).
    """
    if metric in ("f1", "fbeta"):
        b = 1.0 if metric == "f1" else float(beta)
        if b <= 1e50:
            b2 = b * b
            x, y = {"tp": 1.0 + b2}, {"tp": 1.0 + b2, "fp": 1.0, "fn": b2}
        else:
            inverse = (1.0 / b) ** 2
            x = {"tp": 1.0 + inverse}
            y = {"tp": 1.0 + inverse, "fp": inverse, "fn": 1.0}
        return RatioForm(_coefficients(x), _coefficients(y))
    counts = {"tp": {"tp": 1.0}, "fp": {"fp": 1.0}, "fn": {"fn": 1.0}}
    counts["tn"] = _TRUE_NEGATIVES[tn]
    numerator, denominator = RATIOS[metric]
    return RatioForm(
        _coefficients(*(counts[name] for name in numerator)),
        _coefficients(*(counts[name] for name in denominator)),
    )


def _coefficients(*terms):
    """(5,) the coefficients of :data:`COMPONENTS` of a sum of ``terms``
    (dicts from a component's name to its coefficient)."""
    out = np.zeros(len(COMPONENTS))
    for term in terms:
        for name, coefficient in term.items():
            out[COMPONENTS.index(name)] += coefficient
    return out


@dataclass(frozen=True)
class UnitCounts:
    """Each kind of unit's counts (:data:`COMPONENTS`) of the first ``shown``
    indices: ``blocks``, its TP, FP and FN (three CSR arrays of shape
    (n_kinds, shown)); ``stacked``, the same side by side (CSR, (n_kinds,
    3 shown)) and ``extended``, with its ``total`` and ``trace`` as two more
    columns (3 shown + 2), which one product turns into every unit's linear
    form; ``total`` and ``trace`` (n_kinds,)."""

    blocks: tuple
    stacked: object
    extended: object
    total: np.ndarray
    trace: np.ndarray
    shown: int


def unit_counts(units, shown=None):
    """The :class:`UnitCounts` of ``units`` (a :class:`~._table.UnitTable`),
    read off its sparse margins in one pass (no column slicing, whose cost is
    the whole array's for each slice)."""
    q1 = units.n_labels + 1
    s = units.n_labels if shown is None else shown
    n_kinds = units.n_kinds
    margins = sparse.coo_array(units.unit_margins)
    row, column, value = margins.row, margins.col, margins.data
    part, index = column // q1, column % q1  # 0 diag, 1 rows, 2 cols
    total = np.bincount(row[part == 1], value[part == 1], minlength=n_kinds)
    trace = np.bincount(row[part == 0], value[part == 0], minlength=n_kinds)
    keep = index < s
    row, part, index, value = row[keep], part[keep], index[keep], value[keep]
    # TP = diag, FP = cols - diag, FN = rows - diag: (margin, component, sign)
    terms = ((0, 0, 1.0), (0, 1, -1.0), (0, 2, -1.0), (1, 2, 1.0), (2, 1, 1.0))
    rows, columns, values = [], [], []
    for margin, component, sign in terms:
        chosen = part == margin
        rows.append(row[chosen])
        columns.append(component * s + index[chosen])
        values.append(sign * value[chosen])
    stacked = sparse.csr_array(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))),
        shape=(n_kinds, 3 * s),
    )
    stacked.sum_duplicates()
    stacked.eliminate_zeros()
    coo = stacked.tocoo()
    blocks = []
    for component in range(3):
        chosen = coo.col // s == component
        blocks.append(
            sparse.csr_array(
                (coo.data[chosen], (coo.row[chosen], coo.col[chosen] - component * s)),
                shape=(n_kinds, s),
            )
        )
    kinds = np.arange(n_kinds)
    extended = sparse.csr_array(
        (
            np.concatenate([coo.data, total, trace]),
            (
                np.concatenate([coo.row, kinds, kinds]),
                np.concatenate(
                    [coo.col, np.full(n_kinds, 3 * s), np.full(n_kinds, 3 * s + 1)]
                ),
            ),
        ),
        shape=(n_kinds, 3 * s + 2),
    )
    return UnitCounts(tuple(blocks), stacked, extended, total, trace, s)


@dataclass(frozen=True)
class CountMoments:
    """The sums over the units, each kind counted ``weights`` times, of
    their counts (:data:`COMPONENTS`), ``sums`` (5, shown), and of their
    products two by two, ``gram`` (5, 5, shown): every ratio's
    :class:`RatioMoments` is read off them (:func:`form_moments`)."""

    sums: np.ndarray
    gram: np.ndarray


def count_moments(counts, weights):
    """The :class:`CountMoments` of :class:`UnitCounts` ``counts``."""
    s = counts.shown
    w = np.asarray(weights, dtype=np.float64)
    dense = (counts.total, counts.trace)
    sums = np.empty((5, s))
    gram = np.empty((5, 5, s))
    for a, block in enumerate(counts.blocks):
        sums[a] = block.T @ w
        for b in range(a, 3):
            product = block.multiply(counts.blocks[b])
            gram[a, b] = gram[b, a] = sparse.csr_array(product).T @ w
        for b, column in enumerate(dense, start=3):
            gram[a, b] = gram[b, a] = block.T @ (w * column)
    for a, column in enumerate(dense, start=3):
        sums[a] = w @ column
        for b in range(a, 5):
            gram[a, b] = gram[b, a] = w @ (column * dense[b - 3])
    return CountMoments(sums, gram)


@dataclass(frozen=True)
class RatioMoments:
    """The sums over the units that a per-label ratio ``X / Y`` and its
    linearised variance need, each of shape (q,): ``numerator`` ``X = sum
    m_i x_i``, ``denominator`` ``Y = sum m_i y_i``, and the second moments
    ``xx = sum m_i x_i^2``, ``xy = sum m_i x_i y_i``, ``yy = sum m_i y_i^2``
    (``m_i`` the multiplicity of each kind of unit)."""

    numerator: np.ndarray
    denominator: np.ndarray
    xx: np.ndarray
    xy: np.ndarray
    yy: np.ndarray


def form_moments(form, moments):
    """The :class:`RatioMoments` of the :class:`RatioForm` ``form`` off the
    :class:`CountMoments` ``moments``: its sums are linear, its second
    moments quadratic in the counts' sums and products."""
    x, y, gram = form.x, form.y, moments.gram
    return RatioMoments(
        numerator=x @ moments.sums,
        denominator=y @ moments.sums,
        xx=np.einsum("c,cds,d->s", x, gram, x),
        xy=np.einsum("c,cds,d->s", x, gram, y),
        yy=np.einsum("c,cds,d->s", y, gram, y),
    )


def ratio_moments(units, metric, *, beta=1.0, tn="complement", counts=None, shown=None):
    """The :class:`RatioMoments` of ``metric`` over the units of ``units``
    (a :class:`~._table.UnitTable`), each kind counted ``counts`` times
    (its multiplicity by default: the test set itself), of the first
    ``shown`` indices (q by default)."""
    weights = units.multiplicity if counts is None else counts
    moments = count_moments(unit_counts(units, shown), weights)
    return form_moments(ratio_form(metric, beta=beta, tn=tn), moments)


@dataclass(frozen=True)
class LabelIntervals:
    """Per-label score intervals, each field of shape (q,): the ratio
    ``estimate`` (NaN where its denominator is 0), the bounds ``low`` and
    ``high`` (NaN there too), and the effective number of trials ``n_eff``
    the interval was computed on."""

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n_eff: np.ndarray


def effective_trials(moments):
    """(q,) effective number of trials of each ratio: ``r (1 - r) / Var(r)``
    (the design-effect rule), and Kish's effective size of the units weighed
    by their denominators, ``Y^2 / S_yy``, where the ratio is 0 or 1 (its
    variance estimate is 0 there); 0 where the denominator is 0."""
    X, Y = moments.numerator, moments.denominator
    defined = Y > 0
    safe = np.where(defined, Y, 1.0)
    r = np.clip(X / safe, 0.0, 1.0)
    has_yy = moments.yy > 0
    kish = np.where(has_yy, Y * Y / np.where(has_yy, moments.yy, 1.0), 0.0)
    residual = moments.xx - 2.0 * r * moments.xy + r * r * moments.yy
    # rounding leaves a tiny residual where every x_i = r y_i: none at all
    residual = np.where(residual <= 1e-12 * moments.xx, 0.0, residual)
    variance = residual / (safe * safe)
    interior = defined & (variance > 0) & (r > 0) & (r < 1)
    design = r * (1.0 - r) / np.where(interior, variance, 1.0)
    return np.where(interior, design, np.where(defined, kish, 0.0))


def label_score_intervals(moments, *, confidence_level, method="wilson"):
    """Per-label score intervals of the ratios ``X / Y`` of ``moments``
    (:func:`ratio_moments`), on the effective number of trials.

    Parameters
    ----------
    moments : RatioMoments
        The sums of the numerators, denominators and their squares.
    confidence_level : float
        In (0, 1).
    method : {"wilson", "jeffreys"}, default="wilson"
        The score interval (:func:`proportion_interval`).

    Returns
    -------
    LabelIntervals
        The estimates, bounds and effective numbers of trials, shape (q,).

    Notes
    -----
    The instance (or group) i is the unit of sampling; it adds ``x_i`` to the
    numerator and ``y_i`` to the denominator of label k (``0 <= x_i <= y_i``;
    under Heydarian's rules ``y_i`` counts the charges, and may exceed 1).
    The ratio ``r = X / Y`` is a ratio estimator of cluster sums; its
    linearised (Taylor, delta-method) variance over the units is

    .. math::

        \\widehat{V}(r) = \\frac{\\sum_i (x_i - r y_i)^2}{Y^2}
                        = \\frac{S_{xx} - 2 r S_{xy} + r^2 S_{yy}}{Y^2}.

    As for a proportion from a cluster sample (Korn and Graubard 1998), the
    interval is Wilson's on the effective number of trials

    .. math::

        n_{eff} = \\frac{r (1 - r)}{\\widehat{V}(r)} \\quad (0 < r < 1),
        \\qquad n_{eff} = \\frac{Y^2}{S_{yy}} \\quad (r \\in \\{0, 1\\}),

    with ``r n_eff`` hits. Where every instance is one Bernoulli trial
    (``x_i, y_i`` in {0, 1}, unweighted), ``sum_i (x_i - r y_i)^2 = Y r (1 -
    r)``, so ``n_eff = Y`` and the interval is Wilson's on the counts.
    Where ``r`` is 0 or 1 the variance estimate is 0 and says nothing; there
    ``Y^2 / S_yy`` is Kish's effective sample size of the units weighed by
    their denominators: ``(sum w)^2 / sum w^2`` over the instances in the
    denominator with sample weights, and under Heydarian an instance
    charged three times counts as one trial of weight 3 (conservative: no
    more trials than instances). The interval is then that of no hit (or no
    miss) among those trials, not [0, 0]. Capping ``n_eff`` by Kish's size
    in the interior too (Korn and Graubard truncate the design effect at 1)
    over-covered (97-100%) and widened common labels by up to 1.5x in the
    simulation of ``benchmarks/sim_honest.py``; uncapped, coverage was
    92-99% and widths those of Wilson's on the counts.

    References
    ----------
    E. L. Korn and B. I. Graubard, "Confidence intervals for proportions
    with small expected number of positive counts estimated from survey
    data", Survey Methodology 24(2), 193-201, 1998.

    E. B. Wilson, "Probable inference, the law of succession, and
    statistical inference", JASA 22(158), 209-212, 1927.
    """
    X, Y = moments.numerator, moments.denominator
    defined = Y > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = np.where(
            defined, np.clip(X / np.where(defined, Y, 1.0), 0, 1), np.nan
        )
    n_eff = effective_trials(moments)
    low, high = proportion_interval(
        np.where(defined, estimate, 0.0) * n_eff,
        n_eff,
        confidence_level=confidence_level,
        method=method,
    )
    return LabelIntervals(estimate=estimate, low=low, high=high, n_eff=n_eff)


# -- the macro average ---------------------------------------------------------------


@dataclass(frozen=True)
class MacroInterval:
    """A macro average's ``estimate``, its interval ``low``, ``high``, its
    linearised standard error ``se`` (floats), and whether the bootstrap-t
    bounds were ``widened`` to reach the estimate (:func:`studentised_bounds`)."""

    estimate: float
    low: float
    high: float
    se: float
    widened: bool = False


def macro_interval(
    units,
    metric,
    *,
    confidence_level,
    beta=1.0,
    tn="complement",
    zero_division=0.0,
    interval="bootstrap-t",
    n_resamples=999,
    seed=0,
    shown=None,
):
    """The interval of a macro average of per-label ratios.

    Parameters
    ----------
    units : UnitTable
        The distinct units of the test set (:class:`~._table.UnitTable`).
    metric : str
        The per-label ratio averaged, a name of :data:`RATIOS`.
    confidence_level : float
        In (0, 1).
    beta : float, default=1.0
        The F-beta's beta.
    tn : {"complement", "diagonal"}, default="complement"
        How specificity counts true negatives.
    zero_division : float, default=0.0
        A label's value where its ratio is undefined (0.0, 1.0, or NaN to
        leave it out of the mean, as the library's averages do).
    interval : {"bootstrap-t", "linearised"}, default="bootstrap-t"
        The studentised bootstrap, or the normal interval on the linearised
        standard error.
    n_resamples : int, default=999
        The resamples of the bootstrap-t.
    seed : int, default=0
        Seed of the resamples (the streams of :func:`~._table.resample_counts`,
        the same as the percentile intervals').
    shown : int, default=None
        The indices averaged: q (by default), or q + 1 with the "no label"
        index.

    Returns
    -------
    MacroInterval
        The estimate (the library's macro average), bounds and standard
        error.

    Notes
    -----
    The macro average ``M = (1/q) sum_k X_k / Y_k`` is a smooth function of
    the unit sums; its linearisation gives each unit the contribution ``u_i =
    (1/q) sum_k (x_ik - r_k y_ik) / Y_k`` (labels with ``Y_k = 0`` add
    nothing), and ``se^2 = sum_i u_i^2``. The bootstrap-t draws resamples b,
    computes ``t_b = (M_b - M) / se_b`` with each resample's own ``se_b``,
    and returns ``[M - t_(1 - a/2) se, M - t_(a/2) se]`` (Efron and
    Tibshirani 1993, ch. 12), clipped to [0, 1]. A resample whose ``se_b`` is
    0 counts as ``t_b = +-inf`` (0 where ``M_b = M``). "linearised" is ``M
    +- z se``.

    Where nearly every resample lies on one side of ``M`` (a ratio resting
    on an instance that many resamples miss), ``t_(a/2)`` and ``t_(1 - a/2)``
    share a sign and the interval lies beside ``M``, not around it. It is
    then widened to reach ``M`` (``widened``; the caller flags it): an
    interval that excludes its own estimate would contradict it.
    """
    form = ratio_form(metric, beta=beta, tn=tn)
    forms = macro_forms({metric: form})
    counts = unit_counts(units, shown)
    zero_division = float(zero_division)
    estimate, se = (
        float(v[0]) for v in macro_estimate(units, counts, forms, zero_division)
    )
    if interval == "linearised" or not np.isfinite(estimate):
        low, high, _ = studentised_bounds(
            estimate, se, None, None, confidence_level=confidence_level
        )
        return MacroInterval(estimate, low, high, se)
    macro = np.empty(n_resamples)
    variance = np.empty(n_resamples)
    step = max(
        units.chunk, (1 << 20) // max(units.n_kinds, 1) // units.chunk * units.chunk
    )
    for start in range(0, n_resamples, step):
        stop = min(start + step, n_resamples)
        drawn = resample_counts(seed, start, stop, units)
        found = resampled_macros(
            drawn, units.drawn_margins(drawn), counts, forms, zero_division
        )
        macro[start:stop], variance[start:stop] = found[0, 0], found[1, 0]
    low, high, widened = studentised_bounds(
        estimate, se, macro, variance, confidence_level=confidence_level
    )
    return MacroInterval(estimate, low, high, se, widened)


@dataclass(frozen=True)
class MacroForms:
    """The macro averages of one call, read together: their ``keys`` and the
    coefficients of their numerators ``x`` and denominators ``y`` (F, 5),
    one row per key (:class:`RatioForm`); ``dense`` says whether any uses a
    unit's ``total`` or ``trace``."""

    keys: tuple
    x: np.ndarray
    y: np.ndarray
    dense: bool


def macro_forms(forms):
    """The :class:`MacroForms` of ``forms``, a dict from a key to a
    :class:`RatioForm`."""
    keys = tuple(forms)
    x = np.array([forms[key].x for key in keys]).reshape(len(keys), len(COMPONENTS))
    y = np.array([forms[key].y for key in keys]).reshape(len(keys), len(COMPONENTS))
    return MacroForms(keys, x, y, bool(np.any(x[:, 3:]) or np.any(y[:, 3:])))


def resampled_macros(counts, margins, unit_counts, forms, zero_division):
    """(2, F, B): the macro averages of the :class:`MacroForms` ``forms`` and
    their linearised variances in the resamples counted ``counts`` (B,
    n_kinds), whose ``margins`` (B, 3, q + 1) are drawn already (the
    averages' sums are read off them).

    Each unit's linearised contribution ``u_i = sum_k a_k (x_ik - r_k
    y_ik)`` (:func:`macro_interval`'s Notes) is a linear form of its counts
    (:class:`UnitCounts`): one sparse product gives every form's
    contributions in every resample, and ``variance_b = sum_i c_bi
    u_ib^2``.
    """
    n_rows, s, n_forms = counts.shape[0], unit_counts.shown, len(forms.keys)
    diag, rows, cols = margins[:, 0, :s], margins[:, 1, :s], margins[:, 2, :s]
    parts = np.empty((5, n_rows, s))
    parts[0], parts[1], parts[2] = diag, cols - diag, rows - diag
    parts[3] = margins[:, 1, :].sum(axis=1)[:, None]
    parts[4] = margins[:, 0, :].sum(axis=1)[:, None]
    X = np.einsum("fc,cbs->fbs", forms.x, parts)  # (F, B, s)
    Y = np.einsum("fc,cbs->fbs", forms.y, parts)
    defined = Y > 0
    safe = np.where(defined, Y, 1.0)
    r = np.where(defined, np.clip(X / safe, 0.0, 1.0), 0.0)
    if np.isnan(zero_division):
        n_defined = defined.sum(axis=2)
        scale = np.where(n_defined > 0, 1.0 / np.maximum(n_defined, 1), np.nan)
        macro = (r * defined).sum(axis=2) * scale
    else:
        scale = np.full((n_forms, n_rows), 1.0 / s)
        macro = ((r * defined).sum(axis=2) + zero_division * (~defined).sum(axis=2)) / s
    a = np.where(defined, scale[..., None] / safe, 0.0)  # d macro / d X_k
    ar = a * r
    # the coefficients of each unit's counts in u: (3 s [+ 2], F, B)
    width = 3 * s + 2 if forms.dense else 3 * s
    weights = np.empty((width, n_forms, n_rows))
    for c in range(3):
        block = forms.x[:, c, None, None] * a - forms.y[:, c, None, None] * ar
        weights[c * s : (c + 1) * s] = block.transpose(2, 0, 1)
    if forms.dense:
        a_sum, ar_sum = a.sum(axis=2), ar.sum(axis=2)
        for c in (3, 4):
            weights[3 * s + c - 3] = forms.x[:, c, None] * a_sum
            weights[3 * s + c - 3] -= forms.y[:, c, None] * ar_sum
    stacked = unit_counts.extended if forms.dense else unit_counts.stacked
    u = stacked @ weights.reshape(width, -1)  # (n_kinds, F x B)
    u = u.reshape(-1, n_forms, n_rows)
    u *= u
    u *= counts.T[:, None, :]
    return np.stack([macro, u.sum(axis=0)])


def resampled_macro(counts, form, zero_division, units):
    """Macro averages (B,) and their linearised variances (B,) of the
    :class:`RatioForm` ``form`` in the units of ``units`` counted ``counts``
    (B, n_kinds) times."""
    found = resampled_macros(
        np.asarray(counts, dtype=np.float64),
        units.drawn_margins(counts),
        unit_counts(units),
        macro_forms({None: form}),
        float(zero_division),
    )
    return found[0, 0], found[1, 0]


def macro_estimate(units, unit_counts, forms, zero_division):
    """``(estimates, standard errors)``, (F,) each: the macro averages of the
    :class:`MacroForms` ``forms`` on the test set itself and their
    linearised standard errors."""
    weights = units.multiplicity[None, :]
    found = resampled_macros(
        weights, units.drawn_margins(weights), unit_counts, forms, zero_division
    )
    return found[0, :, 0], np.sqrt(np.maximum(found[1, :, 0], 0.0))


def studentised_bounds(estimate, se, macro, variance, *, confidence_level):
    """``(low, high, widened)`` of the bootstrap-t of ``estimate`` (standard
    error ``se``) from the resamples' macro averages and linearised
    variances (B,), clipped to [0, 1]; the normal interval ``estimate +- z
    se`` where ``macro`` is None (see :func:`macro_interval`'s Notes).

    A bootstrap-t that would exclude a finite ``estimate`` (the resamples
    shifted to one side of it) is widened to reach it, and ``widened`` is
    True.
    """
    alpha = (1.0 - confidence_level) / 2.0
    if macro is None:
        z = ndtri(1.0 - alpha)
        low, high = estimate - z * se, estimate + z * se
        return float(np.clip(low, 0, 1)), float(np.clip(high, 0, 1)), False
    n_resamples = macro.size
    se_b = np.sqrt(np.maximum(variance, 0.0))
    diff = macro - estimate
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(
            se_b > 0, diff / np.where(se_b > 0, se_b, 1.0), np.sign(diff) * np.inf
        )
    t = np.sort(np.where(np.isnan(t), 0.0, t))
    # order statistics, as the percentile bounds read at (B + 1) alpha
    k_low = int(np.clip(np.floor((n_resamples + 1) * alpha) - 1, 0, n_resamples - 1))
    k_high = int(
        np.clip(np.ceil((n_resamples + 1) * (1 - alpha)) - 1, 0, n_resamples - 1)
    )
    low = estimate - t[k_high] * se if np.isfinite(t[k_high]) else 0.0
    high = estimate - t[k_low] * se if np.isfinite(t[k_low]) else 1.0
    low, high = float(np.clip(low, 0.0, 1.0)), float(np.clip(high, 0.0, 1.0))
    if not np.isfinite(estimate) or low <= estimate <= high:
        return low, high, False
    return min(low, estimate), max(high, estimate), True


# -- one call's basis ----------------------------------------------------------------


@dataclass(frozen=True)
class ScoreBasis:
    """What the score intervals of one call read, computed once before any
    resample is drawn: the units' ``counts`` (:class:`UnitCounts`) and their
    ``moments`` over the test set (:class:`CountMoments`), the
    :class:`RatioForm` of each ratio metric (``forms``), and for the macro
    averages their :class:`MacroForms` (``macro``, None without) with their
    linearised standard errors on the test set (``macro_se``, (F,))."""

    counts: UnitCounts
    moments: CountMoments
    forms: dict
    macro: MacroForms | None
    macro_se: np.ndarray | None


def score_basis(units, metrics, *, macro, beta, tn, shown, zero_division):
    """The :class:`ScoreBasis` of the ratios among ``metrics``
    (:data:`RATIOS`), their macro averages' with ``macro``; None when no
    metric is a ratio. ``zero_division`` is the resamples' (a float)."""
    forms = {
        metric: ratio_form(metric, beta=beta, tn=tn)
        for metric in metrics
        if metric in RATIOS
    }
    if not forms:
        return None
    counts = unit_counts(units, shown)
    moments = count_moments(counts, units.multiplicity)
    averaged = se = None
    if macro:
        averaged = macro_forms(forms)
        _, se = macro_estimate(units, counts, averaged, float(zero_division))
    return ScoreBasis(counts, moments, forms, averaged, se)
