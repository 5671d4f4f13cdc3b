"""sheetgen installed as a user installs it: the wheel carries every layout, template and font, and
the installed tool works from an empty folder with the layout search path.

The wheel test is cheap on purpose: the wheel is built without build isolation and installed
with --no-deps into a venv that sees this interpreter's packages, so it needs no network and
takes seconds. (The full fresh-venv `pip install .` is a manual check, see README.)

numba keys its cache by the source file's folder (and content), so the installed engines would
compile again (5-10 CPU s each); the venv gets this checkout's compiled Boogaloo engine copied to
its own folder instead, and the test checks the installed tool found it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, wait_for_engines

SHIPPED = {f"sheetgen/{d}/{p.name}" for d in ("layouts", "templates", "fonts")
           for p in (ROOT / d if d != "fonts" else ROOT / "sheetgen" / d).iterdir() if p.is_file()}
ENGINES = ("boogaloo",)  # the engine the installed tool plays below: conftest waits for it alone


def _can_build() -> bool:
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return importlib.util.find_spec("wheel") is not None or (major, minor) >= (70, 1)


def _share_compiled_engine(installed: Path, engine: str = ENGINES[0]) -> None:
    """Copy this checkout's numba cache of one engine (the session's warmer compiled it) to the
    folder numba looks in for the installed package: the same source, so the same code."""
    from sheetgen.jit import cache_folder

    wait_for_engines(engine)
    cached = cache_folder(ROOT / "sheetgen" / "games" / engine)
    if cached is not None and cached.is_dir():
        shutil.copytree(cached, cache_folder(installed / "games" / engine), dirs_exist_ok=True)


def _run(exe: Path, *args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), "-m", "sheetgen", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A venv with the built wheel installed (the system packages visible for its dependencies)."""
    if not _can_build():
        pytest.skip("building a wheel offline needs setuptools>=70.1 or the 'wheel' package")
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"  # a copy of the tracked files: no stale build/ folder can leak into the wheel
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        dest = src / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_symlink():
            dest.symlink_to(os.readlink(ROOT / name))
        elif (ROOT / name).is_file():
            shutil.copy2(ROOT / name, dest)
    # the build backend's PEP 517 hook, as `pip wheel --no-build-isolation` calls it (without pip's
    # start-up and its second process)
    subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                    "build_meta.build_wheel(sys.argv[1])", str(tmp / "dist")],
                   cwd=src, check=True, capture_output=True)
    wheel = next((tmp / "dist").glob("sheetgen-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(tmp / "venv")], check=True)
    py = tmp / "venv" / "bin" / "python"
    # this interpreter's pip, run by the venv's python (it sees the system packages): one process
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    _share_compiled_engine(next((tmp / "venv").glob("lib*/python*/site-packages/sheetgen")))
    empty = tmp / "empty"
    empty.mkdir()
    return wheel, py, empty


def test_wheel_holds_every_layout_template_and_font(venv):
    wheel, _, _ = venv
    names = set(zipfile.ZipFile(wheel).namelist())
    assert len(SHIPPED) >= 30 and SHIPPED <= names, sorted(SHIPPED - names)
    assert not any(n.startswith(("layouts/", "templates/")) for n in names)  # inside the package only


def test_installed_tool_works_from_an_empty_folder(venv, tmp_path):
    _, py, empty = venv
    where = subprocess.run([str(py), "-c", "import sheetgen; print(sheetgen.__file__)"],
                           capture_output=True, text=True, cwd=empty).stdout
    assert "site-packages" in where and str(ROOT) not in where, where
    out, kit = tmp_path / "tt.pdf", tmp_path / "rollers.pdf"
    runs = {name: _start(py, *args, cwd=empty) for name, args in {
        "version": ("--version",),
        "render": ("render", "tricky-treats", "--out", str(out)),
        "kit": ("kit", "rollers", "--out", str(kit)),
    }.items()}  # at once: the commands are independent (`list` and `validate`: see the next test)
    done = {name: (p.returncode, *outs) for name, p in runs.items() for outs in [p.communicate()]}
    for name, (status, _, err) in done.items():
        assert status == 0, (name, err)
    assert done["version"][1].startswith("sheetgen ")
    assert len(PdfReader(out).pages) == 1 and len(PdfReader(kit).pages) >= 3
    assert list(empty.iterdir()) == []  # nothing written into the folder it ran in


def _start(py: Path, *args: str, cwd: Path) -> subprocess.Popen:
    exe = [str(py.parent / "sheetgen")] if args == ("--version",) else [str(py), "-m", "sheetgen"]
    return subprocess.Popen([*exe, *args], cwd=cwd, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def test_my_layout_outside_the_checkout(venv, tmp_path):
    """`extends: tricky-treats` from a folder of one's own, and a local layouts/ with one file."""
    _, py, _ = venv
    res = _run(py, "new", "my-treats", "--from", "tricky-treats", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    text = (tmp_path / "my-treats.yaml").read_text()
    assert "extends: tricky-treats" in text
    res = _run(py, "render", "my-treats.yaml", "--out", "mine.pdf", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert len(PdfReader(tmp_path / "mine.pdf").pages) == 1
    res = _run(py, "new", "my-boogaloo", "--from", "boogaloo", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    before = sorted(tmp_path.iterdir())
    res = _run(py, "validate", "my-boogaloo.yaml", "--games", "1000", "--sheet", "2", "--json", "--workers", "1",
               cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert '"completable": true' in res.stdout
    assert "compiling" not in res.stderr  # the engine copied to the venv's cache folder was found
    assert sorted(tmp_path.iterdir()) == before  # validating writes nothing into the folder it ran in
    again = _run(py, "new", "my-treats", "--from", "tricky-treats", cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr
    (tmp_path / "layouts").mkdir()
    (tmp_path / "my-treats.yaml").rename(tmp_path / "layouts" / "my-treats.yaml")
    rows = [line.split()[:2] for line in _run(py, "list", cwd=tmp_path).stdout.splitlines()]
    assert ["my-treats", "./layouts"] in rows
    assert ["tricky-treats", "shipped"] in rows and ["rollers", "kit"] in rows
    shipped = [n for n, src in rows if src == "shipped"]
    assert len(shipped) == len(list((ROOT / "layouts").glob("*.yaml")))
