"""The writers of a table of str cells: GitHub markdown and LaTeX (booktabs).

Each escapes every cell for its format, so that a label name such as
``a|b``, ``R&D``, ``50%`` or ``x_1`` (or one holding a newline) keeps the
table's columns. The report's cells come from :func:`._table.report_cells`.
"""

import re

from sklearn_mlcm._summary import printable

__all__ = [
    "escape_latex",
    "escape_markdown",
    "latex_notes",
    "latex_table",
    "markdown_notes",
    "markdown_table",
]

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
    """A cell of a GitHub markdown table: its control characters and line
    breaks escaped as plain text shows them (:func:`~sklearn_mlcm._summary.
    printable`: ``\\x1b``, ``\\n``, never raw, so that a file sent to a
    terminal shows them and no two names read alike), then ``|`` as
    ``\\|`` and a backslash doubled; for ``names`` (label names and
    headers, any text) also the other characters markdown reads (emphasis,
    strikethrough, code, links, images, HTML and entities such as
    ``&lt;``) backslash-escaped (a ``#`` stays: in a cell it starts no
    heading). A cell of numbers
    (``names=False``) keeps its brackets, ``0.62 [0.36, 0.83]``: not
    followed by a link target, they are no link."""
    text = printable(text)
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
    optional argument); before them, its control characters and line breaks
    escaped as plain text shows them (:func:`~sklearn_mlcm._summary.
    printable`: a control character is no valid TeX input, a form feed ends
    a paragraph, and no two names may read alike), their backslashes then
    printed as text.

    Examples
    --------
    >>> print(escape_latex("long--term R&D"))
    long-\\/-term R\\&D
    """
    text = printable(text)
    text = _LATEX_SPECIAL.sub(lambda match: _LATEX[match.group()], text)
    text = _LATEX_LIGATURES.sub(r"\\/", text)
    return _LATEX_LEADING.sub(r"\1{\2}", text)


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


def markdown_notes(heading, lines):
    """Notes under a markdown table: the ``heading`` as a paragraph, each
    of ``lines`` a list item, all escaped as text (:func:`escape_markdown`);
    "" without lines."""
    if not lines:
        return ""
    items = [f"- {escape_markdown(line)}" for line in lines]
    return "\n" + "\n".join([escape_markdown(heading), "", *items]) + "\n"


def latex_notes(heading, lines):
    """Notes under a LaTeX table, in ``\\footnotesize``: the ``heading`` and
    each of ``lines`` a paragraph, escaped (:func:`escape_latex`); "" without
    lines."""
    if not lines:
        return ""
    body = "\n".join(escape_latex(line) + r"\par" for line in [heading, *lines])
    return "\\par\\smallskip\n{\\footnotesize\n" + body + "}\n"
