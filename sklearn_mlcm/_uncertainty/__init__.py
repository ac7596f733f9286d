"""How sure a number is: bootstrap intervals, paired comparison, Poisson streams.

- ``_margins``: the resampling engine; every MLCM score read off three margins
  of the matrix (diagonal, row sums, column sums) of re-weighted instances;
  the rules on the number of resamples;
- ``_units``: the distinct resampling units (true set, predicted set, weight,
  group) of a test set, counted once, and the multinomial draws of them;
- ``_intervals``: :func:`~sklearn_mlcm.mlcm_confidence_intervals` (percentile
  and BCa, whole groups resampled) and the report's intervals;
- ``_paired``: :func:`~sklearn_mlcm.mlcm_paired_comparison`, a paired
  bootstrap and a permutation test of two prediction sets;
- ``_poisson``: the Poisson bootstrap of :class:`~sklearn_mlcm.MLCMAccumulator`;
- ``_parallel``: ``n_jobs`` threads for the resampling.

It may import the validation layers, the engine (``sklearn_mlcm._mlcm``) and
the matrix and its ratios (``_confusion``, ``_statistics``); the report, the
accumulator and the thresholds import it.
The public names are exported by :mod:`sklearn_mlcm` itself.
"""
