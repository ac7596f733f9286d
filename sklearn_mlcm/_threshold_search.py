"""The threshold search behind :class:`MLCMTunedThresholdClassifierCV`.

No validation here: the estimator validates its parameters and data, this
module computes. The objective is an MLCM score of the predictions that a
decision rule makes from out-of-fold scores ``S`` (n, q):

- global stage: one threshold for every label, each value of a grid tried
  (one matrix's margins per value);
- per-label stage: coordinate ascent from the best global threshold. Label j's
  threshold is moved to the best of its candidates while the other labels'
  thresholds stay fixed; the labels are visited in order, in sweeps, until a
  sweep moves no threshold or ``MAX_SWEEPS`` sweeps have run. A threshold moves
  only to a strictly better score, so the search never ends below its start.

One step is cheap because the MLCM is a sum over instances: when only label
j's threshold moves, each instance's predicted set takes one of two values,
"j passes" or "j does not pass" (whatever the decision rule: top-k and the
at-least-one fallback read the other labels' fixed thresholds), so the
margins (diagonal, row sums, column sums) at every candidate threshold are
the margins with j passing nowhere plus a sum of per-instance differences over
the instances whose score reaches the candidate: one pass over the instances,
bucketed by their score, gives all candidates (:meth:`MarginObjective.profile`).
A step costs two margin computations of the n x q predictions (O(n q)) plus
O(m q) for m candidates; a sweep O(n q^2).

Scores that are not read off the MLCM's margins (a scikit-learn scorer, an
MLCM scorer restricted to some labels) go through :class:`ScorerObjective`,
which calls the scorer once per candidate.
"""

import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.exceptions import UndefinedMetricWarning

from ._decision import decide_dense
from ._margins import (
    BATCH_CELLS,
    heydarian_margins,
    krstinic_margins,
    scores_from_margins,
)

__all__ = [
    "MAX_SWEEPS",
    "MarginObjective",
    "ScorerObjective",
    "TuningResult",
    "decide",
    "search_thresholds",
]

#: At most this many sweeps over the labels in the per-label stage. On the
#: MULAN data of benchmarks/bench_tuned_thresholds.py the search stops after
#: 2 to 4 sweeps (the last one moves nothing).
MAX_SWEEPS = 10

#: A threshold moves only when the score gains more than this.
TOLERANCE = 1e-12


def decide(scores, thresholds, top_k=None, at_least_one=False):
    """(n, q) bool predictions of :func:`decide_labels`' rule (a label where
    its score is at least its threshold, then ``top_k``, then
    ``at_least_one``); ``thresholds`` a scalar or a (q,) array."""
    q = scores.shape[1]
    thresholds = np.broadcast_to(np.asarray(thresholds, dtype=np.float64), (q,))
    return decide_dense(scores, thresholds, top_k, at_least_one).astype(bool)


class MarginObjective:
    """An MLCM score read off the margins of the predictions: the fast path.

    ``y_true`` (n, q) bool, ``sample_weight`` (n,) or None; the options of
    :func:`._margins.scores_from_margins`. ``zero_division="warn"`` counts as
    0.0 without warning (the search evaluates thousands of matrices); a score
    that is NaN (every label undefined with ``zero_division=np.nan``) ranks
    below every number.
    """

    def __init__(self, y_true, sample_weight, *, metric, average, method, **options):
        self.y_true = y_true
        self.weight = sample_weight
        self.row_margins = (
            heydarian_margins if method == "heydarian" else krstinic_margins
        )
        if options.get("zero_division", "warn") == "warn":
            options["zero_division"] = 0.0
        self.options = {
            "metric": metric,
            "average": average,
            "beta": options.get("beta", 1.0),
            "tn": options.get("tn", "complement"),
            "zero_division": options["zero_division"],
        }
        n, q = y_true.shape
        self._rows = max(1, BATCH_CELLS // (3 * (q + 1)))

    def _blocks(self):
        n = self.y_true.shape[0]
        for start in range(0, n, self._rows):
            yield slice(start, min(start + self._rows, n))

    def _weights(self, block):
        if self.weight is None:
            return np.ones(block.stop - block.start)
        return self.weight[block]

    def scores(self, margins):
        """(B, 3, q+1) margins -> (B,) scores, NaN as -inf."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            overall, _ = scores_from_margins(margins, **self.options)
        return np.where(np.isnan(overall), -np.inf, overall)

    def margins(self, y_pred):
        """(3, q+1) weighted margins of the predictions ``y_pred`` (n, q)."""
        q = self.y_true.shape[1]
        total = np.zeros(3 * (q + 1))
        for block in self._blocks():
            rows = self.row_margins(self.y_true[block], y_pred[block])
            total += self._weights(block) @ rows.reshape(len(rows), -1)
        return total.reshape(3, q + 1)

    def values(self, predictions):
        """Scores of a sequence of (n, q) predictions, shape (B,)."""
        stack = np.stack([self.margins(p) for p in predictions])
        return self.scores(stack)

    def profile(self, column, p_fail, p_pass, candidates):
        """Scores (m,) with label j's threshold at each of ``candidates``
        (increasing), the rows of ``p_pass`` where ``column >= candidate`` and
        of ``p_fail`` elsewhere.

        Instance i passes candidate k when k < b_i, b_i the number of
        candidates at or below its score; the margins at candidate k are the
        margins of ``p_fail`` plus the differences (pass - fail) of the
        instances with b_i > k: a reversed cumulative sum over the buckets.
        """
        q = self.y_true.shape[1]
        m = len(candidates)
        bucket = np.searchsorted(candidates, column, side="right")
        base = np.zeros(3 * (q + 1))
        per_bucket = np.zeros((m + 1, 3 * (q + 1)))
        for block in self._blocks():
            t = self.y_true[block]
            fail = self.row_margins(t, p_fail[block]).reshape(len(t), -1)
            delta = self.row_margins(t, p_pass[block]).reshape(len(t), -1) - fail
            weight = self._weights(block)
            base += weight @ fail
            select = sparse.csr_array(
                (weight, (bucket[block], np.arange(len(t)))), shape=(m + 1, len(t))
            )
            per_bucket += select @ delta
        tail = np.cumsum(per_bucket[::-1], axis=0)[::-1]  # tail[b]: buckets >= b
        margins = base + tail[1:]
        return self.scores(margins.reshape(m, 3, q + 1))


class _Predictions(BaseEstimator):
    """A stand-in estimator whose ``predict`` returns given predictions,
    for a scorer to read (``X`` is ignored)."""

    def __init__(self, y_pred=None):
        self.y_pred = y_pred

    def predict(self, X):
        return self.y_pred


class ScorerObjective:
    """Any scorer ``scorer(estimator, X, y, **params)`` of the predictions,
    called once per evaluation: the slow path, for scores that are not read
    off the MLCM's margins."""

    def __init__(self, scorer, y, score_params):
        self.scorer = scorer
        self.y = y
        self.params = score_params
        self._X = np.zeros((len(y) if not hasattr(y, "shape") else y.shape[0], 1))

    def value(self, y_pred):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            score = self.scorer(
                _Predictions(y_pred.astype(np.int64)), self._X, self.y, **self.params
            )
        score = float(score)
        return -np.inf if np.isnan(score) else score

    def values(self, predictions):
        return np.array([self.value(p) for p in predictions])

    def profile(self, column, p_fail, p_pass, candidates):
        return np.array(
            [
                self.value(np.where((column >= c)[:, None], p_pass, p_fail))
                for c in candidates
            ]
        )


def best_index(values):
    """The first index whose value is within ``TOLERANCE`` of the largest, so
    that rounding (1e-16) cannot pick a later one of exactly tied values."""
    return int(np.flatnonzero(values >= np.max(values) - TOLERANCE)[0])


class TuningResult:
    """What the search found.

    ``thresholds``: a float (global) or a (q,) array (per label); ``score``;
    ``grid`` and ``grid_scores``: the global stage; ``label_grids`` (m, q)
    and ``label_scores`` (m, q): each label's candidates and their scores in
    the last sweep (None for the global strategy); ``n_sweeps``, and
    ``converged`` (the last sweep moved no threshold).
    """

    def __init__(self, **fields):
        self.__dict__.update(fields)


def _two_states(scores, thresholds, j, y_pred, top_k, at_least_one):
    """The predictions with label j passing nowhere and everywhere, the other
    thresholds fixed."""
    if top_k is None and not at_least_one:
        p_fail, p_pass = y_pred.copy(), y_pred.copy()
        p_fail[:, j] = False
        p_pass[:, j] = True
        return p_fail, p_pass
    states = []
    for value in (np.inf, -np.inf):
        moved = thresholds.copy()
        moved[j] = value
        states.append(decide(scores, moved, top_k, at_least_one))
    return states[0], states[1]


def search_thresholds(
    objective,
    scores,
    grid,
    label_grids,
    *,
    per_label,
    top_k,
    at_least_one,
    max_sweeps=MAX_SWEEPS,
):
    """Tune thresholds on ``scores`` (n, q) for ``objective``.

    ``grid`` (m,) increasing: the global candidates; ``label_grids``: a list
    of q increasing arrays, label j's candidates in the per-label stage.
    Returns a :class:`TuningResult`.
    """
    q = scores.shape[1]
    grid_scores = objective.values(decide(scores, g, top_k, at_least_one) for g in grid)
    best = best_index(grid_scores)
    result = TuningResult(
        thresholds=float(grid[best]),
        score=float(grid_scores[best]),
        grid=grid,
        grid_scores=grid_scores,
        label_grids=None,
        label_scores=None,
        n_sweeps=0,
        converged=True,
    )
    if not per_label:
        return result
    thresholds = np.full(q, float(grid[best]))
    current = float(grid_scores[best])
    y_pred = decide(scores, thresholds, top_k, at_least_one)
    label_scores = [None] * q
    converged = False
    n_sweeps = 0
    while n_sweeps < max_sweeps and not converged:
        n_sweeps += 1
        converged = True
        for j in range(q):
            p_fail, p_pass = _two_states(
                scores, thresholds, j, y_pred, top_k, at_least_one
            )
            profile = objective.profile(scores[:, j], p_fail, p_pass, label_grids[j])
            label_scores[j] = profile
            k = best_index(profile)
            if profile[k] > current + TOLERANCE:
                thresholds[j] = label_grids[j][k]
                current = float(profile[k])
                passes = scores[:, j] >= thresholds[j]
                y_pred = np.where(passes[:, None], p_pass, p_fail)
                converged = False
    result.thresholds = thresholds
    result.score = current
    result.label_grids = label_grids
    result.label_scores = label_scores
    result.n_sweeps = n_sweeps
    result.converged = converged
    return result
