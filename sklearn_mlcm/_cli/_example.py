"""The command without arguments: the worked example of Heydarian et al. (2022).

Table 1's nine instances (from :mod:`sklearn_mlcm._paper_data`), their MLCM
(the paper's Table 4 (j)), scikit-learn's one-vs-rest totals beside the
MLCM's (Tables 2 (d) and 7 (e)) and the classification report, each computed
by the library when it is printed.
"""

import numpy as np
from sklearn.metrics import multilabel_confusion_matrix

from sklearn_mlcm import (
    mlcm_classification_report,
    mlcm_confusion_matrix,
    mlcm_multilabel_confusion_matrix,
)
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

from ._format import format_instances, format_mlcm, format_table, indent
from ._parser import PROG

__all__ = ["example"]


def example(args=None):
    """Print the worked example of Heydarian et al. (2022), Table 1."""
    y_true, y_pred = np.array(TABLE_1_TRUE), np.array(TABLE_1_PRED)
    names = TABLE_1_NAMES
    cm = mlcm_confusion_matrix(y_true, y_pred)
    sklearn_sum = multilabel_confusion_matrix(y_true, y_pred).sum(axis=0)
    mlcm_sum = mlcm_multilabel_confusion_matrix(y_true, y_pred, tn="diagonal").sum(0)
    report = mlcm_classification_report(
        y_true, y_pred, target_names=names, zero_division=0.0
    )

    counts = format_table(
        [
            [str(a), str(b)]
            for a, b in zip(sklearn_sum.ravel(), mlcm_sum.ravel(), strict=True)
        ],
        ["TN", "FP", "FN", "TP"],
        ["scikit-learn", "MLCM"],
    )
    instances = format_instances(names, TABLE_1_TRUE, TABLE_1_PRED)
    print(f"""\
MLCM: Multi-Label Confusion Matrix (Heydarian, Doyle and Samavi,
IEEE Access 10, 2022): the worked example of Table 1.

Nine instances with three classes C0, C1, C2 (1 = the label is present):

{indent(instances)}

The MLCM (Table 4 (j)). Rows are true labels, columns predicted labels.
The NTL row (no true label) counts predictions for instances without a
true label; the NPL column (no predicted label) counts true labels missed
while nothing wrong was predicted. Instance 7, true C0 but predicted C1
and C2, adds one to (C0, C1) and one to (C0, C2).

{indent(format_mlcm(cm, names))}

The one-vs-rest counts, summed over the labels. scikit-learn's
multilabel_confusion_matrix looks at one label at a time, so its 5 false
negatives and 9 false positives do not pair up (Table 2 (d)). The MLCM
charges each missed label to the label predicted in its place: FN = FP
(Table 7 (e), from mlcm_multilabel_confusion_matrix with the paper's
TN, tn="diagonal").

{indent(counts)}

The classification report read off the MLCM. "weight" is the MLCM row sum
(Table 12), "support" the number of instances with the label. "micro avg"
pools the three labels' MLCM counts the way scikit-learn pools its
one-vs-rest counts (the counts differ, and so can the scores); the paper's
micro average also pools NTL and NPL (average="micro_all" of the scores).
"samples avg" is scikit-learn's mean of each instance's own precision,
recall and F1; an undefined ratio counts 0 there: all three for
instance 3 (no true and no predicted label), the recall of instance 6
(no true label).

{indent(report.rstrip())}

On your own labels: {PROG} report TRUE PRED, each file a CSV of 0/1
values (optionally with a header row of label names) or a .npy array.
See {PROG} report --help.""")
