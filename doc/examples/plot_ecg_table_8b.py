"""Heydarian et al. (2022), Table 8 (b): the ECG classifier's MLCM in percent.

Heydarian et al. give the multi-label confusion matrix of an ECG
classifier over nine classes, C0 to C8, as raw counts (Table 8 (a)) and
row-normalised as rounded percentages (Table 8 (b)). The paper gives the
matrix, not the predictions, so this example starts from the counts:
dividing each row by its sum gives, for each true class, where its labels
went; the NTL row (no instance without a true label) stays at zero.

``MLCMDisplay`` draws any square MLCM, raw or normalised; ``values_format=".0%"``
prints the cells as the paper's rounded percentages.

Run it from anywhere: ``python doc/examples/plot_ecg_table_8b.py``.
"""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from sklearn_mlcm import MLCMDisplay

# Table 8 (a): rows are true classes C0..C8 and NTL, columns predicted classes
# C0..C8 and NPL (a true label with nothing predicted in its place).
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


def main():
    # Row-normalise as normalize="true" does: an all-zero row stays zero.
    row_sums = ECG.sum(axis=1, keepdims=True)
    normalized = np.divide(ECG, row_sums, out=np.zeros(ECG.shape), where=row_sums > 0)

    display = MLCMDisplay(normalized, display_labels=[f"C{i}" for i in range(9)])
    display.plot(values_format=".0%", cmap="Blues")
    display.im_.colorbar.formatter = PercentFormatter(xmax=1.0)
    display.ax_.set_title("Heydarian et al. (2022), Table 8 (b)")
    return display


if __name__ == "__main__":
    main()
    plt.show()
