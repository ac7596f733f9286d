"""How far tuned thresholds move from fold to fold.

:class:`MLCMTunedThresholdClassifierCV` tunes its thresholds on the pooled
out-of-fold scores, then once more on each fold's held-out scores alone (the
same objective and candidates, no refit). :class:`ThresholdSpread` is the
spread of those per-fold thresholds: per label the lowest, median and
highest, their range, and whether the label's threshold is unstable.
"""

from dataclasses import dataclass

import numpy as np

from sklearn_mlcm._summary import (
    MAX_LABEL_ROWS,
    format_number,
    format_table,
    label_table,
    require_pandas,
    shorten,
)

__all__ = ["UNSTABLE_SHARE", "ThresholdSpread", "spread_table"]

#: A label's threshold is unstable when the range of its per-fold thresholds
#: exceeds this share of the span of its candidate thresholds.
UNSTABLE_SHARE = 0.2

#: The words for one fold (cv a float or "prefit"), where no spread is seen.
ONE_FOLD = "spread across folds cannot be judged (one fold)"


@dataclass(frozen=True, repr=False)
class ThresholdSpread:
    """The spread of the thresholds tuned on each fold's held-out scores.

    The ``threshold_spread_`` of :class:`MLCMTunedThresholdClassifierCV`.
    It prints a summary of at most 40 lines: the number of folds and of
    unstable labels, then the labels whose thresholds move most.

    A label's threshold is *unstable* when the range of its per-fold
    thresholds (highest minus lowest) is more than 0.2 times the span of its
    candidate thresholds (the range of its out-of-fold scores with an int
    ``thresholds``, else the given grid's). Such a threshold depends on which
    instances happened to be held out; its tuned value is no better
    supported than the fold thresholds' range. With one fold (``cv`` a
    float or ``"prefit"``) no spread can be seen: ``range`` is NaN and
    ``unstable`` None.

    Attributes
    ----------
    fold_thresholds : ndarray of shape (n_folds,) or (n_folds, n_labels)
        The thresholds tuned on each fold's held-out scores alone.

    best_threshold : float or ndarray of shape (n_labels,)
        The thresholds tuned on the pooled out-of-fold scores (those
        ``predict`` uses).

    first_candidate, last_candidate : float or ndarray of shape (n_labels,)
        The lowest and highest candidate thresholds.

    span : float or ndarray of shape (n_labels,)
        ``last_candidate - first_candidate`` (inf beyond float64's range).

    low, median, high : float or ndarray of shape (n_labels,)
        The lowest, median and highest of the per-fold thresholds.

    range : float or ndarray of shape (n_labels,)
        ``high - low``; NaN with one fold.

    unstable : bool, ndarray of bool of shape (n_labels,) or None
        ``range > 0.2 * span``; None with one fold.

    n_folds : int
        The number of folds.
    """

    fold_thresholds: np.ndarray
    best_threshold: object
    first_candidate: object
    last_candidate: object

    @property
    def n_folds(self):
        return int(np.shape(self.fold_thresholds)[0])

    def _shaped(self, values):
        """Per-label values as ``best_threshold`` is shaped."""
        return float(values) if np.ndim(self.best_threshold) == 0 else values

    @property
    def low(self):
        return self._shaped(np.min(self.fold_thresholds, axis=0))

    @property
    def median(self):
        return self._shaped(np.median(self.fold_thresholds, axis=0))

    @property
    def high(self):
        return self._shaped(np.max(self.fold_thresholds, axis=0))

    @property
    def span(self):
        with np.errstate(over="ignore"):  # margins beyond float64's span: inf
            return self._shaped(
                np.asarray(self.last_candidate, dtype=np.float64)
                - np.asarray(self.first_candidate, dtype=np.float64)
            )

    @property
    def range(self):
        if self.n_folds < 2:
            return self._shaped(np.full(np.shape(self.best_threshold), np.nan))
        with np.errstate(over="ignore"):
            return self._shaped(np.ptp(self.fold_thresholds, axis=0))

    @property
    def unstable(self):
        if self.n_folds < 2:
            return None
        # halves: neither difference overflows, whatever the scores' scale
        low = np.min(self.fold_thresholds, axis=0) / 2
        high = np.max(self.fold_thresholds, axis=0) / 2
        first = np.asarray(self.first_candidate, dtype=np.float64) / 2
        last = np.asarray(self.last_candidate, dtype=np.float64) / 2
        flags = high - low > UNSTABLE_SHARE * (last - first)
        return bool(flags) if np.ndim(self.best_threshold) == 0 else flags

    def headline(self):
        """One line: the folds and how many labels are unstable."""
        if self.n_folds < 2:
            return ONE_FOLD
        folds = f"{self.n_folds:,} folds"
        flags = np.atleast_1d(self.unstable)
        if np.ndim(self.best_threshold) == 0:
            word = "unstable" if flags[0] else "stable"
            return f"global threshold {word} across {folds}"
        return (
            f"{int(flags.sum()):,} of {flags.size:,} label thresholds unstable "
            f"across {folds}"
        )

    def __repr__(self):
        return summarize_spread(self)

    def to_frame(self, target_names=None):
        """The spread as a pandas DataFrame, one row per label.

        Parameters
        ----------
        target_names : list of str, default=None
            The labels' names; by default their indices.

        Returns
        -------
        frame : pandas.DataFrame of shape (n_labels, 6)
            Index "label"; columns ``tuned``, ``low``, ``median``,
            ``high``, ``range`` (NaN with one fold) and ``unstable``
            (object: True, False, or None with one fold). A global
            threshold gives one row, "all labels".
        """
        pandas = require_pandas("ThresholdSpread.to_frame()")
        per_label = np.ndim(self.best_threshold) != 0
        q = np.size(self.best_threshold)
        if not per_label:
            names = ["all labels"]
        elif target_names is None:
            names = [str(k) for k in range(q)]
        else:
            names = [str(name) for name in target_names]
        unstable = self.unstable
        flags = [None] * q if unstable is None else np.atleast_1d(unstable).tolist()
        columns = {
            "tuned": np.atleast_1d(self.best_threshold).astype(np.float64),
            "low": np.atleast_1d(self.low),
            "median": np.atleast_1d(self.median),
            "high": np.atleast_1d(self.high),
            "range": np.atleast_1d(self.range),
            "unstable": np.array(flags, dtype=object),
        }
        return pandas.DataFrame(columns, index=pandas.Index(names, name="label"))


def spread_table(spread, names):
    """(header, rows, order) of the per-label spread: one row of str cells
    per label (name, tuned, lowest, median and highest of the folds, range,
    stability; name and tuned only with one fold, where no spread is seen),
    and the labels by range, largest first (label order with one fold)."""
    tuned = np.atleast_1d(spread.best_threshold)
    if spread.n_folds < 2:
        rows = [[shorten(name), format_number(t)] for name, t in zip(names, tuned)]
        return ["label", "tuned"], rows, np.arange(len(names))
    columns = [
        np.atleast_1d(v) for v in (spread.low, spread.median, spread.high, spread.range)
    ]
    unstable = np.atleast_1d(spread.unstable)
    rows = [
        [shorten(name), format_number(tuned[k])]
        + [format_number(column[k]) for column in columns]
        + ["unstable" if unstable[k] else "stable"]
        for k, name in enumerate(names)
    ]
    header = ["label", "tuned", "fold low", "median", "high", "range", "stability"]
    return header, rows, np.argsort(-columns[3], kind="stable")


def summarize_spread(spread, names=None):
    """The summary of a :class:`ThresholdSpread`: at most 4 + MAX_LABEL_ROWS
    lines; with more labels, those whose thresholds move most."""
    lines = [f"ThresholdSpread: {spread.headline()}"]
    if spread.n_folds >= 2:
        lines.append(
            f"unstable: the folds' range exceeds {UNSTABLE_SHARE} of the span of "
            "the candidate thresholds"
        )
    if np.ndim(spread.best_threshold) == 0:
        header, rows, _ = spread_table(spread, ["all labels"])
        return "\n".join(lines + format_table(header, rows))
    q = np.size(spread.best_threshold)
    names = [str(k) for k in range(q)] if names is None else list(names)
    header, rows, order = spread_table(spread, names)
    if q <= MAX_LABEL_ROWS:
        shown = np.arange(q)
    else:
        shown = order[:MAX_LABEL_ROWS]
        if spread.n_folds >= 2:
            lines.append(
                f"The {len(shown)} of {q:,} labels whose thresholds move most:"
            )
        else:
            lines.append(f"The first {len(shown)} of {q:,} labels:")
    return "\n".join(lines + label_table(header, rows, shown, q))
