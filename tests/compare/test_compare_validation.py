"""The comparison half reads frames with the package's one frame reader.

Decision matrices, rank tables, correlation matrices, label scores and long
results tables are accepted from pandas, polars, pyarrow and xarray, as the
targets of the MLCM half are, and give the values of the NumPy input with the
frame's column names.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_mlcm import (
    entropy_weights,
    friedman_test,
    fuse_measures,
    least_correlated_measures,
    measure_directions,
    multilabel_measures,
    promethee_ii,
)

X = np.array([[0.80, 0.10], [0.70, 0.05], [0.60, 0.20]])
MEASURES = ["accuracy", "hamming_loss"]


def _pandas(columns):
    return pytest.importorskip("pandas").DataFrame(columns)


def _polars(columns):
    return pytest.importorskip("polars").DataFrame(columns)


def _pyarrow(columns):
    return pytest.importorskip("pyarrow").table(columns)


def _xarray(columns):
    """A 2-D DataArray named by the coordinate of its second dimension (numbers
    only: a DataArray has one dtype)."""
    xr = pytest.importorskip("xarray")
    names = list(columns)
    values = np.column_stack([np.asarray(columns[n]) for n in names])
    return xr.DataArray(values, dims=("row", "column"), coords={"column": names})


LIBRARIES = {"pandas": _pandas, "polars": _polars, "pyarrow": _pyarrow}
NUMERIC_LIBRARIES = {**LIBRARIES, "xarray": _xarray}


def _table(make, values, names):
    return make({name: values[:, j] for j, name in enumerate(names)})


@pytest.mark.parametrize("library", NUMERIC_LIBRARIES)
def test_decision_matrix_frames_of_every_library(library):
    """promethee_ii and entropy_weights read the measure names of any frame."""
    frame = _table(NUMERIC_LIBRARIES[library], X, MEASURES)
    directions = measure_directions()
    expected = promethee_ii(X, maximize=[True, False])
    assert_allclose(
        promethee_ii(frame, maximize=directions).net_flow, expected.net_flow
    )
    assert_allclose(
        entropy_weights(frame, maximize=directions),
        entropy_weights(X, maximize=[True, False]),
    )


@pytest.mark.parametrize("library", NUMERIC_LIBRARIES)
def test_rank_table_and_correlation_frames_of_every_library(library):
    """friedman_test and least_correlated_measures name the columns of any frame."""
    make = NUMERIC_LIBRARIES[library]
    ranks = np.array([[1.0, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    result = friedman_test(_table(make, ranks, ["BR", "CC", "kNN"]))
    assert_allclose(result.average_ranks, friedman_test(ranks).average_ranks)
    assert list(result.names) == ["BR", "CC", "kNN"]
    corr = np.array([[1.0, 0.95, 0.3], [0.95, 1.0, 0.5], [0.3, 0.5, 1.0]])
    frame = _table(make, corr, ["a", "b", "c"])
    assert least_correlated_measures(frame, threshold=0.9) == ["a", "c"]


@pytest.mark.parametrize("library", LIBRARIES)
def test_long_results_frames_of_every_library(library):
    """fuse_measures reads a long results table of any frame library."""
    rng = np.random.default_rng(0)
    cube = rng.uniform(size=(2, 3, 2))
    rows = [
        (d, m, MEASURES[j], cube[i, k, j])
        for i, d in enumerate(["emotions", "scene"])
        for k, m in enumerate(["BR", "CC", "kNN"])
        for j in range(2)
    ]
    columns = dict(zip(["dataset", "method", "measure", "value"], zip(*rows)))
    frame = LIBRARIES[library]({k: list(v) for k, v in columns.items()})
    expected = fuse_measures(cube, maximize=[True, False])
    result = fuse_measures(frame, maximize=measure_directions())
    assert_allclose(np.asarray(result), np.asarray(expected))


@pytest.mark.parametrize("library", LIBRARIES)
def test_label_score_frames_of_every_library(library):
    """multilabel_measures matches y_score's columns to the targets' by name."""
    make = LIBRARIES[library]
    t = np.eye(3, dtype=int)
    s = np.array([[0.9, 0.5, 0.1], [0.2, 0.7, 0.1], [0.1, 0.3, 0.8]])
    names = ["a", "b", "c"]
    frame = _table(make, t, names)
    score = _table(make, s[:, ::-1], names[::-1])
    values = multilabel_measures(frame, frame, score, measures=["coverage"])
    assert values == multilabel_measures(t, t, s, measures=["coverage"])
