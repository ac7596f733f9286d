"""Hypothesis strategies and the real-data folder, shared by the test modules.

Test modules do not import this file: they take the ``mlcm_strategies`` fixture
and draw from it inside ``@given(data=st.data())``, and the ``shared_data``
fixture for the real data sets of ``SKLEARN_MLCM_DATA``; ``device_node`` makes
a character device to write to (as root). Every test closes the
matplotlib figures it leaves open (``close_figures``, autouse).
"""

import functools
import importlib.util
import os
import stat
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import strategies as st

# The real data sets: the one variable read by the tests, the docs and CI.
DATA_VARIABLE = "SKLEARN_MLCM_DATA"
DATA_DEFAULT = "../shared/data"  # relative paths are taken from the repository root
ROOT = Path(__file__).resolve().parents[1]

# Weights that must turn up: zero, one, other integers and non-integers.
SPECIAL_WEIGHTS = (0.0, 1.0, 2.0, 0.5, 0.1, 3.75)

# Strategies are built once, not per row or per example: hypothesis validates
# a strategy object at its first draw, and building them anew cost more than
# most tests' bodies. The draws, and so the cases, are the same.
_TRUE_ROW_KINDS = st.sampled_from(("random", "random", "empty", "full"))
_PRED_ROW_KINDS = st.sampled_from(
    ("random", "same", "subset", "superset", "mixed", "empty", "full")
)
_INTEGER_WEIGHTS = st.integers(0, 3)
_WEIGHTS = st.one_of(
    st.sampled_from(SPECIAL_WEIGHTS),
    st.floats(0.0, 100.0, allow_nan=False, allow_subnormal=False),
)
_POSITIVE_WEIGHTS = st.one_of(
    st.sampled_from((1.0, 2.0, 0.5, 0.1)),
    st.floats(0.01, 10.0, allow_subnormal=False),
)


def _built_once(factory):
    """``factory`` returning one strategy object per arguments (hashable ones;
    others, such as a list, build a new strategy as before)."""
    cached = functools.lru_cache(maxsize=None)(factory)

    @functools.wraps(factory)
    def strategy(*args, **kwargs):
        try:
            return cached(*args, **kwargs)
        except TypeError:  # an unhashable argument
            return factory(*args, **kwargs)

    return strategy


@_built_once
def _integers(low, high):
    return st.integers(low, high)


@_built_once
def _sampled_from(values):
    return st.sampled_from(values)


@_built_once
def _lists_of(elements, n):
    """Lists of exactly ``n`` of ``elements``."""
    return st.lists(elements, min_size=n, max_size=n)


def _bits(mask, q):
    """The q-bit integer ``mask`` as a bool row, label 0 first."""
    return [bool(mask >> j & 1) for j in range(q)]


@_built_once
@st.composite
def multilabel_targets(draw, max_samples=12, max_labels=6, label_counts=None):
    """``(y_true, y_pred)``: bool indicator arrays of one shape (n, q).

    A true row is random, empty or full; a predicted row is random, empty,
    full, or the true row itself, a subset, a superset or a mix (some true
    labels kept, some wrong ones added) of it, so that all three Heydarian
    categories and all four Krstinic scenarios turn up for every q. Shrinks
    towards n = 1, q = 1 and empty rows. ``label_counts``, a strategy, draws q
    instead of ``1..max_labels``.
    """
    n = draw(_integers(1, max_samples))
    q = draw(_integers(1, max_labels) if label_counts is None else label_counts)
    full = (1 << q) - 1
    masks = _integers(0, full)
    true_rows, pred_rows = [], []
    for _ in range(n):
        kind = draw(_TRUE_ROW_KINDS)
        t = {"random": draw(masks), "empty": 0, "full": full}[kind]
        kind = draw(_PRED_ROW_KINDS)
        if kind == "mixed":  # some true labels kept, some wrong ones added
            p = (t & draw(masks)) | (~t & full & draw(masks))
        elif kind in ("random", "subset", "superset"):
            r = draw(masks)
            p = {"random": r, "subset": t & r, "superset": t | r}[kind]
        else:
            p = {"same": t, "empty": 0, "full": full}[kind]
        true_rows.append(_bits(t, q))
        pred_rows.append(_bits(p, q))
    return (
        np.array(true_rows, dtype=bool).reshape(n, q),
        np.array(pred_rows, dtype=bool).reshape(n, q),
    )


@_built_once
def sample_weights(n, integer=False):
    """Non-negative weights of length n: zeros, integers and non-integers."""
    values = _INTEGER_WEIGHTS if integer else _WEIGHTS
    return _lists_of(values, n).map(np.array)


@_built_once
@st.composite
def multilabel_cases(draw, weighted=None, **kwargs):
    """``(y_true, y_pred, sample_weight)``; weights always, never or maybe."""
    y_true, y_pred = draw(multilabel_targets(**kwargs))
    if weighted is None:
        weighted = draw(st.booleans())
    weight = draw(sample_weights(y_true.shape[0])) if weighted else None
    return y_true, y_pred, weight


@_built_once
@st.composite
def multiclass_cases(draw, classes=(0, 1, 2, 3, 4), max_samples=15):
    """``(y_true, y_pred, sample_weight)``: 1-D class labels, maybe weighted."""
    n = draw(_integers(1, max_samples))
    labels = _lists_of(_sampled_from(classes), n)
    y_true = np.array(draw(labels))
    y_pred = np.array(draw(labels))
    weight = None
    if draw(st.booleans()):
        weight = np.array(draw(_lists_of(_POSITIVE_WEIGHTS, n)))
    return y_true, y_pred, weight


@pytest.fixture(autouse=True)
def close_figures():
    """After each test, close every pyplot figure it left open.

    matplotlib is not imported here (the package must import without it): only
    if a test imported pyplot. A hypothesis test draws once per example, so it
    closes its own figures in its body as well (``plt.close("all")``).
    """
    yield
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


@pytest.fixture(scope="session")
def mlcm_strategies():
    """The strategies above, for ``data.draw(...)`` inside a hypothesis test."""
    return SimpleNamespace(
        targets=multilabel_targets,
        weights=sample_weights,
        cases=multilabel_cases,
        multiclass=multiclass_cases,
    )


@pytest.fixture
def device_node(tmp_path):
    """A character device of its own in ``tmp_path``, a copy of
    ``/dev/null``'s numbers (writes to it are discarded): a file a write
    must not replace. Only root may create one (CI runs the tests as root),
    and a container may refuse even root (no CAP_MKNOD): skipped then."""
    if not hasattr(os, "mknod") or not os.path.exists("/dev/null"):
        pytest.skip("device nodes are a POSIX thing: no os.mknod or /dev/null here")
    if os.geteuid() != 0:
        pytest.skip("creating a device node needs root (CI runs the tests as root)")
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    except PermissionError:
        pytest.skip("this root may not create device nodes (no CAP_MKNOD)")
    return node


def _missing(*modules):
    """The modules of ``modules`` that are not installed."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


#: The tests of the [torch], [mlflow] and [wandb] extras, and what each needs.
#: Where those are not installed they are not collected (the header says so)
#: rather than skipped: CI installs them in a job of their own, which runs
#: these tests and fails on a skip, while the README's test command runs the
#: rest everywhere.
_EXTRAS_TESTS = {
    "pytorch/*": ("torch", "torchmetrics"),
    "_reporting/test_trackers.py": ("mlflow", "wandb"),
}
collect_ignore_glob = [
    glob for glob, needs in _EXTRAS_TESTS.items() if _missing(*needs)
]


def pytest_report_header(config):
    """Which sklearn_mlcm is tested (CI checks it), with which dependencies."""
    import scipy
    import sklearn

    try:
        import sklearn_mlcm
    except ImportError as exc:  # the tests report it; the header still prints
        return f"sklearn_mlcm cannot be imported: {exc!r}"
    return [
        f"sklearn_mlcm {sklearn_mlcm.__version__} from "
        f"{Path(sklearn_mlcm.__file__).resolve().parent}",
        f"numpy {np.__version__}, scipy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}",
        f"{DATA_VARIABLE}: {data_folder()}",
        *(
            f"not collected: tests/{glob} ({', '.join(_missing(*needs))} not installed)"
            for glob, needs in _EXTRAS_TESTS.items()
            if _missing(*needs)
        ),
    ]


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data``, from the repository root."""
    folder = Path(os.environ.get(DATA_VARIABLE, DATA_DEFAULT))
    return (folder if folder.is_absolute() else ROOT / folder).resolve()


@pytest.fixture(scope="session")
def shared_data():
    """``shared_data(name, *files)``: the data set's folder, or skip saying where.

    The folder is ``name`` in ``SKLEARN_MLCM_DATA``; the test is skipped, with
    the path that was looked at, unless every one of ``files`` is in it.
    """

    def folder(name, *files):
        path = data_folder() / name
        missing = [f for f in files if not (path / f).is_file()]
        if missing:
            pytest.skip(
                f"the shared data set {name!r} is not at {path} (no "
                f"{', '.join(missing)}); set {DATA_VARIABLE} to the data folder"
            )
        return path

    return folder
