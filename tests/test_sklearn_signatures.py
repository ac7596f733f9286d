"""Every parameter and value of the scikit-learn counterparts is ours or listed.

This module makes "every difference is listed" on the page "Coming from
scikit-learn" (``doc/user_guide/from_sklearn.rst``) a fact checked against the
installed scikit-learn (#24 item 2). For each counterpart in ``COUNTERPARTS``
it finds the differences:

- **parameters** (``inspect.signature``): a parameter one side has and the
  other has not, a parameter positional on one side and keyword-only on the
  other, and another default. Parameters that scikit-learn deprecates (default
  ``"deprecated"``) are left out;
- **values** of a parameter both sides have, among the closed sets of values:
  strings (``average="binary"``) and numbers (``zero_division=1.0``). The
  candidates are read from the declared constraints (scikit-learn's
  ``validate_params`` and ``_parameter_constraints``, minus deprecated and
  hidden options; ours ``__mlcm_constraints__`` and ``_parameter_constraints``)
  and from the braces of the docstrings' type lines (``{'true', 'pred',
  'all'}``). For the functions, each candidate is then tried on both sides
  on a tiny input: it is refused when the call raises the parameter's own
  error (``The 'average' parameter of ...``), which holds for every
  scikit-learn >= 1.4 whatever its constraint objects look like. The
  displays and the tuner are read from their declarations only (a call
  would draw or fit).

The convention of the page: a difference is **listed** when one row of a
list-table, read in its "Where" and "What differs" cells (not "Why"),

1. names the counterpart by its sklearn_mlcm name, as a whole word
   (``mlcm_f1_score``, ``MLCMDisplay.from_predictions``, ``MLCMDisplay`` for
   the constructor; a ``:func:`~sklearn_mlcm.mlcm_f1_score``` role does), in
   the row or in the title of the section that holds the table; and
2. holds the difference's literal, in double backquotes on the page:

   - a parameter one side lacks: the parameter's name, alone or with a value
     (``pos_label``, or ``include_no_label=True``);
   - another default: the same, and the word "default";
   - positional on one side and keyword-only on the other: the same, and the
     word "positional" or "keyword";
   - a value one side accepts and the other refuses: ``name="value"`` (either
     quote) for a string, ``name=1.0`` or ``name=np.nan`` for a number, e.g.
     ``average="binary"``;
   - a parameter whose strings are a registry of names rather than options
     (``WHOLE_VALUE_SETS``: the tuner's ``scoring``): its name, as a whole.

A difference that is not listed fails the test, which prints the row to write.
"""

import inspect
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
import sklearn.metrics
import sklearn.model_selection

import sklearn_mlcm

PAGE = Path(__file__).resolve().parents[1] / "doc" / "user_guide" / "from_sklearn.rst"

#: ours (a name of sklearn_mlcm, "Class.method" for a method) -> scikit-learn's
#: (a name of sklearn.metrics or sklearn.model_selection, likewise).
COUNTERPARTS = {
    "mlcm_classification_report": "classification_report",
    "mlcm_precision_recall_fscore_support": "precision_recall_fscore_support",
    "mlcm_precision_score": "precision_score",
    "mlcm_recall_score": "recall_score",
    "mlcm_f1_score": "f1_score",
    "mlcm_fbeta_score": "fbeta_score",
    "mlcm_confusion_matrix": "confusion_matrix",
    "mlcm_multilabel_confusion_matrix": "multilabel_confusion_matrix",
    "make_mlcm_scorer": "make_scorer",
    "MLCMDisplay": "ConfusionMatrixDisplay",
    "MLCMDisplay.from_predictions": "ConfusionMatrixDisplay.from_predictions",
    "MLCMDisplay.from_estimator": "ConfusionMatrixDisplay.from_estimator",
    "MLCMDisplay.plot": "ConfusionMatrixDisplay.plot",
    "MLCMTunedThresholdClassifierCV": "TunedThresholdClassifierCV",
}

#: (ours, parameter): strings that name entries of a registry, not options;
#: a difference in them is one difference of the parameter as a whole.
WHOLE_VALUE_SETS = {("MLCMTunedThresholdClassifierCV", "scoring")}

#: The functions whose values are also tried: binary 1-D input, on which every
#: value of scikit-learn's is valid or fails for the data (not the parameter).
_BINARY = ([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
TRIED = {
    "mlcm_classification_report": {},
    "mlcm_precision_recall_fscore_support": {},
    "mlcm_precision_score": {},
    "mlcm_recall_score": {},
    "mlcm_f1_score": {},
    "mlcm_fbeta_score": {"beta": 2.0},
    "mlcm_confusion_matrix": {},
    "mlcm_multilabel_confusion_matrix": {},
}


# -- the two sides -------------------------------------------------------------


def _resolve(module, name):
    """``module.A.b`` from ``"A.b"``, or None."""
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _theirs(name):
    """scikit-learn's callable, or None where this version has none
    (TunedThresholdClassifierCV is new in 1.5)."""
    for module in (sklearn.metrics, sklearn.model_selection):
        found = _resolve(module, name)
        if found is not None:
            return found
    return None


def _ours(name):
    return _resolve(sklearn_mlcm, name)


def _parameters(func):
    """``name -> inspect.Parameter`` without self, cls and deprecated ones."""
    return {
        name: p
        for name, p in inspect.signature(func).parameters.items()
        if name not in ("self", "cls") and not _deprecated(p)
    }


def _deprecated(parameter):
    return isinstance(parameter.default, str) and parameter.default == "deprecated"


def _constraints(func):
    """The declared constraints: scikit-learn's validate_params attribute or
    an estimator's ``_parameter_constraints``; ours likewise."""
    for attribute in (
        "__mlcm_constraints__",
        "_skl_parameter_constraints",
        "_parameter_constraints",
    ):
        found = getattr(func, attribute, None)
        if found is not None:
            return found
    return {}


def _key(value):
    """Values compared across both sides: NaN equals NaN, 1 equals 1.0."""
    if isinstance(value, str):
        return ("str", value)
    return ("number", "nan" if math.isnan(value) else float(value))


def _declared_values(constraints):
    """The closed sets of values of one parameter's constraints, by key.

    Duck-typed, for scikit-learn's objects of every version: an object with
    ``options`` (StrOptions, Options) gives them minus its ``deprecated``
    ones; ``Hidden`` wrappers are skipped; the string ``"nan"`` is NaN.
    """
    values = {}
    for constraint in constraints:
        if type(constraint).__name__ == "Hidden":
            continue
        if isinstance(constraint, str):
            if constraint == "nan":
                values[_key(math.nan)] = math.nan
            continue
        options = getattr(constraint, "options", None)
        if options is None:
            continue
        deprecated = getattr(constraint, "deprecated", None) or set()
        for option in options:
            if option in deprecated or isinstance(option, bool):
                continue
            if isinstance(option, (str, int, float)):
                values[_key(option)] = option
    return values


def _documented_values(func, name):
    """The quoted strings in the braces of ``name``'s docstring type line."""
    doc = inspect.getdoc(func) or ""
    section = re.search(r"Parameters\n-+\n(.*?)(?:\n\n\w[\w ]*\n-+\n|\Z)", doc, re.S)
    if section is None:
        return {}
    for line in section.group(1).splitlines():
        match = re.match(r"(\w+(?:, \w+)*) : (.*)$", line)
        if match and name in match.group(1).split(", "):
            braces = re.findall(r"\{([^}]*)\}", match.group(2))
            strings = re.findall(r"""['"]([^'"]*)['"]""", " ".join(braces))
            return {_key(s): s for s in strings}
    return {}


def _candidates(func, name):
    return {
        **_declared_values(_constraints(func).get(name, [])),
        **_documented_values(func, name),
    }


def _accepts(func, name, value, kwargs):
    """Whether a call with ``name=value`` passes the parameter's own check."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ill-defined ratios of the tiny input
        try:
            func(*_BINARY, **{**kwargs, name: value})
        except (ValueError, TypeError) as exc:
            own = rf"The '{name}' parameter of \w+ must be"
            return re.search(own, str(exc)) is None
    return True


# -- the differences -----------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One difference, the literal a row must hold, and the words it needs."""

    ours: str
    text: str
    parameter: str
    value: str = None  # the value's literal, for a value difference
    words: tuple = ()  # one of them must be in the row

    def literal_pattern(self):
        name = re.escape(self.parameter)
        if self.value is None:
            return rf"``{name}(=[^`]*)?``"
        if self.value.startswith('"'):  # a string, in either quote
            return rf"""``{name}=(["']){re.escape(self.value[1:-1])}\1``"""
        return rf"``{name}={re.escape(self.value)}``"

    def row_to_write(self):
        literal = self.parameter
        if self.value is not None:
            literal += f"={self.value}"
        hint = f"{self.ours}: {self.text}; list it with ``{literal}``"
        if self.words:
            hint += f" and the word {' or '.join(map(repr, self.words))}"
        return hint


def _kind(parameter):
    if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
        return "positional"
    if parameter.kind is parameter.KEYWORD_ONLY:
        return "keyword-only"
    return parameter.kind.description


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


def _value_literal(value):
    if isinstance(value, str):
        return f'"{value}"'
    return "np.nan" if math.isnan(value) else repr(float(value))


def parameter_differences(ours_name, ours, theirs):
    """The differences of the two signatures."""
    mine, other = _parameters(ours), _parameters(theirs)
    name = COUNTERPARTS[ours_name]
    found = []
    for p in other:
        if p not in mine:
            text = f"{name} has {p!r}, {ours_name} has not"
            found.append(Difference(ours_name, text, p))
    for p in mine:
        if p not in other:
            text = f"{ours_name} has {p!r}, {name} has not"
            found.append(Difference(ours_name, text, p))
    for p in set(mine) & set(other):
        if _kind(mine[p]) != _kind(other[p]):
            text = f"{p!r} is {_kind(mine[p])} here, {_kind(other[p])} in {name}"
            words = ("positional", "keyword")
            found.append(Difference(ours_name, text, p, words=words))
        if not _same(mine[p].default, other[p].default):
            text = (
                f"default {p}={mine[p].default!r} here, "
                f"{other[p].default!r} in {name}"
            )
            found.append(Difference(ours_name, text, p, words=("default",)))
    return sorted(found, key=lambda d: d.parameter)


def value_differences(ours_name, ours, theirs):
    """The differences of the values both sides accept, parameter by parameter."""
    mine, other = _parameters(ours), _parameters(theirs)
    name = COUNTERPARTS[ours_name]
    found = []
    for p in sorted(set(mine) & set(other)):
        candidates = {**_candidates(ours, p), **_candidates(theirs, p)}
        if ours_name in TRIED:
            kwargs = TRIED[ours_name]
            accepted_here, accepted_there = (
                {k for k, v in candidates.items() if _accepts(f, p, v, kwargs)}
                for f in (ours, theirs)
            )
            declared_here = set(_declared_values(_constraints(ours).get(p, [])))
            assert accepted_here == declared_here, (
                f"{ours_name}'s declared values of {p!r} are not those it accepts"
            )
        else:  # a display (draws) or the tuner (fits): their declarations
            accepted_here = set(_declared_values(_constraints(ours).get(p, [])))
            accepted_there = set(_candidates(theirs, p))
        if (ours_name, p) in WHOLE_VALUE_SETS:
            if accepted_here != accepted_there:
                text = f"the names {p!r} takes differ from {name}'s"
                found.append(Difference(ours_name, text, p))
            continue
        for key in sorted(accepted_here ^ accepted_there):
            value = candidates[key]
            side = ours_name if key in accepted_there else name
            side = f"refused by {side}"
            text = f"{p}={value!r} is {side}"
            literal = _value_literal(value)
            found.append(Difference(ours_name, text, p, value=literal))
    return found


# -- the page ------------------------------------------------------------------


def page_rows(text):
    """``[(section title, row text)]`` of the list-tables' rows, header rows
    left out; a row's text is its first two cells ("Where", "What differs")."""
    rows, title, table = [], "", None
    lines = text.splitlines()

    def close(table):
        if table is not None:
            body = table["rows"][table["headers"] :]
            rows.extend((title, " ".join(" ".join(c) for c in r[:2])) for r in body)

    for i, line in enumerate(lines):
        underline = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if re.fullmatch(r"([=\-~^])\1{2,}", underline) and line.strip():
            close(table)
            table, title = None, line.strip()
        elif line.startswith(".. list-table::"):
            close(table)
            table = {"headers": 0, "rows": []}
        elif table is None:
            continue
        elif match := re.match(r"   :header-rows: (\d+)$", line):
            table["headers"] = int(match.group(1))
        elif match := re.match(r"   \* - (.*)$", line):
            table["rows"].append([[match.group(1)]])
        elif (match := re.match(r"     - (.*)$", line)) and table["rows"]:
            table["rows"][-1].append([match.group(1)])
        elif line.startswith("       ") and table["rows"]:
            table["rows"][-1][-1].append(line.strip())
        elif line.strip() and not line.startswith("   "):
            close(table)
            table = None
    close(table)
    return rows


def names(counterpart, text):
    """Whether ``text`` names the counterpart as a whole word (``MLCMDisplay``
    is not ``MLCMDisplay.plot``)."""
    pattern = rf"(?<!\w){re.escape(counterpart)}(?!\w|\.\w)"
    return re.search(pattern, text) is not None


def is_listed(difference, rows):
    """Whether a row lists the difference (the convention at the top)."""
    for title, row in rows:
        if not (names(difference.ours, row) or names(difference.ours, title)):
            continue
        if re.search(difference.literal_pattern(), row) is None:
            continue
        if difference.words and not any(w in row.lower() for w in difference.words):
            continue
        return True
    return False


@pytest.fixture(scope="module")
def rows():
    """The rows of the page."""
    return page_rows(PAGE.read_text(encoding="utf-8"))


def _pair(ours_name):
    """Our callable and scikit-learn's, or skip where it has none."""
    theirs = _theirs(COUNTERPARTS[ours_name])
    if theirs is None:
        pytest.skip(
            f"scikit-learn {sklearn.__version__} has no {COUNTERPARTS[ours_name]}"
        )
    return _ours(ours_name), theirs


def _check(differences, rows):
    """Fail with the rows to write for the differences not listed."""
    unlisted = [d.row_to_write() for d in differences if not is_listed(d, rows)]
    assert not unlisted, (
        f"not on {PAGE.name} (see this module's docstring for the convention):\n"
        + "\n".join(unlisted)
    )


# -- the tests -------------------------------------------------------------------


@pytest.mark.parametrize("ours_name", list(COUNTERPARTS))
def test_sklearn_parameter_differences_are_listed(rows, ours_name):
    """Every parameter one side lacks, and every other kind or default, is
    named on the page in a row that names the counterpart."""
    _check(parameter_differences(ours_name, *_pair(ours_name)), rows)


@pytest.mark.parametrize("ours_name", list(COUNTERPARTS))
def test_sklearn_value_differences_are_listed(rows, ours_name):
    """Every value of a shared parameter that one side accepts and the other
    refuses is named on the page in a row that names the counterpart."""
    _check(value_differences(ours_name, *_pair(ours_name)), rows)


# -- the machinery -------------------------------------------------------------

_PAGE = """\
Title
=====

Section one
===========

.. list-table::
   :header-rows: 1

   * - Where
     - What differs
     - Why
   * - ``pos_label``
     - :func:`~sklearn_mlcm.mlcm_f1_score` has no
       ``pos_label``.
     - mlcm_recall_score is only in the Why cell.

Some text after the table, mlcm_precision_score.

Tuning: MLCMTunedThresholdClassifierCV
======================================

.. list-table::
   :header-rows: 1

   * - Where
     - What differs
     - Why
   * - ``scoring``
     - Default ``"mlcm_f1_macro"``.
     - Reasons.
   * - MLCMDisplay.plot
     - ``xticks_rotation="auto"`` and ``zero_division=np.nan``; ``normalize='true'``.
     - Reasons.
"""


_TUNING = "Tuning: MLCMTunedThresholdClassifierCV"
_TUNER, _PLOT = "MLCMTunedThresholdClassifierCV", "MLCMDisplay.plot"


def test_page_rows_reads_where_and_what_differs():
    """The parser returns each body row's first two cells, joined, with the
    title of its section; header rows and text outside tables are left out."""
    assert page_rows(_PAGE) == [
        (
            "Section one",
            "``pos_label`` :func:`~sklearn_mlcm.mlcm_f1_score` has no ``pos_label``.",
        ),
        (_TUNING, '``scoring`` Default ``"mlcm_f1_macro"``.'),
        (
            _TUNING,
            'MLCMDisplay.plot ``xticks_rotation="auto"`` and ``zero_division=np.nan``; '
            "``normalize='true'``.",
        ),
    ]


def test_page_rows_reads_the_page():
    """The page has list-tables in every section this module relies on."""
    titles = {title for title, _ in page_rows(PAGE.read_text(encoding="utf-8"))}
    assert {
        "Parameters and values",
        "Functions and their results",
        "Displays and command line",
        "Tuning thresholds: MLCMTunedThresholdClassifierCV",
    } <= titles


@pytest.mark.parametrize(
    "difference, listed",
    [
        (Difference("mlcm_f1_score", "", "pos_label"), True),
        # named only in the Why cell, or only outside the table
        (Difference("mlcm_recall_score", "", "pos_label"), False),
        (Difference("mlcm_precision_score", "", "pos_label"), False),
        # the section title names the class
        (Difference(_TUNER, "", "scoring"), True),
        (Difference(_TUNER, "", "scoring", words=("default",)), True),
        (Difference(_TUNER, "", "scoring", words=("keyword",)), False),
        (Difference(_TUNER, "", "cv"), False),
        # a value needs its own literal
        (Difference(_PLOT, "", "xticks_rotation", value='"auto"'), True),
        (Difference(_PLOT, "", "xticks_rotation", value='"vertical"'), False),
        (Difference(_PLOT, "", "normalize", value='"true"'), True),
        (Difference(_PLOT, "", "zero_division", value="np.nan"), True),
        (Difference(_PLOT, "", "zero_division", value="1.0"), False),
        # MLCMDisplay (the constructor) is not MLCMDisplay.plot
        (Difference("MLCMDisplay", "", "xticks_rotation"), False),
        (Difference(_PLOT, "", "xticks_rotation"), True),
    ],
)
def test_is_listed_follows_the_convention(difference, listed):
    """A difference is listed by a row that names the counterpart (or whose
    section title does) and holds its literal and, if any, one of its words."""
    assert is_listed(difference, page_rows(_PAGE)) is listed


def test_unlisted_differences_are_reported():
    """The differences of a counterpart fail the check against a page without
    rows, with the literal to write (so that the test can fail)."""
    ours, theirs = sklearn_mlcm.mlcm_f1_score, sklearn.metrics.f1_score
    differences = parameter_differences("mlcm_f1_score", ours, theirs)
    assert {(d.parameter, d.words) for d in differences} == {
        ("average", ("default",)),
        ("include_no_label", ()),
        ("method", ()),
        ("pos_label", ()),
    }
    with pytest.raises(AssertionError, match="list it with ``pos_label``"):
        _check(differences, [])
    values = value_differences("mlcm_f1_score", ours, theirs)
    assert {"micro_all", "binary"} <= {d.value.strip('"') for d in values}
    with pytest.raises(AssertionError, match='``average="binary"``'):
        _check(values, [])


def test_declared_and_documented_values_are_read():
    """scikit-learn's constraint objects and docstrings give the candidates:
    the string options, numbers and "nan" of zero_division, and the braces
    of a docstring without constraints (the display's)."""
    values = _candidates(sklearn.metrics.precision_score, "zero_division")
    numbers = {("number", 0.0), ("number", 1.0), ("number", "nan")}
    assert set(values) == {("str", "warn"), *numbers}
    plot = sklearn.metrics.ConfusionMatrixDisplay.plot
    rotation = _candidates(plot, "xticks_rotation")
    assert set(rotation) == {("str", "vertical"), ("str", "horizontal")}
    assert _accepts(sklearn.metrics.f1_score, "average", "macro", {})
    assert not _accepts(sklearn.metrics.f1_score, "average", "micro_all", {})
