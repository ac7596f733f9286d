"""The ``report`` command: the MLCM and the classification report of two files.

The two label files are read (:mod:`._io`) and their numbers handed to the
library as they are: the library validates them (values other than 0 and 1,
mismatched shapes, repeated label names) and computes. Its refusals come back
as one line that names the file instead of ``y_true`` or ``y_pred``, with the
line and column of the value it names.

For many labels, the matrix of more than :data:`~._parser.MATRIX_MAX_LABELS`
labels is not printed unless asked for (``--matrix``, or ``--matrix-out FILE``
for a CSV); the most confused label pairs
(:func:`~sklearn_mlcm.most_confused`) and the most frequent wrong label sets
(:func:`~sklearn_mlcm.labelset_confusions`) are printed instead (``--top-k``).

``--html FILE`` and ``--markdown FILE`` write the report as the library's
:class:`~sklearn_mlcm.MLCMReport` writes it (a self-contained page, a markdown
table). The report is then built once with
:meth:`~sklearn_mlcm.MLCMReport.from_predictions` from the two files' values
and the options read here (as it is for the intervals of
``--confidence-level``), and everything printed is read off it: the matrix is
still counted once. Like ``--matrix-out``, the files are written through a
temporary file beside them (a pipe or ``/dev/stdout`` directly, never
replaced: :func:`~sklearn_mlcm._reporting._files.write_file`), and a path
that names an input is refused before anything is read.
"""

import contextlib
import re
import sys
import textwrap

import numpy as np

from sklearn_mlcm import (
    MLCMAccumulator,
    MLCMReport,
    labelset_confusions,
    mlcm_confusion_matrix,
    most_confused,
)
from sklearn_mlcm._param_validation import public_call
from sklearn_mlcm._report._table import (
    REPORT_AVERAGES,
    SAMPLES_AVERAGE,
    report_text,
    table_of_report,
)
from sklearn_mlcm._reporting._files import (
    output_path_problem,
    real_path,
    write_file,
)
from sklearn_mlcm._summary import escape_controls
from sklearn_mlcm._uncertainty._margins import MAX_RESAMPLES, min_resamples
from sklearn_mlcm._validation._targets import check_target_names

from ._errors import InputError, library_refusals
from ._format import (
    format_json,
    format_labelset,
    format_mlcm,
    format_table,
    format_value,
    short_names,
    shortened_names,
)
from ._io import (
    STDIN,
    check_output_is_not_an_input,
    read_labels,
    write_matrix_csv,
)
from ._parser import (
    INTERVAL_OPTIONS,
    MATRIX_MAX_LABELS,
    METHOD_NAMES,
    NORMALIZED,
    TOP_DEFAULT,
    ZERO_DIVISION,
)

__all__ = ["report_command"]

#: The width of the explanations printed around the tables.
TEXT_WIDTH = 79

#: Bootstrap resamples without ``--n-resamples``: the library's default.
N_RESAMPLES = 9999

#: The label pairs and label sets the written report lists without
#: ``--top-k`` (or with ``--top-k 0``): :class:`MLCMReport`'s default.
TOP_WRITTEN = 20

#: The files the report writes: option, attribute of ``args``, what it holds.
REPORT_FILES = (
    ("--matrix-out", "matrix_out", "the matrix"),
    ("--markdown", "markdown", "the markdown table"),
    ("--html", "html", "the page"),
)


def report_command(args):
    """Print the MLCM and the report of ``args.true`` and ``args.pred``."""
    if args.true == STDIN and args.pred == STDIN:
        raise InputError(
            "TRUE and PRED are both -: only one of them can be read from standard input"
        )
    _check_outputs(args)
    _check_interval_options(args)
    # standard input's copy stays open for the messages that name its lines
    with contextlib.ExitStack() as files:
        true = read_labels(args.true, args.header, args.delimiter)
        files.callback(true.close)
        pred = read_labels(args.pred, args.header, args.delimiter)
        files.callback(pred.close)
        _report(args, true, pred)


def _report(args, true, pred):
    """Count the two files read, print the matrix and the report, and write
    ``--matrix-out``, ``--markdown`` and ``--html``."""
    evaluation = None
    if (
        args.markdown is not None
        or args.html is not None
        or args.confidence_level is not None
    ):
        # One MLCMReport: its matrix and report (with the intervals of the
        # library's one-shot report, for the same seed) are the printed ones,
        # and the files written hold the same.
        evaluation = _evaluate(args, true, pred)
        counts = evaluation.confusion_matrix
    else:
        with library_refusals(lambda text: _about_data(text, true, pred)):
            counted = _count(true, pred, args.method)
        # Counted once: the printed matrix, the confusions and the report all
        # come from the accumulator's one count (normalised here, not counted
        # again: the confusions are ranked by the counts).
        counts = counted.confusion_matrix
    cm = counts if args.normalize is None else _normalized(counts, args.normalize)
    names = _label_names(true, pred)
    labels = names or [str(j) for j in range(cm.shape[0] - 1)]
    # The text shortens long names; the JSON and the CSV keep them whole. The
    # report prints (escapes) its names itself: it gets them shortened only,
    # and the matrix and the confusions print them escaped, once, alike.
    short = labels if args.json else shortened_names(labels)
    shown = labels if args.json else short_names(labels)
    func = "MLCMAccumulator.classification_report"
    header = true if true.names is not None else pred
    report_options = {
        "target_names": None if names is None else short,
        "digits": args.digits,
        "output_dict": args.json,
        "zero_division": ZERO_DIVISION[args.zero_division],
        "metrics": args.metrics,
    }
    if evaluation is not None:
        report = (
            evaluation.report
            if args.json
            else _report_text(evaluation, short, args.digits)
        )
    else:
        with library_refusals(lambda text: _about_names(text, func, header)):
            report = counted.classification_report(**report_options)
    if args.matrix_out is not None:
        size = write_matrix_csv(args.matrix_out, cm, labels, args.delimiter)
        _say_written(args.matrix_out, size)
    if args.markdown is not None:
        table = evaluation.to_markdown(digits=args.digits)
        _write_file(args.markdown, "--markdown", lambda file: file.write(table))
    if args.html is not None:
        page = evaluation.to_html(title=f"{true.path} vs {pred.path}")
        _write_file(args.html, "--html", lambda file: file.write(page))

    n_rows, n_labels = true.values.shape
    show_matrix = args.matrix or n_labels <= MATRIX_MAX_LABELS
    top = args.top_k
    if top is None:  # the confusions stand in for a matrix not printed
        top = 0 if show_matrix or args.json else TOP_DEFAULT
    confusions = _confusions(true, pred, counts, shown, top) if top else None

    if args.json:
        extra = {}
        if confusions:
            counts, pairs, sets = confusions
            extra["most_confused"] = [
                {"true": t, "predicted": p, "value": value, "share_of_row": share}
                for t, p, value, share in pairs
            ]
            extra["labelset_confusions"] = [
                {"true": t, "predicted": p, "count": count} for t, p, count in sets
            ]
        print(format_json(labels, cm, report, **extra))
        return

    lines = [
        f"MLCM of {escape_controls(true.path)} (rows: true labels) and "
        f"{escape_controls(pred.path)} (columns: "
        "predicted labels)",
        f"{n_rows:,} instances, {n_labels:,} labels; method "
        f"{args.method} ({METHOD_NAMES[args.method]}).",
        "NTL = no true label, NPL = no predicted label.",
    ]
    if args.normalize:
        lines.append(NORMALIZED[args.normalize].capitalize() + ".")
    sections = ["\n".join(lines)]
    if show_matrix:
        sections.append(format_mlcm(cm, shown, args.digits))
    else:
        sections.append(_matrix_not_shown(n_labels, args.matrix_out))
    if confusions:
        counts, pairs, sets = confusions
        sections += [
            _pairs_text(pairs, top, counts, args.digits),
            _sets_text(sets, top, true.values, pred.values),
        ]
    sections += [
        "Classification report, computed from the MLCM:",
        report.rstrip(),
        _wrap(
            f"micro avg pools the MLCM's counts of the {n_labels:,} labels, the "
            "way scikit-learn pools its one-vs-rest counts; the counts differ, "
            "and so can the scores. Heydarian et al.'s Table 12 pools NTL and "
            "NPL too (average='micro_all' in the library)."
        ),
    ]
    print("\n\n".join(sections))


def _check_outputs(args):
    """Refuse, before anything is read, an output file that is an input, that
    another output also names, that is standard output, or that cannot be
    written (a directory, a folder that does not exist)."""
    inputs = (args.true, args.pred)
    seen = {}
    for option, name, what in REPORT_FILES:
        output = getattr(args, name)
        if output is None:
            continue
        check_output_is_not_an_input(output, inputs, option, what)
        if name == "matrix_out":  # refused in its own words when written
            continue
        if output == STDIN:
            raise InputError(
                f"{option} -: {what} is written to a file, not to standard "
                "output; name a file"
            )
        problem = output_path_problem(output)
        if problem is not None:
            raise InputError(f"{option} {output}: cannot write {what}: {problem}")
    for option, name, _ in REPORT_FILES:
        output = getattr(args, name)
        if output is None or output == STDIN:
            continue
        target = real_path(output)
        if target in seen:
            raise InputError(
                f"{option} {output}: {seen[target]} writes that file too; name "
                "another file"
            )
        seen[target] = option


def _evaluate(args, true, pred):
    """The :class:`MLCMReport` of the two files, with the options read: the
    report ``--html`` and ``--markdown`` write, from one count."""
    names = _label_names(true, pred)
    func = "MLCMReport.from_predictions"
    header = true if true.names is not None else pred

    def about(text):
        if text.startswith("target_names"):
            return _about_names(text, func, header)
        return _about_data(text, true, pred)

    with library_refusals(about):
        _refuse_empty(true, pred, args.method)
        options = {}
        if args.confidence_level is not None:
            options = {
                "confidence_level": args.confidence_level,
                "n_resamples": args.n_resamples or N_RESAMPLES,
                "interval": args.interval or "bca",
                "random_state": 0 if args.seed is None else args.seed,
                "n_jobs": args.n_jobs,
            }
        return MLCMReport.from_predictions(
            true.values,
            pred.values,
            target_names=names,
            method=args.method,
            zero_division=ZERO_DIVISION[args.zero_division],
            metrics=args.metrics,
            top_k=args.top_k or TOP_WRITTEN,
            **options,
        )


def _report_text(evaluation, names, digits):
    """The text of the classification report held by ``evaluation``, with the
    label ``names`` (escaped as they are printed): the library's writer of
    the report
    (:func:`~sklearn_mlcm._report._table.report_text`), as
    :func:`~sklearn_mlcm.mlcm_classification_report` prints the same numbers
    (nothing is computed again)."""
    table = table_of_report(
        evaluation.report, legend=evaluation.interval_legend, names=names
    )
    return report_text(table, digits)


def _write_file(path, option, write):
    """Write ``path`` whole or not at all (a temporary file beside it, renamed
    over it once complete; a pipe, a terminal or ``/dev/stdout`` directly),
    or refuse in one line."""
    what = next(what for name, _, what in REPORT_FILES if name == option)
    try:
        size = write_file(path, write)
    except OSError as exc:
        raise InputError(
            f"{path}: cannot write {what} ({exc.strerror or exc})"
        ) from None
    _say_written(path, size)


def _say_written(path, size):
    """One line on standard error (standard output holds the report), with
    the ``size`` in bytes written: ``wrote report.html (231 KB)``."""
    amount = f"{size:,} bytes" if size < 1024 else f"{round(size / 1024):,} KB"
    print(f"wrote {escape_controls(path)} ({amount})", file=sys.stderr)


def _check_interval_options(args):
    """``--n-resamples``, ``--interval``, ``--seed`` and ``--n-jobs`` shape the
    intervals that ``--confidence-level`` asks for: alone they would do
    nothing. With it, the resamples must resolve the interval's tails, as
    the library requires (:func:`sklearn_mlcm._uncertainty._margins.min_resamples`)."""
    if args.confidence_level is not None:
        level = args.confidence_level
        minimum = min_resamples(level)
        count = N_RESAMPLES if args.n_resamples is None else args.n_resamples
        if count < minimum:
            tail = (1.0 - level) / 2.0
            given = (
                f"--n-resamples {count}"
                if args.n_resamples is not None
                else f"the default {count:,} resamples"
            )
            advice = (
                "pass more with --n-resamples"
                if minimum <= MAX_RESAMPLES
                else f"more than the {MAX_RESAMPLES:,} allowed: pass a lower "
                "--confidence-level"
            )
            raise InputError(
                f"--confidence-level {level} needs at least {minimum:,} resamples "
                f"(each bound leaves {tail:.4g} of them beyond it: (N + 1) x "
                f"{tail:.4g} >= 1), got {given}; {advice}"
            )
        return
    given = [name for name in INTERVAL_OPTIONS if getattr(args, name) is not None]
    if given:
        option = "--" + given[0].replace("_", "-")
        raise InputError(
            f"{option} shapes the confidence intervals: pass --confidence-level "
            "(such as 0.95) too"
        )


def _count(true, pred, method):
    """The MLCM of the two files, counted once: an accumulator of one batch,
    whose matrix is printed and whose report is read off the same count (it
    keeps the supports beside the matrix)."""
    _refuse_empty(true, pred, method)
    n_labels = true.values.shape[1]
    return MLCMAccumulator(n_labels, method=method).update(true.values, pred.values)


def _refuse_empty(true, pred, method):
    """Files without rows or label columns count nothing: the library refuses
    them as it refuses any empty targets."""
    n_rows, n_labels = true.values.shape
    if n_rows == 0 or n_labels == 0:
        mlcm_confusion_matrix(true.values, pred.values, method=method)  # refuses


def _normalized(counts, normalize):
    """The matrix of counts over its rows ("true"), columns ("pred") or total
    ("all"), as ``mlcm_confusion_matrix(..., normalize=...)``: a zero row or
    column stays zero."""
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    totals = counts.sum(axis=axis, keepdims=axis is not None)
    return np.divide(
        counts, totals, out=np.zeros(counts.shape), where=np.asarray(totals) != 0
    )


def _confusions(true, pred, counts, names, k):
    """``(counts, pairs, sets)``: the matrix of counts (the confusions are
    ranked by counts, also when the matrix shown is normalised), its k largest
    cells between two labels (:func:`_top_pairs`) and the k most frequent
    label-set confusions, with the label ``names``."""
    pairs = _top_pairs(counts, k, names)
    sets = labelset_confusions(
        true.values, pred.values, top_k=min(k, true.values.shape[0])
    )
    sets = [
        ([names[j] for j in s.true], [names[j] for j in s.predicted], s.count)
        for s in sets
    ]
    return counts, pairs, sets


def _matrix_not_shown(n_labels, matrix_out):
    """The line that stands for a matrix of more than MATRIX_MAX_LABELS labels."""
    size = f"{n_labels + 1:,} x {n_labels + 1:,}"
    if matrix_out is not None:
        return _wrap(
            f"The {size} matrix is not shown above {MATRIX_MAX_LABELS} labels "
            f"(written to {matrix_out}); pass --matrix to print it."
        )
    return _wrap(
        f"The {size} matrix is not shown above {MATRIX_MAX_LABELS} labels; pass "
        "--matrix to print it or --matrix-out FILE to write it as CSV."
    )


def _wrap(text):
    """``text`` as lines of at most TEXT_WIDTH characters; a word longer
    than a line (a path) stays whole on its own line, so it can be copied."""
    return textwrap.fill(
        text, TEXT_WIDTH, break_on_hyphens=False, break_long_words=False
    )


def _title(n, k, most):
    """ "The 10 most", "All 3" (fewer than k: every one) or "The most" (none)."""
    if n == 0:
        return f"The {most}"
    return f"The {k:,} {most}" if n == k else f"All {n:,}"


def _top_pairs(counts, k, names):
    """The k largest cells between two labels: ``(true, predicted, value,
    share)``, with the value's share of the true label's row.

    The NTL row and NPL column are left out: on real data the missed labels
    (NPL) outnumber the swapped ones and would fill the list with what the
    report's recall already says. The library names the labels by index; the
    names are put in here.
    """
    n_labels = counts.shape[0] - 1
    row_sums = counts.sum(axis=1)
    k = min(k, n_labels * (n_labels - 1)) or 1
    return [
        (
            names[c.true],
            names[c.predicted],
            c.value,
            float(c.value / row_sums[c.true]),
        )
        for c in most_confused(counts, top_k=k)
    ]


def _pairs_text(pairs, k, counts, digits):
    """The table of the most confused label pairs, under its explanation."""
    title = _title(len(pairs), k, "most")
    off = format_value((counts.sum() - np.trace(counts)).item(), digits)
    missed = format_value(counts[:-1, -1].sum().item(), digits)
    unwanted = format_value(counts[-1, :-1].sum().item(), digits)
    head = _wrap(
        f"{title} confused label pairs: the largest MLCM cells off the diagonal "
        "between two labels, a true label (row) and a label predicted in its "
        "place (column); % of row is the cell's share of the true label's row. "
        f"Of the {off} counts off the diagonal, the NPL column (true labels "
        f"missed with nothing wrong predicted) holds {missed} and the NTL row "
        f"(labels predicted for instances with no true label) {unwanted}; they "
        "are not listed."
    )
    if not pairs:
        return f"{head}\n\nNone: no label was predicted in place of another."
    rows = [
        [t, p, format_value(value, digits), f"{share:.0%}"]
        for t, p, value, share in pairs
    ]
    ranks = [str(i) for i in range(1, len(rows) + 1)]
    table = format_table(
        rows, ranks, ["true", "predicted", "count", "% of row"], align="<<>>"
    )
    return f"{head}\n\n{table}"


def _sets_text(sets, k, y_true, y_pred):
    """The table of the most frequent wrong label sets, under its explanation."""
    n_rows = y_true.shape[0]
    wrong = (y_true != y_pred).any(axis=1)
    n_wrong = int(np.count_nonzero(wrong))
    n_empty = int(np.count_nonzero(wrong & ~(y_pred != 0).any(axis=1)))
    title = _title(len(sets), k, "most frequent")
    head = _wrap(
        f"{title} label-set confusions: {n_wrong:,} of the {n_rows:,} "
        f"instances ({n_wrong / n_rows:.0%}) have a predicted label set other "
        f"than their true one; {{}} (no label) is predicted for {n_empty:,} of "
        "them."
    )
    if not sets:
        return f"{head}\n\nNone: every predicted label set is the true one."
    rows = [
        [format_labelset(t), format_labelset(p), format_value(count)]
        for t, p, count in sets
    ]
    ranks = [str(i) for i in range(1, len(rows) + 1)]
    table = format_table(
        rows, ranks, ["true labels", "predicted labels", "instances"], align="<<>"
    )
    return f"{head}\n\n{table}"


def _label_names(true, pred):
    """The names of the labels: the header of either file; both must agree,
    and follow the library's rule for names (:func:`check_target_names`):
    distinct, and none of the rows the command prints (NTL, NPL, the
    averages)."""
    if true.names is not None and pred.names is not None and true.names != pred.names:
        j = next(j for j, (a, b) in enumerate(zip(true.names, pred.names)) if a != b)
        raise InputError(
            f"{pred.path}, line {pred.names_line}: label {j + 1} is named "
            f"{pred.names[j]!r}, but {true.path} names it {true.names[j]!r}"
        )
    header = true if true.names is not None else pred
    if header.names is not None:
        averages = (*REPORT_AVERAGES, SAMPLES_AVERAGE)
        with (
            public_call(_COMMAND),
            library_refusals(lambda text: _about_names(text, _COMMAND, header)),
        ):
            check_target_names(
                header.names,
                len(header.names),
                {f"{average} avg" for average in averages},
                no_label=("NTL", "NPL"),
            )
    return header.names


#: The caller a refusal of the header's names names (removed from the message).
_COMMAND = "sklearn-mlcm report"


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


#: The library's functions that read the two files' values (``_count``,
#: ``_evaluate``).
_COUNTING = (
    "MLCMAccumulator.update",
    "MLCMReport.from_predictions",
    mlcm_confusion_matrix.__name__,
)


def _about_data(message, true, pred):
    """The library's refusal of the targets, with file names for targets.

    ``"y_pred of mlcm_confusion_matrix must contain only 0 and 1; found 2."``
    becomes ``"pred.csv, line 3, column 2: must contain only 0 and 1; found
    2."``; ``"y_true and y_pred of ... Got 9 and 8."`` names both files.
    """
    files = {"y_true": true, "y_pred": pred}
    funcs = "|".join(map(re.escape, _COUNTING))
    target = re.compile(rf"\b(y_true|y_pred)\b(?: of (?:{funcs})\b)?")

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
