"""Writing a file whole or not at all.

:func:`write_atomically` writes through a temporary file in the target's
folder, flushed to disk (``fsync``) and renamed over the target
(``os.replace``): an interrupted or failed write leaves an existing file as it
was, and no temporary file behind. :func:`output_path_problem` says, before
anything is written, why a path cannot be written (a directory, a folder that
does not exist), for the caller to refuse it in its own words: the page's
``path`` parameter, the command line's ``--matrix-out``.
"""

import errno
import os
import stat
import tempfile
import threading

__all__ = ["output_path_problem", "write_atomically"]

#: The temporary file's name starts with this, in the target's folder.
TEMPORARY_PREFIX = ".sklearn-mlcm-"
#: Where Linux tells a process its umask without changing it.
_PROC_STATUS = "/proc/self/status"
# held while the umask is read the only portable way, set and restored
_UMASK_LOCK = threading.Lock()


def output_path_problem(path):
    """Why ``path`` cannot be written as a file, or None when it can be tried.

    Parameters
    ----------
    path : str or path-like
        The file to write.

    Returns
    -------
    problem : str or None
        ``"it is a directory"``, ``"it is not writable"`` (an existing file
        without write permission, for anyone: also refused to root, who
        could replace it), ``"its folder ... does not exist"``, ``"its
        folder ... is not a directory"`` or ``"its folder ... is not
        writable"``; None otherwise (the write may still fail, on a full disk
        for instance, with an OSError). A symbolic link is judged by the file
        it points to, which is the one written.

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
        without write permission a :class:`PermissionError`. A symbolic
        link is written through: its target gets the content, the link
        stays.

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
    path = os.fspath(path)
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    written = _written_path(path)
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
    return path


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
        return os.path.realpath(path)
    return path  # as given: abspath would drop a trailing "/"


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
