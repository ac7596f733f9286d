"""Tests of the command line, ``python -m sklearn_mlcm`` (sklearn_mlcm.__main__)."""

import doctest
import json
import subprocess
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J

import sklearn_mlcm.__main__
from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix
from sklearn_mlcm.__main__ import main

# Heydarian et al. (2022), Table 1.
Y_TRUE, Y_PRED = TABLE_1_TRUE, TABLE_1_PRED
NAMES = ["C0", "C1", "C2"]
# Heydarian et al. (2022), Table 4 (j).


def run(capsys, *argv):
    """Call main in-process; return (status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def write_csv(path, rows, header=None):
    """Write 0/1 rows (and an optional header) as CSV; return the path as str."""
    lines = [",".join(header)] if header else []
    lines += [",".join(str(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def table_rows(out, names):
    """The numbers on the first line of ``out`` named by each of ``names``."""
    rows = {}
    for line in out.splitlines():
        name, *fields = line.split() or [""]
        if name in names and name not in rows:
            try:
                rows[name] = [float(v) for v in fields]
            except ValueError:  # a header line, such as "C0  C1  C2  NPL"
                continue
    return [rows[name] for name in names]


def assert_error(capsys, argv, message):
    """main(argv) exits 2 with exactly one error line and no traceback."""
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err == f"sklearn-mlcm: error: {message}\n"
    assert "Traceback" not in err


@pytest.fixture
def table_1_csv(tmp_path):
    """Table 1 as true.csv (with a header) and pred.csv (without)."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED)
    return true, pred


# The worked example -----------------------------------------------------------


def test_main_example_prints_table_4j_mlcm(capsys):
    """Without arguments, the labelled MLCM of Table 4 (j) is printed."""
    status, out, err = run(capsys)
    assert status == 0
    assert err == ""
    expected = (
        "         C0  C1  C2  NPL\n"
        "     C0   5   2   4    0\n"
        "     C1   0   2   3    1\n"
        "     C2   0   0   1    0\n"
        "    NTL   0   1   1    1\n"
    )
    assert expected in out
    assert_array_equal(table_rows(out, ["C0", "C1", "C2", "NTL"]), TABLE_4J)


def test_main_example_names_the_paper_and_its_labels(capsys):
    """The example names the paper and lists the nine instances of Table 1."""
    _, out, _ = run(capsys)
    first = out.splitlines()[:2]
    assert first[0].startswith("MLCM: Multi-Label Confusion Matrix (Heydarian")
    assert "IEEE Access" in first[1] and "Table 1" in first[1]
    instances = table_rows(out, [str(i) for i in range(1, 10)])
    assert_array_equal([row[:3] for row in instances], Y_TRUE)
    assert_array_equal([row[3:] for row in instances], Y_PRED)


def test_main_example_compares_sklearn_and_mlcm_totals(capsys):
    """FN 5 / FP 9 (Table 2 (d)) are printed beside FN 12 / FP 12 (Table 7 (e))."""
    _, out, _ = run(capsys)
    assert "scikit-learn  MLCM" in out
    tn, fp, fn, tp = table_rows(out, ["TN", "FP", "FN", "TP"])
    assert fn == [5, 12]
    assert fp == [9, 12]
    assert tp == [8, 9]
    assert tn == [5, 27]


def test_main_example_prints_the_report(capsys):
    """The example ends with mlcm_classification_report of Table 1."""
    _, out, _ = run(capsys)
    report = mlcm_classification_report(Y_TRUE, Y_PRED, target_names=NAMES)
    indented = "\n".join("    " + line if line else "" for line in report.split("\n"))
    assert indented.rstrip() in out
    assert out.rstrip().endswith("See sklearn-mlcm report --help.")


def test_main_module_entry_point_runs_the_example(capsys):
    """``python -m sklearn_mlcm`` exits 0 and prints what main() prints."""
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_mlcm"],
        capture_output=True,
        text=True,
        check=False,
    )
    _, out, _ = run(capsys)
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout == out


def test_main_docstring_example_runs():
    """The doctest of main() passes (pytest does not collect __main__.py)."""
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(sklearn_mlcm.__main__, optionflags=flags)
    assert result.attempted >= 2
    assert result.failed == 0


def test_main_help_and_version_exit_0(capsys):
    """--help and --version print and return 0 instead of raising SystemExit."""
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "report" in out and "Table 1" in out
    status, out, _ = run(capsys, "report", "--help")
    assert status == 0
    assert "--normalize" in out
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith("sklearn-mlcm ")


# report ---------------------------------------------------------------------


def test_main_report_csv_with_header(capsys, table_1_csv):
    """A header row names the rows and columns of the MLCM and the report."""
    status, out, err = run(capsys, "report", *table_1_csv)
    assert status == 0
    assert err == ""
    assert out.splitlines()[0] == (
        f"MLCM of {table_1_csv[0]} (rows: true labels) and {table_1_csv[1]} "
        "(columns: predicted labels)"
    )
    assert "     C0  C1  C2  NPL\n C0   5   2   4    0\n" in out
    assert_array_equal(table_rows(out, ["C0", "C1", "C2", "NTL"])[3], TABLE_4J[3])
    report = mlcm_classification_report(Y_TRUE, Y_PRED, target_names=NAMES)
    assert report.rstrip() in out


def test_main_report_csv_without_header(capsys, tmp_path):
    """Without a header, labels are the column indices 0, 1, 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED)
    status, out, _ = run(capsys, "report", true, pred)
    assert status == 0
    assert "     0  1  2  NPL\n  0  5  2  4    0\n" in out
    assert_array_equal(table_rows(out, ["0", "1", "2", "NTL"]), TABLE_4J)
    assert mlcm_classification_report(Y_TRUE, Y_PRED).rstrip() in out


def test_main_report_header_in_one_file_names_the_labels(capsys, tmp_path):
    """A header in PRED only still names the labels."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED, header=["a", "b", "c"])
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    result = json.loads(out)
    assert result["labels"] == ["a", "b", "c"]
    assert list(result["report"])[:3] == ["a", "b", "c"]


def test_main_report_npy_files(capsys, tmp_path):
    """2-D .npy arrays (int, bool or float) give the same MLCM as the CSV."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.array(Y_TRUE, dtype=bool))
    np.save(pred, np.array(Y_PRED, dtype=np.float64))
    status, out, err = run(capsys, "report", true, pred)
    assert status == 0
    assert err == ""
    assert_array_equal(table_rows(out, ["0", "1", "2", "NTL"]), TABLE_4J)
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert json.loads(out)["confusion_matrix"] == TABLE_4J


def test_main_report_mixes_csv_and_npy(capsys, tmp_path):
    """TRUE may be a CSV with a header and PRED a .npy array."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = tmp_path / "pred.npy"
    np.save(pred, np.array(Y_PRED))
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    assert json.loads(out)["labels"] == NAMES


def test_main_report_krstinic_method(capsys, table_1_csv):
    """--method krstinic prints the fractional matrix with 2 decimals."""
    status, out, _ = run(capsys, "report", *table_1_csv, "--method", "krstinic")
    assert status == 0
    assert "method krstinic" in out
    assert " C0  4.00  0.83  2.17  0.00\n" in out
    expected = mlcm_confusion_matrix(Y_TRUE, Y_PRED, method="krstinic")
    assert_allclose(table_rows(out, ["C0", "C1", "C2", "NTL"]), expected, atol=5e-3)
    report = mlcm_classification_report(
        Y_TRUE, Y_PRED, method="krstinic", target_names=NAMES
    )
    assert report.rstrip() in out


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_main_report_normalize(capsys, table_1_csv, normalize):
    """--normalize prints the library's normalised matrix."""
    status, out, _ = run(capsys, "report", *table_1_csv, "--normalize", normalize)
    assert status == 0
    assert "Normalised over" in out
    expected = mlcm_confusion_matrix(Y_TRUE, Y_PRED, normalize=normalize)
    assert_allclose(table_rows(out, ["C0", "C1", "C2", "NTL"]), expected, atol=5e-3)


def test_main_report_digits(capsys, table_1_csv):
    """--digits sets the decimals of the matrix and of the report."""
    argv = ["report", *table_1_csv, "--normalize", "true", "--digits", "4"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert " C0  0.4545  0.1818  0.3636  0.0000\n" in out
    report = mlcm_classification_report(Y_TRUE, Y_PRED, target_names=NAMES, digits=4)
    assert report.rstrip() in out


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("normalize", [None, "true"])
def test_main_report_json(capsys, table_1_csv, method, normalize):
    """--json prints one object: labels, the library's matrix and report dict."""
    argv = ["report", *table_1_csv, "--json", "--method", method]
    if normalize:
        argv += ["--normalize", normalize]
    status, out, err = run(capsys, *argv)
    assert status == 0
    assert err == ""
    result = json.loads(out)
    assert list(result) == ["labels", "confusion_matrix", "report"]
    assert result["labels"] == NAMES
    expected = mlcm_confusion_matrix(Y_TRUE, Y_PRED, method=method, normalize=normalize)
    assert_allclose(result["confusion_matrix"], expected, rtol=1e-12)
    report = mlcm_classification_report(
        Y_TRUE, Y_PRED, method=method, target_names=NAMES, output_dict=True
    )
    assert result["report"] == report
    assert list(result["report"]) == [*NAMES, "micro avg", "macro avg", "weighted avg"]
    for scores in result["report"].values():
        assert all(isinstance(value, float) for value in scores.values())


def test_main_report_accepts_other_spellings_of_0_and_1(capsys, tmp_path):
    """Spaces, 1.0 / 0.0, a BOM, CRLF and blank lines are read as 0/1 data."""
    true = tmp_path / "true.csv"
    true.write_text(
        "\ufeffC0, C1 ,C2\r\n"
        + "".join(f"{' , '.join(map(str, row))}\r\n" for row in Y_TRUE)
        + "\r\n\r\n",
        encoding="utf-8",
    )
    pred = tmp_path / "pred.csv"
    pred.write_text(
        "\n".join(",".join(f"{v:.1f}" for v in row) for row in Y_PRED) + "\n"
    )
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    result = json.loads(out)
    assert result["labels"] == NAMES
    assert result["confusion_matrix"] == TABLE_4J


def test_main_report_warnings_are_one_line(capsys, tmp_path):
    """An ill-defined precision is one 'warning:' line on stderr, not a trace."""
    rows = [[1, 0], [1, 0]]
    true = write_csv(tmp_path / "true.csv", rows)
    pred = write_csv(tmp_path / "pred.csv", rows)
    status, out, err = run(capsys, "report", true, pred)
    assert status == 0
    assert "  0  2  0    0\n" in out
    lines = err.splitlines()
    assert lines
    assert all(line.startswith("sklearn-mlcm: warning: ") for line in lines)
    assert "ill-defined" in err
    assert "Traceback" not in err


# Errors ---------------------------------------------------------------------


def test_main_report_missing_file(capsys, tmp_path):
    """A missing file is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = str(tmp_path / "pred.csv")
    assert_error(capsys, ["report", true, pred], f"{pred}: no such file")
    assert_error(capsys, ["report", pred, true], f"{pred}: no such file")


def test_main_report_directory_is_unreadable(capsys, tmp_path):
    """A directory in place of a file is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    folder = tmp_path / "pred.csv"
    folder.mkdir()
    status, out, err = run(capsys, "report", true, folder)
    assert status == 2
    assert err.startswith(f"sklearn-mlcm: error: {folder}: cannot read the file (")
    assert err.count("\n") == 1


def test_main_report_csv_not_utf8(capsys, tmp_path):
    """A binary or non-UTF-8 CSV is named with the line of the first bad byte."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.csv"
    pred.write_bytes(b"1,1,0\n1,0,1\n\xff\xfe\x00\x01\n")
    message = f"{pred}, line 3: not UTF-8 text; expected a CSV file of 0/1 values"
    assert_error(capsys, ["report", true, pred], message)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not a numpy file", "cannot read it as a NumPy .npy file"),
        (b"\x93NUMPY\x01\x00", "cannot read it as a NumPy .npy file"),
        (b"", "cannot read it as a NumPy .npy file"),
    ],
)
def test_main_report_npy_unreadable(capsys, tmp_path, content, message):
    """A .npy file that NumPy cannot read is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.npy"
    pred.write_bytes(content)
    assert_error(capsys, ["report", true, pred], f"{pred}: {message}")


def test_main_report_npy_wrong_kind_of_array(capsys, tmp_path):
    """An .npz archive, a 1-D array or strings in a .npy file are named."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.npy"
    with open(pred, "wb") as file:
        np.savez(file, a=np.array(Y_PRED))
    message = f"{pred}: expected one NumPy array, found an .npz archive"
    assert_error(capsys, ["report", true, pred], message)
    np.save(pred, np.zeros(9))
    message = (
        f"{pred}: expected a 2-D array (one row per instance, one column per "
        "label), found shape (9,)"
    )
    assert_error(capsys, ["report", true, pred], message)
    np.save(pred, np.array(Y_PRED).astype(str))
    message = f"{pred}: expected 0/1 numbers, found an array of dtype <U21"
    assert_error(capsys, ["report", true, pred], message)


@pytest.mark.parametrize(
    "value, shown",
    [(2, "2"), (-1, "-1"), (0.7, "0.7"), (np.nan, "nan"), (2.0, "2.0")],
)
def test_main_report_npy_value_not_0_or_1(capsys, tmp_path, value, shown):
    """A non-0/1 value in a .npy file is named with its row and column."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    y_pred = np.array(Y_PRED, dtype=type(value))
    y_pred[3, 1] = value
    pred = tmp_path / "pred.npy"
    np.save(pred, y_pred)
    message = f"{pred}, row 4, column 2: expected 0 or 1, found {shown}"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_csv_ragged_rows(capsys, tmp_path):
    """A row with too few or too many values is named with its line."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = tmp_path / "pred.csv"
    pred.write_text("1,1,0\n1,0,1\n0,0,0\n1,1\n")
    message = f"{pred}, line 4: expected 3 values, found 2"
    assert_error(capsys, ["report", true, pred], message)
    # With a header, the header's line counts and sets the number of values.
    pred.write_text("C0,C1,C2\n1,1,0\n1,0,1,1\n")
    message = f"{pred}, line 3: expected 3 values, found 4"
    assert_error(capsys, ["report", true, pred], message)
    assert_error(capsys, ["report", pred, true], message)


@pytest.mark.parametrize("field", ["2", "-1", "0.7", "x", "", "nan", "true"])
def test_main_report_csv_value_not_0_or_1(capsys, tmp_path, field):
    """A non-0/1 field is named with its file, line and column."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = tmp_path / "pred.csv"
    rows = [",".join(map(str, row)) for row in Y_PRED]
    rows[2] = f"0,{field},0"
    pred.write_text("\n".join(rows) + "\n")
    message = f"{pred}, line 3, column 2: expected 0 or 1, found {field!r}"
    assert_error(capsys, ["report", true, pred], message)
    assert_error(capsys, ["report", pred, true], message)


def test_main_report_mismatched_rows(capsys, tmp_path):
    """TRUE and PRED with different row counts: PRED is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED[:8])
    message = f"{pred}: expected 9 rows (as in {true}), found 8"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_mismatched_columns(capsys, tmp_path):
    """TRUE and PRED with different label counts: PRED is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = tmp_path / "pred.npy"
    np.save(pred, np.array(Y_PRED)[:, :2])
    message = f"{pred}: expected 3 label columns (as in {true}), found 2"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_header_names_differ(capsys, tmp_path):
    """Different label names in the two headers: the first difference is named."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED, header=["C0", "C2", "C1"])
    message = f"{pred}, line 1: label 2 is named 'C2', but {true} names it 'C1'"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_bad_header(capsys, tmp_path):
    """A header with an empty or repeated name is named with its line."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.csv"
    pred.write_text("\nC0,,C2\n1,1,0\n")
    message = f"{pred}, line 2: the header has no label name in column 2"
    assert_error(capsys, ["report", true, pred], message)
    pred.write_text("C0,C1,C0\n1,1,0\n")
    message = f"{pred}, line 1: the header names 'C0' twice"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_typo_in_first_row_is_not_a_header(capsys, tmp_path):
    """A first row mixing 0/1 and text is an error, not a header of names."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.csv"
    pred.write_text("1,0,x\n1,1,0\n")
    message = (
        f"{pred}, line 1, column 3: the first row mixes numbers and names; a "
        "header row must name every label and a data row must hold only 0 and 1, "
        "found 'x'"
    )
    assert_error(capsys, ["report", true, pred], message)


@pytest.mark.parametrize("content", ["", "\n\n", "C0,C1,C2\n"])
def test_main_report_no_data_rows(capsys, tmp_path, content):
    """An empty CSV, or a header alone, is named, exit 2."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.csv"
    pred.write_text(content)
    message = f"{pred}: no data rows; expected one row per instance"
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_library_value_error_is_one_line(capsys, tmp_path):
    """A ValueError from the library (no label columns) is one line, exit 2."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.zeros((3, 0)))
    np.save(pred, np.zeros((3, 0)))
    status, out, err = run(capsys, "report", true, pred)
    assert status == 2
    assert out == ""
    assert err.startswith("sklearn-mlcm: error: y_true and y_pred of ")
    assert "no label columns" in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["report", "a.csv", "b.csv", "--method", "foo"], "invalid choice: 'foo'"),
        (["report", "a.csv", "b.csv", "--normalize", "rows"], "invalid choice"),
        (["report", "a.csv", "b.csv", "--digits", "-1"], "expected an integer >= 0"),
        (["report", "a.csv", "b.csv", "--digits", "two"], "expected an integer"),
        (["report", "a.csv"], "the following arguments are required: PRED"),
        (["bogus"], "invalid choice: 'bogus'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_main_bad_options_exit_2(capsys, argv, message):
    """argparse usage errors return 2 with argparse's message."""
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("usage: sklearn-mlcm")
    assert message in err
    assert "Traceback" not in err


def test_main_report_header_option(capsys, tmp_path):
    """--header yes reads pandas' default header 0,1,2; auto points to it."""
    true = tmp_path / "true.csv"
    pred = tmp_path / "pred.csv"
    rows = "\n".join(",".join(map(str, r)) for r in Y_TRUE)
    true.write_text("0,1,2\n" + rows + "\n")
    pred.write_text("0,1,2\n" + "\n".join(",".join(map(str, r)) for r in Y_PRED))
    message = (
        f"{true}, line 1, column 3: expected 0 or 1, found '2' (if line 1 is a "
        "header of label names, pass --header yes)"
    )
    assert_error(capsys, ["report", true, pred], message)
    assert main(["report", str(true), str(pred), "--header", "yes", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["labels"] == ["0", "1", "2"]
    assert result["confusion_matrix"] == mlcm_confusion_matrix(Y_TRUE, Y_PRED).tolist()


def test_main_report_header_no_reads_first_row_as_data(capsys, tmp_path):
    """--header no: a first row of names is refused as data, naming the value."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED, header=NAMES)
    message = f"{true}, line 1, column 1: expected 0 or 1, found 'C0'"
    assert_error(capsys, ["report", true, pred, "--header", "no"], message)


def test_main_report_semicolons_hint(capsys, tmp_path):
    """A semicolon-separated file gets a hint about commas."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = tmp_path / "pred.csv"
    pred.write_text("\n".join(";".join(map(str, r)) for r in Y_PRED))
    message = (
        f"{pred}, line 2, column 1: expected 0 or 1, found '1;0;1' (values must "
        "be separated by commas)"
    )
    assert_error(capsys, ["report", true, pred], message)


def test_main_report_zero_division(capsys, tmp_path):
    """--zero-division nan: no warning, NaN as null in JSON."""
    true = write_csv(tmp_path / "true.csv", [[1, 0], [1, 0]])
    pred = write_csv(tmp_path / "pred.csv", [[1, 0], [1, 0]])
    argv = ["report", true, pred, "--json", "--zero-division", "nan"]
    assert main([str(a) for a in argv]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err
    result = json.loads(out)
    assert result["report"]["1"]["precision"] is None
    assert result["report"]["0"]["precision"] == 1.0
    argv = ["report", true, pred, "--zero-division", "1"]
    assert main([str(a) for a in argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
