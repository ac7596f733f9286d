"""The one message format of refused data, and a short description of an input.

Every data check of the package words its refusals through
:func:`input_error` (``The 'name' parameter of f must be <expected>. Got <got>
instead.``) or describes the refused input with :func:`_describe`; the public
function named is the call under way
(:func:`~sklearn_mlcm._param_validation.current_function`).
"""

from scipy import sparse

from sklearn_mlcm._param_validation import InvalidInputError, current_function

__all__ = [
    "input_error",
]


def input_error(name, expected, got):
    """The one message format of refused data, as an exception to raise:
    ``The 'name' parameter of f must be <expected>. Got <got> instead.``,
    ``got`` already described (a shape, a value, a type)."""
    caller = current_function()
    return InvalidInputError(
        f"The {name!r} parameter of {caller} must be {expected}. Got {got} instead."
    )


def _describe(y):
    """A short description of an input for error messages."""
    if sparse.issparse(y):
        return f"a scipy sparse matrix of shape {y.shape}"
    shape = getattr(y, "shape", None)
    kind = type(y).__name__
    if shape is not None:
        return f"a {kind} of shape {tuple(shape)}"
    return f"a {kind}"
