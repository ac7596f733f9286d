"""The report's statistics chosen with ``metrics=``: every entry point, every
output, the intervals, and the refusals (issue #31, item 3)."""

import re

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_mlcm import (
    MLCMAccumulator,
    MLCMReport,
    confusion_matrix_statistics,
    mlcm_classification_report,
    mlcm_confusion_matrix,
)
from sklearn_mlcm._statistics import matrix_scores

#: Three statistics beyond scikit-learn's, and their column headers.
CHOSEN = ("jaccard", "matthews_corrcoef", "balanced_accuracy")
HEADERS = ("jaccard", "MCC", "balanced accuracy")
NAMES = ["a", "b", "c", "d"]

rng = np.random.default_rng(7)
Y_TRUE = (rng.random((300, 4)) < 0.35).astype(int)
Y_PRED = Y_TRUE ^ (rng.random((300, 4)) < 0.15)
AVERAGES = ("micro", "macro", "weighted")
INTERVALS = {
    "confidence_level": 0.9,
    "n_resamples": 199,
    "interval": "percentile",
    "random_state": 0,
}


def _report(**options):
    return mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        target_names=NAMES,
        zero_division=0.0,
        output_dict=True,
        metrics=CHOSEN,
        **options,
    )


def test_mlcm_classification_report_metrics_equal_the_statistics():
    """Each chosen statistic's label values are confusion_matrix_statistics
    of the MLCM, and its averages matrix_scores' averages."""
    report = _report()
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED)
    stats = confusion_matrix_statistics(cm, zero_division=0.0)
    for name, header in zip(CHOSEN, HEADERS):
        values = [report[label][header] for label in NAMES]
        assert_allclose(values, stats[name][:4], rtol=1e-12)
        for average in AVERAGES:
            expected = matrix_scores(cm, [name], average=average, zero_division=0.0)
            assert report[f"{average} avg"][header] == pytest.approx(
                expected[name], rel=1e-12
            )
    assert list(report["a"]) == [*HEADERS, "weight", "support"]
    assert all(isinstance(v, float) for v in report["macro avg"].values())


def test_mlcm_classification_report_metrics_samples_row_has_only_samples_forms():
    """The samples average row holds the statistics that have a per-instance
    form (recall here) and leaves the others' keys out."""
    report = mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        metrics=("jaccard", "recall"),
        output_dict=True,
        zero_division=0.0,
    )
    default = mlcm_classification_report(
        Y_TRUE, Y_PRED, output_dict=True, zero_division=0.0
    )
    assert list(report["samples avg"]) == ["recall", "weight", "support"]
    assert report["samples avg"]["recall"] == default["samples avg"]["recall"]


def test_mlcm_classification_report_metrics_names_headers_and_alias():
    """Registry names, headers and the "f1" alias name the columns, which
    keep the order asked for."""
    by_alias = mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        metrics=["f1", "MCC", "precision"],
        output_dict=True,
        zero_division=0.0,
    )
    by_name = mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        metrics=("fbeta", "matthews_corrcoef", "precision"),
        output_dict=True,
        zero_division=0.0,
    )
    default = mlcm_classification_report(
        Y_TRUE, Y_PRED, output_dict=True, zero_division=0.0
    )
    assert by_alias == by_name
    assert list(by_alias["0"]) == ["f1-score", "MCC", "precision", "weight", "support"]
    assert by_alias["macro avg"]["f1-score"] == default["macro avg"]["f1-score"]


def test_mlcm_classification_report_metrics_text_columns():
    """The text report prints a column per chosen statistic, as wide as its
    header, the samples row blank where a statistic has no samples form."""
    text = mlcm_classification_report(
        Y_TRUE, Y_PRED, metrics=CHOSEN, zero_division=0.0, target_names=NAMES
    )
    report = _report()
    lines = text.splitlines()
    assert lines[0].split() == [
        "jaccard",
        "MCC",
        "balanced",
        "accuracy",
        "weight",
        "support",
    ]
    row = lines[2].split()
    assert row[0] == "a"
    assert [float(v) for v in row[1:4]] == [round(report["a"][h], 2) for h in HEADERS]
    samples = next(line for line in lines if line.strip().startswith("samples"))
    assert samples.split()[2:] == [
        str(int(report["samples avg"]["weight"])),
        str(int(report["samples avg"]["support"])),
    ]
    # the columns stay under their headers
    assert lines[0].index("accuracy") + len("accuracy") == lines[2].index(row[3]) + len(
        row[3]
    )


def test_mlcm_classification_report_metrics_intervals():
    """With a confidence level every chosen score has its interval (but the
    samples average it lacks), the estimate inside it; a column's interval
    does not depend on the others chosen."""
    report = _report(**INTERVALS)
    for name, entry in report.items():
        for header in HEADERS:
            if name == "samples avg":
                assert f"{header} low" not in entry
                continue
            low, high = entry[f"{header} low"], entry[f"{header} high"]
            assert low <= entry[header] <= high, (name, header)
    both = mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        metrics=("precision", "jaccard"),
        zero_division=0.0,
        output_dict=True,
        **INTERVALS,
    )
    default = mlcm_classification_report(
        Y_TRUE, Y_PRED, zero_division=0.0, output_dict=True, **INTERVALS
    )
    for name in ("0", "macro avg", "samples avg"):
        for key in ("precision", "precision low", "precision high"):
            assert both[name][key] == default[name][key]
    text = mlcm_classification_report(
        Y_TRUE, Y_PRED, metrics=("MCC",), zero_division=0.0, **INTERVALS
    )
    assert re.search(r"macro avg +-?0\.\d\d \[-?0\.\d\d, -?0\.\d\d\]", text)
    assert text.rstrip().endswith("199 resamples of the 300 instances")


@pytest.mark.parametrize(
    "metrics, message",
    [
        (("jaccard", "kappa"), r"each one of \{.*'jaccard'.*\}. Got"),
        (("f1", "f1-score"), r"'f1' and 'f1-score' name the same one"),
        (("MCC", "matthews_corrcoef"), r"'MCC' and 'matthews_corrcoef' name"),
        ((), r"a non-empty list"),
        ("precision", r"a non-empty list"),
    ],
)
def test_mlcm_classification_report_metrics_refused(metrics, message):
    """An unknown statistic, two names of one statistic, no statistic or a
    bare str are refused, naming the parameter and the choices."""
    with pytest.raises(
        ValueError,
        match=r"The 'metrics' parameter of mlcm_classification_report must be .*"
        + message,
    ):
        mlcm_classification_report(Y_TRUE, Y_PRED, metrics=metrics)


def test_mlcm_report_metrics_every_output():
    """MLCMReport keeps the chosen columns in its dict, frame, markdown,
    LaTeX, page and summary line, with their intervals."""
    report = MLCMReport.from_predictions(
        Y_TRUE,
        Y_PRED,
        target_names=NAMES,
        zero_division=0.0,
        metrics=CHOSEN,
        **INTERVALS,
    )
    assert report.report == _report(**INTERVALS)
    frame = report.to_frame()
    assert list(frame.columns[1:6]) == [*HEADERS, "weight", "support"]
    assert "MCC low" in frame.columns and "balanced accuracy high" in frame.columns
    assert np.isnan(frame.loc["samples avg", "jaccard"])
    assert frame.loc["a", "MCC"] == report.report["a"]["MCC"]
    markdown = report.to_markdown()
    assert markdown.splitlines()[0] == (
        "| label | jaccard | MCC | balanced accuracy | weight | support |"
    )
    latex = report.to_latex()
    assert "label & jaccard & MCC & balanced accuracy & weight & support" in latex
    assert re.search(r"samples avg &  &  &  & \d+ & \d+", latex)
    page = report.to_html()
    assert '<th scope="col">balanced accuracy</th>' in page
    assert f"micro jaccard {report.report['micro avg']['jaccard']:.2f}" in repr(report)


def test_mlcm_report_from_estimator_metrics():
    """from_estimator passes metrics on to the report."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.multioutput import MultiOutputClassifier

    X = Y_TRUE + rng.normal(scale=0.8, size=Y_TRUE.shape)
    clf = MultiOutputClassifier(LogisticRegression()).fit(X, Y_TRUE)
    report = MLCMReport.from_estimator(
        clf, X, Y_TRUE, metrics=("specificity", "NPV"), zero_division=0.0
    )
    expected = mlcm_classification_report(
        Y_TRUE,
        clf.predict(X),
        metrics=("specificity", "NPV"),
        zero_division=0.0,
        output_dict=True,
    )
    assert report.report == expected


def test_mlcm_report_metrics_refused():
    """MLCMReport's constructors refuse a repeated name, and two names of
    one statistic."""
    with pytest.raises(
        ValueError,
        match=r"'metrics' parameter of MLCMReport.from_predictions must be a "
        r"non-empty list of str without repeats, each one of \{",
    ):
        MLCMReport.from_predictions(Y_TRUE, Y_PRED, metrics=("recall", "recall"))
    with pytest.raises(ValueError, match="'f1' and 'fbeta' name the same one"):
        MLCMReport.from_predictions(Y_TRUE, Y_PRED, metrics=("f1", "fbeta"))


def test_accumulator_classification_report_metrics():
    """The accumulator's report takes metrics, equal to the one-shot report,
    and its Poisson intervals hold the estimates."""
    acc = MLCMAccumulator(4, n_resamples=199, random_state=0)
    for start in range(0, 300, 64):
        acc.update(Y_TRUE[start : start + 64], Y_PRED[start : start + 64])
    report = acc.classification_report(
        metrics=CHOSEN, zero_division=0.0, target_names=NAMES, output_dict=True
    )
    assert report == _report()
    bounded = acc.classification_report(
        metrics=CHOSEN, zero_division=0.0, output_dict=True, confidence_level=0.9
    )
    for name, entry in bounded.items():
        for header in HEADERS:
            if name == "samples avg":
                assert header not in entry
                continue
            assert entry[f"{header} low"] <= entry[header] <= entry[f"{header} high"]
    with pytest.raises(
        ValueError,
        match="'metrics' parameter of MLCMAccumulator.classification_report must "
        "be a list of distinct statistics",
    ):
        acc.classification_report(metrics=("jaccard", "f1", "f1-score"))


def test_bootstrap_intervals_samples_average_only_for_samples_forms():
    """The interval engine scores any registered statistic; asked for the
    samples average, it gives it to the statistics that have a samples form
    and leaves the others without one (instead of refusing the call), with
    the same numbers for those that have it."""
    from sklearn_mlcm._uncertainty._intervals import bootstrap_intervals, unit_table
    from sklearn_mlcm._validation._targets import validate_targets

    units, _ = unit_table(validate_targets(Y_TRUE, Y_PRED), method="heydarian")
    options = {
        "averages": ("macro", "samples"),
        "shown": 4,
        "n_resamples": 99,
        "seed": 0,
        "confidence_level": 0.9,
        "interval": "percentile",
        "beta": 1.0,
        "tn": "complement",
        "zero_division": 0.0,
    }
    scores, _ = bootstrap_intervals(
        units, metrics=("g_mean", "precision", "prevalence"), **options
    )
    alone, _ = bootstrap_intervals(units, metrics=("precision",), **options)
    assert ("g_mean", "macro") in scores and ("g_mean", "samples") not in scores
    assert ("prevalence", "samples") not in scores
    for key in (("precision", "samples"), ("precision", "macro")):
        assert scores[key].confidence_interval == alone[key].confidence_interval
    cm = mlcm_confusion_matrix(Y_TRUE, Y_PRED)
    expected = confusion_matrix_statistics(cm, zero_division=0.0)["g_mean"][:4]
    assert_allclose(scores["g_mean"].estimate, expected, rtol=1e-12)
