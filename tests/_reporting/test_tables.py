"""Markdown and LaTeX tables of a report: exact text, and names that survive."""

import re

import numpy as np
import pytest
from paper_data import TABLE_1_PRED, TABLE_1_TRUE
from report_reading import COLUMNS, read_latex, read_markdown, table_cells

from sklearn_mlcm import MLCMReport
from sklearn_mlcm._report._table import report_cells, table_of_report
from sklearn_mlcm._report._writers import (
    escape_latex,
    escape_markdown,
    latex_table,
    markdown_table,
)

#: Their toy data's macro averages are over labels with fewer than 5
#: positives: flagged intervals, whose warning (issue #32) is checked in
#: tests/test_report_flags.py; the tests here are about the outputs.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

T, P = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
#: Names that break a naive table: a pipe, an ampersand, underscores, a
#: percent sign, line breaks, backslashes and the other TeX specials.
HOSTILE = [
    "a|b",
    "R&D_1",
    "50%\nof it",
    "back\\slash {x} $#~^",
    "<b>*x*</b>\r\n`c`",
    "[x] &lt;i&gt; a~~b~~",
]


def _hostile_case():
    rng = np.random.default_rng(0)
    y = (rng.random((60, 6)) < 0.4).astype(int)
    pred = np.where(rng.random((60, 6)) < 0.2, 1 - y, y)
    return y, pred


def _unescaped(line, char):
    """How many times ``char`` occurs in ``line`` not preceded by a backslash
    (a doubled backslash escapes itself)."""
    return len(re.findall(r"(?<!\\)(?:\\\\)*" + re.escape(char), line))


def test_escape_markdown_escapes_pipes_backslashes_and_line_breaks():
    """| -> \\|, backslash doubled, markdown's specials escaped, breaks a space."""
    assert escape_markdown("a|b") == r"a\|b"
    assert escape_markdown("a\\b") == r"a\\b"
    # line breaks and controls as plain text shows them: never raw, and
    # "a\nb" reads apart from "a b"
    assert escape_markdown("two\nlines\r\nhere\rend") == r"two\\nlines\\r\\nhere\\rend"
    assert escape_markdown("a\x1b[31m\u202eb") == r"a\\x1b\[31m\\u202eb"
    assert escape_markdown("x_1 *y* `z` [w] <i>") == r"x\_1 \*y\* \`z\` \[w\] \<i\>"
    assert escape_markdown("R&D 50% #1") == r"R\&D 50% #1"
    # an entity would print as its character, ~~ strike through, ! an image
    assert escape_markdown("&lt;b&gt; a~~b~~ ![i](x)") == (
        r"\&lt;b\&gt; a\~\~b\~\~ \!\[i\](x)"
    )
    assert escape_markdown(3) == "3"
    assert escape_markdown("0.6 [0.3, 0.8] a|b", names=False) == r"0.6 [0.3, 0.8] a\|b"


def test_escape_latex_escapes_every_special_once():
    """& % $ # _ { } ~ ^ \\ | < > escaped in one pass, a leading [ or * braced;
    line breaks a space."""
    assert escape_latex("R&D 50% $5 #1 x_1") == r"R\&D 50\% \$5 \#1 x\_1"
    assert escape_latex("{a} b~c^d") == r"\{a\} b\textasciitilde{}c\textasciicircum{}d"
    assert escape_latex("a\\b") == r"a\textbackslash{}b"
    assert escape_latex("two\nlines\r\nend") == (
        r"two\textbackslash{}nlines\textbackslash{}r\textbackslash{}nend"
    )
    # a control character is no valid TeX input, a form feed ends a paragraph
    assert escape_latex("a\x0cb\x1b") == r"a\textbackslash{}x0cb\textbackslash{}x1b"
    assert escape_latex("a|b <c>") == r"a\textbar{}b \textless{}c\textgreater{}"
    # after \\ or \midrule a leading [ opens an optional argument, * a star
    assert escape_latex("[x] a[1]") == "{[}x] a[1]"
    assert escape_latex(" *y*") == " {*}y*"


def test_escape_latex_breaks_input_ligatures():
    """TeX's input ligatures (dashes, curly quotes, inverted ? and !, a low
    quote) are broken by an italic correction, so a name prints as written;
    the other escapes stay as they were."""
    assert escape_latex("long--term") == r"long-\/-term"
    assert escape_latex("a---b") == r"a-\/-\/-b"
    assert escape_latex("``q''") == r"`\/`q'\/'"
    assert escape_latex("why?`") == r"why?\/`"
    assert escape_latex("wow!`") == r"wow!\/`"
    assert escape_latex(",,low") == r",\/,low"
    assert escape_latex("'" * 3) == r"'\/'\/'"
    # one of each is no ligature; << and >> are already commands
    assert escape_latex("a-b 'c' `d` e, f? g!") == "a-b 'c' `d` e, f? g!"
    assert escape_latex("<<a>>") == (
        r"\textless{}\textless{}a\textgreater{}\textgreater{}"
    )
    assert escape_latex("a|b--c_d") == r"a\textbar{}b-\/-c\_d"
    assert escape_latex("[x--y") == r"{[}x-\/-y"


def test_to_latex_prints_ligature_names_as_written():
    """to_latex breaks the ligatures of label names in its rows; the
    markdown keeps them (markdown has none)."""
    names = ["long--term", "``q''", "why?`"]
    report = MLCMReport.from_predictions(
        np.eye(3, dtype=int), np.eye(3, dtype=int), target_names=names
    )
    rows = [line.split(" & ")[0] for line in report.to_latex().splitlines()]
    assert rows[4:7] == [r"long-\/-term", r"`\/`q'\/'", r"why?\/`"]
    assert "| long--term |" in report.to_markdown()


def test_to_markdown_of_table_1():
    """The markdown table of Heydarian et al., Table 1, as the text report
    prints it."""
    report = MLCMReport.from_predictions(
        T, P, target_names=["C0", "C1", "C2"], zero_division=0.0
    )
    text = report.to_markdown(digits=3)
    assert table_cells(read_markdown(text)) == {
        "C0": ("1.000", "0.455", "0.625", "11", "7"),
        "C1": ("0.400", "0.333", "0.364", "6", "5"),
        "C2": ("0.111", "1.000", "0.200", "1", "1"),
        "micro avg": ("0.421", "0.444", "0.432", "18", "13"),
        "macro avg": ("0.504", "0.596", "0.396", "18", "13"),
        "weighted avg": ("0.751", "0.444", "0.514", "18", "13"),
        "samples avg": ("0.389", "0.463", "0.400", "18", "13"),
    }
    assert text.splitlines()[1].startswith("|:---|---:|")  # names left, numbers right


def test_to_latex_of_table_1_with_intervals():
    """The booktabs table: escaped headers, intervals as "0.62 [0.42, 0.79]",
    a rule between the labels and the averages."""
    report = MLCMReport.from_predictions(
        T,
        P,
        target_names=["C_0", "C_1", "C_2"],
        zero_division=0.0,
        confidence_level=0.9,
        n_resamples=999,
        interval="percentile",
        random_state=0,
    )
    text = report.to_latex()
    lines = text.splitlines()
    rows = read_latex(text)
    # one column of names, then numbers: "l" and an "r" per column
    assert lines[:2] == [
        r"\begin{tabular}{l" + "r" * len(rows["C\\_0"]) + "}",
        r"\toprule",
    ]
    assert lines[3] == r"\midrule"
    # the same intervals as the classification report's docstring prints
    assert table_cells(read_latex(text))[r"C\_0"] == (
        "1.00 [0.65, 1.00]",
        "0.45 [0.26, 0.66]",
        "0.62 [0.42, 0.79]",
        "11",
        "7",
    )
    assert rows["micro avg"]["precision"] == "0.42 [0.21, 0.62]"
    assert lines[4 + 3] == r"\midrule"  # between the three labels and the averages
    # the table, then the notes of its flagged intervals (the macro recall
    # and F1 of Table 1's 3 labels)
    end = lines.index(r"\end{tabular}")
    assert lines[end - 1 : end + 1] == [r"\bottomrule", r"\end{tabular}"]
    assert end + 1 == 4 + 3 + 1 + 4 + 2
    assert any(line.startswith("Flagged intervals") for line in lines[end + 1 :])


def test_to_markdown_with_intervals_keeps_the_brackets_of_numbers():
    """Interval cells read "0.62 [0.42, 0.79]" (their brackets unescaped, as
    the classification report's docstring prints them); a name's brackets
    are escaped."""
    report = MLCMReport.from_predictions(
        T,
        P,
        target_names=["[C0](x)", "C1", "C2"],
        zero_division=0.0,
        confidence_level=0.9,
        n_resamples=999,
        interval="percentile",
        random_state=0,
    )
    lines = report.to_markdown().splitlines()
    assert lines[2] == (
        r"| \[C0\](x) | 1.00 [0.65, 1.00] | 0.45 [0.26, 0.66] "
        "| 0.62 [0.42, 0.79] | 11 | 7 |"
    )


def test_to_markdown_survives_hostile_names():
    """Names with | & _ % newlines and backslashes keep every row's columns:
    each row has the same number of unescaped pipes, and one line per row
    (a line break shows as ``\\n``, as in plain text)."""
    y, pred = _hostile_case()
    report = MLCMReport.from_predictions(
        y, pred, target_names=HOSTILE, zero_division=0.0
    )
    lines = report.to_markdown().splitlines()
    assert len(lines) == 2 + 6 + 4
    assert {_unescaped(line, "|") for line in lines} == {7}
    assert lines[2].startswith(r"| a\|b |")
    assert lines[4].startswith(r"| 50%\\nof it |")
    assert lines[5].startswith(r"| back\\slash {x} $#\~^ |")
    assert lines[6].startswith(r"| \<b\>\*x\*\</b\>\\r\\n\`c\` |")
    assert lines[7].startswith(r"| \[x\] \&lt;i\&gt; a\~\~b\~\~ |")


def test_to_latex_survives_hostile_names():
    """The same names in LaTeX: each row has the same number of unescaped &,
    one line per row, and no unescaped special left in the names."""
    y, pred = _hostile_case()
    report = MLCMReport.from_predictions(
        y, pred, target_names=HOSTILE, zero_division=0.0, **_INTERVALS
    )
    lines = report.to_latex().splitlines()
    rows = [line for line in lines if line.endswith(r"\\")]
    assert len(rows) == 1 + 6 + 4
    assert {_unescaped(row, "&") for row in rows} == {5}
    names = [row.split(" & ")[0] for row in rows[1:7]]
    assert names == [
        r"a\textbar{}b",
        r"R\&D\_1",
        r"50\%\textbackslash{}nof it",
        r"back\textbackslash{}slash \{x\} \$\#\textasciitilde{}\textasciicircum{}",
        r"\textless{}b\textgreater{}*x*\textless{}/b\textgreater{}"
        r"\textbackslash{}r\textbackslash{}n`c`",
        r"{[}x] \&lt;i\&gt; a\textasciitilde{}\textasciitilde{}b"
        r"\textasciitilde{}\textasciitilde{}",
    ]
    # \\ and \midrule would read a row's leading [ as an optional argument
    assert not any(line.lstrip().startswith(("[", "*")) for line in lines)
    for name in names:
        for special in "&%$#_{}|<>":
            bare = name.replace("{}", "").replace("{[}", "")
            assert _unescaped(bare, special) == 0, (name, special)


_INTERVALS = {"confidence_level": 0.9, "n_resamples": 99, "random_state": 0}


def test_report_cells_print_fractional_amounts_with_decimals():
    """Fractional weights print with digits (the whole column); integers as
    integers."""
    weight = [1, 1, 1, 1, 1, 1, 1, 1, 0.5]  # instance 9: true {C0, C1}
    report = MLCMReport.from_predictions(T, P, sample_weight=weight, zero_division=0.0)
    headers, rows, n_labels = report_cells(table_of_report(report.report), digits=2)
    assert headers[0] == "label" and set(COLUMNS) <= set(headers)
    assert n_labels == 3
    weight, support = headers.index("weight"), headers.index("support")
    assert [row[weight] for row in rows] == [
        "10.50",
        "5.50",
        "1.00",
        "17.00",
        "17.00",
        "17.00",
        "17.00",
    ]
    assert [row[support] for row in rows] == [
        "6.50",
        "4.50",
        "1.00",
        "12.00",
        "12.00",
        "12.00",
        "12.00",
    ]
    plain = MLCMReport.from_predictions(T, P, zero_division=0.0)
    cells = report_cells(table_of_report(plain.report), digits=2)[1]
    assert [row[weight] for row in cells][:3] == [
        "11",
        "6",
        "1",
    ]


def test_tables_of_given_rows():
    """The writers take any headers and rows: alignment row, rules."""
    headers, rows = ["name", "value"], [["x", "1"], ["y", "2"], ["total", "3"]]
    assert markdown_table(headers, rows) == (
        "| name | value |\n|:---|---:|\n| x | 1 |\n| y | 2 |\n| total | 3 |\n"
    )
    assert latex_table(headers, rows, rules_after=(1,)) == (
        "\\begin{tabular}{lr}\n\\toprule\nname & value \\\\\n\\midrule\n"
        "x & 1 \\\\\ny & 2 \\\\\n\\midrule\ntotal & 3 \\\\\n\\bottomrule\n"
        "\\end{tabular}\n"
    )


@pytest.mark.parametrize("method", ["to_markdown", "to_latex"])
def test_tables_refuse_bad_digits(method):
    """digits out of [0, 20] is refused, naming the parameter."""
    report = MLCMReport.from_predictions(T, P, zero_division=0.0)
    with pytest.raises(ValueError, match=f"'digits' parameter of MLCMReport.{method}"):
        getattr(report, method)(digits=-1)


def test_markdown_and_latex_notes_name_a_label_as_its_row_does():
    """The notes of the flagged intervals name each label as the table's row
    does: they escaped the plain text's printed names again (a review found
    ``x\\\\\\\\ny`` in the notes beside ``x\\\\ny`` in the row)."""
    y_true = [[1, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 1]]
    y_pred = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 0]]  # x\ny never predicted
    report = MLCMReport.from_predictions(
        y_true, y_pred, target_names=["a", "C:\\new", "x\ny"], zero_division=0.0,
        **_INTERVALS,
    )  # fmt: skip
    markdown = report.to_markdown()
    assert "| x\\\\ny |" in markdown and "| C:\\\\\\\\new |" in markdown
    notes = markdown.split("| samples avg |")[1]
    assert "x\\\\ny precision" in notes and "x\\\\\\\\ny" not in notes
    latex = report.to_latex()
    assert r"x\textbackslash{}ny &" in latex
    assert r"x\textbackslash{}ny precision" in latex
    assert r"\textbackslash{}\textbackslash{}ny" not in latex
