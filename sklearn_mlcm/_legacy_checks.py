"""TEMPORARY during the restructure: the old hand-written option checks, still
used by modules not yet moved to the decorator. Deleted once unused."""

import numbers

import numpy as np


def check_option(value, options, name, func_name):
    for option in options:
        if value is option or (
            isinstance(value, str) and isinstance(option, str) and value == option
        ):
            return value
    shown = sorted(repr(o) for o in options if o is not None)
    text = "{" + ", ".join(shown) + "}"
    if None in options:
        text += " or None"
    raise ValueError(
        f"The {name!r} parameter of {func_name} must be one of {text}. "
        f"Got {value!r} instead."
    )


def check_bool(value, name, func_name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(
            f"The {name!r} parameter of {func_name} must be True or False. Got "
            f"{value!r} instead."
        )
    return bool(value)


def check_zero_division(zero_division, func_name):
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(
        zero_division, bool
    ):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(
        f"The 'zero_division' parameter of {func_name} must be one of "
        f"{{'warn', 0.0, 1.0, np.nan}}. Got {zero_division!r} instead."
    )
