"""The MLCM inside PyTorch training loops: a torchmetrics metric.

:class:`MLCMMetric` accumulates the multi-label confusion matrix of a model's
predictions batch by batch, summed across the processes of a distributed
(DDP) evaluation, and hands the accumulated evaluation to
:class:`~sklearn_mlcm.MLCMReport` without the predictions being kept.

This subpackage needs PyTorch and torchmetrics
(``pip install "sklearn-mlcm[torch]"``); ``import sklearn_mlcm`` never
imports it, nor them.
"""

from ._metric import MLCMMetric

__all__ = ["MLCMMetric"]
