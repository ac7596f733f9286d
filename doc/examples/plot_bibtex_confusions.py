"""
=================================================
Analysing confusion in multi-label classification
=================================================

In scikit-learn issue #4126, which asked for a multi-label confusion matrix,
the maintainers suggested an example on analysing the confusion of a
multi-label classifier instead. This is that example, on a real data set with
many labels: MULAN's *bibtex*, 7,395 BibTeX entries of the BibSonomy
social-bookmarking site, each described by 1,836 binary word features and
tagged with some of 159 tags (2.4 on average).

scikit-learn's :func:`~sklearn.metrics.multilabel_confusion_matrix` judges
each tag on its own: it counts the tags missed (false negatives) and the tags
predicted wrongly (false positives), but it cannot say *which* tag was
predicted in place of a missed one. The multi-label confusion matrix (MLCM)
of Heydarian et al. (2022) can: every missed tag lands in the column of the
tag predicted instead, or in the NPL ("no predicted label") column when
nothing was. :func:`~sklearn_mlcm.most_confused` lists its largest cells,
:func:`~sklearn_mlcm.labelset_confusions` the most frequent wrong label sets,
and :class:`~sklearn_mlcm.MLCMDisplay` draws the block of the most confused
tags, clustered.

The data set is not part of the repository: the example reads
``bibtex-train.arff``, ``bibtex-test.arff`` and ``bibtex.xml`` from the
folder ``mulan/bibtex`` of ``SKLEARN_MLCM_DATA`` (default ``../shared/data``,
a relative path being taken from the repository root). MULAN distributes it
on its `data sets page <https://mulan.sourceforge.net/datasets-mlc.html>`_.
Reading it needs ``liac-arff`` (``pip install liac-arff``), as the files are
sparse ARFF, which :func:`scipy.io.arff.loadarff` cannot read.
"""

# %%
# Loading the data
# ----------------
#
# ``bibtex.xml`` names the 159 label attributes of the ARFF files (the tags,
# ``TAG_network`` and so on); the other 1,836 attributes are the word
# features. The files are sparse: each row lists only its non-zero
# attributes. Without the data folder, the example says so and stops here.

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, multilabel_confusion_matrix
from sklearn.multiclass import OneVsRestClassifier

from sklearn_mlcm import (
    MLCMDisplay,
    labelset_confusions,
    mlcm_confusion_matrix,
    most_confused,
)


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_bibtex_confusions.py
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
        rows = arff.load(f, return_type=arff.LOD)[
            "data"
        ]  # one {index: value} per row
    indptr = np.cumsum([0] + [len(row) for row in rows])
    indices = np.fromiter((j for row in rows for j in row), dtype=np.int32)
    values = np.fromiter(
        (int(v) for row in rows for v in row.values()), dtype=float
    )
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
    tags = [
        label.get("name")
        for label in ET.parse(BIBTEX / "bibtex.xml").getroot()
    ]
    with open(BIBTEX / "bibtex-train.arff") as f:
        attributes = [
            line.split()[1]
            for line in f
            if line.lower().startswith("@attribute")
        ]
    is_tag = np.isin(attributes, tags)
    label_columns = [attributes.index(tag) for tag in tags]
    train = load_sparse_arff(BIBTEX / "bibtex-train.arff", len(attributes))
    test = load_sparse_arff(BIBTEX / "bibtex-test.arff", len(attributes))
    X_train, X_test = train[:, ~is_tag], test[:, ~is_tag]
    # int64, not int8: scikit-learn's LabelBinarizer (used by
    # OneVsRestClassifier) mixes up the columns of an int8 indicator matrix
    # of more than 128 labels
    Y_train = train[:, label_columns].toarray().astype(np.int64)
    Y_test = test[:, label_columns].toarray().astype(np.int64)
    names = [tag.removeprefix("TAG_") for tag in tags]
    print(f"train: {X_train.shape[0]}, test: {X_test.shape[0]} entries")
    print(f"{X_train.shape[1]} word features, {len(names)} tags")
    print(f"tags per test entry: {Y_test.sum(axis=1).mean():.2f}")
else:
    print(
        "This example needs MULAN's bibtex data set (bibtex-train.arff,\n"
        "bibtex-test.arff and bibtex.xml) in $SKLEARN_MLCM_DATA/mulan/bibtex\n"
        f"({BIBTEX}),\nwhich is not part of the repository. It was not "
        "found, so the\nexample stops here."
    )

# %%
# A one-vs-rest logistic regression
# ---------------------------------
#
# One logistic regression per tag, on the sparse word features, trains in a
# few seconds. Its predictions on the test split are what the rest of the
# example analyses.

if available:
    classifier = OneVsRestClassifier(
        LogisticRegression(C=4.0, solver="liblinear", random_state=0),
        n_jobs=2,
    )
    Y_pred = classifier.fit(X_train, Y_train).predict(X_test)
    n_predicted = Y_pred.sum(axis=1)
    micro_f1 = f1_score(Y_test, Y_pred, average="micro")
    print(f"tags predicted per test entry: {n_predicted.mean():.2f}")
    print(f"entries with no tag predicted: {(n_predicted == 0).mean():.0%}")
    print(f"scikit-learn micro F1: {micro_f1:.3f}")

# %%
# What the one-vs-rest matrices say
# ---------------------------------
#
# scikit-learn's :func:`~sklearn.metrics.multilabel_confusion_matrix` gives
# one ``[[TN, FP], [FN, TP]]`` matrix per tag. For *network* and *networks*
# it says how often each was missed and how often each was predicted
# wrongly, but not whether the missed *network* went to *networks*, to
# another tag, or to nothing at all.

if available:
    ovr = multilabel_confusion_matrix(Y_test, Y_pred)
    print("tag            TP   FN   FP")
    for tag in ("network", "networks", "semantic", "semanticweb"):
        (tn, fp), (fn, tp) = ovr[names.index(tag)]
        print(f"{tag:<12} {tp:4d} {fn:4d} {fp:4d}")

# %%
# The largest confusions between tags
# -----------------------------------
#
# :func:`~sklearn_mlcm.mlcm_confusion_matrix` builds the ``160 x 160`` MLCM:
# 159 tags and the "no label" index. Most errors of this classifier are
# misses with nothing predicted in their place (the NPL column), which
# :func:`~sklearn_mlcm.most_confused` can leave out
# (``include_no_label=False``) to list the cells between two tags.

if available:
    C = mlcm_confusion_matrix(Y_test, Y_pred)
    tags_block = C[:-1, :-1]
    between = tags_block.sum() - tags_block.trace()
    missed, unlabelled = C[:-1, -1].sum(), C[-1, :-1].sum()
    print(f"off-diagonal counts: {C.sum() - C.trace()}")
    print(f"  between two tags: {between}")
    print(f"  tag missed, nothing predicted (NPL column): {missed}")
    print(f"  tag predicted, entry without tags (NTL row): {unlabelled}")
    print()
    print("true tag         predicted tag    count")
    for true, predicted, count in most_confused(
        C, top_k=15, target_names=names, include_no_label=False
    ):
        print(f"{true:<16} {predicted:<16} {count:5d}")

# %%
# Each line is a tag of the truth and the tag predicted in its place. They
# can be named and explained:
#
# - **network** and **networks**, **semantic** and **semanticweb**: one
#   subject under two spellings, chosen by different BibSonomy users. The
#   words of an entry cannot tell them apart, and the classifier mixes them
#   up in both directions; **ontologies** goes to **ontology** in the same
#   way. These errors are in the tagging more than in the classifier.
# - **objectoriented** and **architecture** go to **software**, a broader
#   tag that 43 of the 99 *objectoriented* entries and 38 of the 93
#   *architecture* entries of the data set also carry; **amperometry** goes
#   to **immunoelectrode**, which 41 of its 98 entries carry too.
# - **dynamics** goes to **topic3**. The tags *topic1* to *topic11* occur
#   only with *statphys23*, the abstracts of the StatPhys 23 conference
#   (presumably its sessions), as do most of the *dynamics* entries: the
#   words of an abstract say little about its session.
#
# The one-vs-rest matrices above show these confusions only as false
# negatives of one tag and false positives of another, with no link between
# them. In the MLCM each missed tag is charged to the column of the tag that
# replaced it, so the list says where the misses went.

# %%
# Which tag sets are mixed up
# ---------------------------
#
# :func:`~sklearn_mlcm.labelset_confusions` counts whole (true set, predicted
# set) pairs. Over all entries, the most frequent are single tags predicted
# as nothing; over the entries with at least one predicted tag, they show
# what the classifier keeps and what it drops.

if available:
    predicted = Y_pred.any(axis=1)
    print(f"{predicted.sum()} of {len(Y_pred)} test entries have a tag")
    for true, pred, count in labelset_confusions(
        Y_test[predicted], Y_pred[predicted], top_k=8, target_names=names
    ):
        true, pred = ", ".join(true), ", ".join(pred)
        print(f"{count:3d}  {{{true}}} -> {{{pred}}}")

# %%
# *apob* (apolipoprotein B) often comes with *ldl* (low-density lipoprotein,
# which apoB carries: 29 of the 54 *ldl* entries are also *apob*) or with
# *antibody*, and the classifier keeps *apob* but drops the companion tag.
# A StatPhys 23 abstract gets *statphys23*
# right and misses its session, *topic1*, *topic7* and so on: the conference
# is easy to recognise, the session is not.

# %%
# Drawing the most confused tags
# ------------------------------
#
# A ``160 x 160`` picture is unreadable: by default the display draws the 40
# tags most involved in confusion with other tags (the largest row plus
# column sums off the diagonal). ``top_k=20`` draws 20 of them, large enough
# to write the counts in the cells, and ``order="cluster"`` puts tags
# confused with each other side by side. The counts are very skewed, a few
# hundred on the diagonal against a few off it, so the display's default
# colour scale is symmetric-logarithmic: the small cells show in colour too.
# The NTL row and the NPL column stay at the edges.

if available:
    display = MLCMDisplay.from_predictions(
        Y_test,
        Y_pred,
        display_labels=names,
        top_k=20,
        order="cluster",
        text_kw={"fontsize": 7},
    )
    print("drawn:", ", ".join(names[i] for i in display.shown_labels_))
    plt.show()

# %%
# The clustered order brings the blocks of the list above together, such as
# *network* next to *networks* and the semantic-web tags side by side, and
# the NPL column on the right shows how much larger the misses with nothing
# in their place are than any confusion between two tags.

# sphinx_gallery_thumbnail_number = 1
