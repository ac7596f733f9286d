"""The command line as a whole: ``main``, its entry points, its arguments and
the worked example it prints without them (sklearn_mlcm._cli._main,
._parser and ._example)."""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run, table_1_csv, write_csv
from numpy.testing import assert_array_equal
from paper_data import TABLE_4J

from sklearn_mlcm import mlcm_classification_report
from sklearn_mlcm._cli import main
from sklearn_mlcm._cli._parser import METHOD_NAMES
from sklearn_mlcm._cli._report_command import TEXT_WIDTH
from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE
from sklearn_mlcm._report._classification_report import MAX_DIGITS

ROOT = Path(__file__).resolve().parents[2]


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


# The worked example ---------------------------------------------------------


def test_main_example_prints_table_4j_mlcm(capsys):
    """Without arguments, the labelled MLCM of Heydarian et al. Table 4 (j)."""
    status, out, err = run(capsys)
    assert (status, err) == (0, "")
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
    assert (
        "    instance  C0 C1 C2    C0 C1 C2\n           1   1  1  0     1  1  0\n"
        in out
    )
    instances = table_rows(out, [str(i) for i in range(1, 10)])
    assert_array_equal([row[:3] for row in instances], TABLE_1_TRUE)
    assert_array_equal([row[3:] for row in instances], TABLE_1_PRED)


def test_main_example_compares_sklearn_and_mlcm_totals(capsys):
    """FN 5 / FP 9 (Table 2 (d)) are printed beside FN 12 / FP 12 (Table 7 (e))."""
    _, out, _ = run(capsys)
    assert "scikit-learn  MLCM" in out
    tn, fp, fn, tp = table_rows(out, ["TN", "FP", "FN", "TP"])
    assert (fn, fp, tp, tn) == ([5, 12], [9, 12], [8, 9], [5, 27])


def test_main_example_prints_the_report(capsys):
    """The example ends with mlcm_classification_report of Table 1, the
    samples average's empty instances counted as 0, without a warning."""
    _, out, _ = run(capsys)
    report = mlcm_classification_report(
        TABLE_1_TRUE, TABLE_1_PRED, target_names=TABLE_1_NAMES, zero_division=0.0
    )
    indented = "\n".join("    " + line if line else "" for line in report.split("\n"))
    assert indented.rstrip() in out
    assert out.rstrip().endswith("See sklearn-mlcm report --help.")


# Entry points -----------------------------------------------------------------


def test_main_module_entry_point_runs_the_example(capsys):
    """``python -m sklearn_mlcm`` exits 0 and prints what main() prints."""
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_mlcm"],
        capture_output=True,
        text=True,
        check=False,
    )
    _, out, _ = run(capsys)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == out


def test_main_is_the_console_script_of_pyproject():
    """pyproject.toml's ``sklearn-mlcm`` script is sklearn_mlcm._cli:main."""
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as file:
        scripts = tomllib.load(file)["project"]["scripts"]
    module, _, name = scripts["sklearn-mlcm"].partition(":")
    assert getattr(importlib.import_module(module), name) is main


def test_main_broken_pipe_exits_quietly():
    """A reader that leaves early (``| head``): status 1, no traceback."""
    with subprocess.Popen(
        [sys.executable, "-m", "sklearn_mlcm"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:  # closes the pipes on the way out
        process.stdout.close()  # before the child writes: its first write fails
        err = process.stderr.read()
        assert process.wait(timeout=60) == 1
    assert err == b""


# Arguments --------------------------------------------------------------------


def test_main_help_and_version_exit_0(capsys):
    """--help and --version print and return 0 instead of raising SystemExit."""
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "report" in out and "Table 1" in out
    status, out, _ = run(capsys, "report", "--help")
    assert status == 0
    assert "--normalize" in out and f"0 to {MAX_DIGITS}" in out
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith("sklearn-mlcm ")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["report", "a.csv", "b.csv", "--method", "foo"], "invalid choice: 'foo'"),
        (["report", "a.csv", "b.csv", "--normalize", "rows"], "invalid choice"),
        (["report", "a.csv", "b.csv", "--zero-division", "2"], "invalid choice"),
        (["report", "a.csv", "b.csv", "--header", "maybe"], "invalid choice"),
        (
            ["report", "a.csv", "b.csv", "--digits", "-1"],
            f"expected an integer from 0 to {MAX_DIGITS}, got -1",
        ),
        (
            ["report", "a.csv", "b.csv", "--digits", "1000000000"],
            f"expected an integer from 0 to {MAX_DIGITS}, got 1000000000",
        ),
        (["report", "a.csv", "b.csv", "--digits", "two"], "expected an integer"),
        (["report", "a.csv", "b.csv", "--digits", "9" * 5000], "expected an integer"),
        (["report", "a.csv", "b.csv", "--digits", "1_0"], "expected an integer"),
        (["report", "a.csv", "b.csv", "--top-k", "\uff11"], "expected an integer"),
        (
            ["report", "a.csv", "b.csv", "--confidence-level", "0"],
            "expected a number strictly between 0 and 1 (such as 0.95), got 0",
        ),
        (
            ["report", "a.csv", "b.csv", "--confidence-level", "1"],
            "expected a number strictly between 0 and 1 (such as 0.95), got 1",
        ),
        (
            ["report", "a.csv", "b.csv", "--confidence-level", "95"],
            "strictly between 0 and 1 (such as 0.95), got 95",
        ),
        (
            ["report", "a.csv", "b.csv", "--confidence-level", "nan"],
            "expected a number, got 'nan'",
        ),
        (
            ["report", "a.csv", "b.csv", "--confidence-level", "0.9_5"],
            "expected a number, got '0.9_5'",
        ),
        (
            ["report", "a.csv", "b.csv", "--n-resamples", "0"],
            "expected an integer from 1 to 1000000, got 0",
        ),
        (
            ["report", "a.csv", "b.csv", "--n-resamples", "1000001"],
            "expected an integer from 1 to 1000000, got 1000001",
        ),
        (
            ["report", "a.csv", "b.csv", "--seed", "-1"],
            "expected an integer from 0 to 4294967295, got -1",
        ),
        (
            ["report", "a.csv", "b.csv", "--n-jobs", "0"],
            "expected 1 or more threads, or -1 for every processor, got 0",
        ),
        (
            ["report", "a.csv", "b.csv", "--n-jobs", "two"],
            "expected an integer, got 'two'",
        ),
        (["report", "a.csv", "b.csv", "--interval", "normal"], "invalid choice"),
        (["report", "a.csv"], "the following arguments are required: PRED"),
        (["bogus"], "invalid choice: 'bogus'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_main_bad_options_exit_2(capsys, argv, message):
    """argparse refuses a wrong option, with its usage and message, status 2."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: sklearn-mlcm")
    assert message in err
    assert "Traceback" not in err


def test_main_digits_bound_is_the_library_bound(capsys, tmp_path):
    """--digits takes the library's largest ``digits``, and no more."""
    status, out, _ = run(
        capsys, "report", *table_1_csv(tmp_path), "--digits", MAX_DIGITS
    )
    assert status == 0
    assert f"{0.45454545454545453:.{MAX_DIGITS}f}" in out
    status, _, _ = run(
        capsys, "report", *table_1_csv(tmp_path), "--digits", MAX_DIGITS + 1
    )
    assert status == 2


def test_main_methods_are_the_library_methods():
    """--method offers every method of the library, each described."""
    assert set(METHOD_NAMES) == set(METHODS)


# Warnings ---------------------------------------------------------------------


def test_main_warnings_are_one_line(capsys, tmp_path):
    """Each ill-defined ratio's warning is one 'warning:' line, not a trace."""
    rows = [[1, 0], [1, 0]]
    true = write_csv(tmp_path / "true.csv", rows)
    pred = write_csv(tmp_path / "pred.csv", rows)
    status, out, err = run(capsys, "report", true, pred)
    assert status == 0
    assert "  0  2  0    0\n" in out
    lines = err.splitlines()
    assert lines
    assert all(line.startswith("sklearn-mlcm: warning: ") for line in lines)
    assert len(set(lines)) == len(lines)  # each warning once
    assert "ill-defined" in err


def test_main_warnings_name_the_options(capsys, tmp_path):
    """The library's "Use `zero_division` parameter" reads "Use --zero-division"
    on the command line; the option silences it."""
    rows = [[1, 0], [1, 0]]
    true = write_csv(tmp_path / "true.csv", rows)
    pred = write_csv(tmp_path / "pred.csv", rows)
    status, _, err = run(capsys, "report", true, pred)
    assert status == 0
    assert err == (
        "sklearn-mlcm: warning: Precision is ill-defined and being set to 0.0 in "
        "labels with no predicted samples. Use --zero-division to control this "
        "behavior.\n"
        "sklearn-mlcm: warning: Recall is ill-defined and being set to 0.0 in "
        "labels with no true samples. Use --zero-division to control this "
        "behavior.\n"
        "sklearn-mlcm: warning: F-score is ill-defined and being set to 0.0 in "
        "labels with no true nor predicted samples. Use --zero-division to "
        "control this behavior.\n"
    )
    assert "`zero_division`" not in err and "parameter" not in err
    status, _, err = run(capsys, "report", true, pred, "--zero-division", "0")
    assert (status, err) == (0, "")


def test_main_example_output_is_unchanged_by_the_report_options(capsys):
    """The worked example prints no legend or --top-k tables of ``report``."""
    _, out, _ = run(capsys)
    assert "micro avg pools" not in out and "confused" not in out


def test_main_example_prose_wraps_without_lone_fragments(capsys):
    """The example's paragraphs fill their lines: no line holds a quoted term
    alone (it printed '"samples avg"' on a line of its own), none splits a
    quoted term, none is wider than the command's text, and every line of a
    paragraph but its last is at least half that width."""
    _, out, _ = run(capsys)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= TEXT_WIDTH
    for line, after in zip(lines, [*lines[1:], ""]):
        if not line or line.startswith(" "):  # a blank line or a table
            continue
        assert not re.fullmatch(r'"[^"]*"[.,;:]?', line.strip()), line
        assert line.count('"') % 2 == 0, line
        if after and not after.startswith(" "):
            assert len(line) >= TEXT_WIDTH // 2, line


def test_main_example_does_not_equate_micro_avg_with_scikit_learn(capsys):
    """The example says how its micro avg relates to scikit-learn's (the same
    pooling of different counts), not that it is scikit-learn's."""
    _, out, _ = run(capsys)
    text = " ".join(out.split())
    assert "as scikit-learn's does" not in text
    assert (
        "\"micro avg\" pools the three labels' MLCM counts the way scikit-learn "
        "pools its one-vs-rest counts (the counts differ, and so can the scores)"
    ) in text
