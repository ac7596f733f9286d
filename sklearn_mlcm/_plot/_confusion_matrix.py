"""MLCMDisplay: the multi-label confusion matrix as a picture (matplotlib)."""

import importlib.util
from itertools import product

import numpy as np
from sklearn.base import is_classifier

from sklearn_mlcm._legacy_checks import check_option
from sklearn_mlcm._mlcm._dispatch import as_output
from sklearn_mlcm._mlcm._dispatch import compute as _compute
from sklearn_mlcm._mlcm._dispatch import normalize as _normalize

__all__ = ["MLCMDisplay"]

# Above this many rows (labels + the no-label row) the cell values are hidden
# unless include_values=True asks for them: 19 x 19 (the 18 movie-poster genres)
# still reads well, 31 x 31 no longer does at any sensible figure size.
_MAX_ROWS_WITH_VALUES = 30


def _check_matplotlib(caller):
    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError(
            f"{caller} requires matplotlib. You can install it with "
            '`pip install matplotlib` or `pip install "sklearn-mlcm[plot]"`.'
        )


def _figure_size(n_rows, n_cols):
    """Inches: 0.45 per cell plus room for labels, at least matplotlib's 6.4x4.8."""
    return max(6.4, 0.45 * n_cols + 3.0), max(4.8, 0.45 * n_rows + 2.0)


def _default_format(values):
    """Integers as integers; fractions with two decimals."""
    if np.all(values == np.round(values)):
        return "d"
    return ".2f"


def _format_value(value, fmt):
    if fmt == "d":
        return f"{int(round(float(value)))}"
    return format(value, fmt)


class MLCMDisplay:
    """Multi-label confusion matrix visualization.

    Modelled on scikit-learn's
    :class:`~sklearn.metrics.ConfusionMatrixDisplay`, with the "no label"
    row and column of the MLCM: the true axis ends with "NTL" (no true label)
    and the predicted axis with "NPL" (no predicted label), so the row and
    column tick labels differ. It is recommended to create it with
    :meth:`from_predictions` or :meth:`from_estimator`; :meth:`plot` draws it.

    Read more in the :ref:`User Guide <display>`.

    Parameters
    ----------
    confusion_matrix : ndarray of shape (n_labels + 1, n_labels + 1)
        A matrix from :func:`mlcm_confusion_matrix`, raw or normalised.

    display_labels : array-like of shape (n_labels,), default=None
        Names of the labels. By default their indices.

    ntl_label : str, default="NTL"
        Name of the last row, instances with no true label.

    npl_label : str, default="NPL"
        Name of the last column, true labels with no predicted label.

    Attributes
    ----------
    im_ : matplotlib AxesImage
        Image representing the confusion matrix.

    text_ : ndarray of shape (n_rows, n_cols), dtype=matplotlib Text, or None
        Array of matplotlib texts; None when the values are not drawn.

    ax_ : matplotlib Axes
        Axes with the confusion matrix.

    figure_ : matplotlib Figure
        Figure containing the confusion matrix.

    See Also
    --------
    sklearn.metrics.ConfusionMatrixDisplay : The multi-class display; one set
        of labels for both axes and no no-label row or column.
    mlcm_confusion_matrix : The matrix drawn here.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_mlcm import MLCMDisplay
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> disp = MLCMDisplay.from_predictions(
    ...     y_true, y_pred, display_labels=["C0", "C1", "C2"])
    >>> [t.get_text() for t in disp.ax_.get_yticklabels()]
    ['C0', 'C1', 'C2', 'NTL']
    >>> [t.get_text() for t in disp.ax_.get_xticklabels()]
    ['C0', 'C1', 'C2', 'NPL']
    """

    def __init__(
        self, confusion_matrix, *, display_labels=None, ntl_label="NTL", npl_label="NPL"
    ):
        self.confusion_matrix = confusion_matrix
        self.display_labels = display_labels
        self.ntl_label = ntl_label
        self.npl_label = npl_label

    def plot(
        self,
        *,
        include_values="auto",
        cmap="viridis",
        xticks_rotation="auto",
        values_format=None,
        ax=None,
        colorbar=True,
        im_kw=None,
        text_kw=None,
        include_no_label=True,
    ):
        """Plot the visualization.

        Parameters
        ----------
        include_values : bool or "auto", default="auto"
            Write the value of each cell. "auto" writes them when the matrix
            has at most 30 rows and hides them above, where they no longer fit.

        cmap : str or matplotlib Colormap, default="viridis"
            Colormap recognized by matplotlib.

        xticks_rotation : {"auto", "vertical", "horizontal"} or float, \
                default="auto"
            Rotation of the predicted-label tick labels. "auto" is horizontal
            when every label has at most 4 characters and vertical otherwise.

        values_format : str, default=None
            Format specification of the values, e.g. ".0%" for percentages of
            a normalised matrix. By default integers print as integers and
            other values with two decimals (``".2f"``).

        ax : matplotlib Axes, default=None
            Axes to plot on. By default a new figure is created whose size
            grows with the number of labels: 0.45 inch per cell plus 3 inches
            (width) and 2 inches (height) for the labels, at least 6.4 x 4.8.

        colorbar : bool, default=True
            Whether to add a colorbar.

        im_kw : dict, default=None
            Keywords passed to :func:`matplotlib.pyplot.imshow`.

        text_kw : dict, default=None
            Keywords passed to :func:`matplotlib.pyplot.text`.

        include_no_label : bool, default=True
            Draw the NTL row and NPL column; False leaves them out of the
            picture (the matrix itself is unchanged).

        Returns
        -------
        display : MLCMDisplay
            Returns ``self`` with ``im_``, ``text_``, ``ax_`` and ``figure_``.
        """
        _check_matplotlib("MLCMDisplay.plot")
        import matplotlib.pyplot as plt

        cm = np.asarray(self.confusion_matrix)
        if cm.ndim != 2 or cm.shape[0] != cm.shape[1] or cm.shape[0] < 2:
            raise ValueError(
                "The confusion_matrix of MLCMDisplay must be a square (n_labels + "
                f"1, n_labels + 1) matrix with n_labels >= 1. Got shape {cm.shape}."
            )
        n_labels = cm.shape[0] - 1
        if self.display_labels is None:
            names = [str(i) for i in range(n_labels)]
        else:
            names = [str(name) for name in self.display_labels]
            if len(names) != n_labels:
                raise ValueError(
                    "The display_labels of MLCMDisplay must have one name per "
                    f"label: {n_labels} expected, got {len(names)}."
                )
        if include_values not in (True, False, "auto"):
            raise ValueError(
                "The 'include_values' parameter of MLCMDisplay.plot must be True, "
                f"False or 'auto'. Got {include_values!r} instead."
            )
        if not include_no_label:
            cm = cm[:n_labels, :n_labels]
        row_names = names + ([str(self.ntl_label)] if include_no_label else [])
        col_names = names + ([str(self.npl_label)] if include_no_label else [])
        n_rows, n_cols = cm.shape

        new_figure = ax is None
        if new_figure:
            fig, ax = plt.subplots(figsize=_figure_size(n_rows, n_cols))
        else:
            fig = ax.figure

        im_kw = {"interpolation": "nearest", "cmap": cmap, **(im_kw or {})}
        self.im_ = ax.imshow(cm, **im_kw)
        self.text_ = None
        if include_values == "auto":
            include_values = n_rows <= _MAX_ROWS_WITH_VALUES
        if include_values:
            fmt = values_format or _default_format(cm)
            cmap_min, cmap_max = self.im_.cmap(0.0), self.im_.cmap(1.0)
            # text colour from the cell's place in the colour scale, as in
            # scikit-learn: light text on dark cells and dark text on light
            thresh = (cm.max() + cm.min()) / 2.0
            fontsize = float(np.clip(180 / n_rows, 6, 10))
            self.text_ = np.empty(cm.shape, dtype=object)
            for i, j in product(range(n_rows), range(n_cols)):
                color = cmap_max if cm[i, j] < thresh else cmap_min
                kwargs = {
                    "ha": "center",
                    "va": "center",
                    "color": color,
                    "fontsize": fontsize,
                    **(text_kw or {}),
                }
                self.text_[i, j] = ax.text(j, i, _format_value(cm[i, j], fmt), **kwargs)

        if colorbar:
            fig.colorbar(self.im_, ax=ax)
        ax.set(
            xticks=np.arange(n_cols),
            yticks=np.arange(n_rows),
            xticklabels=col_names,
            yticklabels=row_names,
            ylabel="True label",
            xlabel="Predicted label",
        )
        ax.set_ylim((n_rows - 0.5, -0.5))
        if xticks_rotation == "auto":
            longest = max(len(name) for name in col_names)
            xticks_rotation = "horizontal" if longest <= 4 else "vertical"
        plt.setp(ax.get_xticklabels(), rotation=xticks_rotation)
        if new_figure:
            fig.tight_layout()

        self.figure_ = fig
        self.ax_ = ax
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_pred,
        *,
        method="heydarian",
        labels=None,
        sample_weight=None,
        normalize=None,
        display_labels=None,
        ntl_label="NTL",
        npl_label="NPL",
        include_values="auto",
        xticks_rotation="auto",
        values_format=None,
        cmap="viridis",
        ax=None,
        colorbar=True,
        im_kw=None,
        text_kw=None,
        include_no_label=True,
    ):
        """Plot the multi-label confusion matrix given true and predicted labels.

        Read more in the :ref:`User Guide <display>`.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth 0/1 indicators, or 1-D class labels.

        y_pred : same kind and shape as ``y_true``
            Predicted labels.

        method : {"heydarian", "krstinic"}, default="heydarian"
            Which matrix to draw; see :func:`mlcm_confusion_matrix`.

        labels : array-like of shape (n_kept,), default=None
            The labels to keep, in that order.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.

        normalize : {"true", "pred", "all"}, default=None
            Normalise over rows, columns or the whole matrix.

        display_labels : array-like of shape (n_labels,), default=None
            Names of the labels. By default the DataFrame column names, the
            class values of 1-D input, or the column indices.

        ntl_label, npl_label : str, default="NTL", "NPL"
            Names of the no-label row and column.

        include_values, xticks_rotation, values_format, cmap, ax, colorbar, \
im_kw, text_kw, include_no_label
            As in :meth:`plot`.

        Returns
        -------
        display : MLCMDisplay
        """
        _check_matplotlib("MLCMDisplay.from_predictions")
        func_name = "MLCMDisplay.from_predictions"
        check_option(normalize, ("true", "pred", "all", None), "normalize", func_name)
        computed = _compute(
            y_true,
            y_pred,
            method=method,
            labels=labels,
            sample_weight=sample_weight,
            func_name=func_name,
        )
        cm = as_output(computed.matrix, False, func_name)
        if normalize is not None:
            cm = _normalize(cm, normalize)
        display = cls(
            cm,
            display_labels=(
                computed.names if display_labels is None else display_labels
            ),
            ntl_label=ntl_label,
            npl_label=npl_label,
        )
        return display.plot(
            include_values=include_values,
            cmap=cmap,
            xticks_rotation=xticks_rotation,
            values_format=values_format,
            ax=ax,
            colorbar=colorbar,
            im_kw=im_kw,
            text_kw=text_kw,
            include_no_label=include_no_label,
        )

    @classmethod
    def from_estimator(cls, estimator, X, y, **kwargs):
        """Plot the multi-label confusion matrix of a fitted classifier.

        Read more in the :ref:`User Guide <display>`.

        Parameters
        ----------
        estimator : fitted classifier
            A multi-label (or multi-class) classifier; ``estimator.predict(X)``
            gives the predicted labels.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth labels.

        **kwargs
            The keyword arguments of :meth:`from_predictions` (``method``,
            ``labels``, ``sample_weight``, ``normalize``, ``display_labels``
            and the plotting options).

        Returns
        -------
        display : MLCMDisplay
        """
        _check_matplotlib("MLCMDisplay.from_estimator")
        if not is_classifier(estimator):
            raise ValueError(
                "MLCMDisplay.from_estimator only supports classifiers. Got "
                f"{type(estimator).__name__} instead."
            )
        return cls.from_predictions(y, estimator.predict(X), **kwargs)
