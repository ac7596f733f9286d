"""Reading label files: a CSV of 0/1 values or a ``.npy`` array, within bounds.

A label file has one row per instance and one column per label. A CSV may
start with a header row of label names; a ``.npy`` file holds a 2-D array.
This module turns the file into numbers and says which line is malformed; it
does not decide which numbers are valid labels: the library's validation
does, when the command runs (see :mod:`._errors`).

Reading is bounded in memory and time, whatever the file claims to be:

- only regular files are opened (a FIFO would block, ``/dev/zero`` never
  ends), and at most :data:`MAX_FILE_BYTES` of them;
- a ``.npy`` header is read first, and its shape times its item size must fit
  in the file before any array is allocated;
- a CSV is read line by line (at most :data:`MAX_LINE_CHARS` per line and
  :data:`MAX_FIELD_CHARS` per value) into one byte per 0/1 value, and has at
  most :data:`MAX_LABELS` columns.

Each refusal is an :class:`~._errors.InputError` naming the file (and the
line when there is one).
"""

import array
import contextlib
import csv
import io
import math
import os
import re
import stat
from dataclasses import dataclass
from itertools import islice

import numpy as np
from numpy.lib import format as npy_format

from ._errors import InputError

__all__ = [
    "MAX_FIELD_CHARS",
    "MAX_FILE_BYTES",
    "MAX_LABELS",
    "MAX_LINE_CHARS",
    "LabelFile",
    "read_labels",
]

#: The largest label file read, in bytes (2 GiB).
MAX_FILE_BYTES = 2 * 2**30
#: The longest CSV line, in characters, line ending included.
MAX_LINE_CHARS = 2**20
#: The longest CSV value or label name, in characters.
MAX_FIELD_CHARS = 1024
#: The most label columns: the MLCM printed has one row and one column each.
MAX_LABELS = 2000

_EXPECTED = "expected a CSV or .npy file of labels"
# open() of a FIFO blocks until a writer comes; O_NONBLOCK returns at once.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# Bytes that are not UTF-8, decoded with errors="surrogateescape".
_NOT_UTF8 = re.compile("[\udc80-\udcff]")
# "0" and "1" as ASCII bytes -> the bytes 0 and 1.
_ASCII_BITS = bytes.maketrans(b"01", b"\x00\x01")


@dataclass(frozen=True)
class LabelFile:
    """The numbers of a label file and what the error messages need.

    Attributes
    ----------
    path : str
        The file, as the user named it.
    values : ndarray of shape (n_rows, n_columns)
        The numbers as read, not validated: for a CSV uint8 when every value
        is 0 or 1, else int64 or float64; for ``.npy`` the array as saved.
    names : list of str or None
        The label names of the CSV header row, if any.
    names_line : int or None
        The line of the header row.
    """

    path: str
    values: np.ndarray
    names: list = None
    names_line: int = None

    @property
    def is_csv(self):
        """Whether the file was read as CSV (its name does not end in .npy)."""
        return not self.path.lower().endswith(".npy")

    def position(self, row, column):
        """Where the value ``values[row, column]`` is, in the user's words.

        ``"line 4, column 2"`` for a CSV (read again to count its blank
        lines; only error messages need it), ``"row 4, column 2"`` otherwise.
        """
        if self.is_csv:
            skip = row + (self.names is not None)
            with _csv_records(self.path) as records:
                for line, _ in islice(records, skip, None):
                    return f"line {line}, column {column + 1}"
        return f"row {row + 1}, column {column + 1}"  # or the CSV has changed


def read_labels(path, header="auto"):
    """Read a label file: a CSV of 0/1 values or a ``.npy`` 2-D array.

    Parameters
    ----------
    path : str
        The file; ``.npy`` (any case) is read as NumPy's format, anything else
        as CSV.
    header : {"auto", "yes", "no"}, default="auto"
        Whether the first CSV row names the labels; "auto": when none of its
        values is a number.

    Returns
    -------
    LabelFile
    """
    if path.lower().endswith(".npy"):
        with _open(path) as (file, size):
            return LabelFile(path, _read_npy(path, file, size))
    with _csv_records(path) as records:
        return _read_csv(path, records, header)


# Opening -------------------------------------------------------------------


def _kind(mode):
    """What a file that is not a regular file is."""
    kinds = [
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((kind for test, kind in kinds if test(mode)), "a special file")


def _check_stat(path, status):
    """Refuse anything but a regular file of at most MAX_FILE_BYTES."""
    if not stat.S_ISREG(status.st_mode):
        raise InputError(
            f"{path}: not a regular file but {_kind(status.st_mode)}; {_EXPECTED}"
        )
    if status.st_size > MAX_FILE_BYTES:
        raise InputError(
            f"{path}: {status.st_size} bytes, more than the {MAX_FILE_BYTES} "
            f"bytes ({MAX_FILE_BYTES / 2**30:g} GiB) this command reads"
        )


@contextlib.contextmanager
def _open(path):
    """Open a regular file for reading; yield ``(binary file, size)``.

    ``os.stat`` (which follows symbolic links) refuses special files before
    they are opened; ``os.fstat`` checks again what was opened, in case the
    path changed in between.
    """
    try:
        _check_stat(path, os.stat(path))
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from None
    with open(fd, "rb") as file:
        status = os.fstat(fd)
        _check_stat(path, status)
        yield file, status.st_size


# .npy ------------------------------------------------------------------------

_NPY_HEADERS = {
    (1, 0): npy_format.read_array_header_1_0,
    (2, 0): npy_format.read_array_header_2_0,
}


def _read_npy(path, file, size):
    """The array of a ``.npy`` file, once its header fits the file's size."""
    unreadable = f"{path}: cannot read it as a NumPy .npy file"
    if file.read(4) == b"PK\x03\x04":
        raise InputError(f"{path}: expected one NumPy array, found an .npz archive")
    file.seek(0)
    try:
        version = npy_format.read_magic(file)
        read_header = _NPY_HEADERS.get(version)
        if read_header is None:
            raise InputError(
                f"{path}: NumPy .npy format version {version[0]}.{version[1]}; "
                "expected version 1.0 or 2.0"
            )
        shape, _, dtype = read_header(file)
    except (ValueError, SyntaxError, EOFError):
        raise InputError(unreadable) from None
    if dtype.hasobject:
        raise InputError(
            f"{path}: the array holds Python objects (dtype {dtype}), which are "
            "not loaded; expected 0/1 numbers"
        )
    if len(shape) != 2:
        raise InputError(
            f"{path}: expected a 2-D array (one row per instance, one column per "
            f"label), found shape {shape}"
        )
    data_bytes = math.prod(shape) * dtype.itemsize
    if data_bytes > size - file.tell():
        raise InputError(
            f"{path}: the header announces an array of shape {shape} and dtype "
            f"{dtype}, {data_bytes} bytes, but the file holds "
            f"{size - file.tell()} bytes of data"
        )
    file.seek(0)
    try:
        return npy_format.read_array(file, allow_pickle=False)
    except (ValueError, EOFError, OSError):
        raise InputError(unreadable) from None


# CSV -------------------------------------------------------------------------


def _lines(path, text):
    """The lines of a text stream, each UTF-8 and at most MAX_LINE_CHARS long.

    ``text`` decodes with ``errors="surrogateescape"``, so that a byte that is
    not UTF-8 is found on its own line rather than in the chunk read ahead.
    """
    number = 0
    while line := text.readline(MAX_LINE_CHARS + 1):
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise InputError(
                f"{path}, line {number}: longer than {MAX_LINE_CHARS} characters; "
                "expected a CSV file of 0/1 values"
            )
        if _NOT_UTF8.search(line):
            raise InputError(
                f"{path}, line {number}: not UTF-8 text; expected a CSV file of "
                "0/1 values"
            )
        yield line


@contextlib.contextmanager
def _csv_records(path):
    """Open a CSV file; yield an iterator of ``(line number, values)`` of each
    non-blank row, each value at most MAX_FIELD_CHARS long."""

    def records(reader):
        try:
            for row in reader:
                if row and not (len(row) == 1 and not row[0].strip()):
                    yield reader.line_num, row
        except csv.Error as exc:
            if "field limit" in str(exc):
                raise InputError(
                    f"{path}, line {reader.line_num}: a value longer than "
                    f"{MAX_FIELD_CHARS} characters; expected 0/1 values and label "
                    "names"
                ) from None
            raise InputError(f"{path}, line {reader.line_num}: {exc}") from None

    previous = csv.field_size_limit(MAX_FIELD_CHARS)  # process-wide: restored
    try:
        with (
            _open(path) as (file, _),
            io.TextIOWrapper(
                file, encoding="utf-8-sig", errors="surrogateescape", newline=""
            ) as text,
        ):
            yield records(csv.reader(_lines(path, text)))
    finally:
        csv.field_size_limit(previous)


def _number(text):
    """``text`` as a float, or None when it is not a number."""
    try:
        return float(text)
    except ValueError:
        return None


def _header(path, line, row, header):
    """The label names of the first row, or None when it is data."""
    numeric = [_number(field) is not None for field in row]
    if header != "auto":  # the user said whether line 1 is a header
        numeric = [header == "no"] * len(row)
    if all(numeric):
        return None
    if any(numeric):
        # Neither a header (all names) nor data (all numbers): most likely a
        # typo in the first data row, which must not silently become a header.
        j = numeric.index(False) if numeric[0] else numeric.index(True)
        raise InputError(
            f"{path}, line {line}, column {j + 1}: the first row mixes numbers "
            "and names; a header row must name every label and a data row must "
            f"hold only 0 and 1, found {row[j].strip()!r}"
        )
    names = [field.strip() for field in row]
    if "" in names:
        raise InputError(
            f"{path}, line {line}: the header has no label name in column "
            f"{names.index('') + 1}"
        )
    return names


def _parse_row(path, line, row):
    """The numbers of one data row, and the narrowest typecode that holds them:
    ``"B"`` for 0 and 1, ``"q"`` for other integers, ``"d"`` for the rest."""
    numbers, typecode = [], "B"
    for j, field in enumerate(row):
        value = _number(field)
        if value is None:
            hint = ""
            if ";" in field or "\t" in field:
                hint = " (values must be separated by commas)"
            raise InputError(
                f"{path}, line {line}, column {j + 1}: expected 0 or 1, found "
                f"{field.strip()!r}{hint}"
            )
        if value in (0.0, 1.0):
            numbers.append(int(value))
        elif value.is_integer() and -(2**63) <= value < 2**63:
            numbers.append(int(value))
            typecode = "d" if typecode == "d" else "q"
        else:
            numbers.append(value)
            typecode = "d"
    return numbers, typecode


_DTYPES = {"B": np.uint8, "q": np.int64, "d": np.float64}  # narrowest first


def _read_csv(path, records, header):
    """The values and the optional header of a CSV file, row by row.

    Every 0/1 value takes one byte (an ``array("B")``). At the first other
    number the values read so far widen to int64 (or float64 for a fraction),
    so that the library sees the number as written and names it.
    """
    first = next(records, None)
    if first is not None and len(first[1]) > MAX_LABELS:
        raise InputError(
            f"{path}, line {first[0]}: {len(first[1])} columns, more than the "
            f"{MAX_LABELS} labels this command handles"
        )
    names = names_line = None
    if first is not None:
        names = _header(path, *first, header)
        if names is None:
            records = _chain_first(first, records)
        else:
            names_line = first[0]
    values = array.array("B")
    n_values = names and len(names)
    n_rows = 0
    for line, row in records:
        n_values = n_values or len(row)
        if len(row) != n_values:
            raise InputError(
                f"{path}, line {line}: expected {n_values} values, found {len(row)}"
            )
        joined = "".join(row)
        if (
            values.typecode == "B"
            and len(joined) == len(row)
            and not joined.strip("01")
        ):  # the usual row: every value is one character, "0" or "1"
            values.frombytes(joined.encode("ascii").translate(_ASCII_BITS))
        else:
            numbers, typecode = _parse_row(path, line, row)
            if list(_DTYPES).index(typecode) > list(_DTYPES).index(values.typecode):
                values = array.array(typecode, values)
            values.extend(numbers)
        n_rows += 1
    if n_rows == 0:
        raise InputError(f"{path}: no data rows; expected one row per instance")
    matrix = np.frombuffer(values, dtype=_DTYPES[values.typecode])
    return LabelFile(path, matrix.reshape(n_rows, n_values), names, names_line)


def _chain_first(first, rest):
    yield first
    yield from rest
