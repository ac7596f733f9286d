"""Summaries and frames of result objects: one screen to read, one frame to keep.

A result prints a summary of at most :data:`MAX_LINES` lines, the headline
numbers first, then a table of the labels that matter (at most
:data:`MAX_LABEL_ROWS` of them, saying how many were left out and that
``.to_frame()`` has them all); ``to_frame()`` gives one row per label and per
average. This module holds the pieces every result shares, and imports only
NumPy (pandas when a frame is asked for):

- :func:`format_number` -- a number as a table cell (``"0.2276"``,
  ``"1,234"``, ``"nan"``, ``"-inf"``);
- :func:`printable` -- a name as plain text shows it: each control
  character visibly escaped (``"\\x1b"``, ``"\\n"``), the one escaping of
  every plain-text output (the text report, the summaries, the command line);
- :func:`shorten` -- a label name cut to a table's width (the one cutter of
  names: the summaries', the page picture's, the legends'), printable;
- :func:`format_table` -- fixed-width lines of a header and rows of cells,
  the first column and text left-aligned, numbers right-aligned
  (:func:`column_alignment`, which tells numbers by :func:`is_number`), or
  as told;
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
import re
import unicodedata

import numpy as np

__all__ = [
    "MAX_LABEL_ROWS",
    "MAX_LINES",
    "NAME_WIDTH",
    "column_alignment",
    "format_number",
    "format_table",
    "is_number",
    "label_frame",
    "label_rows",
    "label_table",
    "printable",
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


# What a terminal would act on or not show: C0 and C1 controls and DEL (Cc),
# format characters (Cf: bidi overrides, zero-width spaces), lone surrogates
# (Cs, which stdout cannot encode) and the line and paragraph separators.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def printable(name):
    """``name`` as str, each control character escaped as :func:`repr`
    escapes it (``"\\x1b"``, ``"\\n"``, ``"\\u202e"``): what plain text
    prints of a name.

    An escape sequence in a label name (``"\\x1b]0;title\\x07"``, read from
    a CSV header) is shown, not executed by the terminal, and a line break
    cannot split a row of a table. C0 and C1 controls, DEL, format
    characters (bidi overrides, zero-width spaces), lone surrogates and the
    line and paragraph separators are escaped; every other character,
    spaces and backslashes included, prints as is, so that a usual name
    prints unchanged (``C:\\users``, ``\\alpha``). Only backslashes that
    would read as an escape are doubled, as repr doubles them: those before
    an escaped character, or before what reads as one (``n``, ``r``, ``t``,
    ``x`` and 2 hexadecimal digits, ``u`` and 4, ``U`` and 8), so that no
    two names print alike (the name ESC and the four characters ``\\x1b``
    did). The text is meant to be printed once: escaped again, its own
    escapes would be doubled. Markdown and LaTeX escape the printed text
    their own way; HTML escapes names its own way.

    Examples
    --------
    >>> from sklearn_mlcm._summary import printable
    >>> printable("C0"), printable("red\\x1b[31m"), printable("a\\nb")
    ('C0', 'red\\\\x1b[31m', 'a\\\\nb')
    >>> print(printable("a\\tb"), printable("C:\\\\users"), printable("a\\\\x1b"))
    a\\tb C:\\users a\\\\x1b
    """
    text = str(name)
    if text.isprintable() and "\\" not in text:  # the usual name: as it is
        return text
    escaped = [_escaped(c) for c in text]
    for run in _BACKSLASHES.finditer(text):
        after = run.end()
        if after < len(text) and (
            escaped[after] != text[after] or _READS_AS_ESCAPE.match(text, after)
        ):
            for i in range(run.start(), after):
                escaped[i] = "\\\\"
    return "".join(escaped)


def _escaped(c):
    return repr(c)[1:-1] if unicodedata.category(c) in _UNPRINTABLE else c


def escape_controls(text):
    """``text`` with each control character escaped as :func:`printable`
    escapes it, and nothing else (its backslashes as they are): what a
    message that quotes a file name or an argument prints, shown by the
    terminal, not executed."""
    text = str(text)
    return text if text.isprintable() else "".join(_escaped(c) for c in text)


_BACKSLASHES = re.compile(r"\\+")
#: What would read as an escape after a backslash: repr's own (lower-case
#: hexadecimal digits).
_READS_AS_ESCAPE = re.compile(r"[nrt]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}")


def shorten(name, width=NAME_WIDTH, *, keep="start", mark="..."):
    """``name`` as :func:`printable` text, on one line, cut to ``width``
    characters when longer.

    ``keep="start"`` keeps its start and ends it with ``mark``
    (``"a_long_na..."``); ``keep="both"`` keeps two thirds of the room for
    its start and the rest for its end, around ``mark``
    (``"a_long_n…e_end"``), for names that differ at their end.
    """
    text = " ".join(printable(name).split())
    if len(text) <= width:
        return text
    room = width - len(mark)
    if keep == "start":
        return text[:room] + mark
    head = room * 2 // 3
    return f"{text[:head]}{mark}{text[len(text) - (room - head):]}"


def is_number(cell):
    """Whether a table cell reads as a number: what :func:`format_number`
    writes (``"0.2276"``, ``"1,234"``, ``"nan"``, ``"-inf"``) or another
    float literal (``"1.2e-05"``); ``"True"``, names and label sets do not."""
    try:
        float(cell.replace(",", ""))
    except ValueError:
        return False
    return bool(cell.strip())


def column_alignment(header, rows):
    """The automatic alignment of :func:`format_table`: ``"<"`` (left) for
    the first column, which names the rows, and for every column holding
    text; ``">"`` (right) for the other columns, whose every cell
    :func:`is_number` (a column with no rows is a column of numbers)."""
    return "<" + "".join(
        ">" if all(is_number(row[j]) for row in rows) else "<"
        for j in range(1, len(header))
    )


def format_table(header, rows, align=None):
    """Fixed-width lines: ``header`` (a sequence of str) then ``rows``
    (sequences of str of the same length), columns two spaces apart, no
    trailing spaces.

    ``align`` is one character per column, ``"<"`` (left) or ``">"``
    (right); by default (None) :func:`column_alignment`: the first column
    and text left, numbers right, so that names and label sets read from
    their first letter and numbers line up on their last digit. A header
    cell is aligned as its column.

    Examples
    --------
    >>> from sklearn_mlcm._summary import format_table
    >>> for line in format_table(["true", "predicted", "value"],
    ...                          [["cat", "dog", "12"], ["mouse", "no label", "3"]]):
    ...     print(line)
    true   predicted  value
    cat    dog           12
    mouse  no label       3
    """
    table = [list(header), *[list(row) for row in rows]]
    if align is None:
        align = column_alignment(header, table[1:])
    if len(align) != len(header) or set(align) - set("<>"):
        raise ValueError(
            f"align must be one of '<' or '>' per column ({len(header)}); "
            f"got {align!r}."
        )
    widths = [max(len(row[j]) for row in table) for j in range(len(header))]
    lines = []
    for row in table:
        cells = [
            cell.ljust(width) if side == "<" else cell.rjust(width)
            for cell, width, side in zip(row, widths, align)
        ]
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


def label_table(header, cells, shown, n_labels, *, noun="label", align=None):
    """The lines of a table of labels: :func:`format_table` of ``header`` and
    the ``cells`` (one sequence of str per label, indexed by label) of the
    labels ``shown``, aligned by ``align`` (by default text left, numbers
    right), then, when fewer than ``n_labels`` are shown, the line
    ``"... and K more labels (see .to_frame())"`` (``noun`` names the rows
    otherwise: ``"pair"`` gives ``"... and K more pairs ..."``)."""
    lines = format_table(header, [cells[i] for i in shown], align)
    left = n_labels - len(shown)
    if left > 0:
        plural = noun if left == 1 else f"{noun}s"
        lines.append(f"... and {left:,} more {plural} (see .to_frame())")
    return lines


def label_section(names, header, columns, shown, undefined, chosen):
    """The lines of a result's table of labels: a caption (``"The 20 of 159
    labels with {chosen}:"``, or ``"Each label:"`` when all are shown), then
    :func:`label_table` of the ``header`` and, per label, its shortened name
    and its value in each of ``columns`` (arrays indexed by label), with an
    ``"undefined"`` column of ``undefined`` (counts per label) when any is
    not 0."""
    header = list(header)
    cells = [
        [shorten(names[i])] + [format_number(column[i]) for column in columns]
        for i in range(len(names))
    ]
    undefined = np.asarray(undefined)
    if undefined.any():
        header.append("undefined")
        for i, row in enumerate(cells):
            row.append(format_number(undefined[i]))
    if len(shown) < len(names):
        caption = f"The {len(shown):,} of {len(names):,} labels with {chosen}:"
    else:
        caption = "Each label:"
    return ["", caption, *label_table(header, cells, shown, len(names))]


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
