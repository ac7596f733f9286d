"""The Table 1 report, pinned once: text, markdown, LaTeX and dict.

The classification report of Heydarian et al. (2022), Table 1 (the nine
instances of the README), in each of its outputs, is compared with the files
of ``tests/golden/``: the whole layout (headers, widths, rules, escaping) is
pinned here and only here. Every other test reads a report's numbers by row
and column name (``tests/report_reading.py``, dicts, frames), so that a new
column breaks this file's tests, not every test that prints a report.

When an output changes on purpose, regenerate the files and review their
diff::

    SKLEARN_MLCM_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden.py
    git diff tests/golden/
"""

import json
import os
from pathlib import Path

import pytest
from paper_data import TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import MLCMReport, mlcm_classification_report

GOLDEN = Path(__file__).parent / "golden"
NAMES = ["C0", "C1", "C2"]
OPTIONS = {"target_names": NAMES, "zero_division": 0.0}
REGENERATE = os.environ.get("SKLEARN_MLCM_REGENERATE_GOLDEN") == "1"


def _object():
    return MLCMReport.from_predictions(TABLE_1_TRUE, TABLE_1_PRED, **OPTIONS)


def _dict_text():
    report = mlcm_classification_report(
        TABLE_1_TRUE, TABLE_1_PRED, output_dict=True, **OPTIONS
    )
    return json.dumps(report, indent=2) + "\n"


#: Each output of the Table 1 report, by the name of its golden file.
OUTPUTS = {
    "table1_report.txt": lambda: mlcm_classification_report(
        TABLE_1_TRUE, TABLE_1_PRED, **OPTIONS
    ),
    "table1_report.md": lambda: _object().to_markdown(),
    "table1_report.tex": lambda: _object().to_latex(),
    "table1_report.json": _dict_text,
}


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_table_1_report_matches_its_golden_file(name):
    """Each output of the Table 1 report is its golden file, to the character
    (the dict: to the bit, every value a Python float or int)."""
    got = OUTPUTS[name]()
    path = GOLDEN / name
    if REGENERATE:
        path.write_text(got, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if name.endswith(".json"):
        assert json.loads(got) == json.loads(expected)
        assert list(json.loads(got)) == list(json.loads(expected))  # row order
    else:
        assert got == expected


def test_golden_files_are_the_outputs_tested():
    """tests/golden/ holds exactly the files this module compares."""
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(OUTPUTS)
