"""CriticalDifferenceDisplay: Demšar's critical-difference diagram.

sklearn_mlcm/compare/_cd_diagram.py, on Eftimov & Kocev (2019), Table 3.
"""

import pytest
from eftimov_tables import METHODS, TABLE_3, rank_frame

from sklearn_mlcm import CriticalDifferenceDisplay, nemenyi_test

# -- CD diagram -----------------------------------------------------------------


@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_cd_diagram_eftimov_table_3(plt):
    """Table 3: names with average ranks; PCT and RF-PCT in no common bar."""
    disp = CriticalDifferenceDisplay.from_rank_table(rank_frame(TABLE_3))
    assert disp.critical_difference == pytest.approx(5.0243, abs=1e-4)
    texts = [t.get_text() for t in disp.text_]
    assert texts[0] == "BR (4.45)" and texts[11] == "RF-PCT (4.00)"
    for clique in disp.cliques_:
        assert not {"PCT", "RF-PCT"} <= set(clique)
    # every pair that is not significant shares a bar
    result = nemenyi_test(TABLE_3)
    for i in range(12):
        for j in range(i + 1, 12):
            shared = any(
                {METHODS[i], METHODS[j]} <= set(clique) for clique in disp.cliques_
            )
            assert shared == (not result.significant[i, j])
    assert disp.figure_ is disp.ax_.figure


def test_cd_diagram_layout(plt):
    """Best half on the left, names right-aligned there; the CD bar's text."""
    disp = CriticalDifferenceDisplay(
        [1.2, 3.5, 2.0, 3.3], 1.0, display_labels=list("abcd")
    )
    disp.plot()
    assert disp.cliques_ == [["a", "c"], ["d", "b"]]
    left = [t.get_text() for t in disp.text_ if t.get_ha() == "right"]
    assert left == ["a (1.20)", "c (2.00)"]
    assert all(t.get_position()[0] < 1 for t in disp.text_ if t.get_ha() == "right")
    assert all(t.get_position()[0] > 4 for t in disp.text_ if t.get_ha() == "left")
    assert "CD = 1.000" in [t.get_text() for t in disp.ax_.texts]


def test_cd_diagram_on_given_axes(plt):
    """Drawing on an existing Axes keeps its figure."""
    fig, ax = plt.subplots()
    disp = CriticalDifferenceDisplay([1.5, 1.5], 0.5).plot(ax=ax)
    assert disp.ax_ is ax and disp.figure_ is fig
    assert disp.cliques_ == [["0", "1"]]


def test_cd_diagram_bad_input(plt):
    """Ranks and names are checked when drawn, under the caller's name."""
    with pytest.raises(
        ValueError,
        match=r"'average_ranks' parameter of CriticalDifferenceDisplay.plot must "
        r"be a 1-D array of at least 2 finite ranks. Got \[1.0\]",
    ):
        CriticalDifferenceDisplay([1.0], 1.0).plot()
    with pytest.raises(
        ValueError, match="one name per method: 2 expected. Got 3 names instead"
    ):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0, display_labels=list("abc")).plot()
    with pytest.raises(
        ValueError,
        match="'display_labels' parameter of CriticalDifferenceDisplay.from_rank_table "
        "must be one name per method: 12 expected",
    ):
        CriticalDifferenceDisplay.from_rank_table(TABLE_3, display_labels=["a"])
    with pytest.raises(TypeError, match="'average_ranks'.*Got values of dtype <U1"):
        CriticalDifferenceDisplay(["1", "2"], 1.0).plot()


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"critical_difference": -1.0}, ValueError, r"range \[0, inf\). Got -1.0"),
        ({"critical_difference": "1"}, TypeError, r"range \[0, inf\). Got '1'"),
        ({"average_ranks": 1.0}, TypeError, "'average_ranks'.*an array-like"),
        ({"display_labels": "ab"}, TypeError, "'display_labels'.*a list or None"),
    ],
    ids=["negative_cd", "string_cd", "scalar_ranks", "string_names"],
)
def test_cd_diagram_constructor_checks_parameters(kwargs, error, match):
    """The constructor refuses wrong types and a negative critical difference."""
    arguments = {"average_ranks": [1.0, 2.0], "critical_difference": 1.0, **kwargs}
    with pytest.raises(error, match="parameter of CriticalDifferenceDisplay must"):
        CriticalDifferenceDisplay(**arguments)
    with pytest.raises(error, match=match):
        CriticalDifferenceDisplay(**arguments)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"ax": "left"}, "'ax' parameter.*implementing 'plot' and 'text' or None"),
        ({"text_kw": "big"}, "'text_kw' parameter.*a dict or None"),
        ({"line_kw": ["red"]}, "'line_kw' parameter.*a dict or None"),
        ({"clique_kw": 4}, "'clique_kw' parameter.*a dict or None"),
    ],
    ids=["ax", "text_kw", "line_kw", "clique_kw"],
)
def test_cd_diagram_plot_checks_parameters(plt, kwargs, match):
    """plot's axes and keyword dicts are checked before anything is drawn."""
    with pytest.raises(TypeError, match="CriticalDifferenceDisplay.plot must"):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0).plot(**kwargs)
    with pytest.raises(TypeError, match=match):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0).plot(**kwargs)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"alpha": 1.5}, ValueError, r"'alpha' parameter.*\[1e-10, 1\)"),
        ({"alpha": "5%"}, TypeError, r"'alpha' parameter.*\[1e-10, 1\)"),
        (
            {"display_labels": {"a", "b"}},
            TypeError,
            "'display_labels' parameter.*a list or None",
        ),
        ({"text_kw": "big"}, TypeError, "'text_kw' parameter.*a dict or None"),
    ],
    ids=["alpha", "alpha_string", "names_set", "text_kw"],
)
def test_cd_diagram_from_rank_table_checks_parameters(plt, kwargs, error, match):
    """from_rank_table checks its own parameters under its own name."""
    with pytest.raises(
        error, match="parameter of CriticalDifferenceDisplay.from_rank_table must"
    ):
        CriticalDifferenceDisplay.from_rank_table(TABLE_3, **kwargs)
    with pytest.raises(error, match=match):
        CriticalDifferenceDisplay.from_rank_table(TABLE_3, **kwargs)


def test_cd_diagram_from_rank_table_bad_table(plt):
    """The rank table's checks name from_rank_table, the call the user made."""
    with pytest.raises(
        ValueError,
        match="'rank_table' parameter of CriticalDifferenceDisplay.from_rank_table",
    ):
        CriticalDifferenceDisplay.from_rank_table([[1, 2, 3], [3, 3, 3]])


def test_cd_diagram_without_matplotlib(monkeypatch):
    """Without matplotlib: an ImportError with the pip hint."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    with pytest.raises(
        ImportError, match="CriticalDifferenceDisplay.plot requires matplotlib.*pip"
    ):
        CriticalDifferenceDisplay([1.0, 2.0], 1.0).plot()
    with pytest.raises(
        ImportError, match="from_rank_table requires matplotlib.*sklearn-mlcm.plot"
    ):
        CriticalDifferenceDisplay.from_rank_table(TABLE_3)
