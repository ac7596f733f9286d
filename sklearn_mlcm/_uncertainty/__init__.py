"""How sure a number is: bootstrap intervals, paired comparison, Poisson streams.

- ``_margins``: the margins of the MLCM (diagonal, row sums, column sums) of
  single instances, and every score read off margins; the rules on the
  number of resamples;
- ``_table``: the table of distinct units (true set, predicted set, weight,
  group) of a test set, counted once, read by kinds (intervals) or instance
  by instance (paired comparison), and the multinomial draws of them; its
  docstring holds the vocabulary (margins, pair, unit, kind, table);
- ``_intervals``: :func:`~sklearn_mlcm.mlcm_confidence_intervals` (whole
  groups resampled) and the report's intervals: the table of units, the
  memory bound and the steps of one call, in turn;
- ``_resampling``: a call's options (``Call``) and its resamples, drawn and
  scored, the jackknife's and the samples averages' too;
- ``_bounding``: each score's interval off a call's resamples (modified
  Wilson score intervals, the macro bootstrap-t, percentile or BCa bounds),
  flagged, and the call's one warning;
- ``_bounds``: the percentile and BCa bounds of bootstrap distributions, and
  the words of the warning (flagged intervals, estimates outside their own
  interval);
- ``_interval_result``: the intervals' results
  (:class:`~sklearn_mlcm.ScoreInterval`,
  :class:`~sklearn_mlcm.ConfidenceIntervalResult`) and their packaging;
- ``_score_intervals``: score intervals (modified Wilson, Wilson, Jeffreys)
  of per-label ratios on the design-effect number of trials, which keep their
  coverage
  at no hit, and the bootstrap-t interval of a macro average, off the
  units' one-vs-rest counts read once per call;
- ``_flags``: the short reason an interval cannot be trusted (undefined,
  few positives, many rare labels in a macro average, a bootstrap-t widened
  to its estimate), or None;
- ``_paired``: :func:`~sklearn_mlcm.mlcm_paired_comparison`, a paired
  bootstrap and a permutation test of two prediction sets;
- ``_poisson``: the Poisson bootstrap of :class:`~sklearn_mlcm.MLCMAccumulator`;
- ``_stream_intervals``: the accumulator's running sums of the score
  intervals' moments and the labels' effective counts, and the report's
  rules (modified Wilson intervals, flags, the one warning) applied to its
  intervals;
- ``_parallel``: ``n_jobs`` threads for the resampling.

It may import the validation layers, the engine (``sklearn_mlcm._mlcm``) and
the matrix and its ratios (``_confusion``, ``_statistics``); the report, the
accumulator and the thresholds import it.
The public names are exported by :mod:`sklearn_mlcm` itself.
"""
