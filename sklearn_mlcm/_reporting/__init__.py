"""Turning computed results into things a person reads and keeps.

- ``_report_object``: :class:`~sklearn_mlcm.MLCMReport`, one evaluation
  (matrix, classification report, confusions, threshold curve) computed
  once from validated targets, with its tables, pictures and page;
- ``_report_summary``: the report's one-screen summary (its repr): whole
  label names, the headline scores, the most confused pair, the thresholds;
- ``_page``: the self-contained HTML page of a report;
- ``_trackers``: a report logged to MLflow or Weights & Biases (the
  headline scalars, the tables, the page and the picture), the trackers
  imported only there;
- ``_files``: writing a file atomically (a temporary file beside it, then
  a rename), a pipe or a character device directly (never replaced),
  refusing directories, sockets, block devices and unwritable paths.

It sits above the public functions it packages: it may import the
validation layers, the engine (``sklearn_mlcm._mlcm``), the report
(``_report``), ``_uncertainty``, ``_thresholds`` and the displays
(``_plot``); only the package's ``__init__`` and the command line
(``_cli``) import it. matplotlib and pandas are imported inside the methods
that need them. The public names are exported by :mod:`sklearn_mlcm`.
"""
