"""Speed of mlcm_confusion_matrix against scikit-learn, measured side by side.

For each case (n_samples x n_labels x density x dense/sparse) this prints the
median time of ``mlcm_confusion_matrix`` (both methods), of scikit-learn's
``multilabel_confusion_matrix`` on the same input, and of the floor (reading
both inputs once: ``np.count_nonzero`` of each), their ratios, and the peak
memory allocated by our call (tracemalloc, which sees NumPy's buffers).

    python benchmarks/bench_speed.py                       # 10^6 x 20, d=0.15
    python benchmarks/bench_speed.py --n 100000 1000000 --q 20 50 --sparse
"""

import argparse
import platform
import statistics
import time
import tracemalloc

import numpy as np
from scipy import sparse
from sklearn.metrics import multilabel_confusion_matrix

from sklearn_mlcm import mlcm_confusion_matrix


def _median_time(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _peak_mib(func):
    tracemalloc.start()
    func()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def _floor(y_true, y_pred):
    if sparse.issparse(y_true):
        return y_true.count_nonzero() + y_pred.count_nonzero()
    return np.count_nonzero(y_true) + np.count_nonzero(y_pred)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--q", type=int, nargs="+", default=[20])
    parser.add_argument("--density", type=float, nargs="+", default=[0.15])
    parser.add_argument("--sparse", action="store_true", help="also sparse CSR")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    print(f"# {platform.processor() or platform.machine()}, numpy {np.__version__}")
    header = (
        f"{'n':>9} {'q':>5} {'dens':>5} {'input':>6} {'method':>10} "
        f"{'ours s':>8} {'sklearn s':>9} {'floor s':>8} "
        f"{'/sklearn':>8} {'/floor':>7} {'peak MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(args.seed)
    for n in args.n:
        for q in args.q:
            for density in args.density:
                dense_true = rng.random((n, q)) < density
                dense_pred = rng.random((n, q)) < density
                inputs = [("bool", dense_true, dense_pred)]
                if args.sparse:
                    inputs.append(
                        (
                            "csr",
                            sparse.csr_array(dense_true),
                            sparse.csr_array(dense_pred),
                        )
                    )
                for kind, y_true, y_pred in inputs:
                    t_floor = _median_time(
                        lambda: _floor(y_true, y_pred),
                        args.repeat,  # noqa: B023
                    )
                    t_sk = _median_time(
                        lambda: multilabel_confusion_matrix(y_true, y_pred),  # noqa: B023
                        args.repeat,
                    )
                    for method in ("heydarian", "krstinic"):

                        def ours(method=method, y_true=y_true, y_pred=y_pred):
                            return mlcm_confusion_matrix(y_true, y_pred, method=method)

                        t_ours = _median_time(ours, args.repeat)
                        peak = _peak_mib(ours)
                        print(
                            f"{n:>9} {q:>5} {density:>5.2f} {kind:>6} {method:>10} "
                            f"{t_ours:>8.4f} {t_sk:>9.4f} {t_floor:>8.4f} "
                            f"{t_ours / t_sk:>8.3f} {t_ours / t_floor:>7.1f} "
                            f"{peak:>9.1f}"
                        )


if __name__ == "__main__":
    main()
