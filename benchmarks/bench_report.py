"""MLCMReport against the classification report alone: what the whole evaluation costs.

On MULAN bibtex's test split (2,515 x 159), labelled and scored by a
one-vs-rest logistic regression trained on its train split (the predictions
are its ``predict``, the scores its ``predict_proba``), or with
``--scores seeded`` by a seeded noisy score matrix (no training), times side
by side in one run, in turns (each repeat runs every row once, so that the
machine's load falls on all of them alike):

- ``mlcm_classification_report(confidence_level=0.95, n_resamples=2000)``
  alone: the matrix and the report with BCa intervals;
- ``MLCMReport.from_predictions(..., y_score=..., confidence_level=0.95,
  n_resamples=2000)``: the same report, the confusions (label pairs and label
  sets) and the threshold curve (100 thresholds), on one validation and one
  matrix; the target is at most 1.5x the report alone;
- the parts it adds, timed alone through the public functions (each
  validating its own input): ``mlcm_threshold_curve``, ``most_confused``,
  ``labelset_confusions``;
- the page (``report.to_html()``, and written to a file; :func:`time_page`).

The table prints the best of ``--repeat`` runs and each row's ratio to the
report alone. Training the classifier takes minutes (8 on two busy cores);
``--scores seeded`` prepares in seconds. Measured (two shared cores): trained
0.456 s alone, 0.520 s for the report object (1.14x); seeded 0.488 s and
0.509 s (1.04x).

    python benchmarks/bench_report.py [--data ../shared/data] [--resamples 2000]
    python benchmarks/bench_report.py --scores seeded --repeat 5
"""

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_mlcm import (
    MLCMReport,
    labelset_confusions,
    mlcm_classification_report,
    mlcm_threshold_curve,
    most_confused,
)


def bibtex_trained(folder):
    """Test targets, predictions and probabilities of a one-vs-rest logistic
    regression trained on bibtex's train split; the label names."""
    from bench_madjarov import load_dataset
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier

    X_train, Y_train, X_test, Y_test, names, _ = load_dataset(folder, "bibtex")
    model = OneVsRestClassifier(LogisticRegression(max_iter=200), n_jobs=1)
    model.fit(X_train, Y_train)
    return Y_test, model.predict(X_test), model.predict_proba(X_test), names


def bibtex_seeded(folder, seed=0):
    """Test targets of bibtex, and seeded scores of a noisy classifier: a
    true label scores 0.3 + 0.6 U, a false one 0.55 U**8 (U uniform in [0,
    1)); predicted at 0.5: two thirds of the true labels, about 1.2% of the
    false ones (two wrong labels per instance)."""
    from bench_madjarov import load_dataset

    _, _, _, Y_test, names, _ = load_dataset(folder, "bibtex")
    rng = np.random.default_rng(seed)
    uniform = rng.random(Y_test.shape)
    score = np.where(Y_test == 1, 0.3 + 0.6 * uniform, 0.55 * uniform**8)
    return Y_test, (score >= 0.5).astype(np.int8), score, names


def time_page(report):
    """The page's rows ``[(label, function)]``: rendering the page and
    writing it to a file."""
    folder = tempfile.mkdtemp(prefix="bench_report_")
    path = os.path.join(folder, "report.html")
    return [
        ("report.to_html() (the page as a str)", lambda: report.to_html()),
        ("report.to_html(path) (written atomically)", lambda: report.to_html(path)),
    ]


def _best(functions, repeat):
    """The best time of each function over ``repeat`` turns, run in turns."""
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for i, function in enumerate(functions):
            start = time.perf_counter()
            function()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("SKLEARN_MLCM_DATA", "../shared/data")
    parser.add_argument("--data", type=Path, default=Path(default))
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scores", choices=("trained", "seeded"), default="trained")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", UndefinedMetricWarning)
    folder = args.data / "mulan"
    start = time.perf_counter()
    load = bibtex_trained if args.scores == "trained" else bibtex_seeded
    y_true, y_pred, y_score, names = load(folder)
    print(
        f"bibtex test split {y_true.shape[0]:,} x {y_true.shape[1]}, "
        f"{args.scores} scores ({time.perf_counter() - start:.1f} s to prepare), "
        f"{args.resamples:,} resamples, best of {args.repeat}"
    )
    intervals = {
        "confidence_level": 0.95,
        "n_resamples": args.resamples,
        "random_state": 0,
        "zero_division": 0.0,
    }

    def report_alone():
        return mlcm_classification_report(
            y_true, y_pred, target_names=names, output_dict=True, **intervals
        )

    def whole_report():
        return MLCMReport.from_predictions(
            y_true, y_pred, y_score=y_score, target_names=names, **intervals
        )

    report = whole_report()
    assert report.report == report_alone(), "the report differs from the function's"
    rows = [
        (
            f"mlcm_classification_report(confidence_level=0.95), "
            f"{args.resamples:,}",
            report_alone,
        ),
        ("MLCMReport.from_predictions(y_score=..., same intervals)", whole_report),
        (
            "  its parts alone: mlcm_threshold_curve (100 thresholds)",
            lambda: mlcm_threshold_curve(y_true, y_score),
        ),
        (
            "  its parts alone: most_confused (top 20)",
            lambda: most_confused(report.confusion_matrix, top_k=20),
        ),
        (
            "  its parts alone: labelset_confusions (top 20)",
            lambda: labelset_confusions(y_true, y_pred, top_k=20),
        ),
        *time_page(report),
    ]
    times = _best([function for _, function in rows], args.repeat)
    width = max(len(label) for label, _ in rows)
    print(f"{'':<{width}}  {'seconds':>8}  {'ratio':>6}")
    for (label, _), seconds in zip(rows, times):
        print(f"{label:<{width}}  {seconds:8.3f}  {seconds / times[0]:5.2f}x")
    print()
    print(repr(report))


if __name__ == "__main__":
    main()
