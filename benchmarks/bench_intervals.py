"""Bootstrap intervals against one report: what "how sure" costs.

Times ``mlcm_confidence_intervals`` (macro F1, BCa and percentile) beside one
``mlcm_classification_report`` on the same data, in one run, and prints the
ratios. Two cases: MULAN bibtex's test split (2,515 x 159), labelled by a
one-vs-rest logistic regression trained on its train split; and a synthetic
10**6 x 20 test set against one ``mlcm_confusion_matrix`` (20 resamples by
default: the resampling draws every instance of every resample, about 0.5 s
per resample there).

    python benchmarks/bench_intervals.py [--data ../shared/data] [--resamples 2000]
"""

import argparse
import os
import time
import tracemalloc
from pathlib import Path

import numpy as np

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
)


def _best(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def _peak_mib(func):
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _bibtex(folder):
    from bench_madjarov import load_dataset
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier

    X_train, Y_train, X_test, Y_test, _, _ = load_dataset(folder, "bibtex")
    model = OneVsRestClassifier(LogisticRegression(max_iter=200), n_jobs=1)
    return Y_test, model.fit(X_train, Y_train).predict(X_test)


def _synthetic(n, q, seed=0):
    rng = np.random.default_rng(seed)
    y_true = rng.random((n, q)) < 0.15
    return y_true, y_true ^ (rng.random((n, q)) < 0.05)


def _row(name, base_name, base, resamples, repeat, y_true, y_pred):
    print(f"{name}: {y_true.shape[0]:,} x {y_true.shape[1]}")
    t_base = _best(base, repeat)
    print(f"  {base_name:<40} {t_base * 1e3:9.1f} ms   1.0x")
    for interval in ("percentile", "bca"):

        def run(interval=interval):
            return mlcm_confidence_intervals(
                y_true,
                y_pred,
                n_resamples=resamples,
                interval=interval,
                zero_division=0.0,
                random_state=0,
            )

        t = _best(run, repeat)
        label = f"intervals, {resamples} resamples, {interval}"
        print(f"  {label:<40} {t * 1e3:9.1f} ms {t / t_base:6.1f}x", end="")
        print(f"   peak {_peak_mib(run):7.1f} MiB")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("SKLEARN_MLCM_DATA", "../shared/data")
    parser.add_argument("--data", type=Path, default=Path(default))
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--large-resamples", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    mulan = args.data / "mulan"
    if (mulan / "bibtex").is_dir():
        y_true, y_pred = _bibtex(mulan)
        _row(
            "bibtex test split, one-vs-rest logistic regression",
            "mlcm_classification_report",
            lambda: mlcm_classification_report(
                y_true, y_pred, zero_division=0.0, output_dict=True
            ),
            args.resamples,
            args.repeat,
            y_true,
            y_pred,
        )
    else:
        print(f"bibtex: not found under {mulan}; pass --data")
    y_true, y_pred = _synthetic(10**6, 20)
    _row(
        "synthetic, density 0.15, 5% of cells flipped",
        "mlcm_confusion_matrix",
        lambda: mlcm_confusion_matrix(y_true, y_pred),
        args.large_resamples,
        1,
        y_true,
        y_pred,
    )


if __name__ == "__main__":
    main()
