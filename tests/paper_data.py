"""The papers' worked examples for every test file.

Heydarian et al. (2022), "MLCM: Multi-Label Confusion Matrix", IEEE Access.
The input, Table 1 (nine instances, three classes), is transcribed once, in
:mod:`sklearn_mlcm._paper_data`, which the command line and the benchmarks
use too. The expected results stay written out here: a test of fidelity to
the paper compares the package with the paper, not with itself.
"""

from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

__all__ = ["TABLE_1_NAMES", "TABLE_1_PRED", "TABLE_1_TRUE", "TABLE_4J"]

# Heydarian et al. (2022), Table 4 (j): the MLCM of Table 1 (rows C0, C1, C2,
# NTL; columns C0, C1, C2, NPL).
TABLE_4J = [[5, 2, 4, 0], [0, 2, 3, 1], [0, 0, 1, 0], [0, 1, 1, 1]]
