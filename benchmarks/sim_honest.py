"""Coverage of the honest intervals on the MULAN populations (issue #32).

Each population is a MULAN test split predicted by a one-vs-rest logistic
regression trained on its train split (bibtex's probabilities cut at 0.1, so
that it over-predicts, as in the study). Samples of n instances are drawn
with replacement; the population value is the score of the whole
population. Per cell (population, method, n) the table gives:

- ``label rare`` / ``label common``: coverage of the per-label score
  intervals (Wilson on the design-effect trials,
  :func:`~sklearn_mlcm._uncertainty._score_intervals.label_score_intervals`)
  of recall, precision and F1, over the defined labels, rare meaning fewer
  than 5 positives (predictions for precision) expected at that n;
- ``macro pct``, ``macro t``, ``macro lin``: coverage of the macro F1 (and
  recall, precision) percentile bootstrap, bootstrap-t and linearised
  intervals, with the bootstrap-t's mean width over the percentile's;
- ``flagged``: the share of replicates whose macro interval is flagged
  (:func:`~sklearn_mlcm._uncertainty._flags.average_flag`), ``miss flagged``
  the share of the bootstrap-t's misses that were flagged, and ``unflagged``
  the bootstrap-t's coverage where not flagged.

Monte Carlo error of a coverage of 0.95 over R replicates: sqrt(.95 .05 / R)
(0.015 at R = 200). Run with ``nice -n 19``; it uses one thread.

Usage: python benchmarks/sim_honest.py --data $SKLEARN_MLCM_DATA --seed 0
"""

import argparse
import os
import pathlib
import re
import sys
import time

import numpy as np
from scipy import sparse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from sklearn_mlcm._uncertainty import _flags  # noqa: E402
from sklearn_mlcm._uncertainty._flags import average_flag, label_support  # noqa: E402
from sklearn_mlcm._uncertainty._margins import min_resamples  # noqa: E402, F401
from sklearn_mlcm._uncertainty._score_intervals import (  # noqa: E402
    label_score_intervals,
    macro_interval,
    ratio_form,
    ratio_moments,
    resampled_macro,
)
from sklearn_mlcm._uncertainty._table import (  # noqa: E402
    UnitTable,
    combine_tables,
    resample_counts,
    tabulate,
)

CUTS = {"bibtex": 0.1}
METRICS = ("f1", "recall", "precision")


def read_arff(path, n_labels):
    """(X sparse, Y bool) of a MULAN ARFF file, dense or sparse rows; the
    labels are the last ``n_labels`` attributes."""
    n_attributes, rows, cols, vals, n = 0, [], [], [], 0
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if not line or line.startswith("%"):
                continue
            if line.lower().startswith("@attribute"):
                n_attributes += 1
                continue
            if line.startswith("@"):
                continue
            if line.startswith("{"):
                for part in line.strip("{}").split(","):
                    if part.strip():
                        j, v = part.split()
                        rows.append(n), cols.append(int(j)), vals.append(float(v))
            else:
                for j, v in enumerate(line.split(",")):
                    value = float(v)
                    if value:
                        rows.append(n), cols.append(j), vals.append(value)
            n += 1
    data = sparse.csr_array((vals, (rows, cols)), shape=(n, n_attributes))
    first = n_attributes - n_labels
    return data[:, :first], data[:, first:].toarray() > 0


def population(folder, name):
    """(y_true, y_pred) of the test split, predicted by a one-vs-rest
    logistic regression trained on the train split."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.preprocessing import MaxAbsScaler

    xml = (folder / name / f"{name}.xml").read_text(encoding="utf-8")
    q = len(re.findall(r"<label ", xml))
    x_train, y_train = read_arff(folder / name / f"{name}-train.arff", q)
    x_test, y_test = read_arff(folder / name / f"{name}-test.arff", q)
    keep = y_train.any(axis=0) & ~y_train.all(axis=0)
    scaler = MaxAbsScaler().fit(x_train)
    model = OneVsRestClassifier(LogisticRegression(max_iter=300), n_jobs=1)
    model.fit(scaler.transform(x_train), y_train[:, keep])
    proba = model.predict_proba(scaler.transform(x_test))
    y_pred = np.zeros_like(y_test)
    y_pred[:, keep] = proba >= CUTS.get(name, 0.5)
    return y_test, y_pred


def units_of(t, p, method):
    return UnitTable(
        combine_tables([tabulate(t, p)]), t.shape[1], method, grouped=False
    )


def cell(t, p, method, n, args, rng):
    N, q = t.shape
    pop = units_of(t, p, method)
    truth, pop_macro, expected = {}, {}, {}
    for metric in METRICS:
        mo = ratio_moments(pop, metric)
        with np.errstate(divide="ignore", invalid="ignore"):
            truth[metric] = np.where(
                mo.denominator > 0, mo.numerator / mo.denominator, 0
            )
        pop_macro[metric] = macro_interval(
            pop, metric, confidence_level=0.95, interval="linearised"
        ).estimate
    expected["f1"] = expected["recall"] = t.mean(axis=0) * n
    expected["precision"] = p.mean(axis=0) * n
    stats = {k: [0, 0] for k in ("rare", "common")}
    macro = {m: {"pct": 0, "t": 0, "lin": 0, "wt": 0.0, "wp": 0.0} for m in METRICS}
    flags = {
        m: {"flag": 0, "miss": 0, "miss_flag": 0, "unfl": 0, "unfl_cov": 0}
        for m in METRICS
    }
    alpha = 0.025
    shares = []  # (share of rare labels, bootstrap-t covered) per replicate
    for _ in range(args.replicates):
        idx = rng.integers(0, N, n)
        u = units_of(t[idx], p[idx], method)
        support = label_support(u)
        seed = int(rng.integers(2**31))
        for metric in METRICS:
            mo = ratio_moments(u, metric)
            li = label_score_intervals(mo, confidence_level=0.95)
            ok = ~np.isnan(li.low)
            cover = (li.low <= truth[metric] + 1e-12) & (
                truth[metric] <= li.high + 1e-12
            )
            rare = expected[metric] < 5
            for key, mask in (("rare", rare), ("common", ~rare)):
                stats[key][0] += int((cover & ok & mask).sum())
                stats[key][1] += int((ok & mask).sum())
            bt = macro_interval(
                u, metric, confidence_level=0.95, n_resamples=args.resamples, seed=seed
            )
            lin = macro_interval(
                u, metric, confidence_level=0.95, interval="linearised"
            )
            counts = resample_counts(seed, 0, args.resamples, u)
            values, _ = resampled_macro(counts, ratio_form(metric), 0.0, u)
            lo, hi = np.quantile(values, [alpha, 1 - alpha])
            target = pop_macro[metric]
            rec = macro[metric]
            rec["pct"] += lo <= target <= hi
            covered = bt.low <= target <= bt.high
            rec["t"] += covered
            rec["lin"] += lin.low <= target <= lin.high
            rec["wt"] += bt.high - bt.low
            rec["wp"] += hi - lo
            flag = average_flag(support, mo.denominator, metric, "macro")
            field = {"precision": support.n_pred}.get(metric, support.n_true)
            shares.append((float(np.mean(field < 5)), bool(covered)))
            f = flags[metric]
            f["flag"] += flag is not None
            f["miss"] += not covered
            f["miss_flag"] += (not covered) and flag is not None
            if flag is None:
                f["unfl"] += 1
                f["unfl_cov"] += covered
    return stats, macro, flags, shares


#: The bins of the share of rare labels (< 5 positives) of the calibration.
BINS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


def calibration(shares):
    """Print the bootstrap-t's coverage of the macro averages by the share
    of the sample's labels with fewer than 5 positives (predictions)."""
    share, covered = (np.array(x) for x in zip(*shares))
    print("\ncalibration: macro bootstrap-t coverage by share of rare labels")
    for low, high in zip(BINS[:-1], BINS[1:]):
        inside = (share > low) & (share <= high) if low else share <= high
        if inside.any():
            print(
                f"  share in ({low:.2f}, {high:.2f}]: {covered[inside].mean():.3f} "
                f"of {inside.sum()} replicate-metrics"
            )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data",
        type=pathlib.Path,
        default=pathlib.Path(os.environ.get("SKLEARN_MLCM_DATA", ".")),
    )
    parser.add_argument("--populations", nargs="+", default=["yeast", "enron"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[50, 100, 300])
    parser.add_argument("--methods", nargs="+", default=["heydarian", "krstinic"])
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--resamples", type=int, default=199)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--few-share",
        type=float,
        default=_flags.FEW_SHARE,
        help="flag a macro average where more than this share of labels is rare",
    )
    args = parser.parse_args(argv)
    _flags.FEW_SHARE = args.few_share
    rng = np.random.default_rng(args.seed)
    R = args.replicates
    print(
        f"R={R} replicates per cell, B={args.resamples}; MC error at 0.95: "
        f"{np.sqrt(0.95 * 0.05 / R):.3f}; macro flagged where more than "
        f"{_flags.FEW_SHARE:.0%} of the labels have < {_flags.FEW} positives"
    )
    print(
        f"{'cell':28} {'lab rare':>9} {'lab comm':>9} | metric {'pct':>5} "
        f"{'t':>5} {'lin':>5} {'w t/p':>6} | {'flagged':>7} {'miss fl':>7} "
        f"{'unfl cov':>8}"
    )
    pooled = []
    for name in args.populations:
        start = time.perf_counter()
        t, p = population(args.data / "mulan", name)
        print(
            f"# {name}: {t.shape[0]} x {t.shape[1]}, fitted in "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )
        for method in args.methods:
            for n in args.sizes:
                stats, macro, flags, shares = cell(t, p, method, n, args, rng)
                pooled.extend(shares)
                label = f"{name} {method[:4]} n={n}"
                rare, common = (
                    stats[k][0] / stats[k][1] if stats[k][1] else float("nan")
                    for k in ("rare", "common")
                )
                for i, metric in enumerate(METRICS):
                    rec, f = macro[metric], flags[metric]
                    head = (
                        f"{label:28} {rare:9.3f} {common:9.3f}" if i == 0 else " " * 48
                    )
                    miss = f["miss_flag"] / f["miss"] if f["miss"] else float("nan")
                    unfl = f["unfl_cov"] / f["unfl"] if f["unfl"] else float("nan")
                    print(
                        f"{head} | {metric:6} {rec['pct'] / R:5.2f} "
                        f"{rec['t'] / R:5.2f} {rec['lin'] / R:5.2f} "
                        f"{rec['wt'] / max(rec['wp'], 1e-12):6.2f} "
                        f"| {f['flag'] / R:7.2f} {miss:7.2f} {unfl:8.2f}",
                        flush=True,
                    )
    calibration(pooled)


if __name__ == "__main__":
    main()
