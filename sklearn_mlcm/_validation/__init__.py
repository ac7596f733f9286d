"""Data validation: every accepted input form -> one validated object.

A public call validates its data once, through the one entry point of its
targets, :func:`~._targets.validate_targets` (a :class:`~._targets.Targets`:
packed targets, label space and names, weights, groups, how the input was
read); the layers below take that object and never the raw input again.

- ``_messages``: the one message format of refused data;
- ``_frames``: reading frames of any library (pandas, polars, pyarrow,
  xarray, the Arrow stream, the interchange protocol), their column names,
  and aligning frames by label name;
- ``_label_space``: the two targets (indicator matrices, sparse matrices,
  frames, 1-D class labels) read and checked into one label space, the
  labels to keep;
- ``_matrices``: a square matrix given by the user, the size of a dense one
  to be built;
- ``_dask``: the checks of dask input before anything is computed (its
  chunks are checked where the engine, ``_mlcm._dask``, counts them);
- ``_array_api``: Array API targets (torch, CuPy, array_api_strict) under
  scikit-learn's ``array_api_dispatch``, checked in their own namespace, on
  ``y_pred``'s device;
- ``_targets``: :func:`~._targets.validate_targets` and its result, the
  weights, the groups, the rule of display names.

The checks of a caller's own data sit beside it: the scores and thresholds
in :mod:`sklearn_mlcm._thresholds._validation`, the accumulator's batches in
:mod:`sklearn_mlcm._batch_checks`, the classifier comparison's in
:mod:`sklearn_mlcm.compare._validation`.

The parameters' own types and options are checked before, by the decorator
of :mod:`sklearn_mlcm._param_validation`; error messages here name the same
public function, the public call under way, which the decorator records in a
context variable (:func:`~sklearn_mlcm._param_validation.current_function`).
The kernels downstream assume what these functions guarantee and check
nothing themselves. This package imports only
:mod:`sklearn_mlcm._param_validation`; every other module may import it.
"""
