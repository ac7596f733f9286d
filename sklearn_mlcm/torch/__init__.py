"""The MLCM inside PyTorch training loops: a torchmetrics metric.

:class:`MLCMMetric` accumulates the multi-label confusion matrix of a model's
predictions batch by batch, summed across the processes of a distributed
(DDP) evaluation, and hands the accumulated evaluation to
:class:`~sklearn_mlcm.MLCMReport` without the predictions being kept.

- ``_metric``: :class:`MLCMMetric`, thresholding on the tensors' device,
  counting each batch with :class:`~sklearn_mlcm.MLCMAccumulator`'s kernel,
  and building the report from the synchronised counts.

It sits beside ``_reporting`` (it imports the report object, the
accumulator and the display); nothing in the package imports it. It needs
PyTorch and torchmetrics (``pip install "sklearn-mlcm[torch]"``);
``import sklearn_mlcm`` never imports it, nor them.
"""

from ._metric import MLCMMetric

__all__ = ["MLCMMetric"]
