"""Tables of a classification report: rows, markdown, LaTeX and a frame.

A table here is headers and rows of cells (str); :func:`report_rows` makes
them from a report dict (:func:`~sklearn_mlcm.mlcm_classification_report`
with ``output_dict=True``), :func:`markdown_table` and :func:`latex_table`
write them, each escaping every cell for its format, so that a label name
such as ``a|b``, ``R&D``, ``50%`` or ``x_1`` (or one holding a newline)
keeps the table's columns. :func:`report_frame` gives the same rows as a
pandas DataFrame (pandas is optional).
"""

import re

import numpy as np

from sklearn_mlcm._report import (
    NO_LABEL_NAME,
    REPORT_AVERAGES,
    SAMPLES_AVERAGE,
    _amount_format,
    all_integral,
)
from sklearn_mlcm._summary import label_frame

__all__ = [
    "AVERAGE_ROWS",
    "escape_latex",
    "escape_markdown",
    "latex_table",
    "markdown_table",
    "report_frame",
    "report_rows",
]

#: The keys of a report's averages, in the report's order.
AVERAGE_ROWS = tuple(f"{a} avg" for a in (*REPORT_AVERAGES, SAMPLES_AVERAGE))
_SCORES = ("precision", "recall", "f1-score")
_AMOUNTS = ("weight", "support")
_NEWLINES = re.compile(r"\r\n|\r|\n")
# CommonMark escapes any ASCII punctuation with a backslash: these would
# otherwise end a cell (|), start emphasis, strikethrough (~) or code, a link
# or an image (!), raw HTML (<>) or an entity (&lt; reads as "<")
_MARKDOWN = re.compile(r"([\\|`*_\[\]<>&~!])")
# in a cell of numbers ("0.62 [0.36, 0.83]") only what would break the row
_MARKDOWN_CELL = re.compile(r"([\\|])")
_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # with the OT1 font encoding these print as other glyphs (an em dash, an
    # inverted ! and ?)
    "|": r"\textbar{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}
_LATEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _LATEX))
# TeX's input ligatures: "--" and "---" print dashes, "``" and "''" curly
# double quotes, "?`" and "!`" an inverted ? and !, ",," (T1) a low double
# quote. An italic correction between the two characters (pandoc's "-\/-")
# keeps them apart in every engine, LuaTeX included, where an empty group
# ("-{}-") no longer breaks a ligature. "<<" and ">>" are already commands.
_LATEX_LIGATURES = re.compile(
    r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=,)(?=,)|(?<=[?!])(?=`)"
)
# a row follows \\ or \midrule, which look ahead (across spaces and the line
# break) for an optional [...] argument, and \\ for a *: braced, a leading [
# or * is text
_LATEX_LEADING = re.compile(r"^(\s*)([\[*])")


def escape_markdown(text, *, names=True):
    """A cell of a GitHub markdown table: ``|`` as ``\\|``, a backslash
    doubled and each line break a space; for ``names`` (label names and
    headers, any text) also the other characters markdown reads (emphasis,
    strikethrough, code, links, images, HTML and entities such as
    ``&lt;``) backslash-escaped (a ``#`` stays: in a cell it starts no
    heading). A cell of numbers
    (``names=False``) keeps its brackets, ``0.62 [0.36, 0.83]``: not
    followed by a link target, they are no link."""
    text = _NEWLINES.sub(" ", str(text))
    if not names:
        return _MARKDOWN_CELL.sub(r"\\\1", text)
    return _MARKDOWN.sub(r"\\\1", text)


def escape_latex(text):
    """A cell of a LaTeX tabular: ``& % $ # _ { } ~ ^ \\ | < >`` escaped (in
    one pass, so that an escape is never escaped again), TeX's input
    ligatures broken by an italic correction (``--`` as ``-\\/-``; two
    backquotes, two quotes, two commas, ``?`` or ``!`` before a backquote
    alike: each pair would print another character), a leading ``[`` or
    ``*`` braced (``{[}``: after ``\\\\`` or ``\\midrule`` it would open an
    optional argument), each line break a space.

    Examples
    --------
    >>> print(escape_latex("long--term R&D"))
    long-\\/-term R\\&D
    """
    text = _NEWLINES.sub(" ", str(text))
    text = _LATEX_SPECIAL.sub(lambda match: _LATEX[match.group()], text)
    text = _LATEX_LIGATURES.sub(r"\\/", text)
    return _LATEX_LEADING.sub(r"\1{\2}", text)


def report_rows(report, *, digits):
    """``(headers, rows, n_label_rows)`` of a report dict.

    ``headers`` are ``"label"`` and the report's columns, ``rows`` one list
    of str cells per label then per average, in the dict's order: a score as
    ``"0.62"``, or with its interval ``"0.62 [0.36, 0.83]"`` when the dict
    holds ``"precision low"`` and the others; weight and support as integers
    when they all are (as the text report prints them).
    """
    entries = list(report.items())
    with_bounds = bool(entries) and "precision low" in entries[0][1]
    amounts = {
        column: _amount_format([entry[column] for _, entry in entries], digits)
        for column in _AMOUNTS
    }
    rows = []
    for name, entry in entries:
        cells = [str(name)]
        for column in _SCORES:
            cell = f"{entry[column]:.{digits}f}"
            if with_bounds:
                low, high = entry[f"{column} low"], entry[f"{column} high"]
                cell += f" [{low:.{digits}f}, {high:.{digits}f}]"
            cells.append(cell)
        cells += [amounts[column](entry[column]) for column in _AMOUNTS]
        rows.append(cells)
    n_labels = sum(1 for name, _ in entries if name not in AVERAGE_ROWS)
    return ["label", *_SCORES, *_AMOUNTS], rows, n_labels


def markdown_table(headers, rows):
    """A GitHub (pipe) table: the first column left-aligned, the others
    right-aligned, every cell escaped (:func:`escape_markdown`): the headers
    and the first column (the names) as text, the other cells as numbers."""

    def line(cells, names=False):
        escaped = [escape_markdown(cells[0])]
        escaped += [escape_markdown(cell, names=names) for cell in cells[1:]]
        return "| " + " | ".join(escaped) + " |"

    align = "|" + "|".join([":---", *["---:"] * (len(headers) - 1)]) + "|"
    lines = [line(headers, names=True), align, *(line(row) for row in rows)]
    return "\n".join(lines) + "\n"


def latex_table(headers, rows, *, rules_after=()):
    """A booktabs ``tabular``: the first column left-aligned, the others
    right-aligned, every cell escaped (:func:`escape_latex`), a
    ``\\midrule`` after the header and after each row index of
    ``rules_after``. Needs ``\\usepackage{booktabs}``."""

    def line(cells):
        return " & ".join(escape_latex(cell) for cell in cells) + r" \\"

    lines = [
        r"\begin{tabular}{l" + "r" * (len(headers) - 1) + "}",
        r"\toprule",
        line(headers),
        r"\midrule",
    ]
    for i, row in enumerate(rows):
        lines.append(line(row))
        if i in rules_after and i != len(rows) - 1:
            lines.append(r"\midrule")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def _int64_holds(values):
    """Whether the float64 ``values`` are all integers (within rounding, see
    :func:`~sklearn_mlcm._report.all_integral`) that int64 holds exactly: a
    cast of 2**63 or more (weights of 1e19) would give -9223372036854775808.

    Examples
    --------
    >>> _int64_holds(np.array([1.0, 2.0**62])), _int64_holds(np.array([2.0**63]))
    (True, False)
    """
    if not all_integral(values):
        return False
    rounded = np.round(values)
    return bool(np.all((rounded >= -(2.0**63)) & (rounded < 2.0**63)))


def report_frame(report, *, what, include_no_label=False):
    """The report dict as a tidy pandas DataFrame.

    One row per label then per average, indexed by name (index ``"label"``,
    :func:`~sklearn_mlcm._summary.label_frame`), with the columns ``kind``
    ("label", "average", or "no label" for the row of the no-label index
    when ``include_no_label``), ``precision``, ``recall``, ``f1-score``,
    ``weight``, ``support`` and, when the dict has intervals, ``precision
    low``, ``precision high``, ..., ``f1-score high``. The scores are
    float64; ``weight`` and ``support`` int64 when every value of the
    column is an integer (as the text report prints them) that int64 holds,
    else float64 (Krstinic's matrix, fractional sample weights, whole
    amounts of 2**63 or more, which int64 would wrap to negative numbers).
    ``what`` names the call in the ImportError without pandas.
    """
    names = [name for name in report if name not in AVERAGE_ROWS]
    averages = [name for name in report if name in AVERAGE_ROWS]
    entries = [report[name] for name in [*names, *averages]]
    columns = [*_SCORES, *_AMOUNTS]
    if entries and "precision low" in entries[0]:
        columns += [f"{score} {end}" for score in _SCORES for end in ("low", "high")]
    data = {}
    for column in columns:
        values = np.array([entry[column] for entry in entries], dtype=np.float64)
        if column in _AMOUNTS and _int64_holds(values):
            values = np.round(values).astype(np.int64)
        data[column] = values
    frame = label_frame(what, names, averages, data)
    if include_no_label and names and names[-1] == NO_LABEL_NAME:
        frame.iloc[len(names) - 1, frame.columns.get_loc("kind")] = NO_LABEL_NAME
    return frame
