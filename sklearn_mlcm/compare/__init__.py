"""Comparing classifiers over many measures and datasets.

- ``_madjarov``: the multi-label measures of Madjarov et al. (2012);
- ``_eftimov_kocev``: Eftimov & Kocev (2019): entropy weights, PROMETHEE II
  fusion of the measures, measure correlation analysis;
- ``_demsar``: Friedman and Nemenyi tests over datasets (Demšar, 2006);
- ``_cd_diagram``: the critical-difference display;
- ``_validation``: their data checks (decision matrices, study results, rank
  tables, correlation matrices, label scores); the parameters' own values are
  checked by the decorator of :mod:`sklearn_mlcm._param_validation`.

It may import the validation layers, the result helpers, the MLCM's scores
(for the measures) and the displays' matplotlib check; the public names are exported by
:mod:`sklearn_mlcm` itself.
"""
