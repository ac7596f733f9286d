"""MLCMTunedThresholdClassifierCV: thresholds tuned for an MLCM score.

The multi-label counterpart of scikit-learn's ``TunedThresholdClassifierCV``:
validation and packaging here, the search in :mod:`._search`.
"""

import numbers
import warnings

import numpy as np
import sklearn
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.model_selection import (
    KFold,
    check_cv,
    cross_val_predict,
    train_test_split,
)
from sklearn.utils import _safe_indexing, check_consistent_length
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from sklearn_mlcm._param_validation import (
    HasMethods,
    Interval,
    InvalidInputError,
    Options,
    check_parameter,
    invalid_parameter,
    public_call,
    validate_params,
)
from sklearn_mlcm._scores import SCORER_SPECS, make_mlcm_scorer
from sklearn_mlcm._uncertainty._margins import as_dense_bool
from sklearn_mlcm._uncertainty._parallel import N_JOBS
from sklearn_mlcm._validation._matrices import MAX_DENSE_BYTES
from sklearn_mlcm._validation._targets import check_sample_weight, validate_targets

from ._decision import decide_dense
from ._search import (
    MAX_SWEEPS,
    MarginObjective,
    ScorerObjective,
    search_thresholds,
)
from ._stability import ThresholdSpread
from ._validation import check_threshold_count, evenly_spaced

__all__ = ["MLCMTunedThresholdClassifierCV"]

_NAME = "MLCMTunedThresholdClassifierCV"

#: The scorer names ``scoring`` takes: those of :func:`mlcm_scorers`.
SCORER_NAMES = tuple(sorted(SCORER_SPECS))

#: Options of an MLCM scorer that the margins can read (the fast path).
_MARGIN_OPTIONS = {"beta", "tn", "zero_division"}

_DATA = ["array-like", "sparse matrix"]


def _estimator_has(attr):
    """``available_if`` check: the fitted estimator, else the given one, has
    ``attr`` (scikit-learn's pattern)."""

    def check(self):
        estimator = getattr(self, "estimator_", self.estimator)
        getattr(estimator, attr)
        return True

    return check


class MLCMTunedThresholdClassifierCV(
    ClassifierMixin, MetaEstimatorMixin, BaseEstimator
):
    """Multi-label classifier whose decision thresholds are tuned for an MLCM score.

    The multi-label counterpart of scikit-learn's
    :class:`~sklearn.model_selection.TunedThresholdClassifierCV`: it wraps a
    multi-label classifier that outputs scores (``predict_proba`` or
    ``decision_function``: native multi-label estimators such as
    :class:`~sklearn.neighbors.KNeighborsClassifier`,
    :class:`~sklearn.ensemble.RandomForestClassifier` or
    :class:`~sklearn.neural_network.MLPClassifier`,
    :class:`~sklearn.multiclass.OneVsRestClassifier`,
    :class:`~sklearn.multioutput.MultiOutputClassifier`,
    :class:`~sklearn.multioutput.ClassifierChain`, or a pipeline ending in
    one), and chooses the threshold(s) that turn the scores into predicted
    label sets so as to maximise a score of the multi-label confusion matrix
    (by default the MLCM's macro F1).

    The thresholds are chosen on cross-validated scores of the training data
    (each training instance scored by a model that did not see it), never on
    the data ``predict`` is later called on; the estimator is then refitted on
    the whole training set. The MLCM score is not separable per label (a
    label's wrong predictions land in other labels' rows), so per-label
    thresholds are found by a search over all of them together.

    Read more in the :ref:`User Guide <tuning_thresholds>`.

    Parameters
    ----------
    estimator : estimator instance
        The multi-label classifier, fitted or not (with ``cv="prefit"``),
        with ``fit`` and ``predict_proba`` or ``decision_function``.

    scoring : str or callable, default="mlcm_f1_macro"
        The score to maximise: a name of :func:`mlcm_scorers`
        (``"mlcm_{metric}_{average}"``, ``"mlcm_neg_{metric}_{average}"``
        for an error rate, whose negation is maximised), or a scorer callable
        ``scorer(estimator, X, y)`` such as :func:`make_mlcm_scorer`'s (any
        metric, ``beta``, ``method="krstinic"``) or scikit-learn's
        (``sklearn.metrics.get_scorer("f1_macro")``, the one-vs-rest macro
        F1). The MLCM scorers without ``labels`` or ``include_no_label`` are
        read off the matrix's margins (fast), but for the samples averages
        (``"mlcm_f1_samples"``, ...); any other scorer is called once
        per candidate threshold (slow for per-label tuning: about
        ``thresholds x n_labels x sweeps`` calls).

    response_method : {"auto", "predict_proba", "decision_function"}, \
            default="auto"
        The estimator's method that gives the scores: "auto" takes
        ``predict_proba`` if the estimator has it, else
        ``decision_function``.

    thresholds : int or array-like of shape (n_thresholds,), default=100
        The candidate thresholds. An int: that many values evenly spaced
        between the smallest and the largest cross-validated score (of all
        labels for the global threshold, of each label for its own in the
        per-label search). An array: these values, strictly increasing,
        for every label (within [0, 1] when the scores are probabilities).

    strategy : {"per_label", "global"}, default="per_label"
        "per_label": one threshold per label, by coordinate ascent from the
        best global threshold: each label's threshold in turn is moved to its
        best candidate while the others stay fixed; the labels are swept in
        order until a sweep moves no threshold, or after 10 sweeps (a
        :class:`~sklearn.exceptions.ConvergenceWarning` then says so). A
        threshold moves only to a strictly better score, so the per-label
        thresholds never score below the best global threshold on the
        cross-validated scores. "global": one threshold for every label.
        The default is the setting that did better on held-out data: over
        18 pairs of MULAN data set and classifier, per-label thresholds
        gained 0.027 MLCM macro F1 over 0.5 on average (up to 0.16, a forest
        on *medical*), a global one 0.013; neither gained beyond noise for a
        well-calibrated logistic regression (``benchmarks/README.md``).

    top_k : int, default=None
        Keep at most the ``top_k`` highest-scored labels of those passing
        their thresholds, per instance. At most the number of labels.

    at_least_one : bool, default=False
        Predict the highest-scored label of an instance where no label
        passes.

    cv : int, float, cross-validation generator, iterable or "prefit", \
            default=None
        How the training data are scored for the tuning:

        - None (5 folds), an int (that many folds: a shuffled
          :class:`~sklearn.model_selection.KFold` seeded by
          ``random_state``), a splitter or an iterable of (train, test)
          index arrays whose test folds partition the training instances:
          each instance is scored once, by the model of the fold that left
          it out, and the thresholds are tuned on these pooled
          out-of-fold scores;
        - a float in (0, 1): one shuffled split; that fraction of the
          training data is held out, scored by a model fitted on the rest,
          and the thresholds are tuned on it;
        - "prefit": ``estimator`` is already fitted and the data passed to
          ``fit`` are scored by it and used for the tuning only: they must
          not be the data it was fitted on.

    refit : bool, default=True
        Refit the estimator on the whole training set once the thresholds
        are found. False is allowed only with a float ``cv`` (the model
        fitted on the kept part is used) and is required with
        ``cv="prefit"``.

    n_jobs : int, default=None
        Folds fitted in parallel (``None`` means 1 unless in a
        :obj:`joblib.parallel_backend` context, ``-1`` all processors).

    random_state : int, RandomState instance or None, default=None
        The shuffling of the folds (``cv`` None or an int) and of the
        held-out split (a float ``cv``). Pass an int for the same tuning at
        every fit.

    store_cv_results : bool, default=False
        Keep the scores of every candidate in ``cv_results_``.

    Attributes
    ----------
    estimator_ : estimator instance
        The fitted classifier used by ``predict``.

    best_threshold_ : float or ndarray of shape (n_labels,)
        The tuned threshold: a float for ``strategy="global"``, one float64
        per label for ``"per_label"``. A label is predicted where its score
        is at least its threshold (then ``top_k`` and ``at_least_one``
        apply).

    best_score_ : float
        The score at ``best_threshold_`` on the cross-validated scores of
        the training data.

    fold_thresholds_ : ndarray of shape (n_folds,) or (n_folds, n_labels)
        The thresholds tuned on each fold's held-out scores alone (the same
        score, candidates and search as ``best_threshold_``, on that fold's
        rows of the out-of-fold scores; nothing is refitted): their spread
        shows how much the tuned thresholds depend on which instances were
        held out. (n_folds,) for ``strategy="global"``. With a float ``cv``
        or ``"prefit"`` there is one fold, the tuning data, and its row is
        ``best_threshold_``.

    threshold_spread_ : ThresholdSpread
        The spread of ``fold_thresholds_``: per label the lowest, median
        and highest fold threshold (``low``, ``median``, ``high``), their
        ``range``, and ``unstable``, True where the range exceeds 0.2 times
        the span of the label's candidate thresholds. It prints a summary
        and has ``to_frame()``. With one fold the spread cannot be judged:
        ``range`` is NaN and ``unstable`` None.

    cv_results_ : dict of ndarray
        Only with ``store_cv_results=True``. ``"thresholds"`` (m,) and
        ``"scores"`` (m,): the global candidates and their scores. With
        ``strategy="per_label"`` also ``"label_thresholds"`` (m, n_labels),
        each label's candidates, ``"label_scores"`` (m, n_labels), the score
        of each candidate of a label with the other labels at their
        thresholds in the last sweep (at the final thresholds when the
        search converged), and ``"n_sweeps"``.

    classes_ : ndarray or list of ndarray
        The estimator's ``classes_``.

    n_features_in_ : int
        Number of features seen during ``fit``. Only defined if the
        estimator exposes it when fitted.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during ``fit``. Only defined if the
        estimator exposes them when fitted.

    See Also
    --------
    sklearn.model_selection.TunedThresholdClassifierCV : The binary
        counterpart; it refuses multi-label targets, and averages per-fold
        scores where this estimator pools the out-of-fold scores (see the
        user guide's table of differences).
    decide_labels : The decision rules (threshold, ``top_k``,
        ``at_least_one``) that ``predict`` applies.
    mlcm_threshold_curve : The MLCM's scores across thresholds.
    MLCMThresholdCurveDisplay : The same as a picture.
    make_mlcm_scorer : Scorers for ``scoring``.

    Notes
    -----
    **The search.** The global stage scores each candidate threshold (one
    matrix's margins each; the threshold curve's sweep for Heydarian's
    matrix). The per-label stage needs a search because the MLCM score is
    not separable: when only label j's threshold moves, each instance's
    predicted set takes one of two values (j passing or not, whatever
    ``top_k`` and ``at_least_one`` make of it), and the MLCM is a sum over
    instances, so the margins (diagonal, row sums, column sums) at all of
    label j's candidates come from one pass over the instances, bucketed by
    their score. Each instance's margins are functions of its set sizes
    times its rows of T & P, T and P, so a pass costs O(n_samples +
    non-zeros) plus O(n_thresholds x n_labels); a sweep is n_labels passes,
    and the search stops when a sweep moves nothing (2 to 6 sweeps on the
    MULAN data) or after 10. Per-label tuning of MULAN's *bibtex* (4,880
    instances, 159 labels) takes seconds (``benchmarks/README.md``).
    ``top_k`` and ``at_least_one`` apply the rule twice per step, which
    costs O(n_samples x n_labels log n_labels). Krstinić's fractional
    matrix (``make_mlcm_scorer(..., method="krstinic")``) has per-instance
    margins of the same form and takes the same path.

    **Why pooled out-of-fold scores.** ``TunedThresholdClassifierCV``
    computes the score on each validation fold and averages the curves; an
    MLCM macro score of a small fold leaves rare labels undefined or
    decided by one instance. Here the out-of-fold scores of all folds are
    pooled into one matrix, which every label's threshold is tuned on. The
    folds' models must score on comparable scales, as probabilities do; for
    ``decision_function`` of differently regularised folds prefer
    ``response_method="predict_proba"`` where it exists.

    **How stable the thresholds are.** scikit-learn's estimator keeps one
    threshold; here each fold's held-out scores are also tuned alone
    (``fold_thresholds_``), from the out-of-fold scores already computed
    (no refit). A global threshold's fold searches cost about one more
    search; a per-label step has a part that does not shrink with the
    fold (scoring every candidate of a label), so 5 folds of bibtex-sized
    scores (4,880 x 159) take about 3 times the pooled search (8 s against
    2.7 s, synthetic scores), the classifier's fits not counted. A fold
    holds a k-th of the data, so its thresholds vary more than the pooled
    ones; a label whose fold
    thresholds range over more than a fifth of its candidates' span
    (``threshold_spread_.unstable``) has a threshold the data do not pin
    down: a rare label, or a flat score around its best. The rule is a
    reading aid, not a test.

    **scikit-learn's estimator checks.** The estimator learns multi-label
    targets only (a 2-D 0/1 indicator matrix): 1-D targets are refused
    (:class:`~sklearn.model_selection.TunedThresholdClassifierCV` tunes
    binary ones). The common checks that fit 1-D binary or multi-class
    targets cannot pass and are declared expected failures (the
    ``_xfail_checks`` tag of scikit-learn < 1.6, and
    ``expected_failed_checks`` of :func:`~sklearn.utils.estimator_checks.
    check_estimator` from 1.6, as the test suite passes them); every
    multi-label check passes.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.
       doi:10.1109/ACCESS.2022.3151048

    Examples
    --------
    >>> from sklearn.datasets import make_multilabel_classification
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn_mlcm import MLCMTunedThresholdClassifierCV, mlcm_f1_score
    >>> X, y = make_multilabel_classification(n_samples=400, n_classes=5,
    ...                                       random_state=0)
    >>> X_train, X_test, y_train, y_test = X[:300], X[300:], y[:300], y[300:]
    >>> forest = RandomForestClassifier(n_estimators=30, random_state=0)
    >>> tuned = MLCMTunedThresholdClassifierCV(forest, random_state=0)
    >>> tuned.fit(X_train, y_train).best_threshold_.round(2)
    array([0.4 , 0.51, 0.41, 0.47, 0.47])
    >>> round(tuned.best_score_, 3)  # on the out-of-fold scores
    0.549
    >>> tuned.fold_thresholds_.shape  # tuned on each fold's held-out part
    (5, 5)
    >>> tuned.threshold_spread_
    ThresholdSpread: 4 of 5 label thresholds unstable across 5 folds
    unstable: the folds' range exceeds 0.2 of the span of the candidate thresholds
    label   tuned  fold low  median    high   range  stability
    0      0.4040    0.3367  0.4377  0.5387  0.2020  unstable
    1      0.5061    0.3710  0.5411  0.6374  0.2663  unstable
    2      0.4054    0.3394  0.4687  0.5374  0.1980  unstable
    3      0.4687    0.4061  0.5077  0.5677  0.1616  unstable
    4      0.4687    0.4670  0.4687  0.5707  0.1037  stable
    >>> base = forest.fit(X_train, y_train)  # its predict: probabilities > 0.5
    >>> print(f"{mlcm_f1_score(y_test, base.predict(X_test)):.3f}")
    0.475
    >>> print(f"{mlcm_f1_score(y_test, tuned.predict(X_test)):.3f}")
    0.493
    """

    _parameter_constraints = {
        "estimator": [
            HasMethods("fit", "predict_proba"),
            HasMethods("fit", "decision_function"),
        ],
        "scoring": [Options(*SCORER_NAMES), "callable"],
        "response_method": [Options("auto", "predict_proba", "decision_function")],
        "thresholds": [Interval(numbers.Integral, 1, None), "array-like"],
        "strategy": [Options("global", "per_label")],
        "top_k": [Interval(numbers.Integral, 1, None), None],
        "at_least_one": ["boolean"],
        "cv": [
            Interval(numbers.Integral, 2, None),
            Interval(numbers.Real, 0, 1, closed="neither"),
            Options("prefit"),
            HasMethods("split", "get_n_splits"),
            "iterable",
            None,
        ],
        "refit": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": [
            Interval(numbers.Integral, 0, 2**32 - 1),
            np.random.RandomState,
            None,
        ],
        "store_cv_results": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        *,
        scoring="mlcm_f1_macro",
        response_method="auto",
        thresholds=100,
        strategy="per_label",
        top_k=None,
        at_least_one=False,
        cv=None,
        refit=True,
        n_jobs=None,
        random_state=None,
        store_cv_results=False,
    ):
        self.estimator = estimator
        self.scoring = scoring
        self.response_method = response_method
        self.thresholds = thresholds
        self.strategy = strategy
        self.top_k = top_k
        self.at_least_one = at_least_one
        self.cv = cv
        self.refit = refit
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.store_cv_results = store_cv_results

    # -- validation -----------------------------------------------------------

    def _validate_parameters(self):
        """The constructor's parameters, checked at fit as scikit-learn does."""
        with public_call(_NAME):  # the constructor's parameters: the class
            self._check_constructor_parameters()

    def _check_constructor_parameters(self):
        for name, constraints in self._parameter_constraints.items():
            check_parameter(getattr(self, name), constraints, name)
        if isinstance(self.cv, str) and self.refit:
            raise invalid_parameter(
                "refit",
                "False with cv='prefit' (the prefitted estimator is used as it is)",
                self.refit,
            )
        if not self.refit and not self._single_split():
            raise invalid_parameter(
                "refit",
                "True unless cv is a float (one split) or 'prefit': the models of "
                "several folds cannot all be used by predict",
                self.refit,
            )

    def _single_split(self):
        return isinstance(self.cv, str) or (
            isinstance(self.cv, numbers.Real)
            and not isinstance(self.cv, numbers.Integral)
        )

    def _response_method(self):
        """The method giving the scores: "auto" takes predict_proba first."""
        if self.response_method != "auto":
            method = self.response_method
        elif hasattr(self.estimator, "predict_proba"):
            method = "predict_proba"
        else:
            method = "decision_function"
        if not hasattr(self.estimator, method):
            raise invalid_parameter(
                "response_method",
                f"a method of the estimator; {type(self.estimator).__name__} has "
                f"no {method!r}",
                self.response_method,
            )
        return method

    def _scorer(self):
        """The scorer object, made from a name if need be."""
        if isinstance(self.scoring, str):
            metric, average = SCORER_SPECS[self.scoring]
            return make_mlcm_scorer(metric, average=average)
        return self.scoring

    def _objective(self, scorer, y_true, y, score_params):
        """The margins' fast path for an MLCM scorer it can read, else the
        scorer called on the predictions (a samples average is no function
        of the margins)."""
        options = getattr(scorer, "_mlcm_options", None)
        weight = score_params.get("sample_weight")
        if (
            options is not None
            and options["average"] != "samples"
            and set(score_params) <= {"sample_weight"}
            and set(options) - {"metric", "average", "method"} <= _MARGIN_OPTIONS
        ):
            weight = check_sample_weight(weight, y_true.shape[0])
            return MarginObjective(y_true, weight, **options)
        return ScorerObjective(scorer, y, score_params)

    # -- fit ------------------------------------------------------------------

    @validate_params({"X": _DATA, "y": [*_DATA, None]})
    def fit(self, X, y, **params):
        """Fit the estimator and tune the decision thresholds.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.

        y : {array-like, sparse matrix} of shape (n_samples, n_labels)
            0/1 label indicators.

        **params : dict
            Metadata routed, with ``sklearn.set_config(
            enable_metadata_routing=True)``, to the estimator's ``fit``, the
            splitter's ``split`` and the scorer (``sample_weight`` once
            requested: ``estimator.set_fit_request(sample_weight=True)``,
            ``scorer.set_score_request(sample_weight=True)``). Refused when
            routing is off, as scikit-learn's ``TunedThresholdClassifierCV``
            does.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._validate_parameters()
        routing = sklearn.get_config().get("enable_metadata_routing", False)
        if params and not routing:
            raise InvalidInputError(
                f"{_NAME}.fit got the metadata {sorted(params)}; passing them is "
                "only supported with sklearn.set_config(enable_metadata_routing="
                "True), which routes them to the estimator, the splitter and the "
                "scorer that request them."
            )
        routed = process_routing(self, "fit", **params) if routing else None
        fit_params = dict(routed.estimator.fit) if routed else {}
        split_params = dict(routed.splitter.split) if routed else {}
        score_params = dict(routed.scorer.score) if routed else {}

        y_true = self._check_y(y)
        check_consistent_length(X, y)
        n, q = y_true.shape
        for routed_params in (fit_params, split_params, score_params):
            weight = routed_params.get("sample_weight")
            if weight is not None and np.shape(weight) != (n,):
                # else a fold's fit names the fold's size, not the caller's
                raise InvalidInputError(
                    f"The 'sample_weight' parameter of {_NAME}.fit must be a 1-D "
                    f"array of length n_samples={n}. Got shape "
                    f"{np.shape(weight)} instead."
                )
        if self.top_k is not None and self.top_k > q:
            raise InvalidInputError(
                f"The 'top_k' parameter of {_NAME} must be at most the number "
                f"of labels, {q}. Got {self.top_k} instead."
            )
        method = self._response_method()
        grid = self._check_threshold_array(method)
        check_threshold_count(self.thresholds if grid is None else grid.size, q)
        scorer = self._scorer()

        folds = None  # one fold: the tuning data
        if isinstance(self.cv, str):  # "prefit"
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as exc:
                raise NotFittedError(
                    f"With cv='prefit', the estimator of {_NAME} must be fitted."
                ) from exc
            self.estimator_ = self.estimator
            self._seen = None
            scores = positive_scores(self.estimator_, X, method, None)
            tune_y, tune_true = y, y_true
        elif self._single_split():
            scores, tune_y, tune_true, score_params = self._hold_out(
                X, y, y_true, method, fit_params, score_params
            )
        else:
            scores, folds = self._out_of_fold(
                X, y, y_true, method, fit_params, split_params
            )
            tune_y, tune_true = y, y_true
        if self.refit:
            self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
            self._seen = seen_classes(y_true)
        if scores.shape[1] != q:
            raise InvalidInputError(
                f"{_NAME}: the estimator's {method} must give one score per label, "
                f"shape (n_samples, {q}). Got {scores.shape[1]} columns instead."
            )

        objective = self._objective(scorer, tune_true, tune_y, score_params)
        grid, label_grids = self._grids(scores, grid)
        result = search_thresholds(
            objective,
            scores,
            grid,
            label_grids,
            per_label=self.strategy == "per_label",
            top_k=self.top_k,
            at_least_one=self.at_least_one,
            max_sweeps=MAX_SWEEPS,
        )
        if not result.converged:
            warnings.warn(
                f"{_NAME}: the per-label search stopped after {result.n_sweeps} sweeps "
                "with thresholds still moving; fewer candidate thresholds, or "
                "strategy='global', converge faster.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.best_threshold_ = result.thresholds
        self.best_score_ = result.score
        self.fold_thresholds_ = self._fold_thresholds(
            result, folds, scorer, scores, tune_true, tune_y, score_params, label_grids
        )
        self.threshold_spread_ = ThresholdSpread(
            self.fold_thresholds_,
            self.best_threshold_,
            *self._candidate_bounds(grid, label_grids),
        )
        if self.store_cv_results:
            self.cv_results_ = {"thresholds": grid, "scores": result.grid_scores}
            if result.label_scores is not None:
                self.cv_results_.update(
                    label_thresholds=np.column_stack(label_grids),
                    label_scores=np.column_stack(result.label_scores),
                    n_sweeps=result.n_sweeps,
                )
        self._n_labels, self._method = q, method
        for attr in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.estimator_, attr):
                setattr(self, attr, getattr(self.estimator_, attr))
            elif attr in vars(self):  # from an earlier fit
                delattr(self, attr)
        return self

    def _check_y(self, y):
        """2-D 0/1 indicators as dense bool; anything else is refused, 1-D
        targets first (scikit-learn's own phrases kept where its checks look
        for them)."""
        caller = f"{_NAME}.fit"
        if y is None:
            raise InvalidInputError(
                f"The 'y' parameter of {caller} must be a 2-D 0/1 indicator matrix: "
                f"{_NAME} requires y to be passed, but the target y is None."
            )
        if not sparse.issparse(y):
            shape = getattr(y, "shape", None)
            if shape is None or not hasattr(y, "dtype"):
                try:
                    values = np.asarray(y)
                except (TypeError, ValueError):
                    values = None  # other frames and ragged rows: read below
                if values is not None and values.dtype != object:
                    shape, y_kind = values.shape, values.dtype.kind
                else:
                    shape, y_kind = None, None
            else:
                y_kind = getattr(y.dtype, "kind", None)
            if y_kind == "c":
                raise InvalidInputError(
                    f"The 'y' parameter of {caller} must hold 0/1 label "
                    "indicators. Complex data not supported."
                )
            if shape is not None and len(shape) != 2:
                raise InvalidInputError(
                    f"The 'y' parameter of {caller} must be a 2-D 0/1 indicator "
                    "matrix of shape (n_samples, n_labels) (multi-label "
                    "classification; sklearn.model_selection.TunedThreshold"
                    "ClassifierCV tunes binary classes). Got "
                    f"{_target_kind(y)} targets of shape "
                    f"{tuple(shape)} instead."
                )
            if shape is not None and shape[0] * shape[1] * 9 > MAX_DENSE_BYTES:
                raise InvalidInputError(
                    f"The 'y' parameter of {caller} must have at most "
                    f"{MAX_DENSE_BYTES // 9:,} cells (n_samples x n_labels): the "
                    "tuning holds the labels and the scores densely. Got "
                    f"{shape[0]:,} x {shape[1]:,} instead; tune on a sample."
                )
        try:
            space = validate_targets(y, y, chunked=False).space
        except InvalidInputError as exc:
            kind = _target_kind(y)
            if kind in (
                "continuous",
                "continuous-multioutput",
                "multiclass-multioutput",
            ):
                raise InvalidInputError(
                    f"The 'y' parameter of {caller} must be a 2-D 0/1 indicator "
                    f"matrix. Got {kind} targets instead: {exc}"
                ) from None
            raise
        if space.y_true is None:  # 1-D class labels of another form
            raise InvalidInputError(
                f"The 'y' parameter of {caller} must be a 2-D 0/1 indicator "
                "matrix of shape (n_samples, n_labels). Got 1-D targets instead."
            )
        return np.ascontiguousarray(as_dense_bool(space.y_true))

    def _check_threshold_array(self, method):
        """An explicit grid: 1-D, finite, strictly increasing, and in [0, 1]
        for probabilities; None for a number of thresholds."""
        if isinstance(self.thresholds, numbers.Integral):
            return None
        grid = np.asarray(self.thresholds)
        if grid.dtype.kind not in "iuf" or grid.ndim != 1 or grid.size == 0:
            raise InvalidInputError(
                f"The 'thresholds' parameter of {_NAME} must be an int or a "
                "non-empty 1-D array of numbers. Got "
                f"{grid.dtype} values of shape {grid.shape} instead."
            )
        grid = grid.astype(np.float64)
        if not np.all(np.isfinite(grid)):
            raise InvalidInputError(
                f"The 'thresholds' parameter of {_NAME} must hold finite numbers. "
                "Got NaN or infinity instead."
            )
        if np.any(grid[1:] <= grid[:-1]):
            k = int(np.flatnonzero(grid[1:] <= grid[:-1])[0])
            raise InvalidInputError(
                f"The 'thresholds' parameter of {_NAME} must be strictly "
                f"increasing. Got {grid[k]!r} followed by {grid[k + 1]!r} instead."
            )
        if method == "predict_proba" and (grid[0] < 0 or grid[-1] > 1):
            raise InvalidInputError(
                f"The 'thresholds' parameter of {_NAME} must lie within [0, 1] "
                "for probabilities (response_method 'predict_proba'). Got values "
                f"from {grid[0]!r} to {grid[-1]!r} instead."
            )
        return grid

    def _grids(self, scores, grid):
        """The global candidates (m,) and each label's, a list of q arrays."""
        q = scores.shape[1]
        if grid is not None:
            return grid, [grid] * q
        m = self.thresholds
        grid = np.unique(evenly_spaced(scores.min(), scores.max(), m))
        lows, highs = scores.min(axis=0), scores.max(axis=0)
        return grid, [evenly_spaced(lo, hi, m) for lo, hi in zip(lows, highs)]

    def _fold_thresholds(
        self, result, folds, scorer, scores, y_true, y, score_params, label_grids
    ):
        """The thresholds tuned on each fold's held-out scores alone: the
        same objective, candidates and search as the pooled tuning, on the
        rows of one fold (the out-of-fold scores already computed; nothing
        is refitted). One fold: the tuning's own thresholds, shape (1, ...).
        """
        if folds is None:
            return np.asarray(result.thresholds, dtype=np.float64)[None].copy()
        n = y_true.shape[0]
        rows = []
        for test in folds:
            params = {
                key: _safe_indexing(value, test)
                if hasattr(value, "__len__") and len(value) == n
                else value
                for key, value in score_params.items()
            }
            objective = self._objective(
                scorer, y_true[test], _safe_indexing(y, test), params
            )
            fold = search_thresholds(
                objective,
                scores[test],
                result.grid,
                label_grids,
                per_label=self.strategy == "per_label",
                top_k=self.top_k,
                at_least_one=self.at_least_one,
                max_sweeps=MAX_SWEEPS,
            )
            rows.append(fold.thresholds)
        return np.array(rows, dtype=np.float64)

    def _candidate_bounds(self, grid, label_grids):
        """The lowest and highest candidate thresholds: of the global grid,
        or of each label's, (n_labels,) each."""
        if self.strategy == "global":
            return float(grid[0]), float(grid[-1])
        return (
            np.array([g[0] for g in label_grids], dtype=np.float64),
            np.array([g[-1] for g in label_grids], dtype=np.float64),
        )

    # -- scores ---------------------------------------------------------------

    def _out_of_fold(self, X, y, y_true, method, fit_params, split_params):
        """Pooled out-of-fold scores of a cross-validation that partitions the
        training instances, and the test indices of each fold."""
        n = y_true.shape[0]
        if self.cv is None or isinstance(self.cv, numbers.Integral):
            # shuffled: pooled out-of-fold scores need exchangeable folds, and
            # data sets are often stored sorted (MULAN's scene by label set)
            splitter = KFold(
                5 if self.cv is None else self.cv,
                shuffle=True,
                random_state=self.random_state,
            )
        else:
            splitter = check_cv(self.cv, y_true, classifier=True)
        splits = list(splitter.split(X, y, **split_params))
        tested = np.concatenate([np.asarray(test) for _, test in splits])
        if len(tested) != n or not np.array_equal(np.sort(tested), np.arange(n)):
            raise invalid_parameter(
                "cv",
                "a cross-validation whose test folds partition the training "
                "instances (each in exactly one test fold), a float (one held-out "
                "split) or 'prefit'",
                self.cv,
            )
        # the estimator of each fold is fitted on its rows of y as given; its
        # rows of the validated targets come beside them, sliced as the
        # sample weights are, so that no fold reads y again
        scores = cross_val_predict(
            _PositiveScores(self.estimator, method),
            X,
            y,
            cv=splits,
            n_jobs=self.n_jobs,
            params={**fit_params, _VALIDATED_Y: y_true},
        )
        return scores, [np.asarray(test) for _, test in splits]

    def _hold_out(self, X, y, y_true, method, fit_params, score_params):
        """Scores of one held-out part, by a model fitted on the rest."""
        n = y_true.shape[0]
        per_sample = {}
        for group, params in (("fit", fit_params), ("score", score_params)):
            for key, value in params.items():
                if hasattr(value, "__len__") and len(value) == n:
                    per_sample[group, key] = value
        parts = train_test_split(
            X,
            y,
            y_true,
            *per_sample.values(),
            test_size=self.cv,
            random_state=self.random_state,
        )
        X_fit, X_tune, y_fit, y_tune, y_fit_true, true_tune = parts[:6]
        fit_part, tune_part = dict(fit_params), dict(score_params)
        for k, (group, key) in enumerate(per_sample):
            if group == "fit":
                fit_part[key] = parts[6 + 2 * k]
            else:
                tune_part[key] = parts[7 + 2 * k]
        model = clone(self.estimator).fit(X_fit, y_fit, **fit_part)
        if not self.refit:
            self.estimator_ = model
            self._seen = seen_classes(y_fit_true)
        scores = positive_scores(model, X_tune, method, seen_classes(y_fit_true))
        return scores, y_tune, true_tune, tune_part

    # -- prediction -----------------------------------------------------------

    @validate_params({"X": _DATA})
    def predict(self, X):
        """Predict the label sets of ``X`` with the tuned thresholds.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples, as the estimator takes them.

        Returns
        -------
        y_pred : ndarray of shape (n_samples, n_labels), dtype int64
            0/1 label indicators.
        """
        check_is_fitted(self, "estimator_")
        scores = positive_scores(self.estimator_, X, self._method, self._seen)
        if scores.shape[1] != self._n_labels:
            raise InvalidInputError(
                f"{_NAME}.predict: the estimator gave scores of {scores.shape[1]} "
                f"labels; it was tuned for {self._n_labels}."
            )
        thresholds = np.broadcast_to(self.best_threshold_, (self._n_labels,))
        return decide_dense(
            scores, thresholds.astype(np.float64), self.top_k, self.at_least_one
        )

    @available_if(_estimator_has("predict_proba"))
    @validate_params({"X": _DATA})
    def predict_proba(self, X):
        """The fitted estimator's ``predict_proba``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        proba : ndarray or list of ndarray
            As the estimator returns them: an (n_samples, n_labels) array,
            or one (n_samples, n_classes) array per label.
        """
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_proba(X)

    @available_if(_estimator_has("predict_log_proba"))
    @validate_params({"X": _DATA})
    def predict_log_proba(self, X):
        """The fitted estimator's ``predict_log_proba``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        log_proba : ndarray or list of ndarray
            As the estimator returns them.
        """
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_log_proba(X)

    @available_if(_estimator_has("decision_function"))
    @validate_params({"X": _DATA})
    def decision_function(self, X):
        """The fitted estimator's ``decision_function``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        scores : ndarray of shape (n_samples, n_labels)
            As the estimator returns them.
        """
        check_is_fitted(self, "estimator_")
        return self.estimator_.decision_function(X)

    @property
    def classes_(self):
        """The estimator's classes."""
        return self.estimator_.classes_

    # -- scikit-learn's machinery ---------------------------------------------

    def get_metadata_routing(self):
        """Get the metadata routing of this object.

        Returns
        -------
        routing : MetadataRouter
            ``fit`` routes to the estimator's ``fit``, the splitter's
            ``split`` and the scorer's ``score``.
        """
        return (
            MetadataRouter(owner=self.__class__.__name__)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(callee="fit", caller="fit"),
            )
            .add(
                splitter=self.cv,
                method_mapping=MethodMapping().add(callee="split", caller="fit"),
            )
            .add(
                scorer=self._scorer(),
                method_mapping=MethodMapping().add(callee="score", caller="fit"),
            )
        )

    # The targets are 2-D 0/1 indicators only: multi-output, each output
    # binary; scikit-learn's checks then fit (n, 1) binary columns.

    def _more_tags(self):  # scikit-learn < 1.6
        return {
            "multilabel": True,
            "multioutput": True,
            "multioutput_only": True,
            "binary_only": True,
            "_xfail_checks": dict(EXPECTED_FAILED_CHECKS_BEFORE_1_6),
        }

    def __sklearn_tags__(self):  # scikit-learn >= 1.6
        from sklearn.utils import get_tags

        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.classifier_tags.multi_class = False
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.input_tags.sparse = get_tags(self.estimator).input_tags.sparse
        return tags


def _target_kind(y):
    """scikit-learn's type of a target, for messages ("continuous", ...)."""
    try:
        # type_of_target casts floats to int64 to look for fractions: NaN and
        # infinity warn there (RuntimeWarning) before the message is raised
        with np.errstate(invalid="ignore"):
            return type_of_target(y)
    except (TypeError, ValueError):
        return "unknown"


def seen_classes(y_true):
    """The classes (0, 1) of each label that ``y_true`` (n, q) holds."""
    ones = y_true.any(axis=0)
    zeros = (~y_true).any(axis=0)
    return [[c for c, seen in ((0, z), (1, o)) if seen] for z, o in zip(zeros, ones)]


def positive_scores(estimator, X, method, seen):
    """(n, q) float64 scores of class 1 of each label, checked finite.

    ``method`` returns an (n, q) array, or a list of q (n, n_classes)
    probability arrays (native multi-label estimators, MultiOutputClassifier),
    whose class-1 column is found from the estimator's per-label
    ``classes_``, else from ``seen`` (the classes each label had in
    training: a label seen with one class has one column), else as the last
    of two columns. One label taken as binary gives (n,) or (n, 2).
    """
    raw = getattr(estimator, method)(X)
    where = f"{_NAME}: the estimator's {method}"
    classes = getattr(estimator, "classes_", None)
    if isinstance(raw, list):
        columns = []
        for j, proba in enumerate(raw):
            proba = np.asarray(proba, dtype=np.float64)
            if isinstance(classes, list) and len(classes) == len(raw):
                label_classes = list(classes[j])
            elif seen is not None and len(seen) == len(raw):
                label_classes = seen[j]
            else:
                label_classes = [0, 1][-proba.shape[-1] :]
            columns.append(_class_one(proba, label_classes, where))
        scores = np.column_stack(columns)
    else:
        scores = np.asarray(raw, dtype=np.float64)
        if scores.ndim == 1:
            scores = scores[:, None]
        elif scores.ndim == 2 and seen is not None and len(seen) == 1:
            if scores.shape[1] == 2:  # one label taken as binary
                scores = _class_one(scores, [0, 1], where)[:, None]
    if scores.ndim != 2:
        raise InvalidInputError(f"{where} gave an array of shape {scores.shape}.")
    if (
        method == "predict_proba"
        and scores.size
        and (scores.min() < 0 or scores.max() > 1)
    ):
        raise InvalidInputError(
            f"{where} must give probabilities in [0, 1] (use response_method="
            "'decision_function' for other scores). Got values from "
            f"{float(np.nanmin(scores))} to {float(np.nanmax(scores))} instead."
        )
    if not np.all(np.isfinite(scores)):
        bad = np.argwhere(~np.isfinite(scores))[0]
        raise InvalidInputError(
            f"{where} must give finite scores. Got {float(scores[tuple(bad)])} for "
            f"instance {bad[0]}, label {bad[1]} "
            f"({np.count_nonzero(~np.isfinite(scores))} non-finite scores)."
        )
    return np.ascontiguousarray(scores)


def _class_one(proba, classes, where):
    """The column of class 1 (or True), zeros if the label never was 1."""
    if proba.ndim != 2 or proba.shape[1] != len(classes):
        raise InvalidInputError(
            f"{where} gave an array of shape {proba.shape} for a label with the "
            f"classes {list(classes)}."
        )
    if any(np.ndim(c) != 0 for c in classes):  # e.g. k-NN fitted on sparse y
        raise InvalidInputError(
            f"{where} came with classes_ that are not class values (a label's "
            f"classes are {type(classes[0]).__name__} objects): the estimator "
            "did not learn these targets. It may not support a sparse y: pass "
            "y.toarray()."
        )
    hits = [k for k, c in enumerate(classes) if c == 1]
    if not hits:
        return np.zeros(proba.shape[0])
    return proba[:, hits[0]]


#: The fit parameter that carries the validated targets into the folds.
_VALIDATED_Y = "validated_y"


class _PositiveScores(MetaEstimatorMixin, BaseEstimator):
    """The estimator of one fold, whose ``predict`` gives the (n, q) scores,
    for :func:`~sklearn.model_selection.cross_val_predict`.

    ``fit`` takes the fold's rows of ``y`` as the caller gave them, for the
    estimator, and the same rows of the validated targets (dense bool, from
    :func:`~sklearn_mlcm._validation.validate_targets` in the tuned
    estimator's ``fit``) as the fit parameter ``validated_y``, which
    ``cross_val_predict`` slices as it slices the sample weights: the classes
    each label had in the fold are read off them, and ``y`` is not read.
    """

    # requested for fit, so that routing passes it when it is enabled
    __metadata_request__fit = {_VALIDATED_Y: True}

    def __init__(self, estimator=None, method="predict_proba"):
        self.estimator = estimator
        self.method = method

    def fit(self, X, y, *, validated_y, **params):
        self.estimator_ = clone(self.estimator).fit(X, y, **params)
        self.seen_ = seen_classes(validated_y)
        return self

    def predict(self, X):
        return positive_scores(self.estimator_, X, self.method, self.seen_)

    def get_metadata_routing(self):
        return (
            MetadataRouter(owner=self.__class__.__name__)
            .add_self_request(self)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(callee="fit", caller="fit"),
            )
        )


#: scikit-learn's common checks that this estimator cannot pass, and why. The
#: tags make the checks fit (n, 1) 0/1 columns where they can; these fit
#: other targets, or expect the 0.5 threshold.
_ONLY_INDICATORS = (
    "fits targets with values other than 0 and 1 (binary classes 1 and 2); "
    "the estimator learns 0/1 label indicators only"
)
_ONE_D = "fits 1-D targets; the estimator learns 2-D 0/1 label indicators only"
EXPECTED_FAILED_CHECKS = {
    "check_classifier_data_not_an_array": _ONLY_INDICATORS,
    "check_classifier_multioutput": (
        "expects predict to agree with predict_proba >= 0.5 and decision_function "
        "> 0; the estimator predicts with tuned thresholds by design"
    ),
    "check_classifier_not_supporting_multiclass": (
        "expects scikit-learn's message for 1-D multi-class targets; the "
        "estimator refuses every 1-D target, with its own message"
    ),
    "check_classifiers_classes": "fits string class labels; " + _ONE_D,
    "check_classifiers_train": (
        "fits (n, 1) targets as lists of lists and expects 1-D predictions of "
        "them; the estimator's predictions have the targets' shape"
    ),
    "check_decision_proba_consistency": _ONE_D,
    "check_estimators_dtypes": _ONLY_INDICATORS,
    "check_fit2d_1feature": _ONLY_INDICATORS,
}
#: scikit-learn < 1.6 makes the binary targets of a binary-only estimator
#: {y[0], y[0] + 1}, often {1, 2}, where later versions make {0, 1}: these
#: checks fit such targets there.
_OLD_BINARY = (
    "scikit-learn < 1.6 fits binary targets {y[0], y[0] + 1} (often {1, 2}); "
    "the estimator learns 0/1 label indicators only"
)
EXPECTED_FAILED_CHECKS_BEFORE_1_6 = {
    **EXPECTED_FAILED_CHECKS,
    "check_classifiers_regression_target": (
        "fits 1-D continuous targets and looks for 'Unknown label type: '; the "
        "estimator refuses 1-D targets, naming their type"
    ),
    **dict.fromkeys(
        (
            "check_dict_unchanged",
            "check_dont_overwrite_parameters",
            "check_dtype_object",
            "check_estimator_sparse_data",
            "check_estimators_empty_data_messages",
            "check_estimators_fit_returns_self",
            "check_estimators_overwrite_params",
            "check_estimators_pickle",
            "check_fit2d_predict1d",
            "check_fit_check_is_fitted",
            "check_methods_sample_order_invariance",
            "check_methods_subset_invariance",
            "check_pipeline_consistency",
        ),
        _OLD_BINARY,
    ),
}
