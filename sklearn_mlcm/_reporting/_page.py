"""One self-contained HTML page of an :class:`~sklearn_mlcm.MLCMReport`.

:func:`render_page` writes the page as one string: a summary (labels,
instances, method, the micro, macro and samples F1 with their intervals),
the labels most involved in confusion (the matrix's picture, the label pairs
and the label sets), the threshold curve when scores were given, and the
classification report of every label. :func:`write_page` writes it to a
file, atomically (:mod:`._files`). With intervals, one that cannot be
trusted (its flag, :func:`~sklearn_mlcm._report._table.flag_notes`) is
marked (``†1``, its reason the tooltip), an undefined score shows as ``—``,
the summary says how many are flagged and the reasons follow the report.

What the page promises, and the tests check in a browser:

- it loads nothing: no script, no web font, no stylesheet or image from
  elsewhere; its style is inline and its pictures are SVG images inside the
  page (``data:`` URLs, in which no script runs);
- every label name, and every other text that comes from the user, is
  escaped (:func:`html.escape` with ``quote=True``): a name such as
  ``<img src=x onerror=...>`` shows as text and runs nothing;
- it reads at 1,280 px without scrolling sideways: the content is at most
  1,180 px wide, long names wrap anywhere, and a table wider than the page
  scrolls sideways inside its own box (as wide as the table); a long table
  is as long as it is, read by scrolling the page;
- its style is scoped to the page's ``div.mlcm-report``, so that the same
  string shown in Jupyter (``_repr_html_``) leaves the notebook's look alone.

The pictures need matplotlib; without it the page says how to install it and
keeps its tables. They are drawn on :class:`matplotlib.figure.Figure`
objects (pyplot is not used) inside :func:`matplotlib.rc_context`, which
sets matplotlib's global settings for its duration: a lock (:data:`_DRAWING`)
keeps pages drawn in threads from changing each other's settings, so that
every page of a report is the same and the settings are left as they were.
"""

import base64
import copy
import html
import importlib.util
import io
import sys
import threading
from collections import Counter

import numpy as np

from sklearn_mlcm._plot._confusion_matrix import _figure_size
from sklearn_mlcm._report._table import (
    FLAG_HEADING,
    UNDEFINED_CELL,
    UNDEFINED_NOTE,
    flag_notes,
    headline,
    is_undefined,
    report_cells,
    table_of_report,
)
from sklearn_mlcm._summary import shorten
from sklearn_mlcm._thresholds._curve import IN_SAMPLE
from sklearn_mlcm._thresholds._stability import UNSTABLE_SHARE, spread_table

from ._files import write_file

__all__ = ["render_page", "write_page"]

#: The labels the matrix's picture shows at most (``MLCMReport.plot``'s
#: ``top_k="auto"``).
PICTURE_LABELS = 40
#: The longest name drawn in the picture (the tables have every name whole).
PICTURE_NAME_CHARS = 28
#: Digits of the scores on the page, as the printed report has them.
DIGITS = 2
#: Above this many names in all, the wrong label sets scroll in their box.
TALL_SET_NAMES = 500
#: Held while a page draws its pictures (matplotlib's settings are global).
_DRAWING = threading.Lock()
#: The page's title when none is given.
TITLE = "Multi-label confusion report"
#: What the page says when matplotlib is missing.
NO_PICTURES = (
    "The pictures need matplotlib: "
    '<code>pip install "sklearn-mlcm[plot]"</code>.'
)

_METHODS = {
    "heydarian": "Heydarian et al. (2022)",
    "krstinic": "Krstinić et al. (2020)",
}
_HEADLINE = ("micro avg", "macro avg", "samples avg")
# every rule under .mlcm-report: the page's look stays inside its box, in a
# browser and in a notebook alike
_STYLE = """
.mlcm-report{box-sizing:border-box;max-width:1180px;margin:0 auto;padding:8px 20px 24px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
font-size:15px;line-height:1.45;color:#1f2328;background:#fff;overflow-wrap:anywhere}
.mlcm-report *{box-sizing:border-box}
.mlcm-report h1{font-size:1.6em;margin:.4em 0 .1em}
.mlcm-report h2{font-size:1.25em;margin:1.6em 0 .4em;padding-bottom:.2em;
border-bottom:1px solid #d8dee4}
.mlcm-report h3{font-size:1.05em;margin:1.2em 0 .3em}
.mlcm-report p{margin:.4em 0}
.mlcm-report .subtitle{color:#59636e;margin-top:0}
.mlcm-report nav{margin:.6em 0 0;color:#59636e}
.mlcm-report nav a{color:#0969da;margin-right:1em;text-decoration:none}
.mlcm-report .cards{display:flex;flex-wrap:wrap;gap:12px;margin:.8em 0}
.mlcm-report .card{border:1px solid #d8dee4;border-radius:6px;padding:8px 14px;
min-width:170px}
.mlcm-report .card .value{font-size:1.7em;font-weight:600;
font-variant-numeric:tabular-nums}
.mlcm-report .card .name{color:#59636e}
.mlcm-report .legend,.mlcm-report .note,.mlcm-report .interval{color:#59636e}
.mlcm-report .interval{font-size:.9em}
.mlcm-report .scroll{width:max-content;max-width:100%;overflow-x:auto;
margin:.4em 0 1em}
.mlcm-report .scroll.tall{max-height:40em;overflow-y:auto;border:1px solid #d8dee4}
.mlcm-report .scroll.tall thead th{position:sticky;top:0}
.mlcm-report table{border-collapse:collapse;font-variant-numeric:tabular-nums}
.mlcm-report th,.mlcm-report td{padding:3px 10px;text-align:right;
vertical-align:top;border-bottom:1px solid #eaeef2;white-space:nowrap}
.mlcm-report thead th{background:#f6f8fa;border-bottom:1px solid #d8dee4}
.mlcm-report th.name,.mlcm-report td.name{text-align:left;white-space:normal;
min-width:8em;max-width:32em;overflow-wrap:anywhere}
.mlcm-report .label{display:inline-block;background:#eef1f4;border-radius:4px;
padding:0 5px;margin:1px 2px 1px 0}
.mlcm-report .label.missed{background:#ffebe9;box-shadow:inset 0 0 0 1px #cf222e}
.mlcm-report .label.extra{background:#fff8c5;box-shadow:inset 0 0 0 1px #9a6700}
.mlcm-report figure{margin:.6em 0 1.2em}
.mlcm-report figure img{display:block;max-width:100%;height:auto}
.mlcm-report figcaption{color:#59636e;margin-top:.3em}
.mlcm-report code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
font-size:.92em;background:#f6f8fa;padding:1px 4px;border-radius:4px}
.mlcm-report sup.flag{color:#9a6700;font-weight:600;margin-left:2px;line-height:0}
.mlcm-report .flagged{background:#fff8c5;border-left:3px solid #9a6700;
padding:4px 10px}
.mlcm-report ul.flags{margin:.3em 0 1em;padding-left:1.4em;color:#59636e}
.mlcm-report footer{margin-top:2em;color:#59636e;font-size:.9em}
@media print{.mlcm-report .scroll.tall{max-height:none;overflow:visible}}
"""


def _text(value):
    """Any text from the user, escaped for HTML text and attribute values."""
    return html.escape(str(value), quote=True)


def _count(value):
    """An amount: an integer as ``1,234``, a fraction with three digits, and
    past 2**53, whose integer digits float64 does not hold, as ``8e+300``
    (weights of 1e300 printed 301 digits), as the text report does."""
    value = float(value)
    if not abs(value) < 2.0**53:  # NaN too
        return f"{value:.3g}"
    if value == round(value):
        return f"{int(round(value)):,}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:,.2f}"


def _amount(cell):
    """A weight or support cell of the report's rows: ``277,993`` for an
    integer (thousands apart), a fraction as it is."""
    return f"{int(cell):,}" if cell.isdigit() else cell


def _flag_mark(flag, marks):
    """The mark of a flagged interval, its reason as the tooltip; "" for a
    trusted one."""
    if flag is None:
        return ""
    return f'<sup class="flag" title="{_text(flag)}">{_text(marks[flag])}</sup>'


def _score(entry, column, marks):
    """``0.62`` and, when the entry has them, its interval ``[0.36, 0.83]``
    in a quieter span; a flagged interval's mark (``marks``: the reason's)
    after it, ``—`` and the mark for an undefined score."""
    flag = entry.get(f"{column} flag")
    if is_undefined(flag):
        return UNDEFINED_CELL + _flag_mark(flag, marks)
    value = f"{entry[column]:.{DIGITS}f}"
    low = entry.get(f"{column} low")
    if low is None:
        return value
    high = entry[f"{column} high"]
    return (
        f'{value} <span class="interval">[{low:.{DIGITS}f}, '
        f"{high:.{DIGITS}f}]</span>{_flag_mark(flag, marks)}"
    )


def _flag_summary(notes):
    """The summary's warning when intervals are flagged: how many, and
    where their reasons are."""
    n = sum(len(note.places) for note in notes)
    return (
        f'<p class="note flagged"><b>{n:,} interval{"s" * (n != 1)} '
        f"flagged</b> (marked {_text(notes[0].mark[0])}): the data cannot "
        "support them as printed. Their reasons are under the "
        '<a href="#flags">classification report</a>.</p>'
    )


def _flag_list(notes):
    """The notes of the flagged intervals, under the report's tables."""
    items = [f"<li>{_text(note.text())}</li>" for note in notes]
    if any(is_undefined(note.reason) for note in notes):
        items.append(f"<li>{_text(UNDEFINED_NOTE)}</li>")
    return (
        f'<div id="flags"><p class="note flagged">{_text(FLAG_HEADING)}</p>'
        f'<ul class="flags">{"".join(items)}</ul></div>'
    )


# Sections ---------------------------------------------------------------


def _summary(report, title):
    """The title, the size of the evaluation and the headline scores."""
    q = len(report.target_names)
    method = _METHODS.get(report.method, report.method)
    parts = [
        f"{q:,} label{'s' * (q != 1)}",
        f"{report.n_samples:,} instance{'s' * (report.n_samples != 1)}",
        f"method {_text(report.method)}: {_text(method)}",
    ]
    if report.include_no_label:
        parts.append('with the "no label" row')
    cards = []
    table = table_of_report(report.report)
    notes = flag_notes(table)
    marks = {note.reason: note.mark for note in notes}
    column, words = headline(table.columns)
    for key in _HEADLINE:
        entry = report.report.get(key)
        if entry is None or column not in entry:  # no samples form
            continue
        interval = ""
        flag = entry.get(f"{column} flag")
        value = f"{entry[column]:.{DIGITS}f}"
        if is_undefined(flag):
            value = UNDEFINED_CELL
        elif f"{column} low" in entry:
            interval = (
                f'<div class="interval">[{entry[f"{column} low"]:.{DIGITS}f}, '
                f'{entry[f"{column} high"]:.{DIGITS}f}]</div>'
            )
        if flag is not None:
            interval += f'<div class="interval">{_text(flag)}</div>'
        cards.append(
            f'<div class="card"><div class="name">{key.split()[0]} '
            f"{_text(words)}</div>"
            f'<div class="value">{value}{_flag_mark(flag, marks)}</div>'
            f"{interval}</div>"
        )
    lines = [
        f"<h1>{_text(title)}</h1>",
        f'<p class="subtitle">{" · ".join(parts)}</p>',
        _navigation(report),
        '<section id="summary"><h2>Summary</h2>',
        f'<div class="cards">{"".join(cards)}</div>',
    ]
    if report.method == "heydarian":
        lines.append(_NOT_ONE_VS_REST)
    if report.interval_legend:
        lines.append(f'<p class="legend">{_text(report.interval_legend)}</p>')
        if notes:
            lines.append(_flag_summary(notes))
    else:
        lines.append(
            '<p class="legend">No intervals: build the report with '
            "<code>confidence_level=0.95</code> (on the command line "
            "<code>--confidence-level 0.95</code>) to have them.</p>"
        )
    curve = report.threshold_curve
    if curve is not None:
        lines.append(f"<p>{_best_threshold(curve)}</p>")
    lines.append("</section>")
    return "\n".join(lines)


# what the MLCM's scores are, for a reader who knows scikit-learn's
_NOT_ONE_VS_REST = (
    '<p class="note">These scores are read off the MLCM, not one label at a '
    "time as scikit-learn's are: Heydarian's MLCM charges a missed label to "
    "each wrongly predicted label of its instance, so a label's recall is "
    "TP / weight (its row of the MLCM), not TP / support, and the averages "
    "are lower than scikit-learn's one-vs-rest ones when instances carry "
    "many wrong labels (the user guide's statistics page, "
    '"Classification report", has the formulas).</p>'
)


def _navigation(report):
    """Links to the sections (within the page: no request is made)."""
    links = [("#confusion", "Confusion")]
    if report.threshold_curve is not None or report.threshold_spread is not None:
        links.append(("#threshold", "Threshold"))
    links.append(("#report", "Classification report"))
    return "<nav>" + "".join(f'<a href="{h}">{t}</a>' for h, t in links) + "</nav>"


def _best_threshold(curve):
    """The best threshold of the curve and its score, in words."""
    best = curve.best_threshold
    score = float(curve.scores[curve.best_index])
    metric = {"f1": "F1"}.get(curve.metric, curve.metric)
    if np.ndim(best) == 0:
        where, steps = f"threshold <b>{float(best):.3g}</b>", "thresholds"
    else:
        where = f"row <b>{curve.best_index}</b> of the per-label thresholds"
        steps = "rows"
    return (
        f"Best {where}: {_text(curve.average)} {_text(metric)} "
        f"{score:.{DIGITS}f} (of {len(curve.scores):,} {steps}); "
        f"<b>{IN_SAMPLE}</b>: picked on the data it scores. "
        "<code>MLCMTunedThresholdClassifierCV</code> chooses thresholds out "
        "of sample."
    )


def _spread(report):
    """The tuned estimator's thresholds and their spread across its folds,
    one row per label ("all labels" for a global threshold)."""
    spread = report.threshold_spread
    per_label = np.ndim(spread.best_threshold) != 0
    q = np.size(spread.best_threshold)
    names = list(report.target_names[:q]) if per_label else ["all labels"]
    header, rows, _ = spread_table(spread, names)
    if spread.n_folds < 2:
        words = (
            "one fold (<code>cv</code> a float or <code>'prefit'</code>): how "
            "far the thresholds move across folds cannot be judged"
        )
    else:
        flags = np.atleast_1d(spread.unstable)
        words = (
            f"{spread.n_folds:,} folds, each fold's held-out scores tuned alone; "
            f"<b>{int(flags.sum()):,} of {flags.size:,}</b> "
            f"{'label thresholds' if per_label else 'threshold'} unstable (the "
            f"folds' range exceeds {UNSTABLE_SHARE} of the span of the "
            "candidate thresholds: the data do not pin them down)"
        )
    head = "".join(
        f'<th scope="col"{" class=name" * (i == 0)}>{_text(h)}</th>'
        for i, h in enumerate(header)
    )
    body = []
    for name, cells in zip(names, rows):
        tail = "".join(f"<td>{_text(c)}</td>" for c in cells[1:])
        if cells[-1] == "unstable":
            tail = tail.replace(
                "<td>unstable</td>",
                '<td><span class="label missed">unstable</span></td>',
            )
        body.append(f'<tr><th scope="row" class="name">{_text(name)}</th>{tail}</tr>')
    tall = " tall" if len(body) > 30 else ""
    return (
        "<h3>The model's tuned thresholds across its folds</h3>"
        '<p class="note">Tuned out of sample by '
        "<code>MLCMTunedThresholdClassifierCV</code> on its training data's "
        f"out-of-fold scores; {words}.</p>"
        f'<div class="scroll{tall}"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _report_table(report):
    """The classification report: the averages, then every label (as long
    as it is: the page scrolls, not a box)."""
    table = table_of_report(report.report)
    headers, rows, _ = report_cells(table, digits=DIGITS)
    notes = flag_notes(table)
    marks = {note.reason: note.mark for note in notes}
    head = "".join(
        f'<th scope="col"{" class=name" * (i == 0)}>{_text(h)}</th>'
        for i, h in enumerate(headers)
    )
    n_scores = len(table.columns)
    labels, averages = [], []
    for row, cells in zip(table.rows, rows, strict=True):
        entry = report.report[row.name]
        line = (
            f'<tr><th scope="row" class="name">{_text(row.name)}</th>'
            + "".join(
                f"<td>{_score(entry, c, marks) if c in entry else ''}</td>"
                for c in table.columns
            )
            + "".join(f"<td>{_amount(cell)}</td>" for cell in cells[1 + n_scores :])
            + "</tr>"
        )
        (labels if row.average is None else averages).append(line)
    legend = (
        f'<p class="legend">{_text(report.interval_legend)}</p>'
        if report.interval_legend
        else ""
    )
    return (
        '<section id="report"><h2>Classification report</h2>'
        "<p><i>weight</i>: the sum of the label's row of the MLCM (Heydarian "
        "et al., Table 12); <i>support</i>: the number of its true instances, "
        "as in scikit-learn.</p>"
        f"{legend}"
        "<h3>Averages</h3>"
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(averages)}</tbody></table></div>"
        f"<h3>Every label ({len(report.target_names):,}), "
        "in the order of the matrix</h3>"
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(labels)}</tbody></table></div>"
        f"{_flag_list(notes) if notes else ''}"
        "</section>"
    )


def _label_set(names, others, mark):
    """A label set as text, a chip per name; the names not in ``others`` (the
    other side's set) marked with the class ``mark``; a word for the empty
    set."""
    if len(names) == 0:
        return '<span class="note">(no label)</span>'
    others = set(others)
    return " ".join(
        f'<span class="label{"" if name in others else " " + mark}">'
        f"{_text(name)}</span>"
        for name in names
    )


def _confusion_tables(report):
    """The most confused label pairs and label sets."""
    out = []
    if report.most_confused:
        rows = "".join(
            f'<tr><td>{i}</td><td class="name">{_text(c.true)}</td>'
            f'<td class="name">{_text(c.predicted)}</td>'
            f"<td>{_count(c.value)}</td></tr>"
            for i, c in enumerate(report.most_confused, start=1)
        )
        out.append(
            f"<h3>The {len(report.most_confused):,} most confused label pairs</h3>"
            '<div class="scroll"><table><thead><tr><th>#</th>'
            '<th class="name">true label</th><th class="name">predicted in its '
            "place</th><th>count</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>"
        )
    else:
        out.append("<p>No label was predicted in place of another.</p>")
    if report.labelset_confusions:
        rows = "".join(
            f'<tr><td>{i}</td>'
            f'<td class="name">{_label_set(c.true, c.predicted, "missed")}</td>'
            f'<td class="name">{_label_set(c.predicted, c.true, "extra")}</td>'
            f"<td>{_count(c.count)}</td></tr>"
            for i, c in enumerate(report.labelset_confusions, start=1)
        )
        sets = report.labelset_confusions
        n_names = sum(len(c.true) + len(c.predicted) for c in sets)
        tall = " tall" if n_names > TALL_SET_NAMES else ""
        out.append(
            f"<h3>The {len(report.labelset_confusions):,} most frequent wrong "
            "label sets</h3>"
            '<p class="note">Marked: <span class="label missed">missed</span> '
            'true labels, not predicted; <span class="label extra">extra</span> '
            "predicted labels, not true.</p>"
            f'<div class="scroll{tall}"><table><thead><tr><th>#</th>'
            '<th class="name">true label set</th><th class="name">predicted '
            "label set</th><th>instances</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>"
        )
    else:
        out.append("<p>Every instance's label set was predicted exactly.</p>")
    return "\n".join(out)


# Pictures ---------------------------------------------------------------


def _has_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def _svg_image(figure, alt):
    """The figure as an ``<img>`` of an SVG ``data:`` URL.

    SVG rather than PNG: as small (a matrix of 41 x 41 cells is stored as
    its cells, not its pixels), as fast to draw, and sharp at any zoom. An
    image rather than inline ``<svg>``: matplotlib's style and identifiers
    stay inside it, and nothing in it can run.
    """
    buffer = io.BytesIO()
    # no date: the same report gives the same page
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    width, height = (figure.get_size_inches() * 72 * 4 / 3).round().astype(int)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<img src="data:image/svg+xml;base64,{data}" width="{width}" '
        f'height="{height}" alt="{_text(alt)}">'
    )


def _picture_names(report):
    """The report, or a copy with names the picture can draw: at most
    PICTURE_NAME_CHARS characters (the tables have each name whole), each
    "$" escaped, so that matplotlib reads no name as mathtext (nor refuses
    one as wrong mathtext), and still distinct (a shortened name that meets
    another gets its label's number)."""
    names = [str(name) for name in report.target_names]
    # a longer name keeps its start and end around "…"
    # (``label_name_of_many_wo…many_words``), on one line
    drawn = [
        shorten(
            name, PICTURE_NAME_CHARS, keep="both", mark="\N{HORIZONTAL ELLIPSIS}"
        ).replace("$", r"\$")
        for name in names
    ]
    if drawn == names:
        return report
    counts = Counter(drawn)
    drawn = [
        f"{text} #{j}" if counts[text] > 1 and text != names[j] else text
        for j, text in enumerate(drawn)
    ]
    picture = copy.copy(report)
    picture.target_names = drawn
    return picture


def _matrix_picture(report):
    """The matrix of the labels most involved in confusion."""
    from matplotlib.figure import Figure

    q = len(report.target_names)
    n_rows = min(q, PICTURE_LABELS) + 1
    figure = Figure(figsize=_figure_size(n_rows, n_rows), layout="tight")
    display = _picture_names(report).plot(ax=figure.add_subplot())
    shown = len(display.shown_labels_)
    if shown < q:
        caption = (
            f"The {shown} of {q:,} labels most involved in confusion, ranked "
            "by the total of each label's confusions with the other labels "
            "(its row and column off the diagonal), with the NTL row (no true "
            "label) and the NPL column (no predicted label). A pair below "
            "may involve a label outside the picture; every label is in the "
            "tables."
        )
    else:
        caption = (
            f"All {q:,} labels, with the NTL row (no true label) and the NPL "
            "column (no predicted label)."
        )
    return (
        f"<figure>{_svg_image(figure, 'The multi-label confusion matrix')}"
        f"<figcaption>{caption}</figcaption></figure>"
    )


def _curve_picture(report):
    """The threshold curve with its best threshold marked."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.0, 4.5), layout="tight")
    report.plot_threshold_curve(ax=figure.add_subplot())
    return (
        f"<figure>{_svg_image(figure, 'The score against the threshold')}"
        f"<figcaption>{_best_threshold(report.threshold_curve)}</figcaption>"
        "</figure>"
    )


def _pictures(report):
    """``(matrix, curve)`` pictures as HTML (the curve "" without scores), or
    the install hint twice when matplotlib is missing."""
    if not _has_matplotlib():
        hint = f'<p class="note">{NO_PICTURES}</p>'
        return hint, hint if report.threshold_curve is not None else ""
    import matplotlib

    # text drawn as paths (the same in every browser); ids fixed by the salt.
    # One page draws at a time: rc_context sets and restores the global
    # rcParams, so two threads inside it would restore each other's settings
    rc = {"svg.fonttype": "path", "svg.hashsalt": "sklearn-mlcm"}
    with _DRAWING, matplotlib.rc_context(rc):
        matrix = _matrix_picture(report)
        curve = "" if report.threshold_curve is None else _curve_picture(report)
    return matrix, curve


# The page -----------------------------------------------------------------


def render_page(report, *, pictures=True, title=None):
    """The report as one self-contained HTML5 page.

    Parameters
    ----------
    report : MLCMReport
        The evaluation to show.
    pictures : bool, default=True
        Draw the pictures (False: the tables only, as without matplotlib).
    title : str or None, default=None
        The page's title and heading (escaped); None for :data:`TITLE`.

    Returns
    -------
    page : str
        The page: inline style, SVG pictures inside it, no script, nothing
        loaded from elsewhere; every label name escaped.
    """
    title = TITLE if title is None else title
    if pictures:
        matrix, curve = _pictures(report)
    else:
        matrix, curve = "", ""
    threshold = ""
    if report.threshold_curve is not None:
        threshold = (
            '<section id="threshold"><h2>Score against the threshold</h2>'
            "<p>The averaged MLCM score of the predictions "
            "<code>y_score &gt;= threshold</code> at each threshold.</p>"
            f"{curve}"
        )
    if report.threshold_spread is not None:
        if not threshold:
            threshold = '<section id="threshold"><h2>Thresholds</h2>'
        threshold += _spread(report)
    if threshold:
        threshold += "</section>"
    # the package's version, read off the package already imported (an
    # import of sklearn_mlcm here would climb above this layer)
    version = getattr(sys.modules.get("sklearn_mlcm"), "__version__", "")
    body = "\n".join(
        [
            _summary(report, title),
            '<section id="confusion"><h2>Labels most involved in confusion</h2>',
            matrix,
            _confusion_tables(report),
            "</section>",
            threshold,
            _report_table(report),
            f"<footer>Written by sklearn-mlcm {_text(version)}. Read off "
            "the multi-label confusion matrix (MLCM): rows are true labels, "
            "columns the labels predicted in their place.</footer>",
        ]
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_text(title)}</title>"
        f"<style>{_STYLE}</style></head>\n"
        f'<body><div class="mlcm-report">\n{body}\n</div></body></html>\n'
    )


def write_page(report, path, *, title=None):
    """Write the page of ``report`` to ``path``, replacing a file whole or
    not at all (a pipe or a character device written directly, never
    replaced: :func:`~._files.write_file`).

    Parameters
    ----------
    report : MLCMReport
        The evaluation to show.
    path : str or path-like
        The file, checked by the caller (:meth:`MLCMReport.to_html`'s
        validation refuses a directory, a read-only file, or a folder that
        does not exist or cannot be written, before the page is drawn).
    title : str or None, default=None
        The page's title and heading (escaped); None for :data:`TITLE`.

    Returns
    -------
    path : str or path-like
        ``path`` as given.

    Raises
    ------
    OSError
        When writing fails (a full disk, no permission), naming ``path``; an
        existing file is then left as it was.
    """
    page = render_page(report, title=title)
    write_file(path, lambda file: file.write(page))
    return path
