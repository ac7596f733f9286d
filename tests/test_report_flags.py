"""The intervals' flags in every output of the report (issue #32, item 3).

An interval the library cannot stand behind carries its reason
(``ScoreInterval.flag``): the dict has ``"<score> flag"``, the frame a flag
column, the text, markdown, LaTeX and the page a mark and a note, the command
line the same through the report's writer and its JSON. An undefined score
prints as "—" with its mark, while the dict keeps scikit-learn's value.

The writers' tests flag the report's intervals themselves (the engine's
``_report_bounds`` wrapped: the flags a never-predicted label gets); the
end-to-end tests need the engine's own flags.
"""

import json
import re
import warnings
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import DegenerateDataWarning
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_mlcm._report._classification_report as classification_report
from sklearn_mlcm import MLCMReport, mlcm_classification_report
from sklearn_mlcm._cli import main
from sklearn_mlcm._report._table import ReportBounds, table_of_report
from sklearn_mlcm._uncertainty._interval_result import ScoreInterval

NEVER = "undefined: never predicted"
FEW = "few positives (2 < 5)"
MACRO = "1 of 3 labels have < 5 positives"
NAMES = ["cat", "dog", "eel"]
INTERVALS = {"confidence_level": 0.95, "n_resamples": 49, "random_state": 0}


def _targets():
    """40 instances of 3 labels: "eel" (2 true instances) is never
    predicted; "cat" and "dog" are predicted with a few errors."""
    rng = np.random.default_rng(0)
    y_true = (rng.random((40, 3)) < 0.5).astype(int)
    y_true[:, 2] = 0
    y_true[[3, 7], 2] = 1
    y_pred = y_true.copy()
    y_pred[rng.random((40, 3)) < 0.15] ^= 1
    y_pred[:, 2] = 0
    return y_true, y_pred


Y_TRUE, Y_PRED = _targets()


def _flagged(bounds):
    """``bounds`` with the flags a never-predicted third label gets: its
    precision undefined, its recall from few positives, the macro averages
    over a rare label."""
    intervals = {}
    for key, interval in bounds.intervals.items():
        flag = None
        if isinstance(key, str):
            flag = {"precision": (None, None, NEVER), "recall": (None, None, FEW)}
            flag = flag.get(key, (None, None, None))
        elif key[1] == "macro":
            flag = MACRO
        intervals[key] = replace(interval, flag=flag)
    return ReportBounds(intervals, bounds.legend)


@pytest.fixture
def flags(monkeypatch):
    """The report's intervals flagged by :func:`_flagged`."""
    engine = classification_report._report_bounds
    monkeypatch.setattr(
        classification_report,
        "_report_bounds",
        lambda *args, **kwargs: _flagged(engine(*args, **kwargs)),
    )


@contextmanager
def _quiet():
    """Warnings off for the targets' undefined ratios (UndefinedMetricWarning)
    and flagged intervals (DegenerateDataWarning): the outputs are checked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", DegenerateDataWarning)
        yield


def _report(**options):
    """The report of the targets, with intervals, under the default
    zero_division (the undefined precision of "eel" warns)."""
    with _quiet():
        return mlcm_classification_report(
            Y_TRUE, Y_PRED, target_names=NAMES, **INTERVALS, **options
        )


def _evaluation():
    """The :class:`MLCMReport` of the targets, with intervals."""
    with _quiet():
        return MLCMReport.from_predictions(
            Y_TRUE, Y_PRED, target_names=NAMES, **INTERVALS
        )


def _write_files(tmp_path):
    """The targets as two CSV files with a header of the names."""
    paths = []
    for name, values in (("true.csv", Y_TRUE), ("pred.csv", Y_PRED)):
        rows = [",".join(NAMES)] + [",".join(map(str, row)) for row in values]
        path = tmp_path / name
        path.write_text("\n".join(rows) + "\n")
        paths.append(str(path))
    return paths


def _run_cli(capsys, tmp_path, *options):
    """The command line's ``report`` of the targets with intervals: stdout."""
    argv = ["report", *_write_files(tmp_path), "--confidence-level", "0.95"]
    argv += ["--n-resamples", "49", "--seed", "0", *options]
    with _quiet():
        assert main(argv) == 0
    return capsys.readouterr().out


# -- the writers, with flagged intervals -----------------------------------------


def test_score_interval_flag_defaults_to_none():
    """ScoreInterval's flag is its last field, None unless given."""
    interval = ScoreInterval(0.5, (0.4, 0.6), 0, 0)
    assert interval.flag is None
    assert replace(interval, flag=NEVER).flag == NEVER


def test_report_dict_has_each_flag_beside_the_bounds(flags):
    """The dict has "<score> flag" after "<score> high": None where trusted,
    the reason where flagged; the undefined value stays zero_division's."""
    report = _report(output_dict=True)
    eel = report["eel"]
    assert list(eel)[:4] == [
        "precision",
        "precision low",
        "precision high",
        "precision flag",
    ]
    assert eel["precision flag"] == NEVER
    assert eel["recall flag"] == FEW
    assert eel["f1-score flag"] is None
    # scikit-learn's value of an undefined precision (zero_division="warn": 0)
    assert type(eel["precision"]) is float and eel["precision"] == 0.0
    assert report["macro avg"]["f1-score flag"] == MACRO
    for name in ("cat", "dog", "micro avg", "weighted avg", "samples avg"):
        assert {report[name][f"{c} flag"] for c in ("precision", "recall")} == {None}


def test_report_text_marks_flags_and_shows_undefined_as_a_dash(flags):
    """The text marks each flagged interval, prints "—" for the undefined
    precision (not 0.00 [0.00, 0.00]) and a note per reason."""
    text = _report()
    eel = next(line for line in text.splitlines() if line.strip().startswith("eel"))
    precision = eel.split()[1:3]
    assert precision == ["—", "†1"]
    assert re.search(r"0\.00 \[0\.00, \d\.\d\d\] †2", eel)  # the recall, marked
    macro = next(line for line in text.splitlines() if "macro avg" in line)
    assert macro.count("†3") == 3
    notes = text[text.index("Flagged intervals") :].splitlines()
    assert notes[1:4] == [
        f"  †1 {NEVER}: 1 interval (eel precision)",
        f"  †2 {FEW}: 1 interval (eel recall)",
        f"  †3 {MACRO}: 3 intervals (macro avg precision, macro avg recall, "
        "macro avg f1-score)",
    ]
    assert notes[4].startswith("  —: undefined (a zero denominator)")


def test_report_text_notes_group_identical_reasons(monkeypatch):
    """One note per distinct reason, naming its first 3 places and how many
    more: a report of many flagged labels keeps its notes short."""
    engine = classification_report._report_bounds

    def every_label(*args, **kwargs):
        bounds = engine(*args, **kwargs)
        intervals = {
            key: replace(v, flag=(NEVER,) * 3 if isinstance(key, str) else None)
            for key, v in bounds.intervals.items()
        }
        return ReportBounds(intervals, bounds.legend)

    monkeypatch.setattr(classification_report, "_report_bounds", every_label)
    text = _report()
    notes = text[text.index("Flagged intervals") :].splitlines()
    assert notes[1] == (
        f"  †1 {NEVER}: 9 intervals (cat precision, cat recall, cat f1-score "
        "and 6 more)"
    )
    assert len(notes) == 3  # the heading, the one reason, what "—" means


def test_table_of_report_reads_the_flags_back(flags):
    """The dict's flags come back as each row's flags, in order of notes."""
    from sklearn_mlcm._report._table import flag_notes, is_undefined

    table = table_of_report(_report(output_dict=True))
    eel = table.rows[2]
    assert eel.flags == {"precision": NEVER, "recall": FEW, "f1-score": None}
    notes = flag_notes(table)
    assert [(n.mark, n.reason) for n in notes] == [
        ("†1", NEVER),
        ("†2", FEW),
        ("†3", MACRO),
    ]
    assert notes[0].places == (("eel", "precision"),)
    assert is_undefined(NEVER) and not is_undefined(FEW) and not is_undefined(None)


def test_mlcm_report_frame_has_a_flag_column(flags):
    """to_frame() has "<score> flag" after its bounds: None or the reason."""
    pytest.importorskip("pandas")
    frame = _evaluation().to_frame()
    columns = list(frame.columns)
    index = columns.index("precision flag")
    assert columns[index - 2 : index] == ["precision low", "precision high"]
    assert frame["precision flag"].dtype == object
    assert frame.loc["eel", "precision flag"] == NEVER
    assert frame.loc["eel", "recall flag"] == FEW
    assert frame.loc["cat", "precision flag"] is None
    assert frame.loc["macro avg", "f1-score flag"] == MACRO
    # the value stays the dict's (zero_division's), for a program to read
    assert frame.loc["eel", "precision"] == 0.0


def test_mlcm_report_markdown_and_latex_mark_flags_with_notes(flags):
    """Markdown and LaTeX mark the flagged cells, "—" for the undefined one,
    and list the reasons under the table."""
    evaluation = _evaluation()
    markdown = evaluation.to_markdown()
    eel = next(line for line in markdown.splitlines() if line.startswith("| eel"))
    assert re.match(r"\| eel \| — †1 \| 0\.00 \[0\.00, \d\.\d\d\] †2 \|", eel)
    assert f"- †1 {NEVER}: 1 interval (eel precision)" in markdown
    assert "- †3 1 of 3 labels have \\< 5 positives" in markdown
    latex = evaluation.to_latex()
    assert re.search(r"eel & — †1 & 0\.00 \[0\.00, \d\.\d\d\] †2 &", latex)
    assert latex.index(r"\end{tabular}") < latex.index(f"†1 {NEVER}")
    assert r"†2 few positives (2 \textless{} 5)" in latex


def test_mlcm_report_page_marks_flags_with_a_note(flags):
    """The page marks each flagged interval, says in the summary how many
    are flagged, shows "—" for the undefined one and lists the reasons."""
    page = _evaluation().to_html()
    assert '<sup class="flag" title="undefined: never predicted">†1</sup>' in page
    assert "—<sup class" in page
    assert "<b>5 intervals flagged</b>" in page
    assert f"<li>†1 {NEVER}: 1 interval (eel precision)</li>" in page
    assert "1 of 3 labels have &lt; 5 positives" in page


def test_mlcm_report_repr_says_when_the_headline_is_flagged(flags):
    """The one-screen summary says the macro F1's interval is flagged."""
    assert f"(flagged: {MACRO})" in repr(_evaluation())


def test_cli_report_prints_the_flags(flags, capsys, tmp_path):
    """The command line's report marks the flags and prints their notes; its
    JSON has each "<score> flag"."""
    out = _run_cli(capsys, tmp_path)
    printed = out[out.index("Classification report") :].splitlines()
    eel = next(line for line in printed if line.strip().startswith("eel"))
    assert eel.split()[1:3] == ["—", "†1"]
    assert f"†1 {NEVER}: 1 interval (eel precision)" in out
    report = json.loads(_run_cli(capsys, tmp_path, "--json"))["report"]
    assert report["eel"]["precision flag"] == NEVER
    assert report["cat"]["precision flag"] is None
    assert report["macro avg"]["recall flag"] == MACRO


def test_trusted_report_has_no_flag_and_no_note():
    """A report whose intervals are all trusted has every flag None, no mark
    and no note, in every output."""
    y_true = np.array([[1, 0], [0, 1], [1, 1], [1, 0]] * 10)
    y_pred = np.array([[1, 0], [0, 1], [1, 0], [1, 1]] * 10)
    report = mlcm_classification_report(y_true, y_pred, output_dict=True, **INTERVALS)
    flags = [v for entry in report.values() for k, v in entry.items() if "flag" in k]
    assert flags and set(flags) == {None}
    text = mlcm_classification_report(y_true, y_pred, **INTERVALS)
    assert "†" not in text and "Flagged" not in text and "—" not in text
    evaluation = MLCMReport.from_predictions(y_true, y_pred, **INTERVALS)
    for output in (
        evaluation.to_markdown(),
        evaluation.to_latex(),
        evaluation.to_html(),
    ):
        assert "†" not in output and "Flagged intervals" not in output


def test_report_without_intervals_keeps_scikit_learns_text():
    """Without intervals an undefined score prints as scikit-learn's value:
    no flag key, no mark, no dash."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        text = mlcm_classification_report(Y_TRUE, Y_PRED, target_names=NAMES)
        report = mlcm_classification_report(
            Y_TRUE, Y_PRED, target_names=NAMES, output_dict=True
        )
    assert "—" not in text and "†" not in text
    assert not any("flag" in key for entry in report.values() for key in entry)


# -- end to end: the engine's flags --------------------------------------------

def test_never_predicted_label_is_flagged_in_the_report_dict():
    """mlcm_classification_report flags a never-predicted label's precision
    as undefined, keeping scikit-learn's value."""
    report = _report(output_dict=True)
    assert report["eel"]["precision flag"] == NEVER
    assert report["eel"]["precision"] == 0.0


def test_never_predicted_label_shows_as_undefined_in_the_text():
    """The text prints "—" and a mark for the never-predicted label's
    precision, and the reason in its notes."""
    text = _report()
    eel = next(line for line in text.splitlines() if line.strip().startswith("eel"))
    assert eel.split()[1] == "—"
    assert NEVER in text[text.index("Flagged intervals") :]


def test_never_predicted_label_is_flagged_in_the_mlcm_report():
    """MLCMReport.from_predictions carries the flag into its frame, markdown
    and page."""
    evaluation = _evaluation()
    assert evaluation.report["eel"]["precision flag"] == NEVER
    assert NEVER in evaluation.to_markdown()
    assert f'title="{NEVER}"' in evaluation.to_html()


def test_never_predicted_label_is_flagged_on_the_command_line(capsys, tmp_path):
    """The command line's text and JSON carry the engine's flag."""
    out = _run_cli(capsys, tmp_path)
    assert NEVER in out[out.index("Flagged intervals") :]
    report = json.loads(_run_cli(capsys, tmp_path, "--json"))["report"]
    assert report["eel"]["precision flag"] == NEVER
