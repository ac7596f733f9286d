"""Score intervals for per-label ratios, and a studentised interval for macro
averages: intervals that keep their coverage where the bootstrap's collapse.

A per-label ratio (precision, recall, specificity, F-beta) of an MLCM is a
ratio of two sums over the instances, ``r = X / Y`` with ``X = sum_i x_i``
and ``Y = sum_i y_i``, each a linear form of the instance's margins
(:func:`ratio_form`, :data:`COMPONENTS`). Its percentile bootstrap
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
caller (the report, the intervals) validates once. The sums and products of
the units' counts (:func:`count_moments`) are read off their sparse margins
once per call, and every ratio's moments off them (:func:`form_moments`);
every macro average's resampled values and variances come from one product
of the units' margins per block of resamples (:func:`resampled_macros`).
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.special import betaincinv, gammaincinv, ndtri

from ._bounds import OUTSIDE_SHARE
from ._table import resample_counts, row_blocks

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
    "unit_totals",
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

#: The units' linearised contributions are summed over blocks of kinds of at
#: most this many values per form (kinds x resamples), whatever the forms:
#: the sums, and so each average's bounds, do not depend on which other
#: averages are read with it.
VARIANCE_CELLS = 1 << 16

#: The score intervals of a proportion, by name.
SCORE_INTERVALS = ("modified-wilson", "wilson", "jeffreys")

#: Brown, Cai and DasGupta's modified Wilson interval: at most this many hits
#: (or misses) get the Poisson bound, up to 50 trials and from 51 to 100;
#: none past 100 trials.
POISSON_HITS = ((50.0, 2.0), (100.0, 3.0))

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
    method : {"wilson", "modified-wilson", "jeffreys"}, default="wilson"
        Wilson's score interval (1927); Brown, Cai and DasGupta's (2001)
        modified Wilson interval, Wilson's but for one or two hits or misses
        up to 50 trials (one to three from 51 to 100), where the bound next
        to them is a Poisson bound; or Jeffreys' equal-tailed Bayesian interval
        (Brown, Cai and DasGupta 2001), whose lower bound is 0 at no hit and
        upper bound 1 at no miss.

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

    Wilson's interval covers poorly where the proportion is near 0 (or 1)
    and a hit or two are seen: at one hit of one trial it is [0.21, 1],
    which misses every proportion under 0.21 (its coverage there is ``1 -
    p``, the chance of no hit). Brown, Cai and DasGupta (2001, section
    4.1.1) replace the lower bound at ``x = 1, 2`` hits up to 50 trials and
    ``x = 1, 2, 3`` from 51 to 100 by the Poisson bound ``chi2_{2x}(1 -
    level) / (2 n)`` (the one-sided level; ``gammaincinv(x, 1 - level) /
    n``): 0.0513 at one hit of one trial and 95%, as R's ``MKmisc::binomCI``
    and ``DescTools::BinomCI`` give it; and the upper bound likewise at as
    few misses. Here the bound is the smaller of the two (at levels of 90%
    and above it always is the Poisson one; at 80%, from 51 trials, Wilson's
    can be smaller, and is kept: the modification only widens). Other
    counts keep Wilson's bounds. Fractional counts (an effective number of
    trials) follow the same rule.

    Examples
    --------
    >>> from sklearn_mlcm._uncertainty._score_intervals import proportion_interval
    >>> low, high = proportion_interval(0, 10, confidence_level=0.95)
    >>> print(f"[{float(low):.4f}, {float(high):.4f}]")
    [0.0000, 0.2775]
    """
    if method not in SCORE_INTERVALS:  # a private name: a caller's typo
        raise ValueError(f"method must be one of {SCORE_INTERVALS}, got {method!r}")
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
        if method == "modified-wilson":
            tail = 1.0 - confidence_level  # one-sided, as Brown et al. give it
            seen = np.clip(hits, 0.0, safe)
            low = np.minimum(low, _poisson_bound(seen, safe, tail))
            high = np.maximum(high, 1.0 - _poisson_bound(safe - seen, safe, tail))
    return np.where(defined, low, np.nan), np.where(defined, high, np.nan)


#: Relative rounding allowed where a count of hits or trials is compared with
#: :data:`POISSON_HITS`: an effective number of trials ``r (1 - r) / V``
#: that is a count of Bernoulli trials in exact arithmetic (unweighted
#: instances) comes out as 100.00000000000001 or 50.000000000000036.
_COUNT_ROUNDING = 1e-12


def _poisson_bound(hits, n, tail):
    """The Poisson lower bound of a proportion, ``gammaincinv(hits, tail) /
    n``, where ``0 < hits`` is at most :data:`POISSON_HITS` of ``n``
    trials, both to rounding (``r n_eff`` hits of ``n_eff`` trials: see
    :data:`_COUNT_ROUNDING`); 1.0 elsewhere (the bound is then Wilson's)."""
    tolerance = 1.0 + _COUNT_ROUNDING
    most = np.select([n <= limit * tolerance for limit, _ in POISSON_HITS],
                     [hits for _, hits in POISSON_HITS], default=0.0)  # fmt: skip
    near = (hits > 0) & (hits <= most * tolerance)
    bound = gammaincinv(np.where(near, hits, 1.0), tail) / n
    return np.where(near, np.minimum(bound, 1.0), 1.0)


# -- a per-label ratio of sums over the units ---------------------------------------

#: What one unit gives every ratio's numerator and denominator, each a
#: linear form of them: its margins' diagonal, row sums and column sums of
#: each label, every cell of its matrix (``total``, the row sums' sum) and
#: its diagonal (``trace``), the last two one number per unit, the same for
#: every label.
COMPONENTS = ("diag", "rows", "cols", "total", "trace")

#: The one-vs-rest counts as sums of :data:`COMPONENTS`: ``TP = diag``,
#: ``FP = cols - diag``, ``FN = rows - diag``, and the true negatives of each
#: ``tn`` rule, every cell outside the label's row and column (``total -
#: rows - cols + diag``) or the diagonal without the label's own cell
#: (``trace - diag``).
_COUNTS = {
    "tp": {"diag": 1.0},
    "fp": {"cols": 1.0, "diag": -1.0},
    "fn": {"rows": 1.0, "diag": -1.0},
}
_TRUE_NEGATIVES = {
    "complement": {"total": 1.0, "rows": -1.0, "cols": -1.0, "diag": 1.0},
    "diagonal": {"trace": 1.0, "diag": -1.0},
}


@dataclass(frozen=True)
class RatioForm:
    """A per-label ratio ``X / Y`` as linear forms of each unit's margins:
    ``x`` and ``y`` hold the coefficients (5,) of :data:`COMPONENTS`, the
    same for every label."""

    x: np.ndarray
    y: np.ndarray


def ratio_form(metric, *, beta=1.0, tn="complement"):
    """The :class:`RatioForm` of ``metric`` (a name of :data:`RATIOS`):

    - precision: ``x = diag`` (TP), ``y = cols`` (TP + FP); recall: ``y =
      rows`` (TP + FN);
    - F-beta: ``x = (1 + b^2) diag``, ``y = b^2 rows + cols``, both divided
      by ``b^2`` when ``b^2`` would overflow;
    - specificity: ``x = TN``, ``y = TN + FP``, TN as ``tn`` says
      (:data:`_TRUE_NEGATIVES`);
    - the registry's other ratios: the sums of their counts (:data:`RATIOS`,
      :data:`_COUNTS`).
    """
    if metric in ("f1", "fbeta"):
        b = 1.0 if metric == "f1" else float(beta)
        if b <= 1e50:
            b2 = b * b
            x, y = {"diag": 1.0 + b2}, {"rows": b2, "cols": 1.0}
        else:
            inverse = (1.0 / b) ** 2
            x, y = {"diag": 1.0 + inverse}, {"rows": 1.0, "cols": inverse}
        return RatioForm(_coefficients(x), _coefficients(y))
    counts = {**_COUNTS, "tn": _TRUE_NEGATIVES[tn]}
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
class CountMoments:
    """The sums over the units, each kind counted ``weights`` times, of
    their margins (:data:`COMPONENTS`), ``sums`` (5, shown), and of their
    products two by two, ``gram`` (5, 5, shown): every ratio's
    :class:`RatioMoments` is read off them (:func:`form_moments`)."""

    sums: np.ndarray
    gram: np.ndarray


def count_moments(units, weights, shown=None, *, scale=None):
    """The :class:`CountMoments` of the first ``shown`` indices of the
    units of ``units`` (a :class:`~._table.UnitTable`), off their sparse
    margins ``M`` (diagonal, row sums, column sums): their sums ``M.T @
    w``, squares, products with each kind's ``total`` and ``trace`` (one
    product each over every column), and the products of one label's
    diagonal, row sum and column sum (three column slices of the margins by
    columns), the margins first multiplied by ``scale`` (by default their
    :func:`margin_scale`; a caller that records the scale passes its own):
    the moments are those of the scaled margins."""
    q1 = units.n_labels + 1
    s = units.n_labels if shown is None else shown
    w = np.asarray(weights, dtype=np.float64)
    margins = sparse.csc_array(units.unit_margins)  # its columns sliced fast
    total, trace = unit_totals(units)
    if scale is None:
        c = margin_scale(units.unit_margins)
    elif isinstance(scale, bool) or not float(scale) > 0.0:  # False is no scale
        raise ValueError(f"scale must be a positive number or None, got {scale!r}")
    else:
        c = float(scale)
    if c != 1.0:  # squares of extreme weights stay finite; ratios unchanged
        margins, total, trace = margins * c, total * c, trace * c
    dense = (total, trace)

    def by_part(values):  # (3 q1,) -> (3, s): the shown labels of each margin
        return values.reshape(3, q1)[:, :s]

    sums = np.empty((5, s))
    gram = np.empty((5, 5, s))
    sums[:3] = by_part(margins.T @ w)
    squares = by_part(sparse.csc_array(margins.power(2)).T @ w)
    for i in range(3):
        gram[i, i] = squares[i]
    for j, column in enumerate(dense, start=3):
        gram[:3, j] = gram[j, :3] = by_part(margins.T @ (w * column))
    parts = [sparse.csc_array(margins[:, i * q1 : i * q1 + s]) for i in range(3)]
    for i, j in ((0, 1), (0, 2), (1, 2)):
        product = sparse.csc_array(parts[i].multiply(parts[j]))
        gram[i, j] = gram[j, i] = product.T @ w
    for i, column in enumerate(dense, start=3):
        sums[i] = w @ column
        for j in range(i, 5):
            gram[i, j] = gram[j, i] = w @ (column * dense[j - 3])
    return CountMoments(sums, gram)


#: Margins beyond these magnitudes are scaled before they are squared.
_SQUARE_SAFE = (2.0**-300, 2.0**300)

#: A scaled margin is kept below 2**300 (its square, summed over up to 2**400
#: units, stays finite); where the margins lie at most 2**800 apart, the
#: smallest is then at least 2**-500 (its square a normal float64 number).
_SCALED_TOP = 300

#: The largest power of two a float64 holds: the largest scale.
_LARGEST_EXPONENT = 1023


def margin_scale(unit_margins):
    """A power of two that brings the units' margins (sample weights times
    counts) below 2**300 (:data:`_SCALED_TOP`) where the square of the largest
    would overflow or the smallest's underflow (weights near float64's
    limits), else 1.0. The scale centres the margins' range (in powers of
    two) as far as the largest allows: the smallest's square underflowed
    where the largest alone was brought to 1 (weights 1e-90 and 1e100 gave a
    label seen once [0, 1] as its recall interval, not [0.05, 1]).
    The scale is at most 2**1023 (margins that are all subnormal numbers
    are brought above 2**-51). Past 2**800 (about 1e240) no common scale
    holds every square: the
    largest are kept finite, the smallest squares underflow, and a label
    seen only at such weights gets the interval of no trial, [0, 1].
    Every interval here is a function of ratios of the margins and of their
    squares, unchanged by a common scale; a power of two keeps the ratios'
    bits.
    """
    data = np.abs(unit_margins.data) if sparse.issparse(unit_margins) else None
    if data is None:
        data = np.abs(np.asarray(unit_margins)).ravel()
    data = data[data > 0]
    if data.size == 0:
        return 1.0
    low, high = _SQUARE_SAFE
    largest, smallest = float(data.max()), float(data.min())
    if largest < high and smallest > low:
        return 1.0
    top, bottom = int(np.frexp(largest)[1]), int(np.frexp(smallest)[1])
    # the range's middle at 1, as far as largest * 2**-shift < 2**(top -
    # shift) <= 2**_SCALED_TOP allows, and as far as a float64 holds the
    # scale: subnormal margins (every weight below 2**-1022) are brought to
    # at least 2**-51 by 2**1023, where 2**1029 was inf
    shift = max((top + bottom) // 2, top - _SCALED_TOP, -_LARGEST_EXPONENT)
    return float(np.ldexp(1.0, -shift))


def unit_totals(units):
    """``(total, trace)``, (n_kinds,) each: every cell of each kind's matrix
    (its row sums) and its diagonal."""
    q1 = units.n_labels + 1
    select = np.zeros((3 * q1, 2))
    select[q1 : 2 * q1, 0] = 1.0
    select[0:q1, 1] = 1.0
    return np.asarray(units.unit_margins @ select).T


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
        numerator=_cancelled(x, moments.sums),
        denominator=_cancelled(y, moments.sums),
        xx=np.einsum("c,cds,d->s", x, gram, x),
        xy=np.einsum("c,cds,d->s", x, gram, y),
        yy=np.einsum("c,cds,d->s", y, gram, y),
    )


#: A count read as a difference of the components' sums (TN, FP, FN) that is
#: within this fraction of the sums it is the difference of is rounding,
#: not a count: it is 0. (TN = total - rows - cols + diag over weights such
#: as 1.0000000000000022 leaves 1e-15 where every cell of the matrix is 0.)
CANCELLATION = 1e-12


def _cancelled(coefficients, components):
    """``coefficients @ components`` (the sums of a linear form of the
    components, (5,) and (5, ...)), 0 where it is rounding left by the
    cancellation of its terms (:data:`CANCELLATION`): a form whose
    coefficients are all non-negative has none."""
    value = np.tensordot(coefficients, components, axes=1)
    if (coefficients >= 0).all():
        return value
    scale = np.tensordot(np.abs(coefficients), np.abs(components), axes=1)
    return _without_rounding(value, scale)


def _without_rounding(value, magnitude):
    """``value``, set in place to 0 where it is within :data:`CANCELLATION`
    of ``magnitude``, the sum of its terms' magnitudes: the one rule of the
    labels' moments (:func:`_cancelled`) and the resamples (:func:`_combine`)."""
    magnitude = magnitude * CANCELLATION
    np.copyto(value, 0.0, where=np.abs(value) <= magnitude)
    return value


def ratio_moments(units, metric, *, beta=1.0, tn="complement", counts=None, shown=None):
    """The :class:`RatioMoments` of ``metric`` over the units of ``units``
    (a :class:`~._table.UnitTable`), each kind counted ``counts`` times
    (its multiplicity by default: the test set itself), of the first
    ``shown`` indices (q by default)."""
    weights = units.multiplicity if counts is None else counts
    moments = count_moments(units, weights, shown)
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
    # a denominator whose square underflows (weights past 2**800 apart, see
    # margin_scale): no variance, no Kish size: the interval of no trial
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = residual / (safe * safe)
    interior = defined & (variance > 0) & (r > 0) & (r < 1)
    design = r * (1.0 - r) / np.where(interior, variance, 1.0)
    return np.where(interior, design, np.where(defined, kish, 0.0))


def label_score_intervals(moments, *, confidence_level, method="modified-wilson"):
    """Per-label score intervals of the ratios ``X / Y`` of ``moments``
    (:func:`ratio_moments`), on the effective number of trials.

    Parameters
    ----------
    moments : RatioMoments
        The sums of the numerators, denominators and their squares.
    confidence_level : float
        In (0, 1).
    method : {"modified-wilson", "wilson", "jeffreys"}, \
            default="modified-wilson"
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

    L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for a
    binomial proportion", Statistical Science 16(2), 101-133, 2001 (the
    modified Wilson interval, the default ``method``: see
    :func:`proportion_interval`).
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
    bounds were ``widened`` to reach the estimate with at least 97.5 % of the
    resamples on that side, the flagged case (:func:`studentised_bounds`: a
    narrower interval widened on a smaller majority is not)."""

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
    then widened to reach ``M``: an interval that excludes its own estimate
    would contradict it; ``widened`` (the caller flags it) where at least
    97.5 % of the resamples lie on that side (:func:`studentised_bounds`).
    """
    shown = units.n_labels if shown is None else shown
    forms = macro_forms({metric: ratio_form(metric, beta=beta, tn=tn)}, shown)
    zero_division = float(zero_division)
    estimate, se = (float(v[0]) for v in macro_estimate(units, forms, zero_division))
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
        drawn = np.ascontiguousarray(resample_counts(seed, start, stop, units).T)
        found = resampled_macros(
            drawn, units.margins_of(drawn), units, forms, zero_division
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
    one row per key (:class:`RatioForm`), over the first ``shown``
    indices."""

    keys: tuple
    x: np.ndarray
    y: np.ndarray
    shown: int


def macro_forms(forms, shown):
    """The :class:`MacroForms` of ``forms``, a dict from a key to a
    :class:`RatioForm`, averaged over the first ``shown`` indices."""
    keys = tuple(forms)
    x = np.array([forms[key].x for key in keys]).reshape(len(keys), len(COMPONENTS))
    y = np.array([forms[key].y for key in keys]).reshape(len(keys), len(COMPONENTS))
    return MacroForms(keys, x, y, shown)


def resampled_macros(drawn, margins, units, forms, zero_division):
    """(2, F, B): the macro averages of the :class:`MacroForms` ``forms`` and
    their linearised variances in the resamples that drew each kind of unit
    of ``units`` ``drawn`` times ((n_kinds, B), C-ordered: the counts
    transposed, as :meth:`~._table.UnitTable.margins_of` reads them), whose
    ``margins`` (B, 3, q + 1) are drawn already (the averages' sums are read
    off them).

    Each unit's linearised contribution ``u_i = sum_k a_k (x_ik - r_k
    y_ik)`` (:func:`macro_interval`'s Notes) is a linear form of its margins
    (:data:`COMPONENTS`; the total is the sum of the row sums, the trace of
    the diagonal): one sparse product with the units' margins gives every
    form's contributions in every resample, and ``variance_b = sum_i c_bi
    u_ib^2``.
    """
    n_rows, s, n_forms = drawn.shape[1], forms.shown, len(forms.keys)
    q1 = margins.shape[2]
    unit_margins = units.unit_margins
    c = margin_scale(unit_margins)
    if c != 1.0:  # exact (a power of two): the ratios' bits are unchanged
        margins, unit_margins = margins * c, unit_margins * c
    # every array here is (labels, forms, resamples): the weights of the
    # margins' product are then written row by row (label by label)
    by_label = np.ascontiguousarray(margins.transpose(1, 2, 0))  # (3, q1, B)
    components = (by_label[0, :s], by_label[1, :s], by_label[2, :s])
    components += (by_label[1].sum(axis=0), by_label[0].sum(axis=0))
    X = _combine(forms.x, components, s, n_rows)  # (s, F, B)
    Y = _combine(forms.y, components, s, n_rows)
    defined = Y > 0
    undefined = ~defined
    safe = Y  # in place: each of these arrays is read once more at most
    np.copyto(safe, 1.0, where=undefined)
    r = np.divide(X, safe, out=X)
    np.clip(r, 0.0, 1.0, out=r)
    np.copyto(r, 0.0, where=undefined)
    if np.isnan(zero_division):
        n_defined = defined.sum(axis=0)
        scale = np.where(n_defined > 0, 1.0 / np.maximum(n_defined, 1), np.nan)
        macro = r.sum(axis=0) * scale
    else:
        scale = np.full((n_forms, n_rows), 1.0 / s)
        macro = (r.sum(axis=0) + zero_division * undefined.sum(axis=0)) / s
    a = np.divide(scale, safe)  # d macro / d X_k, (s, F, B)
    np.copyto(a, 0.0, where=undefined)
    weights = _margin_weights(forms, a, np.multiply(a, r, out=r), q1)
    lender = units if c == 1.0 else None  # scaled margins: blocks of their own
    return np.stack([macro, _variances(drawn, unit_margins, weights, lender)])


def _combine(coefficients, components, s, n_rows):
    """(s, F, B) ``sum_c coefficients[f, c] component_c`` of each form f:
    the components (s, B), or (B,) for the total and the trace."""
    n_forms = coefficients.shape[0]
    out = np.empty((s, n_forms, n_rows))
    for f in range(n_forms):
        _linear_form(out[:, f, :], coefficients[f], components)
    scale = None
    for f in np.flatnonzero((coefficients < 0).any(axis=1)):
        # a difference of sums: within CANCELLATION of its terms' magnitudes
        # (the components are sums of weights, never negative) it is
        # rounding, no count, as _cancelled reads the labels' moments
        if scale is None:
            scale = np.empty((s, n_rows))
        _linear_form(scale, np.abs(coefficients[f]), components)
        _without_rounding(out[:, f, :], scale)
    return out


def _linear_form(out, coefficients, components):
    """``out[...] = sum_c coefficients[c] components[c]``, term by term in
    the components' order, as ``0 + c_0 x_0 + c_1 x_1 + ...`` adds them (the
    same bits), without a temporary for a coefficient of 1 or -1."""
    used = np.flatnonzero(coefficients)
    if used.size == 0 or coefficients[used[0]] < 0:
        out[...] = 0.0  # 0 - x, not -x: no negative zeros
        first = 0
    else:
        np.multiply(components[used[0]], coefficients[used[0]], out=out)
        first = 1
    for c in used[first:]:
        k = coefficients[c]
        if k == 1.0:
            out += components[c]
        elif k == -1.0:
            out -= components[c]
        else:
            out += k * components[c]


def _margin_weights(forms, a, ar, q1):
    """(3 q1, F x B): the coefficients of each unit's margins (diagonal, row
    sums, column sums) in ``u``, ``cx a - cy ar`` per component (``a``,
    ``ar``: (s, F, B)); the total adds to every row sum's, the trace to
    every diagonal cell's."""
    s, n_forms, n_rows = a.shape
    weights = np.empty((3, q1, n_forms, n_rows))
    weights[:, s:] = 0.0
    term = np.empty((s, n_rows))
    for c, f in np.ndindex(3, n_forms):
        x, y = forms.x[f, c], forms.y[f, c]
        part = weights[c, :s, f]
        # 0 + x a - y ar as the zeros added them, but for the sign of a zero
        # product (a zero weight adds nothing to the units' contributions);
        # form by form, skipping the zero coefficients
        if x == 1.0:
            np.copyto(part, a[:, f])
        elif x != 0.0:
            np.multiply(a[:, f], x, out=part)
        else:
            part[...] = 0.0
        if y == 1.0:
            part -= ar[:, f]
        elif y != 0.0:
            part -= np.multiply(ar[:, f], y, out=term)
    for c, to in ((3, 1), (4, 0)):
        # only the forms that read the total (the trace): the others add 0
        for f in np.flatnonzero((forms.x[:, c] != 0) | (forms.y[:, c] != 0)):
            x, y = forms.x[f, c], forms.y[f, c]
            weights[to, :, f] += x * a[:, f].sum(axis=0) - y * ar[:, f].sum(axis=0)
    return weights.reshape(3 * q1, -1)


def _variances(drawn, unit_margins, weights, units=None):
    """(F, B) ``variance_b = sum_i c_bi u_ib^2`` of each form, ``u = margins
    @ weights`` (:func:`_margin_weights`), ``c`` the counts ``drawn``
    (n_kinds, B), in blocks of kinds of :data:`VARIANCE_CELLS` values per
    form: one sparse product per block gives every form's ``u`` in every
    resample at once. ``units`` (the :class:`~._table.UnitTable` whose
    ``unit_margins`` these are, unscaled) lends its row blocks, built once.
    """
    n_rows = drawn.shape[1]
    n_forms = weights.shape[1] // n_rows
    if n_rows == 1 and n_forms > 1:
        # one resample (the test set itself): form by form, so that each sum
        # runs over arrays of the same shape whatever the other forms (numpy
        # sums a single column pairwise, several in turn)
        return np.concatenate(
            [
                _variances(drawn, unit_margins, weights[:, [f]], units)
                for f in range(n_forms)
            ]
        )
    variance = np.zeros((n_forms, n_rows))
    step = max(1, VARIANCE_CELLS // n_rows)
    if units is None:
        blocks = row_blocks(unit_margins, step)
    else:
        blocks = units.margin_row_blocks(step)
    for start, stop, block in blocks:
        u = block @ weights  # (kinds, F x B)
        np.square(u, out=u)
        # one pass over u, weighed by the counts (half the time of a product
        # and a sum over the kinds)
        u = u.reshape(-1, n_forms, n_rows)
        variance += np.einsum("ifb,ib->fb", u, drawn[start:stop])
    return variance


def resampled_macro(counts, form, zero_division, units):
    """Macro averages (B,) and their linearised variances (B,) of the
    :class:`RatioForm` ``form`` in the units of ``units`` counted ``counts``
    (B, n_kinds) times."""
    drawn = np.ascontiguousarray(np.asarray(counts, dtype=np.float64).T)
    found = resampled_macros(
        drawn,
        units.margins_of(drawn),
        units,
        macro_forms({None: form}, units.n_labels),
        float(zero_division),
    )
    return found[0, 0], found[1, 0]


def macro_estimate(units, forms, zero_division):
    """``(estimates, standard errors)``, (F,) each: the macro averages of the
    :class:`MacroForms` ``forms`` on the test set itself and their
    linearised standard errors."""
    weights = units.multiplicity[:, None]
    found = resampled_macros(weights, units.observed(), units, forms, zero_division)
    return found[0, :, 0], np.sqrt(np.maximum(found[1, :, 0], 0.0))


def studentised_bounds(estimate, se, macro, variance, *, confidence_level):
    """``(low, high, widened)`` of the bootstrap-t of ``estimate`` (standard
    error ``se``) from the resamples' macro averages and linearised
    variances (B,), clipped to [0, 1]; the normal interval ``estimate +- z
    se`` where ``macro`` is None (see :func:`macro_interval`'s Notes).

    A bootstrap-t that would exclude a finite ``estimate`` is widened to
    reach it. ``widened`` is True where at least
    :data:`~._bounds.OUTSIDE_SHARE` (97.5 %) of the resamples lie on the
    side it was moved to (the resamples shifted to one side of the
    estimate, which a 95 % interval would exclude too); a narrower interval
    (a low ``confidence_level``: at 5 %, 52.5 % of the resamples on one side
    put both bounds there) is widened without the flag, its resamples no
    sign of a shift.
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
    beside = np.mean(t < 0) if low > estimate else np.mean(t > 0)
    return min(low, estimate), max(high, estimate), bool(beside >= OUTSIDE_SHARE)


# -- one call's basis ----------------------------------------------------------------


@dataclass(frozen=True)
class ScoreBasis:
    """What the score intervals of one call read, computed once before any
    resample is drawn: the units' count ``moments`` over the test set
    (:class:`CountMoments`), the :class:`RatioForm` of each ratio metric
    (``forms``), and for the macro averages their :class:`MacroForms`
    (``macro``, None without) with their linearised standard errors on the
    test set (``macro_se``, (F,))."""

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
    moments = count_moments(units, units.multiplicity, shown)
    averaged = se = None
    if macro:
        averaged = macro_forms(forms, shown)
        _, se = macro_estimate(units, averaged, float(zero_division))
    return ScoreBasis(moments, forms, averaged, se)
