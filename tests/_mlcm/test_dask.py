"""Dask input on a real distributed LocalCluster: 2 worker processes, loopback."""

import subprocess
import sys

import numpy as np
import pytest
from _oracles import heydarian_oracle, krstinic_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_mlcm import (
    InvalidInputError,
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_f1_score,
)

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

ORACLES = {"heydarian": heydarian_oracle, "krstinic": krstinic_oracle}


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two worker processes on 127.0.0.1, stopped afterwards.

    Its HTTP server takes a free port (":0"): with None it tries 8787 and warns
    when another cluster (another suite on the machine, another pytest-xdist
    worker) holds it.
    """
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    y_true = rng.random((5000, 12)) < 0.2
    y_pred = rng.random((5000, 12)) < 0.2
    y_true[:300] = False
    weight = rng.random(5000) * 3
    return y_true, y_pred, weight


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
def test_dask_mlcm_confusion_matrix_equals_numpy(client, data, method):
    """Chunked along rows, computed on the workers: equal to the NumPy result."""
    y_true, y_pred, weight = data
    dt = da.from_array(y_true, chunks=(700, 12))
    dp = da.from_array(y_pred, chunks=(700, 12))
    for w in (None, weight):
        expected = mlcm_confusion_matrix(y_true, y_pred, method=method, sample_weight=w)
        result = mlcm_confusion_matrix(dt, dp, method=method, sample_weight=w)
        assert isinstance(result, np.ndarray)
        assert result.dtype == expected.dtype
        assert_allclose(result, expected, rtol=1e-12)
    # the workers did the counting: one task per chunk ran on the cluster
    assert len(client.scheduler_info()["workers"]) == 2


def test_dask_compute_false_is_lazy(client, data):
    """compute=False returns a dask array; normalising stays lazy too."""
    y_true, y_pred, _ = data
    dt = da.from_array(y_true, chunks=(1000, 6))  # column chunks are joined
    dp = da.from_array(y_pred, chunks=(1500, 12))  # y_pred follows y_true
    lazy = mlcm_confusion_matrix(dt, dp, compute=False, normalize="true")
    assert isinstance(lazy, da.Array)
    assert lazy.shape == (13, 13)
    expected = mlcm_confusion_matrix(y_true, y_pred, normalize="true")
    assert_allclose(lazy.compute(), expected)
    raw = mlcm_confusion_matrix(dt, dp, compute=False, labels=[3, 1])
    assert_array_equal(
        raw.compute(), mlcm_confusion_matrix(y_true, y_pred, labels=[3, 1])
    )


def test_dask_report_scores_and_accumulator(client, data):
    """The report, the scores and the accumulator take dask input too."""
    y_true, y_pred, weight = data
    dt = da.from_array(y_true, chunks=(800, 12))
    dp = da.from_array(y_pred, chunks=(800, 12))
    dw = da.from_array(weight, chunks=800)
    options = {"digits": 4, "zero_division": 0.0}
    assert mlcm_classification_report(dt, dp, sample_weight=dw, **options) == (
        mlcm_classification_report(y_true, y_pred, sample_weight=weight, **options)
    )
    samples = {"average": "samples", "zero_division": 0.0}
    assert mlcm_f1_score(dt, dp, sample_weight=dw, **samples) == pytest.approx(
        mlcm_f1_score(y_true, y_pred, sample_weight=weight, **samples), rel=1e-12
    )
    assert mlcm_f1_score(dt, dp, average="micro") == pytest.approx(
        mlcm_f1_score(y_true, y_pred, average="micro")
    )
    acc = MLCMAccumulator(12).update(dt, dp)
    assert_array_equal(acc.confusion_matrix, mlcm_confusion_matrix(y_true, y_pred))


def test_dask_bad_chunk_raises_on_compute(client, data):
    """A 2 in one chunk raises the same error as NumPy input, naming the
    public function also when the worker (another process) finds it, and when
    a lazy result is computed after the call has returned."""
    y_true, y_pred, _ = data
    bad = y_pred.astype(np.int8)
    bad[4321, 5] = 2
    dt, dp = da.from_array(y_true, chunks=1000), da.from_array(bad, chunks=1000)
    message = "y_pred of mlcm_confusion_matrix must contain only 0 and 1; found 2"
    with pytest.raises(InvalidInputError, match=message):
        mlcm_confusion_matrix(dt, dp)
    lazy = mlcm_confusion_matrix(dt, dp, compute=False)
    with pytest.raises(InvalidInputError, match=message):
        lazy.compute()


def test_dask_shape_errors():
    """Shapes and options are checked before anything runs."""
    a = da.zeros((10, 3), chunks=5, dtype=bool)
    with pytest.raises(ValueError, match="same number of label columns"):
        mlcm_confusion_matrix(a, da.zeros((10, 4), chunks=5, dtype=bool))
    with pytest.raises(ValueError, match="same number of samples. Got 10 and 8"):
        mlcm_confusion_matrix(a, da.zeros((8, 3), chunks=4, dtype=bool))
    with pytest.raises(ValueError, match="must be 2-D indicator matrices"):
        mlcm_confusion_matrix(da.zeros(10, chunks=5), da.zeros(10, chunks=5))
    with pytest.raises(ValueError, match="'sparse_output' parameter .*must be False"):
        mlcm_confusion_matrix(a, a, sparse_output=True, compute=False)
    with pytest.raises(ValueError, match="empty \\(0 samples\\)"):
        mlcm_confusion_matrix(a[:0], a[:0])
    with pytest.raises(ValueError, match="'sample_weight' .*n_samples=10"):
        mlcm_confusion_matrix(a, a, sample_weight=np.ones(3))
    unknown = a[a[:, 0] >= 0]  # unknown chunk sizes
    with pytest.raises(ValueError, match="known chunk sizes"):
        mlcm_confusion_matrix(unknown, unknown)


def test_import_does_not_import_dask():
    """Importing the package (and using it on NumPy) never imports dask."""
    code = (
        "import sys, sklearn_mlcm; "
        "sklearn_mlcm.mlcm_confusion_matrix([[1, 0]], [[1, 1]]); "
        "print('dask' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


# dask before 2024 warns when the synchronous scheduler is chosen while a
# distributed client (this module's, if its tests ran first) is the default one:
# choosing the local scheduler is this test's point
@pytest.mark.filterwarnings(
    "ignore:Running on a single-machine scheduler when a distributed client is "
    "active:UserWarning"
)
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_dask_matches_oracle(method, data, mlcm_strategies):
    """Any chunking along the rows gives the oracle's matrix (local scheduler)."""
    import dask

    y_true, y_pred, weight = data.draw(mlcm_strategies.cases(max_labels=5))
    chunk = data.draw(st.integers(1, len(y_true)))
    dt = da.from_array(y_true, chunks=(chunk, -1))
    dp = da.from_array(y_pred, chunks=(chunk, -1))
    with dask.config.set(scheduler="synchronous"):
        result = mlcm_confusion_matrix(dt, dp, method=method, sample_weight=weight)
    expected = ORACLES[method](y_true, y_pred, weight)
    if method == "heydarian" and weight is None:
        assert_array_equal(result, expected)
    else:
        assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def test_dask_dataframe_and_mixed_input_refused():
    """A dask DataFrame, or dask mixed with NumPy/pandas, is a clear TypeError."""
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    y = np.array([[1, 0, 1], [0, 1, 0]], dtype=bool)
    frame = dd.from_pandas(pd.DataFrame(y, columns=list("abc")), npartitions=1)
    with pytest.raises(TypeError, match=r"dask DataFrame; .*to_dask_array"):
        mlcm_confusion_matrix(frame, frame)
    with pytest.raises(TypeError, match="both be dask arrays or neither"):
        mlcm_confusion_matrix(da.from_array(y), pd.DataFrame(y))
    with pytest.raises(TypeError, match="both be dask arrays or neither"):
        mlcm_confusion_matrix(y, da.from_array(y))


def test_dask_accumulator_unknown_chunks():
    """Unknown chunk sizes get the dask message, not a NaN conversion error."""
    a = da.zeros((10, 3), chunks=5, dtype=bool)
    unknown = a[a[:, 0] >= 0]
    with pytest.raises(ValueError, match="known chunk sizes"):
        MLCMAccumulator(3).update(unknown, unknown)


def test_dask_weights_overflowing_across_chunks_are_refused():
    """Each chunk's weights fit float64, their total does not: refused with a
    way out, not an infinite matrix (#16 item 3); a chunk that overflows on
    its own is refused as NumPy input is."""
    from sklearn_mlcm import InvalidInputError

    y = da.from_array(np.array([[1, 0], [0, 1]] * 200), chunks=4)
    weight = da.from_array(np.full(400, 1e306), chunks=4)
    with pytest.raises(InvalidInputError, match="chunks' weights together"):
        mlcm_confusion_matrix(y, y, sample_weight=weight)
    with pytest.raises(InvalidInputError, match="'sample_weight' parameter"):
        mlcm_confusion_matrix(y, y, sample_weight=weight * 100)
    scaled = mlcm_confusion_matrix(y, y, sample_weight=weight / 1e306)
    np.testing.assert_array_equal(scaled, [[200, 0, 0], [0, 200, 0], [0, 0, 0]])
