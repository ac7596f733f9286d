"""sklearn-mlcm: multi-label confusion matrices with scikit-learn's look and feel.

The 2-D multi-label confusion matrix (MLCM) of Heydarian et al. (2022), the
fractional matrix of Krstinić et al. (2020), the per-class statistics of any
square confusion matrix (Kandza-Tadi 2020) and a classification report read
off the MLCM; and, to compare classifiers, the multi-label measures of Madjarov
et al. (2012), their fusion with PROMETHEE II (Eftimov & Kocev 2019) and the
Friedman and Nemenyi tests across datasets.
"""

from ._accumulator import MLCMAccumulator
from ._confusion import mlcm_confusion_matrix, mlcm_multilabel_confusion_matrix
from ._param_validation import InvalidInputError, InvalidParameterError
from ._plot._confusion_matrix import MLCMDisplay
from ._plot._threshold_curve import MLCMThresholdCurveDisplay
from ._plot._top_confusions import (
    Confusion,
    LabelSetConfusion,
    labelset_confusions,
    most_confused,
    most_confused_labels,
)
from ._report import mlcm_classification_report
from ._reporting._report_object import MLCMReport
from ._scores import (
    make_mlcm_scorer,
    mlcm_f1_score,
    mlcm_fbeta_score,
    mlcm_precision_recall_fscore_support,
    mlcm_precision_score,
    mlcm_recall_score,
    mlcm_scorers,
    mlcm_specificity_score,
)
from ._statistics import confusion_matrix_statistics
from ._thresholds._curve import ThresholdCurveResult, mlcm_threshold_curve
from ._thresholds._decision import decide_labels
from ._thresholds._tuned import MLCMTunedThresholdClassifierCV
from ._uncertainty._intervals import (
    ConfidenceIntervalResult,
    ScoreInterval,
    mlcm_confidence_intervals,
)
from ._uncertainty._paired import PairedComparisonResult, mlcm_paired_comparison
from .compare._cd_diagram import CriticalDifferenceDisplay
from .compare._demsar import FriedmanResult, NemenyiResult, friedman_test, nemenyi_test
from .compare._eftimov_kocev import (
    PrometheeResult,
    entropy_weights,
    fuse_measures,
    least_correlated_measures,
    measure_correlations,
    promethee_ii,
)
from .compare._madjarov import measure_directions, multilabel_measures

__version__ = "0.2.0.dev0"

__all__ = [
    "ConfidenceIntervalResult",
    "Confusion",
    "CriticalDifferenceDisplay",
    "FriedmanResult",
    "InvalidInputError",
    "InvalidParameterError",
    "LabelSetConfusion",
    "MLCMAccumulator",
    "MLCMDisplay",
    "MLCMReport",
    "MLCMThresholdCurveDisplay",
    "MLCMTunedThresholdClassifierCV",
    "NemenyiResult",
    "PairedComparisonResult",
    "PrometheeResult",
    "ScoreInterval",
    "ThresholdCurveResult",
    "__version__",
    "confusion_matrix_statistics",
    "decide_labels",
    "entropy_weights",
    "friedman_test",
    "fuse_measures",
    "labelset_confusions",
    "least_correlated_measures",
    "make_mlcm_scorer",
    "measure_correlations",
    "measure_directions",
    "mlcm_classification_report",
    "mlcm_confidence_intervals",
    "mlcm_confusion_matrix",
    "mlcm_f1_score",
    "mlcm_fbeta_score",
    "mlcm_multilabel_confusion_matrix",
    "mlcm_paired_comparison",
    "mlcm_precision_recall_fscore_support",
    "mlcm_precision_score",
    "mlcm_recall_score",
    "mlcm_scorers",
    "mlcm_specificity_score",
    "mlcm_threshold_curve",
    "most_confused",
    "most_confused_labels",
    "multilabel_measures",
    "nemenyi_test",
    "promethee_ii",
]
