"""The command line's label names: the library's rule, escaped on stdout."""

import re

import pytest
from cli_helpers import error_line, run

T = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]]
P = [[1, 1, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1]]
# a raw control character (the line breaks between rows aside)
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]")


def _csv(path, header, rows):
    """A CSV file of a header of ``header`` (each quoted) and 0/1 ``rows``."""
    quoted = ['"' + name.replace('"', '""') + '"' for name in header]
    lines = [",".join(quoted), *(",".join(map(str, row)) for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")
    return str(path)


@pytest.mark.parametrize(
    "options", [[], ["--html", "page.html"], ["--matrix-out", "m.csv"]]
)
@pytest.mark.parametrize(
    "names, what",
    [
        (["a", "NTL", "c"], "'NTL' is used as the no-true-label row"),
        (["a", "b", "NPL"], "'NPL' is used as the no-predicted-label column"),
        (["a", "samples avg", "c"], "'samples avg' is used as a summary row"),
    ],
)
def test_report_command_refuses_names_of_printed_rows(
    capsys, tmp_path, monkeypatch, names, what, options
):
    """A header naming a label NTL or NPL (the matrix's row and column) is
    refused at the header, by every path, before any file is written."""
    monkeypatch.chdir(tmp_path)
    true = _csv(tmp_path / "true.csv", names, T)
    pred = _csv(tmp_path / "pred.csv", names, P)
    line = error_line(capsys, ["report", true, pred, *options])
    assert line.startswith(f"{true}, line 1: label names must be unique")
    assert f"{what}. Pass distinct label names." in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pred.csv", "true.csv"]


def test_report_command_refuses_repeated_names_at_the_header_with_html(
    capsys, tmp_path
):
    """With --html the refusal of a repeated name points at the header too
    (it was the library's message, naming MLCMReport.from_predictions)."""
    names = ["a", "b", "a"]
    true = _csv(tmp_path / "true.csv", names, T)
    pred = _csv(tmp_path / "pred.csv", names, P)
    line = error_line(capsys, ["report", true, pred, "--html", tmp_path / "page.html"])
    assert line.startswith(f"{true}, line 1: label names must be unique")
    assert "'a' is used twice" in line
    assert "MLCMReport" not in line


HOSTILE = ["x\x1b]0;title\x07", "red\x1b[31m\x9b2J", "two\nlines\u202e"]


@pytest.mark.parametrize(
    "options", [[], ["--confidence-level", "0.9", "--n-resamples", "99"]]
)
def test_report_command_prints_control_characters_escaped(capsys, tmp_path, options):
    """Names with escape sequences and line breaks print escaped: no control
    character reaches the terminal, and the matrix and the report keep one
    line per label (as with plain names)."""
    outputs = []
    for names in (HOSTILE, ["x", "red", "two"]):
        true = _csv(tmp_path / "true.csv", names, T)
        pred = _csv(tmp_path / "pred.csv", names, P)
        status, out, err = run(
            capsys,
            "report",
            true,
            pred,
            "--top-k",
            "3",
            "--zero-division",
            "0",
            *options,
        )
        assert status == 0, err
        outputs.append(out)
    hostile, plain = outputs
    assert _RAW.search(hostile) is None
    assert hostile.count("\n") == plain.count("\n")
    matrix = [line for line in hostile.splitlines() if line.startswith("NTL ")]
    assert len(matrix) == 1
    assert "x\\x1b]0;title\\x07" in hostile
    assert "two\\nlines\\u202e" in hostile


def test_markdown_to_stdout_shows_control_characters_escaped(capsys, tmp_path):
    """``--markdown /dev/stdout`` (the docs' way to print the table) sent a
    name's ESC, BEL and bidi override raw to the terminal: markdown (and
    LaTeX) kept them (found by an adversarial hunt). Every table now shows
    them as the text report does."""
    true = _csv(tmp_path / "true.csv", HOSTILE, T)
    pred = _csv(tmp_path / "pred.csv", HOSTILE, P)
    for option, name in (("--markdown", "table.md"), ("--html", "page.html")):
        status, out, err = run(
            capsys, "report", true, pred, "--zero-division", "0",
            option, tmp_path / name,
        )  # fmt: skip
        assert status == 0, err
    markdown = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert _RAW.search(markdown) is None
    assert "x\\\\x1b\\]0;title\\\\x07" in markdown  # shown as x\x1b]0;title\x07
    assert len(markdown.strip().splitlines()) == 2 + 3 + 4


def test_names_that_escaping_would_print_alike_are_told_apart(capsys, tmp_path):
    """The name ESC and the four characters ``\\x1b`` both printed
    ``a\\x1b``: the command line refused the file as naming a label twice,
    and the library printed two rows alike. A backslash that would read as
    an escape is doubled, as repr does, and each name is printed once: the
    report's rows read as the matrix's (a review found the report escaping
    the matrix's printed names again, ``C:\\\\\\\\new``)."""
    names = ["a\x1b", "a\\x1b", "C:\\new"]
    true = _csv(tmp_path / "true.csv", names, T)
    pred = _csv(tmp_path / "pred.csv", names, P)
    for options in ([], ["--html", tmp_path / "page.html"]):
        status, out, err = run(
            capsys, "report", true, pred, "--zero-division", "0", *options
        )
        assert status == 0, err
        matrix, report = out.split("Classification report")
        printed = ["a\\x1b", "a\\\\x1b", "C:\\\\new"]
        matrix_rows = [line.split()[0] for line in matrix.splitlines()[5:8]]
        report_rows = [line.split()[0] for line in report.splitlines()[4:7]]
        assert matrix_rows == report_rows == printed


def test_file_names_and_arguments_print_control_characters_escaped(
    capsys, tmp_path, monkeypatch
):
    """A file name or an argument quoted back (the matrix's heading, "wrote
    ...", "no such file", argparse's "unrecognized arguments") reached the
    terminal raw (found by an adversarial hunt)."""
    monkeypatch.chdir(tmp_path)
    hostile = "t\x1b[2J.csv"
    true = _csv(tmp_path / hostile, ["a", "b", "c"], T)
    pred = _csv(tmp_path / "pred.csv", ["a", "b", "c"], P)
    page = "o\x1b]0;x\x07.html"
    status, out, err = run(
        capsys, "report", true, pred, "--zero-division", "0", "--html", page
    )
    assert status == 0, err
    assert out.splitlines()[0].startswith(f"MLCM of {tmp_path}/t\\x1b[2J.csv ")
    assert "wrote o\\x1b]0;x\\x07.html" in err
    assert _RAW.search(out) is None and _RAW.search(err) is None
    for argv in (
        ["report", "nope\x1b[2J.csv", pred],
        ["report", pred, pred, "--x\x1b"],
    ):
        status, out, err = run(capsys, *argv)
        assert status == 2
        assert _RAW.search(err) is None
        assert "\\x1b" in err
