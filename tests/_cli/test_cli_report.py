"""The ``report`` command (sklearn_mlcm._cli._report_command): what it prints,
and the library's refusals of the labels as one line naming the file."""

import json

import numpy as np
import pytest
from cli_helpers import assert_error, error_line, run, table_1_csv, write_csv
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_4J

from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

T, P, NAMES = TABLE_1_TRUE, TABLE_1_PRED, TABLE_1_NAMES


def matrix_rows(out, names):
    """The numbers of the matrix rows named ``names`` in the printed output."""
    rows = {}
    for line in out.splitlines():
        name, *fields = line.split() or [""]
        if name in names and name not in rows:
            try:
                rows[name] = [float(v) for v in fields]
            except ValueError:  # the header line of the matrix
                continue
    return [rows[name] for name in names]


# What it prints ---------------------------------------------------------------


def test_report_command_csv_with_header(capsys, tmp_path):
    """A header row names the rows and columns of the MLCM and the report."""
    status, out, err = run(capsys, "report", *table_1_csv(tmp_path))
    assert (status, err) == (0, "")
    true, pred = table_1_csv(tmp_path)
    report = mlcm_classification_report(T, P, target_names=NAMES)
    assert out == (
        f"MLCM of {true} (rows: true labels) and {pred} (columns: predicted "
        "labels)\n"
        "9 instances, 3 labels; method heydarian (Heydarian et al. 2022, counts).\n"
        "NTL = no true label, NPL = no predicted label.\n"
        "\n"
        "     C0  C1  C2  NPL\n"
        " C0   5   2   4    0\n"
        " C1   0   2   3    1\n"
        " C2   0   0   1    0\n"
        "NTL   0   1   1    1\n"
        "\n"
        "Classification report, computed from the MLCM:\n"
        "\n"
        f"{report.rstrip()}\n"
    )


def test_report_command_csv_without_header(capsys, tmp_path):
    """Without a header, labels are the column indices 0, 1, 2."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P)
    status, out, _ = run(capsys, "report", true, pred)
    assert status == 0
    assert "     0  1  2  NPL\n  0  5  2  4    0\n" in out
    assert_array_equal(matrix_rows(out, ["0", "1", "2", "NTL"]), TABLE_4J)
    assert mlcm_classification_report(T, P).rstrip() in out


def test_report_command_header_in_one_file_names_the_labels(capsys, tmp_path):
    """A header in PRED only still names the labels."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P, header=["a", "b", "c"])
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    result = json.loads(out)
    assert result["labels"] == ["a", "b", "c"]
    assert list(result["report"])[:3] == ["a", "b", "c"]


def test_report_command_npy_files(capsys, tmp_path):
    """2-D .npy arrays (bool, float) give the MLCM of Table 4 (j)."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.array(T, dtype=bool))
    np.save(pred, np.array(P, dtype=np.float64))
    status, out, err = run(capsys, "report", true, pred)
    assert (status, err) == (0, "")
    assert_array_equal(matrix_rows(out, ["0", "1", "2", "NTL"]), TABLE_4J)
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert json.loads(out)["confusion_matrix"] == TABLE_4J


def test_report_command_mixes_csv_and_npy(capsys, tmp_path):
    """TRUE may be a CSV with a header and PRED a .npy array (Fortran order)."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.npy"
    np.save(pred, np.asfortranarray(np.array(P, dtype=np.int8)))
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    result = json.loads(out)
    assert result["labels"] == NAMES
    assert result["confusion_matrix"] == TABLE_4J


def test_report_command_krstinic_method(capsys, tmp_path):
    """--method krstinic prints the fractional matrix with 2 decimals."""
    status, out, _ = run(
        capsys, "report", *table_1_csv(tmp_path), "--method", "krstinic"
    )
    assert status == 0
    assert "method krstinic" in out
    assert " C0  4.00  0.83  2.17  0.00\n" in out
    expected = mlcm_confusion_matrix(T, P, method="krstinic")
    assert_allclose(matrix_rows(out, ["C0", "C1", "C2", "NTL"]), expected, atol=5e-3)
    report = mlcm_classification_report(T, P, method="krstinic", target_names=NAMES)
    assert report.rstrip() in out


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_report_command_normalize(capsys, tmp_path, normalize):
    """--normalize prints the library's normalised matrix and says how."""
    status, out, _ = run(
        capsys, "report", *table_1_csv(tmp_path), "--normalize", normalize
    )
    assert status == 0
    assert "\nNormalised over" in out
    expected = mlcm_confusion_matrix(T, P, normalize=normalize)
    assert_allclose(matrix_rows(out, ["C0", "C1", "C2", "NTL"]), expected, atol=5e-3)


def test_report_command_digits(capsys, tmp_path):
    """--digits sets the decimals of the matrix and of the report."""
    argv = ["report", *table_1_csv(tmp_path), "--normalize", "true", "--digits", "4"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert " C0  0.4545  0.1818  0.3636  0.0000\n" in out
    report = mlcm_classification_report(T, P, target_names=NAMES, digits=4)
    assert report.rstrip() in out


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("normalize", [None, "true"])
def test_report_command_json(capsys, tmp_path, method, normalize):
    """--json prints one object: labels, the library's matrix and report dict."""
    argv = ["report", *table_1_csv(tmp_path), "--json", "--method", method]
    if normalize:
        argv += ["--normalize", normalize]
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert list(result) == ["labels", "confusion_matrix", "report"]
    assert result["labels"] == NAMES
    expected = mlcm_confusion_matrix(T, P, method=method, normalize=normalize)
    assert_allclose(result["confusion_matrix"], expected, rtol=1e-12)
    report = mlcm_classification_report(
        T, P, method=method, target_names=NAMES, output_dict=True
    )
    assert result["report"] == report
    assert list(result["report"]) == [*NAMES, "micro avg", "macro avg", "weighted avg"]
    for scores in result["report"].values():
        assert all(isinstance(value, float) for value in scores.values())


def test_report_command_zero_division(capsys, tmp_path):
    """--zero-division nan: no warning, NaN as null in JSON; 1: no warning."""
    true = write_csv(tmp_path / "true.csv", [[1, 0], [1, 0]])
    pred = write_csv(tmp_path / "pred.csv", [[1, 0], [1, 0]])
    status, out, err = run(
        capsys, "report", true, pred, "--json", "--zero-division", "nan"
    )
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["report"]["1"]["precision"] is None
    assert result["report"]["0"]["precision"] == 1.0
    status, _, err = run(capsys, "report", true, pred, "--zero-division", "1")
    assert (status, err) == (0, "")


def test_report_command_header_option(capsys, tmp_path):
    """--header yes reads pandas' default header 0,1,2; auto points to it."""
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    true.write_text("0,1,2\n" + "\n".join(",".join(map(str, r)) for r in T) + "\n")
    pred.write_text("0,1,2\n" + "\n".join(",".join(map(str, r)) for r in P))
    status, out, err = run(capsys, "report", true, pred)
    assert (status, out) == (2, "")
    assert err.startswith(f"sklearn-mlcm: error: {true}, line 1, column 3: ")
    assert "found 2" in err
    assert err.endswith(
        " If the first row is a header of label names, pass --header yes.\n"
    )
    status, out, _ = run(capsys, "report", true, pred, "--header", "yes", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["labels"] == ["0", "1", "2"]
    assert result["confusion_matrix"] == TABLE_4J


def test_report_command_real_posters(capsys, shared_data):
    """The movie posters' CNN predictions: the library's MLCM, 18 genres."""
    folder = shared_data("posters", "gt.npy", "pred_t05.npy")
    true, pred = folder / "gt.npy", folder / "pred_t05.npy"
    status, out, err = run(capsys, "report", true, pred, "--json")
    assert status == 0
    expected = mlcm_confusion_matrix(np.load(true), np.load(pred))
    assert expected.shape == (19, 19)
    assert_array_equal(json.loads(out)["confusion_matrix"], expected)
    status, out, _ = run(capsys, "report", true, pred)
    assert status == 0
    assert out.splitlines()[1] == (
        "7209 instances, 18 labels; method heydarian (Heydarian et al. 2022, counts)."
    )


# The library's refusals, naming the file --------------------------------------


@pytest.mark.parametrize(
    "field, found",
    [
        ("2", "must contain only 0 and 1; found 2."),
        ("-1", "must contain only 0 and 1; found -1."),
        ("0.7", "must contain only 0 and 1; found 0.7."),
        ("nan", "contains NaN"),
    ],
)
def test_report_command_csv_number_not_0_or_1(capsys, tmp_path, field, found):
    """A number other than 0/1 is refused by the library; the line names the
    file, line and column of the value, whichever file it is in."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.csv"
    rows = [",".join(map(str, row)) for row in P]
    rows[2] = f"0,{field},0"
    pred.write_text("\n\n" + "\n".join(rows) + "\n")  # two blank lines first
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{pred}, line 5, column 2: {found}")
    assert "y_pred" not in line and "mlcm_confusion_matrix" not in line
    line = error_line(capsys, ["report", pred, true])
    assert line.startswith(f"{pred}, line 5, column 2: {found}")


@pytest.mark.parametrize(
    "value, found",
    [
        (2, "found 2."),
        (-1, "found -1."),
        (0.7, "found 0.7."),
        (2.0, "found 2.0."),
        (np.nan, "contains NaN"),
    ],
)
def test_report_command_npy_value_not_0_or_1(capsys, tmp_path, value, found):
    """A non-0/1 value in a .npy file is named with its row and column."""
    true = write_csv(tmp_path / "true.csv", T)
    y_pred = np.array(P, dtype=type(value))
    y_pred[3, 1] = value
    pred = tmp_path / "pred.npy"
    np.save(pred, y_pred)
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{pred}, row 4, column 2: ")
    assert found in line


def test_report_command_nan_is_located_before_other_values(capsys, tmp_path):
    """The library names a NaN first; so does the position given with it."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.array(T))
    y_pred = np.array(P, dtype=float)
    y_pred[1, 0], y_pred[6, 2] = 3.0, np.nan
    np.save(pred, y_pred)
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{pred}, row 7, column 3: contains NaN")


def test_report_command_npy_of_strings(capsys, tmp_path):
    """Strings in a .npy file are refused by the library, naming the file."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = tmp_path / "pred.npy"
    np.save(pred, np.array(P).astype(str))
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{pred}: must be a 0/1 indicator matrix")
    assert "dtype <U21" in line


def test_report_command_mismatched_rows(capsys, tmp_path):
    """TRUE and PRED with different row counts: both files are named."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", P[:8])
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{true} and {pred} must have the same number of samples")
    assert "Got 9 and 8." in line


def test_report_command_mismatched_columns(capsys, tmp_path):
    """TRUE and PRED with different label counts: each count names its file."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = tmp_path / "pred.npy"
    np.save(pred, np.array(P)[:, :2])
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{true} and {pred} must have the same number of label")
    assert f"Got 3 for {true} and 2 for {pred}." in line


def test_report_command_no_label_columns(capsys, tmp_path):
    """Arrays without label columns: the library's refusal, one line."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.zeros((3, 0)))
    np.save(pred, np.zeros((3, 0)))
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{true} and {pred} have no label columns")


@pytest.mark.parametrize(
    "names, what",
    [
        (["C0", "C1", "C0"], "'C0' is used twice"),
        (["C0", "micro avg", "C2"], "'micro avg' is used as a summary row"),
    ],
)
def test_report_command_bad_label_names(capsys, tmp_path, names, what):
    """Repeated or reserved label names: the library's refusal, at the header."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P, header=names)
    line = error_line(capsys, ["report", true, pred])
    assert line.startswith(f"{pred}, line 1: ")
    assert "must be unique" in line
    assert what in line
    assert "mlcm_classification_report" not in line


def test_report_command_header_names_differ(capsys, tmp_path):
    """Different label names in the two headers: the first difference is named."""
    true = write_csv(tmp_path / "true.csv", T, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", P, header=["C0", "C2", "C1"])
    message = f"{pred}, line 1: label 2 is named 'C2', but {true} names it 'C1'"
    assert_error(capsys, ["report", true, pred], message)
