"""Printing (sklearn_mlcm._cli._format): the one table formatter and JSON."""

import json

import numpy as np
from paper_data import TABLE_4J

from sklearn_mlcm._cli._format import format_json, format_mlcm, format_table, indent


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
        "labels": ["a"],
        "confusion_matrix": [[1, 0], [0, 2]],
        "report": {"a": {"recall": None}},
    }


def test_indent_leaves_blank_lines_blank():
    """Blank lines get no trailing spaces."""
    assert indent("a\n\nb", 2) == "  a\n\n  b"
