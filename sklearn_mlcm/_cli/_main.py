"""``main``: parse the arguments, run the command, report errors and warnings.

The one place where exceptions end: an input error
(:class:`~._errors.InputError`) is one line on stderr and exit status 2, a
closed pipe ends quietly, and anything else propagates as the bug it is.
"""

import os
import re
import sys
import warnings

from sklearn_mlcm._summary import escape_controls

from ._errors import InputError
from ._example import example
from ._parser import PROG, build_parser
from ._report_command import report_command

__all__ = ["main"]

_COMMANDS = {None: example, "report": report_command}
#: The library's parameters named in its warnings -> the options that set them.
_OPTIONS = {"zero_division": "--zero-division"}
_PARAMETER = re.compile(r"`(\w+)` parameter")


def _in_cli_words(message):
    """A warning of the library, naming the command line's options instead of
    its parameters: "Use `zero_division` parameter to control this behavior."
    becomes "Use --zero-division to control this behavior."."""
    return _PARAMETER.sub(
        lambda match: _OPTIONS.get(match[1], match[0]), " ".join(message.split())
    )


def main(argv=None):
    """Run the ``sklearn-mlcm`` command line.

    Without a command, print the worked example of Heydarian et al. (2022),
    Table 1: the labels, the MLCM, scikit-learn's one-vs-rest totals beside
    the MLCM's, and the classification report. ``report TRUE PRED`` prints
    the MLCM and the report of the user's own label files.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments, without the program name. None reads ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success; 2 when the arguments or the input files are wrong, after
        one line on stderr (``sklearn-mlcm: error: FILE, line N: ...``); 1 when
        the reader of the output left early (``| head``).

    See Also
    --------
    sklearn_mlcm.mlcm_confusion_matrix : The matrix printed.
    sklearn_mlcm.mlcm_classification_report : The report printed.

    Notes
    -----
    A label file is a CSV of 0/1 values, one row per instance and one column
    per label, whose first row is a header of label names when it is not all
    0/1 and the rows below are, even if some names are numbers (``2005``;
    ``0,1``, pandas' default header over two labels, is refused as ambiguous
    without ``--header yes`` or ``no``); or a ``.npy`` file holding a 2-D 0/1
    array; ``-`` reads one of the two from standard input. Only regular files
    (and standard input) of at most 2 GiB are read, with at most 2000 labels.
    Above 30 labels the matrix is printed only with ``--matrix`` (or written
    as CSV by ``--matrix-out FILE``), and the 10 most confused label pairs and
    label sets are printed instead (``--top-k K``). ``--confidence-level``
    prints each score of the report with its bootstrap interval
    (``--n-resamples``, ``--interval``, ``--seed``, ``--n-jobs``). From a
    shell::

        sklearn-mlcm
        sklearn-mlcm report true.csv pred.csv --method krstinic --normalize true
        sklearn-mlcm report true.npy pred.npy --json
        sklearn-mlcm report true.tsv pred.tsv --delimiter tab --top-k 10
        sklearn-mlcm report true.csv pred.csv --confidence-level 0.95
        python predict.py | sklearn-mlcm report true.csv - --matrix-out mlcm.csv

    Errors in the files (a value other than 0 and 1, a ragged row, files of
    different shapes) are one line on stderr and exit status 2; the checks of
    the values are the library's own. Any other exception is a bug and ends
    in a traceback.

    References
    ----------
    .. [1] M. Heydarian, T. E. Doyle and R. Samavi, "MLCM: Multi-Label
       Confusion Matrix", IEEE Access 10, 19083-19095, 2022.

    Examples
    --------
    >>> from sklearn_mlcm._cli import main
    >>> main([])
    MLCM: Multi-Label Confusion Matrix (Heydarian, Doyle and Samavi,
    ...
    0
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already shown
        return exc.code
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # shown below, one line each
            _COMMANDS[args.command](args)
            sys.stdout.flush()
    except BrokenPipeError:  # the reader left early (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except InputError as exc:
        # a file name or a value quoted in the message may hold controls
        message = escape_controls(" ".join(str(exc).split()))
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    for message in dict.fromkeys(_in_cli_words(str(w.message)) for w in caught):
        print(f"{PROG}: warning: {escape_controls(message)}", file=sys.stderr)
    return 0
