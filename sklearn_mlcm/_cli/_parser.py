"""The arguments of the command line: commands, options and their bounds.

Every option is checked here, against the library's own vocabulary and
bounds, so that a value the library would refuse never reaches it: a refusal
of an option by the library is a bug of this parser (see :mod:`._errors`).
"""

import argparse
import re

from sklearn_mlcm import __version__
from sklearn_mlcm._report._classification_report import MAX_DIGITS
from sklearn_mlcm._report._table import (
    DEFAULT_METRICS,
    METRIC_NAMES,
    repeated_statistic,
)
from sklearn_mlcm._summary import escape_controls
from sklearn_mlcm._uncertainty._margins import MAX_RESAMPLES

__all__ = [
    "DELIMITER_NAMES",
    "INTERVAL_OPTIONS",
    "MATRIX_MAX_LABELS",
    "METHOD_NAMES",
    "NORMALIZED",
    "PROG",
    "TOP_DEFAULT",
    "ZERO_DIVISION",
    "build_parser",
]

PROG = "sklearn-mlcm"

#: The library's methods (``method=``), as the report describes them.
METHOD_NAMES = {
    "heydarian": "Heydarian et al. 2022, counts",
    "krstinic": "Krstinic et al. 2020, fractions",
}
#: What each ``--normalize`` does, as the report says it.
NORMALIZED = {
    "true": "normalised over the true labels: each row that has a count sums to 1",
    "pred": "normalised over the predicted labels: each column that has a count "
    "sums to 1",
    "all": "normalised over all cells: the matrix sums to 1",
}
#: ``--zero-division`` as typed -> the library's ``zero_division``.
ZERO_DIVISION = {"warn": "warn", "0": 0.0, "1": 1.0, "nan": float("nan")}
#: Above this many labels the matrix is not printed unless ``--matrix`` asks.
MATRIX_MAX_LABELS = 30
#: ``--top-k`` when the matrix is not printed: the confusions summarise it.
TOP_DEFAULT = 10
#: ``--delimiter`` spellings of a tab (a shell passes ``\\t`` as two characters).
DELIMITER_NAMES = {"tab": "\t", "\\t": "\t"}
#: The options that shape the intervals: each needs ``--confidence-level``.
INTERVAL_OPTIONS = ("n_resamples", "interval", "seed", "n_jobs")
# Characters that are part of the values or of CSV's quoting and line breaks.
_NOT_DELIMITERS = '.+-"\r\n'


#: How the numbers of the options are written: ASCII digits, no ``_`` or
#: full-width digits (which Python's ``int`` and ``float`` also accept).
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _integer(text):
    """``text`` as an int, or the parser's usage error."""
    if _INTEGER.fullmatch(text) is not None:
        try:
            return int(text)
        except ValueError:  # more digits than Python converts
            pass
    raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")


def _integer_in(text, low, high):
    """An integer from ``low`` to ``high``, or the parser's usage error."""
    value = _integer(text)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"expected an integer from {low} to {high}, got {value}"
        )
    return value


def _digits(text):
    """``--digits``: an integer from 0 to the library's ``MAX_DIGITS``."""
    return _integer_in(text, 0, MAX_DIGITS)


def _top_k(text):
    """``--top-k``: a number of confusions, 0 (none) or more (the library's
    ``top_k``)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def _confidence_level(text):
    """``--confidence-level``: a number strictly between 0 and 1 (0.95)."""
    if _DECIMAL.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a number strictly between 0 and 1 (such as 0.95), got {text}"
        )
    return value


def _n_resamples(text):
    """``--n-resamples``: from 1 to the library's ``MAX_RESAMPLES``."""
    return _integer_in(text, 1, MAX_RESAMPLES)


def _seed(text):
    """``--seed``: the library's ``random_state``, 0 to 2**32 - 1."""
    return _integer_in(text, 0, 2**32 - 1)


def _n_jobs(text):
    """``--n-jobs``: the library's ``n_jobs``, 1 or more threads, or -1 for
    every processor (-2 for all but one, and so on); not 0."""
    value = _integer(text)
    if value == 0:
        raise argparse.ArgumentTypeError(
            "expected 1 or more threads, or -1 for every processor, got 0"
        )
    return value


def _metrics(text):
    """``--metrics``: the report's statistics, comma-separated names of the
    registry (``precision,recall,f1-score``), each once."""
    names = [name.strip() for name in text.split(",")]
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not all(names):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated statistics among {', '.join(METRIC_NAMES)}; "
            f"got {(unknown or [''])[0]!r}"
        )
    repeated = repeated_statistic(names)
    if repeated is not None:
        raise argparse.ArgumentTypeError(
            f"expected each statistic once; {repeated[0]!r} and {repeated[1]!r} "
            "name the same one"
        )
    return tuple(names)


def _delimiter(text):
    """``--delimiter``: one character that is not part of a value, or tab."""
    delimiter = DELIMITER_NAMES.get(text.lower(), text)
    if len(delimiter) != 1 or delimiter in _NOT_DELIMITERS or delimiter.isalnum():
        raise argparse.ArgumentTypeError(
            "expected one character that cannot be part of a value (such as , ; "
            f"or |) or tab, got {text!r}"
        )
    return delimiter


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its usage errors' control characters escaped (an
    unknown argument is quoted as given: ``--bogus\\x1b[2J`` is shown, not
    executed by the terminal)."""

    def error(self, message):
        super().error(escape_controls(message))


def build_parser():
    """The ``argparse`` parser of ``sklearn-mlcm`` and its ``report`` command."""
    parser = _Parser(
        prog=PROG,
        description=(
            "Multi-label confusion matrices (MLCM). Without a command, print the "
            "worked example of Heydarian et al. (2022), Table 1."
        ),
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_report_command(commands)
    return parser


def _add_report_command(commands):
    """The ``report`` command, its arguments in the order ``--help`` lists
    them: the input, what is printed, the intervals, the files written."""
    report = commands.add_parser(
        "report",
        help="print the MLCM and the classification report of two label files",
        description=(
            "Print the multi-label confusion matrix and the classification report "
            "of true and predicted labels. Each file is a CSV of 0/1 values, one "
            "row per instance and one column per label, with an optional header "
            "row of label names; or a .npy file holding a 2-D 0/1 array. Either "
            "file (not both) can be - to read standard input. Above "
            f"{MATRIX_MAX_LABELS} labels the matrix is not printed unless asked "
            f"for (--matrix, --matrix-out), and the {TOP_DEFAULT} most confused "
            "label pairs and label sets are printed instead. --html and "
            "--markdown write the same report to files, as the library's "
            "MLCMReport does."
        ),
    )
    _add_input_arguments(report)
    _add_printing_arguments(report)
    _add_interval_arguments(report)
    _add_file_arguments(report)


def _add_input_arguments(report):
    """The two label files, how they are read and how the matrix is made of
    them."""
    report.add_argument(
        "true", metavar="TRUE", help="the true labels (.csv or .npy; - for stdin)"
    )
    report.add_argument(
        "pred", metavar="PRED", help="the predicted labels, same shape as TRUE"
    )
    report.add_argument(
        "--method",
        choices=list(METHOD_NAMES),
        default="heydarian",
        help="heydarian: integer counts (default); krstinic: fractional contributions",
    )
    report.add_argument(
        "--normalize",
        choices=list(NORMALIZED),
        help=(
            "normalise the matrix over the true labels (rows), the predicted "
            "labels (columns) or all cells; the report is unchanged"
        ),
    )
    report.add_argument(
        "--header",
        choices=["auto", "yes", "no"],
        default="auto",
        help=(
            "whether the first CSV row names the labels; auto (default): when "
            "it is not all 0/1 and the rows below are, whatever its names look "
            "like (2005, 2.0); a first row 0,1 (pandas' default header, or "
            "data) is refused as ambiguous: pass yes or no"
        ),
    )
    report.add_argument(
        "--delimiter",
        type=_delimiter,
        metavar="CHAR",
        default=",",
        help=(
            "the character between the values of the CSV files read and written "
            "(default: ,); tab or \\t for tab-separated files"
        ),
    )


def _add_printing_arguments(report):
    """What is printed: undefined ratios, JSON, decimals, the confusions and
    the matrix."""
    report.add_argument(
        "--zero-division",
        choices=list(ZERO_DIVISION),
        default="warn",
        help=(
            "value of an undefined ratio (a label never predicted or never true); "
            "warn (default) prints a warning and uses 0"
        ),
    )
    report.add_argument(
        "--json",
        action="store_true",
        help=(
            'print one JSON object {"target_names", "confusion_matrix", '
            '"report"}'
        ),
    )
    report.add_argument(
        "--digits",
        type=_digits,
        default=2,
        help=f"decimals in the matrix and the report, 0 to {MAX_DIGITS} (default: 2)",
    )
    report.add_argument(
        "--metrics",
        type=_metrics,
        default=DEFAULT_METRICS,
        metavar="NAMES",
        help=(
            "the report's statistics, comma-separated, in order (default: "
            f"{','.join(DEFAULT_METRICS)}); any of {', '.join(METRIC_NAMES)}"
        ),
    )
    report.add_argument(
        "--top-k",
        type=_top_k,
        metavar="K",
        help=(
            "print the K most confused label pairs (the largest MLCM cells off "
            "the diagonal) and the K most frequent wrong label sets; default "
            f"{TOP_DEFAULT} above {MATRIX_MAX_LABELS} labels, else 0 (none)"
        ),
    )
    report.add_argument(
        "--matrix",
        action="store_true",
        help=f"print the matrix even above {MATRIX_MAX_LABELS} labels",
    )


def _add_interval_arguments(report):
    """The bootstrap intervals: the level, which asks for them, and the
    options that shape them (:data:`INTERVAL_OPTIONS`)."""
    report.add_argument(
        "--confidence-level",
        type=_confidence_level,
        metavar="LEVEL",
        help=(
            "print each precision, recall and F1 with its bootstrap confidence "
            "interval at this level (such as 0.95), as the library's "
            "mlcm_classification_report(confidence_level=...) does"
        ),
    )
    report.add_argument(
        "--n-resamples",
        type=_n_resamples,
        metavar="N",
        help="bootstrap resamples of the instances (default: 9999)",
    )
    report.add_argument(
        "--interval",
        choices=["bca", "percentile"],
        help="the bootstrap interval (default: bca)",
    )
    report.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        help=(
            "the seed of the resamples, so that the same files and options "
            "print the same intervals (default: 0)"
        ),
    )
    report.add_argument(
        "--n-jobs",
        type=_n_jobs,
        metavar="N",
        help=(
            "threads that draw the resamples, -1 for every processor; the "
            "intervals do not depend on it (default: 1)"
        ),
    )


def _add_file_arguments(report):
    """The files written beside what is printed: the matrix as CSV, the
    report as HTML and as markdown."""
    report.add_argument(
        "--matrix-out",
        metavar="FILE",
        help=(
            "write the matrix to FILE as CSV: a header row true\\predicted, the "
            "label names and NPL, then one row per true label and NTL"
        ),
    )
    report.add_argument(
        "--html",
        metavar="FILE",
        help=(
            "write the report to FILE as one self-contained HTML page (the "
            "library's MLCMReport.to_html): the summary, the picture of the "
            "labels most confused, the confusions and every label's scores, "
            "with the intervals of --confidence-level"
        ),
    )
    report.add_argument(
        "--markdown",
        metavar="FILE",
        help=(
            "write the classification report to FILE as a markdown table (the "
            "library's MLCMReport.to_markdown), with --digits decimals and the "
            "intervals of --confidence-level"
        ),
    )
