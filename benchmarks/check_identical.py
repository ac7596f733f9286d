"""Same inputs, same numbers: digests of about 700 seeded calls, old and new.

Runs a fixed list of calls through the public API only (``import
sklearn_mlcm`` and the names of its ``__all__``: private paths move in a
refactor) on small seeded data, Heydarian et al.'s Table 1 (a literal copy
here) and, when ``$SKLEARN_MLCM_DATA/posters`` exists, a slice of the movie
posters' predictions. For each call it writes down every number of the result
in a canonical form, one line per leaf: an array as its dtype, shape and the
SHA-256 of its bytes (C order); a sparse matrix as its class, format, dtype,
shape and the SHA-256 of its indptr, indices and data (sorted indices, index
arrays as int64, explicit zeros kept); a float as its ``repr`` (bit-exact: it
reads back to the same double, and ``-0.0`` and ``nan`` show); a string as
its text; results (dataclasses, named tuples, dicts, lists, frames) walked
field by field, with their type names (a private class is named by its first
public base: a dict subclass as ``dict``). The distinct warnings a call
raised (category and message) are part of its record; an error is recorded
as its type and message. The digest of a call is the start of the SHA-256 of
these lines. Arrays of up to 4,096 numbers also keep their values, outside
the digest, so that a difference is shown as numbers (how many differ, the
first one, the largest gap).

Covered: ``mlcm_confusion_matrix`` (both methods, normalize, labels,
sample_weight, sparse input and output, 1-D input, frames, dask),
``mlcm_multilabel_confusion_matrix``, ``confusion_matrix_statistics``, the
scores and ``mlcm_precision_recall_fscore_support`` at every average the
installed version accepts, the scorers, ``mlcm_classification_report``
(text and dict, with intervals, seeds and groups),
``mlcm_confidence_intervals`` (percentile and BCa, groups, weights, seeds),
``mlcm_paired_comparison``, ``MLCMAccumulator`` (batches, merge, its Poisson
bootstrap intervals and report), ``decide_labels``, ``mlcm_threshold_curve``
(global grids, per-label rows, Krstinić), ``MLCMTunedThresholdClassifierCV``
(global and per-label: thresholds, ``best_score_``, ``cv_results_``,
predictions), the top confusions and ``compare``'s measures, fusion and
tests.

A call whose option the installed version refuses (an ``average`` it does
not know yet, say) or whose public name it lacks is SKIPPED, with the
reason; against a baseline it counts as "only in new" (or "only in old").

    python benchmarks/check_identical.py                 # call id and digest
    python benchmarks/check_identical.py --save new.json # the records, as JSON
    python benchmarks/check_identical.py --baseline /tmp/old
    python benchmarks/check_identical.py --against old.json

``--baseline DIR`` runs the same calls on the sklearn_mlcm of DIR (a checkout
of an older commit) in a subprocess (``PYTHONPATH=DIR``), then on this one,
and prints both digests side by side with "identical" or "DIFFERENT" per call,
the first differing lines of each different call, and a count; the exit
status is 1 when a call differs or runs only in the old version. A call whose
new record keeps every leaf of the old one unchanged and only adds leaves (a
result's new fields, a dict's new keys) or makes a list a list subclass of
the same length (a result list that prints a table) is "same, fields added":
every number of the old version is still there, bit for bit.
``--against FILE`` compares with a file saved by ``--save`` instead, and
``--only REGEX`` keeps the calls whose id matches. ``--bounds-may-change``
counts a call whose every estimate is unchanged, and whose intervals' bounds
and flags (and the texts that print them, and their DegenerateDataWarning)
alone differ, as "same estimates, bounds changed": for a change of the intervals'
method (issue #32: Wilson score intervals per label, the macro bootstrap-t)
that must leave every point estimate bit for bit. A run takes about 12 s
here (most of it the tuned classifiers), 30 s with ``--baseline``.
"""

import argparse
import ast
import dataclasses
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import scipy
import sklearn
from scipy import sparse

import sklearn_mlcm

# -- the public API, and what this version lacks ------------------------------


class Skip(Exception):
    """This version cannot make the call (a name or an option it lacks)."""


def api(name):
    """The public name ``name`` of sklearn_mlcm, or a stand-in that skips."""
    if name in getattr(sklearn_mlcm, "__all__", ()) and hasattr(sklearn_mlcm, name):
        return getattr(sklearn_mlcm, name)

    def missing(*args, **kwargs):
        raise Skip(f"{name} is not public in this version")

    return missing


# -- the calls ----------------------------------------------------------------

CALLS = {}  # call id -> (thunk, names of the options a version may refuse)


def add(call_id, func, *args, refusable=(), **kwargs):
    """Register ``func(*args, **kwargs)`` as the call ``call_id``.

    ``refusable``: parameters whose value the installed version may not know
    (an average being added): its refusal of them is a skip, not an error.
    """
    add_thunk(call_id, lambda: func(*args, **kwargs), refusable=refusable)


def add_thunk(call_id, thunk, refusable=()):
    if call_id in CALLS:
        raise ValueError(f"two calls named {call_id!r}")
    CALLS[call_id] = (thunk, tuple(refusable))


# Heydarian et al. (2022), Table 1: nine instances, classes C0, C1, C2.
TABLE_1_TRUE = np.array(
    [[1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0],
     [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]]
)  # fmt: skip
TABLE_1_PRED = np.array(
    [[1, 1, 0], [1, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 1],
     [0, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]]
)  # fmt: skip
TABLE_1_NAMES = ["C0", "C1", "C2"]

AVERAGES = (None, "micro", "micro_all", "macro", "weighted", "samples")
AVERAGES_SCALAR = AVERAGES[1:]


class Data:
    """The seeded inputs, built once (the same in every process)."""

    def __init__(self, folder):
        rng = np.random.default_rng(20251125)
        # small: 40 x 4, a quarter of the cells flipped
        self.small_true = (rng.random((40, 4)) < 0.35).astype(np.int64)
        flip = rng.random((40, 4)) < 0.25
        self.small_pred = self.small_true ^ flip
        # medium: 300 x 8, prevalences falling off, label 7 never true, some
        # instances without labels; scores of two classifiers
        n, q = 300, 8
        prevalence = np.array([0.45, 0.35, 0.3, 0.2, 0.12, 0.08, 0.04, 0.0])
        y = rng.random((n, q)) < prevalence
        self.true = y.astype(np.int64)
        logit = 3.0 * y - 1.5
        self.score = 1.0 / (1.0 + np.exp(-(logit + rng.normal(0, 1.2, (n, q)))))
        self.score_b = 1.0 / (1.0 + np.exp(-(logit + rng.normal(0, 1.6, (n, q)))))
        self.pred = (self.score >= 0.5).astype(np.int64)
        self.pred_b = (self.score_b >= 0.5).astype(np.int64)
        self.pred_c = (self.score >= 0.35).astype(np.int64)
        self.pred_bool = self.pred.astype(bool)
        self.true_csr = sparse.csr_array(self.true.astype(bool))
        self.pred_csr = sparse.csr_array(self.pred.astype(bool))
        self.true_csr_matrix = sparse.csr_matrix(self.true)
        self.pred_csr_matrix = sparse.csr_matrix(self.pred)
        self.weight_int = rng.integers(1, 4, n)
        self.weight_real = rng.uniform(0.5, 2.0, n)
        self.weight_zeros = np.where(rng.random(n) < 0.1, 0.0, self.weight_real)
        self.groups = rng.integers(0, 30, n)
        self.names = [f"L{j}" for j in range(q)]
        # 1-D: 150 instances of 5 classes (class 4 rare), 70% right
        classes = rng.choice(5, size=150, p=[0.3, 0.3, 0.2, 0.15, 0.05])
        guess = np.where(rng.random(150) < 0.7, classes, rng.integers(0, 5, 150))
        self.mc_true, self.mc_pred = classes, guess
        words = np.array(["ant", "bee", "cat", "dog", "eel"])
        self.mc_true_str, self.mc_pred_str = words[classes], words[guess]
        # sparse scores: the medium scores below 0.3 left out
        self.score_csr = sparse.csr_array(np.where(self.score >= 0.3, self.score, 0))
        # a tuning problem: features, 5 labels, a train and a test split
        X = rng.normal(size=(260, 6))
        W = rng.normal(size=(6, 5))
        Y = (X @ W + rng.normal(0, 1.0, (260, 5)) > 0.8).astype(np.int64)
        self.X_train, self.Y_train = X[:200], Y[:200]
        self.X_test, self.Y_test = X[200:], Y[200:]
        # the comparison half: 4 methods x 7 measures on 5 datasets
        self.results = rng.uniform(0.1, 0.9, size=(5, 4, 7))
        self.ranks = np.array(
            [[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 4], [1.5, 1.5, 3, 4],
             [2, 1, 4, 3], [1, 2, 4, 3], [1, 2.5, 2.5, 4], [3, 1, 2, 4]]
        )  # fmt: skip
        self.posters = None
        if folder and os.path.isfile(os.path.join(folder, "posters", "gt.npy")):
            load = lambda name: np.load(os.path.join(folder, "posters", name))  # noqa: E731
            self.posters = (
                load("gt.npy")[::9],
                load("pred_t05.npy")[::9],
                load("pred_t09.npy")[::9],
            )


def build_calls(d):
    """Every call, in a fixed order."""
    _matrices(d)
    _statistics(d)
    _scores(d)
    _reports(d)
    _intervals(d)
    _paired(d)
    _accumulator(d)
    _decisions(d)
    _curves(d)
    _tuned(d)
    _top_confusions(d)
    _compare(d)


def _multilabel_sets(d):
    sets = [
        ("table1", TABLE_1_TRUE, TABLE_1_PRED),
        ("small", d.small_true, d.small_pred),
        ("medium", d.true, d.pred),
        ("medium-bool", d.true.astype(bool), d.pred_bool),
        ("medium-csr", d.true_csr, d.pred_csr),
    ]
    if d.posters is not None:
        sets.append(("posters", d.posters[0], d.posters[1]))
    return sets


def _matrices(d):
    cm = api("mlcm_confusion_matrix")
    for name, t, p in _multilabel_sets(d) + [
        ("classes", d.mc_true, d.mc_pred),
        ("class-names", d.mc_true_str, d.mc_pred_str),
    ]:
        for method in ("heydarian", "krstinic"):
            key = f"cm/{name}/{method}"
            add(f"{key}", cm, t, p, method=method)
            for normalize in ("true", "pred", "all"):
                add(f"{key}/normalize={normalize}", cm, t, p, method=method,
                    normalize=normalize)  # fmt: skip
            if name == "class-names":
                add(f"{key}/labels", cm, t, p, method=method, labels=["dog", "ant"])
            elif name not in ("classes",) and not name.startswith("table1"):
                add(f"{key}/labels", cm, t, p, method=method, labels=[3, 0, 1])
            n = np.shape(t)[0]
            weights = np.arange(1, n + 1) % 3 + 1
            add(f"{key}/weight-int", cm, t, p, method=method, sample_weight=weights)
            add(f"{key}/weight-real", cm, t, p, method=method,
                sample_weight=np.linspace(0.25, 2.0, n))  # fmt: skip
            add(f"{key}/sparse_output", cm, t, p, method=method, sparse_output=True)
    add("cm/csr_matrix-int/heydarian", cm, d.true_csr_matrix, d.pred_csr_matrix)
    add("cm/medium/weight-zeros", cm, d.true, d.pred, sample_weight=d.weight_zeros)
    add("cm/medium/krstinic/weight-zeros", cm, d.true, d.pred, method="krstinic",
        sample_weight=d.weight_zeros)  # fmt: skip
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        t = pd.DataFrame(d.true, columns=d.names)
        p = pd.DataFrame(d.pred, columns=d.names)
        add("cm/frame", cm, t, p)
        add("cm/frame/labels-by-name", cm, t, p, labels=["L5", "L0", "L2"])
        add("cm/frame/columns-reordered", cm, t, p[d.names[::-1]])
    try:
        import dask.array as da
    except ImportError:
        da = None
    if da is not None:
        t = da.from_array(d.true, chunks=(64, 8))
        p = da.from_array(d.pred, chunks=(64, 8))
        add("cm/dask/heydarian", cm, t, p)
        add("cm/dask/krstinic", cm, t, p, method="krstinic")
    mlcm = api("mlcm_multilabel_confusion_matrix")
    for name, t, p in _multilabel_sets(d) + [("classes", d.mc_true, d.mc_pred)]:
        for method in ("heydarian", "krstinic"):
            for tn in ("complement", "diagonal"):
                add(f"mlcm/{name}/{method}/tn={tn}", mlcm, t, p, method=method, tn=tn)
        add(f"mlcm/{name}/weight-real", mlcm, t, p,
            sample_weight=np.linspace(0.25, 2.0, np.shape(t)[0]))  # fmt: skip
    add("mlcm/medium/labels", mlcm, d.true, d.pred, labels=[6, 7, 0])


def _statistics(d):
    stats = api("confusion_matrix_statistics")
    cm = api("mlcm_confusion_matrix")
    matrices = [
        ("table1-heydarian", lambda: cm(TABLE_1_TRUE, TABLE_1_PRED)),
        ("table1-krstinic", lambda: cm(TABLE_1_TRUE, TABLE_1_PRED, method="krstinic")),
        ("medium", lambda: cm(d.true, d.pred)),
        (
            "counts",
            lambda: np.array([[5, 1, 0, 0], [2, 7, 1, 0], [0, 0, 0, 0], [1, 0, 3, 4]]),
        ),  # fmt: skip
    ]
    for name, matrix in matrices:
        for beta in (1.0, 2.0):
            for tn in ("complement", "diagonal"):
                for zero_division in (0.0, 1.0, np.nan):
                    add_thunk(
                        f"stats/{name}/beta={beta}/tn={tn}/zd={zero_division}",
                        lambda m=matrix, b=beta, t=tn, z=zero_division: stats(
                            m(), beta=b, tn=t, zero_division=z
                        ),
                    )
    add_thunk("stats/counts/warn", lambda: stats(matrices[3][1]()))


def _scores(d):
    prfs = api("mlcm_precision_recall_fscore_support")
    sets = _multilabel_sets(d) + [("classes", d.mc_true, d.mc_pred)]
    for name, t, p in sets:
        for method in ("heydarian", "krstinic"):
            for average in AVERAGES:
                add(f"prfs/{name}/{method}/average={average}", prfs, t, p,
                    method=method, average=average, zero_division=0.0,
                    refusable=("average",))  # fmt: skip
    variants = {
        "beta=0.5": {"beta": 0.5},
        "beta=2": {"beta": 2.0},
        "include_no_label": {"include_no_label": True},
        "zd=nan": {"zero_division": np.nan},
        "zd=1": {"zero_division": 1.0},
        "zd=warn": {"zero_division": "warn"},
        "labels": {"labels": [5, 7, 0], "zero_division": 0.0},
        "weight-int": {"sample_weight": d.weight_int, "zero_division": 0.0},
        "weight-real": {"sample_weight": d.weight_real, "zero_division": 0.0},
        "warn_for": {"warn_for": ("precision",), "zero_division": "warn"},
    }
    for variant, kwargs in variants.items():
        for average in AVERAGES:
            add(f"prfs/medium/{variant}/average={average}", prfs, d.true, d.pred,
                average=average, refusable=("average",), **kwargs)  # fmt: skip
    scores = {
        "precision": (api("mlcm_precision_score"), {}),
        "recall": (api("mlcm_recall_score"), {}),
        "f1": (api("mlcm_f1_score"), {}),
        "fbeta": (api("mlcm_fbeta_score"), {"beta": 2.0}),
        "specificity": (api("mlcm_specificity_score"), {}),
        "specificity-diagonal": (api("mlcm_specificity_score"), {"tn": "diagonal"}),
    }
    for metric, (func, kwargs) in scores.items():
        for method in ("heydarian", "krstinic"):
            for average in AVERAGES:
                add(f"score/{metric}/medium/{method}/average={average}", func,
                    d.true, d.pred, method=method, average=average,
                    zero_division=0.0, refusable=("average",),
                    **kwargs)  # fmt: skip
        add(f"score/{metric}/table1/include_no_label", func, TABLE_1_TRUE,
            TABLE_1_PRED, include_no_label=True, **kwargs)  # fmt: skip
        add(f"score/{metric}/csr/weight-real", func, d.true_csr, d.pred_csr,
            sample_weight=d.weight_real, zero_division=np.nan,
            **kwargs)  # fmt: skip


def _fitted_model(d):
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier

    return OneVsRestClassifier(LogisticRegression()).fit(d.X_train, d.Y_train)


def _reports(d):
    report = api("mlcm_classification_report")
    for name, t, p in _multilabel_sets(d) + [
        ("classes", d.mc_true, d.mc_pred),
        ("class-names", d.mc_true_str, d.mc_pred_str),
    ]:
        for method in ("heydarian", "krstinic"):
            for output_dict in (False, True):
                add(f"report/{name}/{method}/dict={output_dict}", report, t, p,
                    method=method, output_dict=output_dict,
                    zero_division=0.0)  # fmt: skip
    add("report/table1/names-digits-nolabel", report, TABLE_1_TRUE, TABLE_1_PRED,
        target_names=TABLE_1_NAMES, digits=4, include_no_label=True)  # fmt: skip
    add("report/medium/warn", report, d.true, d.pred)
    add("report/medium/labels-weights", report, d.true, d.pred, labels=[4, 0, 2],
        sample_weight=d.weight_real, output_dict=True)  # fmt: skip
    for interval in ("bca", "percentile"):
        for seed in (0, 1):
            for output_dict in (False, True):
                add(f"report/medium/ci/{interval}/seed={seed}/dict={output_dict}",
                    report, d.true, d.pred, confidence_level=0.95, n_resamples=199,
                    interval=interval, random_state=seed, output_dict=output_dict,
                    zero_division=0.0)  # fmt: skip
    add("report/medium/ci/groups", report, d.true, d.pred, confidence_level=0.9,
        n_resamples=199, groups=d.groups, random_state=3, output_dict=True,
        zero_division=0.0)  # fmt: skip
    add("report/medium/ci/groups-weights-krstinic", report, d.true, d.pred,
        method="krstinic", confidence_level=0.95, n_resamples=199,
        groups=d.groups, sample_weight=d.weight_int, random_state=4,
        zero_division=0.0)  # fmt: skip
    add("report/table1/ci/seed=5", report, TABLE_1_TRUE, TABLE_1_PRED,
        target_names=TABLE_1_NAMES, confidence_level=0.95, n_resamples=999,
        random_state=5, output_dict=True, zero_division=0.0)  # fmt: skip
    add("report/classes/ci/seed=6", report, d.mc_true, d.mc_pred,
        confidence_level=0.95, n_resamples=199, random_state=6,
        zero_division=0.0)  # fmt: skip
    if d.posters is not None:
        add("report/posters/ci/seed=7", report, d.posters[0], d.posters[1],
            confidence_level=0.95, n_resamples=199, random_state=7,
            output_dict=True, zero_division=0.0)  # fmt: skip
        add("report/posters/ci/seed=7/n_jobs=2", report, d.posters[0],
            d.posters[1], confidence_level=0.95, n_resamples=199,
            random_state=7, output_dict=True, zero_division=0.0,
            n_jobs=2)  # fmt: skip
    scorers = api("mlcm_scorers")
    make = api("make_mlcm_scorer")

    def scorer_values(method):
        model = _fitted_model(d)
        return {
            key: scorer(model, d.X_test, d.Y_test)
            for key, scorer in scorers(method=method).items()
        }

    add_thunk("scorers/heydarian", lambda: scorer_values("heydarian"))
    add_thunk("scorers/krstinic", lambda: scorer_values("krstinic"))
    for metric, kwargs in (
        ("fbeta", {"beta": 0.5, "average": "micro_all"}),
        ("specificity", {"tn": "diagonal", "average": "weighted"}),
        ("f1", {"labels": [2, 0], "zero_division": np.nan}),
        ("recall", {"include_no_label": True, "method": "krstinic"}),
    ):
        add_thunk(
            f"make_mlcm_scorer/{metric}/{sorted(kwargs)}",
            lambda m=metric, k=kwargs: make(m, **k)(
                _fitted_model(d), d.X_test, d.Y_test
            ),
        )


def _intervals(d):
    ci = api("mlcm_confidence_intervals")
    base = {"n_resamples": 199, "zero_division": 0.0}
    for interval in ("bca", "percentile"):
        for seed in (0, 11):
            for metric, average in (
                ("f1", "macro"),
                ("precision", "micro"),
                ("recall", "weighted"),
                ("specificity", "micro_all"),
                ("fbeta", "macro"),
            ):
                add(f"ci/medium/{interval}/seed={seed}/{metric}/{average}", ci,
                    d.true, d.pred, metric=metric, average=average,
                    interval=interval, random_state=seed, beta=2.0,
                    **base)  # fmt: skip
    for average in AVERAGES_SCALAR:
        add(f"ci/medium/average={average}", ci, d.true, d.pred, average=average,
            random_state=2, refusable=("average",), **base)  # fmt: skip
    cases = {
        "groups": {"groups": d.groups},
        "weights": {"sample_weight": d.weight_real},
        "weights-int-groups": {"sample_weight": d.weight_int, "groups": d.groups},
        "krstinic": {"method": "krstinic"},
        "krstinic-groups": {"method": "krstinic", "groups": d.groups},
        "labels": {"labels": [3, 1, 0]},
        "include_no_label": {"include_no_label": True},
        "zd=nan": {"zero_division": np.nan},
        "level=0.9": {"confidence_level": 0.9},
        "tn=diagonal": {"metric": "specificity", "tn": "diagonal"},
        "matrix": {"matrix": True},
        "distributions": {"return_distributions": True},
        "n_jobs=2": {"n_jobs": 2},
        "resamples=999": {"n_resamples": 999},
    }
    for name, kwargs in cases.items():
        for interval in ("bca", "percentile"):
            add(f"ci/medium/{name}/{interval}", ci, d.true, d.pred,
                interval=interval, random_state=5,
                **{**base, **kwargs})  # fmt: skip
    add("ci/table1/bca", ci, TABLE_1_TRUE, TABLE_1_PRED, random_state=0, **base)
    add("ci/table1/random-state-object", ci, TABLE_1_TRUE, TABLE_1_PRED,
        random_state=np.random.RandomState(8), **base)  # fmt: skip
    add("ci/classes/bca", ci, d.mc_true, d.mc_pred, random_state=0, **base)
    add("ci/csr/bca", ci, d.true_csr, d.pred_csr, random_state=0, **base)
    if d.posters is not None:
        for interval in ("bca", "percentile"):
            add(f"ci/posters/{interval}", ci, d.posters[0], d.posters[1],
                interval=interval, random_state=9, **base)  # fmt: skip


def _paired(d):
    paired = api("mlcm_paired_comparison")
    base = {"n_resamples": 199, "zero_division": 0.0}
    for seed in (0, 1):
        for metric, average in (
            ("f1", "macro"),
            ("precision", "micro"),
            ("recall", "weighted"),
            ("specificity", "micro_all"),
            ("fbeta", "macro"),
        ):
            add(f"paired/medium/seed={seed}/{metric}/{average}", paired, d.true,
                d.pred, d.pred_b, metric=metric, average=average, beta=2.0,
                random_state=seed, **base)  # fmt: skip
    cases = {
        "less": {"alternative": "less"},
        "greater": {"alternative": "greater"},
        "bonferroni": {"correction": "bonferroni"},
        "no-correction": {"correction": None},
        "groups": {"groups": d.groups},
        "weights": {"sample_weight": d.weight_real},
        "krstinic": {"method": "krstinic"},
        "labels": {"labels": [0, 2, 4]},
        "level=0.9": {"confidence_level": 0.9},
        "tn=diagonal": {"metric": "specificity", "tn": "diagonal"},
        "zd=nan": {"zero_division": np.nan},
    }
    for name, kwargs in cases.items():
        add(f"paired/medium/{name}", paired, d.true, d.pred, d.pred_b,
            random_state=3, **{**base, **kwargs})  # fmt: skip
    sets = {"a": d.pred, "b": d.pred_b, "c": d.pred_c}
    add("paired/medium/dict", paired, d.true, sets, random_state=4, **base)
    add("paired/medium/dict-reference", paired, d.true, sets, reference="b",
        random_state=4, **base)  # fmt: skip
    add("paired/table1/exact", paired, TABLE_1_TRUE, TABLE_1_PRED,
        np.roll(TABLE_1_PRED, 1, axis=0), n_resamples=999, random_state=0,
        zero_division=0.0)  # fmt: skip
    add("paired/classes", paired, d.mc_true, d.mc_pred, np.roll(d.mc_pred, 3),
        random_state=5, **base)  # fmt: skip
    if d.posters is not None:
        add("paired/posters/t05-t09", paired, d.posters[0], d.posters[1],
            d.posters[2], random_state=6, **base)  # fmt: skip


def _accumulator(d):
    Accumulator = api("MLCMAccumulator")

    def stream(method="heydarian", batch=50, weights=None, sparse_output=False,
               n_resamples=None, random_state=None, true=None, pred=None):  # fmt: skip
        true = d.true if true is None else true
        pred = d.pred if pred is None else pred
        acc = Accumulator(true.shape[1], method=method, sparse_output=sparse_output,
                          n_resamples=n_resamples,
                          random_state=random_state)  # fmt: skip
        for start in range(0, true.shape[0], batch):
            part = slice(start, start + batch)
            acc.update(true[part], pred[part],
                       None if weights is None else weights[part])  # fmt: skip
        return acc

    def plain(acc):
        return {
            "n_samples_": acc.n_samples_,
            "confusion_matrix": acc.confusion_matrix,
            "report": acc.classification_report(zero_division=0.0),
            "report_dict": acc.classification_report(
                output_dict=True, zero_division=0.0, include_no_label=True
            ),
        }

    for method in ("heydarian", "krstinic"):
        add_thunk(f"acc/{method}", lambda m=method: plain(stream(m)))
        add_thunk(f"acc/{method}/batch=7",
                  lambda m=method: plain(stream(m, batch=7)))  # fmt: skip
        add_thunk(f"acc/{method}/weights",
                  lambda m=method: plain(stream(m, weights=d.weight_real)))  # fmt: skip
        add_thunk(
            f"acc/{method}/sparse_output",
            lambda m=method: stream(m, sparse_output=True).confusion_matrix,
        )

        def boot(m=method, **kwargs):
            acc = stream(m, n_resamples=199, random_state=12, **kwargs)
            out = plain(acc)
            for metric, average in (("f1", "macro"), ("precision", "micro"),
                                    ("specificity", "micro_all")):  # fmt: skip
                out[f"ci {metric} {average}"] = acc.confidence_intervals(
                    metric=metric, average=average, zero_division=0.0
                )
            out["ci distributions"] = acc.confidence_intervals(
                return_distributions=True, confidence_level=0.9, zero_division=0.0
            )
            out["report ci"] = acc.classification_report(
                confidence_level=0.95, output_dict=True, zero_division=0.0
            )
            return out

        add_thunk(f"acc/{method}/poisson", boot)
        add_thunk(f"acc/{method}/poisson/batch=13",
                  lambda m=method: boot(m, batch=13))  # fmt: skip
        add_thunk(f"acc/{method}/poisson/weights",
                  lambda m=method: boot(m, weights=d.weight_int))  # fmt: skip

    def merged():
        seeds = np.random.SeedSequence(21).spawn(2)
        first = Accumulator(8, n_resamples=199, random_state=seeds[0])
        second = Accumulator(8, n_resamples=199, random_state=seeds[1])
        first.update(d.true[:170], d.pred[:170])
        second.update(d.true[170:], d.pred[170:])
        first.merge(second)
        return {
            "confusion_matrix": first.confusion_matrix,
            "ci": first.confidence_intervals(zero_division=0.0),
        }

    add_thunk("acc/merge/poisson", merged)
    add_thunk("acc/table1/poisson",
              lambda: boot_table1(Accumulator))  # fmt: skip


def boot_table1(Accumulator):
    acc = Accumulator(3, n_resamples=99, random_state=0)
    acc.update(TABLE_1_TRUE, TABLE_1_PRED)
    return {
        "confusion_matrix": acc.confusion_matrix,
        "ci": acc.confidence_intervals(zero_division=0.0),
        "report": acc.classification_report(
            target_names=TABLE_1_NAMES, confidence_level=0.95, zero_division=0.0
        ),
    }


def _decisions(d):
    decide = api("decide_labels")
    per_label = np.linspace(0.3, 0.7, 8)
    cases = {
        "0.5": {},
        "0.7": {"threshold": 0.7},
        "per-label": {"threshold": per_label},
        "top_k=2": {"top_k": 2},
        "none-top_k=3": {"threshold": None, "top_k": 3},
        "at_least_one": {"threshold": 0.8, "at_least_one": True},
        "per-label-at_least_one-top_k": {
            "threshold": per_label,
            "at_least_one": True,
            "top_k": 2,
        },
        "labels": {"labels": [6, 1, 3], "threshold": 0.4},
    }
    for name, kwargs in cases.items():
        add(f"decide/dense/{name}", decide, d.score, **kwargs)
    add("decide/sparse/0.5", decide, d.score_csr)
    add("decide/sparse/top_k", decide, d.score_csr, threshold=0.4, top_k=2)
    proba_list = [np.column_stack([1 - d.score[:, j], d.score[:, j]]) for j in range(8)]
    add("decide/list-of-proba", decide, proba_list, threshold=0.6)
    add("decide/dict", decide, d.score,
        threshold={j: 0.3 + 0.05 * j for j in range(8)})  # fmt: skip


def _curves(d):
    curve = api("mlcm_threshold_curve")
    grids = {
        "default": None,
        "int=20": 20,
        "array": np.linspace(0.05, 0.95, 31),
        "per-label-scaled": np.linspace(0.3, 1.7, 15)[:, None]
        * np.linspace(0.3, 0.6, 8)[None, :],
        "per-label-random": np.random.default_rng(7).uniform(0.1, 0.9, (12, 8)),
    }
    for name, grid in grids.items():
        for method in ("heydarian", "krstinic"):
            add(f"curve/{name}/{method}", curve, d.true, d.score, thresholds=grid,
                method=method)  # fmt: skip
    for metric in ("precision", "recall", "fbeta", "specificity"):
        for average in AVERAGES_SCALAR:
            add(f"curve/int=25/{metric}/{average}", curve, d.true, d.score,
                thresholds=25, metric=metric, average=average, beta=0.5,
                refusable=("average",))  # fmt: skip
    cases = {
        "weights-real": {"sample_weight": d.weight_real},
        "weights-int": {"sample_weight": d.weight_int},
        "weights-zeros": {"sample_weight": d.weight_zeros},
        "labels": {"labels": [5, 0, 2]},
        "zd=nan": {"zero_division": np.nan},
        "zd=1": {"zero_division": 1.0},
        "tn=diagonal": {"metric": "specificity", "tn": "diagonal"},
        "one_vs_rest": {"one_vs_rest": True},
        "one_vs_rest-weighted": {"one_vs_rest": True, "average": "weighted"},
    }
    for name, kwargs in cases.items():
        add(f"curve/int=30/{name}", curve, d.true, d.score, thresholds=30, **kwargs)
    add("curve/sparse/int=20", curve, d.true_csr, d.score_csr, thresholds=20)
    add("curve/sparse/array", curve, d.true_csr, d.score_csr,
        thresholds=np.linspace(0.3, 0.95, 14))  # fmt: skip
    add("curve/krstinic/weights", curve, d.true, d.score, thresholds=20,
        method="krstinic", sample_weight=d.weight_real)  # fmt: skip
    add("curve/table1-as-scores", curve, TABLE_1_TRUE,
        TABLE_1_PRED * 0.6 + 0.2 * np.arange(9)[:, None] / 9)  # fmt: skip


def _tuned(d):
    Tuned = api("MLCMTunedThresholdClassifierCV")
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.neighbors import KNeighborsClassifier

    def tune(estimator=None, **kwargs):
        estimator = estimator or OneVsRestClassifier(LogisticRegression())
        model = Tuned(estimator, store_cv_results=True, random_state=0, **kwargs)
        model.fit(d.X_train, d.Y_train)
        return {
            "best_threshold_": model.best_threshold_,
            "best_score_": model.best_score_,
            "cv_results_": model.cv_results_,
            "predict": model.predict(d.X_test),
        }

    cases = {
        "global": {"strategy": "global", "cv": 3},
        "per_label": {"strategy": "per_label", "cv": 3},
        "global/thresholds=20": {"strategy": "global", "cv": 3, "thresholds": 20},
        "per_label/array": {
            "strategy": "per_label",
            "cv": 3,
            "thresholds": np.linspace(0.05, 0.95, 19),
        },
        "per_label/micro": {"cv": 3, "scoring": "mlcm_f1_micro"},
        "per_label/top_k-at_least_one": {"cv": 3, "top_k": 2, "at_least_one": True},
        "global/holdout": {"strategy": "global", "cv": 0.3},
        "per_label/decision_function": {
            "cv": 3,
            "response_method": "decision_function",
        },
    }
    for name, kwargs in cases.items():
        add_thunk(f"tuned/{name}", lambda k=kwargs: tune(**k))
    make = api("make_mlcm_scorer")
    add_thunk("tuned/per_label/krstinic-scorer",
              lambda: tune(cv=3, scoring=make("f1", method="krstinic")))  # fmt: skip
    add_thunk("tuned/global/knn-list-of-proba",
              lambda: tune(KNeighborsClassifier(7), strategy="global",
                           cv=3))  # fmt: skip


def _top_confusions(d):
    cm = api("mlcm_confusion_matrix")
    most = api("most_confused")
    most_labels = api("most_confused_labels")
    labelsets = api("labelset_confusions")
    for name, matrix in (
        ("table1", lambda: cm(TABLE_1_TRUE, TABLE_1_PRED)),
        ("medium", lambda: cm(d.true, d.pred)),
        ("medium-krstinic", lambda: cm(d.true, d.pred, method="krstinic")),
        ("medium-sparse", lambda: cm(d.true, d.pred, sparse_output=True)),
    ):
        add_thunk(f"most_confused/{name}", lambda m=matrix: most(m()))
        add_thunk(f"most_confused/{name}/top_k=3-no_label",
                  lambda m=matrix: most(m(), top_k=3,
                                        include_no_label=True))  # fmt: skip
        add_thunk(f"most_confused_labels/{name}", lambda m=matrix: most_labels(m()))
        add_thunk(f"most_confused_labels/{name}/cluster-top_k=3",
                  lambda m=matrix: most_labels(m(), top_k=3,
                                               order="cluster"))  # fmt: skip
    add_thunk("most_confused/table1/names",
              lambda: most(cm(TABLE_1_TRUE, TABLE_1_PRED),
                           target_names=TABLE_1_NAMES, ntl_label="none",
                           npl_label="nothing", include_no_label=True))  # fmt: skip
    add_thunk("most_confused/medium/frame",
              lambda: most(cm(d.true, d.pred), target_names=d.names,
                           as_frame=True))  # fmt: skip
    add("labelsets/table1", labelsets, TABLE_1_TRUE, TABLE_1_PRED)
    add("labelsets/medium/top_k=5-names", labelsets, d.true, d.pred, top_k=5,
        target_names=d.names)  # fmt: skip
    add("labelsets/medium/weights", labelsets, d.true, d.pred,
        sample_weight=d.weight_zeros)  # fmt: skip
    add("labelsets/csr", labelsets, d.true_csr, d.pred_csr, top_k=4)
    add("labelsets/classes", labelsets, d.mc_true, d.mc_pred)
    add("labelsets/medium/frame", labelsets, d.true, d.pred, as_frame=True)


def _compare(d):
    measures = api("multilabel_measures")
    add("measures/medium/with-scores", measures, d.true, d.pred, d.score,
        zero_division=0.0)  # fmt: skip
    add("measures/medium/no-scores", measures, d.true, d.pred)
    add("measures/medium/zd=nan", measures, d.true, d.pred, d.score,
        zero_division=np.nan)  # fmt: skip
    add("measures/small/subset", measures, d.small_true, d.small_pred,
        measures=["hamming_loss", "macro_f1", "mlcm_macro_f1", "mlcm_micro_f1",
                  "subset_accuracy"], zero_division=0.0)  # fmt: skip
    add("measures/csr", measures, d.true_csr, d.pred_csr, zero_division=1.0)
    add("measure_directions", api("measure_directions"))
    decision = d.results[0]
    maximize = np.array([True, True, False, True, False, True, True])
    promethee = api("promethee_ii")
    for weights in ("entropy", "equal", np.arange(1.0, 8.0)):
        for preference, threshold in (("usual", None), ("v-shape", None),
                                      ("v-shape", 0.2)):  # fmt: skip
            label = weights if isinstance(weights, str) else "array"
            add(f"promethee_ii/{label}/{preference}/threshold={threshold}",
                promethee, decision, maximize=maximize, weights=weights,
                preference=preference, threshold=threshold)  # fmt: skip
    add("entropy_weights", api("entropy_weights"), decision, maximize=maximize)
    fuse = api("fuse_measures")
    for preference in ("v-shape", "usual"):
        for weights in ("entropy", "equal"):
            add(f"fuse_measures/{preference}/{weights}", fuse, d.results,
                maximize=maximize, preference=preference,
                weights=weights)  # fmt: skip
    correlations = api("measure_correlations")
    add("measure_correlations", correlations, d.results)
    add_thunk("least_correlated_measures",
              lambda: api("least_correlated_measures")(correlations(d.results),
                                                       threshold=0.5))  # fmt: skip
    friedman = api("friedman_test")
    nemenyi = api("nemenyi_test")
    add("friedman/plain", friedman, d.ranks)
    add("friedman/tie_correction", friedman, d.ranks, tie_correction=True)
    add("nemenyi/0.05", nemenyi, d.ranks)
    add("nemenyi/0.1", nemenyi, d.ranks, alpha=0.1)
    add_thunk("friedman/fused-ranks",
              lambda: friedman(fuse(d.results, maximize=maximize)))  # fmt: skip


# -- canonical form -----------------------------------------------------------


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _public_type(obj):
    """The name of the first class of ``obj``'s type not named privately."""
    for cls in type(obj).__mro__:
        if not cls.__name__.startswith("_"):
            return cls.__name__
    return "object"


# arrays up to this size also keep their values (outside the digest), so that
# a difference can be shown as numbers
SHOWN_VALUES = 4096


def canonical(obj, path="$"):
    """The leaves of ``obj``: ``[path, kind and exact value]`` pairs, and the
    values of its small arrays by path (to show differences, not digested)."""
    leaves, values = [], {}
    _walk(obj, path, leaves, values)
    return leaves, values


def _walk(obj, path, out, values):
    def leaf(text):
        out.append([path, text])

    def walk(value, where):
        _walk(value, where, out, values)

    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        leaf(f"{type(obj).__name__} {obj!r}")
    elif isinstance(obj, np.generic):
        leaf(f"numpy.{obj.dtype.str} {obj.item()!r}")
    elif isinstance(obj, np.ndarray):
        if obj.dtype == object:
            leaf(f"ndarray object {obj.shape}")
            for index, value in np.ndenumerate(obj):
                walk(value, f"{path}{list(index)}")
        else:
            data = np.ascontiguousarray(obj).tobytes()
            leaf(f"ndarray {obj.dtype.str} {obj.shape} sha256 {_sha(data)}")
            if obj.size <= SHOWN_VALUES and obj.dtype.kind in "biuf":
                values[path] = obj.ravel().tolist()
    elif sparse.issparse(obj):
        csr = obj.tocsr(copy=True)
        csr.sum_duplicates()  # sorts the indices, as a canonical CSR has them
        leaf(f"{_public_type(obj)} {obj.format} {obj.dtype.str} {obj.shape} "
             f"nnz={csr.nnz}")  # fmt: skip
        for part in ("indptr", "indices"):
            walk(np.asarray(getattr(csr, part), dtype=np.int64), f"{path}.{part}")
        walk(csr.data, f"{path}.data")
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        leaf(_public_type(obj))
        for field in dataclasses.fields(obj):
            walk(getattr(obj, field.name), f"{path}.{field.name}")
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):
        leaf(f"{_public_type(obj)} {list(obj._fields)}")
        for name in obj._fields:
            walk(getattr(obj, name), f"{path}.{name}")
    elif isinstance(obj, (list, tuple)):
        leaf(f"{_public_type(obj)} len={len(obj)}")
        for i, value in enumerate(obj):
            walk(value, f"{path}[{i}]")
    elif isinstance(obj, dict):
        leaf(f"{_public_type(obj)} len={len(obj)}")
        for key, value in obj.items():
            walk(value, f"{path}[{key!r}]")
    elif type(obj).__name__ == "DataFrame":
        leaf(f"DataFrame {obj.shape}")
        walk([str(dtype) for dtype in obj.dtypes], f"{path}.dtypes")
        walk(list(obj.columns), f"{path}.columns")
        walk(list(obj.index), f"{path}.index")
        for i, column in enumerate(obj.columns):
            walk(list(obj.iloc[:, i]), f"{path}[{column!r}]")
    elif isinstance(obj, Raised):
        leaf(f"raised {obj.kind}: {obj.message}")
    else:
        text = repr(obj)
        leaf(f"{_public_type(obj)} " + ("" if " at 0x" in text else text))


@dataclasses.dataclass
class Raised:
    """A call's error, recorded as its result."""

    kind: str
    message: str


# -- running ------------------------------------------------------------------


def run(pattern=None):
    """Every call's record: status ("ok" or "skipped"), digest, lines."""
    records = {}
    refused = re.compile(r"The '(\w+)' parameter")
    for call_id, (thunk, refusable) in CALLS.items():
        if pattern and not re.search(pattern, call_id):
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = thunk()
            except Skip as skip:
                records[call_id] = {"status": "skipped", "reason": str(skip)}
                continue
            except Exception as error:  # recorded: an error is a result too
                match = refused.match(str(error))
                if match and match.group(1) in refusable:
                    got = re.search(r"Got (.*) instead", str(error))
                    reason = f"this version refuses {match.group(1)}=" + (
                        got.group(1) if got else "this value"
                    )
                    records[call_id] = {"status": "skipped", "reason": reason}
                    continue
                result = Raised(type(error).__name__, str(error))
        leaves, values = canonical(result)
        raised = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
        leaves += [[f"warning {i}", text] for i, text in enumerate(raised)]
        text = "\n".join(f"{path} {kind}" for path, kind in leaves)
        records[call_id] = {
            "status": "ok",
            "digest": _sha(text.encode())[:16],
            "leaves": leaves,
            "values": values,
        }
    return records


# the layout of the saved records; files of another layout are refused
RECORD_FORMAT = 1


def collect(pattern=None):
    start = time.perf_counter()
    build_calls(Data(os.environ.get("SKLEARN_MLCM_DATA")))
    records = run(pattern)
    return {
        "meta": {
            "format": RECORD_FORMAT,
            "pattern": pattern,
            "sklearn_mlcm": os.path.dirname(os.path.abspath(sklearn_mlcm.__file__)),
            "version": getattr(sklearn_mlcm, "__version__", "?"),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "scikit-learn": sklearn.__version__,
            "seconds": round(time.perf_counter() - start, 1),
        },
        "calls": records,
    }


def _shown(record):
    if record is None:
        return "-"
    return record["digest"] if record["status"] == "ok" else "SKIPPED"


def print_table(found):
    width = max(len(call_id) for call_id in found["calls"])
    for call_id, record in found["calls"].items():
        note = "" if record["status"] == "ok" else f"  ({record['reason']})"
        print(f"{call_id:<{width}}  {_shown(record)}{note}")
    calls = found["calls"].values()
    skipped = sum(record["status"] != "ok" for record in calls)
    meta = found["meta"]
    print(
        f"{len(found['calls'])} calls, {skipped} skipped, in {meta['seconds']} s: "
        f"sklearn_mlcm {meta['version']} from {meta['sklearn_mlcm']}"
    )


def compare(old, new, shown=3, bounds_may_change=False):
    """Print old and new side by side; the number of calls that differ.

    With ``bounds_may_change`` a call whose every estimate is unchanged and
    only its intervals' bounds differ (:func:`_only_bounds`) is "same
    estimates, bounds changed", not "DIFFERENT": for a change of the
    intervals' method that must leave every point estimate as it was."""
    ids = list(new["calls"]) + [c for c in old["calls"] if c not in new["calls"]]
    width = max(len(call_id) for call_id in ids)
    for side, found in (("old", old), ("new", new)):
        meta = found["meta"]
        print(
            f"# {side}: sklearn_mlcm {meta['version']} from {meta['sklearn_mlcm']} "
            f"({len(found['calls'])} calls in {meta['seconds']} s)"
        )
    print(f"{'call':<{width}}  {'old':<16}  {'new':<16}")
    counts = dict.fromkeys(
        [
            "identical",
            "same, fields added",
            "same estimates, bounds changed",
            "different",
            "only in new",
            "only in old",
            "skipped in both",
        ],
        0,
    )
    differing = []
    for call_id in ids:
        before, after = old["calls"].get(call_id), new["calls"].get(call_id)
        ran_before = before is not None and before["status"] == "ok"
        ran_after = after is not None and after["status"] == "ok"
        if ran_before and ran_after:
            if before["digest"] == after["digest"]:
                verdict = "identical"
            elif _only_added(before, after):
                verdict = "same, fields added"
            elif bounds_may_change and _only_bounds(before, after):
                verdict = "same estimates, bounds changed"
            else:
                verdict = "DIFFERENT"
                differing.append((call_id, before, after))
            counts["different" if verdict == "DIFFERENT" else verdict] += 1
        elif ran_after:
            verdict = "only in new"
            counts[verdict] += 1
        elif ran_before:
            verdict = "ONLY IN OLD"
            counts["only in old"] += 1
        else:
            verdict = "skipped in both"
            counts[verdict] += 1
        old_digest, new_digest = _shown(before), _shown(after)
        print(f"{call_id:<{width}}  {old_digest:<16}  {new_digest:<16}  {verdict}")
    for call_id, before, after in differing[:20]:
        print(f"\n{call_id}: the first leaves that differ (- old, + new)")
        for line in _differences(before, after)[: shown * 3]:
            print(f"  {line[:300]}")
    if len(differing) > 20:
        print(f"\n({len(differing) - 20} more different calls not detailed)")
    summary = ", ".join(f"{count} {name}" for name, count in counts.items() if count)
    print(f"\n{len(ids)} calls: {summary}")
    return counts["different"] + counts["only in old"]


#: a sequence's leaf: its type and length
_SEQUENCE_LEAF = re.compile(r"^(\w+) len=(\d+)$")


def _only_added(before, after):
    """Whether ``after`` holds every leaf of ``before`` unchanged and differs
    only by leaves it adds (a result's new fields, a dict's new keys), or by a
    list now being a list subclass of the same length (a result list that
    prints a table):
    every number the old version gave is still there, bit for bit."""
    new = dict(after["leaves"])
    for path, text in before["leaves"]:
        if path not in new:
            return False
        if new[path] == text:
            continue
        was, now = _SEQUENCE_LEAF.match(text), _SEQUENCE_LEAF.match(new[path])
        if not (was and now):
            return False
        if was[1] == "list" and was[2] == now[2]:
            continue
        # a mapping (dict, Bunch) that gained keys: its old keys' leaves are
        # all still there (checked above, path by path), so only fields added
        mapping = was[1] == now[1] and was[1] not in ("list", "tuple")
        if not (mapping and int(now[2]) > int(was[2])):
            return False
    return True


#: The leaves of an interval's bounds: a result's confidence interval, the
#: report's "<score> low" and "<score> high", BCa's count of fallbacks, and
#: the interval's flag (a result's ``.flag``, the report's "<score> flag")
_BOUND_LEAF = re.compile(
    r"(confidence_interval\.(low|high)|\['[^']* (low|high|flag)'\]"
    r"|\.n_degenerate|\.flag(\[\d+\])?)$"
)

#: In a printed text: an interval "[0.12, 0.34]", a flag's mark "†2", and the
#: lines that only say what the bounds are (the legend, the flags' notes)
_TEXT_BOUNDS = re.compile(r"\[-?[\d.]+, -?[\d.]+\]|†\d+|\*")
_TEXT_BOUND_LINES = re.compile(
    r"^\s*(\[low, high\]:|†\d|\* |—:|Flagged intervals|flagged \w+ intervals)"
)


def _only_bounds(before, after):
    """Whether ``after`` differs from ``before`` only in intervals' bounds:
    every leaf of ``before`` is in ``after`` and equal, or a bound
    (:data:`_BOUND_LEAF`), or a text equal once its intervals, flags' marks
    and notes are left out (a printed report's numbers stay where they
    were, their brackets may widen); every other warning is still raised,
    a DegenerateDataWarning (the intervals' own) may come or change; leaves
    added are fine, as in :func:`_only_added`."""
    new = dict(after["leaves"])
    for path, text in before["leaves"]:
        if path not in new or new[path] == text or _BOUND_LEAF.search(path):
            if path not in new:
                return False
            continue
        was, now = _SEQUENCE_LEAF.match(text), _SEQUENCE_LEAF.match(new[path])
        if was and now and was[1] == now[1] and int(now[2]) >= int(was[2]):
            continue  # a mapping that gained keys, checked leaf by leaf
        if path.startswith("warning "):
            continue  # the warnings are compared as sets, below
        if not (text.startswith("str ") and new[path].startswith("str ")):
            return False
        if not _same_numbers(_text_numbers(text), _text_numbers(new[path])):
            return False
    warned = {text for path, text in after["leaves"] if path.startswith("warning ")}
    kept = {
        text
        for path, text in before["leaves"]
        if path.startswith("warning ") and not text.startswith("DegenerateData")
    }
    return kept <= warned


def _text_numbers(text):
    """The lines of a printed text (a ``str`` leaf) without its intervals'
    bounds (:data:`_TEXT_BOUNDS`), flags' notes and legend, as tokens."""
    lines = [
        _TEXT_BOUNDS.sub("", line).split()
        for line in ast.literal_eval(text[4:]).splitlines()
        if not _TEXT_BOUND_LINES.match(line)
    ]
    return [line for line in lines if line]


def _same_numbers(old, new):
    """Whether two texts' tokens (:func:`_text_numbers`) are the same, but
    where the new text prints an undefined score as "—" in place of the
    number zero_division gave it (the dict keeps that number)."""
    if len(old) != len(new):
        return False
    for was, now in zip(old, new):
        if len(was) != len(now):
            return False
        for a, b in zip(was, now):
            if a != b and not (b == "—" and re.fullmatch(r"-?[\d.]+|nan", a)):
                return False
    return True


def _differences(before, after):
    """Printable lines for the leaves that differ between two records."""
    old = dict(before["leaves"])
    new = dict(after["leaves"])
    lines = []
    for path in list(old) + [path for path in new if path not in old]:
        if old.get(path) == new.get(path):
            continue
        if path in old:
            lines.append(f"- {path} {old[path]}")
        if path in new:
            lines.append(f"+ {path} {new[path]}")
        a, b = before["values"].get(path), after["values"].get(path)
        if a is not None and b is not None and len(a) == len(b):
            a, b = np.array(a, dtype=float), np.array(b, dtype=float)
            unequal = ~((a == b) | (np.isnan(a) & np.isnan(b)))
            where = np.flatnonzero(unequal)
            if where.size:
                gap = np.nanmax(np.abs(b[where] - a[where]), initial=0.0)
                lines.append(
                    f"  values: {where.size} of {a.size} differ, the first at flat "
                    f"index {where[0]} ({a[where[0]]!r} -> {b[where[0]]!r}), "
                    f"largest |new - old| {gap:.3g}"
                )
    return lines


def run_baseline(folder, pattern):
    """The records of the sklearn_mlcm of ``folder``, from a subprocess."""
    folder = os.path.abspath(folder)
    if not os.path.isdir(os.path.join(folder, "sklearn_mlcm")):
        raise SystemExit(f"--baseline {folder}: no sklearn_mlcm folder there")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "old.json")
        command = [sys.executable, os.path.abspath(__file__), "--save", out, "--quiet"]
        if pattern:
            command += ["--only", pattern]
        env = {**os.environ, "PYTHONPATH": folder}
        subprocess.run(command, env=env, check=True)
        with open(out) as f:
            old = json.load(f)
    imported = old["meta"]["sklearn_mlcm"]
    if os.path.commonpath([imported, folder]) != folder:
        raise SystemExit(
            f"--baseline {folder}: the subprocess imported sklearn_mlcm from {imported}"
        )
    return old


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument("--save", metavar="FILE", help="write the records as JSON")
    parser.add_argument(
        "--baseline", metavar="DIR", help="compare with the sklearn_mlcm of DIR"
    )
    parser.add_argument(
        "--against", metavar="FILE", help="compare with records saved by --save"
    )
    parser.add_argument("--only", metavar="REGEX", help="only the calls matching")
    parser.add_argument("--quiet", action="store_true", help="print no table")
    parser.add_argument(
        "--bounds-may-change",
        action="store_true",
        help="count a call whose estimates are unchanged and only its intervals' "
        "bounds differ as 'same estimates, bounds changed', not DIFFERENT",
    )
    args = parser.parse_args(argv)
    if args.baseline and args.against:
        parser.error("--baseline and --against exclude each other")
    old = None
    if args.baseline:
        old = run_baseline(args.baseline, args.only)
    elif args.against:
        with open(args.against) as f:
            old = json.load(f)
        if old.get("meta", {}).get("format") != RECORD_FORMAT:
            raise SystemExit(
                f"--against {args.against}: not a file of this script's --save "
                f"(record format {RECORD_FORMAT})"
            )
        if args.only:
            old["calls"] = {
                call_id: record
                for call_id, record in old["calls"].items()
                if re.search(args.only, call_id)
            }
    new = collect(args.only)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(new, f)
    if old is not None:
        if old["meta"]["sklearn_mlcm"] == new["meta"]["sklearn_mlcm"]:
            print("# warning: old and new imported the same sklearn_mlcm")
        sys.exit(
            1 if compare(old, new, bounds_may_change=args.bounds_may_change) else 0
        )
    if not args.quiet:
        print_table(new)


if __name__ == "__main__":
    main()
