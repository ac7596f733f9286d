"""Frames of every library are aligned by label name, or refused.

pandas, polars, pyarrow, xarray and any library of the dataframe interchange
protocol: the column names are the label names, y_pred's columns are matched
to y_true's by name, ``labels`` are column names, the report names its rows
after them, and an accumulator remembers them across batches.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import (
    MLCMAccumulator,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
NAMES = ["a", "b", "c"]


def _pandas(y, names):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame(y, columns=names)


def _polars(y, names):
    pl = pytest.importorskip("polars")
    return pl.DataFrame({n: y[:, i] for i, n in enumerate(names)})


def _pyarrow(y, names):
    pa = pytest.importorskip("pyarrow")
    return pa.table({n: y[:, i] for i, n in enumerate(names)})


def _xarray(y, names):
    xr = pytest.importorskip("xarray")
    return xr.DataArray(y, dims=("sample", "label"), coords={"label": names})


def _interchange(y, names):
    """A frame known to the package only through ``__dataframe__`` (the
    interchange protocol, which pandas 3 deprecates)."""
    frame = _pandas(y, names)

    class Foreign:
        def __dataframe__(self, nan_as_null=False, allow_copy=True):
            return frame.__dataframe__(nan_as_null, allow_copy)

    return Foreign()


def _arrow_stream(y, names):
    """A frame known to the package only through the Arrow PyCapsule stream."""
    table = _pyarrow(y, names)

    class Foreign:
        def __arrow_c_stream__(self, requested_schema=None):
            return table.__arrow_c_stream__(requested_schema)

    return Foreign()


FRAMES = {
    "pandas": _pandas,
    "polars": _polars,
    "pyarrow": _pyarrow,
    "xarray": _xarray,
    "interchange": _interchange,
    "arrow_stream": _arrow_stream,
}


@pytest.mark.parametrize("library", FRAMES)
def test_frames_reordered_columns_are_aligned_by_name(library):
    """y_pred with its columns in another order gives the aligned matrix."""
    make = FRAMES[library]
    order = [2, 0, 1]
    y_true = make(T, NAMES)
    y_pred = make(P[:, order], [NAMES[i] for i in order])
    expected = mlcm_confusion_matrix(T, P)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)


@pytest.mark.parametrize("library", FRAMES)
def test_frames_other_columns_are_refused(library):
    """y_pred with another set of names is refused, naming the differences."""
    make = FRAMES[library]
    with pytest.raises(ValueError, match=r"different columns.*from y_pred: \['c'\]"):
        mlcm_confusion_matrix(make(T, NAMES), make(P, ["a", "b", "z"]))


@pytest.mark.parametrize("library", FRAMES)
def test_frames_labels_are_column_names(library):
    """labels= names columns, and the report names its rows after them."""
    make = FRAMES[library]
    y_true, y_pred = make(T, NAMES), make(P, NAMES)
    assert_array_equal(
        mlcm_confusion_matrix(y_true, y_pred, labels=["c", "a"]),
        mlcm_confusion_matrix(T[:, [2, 0]], P[:, [2, 0]]),
    )
    report = mlcm_classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0
    )
    assert list(report)[:3] == NAMES


def _repeating_pyarrow(y, names):
    """A pyarrow table whose column names may repeat (pa.table cannot)."""
    pa = pytest.importorskip("pyarrow")
    return pa.Table.from_arrays([pa.array(column) for column in y.T], names=names)


@pytest.mark.parametrize(
    "make",
    [_pandas, _repeating_pyarrow, _xarray],
    ids=["pandas", "pyarrow", "xarray"],
)
def test_frames_repeated_names_are_refused_where_matched_by_name(make):
    """Columns that repeat a name cannot be matched by it: reordered frames,
    labels naming it, and an accumulator's batches are refused, naming the
    repeated names (labels=['a'] took the last column 'a', silently). Frames
    in the same order are taken as they are, column by column."""
    repeated, reordered = ["a", "a", "b"], ["b", "a", "a"]
    y_true, y_pred = make(T, repeated), make(P, repeated)
    match = r"frames whose columns are matched by name, and the names \['a'\] repeat"
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(y_true, make(P[:, [2, 0, 1]], reordered))
    match = r"'labels' parameter .* columns that the DataFrame repeats, \['a'\]"
    with pytest.raises(ValueError, match=match):
        mlcm_confusion_matrix(y_true, y_pred, labels=["a"])
    assert_array_equal(
        mlcm_confusion_matrix(y_true, y_pred, labels=["b"]),
        mlcm_confusion_matrix(T[:, [2]], P[:, [2]]),
    )
    expected = mlcm_confusion_matrix(T, P)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)
    match = r"must have distinct names: .* the names \['a'\] repeat"
    with pytest.raises(ValueError, match=match):
        MLCMAccumulator(3).update(y_true, y_pred)


def test_frames_mixed_libraries_are_aligned():
    """A polars y_true and a pandas y_pred are matched by name too."""
    y_pred = _pandas(P[:, [1, 2, 0]], ["b", "c", "a"])
    assert_array_equal(
        mlcm_confusion_matrix(_polars(T, NAMES), y_pred), mlcm_confusion_matrix(T, P)
    )


def test_frames_polars_lazy_frame_is_refused():
    """A LazyFrame must be collected first."""
    with pytest.raises(TypeError, match="polars LazyFrame; collect it first"):
        mlcm_confusion_matrix(_polars(T, NAMES).lazy(), P)


def test_frames_polars_nulls_are_refused():
    """A missing value is not a 0/1 indicator."""
    pl = pytest.importorskip("polars")
    y = pl.DataFrame({"a": [1, None], "b": [0, 1]})
    with pytest.raises(ValueError, match="y_true of mlcm_confusion_matrix"):
        mlcm_confusion_matrix(y, np.zeros((2, 2)))


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_accumulator_aligns_batches_by_name(library):
    """A later batch with reordered columns is added to the right cells."""
    make = FRAMES[library]
    acc = MLCMAccumulator(3)
    acc.update(make(T[:5], NAMES), make(P[:5], NAMES))
    order = [2, 0, 1]
    names = [NAMES[i] for i in order]
    acc.update(make(T[5:, order], names), make(P[5:, order], names))
    assert_array_equal(acc.confusion_matrix, mlcm_confusion_matrix(T, P))
    assert acc.target_names_ == NAMES
    with pytest.raises(ValueError, match=r"accumulator.s labels \[.a., .b., .c.\]"):
        acc.update(make(T, ["a", "b", "z"]), make(P, ["a", "b", "z"]))


def test_accumulator_krstinic_frames():
    """Alignment holds for the fractional matrix too."""
    acc = MLCMAccumulator(3, method="krstinic")
    acc.update(_pandas(T[:4], NAMES), _pandas(P[:4], NAMES))
    acc.update(_pandas(T[4:, ::-1], NAMES[::-1]), _pandas(P[4:, ::-1], NAMES[::-1]))
    expected = mlcm_confusion_matrix(T, P, method="krstinic")
    assert_allclose(acc.confusion_matrix, expected)


# 1-D objects of every library: class labels, never a one-column indicator.
def _labels_pandas(values):
    return pytest.importorskip("pandas").Series(values)


def _labels_polars(values):
    return pytest.importorskip("polars").Series(values)


def _labels_pyarrow_array(values):
    return pytest.importorskip("pyarrow").array(values)


def _labels_pyarrow_chunked(values):
    pa = pytest.importorskip("pyarrow")
    return pa.chunked_array([values[:2], values[2:]])


def _labels_xarray(values):
    return pytest.importorskip("xarray").DataArray(values, dims="sample")


def _labels_arrow_stream(values):
    """Class labels known to the package only through the Arrow PyCapsule
    stream (a non-struct stream: one column, not a table)."""
    chunked = _labels_pyarrow_chunked(values)
    if not hasattr(chunked, "__arrow_c_stream__"):
        pytest.skip("pyarrow 14 (the oldest supported) has no ChunkedArray stream")

    class Foreign:
        def __arrow_c_stream__(self, requested_schema=None):
            return chunked.__arrow_c_stream__(requested_schema)

    return Foreign()


LABELS_1D = {
    "pandas": _labels_pandas,
    "polars": _labels_polars,
    "pyarrow_array": _labels_pyarrow_array,
    "pyarrow_chunked": _labels_pyarrow_chunked,
    "xarray": _labels_xarray,
    "arrow_stream": _labels_arrow_stream,
}


@pytest.mark.parametrize("library", LABELS_1D)
@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([0, 1, 1, 0, 2], [0, 1, 0, 0, 2]),
        ([0, 1, 1, 0], [0, 1, 0, 0]),  # two classes: still a 3x3 matrix
        (["a", "b", "b", "c"], ["a", "c", "b", "b"]),
        ([0.0, 2.0, 1.0, 2.0], [2.0, 2.0, 1.0, 0.0]),
    ],
)
def test_frames_1d_objects_are_class_labels(library, y_true, y_pred):
    """A 1-D object of any library gives the matrix of the NumPy 1-D input
    (class labels), never that of a one-column indicator matrix."""
    make = LABELS_1D[library]
    expected = mlcm_confusion_matrix(np.array(y_true), np.array(y_pred))
    assert expected.shape == (len(set(y_true) | set(y_pred)) + 1,) * 2
    assert_array_equal(mlcm_confusion_matrix(make(y_true), make(y_pred)), expected)
    # and mixed with a NumPy array or a list
    assert_array_equal(mlcm_confusion_matrix(make(y_true), list(y_pred)), expected)
    report = mlcm_classification_report(make(y_true), make(y_pred), output_dict=True)
    assert list(report)[: expected.shape[0] - 1] == [
        str(c) for c in np.unique(np.array(y_true + y_pred))
    ]


def test_frames_pyarrow_interchange_object():
    """An object of the dataframe interchange protocol made by pyarrow
    (``table.__dataframe__()``) is read as the frame it describes."""
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("pandas")
    y_true = pa.table({n: T[:, i] for i, n in enumerate(NAMES)}).__dataframe__()
    order = [2, 0, 1]
    y_pred = pa.table({NAMES[i]: P[:, i] for i in order}).__dataframe__()
    expected = mlcm_confusion_matrix(T, P)
    assert_array_equal(mlcm_confusion_matrix(y_true, y_pred), expected)


def test_frames_polars_series_with_nulls_are_refused():
    """A missing class label is refused, naming the parameter."""
    pl = pytest.importorskip("polars")
    with pytest.raises(ValueError, match="y_pred of mlcm_confusion_matrix"):
        mlcm_confusion_matrix(pl.Series([0, 1, 1]), pl.Series([0, None, 1]))


def _mix_functions():
    """Every public function that takes y_true and y_pred, as f(y_true, y_pred)."""
    from sklearn_mlcm import (
        MLCMDisplay,
        labelset_confusions,
        mlcm_f1_score,
        mlcm_multilabel_confusion_matrix,
        mlcm_precision_score,
        mlcm_recall_score,
        mlcm_specificity_score,
        multilabel_measures,
    )

    def display(t, p):
        pytest.importorskip("matplotlib")
        import matplotlib

        matplotlib.use("Agg")
        return MLCMDisplay.from_predictions(t, p).confusion_matrix

    return {
        "mlcm_confusion_matrix": mlcm_confusion_matrix,
        "mlcm_multilabel_confusion_matrix": mlcm_multilabel_confusion_matrix,
        "mlcm_classification_report": mlcm_classification_report,
        "mlcm_f1_score": mlcm_f1_score,
        "mlcm_precision_score": mlcm_precision_score,
        "mlcm_recall_score": mlcm_recall_score,
        "mlcm_specificity_score": mlcm_specificity_score,
        "labelset_confusions": labelset_confusions,
        "multilabel_measures": lambda t, p: multilabel_measures(
            t, p, measures=["hamming_loss"]
        ),
        "MLCMDisplay.from_predictions": display,
        "MLCMAccumulator.update": lambda t, p: MLCMAccumulator(3).update(t, p),
    }


MIX_FUNCTIONS = _mix_functions()


@pytest.mark.parametrize("func", MIX_FUNCTIONS)
@pytest.mark.parametrize("library", FRAMES)
@pytest.mark.parametrize("frame_side", ["y_true", "y_pred"])
def test_frames_mixed_with_arrays_are_refused(func, library, frame_side):
    """A frame beside an array without names is refused (its column order
    would be applied to the array silently), naming both parameters."""
    order = [2, 0, 1]
    frame = FRAMES[library](P[:, order], [NAMES[i] for i in order])
    t, p = (frame, T) if frame_side == "y_true" else (T, frame)
    with pytest.raises(ValueError, match=rf"{frame_side} of .* is a frame .* array"):
        MIX_FUNCTIONS[func](t, p)


@pytest.mark.parametrize("library", FRAMES)
def test_frames_mixed_with_arrays_by_labels(library):
    """``labels`` naming every column, in the array's order, allows the mix:
    the frame's columns are matched to them by name."""
    order = [2, 0, 1]
    frame = FRAMES[library](P[:, order], [NAMES[i] for i in order])
    expected = mlcm_confusion_matrix(T, P)
    assert_array_equal(mlcm_confusion_matrix(T, frame, labels=NAMES), expected)
    report = mlcm_classification_report(
        frame, T, labels=NAMES, output_dict=True, zero_division=0.0
    )
    assert list(report)[:3] == NAMES
    with pytest.raises(ValueError, match="name every column in 'labels'"):
        mlcm_confusion_matrix(T, frame, labels=["a", "b"])
    with pytest.raises(ValueError, match="name every column in 'labels'"):
        mlcm_confusion_matrix(T, frame, labels=[0, 1, 2])
