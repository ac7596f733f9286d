"""The report's HTML page, read as text (sklearn_mlcm/_reporting/_page.py).

The browser's view of the same pages is in test_page_browser.py.
"""

import base64
import html
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
from page_data import HOSTILE_NAMES, mulan_test_labels, simulated_scores
from scipy.stats import DegenerateDataWarning

from sklearn_mlcm import MLCMReport, __version__
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE
from sklearn_mlcm._reporting import _files, _page
from sklearn_mlcm._reporting._page import (
    NO_PICTURES,
    PICTURE_NAME_CHARS,
    render_page,
    write_page,
)

#: Their toy data's macro averages are over labels with fewer than 5
#: positives: flagged intervals, whose warning (issue #32) is checked in
#: tests/test_report_flags.py; the tests here are about the outputs.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)

# every src or href: its value (quoted or not)
_LINKS = re.compile(r"""\b(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def _links(page):
    return [next(v for v in m.groups() if v is not None) for m in _LINKS.finditer(page)]


def _table_1(**kwargs):
    """Heydarian et al. (2022), Table 1, with scores that rank every true
    label above every wrong one at some instances."""
    y_true, y_pred = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
    options = {"target_names": TABLE_1_NAMES, "zero_division": 0.0, **kwargs}
    return MLCMReport.from_predictions(y_true, y_pred, **options)


def _hostile(n=60, seed=0, **kwargs):
    """Random labels named with HOSTILE_NAMES, with scores."""
    rng = np.random.default_rng(seed)
    q = len(HOSTILE_NAMES)
    y_true, y_pred = rng.random((n, q)) < 0.4, rng.random((n, q)) < 0.4
    return MLCMReport.from_predictions(
        y_true,
        y_pred,
        y_score=rng.random((n, q)),
        target_names=HOSTILE_NAMES,
        zero_division=0.0,
        **kwargs,
    )


@pytest.fixture(scope="module")
def table_1_page():
    """The page of Table 1 with intervals and scores, and its report."""
    scores = 0.2 + 0.5 * np.array(TABLE_1_TRUE) + 0.2 * np.array(TABLE_1_PRED)
    report = _table_1(
        y_score=scores, confidence_level=0.9, n_resamples=200, random_state=0
    )
    return render_page(report), report


def test_render_page_is_one_self_contained_document(table_1_page):
    """One HTML5 string that links to nothing outside it: every src is a
    data: URL, every href an anchor of the page; no script, no stylesheet
    or font from elsewhere."""
    page, _ = table_1_page
    assert isinstance(page, str)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert page.rstrip().endswith("</html>")
    links = _links(page)
    assert sorted({link.split(",")[0] for link in links}) == [
        "#confusion",
        "#flags",  # Table 1's flagged macro intervals, their notes
        "#report",
        "#threshold",
        "data:image/svg+xml;base64",
    ]
    for needle in ("http://", "https://", "<script", "<link", "@import", "url("):
        assert needle not in page.lower()
    assert not re.search(r"""(?:src|href)\s*=\s*["']?//""", page)
    assert f"Written by sklearn-mlcm {__version__}." in page


def test_render_page_pictures_are_svg_without_links(table_1_page):
    """The two pictures (matrix and threshold curve) are SVG documents that
    reference nothing outside themselves (no http, no xlink to a file)."""
    page, _ = table_1_page
    images = [
        base64.b64decode(link.split(",", 1)[1]).decode("utf-8")
        for link in _links(page)
        if link.startswith("data:")
    ]
    assert len(images) == 2
    for svg in images:
        assert svg.lstrip().startswith("<?xml")
        assert "<svg" in svg
        assert "<script" not in svg
        hrefs = re.findall(r'(?:xlink:)?href="([^"]*)"', svg)
        assert all(h.startswith(("#", "data:image/png;base64,")) for h in hrefs)


def test_render_page_summary_numbers(table_1_page):
    """The headline micro, macro and samples F1 are the report's, with their
    intervals, and the legend and the best threshold are stated."""
    page, report = table_1_page
    unmarked = re.sub(r'<sup class="flag"[^>]*>[^<]*</sup>', "", page)  # flags' marks
    for key in ("micro avg", "macro avg", "samples avg"):
        entry = report.report[key]
        card = (
            f'<div class="name">{key.split()[0]} F1</div>'
            f'<div class="value">{entry["f1-score"]:.2f}</div>'
            f'<div class="interval">[{entry["f1-score low"]:.2f}, '
            f"{entry['f1-score high']:.2f}]</div>"
        )
        assert card in unmarked
    assert '<div class="value">0.43</div>' in page  # micro F1 of Table 1
    assert html.escape(report.interval_legend) in page
    curve = report.threshold_curve
    assert f"Best threshold <b>{float(curve.best_threshold):.3g}</b>" in page
    assert "3 labels · 9 instances · method heydarian" in page


def test_render_page_says_the_best_threshold_is_in_sample(table_1_page):
    """The best threshold, in the summary and under the curve's picture, is
    said to be in-sample (picked on the data it scores), with the estimator
    that chooses thresholds out of sample."""
    page, _ = table_1_page
    summary = page[page.index('id="summary"') : page.index('id="confusion"')]
    caption = page[page.index('id="threshold"') :]
    caption = caption[caption.index("<figcaption>") : caption.index("</figcaption>")]
    for part in (summary, caption):
        assert "<b>in-sample, optimistic</b>: picked on the data it scores" in part
        assert "<code>MLCMTunedThresholdClassifierCV</code> chooses thresholds" in part


def _tuned_page(**options):
    """The page (no pictures) of a tuned estimator's report, and the tuned
    estimator."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier

    from sklearn_mlcm import MLCMTunedThresholdClassifierCV

    X, y = make_multilabel_classification(
        n_samples=200, n_classes=3, n_features=8, random_state=1
    )
    estimator = OneVsRestClassifier(LogisticRegression())
    tuned = MLCMTunedThresholdClassifierCV(estimator, random_state=0, **options)
    if options.get("cv") == "prefit":  # fitted on 100, tuned on 50 others
        estimator.fit(X[:100], y[:100])
        tuned.fit(X[100:150], y[100:150])
    else:
        tuned.fit(X[:150], y[:150])
    report = MLCMReport.from_estimator(
        tuned, X[150:], y[150:], target_names=["<a>", "b", "c"], zero_division=0.0
    )
    return render_page(report, pictures=False), tuned


def test_render_page_shows_the_tuned_thresholds_spread():
    """From a tuned estimator the threshold section has a row per label (name
    escaped): its tuned threshold, the folds' lowest, median and highest,
    their range and its stability, and how many are unstable."""
    page, tuned = _tuned_page(cv=4)
    spread = tuned.threshold_spread_
    section = page[page.index('id="threshold"') : page.index('id="report"')]
    assert "The model's tuned thresholds across its folds" in section
    flags = spread.unstable
    assert f"<b>{int(flags.sum())} of 3</b> label thresholds unstable" in section
    for k, name in enumerate(["&lt;a&gt;", "b", "c"]):
        cells = [
            f"{v:.4f}"
            for v in (
                spread.best_threshold[k],
                spread.low[k],
                spread.median[k],
                spread.high[k],
                spread.range[k],
            )
        ]
        row = f'<tr><th scope="row" class="name">{name}</th>' + "".join(
            f"<td>{c}</td>" for c in cells
        )
        assert row in section
    assert section.count('<span class="label missed">unstable</span>') == flags.sum()
    assert section.count("<td>stable</td>") == 3 - flags.sum()


def test_render_page_of_one_fold_says_the_spread_cannot_be_judged():
    """A tuned estimator of one split shows its thresholds and says their
    spread cannot be judged, with no range or stability column."""
    page, tuned = _tuned_page(cv="prefit", refit=False)
    section = page[page.index('id="threshold"') : page.index('id="report"')]
    assert "how far the thresholds move across folds cannot be judged" in section
    assert ">range<" not in section and ">stability<" not in section
    assert f"<td>{tuned.best_threshold_[1]:.4f}</td>" in section


def test_render_page_report_table_rows(table_1_page):
    """One row per label, in order, then the four averages, each with the
    report's scores and intervals, weight and support."""
    page, report = table_1_page
    rows = re.findall(r'<tr><th scope="row" class="name">([^<]*)</th>', page)
    assert rows == ["micro avg", "macro avg", "weighted avg", "samples avg"] + [
        "C0",
        "C1",
        "C2",
    ]
    c0 = report.report["C0"]
    expected = (
        '<tr><th scope="row" class="name">C0</th>'
        f'<td>{c0["precision"]:.2f} <span class="interval">'
        f"[{c0['precision low']:.2f}, {c0['precision high']:.2f}]</span></td>"
    )
    assert expected in page
    assert "<td>11</td><td>7</td></tr>" in page  # C0's weight and support


def test_render_page_confusions_tables(table_1_page):
    """The most confused pairs and label sets are listed, in order, with
    their counts; the empty set is named."""
    page, report = table_1_page
    pairs = re.findall(
        r'<tr><td>(\d+)</td><td class="name">([^<]*)</td>'
        r'<td class="name">([^<]*)</td><td>([^<]*)</td></tr>',
        page,
    )
    assert pairs[:3] == [
        ("1", "C0", "C2", "4"),
        ("2", "C1", "C2", "3"),
        ("3", "C0", "C1", "2"),
    ]
    assert len(pairs) == len(report.most_confused)
    sets = report.labelset_confusions
    assert sets[:2] == [((), ("C1", "C2"), 1), (("C0",), ("C0", "C1", "C2"), 1)]
    assert (
        '<tr><td>1</td><td class="name"><span class="note">(no label)</span></td>'
        '<td class="name"><span class="label extra">C1</span> '
        '<span class="label extra">C2</span></td><td>1</td></tr>'
    ) in page
    assert (
        '<tr><td>2</td><td class="name"><span class="label">C0</span></td>'
        '<td class="name"><span class="label">C0</span> '
        '<span class="label extra">C1</span> <span class="label extra">C2</span>'
        "</td><td>1</td></tr>"
    ) in page
    # a true label left out of the prediction is marked as missed
    assert '<span class="label missed">' in page


def test_render_page_every_label_escaped():
    """Every label name is in the page escaped (quote=True), in the report's
    table and nowhere raw; hostile names run nothing because none of their
    markup survives."""
    report = _hostile()
    page = render_page(report)
    for name in HOSTILE_NAMES:
        escaped = html.escape(name, quote=True)
        assert f'<th scope="row" class="name">{escaped}</th>' in page
        if escaped != name:
            assert name not in page
    assert "window.__pwned" in page  # as text, escaped
    assert "<script" not in page and "<img src=x" not in page
    assert "onerror=&quot;window.__pwned=1&quot;" in page


def test_render_page_escapes_every_user_text(monkeypatch):
    """The interval legend, the method and the curve's average come from
    the report object and are escaped too."""
    report = _table_1(y_score=np.array(TABLE_1_TRUE) * 0.5 + 0.25)
    report.interval_legend = "<b>legend</b> & more"
    report.method = "<i>m</i>"
    page = render_page(report)
    assert "&lt;b&gt;legend&lt;/b&gt; &amp; more" in page
    assert "method &lt;i&gt;m&lt;/i&gt;" in page
    assert "<b>legend</b>" not in page and "<i>m</i>" not in page


def test_render_page_picture_names_shortened_distinct_and_literal():
    """Names too long for the picture are shortened around an ellipsis and
    kept distinct; a "$" is drawn as is (an invalid mathtext name such as
    "$\\foo$" would be refused by matplotlib); the tables keep every name
    whole."""
    names = [
        "a_label_name_that_goes_on_and_on_ending_in_one",
        "a_label_name_that_runs_on_and_on_ending_in_one",
        "a_label_name_that_goes_on_and_on_ending_in_two",
        r"$\foo$",
    ]
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.random((40, 4)) < 0.5, rng.random((40, 4)) < 0.5
    report = MLCMReport.from_predictions(
        y_true, y_pred, target_names=names, zero_division=0.0
    )
    picture = _page._picture_names(report)
    assert picture is not report and report.target_names == names
    assert picture.target_names == [
        "a_label_name_that_…ng_in_one #0",
        "a_label_name_that_…ng_in_one #1",
        "a_label_name_that_…ng_in_two",
        r"\$\foo\$",
    ]
    assert len(picture.target_names[2]) == PICTURE_NAME_CHARS
    page = render_page(report)
    for name in names:
        assert f'<th scope="row" class="name">{html.escape(name)}</th>' in page


def test_render_page_short_names_drawn_as_they_are():
    """Names that fit and hold no "$" are drawn from the report itself."""
    report = _table_1()
    assert _page._picture_names(report) is report


def test_render_page_without_matplotlib_keeps_the_tables(monkeypatch, table_1_page):
    """Without matplotlib the page has no picture, says how to install it
    (for the matrix and for the curve), and keeps every table."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    _, report = table_1_page
    page = render_page(report)
    assert "<img" not in page
    assert page.count(NO_PICTURES) == 2
    assert 'pip install "sklearn-mlcm[plot]"' in html.unescape(page)
    assert '<th scope="row" class="name">C2</th>' in page
    assert '<td class="name">C0</td><td class="name">C2</td><td>4</td>' in page


def test_render_page_without_scores_has_no_threshold_section():
    """A report without scores has no threshold section nor link to it, one
    picture, and says how to get intervals when it has none."""
    page = render_page(_table_1())
    assert 'id="threshold"' not in page and "#threshold" not in page
    assert page.count("<img") == 1
    assert (
        "build the report with <code>confidence_level=0.95</code> (on the "
        "command line <code>--confidence-level 0.95</code>) to have them"
    ) in page
    assert '<div class="interval">' not in page


def test_render_page_leaves_matplotlib_as_it_was(table_1_page):
    """Drawing the pictures opens no pyplot figure and changes no setting."""
    import matplotlib
    import matplotlib.pyplot as plt

    _, report = table_1_page
    before = dict(matplotlib.rcParams)
    figures = plt.get_fignums()
    render_page(report)
    assert plt.get_fignums() == figures
    assert dict(matplotlib.rcParams) == before


def test_render_page_from_threads_draws_one_page_at_a_time(table_1_page, monkeypatch):
    """Pages rendered from two threads draw their pictures one at a time, give
    the same page and leave matplotlib's settings as they were (each thread's
    rc_context restored what the other had set: svg.hashsalt stayed
    "sklearn-mlcm" and some pages got random ids)."""
    import threading
    import time

    import matplotlib

    page, report = table_1_page
    before = dict(matplotlib.rcParams)
    drawing, most = [], []
    draw = _page._matrix_picture

    def slow_draw(report):
        drawing.append(None)
        most.append(len(drawing))
        time.sleep(0.2)  # long enough for the other thread to start drawing
        try:
            return draw(report)
        finally:
            drawing.pop()

    monkeypatch.setattr(_page, "_matrix_picture", slow_draw)
    pages = []
    threads = [
        threading.Thread(target=lambda: pages.append(render_page(report)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert max(most) == 1
    assert pages == [page, page]
    assert dict(matplotlib.rcParams) == before


def test_render_page_same_report_same_page(table_1_page):
    """The page is a function of the report: no date, no random ids."""
    page, report = table_1_page
    assert render_page(report) == page


def test_render_page_fractional_counts_krstinic():
    """Krstinić's fractional counts print with decimals, whole ones as
    integers."""
    page = render_page(_table_1(method="krstinic"))
    assert "method krstinic: Krstinić et al. (2020)" in page
    counts = re.findall(
        r'<td class="name">[^<]*</td><td class="name">[^<]*</td><td>([^<]*)</td>',
        page,
    )
    assert counts and any("." in c for c in counts)
    assert all(re.fullmatch(r"\d+|0\.\d+|\d+\.\d\d", c) for c in counts)


def test_render_page_many_labels_are_not_boxed_in():
    """The table of every label is as long as it is, at 30 labels as at 200:
    the page scrolls, no box of fixed height (the boxes only scroll a table
    wider than the page, and are as wide as their table)."""
    rng = np.random.default_rng(2)
    for q in (30, 200):
        y_true, y_pred = rng.random((50, q)) < 0.3, rng.random((50, q)) < 0.3
        report = MLCMReport.from_predictions(y_true, y_pred, zero_division=0.0)
        page = render_page(report, pictures=False)
        assert f"<h3>Every label ({q:,}), in the order of the matrix</h3>" in page
        after = page.split(f"<h3>Every label ({q:,})")[1]
        assert after.split("<table>")[0].endswith('<div class="scroll">')
    assert (
        ".mlcm-report .scroll{width:max-content;max-width:100%;overflow-x:auto;" in page
    )


def test_render_page_title_is_given_and_escaped(table_1_page):
    """title= names the page (its <title> and heading), escaped; the default
    is "Multi-label confusion report"."""
    page, report = table_1_page
    assert "<title>Multi-label confusion report</title>" in page
    assert "<h1>Multi-label confusion report</h1>" in page
    titled = render_page(report, pictures=False, title="<b>a</b> & b.csv")
    assert "<title>&lt;b&gt;a&lt;/b&gt; &amp; b.csv</title>" in titled
    assert "<h1>&lt;b&gt;a&lt;/b&gt; &amp; b.csv</h1>" in titled
    assert "<b>a</b>" not in titled
    assert report.to_html(title="Run 7").count("Run 7") == 2


def test_to_html_title_must_be_text(table_1_page, tmp_path):
    """to_html refuses a title that is not a string, naming the parameter,
    and writes nothing."""
    _, report = table_1_page
    target = tmp_path / "report.html"
    message = (
        r"The 'title' parameter of MLCMReport.to_html must be a str or None\. "
        r"Got 7 instead\."
    )
    with pytest.raises(TypeError, match=message):
        report.to_html(target, title=7)
    assert not target.exists()


def test_write_page_titles_the_file(table_1_page, tmp_path):
    """to_html(path, title=...) writes the titled page."""
    _, report = table_1_page
    target = report.to_html(tmp_path / "report.html", title="true.csv vs pred.csv")
    text = target.read_text(encoding="utf-8")
    assert "<title>true.csv vs pred.csv</title>" in text
    assert "<h1>true.csv vs pred.csv</h1>" in text


def test_render_page_says_scores_are_not_one_vs_rest(table_1_page):
    """Heydarian's page says in one note how its scores differ from
    scikit-learn's one-vs-rest ones; Krstinić's, whose recall is TP /
    support, does not."""
    page, _ = table_1_page
    note = (
        "Heydarian's MLCM charges a missed label to each wrongly predicted "
        "label of its instance, so a label's recall is TP / weight (its row "
        "of the MLCM), not TP / support, and the averages are lower than "
        "scikit-learn's one-vs-rest ones when instances carry many wrong labels"
    )
    assert page.count(note) == 1
    assert note not in render_page(_table_1(method="krstinic"), pictures=False)


def test_render_page_caption_says_how_labels_are_chosen():
    """Above 40 labels the picture's caption says how its labels are ranked
    and that a pair in the table may involve a label outside it."""
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.random((80, 45)) < 0.2, rng.random((80, 45)) < 0.2
    page = render_page(MLCMReport.from_predictions(y_true, y_pred, zero_division=0.0))
    assert (
        "The 40 of 45 labels most involved in confusion, ranked by the total "
        "of each label's confusions with the other labels (its row and column "
        "off the diagonal), with the NTL row (no true label) and the NPL "
        "column (no predicted label). A pair below may involve a label outside "
        "the picture; every label is in the tables."
    ) in page


def test_render_page_in_threads_same_page_same_settings(table_1_page):
    """Pages of one report drawn in 6 threads at once are all the page drawn
    alone, and matplotlib's settings are left as they were (rc_context is
    global: the drawing holds a lock)."""
    import matplotlib

    page, report = table_1_page
    before = dict(matplotlib.rcParams)
    pages, errors = [], []

    def draw():
        try:
            for _ in range(3):
                pages.append(render_page(report))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=draw) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(pages) == 18
    assert all(other == page for other in pages)
    assert dict(matplotlib.rcParams) == before


def test_render_page_does_not_import_pyplot():
    """The page draws on Figure objects: pyplot is never imported (its
    global figure registry and backend stay untouched)."""
    script = (
        "import sys, numpy as np\n"
        "from sklearn_mlcm import MLCMReport\n"
        "rng = np.random.default_rng(0)\n"
        "t, p, s = rng.random((3, 40, 5))\n"
        "report = MLCMReport.from_predictions(t < 0.4, p < 0.4, y_score=s,\n"
        "                                     zero_division=0.0)\n"
        "page = report.to_html()\n"
        "assert page.count('<img') == 2, page.count('<img')\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout == "False\n"


def test_to_html_and_repr_html_are_the_page(table_1_page, tmp_path):
    """MLCMReport.to_html() returns the page, to_html(path) writes it and
    returns the path, and _repr_html_ is the page."""
    page, report = table_1_page
    assert report.to_html() == page
    assert report._repr_html_() == page
    target = tmp_path / "report.html"
    assert report.to_html(target) == target
    assert target.read_text(encoding="utf-8") == page
    assert report.to_html(str(target)) == str(target)


def test_write_page_replaces_a_file_whole(tmp_path):
    """An existing page is replaced by the new one, nothing else is left."""
    target = tmp_path / "report.html"
    target.write_text("an older page")
    report = _table_1()
    assert write_page(report, target) == target
    assert target.read_text(encoding="utf-8") == render_page(report)
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_to_html_onto_a_symlink_writes_its_target(tmp_path):
    """to_html onto a symbolic link writes the page to the link's target and
    keeps the link (the link was replaced by a file, the target left old)."""
    target = tmp_path / "published.html"
    target.write_text("an older page")
    link = tmp_path / "report.html"
    link.symlink_to(target)
    report = _table_1()
    assert report.to_html(link) == link
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == render_page(report)


def test_to_html_dangling_symlink_is_refused(tmp_path):
    """A link to a file in a missing folder is refused, naming that folder;
    the link is left as it was."""
    link = tmp_path / "report.html"
    link.symlink_to(tmp_path / "missing" / "report.html")
    with pytest.raises(ValueError, match="its folder .*missing does not exist"):
        _table_1().to_html(link)
    assert link.is_symlink()


def test_write_page_failing_write_keeps_the_old_file(tmp_path, monkeypatch):
    """A write that fails midway (the disk fills before the rename) leaves
    the old page intact and no temporary file; the OSError names the path."""
    target = tmp_path / "report.html"
    target.write_text("an older page")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files.os, "replace", fail)
    with pytest.raises(OSError, match="No space left on device") as info:
        _table_1().to_html(target)
    assert info.value.filename == str(target)
    assert target.read_text() == "an older page"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_write_page_failing_writer_keeps_the_old_file(tmp_path, monkeypatch):
    """A writer that raises after writing part of the page leaves the old
    page intact and no temporary file."""
    target = tmp_path / "report.html"
    target.write_text("an older page")
    real = _page.write_file

    def half(path, write, **kwargs):
        def broken(file):
            file.write("<!DOCTYPE html>")
            raise MemoryError("out of memory")

        return real(path, broken, **kwargs)

    monkeypatch.setattr(_page, "write_file", half)
    with pytest.raises(MemoryError, match="out of memory"):
        write_page(_table_1(), target)
    assert target.read_text() == "an older page"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.parametrize(
    "where, problem",
    [
        ("folder", "it is a directory"),
        ("missing/report.html", "its folder {tmp}/missing does not exist"),
        ("file.txt/report.html", "its folder {tmp}/file.txt is not a directory"),
        ("", "it is empty"),
    ],
)
def test_to_html_refuses_paths_it_cannot_write(tmp_path, monkeypatch, where, problem):
    """A directory, a missing folder, a regular file in place of a folder (a
    path that cannot be written, even by root) and an empty path are refused
    naming the 'path' parameter, before anything is drawn or written."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    path = str(tmp_path / where) if where else ""
    drawn = []
    monkeypatch.setattr(_page, "render_page", lambda report: drawn.append(1))
    expected = (
        "The 'path' parameter of MLCMReport.to_html must be a file to write "
        f"({problem.format(tmp=tmp_path)}). Got {path!r} instead."
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        _table_1().to_html(path)
    assert drawn == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder"]


def test_to_html_refuses_a_folder_it_cannot_write(tmp_path, monkeypatch):
    """A folder without write permission is refused naming it (os.access
    says so; the tests may run as root, who may write anywhere)."""
    monkeypatch.setattr(_files.os, "access", lambda path, mode: False)
    message = f"its folder {re.escape(str(tmp_path))} is not writable"
    with pytest.raises(ValueError, match=message):
        _table_1().to_html(tmp_path / "report.html")


def test_page_of_983_labels_stays_under_5_mb(shared_data):
    """MULAN delicious (983 labels, real names and truths, simulated scores)
    with intervals: the page lists every name and stays under 5 MB. Every
    resample of its macro recall lies above it (labels whose recall rests on
    one miss charged for dozens of extra labels): its bootstrap-t, below the
    estimate, is widened to reach it and flagged, which warns, with the one
    label that has no true instance."""
    folder = shared_data("mulan/delicious", "delicious-test.arff", "delicious.xml")
    names, y_true = mulan_test_labels(folder, "delicious")
    assert y_true.shape == (3185, 983)
    y_score, y_pred = simulated_scores(y_true)
    shifted = (
        r"^95% intervals flagged, their coverage not held: recall, macro avg: "
        r"bootstrap-t excluded the estimate \(shifted resamples\): widened to "
        r"it; recall of 'TAG_addons': undefined: no true instance\. "
    )
    with pytest.warns(DegenerateDataWarning, match=shifted):
        report = MLCMReport.from_predictions(
            y_true,
            y_pred,
            y_score=y_score,
            target_names=names,
            zero_division=0.0,
            confidence_level=0.95,
            n_resamples=200,
            random_state=0,
        )
    macro = report.report["macro avg"]
    assert macro["recall low"] < macro["recall high"] == macro["recall"]
    page = render_page(report)
    assert len(page.encode("utf-8")) < 5 * 2**20
    rows = re.findall(r'<tr><th scope="row" class="name">([^<]*)</th>', page)
    assert rows[4:] == [html.escape(n) for n in names]
    assert page.count("<img") == 2
    # delicious's wrong label sets (dozens of names each) scroll in their
    # box; the table of every label is as long as it is
    assert page.count('<div class="scroll tall">') == 1
    weight = int(report.report["micro avg"]["weight"])
    assert weight > 1000 and f"<td>{weight:,}</td>" in page  # thousands apart


def test_render_page_perfect_predictions_say_so():
    """Predictions equal to the truth: the page says no label was confused
    and every label set was predicted, instead of empty tables."""
    y = np.array(TABLE_1_TRUE)
    report = MLCMReport.from_predictions(
        y, y, target_names=TABLE_1_NAMES, zero_division=0.0
    )
    page = render_page(report, pictures=False)
    assert "<p>No label was predicted in place of another.</p>" in page
    assert "<p>Every instance's label set was predicted exactly.</p>" in page


def test_render_page_per_label_thresholds_best_row():
    """A curve of per-label thresholds (one row per step) names its best
    row rather than one threshold."""
    y_true = np.array(TABLE_1_TRUE)
    y_score = 0.2 + 0.5 * y_true + 0.2 * np.array(TABLE_1_PRED)
    grid = np.array([[0.1, 0.2, 0.3], [0.5, 0.5, 0.5], [0.8, 0.6, 0.4]])
    report = _table_1(y_score=y_score, thresholds=grid)
    page = render_page(report, pictures=False)
    best = report.threshold_curve.best_index
    score = report.threshold_curve.scores[best]
    assert (
        f"Best row <b>{best}</b> of the per-label thresholds: macro F1 "
        f"{score:.2f} (of 3 rows); <b>in-sample, optimistic</b>"
    ) in page
