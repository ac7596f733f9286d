"""MLCMDisplay: the multi-label confusion matrix as a picture (matplotlib)."""

import math
import numbers
from itertools import product

import numpy as np
from scipy import sparse
from sklearn.base import is_classifier

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS, mlcm_confusion_matrix
from sklearn_mlcm._param_validation import (
    HasMethods,
    Interval,
    InvalidInputError,
    Options,
    Sequence,
    current_function,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._plot._support import check_matplotlib_support
from sklearn_mlcm._plot._top_confusions import most_confused_labels, resolve_top_k
from sklearn_mlcm._validation._array_api import array_api_namespace, to_numpy
from sklearn_mlcm._validation._frames import frame_columns, read_frame
from sklearn_mlcm._validation._label_space import check_indicator_labels, label_values
from sklearn_mlcm._validation._matrices import check_square_matrix
from sklearn_mlcm._validation._targets import check_target_names

__all__ = ["MLCMDisplay"]

#: The most labels drawn from a sparse matrix, which is made dense to be drawn:
#: 5,001 x 5,001 cells are 200 MB of float64.
MAX_DISPLAY_LABELS = 5000

# Above this many rows (labels + the no-label row) the cell values are hidden
# unless include_values=True asks for them: 19 x 19 (the 18 movie-poster genres)
# still reads well, 31 x 31 no longer does at any sensible figure size.
_MAX_ROWS_WITH_VALUES = 30
# include_values=True is refused above this many rows: 10,000 texts already
# take seconds and a hundred MB to lay out (a million would take hours and GB).
_MAX_ROWS_WITH_FORCED_VALUES = 100
# Above this many rows only every k-th tick is labelled (and the NTL/NPL one):
# a thousand tick labels are unreadable and slow to lay out. The image is then
# drawn "antialiased" (matplotlib smooths cells smaller than 3 pixels instead
# of dropping whole rows, as "nearest" does).
_MAX_ROWS_WITH_ALL_TICKS = 60
_THINNED_TICKS = 25  # about as many ticks when thinned
# The default figure: 0.45 inch per cell plus room for the tick labels, at
# least matplotlib's 6.4 x 4.8 and at most 12 x 10 inches (1200 x 1000 pixels at
# the default 100 dpi), whatever the number of labels.
_CELL_INCHES = 0.45
_MIN_FIGSIZE = (6.4, 4.8)
_MAX_FIGSIZE = (12.0, 10.0)
# The default colour scale (the Notes of MLCMDisplay.plot): linear while the
# largest cell is at most this many times the smallest non-zero one, else
# symmetric-logarithmic, linear below that smallest non-zero cell...
_LINEAR_SPAN = 10.0
# ... but over at most this many decades below the largest cell (weights of
# 1e-9 beside counts of 1,000 would spread the colours over 12 decades).
_MAX_DECADES = 4


def _figure_size(n_rows, n_cols):
    """Inches of the default figure, bounded by ``_MIN_FIGSIZE``/``_MAX_FIGSIZE``."""
    width = _CELL_INCHES * n_cols + 3.0
    height = _CELL_INCHES * n_rows + 2.0
    return (
        float(np.clip(width, _MIN_FIGSIZE[0], _MAX_FIGSIZE[0])),
        float(np.clip(height, _MIN_FIGSIZE[1], _MAX_FIGSIZE[1])),
    )


def _tick_positions(n):
    """Every position up to ``_MAX_ROWS_WITH_ALL_TICKS``; above, a round step
    (1, 2 or 5 times a power of ten) and always the last (NTL/NPL) one."""
    if n <= _MAX_ROWS_WITH_ALL_TICKS:
        return np.arange(n)
    raw = (n - 1) / _THINNED_TICKS
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    ticks = list(range(0, n - 1, step))
    if n - 1 - ticks[-1] < step / 2:  # keep the last tick clear of the one before
        ticks.pop()
    return np.array([*ticks, n - 1])


def _cell_points(ax, n_rows, n_cols):
    """The side of a cell in points, before the layout is tightened."""
    box = ax.get_position()
    width, height = ax.figure.get_size_inches()
    return 72 * min(box.width * width / n_cols, box.height * height / n_rows)


def _tick_fontsize(ax, n_rows, n_cols):
    """10 points, smaller (down to 6) when every tick of small cells shows."""
    if max(n_rows, n_cols) > _MAX_ROWS_WITH_ALL_TICKS:
        return 8.0
    return float(np.clip(0.8 * _cell_points(ax, n_rows, n_cols), 6, 10))


def _default_norm(cm, vmin, vmax):
    """The colour scale of a matrix drawn without ``im_kw["norm"]``.

    Linear (matplotlib's ``Normalize``) for an all-zero matrix and while the
    largest cell (or ``vmax``) is at most ``_LINEAR_SPAN`` times the smallest
    non-zero one; above, ``SymLogNorm`` linear from 0 to the smallest non-zero
    cell (``linthresh``, 1 for counts; at least ``vmax / 10**_MAX_DECADES``)
    and logarithmic (base 10) above it (``linscale=1``), from 0 (or ``vmin``)
    to the largest cell (or ``vmax``). ``vmin`` and ``vmax`` are im_kw's.
    """
    from matplotlib import colors

    positive = cm[cm > 0]
    top = float(cm.max()) if vmax is None else float(vmax)
    if positive.size == 0 or top <= _LINEAR_SPAN * float(positive.min()):
        return colors.Normalize(vmin=vmin, vmax=vmax)
    linthresh = max(float(positive.min()), top * 10.0**-_MAX_DECADES)
    # from 0, not from the smallest cell: a matrix without zeros would draw
    # its smallest cell (say 1) in the colour of nothing
    return colors.SymLogNorm(
        linthresh=linthresh,
        linscale=1.0,
        vmin=0.0 if vmin is None else vmin,
        vmax=vmax,
        base=10,
    )


def _log_ticks(norm):
    """The colour-bar ticks of the default symmetric-log scale: 0, then
    1, 2 and 5 times the powers of ten (only the powers above three decades)
    from its ``linthresh`` to its ``vmax``; none in the linear part, where
    they would crowd near 0."""
    low, high = norm.linthresh, norm.vmax
    subs = (1, 2, 5) if high <= 1000 * low else (1,)
    ticks = [0.0]
    for power in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for sub in subs:
            tick = float(f"{sub}e{power}")  # exact decimal: 0.1, not 0.1000...2
            if low * (1 - 1e-9) <= tick <= high * (1 + 1e-9):
                ticks.append(tick)
    return ticks


def _plain_tick(value, _position=None):
    """A colour-bar tick as a plain number: ``1,000``, ``10``, ``0.001``
    (a symmetric-log bar would say ``10^3``)."""
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:.3g}"


def _percent_tick(value, _position=None):
    """A colour-bar tick of a log scale as a percentage: ``0.1%``, ``10%``."""
    return _plain_tick(round(100 * value, 12)) + "%"


def _relative_luminance(rgb):
    """WCAG 2 relative luminance of sRGB colours (..., 3) in [0, 1]."""
    rgb = np.asarray(rgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def _light_text(image, cm, ax):
    """Per cell, whether the colour map's high end (rather than its low end)
    contrasts more with the cell's colour as drawn: through the image's norm
    and colour map, a masked cell (zero under a log norm) or a transparent
    one over the axes' background. Contrast is WCAG's ratio of relative
    luminances, ``(L1 + 0.05) / (L2 + 0.05)``."""
    from matplotlib import colors

    rgba = np.asarray(image.cmap(image.norm(cm)), dtype=np.float64)
    alpha = rgba[..., 3:]
    if isinstance(image.get_alpha(), numbers.Real):
        alpha = alpha * image.get_alpha()
    background = np.array(colors.to_rgb(ax.get_facecolor()))
    cell = _relative_luminance(rgba[..., :3] * alpha + background * (1 - alpha))
    low, high = (_relative_luminance(image.cmap(end)[:3]) for end in (0.0, 1.0))

    def contrast(text):
        return (np.maximum(cell, text) + 0.05) / (np.minimum(cell, text) + 0.05)

    return contrast(high) > contrast(low)


def _check_mathtext(names, parameter):
    """Refuse, when ``plot()`` is called, a name that matplotlib would fail to
    draw: text between two unescaped "$" is mathtext, and a wrong one (such
    as ``"$\\foo$"``) raised only when the figure was drawn or saved."""
    from matplotlib import cbook
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    parser = None
    for name in names:
        if not cbook.is_math_text(name):
            continue
        parser = parser or MathTextParser("path")
        try:
            parser.parse(name, 72, FontProperties())
        except ValueError:
            raise invalid_parameter(
                parameter,
                "names matplotlib can draw: valid mathtext between '$' signs, "
                "or each '$' escaped as '\\$'",
                name,
            ) from None


def _formats_fractions(fmt):
    try:
        format(0.5, fmt)
    except (ValueError, TypeError):
        return False
    return True


def _values_formatter(cm, values_format):
    """``(values, fmt)``: integers as int64 with "d", fractions with ".2f".

    A format that does not apply to the values ("d" for fractions) is refused,
    rather than printing every fraction rounded to 0 or 1.
    """
    integral = cm.dtype.kind in "biu" or bool(np.all(cm == np.round(cm)))
    values, default = cm, ("d" if integral else ".2f")
    if integral and cm.dtype.kind == "f" and cm.size and np.abs(cm).max() >= 2.0**63:
        # whole numbers past int64 (weights of 1e19): a cast to int64 would
        # print -9223372036854775808. Three significant digits fit a cell;
        # "d" asked for prints the Python ints, exactly.
        default = ".3g"
        if values_format is not None:
            values = np.array([int(v) for v in cm.ravel().tolist()], dtype=object)
            values = values.reshape(cm.shape)
    elif integral:
        values = cm.astype(np.int64)
    fmt = values_format or default
    try:
        format(values.flat[0], fmt)
    except (ValueError, TypeError):
        raise invalid_parameter(
            "values_format",
            "a format of fractional numbers (such as '.2f' or '.0%'): the "
            "matrix holds fractions",
            values_format,
        ) from None
    return values, fmt


def _check_values_format(arguments):
    """``values_format`` is a format specification of numbers."""
    fmt = arguments["values_format"]
    if fmt is None:
        return
    for sample in (1, 0.5):
        try:
            format(sample, fmt)
            return
        except (ValueError, TypeError):
            pass
    raise invalid_parameter(
        "values_format", "a format specification such as 'd', '.2f' or '.0%'", fmt
    )


def _check_classifier(arguments):
    """``estimator`` is a scikit-learn classifier."""
    estimator = arguments["estimator"]
    try:
        classifier = is_classifier(estimator)
    except AttributeError:  # no scikit-learn estimator tags
        classifier = False
    if not classifier:
        raise invalid_parameter(
            "estimator",
            "a fitted scikit-learn classifier (is_classifier(estimator) is True)",
            estimator,
        )


def _check_display_matrix(confusion_matrix):
    """The matrix as an int64 or float64 array (or CSR array) of at least
    2 x 2 cells; a sparse matrix stays sparse until it is drawn."""
    caller = current_function()
    cm = check_square_matrix(confusion_matrix, name="confusion_matrix")
    if cm.shape[0] < 2:
        raise InvalidInputError(
            f"confusion_matrix of {caller} must have shape (n_labels + 1, "
            f"n_labels + 1) with n_labels >= 1. Got shape {cm.shape}."
        )
    return cm


def _dense(cm, n_labels):
    """The matrix (of ``n_labels`` drawn labels) as a dense array: a sparse
    matrix is made dense only up to MAX_DISPLAY_LABELS labels."""
    if not sparse.issparse(cm):
        return cm
    if n_labels > MAX_DISPLAY_LABELS:
        raise InvalidInputError(
            f"{current_function()} draws at most {MAX_DISPLAY_LABELS} labels: "
            f"a sparse matrix is made dense to be drawn. Got {n_labels} labels. "
            "Draw a subset of them: top_k=... of from_predictions or "
            "from_estimator (the labels most involved in confusion, see "
            "most_confused_labels), or labels=[...]."
        )
    return cm.toarray()


def _subset_title(n_shown, n_labels, top_k, order):
    """The axes title saying which labels are shown, in which order (None
    when all are drawn in their order, as in ConfusionMatrixDisplay; ``top_k``
    is resolved: "auto" of at most 40 labels is None)."""
    if top_k is None and order != "cluster":
        return None
    if n_shown < n_labels:
        title = f"MLCM: {n_shown:,} of {n_labels:,} labels most involved in confusion"
    else:
        title = f"MLCM: all {n_labels:,} labels"
    if order == "cluster":
        title += ", clustered"
    return title


_LABEL_CONSTRAINTS = {
    "display_labels": [Sequence(), None],
    "ntl_label": [str],
    "npl_label": [str],
}

_PLOT_CONSTRAINTS = {
    "include_values": ["boolean", Options("auto")],
    "cmap": [str, HasMethods("reversed")],  # a name or a matplotlib Colormap
    "xticks_rotation": [
        Options("auto", "vertical", "horizontal"),
        Interval(numbers.Real, None, None),
    ],
    "values_format": [str, None],
    "ax": [HasMethods("imshow"), None],  # a matplotlib Axes
    "colorbar": ["boolean"],
    "im_kw": [dict, None],
    "text_kw": [dict, None],
    "include_no_label": ["boolean"],
}

_PREDICTION_CONSTRAINTS = {
    **{k: v for k, v in TARGET_CONSTRAINTS.items() if k not in ("y_true", "y_pred")},
    "normalize": [Options("true", "pred", "all"), None],
    **_LABEL_CONSTRAINTS,
    **_PLOT_CONSTRAINTS,
    # the selection of the labels drawn, made by the constructors
    "top_k": [Interval(numbers.Integral, 1, None), Options("auto"), None],
    "order": [Options("original", "cluster")],
}


class MLCMDisplay:
    """Multi-label confusion matrix visualization.

    Modelled on scikit-learn's
    :class:`~sklearn.metrics.ConfusionMatrixDisplay`, with the "no label"
    row and column of the MLCM: the true axis ends with "NTL" (no true label)
    and the predicted axis with "NPL" (no predicted label), so the row and
    column tick labels differ. It is recommended to create it with
    :meth:`from_predictions` or :meth:`from_estimator`, which compute the
    matrix and pick the labels to draw (``top_k``, ``order``): by default
    every label up to 40, and the 40 most involved in confusion above, so
    that the picture stays readable at any label count; :meth:`plot` draws
    the matrix it is given, on a symmetric-log colour scale when its cells
    span more than a decade (see :meth:`plot`).

    Read more in the :ref:`User Guide <display>`.

    Parameters
    ----------
    confusion_matrix : {ndarray, sparse matrix} of shape (n_labels + 1, \
            n_labels + 1)
        A matrix from :func:`mlcm_confusion_matrix`, raw or normalised, or
        its block of some labels and the no-label index (see
        :func:`most_confused_labels`). A sparse matrix
        (``sparse_output=True``) is made dense to be drawn, up to 5,000
        labels. Under ``array_api_dispatch``, a matrix of any Array API
        namespace, copied to the host to be drawn.

    display_labels : array-like of shape (n_labels,), default=None
        The labels' values (class values, column names), drawn as ``str``
        of each, unique once surrounding whitespace is stripped and, when
        the NTL row and NPL column are drawn, neither ``ntl_label`` nor
        ``npl_label``. By default their indices. As in matplotlib, text
        between two "$" signs is mathtext: :meth:`plot` refuses a name that is
        not valid mathtext (escape a "$" as ``"\\$"`` to draw it as is).

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

    shown_labels_ : ndarray of shape (n_shown,), dtype=int64
        Set by :meth:`from_predictions` and :meth:`from_estimator`: indices
        of the labels drawn (rows of the matrix they computed), top to
        bottom: all of them in order by default, fewer with ``top_k``,
        reordered with ``order="cluster"``.

    See Also
    --------
    sklearn.metrics.ConfusionMatrixDisplay : The multi-class display; one set
        of labels for both axes and no no-label row or column.
    mlcm_confusion_matrix : The matrix drawn here.
    most_confused_labels : The labels the constructors draw with ``top_k``
        and ``order``.

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

    Its cells (0 to 5) span less than a decade: the colour scale is linear.

    >>> type(disp.im_.norm).__name__
    'Normalize'

    Sixty labels, with a diagonal of about 90 and confusions of a few: the
    default draws the 40 most involved in confusion, on a symmetric-log
    scale from the smallest non-zero cell, 1:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = (rng.random((1000, 60)) < 0.1).astype(int)
    >>> Y_pred = Y ^ (rng.random(Y.shape) < 0.01)
    >>> disp = MLCMDisplay.from_predictions(Y, Y_pred)
    >>> disp.ax_.get_title()
    'MLCM: 40 of 60 labels most involved in confusion'
    >>> type(disp.im_.norm).__name__, disp.im_.norm.linthresh
    ('SymLogNorm', 1.0)

    The two labels most confused with other labels (row + column - 2 x
    diagonal of the labels' block ``[[5, 2, 4], [0, 2, 3], [0, 0, 1]]`` of this
    MLCM: 6, 5 and 7 for C0, C1 and C2), confused ones side by side:

    >>> disp = MLCMDisplay.from_predictions(
    ...     y_true, y_pred, display_labels=["C0", "C1", "C2"], top_k=2,
    ...     order="cluster")
    >>> disp.ax_.get_title()
    'MLCM: 2 of 3 labels most involved in confusion, clustered'
    >>> disp.shown_labels_
    array([0, 2])
    >>> [t.get_text() for t in disp.ax_.get_yticklabels()]
    ['C0', 'C2', 'NTL']
    """

    @validate_params(
        {"confusion_matrix": ["array-like", "sparse matrix"], **_LABEL_CONSTRAINTS}
    )
    def __init__(
        self, confusion_matrix, *, display_labels=None, ntl_label="NTL", npl_label="NPL"
    ):
        self.confusion_matrix = confusion_matrix
        self.display_labels = display_labels
        self.ntl_label = ntl_label
        self.npl_label = npl_label

    @validate_params(_PLOT_CONSTRAINTS, rules=(_check_values_format,))
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

        Draws ``confusion_matrix`` with ``display_labels`` as they are: the
        labels to draw, and their order, are chosen when the display is made
        (``top_k`` and ``order`` of :meth:`from_predictions` and
        :meth:`from_estimator`, or :func:`most_confused_labels`).

        Parameters
        ----------
        include_values : bool or "auto", default="auto"
            Write the value of each cell. "auto" writes them when the matrix
            has at most 30 rows and hides them above, where they no longer fit;
            True is refused above 100 rows (too many texts to lay out).

        cmap : str or matplotlib Colormap, default="viridis"
            Colormap recognized by matplotlib.

        xticks_rotation : {"auto", "vertical", "horizontal"} or float, \
                default="auto"
            Rotation of the predicted-label tick labels. "auto" is horizontal
            when the tick labels fit side by side and vertical otherwise.

        values_format : str, default=None
            Format specification of the values, e.g. ".0%" for percentages of
            a normalised matrix. By default integers print as integers and
            other values with two decimals (``".2f"``). An integer format
            (``"d"``) is refused for a matrix of fractions.

        ax : matplotlib Axes, default=None
            Axes to plot on. By default a new figure is created whose size
            grows with the number of labels, 0.45 inch per cell plus 3 inches
            (width) and 2 inches (height) for the labels, from 6.4 x 4.8 to at
            most 12 x 10 inches. Above 60 rows only about 25 ticks are
            labelled, and the NTL/NPL ones.

        colorbar : bool, default=True
            Whether to add a colorbar, as high as the matrix.

        im_kw : dict, default=None
            Keywords passed to :func:`matplotlib.pyplot.imshow`. The default
            interpolation is "nearest", and "antialiased" on the counts
            (``interpolation_stage="data"``) above 60 rows: cells smaller than
            3 pixels are smoothed rather than dropped. The default colour
            scale (``norm``) is chosen from the matrix (see Notes): linear
            while the largest cell is at most 10 times the smallest non-zero
            one, symmetric-logarithmic above, so that the confusions show
            beside a much larger diagonal. A ``"norm"`` of ``im_kw`` takes
            precedence: ``{"norm": "linear"}`` (or None) draws the linear
            scale of scikit-learn's display; ``vmin`` and ``vmax`` without a
            norm bound the default one.

        text_kw : dict, default=None
            Keywords passed to :func:`matplotlib.pyplot.text`.

        include_no_label : bool, default=True
            Draw the NTL row and NPL column; False leaves them out of the
            picture (the matrix itself is unchanged).

        Returns
        -------
        display : MLCMDisplay
            Returns ``self`` with ``im_``, ``text_``, ``ax_`` and ``figure_``.

        Notes
        -----
        The default colour scale. Let ``m`` be the smallest non-zero cell and
        ``M`` the largest (or ``vmax``). If the matrix is all zeros or
        ``M <= 10 * m``, the scale is linear (matplotlib's ``Normalize``).
        Otherwise it is ``SymLogNorm(linthresh=max(m, M / 10**4),
        linscale=1, base=10, vmin=0)``: linear from 0 to ``m`` (1 for
        counts), then logarithmic up to ``M``, so that a cell of 1, a cell
        of 10 and the diagonal's hundreds each get their own colour, and
        zeros keep the lowest one.
        Its colour bar reads plain numbers (0, 1, 2, 5, 10, ... up to three
        decades, 0, 1, 10, 100, 1,000 above), or percentages with a
        ``values_format`` such as ".0%".

        Why: on real predictions the diagonal and the NPL column hold 10 to
        1,000 times the counts of the confusions between labels, which the
        linear scale draws all in its lowest colours. Drawn both ways with
        the default ``top_k``:

        - MULAN bibtex (40 of 159 labels, one-vs-rest logistic regression;
          cells up to 88): linear shows the diagonal and the NPL column
          only; symmetric-log shows each confusion of one entry or more, and
          the pairs of related tags (network, networks; semantic,
          semanticweb).
        - delicious (40 of 983 labels, 10 nearest neighbours; up to 714):
          linear shows the diagonal and faint columns; symmetric-log shows
          the tags predicted in place of many (reference, software, tools,
          web), and dark zero cells in the rows of another topic (java,
          linux, mac, osx) where the other rows have a few confusions.
        - 1,000 synthetic labels, each sometimes predicted as the next one:
          linear shows the diagonal only; symmetric-log shows that band of
          confusions beside it, and the scattered single ones.
        - The 18 movie-poster genres (a weak classifier, cells of tens to
          thousands, all written in the cells): linear shows one bright cell;
          symmetric-log shows the genres predicted for most posters (whole
          columns) and the rows most confused.
        - The paper's 3 labels (cells 0 to 5, within a decade): linear, as
          the paper draws it; a log scale would make 4 and 5 look alike.

        :class:`~matplotlib.colors.PowerNorm` (square root) left confusions
        of one or two instances next to invisible at 159 and 983 labels, and
        :class:`~matplotlib.colors.LogNorm` cannot draw zeros (masked, drawn
        as the background, so that 1 is darker than 0).

        The text of a cell is drawn in whichever end of the colour map
        contrasts more with the cell's colour as drawn (WCAG's contrast
        ratio of relative luminances), so that it stays readable under any
        norm.
        """
        check_matplotlib_support()
        from matplotlib.colors import SymLogNorm
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
        from mpl_toolkits.axes_grid1 import make_axes_locatable

        cm = _check_display_matrix(self.confusion_matrix)
        n_labels = cm.shape[0] - 1
        # the rows and columns drawn: told apart, the NTL/NPL ones included
        names = check_target_names(
            [str(i) for i in range(n_labels)]
            if self.display_labels is None
            else self.display_labels,
            n_labels,
            name="display_labels",
            no_label=(self.ntl_label, self.npl_label) if include_no_label else (),
            renamable=True,
        )
        if not include_no_label:  # the labels' block: a view, or a CSR copy
            cm = cm[:n_labels, :n_labels]
        cm = _dense(cm, n_labels)
        _check_mathtext(names, "display_labels")
        _check_mathtext([self.ntl_label], "ntl_label")
        _check_mathtext([self.npl_label], "npl_label")
        if include_no_label:
            row_names = [*names, self.ntl_label]
            col_names = [*names, self.npl_label]
            ylabel = f"True label ({self.ntl_label}: no true label)"
            xlabel = f"Predicted label ({self.npl_label}: no predicted label)"
        else:
            row_names, col_names = names, names
            ylabel, xlabel = "True label", "Predicted label"
        n_rows, n_cols = cm.shape
        if include_values == "auto":
            include_values = n_rows <= _MAX_ROWS_WITH_VALUES
        elif include_values and n_rows > _MAX_ROWS_WITH_FORCED_VALUES:
            raise invalid_parameter(
                "include_values",
                f"False or 'auto' for a matrix of more than "
                f"{_MAX_ROWS_WITH_FORCED_VALUES} rows ({n_rows} here: too many "
                "cell texts to lay out)",
                include_values,
            )
        if include_values:
            values, fmt = _values_formatter(cm, values_format)

        if ax is None:
            # pyplot only for a figure of its own: drawn on a given axes (the
            # page's), the display leaves pyplot unimported and untouched
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(figsize=_figure_size(n_rows, n_cols))
            new_figure = True
        else:
            fig, new_figure = ax.figure, False

        default_im_kw = {"interpolation": "nearest", "cmap": cmap}
        if max(n_rows, n_cols) > _MAX_ROWS_WITH_ALL_TICKS:
            # cells smaller than 3 pixels are smoothed, on the counts ("data"
            # stage): the "rgba" stage would copy a 5,001 x 5,001 matrix as
            # RGBA floats (+1.2 GB instead of +0.2 GB)
            default_im_kw.update(
                interpolation="antialiased", interpolation_stage="data"
            )
        im_kw = {**default_im_kw, **(im_kw or {})}
        default_norm = "norm" not in im_kw  # a norm of im_kw, even None, wins
        if default_norm:
            # vmin/vmax go into the norm: matplotlib refuses them beside one
            im_kw["norm"] = _default_norm(
                cm, im_kw.pop("vmin", None), im_kw.pop("vmax", None)
            )
        self.im_ = ax.imshow(cm, **im_kw)
        log_scale = default_norm and isinstance(self.im_.norm, SymLogNorm)
        self.text_ = None
        if include_values:
            cmap_min, cmap_max = self.im_.cmap(0.0), self.im_.cmap(1.0)
            # text colour from the cell's colour as drawn (through the norm,
            # so that vmin/vmax and the log scale count): whichever end of the
            # colour map contrasts more, light text on dark cells
            self.im_.autoscale_None()
            light = _light_text(self.im_, cm, ax)
            fontsize = float(np.clip(180 / n_rows, 6, 10))
            self.text_ = np.empty(cm.shape, dtype=object)
            for i, j in product(range(n_rows), range(n_cols)):
                kwargs = {
                    "ha": "center",
                    "va": "center",
                    "color": cmap_max if light[i, j] else cmap_min,
                    "fontsize": fontsize,
                    **(text_kw or {}),
                }
                text = format(values[i, j], fmt)
                self.text_[i, j] = ax.text(j, i, text, **kwargs)

        if colorbar:
            # a colour bar as high as the (square) matrix, not as the axes box
            cax = make_axes_locatable(ax).append_axes("right", size="4%", pad=0.15)
            bar = fig.colorbar(self.im_, cax=cax)
            percent = values_format is not None and values_format.endswith("%")
            if log_scale:
                # the log scale's ticks as plain numbers (0, 1, 10, 100, 1,000)
                # or percentages (0%, 0.1%, 1%, 10%, 100%), each its own digits
                bar.formatter = FuncFormatter(_percent_tick if percent else _plain_tick)
            elif values_format is not None and _formats_fractions(values_format):
                # the bar speaks the cells' language: percentages for ".0%"
                bar.formatter = FuncFormatter(lambda x, _: format(x, values_format))
            if log_scale:
                bar.locator = FixedLocator(_log_ticks(self.im_.norm))
                bar.ax.yaxis.set_minor_formatter(NullFormatter())

        xticks, yticks = _tick_positions(n_cols), _tick_positions(n_rows)
        ax.set(
            xticks=xticks,
            yticks=yticks,
            xticklabels=[col_names[j] for j in xticks],
            yticklabels=[row_names[i] for i in yticks],
            ylabel=ylabel,
            xlabel=xlabel,
        )
        ax.set_ylim((n_rows - 0.5, -0.5))
        tick_size = _tick_fontsize(ax, n_rows, n_cols)
        ax.tick_params(labelsize=tick_size)
        if xticks_rotation == "auto":
            spacing = _cell_points(ax, n_rows, n_cols) * (
                xticks[1] - xticks[0] if len(xticks) > 1 else 1
            )
            longest = max(len(col_names[j]) for j in xticks)
            # a character is about 0.6 em wide
            fits = 0.6 * tick_size * longest <= 0.9 * spacing
            xticks_rotation = "horizontal" if fits else "vertical"
        for tick_label in ax.get_xticklabels():
            tick_label.set_rotation(xticks_rotation)
        if new_figure:
            # laid out at each draw: a title added afterwards still fits
            fig.set_layout_engine("tight")

        self.figure_ = fig
        self.ax_ = ax
        return self

    @classmethod
    @validate_params(
        {
            "y_true": TARGET_CONSTRAINTS["y_true"],
            "y_pred": TARGET_CONSTRAINTS["y_pred"],
            **_PREDICTION_CONSTRAINTS,
        },
        rules=(_check_values_format,),
    )
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
        top_k="auto",
        order="original",
    ):
        """Plot the multi-label confusion matrix given true and predicted labels.

        Read more in the :ref:`User Guide <display>`.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth 0/1 indicators, or 1-D class labels. Under
            ``array_api_dispatch``, 2-D indicators of any Array API
            namespace: the matrix is counted on their device, as
            :func:`mlcm_confusion_matrix` does, and only it is copied to the
            host to be drawn (:ref:`array_api`).

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
            The labels' names or values. By default, as scikit-learn's
            ``ConfusionMatrixDisplay``: ``labels`` when given, else the
            DataFrame column names, the class values of 1-D input (sorted),
            or the column indices. The display keeps those of the labels
            drawn, as they are; the ticks show them as ``str``.

        ntl_label, npl_label : str, default="NTL", "NPL"
            Names of the no-label row and column.

        include_values, xticks_rotation, values_format, cmap, ax, colorbar, \
im_kw, text_kw, include_no_label
            As in :meth:`plot`.

        top_k : int, "auto" or None, default="auto"
            Draw only the ``top_k`` labels most involved in confusion with
            other labels, and the NTL row and NPL column: those of largest
            off-diagonal mass ``C[i, :].sum() + C[:, i].sum() - 2 * C[i, i]``
            over the labels' block ``C`` (the NTL row and NPL column, drawn
            anyway, do not count: a label that is only missed is not confused
            with another). Ties go to the earlier label. "auto" draws every
            label up to 40 labels and the 40 most involved in confusion above
            (a picture of more labels cannot be read whole). None, or a
            ``top_k`` of at least the number of labels, draws every label.
            Only the drawn block of a sparse matrix is made dense. The
            selection is :func:`most_confused_labels`'s.

            .. versionchanged:: 0.2.0
               The default is "auto"; it was None (every label).

        order : {"original", "cluster"}, default="original"
            Order of the drawn labels. "original": the matrix's order.
            "cluster": labels confused with each other side by side, in the
            leaf order of scipy's average-linkage clustering of the drawn
            labels (see :func:`most_confused_labels`). The default colour
            scale (see :meth:`plot`) shows the blocks of labels confused with
            each other in colour, beside a much larger diagonal.

            When fewer labels than all are drawn, or with ``order="cluster"``,
            or an int ``top_k``, the axes title says what is drawn, such as
            "MLCM: 40 of 983 labels most involved in confusion" or "MLCM: 20
            of 159 labels most involved in confusion, clustered", and
            ``shown_labels_`` which labels.

        Returns
        -------
        display : MLCMDisplay
        """
        check_matplotlib_support()
        # the public function, as ConfusionMatrixDisplay calls confusion_matrix;
        # sparse, so that only the block drawn is ever made dense. Array API
        # input gets its dense matrix on its device: copied here to be drawn
        namespace = array_api_namespace(y_true, y_pred)
        cm = mlcm_confusion_matrix(
            y_true,
            y_pred,
            method=method,
            labels=labels,
            sample_weight=sample_weight,
            normalize=normalize,
            sparse_output=namespace is None,
        )
        if namespace is not None:
            cm = to_numpy(cm, namespace[0])
        if display_labels is None:
            display_labels = label_values(y_true, y_pred, labels)
        return cls._from_matrix(
            cm,
            display_labels,
            top_k=top_k,
            order=order,
            ntl_label=ntl_label,
            npl_label=npl_label,
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
    def _from_matrix(
        cls, cm, display_labels, *, top_k, order, ntl_label, npl_label, **plot_kw
    ):
        """Pick the labels of a whole matrix (``top_k``, ``order``), draw their
        block with ``plot(**plot_kw)`` and title it; the display has
        ``shown_labels_``. For callers that validated their parameters and hold
        a matrix (dense or CSR) of all the labels and their names."""
        # the labels drawn: chosen here, plot() draws what it is given
        n_labels = cm.shape[0] - 1
        check_target_names(display_labels, n_labels, name="display_labels")
        top_k = resolve_top_k(top_k, n_labels)
        shown = most_confused_labels(cm, top_k=top_k, order=order)
        if len(shown) == n_labels and np.array_equal(shown, np.arange(n_labels)):
            block = _dense(cm, n_labels)
        else:
            index = np.append(shown, n_labels)
            block = _dense(cm[index][:, index], len(shown))
            values = list(display_labels)
            display_labels = [values[i] for i in shown]
        display = cls(
            block,
            display_labels=display_labels,
            ntl_label=ntl_label,
            npl_label=npl_label,
        )
        display.shown_labels_ = shown
        display.plot(**plot_kw)
        title = _subset_title(len(shown), n_labels, top_k, order)
        if title is not None:
            display.ax_.set_title(title)
        return display

    @classmethod
    @validate_params(
        {
            "estimator": [HasMethods("predict")],
            "X": ["array-like", "sparse matrix"],
            "y": ["array-like", "sparse matrix"],
            **_PREDICTION_CONSTRAINTS,
        },
        rules=(_check_classifier, _check_values_format),
    )
    def from_estimator(
        cls,
        estimator,
        X,
        y,
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
        top_k="auto",
        order="original",
    ):
        """Plot the multi-label confusion matrix of a fitted classifier.

        Read more in the :ref:`User Guide <display>`.

        Parameters
        ----------
        estimator : fitted classifier
            A multi-label (or multi-class) scikit-learn classifier, or a
            pipeline ending in one; ``estimator.predict(X)`` gives the
            predicted labels.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth labels.

        method : {"heydarian", "krstinic"}, default="heydarian"
            Which matrix to draw; see :func:`mlcm_confusion_matrix`.

        labels : array-like of shape (n_kept,), default=None
            The labels to keep, in that order.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.

        normalize : {"true", "pred", "all"}, default=None
            Normalise over rows, columns or the whole matrix.

        display_labels : array-like of shape (n_labels,), default=None
            Names of the labels. By default the DataFrame column names of
            ``y``, its class values for 1-D input, or the column indices.

        ntl_label, npl_label : str, default="NTL", "NPL"
            Names of the no-label row and column.

        include_values, xticks_rotation, values_format, cmap, ax, colorbar, \
im_kw, text_kw, include_no_label
            As in :meth:`plot`.

        top_k : int, "auto" or None, default="auto"
            Draw only the ``top_k`` labels most involved in confusion with
            other labels, and the NTL row and NPL column: those of largest
            off-diagonal mass ``C[i, :].sum() + C[:, i].sum() - 2 * C[i, i]``
            over the labels' block ``C`` (the NTL row and NPL column, drawn
            anyway, do not count: a label that is only missed is not confused
            with another). Ties go to the earlier label. "auto" draws every
            label up to 40 labels and the 40 most involved in confusion above
            (a picture of more labels cannot be read whole). None, or a
            ``top_k`` of at least the number of labels, draws every label.
            Only the drawn block of a sparse matrix is made dense. The
            selection is :func:`most_confused_labels`'s.

            .. versionchanged:: 0.2.0
               The default is "auto"; it was None (every label).

        order : {"original", "cluster"}, default="original"
            Order of the drawn labels. "original": the matrix's order.
            "cluster": labels confused with each other side by side, in the
            leaf order of scipy's average-linkage clustering of the drawn
            labels (see :func:`most_confused_labels`). The default colour
            scale (see :meth:`plot`) shows the blocks of labels confused with
            each other in colour, beside a much larger diagonal.

            When fewer labels than all are drawn, or with ``order="cluster"``,
            or an int ``top_k``, the axes title says what is drawn, such as
            "MLCM: 40 of 983 labels most involved in confusion" or "MLCM: 20
            of 159 labels most involved in confusion, clustered", and
            ``shown_labels_`` which labels.

        Returns
        -------
        display : MLCMDisplay
        """
        check_matplotlib_support()
        y_pred = estimator.predict(X)
        columns = frame_columns(y)
        if columns is not None and frame_columns(y_pred) is None:
            # predict's columns are y's by position (scikit-learn's contract):
            # y is read as its values, its column names name the labels
            y = read_frame(y, "y")[0]
            if labels is not None:
                labels = check_indicator_labels(labels, len(columns), columns)
            if display_labels is None:
                kept = range(len(columns)) if labels is None else labels
                display_labels = [columns[i] for i in kept]
        return cls.from_predictions(
            y,
            y_pred,
            method=method,
            labels=labels,
            sample_weight=sample_weight,
            normalize=normalize,
            display_labels=display_labels,
            ntl_label=ntl_label,
            npl_label=npl_label,
            include_values=include_values,
            xticks_rotation=xticks_rotation,
            values_format=values_format,
            cmap=cmap,
            ax=ax,
            colorbar=colorbar,
            im_kw=im_kw,
            text_kw=text_kw,
            include_no_label=include_no_label,
            top_k=top_k,
            order=order,
        )
