"""``_utils.scheduler``: an address where no Dask scheduler answers is named within the
bound, never a hang (the command line's ``--scheduler``: tests/app/test_args.py)."""
import socket
import threading

import pytest

pytest.importorskip("distributed")

from nardy_fast._utils.scheduler import check_scheduler, connect, first_line  # noqa: E402


def _silent_port():
    server = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        while True:
            try:
                held.append(server.accept()[0])     # accepts, and says nothing
            except OSError:                          # closed: the test is over
                return
    threading.Thread(target=serve, daemon=True).start()
    return server


def test_a_port_that_says_nothing_is_named_within_the_bound():
    server = _silent_port()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(ConnectionError, match=r"no Dask scheduler answered there "
                           r"within 1 s"):
            check_scheduler(address, 0.5)
        with pytest.raises(ConnectionError, match=rf"^scheduler {address}: no Dask "):
            connect(address, 0.5)
    finally:
        server.close()


def test_a_closed_port_is_named():
    s = socket.create_server(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(ConnectionError, match=rf"^scheduler tcp://127.0.0.1:{port}: "
                       "cannot connect"):
        connect(f"tcp://127.0.0.1:{port}", 0.5)


def test_first_line():
    assert first_line(ValueError("a\nb")) == "a"
    assert first_line(KeyError()) == "KeyError"
