"""The sheetgen script writing into pipes: /dev/stdout is the PDF alone, and a reader that stops
reading (`| head`) stops the command quietly, as a Unix tool killed by SIGPIPE does."""

from __future__ import annotations

import io
import subprocess
import sys

from conftest import page_mm

RENDER = [sys.executable, "-m", "sheetgen", "render", "tricky-treats", "--out", "/dev/stdout"]


def test_dev_stdout_in_a_pipe_is_the_pdf_alone():
    res = subprocess.run(RENDER, capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(b"%PDF-") and res.stdout.rstrip().endswith(b"%%EOF")  # the PDF alone
    assert page_mm(io.BytesIO(res.stdout)) == [(297.0, 210.0)]  # A4 landscape
    assert res.stderr.decode().startswith("wrote /dev/stdout (1 page")


def test_a_reader_that_stops_reading_stops_the_command_quietly():
    proc = subprocess.Popen(RENDER, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(5) == b"%PDF-"  # the PDF (~84 KB) is more than a pipe holds
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == ""


def test_a_new_layout_goes_into_a_pipe_and_its_note_is_not_mixed_in():
    res = subprocess.run([sys.executable, "-m", "sheetgen", "new", "mine", "--from", "tricky-treats",
                          "--out", "/dev/stdout"], capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr  # a pipe is not a file that "already exists"
    assert res.stdout.decode().splitlines()[2] == "extends: tricky-treats" and b"wrote" not in res.stdout
