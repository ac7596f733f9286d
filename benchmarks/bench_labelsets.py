"""labelset_confusions against the plain NumPy way, side by side.

Issue #19 asked whether the hashing of ``labelset_confusions`` (64-bit keys of
packed rows, with a fallback on collisions) earns its lines against the simple
way: pack each row with ``np.packbits``, ``np.unique(axis=0,
return_counts=True)`` over the (true, predicted) keys, take the largest
counts. Both are timed on the same data in one run, and their top counts
compared.

    python benchmarks/bench_labelsets.py [--rows 1000000] [--repeat 3]
"""

import argparse
import time

import numpy as np

from sklearn_mlcm import labelset_confusions


def _simple(y_true, y_pred, top_k):
    """The plain way: packed rows, np.unique over the pairs, largest counts."""
    wrong = ~(y_true == y_pred).all(axis=1)
    keys = np.concatenate(
        [np.packbits(y_true[wrong], axis=1), np.packbits(y_pred[wrong], axis=1)],
        axis=1,
    )
    _, counts = np.unique(keys, axis=0, return_counts=True)
    return np.sort(counts)[::-1][:top_k]


def _best(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"{args.rows:,} instances, 2% of the cells flipped, top 10 pairs")
    print(
        f"{'q':>4} {'density':>8} {'library ms':>11} {'np.unique ms':>13} "
        f"{'ratio':>6} {'same counts':>12}"
    )
    for q, density in ((20, 0.15), (159, 0.02)):
        y_true = rng.random((args.rows, q)) < density
        y_pred = y_true ^ (rng.random((args.rows, q)) < 0.02)
        ours, found = _best(
            lambda: labelset_confusions(y_true, y_pred, top_k=10), args.repeat
        )
        plain, counts = _best(lambda: _simple(y_true, y_pred, 10), args.repeat)
        same = sorted(c.count for c in found) == sorted(counts.tolist())
        print(
            f"{q:>4} {density:>8} {ours * 1e3:>11.0f} {plain * 1e3:>13.0f} "
            f"{plain / ours:>6.1f} {str(same):>12}"
        )


if __name__ == "__main__":
    main()
