"""The ``report`` command: the MLCM and the classification report of two files.

The two label files are read (:mod:`._io`) and their numbers handed to the
library as they are: the library validates them (values other than 0 and 1,
mismatched shapes, repeated label names) and computes. Its refusals come back
as one line that names the file instead of ``y_true`` or ``y_pred``, with the
line and column of the value it names.
"""

import re

import numpy as np

from sklearn_mlcm import mlcm_classification_report, mlcm_confusion_matrix

from ._errors import InputError, library_refusals
from ._format import format_json, format_mlcm
from ._io import read_labels
from ._parser import METHOD_NAMES, NORMALIZED, ZERO_DIVISION

__all__ = ["report_command"]


def report_command(args):
    """Print the MLCM and the report of ``args.true`` and ``args.pred``."""
    true = read_labels(args.true, args.header)
    pred = read_labels(args.pred, args.header)
    func = mlcm_confusion_matrix.__name__
    with library_refusals(lambda text: _about_data(text, func, true, pred)):
        cm = mlcm_confusion_matrix(
            true.values, pred.values, method=args.method, normalize=args.normalize
        )
    names = _label_names(true, pred)
    func = mlcm_classification_report.__name__
    header = true if true.names is not None else pred
    with library_refusals(lambda text: _about_names(text, func, header)):
        report = mlcm_classification_report(
            true.values,
            pred.values,
            method=args.method,
            target_names=names,
            digits=args.digits,
            output_dict=args.json,
            zero_division=ZERO_DIVISION[args.zero_division],
        )
    labels = names or [str(j) for j in range(cm.shape[0] - 1)]
    if args.json:
        print(format_json(labels, cm, report))
        return
    n_rows, n_labels = true.values.shape
    lines = [
        f"MLCM of {args.true} (rows: true labels) and {args.pred} (columns: "
        "predicted labels)",
        f"{n_rows} instances, {n_labels} labels; method "
        f"{args.method} ({METHOD_NAMES[args.method]}).",
        "NTL = no true label, NPL = no predicted label.",
    ]
    if args.normalize:
        lines.append(NORMALIZED[args.normalize].capitalize() + ".")
    print(
        "\n".join(lines) + "\n\n"
        f"{format_mlcm(cm, labels, args.digits)}\n\n"
        "Classification report, computed from the MLCM:\n\n"
        f"{report.rstrip()}"
    )


def _label_names(true, pred):
    """The names of the labels: the header of either file; both must agree."""
    if true.names is not None and pred.names is not None and true.names != pred.names:
        j = next(j for j, (a, b) in enumerate(zip(true.names, pred.names)) if a != b)
        raise InputError(
            f"{pred.path}, line {pred.names_line}: label {j + 1} is named "
            f"{pred.names[j]!r}, but {true.path} names it {true.names[j]!r}"
        )
    return true.names if true.names is not None else pred.names


def _first_named_value(values):
    """``(row, column)`` of the value the library's message names, or None.

    The library names a NaN first if there is one, else the first value
    other than 0 and 1 (in row order). None for an array of non-numbers,
    whose message is about its dtype.
    """
    if values.dtype.kind not in "biuf":
        return None
    if values.dtype.kind == "f" and np.isnan(values).any():
        named = np.isnan(values)
    else:
        named = (values != 0) & (values != 1)
    if not named.any():
        return None
    row, column = np.unravel_index(np.argmax(named), values.shape)
    return int(row), int(column)


def _about_data(message, func, true, pred):
    """The library's refusal of the targets, with file names for targets.

    ``"y_pred of mlcm_confusion_matrix must contain only 0 and 1; found 2."``
    becomes ``"pred.csv, line 3, column 2: must contain only 0 and 1; found
    2."``; ``"y_true and y_pred of ... Got 9 and 8."`` names both files.
    """
    files = {"y_true": true, "y_pred": pred}
    target = re.compile(rf"\b(y_true|y_pred)\b(?: of {re.escape(func)}\b)?")

    def name_files(text):
        return target.sub(lambda match: files[match[1]].path, text)

    subject = target.match(message)
    if subject is None or subject[0] == subject[1]:  # not "y_... of func ..."
        return name_files(message)
    file = files[subject[1]]
    where, rest = file.path, name_files(message[subject.end() + 1 :])
    cell = _first_named_value(file.values)
    if cell is not None:
        where = f"{where}, {file.position(*cell)}"
        if cell[0] == 0 and file.names is None and file.is_csv:
            rest += " If the first row is a header of label names, pass --header yes."
    return f"{where}: {rest}"


def _about_names(message, func, header):
    """The library's refusal of the label names, pointing at the header."""
    text = message.replace(f" of {func}", "").replace("target_names", "label names")
    if header.names is None:  # the names are column numbers: cannot be wrong
        return text
    return f"{header.path}, line {header.names_line}: {text}"
