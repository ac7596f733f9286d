"""The naive oracles: each algorithm transcribed loop by loop from its paper.

Deliberately slow and obvious (Python sets, one instance and one cell at a
time, exact fractions), so that a reader can check them against the paper line
by line; every fast path of the package is compared with them on random cases.

- :func:`heydarian_oracle`: Heydarian et al. (2022), Algorithms 2-5;
- :func:`krstinic_contribution`, :func:`krstinic_oracle`: Krstinić et al.
  (2020), eqs. 11-17 and Algorithm 1;
- :func:`most_confused_oracle`, :func:`labelset_confusions_oracle`: the largest
  off-diagonal cells and the most frequent (true set, predicted set) pairs,
  by sorting every cell and every instance;
- :func:`decide_labels_oracle`: the decision rules (threshold, top k, at
  least one label), one instance at a time;
- :func:`threshold_search_oracle`: the tuning of MLCMTunedThresholdClassifierCV,
  every candidate's predictions made and scored in full;
- :func:`samples_average_oracle`: scikit-learn's ``average="samples"``, each
  instance's sets and ratios written out, then their weighted mean;
- :func:`statistic_oracle`: every per-class statistic of the registry from
  one label's TP, FP, FN and TN, written as its textbook formula.
"""

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal


def heydarian_oracle(y_true, y_pred, sample_weight=None):
    """Algorithms 2-5 of Heydarian et al., one instance and one cell at a time.

    Index q is both NTL (last row) and NPL (last column). Each instance adds
    its weight (one without weights) wherever the paper adds one. Returns int64
    counts without weights and float64 (summed exactly, as fractions) with.
    """
    n, q = len(y_true), len(y_true[0])
    ntl = npl = q
    weights = [1] * n if sample_weight is None else [Fraction(w) for w in sample_weight]
    m = [[0] * (q + 1) for _ in range(q + 1)]
    for i in range(n):
        t = {j for j in range(q) if y_true[i][j]}
        p = {j for j in range(q) if y_pred[i][j]}
        w = weights[i]
        t1 = t & p  # correctly predicted true labels (= P1)
        t2 = t - p  # true labels not predicted
        p2 = p - t  # wrong predictions
        # Algorithm 2: first step, for every category.
        for r in t1:
            m[r][r] += w
        if not t and not p:
            m[ntl][npl] += w
        if p <= t:
            # Category 1 (P subset of T), Algorithm 3.
            for r in t2:
                m[r][npl] += w
        elif t < p:
            # Category 2 (T strict subset of P), Algorithm 4.
            for r in t:
                for c in p2:
                    m[r][c] += w
            if not t:
                for c in p2:
                    m[ntl][c] += w
        else:
            # Category 3 (T2 and P2 both non-empty), Algorithm 5.
            assert t2 and p2
            for r in t2:
                for c in p2:
                    m[r][c] += w
    if sample_weight is None:
        return np.array(m, dtype=np.int64)
    return np.array([[float(v) for v in row] for row in m])


def krstinic_contribution(y, z):
    """The contribution C of one instance, eqs. 11-17, as {(r, c): Fraction}.

    ``y`` and ``z`` are the non-empty sets of true and predicted labels.
    """
    c = defaultdict(Fraction)
    if y == z:
        # (i), eq. 11: C = diag(Y).
        for r in y:
            c[r, r] += 1
    elif not y - z:
        # (ii), eqs. 12-13: C = [Y (x) (Z - Y) + |Y| diag(Y)] / |Z|.
        for r in y:
            for k in z - y:
                c[r, k] += Fraction(1, len(z))
            c[r, r] += Fraction(len(y), len(z))
    elif not z - y:
        # (iii), eqs. 14-15: C = [(Y - Z) (x) Z] / |Z| + diag(Z).
        for r in y - z:
            for k in z:
                c[r, k] += Fraction(1, len(z))
        for k in z:
            c[k, k] += 1
    else:
        # (iv), eqs. 16-17: C = [(Y - Z) (x) (Z - Y)] / |Z - Y| + diag(Y & Z).
        for r in y - z:
            for k in z - y:
                c[r, k] += Fraction(1, len(z - y))
        for r in y & z:
            c[r, r] += 1
    return c


def krstinic_oracle(y_true, y_pred, sample_weight=None):
    """Algorithm 1 of Krstinic et al. with the "unknown" label for empty sets.

    The unknown label is index q (last row and column); it is on exactly when
    a set is empty. Sums exactly with fractions; returns float64 (q+1, q+1).
    """
    n, q = len(y_true), len(y_true[0])
    unknown = q
    weights = [1] * n if sample_weight is None else [Fraction(w) for w in sample_weight]
    m = [[Fraction(0)] * (q + 1) for _ in range(q + 1)]
    for i in range(n):
        y = {j for j in range(q) if y_true[i][j]} or {unknown}
        z = {j for j in range(q) if y_pred[i][j]} or {unknown}
        for (r, k), value in krstinic_contribution(y, z).items():
            m[r][k] += weights[i] * value
    return np.array([[float(v) for v in row] for row in m])


def most_confused_oracle(cm, k, include_no_label=True):
    """The k largest non-zero off-diagonal cells, one cell at a time.

    Walks the dense matrix row by row, keeps every off-diagonal cell that is
    not zero (leaving out the last row and column unless
    ``include_no_label``), and sorts by value, largest first; Python's sort is
    stable, so equal values stay in row-major order. Returns ``(row, column,
    value)`` with Python numbers.
    """
    cm = np.asarray(cm)
    size = len(cm) if include_no_label else len(cm) - 1
    cells = []
    for i in range(size):
        for j in range(size):
            if i != j and cm[i][j] != 0:
                cells.append((i, j, cm[i][j].item()))
    cells.sort(key=lambda cell: -cell[2])
    return cells[:k]


def most_confused_labels_oracle(cm, k=None):
    """The k labels most confused with other labels, one cell at a time.

    A label's mass is the sum of the cells of its row and of its column of
    the labels' block (the last row and column left out), the diagonal cell
    left out of both; the labels are sorted by mass, largest first (Python's
    sort is stable: ties keep the lower index), the first k kept and returned
    in index order, as Python ints.
    """
    cm = np.asarray(cm)
    q = len(cm) - 1
    mass = []
    for i in range(q):
        total = 0
        for j in range(q):
            if j != i:
                total += cm[i][j] + cm[j][i]
        mass.append(total)
    order = sorted(range(q), key=lambda i: -mass[i])
    return sorted(order if k is None else order[:k])


def labelset_confusions_oracle(y_true, y_pred, k, sample_weight=None):
    """The k most frequent (true set, predicted set) pairs, one instance at a time.

    Each instance's sets are read as tuples of the indices of its 1s; an
    instance whose two tuples differ adds one (or its weight, summed exactly
    as a fraction) to its pair. Pairs of total zero are dropped; the rest are
    sorted by count, largest first, then by (true, predicted) as Python
    tuples. Returns ``(true, predicted, count)``: int counts without weights,
    float with.
    """
    counts = {}
    for i in range(len(y_true)):
        true = tuple(j for j, v in enumerate(y_true[i]) if v)
        pred = tuple(j for j, v in enumerate(y_pred[i]) if v)
        if true == pred:
            continue
        weight = 1 if sample_weight is None else Fraction(float(sample_weight[i]))
        counts[true, pred] = counts.get((true, pred), 0) + weight
    pairs = [(t, p, c) for (t, p), c in counts.items() if c > 0]
    pairs.sort(key=lambda pair: (-pair[2], pair[0], pair[1]))
    if sample_weight is not None:
        pairs = [(t, p, float(c)) for t, p, c in pairs]
    return pairs[:k]


def decide_labels_oracle(y_score, thresholds=None, top_k=None, at_least_one=False):
    """The decision rules, one instance at a time, with Python lists.

    A label passes when its score is at least its threshold (every label
    passes without thresholds); of those, the ``top_k`` of highest score are
    kept, the earlier label first on ties (Python's sort is stable); an
    instance left empty with ``at_least_one`` gets its best label, the
    earliest on ties. Returns an int64 array.
    """
    y_score = np.asarray(y_score, dtype=float).tolist()
    out = []
    for row in y_score:
        q = len(row)
        passing = [k for k in range(q) if thresholds is None or row[k] >= thresholds[k]]
        if top_k is not None:
            passing = sorted(passing, key=lambda k: -row[k])[:top_k]
        if at_least_one and not passing:
            best = max(row)
            passing = [row.index(best)]
        out.append([int(k in passing) for k in range(q)])
    return np.array(out, dtype=np.int64).reshape(len(y_score), -1)


def threshold_search_oracle(
    score, y_score, grid, label_grids, *, per_label, top_k, at_least_one, max_sweeps
):
    """The threshold search by brute force: ``score(y_pred)`` of
    :func:`decide_labels`' predictions at every candidate, one at a time.

    The best global threshold is the first grid value whose score is the
    largest (within 1e-12); the per-label coordinate ascent starts there and
    visits labels 0, 1, ..., moving a label's threshold to its first best
    candidate when that beats the current score by more than 1e-12, until a
    sweep moves nothing or ``max_sweeps`` sweeps. A NaN score ranks lowest.
    Returns (thresholds, score, grid scores, number of sweeps).
    """
    from sklearn_mlcm import decide_labels

    q = y_score.shape[1]

    def value(thresholds):
        y_pred = decide_labels(
            y_score, threshold=list(thresholds), top_k=top_k, at_least_one=at_least_one
        )
        result = float(score(y_pred))
        return -np.inf if np.isnan(result) else result

    def first_best(values):
        top = max(values)
        return next(k for k, v in enumerate(values) if v >= top - 1e-12)

    grid_scores = [value([g] * q) for g in grid]
    best = first_best(grid_scores)
    if not per_label:
        return float(grid[best]), grid_scores[best], grid_scores, 0
    thresholds = [float(grid[best])] * q
    current = grid_scores[best]
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        moved = False
        for j in range(q):
            profile = []
            for candidate in label_grids[j]:
                trial = list(thresholds)
                trial[j] = float(candidate)
                profile.append(value(trial))
            k = first_best(profile)
            if profile[k] > current + 1e-12:
                thresholds[j] = float(label_grids[j][k])
                current = profile[k]
                moved = True
        if not moved:
            break
    return np.array(thresholds), current, grid_scores, sweeps


def samples_average_oracle(
    y_true,
    y_pred,
    *,
    beta=1.0,
    labels=None,
    sample_weight=None,
    zero_division=0.0,
    include_no_label=False,
):
    """Precision, recall and F-beta averaged over the instances, one at a time.

    Instance i has the sets T and P of the kept columns (``labels``); with
    ``include_no_label`` an empty set is {"none"}, the no-label index. As in
    scikit-learn, its counts are weighted (``w |T & P|``, ``w |P|``,
    ``w |T|``), so a ratio with a zero weighted denominator takes
    ``zero_division`` ("warn" as 0.0); the average is the mean weighted by the
    weights, NaN left out, the plain mean when the weights left sum to zero,
    NaN when nothing is left. Returns ``(precision, recall, fbeta,
    undefined)``, ``undefined`` the number of undefined ratios of each.
    """
    n, q = np.shape(y_true)
    columns = range(q) if labels is None else labels
    fill = 0.0 if zero_division == "warn" else zero_division
    values = {"precision": [], "recall": [], "fbeta": []}
    undefined = dict.fromkeys(values, 0)
    weights = []
    for i in range(n):
        t = {j for j in columns if y_true[i][j]}
        p = {j for j in columns if y_pred[i][j]}
        if include_no_label:
            t, p = t or {"none"}, p or {"none"}
        w = 1.0 if sample_weight is None else float(sample_weight[i])
        weights.append(w)
        both = w * len(t & p)
        for name, numerator, denominator in (
            ("precision", both, w * len(p)),
            ("recall", both, w * len(t)),
            ("fbeta", (1 + beta**2) * both, beta**2 * w * len(t) + w * len(p)),
        ):
            if denominator == 0:
                undefined[name] += 1
                values[name].append(fill)
            else:
                values[name].append(numerator / denominator)
    averages = []
    for name in values:
        kept = [(v, w) for v, w in zip(values[name], weights) if not np.isnan(v)]
        if not kept:
            averages.append(np.nan)
            continue
        total = sum(w for _, w in kept) if sample_weight is not None else 0.0
        if total == 0:  # no weights, or weights that sum to zero: plain mean
            averages.append(sum(v for v, _ in kept) / len(kept))
        else:
            averages.append(sum(v * w for v, w in kept) / total)
    return (*averages, undefined)


def assert_matches_oracle(result, expected, method, weighted):
    """A fast path's matrix equals an oracle's: int64 and exact for unweighted
    Heydarian counts, float64 to 1e-12 for weighted or fractional sums."""
    if method == "heydarian" and not weighted:
        assert result.dtype == np.int64
        assert_array_equal(result, expected)
    else:
        assert result.dtype == np.float64
        assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def statistic_oracle(name, tp, fp, fn, tn, beta=1.0):
    """One label's statistic ``name`` from its counts, as the textbook writes
    it (rates first, then the statistics made of them), in exact fractions;
    None where a denominator it divides by is zero."""
    tp, fp, fn, tn = (Fraction(float(x)) for x in (tp, fp, fn, tn))

    def rate(a, b):
        return None if b == 0 else a / b

    tpr, tnr = rate(tp, tp + fn), rate(tn, tn + fp)
    ppv, npv = rate(tp, tp + fp), rate(tn, tn + fn)
    b2 = Fraction(beta) ** 2
    both = None if None in (tpr, tnr) else (tpr, tnr)
    marks = None if None in (ppv, npv) else (ppv, npv)
    if name == "matthews_corrcoef":
        factors = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        if factors == 0:
            return None
        covariance = tp * tn - fp * fn
        return math.copysign(math.sqrt(covariance**2 / factors), covariance)
    formulas = {
        "precision": lambda: ppv,
        "recall": lambda: tpr,
        "fbeta": lambda: rate((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
        "specificity": lambda: tnr,
        "accuracy": lambda: rate(tp + tn, tp + tn + fp + fn),
        "jaccard": lambda: rate(tp, tp + fp + fn),
        "balanced_accuracy": lambda: both and (both[0] + both[1]) / 2,
        "negative_predictive_value": lambda: npv,
        "false_discovery_rate": lambda: ppv if ppv is None else 1 - ppv,
        "false_omission_rate": lambda: npv if npv is None else 1 - npv,
        "false_positive_rate": lambda: tnr if tnr is None else 1 - tnr,
        "false_negative_rate": lambda: tpr if tpr is None else 1 - tpr,
        "informedness": lambda: both and both[0] + both[1] - 1,
        "markedness": lambda: marks and marks[0] + marks[1] - 1,
        "g_mean": lambda: both and math.sqrt(both[0] * both[1]),
        "prevalence": lambda: rate(tp + fn, tp + fp + fn + tn),
    }
    value = formulas[name]()
    return None if value is None else float(value)
