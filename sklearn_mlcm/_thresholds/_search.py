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
bucketed by their score (the sweep's bins, :class:`._sweep.Grid`), gives all
candidates (:meth:`MarginObjective.profile`); why this engine is not the
sweep's is measured in :mod:`._sweep`'s docstring.
Each instance's margins are coefficients (functions of its set sizes) of its
rows of T & P, T and P (:func:`margin_coefficients`), so a pass is one
bincount over the ones of those matrices: O(n + nnz) plus O(m q) for m
candidates, and without a decision rule the current predictions' indices are
reused with column j replaced (:meth:`MarginObjective.column_profile`). With
``top_k`` or ``at_least_one`` each step applies the rule twice, O(n q log q).

Scores that are not read off the MLCM's margins (a scikit-learn scorer, an
MLCM scorer restricted to some labels) go through :class:`ScorerObjective`,
which calls the scorer once per candidate.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm._statistics import statistic_of
from sklearn_mlcm._uncertainty._margins import BATCH_CELLS, scores_from_margins

from ._decision import decide_dense
from ._sweep import Grid, bins_above, bins_up_to, sweep_margins

__all__ = [
    "MAX_SWEEPS",
    "MarginObjective",
    "ScorerObjective",
    "TuningResult",
    "decide",
    "margin_coefficients",
    "search_thresholds",
]

#: At most this many sweeps over the labels in the per-label stage. On the
#: MULAN data of benchmarks/bench_tuned_thresholds.py the search stops after
#: 2 to 6 sweeps (the last one moves nothing).
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


def indicator_rows(mask):
    """The (row, column) indices of the ones of a dense (k, q) bool array
    (one flat scan: several times faster than np.nonzero of a 2-D array)."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])


def margin_coefficients(method, n_true, n_pred, n_both):
    """Each instance's MLCM margins as coefficients of three indicator rows.

    For an instance with true set T, predicted set P and T & P of sizes
    ``n_true``, ``n_pred``, ``n_both`` (arrays (k,)), the diagonal, row sums
    and column sums over the q labels are ``alpha * (T & P) + beta * T +
    gamma * P``, with per-instance ``alpha``, ``beta``, ``gamma`` of shape
    (3, k) (diagonal, rows, columns), and the no-label index holds
    ``corner`` (3, k). Heydarian's rules (see :func:`._margins.heydarian_margins`)
    and Krstinić's scenarios (:func:`._margins.krstinic_margins`) both have
    this form: a missed label's and a wrong label's amounts depend only on
    the set sizes.
    """
    k = len(n_true)
    n_fn, n_fp = n_true - n_both, n_pred - n_both
    empty = (n_true == 0) & (n_pred == 0)
    alpha, beta, gamma = np.zeros((3, k)), np.zeros((3, k)), np.zeros((3, k))
    corner = np.zeros((3, k))
    corner[:] = empty
    if method == "heydarian":
        cat1 = (n_fn > 0) & (n_fp == 0)
        cat2 = (n_fn == 0) & (n_fp > 0)
        cat3 = (n_fn > 0) & (n_fp > 0)
        missed = cat1 + cat3 * n_fp  # per label of T - P, in its row
        charged = cat2 * n_fp  # per true label, in its row
        wrong = cat2 * np.maximum(n_true, 1) + cat3 * n_fn  # per label of P - T
        # rows: (T & P) + missed (T - P) + charged T; columns: (T & P) + wrong (P - T)
        alpha[0] = 1.0
        alpha[1], beta[1] = 1.0 - missed, missed + charged
        alpha[2], gamma[2] = 1.0 - wrong, wrong
        corner[1] += cat2 * (n_true == 0) * n_fp
        corner[2] += cat1 * n_fn
    else:
        safe = np.maximum(n_pred, 1)
        superset = (n_fn == 0) & (n_fp > 0) & (n_true > 0)
        subset = (n_fn > 0) & (n_fp == 0) & (n_pred > 0)
        crossed = (n_fn > 0) & (n_fp > 0)
        exact = (n_fn == 0) & (n_fp == 0)
        no_truth = (n_true == 0) & (n_pred > 0)
        scaled = superset * n_true / safe
        # columns: (T & P) c1 + (P - T) c2
        c1 = scaled + subset * (1 + n_fn / safe) + crossed + exact + no_truth / safe
        c2 = scaled + crossed * n_fn / np.maximum(n_fp, 1) + no_truth / safe
        alpha[0] = np.where(superset, scaled, 1.0)
        beta[1] = 1.0
        alpha[2], gamma[2] = c1 - c2, c2
        corner[1] += no_truth
        corner[2] += (n_pred == 0) * n_true
    return alpha, beta, gamma, corner


class MarginObjective:
    """An MLCM score read off the margins of the predictions: the fast path.

    ``y_true`` (n, q) bool, ``sample_weight`` (n,) or None; the options of
    :func:`._margins.scores_from_margins`. ``zero_division="warn"`` counts as
    0.0 without warning (the search evaluates thousands of matrices); a score
    that is NaN (every label undefined with ``zero_division=np.nan``) ranks
    below every number. A lower-is-better statistic (an error rate) is
    negated, as its scorer is (``greater_is_better=False``), so the search
    always maximises and ``best_score_`` is the scorer's number.

    The margins of many groups of instances at once (the buckets of
    :meth:`profile`): each instance's margins are coefficients of its rows
    of T & P, T and P (:func:`margin_coefficients`), so the margins of every
    bucket are bincounts over the ones of those matrices, weighted by the
    instances' coefficients, in row blocks of at most ``block_rows`` rows:
    O(n + nnz) per evaluation, no (n, q+1) array of floats.
    """

    def __init__(
        self,
        y_true,
        sample_weight,
        *,
        metric,
        average,
        method,
        block_rows=None,
        **options,
    ):
        self.y_true = y_true
        self.method = method
        n, q = y_true.shape
        self.weight = np.ones(n) if sample_weight is None else sample_weight
        if options.get("zero_division", "warn") == "warn":
            options["zero_division"] = 0.0
        self.options = {
            "metric": metric,
            "average": average,
            "beta": options.get("beta", 1.0),
            "tn": options.get("tn", "complement"),
            "zero_division": options["zero_division"],
        }
        self._sign = -1.0 if statistic_of(metric)[0].higher_is_better is False else 1.0
        self._rows = block_rows or max(1, BATCH_CELLS // max(q, 1))
        self._blocks = [
            slice(start, min(start + self._rows, n))
            for start in range(0, n, self._rows)
        ]
        self._true_entries = [indicator_rows(y_true[b]) for b in self._blocks]
        self._n_true = y_true.sum(axis=1)

    def scores(self, margins):
        """(B, 3, q+1) margins -> (B,) scores, NaN as -inf."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            overall, _ = scores_from_margins(margins, **self.options)
        return np.where(np.isnan(overall), -np.inf, self._sign * overall)

    def _products(self, block, coefficients, indicators, bucket, n_buckets):
        """(3, n_buckets, q) sums over each bucket of one block's weighted
        coefficients (3, k) times the rows of an indicator matrix given by
        the (row, column) indices of its ones: one bincount over the ones."""
        q = self.y_true.shape[1]
        out = np.zeros((3, n_buckets, q))
        used = np.flatnonzero(np.any(coefficients != 0, axis=1))
        rows, columns = indicators
        if used.size == 0 or rows.size == 0:
            return out
        u = len(used)
        keys = (bucket[rows] * q + columns) + (n_buckets * q) * np.arange(u)[:, None]
        amounts = (coefficients[used] * self.weight[block])[:, rows]
        out[used] = np.bincount(
            keys.ravel(), weights=amounts.ravel(), minlength=u * n_buckets * q
        ).reshape(u, n_buckets, q)
        return out

    def _corner(self, block, corner, bucket, n_buckets):
        """(3, n_buckets) bucket sums of the no-label index's amounts."""
        weight = self.weight[block]
        return np.stack(
            [
                np.bincount(bucket, weights=corner[c] * weight, minlength=n_buckets)
                for c in range(3)
            ]
        )

    def bucket_margins(self, y_pred, bucket, n_buckets):
        """(n_buckets, 3, q+1) weighted margins of the instances of each
        bucket (``bucket`` (n,) ints), predictions ``y_pred`` (n, q) bool."""
        q = self.y_true.shape[1]
        out = np.zeros((3, n_buckets, q + 1))
        for block, true in zip(self._blocks, self._true_entries):
            t, p = self.y_true[block], y_pred[block]
            both = t & p
            alpha, beta, gamma, corner = margin_coefficients(
                self.method, self._n_true[block], p.sum(axis=1), both.sum(axis=1)
            )
            rows = bucket[block]
            for coefficients, indicators in (
                (alpha, indicator_rows(both)),
                (beta, true),
                (gamma, indicator_rows(p)),
            ):
                out[:, :, :q] += self._products(
                    block, coefficients, indicators, rows, n_buckets
                )
            out[:, :, q] += self._corner(block, corner, rows, n_buckets)
        return out.transpose(1, 0, 2)

    def set_predictions(self, y_pred):
        """Hold ``y_pred`` (n, q) bool, its CSR rows and set sizes, for the
        profiles of :meth:`column_profile` until the next call."""
        self._current = y_pred
        self._pred_entries, self._both_entries = [], []
        for block in self._blocks:
            p = y_pred[block]
            self._pred_entries.append(indicator_rows(p))
            self._both_entries.append(indicator_rows(self.y_true[block] & p))
        self._n_pred = y_pred.sum(axis=1)
        self._n_both = (self.y_true & y_pred).sum(axis=1)

    def column_profile(self, j, bucket, y_pred, m):
        """:meth:`profile` when label j's threshold only changes column j
        (no top_k, no at_least_one): the two states are ``y_pred`` with
        column j off and on. Their products over the other columns are those
        of ``y_pred``'s cached indices without column j, so no indicator
        matrix is rebuilt per label; column j is summed on its own. Nothing
        is subtracted, so a count that is 0 stays exactly 0."""
        if getattr(self, "_current", None) is not y_pred:
            self.set_predictions(y_pred)
        q = self.y_true.shape[1]
        states = np.zeros((2, 3, m + 1, q + 1))
        for block, *indicators in zip(
            self._blocks, self._both_entries, self._true_entries, self._pred_entries
        ):
            others = []
            for rows, columns in indicators:
                keep = columns != j
                others.append((rows[keep], columns[keep]))
            t_j = self.y_true[block, j].astype(np.float64)
            p_j = self._current[block, j].astype(np.float64)
            n_pred = self._n_pred[block] - p_j
            n_both = self._n_both[block] - t_j * p_j
            rows, weight = bucket[block], self.weight[block]
            for on in (0, 1):
                alpha, beta, gamma, corner = margin_coefficients(
                    self.method,
                    self._n_true[block],
                    n_pred + on,
                    n_both + on * t_j,
                )
                out = states[on]
                for coefficients, entries in zip((alpha, beta, gamma), others):
                    out[:, :, :q] += self._products(
                        block, coefficients, entries, rows, m + 1
                    )
                out[:, :, q] += self._corner(block, corner, rows, m + 1)
                # column j in this state: T & P_j = on * T_j, T_j, P_j = on
                amounts = (alpha * on + beta) * t_j + gamma * on
                for c in range(3):
                    out[c, :, j] += np.bincount(
                        rows, weights=amounts[c] * weight, minlength=m + 1
                    )
        fail, passing = states.transpose(0, 2, 1, 3)
        return self.scores(_combine(fail, passing))

    def prediction_margins(self, y_pred):
        """(3, q+1) weighted margins of the predictions ``y_pred`` (n, q)."""
        return self.bucket_margins(y_pred, np.zeros(len(y_pred), dtype=np.intp), 1)[0]

    def values(self, predictions):
        """Scores of a sequence of (n, q) predictions, shape (B,)."""
        stack = np.stack([self.prediction_margins(p) for p in predictions])
        return self.scores(stack)

    def grid_values(self, scores, grid, top_k, at_least_one):
        """Scores (m,) of one threshold for every label at each of ``grid``
        (strictly increasing): Heydarian's margins of a plain threshold by
        the threshold curve's sweep (histograms of the scores' positions in
        the grid), anything else one matrix's margins per threshold."""
        if self.method == "heydarian" and top_k is None and not at_least_one:
            margins, _ = sweep_margins(self.y_true, scores, grid, self.weight)
            return self.scores(margins)
        return self.values(decide(scores, g, top_k, at_least_one) for g in grid)

    def profile(self, bucket, p_fail, p_pass, m):
        """Scores (m,) with label j's threshold at each of its m candidates
        (increasing), the rows of ``p_pass`` where the score reaches the
        candidate and of ``p_fail`` elsewhere; ``bucket`` (n,) is each
        instance's bin among the candidates (:meth:`._sweep.Grid.bins`).

        Instance i passes candidate k when k < b_i, b_i the number of
        candidates at or below its score; the margins at candidate k are
        those of the buckets b <= k failing plus those of the buckets b > k
        passing: a cumulative sum over the buckets each way.
        """
        fail = self.bucket_margins(p_fail, bucket, m + 1)
        passing = self.bucket_margins(p_pass, bucket, m + 1)
        return self.scores(_combine(fail, passing))


def _combine(fail, passing):
    """(m, 3, q+1) margins at each candidate k from the (m+1, 3, q+1) margins
    of each bucket's instances failing and passing: the buckets b <= k fail,
    those above pass. Sums of non-negative amounts (a prefix and a suffix),
    never a difference, so that a count that is 0 stays exactly 0 whatever
    the other instances' weights."""
    return bins_up_to(fail, axis=0) + bins_above(passing, axis=0)


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

    def grid_values(self, scores, grid, top_k, at_least_one):
        return self.values(decide(scores, g, top_k, at_least_one) for g in grid)

    def column_profile(self, j, bucket, y_pred, m):
        p_fail, p_pass = y_pred.copy(), y_pred.copy()
        p_fail[:, j] = False
        p_pass[:, j] = True
        return self.profile(bucket, p_fail, p_pass, m)

    def profile(self, bucket, p_fail, p_pass, m):
        # the score reaches candidate k exactly when its bin is above k
        return np.array(
            [
                self.value(np.where((bucket > k)[:, None], p_pass, p_fail))
                for k in range(m)
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


def _two_states(scores, thresholds, j, top_k, at_least_one):
    """The predictions with label j passing nowhere and everywhere, the other
    thresholds fixed (the decision rule may change other columns too)."""
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
    grid_scores = objective.grid_values(scores, grid, top_k, at_least_one)
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
    buckets = [None] * q  # each instance's bin among label j's candidates
    converged = False
    n_sweeps = 0
    while n_sweeps < max_sweeps and not converged:
        n_sweeps += 1
        converged = True
        for j in range(q):
            if buckets[j] is None:  # the same in every sweep
                buckets[j] = Grid(label_grids[j]).bins(scores[:, j])
            m = len(label_grids[j])
            if top_k is None and not at_least_one:
                profile = objective.column_profile(j, buckets[j], y_pred, m)
            else:
                p_fail, p_pass = _two_states(scores, thresholds, j, top_k, at_least_one)
                profile = objective.profile(buckets[j], p_fail, p_pass, m)
            label_scores[j] = profile
            k = best_index(profile)
            if profile[k] > current + TOLERANCE:
                thresholds[j] = label_grids[j][k]
                current = float(profile[k])
                if top_k is None and not at_least_one:
                    y_pred = y_pred.copy()
                    y_pred[:, j] = scores[:, j] >= thresholds[j]
                else:
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
