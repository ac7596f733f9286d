"""
==========================================
Reporting an evaluation on a real data set
==========================================

Needs the ``study`` extra, ``pip install "sklearn-mlcm[study]"`` (liac-arff
reads MULAN's ARFF files; pandas and matplotlib), and the MULAN *bibtex*
files (below).

A multi-label evaluation is more than one number: the matrix, the scores of
every label and how sure they are, which labels are confused with which, and
at which threshold the scores should be cut. :class:`~sklearn_mlcm.MLCMReport`
computes all of them once, from one set of predictions and scores, and keeps
them as one object to read in a notebook, paste into a paper (markdown,
LaTeX), analyse further (a pandas frame) or send to a colleague (one HTML
page). See :ref:`reporting`.

This example evaluates a one-vs-rest logistic regression on MULAN's *bibtex*
(BibTeX entries of the BibSonomy site, 1,836 binary word features, 159 tags),
with bootstrap intervals and the classifier's probabilities.

The data set is not part of the repository: the example reads
``bibtex-train.arff``, ``bibtex-test.arff`` and ``bibtex.xml`` from the
folder ``mulan/bibtex`` of ``SKLEARN_MLCM_DATA`` (default ``../shared/data``,
a relative path being taken from the repository root), as the example
:ref:`sphx_glr_auto_examples_plot_bibtex_confusions.py` does. Reading them
needs ``liac-arff`` (in the ``study`` extra, or ``pip install liac-arff``).
"""

# %%
# Loading the data
# ----------------
#
# ``bibtex.xml`` names the 159 tag attributes of the sparse ARFF files; the
# other attributes are the word features. Without the data folder, the
# example says so and stops here.

import html
import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier

from sklearn_mlcm import MLCMReport


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_bibtex_report.py
        try:
            examples = Path(__file__).resolve().parent
        except NameError:  # sphinx-gallery runs the code in doc/examples
            examples = Path.cwd()
        folder = examples.parents[1] / folder
    return folder


def load_sparse_arff(path, n_attributes):
    """The 0/1 rows of a sparse ARFF file, as CSR (int32 indices)."""
    import arff  # liac-arff

    with open(path) as f:
        rows = arff.load(f, return_type=arff.LOD)["data"]  # {index: value}
    indptr = np.cumsum([0] + [len(row) for row in rows])
    indices = np.fromiter((j for row in rows for j in row), dtype=np.int32)
    values = np.fromiter((int(v) for row in rows for v in row.values()), dtype=float)
    matrix = sparse.csr_array(
        (values, indices, indptr.astype(np.int32)),
        shape=(len(rows), n_attributes),
    )
    matrix.eliminate_zeros()
    return matrix


BIBTEX = data_folder() / "mulan" / "bibtex"
FILES = ("bibtex-train.arff", "bibtex-test.arff", "bibtex.xml")
available = all((BIBTEX / name).is_file() for name in FILES)

if available:
    tags = [label.get("name") for label in ET.parse(BIBTEX / "bibtex.xml").getroot()]
    with open(BIBTEX / "bibtex-train.arff") as f:
        attributes = [
            line.split()[1] for line in f if line.lower().startswith("@attribute")
        ]
    is_tag = np.isin(attributes, tags)
    label_columns = [attributes.index(tag) for tag in tags]
    train = load_sparse_arff(BIBTEX / "bibtex-train.arff", len(attributes))
    test = load_sparse_arff(BIBTEX / "bibtex-test.arff", len(attributes))
    X_train, X_test = train[:, ~is_tag], test[:, ~is_tag]
    # int64: scikit-learn's LabelBinarizer mixes up the columns of an int8
    # indicator matrix of more than 128 labels
    Y_train = train[:, label_columns].toarray().astype(np.int64)
    Y_test = test[:, label_columns].toarray().astype(np.int64)
    names = [tag.removeprefix("TAG_") for tag in tags]
    print(f"train: {X_train.shape[0]}, test: {X_test.shape[0]} entries, ", end="")
    print(f"{len(names)} tags")
else:
    print(
        "This example needs MULAN's bibtex data set (bibtex-train.arff,\n"
        "bibtex-test.arff and bibtex.xml) in $SKLEARN_MLCM_DATA/mulan/bibtex\n"
        f"({BIBTEX}),\nwhich is not part of the repository. It was not "
        "found, so the\nexample stops here."
    )

# %%
# One report of a fitted classifier
# ---------------------------------
#
# :meth:`~sklearn_mlcm.MLCMReport.from_estimator` predicts the test split,
# reads the classifier's probabilities (``predict_proba``) for the threshold
# curve, counts the ``160 x 160`` matrix once, and draws 2,000 bootstrap
# resamples for the intervals of every precision, recall and F1 (BCa, the
# default). A tag that the classifier never predicts has no precision: with
# ``zero_division=0.0`` it counts 0 and no warning is printed. Its ``repr``
# is the summary: the size of the evaluation, the averages with their
# intervals, the largest confusion between two tags and the best threshold.

if available:
    classifier = OneVsRestClassifier(
        LogisticRegression(C=4.0, solver="liblinear", random_state=0), n_jobs=2
    ).fit(X_train, Y_train)
    start = time.perf_counter()
    report = MLCMReport.from_estimator(
        classifier,
        X_test,
        Y_test,
        target_names=names,
        zero_division=0.0,
        confidence_level=0.95,
        n_resamples=2000,
        random_state=0,
    )
    print(f"built in {time.perf_counter() - start:.1f} s")
    print(report)

# %%
# The micro F1 and the macro F1 differ: the frequent tags are predicted
# better than the rare ones (a mean F1 of 0.32 over the quarter of the tags
# with the most positives, 0.20 over the quarter with the fewest), and the
# macro average weighs every tag alike. The best threshold of the macro F1
# is well below the 0.5 that ``predict`` uses: at 0.5 the classifier
# predicts half as many tags as there are (0.7 % of the entry-tag pairs,
# against 1.5 % in the truth).
#
# Tables to paste
# ---------------
#
# :meth:`~sklearn_mlcm.MLCMReport.to_markdown` gives a table of every tag and
# every average (:meth:`~sklearn_mlcm.MLCMReport.to_latex` the same for a
# paper); here its head.

if available:
    lines = report.to_markdown().splitlines()
    print("\n".join(lines[:7]))
    print(f"... ({len(lines) - 7} more lines: the other tags, then the averages)")

# %%
# A frame to analyse
# ------------------
#
# :meth:`~sklearn_mlcm.MLCMReport.to_frame` holds the same numbers, one row
# per tag and per average, with a ``low`` and a ``high`` column per score.
# Which tags does the test split say least about? The widest F1 intervals
# belong to the rarest tags: a handful of positives cannot pin a score down.

if available:
    frame = report.to_frame()
    tags_only = frame[frame["kind"] == "label"]
    width = tags_only["f1-score high"] - tags_only["f1-score low"]
    columns = ["f1-score", "f1-score low", "f1-score high", "support"]
    widest = tags_only.assign(width=width)[columns + ["width"]].nlargest(5, "width")
    print(widest.round(2))
    print()
    print(f"median support of the 159 tags: {tags_only['support'].median():.0f}")

# %%
# The picture
# -----------
#
# :meth:`~sklearn_mlcm.MLCMReport.plot` draws the stored matrix, nothing
# computed again. At 159 tags it draws the 40 most involved in confusion
# (the title says so), clustered so that tags confused with each other sit
# side by side.

if available:
    display = report.plot(order="cluster")
    display.figure_.set_size_inches(11, 10)
    plt.show()

# %%
# The blocks are those of the example
# :ref:`sphx_glr_auto_examples_plot_bibtex_confusions.py`: the semantic-web
# tags (*web*, *semanticweb*, *semantic*, *annotation*), the sessions of the
# StatPhys 23 conference (*topic3*, *topic7*, *dynamics*, *model*) and the
# software-engineering tags each confused among themselves; the brightest
# column is NPL, the tags missed with nothing in their place.
#
# :meth:`~sklearn_mlcm.MLCMReport.plot_threshold_curve` draws the macro F1
# across thresholds, with the best one marked.

if available:
    curve = report.plot_threshold_curve()
    plt.show()

# %%
# One page to share
# -----------------
#
# :meth:`~sklearn_mlcm.MLCMReport.to_html` writes all of it as one HTML page
# that loads nothing from outside (its pictures are embedded), lists every
# tag, and reads in a browser window of 1,280 px; in Jupyter the report
# shows as that page. The command line writes the same page from two label
# files: ``sklearn-mlcm report true.csv pred.csv --confidence-level 0.95
# --html bibtex.html``.

if available:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        path = report.to_html(Path(folder) / "bibtex.html")
        seconds = time.perf_counter() - start
        page = path.read_text(encoding="utf-8")
    print(f"written in {seconds:.1f} s: {len(page.encode()) / 1e6:.2f} MB")
    external = re.findall(r'(?:src|href)="(?:https?:)?//', page)
    print(f"all 159 tags on the page: {all(html.escape(n) in page for n in names)}")
    print(f"addresses of other sites in src or href: {len(external)}")

# sphinx_gallery_thumbnail_number = 1
