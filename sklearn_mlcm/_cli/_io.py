"""Reading label files (a CSV of 0/1 values or a ``.npy`` array, within
bounds) and writing the matrix as CSV.

A label file has one row per instance and one column per label. A CSV may
start with a header row of label names (its values are separated by commas,
or by the ``--delimiter`` given), told from data as real files have it: a
first row that is not all 0/1 above rows that are names the labels, even
when some names are numbers (bibtex's ``2005``, delicious's ``2.0``), and
without the ``"# "`` that :func:`numpy.savetxt` writes before its header; a
``.npy`` file holds a 2-D array. The path
``-`` reads standard input, a CSV or a ``.npy`` array (told by its first
bytes).
This module turns the file into numbers and says which line is malformed; it
does not decide which numbers are valid labels: the library's validation
does, when the command runs (see :mod:`._errors`).

Reading is bounded in memory and time, whatever the file claims to be:

- only regular files are opened (a FIFO would block, ``/dev/zero`` never
  ends), and at most :data:`MAX_FILE_BYTES` of them; standard input is
  copied in chunks to a temporary buffer (memory, then an unnamed temporary
  file above :data:`STDIN_MEMORY_BYTES`) and refused as soon as the copy
  passes :data:`MAX_FILE_BYTES`, and a terminal is refused rather than waited
  for;
- a ``.npy`` header is read first, and its shape times its item size must fit
  in the file before any array is allocated;
- a CSV is read line by line (at most :data:`MAX_LINE_CHARS` per line and
  :data:`MAX_FIELD_CHARS` per value) into one byte per 0/1 value, and has at
  most :data:`MAX_LABELS` columns.

Each refusal is an :class:`~._errors.InputError` naming the file (and the
line when there is one).

:func:`write_matrix_csv` writes the MLCM as CSV for ``--matrix-out``: a header
row of the column names, then one row per true label, each led by its name.
"""

import array
import contextlib
import csv
import dataclasses
import io
import math
import os
import re
import stat
import sys
import tempfile
from dataclasses import dataclass
from itertools import islice

import numpy as np
from numpy.lib import format as npy_format

from sklearn_mlcm._reporting._files import real_path, write_file

from ._errors import InputError
from ._parser import PROG

__all__ = [
    "MAX_FIELD_CHARS",
    "MAX_FILE_BYTES",
    "MAX_LABELS",
    "MAX_LINE_CHARS",
    "STDIN",
    "STDIN_MEMORY_BYTES",
    "STDIN_NAME",
    "LabelFile",
    "check_output_is_not_an_input",
    "read_labels",
    "write_matrix_csv",
]

#: The largest label file read, in bytes (2 GiB).
MAX_FILE_BYTES = 2 * 2**30
#: The longest CSV line, in characters, line ending included.
MAX_LINE_CHARS = 2**20
#: The longest CSV value or label name, in characters.
MAX_FIELD_CHARS = 1024
#: The most label columns: the MLCM printed has one row and one column each.
MAX_LABELS = 2000
#: The path that reads standard input, and its name in the messages.
STDIN, STDIN_NAME = "-", "<stdin>"
#: Standard input up to this size is kept in memory, above in a temporary file.
STDIN_MEMORY_BYTES = 2**24

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
    is_csv : bool
        Whether the file was read as CSV (else as ``.npy``).
    delimiter : str
        The CSV delimiter it was read with.
    copy : binary file or None
        Standard input's copy, read again by :meth:`position` until
        :meth:`close`.
    """

    path: str
    values: np.ndarray
    names: list = None
    names_line: int = None
    is_csv: bool = True
    delimiter: str = ","
    copy: object = dataclasses.field(default=None, repr=False, compare=False)

    def position(self, row, column):
        """Where the value ``values[row, column]`` is, in the user's words.

        ``"line 4, column 2"`` for a CSV (read again to count its blank
        lines; only error messages need it), ``"row 4, column 2"`` otherwise.
        """
        if self.is_csv:
            skip = row + (self.names is not None)
            with _csv_records(self.path, self.delimiter, self.copy) as records:
                for line, _ in islice(records, skip, None):
                    return f"line {line}, column {column + 1}"
        return f"row {row + 1}, column {column + 1}"  # or the CSV has changed

    def close(self):
        """Close standard input's copy (past STDIN_MEMORY_BYTES an unnamed
        temporary file); the values stay. A file read from a path holds
        nothing open."""
        if self.copy is not None:
            self.copy.close()


def read_labels(path, header="auto", delimiter=","):
    """Read a label file: a CSV of 0/1 values or a ``.npy`` 2-D array.

    Parameters
    ----------
    path : str
        The file; ``.npy`` (any case) is read as NumPy's format, anything else
        as CSV. ``-`` reads standard input: a ``.npy`` array when it starts
        with NumPy's magic bytes, else CSV.
    header : {"auto", "yes", "no"}, default="auto"
        Whether the first CSV row names the labels. "auto": a first row that
        is not all 0 and 1 is a header when it cannot be data (a value is not
        a number) or when the rows below are all 0/1, whatever its names look
        like (``2005``, ``2.0``); a first row of 0/1 values is data. Refused
        as ambiguous with "auto", the message naming ``--header yes`` and
        ``--header no``: ``0,1`` (pandas' default header over two labels, or
        a row of data) and, in a one-column file, a number other than 0 and 1
        above 0/1 values (a name, or a wrong value). A first row that can be
        neither (a value other than 0 and 1, and a name repeated or empty) is
        refused too. With "auto" and "yes", a first row starting with
        ``"# "`` is numpy.savetxt's header: the names are read without it.
    delimiter : str, default=","
        The one character between the values of a CSV row.

    Returns
    -------
    LabelFile
    """
    if path == STDIN:
        copy, size = _copy_stdin()
        with contextlib.ExitStack() as owner:
            owner.callback(copy.close)  # unless a LabelFile takes it over
            if copy.read(len(npy_format.MAGIC_PREFIX)) == npy_format.MAGIC_PREFIX:
                return LabelFile(
                    STDIN_NAME, _read_npy(STDIN_NAME, copy, size), is_csv=False
                )
            with _csv_records(STDIN_NAME, delimiter, copy) as records:
                labels = _read_csv(STDIN_NAME, records, header, delimiter, copy)
            owner.pop_all()  # closed by labels.close(), after the last message
            return labels
    if path.lower().endswith(".npy"):
        with _open(path) as (file, size):
            return LabelFile(path, _read_npy(path, file, size), is_csv=False)
    with _csv_records(path, delimiter) as records:
        return _read_csv(path, records, header, delimiter)


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
            f"{path}: {status.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} "
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
    with open(fd, "rb", buffering=0) as raw:
        status = os.fstat(fd)
        _check_stat(path, status)
        yield io.BufferedReader(_Bounded(raw, path), 2**20), status.st_size


class _Bounded(io.RawIOBase):
    """A file read no further than MAX_FILE_BYTES, whatever its size said when
    it was opened: a file that keeps growing is refused as its bytes arrive."""

    def __init__(self, raw, path):
        self._raw, self._path = raw, path

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        return self._raw.seek(offset, whence)

    def tell(self):
        return self._raw.tell()

    def readinto(self, buffer):
        n = self._raw.readinto(buffer)
        if n and self._raw.tell() > MAX_FILE_BYTES:
            raise InputError(
                f"{self._path}: grew past the {MAX_FILE_BYTES:,} bytes "
                f"({MAX_FILE_BYTES / 2**30:g} GiB) this command reads while it "
                "was read"
            )
        return n


def _copy_stdin():
    """Standard input copied to a seekable buffer; ``(buffer, size)``.

    Read in chunks of 1 MiB, kept in memory up to STDIN_MEMORY_BYTES and in an
    unnamed temporary file above, and refused as soon as it passes
    MAX_FILE_BYTES. A terminal is refused: the command would wait for typing.
    """
    stream = sys.stdin
    if stream is None:
        raise InputError(f"{STDIN_NAME}: there is no standard input to read")
    if stream.isatty():
        raise InputError(
            f"{STDIN_NAME}: standard input is a terminal; pipe or redirect the "
            f"labels into it ({PROG} report - pred.csv < true.csv)"
        )
    binary = getattr(stream, "buffer", stream)
    copy, size = io.BytesIO(), 0
    try:
        while chunk := binary.read(2**20):
            if isinstance(chunk, str):  # a text stream without a buffer
                chunk = chunk.encode("utf-8", "surrogateescape")
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise InputError(
                    f"{STDIN_NAME}: more than the {MAX_FILE_BYTES:,} bytes "
                    f"({MAX_FILE_BYTES / 2**30:g} GiB) this command reads"
                )
            if isinstance(copy, io.BytesIO) and size > STDIN_MEMORY_BYTES:
                spilled = tempfile.TemporaryFile()
                spilled.write(copy.getbuffer())
                copy = spilled
            copy.write(chunk)
    except BaseException as exc:
        copy.close()  # past STDIN_MEMORY_BYTES, a file
        if isinstance(exc, OSError):
            raise InputError(
                f"{STDIN_NAME}: cannot read standard input ({exc.strerror or exc})"
            ) from None
        raise
    copy.seek(0)
    return copy, size


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
        shape, fortran_order, dtype = read_header(file)
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
            f"{dtype}, {data_bytes:,} bytes, but the file holds "
            f"{size - file.tell():,} bytes of data"
        )
    # the data read here, not by numpy.lib.format.read_array: NumPy 1.x reads
    # a buffered file with numpy.fromfile, which needs a file descriptor and
    # would bypass the bounded reader
    data = bytearray(data_bytes)
    view, filled = memoryview(data), 0
    while filled < data_bytes:
        n = file.readinto(view[filled:])
        if not n:
            raise InputError(unreadable)
        filled += n
    array = np.frombuffer(data, dtype=dtype)
    return array.reshape(shape, order="F" if fortran_order else "C")


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
                f"{path}, line {number}: longer than {MAX_LINE_CHARS:,} characters; "
                "expected a CSV file of 0/1 values"
            )
        if _NOT_UTF8.search(line):
            raise InputError(
                f"{path}, line {number}: not UTF-8 text; expected a CSV file of "
                "0/1 values"
            )
        yield line


@contextlib.contextmanager
def _binary(path, copy):
    """The open file ``path``, or standard input's ``copy`` from its start."""
    if copy is None:
        with _open(path) as (file, _):
            yield file
    else:
        copy.seek(0)
        yield copy


@contextlib.contextmanager
def _csv_records(path, delimiter=",", copy=None):
    """Open a CSV file (or standard input's ``copy``); yield an iterator of
    ``(line number, values)`` of each non-blank row, each value at most
    MAX_FIELD_CHARS long."""

    last = [""]  # the line read last, for the hint of a field too long

    def remember(lines):
        for last[0] in lines:
            yield last[0]

    def records(reader):
        try:
            for row in reader:
                if row and not (len(row) == 1 and not row[0].strip()):
                    yield reader.line_num, row
        except csv.Error as exc:
            if "field limit" in str(exc):
                raise InputError(
                    f"{path}, line {reader.line_num}: a value longer than "
                    f"{MAX_FIELD_CHARS:,} characters; expected 0/1 values and label "
                    f"names{_delimiter_hint(last[0], delimiter)}"
                ) from None
            raise InputError(f"{path}, line {reader.line_num}: {exc}") from None

    previous = csv.field_size_limit(MAX_FIELD_CHARS)  # process-wide: restored
    try:
        with _binary(path, copy) as file:
            text = io.TextIOWrapper(
                file, encoding="utf-8-sig", errors="surrogateescape", newline=""
            )
            try:
                lines = remember(_lines(path, text))
                yield records(csv.reader(lines, delimiter=delimiter))
            finally:
                text.detach()  # the binary file is closed by its owner
    finally:
        csv.field_size_limit(previous)


# A number as a CSV file writes it: ASCII digits, an optional sign, point and
# exponent. Python's float() also takes "0_1", full-width digits, "inf" and
# "nan", which no 0/1 file means.
_NUMBER = re.compile(
    r"[ \t]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t]*"
)
#: The blanks a number may have around it (:data:`_NUMBER`); a refused value
#: is quoted without them only, so that a quoted line break shows ('1\\n', not
#: '1', which would read as a number).
_BLANKS = " \t"


def _number(text):
    """``text`` as a float, or None when it is not an ASCII decimal number."""
    if _NUMBER.fullmatch(text) is None:
        return None
    return float(text)


def _is_bit(text):
    """Whether ``text`` is the number 0 or 1 (``1``, `` 0 ``, ``1.0``)."""
    return _number(text) in (0.0, 1.0)


def _looks_like_data(text):
    """Whether ``text`` is numbers separated by one of the usual delimiters."""
    parts = re.split("[,;\t|]", text)
    return len(parts) > 1 and all(_number(part) is not None for part in parts)


#: What :func:`_header` returns for a first row of numbers that are not all 0
#: and 1: the rows below decide whether it names the labels (:func:`_settle`).
_ASK_THE_ROWS_BELOW = "ask the rows below"


def _header(path, line, row, header, delimiter=","):
    """The label names of the first row, None when it is data, or
    ``_ASK_THE_ROWS_BELOW``.

    With ``header="auto"``: a row of 0/1 values is data (``0,1``, pandas'
    default header over two labels, is refused as ambiguous); a row with a
    value that is not a number is a header, whatever its other names look
    like (``2005``, ``2.0``), since it cannot be data; a row of numbers that
    are not all 0 and 1 is decided by the rows below (:func:`_settle`).
    """
    hint = _delimiter_hint(row[0], delimiter) if len(row) == 1 else ""
    if header == "auto" and hint and _looks_like_data(row[0]):
        # One "name" such as "1;0;1": data read with the wrong delimiter.
        raise InputError(
            f"{path}, line {line}, column 1: expected 0 or 1, found "
            f"{row[0].strip(_BLANKS)!r}{hint}"
        )
    if header != "auto":  # the user said whether line 1 is a header
        return _names(path, line, row) if header == "yes" else None
    if [field.strip() for field in row] == ["0", "1"]:
        raise InputError(
            f"{path}, line {line}: the first row (0,1) could be pandas' default "
            "header of column numbers or a row of data; pass --header yes or "
            "--header no"
        )
    if all(map(_is_bit, row)):
        return None
    numeric = [_number(field) is not None for field in row]
    if all(numeric):
        return _ASK_THE_ROWS_BELOW
    if any(numeric):  # names and numbers: a header unless it cannot be one
        _check_not_a_typo(path, line, row)
    return _names(path, line, row)


def _settle(path, line, row, below_are_bits):
    """A first row of numbers, not all 0 and 1: its label names, or None when
    it is data.

    Above rows that are all 0/1 (``below_are_bits``) it is a header, the one
    way to read the file; but the one number of a one-column file could as
    well be a wrong value (a class label) as a name, and is refused as
    ambiguous. Above other numbers it is data: the library names the values
    that are not 0 and 1.
    """
    if not below_are_bits:
        return None
    _check_not_a_typo(path, line, row)
    if len(row) == 1:
        raise InputError(
            f"{path}, line {line}: the first row ({row[0].strip()}) of this "
            "one-column file could be the label's name or a row of data; pass "
            "--header yes or --header no"
        )
    return _names(path, line, row)


def _check_not_a_typo(path, line, row):
    """Refuse a first row with a value other than 0 and 1 that cannot be a
    header either (a name repeated or empty): most likely a typo in the first
    row of data, which must not silently become a header."""
    names = [field.strip() for field in row]
    problem, seen = None, {}
    for j, name in enumerate(names):
        if not name:
            problem = f"a header names every label, but column {j + 1} is empty"
            if j == 0:
                problem += _PANDAS_INDEX_HINT
        elif name in seen:
            problem = (
                f"a header names each label once, but column {j + 1} repeats "
                f"the name {name!r} of column {seen[name] + 1}"
            )
        if problem is not None:
            break
        seen[name] = j
    if problem is None:
        return
    j = next(j for j, field in enumerate(row) if not _is_bit(field))
    raise InputError(
        f"{path}, line {line}: the first row is neither a header nor a row of "
        f"data: {problem}; a data row holds only 0 and 1, but column {j + 1} "
        f"holds {names[j]!r}"
    )


def _names(path, line, row):
    """The label names of a header row; each column must have one."""
    names = [field.strip() for field in row]
    if "" in names:
        j = names.index("")
        raise InputError(
            f"{path}, line {line}: the header has no label name in column "
            f"{j + 1}" + (_PANDAS_INDEX_HINT if j == 0 else "")
        )
    return names


def _delimiter_name(delimiter):
    """A delimiter as the user types it for --delimiter."""
    return "tab" if delimiter == "\t" else repr(delimiter)


def _delimiter_hint(text, delimiter):
    """A hint to pass --delimiter, when ``text`` holds another usual delimiter."""
    other = next((d for d in ",;\t|" if d != delimiter and d in text), None)
    if other is None:
        return ""
    return (
        f" (the values are read as separated by {_delimiter_name(delimiter)}; "
        f"pass --delimiter {_delimiter_name(other)} for this file)"
    )


def _parse_row(path, line, row, delimiter=","):
    """The numbers of one data row, and the narrowest typecode that holds them:
    ``"B"`` for 0 and 1, ``"q"`` for other integers, ``"d"`` for the rest."""
    numbers, typecode = [], "B"
    for j, field in enumerate(row):
        value = _number(field)
        if value is None:
            raise InputError(
                f"{path}, line {line}, column {j + 1}: expected 0 or 1, found "
                f"{field.strip(_BLANKS)!r}{_delimiter_hint(field, delimiter)}"
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


def _read_csv(path, records, header, delimiter=",", copy=None):
    """The values and the optional header of a CSV file, row by row.

    Every 0/1 value takes one byte (an ``array("B")``). At the first other
    number the values read so far widen to int64 (or float64 for a fraction),
    so that the library sees the number as written and names it. A first row
    of numbers that are not all 0 and 1 is kept aside until the rows below
    tell whether it is a header (:func:`_settle`).
    """
    first = next(records, None)
    if first is not None and len(first[1]) > MAX_LABELS:
        raise InputError(
            f"{path}, line {first[0]}: {len(first[1]):,} columns, more than the "
            f"{MAX_LABELS:,} labels this command handles"
        )
    names = names_line = undecided = None
    if first is not None and header != "no":
        first = _uncomment(first)
    if first is not None:
        names = _header(path, *first, header, delimiter)
        if names is _ASK_THE_ROWS_BELOW:
            names, undecided = None, first
        elif names is None:
            records = _chain_first(first, records)
        else:
            names_line = first[0]
    values = array.array("B")
    n_values = len(first[1]) if names or undecided else None
    n_rows = 0
    for line, row in records:
        n_values = n_values or len(row)
        if len(row) != n_values:
            raise InputError(
                f"{path}, line {line}: expected {n_values:,} values, found {len(row):,}"
            )
        joined = "".join(row)
        if (
            values.typecode == "B"
            and len(joined) == len(row)
            and not joined.strip("01")
        ):  # the usual row: every value is one character, "0" or "1"
            values.frombytes(joined.encode("ascii").translate(_ASCII_BITS))
        else:
            numbers, typecode = _parse_row(path, line, row, delimiter)
            if list(_DTYPES).index(typecode) > list(_DTYPES).index(values.typecode):
                values = array.array(typecode, values)
            values.extend(numbers)
        n_rows += 1
    matrix = np.frombuffer(values, dtype=_DTYPES[values.typecode])
    if undecided is not None:
        names = _settle(path, *undecided, n_rows > 0 and values.typecode == "B")
        if names is None:  # data: the first row goes back on top
            numbers, typecode = _parse_row(path, *undecided, delimiter)
            dtype = np.result_type(_DTYPES[typecode], matrix.dtype)
            matrix = np.concatenate([np.array(numbers, dtype), matrix.astype(dtype)])
            n_rows += 1
        else:
            names_line = undecided[0]
    if n_rows == 0:
        raise InputError(f"{path}: no data rows; expected one row per instance")
    return LabelFile(
        path,
        matrix.reshape(n_rows, n_values),
        names,
        names_line,
        delimiter=delimiter,
        copy=copy,
    )


#: What numpy.savetxt writes before its header (its ``comments`` default).
NUMPY_COMMENT = "# "


def _uncomment(record):
    """The first row without numpy.savetxt's ``"# "`` before its first name:
    ``np.savetxt(path, y, header=",".join(names), delimiter=",")`` writes
    ``# 2005,2006,...``, whose first label is ``2005``, not ``# 2005``."""
    line, row = record
    if row and row[0].startswith(NUMPY_COMMENT):
        row = [row[0][len(NUMPY_COMMENT) :], *row[1:]]
    return line, row


#: Said when a header's first column is empty: how pandas writes its index.
_PANDAS_INDEX_HINT = (
    " (written by pandas with its index? write it with to_csv(index=False))"
)


def _chain_first(first, rest):
    yield first
    yield from rest


# Writing ---------------------------------------------------------------------


def write_matrix_csv(path, cm, names, delimiter=","):
    """Write the MLCM ``cm`` to ``path`` as CSV, with the label names.

    The header row is ``true\\predicted``, the ``names`` and ``NPL``; each row
    starts with its label name, the NTL row last. Counts are written as
    integers, fractions as the shortest decimals that read back exactly.
    A file is replaced whole or not at all; a pipe or ``/dev/stdout`` is
    written directly (:func:`~sklearn_mlcm._reporting._files.write_file`).
    Returns the number of bytes written to a file, None for a text stream.

    Examples
    --------
    >>> import io, numpy as np
    >>> out = io.StringIO()
    >>> write_matrix_csv(out, np.array([[2, 1], [0, 1]]), ["a"])
    >>> print(out.getvalue(), end="")
    true\\predicted,a,NPL
    a,2,1
    NTL,0,1
    """
    rows = [["true\\predicted", *names, "NPL"]]
    rows += [
        [name, *map(str, values)]
        for name, values in zip([*names, "NTL"], cm.tolist(), strict=True)
    ]
    if not isinstance(path, str):  # a text stream
        csv.writer(path, delimiter=delimiter, lineterminator="\n").writerows(rows)
        return
    if path == STDIN:
        raise InputError(
            "--matrix-out -: the matrix is written to a file, not to standard "
            "output; name a file"
        )
    # A temporary file beside the target, renamed over it once complete: an
    # interrupted write never leaves half a matrix (nor half of an old file).
    # A pipe or /dev/stdout is written directly, never replaced.
    try:
        return write_file(
            path,
            lambda file: csv.writer(
                file, delimiter=delimiter, lineterminator="\n"
            ).writerows(rows),
            newline="",
        )
    except OSError as exc:
        raise InputError(
            f"{path}: cannot write the matrix ({exc.strerror or exc})"
        ) from None


def check_output_is_not_an_input(output, inputs, option, what="the matrix"):
    """Refuse an output path that is (or links to) one of the input files,
    before anything is read or written: writing ``what`` there would destroy
    the input."""
    if output is None or output == STDIN:
        return
    target = real_path(output)
    for path in inputs:
        if path == STDIN:
            continue
        same = real_path(path) == target
        if not same and os.path.exists(path) and os.path.exists(output):
            same = os.path.samefile(path, output)
        if same:
            raise InputError(
                f"{option} {output}: that is the input file {path}; writing "
                f"{what} there would overwrite it. Name another file"
            )
