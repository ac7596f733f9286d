"""An MLCMReport logged to an experiment tracker: MLflow, Weights & Biases.

What a tracker keeps of one evaluation, read off the report (nothing is
computed again):

- the headline scalars: each average's scores (``mlcm/macro_f1``,
  ``mlcm/micro_precision``, ...), with their interval bounds as metrics of
  their own (``mlcm/macro_f1_low``, ``mlcm/macro_f1_high``) when the report
  has intervals, and ``mlcm/n_samples``: trackers plot scalars over steps;
- the per-label table (every row and column of the report) and the matrix,
  as table artifacts;
- the page (HTML) and the picture of the matrix (PNG).

The trackers are imported by the functions that log to them, never by
``import sklearn_mlcm``.
"""

import importlib
import math

import numpy as np
from scipy import sparse

from sklearn_mlcm._param_validation import current_function
from sklearn_mlcm._report._table import AVERAGE_ROWS, NO_LABEL_NAME

__all__ = ["log_mlflow", "log_wandb", "matrix_table", "report_table", "scalars"]

#: The report's columns that are amounts, not scores: in the tables, not
#: among the headline scalars.
_AMOUNTS = ("weight", "support")


def _import(module, extra):
    """The tracker's module, or an ImportError with the install hint."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{current_function()} requires {module}. You can install it with "
            f'`pip install {module}` or `pip install "sklearn-mlcm[{extra}]"`.'
        ) from exc


def _joined(prefix, name):
    """``prefix/name``, or ``name`` alone for an empty prefix."""
    return f"{prefix}/{name}" if prefix else name


def _metric_name(column):
    """A report column as a metric's name: ``"f1-score low"`` -> ``f1_low``."""
    return column.replace("-score", "").replace("-", "_").replace(" ", "_")


def scalars(report, prefix):
    """The headline scalars of a report: ``{name: float}``, in the report's
    order (each average, then its columns), and the number of instances."""
    values = {}
    for heading, entry in report.report.items():
        if heading not in AVERAGE_ROWS:
            continue
        average = heading.removesuffix(" avg")
        for column, value in entry.items():
            # a flag is a reason in words (or None), kept in the tables
            if column not in _AMOUNTS and not column.endswith(" flag"):
                name = f"{average}_{_metric_name(column)}"
                values[_joined(prefix, name)] = float(value)
    values[_joined(prefix, "n_samples")] = float(report.n_samples)
    return values


def _cell(value):
    """A table cell: a Python int for an integral amount, else a float
    (NaN as None, which JSON and the trackers' tables can hold); an
    interval's flag as it is, its reason or None."""
    if value is None or isinstance(value, str):
        return value
    value = float(value)
    if math.isnan(value):
        return None
    return value


def report_table(report):
    """``(columns, rows)`` of the report: one row per label then per
    average, ``label`` and ``kind`` ("label", "average" or "no label") then
    every column of the report, as numbers."""
    entries = list(report.report.items())
    columns = []
    for _, entry in entries:
        columns += [column for column in entry if column not in columns]
    rows = []
    for name, entry in entries:
        kind = (
            "average"
            if name in AVERAGE_ROWS
            else "no label"
            if report.include_no_label and name == NO_LABEL_NAME
            else "label"
        )
        rows.append([str(name), kind, *(_cell(entry[c]) for c in columns)])
    return ["label", "kind", *columns], rows


def matrix_table(report, ntl_label="NTL", npl_label="NPL"):
    """``(columns, rows)`` of the matrix: a dense one as a square table (the
    true label, then one column per predicted label and ``npl_label``; the
    last row ``ntl_label``), a sparse one as its non-zero cells (``true``,
    ``predicted``, ``value``)."""
    cm = report.confusion_matrix
    names = [str(name) for name in report.target_names]
    rows_named = [*names, ntl_label]
    columns_named = [*names, npl_label]
    if sparse.issparse(cm):
        cm = sparse.coo_array(cm)
        rows = [
            [rows_named[i], columns_named[j], _cell(v)]
            for i, j, v in zip(cm.row.tolist(), cm.col.tolist(), cm.data.tolist())
        ]
        return ["true", "predicted", "value"], rows
    cm = np.asarray(cm)
    rows = [
        [rows_named[i], *(_cell(v) for v in cm[i].tolist())] for i in range(cm.shape[0])
    ]
    return ["true \\ predicted", *columns_named], rows


def _figure(report):
    """The matrix drawn (:meth:`MLCMReport.plot`), its figure."""
    return report.plot().figure_


def _close(figure):
    import matplotlib.pyplot as plt

    plt.close(figure)


def log_mlflow(report, *, prefix, step, page, plot):
    """Log a report into MLflow's active run (started by MLflow as its
    ``log_metric`` starts one, when none is active)."""
    mlflow = _import("mlflow", "mlflow")
    mlflow.log_metrics(scalars(report, prefix), step=step)
    for name, (columns, rows) in (
        ("report.json", report_table(report)),
        ("confusion_matrix.json", matrix_table(report)),
    ):
        # log_dict, not log_table: the same {"columns", "data"} JSON, without
        # pandas (log_table goes through a DataFrame, and warns with pandas 3)
        table = {"columns": columns, "data": rows}
        mlflow.log_dict(table, _joined(prefix, name))
    if page:
        mlflow.log_text(report.to_html(), _joined(prefix, "report.html"))
    if plot:
        figure = _figure(report)
        try:
            mlflow.log_figure(figure, _joined(prefix, "confusion_matrix.png"))
        finally:
            _close(figure)


def log_wandb(report, run, *, prefix, step, page, plot):
    """Log a report into a W&B run (``run``, else ``wandb.run``)."""
    wandb = _import("wandb", "wandb")
    run = run if run is not None else wandb.run
    if run is None:
        raise ValueError(
            f"{current_function()} logs into a W&B run: start one with "
            "wandb.init() or pass run=... . There is no active run."
        )
    data = dict(scalars(report, prefix))
    for name, (columns, rows) in (
        ("report", report_table(report)),
        ("confusion_matrix", matrix_table(report)),
    ):
        data[_joined(prefix, name)] = wandb.Table(columns=columns, data=rows)
    if page:
        data[_joined(prefix, "page")] = wandb.Html(report.to_html())
    figure = None
    if plot:
        figure = _figure(report)
        data[_joined(prefix, "confusion_matrix_plot")] = wandb.Image(figure)
    try:
        run.log(data, step=step)
    finally:
        if figure is not None:
            _close(figure)
