"""Input errors, told apart from bugs by their type.

An *input error* is one line on stderr and exit status 2; anything else is a
bug and shows as a traceback. Two kinds of exception are input errors:

- :class:`InputError`, which the command line raises itself when a file
  cannot be read as labels (missing, not a regular file, too large, not CSV
  or ``.npy``, a malformed row);
- :class:`~sklearn_mlcm.InvalidInputError`, which the library raises when it
  refuses the user's labels (values other than 0 and 1, mismatched shapes,
  repeated label names) before any computation. :func:`library_refusals` turns
  it into an :class:`InputError` and lets every other exception through.

The decision is the exception's type, not where it was raised, so moving a
check into a helper cannot turn a one-line error into a traceback. Options are
not input errors: argparse checks them against the library's own bounds
(``choices``, ``MAX_DIGITS``), so a refusal of an option by the library's
parameter layer (:class:`~sklearn_mlcm.InvalidParameterError`) means the
command line let a wrong value through, which is a bug.
"""

import contextlib

from sklearn_mlcm import InvalidInputError

__all__ = ["InputError", "library_refusals"]


class InputError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


@contextlib.contextmanager
def library_refusals(describe):
    """Turn the library's refusals of the user's data into :class:`InputError`.

    ``describe(message)`` rewrites the library's message for the command line
    (file names instead of ``y_true``/``y_pred``). Any other exception,
    ``ValueError`` and :class:`~sklearn_mlcm.InvalidParameterError` included,
    propagates unchanged.
    """
    try:
        yield
    except InvalidInputError as exc:
        raise InputError(describe(str(exc))) from None
