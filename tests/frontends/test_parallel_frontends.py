"""Parallel runs work from every Python front end, with the same numbers as in-process runs.

Each front end runs the same code in a fresh interpreter: a rollout on a pool of two
workers with a built-in policy and one with a callable policy defined in ``__main__``.
The printed figures must equal, to the last bit, those of this process with ``workers=1``.
"""
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

import nardy_fast as nf
from nardy_fast.engine.play.parallel import run_chunks, unsendable

CODE = textwrap.dedent("""\
    import nardy_fast as nf

    def pol(c, o):
        return c[:, 18:].sum(axis=1) * 1.0

    kw = dict(seed=7, truncate=None, progress=False, chunk_size=1296)
    a_id = "B_gAAAAAAAAAAAAABAAAAAAAAAAAAAAAA"   # after White's opening 6-5
    a = nf.rollout(nf.Position.initial(), 2592, policy="random", workers=2, **kw)
    b = nf.rollout(nf.Position.initial(), 2592, policy=pol, workers=2, **kw)
    c = nf.rollout_many(["W_wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", a_id], 1296, policy="random",
                        workers=2, **kw)
    print("RESULT", a.extra["backend"], repr(a.p_win), repr(a.equity), repr(b.p_win),
          repr(float(c["equity"].sum())))
    """)


A_ID = "B_gAAAAAAAAAAAAABAAAAAAAAAAAAAAAA"


def pol(c, o):
    return c[:, 18:].sum(axis=1) * 1.0


@pytest.fixture(scope="module")
def expected():
    kw = dict(seed=7, truncate=None, progress=False, chunk_size=1296)
    a = nf.rollout(nf.Position.initial(), 2592, policy="random", workers=1, **kw)
    b = nf.rollout(nf.Position.initial(), 2592, policy=pol, workers=1, **kw)
    c = nf.rollout_many([nf.Position.initial().id, A_ID], 1296, policy="random", workers=1,
                        **kw)
    return f"RESULT pool(2) {a.p_win!r} {a.equity!r} {b.p_win!r} {float(c['equity'].sum())!r}"


def run(args, cwd, stdin=None, env=None):
    proc = subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=300, env=env)
    results = [line[line.index("RESULT"):].strip() for line in proc.stdout.splitlines()
               if "RESULT" in line]            # after any prompts of an interactive shell
    assert proc.returncode == 0 and len(results) == 1, (proc.stdout, proc.stderr)
    assert "BrokenProcessPool" not in proc.stderr
    return results[0], proc


@pytest.mark.slow
def test_script_with_main_guard(tmp_path, expected):
    head, runs = CODE.split("kw = dict")
    guarded = head + 'if __name__ == "__main__":\n' + textwrap.indent("kw = dict" + runs, "    ")
    (tmp_path / "guarded.py").write_text(guarded)
    assert run(["guarded.py"], tmp_path)[0] == expected


@pytest.mark.slow
def test_script_without_main_guard_runs_its_top_level_once(tmp_path, expected):
    (tmp_path / "unguarded.py").write_text(CODE)
    assert run(["unguarded.py"], tmp_path)[0] == expected


@pytest.mark.slow
def test_script_on_standard_input(tmp_path, expected):
    assert run(["-"], tmp_path, stdin=CODE)[0] == expected


@pytest.mark.slow
def test_python_c(tmp_path, expected):
    assert run(["-c", CODE], tmp_path)[0] == expected


@pytest.mark.slow
def test_interactive_interpreter(tmp_path, expected):
    # the REPL reads the lines from a pipe as typed; a blank line closes the def
    assert run(["-i"], tmp_path, stdin=CODE + "\n")[0] == expected


@pytest.mark.slow
def test_ipython(tmp_path, expected):
    pytest.importorskip("IPython")
    assert run(["-m", "IPython", "--quick", "--no-banner", "--colors=NoColor"], tmp_path,
               stdin=CODE + "\nexit\n")[0] == expected


@pytest.mark.slow
def test_without_cloudpickle_a_main_policy_runs_here_and_says_so(tmp_path, expected):
    code = "import sys\nsys.modules['cloudpickle'] = None\n" + CODE
    out, proc = run(["-"], tmp_path, stdin=code)
    assert out == expected
    assert "RuntimeWarning" in proc.stderr
    assert "pol is defined in __main__" in proc.stderr
    assert "running 2 chunks in this process" in proc.stderr


@pytest.mark.slow
def test_jupyter(tmp_path, expected):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CODE)]
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "".join(o.get("text", "") for o in nb.cells[0].outputs
                   if o.output_type == "stream" and o.name == "stdout")
    assert [line for line in text.splitlines() if "RESULT" in line] == [expected]
    assert not [o for o in nb.cells[0].outputs if o.output_type == "error"]


def test_unsendable_names_the_main_object():
    main = type(sys)("__main__")
    exec("def policy(c, o):\n    return c.sum(axis=1)\n", main.__dict__)
    f = main.policy
    assert unsendable(("greedy", 1.0)) is None
    assert unsendable(nf.Rules()) is None
    assert unsendable({"policies": (f, "greedy")}) == \
        "policy is defined in __main__, which worker processes do not import"
    assert unsendable([lambda x: x]).startswith("it cannot be pickled")


def test_unpicklable_work_runs_here_with_a_warning(monkeypatch):
    got = {}
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "cloudpickle", None)
        with pytest.warns(RuntimeWarning, match="cannot be pickled.*install cloudpickle"):
            run_chunks(lambda x: 3 * x, [1, 2, 3], got.__setitem__, sizes=[1, 1, 1],
                       workers=2, progress=False)
    assert got == {0: 3, 1: 6, 2: 9}


def test_work_cloudpickle_cannot_send_either_is_named_with_its_error():
    """With cloudpickle installed but unable to send the work (a lock in a policy's
    closure), the warning said to install cloudpickle."""
    pytest.importorskip("cloudpickle")
    import threading
    lock = threading.Lock()

    def locked(x):
        with lock:
            return 3 * x
    got = {}
    with pytest.warns(RuntimeWarning, match=r"cloudpickle cannot send it either "
                                            r"\(TypeError: .*lock") as record:
        run_chunks(locked, [1, 2, 3], got.__setitem__, sizes=[1, 1, 1], workers=2,
                   progress=False)
    assert "install cloudpickle" not in str(record[0].message)
    assert got == {0: 3, 1: 6, 2: 9}


@pytest.mark.slow
def test_with_cloudpickle_unpicklable_work_goes_to_the_workers():
    pytest.importorskip("cloudpickle")
    got = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_chunks(lambda x: (3 * x, os.getpid()), [1, 2, 3], got.__setitem__,
                   sizes=[1, 1, 1], workers=2, progress=False)
    assert [got[i][0] for i in range(3)] == [3, 6, 9]
    assert os.getpid() not in {pid for _, pid in got.values()}


def test_the_hook_is_still_there():
    """``engine._nomain`` wraps ``multiprocessing.spawn.get_preparation_data``: on this
    Python the hook exists, names ``__main__`` for other processes, and the wrapper leaves
    it out for the pool's workers only."""
    import multiprocessing.spawn
    import sys

    from nardy_fast.engine.play import _nomain   # private on purpose: the standard-library patch
    _nomain.install()
    assert multiprocessing.spawn.get_preparation_data is _nomain._preparation_data
    main = sys.modules["__main__"]
    has_main = getattr(main, "__file__", None) or getattr(main, "__spec__", None)
    other = multiprocessing.spawn.get_preparation_data("SomeProcess-1")
    worker = multiprocessing.spawn.get_preparation_data(_nomain.WORKER_PREFIX + "-1")
    assert not {"init_main_from_path", "init_main_from_name"} & set(worker)
    if has_main:                       # pytest's own __main__ is named for other processes
        assert {"init_main_from_path", "init_main_from_name"} & set(other)
    drop = ("init_main_from_path", "init_main_from_name", "name")
    assert {k: v for k, v in other.items() if k not in drop} == \
        {k: v for k, v in worker.items() if k != "name"}
