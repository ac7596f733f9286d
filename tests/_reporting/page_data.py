"""Data of the page tests: MULAN label files, simulated scores, and reports.

A module, not a ``conftest.py`` (a second ``conftest`` beside
``tests/conftest.py`` would clash with it in pytest's import mode).
"""

import numpy as np
from mulan_data import mulan_test_labels as mulan_test_labels

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
