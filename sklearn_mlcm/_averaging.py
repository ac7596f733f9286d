"""Per-label values and their averages, the way Heydarian et al. (2022) do.

Table 12 of the paper: "micro" pools the counts of all q+1 indices (so that
micro precision, recall and F-beta all equal trace / sum), "macro" is the mean
over the labels and "weighted" the mean weighted by the MLCM row sums. The
report and the scores both read their numbers from here, so a score and its
report row cannot differ.
"""

import numpy as np

from ._statistics import line_sums, one_vs_rest_counts, ratio_metric, safe_ratio

__all__ = ["label_values", "nan_average", "summarize"]


def nan_average(values, weights=None):
    """Mean (or weighted mean) of per-class values, leaving NaN out.

    NaN values come from ``zero_division=np.nan`` and are left out of the
    average, as scikit-learn does; an average of nothing is NaN. When every
    weight is zero the weights are ignored (scikit-learn's ``_nanaverage``).
    """
    values = np.asarray(values, dtype=np.float64)
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)[keep]
        if weights.sum() > 0:
            return float(np.average(values[keep], weights=weights))
    return float(values[keep].mean())


def label_values(cm, metric, *, beta, include_no_label, zero_division, tn="diagonal"):
    """Per-label values of one metric: the q labels, and the no-label index too
    when ``include_no_label``."""
    shown = cm.shape[0] if include_no_label else cm.shape[0] - 1
    tp, fp, fn, tn_ = (x[:shown] for x in one_vs_rest_counts(cm, tn))
    return ratio_metric(metric, tp, fp, fn, tn_, beta=beta, zero_division=zero_division)


def summarize(cm, metric, values, average, *, beta, zero_division, tn="diagonal"):
    """Average per-label ``values`` the paper's way (Heydarian et al., Table 12).

    "micro" pools the counts of all q+1 indices, so that micro precision,
    recall and F-beta all equal trace / sum; "micro_labels" pools those of
    the q labels only (the corner C[NTL, NPL], instances with no true and no
    predicted label, counts for nothing), as scikit-learn's micro average
    does; "macro" is the mean of ``values`` and "weighted" their mean
    weighted by the MLCM row sums.
    """
    if average == "micro_labels":
        q = cm.shape[0] - 1
        counts = (x[:q].sum(keepdims=True) for x in one_vs_rest_counts(cm, tn))
        return float(
            ratio_metric(metric, *counts, beta=beta, zero_division=zero_division)[0]
        )
    if average == "micro":
        if cm.sum() == 0:  # every weight zero: nothing to pool
            return float(
                safe_ratio(0.0, 0.0, zero_division, "Micro average", "an empty matrix")
            )
        counts = (x.sum(keepdims=True) for x in one_vs_rest_counts(cm, tn))
        return float(
            ratio_metric(metric, *counts, beta=beta, zero_division=zero_division)[0]
        )
    weights = line_sums(cm, 1)[: len(values)] if average == "weighted" else None
    return nan_average(values, weights)
