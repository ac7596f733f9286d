"""The classification report's table: named rows, and every way it is written.

A report is a :class:`ReportTable`: its score columns (the registry's
``header`` of each chosen statistic, :data:`~sklearn_mlcm._statistics.
STATISTICS`) and one :class:`ReportRow` per shown label then per average,
each holding its values by column, its weight and support and, with
intervals, its bounds by column. :func:`report_table` computes it off an
MLCM (the numbers of :func:`~sklearn_mlcm._statistics.matrix_scores`, the
engine of the scores), :func:`with_bounds` adds the intervals of any
bootstrap (the instances', the accumulator's Poisson one), and the writers
read the records by column name:

- :func:`report_dict`, the ``output_dict=True`` dict (scikit-learn's
  layout), which :class:`~sklearn_mlcm.MLCMReport` keeps and
  :func:`table_of_report` reads back;
- :func:`report_text`, the text report;
- :func:`report_cells`, the str cells of the markdown and LaTeX tables
  (:mod:`._writers`) and of the page;
- :func:`report_frame`, a tidy pandas DataFrame.

With intervals each score carries a flag (:attr:`ReportRow.flags`): None
where its interval can be trusted, else the reason of
:mod:`~sklearn_mlcm._uncertainty._flags` (``"undefined: never predicted"``,
``"few positives (3 < 5)"``...), read off the intervals'
``ScoreInterval.flag``. Every writer shows it: the dict as ``"<header>
flag"``, the frame as a column, the text, markdown, LaTeX and the page as a
mark after the interval (``†1``) and a note per reason under the table
(:func:`flag_notes`). A score whose reason says it is undefined (its ratio's
denominator is 0, the value is ``zero_division``'s) prints as ``—`` with its
mark; the dict and the frame keep scikit-learn's value.

A statistic without a samples average (every one but precision, recall and
F-score, :attr:`~sklearn_mlcm._statistics.Statistic.samples`) has no value
in the "samples avg" row: its key is left out of that row's dict, its text
and table cells are blank, its frame cell is NaN.
"""

from dataclasses import dataclass, replace

import numpy as np

from sklearn_mlcm._mlcm._samples import table_sums
from sklearn_mlcm._statistics import (
    ALIASES,
    STATISTICS,
    matrix_scores,
    row_sums,
    samples_average,
)
from sklearn_mlcm._summary import label_frame, printable

__all__ = [
    "AMOUNTS",
    "AVERAGE_ROWS",
    "DEFAULT_METRICS",
    "FLAG_HEADING",
    "FLAG_MARK",
    "FlagNote",
    "METRIC_NAMES",
    "NO_LABEL_NAME",
    "REPORT_AVERAGES",
    "SAMPLES_AVERAGE",
    "UNDEFINED_CELL",
    "ReportBounds",
    "ReportRow",
    "ReportTable",
    "all_integral",
    "flag_lines",
    "flag_notes",
    "headline",
    "is_undefined",
    "repeated_statistic",
    "report_cells",
    "report_dict",
    "report_frame",
    "report_statistics",
    "report_table",
    "report_text",
    "score_key",
    "table_of_report",
    "with_bounds",
]

NO_LABEL_NAME = "no label"
#: The averages the report shows, as scikit-learn's multi-label report does;
#: "samples" only for multi-label (2-D) input, as scikit-learn's.
REPORT_AVERAGES = ("micro", "macro", "weighted")
SAMPLES_AVERAGE = "samples"
#: The names of the averages' rows, in the report's order.
AVERAGE_ROWS = tuple(f"{a} avg" for a in (*REPORT_AVERAGES, SAMPLES_AVERAGE))
#: The amounts every row ends with.
AMOUNTS = ("weight", "support")
#: scikit-learn's three columns, the report's default ``metrics``: the
#: headers of precision, recall and F-beta (at beta 1, "f1-score").
DEFAULT_METRICS = tuple(STATISTICS[n].header for n in ("precision", "recall", "fbeta"))

#: Every name the report's ``metrics`` takes, to its statistic: each
#: registry name, its header and the aliases ("f1"). The report's F-score is
#: F1 ("fbeta", "f1" and "f1-score" are one column).
_BY_NAME = {
    **{statistic.name: statistic for statistic in STATISTICS.values()},
    **{statistic.header: statistic for statistic in STATISTICS.values()},
    **{alias: STATISTICS[name] for alias, (name, _) in ALIASES.items()},
}
METRIC_NAMES = tuple(_BY_NAME)

#: The report scores at beta 1: a statistic with an alias at beta 1 is
#: scored (and named in the intervals' warnings) under it, "fbeta" as "f1".
_KEYS = {name: alias for alias, (name, beta) in ALIASES.items() if beta == 1.0}


def score_key(statistic):
    """The name the report scores ``statistic`` under (its alias at beta 1,
    "f1" for F-beta; else its registry name)."""
    return _KEYS.get(statistic.name, statistic.name)


def report_statistics(metrics):
    """The :class:`~sklearn_mlcm._statistics.Statistic` of each of the names
    ``metrics`` (among :data:`METRIC_NAMES`), in order."""
    return tuple(_BY_NAME[name] for name in metrics)


def repeated_statistic(metrics):
    """The first two of ``metrics`` that name one statistic (``("f1",
    "f1-score")``), or None."""
    seen = {}
    for name in metrics:
        statistic = _BY_NAME.get(name)
        if statistic is None:
            continue
        if statistic.name in seen:
            return seen[statistic.name], name
        seen[statistic.name] = name
    return None


@dataclass(frozen=True)
class ReportRow:
    """One row of a report: a shown label, or an average.

    Attributes
    ----------
    name : str
        The label's name, or the average's row name (``"macro avg"``).
    values : dict of str to float
        Each score by column header; a statistic without this row's average
        (the samples average of the ratios that have none) has no key.
    weight, support : float
        The row sum of the MLCM and the true instances (their totals for an
        average).
    average : str or None
        "micro", "macro", "weighted" or "samples"; None for a label.
    low, high : dict of str to float, or None
        The bounds of each score's interval, by column header; None without
        intervals.
    flags : dict of str to (str or None), or None
        Each score's flag, by column header: None where its interval can be
        trusted, else the reason it cannot (``"undefined: never
        predicted"``); None without intervals.
    """

    name: str
    values: dict
    weight: float
    support: float
    average: str | None = None
    low: dict | None = None
    high: dict | None = None
    flags: dict | None = None


@dataclass(frozen=True)
class ReportTable:
    """A report: its score ``columns`` (headers, in order), its ``rows``
    (:class:`ReportRow`, the labels then the averages) and, with intervals,
    the ``legend`` that says what the brackets are."""

    columns: tuple
    rows: tuple
    legend: str | None = None

    @property
    def n_labels(self):
        """How many rows are labels (they come first)."""
        return sum(1 for row in self.rows if row.average is None)

    @property
    def bounded(self):
        """Whether the rows carry intervals."""
        return bool(self.rows) and self.rows[0].low is not None


@dataclass(frozen=True)
class ReportBounds:
    """The intervals of a report's scores: ``intervals`` maps a statistic's
    :func:`score_key` to the
    :class:`~sklearn_mlcm._uncertainty._intervals.ScoreInterval` of its
    labels (arrays) and ``(name, average)`` to an average's;
    ``legend`` is the line that says what they are. Any bootstrap (the
    instances', the accumulator's Poisson one) gives one."""

    intervals: dict
    legend: str


#: The mark of a flagged interval, numbered by reason (``†1``, ``†2``...).
FLAG_MARK = "\N{DAGGER}"
#: What an undefined score prints as, in place of ``zero_division``'s value.
UNDEFINED_CELL = "\N{EM DASH}"
#: How many of a reason's cells its note names (then "and 12 more").
NOTE_PLACES = 3


def is_undefined(reason):
    """Whether the flag ``reason`` says the score is undefined (a zero
    denominator: its value is ``zero_division``'s, not a measurement). The
    reasons of :mod:`~sklearn_mlcm._uncertainty._flags` that say so start
    with "undefined"."""
    return reason is not None and str(reason).startswith("undefined")


@dataclass(frozen=True)
class FlagNote:
    """One reason of a report's flagged intervals: its ``mark`` (``†1``),
    the ``reason`` and the ``places`` it marks, ``(row name, column
    header)`` in the report's order."""

    mark: str
    reason: str
    places: tuple

    def text(self, *, limit=NOTE_PLACES, printed=True):
        """``"†1 undefined: never predicted: 3 intervals (Class9 precision,
        ...)"``: the mark, the reason and the first ``limit`` places, the
        rows' names as plain text prints them (:func:`printable`), or as
        they are without ``printed`` (for a writer that escapes the whole
        line: escaped twice, a name's escapes would be doubled)."""
        n = len(self.places)
        name = printable if printed else str
        shown = ", ".join(
            f"{name(row)} {column}" for row, column in self.places[:limit]
        )
        more = f" and {n - limit:,} more" if n > limit else ""
        return (
            f"{self.mark} {self.reason}: {n:,} interval{'s' * (n != 1)} "
            f"({shown}{more})"
        )


def flag_notes(table):
    """The :class:`FlagNote` of each distinct reason among the flags of
    ``table`` (a :class:`ReportTable`), numbered in the order they first
    appear (row by row); empty where every interval is trusted or there are
    none."""
    places = {}
    for row in table.rows:
        for column in table.columns:
            reason = (row.flags or {}).get(column)
            if reason is not None:
                places.setdefault(reason, []).append((row.name, column))
    return tuple(
        FlagNote(f"{FLAG_MARK}{k}", reason, tuple(where))
        for k, (reason, where) in enumerate(places.items(), start=1)
    )


def _marks(table):
    """The mark of each flag's reason in ``table``."""
    return {note.reason: note.mark for note in flag_notes(table)}


def report_table(
    cm,
    names,
    supports,
    no_label_support,
    *,
    statistics,
    include_no_label,
    zero_division,
    samples=None,
):
    """The :class:`ReportTable` of an MLCM: a row per shown label, then the
    averages.

    ``cm`` is the (q+1, q+1) matrix; the shown rows are the q labels (named
    ``names``), and the no-label index too when ``include_no_label``. The
    numbers of each of ``statistics`` come from :func:`matrix_scores`, as
    the scores' do; every average runs over the shown rows ("micro" pools
    their counts, as scikit-learn's does). ``samples``, the
    :class:`~._mlcm._samples.SizeTable` of the instances, adds the "samples
    avg" row (the statistics with a samples form), with the weight and
    support totals as the other averages (scikit-learn's support column).
    """
    keys = tuple(score_key(statistic) for statistic in statistics)
    headers = tuple(statistic.header for statistic in statistics)
    options = {
        "include_no_label": include_no_label,
        "zero_division": zero_division,
        "beta": 1.0,
    }
    values = matrix_scores(cm, keys, **options)
    shown = len(values[keys[0]])
    weight = row_sums(cm)[:shown]
    support = np.append(supports, no_label_support)[:shown]
    columns = [values[key] for key in keys]
    rows = [
        ReportRow(name, dict(zip(headers, row[:-2])), row[-2], row[-1])
        for name, row in zip(names, zip(*columns, weight, support))
    ]
    total_weight, total_support = weight.sum(), support.sum()
    for average in REPORT_AVERAGES:
        # the per-label values have warned already; a pooled ratio has not
        warn_for = keys if average == "micro" else ()
        scores = matrix_scores(cm, keys, average=average, warn_for=warn_for, **options)
        rows.append(
            ReportRow(
                f"{average} avg",
                {header: scores[key] for header, key in zip(headers, keys)},
                total_weight,
                total_support,
                average,
            )
        )
    if samples is not None:  # the instances' ratios have not warned yet
        with_form = [s for s in statistics if s.samples is not None]
        scores = {}
        if with_form:
            sums = table_sums(samples, beta=1.0, include_no_label=include_no_label)
            scores = samples_average(
                sums, [score_key(s) for s in with_form], zero_division=zero_division
            )
        rows.append(
            ReportRow(
                f"{SAMPLES_AVERAGE} avg",
                {s.header: scores[score_key(s)] for s in with_form},
                total_weight,
                total_support,
                SAMPLES_AVERAGE,
            )
        )
    return ReportTable(headers, tuple(rows))


def with_bounds(table, statistics, bounds):
    """``table`` with each score's interval of ``bounds`` (a
    :class:`ReportBounds` of ``statistics``), and its legend."""
    rows = []
    for i, row in enumerate(table.rows):
        low, high, flags = {}, {}, {}
        for statistic in statistics:
            header = statistic.header
            if header not in row.values:
                continue
            if row.average is None:
                interval = bounds.intervals[score_key(statistic)]
                lows, highs = interval.confidence_interval
                low[header], high[header] = float(lows[i]), float(highs[i])
                # per label a reason or None each (None for all: trusted)
                flags[header] = None if interval.flag is None else interval.flag[i]
            else:
                interval = bounds.intervals[score_key(statistic), row.average]
                lower, upper = interval.confidence_interval
                low[header], high[header] = float(lower), float(upper)
                flags[header] = interval.flag
        rows.append(replace(row, low=low, high=high, flags=flags))
    return replace(table, rows=tuple(rows), legend=bounds.legend)


def headline(columns):
    """``(column, words)``: the score a one-line summary shows, F1 (``"F1"``)
    when the report has it, else its first column."""
    f1 = STATISTICS["fbeta"].header
    if f1 in columns:
        return f1, "F1"
    return columns[0], columns[0]


# -- the dict, and the table read back from it ---------------------------------


def report_dict(table):
    """The report as scikit-learn's dict: per row, each score (followed by
    ``"<header> low"``, ``"<header> high"`` and ``"<header> flag"`` with
    intervals), then ``"weight"`` and ``"support"``; every value a Python
    float but the flags, None (a trusted interval) or the reason (a str).
    An undefined score keeps its value, ``zero_division``'s, as
    scikit-learn's dict has it."""
    report = {}
    for row in table.rows:
        entry = {}
        for header in table.columns:
            if header not in row.values:
                continue
            entry[header] = float(row.values[header])
            if row.low is not None:
                entry[f"{header} low"] = float(row.low[header])
                entry[f"{header} high"] = float(row.high[header])
                flag = (row.flags or {}).get(header)
                entry[f"{header} flag"] = None if flag is None else str(flag)
        entry["weight"] = float(row.weight)
        entry["support"] = float(row.support)
        report[row.name] = entry
    return report


def _n_averages(names):
    """How many of the last ``names`` are the averages' rows: the three of
    every report, then "samples avg" for multi-label input (a label may be
    named "samples avg" where there is no such row)."""
    for n in (4, 3):
        if tuple(names[-n:]) == AVERAGE_ROWS[:n]:
            return n
    return 0


def table_of_report(report, *, legend=None, names=None):
    """The :class:`ReportTable` of a report dict (:func:`report_dict`): its
    columns are the dict's score keys, in order; ``names``, when given,
    replace the labels' names (a shortened print of them)."""
    entries = list(report.items())
    n_labels = len(entries) - _n_averages([name for name, _ in entries])
    columns = []
    for _, entry in entries:
        for key in entry:
            if key in AMOUNTS or key in columns:
                continue
            if any(key in (f"{c} low", f"{c} high", f"{c} flag") for c in columns):
                continue
            columns.append(key)
    bounded = bool(columns) and any(f"{columns[0]} low" in e for _, e in entries)
    rows = []
    for i, (name, entry) in enumerate(entries):
        values = {c: entry[c] for c in columns if c in entry}
        low = high = flags = None
        if bounded:
            low = {c: entry[f"{c} low"] for c in values}
            high = {c: entry[f"{c} high"] for c in values}
            # a dict written before the flags: every interval unflagged
            flags = {c: entry.get(f"{c} flag") for c in values}
        if i < n_labels:
            name, average = name if names is None else names[i], None
        else:
            average = name[: -len(" avg")]
        rows.append(
            ReportRow(
                name,
                values,
                entry["weight"],
                entry["support"],
                average,
                low,
                high,
                flags,
            )
        )
    return ReportTable(tuple(columns), tuple(rows), legend if bounded else None)


# -- the text report -------------------------------------------------------------


def _amount_format(values, digits):
    """Integers print as integers; fractional amounts with ``digits`` decimals.

    An amount within floating-point rounding of an integer counts as one: a row
    of Krstinic's matrix sums fractions such as 1/3 + 2/3 to its support, which
    float64 may leave a few units in the last place away from the integer.
    Amounts that fixed decimals would misstate print with significant digits
    instead: a column with a non-zero amount that would round to zero
    (weights below 10**-digits, ``8e-10``), with as many significant digits as
    keep ``digits`` decimals of its largest amount; and, each alone, amounts
    past 2**53, whose integer digits float64 does not hold (weights of 1e300
    printed 301 digits), as ``8e+300``, beside the others as they would print.
    """
    values = np.abs(np.asarray(values, dtype=np.float64))
    exact = values[~(values >= _EXACT_INTEGERS)]  # NaN stays here
    nonzero = exact[exact > 0]
    if all_integral(exact):
        fixed = "integers"
    elif nonzero.size and float(nonzero.min()) < 0.5 * 10.0**-digits:
        fixed = min(17, len(str(int(nonzero.max()))) + digits)
    else:
        fixed = None

    def amount(x):
        x = float(x)
        if abs(x) >= _EXACT_INTEGERS:
            return f"{x:.{digits + 1}g}"
        if fixed == "integers":
            return f"{int(round(x))}"
        if fixed is not None:
            return f"{x:.{fixed}g}"
        return f"{x:.{digits}f}"

    return amount


#: float64 holds every integer below this, and no longer every one above.
_EXACT_INTEGERS = 2.0**53


def all_integral(values):
    """Whether every amount is an integer, within floating-point rounding (see
    :func:`_amount_format`): then the report prints, and a frame keeps, them
    as integers. The rounding is relative: an amount below 1 is an integer
    only if it is 0 (weights of 1e-10 were read as the integer 0)."""
    values = np.asarray(values, dtype=np.float64)
    return bool(np.allclose(values, np.round(values), rtol=1e-12, atol=0.0))


def _number_width(table, digits):
    """The width of a printed score: ``digits + 2`` (``"0.62"``), at least 3
    (``"nan"``), wider where a value needs more (``"-0.50"``)."""
    width = max(digits + 2 if digits else 1, 3)
    for row in table.rows:
        for value in row.values.values():
            width = max(width, len(f"{value:.{digits}f}"))
        for bounds in (row.low, row.high):
            for value in (bounds or {}).values():
                width = max(width, len(f"{value:.{digits}f}"))
    return width


#: The heading of the notes of flagged intervals.
FLAG_HEADING = "Flagged intervals (the data cannot support them as printed):"
#: What the cell of an undefined score means, in the notes.
UNDEFINED_NOTE = (
    f"{UNDEFINED_CELL}: undefined (a zero denominator); the dict keeps "
    "zero_division's value, as scikit-learn's does"
)


def flag_lines(table, *, printed=True):
    """The notes of the flagged intervals of ``table``, as lines of text:
    each :class:`FlagNote`'s (``printed``: its names as plain text prints
    them), then what ``—`` means when a score is undefined; none where
    nothing is flagged. The writers put :data:`FLAG_HEADING` above them."""
    notes = flag_notes(table)
    lines = [note.text(printed=printed) for note in notes]
    if any(is_undefined(note.reason) for note in notes):
        lines.append(UNDEFINED_NOTE)
    return lines


def _flag_of(row, header):
    """The flag of ``row``'s score ``header`` (None without intervals)."""
    return (row.flags or {}).get(header)


def report_text(table, digits):
    """The text report of a :class:`ReportTable`: scikit-learn's layout, the
    scores in columns of 9 characters (wider for a long header or value),
    with intervals ``0.62 [0.45, 0.78]`` and the legend line.

    A flagged interval is followed by its mark (``0.00 [0.00, 0.40] †1``),
    an undefined score shows ``—`` in place of its value and interval, and
    the notes of :func:`flag_lines` follow the legend."""
    names = [printable(row.name) for row in table.rows]
    width = max(
        max((len(name) for name in names[: table.n_labels]), default=0),
        len("weighted avg"),
        digits,
    )
    fmt_weight = _amount_format([row.weight for row in table.rows], digits)
    fmt_support = _amount_format([row.support for row in table.rows], digits)
    # scikit-learn's columns of 9 characters, widened where a value needs
    # more (huge weights, many digits): the headers stay over their values
    amount = max(
        9,
        *(len(fmt_weight(row.weight)) for row in table.rows),
        *(len(fmt_support(row.support)) for row in table.rows),
    )
    number = _number_width(table, digits)
    marks = _marks(table)
    # " †1" after each flagged interval, blanks after the others
    mark_width = max((1 + len(mark) for mark in marks.values()), default=0)
    if table.bounded:
        # "0.62 [0.45, 0.78]": every number as wide as the widest
        cell, gap = 3 * number + 5 + mark_width, "  "
    else:
        cell, gap = max(9, digits + 2, number), " "
    widths = [max(cell, len(header)) for header in table.columns]

    def score(row, header):
        if header not in row.values:
            return ""
        if not table.bounded:
            return f"{row.values[header]:.{digits}f}"
        flag = _flag_of(row, header)
        if is_undefined(flag):
            text = f"{UNDEFINED_CELL:>{number}s}" + " " * (2 * number + 5)
        else:
            low, high = row.low[header], row.high[header]
            text = (
                f"{row.values[header]:>{number}.{digits}f} "
                f"[{low:>{number}.{digits}f}, {high:>{number}.{digits}f}]"
            )
        if not marks:
            return text
        return text + f" {marks.get(flag, ''):<{mark_width - 1}s}"

    text = (
        f"{'':>{width}s} "
        + "".join(f"{gap}{h:>{w}s}" for h, w in zip(table.columns, widths))
        + "".join(f" {h:>{amount}s}" for h in AMOUNTS)
        + "\n\n"
    )
    for i, (name, row) in enumerate(zip(names, table.rows)):
        if i == table.n_labels:
            text += "\n"
        scores = "".join(
            f"{gap}{score(row, h):>{w}}" for h, w in zip(table.columns, widths)
        )
        text += (
            f"{name:>{width}s} {scores} {fmt_weight(row.weight):>{amount}} "
            f"{fmt_support(row.support):>{amount}}\n"
        )
    if table.legend is not None:
        text += "\n" + table.legend + "\n"
    notes = flag_lines(table)
    if notes:
        text += "\n" + "\n  ".join([FLAG_HEADING, *notes]) + "\n"
    return text


# -- the cells of markdown, LaTeX and the page; the frame -----------------------


def report_cells(table, *, digits):
    """``(headers, rows, n_label_rows)`` of a :class:`ReportTable`.

    ``headers`` are ``"label"``, the score columns, ``"weight"`` and
    ``"support"``; ``rows`` one list of str cells per label then per
    average: a score as ``"0.62"``, or with its interval ``"0.62 [0.36,
    0.83]"``, blank where the row has none (a samples average the statistic
    lacks); weight and support as integers when they all are (as the text
    report prints them). A flagged interval ends with its mark (``"0.00
    [0.00, 0.40] †1"``, :func:`flag_notes`), an undefined score is ``"—"``
    and its mark (``"— †2"``).
    """
    marks = _marks(table)
    amounts = {
        "weight": _amount_format([row.weight for row in table.rows], digits),
        "support": _amount_format([row.support for row in table.rows], digits),
    }
    rows = []
    for row in table.rows:
        cells = [str(row.name)]
        for column in table.columns:
            if column not in row.values:
                cells.append("")
                continue
            flag = _flag_of(row, column)
            if is_undefined(flag):
                cell = UNDEFINED_CELL
            else:
                cell = f"{row.values[column]:.{digits}f}"
                if row.low is not None:
                    low, high = row.low[column], row.high[column]
                    cell += f" [{low:.{digits}f}, {high:.{digits}f}]"
            if flag is not None:
                cell += f" {marks[flag]}"
            cells.append(cell)
        cells += [
            amounts["weight"](row.weight),
            amounts["support"](row.support),
        ]
        rows.append(cells)
    return ["label", *table.columns, *AMOUNTS], rows, table.n_labels


def _int64_holds(values):
    """Whether the float64 ``values`` are all integers (within rounding, see
    :func:`all_integral`) that int64 holds exactly: a cast of 2**63 or more
    (weights of 1e19) would give -9223372036854775808.

    Examples
    --------
    >>> _int64_holds(np.array([1.0, 2.0**62])), _int64_holds(np.array([2.0**63]))
    (True, False)
    """
    if not all_integral(values):
        return False
    rounded = np.round(values)
    return bool(np.all((rounded >= -(2.0**63)) & (rounded < 2.0**63)))


def report_frame(table, *, what, include_no_label=False):
    """The :class:`ReportTable` as a tidy pandas DataFrame.

    One row per label then per average, indexed by name (index ``"label"``,
    :func:`~sklearn_mlcm._summary.label_frame`), with the columns ``kind``
    ("label", "average", or "no label" for the row of the no-label index
    when ``include_no_label``), the score columns, ``weight``, ``support``
    and, with intervals, ``<score> low``, ``<score> high`` and ``<score>
    flag`` of each score (the flag an object column: None for a trusted
    interval, else its reason). The scores are float64 (NaN where a row has
    none: a samples average the statistic lacks; an undefined score keeps
    ``zero_division``'s value, as the dict does); ``weight`` and
    ``support`` int64 when every value of the column is an integer (as the
    text report prints them) that int64 holds, else float64 (Krstinic's
    matrix, fractional sample weights, whole amounts of 2**63 or more,
    which int64 would wrap to negative numbers).
    ``what`` names the call in the ImportError without pandas.
    """
    rows = table.rows
    columns, flag_columns = {}, set()
    for column in table.columns:
        columns[column] = [row.values.get(column, np.nan) for row in rows]
    columns["weight"] = [row.weight for row in rows]
    columns["support"] = [row.support for row in rows]
    if table.bounded:
        for column in table.columns:
            for end in ("low", "high"):
                columns[f"{column} {end}"] = [
                    getattr(row, end).get(column, np.nan) for row in rows
                ]
            flags = np.empty(len(rows), dtype=object)
            flags[:] = [_flag_of(row, column) for row in rows]
            columns[f"{column} flag"] = flags
            flag_columns.add(f"{column} flag")
    data = {}
    for column, values in columns.items():
        if column in flag_columns:  # None or a reason, as they are
            data[column] = values
            continue
        values = np.array(values, dtype=np.float64)
        if column in AMOUNTS and _int64_holds(values):
            values = np.round(values).astype(np.int64)
        data[column] = values
    names = [row.name for row in rows if row.average is None]
    averages = [row.name for row in rows if row.average is not None]
    frame = label_frame(what, names, averages, data)
    if flag_columns:  # label_frame has pandas imported
        import pandas

        # None where trusted, as the dict has it (not the NaN of a str dtype)
        for column in flag_columns:
            frame[column] = pandas.Series(
                list(data[column]), index=frame.index, dtype=object
            )
    if include_no_label and names and names[-1] == NO_LABEL_NAME:
        frame.iloc[len(names) - 1, frame.columns.get_loc("kind")] = NO_LABEL_NAME
    return frame
