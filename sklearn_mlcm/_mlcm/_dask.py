"""Dask input: each chunk of rows is counted where it lives, then summed.

dask is an optional dependency: nothing here imports it unless the input is a
dask collection, recognised by the module of its type.
"""

import numpy as np

from sklearn_mlcm._param_validation import (
    InvalidInputError,
    current_function,
    public_call,
)
from sklearn_mlcm._validation._label_space import check_mlcm_targets
from sklearn_mlcm._validation._targets import check_sample_weight, check_weight_sums

from ._record import Computed
from ._samples import empty_table, merge_tables, tabulate_sizes

__all__ = ["dask_compute", "import_dask", "is_dask_collection"]


def is_dask_collection(obj):
    """True for a dask array (or DataFrame), without importing dask."""
    return type(obj).__module__.split(".")[0] in ("dask", "dask_expr")


def import_dask():
    try:
        import dask
        import dask.array as da
    except ImportError:  # pragma: no cover - dask objects imply dask
        raise ImportError(
            f"{current_function()} needs dask for dask input. You can install it with "
            '`pip install "sklearn-mlcm[dask]"`.'
        ) from None
    return dask, da


def _block_counts(t, p, w, *, kernel, labels, caller, with_supports, samples, dtype):
    """The matrix of one chunk of rows, its supports and its samples table.

    Returns ``(matrix, supports, table)``: ``supports`` (the label supports
    and the no-label total, as float64) only with ``with_supports``, the
    samples average's table of the chunk (:mod:`._samples`) only with
    ``samples``, else None; the kernel counts all three in one pass.

    The chunk is validated as a NumPy input would be, so that a 2 in chunk 7
    raises the same ValueError. The task runs in dask's threads or processes,
    outside the public call: it carries the call's name (``caller``) and runs
    inside it again.
    """
    q = len(labels) if labels is not None else t.shape[1]
    if t.shape[0] == 0:
        return (
            np.zeros((q + 1, q + 1), dtype=dtype),
            np.zeros(q + 1) if with_supports else None,
            empty_table(w is not None) if samples else None,
        )
    with public_call(caller):
        space = check_mlcm_targets(t, p, labels=labels)
        if w is not None:
            w = check_sample_weight(w, t.shape[0])
            check_weight_sums(w, q)
    counts = kernel(
        space.y_true, space.y_pred, w, with_supports=with_supports, samples=samples
    )
    table = None
    if samples:
        counts, table = counts
    if not with_supports:
        return counts, None, table
    matrix, supports, no_label = counts
    return matrix, np.append(supports.astype(np.float64), no_label), table


def _block_samples(t, p, w, *, labels, caller):
    """The samples average's table of one chunk of rows (:mod:`._samples`),
    validated as :func:`_block_counts` validates it."""
    if t.shape[0] == 0:
        return empty_table(w is not None)
    with public_call(caller):
        space = check_mlcm_targets(t, p, labels=labels)
        if w is not None:
            w = check_sample_weight(w, t.shape[0])
            check_weight_sums(w, space.n_labels)
    return tabulate_sizes(space.y_true, space.y_pred, w)


def _finite_sum(matrix):
    """The sum of the chunks' matrices, refused if it overflowed float64 (each
    chunk's weights were within bounds, their total was not)."""
    if matrix.dtype.kind == "f":
        with np.errstate(over="ignore"):
            finite = np.isfinite(matrix.sum())
        if not finite:
            raise InvalidInputError(
                f"The 'sample_weight' parameter of {current_function()} must keep "
                "the matrix's sums within float64: the chunks' weights together "
                "overflow it. Divide every weight by the same large number "
                "(ratios are unchanged)."
            )
    return matrix


def dask_compute(
    targets,
    *,
    kernel,
    integer_counts,
    with_supports,
    lazy,
    samples=False,
    matrix=True,
):
    """The :class:`Computed` of dask input; the matrix stays lazy if ``lazy``.

    ``targets`` is the call's :class:`~sklearn_mlcm._validation.Targets`
    (kind "dask"): its arrays' shapes and labels are checked, their values
    are checked here chunk by chunk, on the workers.

    ``integer_counts`` says that the kernel counts (int64) without weights.
    ``samples`` and ``matrix`` are :func:`~._dispatch.compute`'s: the chunks'
    tables of the samples average are merged, counted in the kernel's pass
    over each chunk (computed at once, in a pass of their own if ``lazy``).
    """
    dask, da = import_dask()
    y_true, y_pred, labels = targets.chunks
    sample_weight = targets.weight
    y_true = da.asarray(y_true)
    y_pred = da.asarray(y_pred)
    n_columns = y_true.shape[1]
    q = n_columns if labels is None else len(labels)
    # one chunk across the labels; y_pred and the weights follow y_true's rows
    y_true = y_true.rechunk({1: -1})
    y_pred = y_pred.rechunk(y_true.chunks)
    t_blocks = y_true.to_delayed().ravel()
    p_blocks = y_pred.to_delayed().ravel()
    if sample_weight is None:
        w_blocks = [None] * len(t_blocks)
    else:
        weight = da.asarray(sample_weight)
        w_blocks = weight.rechunk((y_true.chunks[0],)).to_delayed().ravel()
    names = list(targets.names)
    sums = None
    if samples and (lazy or not matrix):  # the table now, no matrix or later
        table = dask.delayed(_block_samples, pure=True)
        tables = [
            table(t, p, w, labels=labels, caller=current_function())
            for t, p, w in zip(t_blocks, p_blocks, w_blocks)
        ]
        (sums,) = dask.compute(dask.delayed(merge_tables)(tables))
        samples = False
    if not matrix:
        return Computed(None, names, samples=sums)
    dtype = np.int64 if integer_counts and sample_weight is None else np.float64
    count = dask.delayed(_block_counts, pure=True, nout=3)
    parts = [
        count(
            t,
            p,
            w,
            kernel=kernel,
            labels=labels,
            caller=current_function(),
            with_supports=with_supports,
            samples=samples,
            dtype=dtype,
        )
        for t, p, w in zip(t_blocks, p_blocks, w_blocks)
    ]
    matrix = da.stack(
        [da.from_delayed(m, shape=(q + 1, q + 1), dtype=dtype) for m, _, _ in parts]
    ).sum(axis=0)
    if lazy and not with_supports:
        return Computed(matrix, names, samples=sums)
    # one compute: each chunk is read once, for all that is asked of it
    wanted = {"matrix": matrix}
    if with_supports:
        wanted["total"] = da.stack(
            [da.from_delayed(s, shape=(q + 1,), dtype=np.float64) for _, s, _ in parts]
        ).sum(axis=0)
    if samples:
        wanted["sums"] = dask.delayed(merge_tables)([table for _, _, table in parts])
    (got,) = dask.compute(wanted)
    matrix = _finite_sum(got["matrix"])
    sums = got.get("sums", sums)
    if not with_supports:
        return Computed(matrix, names, samples=sums)
    total = got["total"]
    if sample_weight is None:
        total = np.rint(total).astype(np.int64)
    return Computed(matrix, names, total[:q], total[q].item(), samples=sums)
