"""Heydarian et al. (2022), Table 1: scikit-learn's one-vs-rest vs the MLCM's.

Prints scikit-learn's ``multilabel_confusion_matrix`` for the nine instances of
Table 1 (the paper's Table 2) beside ``mlcm_multilabel_confusion_matrix``
(Table 7), with their FN / FP / TP / TN totals, and times both on the same
input.

    python benchmarks/bench_table1.py [--repeat 2000]
"""

import argparse
import timeit

import numpy as np
from sklearn.metrics import multilabel_confusion_matrix

from sklearn_mlcm import mlcm_confusion_matrix, mlcm_multilabel_confusion_matrix
from sklearn_mlcm._paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

Y_TRUE = np.array(TABLE_1_TRUE)
Y_PRED = np.array(TABLE_1_PRED)


def _print_stack(title, names, mcm):
    print(title)
    print("  " + "".join(f"{name:>12}" for name in [*names, "Sum"]))
    total = mcm.sum(axis=0)
    for row in range(2):
        cells = [f"{m[row, 0]:>4} {m[row, 1]:>3}" for m in [*mcm, total]]
        print("  " + "".join(f"{c:>12}" for c in cells))
    tn, fp, fn, tp = total.ravel()
    print(f"  totals: FN = {fn}, FP = {fp}, TP = {tp}, TN = {tn}")
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000, help="timing loops")
    args = parser.parse_args(argv)

    print("Heydarian et al. (2022), Table 1: 9 instances, 3 classes")
    print("rows [[TN, FP], [FN, TP]] per class\n")
    sk = multilabel_confusion_matrix(Y_TRUE, Y_PRED)
    _print_stack("Table 2: scikit-learn multilabel_confusion_matrix", TABLE_1_NAMES, sk)
    ours = mlcm_multilabel_confusion_matrix(Y_TRUE, Y_PRED, tn="diagonal")
    _print_stack(
        "Table 7: sklearn_mlcm mlcm_multilabel_confusion_matrix (tn='diagonal')",
        [*TABLE_1_NAMES, "NTL"],
        ours,
    )
    print("Table 4 (j): the MLCM (rows C0 C1 C2 NTL, columns C0 C1 C2 NPL)")
    print(mlcm_confusion_matrix(Y_TRUE, Y_PRED))
    print()

    timer = timeit.Timer
    t_sk = min(
        timer(lambda: multilabel_confusion_matrix(Y_TRUE, Y_PRED)).repeat(
            5, args.repeat
        )
    )
    t_ours = min(
        timer(lambda: mlcm_multilabel_confusion_matrix(Y_TRUE, Y_PRED)).repeat(
            5, args.repeat
        )
    )
    per = 1e6 / args.repeat
    print(f"{'function':<40}{'us per call':>14}{'ratio':>8}")
    print(f"{'multilabel_confusion_matrix':<40}{t_sk * per:>14.1f}{1.0:>8.2f}")
    print(
        f"{'mlcm_multilabel_confusion_matrix':<40}{t_ours * per:>14.1f}"
        f"{t_ours / t_sk:>8.2f}"
    )


if __name__ == "__main__":
    main()
