"""Tuned thresholds against 0.5 on held-out MULAN test splits (issue #18).

For each data set and classifier, the classifier is fitted on the MULAN train
split and its test-split scores are thresholded at 0.5 (0 for a decision
function); ``MLCMTunedThresholdClassifierCV`` wraps the same classifier, with
its default settings and with each strategy, is fitted on the train split
(thresholds tuned on 5-fold out-of-fold scores of the train split, never on
the test split) and predicts the test split. The score is the one it tunes,
the MLCM macro F1. "diff" is the default's score minus 0.5's, with a 95%
paired-bootstrap interval over the test instances
(``mlcm_paired_comparison``): an interval that contains 0 is noise.

The timings: the base classifier's fit, each tuned fit (5 folds + refit +
search), and the per-label search alone on bibtex (159 labels): a fitted
classifier's train-split scores tuned with ``cv="prefit"`` (its scoring
time is printed beside it and included).

    python benchmarks/bench_tuned_thresholds.py --no-bibtex      # the table
    python benchmarks/bench_tuned_thresholds.py --datasets enron medical \
        --methods LR RF kNN --no-bibtex                          # many labels
    python benchmarks/bench_tuned_thresholds.py --bibtex-only    # the timing

Needs the ``study`` extra (liac-arff) and the MULAN data in
``../shared/data/mulan`` (``--data``); reads it with ``bench_madjarov.py``'s
loader. Every estimator has random_state=0, so the tables repeat.
"""

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from bench_madjarov import DEFAULT_DATA, load_dataset
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning, UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from sklearn_mlcm import (
    MLCMTunedThresholdClassifierCV,
    mlcm_f1_score,
    mlcm_paired_comparison,
)

DATASETS = ["emotions", "yeast", "scene"]
METHODS = ["LR", "SVM", "RF", "kNN"]


def make_methods(seed):
    """name -> classifier: a linear model (probabilities, and margins), a
    forest and k nearest neighbours; features standardised for all but the
    forest."""
    return {
        "LR": make_pipeline(
            StandardScaler(),
            OneVsRestClassifier(LogisticRegression(solver="liblinear")),
        ),
        "SVM": make_pipeline(
            StandardScaler(), OneVsRestClassifier(LinearSVC(random_state=seed))
        ),
        "RF": RandomForestClassifier(n_estimators=100, random_state=seed, n_jobs=1),
        "kNN": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=10)),
    }


def positive_scores(estimator, X):
    """(n, q) scores of class 1 (0 for a label seen with one class only), and
    the usual threshold: probabilities and 0.5, or the decision function
    and 0."""
    if not hasattr(estimator, "predict_proba"):
        return estimator.decision_function(X), 0.0
    proba = estimator.predict_proba(X)
    if isinstance(proba, list):  # one (n, n_classes) array per label
        proba = np.column_stack(
            [
                p[:, list(classes).index(1)] if 1 in classes else np.zeros(len(p))
                for p, classes in zip(proba, estimator.classes_)
            ]
        )
    return proba, 0.5


def f1(y_true, y_pred):
    return mlcm_f1_score(y_true, y_pred, zero_division=0.0)


def threshold_text(threshold):
    if np.ndim(threshold) == 0:
        return f"{threshold:.2f}"
    return f"{np.min(threshold):.2f}..{np.max(threshold):.2f}"


def run_one(estimator, data, seeds):
    """One row: the test scores of 0.5 and of each strategy (mean over the
    tuning's seeds), the default's paired interval (first seed), timings."""
    X_train, Y_train, X_test, Y_test = data
    start = time.perf_counter()
    base = clone(estimator).fit(X_train, Y_train)
    base_time = time.perf_counter() - start
    scores, cut = positive_scores(base, X_test)
    at_half = (scores >= cut).astype(int)
    row = {"f1_half": f1(Y_test, at_half), "fit": base_time}
    default = MLCMTunedThresholdClassifierCV(estimator).strategy
    for strategy in ("global", "per_label"):
        values, times, thresholds = [], [], []
        for seed in seeds:
            tuned = MLCMTunedThresholdClassifierCV(
                clone(estimator), strategy=strategy, random_state=seed
            )
            start = time.perf_counter()
            tuned.fit(X_train, Y_train)
            times.append(time.perf_counter() - start)
            y_pred = tuned.predict(X_test)
            values.append(f1(Y_test, y_pred))
            thresholds.append(tuned.best_threshold_)
            if strategy == default and seed == seeds[0]:
                result = mlcm_paired_comparison(
                    Y_test,
                    y_pred,
                    at_half,
                    n_resamples=2000,
                    zero_division=0.0,
                    random_state=seed,
                )
                row["diff"] = result.difference
                row["low"], row["high"] = result.confidence_interval
        row[f"f1_{strategy}"] = float(np.mean(values))
        row[f"spread_{strategy}"] = float(np.ptp(values))
        row[f"thr_{strategy}"] = threshold_text(thresholds[0])
        row[f"time_{strategy}"] = float(np.median(times))
    row["f1_default"] = row[f"f1_{default}"]
    return row


def print_table(rows, seeds):
    default = MLCMTunedThresholdClassifierCV(None).strategy
    print(
        f"Test MLCM macro F1: 0.5 (0 for SVM margins); each strategy's mean over "
        f"the tuning seeds {seeds} (+- half its range); the default "
        f"({default}) minus 0.5 with its 95% paired-bootstrap interval (seed "
        f"{seeds[0]}); seconds: the classifier's fit, each tuned fit (median)."
    )
    header = (
        f"{'data':<9}{'clf':<5}{'0.5':>7}{'global':>14}{'thr':>6}"
        f"{'per-label':>14}{'thr':>12}{'default - 0.5 [95% CI]':>26}"
        f"{'fit s':>7}{'glob s':>8}{'p-l s':>7}"
    )
    print(header)
    print("-" * len(header))
    for (data, method), r in rows.items():
        interval = f"{r['diff']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]"
        glob = f"{r['f1_global']:.3f}+-{r['spread_global'] / 2:.3f}"
        per = f"{r['f1_per_label']:.3f}+-{r['spread_per_label'] / 2:.3f}"
        print(
            f"{data:<9}{method:<5}{r['f1_half']:7.3f}{glob:>14}{r['thr_global']:>6}"
            f"{per:>14}{r['thr_per_label']:>12}{interval:>26}"
            f"{r['fit']:7.2f}{r['time_global']:8.2f}{r['time_per_label']:7.2f}"
        )
    for key in ("global", "per_label"):
        gains = [r[f"f1_{key}"] - r["f1_half"] for r in rows.values()]
        print(
            f"{key}: mean gain over 0.5 {np.mean(gains):+.4f}, worst "
            f"{min(gains):+.4f}, best {max(gains):+.4f}"
        )
    print()
    print("Markdown:")
    print(
        "| data | classifier | 0.5 | global (thr) | per-label (thr range) "
        "| default - 0.5 [95% CI] | fit s | global s | per-label s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (data, method), r in rows.items():
        print(
            f"| {data} | {method} | {r['f1_half']:.3f} | "
            f"{r['f1_global']:.3f} ({r['thr_global']}) | "
            f"{r['f1_per_label']:.3f} ({r['thr_per_label']}) | "
            f"{r['diff']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] | {r['fit']:.2f} | "
            f"{r['time_global']:.2f} | {r['time_per_label']:.2f} |"
        )
    print()


def bibtex_timing(folder, seed, method):
    """Per-label tuning on bibtex: the search alone (cv="prefit"), and a
    whole tuned fit."""
    X_train, Y_train, X_test, Y_test, _, _ = load_dataset(folder, "bibtex")
    estimator = make_methods(seed)[method]
    start = time.perf_counter()
    fitted = clone(estimator).fit(X_train, Y_train)
    fit_time = time.perf_counter() - start
    start = time.perf_counter()
    positive_scores(fitted, X_train)
    score_time = time.perf_counter() - start
    print(f"bibtex ({X_train.shape[0]} x {Y_train.shape[1]} labels), {method}:")
    print(f"  fit of the classifier                     {fit_time:8.2f} s")
    print(f"  its scores of the train split             {score_time:8.2f} s")
    for strategy in ("global", "per_label"):
        tuned = MLCMTunedThresholdClassifierCV(
            fitted, cv="prefit", refit=False, strategy=strategy, store_cv_results=True
        )
        start = time.perf_counter()
        tuned.fit(X_train, Y_train)
        elapsed = time.perf_counter() - start
        sweeps = tuned.cv_results_.get("n_sweeps", "-")
        print(
            f"  tuning, {strategy:<9} (cv='prefit', scores incl.) {elapsed:8.2f} s"
            f"   (search ~{elapsed - score_time:.2f} s, sweeps {sweeps})"
        )
    start = time.perf_counter()
    tuned = MLCMTunedThresholdClassifierCV(clone(estimator), strategy="per_label")
    tuned.fit(X_train, Y_train)
    total = time.perf_counter() - start
    print(f"  whole per-label fit (5 folds + refit)     {total:8.2f} s")
    at_half = (positive_scores(fitted, X_test)[0] >= 0.5).astype(int)
    print(
        f"  test MLCM macro F1: 0.5 {f1(Y_test, at_half):.3f}, "
        f"per-label {f1(Y_test, tuned.predict(X_test)):.3f}"
    )
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="MULAN folder")
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--methods", nargs="+", default=METHODS, choices=METHODS)
    parser.add_argument("--seed", type=int, default=0, help="of the classifiers")
    parser.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        default=[0, 1, 2],
        help="random_state of the tuning's folds; the scores are their means",
    )
    parser.add_argument("--bibtex-method", default="kNN", choices=METHODS)
    parser.add_argument("--bibtex-only", action="store_true")
    parser.add_argument("--no-bibtex", action="store_true")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", (ConvergenceWarning, UndefinedMetricWarning))
    with threadpool_limits(limits=1):
        if not args.bibtex_only:
            rows = {}
            for dataset in args.datasets:
                X_train, Y_train, X_test, Y_test, _, _ = load_dataset(
                    args.data, dataset
                )
                methods = make_methods(args.seed)
                for method in args.methods:
                    rows[dataset, method] = run_one(
                        methods[method],
                        (X_train, Y_train, X_test, Y_test),
                        args.seeds,
                    )
                    print(f"  done {dataset} {method}", flush=True)
            print()
            print_table(rows, args.seeds)
        if not args.no_bibtex:
            bibtex_timing(args.data, args.seed, args.bibtex_method)


if __name__ == "__main__":
    main()
