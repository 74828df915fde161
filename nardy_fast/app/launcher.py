"""The ``nardy-fast`` program's entry point: ``nardy-fast --version`` is answered from the
package's metadata alone, before the command line's modules (numpy, the engine, pandas)
are imported; every other call goes to ``nardy_fast.app.cli.console_main``.  Ctrl-C
before a command has started (while those modules load and the options are read) ends
the program with one line and status 130, not a traceback; SIGTERM there is taken as
Ctrl-C from the start (status 143), as the command takes it once it runs, instead of
killing the program without a word."""
import signal
import sys

__all__ = ["console_main"]


def console_main(argv=None):
    """Run the ``nardy-fast`` command with ``argv`` (default ``sys.argv[1:]``) and exit."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        from nardy_fast._utils._version import __version__   # lazy: the metadata only
        print(f"nardy-fast {__version__}")
        sys.exit(0)
    terminated = []

    def on_sigterm(signum, frame):      # as Ctrl-C; a later SIGTERM is ignored
        if not terminated:
            terminated.append(signum)
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        # lazy: the whole command line (numpy, the engine) only for a command that runs
        from nardy_fast.app.cli import console_main as run
        run(args)
    except KeyboardInterrupt:
        # a command that has started takes Ctrl-C and SIGTERM itself (saves, reports,
        # status 130 or 143); one that reaches here was stopped before it started, or
        # while it finished
        print("nardy-fast: interrupted", file=sys.stderr)
        sys.exit(128 + signal.SIGTERM if terminated else 130)
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    console_main()
