"""Score intervals for per-label ratios, and a studentised interval for macro
averages: intervals that keep their coverage where the bootstrap's collapse.

A per-label ratio (precision, recall, specificity, F-beta) of an MLCM is a
ratio of two sums over the instances, ``r = X / Y`` with ``X = sum_i x_i``
and ``Y = sum_i y_i`` (:func:`ratio_moments` says which margins make ``x_i``
and ``y_i``). Its percentile bootstrap is [0, 0] when a sample has no hit,
and [1, 1] when it has no miss: the resamples cannot vary what the sample
lacks. A score interval (Wilson's, or Jeffreys') keeps its coverage there.

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
caller (the report, the intervals) validates once.
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.special import betaincinv, ndtri

from ._table import resample_counts

__all__ = [
    "RATIOS",
    "SCORE_INTERVALS",
    "LabelIntervals",
    "MacroInterval",
    "MacroBasis",
    "MacroForm",
    "RatioMoments",
    "label_score_intervals",
    "macro_basis",
    "macro_estimate",
    "macro_form",
    "macro_interval",
    "proportion_interval",
    "ratio_moments",
    "ratio_parts",
    "resampled_macro",
    "resampled_macros",
    "studentised_bounds",
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


def _count_forms(tn):
    """The linear forms of the one-vs-rest counts in the margins."""
    true_negatives = (
        ((1.0, "trace"), (-1.0, "diag"))
        if tn == "diagonal"
        else ((1.0, "total"), (-1.0, "rows"), (-1.0, "cols"), (1.0, "diag"))
    )
    return {
        "tp": ((1.0, "diag"),),
        "fp": ((1.0, "cols"), (-1.0, "diag")),
        "fn": ((1.0, "rows"), (-1.0, "diag")),
        "tn": true_negatives,
    }


def _sum_forms(names, forms):
    """The linear form of a sum of counts, its coefficients merged by name."""
    merged = {}
    for name in names:
        for coefficient, component in forms[name]:
            merged[component] = merged.get(component, 0.0) + coefficient
    return tuple((c, name) for name, c in merged.items() if c != 0.0)


def ratio_parts(units, metric, *, beta=1.0, tn="complement", shown=None):
    """Each unit's numerator and denominator of a per-label ratio, as linear
    forms of the unit's margins: ``(numerator, denominator, components)``.

    ``components`` maps a name to an (n_kinds, q) sparse array ("diag",
    "rows", "cols": the margins of one unit of each kind of ``units``, a
    :class:`~._table.UnitTable`) or an (n_kinds, 1) dense column broadcast
    over the labels ("total", every cell of the unit's matrix; "trace").
    ``numerator`` and ``denominator`` are tuples of ``(coefficient, name)``:

    - precision: ``x = diag``, ``y = cols`` (TP / (TP + FP));
    - recall: ``x = diag``, ``y = rows`` (TP / (TP + FN));
    - F-beta: ``x = (1 + b^2) diag``, ``y = b^2 rows + cols``, both divided by
      ``b^2`` when ``b^2`` would overflow;
    - specificity: ``x = total - rows - cols + diag``, ``y = total - rows``
      (``tn="complement"``), or ``x = trace - diag``, ``y = trace + cols - 2
      diag`` (``tn="diagonal"``);
    - the registry's other ratios (:data:`RATIOS`): the sums of their counts,
      ``TP = diag``, ``FP = cols - diag``, ``FN = rows - diag`` and TN as for
      specificity.

    ``shown`` is the number of indices scored: q (by default), or q + 1
    with the "no label" index.
    """
    q = units.n_labels
    q1 = q + 1
    s = q if shown is None else shown
    flat = sparse.csr_array(units.unit_margins)
    components = {
        "diag": sparse.csr_array(flat[:, 0:s]),
        "rows": sparse.csr_array(flat[:, q1 : q1 + s]),
        "cols": sparse.csr_array(flat[:, 2 * q1 : 2 * q1 + s]),
    }
    if RATIOS.get(metric) is not None and metric not in (
        "precision",
        "recall",
        "specificity",
    ):
        numerator, denominator = RATIOS[metric]
        forms = _count_forms(tn)
        x, y = _sum_forms(numerator, forms), _sum_forms(denominator, forms)
        used = {name for _, name in x + y}
        if "trace" in used:
            trace = np.asarray(flat[:, 0:q1].sum(axis=1)).reshape(-1, 1)
            components["trace"] = trace
        if "total" in used:
            total = np.asarray(flat[:, q1 : 2 * q1].sum(axis=1)).reshape(-1, 1)
            components["total"] = total
        return x, y, components
    if metric == "precision":
        x, y = ((1.0, "diag"),), ((1.0, "cols"),)
    elif metric == "recall":
        x, y = ((1.0, "diag"),), ((1.0, "rows"),)
    elif metric == "specificity":
        if tn == "diagonal":
            trace = np.asarray(flat[:, 0:q1].sum(axis=1)).reshape(-1, 1)
            components["trace"] = trace
            x = ((1.0, "trace"), (-1.0, "diag"))
            y = ((1.0, "trace"), (1.0, "cols"), (-2.0, "diag"))
        else:
            total = np.asarray(flat[:, q1 : 2 * q1].sum(axis=1)).reshape(-1, 1)
            components["total"] = total
            x = ((1.0, "total"), (-1.0, "rows"), (-1.0, "cols"), (1.0, "diag"))
            y = ((1.0, "total"), (-1.0, "rows"))
    else:  # "f1", "fbeta"
        b = 1.0 if metric == "f1" else float(beta)
        if b <= 1e50:
            b2 = b * b
            x, y = ((1.0 + b2, "diag"),), ((b2, "rows"), (1.0, "cols"))
        else:
            inverse = (1.0 / b) ** 2
            x, y = ((1.0 + inverse, "diag"),), ((1.0, "rows"), (inverse, "cols"))
    return x, y, components


def _product_sum(weights, a, b):
    """(q,) ``sum_i weights_i a_i b_i`` of two components (sparse (k, q) or
    dense (k, 1) columns)."""
    if sparse.issparse(a) and sparse.issparse(b):
        product = a.multiply(b)
    elif sparse.issparse(a):
        product = a.multiply(b)
    elif sparse.issparse(b):
        product = b.multiply(a)
    else:
        return np.full(1, float(weights @ (a[:, 0] * b[:, 0])))
    return np.asarray(weights @ sparse.csr_array(product)).ravel()


def _linear_sum(weights, form, components, q):
    """(q,) ``sum_i weights_i f_i`` of the linear form ``form``."""
    out = np.zeros(q)
    for coefficient, name in form:
        values = components[name]
        if sparse.issparse(values):
            out += coefficient * np.asarray(weights @ values).ravel()
        else:
            out += coefficient * float(weights @ values[:, 0])
    return out


def _batch_sums(counts, form, components, q):
    """(B, q) ``counts @ f`` of the linear form ``f`` for (B, n_kinds) counts."""
    out = np.zeros((counts.shape[0], q))
    for coefficient, name in form:
        values = components[name]
        if sparse.issparse(values):
            out += coefficient * np.asarray(values.T @ counts.T).T
        else:
            out += coefficient * (counts @ values)
    return out


def _quadratic_sum(weights, left, right, components, q):
    """(q,) ``sum_i weights_i f_i g_i`` of two linear forms."""
    out = np.zeros(q)
    for c1, n1 in left:
        for c2, n2 in right:
            out += c1 * c2 * _product_sum(weights, components[n1], components[n2])
    return out


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


def ratio_moments(units, metric, *, beta=1.0, tn="complement", counts=None, shown=None):
    """The :class:`RatioMoments` of ``metric`` over the units of ``units``
    (a :class:`~._table.UnitTable`), each kind counted ``counts`` times
    (its multiplicity by default: the test set itself), of the first
    ``shown`` indices (q by default)."""
    q = units.n_labels if shown is None else shown
    m = units.multiplicity if counts is None else np.asarray(counts, dtype=float)
    x, y, parts = ratio_parts(units, metric, beta=beta, tn=tn, shown=q)
    return RatioMoments(
        numerator=_linear_sum(m, x, parts, q),
        denominator=_linear_sum(m, y, parts, q),
        xx=_quadratic_sum(m, x, x, parts, q),
        xy=_quadratic_sum(m, x, y, parts, q),
        yy=_quadratic_sum(m, y, y, parts, q),
    )


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
    """A macro average's ``estimate``, its interval ``low``, ``high`` and its
    linearised standard error ``se`` (floats)."""

    estimate: float
    low: float
    high: float
    se: float


def _apply(form, components, vectors):
    """(n_kinds, B) ``f @ vectors`` of the linear form ``f`` for (q, B)
    ``vectors``: a broadcast column multiplies the vectors' sums."""
    out = None
    for coefficient, name in form:
        values = components[name]
        if sparse.issparse(values):
            term = values @ vectors
        else:
            term = values * vectors.sum(axis=0, keepdims=True)
        term = coefficient * np.asarray(term)
        out = term if out is None else out + term
    return out


def _macro_of_counts(counts, x, y, parts, q, zero_division):
    """Macro averages (B,) and their linearised variances (B,) of the units
    counted ``counts`` (B, n_kinds) times."""
    X = _batch_sums(counts, x, parts, q)
    Y = _batch_sums(counts, y, parts, q)
    defined = Y > 0
    safe = np.where(defined, Y, 1.0)
    r = np.where(defined, np.clip(X / safe, 0.0, 1.0), 0.0)
    if np.isnan(zero_division):
        n_defined = defined.sum(axis=1)
        scale = np.where(n_defined > 0, 1.0 / np.maximum(n_defined, 1), np.nan)
        macro = (r * defined).sum(axis=1) * scale
    else:
        scale = np.full(len(counts), 1.0 / q)
        macro = ((r * defined).sum(axis=1) + zero_division * (~defined).sum(axis=1)) / q
    a = np.where(defined, scale[:, None] / safe, 0.0)  # d macro / d X_k
    # each unit's linearised contribution: sum_k a_k (x_ik - r_k y_ik)
    u = _apply(x, parts, a.T) - _apply(y, parts, (a * r).T)  # (n_kinds, B)
    variance = np.einsum("bi,ib->b", counts, u * u)
    return macro, variance


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
    """
    form = macro_form(units, metric, beta=beta, tn=tn, shown=shown)
    zero_division = float(zero_division)
    estimate, se = macro_estimate(units, form, zero_division)
    if interval == "linearised" or not np.isfinite(estimate):
        low, high = studentised_bounds(
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
        counts = resample_counts(seed, start, stop, units)
        macro[start:stop], variance[start:stop] = resampled_macro(
            counts, form, zero_division, units
        )
    low, high = studentised_bounds(
        estimate, se, macro, variance, confidence_level=confidence_level
    )
    return MacroInterval(estimate, low, high, se)


@dataclass(frozen=True)
class MacroForm:
    """What the macro average of a ratio needs of the units: the linear
    forms of its numerator ``x`` and denominator ``y``, their ``parts``
    (:func:`ratio_parts`) and the number ``q`` of indices averaged."""

    x: tuple
    y: tuple
    parts: dict
    q: int


def macro_form(units, metric, *, beta=1.0, tn="complement", shown=None):
    """The :class:`MacroForm` of the macro average of ``metric``."""
    q = units.n_labels if shown is None else shown
    x, y, parts = ratio_parts(units, metric, beta=beta, tn=tn, shown=q)
    return MacroForm(x, y, parts, q)


def resampled_macro(counts, form, zero_division, units):
    """Macro averages (B,) and their linearised variances (B,) of the units
    counted ``counts`` (B, n_kinds) times."""
    margins = units.drawn_margins(counts)
    basis = macro_basis(units, form.q)
    return resampled_macros(counts, margins, basis, {None: form}, zero_division)[None]


def macro_estimate(units, form, zero_division):
    """The macro average of the test set and its linearised standard error
    (floats)."""
    estimate, variance = resampled_macro(
        units.multiplicity[None, :], form, float(zero_division), units
    )
    return float(estimate[0]), float(np.sqrt(max(variance[0], 0.0)))


@dataclass(frozen=True)
class MacroBasis:
    """The units' one-vs-rest counts that every macro average's linearised
    variance reads: ``counts`` (n_kinds, 3 q) sparse, each kind's TP, FP
    and FN of the q labels averaged (disjoint for a single instance: one
    nonzero per label it holds or predicts), and its ``total`` (every cell
    of its matrix) and ``trace`` (its diagonal), (n_kinds,) each."""

    counts: object
    total: np.ndarray
    trace: np.ndarray


def macro_basis(units, shown):
    """The :class:`MacroBasis` of ``units``' first ``shown`` indices."""
    q1 = units.n_labels + 1
    flat = sparse.csr_array(units.unit_margins)
    diag = flat[:, 0:shown]
    rows = flat[:, q1 : q1 + shown]
    cols = flat[:, 2 * q1 : 2 * q1 + shown]
    counts = sparse.hstack([diag, cols - diag, rows - diag], format="csr")
    counts.eliminate_zeros()
    total = np.asarray(flat[:, q1 : 2 * q1].sum(axis=1)).ravel()
    trace = np.asarray(flat[:, 0:q1].sum(axis=1)).ravel()
    return MacroBasis(counts, total, trace)


def _form_coefficients(form):
    """A linear form's coefficients of TP, FP, FN (one vs rest), the total
    and the trace: ``d diag + r rows + c cols = (d + r + c) TP + c FP + r
    FN``."""
    c = dict.fromkeys(("diag", "rows", "cols", "total", "trace"), 0.0)
    for coefficient, name in form:
        c[name] += coefficient
    return (
        c["diag"] + c["rows"] + c["cols"],
        c["cols"],
        c["rows"],
        c["total"],
        c["trace"],
    )


def resampled_macros(counts, margins, basis, forms, zero_division):
    """``{key: (2, B)}``: the macro averages and their linearised variances
    of each :class:`MacroForm` of ``forms`` in the resamples counted
    ``counts`` (B, n_kinds), whose ``margins`` (B, 3, q + 1) are drawn
    already (the averages' sums are read off them).

    Each unit's linearised contribution ``u_i = sum_k a_k (x_ik - r_k
    y_ik)`` (:func:`macro_interval`'s Notes) is a linear form of its TP, FP
    and FN (``basis``, :class:`MacroBasis`), its total and its trace: one
    sparse product per batch gives every form's contributions in every
    resample, and ``variance_b = sum_i c_bi u_ib^2``.
    """
    n_rows = counts.shape[0]
    diag, rows, cols = margins[:, 0, :], margins[:, 1, :], margins[:, 2, :]
    components = {
        "total": rows.sum(axis=1, keepdims=True),
        "trace": diag.sum(axis=1, keepdims=True),
    }
    keys = list(forms)
    q = basis.counts.shape[1] // 3
    weights = np.empty((3 * q, len(keys), n_rows))
    scalars = np.empty((2, len(keys), n_rows))
    macros = {}
    for j, key in enumerate(keys):
        form = forms[key]
        parts = {
            **components,
            "diag": diag[:, :q],
            "rows": rows[:, :q],
            "cols": cols[:, :q],
        }
        X = sum(c * parts[name] for c, name in form.x)
        Y = sum(c * parts[name] for c, name in form.y)
        X, Y = np.broadcast_to(X, (n_rows, q)), np.broadcast_to(Y, (n_rows, q))
        defined = Y > 0
        safe = np.where(defined, Y, 1.0)
        r = np.where(defined, np.clip(X / safe, 0.0, 1.0), 0.0)
        if np.isnan(zero_division):
            n_defined = defined.sum(axis=1)
            scale = np.where(n_defined > 0, 1.0 / np.maximum(n_defined, 1), np.nan)
            macro = (r * defined).sum(axis=1) * scale
        else:
            scale = np.full(n_rows, 1.0 / q)
            undefined = (~defined).sum(axis=1)
            macro = ((r * defined).sum(axis=1) + zero_division * undefined) / q
        a = np.where(defined, scale[:, None] / safe, 0.0)  # d macro / d X_k
        ar = a * r
        cx, cy = _form_coefficients(form.x), _form_coefficients(form.y)
        for block in range(3):
            weights[block * q : (block + 1) * q, j, :] = (
                cx[block] * a - cy[block] * ar
            ).T
        a_sum, ar_sum = a.sum(axis=1), ar.sum(axis=1)
        scalars[0, j] = cx[3] * a_sum - cy[3] * ar_sum
        scalars[1, j] = cx[4] * a_sum - cy[4] * ar_sum
        macros[key] = macro
    u = basis.counts @ weights.reshape(3 * q, -1)  # (n_kinds, forms x B)
    u = u.reshape(-1, len(keys), n_rows)
    if scalars[0].any():
        u += basis.total[:, None, None] * scalars[0][None]
    if scalars[1].any():
        u += basis.trace[:, None, None] * scalars[1][None]
    u *= u
    u *= counts.T[:, None, :]
    variance = u.sum(axis=0)
    return {key: np.stack([macros[key], variance[j]]) for j, key in enumerate(keys)}


def studentised_bounds(estimate, se, macro, variance, *, confidence_level):
    """``(low, high)`` of the bootstrap-t of ``estimate`` (standard error
    ``se``) from the resamples' macro averages and linearised variances
    (B,), clipped to [0, 1]; the normal interval ``estimate +- z se`` where
    ``macro`` is None (see :func:`macro_interval`'s Notes)."""
    alpha = (1.0 - confidence_level) / 2.0
    if macro is None:
        z = ndtri(1.0 - alpha)
        low, high = estimate - z * se, estimate + z * se
        return float(np.clip(low, 0, 1)), float(np.clip(high, 0, 1))
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
    return float(np.clip(low, 0.0, 1.0)), float(np.clip(high, 0.0, 1.0))
