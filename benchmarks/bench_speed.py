"""Speed and scale of mlcm_confusion_matrix, measured side by side in one run.

Suites (``--suite``, several allowed; default ``targets dense sparse``):

targets  one row per path, each beside its reference, with the ratio and the
         target it is held to: the bit-sliced kernel, q = 50, Krstinic, weights
         (integer and real), 1-D multi-class input (scikit-learn's
         ``confusion_matrix``; PyCM when installed), the report against the
         matrix alone, the extreme sparse case (time and peak memory), the
         streaming accumulator (rows/s) and the NumPy 1.x popcount fallback
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
bootstrap
         MLCMAccumulator with ``n_resamples`` Poisson bootstrap replicates
         (``--bootstrap-resamples``, default 200) against the same stream
         without, in batches of 10**4, at q = 20 (density 0.15) and q = 159
         (bibtex's size, density 0.015): rows/s of each, their ratio, peak
         memory; and, on a tenth of the rows, what a stream would cost
         without the replicates' margins: one accumulator per replicate, each
         updated with the batch and its Poisson weights as sample_weight

``--baseline DIR`` runs the same suites first on the sklearn_mlcm found in
DIR (a checkout of an older commit, e.g. ``git worktree add /tmp/old HEAD~3``)
in a subprocess, then on this one, and prints, after the tables, each row's
old and new time and their ratio: old and new measured in one run.

Times are medians of ``--repeat`` runs (the machine is shared and noisy); peak
memory is tracemalloc's peak during one extra call (NumPy reports its buffers
to tracemalloc). Examples::

    python benchmarks/bench_speed.py --suite targets
    python benchmarks/bench_speed.py --suite dense --n 100000 1000000 --q 20 50
    python benchmarks/bench_speed.py --suite dense sparse extreme stream \\
        --baseline /tmp/old
    python benchmarks/bench_speed.py --suite bootstrap --stream-rows 1000000
"""

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np
import scipy
import sklearn
from scipy import sparse
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix

import sklearn_mlcm
from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)


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


class Table:
    """A printed table whose rows are also kept (keyed) for --baseline."""

    def __init__(self, title, columns, results):
        self.columns = columns
        self.results = results
        print(f"\n## {title}")
        line = " ".join(f"{name:>{width}}" for name, width, _ in columns)
        print(line)
        print("-" * len(line))

    def row(self, key, seconds, *values):
        """Print a row; ``key`` names it, ``seconds`` is our time in it."""
        cells = []
        for (_, width, fmt), value in zip(self.columns, values):
            cells.append(f"{value:>{width}{fmt}}" if value is not None else " " * width)
        print(" ".join(cells), flush=True)
        self.results[key] = seconds


def suite_targets(args, rng, results):
    n, density, repeat = 1_000_000, 0.15, args.repeat
    table = Table(
        "targets: each path beside its reference (10^6 rows, q = 20, density "
        "0.15 unless said)",
        [
            ("path", 38, ""),
            ("ours", 10, ".4f"),
            ("reference", 10, ".4f"),
            ("unit", 5, ""),
            ("ratio", 7, ".2f"),
            ("target", 8, ""),
        ],  # fmt: skip
        results,
    )

    def versus(key, label, ours, reference, target, unit="s"):
        t_ours = median_time(ours, repeat)
        t_ref = (
            reference
            if isinstance(reference, float)
            else median_time(reference, repeat)
        )
        table.row(key, t_ours, label, t_ours, t_ref, unit, t_ours / t_ref, target)

    for q_ in (20, 50):
        y_true = rng.random((n, q_)) < density
        y_pred = rng.random((n, q_)) < density
        t_floor = floor_time(y_true, y_pred, repeat)
        if q_ == 50:
            versus("heydarian q=50", "Heydarian, q = 50 / floor",
                   lambda: mlcm_confusion_matrix(y_true, y_pred),
                   t_floor, "<= 10")  # fmt: skip
            continue
        weights = rng.random(n)
        counts = rng.integers(1, 6, n).astype(float)
        versus("heydarian", "Heydarian, bool / floor",
               lambda: mlcm_confusion_matrix(y_true, y_pred),
               t_floor, "<= 6")  # fmt: skip
        versus("krstinic", "Krstinic / floor",
               lambda: mlcm_confusion_matrix(y_true, y_pred, method="krstinic"),
               t_floor, "<= 20")  # fmt: skip
        versus("weights integer", "Heydarian, weights 1..5 / floor",
               lambda: mlcm_confusion_matrix(y_true, y_pred, sample_weight=counts),
               t_floor, "<= 20")  # fmt: skip
        versus("weights real", "Heydarian, weights U(0,1) / floor",
               lambda: mlcm_confusion_matrix(y_true, y_pred, sample_weight=weights),
               t_floor, "<= 20")  # fmt: skip
        t_matrix = median_time(lambda: mlcm_confusion_matrix(y_true, y_pred), repeat)
        versus("report", "report / matrix alone",
               lambda: mlcm_classification_report(y_true, y_pred),
               t_matrix, "<= 1.5")  # fmt: skip
        t_matrix = median_time(
            lambda: mlcm_confusion_matrix(y_true, y_pred, method="krstinic"), repeat
        )
        versus("report krstinic", "report / matrix alone, Krstinic",
               lambda: mlcm_classification_report(y_true, y_pred, method="krstinic"),
               t_matrix, "<= 1.5")  # fmt: skip
        fallback = _fallback_module()
        if fallback is not None:
            fallback.NATIVE_POPCOUNT = False
            try:
                t_slow = median_time(
                    lambda: mlcm_confusion_matrix(y_true, y_pred), repeat
                )
            finally:
                fallback.NATIVE_POPCOUNT = True
            native = median_time(lambda: mlcm_confusion_matrix(y_true, y_pred), repeat)
            table.row("numpy1 fallback", t_slow, "NumPy 1.x popcount / NumPy 2 path",
                      t_slow, native, "s", t_slow / native, "<= 2")  # fmt: skip
        _stream(table, y_true, y_pred)
    labels = rng.integers(0, 20, n)
    guesses = np.where(rng.random(n) < 0.7, labels, rng.integers(0, 20, n))
    versus("multiclass", "1-D, 20 classes / sklearn confusion_matrix",
           lambda: mlcm_confusion_matrix(labels, guesses),
           lambda: confusion_matrix(labels, guesses), "<= 1.0")  # fmt: skip
    if importlib.util.find_spec("pycm") is not None:
        from pycm import ConfusionMatrix

        t_pycm = median_time(lambda: ConfusionMatrix(labels, guesses), 1)
        t_ours = median_time(lambda: mlcm_confusion_matrix(labels, guesses), repeat)
        table.row("multiclass pycm", t_ours, "1-D, 20 classes / PyCM ConfusionMatrix",
                  t_ours, t_pycm, "s", t_ours / t_pycm, "")  # fmt: skip
    else:
        print("(PyCM is not installed: pip install pycm for its row)")
    _extreme_row(table, rng)


def _fallback_module():
    """The popcount engine, whose NATIVE_POPCOUNT switch runs the NumPy 1.x
    fallback on NumPy 2 (a benchmark-only peek inside the package)."""
    try:
        from sklearn_mlcm._mlcm import _bits
    except ImportError:  # an older checkout, before the engine had a module
        return None
    return _bits


def _stream(table, y_true, y_pred, batches=20):
    for method in ("heydarian", "krstinic"):
        acc = MLCMAccumulator(y_true.shape[1], method=method)
        start = time.perf_counter()
        for _ in range(batches):
            acc.update(y_true, y_pred)
        seconds = time.perf_counter() - start
        rate = acc.n_samples_ / seconds
        table.row(f"stream {method}", seconds / batches,
                  f"MLCMAccumulator, {method}, rows/s", rate, None, "rows",
                  None, ">= 2e7" if method == "krstinic" else "")  # fmt: skip


def _extreme_row(table, rng):
    n, q = 1_000_000, 100_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    t_sk = median_time(lambda: multilabel_confusion_matrix(y_true, y_pred), 3)

    def ours():
        return mlcm_confusion_matrix(y_true, y_pred, sparse_output=True)

    t_ours = median_time(ours, 3)
    table.row("extreme", t_ours, "sparse 10^6 x 10^5 / sklearn",
              t_ours, t_sk, "s", t_ours / t_sk, "<= 12")  # fmt: skip
    peak = peak_mib(ours)
    table.row("extreme peak", peak, "sparse 10^6 x 10^5, peak MiB",
              peak, None, "MiB", None, "<= 1024")  # fmt: skip


def suite_dense(args, rng, results):
    table = Table(
        "dense: ours vs scikit-learn's multilabel_confusion_matrix vs floor",
        [
            ("n", 9, ""),
            ("q", 5, ""),
            ("dens", 5, ".2f"),
            ("dtype", 7, ""),
            ("method", 10, ""),
            ("ours s", 8, ".4f"),
            ("sklearn s", 9, ".4f"),
            ("floor s", 8, ".4f"),
            ("/sklearn", 8, ".3f"),
            ("/floor", 7, ".1f"),
            ("peak MiB", 9, ".1f"),
            ("input MiB", 9, ".1f"),
        ],  # fmt: skip
        results,
    )
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
                        table.row(
                            f"dense {n} {q} {density} {dtype} {method}",
                            t_ours, n, q, density, dtype, method, t_ours, t_sk,
                            t_floor, t_ours / t_sk, t_ours / t_floor, peak_mib(ours),
                            size,
                        )  # fmt: skip


def suite_sparse(args, rng, results):
    n, q = 100_000, 10_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    t_sk = median_time(lambda: multilabel_confusion_matrix(y_true, y_pred), args.repeat)
    table = Table(
        "sparse: 10^5 x 10^4 CSR, ~5 true and ~5 predicted labels each",
        [
            ("method", 10, ""),
            ("output", 7, ""),
            ("ours s", 8, ".3f"),
            ("sklearn s", 9, ".4f"),
            ("/sklearn", 8, ".1f"),
            ("peak MiB", 9, ".1f"),
        ],  # fmt: skip
        results,
    )
    for method in ("heydarian", "krstinic"):
        for sparse_output in (True, False):

            def ours(method=method, sparse_output=sparse_output):
                return mlcm_confusion_matrix(
                    y_true, y_pred, method=method, sparse_output=sparse_output
                )

            t_ours = median_time(ours, args.repeat)
            output = "sparse" if sparse_output else "dense"
            table.row(f"sparse {method} {output}", t_ours, method, output, t_ours,
                      t_sk, t_ours / t_sk, peak_mib(ours))  # fmt: skip


def suite_extreme(args, rng, results):
    n, q = 1_000_000, 100_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    print(f"\ninput: {y_true.nnz} and {y_pred.nnz} stored labels")
    table = Table(
        "extreme: 10^6 x 10^5 CSR, density 5e-5, sparse_output=True",
        [
            ("method", 10, ""),
            ("ours s", 8, ".2f"),
            ("sklearn s", 9, ".3f"),
            ("/sklearn", 8, ".1f"),
            ("peak MiB", 9, ".0f"),
            ("result nnz", 11, ""),
        ],  # fmt: skip
        results,
    )
    t_sk = median_time(lambda: multilabel_confusion_matrix(y_true, y_pred), 3)
    for method in ("heydarian", "krstinic"):
        result = {}

        def ours(method=method):
            result["cm"] = mlcm_confusion_matrix(
                y_true, y_pred, method=method, sparse_output=True
            )

        t_ours = median_time(ours, 3)
        table.row(f"extreme {method}", t_ours, method, t_ours, t_sk, t_ours / t_sk,
                  peak_mib(ours), result["cm"].nnz)  # fmt: skip


def suite_stream(args, rng, results):
    total, batch, q = args.stream_rows, 1_000_000, 20
    # a pool of pre-drawn batches, so that the stream measures the metric and
    # not the random number generator
    pool = [
        (rng.random((batch, q)) < 0.15, rng.random((batch, q)) < 0.15) for _ in range(4)
    ]
    table = Table(
        f"stream: MLCMAccumulator, {total:.0e} rows (q = {q}) in batches of "
        f"{batch:.0e}",
        [
            ("method", 10, ""),
            ("seconds", 8, ".1f"),
            ("rows/s", 12, ".3e"),
            ("peak MiB", 9, ".1f"),
        ],  # fmt: skip
        results,
    )
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
        table.row(f"stream {method} total", seconds, method, seconds,
                  acc.n_samples_ / seconds, peak / 2**20)  # fmt: skip


def suite_fixed(args, rng, results):
    if importlib.util.find_spec("mlcm_fixed") is None:
        print("\nmlcm-fixed is not installed (pip install mlcm-fixed); skipped")
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
    table = Table(
        "fixed: against the reference package mlcm-fixed (10^5 x 50)",
        [
            ("package", 12, ""),
            ("input", 6, ""),
            ("seconds", 9, ".4f"),
            ("ratio", 8, ".0f"),
            ("same matrix", 11, ""),
        ],  # fmt: skip
        results,
    )
    table.row("fixed reference", t_ref, "mlcm-fixed", "int64", t_ref, 1.0, "")
    for name, t, p in (
        ("int64", y_true, y_pred),
        ("bool", y_true.astype(bool), y_pred.astype(bool)),
    ):
        t_ours = median_time(lambda t=t, p=p: mlcm_confusion_matrix(t, p), args.repeat)
        same = np.array_equal(mlcm_confusion_matrix(t, p), expected)
        table.row(f"fixed {name}", t_ours, "sklearn-mlcm", name, t_ours,
                  t_ref / t_ours, str(same))  # fmt: skip


def suite_bootstrap(args, rng, results):
    resamples, batch = args.bootstrap_resamples, 10_000
    total = max(batch, args.stream_rows // batch * batch)
    table = Table(
        f"bootstrap: MLCMAccumulator, {total:.0e} rows in batches of {batch:.0e}, "
        f"with and without {resamples} Poisson bootstrap replicates",
        [
            ("q", 4, ""),
            ("method", 10, ""),
            ("plain rows/s", 13, ".3e"),
            (f"B={resamples} rows/s", 13, ".3e"),
            ("slowdown", 9, ".1f"),
            ("peak MiB", 9, ".1f"),
            ("B accumulators rows/s", 22, ".3e"),
            ("speedup", 8, ".0f"),
        ],  # fmt: skip
        results,
    )
    for q, density in ((20, 0.15), (159, 0.015)):
        # a pool of pre-drawn batches: the stream measures the accumulator
        pool = []
        for _ in range(4):
            y_true = rng.random((batch, q)) < density
            pool.append((y_true, y_true ^ (rng.random((batch, q)) < density / 3)))
        for method in ("heydarian", "krstinic"):

            def stream(acc, rows):
                for i in range(rows // batch):
                    y_true, y_pred = pool[i % len(pool)]
                    acc.update(y_true, y_pred)
                return acc

            start = time.perf_counter()
            stream(MLCMAccumulator(q, method=method), total)
            plain = total / (time.perf_counter() - start)
            boot = MLCMAccumulator(
                q, method=method, n_resamples=resamples, random_state=0
            )
            tracemalloc.start()
            start = time.perf_counter()
            stream(boot, total)
            rate = total / (time.perf_counter() - start)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert boot.n_samples_ == total
            # the replicates without margins: B accumulators, Poisson weights
            naive_rows = max(batch, total // 10 // batch * batch)
            accs = [MLCMAccumulator(q, method=method) for _ in range(resamples)]
            draw = np.random.default_rng(0)
            start = time.perf_counter()
            for i in range(naive_rows // batch):
                y_true, y_pred = pool[i % len(pool)]
                weights = draw.poisson(1.0, size=(resamples, batch))
                for acc, w in zip(accs, weights):
                    acc.update(y_true, y_pred, sample_weight=w)
            naive = naive_rows / (time.perf_counter() - start)
            table.row(f"bootstrap q={q} {method}", total / rate, q, method,
                      plain, rate, plain / rate, peak / 2**20, naive,
                      rate / naive)  # fmt: skip


SUITES = {
    "targets": suite_targets,
    "dense": suite_dense,
    "sparse": suite_sparse,
    "extreme": suite_extreme,
    "stream": suite_stream,
    "fixed": suite_fixed,
    "bootstrap": suite_bootstrap,
}


def run_baseline(argv, folder):
    """Run this script on the sklearn_mlcm of ``folder``; its row times."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "baseline.json")
        env = {**os.environ, "PYTHONPATH": os.path.abspath(folder)}
        print(f"# baseline: sklearn_mlcm from {os.path.abspath(folder)}")
        subprocess.run(
            [sys.executable, __file__, *argv, "--json-out", out], env=env, check=True
        )
        with open(out) as f:
            return json.load(f)


def compare(old, new):
    print("\n## baseline vs this checkout, measured in this run (seconds, "
          "or MiB / rows/s where the row says)")  # fmt: skip
    line = f"{'row':>44} {'old':>11} {'new':>11} {'new/old':>8}"
    print(line)
    print("-" * len(line))
    for key, value in new.items():
        before = old.get(key)
        ratio = f"{value / before:>8.2f}" if before else f"{'':>8}"
        shown = f"{before:>11.4g}" if before is not None else f"{'-':>11}"
        print(f"{key:>44} {shown} {value:>11.4g} {ratio}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument(
        "--suite", nargs="+", choices=SUITES, default=["targets", "dense", "sparse"]
    )
    parser.add_argument("--n", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--q", type=int, nargs="+", default=[20])
    parser.add_argument("--density", type=float, nargs="+", default=[0.15])
    parser.add_argument(
        "--dtypes", nargs="+", choices=["bool", "int8", "int64", "float64"]
    )
    parser.add_argument("--stream-rows", type=int, default=100_000_000)
    parser.add_argument("--bootstrap-resamples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", metavar="DIR")
    parser.add_argument("--json-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    old = None
    if args.baseline:
        rest = [a for i, a in enumerate(argv) if not _is_baseline_arg(argv, i)]
        old = run_baseline(rest, args.baseline)
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}, scipy "
        f"{scipy.__version__}, scikit-learn {sklearn.__version__}, sklearn_mlcm "
        f"from {os.path.dirname(sklearn_mlcm.__file__)}"
    )
    rng = np.random.default_rng(args.seed)
    results = {}
    for name in args.suite:
        SUITES[name](args, rng, results)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(results, f)
    if old is not None:
        compare(old, results)


def _is_baseline_arg(argv, i):
    return argv[i] == "--baseline" or (i > 0 and argv[i - 1] == "--baseline")


if __name__ == "__main__":
    main()
