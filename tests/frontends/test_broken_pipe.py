"""``nardy-fast moves ... | head -1``: when the reader of standard output leaves, the
command exits quietly (no error, no traceback), with status 141 as a program killed by
SIGPIPE."""
import os
import subprocess
import sys


def run_into_closed_pipe(*argv):
    r, w = os.pipe()
    os.close(r)                         # the reader is gone before the first write
    try:
        p = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", *argv], stdout=w,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    return p.returncode, p.stderr


def test_moves_into_a_closed_pipe_exits_quietly():
    code, err = run_into_closed_pipe("moves", "start", "65")
    assert err == "" and code == 141


def test_json_into_a_closed_pipe_exits_quietly():
    code, err = run_into_closed_pipe("moves", "start", "31", "--json")
    assert err == "" and code == 141


def test_head_of_a_pipeline_gets_its_line():
    p = subprocess.run(f"'{sys.executable}' -m nardy_fast.app.cli moves start 65 | head -1",
                       shell=True, capture_output=True, text=True, timeout=120)
    assert p.stdout.startswith("white on roll, 65:") and p.stderr == ""
