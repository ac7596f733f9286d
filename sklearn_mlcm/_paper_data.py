"""The worked example of Heydarian et al. (2022), transcribed once.

Table 1 of "MLCM: Multi-Label Confusion Matrix" (IEEE Access 10, 2022): nine
instances with three classes C0, C1, C2, their true and predicted labels as
0/1 rows (1 = the label is present). The command line prints it, the
benchmarks time it and the tests take it as input; each of them imports it
from here instead of keeping its own copy.

Only the paper's *input* is kept here. What the paper computes from it
(Table 4 (j), the MLCM) is written out where it is checked: in the tests and
in the docstrings, so that a bug cannot be copied into its own expected
value.

Examples
--------
>>> from sklearn_mlcm import mlcm_confusion_matrix
>>> from sklearn_mlcm._paper_data import TABLE_1_PRED, TABLE_1_TRUE
>>> mlcm_confusion_matrix(TABLE_1_TRUE, TABLE_1_PRED)  # Table 4 (j)
array([[5, 2, 4, 0],
       [0, 2, 3, 1],
       [0, 0, 1, 0],
       [0, 1, 1, 1]])
"""

__all__ = ["TABLE_1_NAMES", "TABLE_1_PRED", "TABLE_1_TRUE"]

#: The classes of Table 1, in column order.
TABLE_1_NAMES = ["C0", "C1", "C2"]

#: Heydarian et al. (2022), Table 1: the true labels of instances 1 to 9.
TABLE_1_TRUE = [
    [1, 1, 0],
    [1, 1, 1],
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [1, 1, 0],
]

#: Heydarian et al. (2022), Table 1: the predicted labels of instances 1 to 9.
TABLE_1_PRED = [
    [1, 1, 0],
    [1, 0, 1],
    [0, 0, 0],
    [1, 1, 1],
    [1, 1, 1],
    [0, 1, 1],
    [0, 1, 1],
    [1, 0, 1],
    [0, 0, 1],
]
