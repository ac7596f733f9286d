"""The one matplotlib support check of the package (matplotlib is optional)."""

import importlib.util

from sklearn_mlcm._param_validation import current_function

__all__ = ["check_matplotlib_support"]


def check_matplotlib_support():
    """Raise an ImportError with the install hint unless matplotlib is there.

    Called inside ``plot()`` and the ``from_*`` constructors, before matplotlib
    is imported: importing :mod:`sklearn_mlcm` never imports matplotlib. The
    message names the public call under way.
    """
    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError(
            f"{current_function()} requires matplotlib. You can install it with "
            '`pip install matplotlib` or `pip install "sklearn-mlcm[plot]"`.'
        )
