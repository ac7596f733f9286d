"""The scores of a classifier and the thresholds applied to them, validated once.

:func:`validate_scores` (a :class:`Scores`) is the entry point of the
functions that decide labels from scores and draw threshold curves: it reads
``y_score`` in every accepted form (arrays, sparse matrices, frames,
scikit-learn's list of ``predict_proba`` arrays) with ``y_true`` beside it
(:func:`check_scored_targets`) or alone (:func:`check_scores`); under
``array_api_dispatch``, Array API scores in the host's memory are read in
place (:func:`host_scores`) and elsewhere checked in their namespace, on
their device (:func:`check_device_scores`, a :class:`DeviceScores`).
:func:`check_target_scores` takes scores beside targets validated already.
:func:`check_thresholds` checks one threshold or one per label (by name for
frames), :func:`check_threshold_grid` and :func:`evenly_spaced` the grids of
threshold curves, :func:`check_threshold_count` their size.
"""

import numbers
from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import InvalidInputError, current_function
from sklearn_mlcm._validation._array_api import (
    DeviceTargets,
    _compat,
    _indicators,
    _on_device,
    _torch_sparse,
    array_api_namespace,
    host_view,
    to_numpy,
)
from sklearn_mlcm._validation._frames import (
    _library,
    align_columns,
    frame_columns,
    mixed_frame,
    read_frame,
    repeated_names,
)
from sklearn_mlcm._validation._label_space import (
    _as_array,
    _asarray_rectangular,
    _finish,
    _indicator_to_bool,
    _sum_sparse_duplicates,
    check_indicator_labels,
)
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._messages import _describe, input_error
from sklearn_mlcm._validation._targets import (
    _raw_values,
    check_sample_weight,
    check_weight_sums,
)

__all__ = [
    "DeviceScores",
    "Scores",
    "check_device_scores",
    "check_scored_targets",
    "check_scores",
    "check_target_scores",
    "check_threshold_grid",
    "check_thresholds",
    "evenly_spaced",
    "host_scores",
    "scores_namespace",
    "validate_scores",
]


def _positive_columns(y_score, name):
    """The list of (n_samples, 2) probability arrays that scikit-learn's
    ``MultiOutputClassifier.predict_proba`` (and the multi-label
    ``predict_proba`` of forests and k-NN) returns, as one (n_samples,
    n_labels) array of the second column of each: the probability of the
    class 1 (scikit-learn sorts ``classes_``)."""
    return _stacked_positive_columns(y_score, name, np.asarray, np.column_stack)


def _stacked_positive_columns(y_score, name, convert, stack):
    """The second column of each probability array of ``y_score``, each
    read by ``convert`` and checked, joined by ``stack`` (the host's or a
    device's)."""
    caller = current_function()
    columns = []
    for j, proba in enumerate(y_score):
        proba = convert(proba)
        if proba.shape[1] != 2:  # 2-D: a list of probability arrays
            why = (
                "a classifier that saw one class only in training cannot tell "
                "its one column's class from here"
                if proba.shape[1] == 1
                else "this is no binary label's probabilities"
            )
            raise InvalidInputError(
                f"{name} of {caller} is a list of per-label probability "
                "arrays (MultiOutputClassifier.predict_proba); each must have "
                "shape (n_samples, 2), the probability of class 1 second. Got "
                f"shape {tuple(proba.shape)} for label {j}: {why}. Pass the "
                "(n_samples, n_labels) array of the scores of class 1 instead."
            )
        if columns and proba.shape[0] != columns[0].shape[0]:
            raise InvalidInputError(
                f"{name} of {caller} is a list of per-label probability "
                "arrays of different lengths: "
                f"{columns[0].shape[0]} and {proba.shape[0]} (label {j})."
            )
        columns.append(proba[:, 1])
    return stack(columns)


def _is_proba_list(y):
    """A non-empty list or tuple of 2-D arrays (one per label)."""
    return (
        isinstance(y, (list, tuple))
        and len(y) > 0
        and all(len(getattr(a, "shape", ())) == 2 for a in y)
    )


def _read_scores(y_score, name):
    """``(values, column names or None)``: finite real scores as a dense
    float array of 2 dimensions, or a canonical CSR array without stored
    zeros (absent scores are 0)."""
    caller = current_function()
    if y_score is None:
        raise InvalidInputError(
            f"{name} of {caller} must be an array-like, a frame or a scipy "
            "sparse matrix of scores of shape (n_samples, n_labels). Got None."
        )
    if isinstance(y_score, (str, bytes, numbers.Number)):
        raise InvalidInputError(
            f"{name} of {caller} must be an array of scores of shape "
            f"(n_samples, n_labels), not a scalar. Got {y_score!r} instead."
        )
    columns = None
    if sparse.issparse(y_score):
        if y_score.ndim != 2 or y_score.dtype.kind not in "biuf":
            raise InvalidInputError(
                f"{name} of {caller} must be a 2-D sparse matrix of real "
                f"scores. Got {_describe(y_score)} of dtype {y_score.dtype}."
            )
        values = _sum_sparse_duplicates(y_score, name, indicators=False)
        if values.dtype.kind != "f":
            values = values.astype(np.float64)
        values.eliminate_zeros()
        data = values.data
    else:
        if _is_proba_list(y_score):
            values = _positive_columns(y_score, name)
        else:
            frame = read_frame(y_score, name)
            if frame is not None:
                y_score, columns = frame
            try:
                values = _asarray_rectangular(y_score)
            except ValueError:  # ragged rows
                raise InvalidInputError(
                    f"{name} of {caller} could not be read as a rectangular "
                    "array of scores (rows of different lengths?)."
                ) from None
        if values.dtype == object and all(
            isinstance(v, numbers.Real) for v in values.ravel().tolist()
        ):
            values = values.astype(np.float64)
        if values.dtype.kind not in "biuf":
            raise InvalidInputError(
                f"{name} of {caller} must hold real-valued scores; got values "
                f"of dtype {values.dtype}."
            )
        if values.ndim != 2:
            hint = (
                " For the scores of one label, pass y_score.reshape(-1, 1)."
                if values.ndim == 1
                else ""
            )
            raise InvalidInputError(
                f"{name} of {caller} must be 2-D, of shape (n_samples, "
                f"n_labels). Got an array of shape {values.shape}.{hint}"
            )
        if values.dtype.kind != "f":
            values = values.astype(np.float64)
        data = values
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise InvalidInputError(
            f"{name} of {caller} must have at least one sample and one label. "
            f"Got shape {values.shape}."
        )
    if not np.isfinite(data).all():
        position = np.argwhere(~np.isfinite(data))[0]
        if sparse.issparse(values):
            row = int(np.searchsorted(values.indptr, position[0], side="right") - 1)
            position = (row, int(values.indices[position[0]]))
        value = data.flat[np.flatnonzero(~np.isfinite(data))[0]].item()
        raise InvalidInputError(
            f"{name} of {caller} must hold finite scores; found {value!r} at "
            f"(row, label) {tuple(int(i) for i in position)}. Impute or drop "
            "those instances first."
        )
    return values, columns


def check_scores(y_score, *, labels=None, name="y_score"):
    """Validate scores of shape (n_samples, n_labels) and keep ``labels``.

    Returns ``(scores, keys, all_keys)``: a dense float array (float32 and
    float64 stay, other numbers become float64) or a canonical CSR array
    without stored zeros; the kept labels' names, by which thresholds are
    matched (frame column names, or the integer column indices), and the
    names of every column.
    """
    scores, columns = _read_scores(y_score, name)
    all_keys = list(columns) if columns is not None else list(range(scores.shape[1]))
    keys = all_keys
    if labels is not None:
        kept = check_indicator_labels(labels, scores.shape[1], columns)
        scores = scores[:, kept]
        keys = [all_keys[i] for i in kept]
    return _finish_scores(scores), keys, all_keys


def _finish_scores(scores):
    if sparse.issparse(scores):
        scores = sparse.csr_array(scores)
        scores.sort_indices()
        return scores
    return np.ascontiguousarray(scores)


def check_scored_targets(y_true, y_score, *, labels=None):
    """Validate true indicators and the scores of the same labels.

    Frames are matched by column name (the scores' columns are put in
    y_true's order); a frame beside an array is refused unless ``labels``
    names every column, as for two targets. Returns ``(y_true, scores,
    keys)``: bool indicators (dense, or CSR for sparse input), the scores as
    :func:`check_scores` returns them, the kept labels' names and the
    names of every column.
    """
    caller = current_function()
    y_true, true_columns = _as_array(y_true, "y_true")
    if y_true.ndim != 2:
        raise InvalidInputError(
            f"y_true of {caller} must be a 2-D 0/1 indicator matrix of shape "
            f"(n_samples, n_labels), one column per scored label. Got "
            f"{_describe(y_true)}. Binarize class labels first "
            "(sklearn.preprocessing.label_binarize or MultiLabelBinarizer)."
        )
    scores, score_columns = _read_scores(y_score, "y_score")
    if y_true.shape != scores.shape:
        raise InvalidInputError(
            f"y_true and y_score of {caller} must have the same shape "
            f"(n_samples, n_labels). Got {y_true.shape} and {scores.shape}."
        )
    if (true_columns is None) != (score_columns is None):
        if true_columns is not None:
            y_true = mixed_frame(
                y_true, true_columns, "y_true", labels, other="y_score"
            )
        else:
            scores = mixed_frame(
                scores, score_columns, "y_score", labels, other="y_true"
            )
        true_columns = score_columns = list(labels)
    if true_columns is not None:
        scores = align_columns(scores, score_columns, true_columns, name="y_score")
    t = _indicator_to_bool(y_true, "y_true")
    all_keys = (
        list(true_columns) if true_columns is not None else list(range(t.shape[1]))
    )
    keys = all_keys
    if labels is not None:
        kept = check_indicator_labels(labels, scores.shape[1], true_columns)
        t, scores = t[:, kept], scores[:, kept]
        keys = [all_keys[i] for i in kept]
    return _finish(t), _finish_scores(scores), keys, all_keys


@dataclass(frozen=True)
class Scores:
    """The validated scores of one public call (:func:`validate_scores`).

    Attributes
    ----------
    scores : ndarray, CSR array or DeviceScores of shape (n_samples, n_labels)
        As :func:`check_scores` returns them, the kept labels only; for
        Array API scores on an accelerator, the :class:`DeviceScores` that
        holds them (and ``y_true`` and the weights) on their device.
    keys, all_keys : list
        The kept labels' names (frame columns or column indices), by which
        thresholds are matched, and the names of every column.
    y_true : ndarray or CSR array of shape (n_samples, n_labels), bool, or None
        The true indicators of the same labels, when given (on the device
        for :class:`DeviceScores`).
    weight : ndarray of shape (n_samples,), float64, or None
        The validated weights, when given (on the host).
    device : DeviceScores, DeviceTargets or None
        For Array API scores: where the results go back to
        (:meth:`DeviceScores.back`); a
        :class:`~sklearn_mlcm._validation._array_api.DeviceTargets` without
        arrays when the scores lie in the host's memory and were read in
        place by NumPy.
    """

    scores: object
    keys: list
    all_keys: list
    y_true: object = None
    weight: object = None
    device: object = None


def validate_scores(y_score, *, y_true=None, labels=None, sample_weight=None):
    """Validate a public call's scores (and its true indicators and weights,
    if any), once: a :class:`Scores`.

    The sibling of :func:`validate_targets` for the functions that read
    scores: :func:`check_scores` alone, or :func:`check_scored_targets` with
    ``y_true``, then :func:`check_sample_weight` and
    :func:`check_weight_sums`. Under ``array_api_dispatch``, scores of
    another namespace than NumPy (:func:`scores_namespace`) are read in place
    by NumPy where they lie in the host's memory (:func:`host_scores`), and
    checked in their namespace, on their device, elsewhere
    (:func:`check_device_scores`).
    """
    namespace = scores_namespace(y_score, y_true)
    device = None
    if namespace is not None:
        views = host_scores(y_score, y_true, sample_weight, namespace)
        if views is None:  # on an accelerator: checked and used there
            return _device_scores(y_score, y_true, labels, sample_weight, namespace)
        y_score, y_true, sample_weight = views
        device = DeviceTargets(*namespace, None, None)  # the results go there
    if y_true is None:
        scores, keys, all_keys = check_scores(y_score, labels=labels)
        return Scores(scores, keys, all_keys, device=device)
    t, scores, keys, all_keys = check_scored_targets(y_true, y_score, labels=labels)
    weight = check_sample_weight(sample_weight, t.shape[0])
    check_weight_sums(weight, t.shape[1])
    return Scores(scores, keys, all_keys, t, weight, device=device)


def _device_scores(y_score, y_true, labels, sample_weight, namespace):
    """The :class:`Scores` of Array API scores on an accelerator: checked in
    their namespace; the weights checked on the host (n numbers) and put on
    the device beside them."""
    checked, keys, all_keys = check_device_scores(
        y_score, namespace, y_true=y_true, labels=labels
    )
    weight = None
    if y_true is not None:
        if _is_namespace_array(sample_weight):  # n numbers, to the host
            xp = _compat().array_namespace(sample_weight)
            sample_weight = to_numpy(sample_weight, xp)
        weight = check_sample_weight(sample_weight, checked.shape[0])
        check_weight_sums(weight, checked.shape[1])
        if weight is not None:
            checked = replace(checked, weight=checked.back(weight, checked.xp.float64))
    return Scores(checked, keys, all_keys, checked.y_true, weight, device=checked)


# -- Array API scores, in their namespace -----------------------------------------


@dataclass(frozen=True)
class DeviceScores:
    """Validated scores that stay in their namespace, on their device.

    Attributes
    ----------
    xp, device : module, object
        The namespace and device of ``y_score``; every array here is there.
    scores : array of shape (n_samples, n_labels)
        The kept labels' finite scores: float32 or float64 as given, other
        real numbers as float64.
    y_true : array of shape (n_samples, n_labels), dtype bool, or None
        The true indicators of the same labels, when given.
    weight : array of shape (n_samples,), float64, or None
        The validated weights, when given.
    """

    xp: object
    device: object
    scores: object
    y_true: object = None
    weight: object = None

    @property
    def shape(self):
        return tuple(self.scores.shape)

    def back(self, values, dtype=None):
        """``values`` (NumPy) as an array of this namespace on this device."""
        return self.xp.asarray(values, dtype=dtype, device=self.device)

    def score_range(self):
        """The smallest and largest score, as Python floats (two numbers
        read back)."""
        xp = self.xp
        return float(xp.min(self.scores)), float(xp.max(self.scores))

    def thresholds(self, values):
        """Thresholds (NumPy float64) on the device, in the scores' dtype,
        deciding as float64 does: ``score >= t`` for float32 scores is
        ``score >= t32``, t32 the smallest float32 at or above t."""
        xp = self.xp
        if self.scores.dtype != xp.float32:
            return self.back(values, xp.float64)
        with np.errstate(over="ignore"):  # beyond float32's range: infinite
            rounded = values.astype(np.float32)
        below = rounded < values
        rounded[below] = np.nextafter(rounded[below], np.float32(np.inf))
        return self.back(rounded, xp.float32)


def scores_namespace(y_score, y_true=None):
    """``(xp, device)`` of ``y_score`` when the call takes the Array API path
    (:func:`~sklearn_mlcm._validation._array_api.array_api_namespace`'s rule,
    ``y_score`` in the place of ``y_pred``; for a list of per-label
    probability arrays, its first array decides), else None."""
    first = y_score[0] if _is_proba_list(y_score) else y_score
    return array_api_namespace(y_true, first, name="y_score")


def host_scores(y_score, y_true, sample_weight, namespace):
    """``(y_score, y_true, sample_weight)`` as NumPy views where ``y_score``
    lies in the host's memory (``y_true`` following it there), for the NumPy
    code; None where it is elsewhere (a GPU). What is not an array of the
    namespace is passed on as it is."""
    xp, device = namespace
    if _is_proba_list(y_score):
        scores = [host_view(_score_on_device(p, xp, device), xp) for p in y_score]
        if any(view is None for view in scores):
            return None
    else:
        scores = host_view(y_score, xp)
        if scores is None:
            return None
    if _is_namespace_array(y_true):
        y_true = _on_device(y_true, "y_true", xp, device, reference="y_score")
        y_true = host_view(y_true, xp)
    if _is_namespace_array(sample_weight):
        weight_xp = _compat().array_namespace(sample_weight)
        sample_weight = to_numpy(sample_weight, weight_xp)
    return scores, y_true, sample_weight


def _is_namespace_array(y):
    """An array of an Array API namespace other than NumPy's."""
    compat = _compat()
    return compat.is_array_api_obj(y) and not compat.is_numpy_array(y)


def _score_on_device(y, xp, device):
    """An array of scores of ``xp`` on ``device`` (moved there from another
    device of ``xp``, or from NumPy)."""
    compat = _compat()
    if _torch_sparse(y):
        raise InvalidInputError(
            f"y_score of {current_function()} must be a dense array under "
            "array_api_dispatch; got a torch sparse tensor. Pass "
            "y_score.to_dense(), or a scipy sparse matrix outside "
            "array_api_dispatch."
        )
    if _is_namespace_array(y):
        if compat.array_namespace(y) is not xp:
            raise InvalidInputError(
                f"y_score of {current_function()} must hold arrays of one "
                f"namespace under array_api_dispatch; got {_describe(y)} beside "
                f"an array of {getattr(xp, '__name__', xp)}."
            )
        return y if compat.device(y) == device else compat.to_device(y, device)
    return xp.asarray(np.asarray(y), device=device)


def _device_positive_columns(y_score, name, xp, device):
    """The second column of each (n_samples, 2) probability array, stacked
    on the device (:func:`_positive_columns`' rule)."""
    return _stacked_positive_columns(
        y_score,
        name,
        lambda proba: _score_on_device(proba, xp, device),
        lambda columns: xp.stack(columns, axis=1),
    )


def _check_device_values(values, name, xp):
    """Finite real scores of 2 dimensions, as float32 or float64."""
    caller = current_function()
    if not xp.isdtype(values.dtype, ("bool", "integral", "real floating")):
        raise InvalidInputError(
            f"{name} of {caller} must hold real-valued scores; got values "
            f"of dtype {values.dtype}."
        )
    if values.ndim != 2:
        hint = (
            " For the scores of one label, pass y_score.reshape(-1, 1)."
            if values.ndim == 1
            else ""
        )
        raise InvalidInputError(
            f"{name} of {caller} must be 2-D, of shape (n_samples, "
            f"n_labels). Got an array of shape {tuple(values.shape)}.{hint}"
        )
    if values.dtype not in (xp.float32, xp.float64):
        values = xp.astype(values, xp.float64)
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise InvalidInputError(
            f"{name} of {caller} must have at least one sample and one label. "
            f"Got shape {tuple(values.shape)}."
        )
    finite = xp.isfinite(values)
    if not bool(xp.all(finite)):  # one verdict to the host
        rows, cols = xp.nonzero(xp.logical_not(finite))
        row, col = int(rows[0]), int(cols[0])
        raise InvalidInputError(
            f"{name} of {caller} must hold finite scores; found "
            f"{float(values[row, col])!r} at (row, label) {(row, col)}. Impute "
            "or drop those instances first."
        )
    return values


def check_device_scores(y_score, namespace, *, y_true=None, labels=None):
    """Scores (and the true indicators of the same labels) checked in their
    namespace: ``(DeviceScores without weights, keys, all_keys)``, the
    kept labels' column indices and every column's, as
    :func:`check_scores` and :func:`check_scored_targets` return them."""
    caller = current_function()
    xp, device = namespace
    if _is_proba_list(y_score):
        values = _device_positive_columns(y_score, "y_score", xp, device)
    else:
        values = _score_on_device(y_score, xp, device)
    true = None
    if y_true is not None:
        true = _on_device(y_true, "y_true", xp, device, reference="y_score")
        if true.ndim != 2:
            raise InvalidInputError(
                f"y_true of {caller} must be a 2-D 0/1 indicator matrix of "
                "shape (n_samples, n_labels), one column per scored label. Got "
                f"an array of shape {tuple(true.shape)}. Binarize class labels "
                "first (sklearn.preprocessing.label_binarize or "
                "MultiLabelBinarizer)."
            )
    scores = _check_device_values(values, "y_score", xp)
    if true is not None:
        if tuple(true.shape) != tuple(scores.shape):
            raise InvalidInputError(
                f"y_true and y_score of {caller} must have the same shape "
                f"(n_samples, n_labels). Got {tuple(true.shape)} and "
                f"{tuple(scores.shape)}."
            )
        true = _indicators(true, "y_true", xp)
    checked = DeviceScores(xp, device, scores, true)
    all_keys = list(range(scores.shape[1]))
    if labels is None:
        return checked, all_keys, all_keys
    checked, kept = _keep_labels(checked, labels)
    return checked, [all_keys[i] for i in kept.tolist()], all_keys


def _keep_labels(checked, labels):
    """``(DeviceScores of the kept columns, their positions)``: ``labels``
    (column indices; an array of a namespace is read on the host, as the
    targets' ``labels`` are) checked against the scores' columns."""
    compat = _compat()
    if compat.is_array_api_obj(labels) and not isinstance(labels, np.ndarray):
        labels = to_numpy(labels, compat.array_namespace(labels))
    kept = check_indicator_labels(labels, checked.shape[1], None)
    xp = checked.xp
    index = xp.asarray(kept, device=checked.device)
    true = None if checked.y_true is None else xp.take(checked.y_true, index, axis=1)
    scores = xp.take(checked.scores, index, axis=1)
    return replace(checked, scores=scores, y_true=true), kept


def _device_target_scores(y_score, targets, y_pred, labels):
    """:func:`check_target_scores` of Array API targets on their device:
    the scores checked there (moved to the device of ``y_pred``), kept as
    the targets' labels, with the targets' indicators and weights beside
    them (a :class:`DeviceScores`)."""
    caller = current_function()
    dev = targets.device
    checked, _, _ = check_device_scores(y_score, (dev.xp, dev.device))
    n, q = dev.y_true.shape
    if checked.shape[0] != n:
        raise InvalidInputError(
            f"y_score of {caller} must have one row per instance of y_true: "
            f"{n} expected, got {checked.shape[0]}."
        )
    if labels is not None:
        width = y_pred.shape[1]
        if checked.shape[1] != width:
            raise InvalidInputError(
                f"y_score of {caller} must have one column per column of "
                f"y_true, {width}, before 'labels' keeps some. Got "
                f"{checked.shape[1]} columns."
            )
        checked, _ = _keep_labels(checked, labels)
    if checked.shape != (n, q):
        raise InvalidInputError(
            f"y_score of {caller} must have the shape of the labels scored, "
            f"(n_samples, n_labels) = {(n, q)}. Got {checked.shape}."
        )
    return replace(checked, y_true=dev.y_true, weight=dev.weight)


def check_target_scores(y_score, targets, y_true, y_pred, *, labels=None):
    """The scores of the labels of validated ``targets``, in their order.

    For a public call that has validated its targets already
    (:func:`validate_targets`) and takes scores beside them
    (:class:`~sklearn_mlcm.MLCMReport`): the targets are not read again, only
    the column names of ``y_true`` and ``y_pred`` to match the scores'.
    Scores are read as :func:`check_scores` reads them. A frame of scores is
    matched by column name to frame targets (extra columns allowed only with
    ``labels``), or beside array targets needs ``labels`` naming every column
    (:func:`mixed_frame`); an array of scores has the targets' columns, and
    ``labels`` keeps the same ones. Returns a dense float array or a CSR
    array of shape (n_samples, n_labels); for Array API targets on an
    accelerator (``targets.kind == "array_api"``), a :class:`DeviceScores`
    on their device, which holds their indicators and weights too.
    """
    caller = current_function()
    if targets.kind == "array_api":  # on an accelerator: checked there
        return _device_target_scores(y_score, targets, y_pred, labels)
    if targets.device is not None and _is_namespace_array(y_score):
        # Array API targets read in place: the scores follow y_pred there
        xp, device = targets.device.xp, targets.device.device
        y_score = host_view(_score_on_device(y_score, xp, device), xp)
    space = targets.space
    if space.codes is not None:
        raise InvalidInputError(
            f"y_score of {caller} scores the labels of 2-D indicator targets; "
            "y_true and y_pred are 1-D class labels. Binarize them first "
            "(sklearn.preprocessing.label_binarize), or leave y_score out."
        )
    n, q = space.y_true.shape
    scores, score_columns = _read_scores(y_score, "y_score")
    if scores.shape[0] != n:
        raise InvalidInputError(
            f"y_score of {caller} must have one row per instance of y_true: "
            f"{n} expected, got {scores.shape[0]}."
        )
    frames = [frame_columns(y) for y in (y_true, y_pred)]
    columns = frames[0] if frames[0] is not None else frames[1]
    both = frames[0] is not None and frames[1] is not None
    if score_columns is not None:
        if columns is None:  # array targets: the frame's order is labels'
            scores = mixed_frame(scores, score_columns, "y_score", labels)
        else:
            lookup = {str(c): i for i, c in enumerate(score_columns)}
            repeated = repeated_names([str(c) for c in score_columns])
            missing = [name for name in targets.names if name not in lookup]
            extra = len(score_columns) - q if labels is None else 0
            if repeated or missing or extra:
                known = set(targets.names)
                other = [c for c in score_columns if str(c) not in known]
                hint = (
                    " Drop the other columns, or pass labels=... naming the "
                    "scored ones."
                    if other and labels is None
                    else ""
                )
                raise InvalidInputError(
                    f"y_score of {caller} is a frame whose columns must name "
                    f"each label of y_true once: {targets.names}. Got the "
                    f"columns {list(score_columns)} (missing: {missing}; "
                    f"repeated: {repeated}; not a label: {other}).{hint}"
                )
            scores = scores[:, [lookup[name] for name in targets.names]]
    elif labels is not None and (columns is None or both):
        width = (
            len(columns) if columns is not None else np.shape(_raw_values(y_true))[1]
        )
        if scores.shape[1] != width:
            raise InvalidInputError(
                f"y_score of {caller} must have one column per column of "
                f"y_true, {width}, before 'labels' keeps some. Got "
                f"{scores.shape[1]} columns."
            )
        scores = scores[:, check_indicator_labels(labels, width, columns)]
    if scores.shape != (n, q):
        raise InvalidInputError(
            f"y_score of {caller} must have the shape of the labels scored, "
            f"(n_samples, n_labels) = {(n, q)}. Got {scores.shape}."
        )
    return _finish_scores(scores)


def check_thresholds(threshold, keys, all_keys=None, *, positive=False):
    """One threshold per kept label, as a float64 array of shape (n_labels,).

    ``threshold`` is a real number (every label), an array-like of one
    number per kept label in their order, or a dict or pandas Series keyed by
    label name (``keys``: frame columns, or column indices), which must name
    every kept label and no unknown one (names of ``all_keys``, the columns
    that ``labels`` left out, are ignored). ``positive`` (sparse scores,
    whose absent entries are 0) asks every threshold to be above 0.
    """
    q = len(keys)
    if isinstance(threshold, dict) or (
        _library(threshold) == "pandas" and getattr(threshold, "ndim", 0) == 1
    ):
        values = _thresholds_by_name(threshold, keys, all_keys or keys)
    else:
        raw = _real_array(threshold)
        if raw.dtype.kind not in "iuf":
            raise input_error(
                "threshold",
                "a real number, one per label, or a dict keyed by label name",
                f"values of dtype {raw.dtype}",
            )
        if raw.ndim == 0:
            values = np.full(q, float(raw))
        elif raw.ndim != 1 or raw.shape[0] != q:
            raise input_error(
                "threshold",
                f"a real number or an array of one threshold per label, of "
                f"shape ({q},)",
                f"shape {raw.shape}",
            )
        else:
            values = raw.astype(np.float64)
    if not np.isfinite(values).all():
        raise input_error(
            "threshold",
            "finite",
            f"{values[~np.isfinite(values)][0].item()!r}",
        )
    if positive and (values <= 0).any():
        k = int(np.flatnonzero(values <= 0)[0])
        raise input_error(
            "threshold",
            "above 0 for sparse y_score, whose absent scores are 0 and would all "
            "pass a threshold of 0 or less (every absent label predicted); "
            "pass dense scores (y_score.toarray()) for such thresholds",
            f"{values[k].item()!r} for label {keys[k]!r}",
        )
    return values


def _real_array(values):
    """``values`` as an array; an object array of real numbers (a list
    mixing ints and NumPy floats, a pandas object Series) as float64. Bools
    stay bool, to be refused: True is no threshold."""
    raw = np.asarray(values)
    if raw.dtype == object and all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
        for v in raw.ravel().tolist()
    ):
        raw = raw.astype(np.float64)
    return raw


def _thresholds_by_name(threshold, keys, all_keys):
    """A dict or Series of thresholds, aligned by name to ``keys``."""
    caller = current_function()
    if isinstance(threshold, dict):
        names, given = list(threshold), list(threshold.values())
    else:
        names, given = list(threshold.index), list(threshold.to_numpy())
    kind = "a dict" if isinstance(threshold, dict) else "a Series"
    if repeated_names(keys):
        raise input_error(
            "threshold",
            "a real number, or an array of one threshold per label in column "
            f"order, for scores whose columns repeat the names "
            f"{repeated_names(keys)} (a threshold keyed by name cannot tell "
            "those columns apart; or give every column a distinct name)",
            f"{kind} keyed by name",
        )
    if repeated_names(names):
        raise input_error(
            "threshold",
            "keyed by distinct label names (one threshold per name)",
            f"{kind} keyed by the names {repeated_names(names)} more than once",
        )
    lookup = {}
    for label, value in zip(names, given):
        if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
            raise input_error(
                "threshold",
                "a mapping of label names to real numbers",
                f"{value!r} for {label!r}",
            )
        lookup[label] = float(value)
    unknown = [label for label in names if label not in all_keys]
    missing = [label for label in keys if label not in lookup]
    if unknown or missing:
        hint = ""
        if sorted(map(str, names)) == sorted(map(str, keys)) or (
            unknown and all(str(u) in map(str, keys) for u in unknown)
        ):
            hint = (
                " The names differ only in type (0 is not '0'); key the "
                "thresholds by the labels' own names."
            )
        raise InvalidInputError(
            f"The 'threshold' parameter of {caller} must name every label "
            f"scored, {keys}, and no unknown one. Got the names {names} (missing: "
            f"{missing}; unknown: {unknown}).{hint}"
        )
    return np.array([lookup[label] for label in keys], dtype=np.float64)


def check_threshold_count(n_thresholds, q):
    """Refuse more thresholds than a curve or a search over them holds in
    1 GiB (about 12 float64 arrays of shape (n_thresholds, n_labels)),
    before any grid is made."""
    if n_thresholds * (q + 1) * 8 * 12 > MAX_DENSE_BYTES:
        raise input_error(
            "thresholds",
            f"fewer for {q:,} labels: the curve (or the search) holds about 12 "
            "(n_thresholds, n_labels) float64 arrays, at most 1 GiB; pass fewer "
            "thresholds or labels",
            f"{n_thresholds:,} thresholds",
        )


def evenly_spaced(low, high, count):
    """``np.linspace(low, high, count)``, also when ``high - low`` overflows.

    Finite scores from near -1.8e308 to near 1.8e308 span more than float64
    holds: ``np.linspace`` then steps by infinity and returns infinities and
    NaN. Such a grid is made halfway (``low / 2`` to ``high / 2``, whose span
    is finite) and doubled. Halving and doubling are exact there (an end of
    so wide a span is far from the subnormal numbers), and ``np.linspace``'s
    arithmetic commutes with a power of two, so the grid is that of the
    scores scaled by any power of two into range, scaled back: the same
    predictions, bit for bit. A span that fits takes ``np.linspace`` itself,
    without its overflow warning for a span near float64's largest number:
    only its last step overflows there, and ``np.linspace`` puts ``high``
    in its place.
    """
    with np.errstate(over="ignore"):
        span = np.float64(high) - np.float64(low)
        if np.isfinite(span):
            return np.linspace(low, high, count)
        return 2.0 * np.linspace(low / 2.0, high / 2.0, count)


def check_threshold_grid(thresholds, scores, *, default=100):
    """The thresholds of a curve: a (T,) increasing float64 array, or a
    (T, n_labels) array of one threshold per label in each row.

    ``thresholds`` is None (``default`` thresholds), an int (that many): evenly
    spaced from the smallest to the largest score (for sparse scores, from
    the smallest stored score above 0: absent scores are 0 and thresholds
    must be above 0), one if those are equal; or an array-like, 1-D strictly
    increasing or 2-D of shape (T, n_labels). Every threshold is finite, and
    above 0 for sparse scores.
    """
    is_sparse = sparse.issparse(scores)
    q = scores.shape[1]
    if thresholds is None or isinstance(thresholds, numbers.Integral):
        count = default if thresholds is None else int(thresholds)
        if isinstance(scores, DeviceScores):  # two numbers from the device
            low, high = scores.score_range()
        else:
            values = scores.data if is_sparse else scores
            if is_sparse:
                values = values[values > 0]
                if values.size == 0:
                    raise input_error(
                        "thresholds",
                        "given (an array of thresholds above 0) for sparse "
                        "y_score that stores no score above 0 (absent scores "
                        "are 0, and thresholds of sparse scores must be above 0)",
                        repr(thresholds),
                    )
            low, high = float(values.min()), float(values.max())
        grid = (
            np.unique(evenly_spaced(low, high, count))
            if high > low
            else np.array([low])
        )
        return grid
    raw = _real_array(thresholds)
    if raw.dtype.kind not in "iuf" or raw.ndim not in (1, 2) or raw.size == 0:
        raise input_error(
            "thresholds",
            f"None, an int, a non-empty 1-D increasing array of thresholds, or "
            f"a 2-D array of shape (n_thresholds, {q}), of real numbers",
            f"an array of shape {raw.shape} and dtype {raw.dtype}",
        )
    grid = raw.astype(np.float64)
    if not np.isfinite(grid).all():
        raise input_error(
            "thresholds", "finite", f"{grid[~np.isfinite(grid)][0].item()!r}"
        )
    if grid.ndim == 1 and (grid[1:] <= grid[:-1]).any():
        j = int(np.flatnonzero(grid[1:] <= grid[:-1])[0])
        raise input_error(
            "thresholds",
            "strictly increasing (each threshold once, in increasing order; "
            "np.unique(thresholds) sorts them)",
            f"{grid[j].item()!r} followed by {grid[j + 1].item()!r} at position {j}",
        )
    if grid.ndim == 2 and grid.shape[1] != q:
        raise input_error(
            "thresholds",
            f"of shape (n_thresholds, {q}) when 2-D: one threshold per scored "
            "label in each row",
            f"shape {grid.shape}",
        )
    if is_sparse and (grid <= 0).any():
        raise input_error(
            "thresholds",
            "above 0 for sparse y_score, whose absent scores are 0 and would all "
            "pass a threshold of 0 or less; pass dense scores for such thresholds",
            f"{grid[grid <= 0].flat[0].item()!r}",
        )
    return grid
