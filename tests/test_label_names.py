"""Label names the outputs can tell apart and a terminal can print.

One rule for every entry point that names labels (``check_target_names``):
names differ once their surrounding whitespace is stripped, and none is a row
the same output adds (the averages, "no label", NTL and NPL where drawn). One
escaping (``_summary.printable``) for every plain-text output: a control
character in a name is shown, not executed.
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_mlcm import (
    MLCMAccumulator,
    MLCMDisplay,
    MLCMReport,
    labelset_confusions,
    mlcm_classification_report,
    mlcm_confidence_intervals,
    mlcm_confusion_matrix,
    mlcm_paired_comparison,
    mlcm_threshold_curve,
    most_confused,
)

T = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]])
P = np.array([[1, 1, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 0]])
SCORES = np.where(P == 1, 0.8, 0.2)
CM = mlcm_confusion_matrix(T, P)

#: Names that a terminal would act on: a title change, a colour, a line
#: break, a C1 control (CSI), DEL, a bidi override and a zero-width space.
HOSTILE = ["x\x1b]0;title\x07", "red\x1b[31m\x9b2J", "two\nlines\x7f\u202e\u200b"]
PLAIN = ["x", "red", "two"]
# any character printable escapes, except the line breaks between rows
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u200b]")


def _entry_points(names):
    """Every entry point that takes label names, called with ``names``."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    kwargs = {"zero_division": 0.0}
    return {
        "mlcm_classification_report": lambda: mlcm_classification_report(
            T, P, target_names=names, **kwargs
        ),
        "MLCMReport.from_predictions": lambda: MLCMReport.from_predictions(
            T, P, target_names=names, **kwargs
        ),
        "MLCMDisplay.from_predictions": lambda: MLCMDisplay.from_predictions(
            T, P, display_labels=names
        ),
        "MLCMDisplay.plot": lambda: MLCMDisplay(CM, display_labels=names).plot(),
        "mlcm_confidence_intervals": lambda: mlcm_confidence_intervals(
            T, P, target_names=names, n_resamples=99, random_state=0, **kwargs
        ),
        "mlcm_paired_comparison": lambda: mlcm_paired_comparison(
            T, P, T, target_names=names, n_resamples=99, random_state=0
        ),
        "mlcm_threshold_curve": lambda: mlcm_threshold_curve(
            T, SCORES, target_names=names
        ),
        "most_confused": lambda: most_confused(CM, target_names=names),
        "labelset_confusions": lambda: labelset_confusions(T, P, target_names=names),
        "MLCMAccumulator.classification_report": lambda: (
            _accumulated().classification_report(target_names=names, **kwargs)
        ),
    }


def _accumulated():
    accumulator = MLCMAccumulator(n_labels=3)
    accumulator.update(T, P)
    return accumulator


@pytest.mark.parametrize("entry", list(_entry_points(PLAIN)))
def test_check_target_names_refuses_names_alike_once_stripped(entry):
    """'a', 'a ' and ' a' print alike: refused at every entry point, naming
    the parameter and both names."""
    call = _entry_points(["a", "a ", " a"])[entry]
    parameter = "display_labels" if entry.startswith("MLCMDisplay") else "target_names"
    with pytest.raises(
        ValueError,
        match=rf"{parameter} of .* must be unique \(compared without surrounding "
        rf"whitespace, in Unicode's composed form\).*; 'a' and 'a ' print alike "
        rf"\(as 'a'\)\. Pass distinct {parameter}",
    ):
        call()


@pytest.mark.parametrize("entry", list(_entry_points(PLAIN)))
def test_every_entry_point_refuses_names_composed_differently(entry):
    """'café' written with 'é' and with 'e' and a combining accent print
    alike: accepted before (found by an adversarial hunt), refused now at
    every entry point; the message shows the two apart (ascii), as repr
    would not."""
    call = _entry_points(["caf\u00e9", "cafe\u0301", "x"])[entry]
    with pytest.raises(
        ValueError,
        match=r"'caf\\xe9' and 'cafe\\u0301' print alike \(as 'café': the same "
        r"characters, composed differently\)",
    ):
        call()


def test_check_target_names_refuses_frame_columns_alike_once_stripped():
    """A frame's columns 'a' and 'a ' name the labels alike: the accumulator's
    report refuses them, as target_names."""
    pandas = pytest.importorskip("pandas")
    accumulator = MLCMAccumulator(n_labels=3)
    columns = ["a", "a ", "b"]
    accumulator.update(
        pandas.DataFrame(T, columns=columns), pandas.DataFrame(P, columns=columns)
    )
    with pytest.raises(ValueError, match=r"'a' and 'a ' print alike"):
        accumulator.classification_report(zero_division=0.0)


@pytest.mark.parametrize("name", ["NTL", "NPL", " NTL"])
def test_mlcm_report_refuses_ntl_npl_names(name):
    """MLCMReport's picture and page draw the NTL row and NPL column: a label
    named so is refused, with or without include_no_label."""
    with pytest.raises(
        ValueError,
        match=r"target_names of MLCMReport.from_predictions must .* differ from "
        r"the rows \['NPL', 'NTL', .*(is used as|prints as) the no-",
    ):
        MLCMReport.from_predictions(
            T, P, target_names=["a", name, "c"], zero_division=0.0
        )


def test_mlcm_display_refuses_display_labels_named_as_no_label_row():
    """A display label named as the NTL row or NPL column drawn is refused,
    with the hint of ntl_label/npl_label; with other ones, or without the
    no-label row, it is drawn."""
    pytest.importorskip("matplotlib")
    with pytest.raises(
        ValueError,
        match=r"display_labels of MLCMDisplay.plot .*; 'NPL' is used as the "
        r"no-predicted-label column\. Pass distinct display_labels, or pass other "
        r"ntl_label/npl_label\.",
    ):
        MLCMDisplay(CM, display_labels=["a", "NPL", "c"]).plot()
    with pytest.raises(ValueError, match=r"'x' is used as the no-true-label row"):
        MLCMDisplay(CM, ntl_label="x", display_labels=["a", "x", "c"]).plot()
    with pytest.raises(ValueError, match=r"'0' is used as the no-true-label row"):
        MLCMDisplay(CM, ntl_label="0").plot()
    display = MLCMDisplay(CM, display_labels=["a", "NPL", "c"], npl_label="none")
    ticks = [t.get_text() for t in display.plot().ax_.get_xticklabels()]
    assert ticks == ["a", "NPL", "c", "none"]
    display = MLCMDisplay(CM, display_labels=["a", "NPL", "c"])
    ticks = [
        t.get_text() for t in display.plot(include_no_label=False).ax_.get_xticklabels()
    ]
    assert ticks == ["a", "NPL", "c"]


def test_most_confused_refuses_target_names_named_as_no_label_row():
    """most_confused lists the NTL row with include_no_label: a label named so
    is refused then, accepted otherwise (no such row is listed)."""
    names = ["a", "NTL", "c"]
    with pytest.raises(ValueError, match=r"'NTL' is used as the no-true-label row"):
        most_confused(CM, target_names=names, include_no_label=True)
    assert most_confused(CM, target_names=names)


def test_mlcm_classification_report_accepts_ntl_without_its_row():
    """The text report has no NTL row without include_no_label: the name is
    free there, taken with it ("no label" is the row then)."""
    report = mlcm_classification_report(
        T, P, target_names=["a", "NTL", "c"], output_dict=True, zero_division=0.0
    )
    assert "NTL" in report
    with pytest.raises(ValueError, match=r"'no label ' prints as a summary row"):
        mlcm_classification_report(
            T,
            P,
            target_names=["a", "no label ", "c"],
            include_no_label=True,
            zero_division=0.0,
        )


def test_mlcm_report_plot_takes_ntl_and_npl_labels():
    """MLCMReport.plot names the no-label row and column (a raw TypeError
    before), and refuses a name a label has, as target_names."""
    pytest.importorskip("matplotlib")
    report = MLCMReport.from_predictions(
        T, P, target_names=["a", "b", "c"], zero_division=0.0
    )
    display = report.plot(ntl_label="none", npl_label="missed")
    assert [t.get_text() for t in display.ax_.get_yticklabels()][-1] == "none"
    assert [t.get_text() for t in display.ax_.get_xticklabels()][-1] == "missed"
    with pytest.raises(
        ValueError,
        match=r"target_names of MLCMReport.plot .*; 'b' is used as the "
        r"no-true-label row\. Pass distinct target_names, or pass other "
        r"ntl_label/npl_label\.",
    ):
        report.plot(ntl_label="b")
    report.plot(ntl_label="b", include_no_label=False)


@pytest.mark.parametrize(
    "name, shown",
    [
        ("C0", "C0"),
        ("café 日本 a\\b  c", "café 日本 a\\b  c"),
        ("\x1b]0;t\x07", "\\x1b]0;t\\x07"),
        ("a\nb\tc\r", "a\\nb\\tc\\r"),
        ("\x7f\x85\x9b", "\\x7f\\x85\\x9b"),
        ("\u202eab\u2066\u200b\ufeff", "\\u202eab\\u2066\\u200b\\ufeff"),
        ("a\u2028b", "a\\u2028b"),
        ("\ud800", "\\ud800"),
        ("a\\x1b", "a\\\\x1b"),
        ("\\\x1b", "\\\\\\x1b"),
        ("C:\\path\\", "C:\\path\\"),
        ("a\\\\b", "a\\\\b"),
        ("\\xi \\\\server \\alpha", "\\xi \\\\server \\alpha"),
        ("C:\\new \\theta", "C:\\\\new \\\\theta"),
    ],
)
def test_printable_escapes_controls_only(name, shown):
    """Controls, format characters and separators escaped as repr does;
    every other character (spaces, letters) as is, and a backslash too
    unless it would read as the start of an escape (then doubled)."""
    from sklearn_mlcm._summary import printable

    assert printable(name) == shown


_ESCAPE = re.compile(r"[nrt]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}")


def _read_printed(text):
    """The name that :func:`printable` printed as ``text`` (its inverse): a
    run of backslashes before what reads as an escape is the name's
    backslashes doubled, and one more that starts the escape when the run is
    odd; any other backslash is the name's own."""
    out, i = [], 0
    while i < len(text):
        if text[i] != "\\":
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < len(text) and text[j] == "\\":
            j += 1
        run, escape = j - i, _ESCAPE.match(text, j)
        if escape is None:
            out.append("\\" * run)
            i = j
            continue
        out.append("\\" * (run // 2))
        if run % 2 == 0:
            i = j
            continue
        code = escape.group()
        simple = {"n": "\n", "r": "\r", "t": "\t"}
        out.append(simple[code] if code in simple else chr(int(code[1:], 16)))
        i = escape.end()
    return "".join(out)


@settings(max_examples=2000, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            [
                "\\",
                "x",
                "u",
                "U",
                "n",
                "t",
                "r",
                "1",
                "b",
                "a",
                " ",
                "\x1b",
                "\n",
                "\t",
                "\x7f",
                "\u202e",
                "\u200b",
                "\ud800",
                "é",
                "\x9b",
            ]
        ),
        max_size=12,
    )
)
def test_printable_is_read_back_so_no_two_names_print_alike(name):
    """The printed text reads back to its name: two names never print alike
    (the name ESC and the four characters \\x1b did, and the command line
    then refused a file of distinct names as naming one twice)."""
    from sklearn_mlcm._summary import printable

    shown = printable(name)
    assert shown.isprintable()
    assert _read_printed(shown) == name


def _check_printed(hostile, plain):
    """``hostile`` has no raw control character and as many lines as
    ``plain``, the same output of plain names."""
    assert _RAW.search(hostile) is None, hostile
    assert hostile.count("\n") == plain.count("\n")


def _printed(names):
    """Every plain-text output of a result named ``names``."""
    kwargs = {"zero_division": 0.0}
    accumulator = _accumulated()
    report = MLCMReport.from_predictions(
        T, P, y_score=SCORES, target_names=names, include_no_label=True, **kwargs
    )
    return {
        "text report": mlcm_classification_report(
            T, P, target_names=names, include_no_label=True, **kwargs
        ),
        "text report with intervals": mlcm_classification_report(
            T,
            P,
            target_names=names,
            confidence_level=0.9,
            n_resamples=99,
            random_state=0,
            **kwargs,
        ),
        "accumulator report": accumulator.classification_report(
            target_names=names, **kwargs
        ),
        "MLCMReport": repr(report),
        "most confused": repr(report.most_confused),
        "label sets": repr(labelset_confusions(T, P, target_names=names)),
        "intervals": repr(
            mlcm_confidence_intervals(
                T, P, target_names=names, n_resamples=99, random_state=0, **kwargs
            )
        ),
        "paired": repr(
            mlcm_paired_comparison(
                T, P, T, target_names=names, n_resamples=99, random_state=0
            )
        ),
        "curve": repr(mlcm_threshold_curve(T, SCORES, target_names=names)),
    }


@pytest.mark.filterwarnings(  # Table 1's rare labels flag its macro intervals
    "ignore:.*intervals flagged:scipy.stats.DegenerateDataWarning"
)
def test_printed_outputs_escape_control_characters_in_names():
    """The text reports and the results' summaries show a name's control
    characters escaped: no escape sequence reaches the terminal and a line
    break in a name splits no row."""
    plain = _printed(PLAIN)
    for what, text in _printed(HOSTILE).items():
        _check_printed(text, plain[what])
        assert "x\\x1b]0;title\\x07" in text or "x\\x1b]0;ti" in text, what
