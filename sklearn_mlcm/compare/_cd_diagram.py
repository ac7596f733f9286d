"""CriticalDifferenceDisplay: Demšar's critical-difference diagram (matplotlib)."""

from numbers import Real

import numpy as np

from sklearn_mlcm._param_validation import (
    HasMethods,
    Interval,
    Sequence,
    validate_params,
)
from sklearn_mlcm._plot._support import check_matplotlib_support

from ._demsar import MIN_ALPHA, nemenyi_test
from ._validation import check_average_ranks

__all__ = ["CriticalDifferenceDisplay"]

#: The constraints of ``plot``'s keywords, shared with ``from_rank_table``.
_PLOT_CONSTRAINTS = {
    "ax": [HasMethods("plot", "text"), None],
    "text_kw": [dict, None],
}


def _cliques(sorted_ranks, critical_difference):
    """Maximal runs ``(first, last)`` of sorted ranks within the CD of each other.

    A run is a group of methods no two of which differ significantly
    (difference at most ``critical_difference``); runs inside a longer one and
    single methods are left out.
    """
    runs, reach = [], -1
    k = len(sorted_ranks)
    for first in range(k):
        last = first
        while last + 1 < k and (
            sorted_ranks[last + 1] - sorted_ranks[first] <= critical_difference
        ):
            last += 1
        if last > first and last > reach:
            runs.append((first, last))
            reach = last
    return runs


class CriticalDifferenceDisplay:
    """Critical-difference diagram of average ranks (Demšar 2006).

    The methods sit on an axis of average ranks, the best (rank 1) on the
    left, with their names at the sides; a thick bar joins each group of
    methods whose ranks differ by no more than the critical difference of the
    Nemenyi test (not significantly different), and a bar of that length is
    drawn above the axis. It is recommended to create it with
    :meth:`from_rank_table`; :meth:`plot` draws it.

    Read more in the :ref:`User Guide <fusion>`.

    Parameters
    ----------
    average_ranks : array-like of shape (n_methods,)
        The average rank of each method, 1 the best; at least 2, finite
        (checked by :meth:`plot`).

    critical_difference : float
        The critical difference, >= 0, e.g. :func:`nemenyi_test`'s.

    display_labels : list of str of shape (n_methods,), default=None
        The method names drawn beside the axis; by default their indices.

    Attributes
    ----------
    text_ : ndarray of shape (n_methods,), dtype=matplotlib Text
        The name of each method, in the order of ``average_ranks``.

    cliques_ : list of list
        The names joined by each bar, best first.

    ax_ : matplotlib Axes
        Axes with the diagram.

    figure_ : matplotlib Figure
        Figure containing the diagram.

    See Also
    --------
    nemenyi_test : The critical difference and the average ranks.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_mlcm import CriticalDifferenceDisplay
    >>> ranks = [[1, 2, 3, 4], [1, 3, 2, 4], [2, 1, 3, 4], [1, 2, 4, 3],
    ...          [1, 2, 3, 4], [2, 1, 3, 4]]
    >>> disp = CriticalDifferenceDisplay.from_rank_table(
    ...     ranks, display_labels=["RF", "kNN", "BR", "tree"])
    >>> round(disp.critical_difference, 3)
    1.915
    >>> disp.cliques_
    [['RF', 'kNN', 'BR'], ['BR', 'tree']]
    >>> [t.get_text() for t in disp.text_]
    ['RF (1.33)', 'kNN (1.83)', 'BR (3.00)', 'tree (3.83)']
    """

    @validate_params(
        {
            "average_ranks": ["array-like"],
            "critical_difference": [Interval(Real, 0, None, closed="left")],
            "display_labels": [Sequence(), None],
        }
    )
    def __init__(self, average_ranks, critical_difference, *, display_labels=None):
        self.average_ranks = average_ranks
        self.critical_difference = critical_difference
        self.display_labels = display_labels

    @validate_params(
        {**_PLOT_CONSTRAINTS, "line_kw": [dict, None], "clique_kw": [dict, None]}
    )
    def plot(self, *, ax=None, text_kw=None, line_kw=None, clique_kw=None):
        """Plot the diagram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on (its frame is hidden). By default a new figure,
            8 inches wide and 0.3 inch high per method on each side.

        text_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.text` for the names.

        line_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.plot` for the axis
            and the lines to the names.

        clique_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.plot` for the bars
            joining methods that do not differ significantly.

        Returns
        -------
        display : CriticalDifferenceDisplay
            Returns ``self`` with ``text_``, ``cliques_``, ``ax_`` and
            ``figure_``.
        """
        check_matplotlib_support()
        import matplotlib.pyplot as plt

        ranks, names = check_average_ranks(self.average_ranks, self.display_labels)
        k = ranks.size
        cd = float(self.critical_difference)

        order = np.argsort(ranks, kind="stable")
        runs = _cliques(ranks[order], cd)
        n_left = (k + 1) // 2
        low = min(1.0, float(np.floor(ranks.min())))
        high = max(float(k), float(np.ceil(ranks.max())))
        span = high - low
        # vertical layout, downwards: CD bar, axis at 0, cliques, names
        clique_step, name_step = 0.25, 0.5
        first_name = 0.5 + clique_step * max(len(runs), 1)
        n_rows = max(n_left, k - n_left)

        new_figure = ax is None
        if new_figure:
            fig, ax = plt.subplots(figsize=(8.0, 1.6 + 0.3 * n_rows))
        else:
            fig = ax.figure
        line_kw = {"color": "black", "linewidth": 1.0, **(line_kw or {})}
        clique_kw = {"color": "black", "linewidth": 4.0, **(clique_kw or {})}
        text_kw = {"va": "center", "fontsize": 10, **(text_kw or {})}

        ax.plot([low, high], [0, 0], **line_kw)
        for tick in range(int(low), int(high) + 1):
            ax.plot([tick, tick], [0, -0.15], **line_kw)
            ax.text(tick, -0.25, str(tick), ha="center", va="bottom")
        ax.plot([low, low + cd], [-0.9, -0.9], **line_kw)
        for end in (low, low + cd):
            ax.plot([end, end], [-0.95, -0.85], **line_kw)
        ax.text(low + cd / 2, -1.0, f"CD = {cd:.3f}", ha="center", va="bottom")

        for row, (first, last) in enumerate(runs):
            y = 0.25 + clique_step * row
            ax.plot(
                [ranks[order[first]] - 0.03, ranks[order[last]] + 0.03],
                [y, y],
                **clique_kw,
            )

        self.text_ = np.empty(k, dtype=object)
        edge = 0.12 * span + 0.15
        for position, method in enumerate(order):
            left = position < n_left
            row = position if left else k - 1 - position
            y = first_name + name_step * row
            x_end = low - edge if left else high + edge
            ax.plot([ranks[method], ranks[method], x_end], [0, y, y], **line_kw)
            label = f"{names[method]} ({ranks[method]:.2f})"
            self.text_[method] = ax.text(
                x_end + (-0.05 if left else 0.05),
                y,
                label,
                ha="right" if left else "left",
                **text_kw,
            )

        ax.set_xlim(low - 0.45 * span - 0.8, high + 0.45 * span + 0.8)
        ax.set_ylim(first_name + name_step * n_rows, -1.3)
        ax.set_axis_off()
        if new_figure:
            fig.tight_layout()

        self.cliques_ = [
            [names[order[i]] for i in range(first, last + 1)] for first, last in runs
        ]
        self.ax_ = ax
        self.figure_ = fig
        return self

    @classmethod
    @validate_params(
        {
            "rank_table": ["array-like"],
            "alpha": [Interval(Real, MIN_ALPHA, 1, closed="left")],
            "display_labels": [Sequence(), None],
            **_PLOT_CONSTRAINTS,
        },
    )
    def from_rank_table(
        cls, rank_table, *, alpha=0.05, display_labels=None, ax=None, text_kw=None
    ):
        """Run :func:`nemenyi_test` on a rank table and draw the diagram.

        Read more in the :ref:`User Guide <fusion>`.

        Parameters
        ----------
        rank_table : array-like or DataFrame of shape (n_datasets, n_methods)
            The rank of each method (column) on each dataset (row), as
            :func:`fuse_measures` returns it.

        alpha : float, default=0.05
            The significance level of the Nemenyi test, in [1e-10, 1).

        display_labels : list of str of shape (n_methods,), default=None
            The method names, one per column of the rank table; by default the
            columns of a DataFrame, else their indices.

        ax : matplotlib Axes, default=None
            Axes to plot on; by default a new figure (see :meth:`plot`).

        text_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.text` for the names.

        Returns
        -------
        display : CriticalDifferenceDisplay
            The drawn display, with ``text_``, ``cliques_``, ``ax_`` and
            ``figure_``.
        """
        check_matplotlib_support()
        result = nemenyi_test(rank_table, alpha=alpha)
        display = cls(
            result.average_ranks,
            result.critical_difference,
            display_labels=(
                result.names if display_labels is None else list(display_labels)
            ),
        )
        return display.plot(ax=ax, text_kw=text_kw)
