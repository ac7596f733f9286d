"""
=====================================
Is this classifier really better?
=====================================

Two classifiers are trained on MULAN's *yeast* (genes of the yeast
*Saccharomyces cerevisiae*, 103 expression features, 14 functional classes,
4.2 per gene on average) and evaluated on its 917 test genes. One of them
scores a little higher. Is it really better, or would another sample of
genes have said the opposite?

:func:`~sklearn_mlcm.mlcm_paired_comparison` answers on the test set itself:
both classifiers predicted the same genes, so their scores are compared
pair by pair. The paired bootstrap draws genes with replacement (the same
draw for both classifiers) for an interval of the difference; the
permutation test swaps the two classifiers' predictions of random genes for
a p-value. Per label, the p-values are corrected for the 14 tests (Holm).

The data set is not part of the repository: the example reads
``yeast-train.arff``, ``yeast-test.arff`` and ``yeast.xml`` from the folder
``mulan/yeast`` of ``SKLEARN_MLCM_DATA`` (default ``../shared/data``, a
relative path being taken from the repository root). MULAN distributes it
on its `data sets page <https://mulan.sourceforge.net/datasets-mlc.html>`_.
Reading it needs ``liac-arff`` (``pip install liac-arff``).
"""

# %%
# Loading the data and training two classifiers
# ---------------------------------------------
#
# ``yeast.xml`` names the 14 label attributes; the others are the features.
# A one-vs-rest logistic regression (A) and a 10-nearest-neighbours
# classifier (B), both on standardised features, are trained on the train
# split. Without the data folder, the example says so and stops here.

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_mlcm import mlcm_paired_comparison


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_is_it_better.py
        try:
            examples = Path(__file__).resolve().parent
        except NameError:  # sphinx-gallery runs the code in doc/examples
            examples = Path.cwd()
        folder = examples.parents[1] / folder
    return folder


def load_arff(path, label_names):
    """Features and 0/1 labels of a dense ARFF file, labels by name."""
    import arff  # liac-arff

    with open(path) as f:
        content = arff.load(f)
    names = [attribute[0] for attribute in content["attributes"]]
    data = np.array(content["data"], dtype=float)
    label_columns = [names.index(name) for name in label_names]
    features = np.setdiff1d(np.arange(len(names)), label_columns)
    return data[:, features], data[:, label_columns].astype(np.int64)


YEAST = data_folder() / "mulan" / "yeast"
FILES = ("yeast-train.arff", "yeast-test.arff", "yeast.xml")
available = all((YEAST / name).is_file() for name in FILES)

if available:
    classes = [
        label.get("name") for label in ET.parse(YEAST / "yeast.xml").getroot()
    ]
    X_train, Y_train = load_arff(YEAST / "yeast-train.arff", classes)
    X_test, Y_test = load_arff(YEAST / "yeast-test.arff", classes)
    print(f"train {X_train.shape}, test {X_test.shape}, {len(classes)} classes")

    logistic = make_pipeline(
        StandardScaler(),
        OneVsRestClassifier(LogisticRegression(max_iter=1000)),
    ).fit(X_train, Y_train)
    neighbours = make_pipeline(
        StandardScaler(), KNeighborsClassifier(n_neighbors=10)
    ).fit(X_train, Y_train)
    pred_a, pred_b = logistic.predict(X_test), neighbours.predict(X_test)
else:
    print(
        "This example needs MULAN's yeast data set (yeast-train.arff,\n"
        "yeast-test.arff and yeast.xml) in $SKLEARN_MLCM_DATA/mulan/yeast\n"
        f"({YEAST}),\nwhich is not part of the repository. It was not found, "
        "so the\nexample stops here."
    )

# %%
# The overall difference
# ----------------------
#
# The macro-averaged F1 read off the MLCM. ``zero_division=0.0`` scores a
# label that a classifier never predicts as 0 without a warning.

if available:
    result = mlcm_paired_comparison(
        Y_test,
        pred_a,
        pred_b,
        metric="f1",
        average="macro",
        target_names=classes,
        zero_division=0.0,
        n_resamples=9999,
        random_state=0,
    )
    difference, pvalue = result
    low, high = result.confidence_interval
    print(f"macro F1, logistic regression (A): {result.score_a:.4f}")
    print(f"macro F1, 10 nearest neighbours (B): {result.score_b:.4f}")
    print(
        f"A - B = {difference:+.4f}, 95% CI [{low:+.4f}, {high:+.4f}], "
        f"p = {pvalue:.3f}"
    )

# %%
# A scores higher, but the interval straddles zero and the p-value is far
# from small: on 917 genes, the two classifiers cannot be told apart by
# their macro F1. Another test sample of the same size could well rank them
# the other way.
#
# Per label: a forest plot
# ------------------------
#
# Each label's difference with its 95 % interval, sorted by the difference.
# A filled marker is a difference significant at 5 % after Holm's
# correction for the 14 tests; a hollow one is not. Label supports are shown
# beside the names: intervals are wide where positives are few.

if available:
    order = np.argsort(result.label_differences)
    label_low, label_high = result.label_confidence_interval
    support = Y_test.sum(axis=0)
    significant = result.label_pvalues_corrected < 0.05
    positions = np.arange(len(order))

    fig, ax = plt.subplots(figsize=(7, 6.5), layout="constrained")
    ax.axvline(0, color="0.5", linewidth=1)
    for y, k in zip(positions, order):
        colour = "tab:blue" if result.label_differences[k] > 0 else "tab:red"
        ax.plot([label_low[k], label_high[k]], [y, y], color=colour, linewidth=2)
        ax.plot(
            result.label_differences[k],
            y,
            "o",
            color=colour,
            markerfacecolor=colour if significant[k] else "white",
            markersize=7,
        )
    overall = len(order) + 0.8
    ax.plot([low, high], [overall, overall], color="black", linewidth=2)
    ax.plot(difference, overall, "D", color="black", markerfacecolor="white")
    ax.axhline(len(order) - 0.1, color="0.8", linewidth=1)
    ax.set_yticks(
        [*positions, overall],
        [f"{classes[k]} (n={support[k]})" for k in order]
        + [f"macro F1 (p={pvalue:.2f})"],
    )
    ax.set_xlabel("F1 difference, logistic regression minus 10-NN (95% CI)")
    ax.set_title("Yeast: per-label F1 differences on the test set")
    ax.text(
        0.99,
        0.01,
        "filled: significant at 5% after Holm",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=8,
        color="0.3",
    )
    plt.show()

# %%
# Which labels differ?
# --------------------
#
# The numbers the plot is drawn from, as the result prints them: the
# overall difference, then each label's scores, difference, interval and
# the uncorrected and corrected p-values side by side, named by
# ``target_names`` (past 20 labels it would list the 20 smallest p-values;
# ``result.to_frame()`` has them all).

if available:
    print(result)

# %%
# Two labels would pass a test at 5 % on their own: Class1, where the
# logistic regression is better, and Class5, where the nearest neighbours
# are. After Holm's correction for the 14 tests only Class1 remains
# (p = 0.027); Class5's 0.012 becomes 0.16, as one of 14 chances to be
# wrong.
#
# Class14 has 13 positives: the logistic regression catches one of them
# and the nearest neighbours none, a difference of 0.06 with a p-value of
# 1. Every swap moves that single hit to one side or the other, so no swap
# gives a smaller difference than the one observed. Its bootstrap interval
# stops at 0 for a related reason: B never predicts Class14, so no resample
# can make B better there. On labels this rare neither number says much.
#
# This comparison says nothing about another data set, nor about another
# training sample: for that, compare the classifiers on many data sets, with
# :func:`~sklearn_mlcm.friedman_test` and :func:`~sklearn_mlcm.nemenyi_test`.
