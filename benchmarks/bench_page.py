"""Time writing the report's HTML page, and how much of it is the pictures.

The reports are built first (not timed here; see the report's own
benchmark), each on real label names and truths:

- ``posters``: the movie posters of ``$SKLEARN_MLCM_DATA/posters`` (7,209
  instances, 18 genres, the network's predictions at 0.5), no scores;
- ``bibtex``: MULAN bibtex's test split (2,515 x 159);
- ``delicious``: MULAN delicious's test split (3,185 x 983);

the two MULAN sets with scores simulated from the truth (a fair classifier
that confuses some labels with others; tests/_reporting/page_data.py) and
their predictions at 0.5; all three with 95% BCa intervals from
``--resamples`` resamples (2,000 by default).

For each, the page is written with ``MLCMReport.to_html(path)`` (the first
call, which imports matplotlib, apart), rendered without pictures, and its two
pictures drawn alone; the table gives the best of ``--repeat`` runs in
seconds, the share of the pictures, and the page's size. Targets: bibtex's
page under 2 s, delicious's under 5 s, any page under 5 MB.

``--screenshots DIR`` also opens each page in Chromium (Debian's
chromium-headless-shell, through playwright) at 1,280 px and saves a
full-page screenshot ``DIR/page-NAME.png``.

Run from the repository root::

    python benchmarks/bench_page.py [--cases bibtex delicious posters]
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "_reporting"))
sys.path.insert(0, str(ROOT / "tests"))  # mulan_data, which page_data imports

from page_data import (  # noqa: E402
    BROWSER,
    BROWSER_ARGS,
    mulan_test_labels,
    simulated_scores,
)

from sklearn_mlcm import MLCMReport  # noqa: E402
from sklearn_mlcm._reporting import _page  # noqa: E402

CASES = ("posters", "bibtex", "delicious")


def _report(name, data, resamples):
    """The report of a case, and a line saying what it holds."""
    options = {
        "zero_division": 0.0,
        "confidence_level": 0.95,
        "n_resamples": resamples,
        "random_state": 0,
    }
    if name == "posters":
        y_true = np.load(data / "posters" / "gt.npy")
        y_pred = np.load(data / "posters" / "pred_t05.npy")
        return MLCMReport.from_predictions(y_true, y_pred, **options)
    names, y_true = mulan_test_labels(data / "mulan" / name, name)
    y_score, y_pred = simulated_scores(y_true)
    return MLCMReport.from_predictions(
        y_true, y_pred, y_score=y_score, target_names=names, **options
    )


def _best(func, repeat):
    """The best of ``repeat`` timings of ``func()``, in seconds: wall-clock
    and this process's CPU time (which another process's load on the machine
    hardly changes)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        func()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def _pictures_alone(report):
    """Draw the two pictures as the page does (matrix, then curve)."""
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "x"}):
        _page._matrix_picture(report)
        if report.threshold_curve is not None:
            _page._curve_picture(report)


def _screenshot(path, out):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=BROWSER, args=BROWSER_ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(Path(path).resolve().as_uri(), wait_until="load")
        width = page.evaluate("document.documentElement.scrollWidth")
        page.screenshot(path=str(out), full_page=True)
        browser.close()
    return width


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(os.environ.get("SKLEARN_MLCM_DATA", ROOT / "../shared/data")),
        help="the shared data folder (default: $SKLEARN_MLCM_DATA)",
    )
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--screenshots", type=Path, default=None)
    args = parser.parse_args(argv)

    header = (
        f"{'case':<10} {'labels':>6} {'first':>11} {'page':>11} {'tables':>11} "
        f"{'pictures':>11} {'share':>6} {'size MB':>8}"
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average before: {load} on {os.cpu_count()} cores")
    print(header)
    print("-" * len(header))
    folder = Path(tempfile.mkdtemp(prefix="bench-page-"))
    for name in args.cases:
        report = _report(name, args.data.resolve(), args.resamples)
        path = folder / f"{name}.html"
        first = _best(lambda: report.to_html(path), 1)
        page = _best(lambda: report.to_html(path), args.repeat)
        tables = _best(lambda: _page.render_page(report, pictures=False), args.repeat)
        pictures = _best(lambda: _pictures_alone(report), args.repeat)
        size = path.stat().st_size / 2**20
        cells = " ".join(
            f"{wall:>5.2f}/{cpu:<5.2f}" for wall, cpu in (first, page, tables, pictures)
        )
        print(
            f"{name:<10} {len(report.target_names):>6} {cells} "
            f"{pictures[1] / page[1]:>6.0%} {size:>8.2f}"
        )
        if args.screenshots is not None:
            args.screenshots.mkdir(parents=True, exist_ok=True)
            out = args.screenshots / f"page-{name}.png"
            width = _screenshot(path, out)
            print(f"{'':<10} screenshot {out} (page width {width} px at 1,280)")
    print(
        "\nseconds, wall-clock/CPU; first: the first to_html(path) of the "
        "process (imports matplotlib); page: to_html(path), best of the "
        "repeats; tables: the page without pictures; pictures: the two "
        "pictures alone (share: of the page's CPU time)"
    )


if __name__ == "__main__":
    main()
