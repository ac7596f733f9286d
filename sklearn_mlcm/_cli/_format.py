"""Printing: the text tables and the JSON document of the command line.

The classification report is the library's own text
(:func:`~sklearn_mlcm.mlcm_classification_report`), printed as it comes: its
layout (a name column and fixed-width score columns) is the report's. The
command line's other tables (the MLCM, the one-vs-rest totals) go through
one formatter, :func:`format_table`; the instances of the worked example are
two groups of 0/1 columns side by side (:func:`format_instances`).
"""

import json
import math

import numpy as np

__all__ = [
    "format_instances",
    "format_json",
    "format_mlcm",
    "format_table",
    "indent",
]


def format_table(rows, row_names, col_names):
    """Right-aligned text table: a header line, then one line per row.

    Parameters
    ----------
    rows : list of list of str
        The cells, already formatted.
    row_names, col_names : list of str
        The names in front of the rows and above the columns.

    Returns
    -------
    text : str
        Lines without a trailing newline; columns two spaces apart.

    Examples
    --------
    >>> print(format_table([["1", "10"], ["200", "3"]], ["a", "bb"], ["x", "y"]))
          x   y
     a    1  10
    bb  200   3
    """
    name_width = max(len(name) for name in row_names)
    widths = [
        max(len(col), *(len(row[j]) for row in rows)) for j, col in enumerate(col_names)
    ]
    header = "".join(f"  {c:>{w}}" for c, w in zip(col_names, widths))
    lines = [" " * name_width + header]
    for name, row in zip(row_names, rows):
        cells = "".join(f"  {c:>{w}}" for c, w in zip(row, widths))
        lines.append(f"{name:>{name_width}}{cells}")
    return "\n".join(lines)


def format_mlcm(cm, names, digits=2):
    """The MLCM as text: rows ``names`` and NTL, columns ``names`` and NPL.

    Integer counts print as integers, fractions with ``digits`` decimals.

    Examples
    --------
    >>> import numpy as np
    >>> print(format_mlcm(np.array([[2, 1], [0, 1]]), ["a"]))
           a  NPL
      a    2    1
    NTL    0    1
    """
    if np.issubdtype(cm.dtype, np.integer):
        cells = [[str(v) for v in row] for row in cm.tolist()]
    else:
        cells = [[f"{v:.{digits}f}" for v in row] for row in cm.tolist()]
    return format_table(cells, [*names, "NTL"], [*names, "NPL"])


def format_instances(names, y_true, y_pred):
    """Instances as text: one line each, its true then its predicted labels.

    Examples
    --------
    >>> print(format_instances(["a", "b"], [[1, 0]], [[1, 1]]))
              true    predicted
    instance  a b    a b
           1  1 0    1 1
    """
    head = " ".join(names)

    def values(row):
        return " ".join(f"{v:>{len(name)}}" for v, name in zip(row, names))

    lines = [
        f"{'':8}  {'true':<{len(head)}}    predicted",
        f"instance  {head}    {head}",
    ]
    for i, (t, p) in enumerate(zip(y_true, y_pred), start=1):
        lines.append(f"{i:>8}  {values(t)}    {values(p)}")
    return "\n".join(lines)


def indent(text, spaces=4):
    """``text`` with every non-empty line indented by ``spaces``."""
    return "\n".join(" " * spaces + line if line else line for line in text.split("\n"))


def _nan_to_none(value):
    """JSON has no NaN: undefined ratios (zero_division=nan) become null."""
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def format_json(labels, cm, report):
    """One JSON object: ``{"labels", "confusion_matrix", "report"}``.

    Examples
    --------
    >>> import numpy as np
    >>> print(format_json(["a"], np.eye(2, dtype=int), {"a": {"recall": np.nan}}))
    {"labels": ["a"], "confusion_matrix": [[1, 0], [0, 1]],
     "report": {"a": {"recall": null}}}
    """
    output = {"labels": labels, "confusion_matrix": cm.tolist(), "report": report}
    return json.dumps(_nan_to_none(output), allow_nan=False)
