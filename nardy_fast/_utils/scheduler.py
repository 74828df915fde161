"""A Dask ``Client`` for a scheduler's address, connected within a bound.

``distributed.Client(address, timeout=...)`` bounds the connection but not the answer to
Dask's handshake: at a port where another program listens (the dashboard's, 8787, typed
for the scheduler's) it waits for ever, and a program that answers in its own protocol
makes it fail with a ``MemoryError`` (its first bytes read as a frame's size).
``connect`` exchanges the handshake itself first, within a bound, and says in one line
what went wrong.
"""
from __future__ import annotations

__all__ = ["connect", "check_scheduler"]

CONNECT_SECONDS = 10      # to connect, and then as many for the handshake's answer


def check_scheduler(address: str, seconds: float | None = None) -> None:
    """Connect to ``address`` and exchange Dask's handshake within ``2 * seconds``
    (None: ``CONNECT_SECONDS``).

    Raises
    ------
    ConnectionError
        Nothing answered, what answered is no Dask scheduler, or it did not answer in
        time; the message says which (without the address: the caller names it).
    """
    import asyncio                        # lazy: only a cluster run connects
    from distributed.comm import connect as comm_connect   # lazy: dask is optional
    seconds = CONNECT_SECONDS if seconds is None else seconds

    async def handshake():
        comm = await asyncio.wait_for(comm_connect(address, timeout=seconds), 2 * seconds)
        await comm.close()

    try:
        asyncio.run(handshake())
    except TimeoutError:                  # connected, and no handshake came back
        raise ConnectionError(f"no Dask scheduler answered there within {2 * seconds:g} s "
                              "(another program's port, such as the dashboard's?)") from None
    except MemoryError:
        raise ConnectionError("what answered there is not a Dask scheduler") from None
    except Exception as e:                # a refusal of any kind
        raise ConnectionError(f"cannot connect ({first_line(e)})") from None


def connect(address: str, seconds: float | None = None):
    """A ``distributed.Client`` of the scheduler at ``address``, its handshake checked
    first (``check_scheduler``; ``seconds`` None: ``CONNECT_SECONDS``); ``ConnectionError``
    naming ``address`` otherwise."""
    from dask.distributed import Client   # lazy: dask is optional, slow to import
    seconds = CONNECT_SECONDS if seconds is None else seconds
    try:
        check_scheduler(address, seconds)
        return Client(address, timeout=f"{seconds:g}s")
    except ConnectionError as e:
        raise ConnectionError(f"scheduler {address}: {e}") from None
    except Exception as e:                # a refusal of any kind, named with the address
        raise ConnectionError(f"scheduler {address}: cannot connect ({first_line(e)})") \
            from None


def first_line(error: BaseException) -> str:
    """An exception's message's first line, else its type's name."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__
