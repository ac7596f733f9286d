"""The command line: ``python -m sklearn_mlcm`` or ``sklearn-mlcm``.

Without arguments it prints the worked example of Heydarian et al. (2022),
Table 1. ``sklearn-mlcm report TRUE PRED`` prints the MLCM and the
classification report of the user's own label files (CSV of 0/1 with an
optional header row of label names, or ``.npy``).

This module reads files and prints; the metrics come from the library. Its
own checks only say which file and which line is wrong.
"""

import argparse
import csv
import io
import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import multilabel_confusion_matrix

from sklearn_mlcm import __version__
from sklearn_mlcm._confusion import (
    mlcm_confusion_matrix,
    mlcm_multilabel_confusion_matrix,
)
from sklearn_mlcm._report import mlcm_classification_report

__all__ = ["main"]

PROG = "sklearn-mlcm"

_METHODS = {
    "heydarian": "Heydarian et al. 2022, counts",
    "krstinic": "Krstinic et al. 2020, fractions",
}
_NORMALIZED = {
    "true": "normalised over the true labels: each row that has a count sums to 1",
    "pred": "normalised over the predicted labels: each column that has a count "
    "sums to 1",
    "all": "normalised over all cells: the matrix sums to 1",
}

# Heydarian et al. (2022), Table 1: nine instances, three classes.
_EXAMPLE_NAMES = ["C0", "C1", "C2"]
_EXAMPLE_TRUE = [
    [1, 1, 0],
    [1, 1, 1],
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [1, 1, 0],
]
_EXAMPLE_PRED = [
    [1, 1, 0],
    [1, 0, 1],
    [0, 0, 0],
    [1, 1, 1],
    [1, 1, 1],
    [0, 1, 1],
    [0, 1, 1],
    [1, 0, 1],
    [0, 0, 1],
]


class _InputError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


# Reading label files -------------------------------------------------------


def _read_labels(path, header="auto"):
    """Read a file of 0/1 label indicators.

    Returns ``(values, names, names_line)``: a 2-D array with one row per
    instance and one column per label, the header's label names (or None) and
    the line the header is on.
    """
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise _InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise _InputError(f"{path}: cannot read the file ({exc.strerror})") from None
    if path.lower().endswith(".npy"):
        return _read_npy(path, data), None, None
    return _read_csv(path, data, header)


def _read_npy(path, data):
    """A 2-D 0/1 array from the bytes of a ``.npy`` file."""
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except (OSError, ValueError, EOFError):
        raise _InputError(f"{path}: cannot read it as a NumPy .npy file") from None
    if not isinstance(array, np.ndarray):
        raise _InputError(f"{path}: expected one NumPy array, found an .npz archive")
    if array.ndim != 2:
        raise _InputError(
            f"{path}: expected a 2-D array (one row per instance, one column per "
            f"label), found shape {array.shape}"
        )
    if array.dtype.kind not in "biuf":
        raise _InputError(
            f"{path}: expected 0/1 numbers, found an array of dtype {array.dtype}"
        )
    if array.shape[0] == 0:
        raise _InputError(f"{path}: no data rows; expected one row per instance")
    bad = (array != 0) & (array != 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise _InputError(
            f"{path}, row {i + 1}, column {j + 1}: expected 0 or 1, found "
            f"{array[i, j].item()!r}"
        )
    return array


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_csv(path, data, header="auto"):
    """0/1 values and the optional header of a CSV file, checked row by row."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _InputError(
            f"{path}, line {line}: not UTF-8 text; expected a CSV file of 0/1 values"
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, lines = [], []
    try:
        for row in reader:
            if row and not (len(row) == 1 and not row[0].strip()):  # skip blanks
                rows.append(row)
                lines.append(reader.line_num)
    except csv.Error as exc:
        raise _InputError(f"{path}, line {reader.line_num}: {exc}") from None

    names = names_line = None
    numeric = [_is_number(field) for field in rows[0]] if rows else []
    if header != "auto":  # the user said whether line 1 is a header
        numeric = [header == "no"] * len(numeric)
    if any(numeric) and not all(numeric):
        # Neither a header (all names) nor data (all numbers): most likely a
        # typo in the first data row, which must not silently become a header.
        j = numeric.index(False) if numeric[0] else numeric.index(True)
        raise _InputError(
            f"{path}, line {lines[0]}, column {j + 1}: the first row mixes numbers "
            "and names; a header row must name every label and a data row must "
            f"hold only 0 and 1, found {rows[0][j].strip()!r}"
        )
    if rows and not any(numeric):
        names, names_line = [field.strip() for field in rows[0]], lines[0]
        rows, lines = rows[1:], lines[1:]
        for j, name in enumerate(names):
            if not name:
                raise _InputError(
                    f"{path}, line {names_line}: the header has no label name in "
                    f"column {j + 1}"
                )
            if name in names[:j]:
                raise _InputError(
                    f"{path}, line {names_line}: the header names {name!r} twice"
                )
    if not rows:
        raise _InputError(f"{path}: no data rows; expected one row per instance")

    n_values = len(names) if names else len(rows[0])
    for row, line in zip(rows, lines):
        if len(row) != n_values:
            raise _InputError(
                f"{path}, line {line}: expected {n_values} values, found {len(row)}"
            )
    cells = np.char.strip(np.array(rows, dtype=str))
    values = cells == "1"
    for i, j in zip(*np.nonzero((cells != "0") & (cells != "1"))):
        field = str(cells[i, j])  # another spelling of 0 or 1 ("1.0"), or wrong
        if not _is_number(field) or float(field) not in (0.0, 1.0):
            hint = ""
            if ";" in field or "\t" in field:
                hint = " (values must be separated by commas)"
            elif i == 0 and names is None and _is_number(field):
                hint = " (if line 1 is a header of label names, pass --header yes)"
            raise _InputError(
                f"{path}, line {lines[i]}, column {j + 1}: expected 0 or 1, "
                f"found {field!r}{hint}"
            )
        values[i, j] = float(field) == 1.0
    return values, names, names_line


def _check_pair(true, pred, true_path, pred_path):
    """Check that the two files match; return the label names to display."""
    (y_true, true_names, _), (y_pred, pred_names, pred_line) = true, pred
    if y_true.shape[0] != y_pred.shape[0]:
        raise _InputError(
            f"{pred_path}: expected {y_true.shape[0]} rows (as in {true_path}), "
            f"found {y_pred.shape[0]}"
        )
    if y_true.shape[1] != y_pred.shape[1]:
        raise _InputError(
            f"{pred_path}: expected {y_true.shape[1]} label columns (as in "
            f"{true_path}), found {y_pred.shape[1]}"
        )
    if true_names and pred_names and true_names != pred_names:
        j = next(j for j, (a, b) in enumerate(zip(true_names, pred_names)) if a != b)
        raise _InputError(
            f"{pred_path}, line {pred_line}: label {j + 1} is named "
            f"{pred_names[j]!r}, but {true_path} names it {true_names[j]!r}"
        )
    return true_names or pred_names


# Printing ------------------------------------------------------------------


def _format_table(rows, row_names, col_names):
    """Right-aligned text table: a header line, then one line per row."""
    name_width = max(len(name) for name in row_names)
    widths = [
        max(len(col), *(len(row[j]) for row in rows)) for j, col in enumerate(col_names)
    ]
    header = "".join(f"  {c:>{w}}" for c, w in zip(col_names, widths))
    lines = [" " * name_width + header]
    for name, row in zip(row_names, rows):
        cells = "".join(f"  {c:>{w}}" for c, w in zip(row, widths))
        lines.append(f"{name:>{name_width}}{cells}")
    return "\n".join(lines)


def _format_mlcm(cm, names, digits=2):
    """The MLCM as text, rows C..., NTL and columns C..., NPL."""
    if np.issubdtype(cm.dtype, np.integer):
        cells = [[str(v) for v in row] for row in cm.tolist()]
    else:
        cells = [[f"{v:.{digits}f}" for v in row] for row in cm.tolist()]
    return _format_table(cells, [*names, "NTL"], [*names, "NPL"])


def _indent(text, spaces=4):
    return "\n".join(" " * spaces + line if line else line for line in text.split("\n"))


def _format_instances(names):
    """Table 1 as text: one line per instance, its true then predicted labels."""
    head = " ".join(names)

    def values(row):
        return " ".join(f"{v:>{len(name)}}" for v, name in zip(row, names))

    lines = [
        f"{'':8}  {'true':<{len(head)}}    predicted",
        f"instance  {head}    {head}",
    ]
    for i, (t, p) in enumerate(zip(_EXAMPLE_TRUE, _EXAMPLE_PRED), start=1):
        lines.append(f"{i:>8}  {values(t)}    {values(p)}")
    return "\n".join(lines)


def _example():
    """Print the worked example of Heydarian et al. (2022), Table 1."""
    y_true, y_pred = np.array(_EXAMPLE_TRUE), np.array(_EXAMPLE_PRED)
    names = _EXAMPLE_NAMES
    cm = mlcm_confusion_matrix(y_true, y_pred)
    sklearn_sum = multilabel_confusion_matrix(y_true, y_pred).sum(axis=0)
    mlcm_sum = mlcm_multilabel_confusion_matrix(y_true, y_pred).sum(axis=0)
    report = mlcm_classification_report(y_true, y_pred, target_names=names)

    counts = _format_table(
        [
            [str(a), str(b)]
            for a, b in zip(sklearn_sum.ravel(), mlcm_sum.ravel(), strict=True)
        ],
        ["TN", "FP", "FN", "TP"],
        ["scikit-learn", "MLCM"],
    )
    text = f"""\
MLCM: Multi-Label Confusion Matrix (Heydarian, Doyle and Samavi,
IEEE Access 10, 2022): the worked example of Table 1.

Nine instances with three classes C0, C1, C2 (1 = the label is present):

{_indent(_format_instances(names))}

The MLCM (Table 4 (j)). Rows are true labels, columns predicted labels.
The NTL row (no true label) counts predictions for instances without a
true label; the NPL column (no predicted label) counts true labels missed
while nothing wrong was predicted. Instance 7, true C0 but predicted C1
and C2, adds one to (C0, C1) and one to (C0, C2).

{_indent(_format_mlcm(cm, names))}

The one-vs-rest counts, summed over the labels. scikit-learn's
multilabel_confusion_matrix looks at one label at a time, so its 5 false
negatives and 9 false positives do not pair up (Table 2 (d)). The MLCM
charges each missed label to the label predicted in its place: FN = FP
(Table 7 (e), from mlcm_multilabel_confusion_matrix).

{_indent(counts)}

The classification report read off the MLCM. "weight" is the MLCM row sum
(Table 12), "support" the number of instances with the label.

{_indent(report.rstrip())}

On your own labels: {PROG} report TRUE PRED, each file a CSV of 0/1
values (optionally with a header row of label names) or a .npy array.
See {PROG} report --help."""
    print(text)
    return 0


_ZERO_DIVISION = {"warn": "warn", "0": 0.0, "1": 1.0, "nan": float("nan")}


def _nan_to_none(value):
    """JSON has no NaN: undefined ratios (--zero-division nan) become null."""
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    if isinstance(value, float) and value != value:
        return None
    return value


def _report(args):
    """The ``report`` command: the MLCM and the report of two label files."""
    true = _read_labels(args.true, args.header)
    pred = _read_labels(args.pred, args.header)
    names = _check_pair(true, pred, args.true, args.pred)
    y_true, y_pred = true[0], pred[0]
    labels = names or [str(j) for j in range(y_true.shape[1])]
    cm = mlcm_confusion_matrix(
        y_true, y_pred, method=args.method, normalize=args.normalize
    )
    report = mlcm_classification_report(
        y_true,
        y_pred,
        method=args.method,
        target_names=names,
        digits=args.digits,
        output_dict=args.json,
        zero_division=_ZERO_DIVISION[args.zero_division],
    )
    if args.json:
        output = {"labels": labels, "confusion_matrix": cm.tolist(), "report": report}
        print(json.dumps(_nan_to_none(output)))
        return 0
    lines = [
        f"MLCM of {args.true} (rows: true labels) and {args.pred} (columns: "
        "predicted labels)",
        f"{y_true.shape[0]} instances, {y_true.shape[1]} labels; method "
        f"{args.method} ({_METHODS[args.method]}).",
        "NTL = no true label, NPL = no predicted label.",
    ]
    if args.normalize:
        lines.append(_NORMALIZED[args.normalize].capitalize() + ".")
    print(
        "\n".join(lines) + "\n\n"
        f"{_format_mlcm(cm, labels, args.digits)}\n\n"
        "Classification report, computed from the MLCM:\n\n"
        f"{report.rstrip()}"
    )
    return 0


# The command line ----------------------------------------------------------


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value}")
    return value


def _parser():
    parser = argparse.ArgumentParser(
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
    report = commands.add_parser(
        "report",
        help="print the MLCM and the classification report of two label files",
        description=(
            "Print the multi-label confusion matrix and the classification report "
            "of true and predicted labels. Each file is a CSV of 0/1 values, one "
            "row per instance and one column per label, with an optional header "
            "row of label names; or a .npy file holding a 2-D 0/1 array."
        ),
    )
    report.add_argument("true", metavar="TRUE", help="the true labels (.csv or .npy)")
    report.add_argument(
        "pred", metavar="PRED", help="the predicted labels, same shape as TRUE"
    )
    report.add_argument(
        "--method",
        choices=list(_METHODS),
        default="heydarian",
        help="heydarian: integer counts (default); krstinic: fractional contributions",
    )
    report.add_argument(
        "--normalize",
        choices=list(_NORMALIZED),
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
            "none of its values is a number, as pandas' to_csv of named columns "
            "writes it (pass yes for pandas' default header 0,1,2,...)"
        ),
    )
    report.add_argument(
        "--zero-division",
        choices=["warn", "0", "1", "nan"],
        default="warn",
        help=(
            "value of an undefined ratio (a label never predicted or never true); "
            "warn (default) prints a warning and uses 0"
        ),
    )
    report.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object {"labels", "confusion_matrix", "report"}',
    )
    report.add_argument(
        "--digits",
        type=_non_negative_int,
        default=2,
        help="decimals in the matrix and the report (default: 2)",
    )
    return parser


def main(argv=None):
    """Run the ``sklearn-mlcm`` command line.

    Without a command, print the worked example of Heydarian et al. (2022),
    Table 1: the labels, the MLCM, scikit-learn's one-vs-rest totals beside
    the MLCM's, and the classification report. ``report TRUE PRED`` prints
    the MLCM and the report of the user's own label files.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments, without the program name. None reads ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success; 2 when the arguments or the input files are wrong, after
        one line on stderr (``sklearn-mlcm: error: FILE, line N: ...``).

    See Also
    --------
    sklearn_mlcm.mlcm_confusion_matrix : The matrix printed.
    sklearn_mlcm.mlcm_classification_report : The report printed.

    Notes
    -----
    A label file is a CSV of 0/1 values, one row per instance and one column
    per label, whose first row is a header of label names when it is not all
    numbers; or a ``.npy`` file holding a 2-D 0/1 array. From a shell::

        sklearn-mlcm
        sklearn-mlcm report true.csv pred.csv --method krstinic --normalize true
        sklearn-mlcm report true.npy pred.npy --json

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    >>> from sklearn_mlcm.__main__ import main
    >>> main([])
    MLCM: Multi-Label Confusion Matrix (Heydarian, Doyle and Samavi,
    ...
    0
    """
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already shown
        return exc.code
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # shown below, one line each
            status = _report(args) if args.command == "report" else _example()
            sys.stdout.flush()
    except BrokenPipeError:  # the reader left early (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (_InputError, ValueError) as exc:
        message = " ".join(str(exc).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    for message in dict.fromkeys(str(w.message) for w in caught):
        print(f"{PROG}: warning: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
