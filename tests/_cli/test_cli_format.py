"""Printing (sklearn_mlcm._cli._format): the one table formatter and JSON."""

import json

import numpy as np
from paper_data import TABLE_4J

from sklearn_mlcm._cli._format import (
    MAX_NAME_CHARS,
    MAX_SET_CHARS,
    format_json,
    format_labelset,
    format_mlcm,
    format_table,
    format_value,
    indent,
    short_names,
)


def test_format_table_widths_follow_the_widest_cell():
    """Each column is as wide as its widest cell or name, two spaces apart."""
    text = format_table([["1", "22"], ["333", "4"]], ["r", "row"], ["a", "bbbb"])
    assert text == "       a  bbbb\n  r    1    22\nrow  333     4"


def test_format_mlcm_counts_of_table_4j():
    """Heydarian et al. (2022), Table 4 (j): counts as integers, NTL and NPL."""
    text = format_mlcm(np.array(TABLE_4J), ["C0", "C1", "C2"])
    assert text == (
        "     C0  C1  C2  NPL\n"
        " C0   5   2   4    0\n"
        " C1   0   2   3    1\n"
        " C2   0   0   1    0\n"
        "NTL   0   1   1    1"
    )


def test_format_mlcm_fractions_take_digits():
    """Fractions print with ``digits`` decimals, 0 included."""
    cm = np.array([[0.5, 0.25], [1 / 3, 0.0]])
    assert format_mlcm(cm, ["a"], digits=3) == (
        "         a    NPL\n  a  0.500  0.250\nNTL  0.333  0.000"
    )
    assert format_mlcm(cm, ["a"], digits=0) == "     a  NPL\n  a  0    0\nNTL  0    0"


def test_format_json_nan_is_null():
    """An undefined ratio (NaN) is JSON null; the matrix keeps its numbers."""
    text = format_json(["a"], np.array([[1, 0], [0, 2]]), {"a": {"recall": np.nan}})
    assert json.loads(text) == {
        "target_names": ["a"],
        "confusion_matrix": [[1, 0], [0, 2]],
        "report": {"a": {"recall": None}},
    }


def test_indent_leaves_blank_lines_blank():
    """Blank lines get no trailing spaces."""
    assert indent("a\n\nb", 2) == "  a\n\n  b"


def test_format_table_left_aligned_columns():
    """align="<" left-aligns a column of names; no line ends in spaces."""
    text = format_table(
        [["C0", "C2", "4"], ["NTL", "C1", "1"]],
        ["1", "2"],
        ["true", "predicted", "count"],
        align="<<>",
    )
    assert text == (
        "   true  predicted  count\n"
        "1  C0    C2             4\n"
        "2  NTL   C1             1"
    )


def test_short_names_keep_start_and_end():
    """Names above 40 characters keep 24 first and 13 last around "..."."""
    long = "Arts/Music/" + "x" * 40 + "/Rock"
    assert short_names(["a", long]) == ["a", "Arts/Music/xxxxxxxxxxxxx...xxxxxxxx/Rock"]
    assert all(len(name) <= MAX_NAME_CHARS for name in short_names([long]))


def test_short_names_stay_distinct():
    """Two names whose short forms would be equal are kept whole, as is one
    whose short form is another label's name."""
    a, b = "p" * 30 + "a" + "s" * 20, "p" * 30 + "b" + "s" * 20
    assert short_names([a, b]) == [a, b]
    c = "q" * 50
    taken = short_names([c])[0]
    assert short_names([c, taken]) == [c, taken]
    assert short_names(["x" * 41, "y" * 41]) == [
        "x" * 24 + "..." + "x" * 13,
        "y" * 24 + "..." + "y" * 13,
    ]


def test_format_labelset_empty_short_and_long():
    """{} for no label; a long set lists what fits in 60 characters, then
    how many labels are not shown."""
    assert format_labelset([]) == "{}"
    assert format_labelset(["C0", "C1"]) == "{C0, C1}"
    labels = [f"TAG_{j}" for j in range(30)]
    text = format_labelset(labels)
    assert len(text) <= MAX_SET_CHARS
    shown = text[1:].split(", ")
    assert shown[:-1] == labels[: len(shown) - 1]
    assert shown[-1] == f"... +{30 - len(shown) + 1}}}"


def test_format_value_separates_thousands():
    """Counts and fractions print with thousands separators, as the rest of
    the output ("Of the 4,778 counts", not "4778")."""
    assert format_value(4778) == "4,778"
    assert format_value(np.int64(1234567)) == "1,234,567"
    assert format_value(999) == "999"
    assert format_value(4778.25, 1) == "4,778.2"
    assert format_mlcm(np.array([[1200, 3], [4, 5]]), ["a"]) == (
        "         a  NPL\n  a  1,200    3\nNTL      4    5"
    )
