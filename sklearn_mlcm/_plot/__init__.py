"""Pictures of an evaluation, and the reading of confusions they draw.

- ``_confusion_matrix``: :class:`~sklearn_mlcm.MLCMDisplay`, the MLCM as a
  picture (like scikit-learn's ``ConfusionMatrixDisplay``);
- ``_threshold_curve``: :class:`~sklearn_mlcm.MLCMThresholdCurveDisplay`;
- ``_top_confusions``: the most confused label pairs and label sets, which
  also choose the labels a large matrix's picture shows;
- ``_array_api``: the label-set confusions of Array API targets (torch,
  CuPy, array_api_strict under ``array_api_dispatch``), counted on their
  device;
- ``_support``: the one check that matplotlib is installed.

It may import everything below the public API; matplotlib is imported inside
``plot()`` only. The public names are exported by :mod:`sklearn_mlcm`.
"""
