"""Eftimov & Kocev (2019), transcribed once for the tests of the comparison half.

T. Eftimov and D. Kocev, "Performance Measures Fusion for Experimental
Comparison of Methods for Multi-label Classification", AAAI-MAKE 2019: the 12
methods and 11 datasets of Madjarov et al. (2012), Tables 2 and 3 (the fused
ranks, complete in the text), Table 4 (average ranks) and Table 5 (their
ranks).
"""

import numpy as np
import pandas as pd

METHODS = [
    "BR",
    "CC",
    "CLR",
    "QWML",
    "HOMER",
    "ML-C4.5",
    "PCT",
    "ML-kNN",
    "RAkEL",
    "ECC",
    "RFML-C4.5",
    "RF-PCT",
]
DATASETS = [
    "emotions",
    "scene",
    "yeast",
    "medical",
    "enron",
    "corel5k",
    "tmc2007",
    "mediamill",
    "bibtex",
    "delicious",
    "bookmarks",
]
# Eftimov & Kocev (2019), Table 2: fused ranks, usual preference function.
TABLE_2 = np.array(
    [
        [7, 10, 8, 11, 5, 3, 4, 12, 6, 9, 2, 1],
        [2, 3, 5, 7, 6, 11, 12, 9, 1, 4, 10, 8],
        [2, 4, 1, 6, 3, 11, 12, 8, 9, 5, 10, 7],
        [8, 5, 3, 1, 2, 4, 12, 10, 7, 9, 11, 6],
        [2, 7, 1, 9, 4, 10, 12, 11, 8, 5, 6, 3],
        [4, 5, 1, 2, 3, 9, 11, 7, 12, 10, 8, 6],
        [3, 1, 4, 5, 6, 11, 12, 10, 7, 9, 8, 2],
        [4, 5, 11, 10, 6, 12, 7, 3, 9, 8, 2, 1],
        [2, 1, 3, 4, 5, 10, 11, 8, 12, 7, 9, 6],
        [4, 3, 10.5, 10.5, 5, 7, 8, 6, 10.5, 10.5, 2, 1],
        [9, 9, 9, 9, 9, 2, 5, 3, 9, 9, 4, 1],
    ]
)
# Eftimov & Kocev (2019), Table 3: fused ranks, V-shape preference function.
TABLE_3 = np.array(
    [
        [8, 10, 9, 11, 5, 3, 4, 12, 6, 7, 2, 1],
        [2, 1, 4, 7, 6, 11, 12, 8, 3, 5, 10, 9],
        [2, 4, 1, 9, 3, 12, 11, 6, 8, 5, 10, 7],
        [10, 9, 2, 1, 4, 3, 12, 6, 7, 8, 11, 5],
        [1, 10, 2, 7, 4, 8, 12, 11, 9, 6, 5, 3],
        [4, 5, 1, 2, 3, 10, 9, 7, 11, 12, 6, 8],
        [3, 2, 4, 6, 5, 11, 12, 10, 7, 8, 9, 1],
        [4, 5, 12, 11, 7, 10, 6, 3, 8, 9, 2, 1],
        [2, 1, 3, 4, 5, 10, 11, 7, 12, 8, 9, 6],
        [4, 3, 10.5, 10.5, 5, 7, 8, 6, 10.5, 10.5, 1, 2],
        [9, 9, 9, 9, 9, 2, 5, 3, 9, 9, 4, 1],
    ]
)
# Eftimov & Kocev (2019), Table 4: average ranks over the datasets with the
# measures left at correlation thresholds 0.7, 0.8, 0.9, and with all of them.
TABLE_4 = np.array(
    [
        [4.82, 4.82, 4.45, 4.45],
        [5.09, 5.18, 5.45, 5.36],
        [5.14, 5.32, 5.23, 5.23],
        [6.77, 6.77, 6.41, 7.05],
        [6.27, 6.55, 6.73, 5.09],
        [8.27, 8.09, 7.91, 7.91],
        [9.09, 9.00, 9.27, 9.27],
        [6.91, 6.91, 6.91, 7.18],
        [8.41, 7.95, 8.50, 8.23],
        [8.59, 8.59, 8.59, 7.95],
        [5.45, 5.45, 5.36, 6.27],
        [3.18, 3.36, 3.18, 4.00],
    ]
)
# Eftimov & Kocev (2019), Table 5: the "practical" ranks of Table 4's columns.
TABLE_5 = np.array(
    [
        [2, 2, 2, 2],
        [3, 3, 5, 5],
        [4, 4, 3, 4],
        [7, 7, 6, 7],
        [6, 6, 7, 3],
        [9, 10, 9, 9],
        [12, 12, 12, 12],
        [8, 8, 8, 8],
        [10, 9, 10, 11],
        [11, 11, 11, 10],
        [5, 5, 4, 6],
        [1, 1, 1, 1],
    ]
)


def rank_frame(table):
    """A table as a DataFrame indexed by dataset, with a column per method."""
    return pd.DataFrame(
        table,
        index=pd.Index(DATASETS, name="dataset"),
        columns=pd.Index(METHODS, name="method"),
    )
