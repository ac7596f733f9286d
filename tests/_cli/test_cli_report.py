"""The ``report`` command (sklearn_mlcm._cli._report_command): what it prints,
and the library's refusals of the labels as one line naming the file."""

import csv
import html
import json
import os
import re
import socket
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import (
    SAMPLES_WARNINGS,
    assert_error,
    error_line,
    mulan_test_labels,
    run,
    table_1_csv,
    write_csv,
)
from numpy.testing import assert_allclose, assert_array_equal
from paper_data import TABLE_4J

import sklearn_mlcm
import sklearn_mlcm._uncertainty._intervals
from sklearn_mlcm import (
    MLCMReport,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    most_confused,
)
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
    assert (status, err) == (0, SAMPLES_WARNINGS)
    true, pred = table_1_csv(tmp_path)
    report = mlcm_classification_report(T, P, target_names=NAMES, zero_division=0.0)
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
        "\n"
        "micro avg pools the MLCM's counts of the 3 labels, the way scikit-learn "
        "pools\n"
        "its one-vs-rest counts; the counts differ, and so can the scores. "
        "Heydarian et\n"
        "al.'s Table 12 pools NTL and NPL too (average='micro_all' in the "
        "library).\n"
    )


def test_report_command_csv_without_header(capsys, tmp_path):
    """Without a header, labels are the column indices 0, 1, 2."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P)
    status, out, _ = run(capsys, "report", true, pred)
    assert status == 0
    assert "     0  1  2  NPL\n  0  5  2  4    0\n" in out
    assert_array_equal(matrix_rows(out, ["0", "1", "2", "NTL"]), TABLE_4J)
    assert mlcm_classification_report(T, P, zero_division=0.0).rstrip() in out


def test_report_command_header_in_one_file_names_the_labels(capsys, tmp_path):
    """A header in PRED only still names the labels."""
    true = write_csv(tmp_path / "true.csv", T)
    pred = write_csv(tmp_path / "pred.csv", P, header=["a", "b", "c"])
    status, out, _ = run(capsys, "report", true, pred, "--json")
    assert status == 0
    result = json.loads(out)
    assert result["target_names"] == ["a", "b", "c"]
    assert list(result["report"])[:3] == ["a", "b", "c"]


def test_report_command_npy_files(capsys, tmp_path):
    """2-D .npy arrays (bool, float) give the MLCM of Table 4 (j)."""
    true, pred = tmp_path / "true.npy", tmp_path / "pred.npy"
    np.save(true, np.array(T, dtype=bool))
    np.save(pred, np.array(P, dtype=np.float64))
    status, out, err = run(capsys, "report", true, pred)
    assert (status, err) == (0, SAMPLES_WARNINGS)
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
    assert result["target_names"] == NAMES
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
    report = mlcm_classification_report(
        T, P, method="krstinic", target_names=NAMES, zero_division=0.0
    )
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
    report = mlcm_classification_report(
        T, P, target_names=NAMES, digits=4, zero_division=0.0
    )
    assert report.rstrip() in out


@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("normalize", [None, "true"])
def test_report_command_json(capsys, tmp_path, method, normalize):
    """--json prints one object: labels, the library's matrix and report dict."""
    argv = ["report", *table_1_csv(tmp_path), "--json", "--method", method]
    if normalize:
        argv += ["--normalize", normalize]
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, SAMPLES_WARNINGS)
    result = json.loads(out)
    assert list(result) == ["target_names", "confusion_matrix", "report"]
    assert result["target_names"] == NAMES
    expected = mlcm_confusion_matrix(T, P, method=method, normalize=normalize)
    assert_allclose(result["confusion_matrix"], expected, rtol=1e-12)
    report = mlcm_classification_report(
        T, P, method=method, target_names=NAMES, output_dict=True, zero_division=0.0
    )
    assert result["report"] == report
    assert list(result["report"]) == [
        *NAMES,
        "micro avg",
        "macro avg",
        "weighted avg",
        "samples avg",
    ]
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
    """pandas' default header 0,1,2 above 0/1 rows is read as the header it
    is, by auto as by --header yes; a first row of numbers above rows that are
    not all 0/1 is data, and the refusal of its value points to --header yes."""
    true, pred = tmp_path / "true.csv", tmp_path / "pred.csv"
    true.write_text("0,1,2\n" + "\n".join(",".join(map(str, r)) for r in T) + "\n")
    pred.write_text("0,1,2\n" + "\n".join(",".join(map(str, r)) for r in P))
    for header in ["auto", "yes"]:
        argv = ["report", true, pred, "--header", header, "--json"]
        status, out, _ = run(capsys, *argv)
        assert status == 0
        result = json.loads(out)
        assert result["target_names"] == ["0", "1", "2"]
        assert result["confusion_matrix"] == TABLE_4J
    other = tmp_path / "other.csv"
    other.write_text(
        "1,0,2\n" + "\n".join(",".join(map(str, r)) for r in T) + "\n0,0,2\n"
    )
    plain = write_csv(tmp_path / "plain.csv", [*P, [0, 0, 0], [0, 0, 0]])
    status, out, err = run(capsys, "report", other, plain, "--header", "auto")
    assert (status, out) == (2, "")
    assert err.startswith(f"sklearn-mlcm: error: {other}, line 1, column 3: ")
    assert "found 2" in err
    assert err.endswith(
        " If the first row is a header of label names, pass --header yes.\n"
    )


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
        "7,209 instances, 18 labels; method heydarian (Heydarian et al. 2022, counts)."
    )


# Intervals ----------------------------------------------------------------------


@pytest.mark.filterwarnings(  # Table 1's 9 instances: flagged macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
@pytest.mark.parametrize("interval", ["bca", "percentile"])
def test_report_confidence_level_prints_the_library_intervals(
    capsys, tmp_path, interval
):
    """--confidence-level prints the report of the library's
    mlcm_classification_report(confidence_level=...), for the same seed,
    resamples and interval, as text and as JSON."""
    argv = ["report", *table_1_csv(tmp_path), "--confidence-level", "0.9"]
    argv += ["--n-resamples", "499", "--interval", interval, "--seed", "7"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    options = {
        "target_names": NAMES,
        "confidence_level": 0.9,
        "n_resamples": 499,
        "interval": interval,
        "random_state": 7,
        "zero_division": 0.0,
    }
    report = mlcm_classification_report(T, P, **options)
    assert f"Classification report, computed from the MLCM:\n\n{report.rstrip()}" in out
    assert (
        f"[low, high]: 90% {'BCa' if interval == 'bca' else 'percentile'} "
        "bootstrap intervals, 499 resamples of the 9 instances"
    ) in out
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 0
    expected = mlcm_classification_report(T, P, output_dict=True, **options)
    assert json.loads(out)["report"] == expected
    assert expected["C0"]["recall low"] < expected["C0"]["recall high"]


def test_report_confidence_level_n_jobs_prints_the_same_intervals(
    capsys, tmp_path, monkeypatch
):
    """--n-jobs 2 and -1 draw the resamples in threads and print the same
    report as one thread (text and JSON): each chunk of resamples has its own
    stream. 3,000 instances of 12 labels, nearly all distinct (threaded
    here: the threshold lowered), are cut into 24 chunks of up to 43
    resamples."""
    monkeypatch.setattr(sklearn_mlcm._uncertainty._intervals, "THREADED_UNITS", 1000)
    rng = np.random.default_rng(3)
    true = (rng.random((3000, 12)) < 0.3).astype(np.int8)
    np.save(tmp_path / "t.npy", true)
    np.save(tmp_path / "p.npy", true ^ (rng.random((3000, 12)) < 0.2))
    argv = ["report", str(tmp_path / "t.npy"), str(tmp_path / "p.npy")]
    argv += ["--confidence-level", "0.9", "--n-resamples", "999", "--seed", "5"]
    for extra in ([], ["--json"]):
        outputs = {
            jobs: run(capsys, *argv, *extra, "--n-jobs", jobs)
            for jobs in ("1", "2", "-1")
        }
        assert outputs["1"][0] == 0
        assert outputs["2"] == outputs["1"] == outputs["-1"]
        assert run(capsys, *argv, *extra)[1] == outputs["1"][1]


@pytest.mark.filterwarnings(  # Table 1's 9 instances: flagged macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_report_confidence_level_defaults_are_reproducible(capsys, tmp_path):
    """Without --seed the intervals are seed 0's (the same files and options
    print the same report), with the library's 9999 BCa resamples."""
    argv = ["report", *table_1_csv(tmp_path), "--confidence-level", "0.95"]
    outputs = [run(capsys, *argv)[1] for _ in range(2)]
    assert outputs[0] == outputs[1]
    report = mlcm_classification_report(
        T,
        P,
        target_names=NAMES,
        confidence_level=0.95,
        random_state=0,
        zero_division=0.0,
    )
    assert report.rstrip() in outputs[0]
    assert "95% BCa bootstrap intervals, 9,999 resamples" in outputs[0]
    assert run(capsys, *argv, "--seed", "1")[1] != outputs[0]


@pytest.mark.parametrize(
    "option, value",
    [
        ("--n-resamples", "99"),
        ("--interval", "bca"),
        ("--seed", "3"),
        ("--n-jobs", "2"),
    ],
)
def test_report_interval_options_need_a_confidence_level(
    capsys, tmp_path, option, value
):
    """An option that shapes the intervals, without --confidence-level, would
    do nothing: it is refused, naming both options."""
    assert_error(
        capsys,
        ["report", *table_1_csv(tmp_path), option, value],
        f"{option} shapes the confidence intervals: pass --confidence-level "
        "(such as 0.95) too",
    )


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ["--confidence-level", "0.95", "--n-resamples", "2"],
            "--confidence-level 0.95 needs at least 39 resamples (each bound "
            "leaves 0.025 of them beyond it: (N + 1) x 0.025 >= 1), got "
            "--n-resamples 2; pass more with --n-resamples",
        ),
        (
            ["--confidence-level", "0.9999"],
            "--confidence-level 0.9999 needs at least 19,999 resamples (each bound "
            "leaves 5e-05 of them beyond it: (N + 1) x 5e-05 >= 1), got the "
            "default 9,999 resamples; pass more with --n-resamples",
        ),
        (
            ["--confidence-level", "0.9999999", "--n-resamples", "1000000"],
            "--confidence-level 0.9999999 needs at least 19,999,999 resamples (each "
            "bound leaves 5e-08 of them beyond it: (N + 1) x 5e-08 >= 1), got "
            "--n-resamples 1000000; more than the 1,000,000 allowed: pass a lower "
            "--confidence-level",
        ),
    ],
)
def test_report_too_few_resamples_for_the_level_are_refused(
    capsys, tmp_path, options, message
):
    """Too few resamples to resolve the interval's tails are refused in one
    line naming both options, the minimum and what arrived, before the files
    are read (the library refuses them too: its refusal would be a bug)."""
    assert_error(capsys, ["report", *table_1_csv(tmp_path), *options], message)


def test_report_confidence_level_one_instance_is_refused(capsys, tmp_path):
    """One instance cannot be resampled: the library's refusal, one line."""
    true = write_csv(tmp_path / "t.csv", [[1, 0]], header=["a", "b"])
    pred = write_csv(tmp_path / "p.csv", [[1, 1]], header=["a", "b"])
    message = error_line(capsys, ["report", true, pred, "--confidence-level", "0.9"])
    assert "at least two instances (one instance cannot be resampled)" in message


def test_report_confidence_level_real_posters(capsys, shared_data):
    """The movie posters (7,209 x 18): every precision, recall and F1 with
    the library's interval, each around its value."""
    folder = shared_data("posters", "gt.npy", "pred_t05.npy")
    true, pred = folder / "gt.npy", folder / "pred_t05.npy"
    argv = ["report", true, pred, "--json", "--confidence-level", "0.95"]
    status, out, _ = run(capsys, *argv, "--n-resamples", "200", "--zero-division", "0")
    assert status == 0
    report = json.loads(out)["report"]
    assert report == mlcm_classification_report(
        np.load(true),
        np.load(pred),
        output_dict=True,
        zero_division=0.0,
        confidence_level=0.95,
        n_resamples=200,
        random_state=0,
    )
    rows = [value for key, value in report.items() if isinstance(value, dict)]
    assert len(rows) == 18 + 4
    for row in rows:
        for score in ("precision", "recall", "f1-score"):
            assert row[f"{score} low"] <= row[score] + 1e-12
            assert row[score] <= row[f"{score} high"] + 1e-12


# The library's refusals, naming the file --------------------------------------


@pytest.mark.parametrize(
    "field, found",
    [
        ("2", "must contain only 0 and 1; found 2."),
        ("-1", "must contain only 0 and 1; found -1."),
        ("0.7", "must contain only 0 and 1; found 0.7."),
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


# Many labels: the most confused pairs and label sets, the matrix on request ---


TOP_2_TABLES = (
    "The 2 most confused label pairs: the largest MLCM cells off the diagonal\n"
    "between two labels, a true label (row) and a label predicted in its place\n"
    "(column); % of row is the cell's share of the true label's row. Of the 12\n"
    "counts off the diagonal, the NPL column (true labels missed with nothing "
    "wrong\n"
    "predicted) holds 1 and the NTL row (labels predicted for instances with no "
    "true\n"
    "label) 2; they are not listed.\n"
    "\n"
    "   true  predicted  count  % of row\n"
    "1  C0    C2             4       36%\n"
    "2  C1    C2             3       50%\n"
    "\n"
    "The 2 most frequent label-set confusions: 7 of the 9 instances (78%) have a\n"
    "predicted label set other than their true one; {} (no label) is predicted "
    "for 0\n"
    "of them.\n"
    "\n"
    "   true labels  predicted labels  instances\n"
    "1  {}           {C1, C2}                  1\n"
    "2  {C0}         {C0, C1, C2}              1\n"
)


def test_report_command_top_of_table_1(capsys, tmp_path):
    """--top-k 10 on Heydarian et al. Table 1: all 3 label pairs of Table 4 (j)
    off the diagonal (C0->C2 4, C1->C2 3, C0->C1 2) and all 7 wrong instances'
    label sets, between the matrix and the report."""
    status, out, err = run(capsys, "report", *table_1_csv(tmp_path), "--top-k", 10)
    assert (status, err) == (0, SAMPLES_WARNINGS)
    expected = (
        "NTL   0   1   1    1\n"
        "\n"
        "All 3 confused label pairs: the largest MLCM cells off the diagonal "
        "between two\n"
        "labels, a true label (row) and a label predicted in its place (column); "
        "% of\n"
        "row is the cell's share of the true label's row. Of the 12 counts off "
        "the\n"
        "diagonal, the NPL column (true labels missed with nothing wrong "
        "predicted)\n"
        "holds 1 and the NTL row (labels predicted for instances with no true "
        "label) 2;\n"
        "they are not listed.\n"
        "\n"
        "   true  predicted  count  % of row\n"
        "1  C0    C2             4       36%\n"
        "2  C1    C2             3       50%\n"
        "3  C0    C1             2       18%\n"
        "\n"
        "All 7 label-set confusions: 7 of the 9 instances (78%) have a predicted "
        "label\n"
        "set other than their true one; {} (no label) is predicted for 0 of them.\n"
        "\n"
        "   true labels   predicted labels  instances\n"
        "1  {}            {C1, C2}                  1\n"
        "2  {C0}          {C0, C1, C2}              1\n"
        "3  {C0}          {C1, C2}                  1\n"
        "4  {C0, C1}      {C0, C1, C2}              1\n"
        "5  {C0, C1}      {C0, C2}                  1\n"
        "6  {C0, C1}      {C2}                      1\n"
        "7  {C0, C1, C2}  {C0, C2}                  1\n"
        "\n"
        "Classification report, computed from the MLCM:\n"
    )
    assert expected in out


def test_report_command_top_k_of_table_1(capsys, tmp_path):
    """--top-k 2: the two largest of each, as the two tables in full."""
    status, out, _ = run(capsys, "report", *table_1_csv(tmp_path), "--top-k", 2)
    assert status == 0
    assert f"NTL   0   1   1    1\n\n{TOP_2_TABLES}\nClassification report" in out


def test_report_command_top_ranks_counts_when_normalized(capsys, tmp_path):
    """With --normalize the matrix printed is normalised, but the confusions
    are the largest counts of the method (here Krstinic's fractions)."""
    argv = ["report", *table_1_csv(tmp_path), "--top-k", 2, "--method", "krstinic"]
    status, out, _ = run(capsys, *argv, "--normalize", "true")
    assert status == 0
    assert (
        "1  C1    C2          2.83       57%\n2  C0    C2          2.17       31%\n"
        in (out)
    )


def test_report_command_top_json(capsys, tmp_path):
    """--json --top-k K adds the two lists, with the full label names."""
    argv = ["report", *table_1_csv(tmp_path), "--json", "--top-k", 2]
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, SAMPLES_WARNINGS)
    result = json.loads(out)
    assert list(result) == [
        "target_names",
        "confusion_matrix",
        "report",
        "most_confused",
        "labelset_confusions",
    ]
    assert result["most_confused"] == [
        {"true": "C0", "predicted": "C2", "value": 4, "share_of_row": 4 / 11},
        {"true": "C1", "predicted": "C2", "value": 3, "share_of_row": 0.5},
    ]
    assert result["labelset_confusions"] == [
        {"true": [], "predicted": ["C1", "C2"], "count": 1},
        {"true": ["C0"], "predicted": ["C0", "C1", "C2"], "count": 1},
    ]
    status, out, _ = run(capsys, "report", *table_1_csv(tmp_path), "--json")
    assert "most_confused" not in json.loads(out)  # only when asked for


def test_report_command_top_0_and_nothing_confused(capsys, tmp_path):
    """--top-k 0 prints no table; perfect predictions say there is none."""
    status, out, _ = run(capsys, "report", *table_1_csv(tmp_path), "--top-k", 0)
    assert status == 0
    assert "confused" not in out and "label-set" not in out
    true = write_csv(tmp_path / "same.csv", T)
    status, out, _ = run(capsys, "report", true, true, "--top-k", 3)
    assert status == 0
    assert (
        "\n\nThe most confused label pairs: the largest MLCM cells off the diagonal "
        "between\ntwo labels," in out
    )
    assert "\n\nNone: no label was predicted in place of another.\n" in out
    assert "\n\nNone: every predicted label set is the true one.\n" in out


def _random_labels(n_rows, n_labels, seed, density=0.1):
    rng = np.random.default_rng(seed)
    y_true = (rng.random((n_rows, n_labels)) < density).astype(np.uint8)
    flip = rng.random((n_rows, n_labels)) < density / 2
    return y_true, np.where(flip, 1 - y_true, y_true)


@pytest.mark.parametrize("n_labels, shown", [(30, True), (31, False)])
def test_report_command_matrix_hidden_above_30_labels(
    capsys, tmp_path, n_labels, shown
):
    """Up to 30 labels the matrix is printed; above, a line says how to get it
    and the 10 most confused pairs and label sets are printed instead."""
    y_true, y_pred = _random_labels(200, n_labels, seed=n_labels)
    true = write_csv(tmp_path / "true.csv", y_true)
    pred = write_csv(tmp_path / "pred.csv", y_pred)
    status, out, _ = run(capsys, "report", true, pred, "--zero-division", "0")
    assert status == 0
    size = n_labels + 1
    hint = (
        f"\n\nThe {size} x {size} matrix is not shown above 30 labels; pass "
        "--matrix to print it or\n--matrix-out FILE to write it as CSV.\n\n"
    )
    assert (hint in out) is not shown
    assert ("\nNTL  " in out) is shown
    assert ("The 10 most confused label pairs" in out) is not shown
    assert ("The 10 most frequent label-set confusions" in out) is not shown


def test_report_command_matrix_option_prints_it(capsys, tmp_path):
    """--matrix prints the matrix of 31 labels, and then no --top-k tables."""
    y_true, y_pred = _random_labels(200, 31, seed=1)
    true = write_csv(tmp_path / "true.csv", y_true)
    pred = write_csv(tmp_path / "pred.csv", y_pred)
    argv = ["report", true, pred, "--zero-division", "0", "--matrix"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    expected = mlcm_confusion_matrix(y_true, y_pred)
    names = [str(j) for j in range(31)]
    assert_array_equal(matrix_rows(out, [*names, "NTL"]), expected)
    assert "not shown" not in out and "confused" not in out
    status, out, _ = run(capsys, *argv, "--top-k", 1)
    assert "The 1 most confused label pairs" in out and "\nNTL  " in out


@pytest.mark.parametrize("delimiter, char", [(None, ","), ("tab", "\t")])
def test_report_command_matrix_out_csv(capsys, tmp_path, delimiter, char):
    """--matrix-out writes the matrix with its label names, read back by csv:
    a header true\\predicted + names + NPL, each row led by its name, NTL last."""
    out_file = tmp_path / "mlcm.csv"
    true, pred = table_1_csv(tmp_path)
    if delimiter:
        for path in (true, pred):
            with open(path) as file:
                text = file.read()
            with open(path, "w") as file:
                file.write(text.replace(",", char))
    argv = ["report", true, pred, "--matrix-out", out_file]
    status, out, _ = run(capsys, *argv, *(["--delimiter", delimiter] * bool(delimiter)))
    assert status == 0
    assert "     C0  C1  C2  NPL\n" in out  # 3 labels: printed as well
    with open(out_file, newline="") as file:
        rows = list(csv.reader(file, delimiter=char))
    assert rows == [
        ["true\\predicted", "C0", "C1", "C2", "NPL"],
        ["C0", "5", "2", "4", "0"],
        ["C1", "0", "2", "3", "1"],
        ["C2", "0", "0", "1", "0"],
        ["NTL", "0", "1", "1", "1"],
    ]


def test_report_command_matrix_out_fractions_read_back_exactly(capsys, tmp_path):
    """Fractions (Krstinic, normalised) are written to read back exactly."""
    out_file = tmp_path / "mlcm.csv"
    argv = ["report", *table_1_csv(tmp_path), "--matrix-out", out_file]
    status, _, _ = run(capsys, *argv, "--method", "krstinic", "--normalize", "pred")
    assert status == 0
    with open(out_file, newline="") as file:
        rows = list(csv.reader(file))
    assert [row[0] for row in rows] == ["true\\predicted", *NAMES, "NTL"]
    values = np.array([[float(v) for v in row[1:]] for row in rows[1:]])
    expected = mlcm_confusion_matrix(T, P, method="krstinic", normalize="pred")
    assert_array_equal(values, expected)


def test_report_command_matrix_out_hidden_says_where(capsys, tmp_path):
    """Above 30 labels, the line under the header names the file written."""
    y_true, y_pred = _random_labels(100, 40, seed=2)
    names = [f"label {j}" for j in range(40)]
    true = write_csv(tmp_path / "true.csv", y_true, header=names)
    pred = write_csv(tmp_path / "pred.csv", y_pred)
    out_file = tmp_path / "m.csv"
    argv = ["report", true, pred, "--matrix-out", out_file, "--zero-division", "0"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert (
        f"The 41 x 41 matrix is not shown above 30 labels (written to {out_file});"
        in " ".join(out.split("\n"))
    )
    with open(out_file, newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["true\\predicted", *names, "NPL"]
    cm = mlcm_confusion_matrix(y_true, y_pred)
    assert_array_equal([[int(v) for v in row[1:]] for row in rows[1:]], cm)


def test_report_command_long_output_path_stays_on_one_line(capsys, tmp_path):
    """A path longer than a line is printed whole, never cut inside."""
    y_true, y_pred = _random_labels(50, 35, seed=3)
    true = write_csv(tmp_path / "true.csv", y_true)
    pred = write_csv(tmp_path / "pred.csv", y_pred)
    folder = tmp_path / ("a-long-folder-name-" * 6)
    folder.mkdir()
    out_file = folder / "matrix.csv"
    argv = ["report", true, pred, "--matrix-out", out_file, "--zero-division", "0"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert len(str(out_file)) > 120
    assert any(str(out_file) in line for line in out.split("\n"))


def test_report_command_matrix_out_unwritable(capsys, tmp_path):
    """A --matrix-out that cannot be written is one line; - is refused."""
    folder = tmp_path / "folder"
    folder.mkdir()
    line = error_line(
        capsys, ["report", *table_1_csv(tmp_path), "--matrix-out", folder]
    )
    assert line.startswith(f"{folder}: cannot write the matrix (")
    assert_error(
        capsys,
        ["report", *table_1_csv(tmp_path), "--matrix-out", "-"],
        "--matrix-out -: the matrix is written to a file, not to standard "
        "output; name a file",
    )


def test_report_command_159_labels_lines_stay_short(capsys, tmp_path, monkeypatch):
    """159 labels (bibtex's count), some named with 60 characters: no line of
    the default output reaches 200 characters (it was 2,310), names longer
    than 40 characters are shortened in the text and kept whole in JSON."""
    y_true, y_pred = _random_labels(500, 159, seed=159, density=0.03)
    names = [f"TAG_{j}" for j in range(159)]
    names[7] = "a_very_long_label_name_" + "x" * 30 + "_end_07"
    names[8] = "a_very_long_label_name_" + "x" * 30 + "_end_08"
    write_csv(tmp_path / "true.csv", y_true, header=names)
    write_csv(tmp_path / "pred.csv", y_pred, header=names)
    monkeypatch.chdir(tmp_path)  # the first line names the files: short paths
    true, pred = "true.csv", "pred.csv"
    status, out, err = run(capsys, "report", true, pred, "--zero-division", "0")
    assert (status, err) == (0, "")
    widest = max(len(line) for line in out.splitlines())
    assert widest < 200, widest
    assert "The 160 x 160 matrix is not shown above 30 labels" in out
    assert "The 10 most confused label pairs" in out
    assert len(out.splitlines()) < 159 + 60  # one line per label, and a few
    assert "a_very_long_label_name_x...xxxxxx_end_07 " in out
    assert "a_very_long_label_name_x...xxxxxx_end_08 " in out
    assert names[7] not in out
    status, out, _ = run(capsys, "report", true, pred, "--json", "--zero-division", "0")
    assert json.loads(out)["target_names"] == names
    status, out, _ = run(
        capsys, "report", true, pred, "--zero-division", "0", "--matrix"
    )
    assert max(len(line) for line in out.splitlines()) > 600  # what was asked


def test_report_command_counts_have_thousands_separators(capsys, tmp_path):
    """Every count of the text has thousands separators, as the first line's:
    the label-set line ('1,200 of the 1,200 instances', was '1200 of the
    1200'), its --top-k, the hidden matrix's size and the micro avg's number
    of labels."""
    n_rows, n_labels = 1200, 1001
    y_true = np.zeros((n_rows, n_labels), dtype=np.uint8)
    y_true[np.arange(n_rows), np.arange(n_rows) % n_labels] = 1
    true = write_csv(tmp_path / "true.csv", y_true)
    pred = write_csv(tmp_path / "pred.csv", np.zeros_like(y_true))
    status, out, _ = run(
        capsys, "report", true, pred, "--top-k", 1000, "--zero-division", "0"
    )
    assert status == 0
    text = " ".join(out.split())
    assert "1,200 instances, 1,001 labels" in text
    assert (
        "The 1,000 most frequent label-set confusions: 1,200 of the 1,200 "
        "instances "
        "(100%) have a predicted label set other than their true one; {} (no "
        "label) is predicted for 1,200 of them."
    ) in text
    assert "The 1,002 x 1,002 matrix is not shown above 30 labels" in text
    assert "micro avg pools the MLCM's counts of the 1,001 labels" in text


def test_report_command_real_bibtex(capsys, tmp_path, monkeypatch, shared_data):
    """MULAN's bibtex test split (2,515 instances, 159 labels) against a copy
    that drops each instance's last label and adds label 0 to every fifth: the
    matrix is hidden, the confusions and report lines stay short."""
    folder = shared_data("mulan", "bibtex/bibtex-test.arff", "bibtex/bibtex.xml")
    names, y_true = mulan_test_labels(folder / "bibtex", "bibtex")
    assert y_true.shape == (2515, 159)
    y_pred = y_true.copy()
    for i, row in enumerate(y_pred):
        row[np.flatnonzero(row)[-1:]] = 0
        row[0] |= i % 5 == 0
    write_csv(tmp_path / "true.csv", y_true, header=names)
    write_csv(tmp_path / "pred.csv", y_pred)
    monkeypatch.chdir(tmp_path)  # the first line names the files: short paths
    status, out, _ = run(capsys, "report", "true.csv", "pred.csv", "--top-k", 5)
    assert status == 0
    assert max(len(line) for line in out.splitlines()) < 200
    assert "2,515 instances, 159 labels" in out
    assert "The 160 x 160 matrix is not shown above 30 labels" in out
    wrong = (y_true != y_pred).any(axis=1)
    n_empty = np.count_nonzero(wrong & (y_pred.sum(axis=1) == 0))
    assert (
        f"The 5 most frequent label-set confusions: {wrong.sum():,} of the 2,515 "
        f"instances ({wrong.mean():.0%}) have a predicted label set other than "
        f"their true one; {{}} (no label) is predicted for {n_empty} of them."
    ) in " ".join(out.split())
    expected = most_confused(
        mlcm_confusion_matrix(y_true, y_pred),
        top_k=5,
        target_names=names,
        include_no_label=False,
    )
    for rank, pair in enumerate(expected, start=1):
        assert re.search(
            rf"\n *{rank}  {pair.true} +{pair.predicted} +{pair.value} ", out
        )


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--markdown", "report.md"],
        ["--html", "report.html", "--markdown", "report.md"],
        ["--confidence-level", "0.9", "--n-resamples", "99"],
    ],
    ids=["printed", "markdown", "html-markdown", "intervals"],
)
@pytest.mark.parametrize("method", ["heydarian", "krstinic"])
@pytest.mark.parametrize("json_output", [False, True])
def test_report_command_counts_the_matrix_once(
    capsys, tmp_path, monkeypatch, method, json_output, extra
):
    """One report (the matrix printed normalised, written as CSV, the
    confusions and the classification report, and the markdown table, the
    page and the intervals when asked for) runs the counting kernel once: it
    ran up to three times (#19), and twice with --confidence-level (#26)."""
    import sklearn_mlcm._mlcm._dispatch as dispatch

    calls = []
    kernel = dispatch.METHODS[method]

    def counted(*args, **kwargs):
        calls.append(method)
        return kernel(*args, **kwargs)

    monkeypatch.setitem(dispatch.METHODS, method, counted)
    argv = [*table_1_csv(tmp_path), "--method", method, "--normalize", "true"]
    argv += ["--matrix-out", str(tmp_path / "cm.csv"), "--top-k", 3]
    argv += [tmp_path / arg if arg.startswith("report.") else arg for arg in extra]
    status, out, _ = run(capsys, "report", *argv, *(["--json"] if json_output else []))
    assert status == 0
    assert calls == [method]
    for arg in extra:
        if arg.startswith("report."):
            assert (tmp_path / arg).stat().st_size > 0
    # and the numbers are those of the library's one-shot functions
    monkeypatch.setitem(dispatch.METHODS, method, kernel)
    expected = mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED, method=method)
    written = np.loadtxt(
        tmp_path / "cm.csv", delimiter=",", skiprows=1, usecols=(1, 2, 3, 4)
    )
    assert_allclose(written, expected / expected.sum(axis=1, keepdims=True))
    if json_output and "--confidence-level" not in extra:
        report = json.loads(out)["report"]
        assert report == mlcm_classification_report(
            TABLE_1_TRUE,
            TABLE_1_PRED,
            method=method,
            target_names=TABLE_1_NAMES,
            output_dict=True,
            zero_division=0.0,
        )


# The report written: --markdown and --html ------------------------------------


@pytest.mark.filterwarnings(  # Table 1's 9 instances: flagged macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
@pytest.mark.parametrize(
    "options, library",
    [
        ([], {}),
        (["--digits", "3", "--method", "krstinic"], {"method": "krstinic"}),
        (
            ["--confidence-level", "0.9", "--n-resamples", "499", "--seed", "7"],
            {"confidence_level": 0.9, "n_resamples": 499, "random_state": 7},
        ),
    ],
    ids=["default", "krstinic-digits", "intervals"],
)
def test_report_command_markdown_is_the_library_report(
    capsys, tmp_path, options, library
):
    """--markdown FILE writes MLCMReport.from_predictions(...).to_markdown() of
    the same labels, names and options, and what is printed is what the
    command prints without it (warnings included)."""
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0", *options]
    expected_status, expected_out, expected_err = run(capsys, *argv)
    status, out, err = run(capsys, *argv, "--markdown", tmp_path / "report.md")
    size = os.path.getsize(tmp_path / "report.md")
    assert size < 1024
    wrote = f"wrote {tmp_path / 'report.md'} ({size} bytes)\n"
    # the command's warnings come last, after what it wrote
    assert (status, out) == (expected_status, expected_out)
    assert err == wrote + expected_err
    assert status == 0
    digits = int(options[options.index("--digits") + 1]) if "--digits" in options else 2
    expected = MLCMReport.from_predictions(
        T, P, target_names=NAMES, zero_division=0.0, **library
    ).to_markdown(digits=digits)
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == expected
    first_row = "| C0 | 1.00 | 0.45 | 0.62 | 11 | 7 |"
    assert (first_row in expected) == (not options)


@pytest.mark.filterwarnings(  # Table 1's 9 instances: flagged macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_report_command_html_is_the_library_page(capsys, tmp_path):
    """--html FILE writes MLCMReport.from_predictions(...).to_html(), the page
    of the same labels, names and intervals; --json prints the report dict of
    the same MLCMReport."""
    options = ["--confidence-level", "0.9", "--n-resamples", "199", "--json"]
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0", *options]
    status, out, err = run(capsys, *argv, "--html", tmp_path / "report.html")
    size = round(os.path.getsize(tmp_path / "report.html") / 1024)
    assert status == 0
    assert err.startswith(f"wrote {tmp_path / 'report.html'} ({size} KB)\n")
    assert err.count("\n") == 2  # and the warning of the flagged intervals
    true, pred = table_1_csv(tmp_path)
    evaluation = MLCMReport.from_predictions(
        T,
        P,
        target_names=NAMES,
        zero_division=0.0,
        confidence_level=0.9,
        n_resamples=199,
        random_state=0,
    )
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page == evaluation.to_html(title=f"{true} vs {pred}")
    assert f"<h1>{html.escape(str(true))} vs {html.escape(str(pred))}</h1>" in page
    assert page.startswith("<!DOCTYPE html>")
    assert json.loads(out)["report"] == evaluation.report


def test_report_command_written_files_replace_an_older_file(capsys, tmp_path):
    """An existing --markdown or --html file is replaced whole, and no
    temporary file is left beside it."""
    for name in ("report.md", "report.html"):
        (tmp_path / name).write_text("an older report, longer than the new one\n" * 9)
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0"]
    argv += ["--markdown", tmp_path / "report.md", "--html", tmp_path / "report.html"]
    status, _, _ = run(capsys, *argv)
    assert status == 0
    assert (tmp_path / "report.md").read_text().startswith("| label | precision |")
    assert "an older report" not in (tmp_path / "report.html").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pred.csv",
        "report.html",
        "report.md",
        "true.csv",
    ]


@pytest.mark.parametrize("link", [False, True])
@pytest.mark.parametrize("which", ["true", "pred"])
@pytest.mark.parametrize(
    "option, what", [("--html", "the page"), ("--markdown", "the markdown table")]
)
def test_report_command_written_file_naming_an_input_is_refused(
    capsys, tmp_path, option, what, which, link
):
    """--html or --markdown naming an input file, directly or through a
    symbolic link, is one line and exit status 2, before anything is read or
    written; the input is unchanged."""
    true, pred = table_1_csv(tmp_path)
    target = {"true": true, "pred": pred}[which]
    before = Path(target).read_bytes()
    out = target
    if link:
        out = str(tmp_path / "link.txt")
        os.symlink(target, out)
    message = (
        f"{option} {out}: that is the input file {target}; writing {what} there "
        "would overwrite it. Name another file"
    )
    assert_error(capsys, ["report", true, pred, option, out], message)
    assert Path(target).read_bytes() == before


def test_report_command_written_file_refusals(capsys, tmp_path):
    """A directory, a missing folder, standard output, or one file named by
    two outputs is refused in one line, and nothing is written."""
    argv = ["report", *table_1_csv(tmp_path)]
    folder = tmp_path / "folder"
    folder.mkdir()
    assert_error(
        capsys,
        [*argv, "--html", folder],
        f"--html {folder}: cannot write the page: it is a directory",
    )
    missing = tmp_path / "missing" / "report.md"
    assert_error(
        capsys,
        [*argv, "--markdown", missing],
        f"--markdown {missing}: cannot write the markdown table: its folder "
        f"{missing.parent} does not exist",
    )
    assert_error(
        capsys,
        [*argv, "--markdown", "-"],
        "--markdown -: the markdown table is written to a file, not to standard "
        "output; name a file",
    )
    both = tmp_path / "report.txt"
    assert_error(
        capsys,
        [*argv, "--html", both, "--markdown", both],
        f"--html {both}: --markdown writes that file too; name another file",
    )
    assert_error(
        capsys,
        [*argv, "--matrix-out", both, "--markdown", both],
        f"--markdown {both}: --matrix-out writes that file too; name another file",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "folder",
        "pred.csv",
        "true.csv",
    ]


def test_report_command_written_file_unwritable(capsys, tmp_path, monkeypatch):
    """A write that fails midway (a full disk) is one line naming the file,
    and leaves the older file as it was."""
    import sklearn_mlcm._reporting._files as files

    out = tmp_path / "report.md"
    out.write_text("an older table\n")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", fail)
    assert_error(
        capsys,
        ["report", *table_1_csv(tmp_path), "--zero-division", "0", "--markdown", out],
        f"{out}: cannot write the markdown table (No space left on device)",
    )
    assert out.read_text() == "an older table\n"


# Special files: pipes, /dev/stdout, devices ----------------------------------

#: The folder holding the sklearn_mlcm under test, first on a subprocess's path.
PACKAGE_ROOT = Path(sklearn_mlcm.__file__).resolve().parents[1]


def _run_command(argv, **kwargs):
    """``python -m sklearn_mlcm argv`` in a subprocess, for what only a real
    standard output shows (a redirection to a file, a pipe)."""
    path = os.pathsep.join(
        p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")) if p
    )
    return subprocess.run(
        [sys.executable, "-m", "sklearn_mlcm", *map(str, argv)],
        env={**os.environ, "PYTHONPATH": path},
        check=False,
        **kwargs,
    )


def _table_1_markdown():
    """The markdown table --markdown writes for Table 1."""
    return MLCMReport.from_predictions(
        T, P, target_names=NAMES, zero_division=0.0
    ).to_markdown()


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_report_command_markdown_to_dev_stdout_redirected_to_a_file(capsys, tmp_path):
    """--markdown /dev/stdout with standard output redirected to a file
    (``> out.txt``) writes the table into that file, then the report after
    it: the file is not replaced (the report was lost), and the line on
    standard error gives the bytes written (it said 0)."""
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0"]
    _, expected_out, _ = run(capsys, *argv)
    table = _table_1_markdown()
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout:
        done = _run_command(
            [*argv, "--markdown", "/dev/stdout"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert (done.returncode, done.stderr) == (
        0,
        f"wrote /dev/stdout ({len(table.encode())} bytes)\n",
    )
    assert out.read_text(encoding="utf-8") == table + expected_out


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_report_command_matrix_out_to_dev_stdout_into_a_pipe(capsys, tmp_path):
    """--matrix-out /dev/stdout into a pipe (``| less``) writes the CSV
    into the pipe before the report (it failed: "No such file or
    directory")."""
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0"]
    _, expected_out, _ = run(capsys, *argv)
    _, _, _ = run(capsys, *argv, "--matrix-out", tmp_path / "m.csv")
    matrix = (tmp_path / "m.csv").read_text()
    done = _run_command(
        [*argv, "--matrix-out", "/dev/stdout"], capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (
        0,
        f"wrote /dev/stdout ({len(matrix)} bytes)\n",
    )
    assert done.stdout == matrix + expected_out


def test_report_command_device_node_is_written_not_replaced(
    capsys, tmp_path, device_node
):
    """As root, --html and --markdown to character devices (copies of
    /dev/null) write into them and leave them device nodes (a rename
    replaced them: as root, --html /dev/null replaced the system's); a
    block device is refused in one line."""
    other = tmp_path / "null2"
    os.mknod(other, stat.S_IFCHR | 0o666, os.stat(device_node).st_rdev)
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0"]
    status, _, err = run(capsys, *argv, "--html", device_node, "--markdown", other)
    assert status == 0
    page = MLCMReport.from_predictions(
        T, P, target_names=NAMES, zero_division=0.0
    ).to_html(title=f"{tmp_path / 'true.csv'} vs {tmp_path / 'pred.csv'}")
    assert err == (
        f"wrote {other} (387 bytes)\n"
        f"wrote {device_node} ({round(len(page.encode()) / 1024):,} KB)\n"
    )
    assert stat.S_ISCHR(os.stat(device_node).st_mode)
    assert stat.S_ISCHR(os.stat(other).st_mode)
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 0))  # a loop device
    assert_error(
        capsys,
        [*argv, "--html", disk],
        f"--html {disk}: cannot write the page: it is a block device",
    )


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets")
def test_report_command_refuses_a_socket(capsys, tmp_path, monkeypatch):
    """A Unix socket named by --html or --matrix-out is refused in one line
    naming it, and stays a socket."""
    true, pred = table_1_csv(tmp_path)
    monkeypatch.chdir(tmp_path)  # a short relative name: socket paths are short
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        assert_error(
            capsys,
            ["report", true, pred, "--html", "sock"],
            "--html sock: cannot write the page: it is a socket",
        )
        assert_error(
            capsys,
            ["report", true, pred, "--matrix-out", "sock"],
            "sock: cannot write the matrix (it is a socket)",
        )
        assert stat.S_ISSOCK(os.stat("sock").st_mode)


@pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="no /dev/fd")
def test_report_command_refuses_a_descriptor_open_for_reading(capsys, tmp_path):
    """An output naming a descriptor open only for reading (a pipe's read
    end, /dev/stdin read from a pipe) is refused in one line."""
    read, written = os.pipe()
    try:
        assert_error(
            capsys,
            ["report", *table_1_csv(tmp_path), "--markdown", f"/dev/fd/{read}"],
            f"--markdown /dev/fd/{read}: cannot write the markdown table: it is "
            "open for reading only",
        )
    finally:
        os.close(read)
        os.close(written)


def test_report_command_written_report_real_bibtex(
    capsys, tmp_path, monkeypatch, shared_data
):
    """MULAN's bibtex test split (2,515 instances, 159 labels, a header of
    their names) against a copy that drops each instance's last label: the
    page names all 159 labels, and the markdown table has a row per label and
    per average, as MLCMReport writes it."""
    folder = shared_data("mulan", "bibtex/bibtex-test.arff", "bibtex/bibtex.xml")
    names, y_true = mulan_test_labels(folder / "bibtex", "bibtex")
    y_pred = y_true.copy()
    for row in y_pred:
        row[np.flatnonzero(row)[-1:]] = 0
    write_csv(tmp_path / "true.csv", y_true, header=names)
    write_csv(tmp_path / "pred.csv", y_pred, header=names)
    monkeypatch.chdir(tmp_path)
    argv = ["report", "true.csv", "pred.csv", "--zero-division", "0"]
    status, out, err = run(capsys, *argv, "--markdown", "r.md", "--html", "r.html")
    assert status == 0
    assert re.fullmatch(r"wrote r\.md \(\d KB\)\nwrote r\.html \(\d{3} KB\)\n", err)
    assert "2,515 instances, 159 labels" in out
    evaluation = MLCMReport.from_predictions(
        y_true, y_pred, target_names=names, zero_division=0.0
    )
    table = Path("r.md").read_text(encoding="utf-8")
    assert table == evaluation.to_markdown()
    assert len(table.splitlines()) == 2 + 159 + 4
    page = Path("r.html").read_text(encoding="utf-8")
    assert page == evaluation.to_html(title="true.csv vs pred.csv")
    assert "<title>true.csv vs pred.csv</title>" in page
    assert all(html.escape(name) in page for name in names)


def test_report_command_says_which_files_it_wrote(capsys, tmp_path):
    """One line per file written on standard error, with its size; standard
    output is the report printed without them."""
    argv = ["report", *table_1_csv(tmp_path), "--zero-division", "0"]
    expected_status, expected_out, expected_err = run(capsys, *argv)
    outputs = ["--matrix-out", tmp_path / "m.csv", "--markdown", tmp_path / "r.md"]
    status, out, err = run(capsys, *argv, *outputs)
    assert (status, out) == (expected_status, expected_out)
    assert err == (
        f"{expected_err}wrote {tmp_path / 'm.csv'} (73 bytes)\n"
        f"wrote {tmp_path / 'r.md'} (387 bytes)\n"
    )
