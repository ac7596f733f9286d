"""array_api_strict arrays on a device that refuses NumPy, for the Array API tests.

Importing this module skips the importing test module where array_api_strict
is missing, or under NumPy 1.x (array_api_strict moves arrays between its
devices with NumPy 2's ``asarray(copy=True)``). Arrays made by
:func:`on_device` live on array_api_strict's "device1", which refuses every
conversion to NumPy (``np.asarray`` raises): a public name that drops its
input to NumPy fails on them. :func:`host` copies an array back explicitly,
as the package does for what it reads on the host.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

xps = pytest.importorskip("array_api_strict")
if np.lib.NumpyVersion(np.__version__) < "2.0.0":
    # the oldest declared NumPy (1.23) runs the rest of the suite
    pytest.skip(
        "array_api_strict moves arrays between its devices with NumPy 2's "
        f"asarray(copy=True); NumPy {np.__version__} has no copy argument",
        allow_module_level=True,
    )

__all__ = ["ARRAY", "CPU", "DEVICE", "assert_curves_equal", "host", "on_device", "xps"]

DEVICE = xps.Device("device1")
CPU = xps.Device("CPU_DEVICE")
#: The arrays of a ThresholdCurveResult.
CURVE_ARRAYS = (
    "thresholds",
    "scores",
    "label_scores",
    "ovr_scores",
    "ovr_label_scores",
)
#: The type of array_api_strict's arrays.
ARRAY = type(xps.asarray([1]))


def on_device(y, dtype=None):
    """``y`` as an array_api_strict array on "device1"."""
    return xps.asarray(np.asarray(y, dtype=dtype), device=DEVICE)


def host(x):
    """An array_api_strict array copied to NumPy (explicitly, via the CPU)."""
    return np.asarray(x.to_device(CPU))


def assert_curves_equal(got, expected, exact):
    """Two ThresholdCurveResults: every array equal (or close), same names."""
    for name in CURVE_ARRAYS:
        value, want = getattr(got, name), getattr(expected, name)
        if want is None:
            assert value is None
            continue
        assert isinstance(value, np.ndarray), name
        if exact:
            assert_array_equal(value, want, err_msg=name)
        else:
            assert_allclose(value, want, rtol=1e-12, atol=1e-12, err_msg=name)
    assert got.target_names == expected.target_names
    if exact:
        assert got.best_index == expected.best_index
