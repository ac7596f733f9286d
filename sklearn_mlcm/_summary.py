"""Summaries and frames of result objects: one screen to read, one frame to keep.

A result prints a summary of at most :data:`MAX_LINES` lines, the headline
numbers first, then a table of the labels that matter (at most
:data:`MAX_LABEL_ROWS` of them, saying how many were left out and that
``.to_frame()`` has them all); ``to_frame()`` gives one row per label and per
average. This module holds the pieces every result shares, and imports only
NumPy (pandas when a frame is asked for):

- :func:`format_number` -- a number as a table cell (``"0.2276"``,
  ``"1,234"``, ``"nan"``, ``"-inf"``);
- :func:`shorten` -- a label name cut to a table's width;
- :func:`format_table` -- fixed-width lines of a header and rows of cells,
  the first column left-aligned, the others right-aligned;
- :func:`label_rows` -- which labels a summary shows: all of them in order
  when they fit, else the first ``limit`` of a ranking (stable);
- :func:`label_table` -- :func:`format_table` of those rows, with the line
  ``"... and K more labels (see .to_frame())"`` when some were left out
  (``noun="pair"`` for rows of another kind);
- :func:`require_pandas` -- pandas, or an ImportError naming the call and
  ``pip install "sklearn-mlcm[pandas]"``;
- :func:`label_frame` -- the frame: index named ``"label"`` (the label
  names, then the averages' row names), a ``kind`` column (``"label"`` or
  ``"average"``), then the given columns.
"""

import importlib

import numpy as np

__all__ = [
    "MAX_LABEL_ROWS",
    "MAX_LINES",
    "NAME_WIDTH",
    "format_number",
    "format_table",
    "label_frame",
    "label_rows",
    "label_table",
    "require_pandas",
    "shorten",
]

#: A summary holds at most this many lines.
MAX_LINES = 40

#: A summary's table of labels shows at most this many labels.
MAX_LABEL_ROWS = 20

#: Label names longer than this are cut in a summary (never in a frame).
NAME_WIDTH = 28


def format_number(value, digits=4):
    """``value`` as a table cell: floats with ``digits`` decimals, integers
    with thousands separators, NaN as ``"nan"`` and infinities as
    ``"inf"``/``"-inf"``."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    value = float(value)
    if np.isnan(value):
        return "nan"
    if np.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def shorten(name, width=NAME_WIDTH):
    """``name`` as str, on one line, cut to ``width`` characters with
    ``"..."`` at its end when longer."""
    text = " ".join(str(name).split())
    if len(text) <= width:
        return text
    return text[: width - 3] + "..."


def format_table(header, rows):
    """Fixed-width lines: ``header`` (a sequence of str) then ``rows``
    (sequences of str of the same length), columns two spaces apart, the
    first left-aligned and the others right-aligned, no trailing spaces."""
    table = [list(header), *[list(row) for row in rows]]
    widths = [max(len(row[j]) for row in table) for j in range(len(header))]
    lines = []
    for row in table:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return lines


def label_rows(n_labels, ranking, limit=MAX_LABEL_ROWS):
    """The labels a summary shows, as an array of indices: ``0 ... n_labels -
    1`` when at most ``limit``; else the first ``limit`` of ``ranking`` (an
    array of keys, one per label, the smallest first; a stable sort keeps
    label order among equal keys, NaN keys last)."""
    if n_labels <= limit:
        return np.arange(n_labels)
    order = np.argsort(np.asarray(ranking, dtype=np.float64), kind="stable")
    return order[:limit]


def label_table(header, cells, shown, n_labels, *, noun="label"):
    """The lines of a table of labels: :func:`format_table` of ``header`` and
    the ``cells`` (one sequence of str per label, indexed by label) of the
    labels ``shown``, then, when fewer than ``n_labels`` are shown, the line
    ``"... and K more labels (see .to_frame())"`` (``noun`` names the rows
    otherwise: ``"pair"`` gives ``"... and K more pairs ..."``)."""
    lines = format_table(header, [cells[i] for i in shown])
    left = n_labels - len(shown)
    if left > 0:
        plural = noun if left == 1 else f"{noun}s"
        lines.append(f"... and {left:,} more {plural} (see .to_frame())")
    return lines


def require_pandas(what):
    """The pandas module, or an ImportError saying that ``what`` (a call such
    as ``"ConfidenceIntervalResult.to_frame()"``) needs it and how to install
    it."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        raise ImportError(
            f"{what} requires pandas. You can install it with `pip install pandas` "
            'or `pip install "sklearn-mlcm[pandas]"`.'
        ) from None


def label_frame(what, names, averages, columns):
    """A pandas DataFrame with one row per label and per average.

    Parameters
    ----------
    what : str
        The call, for :func:`require_pandas`'s message.

    names : list of str
        The labels' names, the first rows' index.

    averages : list of str
        The averages' row names (``"macro avg"``), the last rows' index.

    columns : dict of str to array-like of shape (len(names) + len(averages),)
        The columns, in order, after ``kind``; each is taken as a NumPy array
        (float values stay float64, bit for bit).

    Returns
    -------
    frame : pandas.DataFrame
        Index named ``"label"``; column ``kind`` is ``"label"`` for the
        labels' rows and ``"average"`` for the averages'.
    """
    pandas = require_pandas(what)
    index = pandas.Index([*names, *averages], name="label", dtype=object)
    data = {"kind": ["label"] * len(names) + ["average"] * len(averages)}
    for name, values in columns.items():
        data[name] = np.asarray(values)
    return pandas.DataFrame(data, index=index)
