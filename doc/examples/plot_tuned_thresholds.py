"""
==================================================
Tuning the decision thresholds for the MLCM's F1
==================================================

A multi-label classifier gives scores; which labels it *predicts* is decided
by a threshold, and the multi-label confusion matrix (MLCM) of those
predictions changes completely with it. The usual threshold, 0.5 on
``predict_proba``, is nobody's choice: it is what ``predict`` happens to do.
This example compares, on MULAN's *enron* (1,702 e-mails of the Enron
corpus, 1,001 word features, 53 categories, 3.4 per e-mail on average, many
of them rare), three ways of turning a k-nearest-neighbours classifier's
probabilities into label sets:

- the threshold 0.5 for every label;
- one threshold for every label, tuned for the MLCM's macro F1;
- one threshold per label, tuned for the same score.

:class:`~sklearn_mlcm.MLCMTunedThresholdClassifierCV` tunes them honestly:
on out-of-fold probabilities of the *training* split (each training e-mail
scored by a model that did not see it), never on the test split that the
three are compared on. The MLCM's macro F1 is not separable per label (a
wrong label is charged to the true labels of its e-mail), so the per-label
thresholds are found together, by coordinate ascent from the best global
one.

The data set is not part of the repository: the example reads
``enron-train.arff``, ``enron-test.arff`` and ``enron.xml`` from the folder
``mulan/enron`` of ``SKLEARN_MLCM_DATA`` (default ``../shared/data``, a
relative path being taken from the repository root). MULAN distributes it on
its `data sets page <https://mulan.sourceforge.net/datasets-mlc.html>`_.
Reading it needs ``liac-arff`` (``pip install liac-arff``), as the files are
sparse ARFF.
"""

# %%
# Loading the data
# ----------------
#
# ``enron.xml`` names the 53 label attributes of the ARFF files; the other
# 1,001 attributes are 0/1 word features. Without the data folder, the
# example says so and stops here.

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy import sparse
from sklearn.neighbors import KNeighborsClassifier

from sklearn_mlcm import (
    MLCMThresholdCurveDisplay,
    MLCMTunedThresholdClassifierCV,
    decide_labels,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    most_confused,
)


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_tuned_thresholds.py
        try:
            examples = Path(__file__).resolve().parent
        except NameError:  # sphinx-gallery runs the code in doc/examples
            examples = Path.cwd()
        folder = examples.parents[1] / folder
    return folder


def load_sparse_arff(path, n_attributes):
    """The 0/1 rows of a sparse ARFF file, as CSR."""
    import arff  # liac-arff

    with open(path) as f:
        rows = arff.load(f, return_type=arff.LOD)["data"]  # {index: value} per row
    indptr = np.cumsum([0] + [len(row) for row in rows])
    indices = np.fromiter((j for row in rows for j in row), dtype=np.int32)
    values = np.fromiter((int(v) for row in rows for v in row.values()), dtype=float)
    matrix = sparse.csr_array(
        (values, indices, indptr.astype(np.int32)), shape=(len(rows), n_attributes)
    )
    matrix.eliminate_zeros()
    return matrix


ENRON = data_folder() / "mulan" / "enron"
FILES = ("enron-train.arff", "enron-test.arff", "enron.xml")
available = all((ENRON / name).is_file() for name in FILES)

if available:
    labels = [node.get("name") for node in ET.parse(ENRON / "enron.xml").getroot()]
    with open(ENRON / "enron-train.arff") as f:
        attributes = [
            line.split()[1] for line in f if line.lower().startswith("@attribute")
        ]
    is_label = np.isin(attributes, labels)
    label_columns = [attributes.index(label) for label in labels]
    train = load_sparse_arff(ENRON / "enron-train.arff", len(attributes))
    test = load_sparse_arff(ENRON / "enron-test.arff", len(attributes))
    X_train, X_test = train[:, ~is_label], test[:, ~is_label]
    Y_train = train[:, label_columns].toarray().astype(np.int64)
    Y_test = test[:, label_columns].toarray().astype(np.int64)
    names = labels
    print(f"train: {X_train.shape[0]}, test: {X_test.shape[0]} e-mails")
    print(f"{X_train.shape[1]} word features, {len(names)} labels")
    print(f"labels per test e-mail: {Y_test.sum(axis=1).mean():.2f}")
    print(f"labels with fewer than 10 training e-mails: {(Y_train.sum(0) < 10).sum()}")
else:
    print(
        "This example needs MULAN's enron data set (enron-train.arff,\n"
        "enron-test.arff and enron.xml) in $SKLEARN_MLCM_DATA/mulan/enron\n"
        f"({ENRON}),\nwhich is not part of the repository. It was not "
        "found, so the\nexample stops here."
    )

# %%
# The classifier and the three decision rules
# -------------------------------------------
#
# Ten nearest neighbours (cosine distance between the word sets) give, for
# each label, the fraction of the neighbours that carry it: a probability
# in steps of 0.1. At 0.5 a label is predicted when five of the ten
# neighbours carry it, which a rare label seldom reaches.
#
# The tuned estimators wrap the same classifier. ``strategy="global"``
# tunes one threshold; the default, ``strategy="per_label"``, one per label
# (``benchmarks/README.md`` has the comparison that made it the default).
# Both are fitted on the training split only; ``random_state`` seeds the
# shuffled folds of the tuning.

if available:
    knn = KNeighborsClassifier(n_neighbors=10, metric="cosine")
    knn.fit(X_train, Y_train)
    proba = np.column_stack(
        [
            p[:, list(c).index(1)] if 1 in c else np.zeros(len(p))
            for p, c in zip(knn.predict_proba(X_test), knn.classes_)
        ]
    )
    tuned_global = MLCMTunedThresholdClassifierCV(
        knn, strategy="global", random_state=0
    ).fit(X_train, Y_train)
    tuned = MLCMTunedThresholdClassifierCV(knn, random_state=0).fit(X_train, Y_train)
    predictions = {
        "0.5": decide_labels(proba, threshold=0.5),
        "tuned, global": tuned_global.predict(X_test),
        "tuned, per label": tuned.predict(X_test),
    }
    print(f"global threshold: {tuned_global.best_threshold_:.2f}")
    thresholds = tuned.best_threshold_
    print(
        f"per-label thresholds: {thresholds.min():.2f} to {thresholds.max():.2f}, "
        f"median {np.median(thresholds):.2f}"
    )
    for name, y_pred in predictions.items():
        print(f"{name:<17} labels predicted per e-mail: {y_pred.sum(1).mean():.2f}")

# %%
# The scores, with their uncertainty
# ----------------------------------
#
# The MLCM's macro F1 of each rule on the test split, with a 95% bootstrap
# interval over the test e-mails
# (:func:`~sklearn_mlcm.mlcm_confidence_intervals`): the interval says how
# much another sample of e-mails could move the score. The same for the
# micro F1, which pools the labels' counts and so weighs the frequent labels
# more.

if available:
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=False)
    for ax, average in zip(axes, ("macro", "micro")):
        for k, (name, y_pred) in enumerate(predictions.items()):
            result = mlcm_confidence_intervals(
                Y_test,
                y_pred,
                average=average,
                zero_division=0.0,
                n_resamples=2000,
                random_state=0,
            )
            low, high = result.confidence_interval
            estimate = result.estimate
            print(f"{average} F1, {name:<17} {estimate:.3f} [{low:.3f}, {high:.3f}]")
            ax.errorbar(
                k,
                estimate,
                yerr=[[estimate - low], [high - estimate]],
                fmt="o",
                capsize=4,
            )
        ax.set_xticks(range(3), list(predictions), rotation=15)
        ax.set_title(f"MLCM {average} F1 on the test split")
        ax.set_xlim(-0.5, 2.5)
    fig.tight_layout()

# %%
# At 0.5 most rare labels are never predicted: 39 of the 53 labels have an
# F1 of 0. A global threshold low enough for them floods the frequent
# labels with wrong predictions, and gains little; per-label thresholds
# lower the rare labels' thresholds only, and the macro F1 rises by about a
# fifth, beyond the intervals' overlap. The micro F1, which the frequent
# labels dominate, falls: the thresholds were tuned for the macro F1, and
# each score has its own best thresholds (``scoring="mlcm_f1_micro"`` tunes
# for the other). The intervals are wide: the test split has 579 e-mails,
# and a rare label's F1 rests on a handful of them.

# %%
# Where the thresholds went
# -------------------------
#
# Each label's tuned threshold against its number of training e-mails. The
# search starts every label at the global threshold and moves a label's
# only where that raises the score: most labels with a few dozen training
# e-mails go down, some as far as just above 0 (one neighbour of ten
# carrying the label is then enough); a few frequent labels go up; the
# labels that no training e-mail carries have scores of 0 and keep the
# starting threshold (they are never predicted). The probabilities are
# multiples of 0.1, so any threshold between two multiples decides alike.

if available:
    support = Y_train.sum(axis=0)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.scatter(support, thresholds, s=18)
    ax.axhline(0.5, color="grey", linestyle=":", label="0.5")
    ax.axhline(tuned_global.best_threshold_, color="C1", linestyle="--", label="global")
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlim(left=-0.3)
    ax.set_xlabel("training e-mails carrying the label")
    ax.set_ylabel("tuned threshold")
    ax.legend()
    fig.tight_layout()

# %%
# What each rule confuses
# -----------------------
#
# :func:`~sklearn_mlcm.most_confused` lists the largest cells of each rule's
# MLCM off the diagonal between two labels: a true label and the label
# predicted in its place (the labels are the category codes of the data
# set). Lowering thresholds trades misses (the NPL column: nothing predicted
# in place of a true label) for confusions between labels.

if available:
    for name, y_pred in predictions.items():
        cm = mlcm_confusion_matrix(Y_test, y_pred)
        missed = cm[:-1, -1].sum()
        print(f"{name}: {missed} true labels missed with nothing predicted")
        for true, predicted, count in most_confused(cm, top_k=4, target_names=names):
            print(f"    {true:<28} -> {predicted:<28} {count:4d}")

# %%
# The score across thresholds
# ---------------------------
#
# :class:`~sklearn_mlcm.MLCMThresholdCurveDisplay` draws the MLCM's macro F1
# of one threshold for every label, on the test split, beside
# scikit-learn's one-vs-rest macro F1 of the same predictions; the marked
# operating point is the global threshold tuned on the training split. The
# curve is drawn on the test split to show where the tuned threshold
# landed, not to choose it: choosing it there would be tuning on the test.

if available:
    display = MLCMThresholdCurveDisplay.from_predictions(
        Y_test,
        proba,
        thresholds=np.linspace(0.05, 0.95, 19),
        one_vs_rest=True,
        name="10-NN",
        operating_point=tuned_global.best_threshold_,
    )
    display.ax_.axvline(0.5, color="grey", linestyle=":", label="0.5")
    display.ax_.legend()

# %%
# scikit-learn's one-vs-rest macro F1 of the same predictions peaks at a
# much lower threshold, 0.15 to 0.2: one-vs-rest, a wrong label costs only
# its own precision, while the MLCM also charges it to the true labels of
# its e-mail, so the MLCM's score prefers fewer, surer labels. Thresholds
# tuned for one score are not the best for the other.

plt.show()
