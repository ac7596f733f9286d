"""Madjarov et al.'s multi-label study with scikit-learn, fused as Eftimov & Kocev do.

Trains scikit-learn multi-label classifiers on the MULAN train/test splits,
computes the 16 measures of Madjarov et al. (2012) on each test set, fuses them
into one rank per method and dataset with PROMETHEE II (usual and V-shape
preference functions, entropy weights), tests the ranks with Friedman and
Nemenyi, analyses the correlations between the measures (Eftimov & Kocev 2019,
Tables 2-5), draws the critical-difference diagrams and shows the multi-label
confusion matrix of the best method on one dataset.

    python benchmarks/bench_madjarov.py            # the full study (~4 min)
    python benchmarks/bench_madjarov.py --quick    # 3 datasets, 4 methods
    python benchmarks/bench_madjarov.py --datasets emotions yeast --methods BR kNN RF

Needs the ``study`` extra (liac-arff, pandas, matplotlib) and the MULAN data in
``../shared/data/mulan`` from the repository root (``--data`` to change it).
Every estimator has random_state=0 and n_jobs=1 unless ``--n-jobs`` says
otherwise, so the printed tables are the same from run to run.
"""

import argparse
import tempfile
import time
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import ClassifierChain
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from sklearn_mlcm import (
    CriticalDifferenceDisplay,
    MLCMDisplay,
    friedman_test,
    fuse_measures,
    least_correlated_measures,
    measure_correlations,
    measure_directions,
    mlcm_classification_report,
    mlcm_confusion_matrix,
    multilabel_measures,
    nemenyi_test,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "mulan"

# ../shared/data/README.md: train / test instances, features, labels.
EXPECTED_SHAPES = {
    "emotions": (391, 202, 72, 6),
    "scene": (1211, 1196, 294, 6),
    "yeast": (1500, 917, 103, 14),
    "medical": (333, 645, 1449, 45),
    "enron": (1123, 579, 1001, 53),
    # the README counts genbase's protein identifier among its 1186 features
    "genbase": (463, 199, 1185, 27),
    "tmc2007": (21519, 7077, 500, 22),
    "bibtex": (4880, 2515, 1836, 159),
    "corel5k": (4500, 500, 499, 374),
    "delicious": (12920, 3185, 500, 983),
    "flags": (129, 65, 19, 7),
}
DATASETS = [
    "emotions",
    "scene",
    "yeast",
    "medical",
    "enron",
    "corel5k",
    "tmc2007",
    "bibtex",
    "genbase",
]
QUICK_DATASETS = ["emotions", "scene", "yeast"]
QUICK_METHODS = ["BR", "CC", "kNN", "tree"]
SHORT = {
    "hamming_loss": "HL",
    "accuracy": "Acc",
    "precision": "Prec",
    "recall": "Rec",
    "f1": "F1",
    "subset_accuracy": "SubAcc",
    "micro_precision": "miP",
    "micro_recall": "miR",
    "micro_f1": "miF1",
    "macro_precision": "maP",
    "macro_recall": "maR",
    "macro_f1": "maF1",
    "one_error": "1-err",
    "coverage": "Cov",
    "ranking_loss": "RL",
    "average_precision": "AvgP",
}


class OneClassSafe(ClassifierMixin, BaseEstimator):
    """A binary classifier that also fits a label with one class in training.

    ClassifierChain fits its base estimator on every label; on medical,
    enron and genbase some labels never occur in the training split, where
    LogisticRegression refuses to fit. This predicts the one class seen, with
    probability 1.
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        seen = np.unique(y)
        self.constant_ = int(seen[0]) if len(seen) == 1 else None
        if self.constant_ is None:
            self.estimator_ = clone(self.estimator).fit(X, y)
        return self

    def predict_proba(self, X):
        if self.constant_ is None:
            return self.estimator_.predict_proba(X)
        proba = np.zeros((X.shape[0], 2))
        proba[:, self.constant_] = 1.0
        return proba

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def make_methods(seed, n_jobs):
    """The compared methods: name -> (estimator, standardise numeric features?).

    Stand-ins for Madjarov et al.'s methods: BR and CC (with logistic
    regression here, SVMs there), BR with a linear SVM, k nearest neighbours
    (ML-kNN), a multi-output decision tree (PCT), and random forests and extra
    trees of multi-output trees (RF-PCT), plus a multi-layer perceptron.
    """
    # liblinear: 20 times faster than lbfgs on the binary text features
    logistic = LogisticRegression(solver="liblinear")
    return {
        "BR": (OneVsRestClassifier(logistic), True),
        "CC": (ClassifierChain(OneClassSafe(logistic), random_state=seed), True),
        "BR-SVM": (OneVsRestClassifier(LinearSVC(random_state=seed)), True),
        "kNN": (KNeighborsClassifier(n_neighbors=10), True),
        "tree": (
            DecisionTreeClassifier(min_samples_leaf=5, random_state=seed),
            False,
        ),
        "RF": (
            RandomForestClassifier(
                n_estimators=100, max_features="sqrt", random_state=seed, n_jobs=n_jobs
            ),
            False,
        ),
        "ET": (
            ExtraTreesClassifier(n_estimators=100, random_state=seed, n_jobs=n_jobs),
            False,
        ),
        "MLP": (
            MLPClassifier(
                hidden_layer_sizes=(128,),
                batch_size=64,
                max_iter=100,
                random_state=seed,
            ),
            True,
        ),
    }


# -- data ---------------------------------------------------------------------


def _label_names(xml_path):
    """The names of the <label> elements of a MULAN XML file, at any depth."""
    root = ET.parse(xml_path).getroot()
    return [node.get("name") for node in root.iter() if node.tag.endswith("label")]


def _column(values, kind):
    """One ARFF attribute's values -> float columns (nominal: codes or one-hot).

    Sparse ARFF leaves out the first value of a nominal attribute (liac-arff
    gives 0 for it); numeric missing values become NaN.
    """
    if isinstance(kind, str):  # NUMERIC, REAL, INTEGER
        return np.array([np.nan if v is None else float(v) for v in values])[:, None]
    codes = {value: i for i, value in enumerate(kind)}
    index = np.array([0 if v == 0 or v is None else codes[v] for v in values])
    if len(kind) <= 2:
        return index[:, None].astype(np.float64)
    return (index[:, None] == np.arange(len(kind))).astype(np.float64)


def load_split(path, labels):
    """(X, Y, label names, number of feature attributes) of one ARFF file.

    The labels are the attributes named in the XML; they must be the last
    ones, and keep the ARFF's order (yeast's and enron's XML order differs).
    """
    import arff  # liac-arff: reads both dense and sparse ARFF

    with open(path) as handle:
        data = arff.load(handle)
    attributes = data["attributes"]
    names = [name for name, _ in attributes]
    label_set = set(labels)
    missing = label_set - set(names)
    if missing:
        raise ValueError(f"{path.name}: labels of the XML not in the ARFF: {missing}")
    if set(names[-len(labels) :]) != label_set:
        raise ValueError(f"{path.name}: the labels are not the last attributes")
    rows = data["data"]
    columns = list(zip(*rows))
    y = np.column_stack(
        [
            [str(v) == "1" for v in columns[names.index(label)]]
            for label in names[-len(labels) :]
        ]
    ).astype(np.int64)
    features = []
    for (name, kind), values in zip(attributes[: -len(labels)], columns):
        # an identifier (genbase's protein) is not a feature
        if not isinstance(kind, str) and len(kind) > len(rows) / 2:
            continue
        features.append(_column(values, kind))
    return np.hstack(features), y, names[-len(labels) :], len(features)


def load_dataset(folder, name):
    """Train and test splits of a MULAN dataset, shapes checked against the
    data README: (X_train, Y_train, X_test, Y_test, label names, n_features)."""
    directory = folder / name
    xmls = list(directory.glob("*.xml"))
    if len(xmls) != 1:
        raise ValueError(f"{name}: no MULAN dataset (one XML file) in {directory}")
    xml = xmls[0]
    train = [p for p in directory.glob("*.arff") if "train" in p.name]
    test = [p for p in directory.glob("*.arff") if "test" in p.name]
    if len(train) != 1 or len(test) != 1:
        raise ValueError(f"{name}: no single train / test pair of ARFF files")
    train, test = train[0], test[0]
    labels = _label_names(xml)
    X_train, Y_train, names, n_features = load_split(train, labels)
    X_test, Y_test, test_names, _ = load_split(test, labels)
    if names != test_names or X_train.shape[1] != X_test.shape[1]:
        raise ValueError(f"{name}: the train and test splits do not match")
    shape = (len(X_train), len(X_test), n_features, Y_train.shape[1])
    expected = EXPECTED_SHAPES.get(name)
    if expected is None:
        raise ValueError(f"{name}: no shapes in ../shared/data/README.md to check")
    if shape != expected:
        raise ValueError(
            f"{name}: loaded (train, test, features, labels) = {shape}, but "
            f"../shared/data/README.md says {expected}"
        )
    return X_train, Y_train, X_test, Y_test, names, n_features


# -- experiment ---------------------------------------------------------------


def positive_scores(estimator, X):
    """(n_samples, n_labels) scores: P(label = 1), or the decision function."""
    if not hasattr(estimator, "predict_proba"):
        return estimator.decision_function(X)
    proba = estimator.predict_proba(X)
    if isinstance(proba, list):  # one (n, n_classes) array per label
        return np.column_stack(
            [
                p[:, list(classes).index(1)] if 1 in classes else np.zeros(len(p))
                for p, classes in zip(proba, estimator.classes_)
            ]
        )
    return proba


def run_method(estimator, scale, X_train, Y_train, X_test):
    """Fit, predict and score one method; (labels, scores, seconds)."""
    start = time.perf_counter()
    if scale:
        estimator = make_pipeline(StandardScaler(), estimator)
    estimator.fit(X_train, Y_train)
    y_pred = estimator.predict(X_test)
    final = estimator[-1] if scale else estimator
    features = estimator[:-1].transform(X_test) if scale else X_test
    y_score = positive_scores(final, features)
    return np.asarray(y_pred), y_score, time.perf_counter() - start


def print_table(title, frame, fmt="{:.3f}"):
    print(title)
    text = frame.to_string(float_format=lambda v: fmt.format(v))
    print("\n".join("  " + line for line in text.splitlines()))
    print()


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    # one BLAS thread per job: small matrix products (the MLP's) crawl when
    # BLAS threads compete for two shared cores
    with threadpool_limits(limits=max(args.n_jobs, 1)):
        run(parser, args)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="MULAN folder")
    parser.add_argument("--datasets", nargs="+", help=f"default: {DATASETS}")
    parser.add_argument("--methods", nargs="+", help="default: all eight")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_DATASETS} x {QUICK_METHODS}"
    )
    parser.add_argument("--out", type=Path, help="figure folder (default: a temp dir)")
    parser.add_argument("--mlcm-dataset", default="emotions", help="for the MLCM")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--n-jobs", type=int, default=1, help="RF and ET jobs, BLAS threads"
    )
    return parser


def run(parser, args):
    """The study: train, measure, fuse, test and draw."""

    try:
        import arff  # noqa: F401
        import matplotlib
        import pandas as pd
    except ImportError as exc:
        raise SystemExit(
            f"{exc}. The study needs liac-arff, pandas and matplotlib: "
            'pip install "sklearn-mlcm[study]"'
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    warnings.filterwarnings("ignore", message="Label .* is present in all training")

    start = time.perf_counter()
    all_methods = make_methods(args.seed, args.n_jobs)
    datasets = args.datasets or (QUICK_DATASETS if args.quick else DATASETS)
    method_names = args.methods or (QUICK_METHODS if args.quick else list(all_methods))
    unknown = sorted(set(method_names) - set(all_methods))
    if unknown:
        parser.error(f"unknown methods {unknown}; choose from {list(all_methods)}")
    if not args.data.is_dir():
        parser.error(f"no MULAN data folder at {args.data} (use --data)")
    out = args.out or Path(tempfile.mkdtemp(prefix="bench_madjarov_"))
    out.mkdir(parents=True, exist_ok=True)

    print("Multi-label methods compared on the MULAN splits (Madjarov et al. 2012)")
    print(f"datasets: {datasets}\nmethods:  {method_names}\n")
    rows, fits, kept = [], {}, {}
    for name in datasets:
        X_train, Y_train, X_test, Y_test, labels, n_features = load_dataset(
            args.data, name
        )
        print(
            f"{name}: {len(X_train)} train / {len(X_test)} test, "
            f"{n_features} features, {Y_train.shape[1]} labels "
            f"(shapes as in the data README), test cardinality "
            f"{Y_test.sum(axis=1).mean():.2f}"
        )
        binary = bool(np.isin(X_train, (0, 1)).all())  # text: keep 0/1 features
        for method in method_names:
            estimator, scale = all_methods[method]
            y_pred, y_score, seconds = run_method(
                clone(estimator), scale and not binary, X_train, Y_train, X_test
            )
            fits[name, method] = seconds
            values = multilabel_measures(Y_test, y_pred, y_score, zero_division=0.0)
            rows += [(name, method, m, v) for m, v in values.items()]
            kept[name, method] = (Y_test, y_pred, labels)
        print(
            "  fit + predict seconds: "
            + ", ".join(f"{m} {fits[name, m]:.1f}" for m in method_names)
        )
    print()
    results = pd.DataFrame(rows, columns=["dataset", "method", "measure", "value"])
    results.to_csv(out / "results.csv", index=False)
    directions = measure_directions()

    for name in datasets:
        table = (
            results[results.dataset == name]
            .pivot(index="measure", columns="method", values="value")
            .loc[list(SHORT), method_names]
        )
        table.index = [
            f"{SHORT[m]} ({'max' if directions[m] else 'min'})" for m in table.index
        ]
        print_table(f"Measures on {name} (test split)", table)

    tables = {}
    for preference, number in (("usual", 2), ("v-shape", 3)):
        ranks = fuse_measures(results, maximize=directions, preference=preference)
        tables[preference] = ranks
        shown = ranks.copy()
        shown.loc["average"] = ranks.mean()
        print_table(
            f"Fusion ranks, {preference} preference function (as Eftimov & Kocev's "
            f"Table {number})",
            shown,
            "{:.2f}",
        )

    for preference, ranks in tables.items():
        friedman = friedman_test(ranks)
        nemenyi = nemenyi_test(ranks)
        pairs = ", ".join(f"({a}, {b})" for a, b in nemenyi.significant_pairs)
        print(f"Friedman and Nemenyi, {preference} preference function")
        print(
            f"  chi2_F = {friedman.statistic:.3f}, p = {friedman.pvalue:.4g}; "
            f"Iman-Davenport F_F = {friedman.iman_davenport_statistic:.3f}, "
            f"p = {friedman.iman_davenport_pvalue:.4g}"
        )
        print(
            f"  k = {len(method_names)}, N = {len(datasets)}: q_0.05 = "
            f"{nemenyi.q_alpha:.3f}, CD = {nemenyi.critical_difference:.3f}; "
            f"significant pairs (better, worse): {pairs or 'none'}"
        )
        display = CriticalDifferenceDisplay.from_rank_table(ranks)
        display.ax_.set_title(f"Nemenyi CD diagram, {preference} preference")
        path = out / f"cd_diagram_{preference}.png"
        display.figure_.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(display.figure_)
        print(f"  bars join methods not significantly different: {display.cliques_}")
        print(f"  figure: {path}\n")

    correlations = measure_correlations(results)
    upper = correlations.where(np.triu(np.ones(correlations.shape, bool), 1))
    upper = upper.stack().dropna()
    strongest = upper.abs().sort_values(ascending=False)
    print("Correlation analysis (Pearson over methods, averaged over datasets)")
    print(
        "  most correlated pairs: "
        + ", ".join(
            f"{SHORT[a]}~{SHORT[b]} {upper[a, b]:+.2f}" for a, b in strongest.index[:8]
        )
    )
    print(
        "  least correlated pairs: "
        + ", ".join(
            f"{SHORT[a]}~{SHORT[b]} {upper[a, b]:+.2f}" for a, b in strongest.index[-4:]
        )
    )
    averages = {}
    for threshold in (0.7, 0.8, 0.9):
        measures = least_correlated_measures(correlations, threshold=threshold)
        subset = results[results.measure.isin(measures)]
        averages[str(threshold)] = fuse_measures(subset, maximize=directions).mean()
        print(f"  kept at {threshold}: {[SHORT[m] for m in measures]}")
    averages["All"] = tables["v-shape"].mean()
    average_table = pd.DataFrame(averages)
    practical = average_table.rank()
    print()
    print_table(
        "Average V-shape ranks by correlation threshold (as Tables 4 and 5)",
        pd.concat({"average rank": average_table, "rank": practical}, axis=1),
        "{:.2f}",
    )
    thresholds = friedman_test(average_table.rank(axis=1))
    print(
        "  Friedman across the thresholds (methods as blocks): "
        f"p = {thresholds.pvalue:.3f}\n"
    )

    best = tables["v-shape"].mean().idxmin()
    where = args.mlcm_dataset if args.mlcm_dataset in datasets else datasets[0]
    y_true, y_pred, labels = kept[where, best]
    cm = mlcm_confusion_matrix(y_true, y_pred)
    names = [label[:12] for label in labels] + ["NTL"]
    print(f"Best method (lowest average V-shape rank): {best}")
    print(
        f"Its multi-label confusion matrix on {where} (rows true, last row NTL; "
        "columns predicted, last column NPL):"
    )
    print_table("", pd.DataFrame(cm, index=names, columns=names[:-1] + ["NPL"]), "{}")
    print(
        mlcm_classification_report(
            y_true, y_pred, target_names=labels, zero_division=0.0
        )
    )
    display = MLCMDisplay.from_predictions(y_true, y_pred, display_labels=labels)
    shown = display.ax_.get_title()  # "MLCM: 40 of 374 labels ..." above 40
    title = f"MLCM of {best} on {where}"
    display.ax_.set_title(f"{title}\n{shown}" if shown else title)
    path = out / f"mlcm_{best}_{where}.png"
    display.figure_.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(display.figure_)
    print(f"figure: {path}")
    print(f"results table: {out / 'results.csv'}")
    print(f"\nruntime: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
