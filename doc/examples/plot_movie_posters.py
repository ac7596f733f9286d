"""Movie posters: the MLCM of a real multi-label CNN, 18 genres.

A convolutional network tags 7,209 movie posters with genres out of 18, and
keeps a genre when its sigmoid output is at least 0.9. This is the kind of
classifier of Heydarian et al. (2022), Table 13, though not the same run. The
genre names are not part of the data, so the genres are called C0 to C17, as
in the paper's table. 74 posters have no genre at all: they make up the NTL
row.

The matrix is row-normalised (``normalize="true"``): each row shows where the
true labels of one genre went, on the diagonal when predicted, in another
genre's column when replaced by a wrong prediction, and in the NPL column when
nothing was predicted in their place.

The data is not part of the repository. The script reads ``gt.npy`` (true
genres) and ``pred_t09.npy`` (predictions at threshold 0.9) from the folder
``posters`` of ``SKLEARN_MLCM_DATA``, which defaults to ``../shared/data``; a
relative path is taken from the repository root. Run it as
``python doc/examples/plot_movie_posters.py`` or, with the data elsewhere,
``SKLEARN_MLCM_DATA=/path/to/data python doc/examples/plot_movie_posters.py``.
"""

import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from sklearn_mlcm import MLCMDisplay


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data``, from the repository root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository root>/doc/examples/plot_movie_posters.py
        folder = Path(__file__).resolve().parents[2] / folder
    return folder


def main():
    posters = data_folder() / "posters"
    y_true = np.load(posters / "gt.npy")  # (7209, 18), 0/1
    y_pred = np.load(posters / "pred_t09.npy")  # (7209, 18), 0/1

    display = MLCMDisplay.from_predictions(
        y_true,
        y_pred,
        normalize="true",
        display_labels=[f"C{i}" for i in range(y_true.shape[1])],
        values_format=".0%",
        cmap="Blues",
        # 9 points instead of the default 7.9 for 19 rows: still fits "100%"
        # in a cell, and stays legible when the page scales the figure down
        text_kw={"fontsize": 9},
    )
    display.im_.colorbar.formatter = PercentFormatter(xmax=1.0)
    display.ax_.set_title("Movie posters: row-normalised MLCM, threshold 0.9")
    return display


if __name__ == "__main__":
    main()
    plt.show()
