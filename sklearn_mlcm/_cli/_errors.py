"""Input errors, told apart from bugs.

An *input error* is one line on stderr and exit status 2; anything else is a
bug and shows as a traceback. Two things are input errors:

- :class:`InputError`, which the command line raises itself when a file
  cannot be read as labels (missing, not a regular file, too large, not CSV
  or ``.npy``, a malformed row);
- a ``ValueError`` or ``TypeError`` raised by the library's data validation,
  :mod:`sklearn_mlcm._validation`, which refuses the user's labels (values
  other than 0 and 1, mismatched shapes, repeated label names) before any
  computation. :func:`library_refusals` turns it into an :class:`InputError`
  and lets every other exception through.

The options are not in that list: argparse checks them against the library's
own bounds (``choices``, ``MAX_DIGITS``), so a refusal of an option by the
library's parameter layer means the command line let a wrong value through,
which is a bug.
"""

import contextlib

from sklearn_mlcm import _validation

__all__ = ["InputError", "library_refusals", "raised_by_validation"]


class InputError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def raised_by_validation(exc):
    """Whether ``exc`` is a refusal raised by the library's data validation.

    True for a ``ValueError`` or ``TypeError`` whose innermost frame is in
    :mod:`sklearn_mlcm._validation`: raised there on purpose, with a message
    for the user. The same exceptions raised anywhere else (a kernel, NumPy
    called from the validation) are not refusals of the input.
    """
    if not isinstance(exc, (ValueError, TypeError)) or exc.__traceback__ is None:
        return False
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_globals.get("__name__") == _validation.__name__


@contextlib.contextmanager
def library_refusals(describe):
    """Turn the library's refusals of the user's data into :class:`InputError`.

    ``describe(message)`` rewrites the library's message for the command line
    (file names instead of ``y_true``/``y_pred``). Any other exception,
    ``ValueError`` included, propagates unchanged.
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        if not raised_by_validation(exc):
            raise
        raise InputError(describe(str(exc))) from None
