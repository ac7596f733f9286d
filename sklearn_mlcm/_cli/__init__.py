"""The command line, ``sklearn-mlcm`` or ``python -m sklearn_mlcm``.

Argument parsing (:mod:`._parser`), file reading (:mod:`._io`), printing
(:mod:`._format`), the two commands (:mod:`._example`,
:mod:`._report_command`) and the line between input errors and bugs
(:mod:`._errors`); :func:`main` ties them together. The metrics and the
checks of the labels are the library's.
"""

from ._main import main

__all__ = ["main"]
