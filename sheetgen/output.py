"""The one writer of output files.

- A regular file is written atomically: to `.<name>.<random>.part` beside it, then renamed over it,
  so a reader never sees half a file and a failed write leaves the old file as it was.
- `-` means standard output. A device (e.g. /dev/null), a pipe or a socket is written through,
  never replaced. A symlink is followed: its target is written, the link stays a link.
- A file-system problem (a folder, a parent that is a file, no permission, read-only, full disk)
  is a one-line SheetgenError naming the path.
- Temporary files are removed on error and on Ctrl-C / SIGTERM (`sheetgen.cli` turns SIGTERM into
  an exception); a later write sweeps stale `.part` files (over an hour old) of the same target.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from .errors import SheetgenError

STALE_SECONDS = 3600

_FIX = {
    errno.EACCES: "choose a folder you may write to",
    errno.EPERM: "choose a folder you may write to",
    errno.EROFS: "the file system is read-only; choose another folder",
    errno.ENOSPC: "free some disk space or choose another disk",
    errno.EDQUOT: "free some disk space or choose another disk",
    errno.ENOTDIR: "a part of the path is a file, not a folder; choose another path",
    errno.EISDIR: "give a file name, not a folder",
    errno.ENAMETOOLONG: "use a shorter file name",
}


def os_error(exc: OSError, path: Path | str) -> SheetgenError:
    """An OSError while writing `path`, as one line a user can act on."""
    reason = exc.strerror or str(exc)
    return SheetgenError(f"cannot write the output: {reason}", file=str(path),
                         fix=_FIX.get(exc.errno, "check the path and the disk"))


def is_stdout(path: str | Path | None) -> bool:
    return str(path) == "-"


def on_stdout(path: str | Path | None) -> bool:
    """Whether `path` is this process's standard output: `-`, or a name of it such as /dev/stdout."""
    if path is None or is_stdout(path):
        return path is not None
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no such file, or no real stdout (captured)
        return False


def check_target(path: str | Path) -> Path:
    """Refuse early (before any work) an output path that cannot be a file; return it."""
    if is_stdout(path):
        return Path("-")
    path = Path(path)
    if path.is_dir():
        raise SheetgenError("the output is a folder", file=str(path),
                            fix="give a file name, e.g. out.pdf, or a path inside the folder")
    check_folder(path.parent, f"folder {path.parent}", shown=path, fix="choose another output path")
    return path



def check_folder(path: str | Path, what: str = "output", shown: str | Path | None = None,
                 fix: str = "give a folder, e.g. --out output") -> Path:
    """Refuse early an output folder that is, or is under, a file; return it."""
    path = Path(path)
    taken = next((p for p in (path, *path.parents) if p.exists()), None)
    if taken is not None and not taken.is_dir():
        where = "is a file" if taken == path else f"is under {taken}, a file"
        raise SheetgenError(f"the {what} {where}, not a folder", file=str(shown or path), fix=fix)
    return path


def written_through(path: str | Path) -> bool:
    """Whether an output goes into something that stays (stdout, a device, a pipe), not a file."""
    return is_stdout(path) or _special(Path(path))


def _special(path: Path) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def sweep(path: Path) -> None:
    """Remove stale temporary files a killed run left beside `path`. The folder is listed once per
    process (a build writes a hundred files into two folders): later files of a killed run are
    not an hour old yet."""
    for tmp in _stale(path.parent).pop(path.name, ()):
        try:
            tmp.unlink()
        except OSError:
            pass


@lru_cache(maxsize=64)
def _stale(folder: Path) -> dict[str, list[Path]]:
    """The temporary files (`.NAME.*.part`) over STALE_SECONDS old in a folder, by NAME."""
    now, out = time.time(), {}
    try:
        for tmp in folder.glob(".*.part"):
            try:
                if now - tmp.stat().st_mtime > STALE_SECONDS:
                    out.setdefault(tmp.name[1:].rsplit(".", 2)[0], []).append(tmp)
            except OSError:
                pass
    except OSError:
        pass
    return out


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if is_stdout(path):
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return Path("-")
    path = check_target(path)
    try:
        if _special(path):  # a device or pipe (a link to one too, e.g. /dev/stdout): write through,
            with open(path, "wb") as f:  # never replace it
                f.write(raw)
            return path
    except BrokenPipeError:  # its reader stopped reading: the command stops quietly (sheetgen.cli)
        raise
    except OSError as exc:
        raise os_error(exc, path) from None
    if path.is_symlink():
        path = Path(os.path.realpath(path))  # write the target, keep the link
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        sweep(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise os_error(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        mode = 0o644
        if path.exists():
            mode = stat.S_IMODE(path.stat().st_mode)  # keep the permissions of the file replaced
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise os_error(exc, path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def size(path: Path, data_len: int | None = None) -> int:
    """Bytes of a written output (a device or stdout reports what was written)."""
    if written_through(path):
        return data_len or 0
    return path.stat().st_size
