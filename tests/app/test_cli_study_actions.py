"""``study show STORE`` and ``study export STORE`` are the documented forms: the command
list of ``nardy-fast --help`` does not repeat them as ``study-show`` and ``study-export``,
which still work."""
import subprocess
import sys


def run(*argv):
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", *argv],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def test_help_lists_study_once():
    code, out, err = run("--help")
    assert code == 0
    assert "study-show" not in out and "study-export" not in out
    assert "'study show STORE', 'study export STORE -o FILE'" in " ".join(out.split())


def test_the_actions_are_named_as_documented(tmp_path):
    for action in ("show", "export"):
        code, out, err = run("study", action, "--help")
        assert code == 0 and out.startswith(f"usage: nardy-fast study {action} ")
    missing = str(tmp_path / "none")
    for argv in (["study", "show", missing], ["study-show", missing]):     # the old name too
        code, out, err = run(*argv)
        assert code == 1 and err == f"nardy-fast: error: store {missing}: no such folder\n"
