"""The pieces the results' summaries and frames share (sklearn_mlcm/_summary.py)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from sklearn_mlcm._summary import (
    column_alignment,
    format_number,
    format_table,
    is_number,
    label_frame,
    label_rows,
    label_table,
    printable,
    require_pandas,
    shorten,
)


def test_format_number_kinds():
    """Floats get fixed decimals, integers separators, NaN and inf words."""
    assert format_number(0.227584617) == "0.2276"
    assert format_number(0.5, digits=2) == "0.50"
    assert format_number(2515) == "2,515"
    assert format_number(np.int64(12345)) == "12,345"
    assert format_number(np.nan) == "nan"
    assert format_number(-np.inf) == "-inf"
    assert format_number(np.inf) == "inf"
    assert format_number(True) == "True"


def test_shorten_cuts_long_names_and_newlines():
    """Names fit the width, on one line (a line break escaped), cut with an
    ellipsis."""
    assert shorten("TAG_2005") == "TAG_2005"
    assert shorten("a\nb") == "a\\nb"
    assert shorten("a  \u00a0b") == "a b"
    assert shorten("abcdefghij", width=8) == "abcde..."
    assert shorten(7) == "7"


def test_shorten_keeps_both_ends_around_any_mark():
    """keep="both" keeps two thirds of the room for the start and the rest
    for the end; the mark may be one character; names that fit are left
    whole (on one line)."""
    name = "a_label_name_that_goes_on_and_on_ending_in_two"
    ellipsis = "\N{HORIZONTAL ELLIPSIS}"
    assert shorten(name, 28, keep="both", mark=ellipsis) == (
        "a_label_name_that_" + ellipsis + "ng_in_two"
    )
    assert shorten(name, 10, keep="both") == "a_la...two"
    assert shorten("x" * 31, 30, mark=ellipsis) == "x" * 29 + ellipsis
    assert shorten("a\n b", 28, keep="both", mark=ellipsis) == "a\\n b"
    assert shorten("x" * 30, 30, keep="both") == "x" * 30


@given(st.text(min_size=1, max_size=80), st.integers(5, 40))
def test_shorten_fits_the_width(name, width):
    """Whatever the name, the result has at most ``width`` characters, on
    one line, and starts as the name's one-line printable text does."""
    for keep in ("start", "both"):
        short = shorten(name, width, keep=keep, mark="\N{HORIZONTAL ELLIPSIS}")
        text = " ".join(printable(name).split())
        assert len(short) <= width and "\n" not in short
        head = (width - 1) * 2 // 3
        assert short == text or short[:head] == text[:head]


def test_format_table_aligns_columns():
    """The first column is left-aligned, a column of numbers right-aligned."""
    lines = format_table(["label", "f1"], [["a", "0.5000"], ["long name", "1.0"]])
    assert lines == [
        "label          f1",
        "a          0.5000",
        "long name     1.0",
    ]


def test_format_table_aligns_text_left_and_numbers_right():
    """Text columns (names, label sets) are left-aligned, header included;
    columns of numbers (separators, nan, inf, exponents) right-aligned; a
    numeric first column stays left, as it names the rows."""
    lines = format_table(
        ["rank", "better", "set", "count", "pvalue"],
        [
            ["1", "RF-PCT", "{a, b}", "1,234", "1.2e-05"],
            ["12", "PCT", "{}", "nan", "-inf"],
        ],
    )
    assert lines == [
        "rank  better  set     count   pvalue",
        "1     RF-PCT  {a, b}  1,234  1.2e-05",
        "12    PCT     {}        nan     -inf",
    ]


def test_format_table_align_overrides_the_types():
    """An explicit align string sets each column, whatever its cells."""
    lines = format_table(["true", "predicted", "n"], [["0", "12", "3"]], align="<<>")
    assert lines == ["true  predicted  n", "0     12         3"]
    right = format_table(["a", "b"], [["x", "yy"], ["xxx", "y"]], align=">>")
    assert right == ["  a   b", "  x  yy", "xxx   y"]


def test_format_table_refuses_a_wrong_align():
    """align needs one '<' or '>' per column."""
    message = r"one of '<' or '>' per column \(2\); got '<'"
    with pytest.raises(ValueError, match=message):
        format_table(["a", "b"], [["x", "y"]], align="<")
    with pytest.raises(ValueError, match=r"per column \(2\); got '<\^'"):
        format_table(["a", "b"], [["x", "y"]], align="<^")


def test_is_number_reads_what_format_number_writes():
    """Every cell format_number writes is a number; names, sets, bools and
    empty cells are not."""
    for value in (0.227584617, 2515, -3, np.nan, np.inf, -np.inf, 1e-300):
        assert is_number(format_number(value))
    for cell in ("C0", "NTL", "{0, 1}", "True", "", "  ", "RF-PCT", "0.5 [0.4, 0.6]"):
        assert not is_number(cell)
    assert column_alignment(["a", "b", "c"], [["1", "x", "2"]]) == "<<>"
    assert column_alignment(["a", "b"], []) == "<>"


def test_label_rows_all_in_order_when_they_fit():
    """Up to the limit every label shows, in label order."""
    assert_array_equal(label_rows(3, [0.3, 0.1, 0.2], limit=3), [0, 1, 2])


def test_label_rows_ranked_stable_nan_last():
    """Past the limit the smallest keys show, ties in label order, NaN last."""
    ranking = [0.5, np.nan, 0.1, 0.5, 0.2, 0.1]
    assert_array_equal(label_rows(6, ranking, limit=4), [2, 5, 4, 0])
    assert_array_equal(label_rows(6, [np.nan] * 5 + [0.0], limit=2), [5, 0])


@given(
    st.lists(
        st.one_of(st.sampled_from([0.0, 0.5, np.nan]), st.floats(-1, 1)),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 25),
)
def test_label_rows_is_a_sorted_prefix(ranking, limit):
    """label_rows equals Python's sort by (NaN last, key, index), cut at
    limit, or every label in order when they fit."""
    n = len(ranking)
    shown = label_rows(n, ranking, limit=limit)
    if n <= limit:
        expected = list(range(n))
    else:
        keys = [
            (np.isnan(k), 0.0 if np.isnan(k) else k, i) for i, k in enumerate(ranking)
        ]
        expected = [i for *_, i in sorted(keys)][:limit]
    assert shown.tolist() == expected


def test_label_table_says_how_many_were_left_out():
    """A cut table ends with the number left out and where to see them."""
    cells = [[f"l{i}", str(i)] for i in range(5)]
    lines = label_table(["label", "n"], cells, np.array([4, 0]), 5)
    assert lines == [
        "label  n",
        "l4     4",
        "l0     0",
        "... and 3 more labels (see .to_frame())",
    ]
    lines = label_table(["label", "n"], cells, np.array([0, 1, 2, 3]), 5)
    assert lines[-1] == "... and 1 more label (see .to_frame())"
    assert len(label_table(["label", "n"], cells, np.arange(5), 5)) == 6
    lines = label_table(["pair", "n"], cells, np.array([0, 1]), 5, noun="pair")
    assert lines[-1] == "... and 3 more pairs (see .to_frame())"


def test_require_pandas_names_the_install(monkeypatch):
    """Without pandas the error names the call and the extra to install."""
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)
    with pytest.raises(ImportError, match=r"Result.to_frame\(\) requires pandas"):
        require_pandas("Result.to_frame()")
    with pytest.raises(ImportError, match=r'pip install "sklearn-mlcm\[pandas\]"'):
        label_frame("Result.to_frame()", ["a"], [], {"x": [1.0]})


def test_label_frame_rows_index_kind():
    """Labels then averages, index named label, kind column first, values kept."""
    pytest.importorskip("pandas")
    values = np.array([0.1, 0.2, 1 / 3])
    frame = label_frame("f()", ["a", "b"], ["macro avg"], {"f1": values})
    assert list(frame.index) == ["a", "b", "macro avg"]
    assert frame.index.name == "label"
    assert list(frame.columns) == ["kind", "f1"]
    assert list(frame["kind"]) == ["label", "label", "average"]
    assert frame["f1"].dtype == np.float64
    assert_array_equal(frame["f1"].to_numpy(), values)
