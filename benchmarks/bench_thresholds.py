"""The MLCM across thresholds: mlcm_threshold_curve against one matrix.

Issue #18's target: the scores at 100 thresholds of a 10**5 x 100 problem in
under 20x one ``mlcm_confusion_matrix`` of that size. Each row times, in one
run and on the same data:

- "one matrix": ``mlcm_confusion_matrix(y_true, y_score >= 0.5)`` on bool
  input (the thresholding not timed), the baseline;
- "curve": ``mlcm_threshold_curve(y_true, y_score, thresholds=T)`` (macro F1
  and every label's F1 at each threshold);
- "naive": one ``decide_labels`` and one ``mlcm_f1_score`` per threshold,
  the loop a user would write (timed on ``--naive`` thresholds and scaled to T when
  fewer, marked "~").

Cases: dense scores (n x q x density of true labels), sparse scores (10**5
x 10**4, about 60 stored scores and 3 true labels per row), real-valued
weights, per-label thresholds (2-D: a vector scaled together, whose columns
rise, and random ones, which take one matrix per threshold) and Krstinić's
matrix (one matrix per threshold). Scores are a logistic of the true label
plus Gaussian noise. Times are medians of ``--repeat`` runs, the baseline
and the curve interleaved.

``--baseline DIR`` times the same rows at the same time on the sklearn_mlcm
of DIR (an older checkout) in a subprocess kept in step with this one, every
timed call in turns, old and new (``benchmarks/_baseline.py``), and prints
each row's old and new time and new/old after the table.

    python benchmarks/bench_thresholds.py                       # the target
    python benchmarks/bench_thresholds.py --suite all --repeat 3
    python benchmarks/bench_thresholds.py --suite all --baseline /tmp/old
"""

import argparse
import sys

import numpy as np
from _baseline import SideBySide
from scipy import sparse

from sklearn_mlcm import (
    decide_labels,
    mlcm_confusion_matrix,
    mlcm_f1_score,
    mlcm_threshold_curve,
)


def _dense(n, q, density, seed=0):
    rng = np.random.default_rng(seed)
    y_true = rng.random((n, q)) < density
    noise = rng.normal(size=(n, q))
    y_score = 1.0 / (1.0 + np.exp(-(3.0 * y_true - 2.0 + noise)))
    return y_true, y_score


def _sparse(n, q, stored, true_per_row, seed=0):
    """Sparse scores (``stored`` per row, the true labels among them most of
    the time) and sparse true labels."""
    rng = np.random.default_rng(seed)
    true_cols = rng.integers(0, q, size=(n, true_per_row))
    y_true = sparse.csr_array(
        (
            np.ones(n * true_per_row),
            (np.repeat(np.arange(n), true_per_row), true_cols.ravel()),
        ),
        shape=(n, q),
    )
    y_true.data[:] = 1
    other = rng.integers(0, q, size=(n, stored - true_per_row))
    cols = np.concatenate([true_cols, other], axis=1)
    values = rng.uniform(0.01, 0.6, size=cols.shape)
    values[:, :true_per_row] += rng.uniform(0.0, 0.4, size=(n, true_per_row))
    y_score = sparse.csr_array(
        (values.ravel(), (np.repeat(np.arange(n), stored), cols.ravel())),
        shape=(n, q),
    )
    y_score.sum_duplicates()
    return y_true.astype(bool), y_score


def _naive(y_true, y_score, grid, method, weight):
    for threshold in grid:
        y_pred = decide_labels(y_score, threshold=threshold)
        mlcm_f1_score(
            y_true, y_pred, method=method, sample_weight=weight, zero_division=0.0
        )


def _row(
    clock,
    case,
    y_true,
    y_score,
    *,
    grid,
    method="heydarian",
    weight=None,
    repeat,
    naive,
):
    """Time one case and print its table row."""
    at_half = decide_labels(y_score, threshold=0.5)
    at_half = at_half.astype(bool) if sparse.issparse(at_half) else at_half == 1

    def baseline():
        return mlcm_confusion_matrix(
            y_true,
            at_half,
            method=method,
            sample_weight=weight,
            sparse_output=sparse.issparse(y_true),
        )

    def curve():
        return mlcm_threshold_curve(
            y_true, y_score, thresholds=grid, method=method, sample_weight=weight
        )

    base, ours = clock.times(
        [(f"{case}: one matrix", baseline), (f"{case}: curve", curve)], repeat
    )
    n_grid = len(grid)
    naive_grid = grid if naive >= n_grid else grid[:: max(1, n_grid // naive)][:naive]
    naive_time = 0.0
    if naive:
        naive_time = clock.time(
            f"{case}: naive loop, {len(naive_grid)} thresholds",
            lambda: _naive(y_true, y_score, naive_grid, method, weight),
        )
    naive_time *= n_grid / max(len(naive_grid), 1)
    mark = "" if len(naive_grid) == n_grid else "~"
    naive_cells = (
        f"{mark}{naive_time:.2f} | {mark}{naive_time / ours:.1f}" if naive else "| "
    )
    print(
        f"| {case} | {y_true.shape[0]:,} x {y_true.shape[1]:,} | {n_grid} | "
        f"{base:.3f} | {ours:.3f} | {ours / base:.1f} | {naive_cells} |",
        flush=True,
    )
    return ours / base


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=("target", "all"), default="target")
    parser.add_argument("--thresholds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--naive",
        type=int,
        default=100,
        help="thresholds of the naive loop actually timed (scaled to --thresholds)",
    )
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="also time the sklearn_mlcm of DIR (an older checkout), in step",
    )
    args = parser.parse_args(argv)
    clock = SideBySide.start(args.baseline, argv, __file__)
    _rows(args, clock)
    clock.finish()


def _rows(args, clock):
    T = args.thresholds
    print(
        "| case | n x q | thresholds | one matrix s | curve s | curve / matrix | "
        "naive loop s | naive / curve |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    y_true, y_score = _dense(10**5, 100, 0.05)
    grid = np.linspace(y_score.min(), y_score.max(), T)
    _row(
        clock,
        "dense, density 0.05 (target)",
        y_true,
        y_score,
        grid=grid,
        repeat=args.repeat,
        naive=args.naive,
    )
    if args.suite == "target":
        return
    naive = min(args.naive, 10)
    y20, s20 = _dense(10**5, 100, 0.2, seed=1)
    _row(
        clock,
        "dense, density 0.2",
        y20,
        s20,
        grid=np.linspace(s20.min(), s20.max(), T),
        repeat=args.repeat,
        naive=naive,
    )
    y6, s6 = _dense(10**6, 20, 0.15, seed=2)
    _row(
        clock,
        "dense, density 0.15",
        y6,
        s6,
        grid=np.linspace(s6.min(), s6.max(), T),
        repeat=args.repeat,
        naive=naive,
    )
    weight = np.random.default_rng(3).uniform(0.5, 2.0, size=y_true.shape[0])
    _row(
        clock,
        "dense, real weights U(0.5, 2)",
        y_true,
        y_score,
        grid=grid,
        weight=weight,
        repeat=args.repeat,
        naive=naive,
    )
    scale = np.linspace(0.2, 1.8, T)[:, None]
    per_label = np.random.default_rng(4).uniform(0.3, 0.7, size=y_true.shape[1])
    _row(
        clock,
        "2-D: a per-label vector scaled together",
        y_true,
        y_score,
        grid=scale * per_label[None, :],
        repeat=args.repeat,
        naive=naive,
    )
    random_rows = np.random.default_rng(5).uniform(0.1, 0.9, size=(T, y_true.shape[1]))
    _row(
        clock,
        "2-D: random per-label rows (a matrix each)",
        y_true,
        y_score,
        grid=random_rows,
        repeat=1,
        naive=naive,
    )
    _row(
        clock,
        "Krstinić (a matrix each)",
        y_true,
        y_score,
        grid=grid,
        method="krstinic",
        repeat=1,
        naive=naive,
    )
    ys, ss = _sparse(10**5, 10**4, 60, 3)
    _row(
        clock,
        "sparse scores and labels",
        ys,
        ss,
        grid=np.linspace(0.01, 1.0, T),
        repeat=args.repeat,
        naive=naive,
    )


if __name__ == "__main__":
    main()
