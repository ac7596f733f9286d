"""From scores to decisions, and the MLCM at many thresholds.

- ``_decision``: :func:`~sklearn_mlcm.decide_labels`, the decision rules
  (thresholds, top k, at least one label) and the scores of an estimator;
- ``_sweep``: the sweep engine, the MLCM's margins at every threshold of a
  grid at once, the bins and running sums both engines share, and why the
  search keeps an engine of its own;
- ``_array_api``: the decision rule and the margins at many thresholds of
  Array API scores (torch, CuPy, array_api_strict under
  ``array_api_dispatch``), on their device: the sweep's counterpart there;
- ``_curve``: :func:`~sklearn_mlcm.mlcm_threshold_curve` and its result;
- ``_search``: the per-label threshold search of the tuned estimator and
  its engine, the two-state profile of one label's candidates;
- ``_tuned``: :class:`~sklearn_mlcm.MLCMTunedThresholdClassifierCV`;
- ``_stability``: the spread of the thresholds it tunes on each fold
  (``threshold_spread_``) and the rule that calls one unstable.
- ``_validation``: the scores and thresholds validated once
  (:func:`~._validation.validate_scores`, a :class:`~._validation.Scores`;
  Array API scores in their namespace, a :class:`~._validation.DeviceScores`),
  threshold grids and their size; the classifier comparison, the displays and
  the report's scores read them too.

It may import the validation layers, the engine (``sklearn_mlcm._mlcm``),
the public functions below it (``_scores``, ``_statistics``) and the margins
of :mod:`sklearn_mlcm._uncertainty`; the displays (``_plot``) import it.
The public names are exported by :mod:`sklearn_mlcm` itself.
"""
