"""Reading label files (sklearn_mlcm._cli._io): CSV and .npy, each malformed
file named in one line, and every read bounded in memory and time."""

import io
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import (
    SAMPLES_WARNINGS,
    assert_error,
    error_line,
    mulan_test_labels,
    run,
    write_csv,
)
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.lib import format as npy_format
from numpy.testing import assert_array_equal
from paper_data import TABLE_4J

from sklearn_mlcm import mlcm_confusion_matrix
from sklearn_mlcm._cli._errors import InputError
from sklearn_mlcm._cli._io import (
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    MAX_LABELS,
    MAX_LINE_CHARS,
    read_labels,
)
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

T, P, NAMES = TABLE_1_TRUE, TABLE_1_PRED, TABLE_1_NAMES


def write_npy_header(path, shape, data=b"", major=1):
    """A .npy file of uint8 whose header announces ``shape``, then ``data``;
    format ``major``.0 (3.0 is 2.0's layout)."""
    buffer = io.BytesIO()
    header = {"descr": "|u1", "fortran_order": False, "shape": shape}
    if major == 1:
        npy_format.write_array_header_1_0(buffer, header)
    else:
        npy_format.write_array_header_2_0(buffer, header)
    content = bytearray(buffer.getvalue() + data)
    content[6] = major
    path.write_bytes(bytes(content))
    return str(path)


# What is read -----------------------------------------------------------------


def test_read_labels_csv_values_and_names(tmp_path):
    """0/1 values become one byte each; the header's names are kept."""
    labels = read_labels(write_csv(tmp_path / "t.csv", T, header=NAMES))
    assert labels.values.dtype == np.uint8
    assert_array_equal(labels.values, T)
    assert (labels.names, labels.names_line) == (NAMES, 1)


def test_read_labels_csv_other_numbers_are_kept(tmp_path):
    """Other integers widen to int64 and fractions to float64, unchecked: the
    library decides what is valid."""
    path = tmp_path / "t.csv"
    path.write_text("1,0\n2,1\n")
    labels = read_labels(str(path))
    assert labels.values.dtype == np.int64
    assert_array_equal(labels.values, [[1, 0], [2, 1]])
    path.write_text("1,0\n2,1\n0.5,1e0\n")
    labels = read_labels(str(path))
    assert labels.values.dtype == np.float64
    assert_array_equal(labels.values, [[1, 0], [2, 1], [0.5, 1.0]])


def test_read_labels_npy_keeps_the_array(tmp_path):
    """A .npy array is returned as saved (dtype included), without a header."""
    path = tmp_path / "t.npy"
    np.save(path, np.array(P, dtype=np.int16))
    labels = read_labels(str(path))
    assert labels.values.dtype == np.int16
    assert_array_equal(labels.values, P)
    assert labels.names is None


def test_report_accepts_other_spellings_of_0_and_1(capsys, tmp_path):
    """Spaces, 1.0 / 0.0, a BOM, CRLF and blank lines are read as 0/1 data."""
    true = tmp_path / "true.csv"
    true.write_text(
        "\ufeffC0, C1 ,C2\r\n"
        + "".join(f"{' , '.join(map(str, row))}\r\n" for row in T)
        + "\r\n\r\n",
        encoding="utf-8",
    )
    pred = tmp_path / "pred.csv"
    pred.write_text("\n".join(",".join(f"{v:.1f}" for v in row) for row in P) + "\n")
    status, out, _ = run(capsys, "report", true, pred, "--json", "--header", "auto")
    assert status == 0
    result = json.loads(out)
    assert result["target_names"] == NAMES
    assert result["confusion_matrix"] == TABLE_4J


def test_read_labels_csv_old_mac_line_endings(tmp_path):
    """Lines ended by a lone CR (old Mac CSV) are lines too."""
    path = tmp_path / "t.csv"
    path.write_bytes(b"a,b\r1,0\r0,1\r")
    labels = read_labels(str(path))
    assert labels.names == ["a", "b"]
    assert_array_equal(labels.values, [[1, 0], [0, 1]])


# Files that are not label files ---------------------------------------------


def test_report_missing_file(capsys, tmp_path):
    """A missing file is named, whichever argument it is."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = str(tmp_path / "pred.csv")
    assert_error(capsys, ["report", true, pred], f"{pred}: no such file")
    assert_error(capsys, ["report", pred, true], f"{pred}: no such file")


def test_report_directory_is_not_a_file(capsys, tmp_path):
    """A directory in place of a file is refused before it is opened."""
    true = write_csv(tmp_path / "true.csv", T)
    folder = tmp_path / "pred.csv"
    folder.mkdir()
    message = (
        f"{folder}: not a regular file but a directory; expected a CSV or .npy "
        "file of labels"
    )
    assert_error(capsys, ["report", true, folder], message)


def test_report_unreadable_file(capsys, tmp_path, monkeypatch):
    """A file that cannot be opened is named with the system's reason.

    The permission error is raised by a stand-in for ``os.open``: CI runs as
    root, which reads a file of mode 000 all the same.
    """
    from sklearn_mlcm._cli import _io

    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P)
    real_open = _io.os.open

    def refusing_open(path, *args, **kwargs):
        if str(path) == str(pred):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(_io.os, "open", refusing_open)
    assert_error(
        capsys,
        ["report", true, pred],
        f"{pred}: cannot read the file (Permission denied)",
    )


def test_report_file_larger_than_the_limit(capsys, tmp_path):
    """A file over MAX_FILE_BYTES (here sparse: no disk used) is not read."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    with open(pred, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    message = (
        f"{pred}: {MAX_FILE_BYTES + 1:,} bytes, more than the {MAX_FILE_BYTES:,} "
        "bytes (2 GiB) this command reads"
    )
    assert_error(capsys, ["report", true, pred], message)


# CSV --------------------------------------------------------------------------


def test_report_csv_not_utf8(capsys, tmp_path):
    """A binary or non-UTF-8 CSV is named with the line of the first bad byte."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_bytes(b"1,1,0\n1,0,1\n" * 2000 + b"\xff\xfe\x00\x01\n")
    message = f"{pred}, line 4001: not UTF-8 text; expected a CSV file of 0/1 values"
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_ragged_rows(capsys, tmp_path):
    """A row with too few or too many values is named with its line."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.csv"
    pred.write_text("1,1,0\n1,0,1\n0,0,0\n1,1\n")
    message = f"{pred}, line 4: expected 3 values, found 2"
    assert_error(capsys, ["report", true, pred], message)
    # With a header, the header's line counts and sets the number of values.
    pred.write_text("C0,C1,C2\n1,1,0\n1,0,1,1\n")
    message = f"{pred}, line 3: expected 3 values, found 4"
    assert_error(capsys, ["report", true, pred], message)
    assert_error(capsys, ["report", pred, true], message)


@pytest.mark.parametrize(
    "field", ["x", "", "true", "0x1", "0_1", "1_0", "\uff11", "nan", "inf"]
)
def test_report_csv_value_not_a_number(capsys, tmp_path, field):
    """A value that is not a number is named with its file, line and column."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.csv"
    rows = [",".join(map(str, row)) for row in P]
    rows[2] = f"0,{field},0"
    pred.write_text("\n".join(rows) + "\n")
    message = f"{pred}, line 3, column 2: expected 0 or 1, found {field!r}"
    assert_error(capsys, ["report", true, pred], message)
    assert_error(capsys, ["report", pred, true], message)


@pytest.mark.parametrize("field, shown", [('"1\n"', "'1\\n'"), ('"\r0"', "'\\r0'")])
def test_report_csv_value_with_a_quoted_line_break_is_quoted_with_it(
    capsys, tmp_path, field, shown
):
    """A quoted value holding a line break was quoted stripped ("found '1'",
    which reads as a number; found by an adversarial hunt): only the blanks
    a number may have around it are left out."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.csv"
    rows = [",".join(map(str, row)) for row in P]
    rows[1] = f"0,{field},0"
    pred.write_bytes(("\n".join([",".join(NAMES), *rows]) + "\n").encode())
    status, out, err = run(capsys, "report", true, pred)
    assert (status, out) == (2, "")
    assert f"column 2: expected 0 or 1, found {shown}" in err


def test_report_csv_semicolons_hint(capsys, tmp_path):
    """A semicolon-separated file gets a hint to pass --delimiter ';', at its
    first row (not taken for a header of one name), or at the first data row
    after a header."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text("\n".join(";".join(map(str, r)) for r in P))
    message = (
        f"{pred}, line 1, column 1: expected 0 or 1, found '1;1;0' (the values "
        "are read as separated by ','; pass --delimiter ';' for this file)"
    )
    assert_error(capsys, ["report", true, pred], message)
    pred.write_text("\n".join(";".join(map(str, r)) for r in [NAMES, *P]))
    message = (
        f"{pred}, line 2, column 1: expected 0 or 1, found '1;1;0' (the values "
        "are read as separated by ','; pass --delimiter ';' for this file)"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_header_without_a_name(capsys, tmp_path):
    """A header with an empty name is named with its line."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text("\nC0,,C2\n1,1,0\n")
    message = f"{pred}, line 2: the header has no label name in column 2"
    assert_error(capsys, ["report", true, pred], message)


_REPEATED = "each label once, but column 4 repeats the name '0' of column 2"


@pytest.mark.parametrize(
    "first, problem, column, value",
    [
        ("1,0,x,0", _REPEATED, 3, "x"),
        ("2,0,1,0", _REPEATED, 1, "2"),
        ("1,,0,1", "every label, but column 2 is empty", 2, ""),
    ],
    ids=["typo", "count", "empty"],
)
def test_report_csv_typo_in_first_row_is_not_a_header(
    capsys, tmp_path, first, problem, column, value
):
    """A first row with a value other than 0 and 1 that cannot be a header
    either (a repeated or empty name) is an error, not a header of names."""
    true = write_csv(tmp_path / "true.csv", [[1, 0, 1, 1], [0, 1, 1, 0]])
    pred = tmp_path / "pred.csv"
    pred.write_text(f"{first}\n1,1,0,1\n")
    message = (
        f"{pred}, line 1: the first row is neither a header nor a row of data: a "
        f"header names {problem}; a data row holds only 0 and 1, but column "
        f"{column} holds {value!r}"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_header_no_reads_first_row_as_data(capsys, tmp_path):
    """--header no: a first row of names is refused as data, naming the value."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", P, header=NAMES)
    message = f"{true}, line 1, column 1: expected 0 or 1, found 'C0'"
    assert_error(capsys, ["report", true, pred, "--header", "no"], message)


@pytest.mark.parametrize("content", ["", "\n\n", "C0,C1,C2\n"])
def test_report_csv_no_data_rows(capsys, tmp_path, content):
    """An empty CSV, or a header alone, is named."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text(content)
    message = f"{pred}: no data rows; expected one row per instance"
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_line_too_long(capsys, tmp_path):
    """A line over MAX_LINE_CHARS is refused without reading it whole."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text("1,0,1\n" + "0" * (MAX_LINE_CHARS + 1))
    message = (
        f"{pred}, line 2: longer than {MAX_LINE_CHARS:,} characters; expected a "
        "CSV file of 0/1 values"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_too_many_labels(capsys, tmp_path):
    """More than MAX_LABELS columns are refused at the first row."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text(",".join(["0"] * (MAX_LABELS + 1)) + "\n")
    message = (
        f"{pred}, line 1: {MAX_LABELS + 1:,} columns, more than the {MAX_LABELS:,} "
        "labels this command handles"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_report_csv_value_too_long(capsys, tmp_path):
    """A value over MAX_FIELD_CHARS (a cell padded with spaces) is refused."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.csv"
    pred.write_text("1,0,1\n1," + " " * MAX_FIELD_CHARS + "1,0\n")
    message = (
        f"{pred}, line 2: a value longer than {MAX_FIELD_CHARS:,} characters; "
        "expected 0/1 values and label names"
    )
    assert_error(capsys, ["report", true, pred], message)


# .npy -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"not a numpy file", b"\x93NUMPY\x01\x00", b"", b"\x93NUMPY\x01\x00\x10\x00{"],
)
def test_report_npy_unreadable(capsys, tmp_path, content):
    """A .npy file that NumPy cannot read is named."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.npy"
    pred.write_bytes(content)
    assert_error(
        capsys, ["report", true, pred], f"{pred}: cannot read it as a NumPy .npy file"
    )


def test_report_npy_wrong_kind_of_array(capsys, tmp_path):
    """An .npz archive, a 1-D or 3-D array, or Python objects are named."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.npy"
    with open(pred, "wb") as file:
        np.savez(file, a=np.array(P))
    message = f"{pred}: expected one NumPy array, found an .npz archive"
    assert_error(capsys, ["report", true, pred], message)
    for shape in [(9,), (9, 3, 1)]:
        np.save(pred, np.zeros(shape))
        message = (
            f"{pred}: expected a 2-D array (one row per instance, one column per "
            f"label), found shape {shape}"
        )
        assert_error(capsys, ["report", true, pred], message)
    np.save(pred, np.array([[1, None]], dtype=object), allow_pickle=True)
    message = (
        f"{pred}: the array holds Python objects (dtype object), which are not "
        "loaded; expected 0/1 numbers"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_report_npy_format_version_3(capsys, tmp_path):
    """Format 3.0 (structured arrays with Unicode field names) is named."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_npy_header(tmp_path / "pred.npy", (9, 3), data=bytes(27), major=3)
    message = f"{pred}: NumPy .npy format version 3.0; expected version 1.0 or 2.0"
    assert_error(capsys, ["report", true, pred], message)


def test_report_npy_truncated(capsys, tmp_path):
    """A header announcing more data than the file holds: nothing is loaded."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_npy_header(tmp_path / "pred.npy", (9, 3), data=bytes(26))
    message = (
        f"{pred}: the header announces an array of shape (9, 3) and dtype uint8, "
        "27 bytes, but the file holds 26 bytes of data"
    )
    assert_error(capsys, ["report", true, pred], message)


# Bounded in memory and time ---------------------------------------------------
# Each of these files once ended in a MemoryError traceback or blocked for ever.
# They run in one child process limited to MEMORY_LIMIT of address space and
# TIMEOUT seconds, so that a regression fails the tests instead of eating the
# machine or hanging it.

MEMORY_LIMIT = 2**30
TIMEOUT = 120
_CHILD = """
import contextlib, io, json, sys
from sklearn_mlcm._cli import main
results = {}
for case, argv in json.loads(sys.argv[1]).items():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except BaseException as exc:  # a MemoryError: the regression shown
            status = repr(exc)
    results[case] = [status, out.getvalue(), err.getvalue()]
print(json.dumps(results))
"""


def _fifo(path):
    os.mkfifo(path)  # nobody ever writes: opening it to read blocks for ever


def _dev_zero(path):
    os.symlink("/dev/zero", path)  # never ends


def _huge_npy(path):
    write_npy_header(path, (10**11, 3), data=b"\x00\x01")  # a 130-byte file


def _padded_cell(path):
    # Read as an array of str, every cell would take 120,000 characters.
    path.write_text("1,0,1\n" * 10_000 + "1," + " " * 120_000 + "1,0\n")


_BOUNDED_FILES = {
    "fifo": ("pred.csv", _fifo),
    "symlink-to-dev-zero": ("pred.npy", _dev_zero),
    "npy-header-1e11-rows": ("pred.npy", _huge_npy),
    "padded-csv-cell": ("pred.csv", _padded_cell),
}


@pytest.fixture(scope="module")
def bounded_runs(tmp_path_factory):
    """``{case: (status, stdout, stderr)}`` of the bounded child process."""
    resource = pytest.importorskip("resource")
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs POSIX special files")
    folder = tmp_path_factory.mktemp("bounded")
    true = folder / "true.csv"
    true.write_text("\n".join(",".join(map(str, row)) for row in T) + "\n")
    pred = folder / "pred.csv"
    pred.write_text("\n".join(",".join(map(str, row)) for row in P) + "\n")
    cases = {"normal-run": ["report", str(true), str(pred), "--json"]}
    cases["digits-1e9"] = ["report", str(true), str(true), "--digits", "1000000000"]
    for case, (name, make) in _BOUNDED_FILES.items():
        (folder / case).mkdir()
        make(folder / case / name)
        cases[case] = ["report", str(true), str(folder / case / name)]

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=limit,
        env=env,
        check=True,
    )
    runs = json.loads(result.stdout)
    return {case: (*runs[case], cases[case][-1]) for case in cases}


@pytest.mark.parametrize(
    "case, message",
    [
        (
            "fifo",
            ": not a regular file but a named pipe (FIFO); expected a CSV or .npy "
            "file of labels",
        ),
        (
            "symlink-to-dev-zero",
            ": not a regular file but a character device; expected a CSV or .npy "
            "file of labels",
        ),
        (
            "npy-header-1e11-rows",
            ": the header announces an array of shape (100000000000, 3) and dtype "
            "uint8, 300,000,000,000 bytes, but the file holds 2 bytes of data",
        ),
        (
            "padded-csv-cell",
            f", line 10001: a value longer than {MAX_FIELD_CHARS:,} characters; "
            "expected "
            "0/1 values and label names",
        ),
    ],
    ids=list(_BOUNDED_FILES),
)
def test_report_bounded_reading(bounded_runs, case, message):
    """A FIFO, a link to /dev/zero, a .npy header of 10**11 rows, a CSV cell of
    120,000 spaces: one clear line and status 2, within 1 GiB and bounded time."""
    status, out, err, pred = bounded_runs[case]
    assert (status, out) == (2, "")
    assert err == f"sklearn-mlcm: error: {pred}{message}\n"


def test_report_bounded_digits(bounded_runs):
    """--digits 1000000000 is refused by argparse, within the same bounds."""
    status, out, err, _ = bounded_runs["digits-1e9"]
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == (
        "sklearn-mlcm report: error: argument --digits: expected an integer "
        "from 0 to 20, got 1000000000"
    )


def test_report_bounded_normal_run(bounded_runs):
    """The same bounds leave room for a normal run."""
    status, out, err, _ = bounded_runs["normal-run"]
    assert (status, err) == (0, SAMPLES_WARNINGS)
    assert json.loads(out)["confusion_matrix"] == TABLE_4J


@pytest.mark.parametrize("header", ["auto", "yes"])
def test_read_labels_numpy_savetxt_header(tmp_path, header):
    """np.savetxt's header line ("# 2005,2006,...") names the labels without
    numpy's "# " (bibtex's first label is 2005, not "# 2005")."""
    names = ["2005", "2006", "2007"]
    path = tmp_path / "y.csv"
    np.savetxt(path, T, header=",".join(names), delimiter=",")
    assert path.read_text().startswith("# 2005,2006,2007\n")
    labels = read_labels(str(path), header=header)
    assert (labels.names, labels.names_line) == (names, 1)
    assert_array_equal(labels.values, T)


def test_read_labels_numpy_savetxt_header_with_header_no(tmp_path):
    """--header no keeps the first row as data: numpy's header line is then
    refused, naming its value."""
    path = tmp_path / "y.csv"
    np.savetxt(path, T, header="a,b,c", delimiter=",", fmt="%d")
    with pytest.raises(
        InputError,
        match=r"line 1, column 1: expected 0 or 1, "
        r"found '# a'",
    ):
        read_labels(str(path), header="no")


@pytest.mark.parametrize("names", [["a", "b", "c"], ["0", "1", "2"]])
def test_read_labels_pandas_index_column_hint(tmp_path, names):
    """A CSV written by pandas' to_csv with its index (an empty first header
    cell) is refused with the hint to write it with index=False."""
    pandas = pytest.importorskip("pandas")
    path = tmp_path / "y.csv"
    pandas.DataFrame(T, columns=names).to_csv(path)
    with pytest.raises(
        InputError,
        match=r"column 1 (is empty|)?.*\(written by pandas with its index\? "
        r"write it with to_csv\(index=False\)\)",
    ):
        read_labels(str(path))


def test_read_labels_refusal_is_an_input_error(tmp_path):
    """read_labels raises InputError, the command line's one-line error."""
    with pytest.raises(InputError, match="no such file"):
        read_labels(str(tmp_path / "missing.csv"))


# --delimiter ------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["tab", "TAB", "\\t", "\t"])
def test_report_delimiter_tab(capsys, tmp_path, spelling):
    """--delimiter tab (or \\t, typed or real) reads tab-separated files."""
    true, pred = tmp_path / "true.tsv", tmp_path / "pred.tsv"
    true.write_text("\n".join("\t".join(map(str, r)) for r in [NAMES, *T]) + "\n")
    pred.write_text("\n".join("\t".join(map(str, r)) for r in P) + "\n")
    argv = ["report", true, pred, "--json", "--delimiter", spelling]
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, SAMPLES_WARNINGS)
    result = json.loads(out)
    assert (result["target_names"], result["confusion_matrix"]) == (NAMES, TABLE_4J)


def test_report_delimiter_semicolon_and_its_position(capsys, tmp_path):
    """--delimiter ';' reads a semicolon file; an error still names the line
    and column of the value."""
    true = tmp_path / "true.csv"
    true.write_text("\n".join(";".join(map(str, r)) for r in [NAMES, *T]) + "\n")
    pred = tmp_path / "pred.csv"
    rows = [";".join(map(str, r)) for r in P]
    status, out, _ = run(capsys, "report", true, true, "--delimiter", ";", "--json")
    assert status == 0
    rows[3] = "1;2;1"
    pred.write_text("\n\n".join(rows) + "\n")
    line = error_line(capsys, ["report", true, pred, "--delimiter", ";"])
    assert line.startswith(f"{pred}, line 7, column 2: must contain only 0 and 1")


def test_report_delimiter_wrong_for_the_file_hints(capsys, tmp_path):
    """A comma file read with --delimiter tab: a hint to pass ','."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P)
    message = (
        f"{true}, line 1, column 1: expected 0 or 1, found '1,1,0' (the values are "
        "read as separated by tab; pass --delimiter ',' for this file)"
    )
    assert_error(capsys, ["report", true, pred, "--delimiter", "tab"], message)


@pytest.mark.parametrize("value", ["", ",,", "0", "1", "a", ".", "-", '"', "\n"])
def test_report_delimiter_refused(capsys, value):
    """A delimiter that is not one character, or could be part of a value, is
    refused by argparse."""
    status, out, err = run(capsys, "report", "a.csv", "b.csv", "--delimiter", value)
    assert (status, out) == (2, "")
    assert "argument --delimiter: expected one character" in err


# Standard input ---------------------------------------------------------------


class _Stdin(io.TextIOWrapper):
    """A piped standard input: a text stream over bytes, not a terminal."""

    def __init__(self, data, tty=False):
        super().__init__(io.BytesIO(data), encoding="utf-8")
        self._tty = tty

    def isatty(self):
        return self._tty


def _csv_bytes(rows, header=None):
    lines = [",".join(header)] if header else []
    return ("\n".join(lines + [",".join(map(str, r)) for r in rows]) + "\n").encode()


def test_report_stdin_csv(capsys, tmp_path, monkeypatch):
    """TRUE or PRED given as - is read from standard input, named <stdin>."""
    pred = write_csv(tmp_path / "pred.csv", P)
    monkeypatch.setattr(sys, "stdin", _Stdin(_csv_bytes(T, header=NAMES)))
    status, out, err = run(capsys, "report", "-", pred)
    assert (status, err) == (0, SAMPLES_WARNINGS)
    assert out.startswith(
        f"MLCM of <stdin> (rows: true labels) and {pred} (columns: predicted"
    )
    assert "     C0  C1  C2  NPL\n C0   5   2   4    0\n" in out
    true = write_csv(tmp_path / "true.csv", T)
    monkeypatch.setattr(sys, "stdin", _Stdin(_csv_bytes(P)))
    status, out, _ = run(capsys, "report", true, "-", "--json")
    assert json.loads(out)["confusion_matrix"] == TABLE_4J


def test_report_stdin_npy(capsys, tmp_path, monkeypatch):
    """A .npy array on standard input is told by its magic bytes."""
    buffer = io.BytesIO()
    np.save(buffer, np.array(P, dtype=bool))
    true = write_csv(tmp_path / "true.csv", T)
    monkeypatch.setattr(sys, "stdin", _Stdin(buffer.getvalue()))
    status, out, _ = run(capsys, "report", true, "-", "--json")
    assert status == 0
    assert json.loads(out)["confusion_matrix"] == TABLE_4J


def test_report_stdin_errors_name_the_line(capsys, tmp_path, monkeypatch):
    """A bad value on standard input is named by line and column, read again
    from the copy (here spilled to a temporary file)."""
    from sklearn_mlcm._cli import _io

    monkeypatch.setattr(_io, "STDIN_MEMORY_BYTES", 8)
    rows = [list(r) for r in P]
    rows[4][2] = 2
    true = write_csv(tmp_path / "true.csv", T)
    monkeypatch.setattr(sys, "stdin", _Stdin(b"\n" + _csv_bytes(rows)))
    line = error_line(capsys, ["report", true, "-"])
    assert line.startswith("<stdin>, line 6, column 3: must contain only 0 and 1")


@pytest.mark.parametrize(
    "data, status",
    [
        (_csv_bytes(P), 0),  # read, counted and reported
        (_csv_bytes([[1, 0, 2]] + P[1:]), 2),  # refused by the library, line named
        (_csv_bytes([[1, 0]] + P[1:]), 2),  # a ragged row: refused while read
        (b"\x93NUMPY" + b"x" * 64, 2),  # an unreadable .npy
        (None, 0),  # a .npy array
    ],
    ids=["csv", "refused-value", "ragged-row", "bad-npy", "npy"],
)
def test_report_stdin_copy_is_closed(capsys, tmp_path, monkeypatch, data, status):
    """Standard input's copy, spilled to a temporary file, is closed when the
    command returns, whether it succeeded or refused the input."""
    from sklearn_mlcm._cli import _io

    if data is None:
        buffer = io.BytesIO()
        np.save(buffer, np.array(P, dtype=bool))
        data = buffer.getvalue()
    spilled, real = [], tempfile.TemporaryFile

    def temporary_file():
        spilled.append(real())
        return spilled[-1]

    monkeypatch.setattr(_io, "STDIN_MEMORY_BYTES", 8)
    monkeypatch.setattr(_io.tempfile, "TemporaryFile", temporary_file)
    monkeypatch.setattr(sys, "stdin", _Stdin(data))
    true = write_csv(tmp_path / "true.csv", T)
    assert run(capsys, "report", true, "-")[0] == status
    assert len(spilled) == 1 and spilled[0].closed


def test_report_stdin_only_once(capsys):
    """TRUE and PRED cannot both be standard input."""
    message = (
        "TRUE and PRED are both -: only one of them can be read from standard input"
    )
    assert_error(capsys, ["report", "-", "-"], message)


def test_report_stdin_terminal_refused(capsys, tmp_path, monkeypatch):
    """A terminal on standard input is refused instead of waited for."""
    true = write_csv(tmp_path / "true.csv", T)
    monkeypatch.setattr(sys, "stdin", _Stdin(b"", tty=True))
    message = (
        "<stdin>: standard input is a terminal; pipe or redirect the labels into "
        "it (sklearn-mlcm report - pred.csv < true.csv)"
    )
    assert_error(capsys, ["report", true, "-"], message)


def test_report_stdin_size_cap(capsys, tmp_path, monkeypatch):
    """Standard input is refused as soon as it passes MAX_FILE_BYTES."""
    from sklearn_mlcm._cli import _io

    monkeypatch.setattr(_io, "MAX_FILE_BYTES", 100)

    class Endless(io.RawIOBase):
        """An input that never ends: only the cap stops the reading."""

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"1" * len(buffer)
            return len(buffer)

    stdin = io.TextIOWrapper(io.BufferedReader(Endless()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    true = write_csv(tmp_path / "true.csv", T)
    message = "<stdin>: more than the 100 bytes (9.31323e-08 GiB) this command reads"
    assert_error(capsys, ["report", true, "-"], message)


def test_report_stdin_through_a_pipe(tmp_path):
    """The command line reads a real pipe: ``... | sklearn-mlcm report T -``."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_mlcm", "report", true, "-", "--json"],
        input=_csv_bytes(P),
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, SAMPLES_WARNINGS.encode())
    assert json.loads(result.stdout)["confusion_matrix"] == TABLE_4J


# pandas' default header and headers that hold numbers ---------------------


@pytest.mark.parametrize("first", ["0,1", " 0 , 1 "])
def test_report_csv_integer_header_is_ambiguous(capsys, tmp_path, first):
    """A first row 0,1 (pandas' default header over two labels, and also a
    valid row of data) is refused with --header auto, naming both choices."""
    path = tmp_path / "labels.csv"
    path.write_text(first + "\n1,0\n")
    message = (
        f"{path}, line 1: the first row (0,1) could be pandas' default header "
        "of column numbers or a row of data; pass --header yes or --header no"
    )
    assert_error(capsys, ["report", path, path], message)


def test_report_csv_integer_header_of_159_labels(tmp_path):
    """pandas' default header of 159 columns, above 0/1 rows, is a header:
    as data its 2, 3, ... could not be read."""
    path = tmp_path / "labels.csv"
    path.write_text(",".join(map(str, range(159))) + "\n" + ",".join("1" * 159) + "\n")
    labels = read_labels(str(path))
    assert (labels.names, labels.names_line) == ([str(j) for j in range(159)], 1)
    assert_array_equal(labels.values, np.ones((1, 159)))


def test_report_csv_integer_header_yes_or_no(capsys, tmp_path):
    """--header yes reads 0,1 as the label names, --header no as an instance."""
    path = tmp_path / "labels.csv"
    path.write_text("0,1\n1,0\n0,1\n")
    status, out, _ = run(capsys, "report", path, path, "--header", "yes", "--json")
    assert status == 0
    assert json.loads(out)["target_names"] == ["0", "1"]
    assert json.loads(out)["confusion_matrix"] == [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    status, out, _ = run(capsys, "report", path, path, "--header", "no", "--json")
    assert status == 0
    assert json.loads(out)["confusion_matrix"] == [[1, 0, 0], [0, 2, 0], [0, 0, 0]]


@pytest.mark.parametrize("first", ["1,0", "0,0", "0", "0,1,3", "1,2", "2005,2006"])
def test_report_csv_other_first_rows_are_not_ambiguous(tmp_path, first):
    """Only 0,1 is ambiguous: a first row of numbers alone in its file is
    data (the library then checks its values)."""
    path = tmp_path / "labels.csv"
    path.write_text(first + "\n")
    labels = read_labels(str(path))
    assert labels.names is None
    assert_array_equal(labels.values, [[int(v) for v in first.split(",")]])


# bibtex's labels include 2005, 2006 and 2007, delicious's 2.0 and 2007 (#24)
MULAN_LIKE_NAMES = ["2005", "2.0", "agdetection", ".net", "3d", "1e3", "-1"]


def test_report_csv_header_with_names_that_are_numbers(capsys, tmp_path):
    """A first row that is not all 0/1, above rows that are, is a header,
    whatever its names look like: some of them numbers (bibtex's 2005,
    delicious's 2.0), or all of them."""
    rows = [[1, 0, 0, 1, 0, 0, 1], [0, 1, 1, 0, 0, 1, 0], [1, 1, 0, 0, 1, 0, 0]]
    true = write_csv(tmp_path / "true.csv", rows, header=MULAN_LIKE_NAMES)
    pred = write_csv(tmp_path / "pred.csv", rows[::-1], header=MULAN_LIKE_NAMES)
    status, out, err = run(capsys, "report", true, pred, "--json")
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["target_names"] == MULAN_LIKE_NAMES
    expected = mlcm_confusion_matrix(rows, rows[::-1])
    assert result["confusion_matrix"] == expected.tolist()
    # a header of numbers only, as a file of bibtex's first three labels has
    path = tmp_path / "years.csv"
    path.write_text("2005,2006,2007\n1,0,0\n0,1.0,1\n")
    labels = read_labels(str(path))
    assert (labels.names, labels.names_line) == (["2005", "2006", "2007"], 1)
    assert labels.values.dtype == np.uint8
    assert_array_equal(labels.values, [[1, 0, 0], [0, 1, 1]])


def test_report_csv_number_header_above_other_numbers_is_data(capsys, tmp_path):
    """A first row of numbers above rows that are not all 0/1 either is data:
    the library names its first value, and --header yes reads it as names."""
    true = tmp_path / "true.csv"
    true.write_text("2005,2006\n1,2\n")
    pred = write_csv(tmp_path / "pred.csv", [[1, 0], [0, 1]])
    message = error_line(capsys, ["report", true, pred])
    assert message.startswith(f"{true}, line 1, column 1: must contain only 0 and 1")
    assert message.endswith(
        "If the first row is a header of label names, pass --header yes."
    )
    message = error_line(capsys, ["report", true, pred, "--header", "yes"])
    assert message.startswith(f"{true}, line 2, column 2: must contain only 0 and 1")


def test_report_csv_one_column_number_header_is_ambiguous(capsys, tmp_path):
    """In a one-column file, a first number other than 0 and 1 above 0/1 rows
    could be the label's name or a wrong value (a class label): refused,
    naming --header yes and --header no, each of which is then followed."""
    path = tmp_path / "labels.csv"
    path.write_text("2005\n1\n0\n1\n")
    message = (
        f"{path}, line 1: the first row (2005) of this one-column file could be "
        "the label's name or a row of data; pass --header yes or --header no"
    )
    assert_error(capsys, ["report", path, path], message)
    status, out, _ = run(capsys, "report", path, path, "--header", "yes", "--json")
    assert status == 0
    assert json.loads(out)["target_names"] == ["2005"]
    assert json.loads(out)["confusion_matrix"] == [[2, 0], [0, 1]]
    message = error_line(capsys, ["report", path, path, "--header", "no"])
    assert message.startswith(f"{path}, line 1, column 1: must contain only 0 and 1")
    # a name that is not a number can only be a header
    path.write_text("spam\n1\n0\n")
    assert read_labels(str(path)).names == ["spam"]


# label names as MULAN's have them, each with its value when it is a number
_NAMED = {
    "2005": 2005.0,
    "2.0": 2.0,
    "2007": 2007.0,
    "1e3": 1000.0,
    "-1": -1.0,
    ".5": 0.5,
    "0": 0.0,
    "1": 1.0,
    "1.0": 1.0,
    ".net": None,
    "3d": None,
    "??": None,
    "web2.0": None,
    "m\\'usica": None,
    "TAG_2005": None,
}


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_read_labels_header_whatever_the_names(tmp_path_factory, data):
    """A first row that is not all 0/1 above 0/1 rows is read as the header,
    whatever its names (numbers, words, both); but a number alone in a
    one-column file is refused as ambiguous, naming both --header values."""
    q = data.draw(st.integers(1, 5), label="q")
    words = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
    integers = st.integers(-(10**6), 10**6).map(str)
    names = data.draw(
        st.lists(
            st.one_of(st.sampled_from(sorted(_NAMED)), words, integers),
            min_size=q,
            max_size=q,
            unique=True,
        ),
        label="names",
    )
    values = [_NAMED[n] if n in _NAMED else _integer_or_none(n) for n in names]
    assume(not all(v in (0.0, 1.0) for v in values))  # then it is data
    rows = data.draw(
        st.lists(st.lists(st.integers(0, 1), min_size=q, max_size=q), min_size=1),
        label="rows",
    )
    path = tmp_path_factory.mktemp("header") / "labels.csv"
    write_csv(path, rows, header=names)
    if q == 1 and values[0] is not None:
        with pytest.raises(InputError, match="pass --header yes or --header no"):
            read_labels(str(path))
        return
    labels = read_labels(str(path))
    assert (labels.names, labels.names_line) == (names, 1)
    assert labels.values.dtype == np.uint8
    assert_array_equal(labels.values, rows)


def _integer_or_none(text):
    """The value of an integer drawn as text, None for a word."""
    return float(text) if text.lstrip("-").isdigit() else None


@pytest.mark.parametrize("name", ["bibtex", "delicious"])
def test_report_csv_header_of_mulan_label_names(
    capsys, tmp_path, monkeypatch, shared_data, name
):
    """MULAN's bibtex and delicious test splits written as CSV with their label
    names (without MULAN's TAG_ prefix, as the CSVs of #24: 2005, 2.0, 2007,
    ...) above the 0/1 rows: the header is read as such, and the report runs
    (exit status 0) on the true labels against a copy that drops each
    instance's last label."""
    folder = shared_data(f"mulan/{name}", f"{name}-test.arff", f"{name}.xml")
    names, y_true = mulan_test_labels(folder, name)
    assert y_true.shape == {"bibtex": (2515, 159), "delicious": (3185, 983)}[name]
    names = [n.removeprefix("TAG_") for n in names]
    assert {"bibtex": {"2005", "2006", "2007"}, "delicious": {"2.0", "2007"}}[name] == {
        n for n in names if re.fullmatch(r"[0-9.]+", n)
    }
    y_pred = y_true.copy()
    for row in y_pred:
        row[np.flatnonzero(row)[-1:]] = 0
    monkeypatch.chdir(tmp_path)
    header = (",".join(names) + "\n").encode()
    for file, y in [("true.csv", y_true), ("pred.csv", y_pred)]:
        digits = np.full((y.shape[0], 2 * y.shape[1]), ord(","), dtype=np.uint8)
        digits[:, ::2], digits[:, -1] = y + ord("0"), ord("\n")  # 3M values, fast
        (tmp_path / file).write_bytes(header + digits.tobytes())
    labels = read_labels("true.csv")
    assert (labels.names, labels.names_line) == (names, 1)
    assert_array_equal(labels.values, y_true)
    argv = ["report", "true.csv", "pred.csv", "--top-k", 3, "--zero-division", 0]
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    n, q = y_true.shape
    assert f"{n:,} instances, {q:,} labels; method heydarian" in out
    # the prediction only misses labels: the pairs are all in the NPL column
    assert "None: no label was predicted in place of another." in out


@pytest.mark.parametrize("link", [False, True])
@pytest.mark.parametrize("which", ["true", "pred"])
def test_report_matrix_out_naming_an_input_is_refused(capsys, tmp_path, which, link):
    """--matrix-out naming an input file, directly or through a symbolic link,
    is refused before anything is written; the input is unchanged (#16 item 5)."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", P, header=NAMES)
    target = {"true": true, "pred": pred}[which]
    before = Path(target).read_bytes()
    out = target
    if link:
        out = str(tmp_path / "link.csv")
        os.symlink(target, out)
    message = (
        f"--matrix-out {out}: that is the input file {target}; writing the "
        "matrix there would overwrite it. Name another file"
    )
    assert_error(capsys, ["report", true, pred, "--matrix-out", out], message)
    assert Path(target).read_bytes() == before


def test_report_matrix_out_is_written_whole_or_not_at_all(
    capsys, tmp_path, monkeypatch
):
    """The matrix goes to a temporary file renamed over the target: a write that
    fails midway leaves the old file as it was and no temporary behind."""
    import sklearn_mlcm._cli._io as cli_io

    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", P, header=NAMES)
    out = tmp_path / "matrix.csv"
    out.write_text("an older matrix\n")
    status, _, _ = run(capsys, "report", true, pred, "--matrix-out", str(out))
    assert status == 0
    assert out.read_text().startswith("true\\predicted,C0,C1,C2,NPL\n")
    out.write_text("an older matrix\n")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli_io.os, "replace", fail)
    assert_error(
        capsys,
        ["report", true, pred, "--matrix-out", str(out)],
        f"{out}: cannot write the matrix (No space left on device)",
    )
    assert out.read_text() == "an older matrix\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "matrix.csv",
        "pred.csv",
        "true.csv",
    ]


def test_report_file_growing_past_the_limit_is_refused(capsys, tmp_path, monkeypatch):
    """The read limit is counted as bytes arrive, not only when the file is
    opened: a file that grows after its size was checked is refused at the
    limit (here lowered to 4 KiB) instead of being read without bound (#16
    item 7)."""
    import sklearn_mlcm._cli._io as cli_io

    limit = 4096
    monkeypatch.setattr(cli_io, "MAX_FILE_BYTES", limit)
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P)
    checked, calls = cli_io._check_stat, []

    def check_then_grow(path, status):
        checked(path, status)  # the size is fine when it is checked...
        calls.append(path)
        if calls.count(pred) == 2:  # ...by stat and fstat, then it grows
            with open(pred, "a") as file:
                file.write("1,0,1\n" * 2000)

    monkeypatch.setattr(cli_io, "_check_stat", check_then_grow)
    message = error_line(capsys, ["report", true, pred])
    assert message.startswith(f"{pred}: grew past the {limit:,} bytes")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_report_matrix_out_keeps_the_usual_permissions(capsys, tmp_path):
    """The matrix written through a temporary file gets a new file's usual
    permissions (0o666 less the umask), or those of the file it replaces, not
    the temporary file's private 0o600."""
    true, pred = (
        write_csv(tmp_path / "true.csv", T, header=NAMES),
        write_csv(tmp_path / "pred.csv", P, header=NAMES),
    )
    umask = os.umask(0o022)
    try:
        out = tmp_path / "new.csv"
        assert run(capsys, "report", true, pred, "--matrix-out", str(out))[0] == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        old = tmp_path / "old.csv"
        old.write_text("an older matrix\n")
        old.chmod(0o640)
        assert run(capsys, "report", true, pred, "--matrix-out", str(old))[0] == 0
        assert stat.S_IMODE(old.stat().st_mode) == 0o640
        assert old.read_text().startswith("true\\predicted,")
    finally:
        os.umask(umask)
