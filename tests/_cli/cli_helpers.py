"""Helpers of the command-line tests: run ``main`` and write label files.

A module, not a ``conftest.py``: a second ``conftest`` module beside
``tests/conftest.py`` would clash with it in pytest's ``prepend`` import mode.
"""

from mulan_data import mulan_test_labels as mulan_test_labels

from sklearn_mlcm._cli import main
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

PREFIX = "sklearn-mlcm: error: "

#: What ``report`` prints on stderr for Table 1 with the default
#: --zero-division warn: two instances have no true and no predicted label,
#: so their own ratios in the samples average are undefined.
SAMPLES_WARNINGS = "".join(
    f"sklearn-mlcm: warning: {ratio} is ill-defined and being set to 0.0 in "
    f"samples with {condition}. Use --zero-division to control this behavior.\n"
    for ratio, condition in (
        ("Precision", "no predicted labels"),
        ("Recall", "no true labels"),
        ("F-score", "no true nor predicted labels"),
    )
)


def run(capsys, *argv):
    """Call main in-process; return (status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_error(capsys, argv, message):
    """main(argv) exits 2 with exactly one line, ``sklearn-mlcm: error:
    <message>``, on stderr and nothing on stdout."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err == f"{PREFIX}{message}\n"


def error_line(capsys, argv):
    """The one error line of a failing main, without its prefix (for messages
    worded by the library, checked in parts)."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(PREFIX)
    assert err.count("\n") == 1 and err.endswith("\n")
    return err[len(PREFIX) : -1]


def write_csv(path, rows, header=None):
    """Write 0/1 rows (and an optional header) as CSV; return the path as str."""
    lines = [",".join(header)] if header else []
    lines += [",".join(str(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def table_1_csv(folder):
    """Heydarian et al. (2022), Table 1 as true.csv (with a header of the class
    names) and pred.csv (without), in ``folder``."""
    true = write_csv(folder / "true.csv", TABLE_1_TRUE, header=TABLE_1_NAMES)
    pred = write_csv(folder / "pred.csv", TABLE_1_PRED)
    return true, pred

