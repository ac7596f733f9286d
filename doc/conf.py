"""Sphinx configuration for sklearn-mlcm.

Build from the repository root with the package installed:

    sphinx-build -W -b html doc doc/_build/html

The gallery (sphinx-gallery) runs the scripts of ``doc/examples`` and writes
their pages into ``doc/auto_examples``. The examples on real data read it from
a folder outside the repository, ``SKLEARN_MLCM_DATA`` (default
``../shared/data``; a relative path is taken from the repository root). In a
clone without that folder they print why and stop, and the build still passes
with ``-W``.
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
    "matplotlib.sphinxext.plot_directive",
    "sphinx_gallery.gen_gallery",
]

# No intersphinx: the build must work offline. References to scikit-learn
# (":func:`~sklearn.metrics.confusion_matrix`", See Also entries) then render
# as plain code literals; they only warn when ``nitpicky`` is on, so keep it off.
nitpicky = False
# Should someone build with -n, do not report the scikit-learn names either.
nitpick_ignore_regex = [(r"py:.*", r"sklearn\..*")]

autosummary_generate = True  # writes doc/generated/*.rst (gitignored)
# No autodoc_default_options: a "members" default, even False, would override
# the ":members:" of _templates/autosummary/class.rst (the class methods).

numpydoc_show_class_members = False
numpydoc_xref_param_type = False  # parameter types stay plain text
numpydoc_attributes_as_param_list = True

root_doc = "index"
# examples/ holds the gallery's sources, read by sphinx-gallery, not by Sphinx
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]  # autosummary/class.rst: document the methods
default_role = "literal"
pygments_style = "sphinx"

# -- Plots (matplotlib's plot directive) -------------------------------------

# The code of every plot is shown with its figure; the figure sizes are the
# display's own (0.45 inch per cell), drawn at 100 dpi. No source links: they
# would copy the gallery scripts into doc/_build, where pytest's
# --doctest-modules (testpaths include doc) would import the copies and fail
# on the duplicate module names.
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 100)]

# -- The gallery (sphinx-gallery) -------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    # run every plot_*.py script but the torch ones, shown unrun: the docs'
    # environment has no PyTorch (CI runs them in its torch job)
    "filename_pattern": r"/plot_(?!torch_)",
    "within_subsection_order": "FileNameSortKey",
    "remove_config_comments": True,
    "download_all_examples": True,
    # doc/_templates/autosummary/*.rst add a ".. minigallery::" of the
    # examples that use each public name: these record which do
    "doc_module": ("sklearn_mlcm",),
    "backreferences_dir": "generated/backreferences",  # gitignored with generated/
    # no doc/sg_execution_times.rst in the source tree
    "write_computation_times": False,
}

# -- HTML output --------------------------------------------------------------

# pydata-sphinx-theme (the "doc" extra) needs no network at build time.
html_theme = "pydata_sphinx_theme"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}

html_title = f"{project} {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
# <wbr> after "_", ".", "=" in the code of narrow table columns
html_js_files = ["wrap.js"]
html_show_sourcelink = False


# -- scikit-learn's generated methods -----------------------------------------


def _skip_metadata_request_setters(app, what, name, obj, skip, options):
    """Leave out the ``set_{method}_request`` methods that scikit-learn
    generates on estimators (MLCMTunedThresholdClassifierCV): their docstrings
    cite scikit-learn's glossary and user guide, which this offline build
    cannot link; scikit-learn documents them."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_metadata_request_setters)
