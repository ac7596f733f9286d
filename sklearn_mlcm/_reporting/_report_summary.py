"""The one-screen summary of an :class:`~sklearn_mlcm.MLCMReport` (its repr):
the labels by whole names, the headline scores with their intervals, the
most confused pair, and the thresholds, each said for what it is."""

import numpy as np

from sklearn_mlcm._report._table import (
    UNDEFINED_CELL,
    headline,
    is_undefined,
    table_of_report,
)
from sklearn_mlcm._summary import shorten
from sklearn_mlcm._thresholds._curve import IN_SAMPLE, OUT_OF_SAMPLE

__all__ = ["report_summary"]

#: At most this many names on the first line, which fits _REPR_WIDTH.
_REPR_NAMES = 5
_REPR_WIDTH = 79
_REPR_NAMES_LEAD = "labels: "


def report_summary(report):
    """The repr of ``report``: a few lines, within a 79-character terminal."""
    # whole names: only a name wider than the line of names is cut
    room = _REPR_WIDTH - len(_REPR_NAMES_LEAD)
    cut = room - len(f", ... and {len(report.target_names):,} more")
    names = [shorten(name, cut) for name in report.target_names]
    instances = "instance" if report.n_samples == 1 else "instances"
    labels = "label" if len(names) == 1 else "labels"
    head = f"MLCMReport: {len(names):,} {labels}"
    rest = f", {report.n_samples:,} {instances}, method={report.method!r}"
    # the first names that keep the line within one terminal line
    for k in range(min(_REPR_NAMES, len(names)), 0, -1):
        shown = ", ".join(names[:k]) + (", ..." if len(names) > k else "")
        first = f"{head} ({shown}){rest}"
        if len(first) <= _REPR_WIDTH:
            lines = [first]
            break
    else:  # not one whole name beside the counts: the names on a line
        lines = [
            head + rest,
            _REPR_NAMES_LEAD + _names_within(names, room),
        ]
    scores = []
    column, words = headline(table_of_report(report.report).columns)
    for average in ("micro", "macro"):
        entry = report.report.get(f"{average} avg")
        if entry is None:
            continue
        flag = entry.get(f"{column} flag")
        if is_undefined(flag):
            scores.append(f"{average} {words} {UNDEFINED_CELL} ({flag})")
            continue
        text = f"{average} {words} {entry[column]:.2f}"
        if f"{column} low" in entry:
            low, high = entry[f"{column} low"], entry[f"{column} high"]
            text += f" [{low:.2f}, {high:.2f}]"
        if flag is not None:
            text += f" (flagged: {flag})"
        scores.append(text)
    lines.append(", ".join(scores))
    if report.interval_legend is not None:
        lines.append(report.interval_legend)
    if report.most_confused:
        top = report.most_confused[0]
        value = top.value if isinstance(top.value, int) else f"{top.value:.3g}"
        pair = f"{shorten(top.true)} -> {shorten(top.predicted)}"
        lines.append(f"most confused: {pair} ({value})")
    curve = report.threshold_curve
    if curve is not None:
        best = curve.best_threshold
        where = (
            f"{best:.3g}"
            if np.ndim(best) == 0
            else f"row {curve.best_index} of per-label thresholds"
        )
        metric = {"f1": "F1"}.get(curve.metric, curve.metric)
        lines.append(
            f"best threshold: {where} ({curve.average} {metric} "
            f"{curve.scores[curve.best_index]:.2f}; {IN_SAMPLE})"
        )
        if report.threshold_spread is None:
            lines.append(f"  {OUT_OF_SAMPLE}")
    if report.threshold_spread is not None:
        lines.append(f"tuned thresholds: {report.threshold_spread.headline()}")
    return "\n".join(lines)


def _names_within(names, width):
    """As many of ``names`` as fit ``width`` characters, comma-separated,
    then how many are left (``"a, b, ... and 980 more"``); the first always."""
    shown, used = [], 0
    for k, name in enumerate(names):
        left = len(names) - k - 1
        more = len(f", ... and {left:,} more") if left else 0
        extra = len(name) + (2 if shown else 0)
        if shown and used + extra + more > width:
            break
        shown.append(name)
        used += extra
    left = len(names) - len(shown)
    return ", ".join(shown) + (f", ... and {left:,} more" if left else "")
