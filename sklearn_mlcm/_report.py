"""The classification report computed from the MLCM (str or dict)."""

from numbers import Integral

import numpy as np

from ._averaging import matrix_scores, row_sums
from ._confusion import TARGET_CONSTRAINTS
from ._mlcm._dispatch import compute
from ._param_validation import ZERO_DIVISION, Interval, Sequence, validate_params
from ._validation import check_target_names

__all__ = ["mlcm_classification_report"]

NO_LABEL_NAME = "no label"
_HEADERS = ("precision", "recall", "f1-score", "weight", "support")
#: The averages the report shows, as scikit-learn's multi-label report does.
REPORT_AVERAGES = ("micro", "macro", "weighted")
# More decimals than a float64 holds only pad with zeros (and cost memory).
MAX_DIGITS = 20


def report_table(cm, supports, no_label_support, *, include_no_label, zero_division):
    """Rows of (precision, recall, f1, weight, support) and their averages.

    ``cm`` is the (q+1, q+1) matrix; the shown rows are the q labels, and the
    no-label index too when ``include_no_label``. The numbers come from
    :func:`matrix_scores`, as the scores' do; every average runs over the
    shown rows ("micro" pools their counts, as scikit-learn's does).
    """
    metrics = ("precision", "recall", "fbeta")
    options = {
        "include_no_label": include_no_label,
        "zero_division": zero_division,
        "beta": 1.0,
    }
    values = matrix_scores(cm, metrics, **options)
    values = [values[m] for m in metrics]
    shown = len(values[0])
    weight = row_sums(cm)[:shown]
    support = np.append(supports, no_label_support)[:shown]
    averages = {}
    for average in REPORT_AVERAGES:
        # the per-label values have warned already; a pooled ratio has not
        warn_for = metrics if average == "micro" else ()
        scores = matrix_scores(
            cm, metrics, average=average, warn_for=warn_for, **options
        )
        averages[f"{average} avg"] = (
            *(scores[m] for m in metrics),
            weight.sum(),
            support.sum(),
        )
    rows = list(zip(*values, weight, support))
    return rows, averages


def _amount_format(values, digits):
    """Integers print as integers; fractional amounts with ``digits`` decimals.

    An amount within floating-point rounding of an integer counts as one: a row
    of Krstinic's matrix sums fractions such as 1/3 + 2/3 to its support, which
    float64 may leave a few units in the last place away from the integer.
    """
    values = np.asarray(values, dtype=np.float64)
    if np.allclose(values, np.round(values), rtol=1e-12, atol=1e-9):
        return lambda x: f"{int(round(float(x)))}"
    return lambda x: f"{float(x):.{digits}f}"


@validate_params(
    {
        **TARGET_CONSTRAINTS,
        "target_names": [Sequence(), None],
        "digits": [Interval(Integral, 0, MAX_DIGITS)],
        "output_dict": ["boolean"],
        "zero_division": ZERO_DIVISION,
        "include_no_label": ["boolean"],
    }
)
def mlcm_classification_report(
    y_true,
    y_pred,
    *,
    method="heydarian",
    labels=None,
    target_names=None,
    sample_weight=None,
    digits=2,
    output_dict=False,
    zero_division="warn",
    include_no_label=False,
):
    """Build a text report of the main metrics, computed from the MLCM.

    scikit-learn's :func:`~sklearn.metrics.classification_report`, but with
    TP, FP and FN read off the 2-D multi-label confusion matrix, so that a
    wrongly predicted label lowers the recall of the label it replaced.

    Read more in the :ref:`User Guide <report>`.

    Parameters
    ----------
    y_true : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_labels) \
            or (n_samples,)
        Ground truth 0/1 indicators, or 1-D class labels.

    y_pred : same kind and shape as ``y_true``
        Predicted labels.

    method : {"heydarian", "krstinic"}, default="heydarian"
        Which 2-D matrix the statistics are read from; see
        :func:`mlcm_confusion_matrix`.

    labels : array-like of shape (n_kept,), default=None
        The labels to report, in that order; the matrix is computed on this
        restricted label space (see :func:`mlcm_confusion_matrix`).

    target_names : list of str of shape (n_labels,), default=None
        Display names of the labels. By default the column names of ``y_true``
        when it is a DataFrame, the class values for 1-D input, and the column
        indices otherwise.

    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    digits : int, default=2
        Number of digits of the floating point values. Ignored when
        ``output_dict`` is True.

    output_dict : bool, default=False
        Return a dict instead of a str.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is zero. "warn" acts as 0.0 and
        raises an :class:`~sklearn.exceptions.UndefinedMetricWarning`.
        ``np.nan`` values are left out of the averages.

    include_no_label : bool, default=False
        Also report the "no label" index (the NTL row and NPL column) as a row
        named ``"no label"``, and take it into the macro and weighted averages.

    Returns
    -------
    report : str or dict
        Text summary of precision, recall, F1, weight and support per label
        and of the micro, macro and weighted averages. As a dict::

            {"label 1": {"precision": 0.5, "recall": 1.0, "f1-score": 0.67,
                         "weight": 2.0, "support": 1.0},
             ...,
             "micro avg": {...}, "macro avg": {...}, "weighted avg": {...}}

        All values are Python floats, as scikit-learn's.

    See Also
    --------
    sklearn.metrics.classification_report : The one-vs-rest report; its
        "support" counts true instances per label and its micro average runs
        over labels only.
    mlcm_confusion_matrix : The matrix the report is computed from.

    Notes
    -----
    With C the MLCM: precision ``C[k, k] / sum_j C[j, k]``, recall
    ``C[k, k] / sum_j C[k, j]``, F1 their harmonic mean. "weight" is the row
    sum of C (Heydarian et al., Table 12), which for ``method="heydarian"``
    can exceed the number of true instances: a wrong prediction counts against
    every true label when none was missed (category 2), and a missed label once
    per wrong prediction (category 3); "support" is the number of true
    instances per label,
    as in scikit-learn. The three averages run over the shown rows, the q
    labels (q+1 with ``include_no_label=True``): the micro average pools their
    counts, as scikit-learn's does, the macro average is the plain mean and
    the weighted average the mean weighted by "weight".

    Heydarian et al.'s Table 12 prints another micro average, which pools all
    q+1 indices: the corner ``C[NTL, NPL]`` (instances with no true and no
    predicted label) is then on the diagonal and each of them counts as
    correct, and micro precision, recall and F1 are all ``trace(C) / sum(C)``.
    That number is ``average="micro_all"`` of the scores and of
    :func:`mlcm_precision_recall_fscore_support` (see the example below).

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    >>> from sklearn_mlcm import mlcm_classification_report
    >>> y_true = [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
    ...           [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
    >>> y_pred = [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
    ...           [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
    >>> print(mlcm_classification_report(y_true, y_pred,
    ...                                  target_names=["C0", "C1", "C2"]))
                  precision    recall  f1-score    weight   support
    <BLANKLINE>
              C0       1.00      0.45      0.62        11         7
              C1       0.40      0.33      0.36         6         5
              C2       0.11      1.00      0.20         1         1
    <BLANKLINE>
       micro avg       0.42      0.44      0.43        18        13
       macro avg       0.50      0.60      0.40        18        13
    weighted avg       0.75      0.44      0.51        18        13
    <BLANKLINE>

    Predicting nothing on data where two of four instances have no label: the
    micro average over the labels is 0, while Table 12's convention counts the
    two empty instances as correct.

    >>> from sklearn_mlcm import mlcm_f1_score
    >>> y_true = [[0, 0], [0, 0], [1, 0], [1, 1]]
    >>> nothing = [[0, 0]] * 4
    >>> report = mlcm_classification_report(y_true, nothing, output_dict=True,
    ...                                     zero_division=0.0)
    >>> report["micro avg"]["f1-score"]
    0.0
    >>> mlcm_f1_score(y_true, nothing, average="micro_all", zero_division=0.0)
    0.4
    """
    computed = compute(
        y_true,
        y_pred,
        method=method,
        labels=labels,
        sample_weight=sample_weight,
        with_supports=True,
    )
    return build_report(
        computed.matrix,
        computed.names,
        computed.supports,
        computed.no_label_support,
        target_names=target_names,
        digits=int(digits),
        output_dict=bool(output_dict),
        zero_division=zero_division,
        include_no_label=bool(include_no_label),
    )


def build_report(
    cm,
    names,
    supports,
    no_label_support,
    *,
    target_names,
    digits,
    output_dict,
    zero_division,
    include_no_label,
):
    """The report (str or dict) of a computed matrix and its supports.

    Shared by :func:`mlcm_classification_report` and
    :meth:`MLCMAccumulator.classification_report`, so both print one report.
    """
    reserved = {f"{a} avg" for a in REPORT_AVERAGES}
    if include_no_label:
        reserved.add(NO_LABEL_NAME)
    names = check_target_names(
        names if target_names is None else target_names, len(names), reserved
    )
    if include_no_label:
        names.append(NO_LABEL_NAME)

    rows, averages = report_table(
        cm,
        supports,
        no_label_support,
        include_no_label=include_no_label,
        zero_division=zero_division,
    )

    if output_dict:
        report = {
            name: dict(zip(_HEADERS, (float(v) for v in row)))
            for name, row in zip(names, rows)
        }
        for heading, values in averages.items():
            report[heading] = dict(zip(_HEADERS, (float(v) for v in values)))
        return report

    width = max(max(len(name) for name in names), len("weighted avg"), digits)
    all_rows = [*rows, *averages.values()]
    fmt_weight = _amount_format([r[3] for r in all_rows], digits)
    fmt_support = _amount_format([r[4] for r in all_rows], digits)
    head_fmt = "{:>{width}s} " + " {:>9}" * len(_HEADERS)
    text = head_fmt.format("", *_HEADERS, width=width) + "\n\n"
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9} {:>9}\n"
    for name, (p, r, f, w, s) in zip(names, rows):
        text += row_fmt.format(
            name, p, r, f, fmt_weight(w), fmt_support(s), width=width, digits=digits
        )
    text += "\n"
    for heading, (p, r, f, w, s) in averages.items():
        text += row_fmt.format(
            heading,
            p,
            r,
            f,
            fmt_weight(w),
            fmt_support(s),
            width=width,
            digits=digits,
        )
    return text
