"""Sphinx configuration for sklearn-mlcm.

Build from the repository root with the package installed:

    sphinx-build -W -b html doc doc/_build/html
"""

import sklearn_mlcm

# -- Project information ------------------------------------------------------

project = "sklearn-mlcm"
author = "The sklearn-mlcm developers"
copyright = "The sklearn-mlcm developers"
release = sklearn_mlcm.__version__
version = ".".join(release.split(".")[:2])

# -- General configuration ----------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
]

# No intersphinx: the build must work offline. References to scikit-learn
# (":func:`~sklearn.metrics.confusion_matrix`", See Also entries) then render
# as plain code literals; they only warn when ``nitpicky`` is on, so keep it off.
nitpicky = False
# Should someone build with -n, do not report the scikit-learn names either.
nitpick_ignore_regex = [(r"py:.*", r"sklearn\..*")]

autosummary_generate = True  # writes doc/generated/*.rst (gitignored)
autodoc_default_options = {"members": False}

numpydoc_show_class_members = False
numpydoc_xref_param_type = False  # parameter types stay plain text
numpydoc_attributes_as_param_list = True

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = []
default_role = "literal"
pygments_style = "sphinx"

# -- HTML output --------------------------------------------------------------

# pydata-sphinx-theme (the "doc" extra) needs no network at build time.
html_theme = "pydata_sphinx_theme"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}

html_title = f"{project} {release}"
html_static_path = []
html_show_sourcelink = False
