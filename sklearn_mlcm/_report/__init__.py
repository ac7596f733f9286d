"""The classification report computed from the MLCM: one room for the report.

- ``_classification_report``: :func:`mlcm_classification_report`, its
  constraints (shared with :class:`~sklearn_mlcm.MLCMReport`'s
  constructors) and the one kernel call and bootstrap behind every report;
- ``_table``: the report as named records (:class:`._table.ReportRow`,
  :class:`._table.ReportTable`), its columns derived from the registry of
  statistics, and every way it is written: text, dict, the cells of markdown,
  LaTeX and the page, a pandas frame;
- ``_stream_bounds``: the intervals of an accumulator's report and
  :meth:`~sklearn_mlcm.MLCMAccumulator.confidence_intervals`: Poisson
  bootstrap percentiles, the labels' modified Wilson intervals off the streamed
  moments, flagged as the one-shot report's;
- ``_writers``: the GitHub markdown and LaTeX (booktabs) writers of a table
  of cells, each escaping the names for its format.

It sits beside the public functions (``_confusion``, ``_scores``,
``_accumulator``, ``_uncertainty``), whose layer it shares: it may import the
validation layers, the engine (``sklearn_mlcm._mlcm``), the statistics and
``_uncertainty``; ``_accumulator``, ``_reporting`` and the command line
import it.
"""

from ._classification_report import mlcm_classification_report

__all__ = ["mlcm_classification_report"]
