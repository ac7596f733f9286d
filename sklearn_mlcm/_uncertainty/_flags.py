"""When an interval cannot be trusted: a short reason, or None.

Every output (the report's ``"<score> flag"``, the frames, the text, the
page) shows the reason these functions return beside the interval. The
reasons are few and plain:

- "undefined: never predicted" (precision), "undefined: no true instance"
  (recall), "undefined: no true or predicted instance" (F-scores),
  "undefined: no negative instance" (specificity): the ratio's denominator
  is 0 in the sample, so the value shown is ``zero_division``'s, not a
  measurement;
- "few positives (3 < 5)": a bootstrap (percentile, BCa) interval of a label
  with fewer than :data:`FEW` positives (predictions for precision,
  negatives for specificity); the score intervals of
  :func:`~._score_intervals.label_score_intervals` hold their coverage
  there and are not flagged;
- "undefined for every label (never predicted)": an average none of whose
  labels is defined;
- "12 of 53 labels have < 5 positives": a macro average over labels of which
  more than :data:`FEW_SHARE` are that rare. No interval of the plug-in
  macro average holds its coverage there (a label absent from the sample
  scores ``zero_division``, which no resampling of the sample can see);
- :data:`WIDENED`: a macro average's bootstrap-t that would have excluded
  its own estimate with at least 97.5 % of the resamples on one side of it
  (a ratio resting on an instance that many resamples miss) and was widened
  to reach it; the estimate itself is then likely biased. (A narrow
  interval, at a low confidence level, that lay beside its estimate on a
  smaller majority is widened without a flag.)

The thresholds were calibrated by ``benchmarks/sim_honest.py`` on the MULAN
populations (yeast, enron, bibtex; n = 50 to 1,000; both methods; 60
replicates a cell). Pooled, the macro bootstrap-t covered 95-96% where at
most 15% of the labels were rare, 93% at 15-20%, 88% at 20-30%, 81% at
30-50% and 75% beyond. With a 5% share every cell whose bootstrap-t covered
less than 90% was flagged in 97-100% of its replicates, and unflagged
intervals covered 88-100%; a 15% or 20% share flagged far fewer honest
cells but left three cells (85-88% coverage) mostly unflagged.
"""

from dataclasses import dataclass

import numpy as np

from ._score_intervals import margin_scale

__all__ = [
    "FEW",
    "FEW_SHARE",
    "WIDENED",
    "LabelSupport",
    "average_flag",
    "label_flags",
    "label_support",
]

#: A label with fewer positives than this is rare for the sample.
FEW = 5

#: A macro average is flagged where more than this share of its labels is rare.
FEW_SHARE = 0.05

#: The reason of a bootstrap-t widened to reach its estimate
#: (:func:`~._score_intervals.studentised_bounds`).
WIDENED = "bootstrap-t excluded the estimate (shifted resamples): widened to it"

#: What the denominator of each metric counts, and the reason where it is 0
#: (every statistic of the registry, :data:`~sklearn_mlcm._statistics.
#: STATISTICS`, and the alias "f1"). The statistics that are not ratios
#: (MCC, balanced accuracy, informedness, markedness, G-mean) count the
#: positives (the predictions for markedness) and give their registry's
#: undefined rule in words.
SUPPORT = {
    "precision": ("n_pred", "predictions", "undefined: never predicted"),
    "recall": ("n_true", "positives", "undefined: no true instance"),
    "f1": ("n_true", "positives", "undefined: no true or predicted instance"),
    "fbeta": ("n_true", "positives", "undefined: no true or predicted instance"),
    "specificity": ("n_negative", "negatives", "undefined: no negative instance"),
    "accuracy": ("n_all", "instances", "undefined: no instance"),
    "jaccard": ("n_true", "positives", "undefined: no true or predicted instance"),
    "matthews_corrcoef": (
        "n_true",
        "positives",
        "undefined: all or no true, or all or no predicted instances",
    ),
    "balanced_accuracy": ("n_true", "positives", "undefined: all or no true instances"),
    "negative_predictive_value": (
        "n_not_pred",
        "predicted negatives",
        "undefined: always predicted",
    ),
    "false_discovery_rate": ("n_pred", "predictions", "undefined: never predicted"),
    "false_omission_rate": (
        "n_not_pred",
        "predicted negatives",
        "undefined: always predicted",
    ),
    "false_positive_rate": (
        "n_negative",
        "negatives",
        "undefined: no negative instance",
    ),
    "false_negative_rate": ("n_true", "positives", "undefined: no true instance"),
    "informedness": ("n_true", "positives", "undefined: all or no true instances"),
    "markedness": (
        "n_pred",
        "predictions",
        "undefined: all or no predicted instances",
    ),
    "g_mean": ("n_true", "positives", "undefined: all or no true instances"),
    "prevalence": ("n_all", "instances", "undefined: no instance"),
}


@dataclass(frozen=True)
class LabelSupport:
    """Each label's effective number of instances (q,) where it is true
    (``n_true``), predicted (``n_pred``), not true (``n_negative``), not
    predicted (``n_not_pred``), and of all instances (``n_all``): Kish's
    ``(sum w)^2 / sum w^2`` over those instances, the count itself without
    sample weights. The last two are None where not computed (the
    statistics that need them are then not flagged as rare)."""

    n_true: np.ndarray
    n_pred: np.ndarray
    n_negative: np.ndarray
    n_not_pred: np.ndarray | None = None
    n_all: np.ndarray | None = None


def label_support(units, *, include_no_label=False):
    """The :class:`LabelSupport` of the units of ``units`` (a
    :class:`~._table.UnitTable`).

    With ``groups`` the table keeps, per group, the summed weight of its
    instances of each (true set, predicted set); those count as one
    instance of that weight (fewer effective instances: the conservative
    side). With ``include_no_label`` the "no label" index comes last: its
    positives are the instances with no true label, its predictions those
    with no predicted label.
    """
    # the sums over the units of each pair's weight (and squared weight),
    # then over the pairs: no (kinds x labels) array is made
    m = units.multiplicity
    weights = units.kind_pairs
    c = margin_scale(weights)
    if c != 1.0:  # Kish's counts are ratios: squares of extreme weights kept finite
        weights = weights * c
    pair_weight = weights.T @ m
    pair_square = weights.power(2).T @ m
    true, pred = units.pair_true, units.pair_pred
    if include_no_label:
        true = np.column_stack([true, ~true.any(axis=1)])
        pred = np.column_stack([pred, ~pred.any(axis=1)])
    # the weights where true, where predicted (einsum reads the booleans as
    # they are: no float copy of the pairs' table)
    totals = np.concatenate(
        [np.einsum("pk,p->k", x, pair_weight) for x in (true, pred)]
    )
    squares = np.concatenate(
        [np.einsum("pk,p->k", x, pair_square) for x in (true, pred)]
    )
    all_weight, all_square = pair_weight.sum(), pair_square.sum()
    q = true.shape[1]
    sums = {
        "n_true": (totals[:q], squares[:q]),
        "n_pred": (totals[q:], squares[q:]),
        "n_negative": (all_weight - totals[:q], all_square - squares[:q]),
        "n_not_pred": (all_weight - totals[q:], all_square - squares[q:]),
        "n_all": (np.full(q, all_weight), np.full(q, all_square)),
    }
    out = {}
    for name, (total, square) in sums.items():
        with np.errstate(divide="ignore", invalid="ignore"):
            out[name] = np.where(square > 0, total * total / square, 0.0)
    return LabelSupport(**out)


def _count(value):
    """An effective count as printed: an integer when it is one."""
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.1f}"


def label_flags(support, denominator, metric, *, interval="score"):
    """The reason (or None) of each label's interval of ``metric``.

    Parameters
    ----------
    support : LabelSupport
        The labels' effective counts (:func:`label_support`).
    denominator : ndarray of shape (q,)
        The ratio's denominator in the sample (``RatioMoments.denominator``,
        or the margins' sums): 0 makes the label undefined.
    metric : str
        A statistic of the registry, or "f1" (:data:`SUPPORT`).
    interval : {"score", "bootstrap"}, default="score"
        Where the interval comes from: a score interval
        (:func:`~._score_intervals.label_score_intervals`) is flagged only
        where undefined; a bootstrap interval also where the label has
        fewer than :data:`FEW` positives.

    Returns
    -------
    list of str or None
        One reason per label.
    """
    field, noun, undefined = SUPPORT[metric]
    counts = getattr(support, field)
    denominator = np.asarray(denominator)
    if counts is None:  # not computed: never rare
        counts = np.full(denominator.shape, np.inf)
    flags = []
    for value, den in zip(counts.tolist(), denominator.tolist()):
        if not den > 0:
            flags.append(undefined)
        elif interval == "bootstrap" and value < FEW:
            flags.append(f"few {noun} ({_count(value)} < {FEW})")
        else:
            flags.append(None)
    return flags


def average_flag(support, denominator, metric, average):
    """The reason (or None) of the interval of an average of ``metric``.

    Only the macro average is flagged, where more than :data:`FEW_SHARE` of
    the labels have fewer than :data:`FEW` positives (predictions for
    precision, negatives for specificity), or where every label is
    undefined. Micro, weighted and samples averages pool or weigh by the
    counts, so that rare labels barely move them: they are not flagged
    (their coverage held in every cell of the study).

    Returns
    -------
    str or None
    """
    field, noun, undefined = SUPPORT[metric]
    denominator = np.asarray(denominator)
    if denominator.size and not (denominator > 0).any():
        return f"undefined for every label ({undefined.split(': ')[1]})"
    if average != "macro":
        return None
    counts = getattr(support, field)
    if counts is None:
        return None
    rare = int(np.sum(counts < FEW))
    if rare > FEW_SHARE * counts.size:
        return f"{rare} of {counts.size} labels have < {FEW} {noun}"
    return None
