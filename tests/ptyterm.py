"""Drive the real ``nardy-fast`` command in a pseudo-terminal, as a person at a keyboard
does: Ctrl-C (``\\x03``) and Ctrl-D (``\\x04``) are the terminal's, sent to the command's
whole process group by the line discipline, not signals sent by the test."""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

CTRL_C = b"\x03"
CTRL_D = b"\x04"


class Terminal:
    """``nardy-fast ARGV...`` in a pseudo-terminal, in the folder ``cwd``."""

    def __init__(self, argv, cwd, env=None):
        pid, fd = pty.fork()
        if pid == 0:                                    # the child: the command
            try:                                        # a 24 x 100 screen, as a window
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
                os.chdir(cwd)
                env2 = dict(os.environ, **(env or {}), COLUMNS="100", MPLBACKEND="Agg")
                os.execve(sys.executable, [sys.executable, "-m", "nardy_fast.app.cli",
                                           *argv], env2)
            finally:
                os._exit(127)
        self.pid, self.fd, self.output, self.status = pid, fd, b"", None

    @property
    def text(self):
        return self.output.decode("utf-8", "replace").replace("\r\n", "\n")

    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:                                 # the command closed the terminal
            return None
        if not chunk:
            return None
        self.output += chunk
        return True

    def expect(self, pattern, timeout=120):
        """Wait until the output (since the start) matches ``pattern``; the match."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while True:
            m = rx.search(self.text)
            if m:
                return m
            left = deadline - time.monotonic()
            if left <= 0 or self._read(min(left, 0.5)) is None:
                m = rx.search(self.text)
                if m:
                    return m
                raise AssertionError(f"{pattern!r} not seen; output so far:\n{self.text}")

    def send(self, data):
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def _reap(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                self.status = 128 - code if code < 0 else code
        return self.status

    def interrupt(self, settle=1.0, again_after=15.0):
        """Press Ctrl-C at a prompt the command shows.  ``settle`` seconds first: a signal
        that lands after the prompt is printed but before the read starts is only seen
        when the read returns (CPython's ``input``), so a person's Ctrl-C, never that
        instant, is what is tested; pressed again if the command is still waiting after
        ``again_after`` seconds."""
        time.sleep(settle)
        self.send(CTRL_C)
        deadline = time.monotonic() + again_after
        while time.monotonic() < deadline:
            if self._reap() is not None or self._read(0.2) is None:
                return
        self.send(CTRL_C)

    def wait(self, timeout=120):
        """The exit status (128 + N after signal N), reading the rest of the output."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._read(0.2) is None:
                break
        while time.monotonic() < deadline:
            if self._reap() is not None:
                return self.status
            self._read(0.2)
        self.kill()
        raise AssertionError(f"the command did not end; output:\n{self.text}")

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass

    def close(self):
        if self.status is None:
            self.kill()
        try:
            os.close(self.fd)
        except OSError:
            pass
