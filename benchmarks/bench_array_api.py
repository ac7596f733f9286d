"""Array API input: NumPy, torch on the CPU and, where CUDA is present, the GPU.

Rows (median of ``--repeat`` runs, seconds):

- CPU, 10**6 x 20 (``--cpu-n``, ``--cpu-q``), Heydarian unweighted:
  NumPy arrays; torch CPU tensors under ``array_api_dispatch`` (counted in
  place by the NumPy kernels, the shipped path); the same tensors through
  the namespace's matrix products (the path a GPU takes, forced on the CPU).
- GPU, 10**7 x 100 (``--gpu-n``, ``--gpu-q``), where CUDA is present: the
  MLCM of CUDA tensors; torchmetrics' one-vs-rest ``MultilabelConfusionMatrix``
  on the same tensors; reading both inputs once (a sum of each), the floor of
  any count. Without CUDA these rows say that they were not measured.

Run from the repository root: ``PYTHONPATH=$PWD python benchmarks/bench_array_api.py``
(``SCIPY_ARRAY_API=1`` is set here, as scikit-learn's dispatch needs it).
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np  # noqa: E402 (after SCIPY_ARRAY_API)
import sklearn  # noqa: E402

import sklearn_mlcm  # noqa: E402
from sklearn_mlcm import mlcm_confusion_matrix  # noqa: E402
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


def cpu_rows(n, q, repeat):
    import torch

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.random((n, q)) < 0.1, rng.random((n, q)) < 0.1
    t, p = torch.from_numpy(y_true), torch.from_numpy(y_pred)
    expected = mlcm_confusion_matrix(y_true, y_pred)
    rows = [
        ("NumPy arrays", timed(lambda: mlcm_confusion_matrix(y_true, y_pred), repeat))
    ]
    with sklearn.config_context(array_api_dispatch=True):
        assert (mlcm_confusion_matrix(t, p).numpy() == expected).all()
        rows.append(
            ("torch CPU, in place", timed(lambda: mlcm_confusion_matrix(t, p), repeat))
        )
        view = _array_api.host_view
        _array_api.host_view = lambda y, xp: None
        try:
            assert (mlcm_confusion_matrix(t, p).numpy() == expected).all()
            rows.append(
                (
                    "torch CPU, products",
                    timed(lambda: mlcm_confusion_matrix(t, p), repeat),
                )
            )
        finally:
            _array_api.host_view = view
    return rows


def gpu_rows(n, q, repeat):
    import torch

    device = torch.device("cuda")
    generator = torch.Generator(device=device).manual_seed(0)
    t = torch.rand((n, q), device=device, generator=generator) < 0.1
    p = torch.rand((n, q), device=device, generator=generator) < 0.1
    sync = torch.cuda.synchronize
    rows = []
    with sklearn.config_context(array_api_dispatch=True):
        rows.append(
            (
                "MLCM, CUDA tensors",
                timed(lambda: mlcm_confusion_matrix(t, p), repeat, sync),
            )
        )
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
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import torch

    print(f"sklearn_mlcm from {os.path.dirname(sklearn_mlcm.__file__)}")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"\nCPU, {args.cpu_n} x {args.cpu_q}, Heydarian, unweighted")
    rows = cpu_rows(args.cpu_n, args.cpu_q, args.repeat)
    base = rows[0][1]
    for name, seconds in rows:
        print(f"  {name:<40} {seconds:8.4f} s  {seconds / base:5.2f}x NumPy")
    print(f"\nGPU, {args.gpu_n} x {args.gpu_q}, Heydarian, unweighted")
    if not torch.cuda.is_available():
        print("  not measured: no CUDA device here")
        return
    print(f"  {torch.cuda.get_device_name()}")
    rows = gpu_rows(args.gpu_n, args.gpu_q, args.repeat)
    floor = rows[-1][1]
    for name, seconds in rows:
        if seconds is None:
            print(f"  {name:<40} not measured: torchmetrics is not installed")
        else:
            print(f"  {name:<40} {seconds:8.4f} s  {seconds / floor:6.1f}x reading")


if __name__ == "__main__":
    main()
