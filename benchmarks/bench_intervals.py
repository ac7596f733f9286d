"""Bootstrap intervals against one report or one matrix: what "how sure" costs.

Times, beside the plain point estimate in the same run, and prints the ratios:

- MULAN bibtex's test split (2,515 x 159), labelled by a one-vs-rest logistic
  regression trained on its train split: the report with the interval of
  every number it shows (``mlcm_classification_report(confidence_level=...)``,
  2,000 resamples, BCa and percentile), and ``mlcm_confidence_intervals``
  (every score, specificity too), against one ``mlcm_classification_report``;
- a synthetic 10**6 x 20 test set, against one ``mlcm_confusion_matrix``.
  Its labels are drawn as real multi-label data look: prevalences falling
  off as a power law (0.35 / rank**0.9), five latent topics that make labels
  co-occur, and a noisy classifier (a Gaussian score per label, a
  label-dependent skill), so that distinct (true set, predicted set) pairs
  are as many as such data have, not as few as a toy's;
- the movie posters' CNN predictions (7,209 x 18), when present.

A resample costs the number of distinct units (pairs x weight), not of
instances: the table prints how many there are, and two floors of any exact
bootstrap that draws the instances: the random numbers alone (one uniform
position per instance and resample), and those numbers counted per position
(NumPy's bincount), before any product or score. Each interval run is timed
with one thread (n_jobs=1, the default) and with every processor
(n_jobs=-1; the table says how many) where threads are used, from 32,768
instances: the numbers are the same.

``--cases`` picks some of the three (``bibtex posters synthetic``, all by
default). ``--baseline DIR`` times the same calls at the same time on the
sklearn_mlcm of DIR (an older checkout) in a subprocess kept in step with
this one, every timed call in turns, old and new (``benchmarks/_baseline.py``),
and prints each row's old and new time and new/old after the tables.

    python benchmarks/bench_intervals.py [--data ../shared/data] [--resamples 2000]
    python benchmarks/bench_intervals.py --cases posters synthetic \
        --large-resamples 200 --baseline /tmp/old
"""

import argparse
import os
import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
from _baseline import SideBySide
from joblib import cpu_count
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
)


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


def realistic(n, q, seed=0):
    """Multi-label data as real data look (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    base = 0.35 / np.arange(1, q + 1) ** 0.9
    topics = rng.random((5, q)) < 0.25
    topic = rng.integers(0, 5, n)
    logit = np.log(base / (1 - base)) + 1.5 * topics[topic]
    y_true = rng.random((n, q)) < 1 / (1 + np.exp(-logit))
    skill = rng.uniform(1.5, 3.0, q)
    score = y_true * skill + rng.normal(size=(n, q))
    return y_true, score > skill / 2 + 0.3


def _distinct_pairs(y_true, y_pred):
    keys = np.packbits(
        np.concatenate([np.asarray(y_true, bool), np.asarray(y_pred, bool)], axis=1),
        axis=1,
    )
    return len(np.unique(keys, axis=0))


def _floors(n, resamples):
    """The random numbers alone: ``resamples`` x ``n`` uniform positions, what
    any exact bootstrap that draws the instances must generate; and the same
    numbers counted per position, what it must count (in batches of about
    2**17 draws, which stay in the cache)."""

    def draw():
        rng = np.random.default_rng(0)
        for _ in range(resamples):
            rng.integers(0, n, size=n)

    def draw_and_count():
        rng = np.random.default_rng(0)
        step = max(1, 2**17 // n)
        for start in range(0, resamples, step):
            rows = min(step, resamples - start)
            drawn = rng.integers(0, n, size=(rows, n))
            drawn += (np.arange(rows) * n)[:, None]
            np.bincount(drawn.ravel(), minlength=rows * n)

    return [
        (f"floor: random positions alone, {resamples:,} x {n:,}", draw),
        ("floor: the same, counted per position", draw_and_count),
    ]


def _case(clock, case, title, y_true, y_pred, base_name, base, runs, repeat):
    """Time ``base`` and each run (the best of ``repeat``), print the rows."""
    n, q = y_true.shape
    pairs = _distinct_pairs(y_true, y_pred)
    print(f"{title}: {n:,} x {q}, {pairs:,} distinct pairs ({pairs / n:.0%} of n)")
    t_base = clock.time(f"{case}: {base_name}", base, repeat, stat="min")
    print(f"  {base_name:<58} {t_base * 1e3:9.1f} ms    1.0x", flush=True)
    for label, run in runs:
        t = clock.time(f"{case}: {label}", run, repeat, stat="min")
        peak = _peak_mib(run)
        clock.record(f"{case}: {label}, peak", peak, "MiB")
        print(f"  {label:<58} {t * 1e3:9.1f} ms {t / t_base:6.1f}x", end="")
        print(f"   peak {peak:7.1f} MiB", flush=True)


CASES = ("bibtex", "posters", "synthetic")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("SKLEARN_MLCM_DATA", "../shared/data")
    parser.add_argument("--data", type=Path, default=Path(default))
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--large-resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="also time the sklearn_mlcm of DIR (an older checkout), in step",
    )
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", UndefinedMetricWarning)
    clock = SideBySide.start(args.baseline, argv, __file__)
    _cases(args, clock)
    clock.finish()


def _cases(args, clock):
    threads = cpu_count()

    def report_runs(y_true, y_pred, resamples):
        runs = []
        # one thread: n_jobs is not used below 32,768 instances
        for interval, n_jobs in (("bca", 1), ("percentile", 1)):

            def report(interval=interval, n_jobs=n_jobs):
                return mlcm_classification_report(
                    y_true,
                    y_pred,
                    output_dict=True,
                    zero_division=0.0,
                    confidence_level=0.95,
                    n_resamples=resamples,
                    interval=interval,
                    random_state=0,
                    n_jobs=n_jobs,
                )

            jobs = "" if n_jobs == 1 else f", {threads} threads"
            runs.append(
                (f"report with intervals, {resamples:,}, {interval}{jobs}", report)
            )

        def every_score():
            return mlcm_confidence_intervals(
                y_true, y_pred, n_resamples=resamples, zero_division=0.0, random_state=0
            )

        runs.append((f"mlcm_confidence_intervals, {resamples:,}, bca", every_score))
        runs.extend(_floors(y_true.shape[0], resamples))
        return runs

    def plain_report(y_true, y_pred):
        return lambda: mlcm_classification_report(
            y_true, y_pred, output_dict=True, zero_division=0.0
        )

    mulan = args.data / "mulan"
    if "bibtex" in args.cases and not (mulan / "bibtex").is_dir():
        print(f"bibtex: not found under {mulan}; pass --data")
    elif "bibtex" in args.cases:
        y_true, y_pred = _bibtex(mulan)
        _case(
            clock,
            "bibtex",
            "bibtex test split, one-vs-rest logistic regression",
            y_true,
            y_pred,
            "mlcm_classification_report",
            plain_report(y_true, y_pred),
            report_runs(y_true, y_pred, args.resamples),
            args.repeat,
        )
    posters = args.data / "posters"
    if "posters" in args.cases and not (posters / "gt.npy").is_file():
        print(f"posters: not found under {posters}; pass --data")
    elif "posters" in args.cases:
        y_true, y_pred = np.load(posters / "gt.npy"), np.load(posters / "pred_t05.npy")
        _case(
            clock,
            "posters",
            "movie posters, CNN at threshold 0.5",
            y_true,
            y_pred,
            "mlcm_classification_report",
            plain_report(y_true, y_pred),
            report_runs(y_true, y_pred, args.resamples),
            args.repeat,
        )
    if "synthetic" not in args.cases:
        return
    y_true, y_pred = realistic(10**6, 20)
    runs = []
    for interval, n_jobs in (
        ("percentile", 1),
        ("percentile", -1),
        ("bca", 1),
        ("bca", -1),
    ):

        def run(interval=interval, n_jobs=n_jobs):
            return mlcm_confidence_intervals(
                y_true,
                y_pred,
                n_resamples=args.large_resamples,
                interval=interval,
                zero_division=0.0,
                random_state=0,
                n_jobs=n_jobs,
            )

        jobs = "" if n_jobs == 1 else f", {threads} threads"
        name = f"mlcm_confidence_intervals, {args.large_resamples:,}, {interval}"
        runs.append((name + jobs, run))
    runs.extend(_floors(y_true.shape[0], args.large_resamples))
    _case(
        clock,
        "synthetic",
        "synthetic, power-law labels, noisy classifier",
        y_true,
        y_pred,
        "mlcm_confusion_matrix",
        lambda: mlcm_confusion_matrix(y_true, y_pred),
        runs,
        1,
    )


if __name__ == "__main__":
    main()
