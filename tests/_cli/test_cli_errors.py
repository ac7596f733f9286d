"""Input errors told from bugs (sklearn_mlcm._cli._errors): the library's data
validation refuses the user's labels (InvalidInputError) in one line; every
other exception, a ValueError included, propagates as the bug it is."""

import pytest
from cli_helpers import assert_error, table_1_csv

import sklearn_mlcm._mlcm._dispatch as dispatch
from sklearn_mlcm import (
    InvalidInputError,
    InvalidParameterError,
    mlcm_confusion_matrix,
)
from sklearn_mlcm._cli import main
from sklearn_mlcm._cli._errors import InputError, library_refusals


def test_library_refusals_data_refusals_are_input_errors():
    """The library's refusals of the targets are InvalidInputError, by type."""
    for args in ([[2, 0]], [[1, 0]]), ([[1, 0]], [[1]]), ([["a"]], [["b"]]):
        with pytest.raises(InvalidInputError):
            mlcm_confusion_matrix(*args)
        with pytest.raises(InputError):
            with library_refusals(str):
                mlcm_confusion_matrix(*args)


def test_library_refusals_not_other_errors():
    """Errors of other code, and refusals of options, are not data refusals."""
    with pytest.raises(ValueError, match="never raised"):
        with library_refusals(str):
            raise ValueError("never raised")
    # an option is argparse's to check: the library refusing one is a CLI bug
    with pytest.raises(InvalidParameterError, match="'method' parameter"):
        with library_refusals(str):
            mlcm_confusion_matrix([[1]], [[1]], method="foo")


def test_library_refusals_a_refusal_raised_anywhere_is_an_input_error():
    """The type decides, not the module that raised it: a refusal raised by a
    helper outside the validation module is still one line."""
    with pytest.raises(InputError, match="^moved: somewhere else$"):
        with library_refusals(lambda text: f"moved: {text}"):
            raise InvalidInputError("somewhere else")


def test_library_refusals_rewrites_refusals_only():
    """A refusal becomes an InputError worded by ``describe``; others pass."""
    expected = r"^file\.csv: y_true of mlcm_confusion_matrix must contain only 0"
    with pytest.raises(InputError, match=expected):
        with library_refusals(lambda text: f"file.csv: {text}"):
            mlcm_confusion_matrix([[2, 0]], [[1, 0]])
    with pytest.raises(ValueError, match="invalid literal"):
        with library_refusals(str.upper):
            int("x")
    with pytest.raises(ZeroDivisionError):
        with library_refusals(str.upper):
            1 / 0


def test_main_bug_in_the_computation_is_a_traceback(tmp_path, monkeypatch, capsys):
    """A ValueError raised by anything but the validation propagates from main,
    instead of being shown as the user's error."""

    def broken(*args, **kwargs):
        raise ValueError("a bug in the kernel")

    monkeypatch.setitem(dispatch.METHODS, "heydarian", broken)
    with pytest.raises(ValueError, match="a bug in the kernel"):
        main(["report", *table_1_csv(tmp_path)])
    assert "error:" not in capsys.readouterr().err


def test_main_input_error_is_one_line(capsys, tmp_path):
    """An InputError is one line, ``sklearn-mlcm: error: ...``, status 2."""
    missing = str(tmp_path / "true.csv")
    assert_error(capsys, ["report", missing, missing], f"{missing}: no such file")
