"""``_utils._io.atomic_write``: a file is written whole or not at all, beside its final
name, and a folder at that name is named before any work."""
import errno
import os

import pytest

from nardy_fast._utils._io import atomic_write, atomic_write_text


def test_a_file_is_written_whole_and_its_folder_made(tmp_path):
    path = tmp_path / "new" / "x.txt"
    assert atomic_write_text(path, "hello") == str(path)
    assert path.read_text() == "hello" and os.listdir(tmp_path / "new") == ["x.txt"]


def test_a_failed_write_leaves_nothing_and_the_old_file(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("old")

    def fails(tmp):
        with open(tmp, "w") as f:
            f.write("half")
        raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        atomic_write(path, fails)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["x.txt"]


def test_replace_false_never_replaces(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("old")
    with pytest.raises(FileExistsError) as e:
        atomic_write_text(path, "new", replace=False)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["x.txt"]
    # named as given: it named the removed temporary file first ('.x.txt....tmp.txt' -> ...)
    assert e.value.filename == str(path) and e.value.filename2 is None
    assert ".tmp" not in str(e.value) and "replace=True" in str(e.value)


def test_a_folder_at_the_name_is_named_before_any_work(tmp_path):
    """It failed after writing the whole file, naming the temporary file beside it."""
    calls = []
    with pytest.raises(IsADirectoryError) as err:
        atomic_write(tmp_path, calls.append)
    assert err.value.errno == errno.EISDIR and err.value.filename == str(tmp_path)
    assert "a folder, not a file" in str(err.value) and calls == []
    assert os.listdir(tmp_path) == []


def test_check_path_names_what_is_no_path(tmp_path):
    """``check_path``: the one check of a file path argument (``Evaluator.load``, the
    database files, ``save_frame``); it was Python's bare "expected str, bytes or
    os.PathLike object, not NoneType"."""
    from nardy_fast._utils._io import check_path
    assert check_path(tmp_path / "x") == str(tmp_path / "x") and check_path("y") == "y"
    with pytest.raises(TypeError, match=r"^out: expected a file path \(str or os\.PathLike\), "
                                        r"got int$"):
        check_path(5, "out")
    with pytest.raises(TypeError, match=r"^path: expected a file path .*got NoneType$"):
        atomic_write_text(None, "text")


def test_replace_false_never_replaces_without_hard_links(tmp_path, monkeypatch):
    """Where the file system has no hard links, the name is claimed exclusively first: an
    existing file is still refused and kept, a new name still gets the whole file."""
    def no_links(src, dst):
        raise OSError(errno.EPERM, "no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    old = tmp_path / "old.txt"
    old.write_text("mine")
    with pytest.raises(FileExistsError):
        atomic_write_text(old, "new", replace=False)
    assert old.read_text() == "mine"
    new = tmp_path / "new.txt"
    atomic_write_text(new, "whole", replace=False)
    assert new.read_text() == "whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]
