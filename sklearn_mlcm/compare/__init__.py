"""Comparing classifiers over many measures and datasets.

- ``_madjarov``: the multi-label measures of Madjarov et al. (2012);
- ``_eftimov_kocev``: Eftimov & Kocev (2019): entropy weights, PROMETHEE II
  fusion of the measures, measure correlation analysis;
- ``_demsar``: Friedman and Nemenyi tests over datasets (Demšar, 2006);
- ``_cd_diagram``: the critical-difference display.

The public names are exported by :mod:`sklearn_mlcm` itself.
"""
