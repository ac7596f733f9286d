"""MLCMThresholdCurveDisplay: an MLCM score against the threshold (matplotlib)."""

import numbers

import numpy as np
from scipy import sparse

from sklearn_mlcm._mlcm._dispatch import METHODS
from sklearn_mlcm._param_validation import (
    HasMethods,
    Interval,
    Options,
    Sequence,
    invalid_parameter,
    validate_params,
)
from sklearn_mlcm._plot._confusion_matrix import _check_classifier
from sklearn_mlcm._plot._support import check_matplotlib_support
from sklearn_mlcm._summary import shorten
from sklearn_mlcm._thresholds._curve import CURVE_AVERAGES, mlcm_threshold_curve
from sklearn_mlcm._thresholds._decision import response_scores
from sklearn_mlcm._uncertainty._margins import SCORES
from sklearn_mlcm._validation._frames import frame_columns, read_frame
from sklearn_mlcm._validation._label_space import check_indicator_labels
from sklearn_mlcm._validation._messages import input_error
from sklearn_mlcm._validation._targets import check_target_names

__all__ = ["MLCMThresholdCurveDisplay"]

#: The largest threshold (in magnitude) drawn on the threshold axis.
#: matplotlib's limits, margins and tick locator overflow near float64's
#: largest number (1.8e308): with matplotlib 3.11, an axis from -h to h fails
#: from h = 4.1e307 on, one from 0 to h from 8.2e307; 1e306 leaves room.
MAX_DRAWN_THRESHOLD = 1e306

#: The most per-label lines drawn: ten keep their colours (matplotlib's
#: "tab10") and their legend readable, whatever the number of labels.
MAX_LABEL_LINES = 10

#: The size in inches of a figure the display makes, before its legend.
FIGURE_SIZE = (6.4, 4.8)

#: The longest name in the legend: longer label and classifier names end
#: with an ellipsis, so that the legend beside the axes does not squeeze them.
MAX_LEGEND_NAME = 30

_METRIC_NAMES = {
    "f1": "F1",
    "fbeta": "F-beta",
    "precision": "precision",
    "recall": "recall",
    "specificity": "specificity",
}


_PLOT_CONSTRAINTS = {
    "ax": [HasMethods("plot"), None],  # a matplotlib Axes
    "name": [str, None],
    "label_lines": [
        Interval(numbers.Integral, 1, MAX_LABEL_LINES),
        Sequence(unique=True, min_length=1),
        None,
    ],
    "operating_point": [Options("best"), Interval(numbers.Real, None, None), None],
    "curve_kwargs": [dict, None],
    "label_kw": [dict, None],
    "one_vs_rest_kw": [dict, None],
    "operating_point_kw": [dict, None],
}

_CURVE_CONSTRAINTS = {
    "thresholds": [Interval(numbers.Integral, 1, None), "array-like", None],
    "metric": [Options(*SCORES)],
    "average": [Options(*CURVE_AVERAGES)],
    "method": [Options(*METHODS)],
    "labels": ["array-like", None],
    "target_names": [Sequence(), None],
    "sample_weight": ["array-like", None],
    "beta": [Interval(numbers.Real, 0, None, closed="left")],
    "tn": [Options("complement", "diagonal")],
    "zero_division": [Options(0.0, 1.0, float("nan"))],
    "one_vs_rest": ["boolean"],
}


def _check_curve_one_vs_rest(arguments):
    """scikit-learn has no "micro_all" average to draw beside."""
    if arguments["one_vs_rest"] and arguments["average"] == "micro_all":
        raise invalid_parameter(
            "average",
            "one of {'macro', 'micro', 'weighted'} with one_vs_rest=True "
            "(scikit-learn's averages; 'micro_all' has no one-vs-rest counterpart)",
            "micro_all",
        )


class MLCMThresholdCurveDisplay:
    """An MLCM score against the decision threshold.

    Modelled on scikit-learn's curve displays
    (:class:`~sklearn.metrics.PrecisionRecallDisplay`,
    :class:`~sklearn.metrics.RocCurveDisplay`): the averaged MLCM score of
    the predictions ``y_score >= threshold`` at each threshold, optionally a
    few labels' own scores, the chosen operating point, and scikit-learn's
    one-vs-rest score of the same predictions beside the MLCM's, to show
    where they disagree. It is recommended to create it with
    :meth:`from_predictions` or :meth:`from_estimator`, which compute the
    curve with :func:`mlcm_threshold_curve`; :meth:`plot` draws it.

    Read more in the :ref:`User Guide <thresholds>`.

    Parameters
    ----------
    thresholds : ndarray of shape (n_thresholds,) or (n_thresholds, n_labels)
        The thresholds, increasing. A 2-D curve (one threshold per label in
        each row) is drawn against the row number.

    scores : ndarray of shape (n_thresholds,)
        The averaged MLCM score at each threshold.

    label_scores : ndarray of shape (n_thresholds, n_labels), default=None
        Each label's MLCM score, for ``label_lines``.

    ovr_scores : ndarray of shape (n_thresholds,), default=None
        scikit-learn's one-vs-rest score of the same predictions, drawn
        beside (dashed) when given.

    ovr_label_scores : ndarray of shape (n_thresholds, n_labels), default=None
        Likewise per label.

    target_names : list of str, default=None
        The label names (by default their indices), which ``label_lines``
        may name.

    metric : {"f1", "precision", "recall", "fbeta", "specificity"}, default="f1"
        The score, for the axis label.

    average : {"macro", "weighted", "micro", "micro_all"}, default="macro"
        The average, for the axis label.

    estimator_name : str, default=None
        The classifier's name, for the legend.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The averaged MLCM score.

    ovr_line_ : matplotlib Line2D or None
        The averaged one-vs-rest score, when drawn.

    label_lines_ : dict of str to matplotlib Line2D
        The per-label MLCM lines drawn, by label name (empty by default).

    ovr_label_lines_ : dict of str to matplotlib Line2D
        The per-label one-vs-rest lines drawn.

    operating_point_ : matplotlib Line2D or None
        The marker of the operating point.

    operating_index_ : int or None
        The threshold (row) it marks.

    ax_ : matplotlib Axes
        Axes with the curves.

    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    mlcm_threshold_curve : The curve drawn here.
    sklearn.metrics.PrecisionRecallDisplay : A binary, one-vs-rest curve of
        one label, against recall rather than the threshold.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_mlcm import MLCMThresholdCurveDisplay
    >>> y_true = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    >>> y_score = np.array([[0.9, 0.4, 0.3], [0.2, 0.6, 0.5],
    ...                     [0.7, 0.3, 0.1], [0.1, 0.2, 0.8]])
    >>> disp = MLCMThresholdCurveDisplay.from_predictions(
    ...     y_true, y_score, thresholds=[0.25, 0.5, 0.75], one_vs_rest=True)
    >>> disp.line_.get_ydata().round(3)
    array([0.611, 0.722, 0.556])
    >>> disp.ovr_line_.get_ydata().round(3)
    array([0.767, 0.778, 0.556])
    >>> disp.operating_index_, disp.ax_.get_xlabel(), disp.ax_.get_ylabel()
    (1, 'Threshold', 'F1')
    >>> [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    ['MLCM, macro', 'one-vs-rest, macro (scikit-learn)', 'best: threshold 0.5, 0.722']
    """

    @validate_params(
        {
            "thresholds": ["array-like"],
            "scores": ["array-like"],
            "label_scores": ["array-like", None],
            "ovr_scores": ["array-like", None],
            "ovr_label_scores": ["array-like", None],
            "target_names": [Sequence(), None],
            "metric": [Options(*SCORES)],
            "average": [Options(*CURVE_AVERAGES)],
            "estimator_name": [str, None],
        }
    )
    def __init__(
        self,
        thresholds,
        scores,
        *,
        label_scores=None,
        ovr_scores=None,
        ovr_label_scores=None,
        target_names=None,
        metric="f1",
        average="macro",
        estimator_name=None,
    ):
        self.thresholds = thresholds
        self.scores = scores
        self.label_scores = label_scores
        self.ovr_scores = ovr_scores
        self.ovr_label_scores = ovr_label_scores
        self.target_names = target_names
        self.metric = metric
        self.average = average
        self.estimator_name = estimator_name

    #: Whether the label names are only the column indices of the labels
    #: (set by ``from_predictions`` and ``from_estimator`` when nothing named
    #: them), so that the legend says "column 7".
    _unnamed_labels = False

    def _legend_entries(self, ax):
        """The handles and texts of the axes' legend, each label's one-vs-rest
        line beside its MLCM line in the label's entry."""
        handles, texts = ax.get_legend_handles_labels()
        pairs = {
            line: (line, self.ovr_label_lines_[label])
            for label, line in self.label_lines_.items()
            if label in self.ovr_label_lines_
        }
        return [pairs.get(handle, handle) for handle in handles], texts

    def _checked(self):
        """The stored arrays, with their shapes checked against each other."""
        thresholds = np.asarray(self.thresholds, dtype=np.float64)
        if thresholds.ndim not in (1, 2) or thresholds.shape[0] == 0:
            raise input_error(
                "thresholds",
                "a non-empty array of shape (n_thresholds,) or (n_thresholds, "
                "n_labels)",
                f"shape {thresholds.shape}",
            )
        if thresholds.ndim == 1 and (np.abs(thresholds) > MAX_DRAWN_THRESHOLD).any():
            raise input_error(
                "thresholds",
                f"within [-{MAX_DRAWN_THRESHOLD:g}, {MAX_DRAWN_THRESHOLD:g}] to be "
                "drawn: matplotlib cannot lay out an axis nearer float64's largest "
                "number, 1.8e+308 (mlcm_threshold_curve computes such a curve; to "
                "draw it, scale the scores down, by 2.0**-20 for instance)",
                f"thresholds from {thresholds.min():g} to {thresholds.max():g}",
            )
        n = thresholds.shape[0]
        scores = np.asarray(self.scores, dtype=np.float64)
        if scores.shape != (n,):
            raise input_error(
                "scores", f"of shape ({n},), one per threshold", f"{scores.shape}"
            )
        arrays = {"scores": scores}
        for name in ("ovr_scores", "label_scores", "ovr_label_scores"):
            value = getattr(self, name)
            if value is None:
                arrays[name] = None
                continue
            value = np.asarray(value, dtype=np.float64)
            expected_ndim = 1 if name == "ovr_scores" else 2
            if value.ndim != expected_ndim or value.shape[0] != n:
                raise input_error(
                    name,
                    f"of {expected_ndim} dimension(s), one row per threshold ({n})",
                    f"shape {value.shape}",
                )
            arrays[name] = value
        q = None
        for name in ("label_scores", "ovr_label_scores"):
            if arrays[name] is not None:
                if q is not None and arrays[name].shape[1] != q:
                    raise input_error(
                        name, f"of {q} labels, as label_scores", f"{arrays[name].shape}"
                    )
                q = arrays[name].shape[1]
        if thresholds.ndim == 2 and q is not None and thresholds.shape[1] != q:
            raise input_error(
                "thresholds",
                f"of one column per label ({q}) when 2-D",
                f"shape {thresholds.shape}",
            )
        names = None
        if q is not None:
            names = (
                [str(j) for j in range(q)]
                if self.target_names is None
                else check_target_names(self.target_names, q)
            )
        return thresholds, arrays, names

    @validate_params(_PLOT_CONSTRAINTS)
    def plot(
        self,
        ax=None,
        *,
        name=None,
        label_lines=None,
        operating_point="best",
        curve_kwargs=None,
        label_kw=None,
        one_vs_rest_kw=None,
        operating_point_kw=None,
    ):
        """Plot the visualization.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on. By default a new figure of 6.4 x 4.8 inches;
            with label lines, whose legend goes beside the axes, the figure
            is widened by the legend's width, so that the axes keep their
            size.

        name : str, default=None
            The classifier's name in the legend; by default
            ``estimator_name``.

        label_lines : int or list of str, default=None
            Also draw some labels' own MLCM scores (thin lines, one colour
            each, dashed for their one-vs-rest scores): an int k, the k
            labels that the operating point serves worst, those of largest
            gap between their own best score over the curve and their score
            at the operating point (the earlier label on ties); or a list of
            label names (``target_names``). At most 10, so that the lines and
            the legend (then beside the axes) stay readable with hundreds of
            labels. Needs ``label_scores``. The legend names each label by its
            name, cut to 30 characters with an ellipsis so that it does not
            squeeze the axes, or by its column ("column 7") when the labels
            have no names (no ``target_names``, no frame columns), whose
            default names elsewhere are the column indices. With the
            one-vs-rest lines, a label's entry shows both of its lines and
            says which is which ("bird: MLCM, one-vs-rest").

        operating_point : "best", float or None, default="best"
            The threshold to mark: "best" is the first of highest averaged
            MLCM score; a float, the nearest threshold of the curve (the
            ``from_*`` constructors add it to a grid they make); None marks
            none. A 2-D curve takes "best" or None.

        curve_kwargs : dict, default=None
            Keywords of matplotlib's ``plot`` for the averaged MLCM line.

        label_kw : dict, default=None
            Keywords of ``plot`` for the per-label lines.

        one_vs_rest_kw : dict, default=None
            Keywords of ``plot`` for the one-vs-rest lines (dashed).

        operating_point_kw : dict, default=None
            Keywords of ``plot`` for the operating point's marker.

        Returns
        -------
        display : MLCMThresholdCurveDisplay
            Returns ``self`` with ``line_``, ``ovr_line_``, ``label_lines_``,
            ``ovr_label_lines_``, ``operating_point_``, ``operating_index_``,
            ``ax_`` and ``figure_``.
        """
        check_matplotlib_support()
        import matplotlib
        from matplotlib.legend_handler import HandlerTuple

        thresholds, arrays, names = self._checked()
        scores = arrays["scores"]
        index = _operating_index(thresholds, scores, operating_point)
        shown = _chosen_labels(label_lines, arrays["label_scores"], names, index)
        name = self.estimator_name if name is None else name
        name = None if name is None else _shortened(name)
        made = ax is None
        if made:  # widened below when the legend goes beside the axes
            # pyplot only for a figure of its own (not on the page's axes)
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(figsize=FIGURE_SIZE)
        else:
            fig = ax.figure
        x = thresholds if thresholds.ndim == 1 else np.arange(thresholds.shape[0])
        score_name = _METRIC_NAMES[self.metric]
        prefix = f"{name}: " if name else ""

        # the averaged scores in black (solid: MLCM, dashed: one-vs-rest),
        # the labels in the colours of "tab10", in the same two styles
        self.line_ = ax.plot(
            x,
            scores,
            **{
                "label": f"{prefix}MLCM, {self.average}",
                "color": "black",
                "linewidth": 2.0,
                **(curve_kwargs or {}),
            },
        )[0]
        self.ovr_line_ = None
        if arrays["ovr_scores"] is not None:
            self.ovr_line_ = ax.plot(
                x,
                arrays["ovr_scores"],
                **{
                    "label": f"{prefix}one-vs-rest, {self.average} (scikit-learn)",
                    "color": "black",
                    "linewidth": 1.5,
                    "linestyle": "--",
                    **(one_vs_rest_kw or {}),
                },
            )[0]
        self.label_lines_, self.ovr_label_lines_ = {}, {}
        by_column = self.target_names is None or self._unnamed_labels
        both = arrays["ovr_label_scores"] is not None
        for number, j in enumerate(shown):
            color = matplotlib.colormaps["tab10"](number % 10)
            label = names[j]
            entry = f"column {label}" if by_column else _shortened(label)
            self.label_lines_[label] = ax.plot(
                x,
                arrays["label_scores"][:, j],
                **{
                    "label": f"{entry}: MLCM, one-vs-rest" if both else entry,
                    "color": color,
                    "linewidth": 1.0,
                    **(label_kw or {}),
                },
            )[0]
            if arrays["ovr_label_scores"] is not None:
                self.ovr_label_lines_[label] = ax.plot(
                    x,
                    arrays["ovr_label_scores"][:, j],
                    **{
                        "color": color,
                        "linewidth": 1.0,
                        "linestyle": "--",
                        **(one_vs_rest_kw or {}),
                    },
                )[0]
        self.operating_point_ = None
        if index is not None:
            where = (
                f"threshold {thresholds[index]:.3g}"
                if thresholds.ndim == 1
                else f"row {index}"
            )
            what = "best" if operating_point == "best" else "chosen"
            self.operating_point_ = ax.plot(
                [x[index]],
                [scores[index]],
                **{
                    "marker": "o",
                    "markersize": 8,
                    "linestyle": "none",
                    "color": "tab:red",
                    "label": f"{what}: {where}, {scores[index]:.3f}",
                    **(operating_point_kw or {}),
                },
            )[0]
        self.operating_index_ = index
        ax.set(
            xlabel="Threshold" if thresholds.ndim == 1 else "Threshold row",
            ylabel=score_name,
        )
        if shown:  # beside the axes: many lines leave no free corner
            legend = ax.legend(
                *self._legend_entries(ax),
                handler_map={tuple: HandlerTuple(ndivide=None, pad=0.6)},
                handlelength=4.0 if self.ovr_label_lines_ else None,
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                fontsize="small",
            )
            if made:  # the figure grows by the legend, not the axes shrink
                width = legend.get_window_extent().width / fig.dpi
                fig.set_size_inches(FIGURE_SIZE[0] + width + 0.3, FIGURE_SIZE[1])
        else:
            ax.legend(loc="best", fontsize="small")
        if ax.figure is fig and fig.get_layout_engine() is None:
            fig.set_layout_engine("tight")
        self.ax_ = ax
        self.figure_ = fig
        return self

    @classmethod
    @validate_params(
        {
            "y_true": ["array-like", "sparse matrix"],
            "y_score": ["array-like", "sparse matrix"],
            **_CURVE_CONSTRAINTS,
            **_PLOT_CONSTRAINTS,
        },
        rules=(_check_curve_one_vs_rest,),
    )
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        thresholds=None,
        metric="f1",
        average="macro",
        method="heydarian",
        labels=None,
        target_names=None,
        sample_weight=None,
        beta=1.0,
        tn="complement",
        zero_division=0.0,
        one_vs_rest=False,
        ax=None,
        name=None,
        label_lines=None,
        operating_point="best",
        curve_kwargs=None,
        label_kw=None,
        one_vs_rest_kw=None,
        operating_point_kw=None,
    ):
        """Plot an MLCM score against the threshold, from true labels and scores.

        Read more in the :ref:`User Guide <thresholds>`.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels)
            Ground truth 0/1 indicators.

        y_score : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels)
            Scores (see :func:`decide_labels`); under ``array_api_dispatch``
            of any Array API namespace, the curve counted on their device
            (see :func:`mlcm_threshold_curve`).

        thresholds, metric, average, method, labels, target_names, \
sample_weight, beta, tn, zero_division, one_vs_rest
            As in :func:`mlcm_threshold_curve`; ``target_names`` names the
            labels in the legend and in ``label_lines``. A float ``operating_point``
            is added to a grid of thresholds made here (``thresholds`` None
            or an int), so that it is marked exactly.

        ax, name, label_lines, operating_point, curve_kwargs, label_kw, \
one_vs_rest_kw, operating_point_kw
            As in :meth:`plot`.

        Returns
        -------
        display : MLCMThresholdCurveDisplay
        """
        check_matplotlib_support()
        return cls._from_scores(
            y_true,
            y_score,
            None,
            {
                "thresholds": thresholds,
                "metric": metric,
                "average": average,
                "method": method,
                "labels": labels,
                "target_names": target_names,
                "sample_weight": sample_weight,
                "beta": beta,
                "tn": tn,
                "zero_division": zero_division,
                "one_vs_rest": one_vs_rest,
            },
            {
                "ax": ax,
                "name": name,
                "label_lines": label_lines,
                "operating_point": operating_point,
                "curve_kwargs": curve_kwargs,
                "label_kw": label_kw,
                "one_vs_rest_kw": one_vs_rest_kw,
                "operating_point_kw": operating_point_kw,
            },
        )

    @classmethod
    def _from_scores(cls, y_true, y_score, target_names, options, plot_options):
        """Compute the curve, build the display, plot it. A float operating
        point joins a grid of thresholds made here, to be marked exactly."""
        result = mlcm_threshold_curve(y_true, y_score, **options)
        point = plot_options["operating_point"]
        made = options["thresholds"] is None or isinstance(
            options["thresholds"], numbers.Integral
        )
        if made and isinstance(point, numbers.Real) and not isinstance(point, str):
            if sparse.issparse(y_score) and point <= 0:
                raise input_error(
                    "operating_point",
                    '"best", None or a threshold above 0 for sparse y_score, '
                    "whose absent scores are 0 and whose thresholds must be above 0",
                    repr(point),
                )
            grid = np.union1d(result.thresholds, [float(point)])
            if grid.size != result.thresholds.size:
                result = mlcm_threshold_curve(
                    y_true, y_score, **{**options, "thresholds": grid}
                )
        display = cls(
            result.thresholds,
            result.scores,
            label_scores=result.label_scores,
            ovr_scores=result.ovr_scores,
            ovr_label_scores=result.ovr_label_scores,
            target_names=result.target_names if target_names is None else target_names,
            metric=options["metric"],
            average=options["average"],
            estimator_name=plot_options["name"],
        )
        display._unnamed_labels = (
            target_names is None
            and options["target_names"] is None
            and frame_columns(y_true) is None
            and frame_columns(y_score) is None
        )
        return display.plot(
            **{key: value for key, value in plot_options.items() if key != "name"}
        )

    @classmethod
    @validate_params(
        {
            "estimator": [HasMethods("fit")],
            "X": ["array-like", "sparse matrix"],
            "y": ["array-like", "sparse matrix"],
            "response_method": [Options("auto", "predict_proba", "decision_function")],
            **_CURVE_CONSTRAINTS,
            **_PLOT_CONSTRAINTS,
        },
        rules=(_check_classifier, _check_curve_one_vs_rest),
    )
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        response_method="auto",
        thresholds=None,
        metric="f1",
        average="macro",
        method="heydarian",
        labels=None,
        target_names=None,
        sample_weight=None,
        beta=1.0,
        tn="complement",
        zero_division=0.0,
        one_vs_rest=False,
        ax=None,
        name=None,
        label_lines=None,
        operating_point="best",
        curve_kwargs=None,
        label_kw=None,
        one_vs_rest_kw=None,
        operating_point_kw=None,
    ):
        """Plot an MLCM score against the threshold of a fitted classifier.

        Read more in the :ref:`User Guide <thresholds>`.

        Parameters
        ----------
        estimator : fitted classifier
            A multi-label scikit-learn classifier (or a pipeline ending in
            one) with ``predict_proba`` or ``decision_function``.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels)
            Ground truth 0/1 indicators; a frame names the labels (the
            classifier's scores are its columns, in order).

        response_method : {"auto", "predict_proba", "decision_function"}, \
                default="auto"
            The scores: "auto" tries ``predict_proba`` then
            ``decision_function``, as scikit-learn's displays do.
            ``predict_proba`` must give probabilities, in [0, 1].

        thresholds, metric, average, method, labels, target_names, \
sample_weight, beta, tn, zero_division, one_vs_rest
            As in :func:`mlcm_threshold_curve`; ``target_names``, when given,
            name the labels instead of the columns of a frame ``y``.

        ax, name, label_lines, operating_point, curve_kwargs, label_kw, \
one_vs_rest_kw, operating_point_kw
            As in :meth:`plot`; ``name`` defaults to the estimator's class
            name.

        Returns
        -------
        display : MLCMThresholdCurveDisplay
        """
        check_matplotlib_support()
        y_score = response_scores(estimator, X, response_method)
        columns = frame_columns(y)
        names = None
        if columns is not None and frame_columns(y_score) is None:
            # the scores' columns are y's by position (scikit-learn's
            # contract): y is read as its values, its columns name the labels
            y = read_frame(y, "y")[0]
            if labels is not None:
                labels = check_indicator_labels(labels, len(columns), columns)
            kept = range(len(columns)) if labels is None else labels
            if target_names is None:
                names = [str(columns[i]) for i in kept]
        return cls._from_scores(
            y,
            y_score,
            names,
            {
                "thresholds": thresholds,
                "metric": metric,
                "average": average,
                "method": method,
                "labels": labels,
                "target_names": target_names,
                "sample_weight": sample_weight,
                "beta": beta,
                "tn": tn,
                "zero_division": zero_division,
                "one_vs_rest": one_vs_rest,
            },
            {
                "ax": ax,
                "name": type(estimator).__name__ if name is None else name,
                "label_lines": label_lines,
                "operating_point": operating_point,
                "curve_kwargs": curve_kwargs,
                "label_kw": label_kw,
                "one_vs_rest_kw": one_vs_rest_kw,
                "operating_point_kw": operating_point_kw,
            },
        )


def _operating_index(thresholds, scores, operating_point):
    """The threshold (row) to mark, or None."""
    if operating_point is None:
        return None
    if operating_point == "best":
        return 0 if np.isnan(scores).all() else int(np.nanargmax(scores))
    if thresholds.ndim == 2:
        raise invalid_parameter(
            "operating_point",
            '"best" or None for a curve of 2-D (per-label) thresholds',
            operating_point,
        )
    return int(np.argmin(np.abs(thresholds - float(operating_point))))


def _chosen_labels(label_lines, label_scores, names, index):
    """Indices of the labels whose own lines are drawn."""
    if label_lines is None:
        return []
    if label_scores is None:
        raise input_error(
            "label_lines",
            "None for a display without label_scores (nothing to draw per label)",
            repr(label_lines),
        )
    if isinstance(label_lines, numbers.Integral):
        # the labels a single threshold serves worst: the largest gap between
        # a label's own best score and its score at the operating point
        at = 0 if index is None else index
        finite = np.where(np.isnan(label_scores), -np.inf, label_scores)
        regret = finite.max(axis=0) - finite[at]
        regret = np.where(np.isfinite(regret), regret, -np.inf)
        k = min(int(label_lines), label_scores.shape[1])
        return list(np.argsort(-regret, kind="stable")[:k])
    wanted = [str(label) for label in label_lines]
    unknown = [label for label in wanted if label not in names]
    if unknown:
        raise input_error(
            "label_lines",
            f"names of the labels ({len(names)} of them, such as "
            f"{names[: min(3, len(names))]})",
            f"the unknown names {unknown}",
        )
    if len(wanted) > MAX_LABEL_LINES:
        raise input_error(
            "label_lines",
            f"at most {MAX_LABEL_LINES} labels, so that the lines stay readable",
            f"{len(wanted)}",
        )
    return [names.index(label) for label in wanted]


def _shortened(text):
    """``text``, on one line, cut to :data:`MAX_LEGEND_NAME` characters with
    an ellipsis."""
    return shorten(text, MAX_LEGEND_NAME, mark="\N{HORIZONTAL ELLIPSIS}")
