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
samples  the samples row's cost (issue #30): at 10**6 x 20 (density 0.15),
         ``mlcm_classification_report`` / one ``mlcm_confusion_matrix``
         (target <= 1.3) and ten ``MLCMAccumulator.update`` batches of 10**5
         rows / the one-shot matrix (target <= 1.5), both methods; the three
         calls of a method timed in turn in each round. With ``--baseline``
         the older checkout's ratios are recorded beside these (a checkout
         from before the samples average: its report without that row)
bootstrap
         MLCMAccumulator with ``n_resamples`` Poisson bootstrap replicates
         (``--bootstrap-resamples``, default 200) against the same stream
         without, in batches of 10**4, at q = 20 (density 0.15) and q = 159
         (bibtex's size, density 0.015): rows/s of each, their ratio, peak
         memory; and, on a tenth of the rows, what a stream would cost
         without the replicates' margins: one accumulator per replicate, each
         updated with the batch and its Poisson weights as sample_weight

``--baseline DIR`` runs the same suites at the same time on the sklearn_mlcm
found in DIR (a checkout of an older commit, e.g. ``git worktree add /tmp/old
HEAD~3``), in a subprocess kept in step with this one: every timed call is
run in turns, old and new (``benchmarks/_baseline.py``). After the tables it
prints each row's old and new time and new/old, the references' too (their
code is the same on both sides: their new/old is the run's noise).

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
import importlib
import importlib.util
import os
import platform
import sys
import time
import tracemalloc
import warnings

import numpy as np
import scipy
import sklearn
from _baseline import SideBySide
from scipy import sparse
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix

import sklearn_mlcm
from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)

# where the popcount engine's NATIVE_POPCOUNT switch lives (a benchmark-only
# peek inside the package: private paths move, so add the new one here)
POPCOUNT_MODULES = ("sklearn_mlcm._mlcm._bits",)


def peak_mib(func):
    tracemalloc.start()
    func()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def floor_time(clock, key, y_true, y_pred, repeat):
    if sparse.issparse(y_true):
        return clock.time(
            key, lambda: (y_true.count_nonzero(), y_pred.count_nonzero()), repeat
        )
    return clock.time(
        key, lambda: (np.count_nonzero(y_true), np.count_nonzero(y_pred)), repeat
    )


def random_sparse(rng, n, q, per_row):
    """CSR bool with ``per_row`` labels drawn per instance (duplicates merged)."""
    rows = np.repeat(np.arange(n), per_row)
    cols = rng.integers(0, q, n * per_row)
    y = sparse.csr_array((np.ones(n * per_row, dtype=bool), (rows, cols)), shape=(n, q))
    y.sum_duplicates()
    return y


class Table:
    """A printed table."""

    def __init__(self, title, columns):
        self.columns = columns
        print(f"\n## {title}")
        line = " ".join(f"{name:>{width}}" for name, width, _ in columns)
        print(line)
        print("-" * len(line))

    def row(self, *values):
        cells = []
        for (_, width, fmt), value in zip(self.columns, values):
            cells.append(f"{value:>{width}{fmt}}" if value is not None else " " * width)
        print(" ".join(cells), flush=True)


def suite_targets(args, rng, clock):
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
    )

    def versus(key, label, ours, reference, target, unit="s"):
        t_ours = clock.time(f"targets: {key}", ours, repeat)
        t_ref = (
            reference
            if isinstance(reference, float)
            else clock.time(f"targets: {key}, reference", reference, repeat)
        )
        table.row(label, t_ours, t_ref, unit, t_ours / t_ref, target)

    for q_ in (20, 50):
        y_true = rng.random((n, q_)) < density
        y_pred = rng.random((n, q_)) < density
        t_floor = floor_time(clock, f"targets: floor, q={q_}", y_true, y_pred, repeat)
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
        t_matrix = clock.time(
            "targets: matrix alone",
            lambda: mlcm_confusion_matrix(y_true, y_pred),
            repeat,
        )
        versus("report", "report / matrix alone",
               lambda: mlcm_classification_report(y_true, y_pred),
               t_matrix, "<= 1.5")  # fmt: skip
        t_matrix = clock.time(
            "targets: matrix alone, krstinic",
            lambda: mlcm_confusion_matrix(y_true, y_pred, method="krstinic"),
            repeat,
        )
        versus("report krstinic", "report / matrix alone, Krstinic",
               lambda: mlcm_classification_report(y_true, y_pred, method="krstinic"),
               t_matrix, "<= 1.5")  # fmt: skip
        _fallback_row(table, clock, y_true, y_pred, repeat)
        _stream(table, clock, y_true, y_pred, repeat)
    labels = rng.integers(0, 20, n)
    guesses = np.where(rng.random(n) < 0.7, labels, rng.integers(0, 20, n))
    versus("multiclass", "1-D, 20 classes / sklearn confusion_matrix",
           lambda: mlcm_confusion_matrix(labels, guesses),
           lambda: confusion_matrix(labels, guesses), "<= 1.0")  # fmt: skip
    if importlib.util.find_spec("pycm") is not None:
        from pycm import ConfusionMatrix

        t_pycm = clock.time(
            "targets: multiclass, PyCM", lambda: ConfusionMatrix(labels, guesses), 1
        )
        t_ours = clock.time(
            "targets: multiclass, again beside PyCM",
            lambda: mlcm_confusion_matrix(labels, guesses),
            repeat,
        )
        table.row("1-D, 20 classes / PyCM ConfusionMatrix",
                  t_ours, t_pycm, "s", t_ours / t_pycm, "")  # fmt: skip
    else:
        print("(PyCM is not installed: pip install pycm for its row)")
    _extreme_row(table, clock, rng)


def _fallback_module():
    """The popcount engine, whose NATIVE_POPCOUNT switch runs the NumPy 1.x
    fallback on NumPy 2, or None (an older checkout, before the engine had a
    module)."""
    for name in POPCOUNT_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "NATIVE_POPCOUNT"):
            return module
    return None


def _fallback_row(table, clock, y_true, y_pred, repeat):
    fallback = _fallback_module()

    def slow():
        fallback.NATIVE_POPCOUNT = False
        try:
            mlcm_confusion_matrix(y_true, y_pred)
        finally:
            fallback.NATIVE_POPCOUNT = True

    t_slow = clock.time(
        "targets: NumPy 1.x popcount fallback", slow if fallback else None, repeat
    )
    native = clock.time(
        "targets: NumPy 2 popcount, beside the fallback",
        lambda: mlcm_confusion_matrix(y_true, y_pred),
        repeat,
    )
    if fallback is not None:
        table.row("NumPy 1.x popcount / NumPy 2 path", t_slow, native, "s",
                  t_slow / native, "<= 2")  # fmt: skip


def _stream(table, clock, y_true, y_pred, repeat, batches=20):
    for method in ("heydarian", "krstinic"):

        def stream(method=method):
            acc = MLCMAccumulator(y_true.shape[1], method=method)
            for _ in range(batches):
                acc.update(y_true, y_pred)

        seconds = clock.time(
            f"targets: stream {method}, {batches} batches", stream, min(repeat, 3)
        )
        rate = batches * y_true.shape[0] / seconds
        table.row(f"MLCMAccumulator, {method}, rows/s", rate, None, "rows",
                  None, ">= 2e7" if method == "krstinic" else "")  # fmt: skip


def _extreme_row(table, clock, rng):
    n, q = 1_000_000, 100_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    t_sk = clock.time(
        "targets: extreme, sklearn",
        lambda: multilabel_confusion_matrix(y_true, y_pred),
        3,
    )

    def ours():
        return mlcm_confusion_matrix(y_true, y_pred, sparse_output=True)

    t_ours = clock.time("targets: extreme", ours, 3)
    table.row("sparse 10^6 x 10^5 / sklearn",
              t_ours, t_sk, "s", t_ours / t_sk, "<= 12")  # fmt: skip
    peak = peak_mib(ours)
    clock.record("targets: extreme, peak", peak, "MiB")
    table.row("sparse 10^6 x 10^5, peak MiB",
              peak, None, "MiB", None, "<= 1024")  # fmt: skip


def suite_dense(args, rng, clock):
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
    )
    dtypes = args.dtypes or ["bool"]
    for n in args.n:
        for q in args.q:
            for density in args.density:
                base_true = rng.random((n, q)) < density
                base_pred = rng.random((n, q)) < density
                for dtype in dtypes:
                    case = f"dense {n} {q} {density} {dtype}"
                    y_true = base_true.astype(dtype)
                    y_pred = base_pred.astype(dtype)
                    t_floor = floor_time(
                        clock, f"{case} floor", y_true, y_pred, args.repeat
                    )
                    t_sk = clock.time(
                        f"{case} sklearn",
                        lambda: multilabel_confusion_matrix(y_true, y_pred),  # noqa: B023
                        max(1, args.repeat // 2),
                    )
                    size = (y_true.nbytes + y_pred.nbytes) / 2**20
                    for method in ("heydarian", "krstinic"):

                        def ours(method=method, t=y_true, p=y_pred):
                            return mlcm_confusion_matrix(t, p, method=method)

                        t_ours = clock.time(f"{case} {method}", ours, args.repeat)
                        peak = peak_mib(ours)
                        clock.record(f"{case} {method} peak", peak, "MiB")
                        table.row(
                            n, q, density, dtype, method, t_ours, t_sk, t_floor,
                            t_ours / t_sk, t_ours / t_floor, peak, size,
                        )  # fmt: skip


def suite_sparse(args, rng, clock):
    n, q = 100_000, 10_000
    y_true = random_sparse(rng, n, q, 5)
    y_pred = random_sparse(rng, n, q, 5)
    t_sk = clock.time(
        "sparse sklearn",
        lambda: multilabel_confusion_matrix(y_true, y_pred),
        args.repeat,
    )
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
    )
    for method in ("heydarian", "krstinic"):
        for sparse_output in (True, False):

            def ours(method=method, sparse_output=sparse_output):
                return mlcm_confusion_matrix(
                    y_true, y_pred, method=method, sparse_output=sparse_output
                )

            output = "sparse" if sparse_output else "dense"
            t_ours = clock.time(f"sparse {method} {output}", ours, args.repeat)
            peak = peak_mib(ours)
            clock.record(f"sparse {method} {output} peak", peak, "MiB")
            table.row(method, output, t_ours, t_sk, t_ours / t_sk, peak)


def suite_extreme(args, rng, clock):
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
    )
    t_sk = clock.time(
        "extreme sklearn", lambda: multilabel_confusion_matrix(y_true, y_pred), 3
    )
    for method in ("heydarian", "krstinic"):
        result = {}

        def ours(method=method):
            result["cm"] = mlcm_confusion_matrix(
                y_true, y_pred, method=method, sparse_output=True
            )

        t_ours = clock.time(f"extreme {method}", ours, 3)
        peak = peak_mib(ours)
        clock.record(f"extreme {method} peak", peak, "MiB")
        table.row(method, t_ours, t_sk, t_ours / t_sk, peak, result["cm"].nnz)


def suite_stream(args, rng, clock):
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
    )
    for method in ("heydarian", "krstinic"):
        seen = {}

        def stream(method=method, seen=seen):
            acc = MLCMAccumulator(q, method=method)
            tracemalloc.start()
            for i in range(total // batch):
                y_true, y_pred = pool[i % len(pool)]
                acc.update(y_true, y_pred)
            seen["peak"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert acc.n_samples_ == total // batch * batch
            seen["rows"] = acc.n_samples_

        seconds = clock.time(f"stream {method} total", stream, 1)
        clock.record(f"stream {method} peak", seen["peak"] / 2**20, "MiB")
        table.row(method, seconds, seen["rows"] / seconds, seen["peak"] / 2**20)


def suite_samples(args, rng, clock):
    n, q, density, batches = 1_000_000, 20, 0.15, 10
    y_true = rng.random((n, q)) < density
    y_pred = rng.random((n, q)) < density
    bounds = [(i * n // batches, (i + 1) * n // batches) for i in range(batches)]
    table = Table(
        f"samples: the report and a stream of {batches} batches against one "
        f"matrix ({n:.0e} x {q}, density {density}; medians of {args.repeat})",
        [
            ("method", 10, ""),
            ("matrix s", 9, ".4f"),
            ("report s", 9, ".4f"),
            ("report/matrix", 14, ".2f"),
            ("stream s", 9, ".4f"),
            ("stream/matrix", 14, ".2f"),
        ],  # fmt: skip
    )
    for method in ("heydarian", "krstinic"):

        def matrix(method=method):
            mlcm_confusion_matrix(y_true, y_pred, method=method)

        def report(method=method):
            with warnings.catch_warnings():  # labels never predicted, say
                warnings.simplefilter("ignore")
                mlcm_classification_report(y_true, y_pred, method=method)

        def stream(method=method):
            acc = MLCMAccumulator(q, method=method)
            for start, stop in bounds:
                acc.update(y_true[start:stop], y_pred[start:stop])

        t_matrix, t_report, t_stream = clock.times(
            [
                (f"samples: matrix, {method}", matrix),
                (f"samples: report, {method}", report),
                (f"samples: stream, {method}", stream),
            ],
            args.repeat,
        )
        clock.record(f"samples: report/matrix, {method}", t_report / t_matrix, "x")
        clock.record(f"samples: stream/matrix, {method}", t_stream / t_matrix, "x")
        table.row(method, t_matrix, t_report, t_report / t_matrix, t_stream,
                  t_stream / t_matrix)  # fmt: skip
    print("targets: report/matrix <= 1.3, stream/matrix <= 1.5")


def suite_fixed(args, rng, clock):
    if importlib.util.find_spec("mlcm_fixed") is None:
        print("\nmlcm-fixed is not installed (pip install mlcm-fixed); skipped")
        return
    from mlcm_fixed import cm as reference

    n, q = 100_000, 50
    # the reference's documented input: integer 0/1 arrays (on bool arrays it
    # is several times slower still); ours on the same int arrays and on bool
    y_true = (rng.random((n, q)) < 0.1).astype(int)
    y_pred = (rng.random((n, q)) < 0.1).astype(int)
    found = {}

    def run_reference():
        found["expected"] = reference(y_true, y_pred)[0]

    t_ref = clock.time("fixed reference", run_reference, 1)
    table = Table(
        "fixed: against the reference package mlcm-fixed (10^5 x 50)",
        [
            ("package", 12, ""),
            ("input", 6, ""),
            ("seconds", 9, ".4f"),
            ("ratio", 8, ".0f"),
            ("same matrix", 11, ""),
        ],  # fmt: skip
    )
    table.row("mlcm-fixed", "int64", t_ref, 1.0, "")
    for name, t, p in (
        ("int64", y_true, y_pred),
        ("bool", y_true.astype(bool), y_pred.astype(bool)),
    ):
        t_ours = clock.time(
            f"fixed {name}", lambda t=t, p=p: mlcm_confusion_matrix(t, p), args.repeat
        )
        same = np.array_equal(mlcm_confusion_matrix(t, p), found["expected"])
        table.row("sklearn-mlcm", name, t_ours, t_ref / t_ours, str(same))


def suite_bootstrap(args, rng, clock):
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
    )
    for q, density in ((20, 0.15), (159, 0.015)):
        # a pool of pre-drawn batches: the stream measures the accumulator
        pool = []
        for _ in range(4):
            y_true = rng.random((batch, q)) < density
            pool.append((y_true, y_true ^ (rng.random((batch, q)) < density / 3)))
        for method in ("heydarian", "krstinic"):
            case = f"bootstrap q={q} {method}"

            def stream(acc, rows):
                for i in range(rows // batch):
                    y_true, y_pred = pool[i % len(pool)]
                    acc.update(y_true, y_pred)
                return acc

            def plain(method=method, q=q):
                stream(MLCMAccumulator(q, method=method), total)

            peaks = {}

            def boot(method=method, q=q, peaks=peaks):
                acc = MLCMAccumulator(
                    q, method=method, n_resamples=resamples, random_state=0
                )
                tracemalloc.start()
                stream(acc, total)
                peaks["peak"] = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                assert acc.n_samples_ == total

            # the replicates without margins: B accumulators, Poisson weights
            naive_rows = max(batch, total // 10 // batch * batch)

            def naive(method=method, q=q):
                accs = [MLCMAccumulator(q, method=method) for _ in range(resamples)]
                draw = np.random.default_rng(0)
                for i in range(naive_rows // batch):
                    y_true, y_pred = pool[i % len(pool)]
                    weights = draw.poisson(1.0, size=(resamples, batch))
                    for acc, w in zip(accs, weights):
                        acc.update(y_true, y_pred, sample_weight=w)

            t_plain = clock.time(f"{case} plain", plain, 1)
            t_boot = clock.time(f"{case} B={resamples}", boot, 1)
            t_naive = clock.time(f"{case} B accumulators", naive, 1)
            clock.record(f"{case} B={resamples} peak", peaks["peak"] / 2**20, "MiB")
            rate, naive_rate = total / t_boot, naive_rows / t_naive
            table.row(q, method, total / t_plain, rate, t_boot / t_plain,
                      peaks["peak"] / 2**20, naive_rate,
                      rate / naive_rate)  # fmt: skip


SUITES = {
    "targets": suite_targets,
    "dense": suite_dense,
    "sparse": suite_sparse,
    "extreme": suite_extreme,
    "stream": suite_stream,
    "fixed": suite_fixed,
    "samples": suite_samples,
    "bootstrap": suite_bootstrap,
}


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
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="also time the sklearn_mlcm of DIR (an older checkout), in step",
    )
    args = parser.parse_args(argv)

    clock = SideBySide.start(args.baseline, argv, __file__)
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}, scipy "
        f"{scipy.__version__}, scikit-learn {sklearn.__version__}, sklearn_mlcm "
        f"from {os.path.dirname(sklearn_mlcm.__file__)}"
    )
    rng = np.random.default_rng(args.seed)
    for name in args.suite:
        SUITES[name](args, rng, clock)
    clock.finish()


if __name__ == "__main__":
    main()
