"""pytest in doc/: the doctests of the .rst pages only.

The gallery scripts (examples/plot_*.py) run whole at import time, and
sphinx-gallery copies them into auto_examples/: pytest's --doctest-modules
would run each one (the bibtex example trains a classifier) and then fail on
the duplicate module names. They are run by the documentation build instead.
"""

collect_ignore_glob = ["examples/*", "auto_examples/*", "_build/*"]
