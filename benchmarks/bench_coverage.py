"""Coverage of the report's 95% intervals on real multi-label data (issue #32).

A coverage study: do the intervals that ``mlcm_classification_report`` prints
at 95% contain the value they estimate 95% of the time?

- Populations: the MULAN test splits of yeast (917 x 14), enron (579 x 53),
  scene (1,196 x 6) and bibtex (2,515 x 159), each predicted by a one-vs-rest
  logistic regression fitted on its train split (standardised features for
  the numeric yeast and scene; bibtex's probabilities are cut at 0.1 instead
  of 0.5, so that it over-predicts). The population value of a quantity is
  its score on the whole test split, under the same method.
- Cells: samples of n instances drawn with replacement from the population,
  ``--replicates`` per cell; each gets the report's interval
  (``output_dict=True, confidence_level=0.95``, ``--resamples`` resamples)
  for each method (Heydarian, Krstinic) and interval kind (percentile,
  BCa). Every method and interval kind sees the same samples, and so do
  two checkouts run with the same ``--seed``: a before/after table compares
  like with like.
- Quantities: micro, macro, weighted and samples F1, macro precision and
  recall, and the per-label precision, recall and F1 grouped by the label's
  prevalence in the population (below 1%, 1-5%, 5% and above). A per-label
  score undefined in the population (a label never true, or never
  predicted, there) has no value to cover and is left out; the header says
  how many.

Only the public API is read, so the same script measures any checkout: the
one on ``sys.path`` (run it from the checkout's root, or set PYTHONPATH). When
the report's dict carries a flag beside an interval (``"<score> flag"``: None
when the library stands behind the interval, a reason otherwise), the table
gives the share flagged and the coverage among the unflagged intervals;
without the key every interval counts as unflagged.

Columns: "coverage" (% of intervals that contain the population value),
"MC se" (its Monte Carlo standard error: the standard deviation of a
replicate's share covered over sqrt(R), which is sqrt(p(1 - p) / R) for a
single interval per replicate and accounts for the labels of one sample
being dependent), "width" (mean high - low), "below" (% of intervals wholly
below the value: misses from a downward bias), "flagged" (%), "unflagged"
(coverage among the unflagged), "worst label" (the lowest coverage of one
label over the replicates, for the per-label groups), "warned" (% of the
replicates whose report raised ``scipy.stats.DegenerateDataWarning``), "bar"
(issue #32's: "ok" when the intervals cover at least 90% or are flagged in
at least 90% of the replicates, and the unflagged ones cover at least 90%;
"UNDER" otherwise). The run ends with a summary (a line per population and
quantity, a column per n: the lowest-highest coverage over the methods and
interval kinds) and the rows under the bar, per quantity.

    python benchmarks/bench_coverage.py --quick                # minutes
    python benchmarks/bench_coverage.py --save /tmp/new.json --plot /tmp/cov.png
    python benchmarks/bench_coverage.py --compare /tmp/old.json  # run, then both
    python benchmarks/bench_coverage.py --compare /tmp/old.json /tmp/new.json
    python benchmarks/bench_coverage.py --table /tmp/new.json --plot /tmp/cov.png

``--quick``: yeast and enron, n in {50, 300}, 50 replicates, 199 resamples,
percentile. The full study (the defaults: four populations, n from 50 to
3,000, 200 replicates, 999 resamples, both interval kinds, both methods) is
8,000 samples and 32,000 reports; on this project's two shared cores it takes
12-20 minutes with one process (735-1,105 s measured; ``--n-jobs`` for
more), ``--quick`` about 15 s (see benchmarks/README.md).
``--save`` rewrites the JSON after each cell, so a long run can be read, or
compared, before it ends. Needs liac-arff (the ``study`` extra) and the MULAN
data (``$SKLEARN_MLCM_DATA/mulan``, or ``--data``); the fitted models'
test-split probabilities are cached under ``~/.cache/sklearn_mlcm`` (or
``$XDG_CACHE_HOME``), never in the repository.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from bench_madjarov import load_dataset
from joblib import Parallel, delayed
from scipy.stats import DegenerateDataWarning
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

import sklearn_mlcm
from sklearn_mlcm import mlcm_classification_report

ROOT = Path(__file__).resolve().parents[1]

# name -> (probability cut, standardise the features): the numeric data sets
# are standardised, the text ones (binary words) are not; bibtex is cut low
POPULATIONS = {
    "yeast": (0.5, True),
    "enron": (0.5, False),
    "scene": (0.5, True),
    "bibtex": (0.1, False),
}
METHODS = ("heydarian", "krstinic")
INTERVALS = ("percentile", "bca")
SIZES = (50, 100, 300, 1000, 3000)
AVERAGES = (
    ("micro F1", "micro avg", "f1-score"),
    ("macro F1", "macro avg", "f1-score"),
    ("weighted F1", "weighted avg", "f1-score"),
    ("samples F1", "samples avg", "f1-score"),
    ("macro precision", "macro avg", "precision"),
    ("macro recall", "macro avg", "recall"),
)
SCORES = {"precision": "precision", "recall": "recall", "F1": "f1-score"}
# prevalence bins of the population: (name, lowest, highest excluded)
BINS = (("<1%", 0.0, 0.01), ("1-5%", 0.01, 0.05), (">=5%", 0.05, np.inf))
QUANTITIES = [name for name, _, _ in AVERAGES] + [
    f"label {score} {bin_}" for bin_, _, _ in BINS for score in SCORES
]
QUICK = {
    "populations": ["yeast", "enron"],
    "sizes": [50, 300],
    "replicates": 50,
    "resamples": 199,
    "intervals": ["percentile"],
}
COLUMNS = (
    "population",
    "method",
    "interval",
    "quantity",
    "n",
    "coverage",
    "MC se",
    "width",
    "below",
    "flagged",
    "unflagged",
    "worst label",
    "warned",
    "bar",
)


# -- populations --------------------------------------------------------------


def _cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sklearn_mlcm" / "bench_coverage"


def population(folder, name, seed):
    """(Y, P): a MULAN test split's labels and the 0/1 predictions of a
    one-vs-rest logistic regression fitted on its train split (random_state
    ``seed``), cut at the population's threshold. The probabilities are cached
    per data set, seed and scikit-learn version."""
    import sklearn

    cut, scale = POPULATIONS[name]
    cache = _cache_dir() / f"{name}-seed{seed}-sklearn{sklearn.__version__}.npz"
    if cache.is_file():
        with np.load(cache) as stored:
            return stored["y"], (stored["proba"] >= cut).astype(np.int8)
    X_train, Y_train, X_test, Y_test, _, _ = load_dataset(folder, name)
    model = OneVsRestClassifier(
        LogisticRegression(max_iter=1000, random_state=seed), n_jobs=1
    )
    if scale:
        model = make_pipeline(StandardScaler(), model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.filterwarnings("ignore", message="Label .* is present in all")
        proba = model.fit(X_train, Y_train).predict_proba(X_test)
    y = Y_test.astype(np.int8)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, y=y, proba=proba)
    return y, (proba >= cut).astype(np.int8)


def _report(y, p, method, **kwargs):
    """The report's dict, labels named L0, L1, ... (no clash with the
    averages), and whether a DegenerateDataWarning was raised."""
    names = [f"L{j}" for j in range(y.shape[1])]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = mlcm_classification_report(
            y, p, method=method, target_names=names, output_dict=True, **kwargs
        )
    warned = any(issubclass(w.category, DegenerateDataWarning) for w in caught)
    return report, warned


def targets(y, p, method):
    """The population values, per quantity: a float for an average, an array
    over the group's labels for a per-label group, and the group's labels.

    A per-label score undefined in the population (recall of a label never
    true, precision of a label never predicted, F1 of both) is left out."""
    report, _ = _report(y, p, method)
    values, groups = {}, {}
    for name, row, score in AVERAGES:
        values[name] = report[row][score]
    prevalence = y.mean(axis=0)
    true, predicted = y.sum(axis=0) > 0, p.sum(axis=0) > 0
    defined = {"precision": predicted, "recall": true, "F1": true | predicted}
    for bin_, low, high in BINS:
        in_bin = (prevalence >= low) & (prevalence < high)
        for score, key in SCORES.items():
            labels = np.flatnonzero(in_bin & defined[score])
            name = f"label {score} {bin_}"
            groups[name] = labels
            values[name] = np.array([report[f"L{j}"][key] for j in labels])
    return values, groups


# -- one replicate --------------------------------------------------------------


def _read(report, row, score):
    entry = report[row]
    low, high = entry[f"{score} low"], entry[f"{score} high"]
    flag = entry.get(f"{score} flag")
    return low, high, flag is not None


def replicate(y, p, n, rng_key, methods, intervals, resamples, groups):
    """One sample of n rows: per (method, interval, quantity), the arrays
    (low, high, flagged) over the quantity's intervals, and whether the
    report warned."""
    rng = np.random.default_rng(rng_key)
    rows = rng.integers(0, len(y), size=n)
    random_state = int(rng.integers(2**31 - 1))
    ys, ps = y[rows], p[rows]
    out = {}
    for method in methods:
        for interval in intervals:
            report, warned = _report(
                ys,
                ps,
                method,
                confidence_level=0.95,
                n_resamples=resamples,
                interval=interval,
                random_state=random_state,
                n_jobs=1,
            )
            cell = {"warned": warned}
            for name, row, score in AVERAGES:
                cell[name] = np.array([_read(report, row, score)], dtype=float)
            for bin_, _, _ in BINS:
                for score, key in SCORES.items():
                    name = f"label {score} {bin_}"
                    labels = groups[method][name]
                    cell[name] = np.array(
                        [_read(report, f"L{j}", key) for j in labels], dtype=float
                    ).reshape(len(labels), 3)
            out[method, interval] = cell
    return out


# -- a cell's row ---------------------------------------------------------------


def summarise(draws, truth):
    """A row's statistics from R replicates' (low, high, flagged) arrays of
    k intervals each, against the k population values."""
    if len(truth) == 0:
        return None
    stack = np.stack(draws)  # (R, k, 3)
    low, high, flagged = stack[..., 0], stack[..., 1], stack[..., 2] > 0
    tol = 1e-12
    # an interval with a NaN bound covers nothing
    covered = (low <= truth + tol) & (truth - tol <= high)
    per_replicate = covered.mean(axis=1)
    unflagged = ~flagged
    return {
        "labels": int(len(truth)),
        "intervals": int(covered.size),
        "coverage": 100 * float(covered.mean()),
        "MC se": 100 * float(per_replicate.std() / np.sqrt(len(per_replicate))),
        "width": float(np.nanmean(high - low)),
        "below": 100 * float((high < truth - tol).mean()),
        "flagged": 100 * float(flagged.mean()),
        "unflagged": (
            100 * float(covered[unflagged].mean()) if unflagged.any() else None
        ),
        "worst label": 100 * float(covered.mean(axis=0).min()),
    }


def run_cell(y, p, name, n, args, groups, values):
    """Every row of one (population, n) cell."""
    keys = [
        (args.seed, list(POPULATIONS).index(name), n, r) for r in range(args.replicates)
    ]
    tasks = (
        delayed(replicate)(
            y, p, n, key, args.methods, args.intervals, args.resamples, groups
        )
        for key in keys
    )
    results = Parallel(n_jobs=args.n_jobs)(tasks)
    rows = []
    for method in args.methods:
        for interval in args.intervals:
            cells = [result[method, interval] for result in results]
            warned = 100 * float(np.mean([cell["warned"] for cell in cells]))
            for quantity in QUANTITIES:
                truth = np.atleast_1d(values[method][quantity]).astype(float)
                stats = summarise([cell[quantity] for cell in cells], truth)
                if stats is None:
                    continue
                key = {
                    "population": name,
                    "method": method,
                    "interval": interval,
                    "quantity": quantity,
                    "n": n,
                }
                rows.append({**key, **stats, "warned": warned})
    return rows


# -- printing -------------------------------------------------------------------


def _fmt(value, digits=1):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def meets_bar(row):
    """Issue #32's bar: the row's intervals cover at least 90%, or are
    flagged in at least 90% of the replicates; and the unflagged ones cover
    at least 90% (a point estimate of coverage: mind its MC se)."""
    covers = row["coverage"] >= 90 or row["flagged"] >= 90
    return covers and (row["unflagged"] is None or row["unflagged"] >= 90)


def print_table(rows):
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + " --- |" * len(COLUMNS))
    for row in rows:
        row = {**row, "bar": "ok" if meets_bar(row) else "UNDER"}
        cells = [
            _fmt(row[c], 3 if c == "width" else 1) if c in row else "-" for c in COLUMNS
        ]
        print("| " + " | ".join(cells) + " |")


def print_summary(rows):
    """One line per population and quantity, one column per n: the coverage
    over the methods and interval kinds run, lowest-highest (the unflagged
    coverage in brackets when some were flagged)."""
    sizes = sorted({r["n"] for r in rows})
    print("\n| population | quantity | " + " | ".join(f"n={n}" for n in sizes) + " |")
    print("|" + " --- |" * (2 + len(sizes)))
    for name in dict.fromkeys(r["population"] for r in rows):
        for quantity in QUANTITIES:
            cells = []
            for n in sizes:
                same = [
                    r
                    for r in rows
                    if (r["population"], r["quantity"], r["n"]) == (name, quantity, n)
                ]
                if not same:
                    cells.append("-")
                    continue
                low = min(r["coverage"] for r in same)
                high = max(r["coverage"] for r in same)
                cell = (
                    f"{low:.0f}"
                    if round(low) == round(high)
                    else f"{low:.0f}-{high:.0f}"
                )
                if any(r["flagged"] > 0 for r in same):
                    kept = [r["unflagged"] for r in same if r["unflagged"] is not None]
                    cell += f" ({min(kept):.0f}-{max(kept):.0f})" if kept else " (-)"
                cells.append(cell)
            if any(cell != "-" for cell in cells):
                print(f"| {name} | {quantity} | " + " | ".join(cells) + " |")


def print_verdict(rows):
    """How many rows are under the bar, per quantity."""
    under = [row for row in rows if not meets_bar(row)]
    print(f"\nrows under the 90% bar: {len(under)} of {len(rows)}")
    for quantity in QUANTITIES:
        cells = [r for r in under if r["quantity"] == quantity]
        if cells:
            where = sorted({f"{r['population']} n={r['n']}" for r in cells})
            print(f"  {quantity}: {len(cells)} rows ({', '.join(where)})")


def print_compare(old, new):
    """Both tables side by side, row by row (the rows both have)."""
    key = ("population", "method", "interval", "quantity", "n")
    old_rows = {tuple(r[k] for k in key): r for r in old["rows"]}
    header = key + (
        "old cov",
        "new cov",
        "old width",
        "new width",
        "width ratio",
        "new flagged",
        "new unflagged",
    )
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for row in new["rows"]:
        before = old_rows.get(tuple(row[k] for k in key))
        if before is None:
            continue
        ratio = row["width"] / before["width"] if before["width"] else None
        cells = [str(row[k]) for k in key] + [
            _fmt(before["coverage"]),
            _fmt(row["coverage"]),
            _fmt(before["width"], 3),
            _fmt(row["width"], 3),
            _fmt(ratio, 2),
            _fmt(row["flagged"]),
            _fmt(row["unflagged"]),
        ]
        print("| " + " | ".join(cells) + " |")


def _style(quantity):
    """An average: a solid line of its own colour; a per-label group: its
    prevalence bin's colour, a dash per score."""
    names = [name for name, _, _ in AVERAGES]
    if quantity in names:
        return {"color": f"C{names.index(quantity)}", "ls": "-", "marker": "o"}
    _, score, bin_ = quantity.split(" ")
    colour = {"<1%": "darkred", "1-5%": "darkorange", ">=5%": "grey"}[bin_]
    dash = {"precision": ":", "recall": "--", "F1": "-."}[score]
    return {"color": colour, "ls": dash, "marker": "s", "ms": 3}


def plot(table, path):
    """Coverage against n: a panel per population (columns) and per method
    and interval kind (rows), a line per quantity, 95% and 90% drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = table["rows"]
    populations = list(dict.fromkeys(r["population"] for r in rows))
    kinds = list(dict.fromkeys((r["method"], r["interval"]) for r in rows))
    fig, axes = plt.subplots(
        len(kinds),
        len(populations),
        figsize=(3.4 * len(populations) + 2.6, 2.6 * len(kinds) + 0.8),
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    sizes = sorted({r["n"] for r in rows})
    for i, (method, interval) in enumerate(kinds):
        for j, name in enumerate(populations):
            ax = axes[i, j]
            ax.axhline(95, color="black", lw=0.8, ls="--", label="95% nominal")
            ax.axhline(90, color="red", lw=0.8, ls=":", label="90% bar")
            for quantity in QUANTITIES:
                line = [
                    r
                    for r in rows
                    if (r["population"], r["method"], r["interval"], r["quantity"])
                    == (name, method, interval, quantity)
                ]
                if line:
                    ax.plot(
                        [r["n"] for r in line],
                        [r["coverage"] for r in line],
                        label=quantity,
                        **_style(quantity),
                    )
            ax.set_xscale("log")
            ax.set_xticks(sizes, [str(n) for n in sizes])
            ax.minorticks_off()
            ax.set_ylim(-2, 102)
            ax.set_title(f"{name}: {method}, {interval}", fontsize=9)
            if i == len(kinds) - 1:
                ax.set_xlabel("n (sample size)")
            if j == 0:
                ax.set_ylabel("coverage %")
    handles = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fig.legend(list(handles.values()), list(handles), loc="center right", fontsize=8)
    fig.suptitle(
        f"Coverage of the report's 95% intervals "
        f"({table['settings']['replicates']} replicates, "
        f"{table['settings']['resamples']} resamples)",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0, 1 - 2.2 / fig.get_figwidth(), 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- command line ---------------------------------------------------------------


def _checkout():
    folder = Path(sklearn_mlcm.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {"path": str(folder), "commit": commit, "version": sklearn_mlcm.__version__}


def build_parser():
    data = os.environ.get("SKLEARN_MLCM_DATA")
    default_data = Path(data) / "mulan" if data else ROOT.parent / "shared/data/mulan"
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Run it under `nice -n 19` on a shared machine.",
    )
    parser.add_argument(
        "--data", type=Path, default=default_data, help="MULAN folder (%(default)s)"
    )
    parser.add_argument(
        "--populations",
        nargs="+",
        choices=list(POPULATIONS),
        help=f"default: {list(POPULATIONS)}",
    )
    parser.add_argument(
        "--sizes", nargs="+", type=int, help=f"sample sizes n, default: {SIZES}"
    )
    parser.add_argument("--replicates", type=int, help="R per cell, default: 200")
    parser.add_argument(
        "--resamples", type=int, help="bootstrap resamples B, default: 999"
    )
    parser.add_argument("--methods", nargs="+", choices=METHODS, help="default: both")
    parser.add_argument(
        "--intervals", nargs="+", choices=INTERVALS, help="default: both"
    )
    parser.add_argument("--seed", type=int, default=0, help="default: 0")
    parser.add_argument(
        "--n-jobs", type=int, default=1, help="processes over replicates, default: 1"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="yeast and enron, n in {50, 300}, 50 replicates, 199 resamples, "
        "percentile (options given explicitly win)",
    )
    parser.add_argument("--save", type=Path, help="write the table as JSON")
    parser.add_argument(
        "--table",
        type=Path,
        metavar="JSON",
        help="print (and --plot) a saved table instead of running",
    )
    parser.add_argument("--plot", type=Path, help="draw coverage against n (PNG)")
    parser.add_argument(
        "--compare",
        nargs="+",
        type=Path,
        metavar="JSON",
        help="OLD.json: run, then print OLD beside the run; OLD.json NEW.json: "
        "print the two saved tables side by side without running",
    )
    return parser


def _settings(args):
    quick = QUICK if args.quick else {}
    args.populations = args.populations or quick.get("populations", list(POPULATIONS))
    args.sizes = args.sizes or quick.get("sizes", list(SIZES))
    args.replicates = args.replicates or quick.get("replicates", 200)
    args.resamples = args.resamples or quick.get("resamples", 999)
    args.methods = args.methods or list(METHODS)
    args.intervals = args.intervals or quick.get("intervals", list(INTERVALS))
    return {
        "populations": args.populations,
        "sizes": args.sizes,
        "replicates": args.replicates,
        "resamples": args.resamples,
        "methods": args.methods,
        "intervals": args.intervals,
        "seed": args.seed,
        "confidence_level": 0.95,
    }


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.compare and len(args.compare) > 2:
        parser.error(f"--compare takes one or two JSON files, got {len(args.compare)}")
    if args.compare and len(args.compare) == 2:
        old, new = (json.loads(path.read_text()) for path in args.compare)
        print_compare(old, new)
        if args.plot:
            plot(new, args.plot)
        return
    if args.table:
        table = json.loads(args.table.read_text())
        print(f"sklearn_mlcm {table['sklearn_mlcm']}")
        print(f"settings {table['settings']}, seconds {table['seconds']}")
        print_table(table["rows"])
        print_summary(table["rows"])
        print_verdict(table["rows"])
        if args.plot:
            plot(table, args.plot)
        return
    for option in ("replicates", "resamples", "n_jobs"):
        value = getattr(args, option)
        if value is not None and value < 1:
            parser.error(f"--{option.replace('_', '-')} must be >= 1, got {value}")
    if args.sizes and min(args.sizes) < 1:
        parser.error(f"--sizes must be >= 1, got {args.sizes}")
    if not args.data.is_dir():
        parser.error(f"no MULAN data folder at {args.data} (use --data)")
    try:
        import arff  # noqa: F401
    except ImportError:
        raise SystemExit(
            'The populations are read with liac-arff: pip install "sklearn-mlcm[study]"'
        ) from None
    table = {
        "settings": _settings(args),
        "sklearn_mlcm": _checkout(),
        "python": platform.python_version(),
        "populations": {},
        "rows": [],
        "seconds": {},
    }
    print(f"sklearn_mlcm {table['sklearn_mlcm']}")
    print(f"settings {table['settings']}")
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        for name in args.populations:
            y, p = population(args.data, name, args.seed)
            values, groups = {}, {}
            for method in args.methods:
                values[method], groups[method] = targets(y, p, method)
            sizes = {q: len(groups[args.methods[0]][q]) for q in QUANTITIES[6:]}
            table["populations"][name] = {
                "shape": list(y.shape),
                "labels per group": sizes,
            }
            print(
                f"\n{name}: {y.shape[0]} x {y.shape[1]}, "
                f"{p.sum() / y.sum():.2f} predicted per true label; "
                "labels with a defined score per group "
                f"({args.methods[0]}): {sizes}",
                flush=True,
            )
            for n in args.sizes:
                cell_start = time.perf_counter()
                rows = run_cell(y, p, name, n, args, groups, values)
                seconds = time.perf_counter() - cell_start
                table["rows"].extend(rows)
                table["seconds"][f"{name} {n}"] = round(seconds, 1)
                table["seconds"]["total"] = round(time.perf_counter() - start, 1)
                print(f"\n{name}, n = {n}: {seconds:.0f} s", flush=True)
                print_table(rows)
                if args.save:
                    args.save.write_text(json.dumps(table, indent=1))
    print_summary(table["rows"])
    print_verdict(table["rows"])
    print(f"\ntotal {time.perf_counter() - start:.0f} s")
    if args.plot:
        plot(table, args.plot)
        print(f"plot: {args.plot}")
    if args.compare:
        print(f"\n{args.compare[0]} beside this run")
        print_compare(json.loads(args.compare[0].read_text()), table)


if __name__ == "__main__":
    sys.exit(main())
