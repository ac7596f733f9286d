"""Writing a file whole or not at all, and never replacing a special file.

:func:`write_file` is what the page and the command line call. A regular
file (or a new one) is written by :func:`write_atomically`, through a
temporary file in the target's folder, flushed to disk (``fsync``) and
renamed over the target (``os.replace``): an interrupted or failed write
leaves an existing file as it was, and no temporary file behind. A special
file that can be written is written directly, opened without creating or
replacing anything: a pipe (FIFO), a terminal or another character device
(``/dev/null``), and a descriptor of this process named by a path
(``/dev/stdout``, ``/dev/fd/3``), written through that descriptor even
when it is a regular file (``> out.txt``), so that what the process prints
there is kept, in order. A socket or a block device (a disk) is refused.
:func:`output_path_problem` says, before anything is written, why a path
cannot be written (a directory, a socket, a folder that does not exist), for
the caller to refuse it in its own words: the page's ``path`` parameter, the
command line's ``--matrix-out``.
"""

import errno
import io
import os
import re
import stat
import sys
import tempfile
import threading

__all__ = ["output_path_problem", "real_path", "write_atomically", "write_file"]

#: The temporary file's name starts with this, in the target's folder.
TEMPORARY_PREFIX = ".sklearn-mlcm-"
#: Where Linux tells a process its umask without changing it.
_PROC_STATUS = "/proc/self/status"
# held while the umask is read the only portable way, set and restored
_UMASK_LOCK = threading.Lock()
#: The folder of a process's descriptors as links (``/dev/fd`` and
#: ``/dev/stdout`` lead there): the process's id, or None for ``self``.
_DESCRIPTORS = re.compile(r"/proc/(?:self|thread-self|(\d+))(?:/task/\d+)?/fd")
#: The links followed at most, as Linux's limit.
_MAX_LINKS = 40
#: Special files refused, with the reason: writing one would not deliver a
#: report (a socket is not opened as a file) or would overwrite a disk.
_REFUSED = {stat.S_IFSOCK: "it is a socket", stat.S_IFBLK: "it is a block device"}


def output_path_problem(path):
    """Why ``path`` cannot be written as a file, or None when it can be tried.

    Parameters
    ----------
    path : str or path-like
        The file to write.

    Returns
    -------
    problem : str or None
        ``"it is a directory"``, ``"it is a socket"``, ``"it is a block
        device"``, ``"it is not writable"`` (an existing file without write
        permission, for anyone: also refused to root, who could replace it),
        ``"it is open for reading only"`` (a descriptor of this process,
        such as ``/dev/stdin``), ``"its folder ... does not exist"``, ``"its
        folder ... is not a directory"`` or ``"its folder ... is not
        writable"``; None otherwise (the write may still fail, on a full disk
        for instance, with an OSError). A symbolic link is judged by the file
        it points to, which is the one written; a pipe, a terminal or
        another character device is written directly (see
        :func:`write_file`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     output_path_problem(folder)
    'it is a directory'
    """
    path = os.fspath(path)
    if path == "":
        return "it is empty"
    if os.path.isdir(path):
        return "it is a directory"
    if path.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        return f"it ends with {path[-1]!r}, as a folder does"
    status = _status(path)
    if status is not None:
        descriptor = _descriptor(path, status)
        if descriptor is not None:
            return _descriptor_problem(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return _special_problem(path, status)
    written = _written_path(path)
    if _read_only(written):
        return "it is not writable"
    folder = os.path.dirname(os.path.abspath(written))
    if not os.path.exists(folder):
        # a parent that is a regular file: "not a directory" is the real reason
        parent = folder
        while not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            return f"{parent} in its path is not a directory"
        return f"its folder {folder} does not exist"
    if not os.path.isdir(folder):
        return f"its folder {folder} is not a directory"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is not writable"
    return None


def write_atomically(path, write, *, binary=False, encoding="utf-8", newline=None):
    """Write a file through a temporary file renamed over it.

    ``write(file)`` fills a temporary file opened in ``path``'s folder; once
    it returns, the file is flushed to disk, given the permissions ``path``
    has (or a new file's, ``0o666`` less the umask, not the temporary file's
    private ``0o600``) and renamed over ``path`` with :func:`os.replace`. If
    anything fails (``write`` raises, the disk is full, the folder cannot be
    written), the temporary file is removed and ``path`` is left as it was.
    A symbolic link stays a link: the file it points to is the one replaced.
    An existing file without write permission is refused, also to root.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    write : callable
        ``write(file)`` writes the content into the open ``file``.
    binary : bool, default=False
        Open the temporary file in binary mode rather than as text.
    encoding : str, default="utf-8"
        The text encoding (text mode only).
    newline : str, default=None
        As :func:`open`'s ``newline`` (text mode only).

    Returns
    -------
    path : str
        ``path`` as a string.

    Raises
    ------
    OSError
        When the file cannot be written: its ``filename`` is ``path`` (never
        the temporary file's name), its ``strerror`` the system's reason.
        ``path`` naming a directory is an :class:`IsADirectoryError`, a
        folder that does not exist a :class:`FileNotFoundError`, a file
        without write permission a :class:`PermissionError`, a file that is
        not a regular file (a pipe, a device, which a rename would replace)
        an OSError with ``errno.EINVAL``: :func:`write_file` writes those
        directly. A symbolic link is written through: its target gets the
        content, the link stays.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = Path(folder, "out.txt")
    ...     _ = write_atomically(target, lambda file: file.write("whole\\n"))
    ...     print(target.read_text(), end="")
    ...     print([path.name for path in Path(folder).iterdir()])
    whole
    ['out.txt']
    """
    _replace(os.fspath(path), write, binary, encoding, newline)
    return os.fspath(path)


def write_file(path, write, *, binary=False, encoding="utf-8", newline=None):
    """Write ``path``: a regular file whole or not at all, a special file
    directly, never replacing one.

    A new or regular file is written by :func:`write_atomically` (a
    temporary file renamed over it). A pipe (FIFO), a terminal or another
    character device (``/dev/null``) is opened for writing, without creating
    or truncating anything, and written; a reader at the other end of a pipe
    gets the whole content. A path that names a descriptor of this process
    (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``), or a regular file
    that standard output or error writes (``> out.txt``), is written
    through that descriptor, after Python's ``sys.stdout`` and
    ``sys.stderr`` are flushed: what the process printed before stays
    before, and what it prints after comes after. In every case the content
    is made whole (``write`` returns) before anything is opened: a failing
    ``write`` leaves the target untouched.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    write : callable
        ``write(file)`` writes the content into the open ``file``.
    binary : bool, default=False
        Write bytes rather than text.
    encoding : str, default="utf-8"
        The text encoding (text mode only).
    newline : str, default=None
        As :func:`open`'s ``newline`` (text mode only).

    Returns
    -------
    size : int
        The number of bytes written.

    Raises
    ------
    OSError
        When the file cannot be written, its ``filename`` ``path``: as
        :func:`write_atomically` for a regular file; for a socket, a block
        device (a disk) or a directory, before anything is written; a pipe
        whose reader went away, a device that refuses the write, with the
        system's reason.

    Examples
    --------
    >>> import os
    >>> write_file(os.devnull, lambda file: file.write("nothing kept\\n"))
    13
    """
    path = os.fspath(path)
    status = _status(path)
    descriptor = None if status is None else _descriptor(path, status)
    if descriptor is None and (status is None or stat.S_ISREG(status.st_mode)):
        return _replace(path, write, binary, encoding, newline)
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    problem = (
        _descriptor_problem(descriptor)
        if descriptor is not None
        else _special_problem(path, status)
    )
    if problem is not None:
        raise OSError(errno.EINVAL, problem, path)
    data = _content(write, binary, encoding, newline)
    try:
        if descriptor is not None:
            _flush_standard_streams()
            _write_all(descriptor, data)
        else:
            fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), path) from None
    return len(data)


def _replace(path, write, binary, encoding, newline):
    """:func:`write_atomically`'s work; the number of bytes written."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    written = _written_path(path)
    status = _status(written)
    if status is not None and not stat.S_ISREG(status.st_mode):
        # a pipe or a device: renamed over, it would be gone (as root,
        # /dev/null itself); write_file writes it directly
        raise OSError(errno.EINVAL, "Not a regular file", path)
    if _read_only(written):
        raise PermissionError(errno.EACCES, "Permission denied", path)
    folder = os.path.dirname(os.path.abspath(written))
    temporary = None
    try:
        mode = _file_mode(written)
        text = {} if binary else {"encoding": encoding, "newline": newline}
        with tempfile.NamedTemporaryFile(
            "wb" if binary else "w",
            dir=folder,
            prefix=TEMPORARY_PREFIX,
            suffix=".part",
            delete=False,
            **text,
        ) as file:
            temporary = file.name
            write(file)
            file.flush()
            size = os.fstat(file.fileno()).st_size
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, written)
    except BaseException as exc:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except FileNotFoundError:  # already renamed, or never created
                pass
        if isinstance(exc, OSError) and exc.errno is not None:
            # the reason, on the user's path rather than the temporary's name
            # (OSError(errno, ...) is the subclass of that errno)
            raise OSError(exc.errno, exc.strerror or str(exc), path) from None
        raise
    _sync_folder(folder)
    return size


def _status(path):
    """``os.stat(path)``, following links (also ``/proc/self/fd``'s, to
    pipes and sockets), or None when there is no such file."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _descriptor(path, status):
    """The descriptor of this process that writing ``path`` should go
    through, or None.

    ``path``, followed link by link, reaches ``/proc/self/fd/N`` (as
    ``/dev/stdout`` and ``/dev/fd/N`` do) and ``N`` is open on the file
    ``status`` describes; or ``path`` is the regular file that standard
    output or error writes. Opening the link again would start a new offset
    at the file's start (a rename would replace the file under the open
    descriptor): written through the descriptor, the content comes after
    what the process wrote there, before what it writes next.
    """
    link = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        folder = real_path(os.path.dirname(link))
        name = os.path.basename(link)
        match = _DESCRIPTORS.fullmatch(folder)
        if match and name.isascii() and name.isdigit():
            if match[1] is not None and int(match[1]) != os.getpid():
                return None  # another process's: its file, as any path
            return int(name) if _open_on(int(name), status) else None
        link = os.path.join(folder, name)
        try:
            target = os.readlink(link)
        except OSError:  # not a link (or one that cannot be read)
            break
        link = os.path.join(folder, target)
    if stat.S_ISREG(status.st_mode):
        for fd in (1, 2):
            if _open_on(fd, status):
                return fd
    return None


def _open_on(fd, status):
    """Whether the descriptor ``fd`` is open on the file ``status`` is of."""
    try:
        return os.path.samestat(os.fstat(fd), status)
    except OSError:
        return False


def _descriptor_problem(fd):
    """Why the descriptor ``fd`` cannot be written, or None."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the write itself will say
        return None
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        return None
    if flags & os.O_ACCMODE == os.O_RDONLY:
        return "it is open for reading only"
    return None


def _special_problem(path, status):
    """Why the special file ``path`` (``status``: not a regular file, nor a
    descriptor of this process) cannot be written, or None for a pipe or a
    character device that can."""
    kind = stat.S_IFMT(status.st_mode)
    if kind == stat.S_IFDIR:
        return "it is a directory"
    if kind in _REFUSED:
        return _REFUSED[kind]
    if kind not in (stat.S_IFIFO, stat.S_IFCHR):
        return "it is not a regular file, a pipe or a character device"
    if not os.access(path, os.W_OK):
        return "it is not writable"
    return None


def _content(write, binary, encoding, newline):
    """The bytes ``write(file)`` writes, as :func:`open` would write them to
    a file (encoding, newlines)."""
    buffer = io.BytesIO()
    if binary:
        write(buffer)
        return buffer.getvalue()
    text = io.TextIOWrapper(buffer, encoding=encoding, newline=newline)
    write(text)
    text.flush()
    data = buffer.getvalue()
    text.detach()
    return data


def _flush_standard_streams():
    """Flush what Python holds for standard output and error, so that it
    reaches a descriptor before what is written to it directly."""
    for stream in {sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__}:
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed, or a pipe gone: not ours
            pass


def _write_all(fd, data):
    """Write all of ``data`` to ``fd`` (a pipe or a terminal may take part
    of it at a time)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_only(path):
    """Whether ``path`` is an existing file that may not be written: denied
    to this process, or without a write bit for anyone (which root, allowed
    everything, would otherwise replace without a word)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (mode & 0o222 and os.access(path, os.W_OK))


def _written_path(path):
    """The file a write of ``path`` replaces: a symbolic link's target, as
    an absolute path (renaming over the link would replace the link by a
    file and leave its target as it was), else ``path`` itself."""
    if os.path.islink(path):
        return real_path(path)
    return path  # as given: abspath would drop a trailing "/"


def real_path(path):
    """:func:`os.path.realpath`, or the absolute path where a link cannot be
    read (another process's ``/proc/PID/fd/N``: Python 3.11's realpath
    raises PermissionError there); the write then says why it fails."""
    try:
        return os.path.realpath(path)
    except OSError:
        return os.path.abspath(path)


def _file_mode(path):
    """The permissions the written file gets: those of the file it replaces,
    or a new file's (``0o666`` less the umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask():
    """The process's umask, read without changing it where the system says
    it (Linux's ``/proc/self/status``); elsewhere set and restored under a
    lock, so that no two writes here race (another thread creating a file
    in that instant would still get the umask 0)."""
    try:
        with open(_PROC_STATUS, encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        umask = os.umask(0)
        os.umask(umask)
    return umask


def _sync_folder(folder):
    """Flush the rename to disk where the system allows it (POSIX); a failure
    here loses nothing already written, so it is not an error."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
