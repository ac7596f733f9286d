"""The report's page in a real browser: Chromium, driven by playwright.

The browser is Debian's ``chromium-headless-shell`` (``apt-get install
chromium-headless-shell``; ``playwright install`` downloads a build of its
own, which is not needed); another one can be named with the environment
variable ``SKLEARN_MLCM_BROWSER``. Without playwright or the browser these
tests are skipped, saying why, unless ``SKLEARN_MLCM_REQUIRE_BROWSER=1``
(CI sets it): then they fail, so that CI never skips them silently.
"""

import os
import shutil

import numpy as np
import pytest
from page_data import (
    BROWSER,
    BROWSER_ARGS,
    HOSTILE_NAMES,
    mulan_test_labels,
    simulated_scores,
)

from sklearn_mlcm import MLCMReport

REQUIRE_VARIABLE = "SKLEARN_MLCM_REQUIRE_BROWSER"
BROWSER_VARIABLE = "SKLEARN_MLCM_BROWSER"
WIDTH = 1280


def _unavailable(reason):
    """Skip saying why, or fail when CI requires the browser tests."""
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_VARIABLE}=1 requires the browser tests")
    pytest.skip(f"{reason} (set {REQUIRE_VARIABLE}=1 to make this a failure)")


def _browser_path():
    """The Chromium to drive: SKLEARN_MLCM_BROWSER, else Debian's
    chromium-headless-shell; None when there is none."""
    named = os.environ.get(BROWSER_VARIABLE)
    if named:
        return named if os.path.exists(named) else None
    found = shutil.which("chromium-headless-shell")
    if found:
        return found
    return BROWSER if os.path.exists(BROWSER) else None


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module (starting one takes most of a second)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install playwright)")
    path = _browser_path()
    if path is None:
        _unavailable(
            "no chromium-headless-shell to drive (apt-get install "
            f"chromium-headless-shell, or name one in {BROWSER_VARIABLE})"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        yield chromium
        chromium.close()


class Loaded:
    """A page opened at 1,280 px wide, and every request it made."""

    def __init__(self, browser, path):
        self.page = browser.new_page(viewport={"width": WIDTH, "height": 900})
        self.url = path.resolve().as_uri()
        self.requests = []  # every URL asked for, the page's own included
        self.page.route("**/*", self._route)
        self.page.goto(self.url, wait_until="load")

    def _route(self, route):
        self.requests.append(route.request.url)
        if route.request.url == self.url:
            route.continue_()
        else:
            route.abort()

    def evaluate(self, script):
        return self.page.evaluate(script)

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def bibtex(browser, shared_data, tmp_path_factory):
    """The page of MULAN bibtex's test split (159 labels: real names and
    truths, simulated scores), with intervals, opened in the browser."""
    folder = shared_data("mulan/bibtex", "bibtex-test.arff", "bibtex.xml")
    names, y_true = mulan_test_labels(folder, "bibtex")
    assert y_true.shape == (2515, 159)
    y_score, y_pred = simulated_scores(y_true)
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
    path = report.to_html(tmp_path_factory.mktemp("bibtex") / "bibtex.html")
    loaded = Loaded(browser, path)
    yield loaded, names
    loaded.close()


@pytest.fixture(scope="module")
def hostile(browser, tmp_path_factory):
    """The page of labels named to run script if pasted in unescaped, and one
    long name without a space, opened in the browser."""
    names = [*HOSTILE_NAMES, "a_label_name_without_any_space_" * 6]
    rng = np.random.default_rng(0)
    shape = (60, len(names))
    report = MLCMReport.from_predictions(
        rng.random(shape) < 0.4,
        rng.random(shape) < 0.4,
        y_score=rng.random(shape),
        target_names=names,
        zero_division=0.0,
    )
    path = report.to_html(tmp_path_factory.mktemp("hostile") / "hostile.html")
    loaded = Loaded(browser, path)
    yield loaded, names
    loaded.close()


def test_bibtex_page_pictures_are_drawn(bibtex):
    """Both pictures (matrix and threshold curve) have loaded, with a size;
    an inline SVG, if any, is drawn with a non-zero box."""
    loaded, _ = bibtex
    images = loaded.evaluate(
        "[...document.images].map(i => [i.complete, i.naturalWidth, i.naturalHeight])"
    )
    assert len(images) == 2
    assert all(complete and w > 0 and h > 0 for complete, w, h in images)
    boxes = loaded.evaluate(
        "[...document.querySelectorAll('svg')].map(s => "
        "{const r = s.getBoundingClientRect(); return r.width * r.height})"
    )
    assert all(area > 0 for area in boxes)


def test_bibtex_page_lists_every_label(bibtex):
    """All 159 label names are in the page's text and the report's table."""
    loaded, names = bibtex
    text = loaded.evaluate("document.body.innerText")
    missing = [name for name in names if name not in text]
    assert missing == []
    rows = loaded.evaluate(
        "[...document.querySelectorAll('#report tbody th')].map(t => t.innerText)"
    )
    assert rows[4:] == names


def test_bibtex_page_does_not_scroll_sideways(bibtex):
    """At 1,280 px the page is no wider than the window; every table's box
    would scroll a wider table sideways inside it."""
    loaded, _ = bibtex
    assert loaded.evaluate("document.documentElement.scrollWidth") <= WIDTH
    overflow = loaded.evaluate(
        "[...document.querySelectorAll('.scroll')].map(b => "
        "getComputedStyle(b).overflowX)"
    )
    assert len(overflow) == 4 and set(overflow) == {"auto"}


def test_bibtex_page_label_table_is_read_on_the_page(bibtex):
    """The table of the 159 labels is not boxed in: its box is as tall as
    the table (the page scrolls, not the box) and as wide (no border or
    empty space beside it); the table is narrower than the page."""
    loaded, _ = bibtex
    box, table, page = loaded.evaluate(
        "(() => {const b = document.querySelectorAll('#report .scroll')[1];"
        "const t = b.querySelector('table').getBoundingClientRect();"
        "const r = b.getBoundingClientRect();"
        "return [[r.width, r.height, b.clientHeight, b.scrollHeight],"
        "[t.width, t.height, b.querySelectorAll('tbody tr').length],"
        "document.querySelector('.mlcm-report').clientWidth]})()"
    )
    box_width, box_height, inner_height, scroll_height = box
    table_width, table_height, n_rows = table
    assert n_rows == 159
    assert scroll_height <= inner_height  # nothing hidden below
    assert abs(box_height - table_height) <= 1
    assert abs(box_width - table_width) <= 1
    assert table_width < page - 100


def test_bibtex_page_requests_nothing_but_itself(bibtex):
    """The page loads nothing from anywhere: the only request is the page."""
    loaded, _ = bibtex
    assert loaded.requests == [loaded.url]


def test_request_counting_sees_outside_loads(browser, tmp_path):
    """The counter of the test above does see what a page loads from
    elsewhere (an image, a stylesheet), so that its pass means something."""
    path = tmp_path / "leaky.html"
    path.write_text(
        '<!DOCTYPE html><img src="http://127.0.0.1:9/x.png">'
        '<link rel="stylesheet" href="https://example.invalid/a.css">'
    )
    loaded = Loaded(browser, path)
    try:
        assert loaded.requests == [
            loaded.url,
            "http://127.0.0.1:9/x.png",
            "https://example.invalid/a.css",
        ]
    finally:
        loaded.close()


def test_hostile_names_run_nothing_and_show_as_text(hostile):
    """Label names made of markup run no script: window.__pwned stays
    undefined, each name is in the text as written, no element came out of
    a name, and the page still asks for nothing but itself."""
    loaded, names = hostile
    assert loaded.evaluate("typeof window.__pwned") == "undefined"
    text = loaded.evaluate("document.body.innerText")
    assert [name for name in names if name not in text] == []
    assert loaded.evaluate("document.scripts.length") == 0
    sources = loaded.evaluate("[...document.images].map(i => i.src.slice(0, 19))")
    assert sources == ["data:image/svg+xml;"] * 2  # the two pictures, no other
    assert loaded.requests == [loaded.url]


def test_hostile_name_check_would_catch_a_pasted_name(browser, tmp_path):
    """The same name pasted in unescaped does run (window.__pwned is 1):
    the check above can fail."""
    path = tmp_path / "pasted.html"
    path.write_text(f"<!DOCTYPE html><p>{HOSTILE_NAMES[0]}</p>")
    loaded = Loaded(browser, path)
    try:
        loaded.page.wait_for_function("window.__pwned === 1", timeout=5000)
        assert loaded.evaluate("window.__pwned") == 1
    finally:
        loaded.close()


def test_hostile_page_long_name_wraps(hostile):
    """A 186-character name without a space wraps: the page is no wider
    than the window at 1,280 px."""
    loaded, _ = hostile
    assert loaded.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_missing_browser_skips_unless_required(monkeypatch):
    """Without the browser a test is skipped, saying why; with
    SKLEARN_MLCM_REQUIRE_BROWSER=1 (CI) it fails instead."""
    monkeypatch.delenv(REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="^no browser here \\(set "):
        _unavailable("no browser here")
    monkeypatch.setenv(REQUIRE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="^no browser here, and "):
        _unavailable("no browser here")


def test_browser_path_named_by_the_environment(monkeypatch, tmp_path):
    """SKLEARN_MLCM_BROWSER names the browser; a name that does not exist is
    no browser (the tests then skip or fail, never drive another one)."""
    monkeypatch.setenv(BROWSER_VARIABLE, str(tmp_path / "missing"))
    assert _browser_path() is None
    monkeypatch.setenv(BROWSER_VARIABLE, str(tmp_path))
    assert _browser_path() == str(tmp_path)
