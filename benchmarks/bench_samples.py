"""average="samples" against scikit-learn's, side by side (issue #24).

Both compute the instance-wise precision, recall and F1 of the same targets in
one run: ours (``mlcm_precision_recall_fscore_support``) counts each row's set
sizes in one pass and reads the average off their table, scikit-learn's
(``precision_recall_fscore_support``) builds the per-instance one-vs-rest
counts. The values are compared, and the report's cost with and without the
row (the table beside the matrix) is timed too.

    python benchmarks/bench_samples.py [--rows 1000000] [--repeat 3]
"""

import argparse
import time
import warnings

import numpy as np
from scipy import sparse
from sklearn.metrics import precision_recall_fscore_support

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_precision_recall_fscore_support,
)


def _best(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    options = {"average": "samples", "zero_division": 0.0}
    print(f"{args.rows:,} instances, 10% of the cells flipped")
    print(
        f"{'q':>4} {'density':>8} {'input':>6} {'weights':>8} {'ours ms':>8} "
        f"{'sklearn ms':>11} {'ratio':>6} {'max diff':>9} "
        f"{'matrix ms':>10} {'report ms':>10}"
    )
    for q, density in ((20, 0.15), (159, 0.02)):
        y_true = rng.random((args.rows, q)) < density
        y_pred = y_true ^ (rng.random((args.rows, q)) < 0.1)
        weight = rng.integers(1, 4, args.rows).astype(np.float64)
        for kind in ("dense", "csr"):
            t, p = y_true, y_pred
            if kind == "csr":
                t, p = sparse.csr_array(y_true), sparse.csr_array(y_pred)
            for w in (None, weight):
                ours, got = _best(
                    lambda: mlcm_precision_recall_fscore_support(
                        t, p, sample_weight=w, **options
                    ),
                    args.repeat,
                )
                theirs, want = _best(
                    lambda: precision_recall_fscore_support(
                        t, p, sample_weight=w, **options
                    ),
                    args.repeat,
                )
                diff = max(abs(a - b) for a, b in zip(got[:3], want[:3]))
                matrix, _ = _best(
                    lambda: mlcm_confusion_matrix(t, p, sample_weight=w), args.repeat
                )
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    report, _ = _best(
                        lambda: mlcm_classification_report(
                            t, p, sample_weight=w, zero_division=0.0
                        ),
                        args.repeat,
                    )
                print(
                    f"{q:>4} {density:>8} {kind:>6} {str(w is not None):>8} "
                    f"{ours * 1e3:>8.0f} {theirs * 1e3:>11.0f} "
                    f"{theirs / ours:>6.1f} {diff:>9.1e} {matrix * 1e3:>10.0f} "
                    f"{report * 1e3:>10.0f}"
                )


if __name__ == "__main__":
    main()
