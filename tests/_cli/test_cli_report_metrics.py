"""``report --metrics``: the report's statistics chosen on the command line."""

import json
import re

import numpy as np
import pytest
from cli_helpers import run, write_csv

from sklearn_mlcm import mlcm_classification_report

NAMES = ["a", "b", "c", "d"]
rng = np.random.default_rng(7)
Y_TRUE = (rng.random((300, 4)) < 0.35).astype(int)
Y_PRED = Y_TRUE ^ (rng.random((300, 4)) < 0.15)


def _report():
    return mlcm_classification_report(
        Y_TRUE,
        Y_PRED,
        target_names=NAMES,
        zero_division=0.0,
        output_dict=True,
        metrics=("jaccard", "MCC", "balanced_accuracy"),
    )


def test_report_command_metrics(capsys, tmp_path):
    """--metrics chooses the columns of the printed report and of its JSON."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE, header=NAMES)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED)
    options = ("--metrics", "jaccard,MCC,balanced_accuracy", "--zero-division", "0")
    status, out, _ = run(capsys, "report", true, pred, *options)
    assert status == 0
    header = next(line for line in out.splitlines() if "jaccard" in line)
    assert header.split() == [
        "jaccard",
        "MCC",
        "balanced",
        "accuracy",
        "weight",
        "support",
    ]
    status, out, _ = run(capsys, "report", true, pred, *options, "--json")
    assert status == 0
    assert json.loads(out)["report"] == _report()
    status, out, _ = run(
        capsys,
        "report",
        true,
        pred,
        *options,
        "--confidence-level",
        "0.9",
        "--n-resamples",
        "199",
        "--interval",
        "percentile",
        "--seed",
        "0",
    )
    assert status == 0
    assert "balanced accuracy" in out and "199 resamples" in out


@pytest.mark.parametrize(
    "value, message",
    [
        (
            "jaccard,kappa",
            r"expected comma-separated statistics among .*jaccard.*"
            r"got 'kappa'",
        ),
        ("f1,f1-score", r"expected each statistic once; 'f1' and 'f1-score'"),
        ("precision,,recall", r"got ''"),
    ],
)
def test_report_command_metrics_refused(capsys, tmp_path, value, message):
    """A wrong --metrics is a usage error naming the choices."""
    true = write_csv(tmp_path / "true.csv", Y_TRUE)
    pred = write_csv(tmp_path / "pred.csv", Y_PRED)
    status, out, err = run(capsys, "report", true, pred, "--metrics", value)
    assert (status, out) == (2, "")
    assert re.search(message, err)
