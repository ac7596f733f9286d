"""Speed and scale of mlcm_confusion_matrix, measured side by side in one run.

Suites (``--suite``, several allowed; default ``dense sparse``):

dense    n x q x density sweep on bool indicators: our time for each method,
         scikit-learn's ``multilabel_confusion_matrix`` on the same input and
         the floor (reading both inputs once: ``np.count_nonzero`` of each),
         with the ratios and the peak memory of our call; ``--dtypes`` adds
         int8 / int64 / float64 inputs of the same data
sparse   10**5 x 10**4 CSR, about 5 true and 5 predicted labels per instance,
         dense and sparse output, against scikit-learn on the same CSR input
extreme  10**6 x 10**5 CSR (density 5e-5) with sparse_output=True
stream   MLCMAccumulator over 10**8 rows (q = 20) in batches of 10**6
         (``--stream-rows`` to change), throughput and peak memory
fixed    against the reference package mlcm-fixed, when installed
         (``pip install mlcm-fixed``; a benchmark-only comparison)

Times are medians of ``--repeat`` runs (the machine is shared and noisy); peak
memory is tracemalloc's peak during one extra call (NumPy reports its buffers
to tracemalloc). Examples::

    python benchmarks/bench_speed.py
    python benchmarks/bench_speed.py --suite dense --n 100000 1000000 --q 20 50
    python benchmarks/bench_speed.py --suite extreme stream fixed
"""

import argparse
import importlib.util
import os
import platform
import statistics
import time
import tracemalloc

import numpy as np
from scipy import sparse
from sklearn.metrics import multilabel_confusion_matrix

from sklearn_mlcm import MLCMAccumulator, mlcm_confusion_matrix


def median_time(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_mib(func):
    tracemalloc.start()
    func()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def floor_time(y_true, y_pred, repeat):
    if sparse.issparse(y_true):
        return median_time(
            lambda: (y_true.count_nonzero(), y_pred.count_nonzero()), repeat
        )
    return median_time(
        lambda: (np.count_nonzero(y_true), np.count_nonzero(y_pred)), repeat
    )


def random_sparse(rng, n, q, per_row):
    """CSR bool with ``per_row`` labels drawn per instance (duplicates merged)."""
    rows = np.repeat(np.arange(n), per_row)
    cols = rng.integers(0, q, n * per_row)
    y = sparse.csr_array((np.ones(n * per_row, dtype=bool), (rows, cols)), shape=(n, q))
    y.sum_duplicates()
    return y


def header(columns):
    line = " ".join(f"{name:>{width}}" for name, width in columns)
    print(line)
    print("-" * len(line))


def suite_dense(args, rng):
    print("\n## dense: ours vs scikit-learn's multilabel_confusion_matrix vs floor")
    columns = [("n", 9), ("q", 5), ("dens", 5), ("dtype", 7), ("method", 10),
               ("ours s", 8), ("sklearn s", 9), ("floor s", 8), ("/sklearn", 8),
               ("/floor", 7), ("peak MiB", 9), ("input MiB", 9)]  # fmt: skip
    header(columns)
    dtypes = args.dtypes or ["bool"]
    for n in args.n:
        for q in args.q:
            for density in args.density:
                base_true = rng.random((n, q)) < density
                base_pred = rng.random((n, q)) < density
                for dtype in dtypes:
                    y_true = base_true.astype(dtype)
                    y_pred = base_pred.astype(dtype)
                    t_floor = floor_time(y_true, y_pred, args.repeat)
                    t_sk = median_time(
                        lambda: multilabel_confusion_matrix(y_true, y_pred),  # noqa: B023
                        max(1, args.repeat // 2),
                    )
                    size = (y_true.nbytes + y_pred.nbytes) / 2**20
                    for method in ("heydarian", "krstinic"):

                        def ours(method=method, t=y_true, p=y_pred):
                            return mlcm_confusion_matrix(t, p, method=method)

                        t_ours = median_time(ours, args.repeat)
                        print(
                            f"{n:>9} {q:>5} {density:>5.2f} {dtype:>7} {method:>10} "
                            f"{t_ours:>8.4f} {t_sk:>9.4f} {t_floor:>8.4f} "
                            f"{t_ours / t_sk:>8.3f} {t_ours / t_floor:>7.1f} "
                            f"{peak_mib(ours):>9.1f} {size:>9.1f}"
                        )


def suite_sparse(args, rng):
    print("\n## sparse: 10^5 x 10^4 CSR, ~5 true and ~5 predicted labels each")
    n, q = 100_000, 10_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    t_sk = median_time(lambda: multilabel_confusion_matrix(y_true, y_pred), args.repeat)
    header([("method", 10), ("output", 7), ("ours s", 8), ("sklearn s", 9),
            ("/sklearn", 8), ("peak MiB", 9)])  # fmt: skip
    for method in ("heydarian", "krstinic"):
        for sparse_output in (True, False):

            def ours(method=method, sparse_output=sparse_output):
                return mlcm_confusion_matrix(
                    y_true, y_pred, method=method, sparse_output=sparse_output
                )

            t_ours = median_time(ours, args.repeat)
            print(
                f"{method:>10} {'sparse' if sparse_output else 'dense':>7} "
                f"{t_ours:>8.3f} {t_sk:>9.4f} {t_ours / t_sk:>8.1f} "
                f"{peak_mib(ours):>9.1f}"
            )


def suite_extreme(args, rng):
    print("\n## extreme: 10^6 x 10^5 CSR, density 5e-5, sparse_output=True")
    n, q = 1_000_000, 100_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    print(f"input: {y_true.nnz} and {y_pred.nnz} stored labels")
    header([("method", 10), ("ours s", 8), ("sklearn s", 9), ("peak MiB", 9),
            ("result nnz", 11)])  # fmt: skip
    t_sk = median_time(lambda: multilabel_confusion_matrix(y_true, y_pred), 1)
    for method in ("heydarian", "krstinic"):
        result = {}

        def ours(method=method):
            result["cm"] = mlcm_confusion_matrix(
                y_true, y_pred, method=method, sparse_output=True
            )

        t_ours = median_time(ours, 1)
        print(
            f"{method:>10} {t_ours:>8.2f} {t_sk:>9.3f} {peak_mib(ours):>9.0f} "
            f"{result['cm'].nnz:>11}"
        )


def suite_stream(args, rng):
    total, batch, q = args.stream_rows, 1_000_000, 20
    print(f"\n## stream: MLCMAccumulator, {total:.0e} rows (q = {q}) in batches of "
          f"{batch:.0e}")  # fmt: skip
    # a pool of pre-drawn batches, so that the stream measures the metric and
    # not the random number generator
    pool = [
        (rng.random((batch, q)) < 0.15, rng.random((batch, q)) < 0.15) for _ in range(4)
    ]
    header([("method", 10), ("seconds", 8), ("rows/s", 12), ("peak MiB", 9)])
    for method in ("heydarian", "krstinic"):
        acc = MLCMAccumulator(q, method=method)

        def stream(acc=acc):
            for i in range(total // batch):
                y_true, y_pred = pool[i % len(pool)]
                acc.update(y_true, y_pred)

        tracemalloc.start()
        start = time.perf_counter()
        stream()
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert acc.n_samples_ == total // batch * batch
        print(
            f"{method:>10} {seconds:>8.1f} {acc.n_samples_ / seconds:>12.3e} "
            f"{peak / 2**20:>9.1f}"
        )


def suite_fixed(args, rng):
    print("\n## fixed: against the reference package mlcm-fixed (10^5 x 50)")
    if importlib.util.find_spec("mlcm_fixed") is None:
        print("mlcm-fixed is not installed (pip install mlcm-fixed); skipped")
        return
    from mlcm_fixed import cm as reference

    n, q = 100_000, 50
    # the reference's documented input: integer 0/1 arrays (on bool arrays it
    # is several times slower still); ours on the same int arrays and on bool
    y_true = (rng.random((n, q)) < 0.1).astype(int)
    y_pred = (rng.random((n, q)) < 0.1).astype(int)
    start = time.perf_counter()
    expected, _ = reference(y_true, y_pred)
    t_ref = time.perf_counter() - start
    header([("package", 12), ("input", 6), ("seconds", 9), ("ratio", 8),
            ("same matrix", 11)])  # fmt: skip
    print(f"{'mlcm-fixed':>12} {'int64':>6} {t_ref:>9.3f} {1.0:>8.1f} {'':>11}")
    for name, t, p in (
        ("int64", y_true, y_pred),
        ("bool", y_true.astype(bool), y_pred.astype(bool)),
    ):
        t_ours = median_time(lambda t=t, p=p: mlcm_confusion_matrix(t, p), args.repeat)
        same = np.array_equal(mlcm_confusion_matrix(t, p), expected)
        print(
            f"{'sklearn-mlcm':>12} {name:>6} {t_ours:>9.4f} {t_ref / t_ours:>8.0f} "
            f"{str(same):>11}"
        )


SUITES = {
    "dense": suite_dense,
    "sparse": suite_sparse,
    "extreme": suite_extreme,
    "stream": suite_stream,
    "fixed": suite_fixed,
}


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument(
        "--suite", nargs="+", choices=SUITES, default=["dense", "sparse"]
    )
    parser.add_argument("--n", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--q", type=int, nargs="+", default=[20])
    parser.add_argument("--density", type=float, nargs="+", default=[0.15])
    parser.add_argument(
        "--dtypes", nargs="+", choices=["bool", "int8", "int64", "float64"]
    )
    parser.add_argument("--stream-rows", type=int, default=100_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}"
    )
    rng = np.random.default_rng(args.seed)
    for name in args.suite:
        SUITES[name](args, rng)


if __name__ == "__main__":
    main()
