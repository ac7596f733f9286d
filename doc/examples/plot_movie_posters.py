"""
=================================================
Movie posters: a convolutional network, 18 genres
=================================================

Real predictions of a convolutional network that tags 7,209 movie posters
with genres out of 18, keeping a genre when its sigmoid output is at least
0.9: the kind of classifier of Heydarian et al. (2022), Table 13, though not
the same run. The genre names are not part of the data, so the genres are
called C0 to C17, as in the paper's table. 74 posters have no genre at all:
they make up the NTL row.

The data is not part of the repository. The example reads ``gt.npy`` (true
genres) and ``pred_t09.npy`` (predictions at threshold 0.9) from the folder
``posters`` of ``SKLEARN_MLCM_DATA``, which defaults to ``../shared/data``; a
relative path is taken from the repository root.
"""

# %%
# Loading the predictions
# -----------------------
#
# Without the data folder, the example says so and stops here.

import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from sklearn_mlcm import MLCMDisplay


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_movie_posters.py
        try:
            examples = Path(__file__).resolve().parent
        except NameError:  # sphinx-gallery runs the code in doc/examples
            examples = Path.cwd()
        folder = examples.parents[1] / folder
    return folder


POSTERS = data_folder() / "posters"
available = all(
    (POSTERS / name).is_file() for name in ("gt.npy", "pred_t09.npy")
)

if available:
    y_true = np.load(POSTERS / "gt.npy")  # (7209, 18), 0/1
    y_pred = np.load(POSTERS / "pred_t09.npy")  # (7209, 18), 0/1
    print(f"{y_true.shape[0]} posters, {y_true.shape[1]} genres")
    print(f"posters with no genre: {(y_true.sum(axis=1) == 0).sum()}")
else:
    print(
        "This example needs the movie-poster predictions (gt.npy and\n"
        "pred_t09.npy) in $SKLEARN_MLCM_DATA/posters\n"
        f"({POSTERS}),\nwhich is not part of the repository. They were "
        "not found, so the\nexample stops here."
    )

# %%
# The row-normalised matrix
# -------------------------
#
# With ``normalize="true"`` each row shows where the true labels of one genre
# went: on the diagonal when predicted, in another genre's column when
# replaced by a wrong prediction, and in the NPL column when nothing was
# predicted in their place.
#
# The network predicts C7 for every poster, while only half of the posters
# carry it, and the picture shows what that costs: C7's column holds the
# largest cell of 17 of the 19 rows, NTL included, and 55 % of the
# off-diagonal counts of the raw matrix, against 8 % for the NPL column.

if available:
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
    display.ax_.set_title(
        "Movie posters: row-normalised MLCM, threshold 0.9"
    )
    plt.show()
