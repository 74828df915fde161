"""``_utils._resources``: sizes said in the unit that shows them; the memory available."""
import os
import subprocess
import sys

import pytest

from nardy_fast._utils._resources import gib


def test_a_size_is_never_shown_as_zero_megabytes():
    # --memory 1KB was refused as "more than memory=0 MB"
    assert gib(1000) == "1 kB"
    assert gib(512) == "512 bytes"
    assert gib(34_000_000) == "34 MB"
    assert gib(1.7e9) == "1.7 GB"


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc/self/statm")
def test_the_address_space_limit_counts_as_memory_not_available():
    # under ``ulimit -v`` a build was checked against the machine's free memory only, and
    # failed late with numpy's "Unable to allocate"; the child process lowers its own
    # limit to 200 MB more than it maps, and the memory it reports available follows
    code = """if True:
        import resource
        from nardy_fast._utils import _resources
        mapped = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS,
                           (mapped + 200 * 10**6, resource.getrlimit(resource.RLIMIT_AS)[1]))
        print(_resources.available_memory())
        try:
            _resources.check_memory(10**9, "a table", "use a smaller one")
        except MemoryError as e:
            print(e)
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    room, message = out.splitlines()
    assert 0 < int(room) <= 200 * 10**6
    assert message.startswith("a table needs about 1.1 GB of memory and ")
    assert message.endswith("is available (the process's address-space limit, ulimit -v): "
                            "use a smaller one")
