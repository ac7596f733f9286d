"""
===========================================================
A PyTorch network on yeast: its MLCM, report and MLflow run
===========================================================

A small PyTorch network (one hidden layer) is trained on MULAN's *yeast*
(103 expression features, 14 functional classes, 4.2 per gene) on the CPU,
in a few seconds. It is evaluated the way a training loop evaluates: batch
by batch, through :class:`sklearn_mlcm.torch.MLCMMetric`, a torchmetrics
metric that accumulates the multi-label confusion matrix (MLCM) of the
network's logits (summed across processes when the loop runs under DDP).
The metric then hands its counts to :class:`~sklearn_mlcm.MLCMReport`,
without the predictions being kept, and the report is logged to a local
MLflow store: the headline scores as metrics, the per-label table, the
matrix, the page and the picture as artifacts.

It needs the ``torch`` and ``mlflow`` extras
(``pip install "sklearn-mlcm[torch,mlflow]"``); without them, or without the
data, it says so and stops. The documentation's build shows it without
running it (its environment has no PyTorch); CI runs it in the job that
installs the extras.

The data set is not part of the repository: the example reads
``yeast-train.arff``, ``yeast-test.arff`` and ``yeast.xml`` from the folder
``mulan/yeast`` of ``SKLEARN_MLCM_DATA`` (default ``../shared/data``, a
relative path being taken from the repository root). MULAN distributes it
on its `data sets page <https://mulan.sourceforge.net/datasets-mlc.html>`_.
Reading it needs ``liac-arff`` (``pip install liac-arff``).
"""

# %%
# Loading the data
# ----------------
#
# ``yeast.xml`` names the 14 label attributes; the others are the features,
# standardised with the training split's means and deviations.

import importlib.util
import os
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data`` from the repository
    root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    if not folder.is_absolute():
        # this file is <repository>/doc/examples/plot_torch_yeast.py
        try:
            examples = Path(__file__).resolve().parent
        except NameError:  # sphinx-gallery runs the code in doc/examples
            examples = Path.cwd()
        folder = examples.parents[1] / folder
    return folder


def load_arff(path, label_names):
    """Features and 0/1 labels of a dense ARFF file, labels by name."""
    import arff  # liac-arff

    with open(path) as f:
        content = arff.load(f)
    names = [attribute[0] for attribute in content["attributes"]]
    data = np.array(content["data"], dtype=np.float32)
    label_columns = [names.index(name) for name in label_names]
    features = np.setdiff1d(np.arange(len(names)), label_columns)
    return data[:, features], data[:, label_columns].astype(np.int64)


YEAST = data_folder() / "mulan" / "yeast"
FILES = ("yeast-train.arff", "yeast-test.arff", "yeast.xml")
missing = [
    package
    for package in ("torch", "torchmetrics", "mlflow", "arff")
    if importlib.util.find_spec(package) is None
]
available = not missing and all((YEAST / name).is_file() for name in FILES)

if available:
    classes = [
        label.get("name") for label in ET.parse(YEAST / "yeast.xml").getroot()
    ]
    X_train, Y_train = load_arff(YEAST / "yeast-train.arff", classes)
    X_test, Y_test = load_arff(YEAST / "yeast-test.arff", classes)
    mean, std = X_train.mean(axis=0), X_train.std(axis=0) + 1e-6
    X_train, X_test = (X_train - mean) / std, (X_test - mean) / std
    print(f"train {X_train.shape}, test {X_test.shape}, {len(classes)} classes")
elif missing:
    print(
        f"This example needs {', '.join(missing)} "
        '(pip install "sklearn-mlcm[torch,mlflow]" liac-arff), which\n'
        "this environment lacks, so it stops here."
    )
else:
    print(
        "This example needs MULAN's yeast data set (yeast-train.arff,\n"
        "yeast-test.arff and yeast.xml) in $SKLEARN_MLCM_DATA/mulan/yeast\n"
        f"({YEAST}),\nwhich is not part of the repository. It was not found, "
        "so the\nexample stops here."
    )

# %%
# Training a small network
# ------------------------
#
# 103 inputs, 64 hidden units, 14 logits; binary cross-entropy, Adam, 30
# epochs of batches of 64 genes, on one CPU thread.

if available:
    import torch
    from torch import nn

    torch.manual_seed(0)
    torch.set_num_threads(1)
    network = nn.Sequential(
        nn.Linear(X_train.shape[1], 64), nn.ReLU(), nn.Linear(64, len(classes))
    )
    optimiser = torch.optim.Adam(network.parameters(), lr=1e-3)
    loss_of = nn.BCEWithLogitsLoss()
    features, targets = torch.from_numpy(X_train), torch.from_numpy(Y_train)
    started = time.perf_counter()
    for epoch in range(30):
        order = torch.randperm(len(features))
        for batch in order.split(64):
            optimiser.zero_grad()
            loss = loss_of(network(features[batch]), targets[batch].float())
            loss.backward()
            optimiser.step()
    print(f"trained in {time.perf_counter() - started:.1f} s, last loss {loss:.3f}")

# %%
# Evaluating through MLCMMetric
# -----------------------------
#
# The evaluation loop updates the metric with each batch's logits (values
# outside [0, 1]: the metric applies the sigmoid, then the 0.5 threshold, as
# torchmetrics' multilabel metrics do) and the true labels. Only the
# (15, 15) matrix and a few sums are kept. Under DDP each process would
# update its own share, and ``compute()`` would sum them.

if available:
    from sklearn_mlcm.torch import MLCMMetric

    metric = MLCMMetric(num_labels=len(classes), target_names=classes)
    network.eval()
    with torch.no_grad():
        for batch in torch.arange(len(X_test)).split(128):
            logits = network(torch.from_numpy(X_test[batch]))
            metric.update(logits, torch.from_numpy(Y_test[batch]))
    matrix = metric.compute()
    print(f"{int(matrix.sum())} cells counted over {int(metric.n_samples)} genes")

# %%
# The report
# ----------
#
# ``to_report()`` builds the :class:`~sklearn_mlcm.MLCMReport` of everything
# the metric counted: the classification report read off the MLCM, the most
# confused label pairs, the page and the picture. (Intervals and label-set
# confusions need the genes themselves, which the metric does not keep.)

if available:
    report = metric.to_report(zero_division=0.0)
    print(report)
    print(report.to_markdown())

# %%
# The picture, drawn as torchmetrics' metrics draw theirs: ``plot()``
# returns the figure and its axes.

if available:
    fig, ax = metric.plot()

# %%
# Logging to MLflow
# -----------------
#
# A local MLflow store: a sqlite database (MLflow's recommended backend) in
# a temporary folder, with the run's artifacts beside it.
# :meth:`~sklearn_mlcm.MLCMReport.log_mlflow` logs the headline scores as
# metrics (``mlcm/macro_f1``, ...) and the tables, the page and the picture
# as artifacts; they are read back here through ``MlflowClient``.

if available:
    import warnings

    import mlflow
    from mlflow.tracking import MlflowClient

    store = Path(tempfile.mkdtemp(prefix="mlcm-mlflow-"))
    mlflow.set_tracking_uri("sqlite:///" + str(store / "mlflow.db"))
    experiment = mlflow.create_experiment(
        "yeast", artifact_location=(store / "artifacts").as_uri()
    )
    with warnings.catch_warnings():
        # MLflow's own models with SQLAlchemy 2.1 (not this library's)
        warnings.filterwarnings("ignore", "The ``noload`` loader strategy")
        with mlflow.start_run(experiment_id=experiment) as run:
            mlflow.log_params({"hidden": 64, "epochs": 30, "threshold": 0.5})
            report.log_mlflow()
        logged = MlflowClient().get_run(run.info.run_id)
        artifacts = MlflowClient().list_artifacts(run.info.run_id, "mlcm")
    for name in ("mlcm/micro_f1", "mlcm/macro_f1", "mlcm/samples_f1"):
        print(f"{name}: {logged.data.metrics[name]:.3f}")
    print("artifacts:", ", ".join(sorted(a.path for a in artifacts)))
