"""Reading a printed classification report by its row and column names.

A test asserts a printed report's numbers as printed, cell by cell, by row
and column name (:func:`report_cells`), not the whole string: a new column,
or a wider one, then breaks the one test that pins the whole layout
(``tests/test_golden.py``, against ``tests/golden/``), not every test that
prints a report; :func:`read_markdown` and :func:`read_latex` read the
tables of ``MLCMReport`` so. :func:`read_report` checks what every report keeps whatever
its columns: each row ends under the last header, and every other line is
blank or the legend of the intervals.
"""

import re

#: The columns of the default report (scikit-learn's three and the amounts).
COLUMNS = ("precision", "recall", "f1-score", "weight", "support")


def read_report(text):
    """``({row name: {column name: cell}}, legend)`` of a printed report.

    A cell is the text printed under the column's header, which ends where
    the header ends (``"0.62"``, or ``"0.62 [0.36, 0.83]"`` with intervals);
    the legend is the report's last non-blank line when it is no row (the
    intervals' ``[low, high]: ...``), else None. The notes of flagged
    intervals, under the legend ("Flagged intervals ..."), are not read.
    """
    lines = text.splitlines()
    header, width = lines[0], len(lines[0].rstrip())
    columns = [(m.group(), m.end()) for m in re.finditer(r"\S+(?: \S+)*", header)]
    rows, legend = {}, None
    for line in lines[1:]:
        if line.startswith("Flagged intervals"):
            break
        if not line.strip():
            continue
        if len(line.rstrip()) != width:
            assert legend is None and line.startswith("["), f"misaligned: {line!r}"
            legend = line
            continue
        first = re.match(r"^\s*(.*?)\s{2,}(\S.*)$", line[: columns[0][1]])
        assert first, f"no row name: {line!r}"
        name, cells = first.group(1), {columns[0][0]: first.group(2)}
        for (_, start), (column, end) in zip(columns, columns[1:]):
            cells[column] = line[start:end].strip()
        assert name not in rows, f"repeated row {name!r}"
        rows[name] = cells
    return rows, legend


def report_cells(text, columns=COLUMNS):
    """``{row name: tuple of its cells in columns}`` of a printed report:
    the numbers as printed, read by name, whatever other columns it has."""
    rows, _ = read_report(text)
    return {name: tuple(cells[c] for c in columns) for name, cells in rows.items()}


def _cells(line, separator):
    return [cell.strip() for cell in line.split(separator)]


def read_markdown(text):
    """``{row name: {column name: cell}}`` of a report's markdown table
    (``MLCMReport.to_markdown``): the header, the alignment row, the rows."""
    lines = text.splitlines()
    header = _cells(lines[0].strip("|"), "|")
    assert set(lines[1]) <= set("|:- "), f"no alignment row: {lines[1]!r}"
    rows = {}
    for line in lines[2:]:
        cells = _cells(line.strip().removeprefix("|").removesuffix("|"), "|")
        assert len(cells) == len(header), f"a row of {len(cells)} cells: {line!r}"
        rows[cells[0]] = dict(zip(header[1:], cells[1:]))
    return rows


def read_latex(text):
    """``{row name: {column name: cell}}`` of a report's booktabs table
    (``MLCMReport.to_latex``): the rows between ``\\toprule`` and
    ``\\bottomrule``, rules left out, the first row the header."""
    lines = text.splitlines()
    body = lines[lines.index(r"\toprule") + 1 : lines.index(r"\bottomrule")]
    table = [
        _cells(line.removesuffix(r"\\"), "&") for line in body if line != r"\midrule"
    ]
    header, rows = table[0], {}
    for cells in table[1:]:
        assert len(cells) == len(header), f"a row of {len(cells)} cells: {cells}"
        rows[cells[0]] = dict(zip(header[1:], cells[1:]))
    return rows


def table_cells(rows, columns=COLUMNS):
    """``{row name: tuple of its cells in columns}`` of :func:`read_markdown`
    or :func:`read_latex` rows."""
    return {name: tuple(cells[c] for c in columns) for name, cells in rows.items()}
