"""The command line, ``sklearn-mlcm`` or ``python -m sklearn_mlcm``.

Argument parsing (:mod:`._parser`), file reading (:mod:`._io`), printing
(:mod:`._format`), the two commands (:mod:`._example`,
:mod:`._report_command`) and the line between input errors and bugs
(:mod:`._errors`); :func:`main` (``_main``) ties them together. The metrics
and the checks of the labels are the library's: this package imports the
public API (:mod:`sklearn_mlcm`) as a user would, and a few of the library's
constants and checks (the validation layers, the report's digits, the
resampling bounds, the paper's data).
"""

from ._main import main

__all__ = ["main"]
