"""Array API input: NumPy, torch on the CPU and, where CUDA is present, the GPU.

One table per machine, one row per public name that dispatches (median of
``--repeat`` runs, seconds):

- CPU, 10**6 x 20 (``--cpu-n``, ``--cpu-q``), Heydarian, unweighted, for
  the matrix, ``decide_labels`` (threshold 0.5, top 3), the threshold curve
  (``--thresholds`` thresholds, macro F1), ``labelset_confusions``, the
  accumulator (ten batches) and ``MLCMReport.from_predictions`` with scores:
  NumPy arrays; torch CPU tensors under ``array_api_dispatch`` (read in
  place by the NumPy code, the shipped path); the same tensors through the
  namespace's products and comparisons (the path a GPU takes, forced on the
  CPU; ``--no-products`` leaves these out). Every torch result is checked
  against NumPy's before it is timed.
- GPU, 10**7 x 100 (``--gpu-n``, ``--gpu-q``), where CUDA is present: the
  MLCM, ``decide_labels``, the curve and the label-set confusions of CUDA
  tensors; torchmetrics' one-vs-rest ``MultilabelConfusionMatrix`` on the
  same tensors; reading both inputs once (a sum of each), the floor of any
  count. Without CUDA these rows say that they were not measured.

Run from the repository root: ``PYTHONPATH=$PWD python benchmarks/bench_array_api.py``
(``SCIPY_ARRAY_API=1`` is set here, as scikit-learn's dispatch needs it).
"""

import argparse
import contextlib
import os
import statistics
import time

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np  # noqa: E402 (after SCIPY_ARRAY_API)
import sklearn  # noqa: E402

import sklearn_mlcm  # noqa: E402
from sklearn_mlcm import (  # noqa: E402
    MLCMAccumulator,
    MLCMReport,
    decide_labels,
    labelset_confusions,
    mlcm_confusion_matrix,
    mlcm_threshold_curve,
)
from sklearn_mlcm._thresholds import _validation as _scores  # noqa: E402
from sklearn_mlcm._validation import _array_api  # noqa: E402


def timed(func, repeat, sync=lambda: None):
    times = []
    for _ in range(repeat):
        sync()
        start = time.perf_counter()
        func()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextlib.contextmanager
def products():
    """The namespace's path (a GPU's) forced on CPU tensors."""
    saved = _array_api.host_view, _scores.host_view
    _array_api.host_view = _scores.host_view = lambda y, xp: None
    try:
        yield
    finally:
        _array_api.host_view, _scores.host_view = saved


def _data(n, q):
    rng = np.random.default_rng(0)
    y_true = rng.random((n, q)) < 0.1
    y_score = np.round(0.6 * y_true + 0.4 * rng.random((n, q)), 3)
    y_pred = y_score >= 0.5
    return y_true, y_pred, y_score


def _accumulate(y_true, y_pred, q, n_batches=10):
    acc = MLCMAccumulator(q)
    step = -(-y_true.shape[0] // n_batches)
    for start in range(0, y_true.shape[0], step):
        acc.update(y_true[start : start + step], y_pred[start : start + step])
    return acc.confusion_matrix


def _calls(y_true, y_pred, y_score, q, thresholds):
    """name -> (call of (t, p, s), comparable value of its result)."""
    quiet = {"zero_division": 0.0}

    def host(x):
        return x.numpy() if hasattr(x, "numpy") else np.asarray(x)

    return {
        "mlcm_confusion_matrix": (
            lambda t, p, s: mlcm_confusion_matrix(t, p),
            lambda r: host(r).tolist(),
        ),
        "decide_labels (0.5, top 3)": (
            lambda t, p, s: decide_labels(s, threshold=0.5, top_k=3),
            lambda r: int(host(r).sum()),
        ),
        f"mlcm_threshold_curve ({thresholds} thr.)": (
            lambda t, p, s: mlcm_threshold_curve(t, s, thresholds=thresholds),
            lambda r: r.label_scores.tolist(),
        ),
        "labelset_confusions": (
            lambda t, p, s: labelset_confusions(t, p),
            lambda r: list(r),
        ),
        "MLCMAccumulator, 10 batches": (
            lambda t, p, s: _accumulate(t, p, q),
            lambda r: host(r).tolist(),
        ),
        "MLCMReport.from_predictions": (
            lambda t, p, s: MLCMReport.from_predictions(
                t, p, y_score=s, thresholds=thresholds, **quiet
            ),
            lambda r: repr(r),
        ),
    }


def cpu_rows(n, q, repeat, thresholds, with_products):
    """(name, NumPy s, torch in place s, torch products s or None) rows."""
    import torch

    y_true, y_pred, y_score = _data(n, q)
    tensors = tuple(torch.from_numpy(a) for a in (y_true, y_pred, y_score))
    rows = []
    for name, (call, value) in _calls(y_true, y_pred, y_score, q, thresholds).items():
        expected = value(call(y_true, y_pred, y_score))
        numpy_s = timed(lambda: call(y_true, y_pred, y_score), repeat)
        with sklearn.config_context(array_api_dispatch=True):
            assert value(call(*tensors)) == expected, name
            in_place = timed(lambda: call(*tensors), repeat)
            forced = None
            if with_products:
                with products():
                    assert value(call(*tensors)) == expected, name
                    forced = timed(lambda: call(*tensors), repeat)
        rows.append((name, numpy_s, in_place, forced))
    return rows


def gpu_rows(n, q, repeat, thresholds):
    import torch

    device = torch.device("cuda")
    generator = torch.Generator(device=device).manual_seed(0)
    t = torch.rand((n, q), device=device, generator=generator) < 0.1
    s = torch.rand((n, q), device=device, generator=generator) * 0.4 + 0.6 * t
    p = s >= 0.5
    sync = torch.cuda.synchronize
    rows = []
    with sklearn.config_context(array_api_dispatch=True):
        for name, call in (
            ("MLCM, CUDA tensors", lambda: mlcm_confusion_matrix(t, p)),
            ("decide_labels (0.5, top 3)", lambda: decide_labels(s, top_k=3)),
            (
                f"mlcm_threshold_curve ({thresholds} thr.)",
                lambda: mlcm_threshold_curve(t, s, thresholds=thresholds),
            ),
            ("labelset_confusions", lambda: labelset_confusions(t, p)),
        ):
            rows.append((name, timed(call, repeat, sync)))
    try:
        from torchmetrics.classification import MultilabelConfusionMatrix
    except ImportError:
        rows.append(("torchmetrics MultilabelConfusionMatrix", None))
    else:
        metric = MultilabelConfusionMatrix(num_labels=q).to(device)
        ti, pi = t.to(torch.int8), p.to(torch.int8)

        def one_vs_rest():
            metric.reset()
            metric.update(pi, ti)
            return metric.compute()

        rows.append(
            ("torchmetrics MultilabelConfusionMatrix", timed(one_vs_rest, repeat, sync))
        )
    rows.append(
        (
            "reading both inputs once",
            timed(
                lambda: (t.sum(dtype=torch.int64), p.sum(dtype=torch.int64)),
                repeat,
                sync,
            ),
        )
    )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-n", type=int, default=10**6)
    parser.add_argument("--cpu-q", type=int, default=20)
    parser.add_argument("--gpu-n", type=int, default=10**7)
    parser.add_argument("--gpu-q", type=int, default=100)
    parser.add_argument("--thresholds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-products", action="store_true")
    args = parser.parse_args()
    import torch

    print(f"sklearn_mlcm from {os.path.dirname(sklearn_mlcm.__file__)}")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"\nCPU, {args.cpu_n} x {args.cpu_q}, Heydarian, unweighted")
    rows = cpu_rows(
        args.cpu_n, args.cpu_q, args.repeat, args.thresholds, not args.no_products
    )
    print(
        f"  {'name':<40} {'NumPy s':>9} {'in place s':>11} {'ratio':>6} "
        f"{'products s':>11} {'ratio':>6}"
    )
    for name, numpy_s, in_place, forced in rows:
        line = f"  {name:<40} {numpy_s:9.4f} {in_place:11.4f} {in_place / numpy_s:6.2f}"
        if forced is not None:
            line += f" {forced:11.4f} {forced / numpy_s:6.2f}"
        print(line)
    print(f"\nGPU, {args.gpu_n} x {args.gpu_q}, Heydarian, unweighted")
    if not torch.cuda.is_available():
        print("  not measured: no CUDA device here")
        return
    print(f"  {torch.cuda.get_device_name()}")
    rows = gpu_rows(args.gpu_n, args.gpu_q, args.repeat, args.thresholds)
    floor = rows[-1][1]
    for name, seconds in rows:
        if seconds is None:
            print(f"  {name:<40} not measured: torchmetrics is not installed")
        else:
            print(f"  {name:<40} {seconds:8.4f} s  {seconds / floor:6.1f}x reading")


if __name__ == "__main__":
    main()
