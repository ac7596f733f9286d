"""MLCMReport.log_mlflow and log_wandb: a real local MLflow store (sqlite)
and an offline W&B run, read back as a person would (skipped without them;
CI's tracker job installs them; the options and the install hints are
tested in test_tracker_options.py, everywhere)."""

import json
import warnings

import pytest
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE, TABLE_4J
from scipy.stats import DegenerateDataWarning
from test_page_browser import browser  # noqa: F401 (the fixture, and its skip rule)

from sklearn_mlcm import MLCMReport


@pytest.fixture
def table_1_report():
    """The report of Heydarian et al. (2022), Table 1."""
    return MLCMReport.from_predictions(
        TABLE_1_TRUE, TABLE_1_PRED, target_names=TABLE_1_NAMES, zero_division=0.0
    )


@pytest.fixture
def report_with_intervals():
    """Table 1 with 90% percentile bootstrap intervals (its macro averages
    over a rare label are flagged: the warning is the flags' tests' own)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*intervals flagged", DegenerateDataWarning)
        return MLCMReport.from_predictions(
            TABLE_1_TRUE,
            TABLE_1_PRED,
            target_names=TABLE_1_NAMES,
            zero_division=0.0,
            confidence_level=0.9,
            n_resamples=199,
            interval="percentile",
            random_state=0,
        )


#: MLflow's sqlite store with SQLAlchemy 2.1 (MLflow's models, not ours).
MLFLOW_SQLALCHEMY = pytest.mark.filterwarnings(
    "ignore:The ``noload`` loader strategy is deprecated"
)


@pytest.fixture
def mlflow_store(tmp_path, monkeypatch):
    """MLflow with a sqlite tracking store and its artifacts in ``tmp_path``."""
    mlflow = pytest.importorskip(
        "mlflow", reason="log_mlflow needs mlflow: pip install 'sklearn-mlcm[mlflow]'"
    )
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)  # the default artifact root: ./mlruns
    mlflow.set_tracking_uri("sqlite:///" + str(tmp_path / "mlflow.db"))
    experiment = mlflow.create_experiment(
        "mlcm", artifact_location=(tmp_path / "artifacts").as_uri()
    )
    yield mlflow, experiment
    if mlflow.active_run() is not None:
        mlflow.end_run()
    mlflow.set_tracking_uri(None)


def _read_artifact(client, run_id, path):
    """The text of a run's artifact."""
    local = client.download_artifacts(run_id, path)
    with open(local, encoding="utf-8") as handle:
        return handle.read()


@MLFLOW_SQLALCHEMY
def test_log_mlflow_into_a_sqlite_store(table_1_report, mlflow_store):
    """The scalars, tables, page and picture are in the run, read back
    through MlflowClient."""
    mlflow, experiment = mlflow_store
    from mlflow.tracking import MlflowClient

    with mlflow.start_run(experiment_id=experiment) as run:
        assert table_1_report.log_mlflow(step=3) is table_1_report
    client = MlflowClient()
    metrics = client.get_run(run.info.run_id).data.metrics
    expected = table_1_report.report
    assert metrics["mlcm/macro_f1"] == pytest.approx(expected["macro avg"]["f1-score"])
    assert metrics["mlcm/micro_precision"] == pytest.approx(
        expected["micro avg"]["precision"]
    )
    assert metrics["mlcm/samples_recall"] == pytest.approx(
        expected["samples avg"]["recall"]
    )
    assert metrics["mlcm/n_samples"] == 9
    assert not any(name.endswith(("_low", "_high")) for name in metrics)
    history = client.get_metric_history(run.info.run_id, "mlcm/weighted_f1")
    assert [m.step for m in history] == [3]
    listed = {a.path for a in client.list_artifacts(run.info.run_id, "mlcm")}
    assert listed == {
        "mlcm/report.json",
        "mlcm/confusion_matrix.json",
        "mlcm/report.html",
        "mlcm/confusion_matrix.png",
    }
    page = _read_artifact(client, run.info.run_id, "mlcm/report.html")
    assert page == table_1_report.to_html()
    table = json.loads(_read_artifact(client, run.info.run_id, "mlcm/report.json"))
    rows = {row[0]: dict(zip(table["columns"], row)) for row in table["data"]}
    assert rows["C0"]["kind"] == "label"
    assert rows["C0"]["f1-score"] == pytest.approx(expected["C0"]["f1-score"])
    assert rows["macro avg"]["kind"] == "average"
    matrix = json.loads(
        _read_artifact(client, run.info.run_id, "mlcm/confusion_matrix.json")
    )
    assert matrix["columns"] == ["true \\ predicted", *TABLE_1_NAMES, "NPL"]
    assert [row[0] for row in matrix["data"]] == [*TABLE_1_NAMES, "NTL"]
    assert [row[1:] for row in matrix["data"]] == TABLE_4J
    png = client.download_artifacts(run.info.run_id, "mlcm/confusion_matrix.png")
    with open(png, "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"


@MLFLOW_SQLALCHEMY
def test_log_mlflow_interval_bounds_and_prefix(report_with_intervals, mlflow_store):
    """With intervals, each bound is a metric of its own; ``prefix`` names
    the metrics and the artifacts' folder; page and picture can be left
    out."""
    mlflow, experiment = mlflow_store
    from mlflow.tracking import MlflowClient

    with mlflow.start_run(experiment_id=experiment) as run:
        report_with_intervals.log_mlflow(prefix="val", page=False, plot=False)
    metrics = MlflowClient().get_run(run.info.run_id).data.metrics
    macro = report_with_intervals.report["macro avg"]
    assert metrics["val/macro_f1"] == pytest.approx(macro["f1-score"])
    assert metrics["val/macro_f1_low"] == pytest.approx(macro["f1-score low"])
    assert metrics["val/macro_f1_high"] == pytest.approx(macro["f1-score high"])
    assert metrics["val/micro_recall_low"] <= metrics["val/micro_recall"]
    # an interval's flag (a reason, or None) is no metric: it is in the table
    assert not [name for name in metrics if name.endswith("_flag")]
    table = mlflow.artifacts.load_dict(f"{run.info.artifact_uri}/val/report.json")
    assert "f1-score flag" in table["columns"]
    listed = {a.path for a in MlflowClient().list_artifacts(run.info.run_id, "val")}
    assert listed == {"val/report.json", "val/confusion_matrix.json"}


@MLFLOW_SQLALCHEMY
def test_log_mlflow_page_opens_in_chromium(table_1_report, mlflow_store, request):
    """The logged page, opened from the store in Chromium, shows the
    report's table (as the page's browser tests open it)."""
    from pathlib import Path

    from mlflow.tracking import MlflowClient

    mlflow, experiment = mlflow_store
    with mlflow.start_run(experiment_id=experiment) as run:
        table_1_report.log_mlflow(plot=False)
    path = MlflowClient().download_artifacts(run.info.run_id, "mlcm/report.html")
    chromium = request.getfixturevalue("browser")  # the page tests' Chromium
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(Path(path).resolve().as_uri())
        text = page.inner_text("body")
        headers = page.locator("table th").all_inner_texts()
    finally:
        page.close()
    assert "macro avg" in text
    assert "C0" in text
    assert "f1-score" in headers


def test_log_wandb_offline_run(table_1_report, tmp_path, monkeypatch):
    """An offline W&B run holds the scalars in its summary and the tables,
    page and picture as its files."""
    wandb = pytest.importorskip(
        "wandb", reason="log_wandb needs wandb: pip install 'sklearn-mlcm[wandb]'"
    )
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.setenv("WANDB_SILENT", "true")
    run = wandb.init(project="mlcm", dir=tmp_path)
    try:
        assert table_1_report.log_wandb(run) is table_1_report
        summary = dict(run.summary)
        files = run.dir
    finally:
        run.finish()
        wandb.teardown()  # the service writes the offline record out
    expected = table_1_report.report
    assert summary["mlcm/macro_f1"] == pytest.approx(expected["macro avg"]["f1-score"])
    assert summary["mlcm/n_samples"] == 9
    assert summary["mlcm/report"]["_type"] == "table-file"
    assert summary["mlcm/page"]["_type"] == "html-file"
    assert summary["mlcm/confusion_matrix_plot"]["_type"] == "image-file"
    from pathlib import Path

    media = Path(files)
    table_path = media / summary["mlcm/confusion_matrix"]["path"]
    table = json.loads(table_path.read_text(encoding="utf-8"))
    assert table["columns"] == ["true \\ predicted", *TABLE_1_NAMES, "NPL"]
    assert [row[1:] for row in table["data"]] == TABLE_4J
    page = (media / summary["mlcm/page"]["path"]).read_text(encoding="utf-8")
    assert "macro avg" in page and "C0" in page
    report_rows = json.loads(
        (media / summary["mlcm/report"]["path"]).read_text(encoding="utf-8")
    )
    assert report_rows["columns"][:2] == ["label", "kind"]
    # the offline run's record (what `wandb sync` uploads) holds the scalars
    (record,) = media.parent.glob("run-*.wandb")
    assert b"mlcm/macro_f1" in record.read_bytes()


def test_log_wandb_needs_a_run(table_1_report):
    """Without a run (none passed, none active) the call says how to start
    one."""
    wandb = pytest.importorskip(
        "wandb", reason="log_wandb needs wandb: pip install 'sklearn-mlcm[wandb]'"
    )
    assert wandb.run is None
    with pytest.raises(ValueError, match=r"start one with wandb.init\(\)"):
        table_1_report.log_wandb()
