"""Printing: the text tables and the JSON document of the command line.

The classification report is the library's own text
(:func:`~sklearn_mlcm.mlcm_classification_report`), printed as it comes: its
layout (a name column and fixed-width score columns) is the report's. The
command line's other tables (the MLCM, the one-vs-rest totals, the most
confused label pairs and label sets) go through one formatter,
:func:`format_table`; the instances of the worked example are two groups of
0/1 columns side by side (:func:`format_instances`).

Label names longer than :data:`MAX_NAME_CHARS` are shortened in the text
(:func:`short_names`), so that a long name does not widen every line of a
report of many labels; the JSON and the CSV of the matrix keep them whole.
"""

import json
import math

import numpy as np

from sklearn_mlcm._summary import printable

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_SET_CHARS",
    "format_instances",
    "format_json",
    "format_labelset",
    "format_mlcm",
    "format_table",
    "format_value",
    "indent",
    "short_names",
    "shortened_names",
]

#: The longest label name printed whole in the text output.
MAX_NAME_CHARS = 40
#: The longest label set printed whole in the table of label-set confusions.
MAX_SET_CHARS = 60
_ELLIPSIS = "..."


def format_table(rows, row_names, col_names, align=None):
    """Text table: a header line, then one line per row.

    Parameters
    ----------
    rows : list of list of str
        The cells, already formatted.
    row_names, col_names : list of str
        The names in front of the rows (right-aligned) and above the columns.
    align : str, default=None
        One character per column, ``">"`` (right-aligned, for numbers) or
        ``"<"`` (left-aligned, for names); None aligns every column right.

    Returns
    -------
    text : str
        Lines without a trailing newline or trailing spaces; columns two
        spaces apart.

    Examples
    --------
    >>> print(format_table([["1", "10"], ["200", "3"]], ["a", "bb"], ["x", "y"]))
          x   y
     a    1  10
    bb  200   3
    >>> print(format_table([["C0", "4"], ["NTL", "1"]], ["1", "2"], ["true", "n"],
    ...                    align="<>"))
       true  n
    1  C0    4
    2  NTL   1
    """
    align = align or ">" * len(col_names)
    name_width = max(len(name) for name in row_names)
    widths = [
        max(len(col), *(len(row[j]) for row in rows)) for j, col in enumerate(col_names)
    ]
    header = "".join(f"  {c:{a}{w}}" for c, a, w in zip(col_names, align, widths))
    lines = [(" " * name_width + header).rstrip()]
    for name, row in zip(row_names, rows):
        cells = "".join(f"  {c:{a}{w}}" for c, a, w in zip(row, align, widths))
        lines.append(f"{name:>{name_width}}{cells}".rstrip())
    return "\n".join(lines)


def format_value(value, digits=2):
    """A matrix cell or count: an integer as it is, anything else with
    ``digits`` decimals, both with thousands separators as the rest of the
    output (``4,778``).

    Examples
    --------
    >>> format_value(4778), format_value(1234.5)
    ('4,778', '1,234.50')
    """
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def short_names(names, width=MAX_NAME_CHARS):
    """The label names as printed: :func:`~sklearn_mlcm._summary.printable`
    (control characters escaped) of :func:`shortened_names`.

    Examples
    --------
    >>> short_names(["C0", "a_label_name_of_41_characters_in_all_0041"])
    ['C0', 'a_label_name_of_41_chara...in_all_0041']
    """
    return [printable(name) for name in shortened_names(names, width)]


def shortened_names(names, width=MAX_NAME_CHARS):
    """The label names, each longer than ``width`` shortened to ``width``,
    not yet escaped: what the command line gives the library's report,
    which prints (escapes) them once, as :func:`short_names` does for the
    matrix.

    A long name keeps its start and its end around ``"..."``, where label
    names often differ (``"Arts/Music/Rock"``, ``"Arts/Music/Jazz"``). A name
    whose short form would equal another name stays whole: the names printed
    stay as distinct as the names read.
    """
    names = [str(name) for name in names]
    head = (width - len(_ELLIPSIS)) * 2 // 3
    tail = width - len(_ELLIPSIS) - head

    def shorten(name):
        if len(name) <= width:
            return name
        return name[:head] + _ELLIPSIS + name[len(name) - tail :]

    short = [shorten(name) for name in names]
    taken = {}
    for name in [*names, *short]:
        taken[name] = taken.get(name, 0) + 1
    # A short form is kept when no other name, long or short, is spelled so.
    return [s if s == name or taken[s] == 1 else name for name, s in zip(names, short)]


def format_labelset(labels, width=MAX_SET_CHARS):
    """A label set as ``{a, b}``, ``{}`` when empty; a long one ends in
    ``... +N`` (N labels not shown) within ``width`` characters.

    Examples
    --------
    >>> format_labelset(["C0", "C2"])
    '{C0, C2}'
    >>> format_labelset([])
    '{}'
    >>> format_labelset([f"label{j}" for j in range(20)], width=40)
    '{label0, label1, label2, ... +17}'
    """
    whole = "{" + ", ".join(labels) + "}"
    if len(whole) <= width:
        return whole
    shown = []
    for j, label in enumerate(labels):
        rest = f", {_ELLIPSIS} +{len(labels) - j - 1}}}"
        if len("{" + ", ".join([*shown, label])) + len(rest) > width and shown:
            break
        shown.append(label)
    return "{" + ", ".join(shown) + f", {_ELLIPSIS} +{len(labels) - len(shown)}}}"


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
    cells = [[format_value(v, digits) for v in row] for row in cm.tolist()]
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


def format_json(target_names, cm, report, **extra):
    """One JSON object: ``{"target_names", "confusion_matrix", "report"}`` (the
    library's names), then the ``extra`` keys, if any.

    Examples
    --------
    >>> import numpy as np
    >>> print(format_json(["a"], np.eye(2, dtype=int), {"a": {"recall": np.nan}}))
    {"target_names": ["a"], "confusion_matrix": [[1, 0], [0, 1]],
     "report": {"a": {"recall": null}}}
    """
    output = {
        "target_names": target_names,
        "confusion_matrix": cm.tolist(),
        "report": report,
        **extra,
    }
    return json.dumps(_nan_to_none(output), allow_nan=False)
