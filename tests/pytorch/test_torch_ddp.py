"""MLCMMetric across processes: two gloo ranks on the CPU give one process's
matrix and report, bit for bit with integer weights."""

import pickle
import socket

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix

torch = pytest.importorskip(
    "torch",
    reason="sklearn_mlcm.torch needs PyTorch: pip install 'sklearn-mlcm[torch]'",
)
pytest.importorskip(
    "torchmetrics",
    reason="sklearn_mlcm.torch needs torchmetrics: pip install 'sklearn-mlcm[torch]'",
)

WORLD_SIZE = 2


def _free_port():
    """A TCP port free on 127.0.0.1 now (the ranks meet there)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cases():
    """Each method's case: scores, targets (an empty row and a full row
    among them) and integer weights; rank r updates rows r, r + 2, ...
    in batches of uneven sizes."""
    rng = np.random.default_rng(33)
    n, q = 203, 5
    y_true = (rng.random((n, q)) < 0.35).astype(np.int64)
    y_true[0] = 0
    y_true[1] = 1
    scores = rng.random((n, q))
    weight = rng.integers(0, 4, n).astype(np.float64)
    return y_true, scores, weight


def _rank(rank, port, folder):
    """One rank: its share of the rows, then compute() and to_report(),
    which synchronise the states of both ranks (written to ``folder``)."""
    import torch.distributed as dist

    from sklearn_mlcm.torch import MLCMMetric

    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=WORLD_SIZE,
    )
    try:
        y_true, scores, weight = _cases()
        mine = np.arange(rank, len(y_true), WORLD_SIZE)
        results = {}
        for method in ("heydarian", "krstinic"):
            for weighted in (False, True):
                metric = MLCMMetric(y_true.shape[1], method=method)
                for batch in np.array_split(mine, 3 + rank):
                    metric.update(
                        torch.as_tensor(scores[batch]),
                        torch.as_tensor(y_true[batch]),
                        torch.as_tensor(weight[batch]) if weighted else None,
                    )
                matrix = metric.compute().numpy()
                report = metric.to_report(zero_division=0.0)
                results[method, weighted] = (matrix, report.report, report.n_samples)
        # rank 1 sees nothing: its empty states join rank 0's
        metric = MLCMMetric(y_true.shape[1])
        if rank == 0:
            metric.update(torch.as_tensor(scores), torch.as_tensor(y_true))
        report = metric.to_report(zero_division=0.0)
        results["idle rank"] = (metric.compute().numpy(), report.report, None)
        (folder / f"rank{rank}.pkl").write_bytes(pickle.dumps(results))
    finally:
        dist.destroy_process_group()


def test_mlcm_metric_ddp_two_processes_equal_one_process(tmp_path):
    """Two gloo processes on localhost: each rank's synchronised matrix (and
    report) is the one-shot matrix of all the rows, bit for bit for counts
    and integer weights (both methods' sums of integers; the Krstinic
    matrix's fractions up to rounding)."""
    import torch.multiprocessing as mp

    mp.spawn(_rank, args=(_free_port(), tmp_path), nprocs=WORLD_SIZE, join=True)
    y_true, scores, weight = _cases()
    y_pred = scores > 0.5
    for rank in range(WORLD_SIZE):
        results = pickle.loads((tmp_path / f"rank{rank}.pkl").read_bytes())
        matrix, report, _ = results.pop("idle rank")
        assert_array_equal(matrix, mlcm_confusion_matrix(y_true, y_pred))
        assert report == mlcm_classification_report(
            y_true, y_pred, output_dict=True, zero_division=0.0
        )
        for (method, weighted), (matrix, report, n) in results.items():
            w = weight if weighted else None
            expected = mlcm_confusion_matrix(
                y_true, y_pred, method=method, sample_weight=w
            )
            assert n == len(y_true)
            if method == "heydarian":
                assert matrix.dtype == (np.float64 if weighted else np.int64)
                assert_array_equal(matrix, expected)
            else:
                np.testing.assert_allclose(matrix, expected, rtol=1e-13)
            one_shot = mlcm_classification_report(
                y_true,
                y_pred,
                method=method,
                sample_weight=w,
                output_dict=True,
                zero_division=0.0,
            )
            if method == "heydarian":
                assert report == one_shot
