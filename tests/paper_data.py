"""The papers' worked examples, transcribed once for every test file.

Heydarian et al. (2022), "MLCM: Multi-Label Confusion Matrix", IEEE Access:
Table 1 (nine instances, three classes) and Table 4 (j), its MLCM.
"""

# Heydarian et al. (2022), Table 1: true and predicted labels of C0, C1, C2.
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
# Heydarian et al. (2022), Table 4 (j): the MLCM of Table 1 (rows C0, C1, C2,
# NTL; columns C0, C1, C2, NPL).
TABLE_4J = [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]
