"""MLCMReport.log_mlflow and log_wandb without the trackers: the options'
refusals, the install hints, and ``import sklearn_mlcm`` importing neither."""

import subprocess
import sys

import pytest
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import MLCMReport


@pytest.fixture
def table_1_report():
    """The report of Heydarian et al. (2022), Table 1."""
    return MLCMReport.from_predictions(
        TABLE_1_TRUE, TABLE_1_PRED, target_names=TABLE_1_NAMES, zero_division=0.0
    )


@pytest.mark.parametrize(
    ("method", "module", "extra"),
    [("log_mlflow", "mlflow", "mlflow"), ("log_wandb", "wandb", "wandb")],
)
def test_log_tracker_without_the_tracker(
    table_1_report, monkeypatch, method, module, extra
):
    """Without the tracker installed, the call says how to install it."""
    monkeypatch.setitem(sys.modules, module, None)
    hint = f'pip install "sklearn-mlcm[{extra}]"'
    with pytest.raises(ImportError, match=f"MLCMReport.{method} requires {module}.*"):
        getattr(table_1_report, method)()
    try:
        getattr(table_1_report, method)()
    except ImportError as exc:
        assert hint in str(exc)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"prefix": 1}, "'prefix' parameter of MLCMReport.log_mlflow"),
        ({"step": -1}, "'step' parameter of MLCMReport.log_mlflow"),
        ({"page": "yes"}, "'page' parameter of MLCMReport.log_mlflow"),
    ],
)
def test_log_mlflow_parameter_errors(table_1_report, kwargs, match):
    """Bad options are refused before anything is imported or logged."""
    with pytest.raises(ValueError, match=match):
        table_1_report.log_mlflow(**kwargs)


def test_log_wandb_run_error(table_1_report):
    """``run`` must be a run (something with ``log``)."""
    with pytest.raises(ValueError, match="'run' parameter of MLCMReport.log_wandb"):
        table_1_report.log_wandb(run="run")


def test_import_sklearn_mlcm_imports_no_tensor_or_tracker():
    """``import sklearn_mlcm`` imports neither torch, torchmetrics, mlflow
    nor wandb (they are extras, imported when used)."""
    code = (
        "import sys, sklearn_mlcm; "
        "print(sorted(m for m in ('torch', 'torchmetrics', 'mlflow', 'wandb', "
        "'sklearn_mlcm.torch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
