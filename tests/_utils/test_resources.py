"""``_utils._resources``: sizes said in the unit that shows them."""
from nardy_fast._utils._resources import gib


def test_a_size_is_never_shown_as_zero_megabytes():
    # --memory 1KB was refused as "more than memory=0 MB"
    assert gib(1000) == "1 kB"
    assert gib(512) == "512 bytes"
    assert gib(34_000_000) == "34 MB"
    assert gib(1.7e9) == "1.7 GB"
