"""The labels of MULAN's data sets, read without liac-arff, for the tests of
the command line (``tests/_cli``) and of the page (``tests/_reporting``).

A module, not a ``conftest.py``, beside ``paper_data.py``: the test modules of
every folder import it by name (pytest's ``prepend`` import mode puts
``tests/`` on ``sys.path``, through ``tests/conftest.py``).
"""

import html
import re

import numpy as np


def mulan_test_labels(folder, name):
    """The labels of a MULAN data set's test split, ``(names, y)``: the names
    from ``NAME.xml``, the 0/1 rows (uint8) from the sparse ARFF
    ``NAME-test.arff``, whose last attributes are the labels."""
    xml = (folder / f"{name}.xml").read_text(encoding="utf-8")
    names = [html.unescape(n) for n in re.findall(r'<label name="([^"]+)"', xml)]
    n_attributes, rows = 0, []
    with open(folder / f"{name}-test.arff", encoding="utf-8") as file:
        for line in file:
            if line.lower().startswith("@attribute"):
                n_attributes += 1
            elif line.startswith("{"):
                rows.append([int(p.split()[0]) for p in line.strip("{}\n").split(",")])
    first = n_attributes - len(names)
    y = np.zeros((len(rows), len(names)), dtype=np.uint8)
    for i, indices in enumerate(rows):
        y[i, [j - first for j in indices if j >= first]] = 1
    return names, y
