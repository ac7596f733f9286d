"""MLCMReport: one evaluation, computed once, to read, keep and share."""

import os
from numbers import Integral, Real

import numpy as np
from scipy import sparse

from sklearn_mlcm._confusion import TARGET_CONSTRAINTS
from sklearn_mlcm._mlcm._dispatch import normalize as _normalize
from sklearn_mlcm._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    Options,
    Sequence,
    current_function,
    validate_params,
)
from sklearn_mlcm._plot._confusion_matrix import (
    MLCMDisplay,
    _check_classifier,
    _check_mathtext,
)
from sklearn_mlcm._plot._threshold_curve import MLCMThresholdCurveDisplay
from sklearn_mlcm._plot._top_confusions import (
    top_confusions,
    top_labelset_confusions,
)
from sklearn_mlcm._report._classification_report import (
    REPORT_CONSTRAINTS,
    _intervals_need_a_level,
    metrics_are_distinct,
    options_need,
    report_of,
)
from sklearn_mlcm._report._table import (
    DEFAULT_METRICS,
    FLAG_HEADING,
    NO_LABEL_NAME,
    REPORT_AVERAGES,
    SAMPLES_AVERAGE,
    flag_lines,
    report_cells,
    report_frame,
    report_statistics,
    table_of_report,
)
from sklearn_mlcm._report._writers import (
    latex_notes,
    latex_table,
    markdown_notes,
    markdown_table,
)
from sklearn_mlcm._thresholds._curve import (
    CURVE_AVERAGES,
    ThresholdCurveResult,
    threshold_curve,
)
from sklearn_mlcm._thresholds._decision import response_scores
from sklearn_mlcm._thresholds._stability import ThresholdSpread
from sklearn_mlcm._thresholds._validation import check_target_scores
from sklearn_mlcm._uncertainty._margins import (
    METRICS,
    resamples_resolve_tails,
)
from sklearn_mlcm._validation._frames import frame_columns, read_frame
from sklearn_mlcm._validation._label_space import check_indicator_labels
from sklearn_mlcm._validation._matrices import fits_dense
from sklearn_mlcm._validation._targets import check_target_names, validate_targets

from ._files import output_path_problem
from ._report_summary import report_summary

__all__ = ["MLCMReport"]

#: The names the repr lists before "...", at most, and the width of its
#: lines (fewer names when they are long). Names too long to stand beside the
#: counts on the first line go on a second line, after ``_REPR_NAMES_LEAD``:
#: whole, as many as fit, then how many are left ("... and 978 more").

_REPORT_CONSTRAINTS = {
    "method": TARGET_CONSTRAINTS["method"],
    "labels": TARGET_CONSTRAINTS["labels"],
    "sample_weight": TARGET_CONSTRAINTS["sample_weight"],
    **REPORT_CONSTRAINTS,
    "top_k": [Interval(Integral, 1, None)],
    "thresholds": [Interval(Integral, 1, None), "array-like", None],
    "metric": [Options(*METRICS)],
    "average": [Options(*CURVE_AVERAGES)],
}
#: The options of the threshold curve, with their defaults.
_CURVE_DEFAULTS = {"thresholds": None, "metric": "f1", "average": "macro"}


#: Rule: a curve option other than its default needs scores: without them
#: there is no curve, and the option would be ignored (as the report's
#: interval options need a ``confidence_level``).
_curve_needs_scores = options_need(
    "y_score",
    _CURVE_DEFAULTS,
    "scores",
    "the threshold curve, which only y_score=... (or an estimator with "
    "predict_proba or decision_function) gives",
)


_RULES = (_intervals_need_a_level, resamples_resolve_tails, metrics_are_distinct)


def _path_is_a_file_to_write(arguments):
    """Rule: a ``path`` names a file that can be written (see
    :func:`~sklearn_mlcm._reporting._files.output_path_problem`): refused
    before anything is drawn or written."""
    path = arguments["path"]
    if path is None:
        return
    problem = output_path_problem(path)
    if problem is not None:
        # the whole path (invalid_parameter would shorten a long one)
        raise InvalidParameterError(
            f"The 'path' parameter of {current_function()} must be a file to "
            f"write ({problem}). Got {os.fspath(path)!r} instead."
        )


class MLCMReport:
    """One multi-label evaluation: the MLCM, its report, confusions and curve.

    Everything a person reads about one set of predictions, computed once
    from one validated input: the multi-label confusion matrix (MLCM), the
    classification report read off it (with bootstrap intervals when a
    ``confidence_level`` is given), the label pairs and label sets most
    confused, and, when scores are given, the threshold curve and its best
    threshold. It prints a short summary and gives tables to paste
    (:meth:`to_markdown`, :meth:`to_latex`), a frame to analyse
    (:meth:`to_frame`), a self-contained page (:meth:`to_html`, also shown
    by Jupyter) and pictures (:meth:`plot`, :meth:`plot_threshold_curve`).

    Like scikit-learn's displays, it is built with :meth:`from_predictions`
    or :meth:`from_estimator`; ``__init__`` only stores what they computed.

    Read more in the :ref:`User Guide <reporting>`.

    Parameters
    ----------
    confusion_matrix : ndarray of shape (n_labels + 1, n_labels + 1)
        The MLCM (:func:`mlcm_confusion_matrix`); a CSR array past the size
        of a dense matrix.

    report : dict
        The classification report, as
        :func:`mlcm_classification_report` returns it with
        ``output_dict=True``.

    target_names : list of str
        The label names, one per label.

    method : {"heydarian", "krstinic"}
        The matrix's method.

    n_samples : int
        The number of instances.

    most_confused : list of Confusion
        The largest off-diagonal cells (:func:`most_confused`).

    labelset_confusions : list of LabelSetConfusion
        The most frequent pairs of unequal label sets
        (:func:`labelset_confusions`).

    threshold_curve : ThresholdCurveResult, default=None
        The threshold curve of the scores (:func:`mlcm_threshold_curve`).
        Its best threshold is picked on the data it scores: in-sample, so
        its score is optimistic (:class:`MLCMTunedThresholdClassifierCV`
        chooses thresholds out of sample).

    threshold_spread : ThresholdSpread, default=None
        The ``threshold_spread_`` of the evaluated
        :class:`MLCMTunedThresholdClassifierCV` (:meth:`from_estimator`
        takes it): its per-label thresholds and how far they moved across
        its folds, for the labels of the report in their order.

    confidence_level : float, default=None
        The level of the report's intervals, if any.

    interval_legend : str, default=None
        The line that says what the intervals are.

    include_no_label : bool, default=False
        Whether the report has a row for the "no label" index.

    Attributes
    ----------
    confusion_matrix, report, target_names, method, n_samples, \
most_confused, labelset_confusions, threshold_curve, threshold_spread, \
confidence_level, interval_legend, include_no_label
        The parameters, as given.

    See Also
    --------
    mlcm_classification_report : The report alone, as text or a dict.
    MLCMDisplay : The picture of the matrix (:meth:`plot`).
    MLCMThresholdCurveDisplay : The picture of the threshold curve
        (:meth:`plot_threshold_curve`).
    sklearn.metrics.classification_report : scikit-learn's one-vs-rest
        report, as text or a dict; there is no frame of it.

    Notes
    -----
    Each part is what its public function returns, computed from one
    validation and one matrix: the report is
    :func:`mlcm_classification_report`'s (its intervals drawn as it draws
    them: the same ``random_state`` gives the same numbers), the confusions
    are :func:`most_confused` of the matrix and :func:`labelset_confusions`
    of the targets, the curve is :func:`mlcm_threshold_curve`'s. The
    pictures are drawn from what is stored: :meth:`plot` and
    :meth:`plot_threshold_curve` compute nothing again.

    Examples
    --------
    Heydarian et al. (2022), Table 1: nine instances, three labels; the
    report is that of :func:`mlcm_classification_report`.

    >>> from sklearn_mlcm import MLCMReport
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> report = MLCMReport.from_predictions(
    ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
    >>> report
    MLCMReport: 3 labels (C0, C1, C2), 9 instances, method='heydarian'
    micro F1 0.43, macro F1 0.40
    most confused: C0 -> C2 (4)
    >>> report.confusion_matrix  # Table 4 (j)
    array([[5, 2, 4, 0],
           [0, 2, 3, 1],
           [0, 0, 1, 0],
           [0, 1, 1, 1]])
    >>> report.most_confused[:2]
    [Confusion(true='C0', predicted='C2', value=4), \
Confusion(true='C1', predicted='C2', value=3)]
    >>> print(report.to_markdown())
    | label | precision | recall | f1-score | weight | support |
    |:---|---:|---:|---:|---:|---:|
    | C0 | 1.00 | 0.45 | 0.62 | 11 | 7 |
    | C1 | 0.40 | 0.33 | 0.36 | 6 | 5 |
    | C2 | 0.11 | 1.00 | 0.20 | 1 | 1 |
    | micro avg | 0.42 | 0.44 | 0.43 | 18 | 13 |
    | macro avg | 0.50 | 0.60 | 0.40 | 18 | 13 |
    | weighted avg | 0.75 | 0.44 | 0.51 | 18 | 13 |
    | samples avg | 0.39 | 0.46 | 0.40 | 18 | 13 |
    <BLANKLINE>

    With scores the report holds the threshold curve, and with a
    ``confidence_level`` every number its bootstrap interval:

    >>> import numpy as np
    >>> y_score = 0.25 + 0.4 * np.array(y_true) + 0.3 * np.array(y_pred)
    >>> import warnings
    >>> with warnings.catch_warnings():  # nine instances: flagged intervals
    ...     warnings.filterwarnings("ignore", ".*intervals flagged")
    ...     report = MLCMReport.from_predictions(
    ...         y_true, y_pred, y_score=y_score, zero_division=0.0,
    ...         confidence_level=0.9, n_resamples=999, interval="percentile",
    ...         random_state=0)
    >>> print(repr(report))
    MLCMReport: 3 labels (0, 1, 2), 9 instances, method='heydarian'
    micro F1 0.43 [0.23, 0.61], macro F1 0.40 [0.21, 0.65] (flagged: 1 of 3 labels have < 5 positives)
    [low, high]: 90% percentile bootstrap intervals, 999 resamples of the 9 instances; the labels' ratios modified Wilson score intervals, their macro avg bootstrap-t
    most confused: 0 -> 2 (4)
    best threshold: 0.554 (macro F1 1.00; in-sample, optimistic)
      thresholds chosen out of sample: MLCMTunedThresholdClassifierCV
    """  # noqa: E501 (the report's repr is wider than the code)

    @validate_params(
        {
            "confusion_matrix": ["array-like", "sparse matrix"],
            "report": [dict],
            "target_names": [Sequence()],
            "method": TARGET_CONSTRAINTS["method"],
            "n_samples": [Interval(Integral, 0, None)],
            "most_confused": [list],
            "labelset_confusions": [list],
            "threshold_curve": [ThresholdCurveResult, None],
            "threshold_spread": [ThresholdSpread, None],
            "confidence_level": [Interval(Real, 0, 1, closed="neither"), None],
            "interval_legend": [str, None],
            "include_no_label": ["boolean"],
        }
    )
    def __init__(
        self,
        confusion_matrix,
        report,
        *,
        target_names,
        method,
        n_samples,
        most_confused,
        labelset_confusions,
        threshold_curve=None,
        threshold_spread=None,
        confidence_level=None,
        interval_legend=None,
        include_no_label=False,
    ):
        self.confusion_matrix = confusion_matrix
        self.report = report
        self.target_names = target_names
        self.method = method
        self.n_samples = n_samples
        self.most_confused = most_confused
        self.labelset_confusions = labelset_confusions
        self.threshold_curve = threshold_curve
        self.threshold_spread = threshold_spread
        self.confidence_level = confidence_level
        self.interval_legend = interval_legend
        self.include_no_label = include_no_label

    @classmethod
    @validate_params(
        {
            "y_true": TARGET_CONSTRAINTS["y_true"],
            "y_pred": TARGET_CONSTRAINTS["y_pred"],
            "y_score": ["array-like", "sparse matrix", None],
            **_REPORT_CONSTRAINTS,
        },
        rules=(*_RULES, _curve_needs_scores),
    )
    def from_predictions(
        cls,
        y_true,
        y_pred,
        *,
        y_score=None,
        target_names=None,
        labels=None,
        sample_weight=None,
        method="heydarian",
        include_no_label=False,
        zero_division="warn",
        metrics=DEFAULT_METRICS,
        confidence_level=None,
        n_resamples=9999,
        interval="bca",
        groups=None,
        random_state=None,
        n_jobs=None,
        top_k=20,
        thresholds=None,
        metric="f1",
        average="macro",
    ):
        """Evaluate predictions: the matrix, report, confusions and curve.

        The input is validated once and the matrix computed once; the report,
        the confusions and the curve are read from them.

        Read more in the :ref:`User Guide <reporting>`.

        Parameters
        ----------
        y_true : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth 0/1 indicators, or 1-D class labels. Dask arrays
            are read whole (the label-set confusions read every row). Under
            ``array_api_dispatch``, 2-D indicators (and ``y_score``) of any
            Array API namespace: the matrix, the label-set confusions and the
            curve are counted on the device of ``y_pred``; the rows come to
            the host only for the intervals. The report holds host values
            (:ref:`array_api`).

        y_pred : same kind and shape as ``y_true``
            Predicted labels.

        y_score : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels), or list of n_labels arrays of shape \
                (n_samples, 2), default=None
            The scores the predictions came from (``predict_proba`` or
            ``decision_function``), for the threshold curve
            (:func:`mlcm_threshold_curve`); 2-D indicator targets only. A
            frame is matched to frame targets by column name. None: no curve.
            With ``method="krstinic"`` the curve takes one matrix per
            threshold (see :func:`mlcm_threshold_curve`).

        target_names : list of str of shape (n_labels,), default=None
            Display names of the labels, unique once surrounding whitespace
            is stripped, none of them an average's row ("micro avg", ...;
            with ``include_no_label`` not "no label"), nor "NTL" or "NPL",
            the no-label row and column of the picture and the page. By
            default the column names of a frame, the class values for 1-D
            input, and the column indices otherwise.

        labels : array-like of shape (n_kept,), default=None
            The labels to evaluate, in that order (see
            :func:`mlcm_confusion_matrix`); the scores keep the same ones.

        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.

        method : {"heydarian", "krstinic"}, default="heydarian"
            Which 2-D matrix; see :func:`mlcm_confusion_matrix`.

        include_no_label : bool, default=False
            Report the "no label" index as a row (see
            :func:`mlcm_classification_report`), and list the confusions of
            the NTL row and NPL column too.

        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of an undefined ratio in the report ("warn": 0.0 and a
            warning); the curve takes 0.0 for "warn", silently.

        metrics : list of str, default=("precision", "recall", "f1-score")
            The report's statistics, in order: any per-class statistic of
            the registry, by name, header or alias, as
            :func:`mlcm_classification_report` takes them. Each is a column
            of the report, its frame, tables and page.

        confidence_level : float or None, default=None
            With a level in (0, 1), the report's numbers carry bootstrap
            intervals, as :func:`mlcm_classification_report` computes them.

        n_resamples, interval, groups, random_state, n_jobs
            The intervals' options, as in
            :func:`mlcm_classification_report` (only with a
            ``confidence_level``).

        top_k : int, default=20
            How many label pairs (``most_confused``) and label-set pairs
            (``labelset_confusions``) to keep, at most.

        thresholds : int or array-like, default=None
            The curve's thresholds, as in :func:`mlcm_threshold_curve`
            (None: 100). This and the two options below need scores: without
            them another value than the default is refused (it would be
            ignored).

        metric : {"f1", "precision", "recall", "fbeta", "specificity"}, \
                default="f1"
            The curve's score.

        average : {"macro", "weighted", "micro", "micro_all"}, \
                default="macro"
            The curve's average.

        Returns
        -------
        report : MLCMReport

        Examples
        --------
        Heydarian et al. (2022), Table 1:

        >>> from sklearn_mlcm import MLCMReport
        >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
        ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
        >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
        ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
        >>> report = MLCMReport.from_predictions(
        ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
        >>> report.report["C0"]
        {'precision': 1.0, 'recall': 0.45454545454545453, 'f1-score': 0.625, \
'weight': 11.0, 'support': 7.0}
        >>> report.most_confused[0]
        Confusion(true='C0', predicted='C2', value=4)
        """
        targets = validate_targets(
            y_true,
            y_pred,
            labels=labels,
            sample_weight=sample_weight,
            groups=groups,
            chunked=False,
        )
        scores = None
        if y_score is not None:
            scores = check_target_scores(
                y_score, targets, y_true, y_pred, labels=labels
            )
        include_no_label = bool(include_no_label)
        names = _checked_names(targets, target_names, include_no_label)

        computed, report, bounds = report_of(
            targets,
            method=method,
            target_names=names,
            digits=2,
            output_dict=True,
            zero_division=zero_division,
            include_no_label=include_no_label,
            statistics=report_statistics(metrics),
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            interval=interval,
            random_state=random_state,
            n_jobs=n_jobs,
        )
        cm = computed.matrix
        if sparse.issparse(cm) and fits_dense(cm.shape[0] - 1):
            cm = cm.toarray()
        space = targets.space
        confusions = top_confusions(
            cm,
            int(top_k),
            names,
            ntl_label="NTL",
            npl_label="NPL",
            include_no_label=include_no_label,
        )
        label_sets = top_labelset_confusions(targets, int(top_k), names)
        curve = None
        if scores is not None:
            curve = threshold_curve(
                None if targets.kind == "array_api" else space.y_true,
                scores,
                names,
                targets.weight,
                thresholds=thresholds,
                metric=metric,
                average=average,
                method=method,
                beta=1.0,
                tn="complement",
                zero_division=0.0 if zero_division == "warn" else zero_division,
                one_vs_rest=False,
            )
        rows = targets.device if targets.kind == "array_api" else space
        codes = space.codes
        n_samples = codes[0].shape[0] if codes is not None else rows.y_true.shape[0]
        return cls(
            cm,
            report,
            target_names=names,
            method=method,
            n_samples=int(n_samples),
            most_confused=confusions,
            labelset_confusions=label_sets,
            threshold_curve=curve,
            confidence_level=None if bounds is None else float(confidence_level),
            interval_legend=None if bounds is None else bounds.legend,
            include_no_label=include_no_label,
        )

    @classmethod
    @validate_params(
        {
            "estimator": [HasMethods("predict")],
            "X": ["array-like", "sparse matrix"],
            "y": ["array-like", "sparse matrix"],
            **_REPORT_CONSTRAINTS,
        },
        rules=(_check_classifier, *_RULES),
    )
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        target_names=None,
        labels=None,
        sample_weight=None,
        method="heydarian",
        include_no_label=False,
        zero_division="warn",
        metrics=DEFAULT_METRICS,
        confidence_level=None,
        n_resamples=9999,
        interval="bca",
        groups=None,
        random_state=None,
        n_jobs=None,
        top_k=20,
        thresholds=None,
        metric="f1",
        average="macro",
    ):
        """Evaluate a fitted classifier on ``X`` against ``y``.

        The predictions are ``estimator.predict(X)``; the scores of the
        threshold curve ``predict_proba(X)`` (a list of (n_samples, 2)
        arrays, one per label, as :class:`~sklearn.multioutput.MultiOutputClassifier`
        gives, is read through its column 1, and a label that had one class
        only in training, with one column, through the estimator's
        ``classes_``: 0 for class 0; an (n_samples, n_labels) array as it
        is), else ``decision_function(X)``. An estimator with neither,
        or 1-D class labels ``y``, gives a report without a curve.

        Read more in the :ref:`User Guide <reporting>`.

        Parameters
        ----------
        estimator : fitted classifier
            A multi-label (or multi-class) scikit-learn classifier, or a
            pipeline ending in one.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : {array-like, sparse matrix, DataFrame} of shape \
                (n_samples, n_labels) or (n_samples,)
            Ground truth labels. A frame's column names name the labels.

        target_names, labels, sample_weight, method, include_no_label, \
zero_division, metrics, confidence_level, n_resamples, interval, groups, \
random_state, n_jobs, top_k, thresholds, metric, average
            As in :meth:`from_predictions`.

        Returns
        -------
        report : MLCMReport

        Examples
        --------
        >>> from sklearn.datasets import make_multilabel_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.multioutput import MultiOutputClassifier
        >>> from sklearn_mlcm import MLCMReport
        >>> X, Y = make_multilabel_classification(
        ...     n_samples=200, n_classes=3, random_state=0)
        >>> clf = MultiOutputClassifier(LogisticRegression()).fit(X[:150], Y[:150])
        >>> report = MLCMReport.from_estimator(
        ...     clf, X[150:], Y[150:], target_names=["a", "b", "c"],
        ...     zero_division=0.0)
        >>> report
        MLCMReport: 3 labels (a, b, c), 50 instances, method='heydarian'
        micro F1 0.72, macro F1 0.72
        most confused: b -> a (5)
        best threshold: 0.475 (macro F1 0.72; in-sample, optimistic)
          thresholds chosen out of sample: MLCMTunedThresholdClassifierCV

        An :class:`MLCMTunedThresholdClassifierCV` brings its thresholds
        and how far they moved across its folds (``threshold_spread_``),
        which the report prints and the page shows beside the curve.
        """
        y_pred = estimator.predict(X)
        y_score = None
        if np.ndim(_shape_only(y)) == 2:
            for response in ("predict_proba", "decision_function"):
                if callable(getattr(estimator, response, None)):
                    y_score = response_scores(estimator, X, response)
                    break
        columns = frame_columns(y)
        if columns is not None and frame_columns(y_pred) is None:
            # predict's columns are y's by position (scikit-learn's contract):
            # y is read as its values, its column names name the labels
            y = read_frame(y, "y")[0]
            if labels is not None:
                labels = check_indicator_labels(labels, len(columns), columns)
            if target_names is None:
                kept = range(len(columns)) if labels is None else labels
                target_names = [str(columns[i]) for i in kept]
        report = cls.from_predictions(
            y,
            y_pred,
            y_score=y_score,
            target_names=target_names,
            labels=labels,
            sample_weight=sample_weight,
            method=method,
            include_no_label=include_no_label,
            zero_division=zero_division,
            metrics=metrics,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            interval=interval,
            groups=groups,
            random_state=random_state,
            n_jobs=n_jobs,
            top_k=top_k,
            thresholds=thresholds,
            metric=metric,
            average=average,
        )
        report.threshold_spread = _tuned_spread(estimator, labels)
        return report

    # -- pictures --------------------------------------------------------------

    @validate_params(
        {
            "ax": [HasMethods("imshow"), None],
            "top_k": [Options("auto"), Interval(Integral, 1, None), None],
            "order": [Options("original", "cluster")],
            "normalize": [Options("true", "pred", "all"), None],
            "ntl_label": [str],
            "npl_label": [str],
        }
    )
    def plot(
        self,
        *,
        ax=None,
        top_k="auto",
        order="original",
        normalize=None,
        ntl_label="NTL",
        npl_label="NPL",
        **kwargs,
    ):
        """Draw the stored matrix as an :class:`MLCMDisplay`.

        Nothing is computed again: the picture is drawn from
        ``confusion_matrix``.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; by default a new figure.

        top_k : "auto", int or None, default="auto"
            The labels drawn: "auto" draws every label up to 40 and the 40
            most involved in confusion above (:func:`most_confused_labels`);
            an int that many; None every label.

        order : {"original", "cluster"}, default="original"
            Order of the drawn labels (see :func:`most_confused_labels`).

        normalize : {"true", "pred", "all"}, default=None
            Normalise over rows, columns or the whole matrix.

        ntl_label, npl_label : str, default="NTL", "NPL"
            The names of the no-true-label row and the no-predicted-label
            column (see :class:`MLCMDisplay`); with ``include_no_label``
            (the default) neither may be a label's name.

        **kwargs : dict
            Passed to :meth:`MLCMDisplay.plot` (``cmap``, ``include_values``,
            ``colorbar``, ``include_no_label``, ...).

        Returns
        -------
        display : MLCMDisplay
            With ``shown_labels_``, the indices of the drawn labels; the axes
            title says which when they are not all drawn in order.

        Raises
        ------
        ValueError
            When a target name is text matplotlib cannot draw: wrong mathtext
            between two "$" signs (escape each "$" as ``"\\$"``); when
            ``ntl_label`` or ``npl_label`` is a label's name.
        """
        # the names drawn are the report's: refused as target_names, not as
        # the display's display_labels, which this method has not
        check_target_names(
            self.target_names,
            len(self.target_names),
            no_label=(
                (ntl_label, npl_label) if kwargs.get("include_no_label", True) else ()
            ),
            renamable=True,
        )
        _check_mathtext(self.target_names, "target_names")
        cm = self.confusion_matrix
        drawn = cm if normalize is None else _normalize(cm, normalize)
        # the labels drawn and the title: as MLCMDisplay.from_predictions
        return MLCMDisplay._from_matrix(
            drawn,
            self.target_names,
            top_k=top_k,
            order=order,
            ntl_label=ntl_label,
            npl_label=npl_label,
            ax=ax,
            **kwargs,
        )

    @validate_params({"ax": [HasMethods("plot"), None]})
    def plot_threshold_curve(self, *, ax=None, **kwargs):
        """Draw the stored threshold curve as an :class:`MLCMThresholdCurveDisplay`.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; by default a new figure.

        **kwargs : dict
            Passed to :meth:`MLCMThresholdCurveDisplay.plot`
            (``label_lines``, ``operating_point``, ...).

        Returns
        -------
        display : MLCMThresholdCurveDisplay

        Raises
        ------
        ValueError
            When the report has no curve (it was built without scores).
        """
        curve = self.threshold_curve
        if curve is None:
            raise ValueError(
                "MLCMReport.plot_threshold_curve draws the threshold curve of "
                "the scores, and this report was built without them. Pass "
                "y_score=... to MLCMReport.from_predictions, or use "
                "from_estimator with a classifier that has predict_proba or "
                "decision_function."
            )
        display = MLCMThresholdCurveDisplay(
            curve.thresholds,
            curve.scores,
            label_scores=curve.label_scores,
            ovr_scores=curve.ovr_scores,
            ovr_label_scores=curve.ovr_label_scores,
            target_names=list(curve.target_names),
            metric=curve.metric,
            average=curve.average,
        )
        return display.plot(ax=ax, **kwargs)

    # -- tables and pages -----------------------------------------------------

    def to_frame(self):
        """The report as a tidy pandas DataFrame.

        Returns
        -------
        frame : DataFrame
            One row per label, then per average ("micro avg", "macro avg",
            "weighted avg" and, for 2-D input, "samples avg"), indexed by
            name (index name "label"); the columns ``kind`` ("label",
            "average", or "no label" for the row of the no-label index with
            ``include_no_label``), the report's statistics (``precision``,
            ``recall``, ``f1-score`` by default, the ``metrics`` chosen),
            ``weight``, ``support`` and, with intervals, ``<score> low``,
            ``<score> high`` and ``<score> flag`` of each (``precision
            low``, ...; the flag an object column, None where the interval
            can be trusted, else the reason it cannot). The scores and
            bounds are float64 (NaN in the "samples avg" row for a
            statistic without a samples average); ``weight`` and
            ``support`` int64 when all of a column's values are integers
            that int64 holds, else float64
            (fractional sample weights, ``method="krstinic"``, amounts of
            2**63 or more). pandas is needed
            (``pip install "sklearn-mlcm[pandas]"``).

        Examples
        --------
        >>> from sklearn_mlcm import MLCMReport
        >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
        ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
        >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
        ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
        >>> report = MLCMReport.from_predictions(
        ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
        >>> frame = report.to_frame()
        >>> frame.loc[["C0", "macro avg"], ["kind", "f1-score", "support"]]
                      kind  f1-score  support
        label
        C0           label  0.625000        7
        macro avg  average  0.396212       13
        >>> frame["support"].dtype
        dtype('int64')
        """
        return report_frame(
            table_of_report(self.report),
            what="MLCMReport.to_frame()",
            include_no_label=self.include_no_label,
        )

    @validate_params({"digits": [Interval(Integral, 0, 20)]})
    def to_markdown(self, *, digits=2):
        """The report as a GitHub markdown (pipe) table.

        With intervals a flagged one ends with its mark (``†1``), an
        undefined score shows as ``—`` with its mark, and the reasons follow
        the table as a list.

        Label names are escaped (``|`` as ``\\|``, markdown's other marks
        such as ``* _ ` [ ] < > & ~ !`` backslash-escaped, control
        characters and line breaks shown as the text report shows them,
        ``\\x1b``, ``\\n``), so that every row keeps its columns, a name
        prints as written and no terminal acts on it.

        Parameters
        ----------
        digits : int, default=2
            Decimals of the scores (and their intervals).

        Returns
        -------
        table : str

        Examples
        --------
        >>> from sklearn_mlcm import MLCMReport
        >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
        ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
        >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
        ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
        >>> report = MLCMReport.from_predictions(
        ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
        >>> print(report.to_markdown(digits=3))
        | label | precision | recall | f1-score | weight | support |
        |:---|---:|---:|---:|---:|---:|
        | C0 | 1.000 | 0.455 | 0.625 | 11 | 7 |
        | C1 | 0.400 | 0.333 | 0.364 | 6 | 5 |
        | C2 | 0.111 | 1.000 | 0.200 | 1 | 1 |
        | micro avg | 0.421 | 0.444 | 0.432 | 18 | 13 |
        | macro avg | 0.504 | 0.596 | 0.396 | 18 | 13 |
        | weighted avg | 0.751 | 0.444 | 0.514 | 18 | 13 |
        | samples avg | 0.389 | 0.463 | 0.400 | 18 | 13 |
        <BLANKLINE>
        """
        table = table_of_report(self.report)
        headers, rows, _ = report_cells(table, digits=int(digits))
        notes = markdown_notes(FLAG_HEADING, flag_lines(table, printed=False))
        return markdown_table(headers, rows) + notes

    @validate_params({"digits": [Interval(Integral, 0, 20)]})
    def to_latex(self, *, digits=2):
        """The report as a LaTeX ``tabular`` (booktabs rules).

        With intervals a flagged one ends with its mark (``†1``), an
        undefined score shows as ``—`` with its mark, and the reasons follow
        the ``tabular`` in ``\\footnotesize``.

        Label names are escaped (``& % $ # _ { } ~ ^ \\ | < >``, a leading
        ``[`` as ``{[}``, control characters and line breaks shown as the
        text report shows them, ``\\x1b``, ``\\n``) and TeX's input ligatures
        broken (``--`` as ``-\\/-``, and the pairs of quotes, commas and
        ``?``/``!`` before a backquote alike), so that a name prints as
        written; a rule separates the labels
        from the averages. Needs
        ``\\usepackage{booktabs}``.

        Parameters
        ----------
        digits : int, default=2
            Decimals of the scores (and their intervals).

        Returns
        -------
        table : str

        Examples
        --------
        >>> from sklearn_mlcm import MLCMReport
        >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
        ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
        >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
        ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
        >>> report = MLCMReport.from_predictions(
        ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
        >>> print(report.to_latex())
        \\begin{tabular}{lrrrrr}
        \\toprule
        label & precision & recall & f1-score & weight & support \\\\
        \\midrule
        C0 & 1.00 & 0.45 & 0.62 & 11 & 7 \\\\
        C1 & 0.40 & 0.33 & 0.36 & 6 & 5 \\\\
        C2 & 0.11 & 1.00 & 0.20 & 1 & 1 \\\\
        \\midrule
        micro avg & 0.42 & 0.44 & 0.43 & 18 & 13 \\\\
        macro avg & 0.50 & 0.60 & 0.40 & 18 & 13 \\\\
        weighted avg & 0.75 & 0.44 & 0.51 & 18 & 13 \\\\
        samples avg & 0.39 & 0.46 & 0.40 & 18 & 13 \\\\
        \\bottomrule
        \\end{tabular}
        <BLANKLINE>
        """
        table = table_of_report(self.report)
        headers, rows, n_labels = report_cells(table, digits=int(digits))
        notes = latex_notes(FLAG_HEADING, flag_lines(table, printed=False))
        return latex_table(headers, rows, rules_after=(n_labels - 1,)) + notes

    @validate_params(
        {"path": [str, os.PathLike, None], "title": [str, None]},
        rules=(_path_is_a_file_to_write,),
    )
    def to_html(self, path=None, *, title=None):
        """The report as one self-contained HTML page.

        Parameters
        ----------
        path : str or path-like, default=None
            Where to write the page (atomically: a file is replaced whole
            or not at all; a pipe, ``/dev/stdout`` or another character
            device is written directly, never replaced; a directory, a
            socket or a block device is refused). None: return it.
        title : str or None, default=None
            The page's title and heading (escaped, as every name on the
            page); None for "Multi-label confusion report".

        Returns
        -------
        page : str or path
            The page when ``path`` is None, else the path written.

        Examples
        --------
        >>> from sklearn_mlcm import MLCMReport
        >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
        ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
        >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
        ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
        >>> report = MLCMReport.from_predictions(
        ...     y_true, y_pred, target_names=["C0", "C1", "C2"], zero_division=0.0)
        >>> page = report.to_html()
        >>> page.startswith("<!DOCTYPE html>")
        True
        >>> import tempfile
        >>> from pathlib import Path
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = report.to_html(Path(folder, "report.html"))
        ...     print(path.name, path.read_text(encoding="utf-8") == page)
        report.html True
        """
        from ._page import render_page, write_page

        if path is None:
            return render_page(self, title=title)
        return write_page(self, path, title=title)

    def _repr_html_(self):
        """The page, for Jupyter."""
        from ._page import render_page

        return render_page(self)

    def __repr__(self):
        return report_summary(self)

    # -- experiment trackers --------------------------------------------------

    @validate_params(
        {
            "prefix": [str],
            "step": [Interval(Integral, 0, None), None],
            "page": ["boolean"],
            "plot": ["boolean"],
        }
    )
    def log_mlflow(self, *, prefix="mlcm", step=None, page=True, plot=True):
        """Log the report into the active MLflow run.

        The headline scalars as metrics (``mlcm/macro_f1``, and with
        intervals ``mlcm/macro_f1_low`` and ``mlcm/macro_f1_high``), the
        per-label table and the matrix as table artifacts
        (``mlcm/report.json``, ``mlcm/confusion_matrix.json``), the page
        (``mlcm/report.html``) and the picture
        (``mlcm/confusion_matrix.png``). As MLflow's ``log_metric``, it
        starts a run when none is active. Needs mlflow
        (``pip install "sklearn-mlcm[mlflow]"``).

        Read more in the :ref:`User Guide <torch_and_trackers>`.

        Parameters
        ----------
        prefix : str, default="mlcm"
            The metrics' names and the artifacts' folder start with it;
            "" for none.
        step : int, default=None
            The metrics' step (MLflow's ``step``).
        page : bool, default=True
            Log the HTML page.
        plot : bool, default=True
            Log the picture of the matrix (needs matplotlib).

        Returns
        -------
        self : MLCMReport
        """
        from ._trackers import log_mlflow

        log_mlflow(self, prefix=prefix, step=step, page=page, plot=plot)
        return self

    @validate_params(
        {
            "run": [HasMethods("log"), None],
            "prefix": [str],
            "step": [Interval(Integral, 0, None), None],
            "page": ["boolean"],
            "plot": ["boolean"],
        }
    )
    def log_wandb(self, run=None, *, prefix="mlcm", step=None, page=True, plot=True):
        """Log the report into a Weights & Biases run.

        The headline scalars (``mlcm/macro_f1``, with intervals
        ``mlcm/macro_f1_low`` and ``mlcm/macro_f1_high``), the per-label
        table and the matrix as ``wandb.Table`` (``mlcm/report``,
        ``mlcm/confusion_matrix``), the page as ``wandb.Html``
        (``mlcm/page``) and the picture as ``wandb.Image``
        (``mlcm/confusion_matrix_plot``), in one ``run.log``. Needs wandb
        (``pip install "sklearn-mlcm[wandb]"``).

        Read more in the :ref:`User Guide <torch_and_trackers>`.

        Parameters
        ----------
        run : wandb Run, default=None
            The run to log into; None for ``wandb.run``, the active one.
        prefix : str, default="mlcm"
            The keys start with it; "" for none.
        step : int, default=None
            W&B's ``step``.
        page : bool, default=True
            Log the HTML page.
        plot : bool, default=True
            Log the picture of the matrix (needs matplotlib).

        Returns
        -------
        self : MLCMReport
        """
        from ._trackers import log_wandb

        log_wandb(self, run, prefix=prefix, step=step, page=page, plot=plot)
        return self


def _tuned_spread(estimator, labels):
    """The ``threshold_spread_`` of a tuned estimator (None for any other),
    with the columns of ``labels`` (positions, or None for all)."""
    spread = getattr(estimator, "threshold_spread_", None)
    if not isinstance(spread, ThresholdSpread):
        return None
    if labels is None or np.ndim(spread.best_threshold) == 0:
        return spread
    kept = np.asarray(labels, dtype=np.intp)
    return ThresholdSpread(
        spread.fold_thresholds[:, kept],
        spread.best_threshold[kept],
        spread.first_candidate[kept],
        spread.last_candidate[kept],
    )


def _shape_only(y):
    """Something ``np.ndim`` reads without converting a sparse matrix or a
    frame's values."""
    if sparse.issparse(y) or hasattr(y, "shape"):
        return np.empty(tuple(y.shape), dtype=bool)
    return y


def _checked_names(targets, target_names, include_no_label):
    """The report's label names, checked once: ``target_names`` (or the
    targets' own names), one per label, unique, none of the averages' rows
    (nor "no label" with ``include_no_label``), nor "NTL" and "NPL", the
    row and column of the no-label index that its picture and page draw."""
    averages = REPORT_AVERAGES
    if targets.space.codes is None:  # 2-D input: the samples average too
        averages += (SAMPLES_AVERAGE,)
    reserved = {f"{a} avg" for a in averages}
    if include_no_label:
        reserved.add(NO_LABEL_NAME)
    names = targets.names if target_names is None else target_names
    return check_target_names(
        names, targets.n_labels, reserved, no_label=("NTL", "NPL")
    )
