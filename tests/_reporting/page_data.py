"""Data of the page tests: MULAN label files, simulated scores, and reports.

A module, not a ``conftest.py`` (a second ``conftest`` beside
``tests/conftest.py`` would clash with it in pytest's import mode).
"""

import html
import re

import numpy as np

#: The launch options of Debian's chromium-headless-shell in the tests.
BROWSER = "/usr/bin/chromium-headless-shell"
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Label names that would run script if a page pasted them in unescaped.
HOSTILE_NAMES = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=1</script>",
    'a "quoted" & <b>bold</b> name',
    "it's $5 & 'single'",
]


def mulan_test_labels(folder, name):
    """The labels of a MULAN data set's test split, ``(names, y)``: the names
    from ``NAME.xml``, the 0/1 rows (uint8) from the sparse ARFF
    ``NAME-test.arff``, whose last attributes are the labels."""
    xml = (folder / f"{name}.xml").read_text(encoding="utf-8")
    names = [html.unescape(n) for n in re.findall(r'<label name="([^"]+)"', xml)]
    n_attributes, rows = 0, []
    with open(folder / f"{name}-test.arff", encoding="utf-8") as file:
        for line in file:
            if line.lower().startswith("@attribute"):
                n_attributes += 1
            elif line.startswith("{"):
                rows.append([int(p.split()[0]) for p in line.strip("{}\n").split(",")])
    first = n_attributes - len(names)
    y = np.zeros((len(rows), len(names)), dtype=np.uint8)
    for i, indices in enumerate(rows):
        y[i, [j - first for j in indices if j >= first]] = 1
    return names, y


def simulated_scores(y_true, seed=0):
    """Scores of a fair classifier of ``y_true``: higher for true labels, with
    noise, and a few labels drawn towards others (so that labels are confused
    with each other, not only missed); ``(y_score, y_pred)`` with y_pred the
    scores at 0.5."""
    rng = np.random.default_rng(seed)
    y_true = np.asarray(y_true, dtype=np.float64)
    n, q = y_true.shape
    mixing = np.eye(q) + 0.6 * (rng.random((q, q)) < 2.0 / q)
    signal = np.clip(y_true @ mixing, 0, 1.5)
    y_score = 1 / (1 + np.exp(-(3.0 * signal - 2.2 + rng.normal(0, 0.9, (n, q)))))
    return y_score, (y_score >= 0.5).astype(np.uint8)
