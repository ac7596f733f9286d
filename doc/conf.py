"""Sphinx configuration for sklearn-mlcm.

Build from the repository root with the package installed:

    sphinx-build -W -b html doc doc/_build/html

The movie-poster example of the gallery reads real predictions from a data
folder outside the repository, ``SKLEARN_MLCM_DATA`` (default
``../shared/data``; a relative path is taken from the repository root). In a
clone without that folder the gallery shows a note instead of the picture, and
the build still passes with ``-W``.
"""

import os
from pathlib import Path

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
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
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


# -- The movie-poster example needs data from outside the repository ---------

ROOT = Path(__file__).resolve().parent.parent
POSTERS_INC = Path(__file__).resolve().parent / "generated" / "posters_example.inc"
POSTERS_FILES = ("gt.npy", "pred_t09.npy")


def data_folder():
    """``SKLEARN_MLCM_DATA``, default ``../shared/data``, from the repository root."""
    folder = Path(os.environ.get("SKLEARN_MLCM_DATA", "../shared/data"))
    return (folder if folder.is_absolute() else ROOT / folder).resolve()


def write_posters_example():
    """Write generated/posters_example.inc: the plot, or a note without the data.

    The file is rewritten only when its text changes, so that an unchanged
    gallery page is not rebuilt every time.
    """
    folder = data_folder()
    posters = folder / "posters"
    if all((posters / name).is_file() for name in POSTERS_FILES):
        # the example reads the same folder, whatever the working directory
        os.environ["SKLEARN_MLCM_DATA"] = str(folder)
        text = ".. plot:: examples/plot_movie_posters.py\n"
    else:
        text = (
            ".. note::\n\n"
            "   This example needs the movie-poster predictions (``gt.npy`` and\n"
            "   ``pred_t09.npy``) in ``$SKLEARN_MLCM_DATA/posters`` (by default\n"
            "   ``../shared/data/posters`` from the repository root), which is\n"
            "   not part of the repository. They were not found when this page\n"
            "   was built. The script:\n\n"
            ".. literalinclude:: examples/plot_movie_posters.py\n"
            "   :language: python\n"
        )
    if not POSTERS_INC.is_file() or POSTERS_INC.read_text() != text:
        POSTERS_INC.parent.mkdir(parents=True, exist_ok=True)
        POSTERS_INC.write_text(text)


def setup(app):
    write_posters_example()
