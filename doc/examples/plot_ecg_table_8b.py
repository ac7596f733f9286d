"""
=======================================================
Heydarian et al. (2022), Table 8 (b): an ECG classifier
=======================================================

Heydarian et al. give the multi-label confusion matrix (MLCM) of an ECG
classifier over nine classes, C0 to C8, as raw counts (Table 8 (a)) and
row-normalised as rounded percentages (Table 8 (b)). The paper gives the
matrix, not the predictions, so this example starts from the counts.
"""

# %%
# The counts of Table 8 (a)
# -------------------------
#
# Rows are the true classes C0 to C8 and NTL (no true label), columns the
# predicted classes and NPL (no predicted label: a true label with nothing
# predicted in its place). There is no instance without a true label, so the
# NTL row is empty.

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from sklearn_mlcm import MLCMDisplay

ECG = np.array(
    [
        [58, 1, 0, 1, 0, 5, 4, 2, 3, 7],
        [1, 105, 0, 0, 1, 1, 0, 0, 4, 13],
        [0, 2, 24, 0, 0, 0, 0, 0, 0, 3],
        [1, 1, 1, 9, 0, 4, 1, 0, 0, 4],
        [2, 5, 2, 1, 54, 2, 1, 0, 0, 7],
        [5, 3, 1, 0, 1, 10, 4, 2, 5, 20],
        [1, 0, 0, 5, 4, 9, 48, 6, 2, 24],
        [3, 1, 1, 0, 1, 9, 1, 42, 3, 18],
        [4, 5, 0, 0, 4, 8, 2, 0, 161, 11],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
)

# %%
# Row-normalised, as Table 8 (b)
# ------------------------------
#
# Dividing each row by its sum, as ``normalize="true"`` does, gives for each
# true class where its labels went; an all-zero row stays zero.
# :class:`~sklearn_mlcm.MLCMDisplay` draws any square MLCM, raw or
# normalised, and ``values_format=".0%"`` prints the cells as the paper's
# rounded percentages: every one matches Table 8 (b). The NPL column shows
# how often a true label went with nothing predicted in its place: 39 % of
# C5's.

row_sums = ECG.sum(axis=1, keepdims=True)
normalized = np.divide(
    ECG, row_sums, out=np.zeros(ECG.shape), where=row_sums > 0
)

display = MLCMDisplay(
    normalized, display_labels=[f"C{i}" for i in range(9)]
)
display.plot(values_format=".0%", cmap="Blues")
display.im_.colorbar.formatter = PercentFormatter(xmax=1.0)
display.ax_.set_title("Heydarian et al. (2022), Table 8 (b)")
plt.show()
