"""Writing a file whole or not at all, and special files directly
(sklearn_mlcm/_reporting/_files.py)."""

import os
import socket
import stat
import threading

import pytest
from paper_data import TABLE_1_NAMES, TABLE_1_PRED, TABLE_1_TRUE

from sklearn_mlcm import MLCMReport
from sklearn_mlcm._reporting import _files
from sklearn_mlcm._reporting._files import (
    output_path_problem,
    write_atomically,
    write_file,
)


def test_write_atomically_writes_text_and_returns_the_path(tmp_path):
    """The content is written, the path comes back as str, nothing else is left."""
    target = tmp_path / "out.txt"
    assert write_atomically(target, lambda file: file.write("é\n")) == str(target)
    assert target.read_bytes() == "é\n".encode()
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_write_atomically_binary(tmp_path):
    """binary=True hands the writer a binary file."""
    target = tmp_path / "out.bin"
    write_atomically(target, lambda file: file.write(b"\x00\xff"), binary=True)
    assert target.read_bytes() == b"\x00\xff"


def test_write_atomically_failing_writer_keeps_the_old_file(tmp_path):
    """A writer that fails midway (after part of the content) leaves the old
    file intact and no temporary file behind; its exception propagates."""
    target = tmp_path / "page.html"
    target.write_text("the old page")

    def fail(file):
        file.write("half of a new ")
        raise RuntimeError("the writer broke")

    with pytest.raises(RuntimeError, match="^the writer broke$"):
        write_atomically(target, fail)
    assert target.read_text() == "the old page"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_write_atomically_failing_rename_names_the_path(tmp_path, monkeypatch):
    """An OSError on the way (here the rename: a full disk) is raised on the
    user's path, not the temporary file's, with the system's reason; the old
    file is intact and the temporary file removed."""
    target = tmp_path / "page.html"
    target.write_text("the old page")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files.os, "replace", fail)
    with pytest.raises(OSError, match="No space left on device") as info:
        write_atomically(target, lambda file: file.write("new"))
    assert (info.value.errno, info.value.filename) == (28, str(target))
    assert target.read_text() == "the old page"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_write_atomically_failing_fsync_keeps_the_old_file(tmp_path, monkeypatch):
    """The content is flushed to disk before the rename: a failing fsync
    stops the write before the old file is touched."""
    target = tmp_path / "page.html"
    target.write_text("the old page")

    def fail(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(_files.os, "fsync", fail)
    with pytest.raises(OSError, match="Input/output error"):
        write_atomically(target, lambda file: file.write("new"))
    assert target.read_text() == "the old page"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_write_atomically_directory_is_refused(tmp_path):
    """A directory is an IsADirectoryError naming it, and is left alone."""
    with pytest.raises(IsADirectoryError, match="Is a directory") as info:
        write_atomically(tmp_path, lambda file: file.write("x"))
    assert info.value.filename == str(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_write_atomically_missing_folder_names_the_path(tmp_path):
    """A folder that does not exist is a FileNotFoundError on the user's path."""
    target = tmp_path / "missing" / "page.html"
    with pytest.raises(FileNotFoundError) as info:
        write_atomically(target, lambda file: file.write("x"))
    assert info.value.filename == str(target)


@pytest.mark.skipif(os.name != "posix", reason="POSIX symbolic links")
def test_write_atomically_writes_through_a_symlink(tmp_path):
    """A symbolic link stays a link and its target gets the content (the
    rename replaced the link by a file and left the target as it was)."""
    target = tmp_path / "real.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    assert write_atomically(link, lambda file: file.write("new")) == str(link)
    assert link.is_symlink()
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX symbolic links")
def test_output_path_problem_dangling_symlink_names_the_target_folder(tmp_path):
    """A link to a file in a folder that does not exist is refused as that
    folder (it would have been replaced by a file)."""
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "missing" / "page.html")
    assert output_path_problem(link) == (
        f"its folder {tmp_path / 'missing'} does not exist"
    )


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomically_keeps_the_usual_permissions(tmp_path):
    """A new file gets 0o666 less the umask, a replaced one keeps its own
    permissions (not the temporary file's private 0o600)."""
    umask = os.umask(0o022)
    try:
        new = tmp_path / "new.html"
        write_atomically(new, lambda file: file.write("x"))
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        old = tmp_path / "old.html"
        old.write_text("old")
        old.chmod(0o640)
        write_atomically(old, lambda file: file.write("new"))
        assert stat.S_IMODE(old.stat().st_mode) == 0o640
        assert old.read_text() == "new"
    finally:
        os.umask(umask)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomically_new_files_from_threads_keep_the_umask(tmp_path, monkeypatch):
    """Two threads writing new files leave the process umask as it was (each
    read it by setting 0 and restoring it: interleaved, the second restored
    the first's 0, and later files were world-writable)."""
    import threading
    import time

    umask = os.umask

    def slow_umask(mask):
        old = umask(mask)
        time.sleep(0.1)  # long enough for the other thread to read it
        return old

    monkeypatch.setattr(_files.os, "umask", slow_umask)
    before = umask(0o022)
    try:
        threads = [
            threading.Thread(
                target=write_atomically,
                args=(tmp_path / f"page{j}.html", lambda file: file.write("x")),
            )
            for j in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert umask(0o022) == 0o022
        modes = [stat.S_IMODE(p.stat().st_mode) for p in sorted(tmp_path.iterdir())]
        assert modes == [0o644, 0o644]
    finally:
        umask(before)


def test_output_path_problem_says_why(tmp_path):
    """A directory, an empty path, a missing folder and a regular file in
    place of a folder are named; a writable new file is not a problem."""
    regular = tmp_path / "file.txt"
    regular.write_text("x")
    assert output_path_problem(tmp_path) == "it is a directory"
    assert output_path_problem("") == "it is empty"
    missing = tmp_path / "missing"
    assert output_path_problem(missing / "page.html") == (
        f"its folder {missing} does not exist"
    )
    assert output_path_problem(regular / "page.html") == (
        f"its folder {regular} is not a directory"
    )
    assert output_path_problem(regular / "sub" / "page.html") == (
        f"{regular} in its path is not a directory"
    )
    assert output_path_problem(tmp_path / "page.html") is None
    assert output_path_problem(regular) is None  # an existing file is replaced


def test_output_path_problem_trailing_separator_is_a_folder(tmp_path):
    """A path ending with the separator names a folder, even one that does not
    exist; write_atomically fails on it and writes nothing (neither writes a
    file named after the folder)."""
    folder = f"{tmp_path / 'new'}{os.sep}"
    assert output_path_problem(folder) == f"it ends with {os.sep!r}, as a folder does"
    with pytest.raises(OSError) as info:
        write_atomically(folder, lambda file: file.write("x"))
    assert info.value.filename == folder
    assert list(tmp_path.iterdir()) == []


def test_output_path_problem_unwritable_folder(tmp_path, monkeypatch):
    """A folder without write permission is named (os.access says so; the
    tests may run as root, which may write anywhere)."""
    monkeypatch.setattr(_files.os, "access", lambda path, mode: False)
    assert output_path_problem(tmp_path / "page.html") == (
        f"its folder {tmp_path} is not writable"
    )


@pytest.mark.skipif(os.name != "posix", reason="POSIX symbolic links")
def test_write_atomically_writes_through_a_symbolic_link(tmp_path):
    """A link stays a link and the file it points to gets the content (a
    rename over the link would replace it, leaving that file old)."""
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert write_atomically(link, lambda file: file.write("new")) == str(link)
    assert link.is_symlink()
    assert real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]
    assert output_path_problem(link) is None


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomically_refuses_a_read_only_file(tmp_path):
    """A file without any write bit is refused (PermissionError on the user's
    path) and left as it was, also when root runs the tests;
    output_path_problem says so."""
    target = tmp_path / "kept.html"
    target.write_text("old")
    target.chmod(0o444)
    assert output_path_problem(target) == "it is not writable"
    with pytest.raises(PermissionError, match="Permission denied") as info:
        write_atomically(target, lambda file: file.write("new"))
    assert info.value.filename == str(target)
    assert target.read_text() == "old"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["kept.html"]


@pytest.mark.skipif(
    not os.path.exists("/proc/self/status"), reason="Linux's /proc/self/status"
)
def test_write_atomically_reads_the_umask_without_changing_it(tmp_path, monkeypatch):
    """On Linux the umask of a new file is read from /proc/self/status: the
    process's umask is never set (setting it races with other threads)."""
    umask = os.umask(0o027)
    try:

        def refuse(mask):
            raise AssertionError("the umask was set")

        monkeypatch.setattr(_files.os, "umask", refuse)
        new = tmp_path / "new.html"
        write_atomically(new, lambda file: file.write("x"))
        assert stat.S_IMODE(new.stat().st_mode) == 0o640
    finally:
        monkeypatch.undo()
        os.umask(umask)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomically_umask_without_proc(tmp_path, monkeypatch):
    """Without /proc/self/status the umask is set and restored (under a
    lock): the new file gets 0o666 less it, and the umask is unchanged."""
    monkeypatch.setattr(_files, "_PROC_STATUS", str(tmp_path / "no-such-file"))
    umask = os.umask(0o077)
    try:
        new = tmp_path / "new.html"
        write_atomically(new, lambda file: file.write("x"))
        assert stat.S_IMODE(new.stat().st_mode) == 0o600
        assert os.umask(0o077) == 0o077
    finally:
        os.umask(umask)


# Special files: written directly, never replaced ------------------------------

#: More than a pipe's buffer (64 KiB on Linux): the writer waits for the reader.
BIG = "0123456789abcdef\n" * 20_000


def _read_fifo_while(fifo, action):
    """Run ``action()`` while a thread reads the FIFO ``fifo`` to its end;
    return what it returned and the bytes read. The thread reads through a
    hard link, so a FIFO renamed over is still the one read; if nothing
    opens it to write, the thread is let go (after 10 s) with nothing."""
    keep = fifo.with_name(fifo.name + ".reader")
    os.link(fifo, keep)
    got = []

    def read():
        with open(keep, "rb") as file:
            got.append(file.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        result = action()
    finally:
        thread.join(timeout=10)
        if thread.is_alive():  # no writer came: open one so that it ends
            os.close(os.open(keep, os.O_WRONLY | os.O_NONBLOCK))
            thread.join(timeout=10)
        keep.unlink()
    return result, b"".join(got)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_write_file_fifo_reader_gets_the_whole_content(tmp_path):
    """A FIFO is opened and written, not replaced: a thread reading it gets
    the whole content (more than a pipe holds at once), the FIFO stays, and
    the size returned is the bytes written."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    size, read = _read_fifo_while(
        fifo, lambda: write_file(fifo, lambda file: file.write(BIG))
    )
    assert read == BIG.encode()
    assert size == len(BIG)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert output_path_problem(fifo) is None
    assert [p.name for p in tmp_path.iterdir()] == ["fifo"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_to_html_into_a_fifo_gives_the_reader_the_page(tmp_path):
    """MLCMReport.to_html(path) to a FIFO: the reader gets the whole page,
    and the FIFO stays a FIFO."""
    report = MLCMReport.from_predictions(
        TABLE_1_TRUE, TABLE_1_PRED, target_names=TABLE_1_NAMES, zero_division=0.0
    )
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    returned, read = _read_fifo_while(fifo, lambda: report.to_html(fifo))
    assert returned == fifo
    assert read.decode("utf-8") == report.to_html()
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_write_file_character_device_is_written_not_replaced(device_node, tmp_path):
    """As root, a character device (a copy of /dev/null) is opened and
    written: it stays the same device node, nothing is left beside it, and
    the size written is said."""
    before = os.stat(device_node)
    assert output_path_problem(device_node) is None
    assert write_file(device_node, lambda file: file.write(BIG)) == len(BIG)
    after = os.stat(device_node)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_write_atomically_refuses_a_special_file(device_node):
    """write_atomically never renames over a device node (as root that would
    replace /dev/null itself): an OSError naming the path, the node kept."""
    with pytest.raises(OSError, match="Not a regular file") as info:
        write_atomically(device_node, lambda file: file.write("x"))
    assert info.value.filename == str(device_node)
    assert stat.S_ISCHR(os.stat(device_node).st_mode)


def test_write_file_refuses_a_block_device(device_node, tmp_path):
    """A block device (a disk) is refused, before anything is opened: by
    output_path_problem and by write_file, naming the path."""
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 0))  # a loop device
    assert output_path_problem(disk) == "it is a block device"
    with pytest.raises(OSError, match="^.*it is a block device") as info:
        write_file(disk, lambda file: file.write("x"))
    assert info.value.filename == str(disk)
    assert stat.S_ISBLK(os.stat(disk).st_mode)


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets")
def test_write_file_refuses_a_socket(tmp_path, monkeypatch):
    """A Unix socket is refused in words, not replaced."""
    monkeypatch.chdir(tmp_path)  # a short relative name: socket paths are short
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        assert output_path_problem("sock") == "it is a socket"
        with pytest.raises(OSError, match="it is a socket") as info:
            write_file("sock", lambda file: file.write("x"))
        assert info.value.filename == "sock"
        assert stat.S_ISSOCK(os.stat("sock").st_mode)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd")
def test_write_file_writes_through_a_descriptor_of_this_process(tmp_path):
    """/dev/fd/N (and /proc/self/fd/N) is written through descriptor N: a
    pipe's reader gets the content; a regular file open on N keeps its
    inode and gets the content after what N wrote before, where a rename
    would have put a new file in its place."""
    read, written = os.pipe()
    try:
        size = write_file(f"/dev/fd/{written}", lambda file: file.write("piped\n"))
        os.close(written)
        assert (size, os.read(read, 100)) == (6, b"piped\n")
    finally:
        os.close(read)
    target = tmp_path / "out.txt"
    with open(target, "w") as file:
        file.write("before\n")
        file.flush()
        inode = os.fstat(file.fileno()).st_ino
        path = f"/proc/self/fd/{file.fileno()}"
        assert write_file(path, lambda out: out.write("written\n")) == 8
        file.write("after\n")
    assert target.read_text() == "before\nwritten\nafter\n"
    assert os.stat(target).st_ino == inode
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd")
def test_write_file_refuses_a_descriptor_open_for_reading(tmp_path):
    """A descriptor open only for reading (a pipe's read end, as /dev/stdin
    may be) is refused in words, nothing written."""
    read, written = os.pipe()
    try:
        path = f"/dev/fd/{read}"
        assert output_path_problem(path) == "it is open for reading only"
        with pytest.raises(OSError, match="it is open for reading only"):
            write_file(path, lambda file: file.write("x"))
    finally:
        os.close(read)
        os.close(written)


def test_write_file_regular_file_stays_whole_or_nothing(tmp_path):
    """A regular file is still replaced whole (write_atomically): a failing
    writer leaves the old content; the size returned is the new file's."""
    target = tmp_path / "out.txt"
    target.write_text("old\n")

    def fail(file):
        file.write("half")
        raise RuntimeError("writer failed")

    with pytest.raises(RuntimeError, match="writer failed"):
        write_file(target, fail)
    assert target.read_text() == "old\n"
    assert write_file(target, lambda file: file.write("é\n")) == 3
    assert target.read_bytes() == "é\n".encode()
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
