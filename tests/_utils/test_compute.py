"""``Compute`` (_utils/compute.py): workers, client and progress checked once, by name;
one given both as a keyword and in ``compute=`` is an error."""
import pytest

from nardy_fast._utils.compute import Compute, resolve_compute


@pytest.mark.parametrize("kw, error, says", [
    ({"workers": 0}, ValueError, r"Compute: workers=0: must be >= 1"),
    ({"workers": True}, TypeError, r"Compute: workers=True"),
    ({"workers": 2.0}, TypeError, r"Compute: workers=2.0"),
    ({"progress": "yes"}, TypeError, r"Compute: progress='yes'"),
    ({"client": 4}, TypeError, r"Compute: client=4"),
])
def test_each_bad_field_is_refused_by_name(kw, error, says):
    with pytest.raises(error, match=says):
        Compute(**kw)


def test_defaults_and_equality():
    assert Compute() == Compute(workers=None, client=None, progress=None)
    assert Compute(workers=2, progress=False).workers == 2
    with pytest.raises(AttributeError):
        Compute().workers = 3


def test_resolve_compute_builds_or_passes_on_and_refuses_both():
    c = Compute(workers=1)
    assert resolve_compute("f", None, workers=1, client=None, progress=None) == c
    assert resolve_compute("f", c, workers=None, client=None, progress=None) is c
    with pytest.raises(TypeError, match="f: progress given both as a keyword and in compute="):
        resolve_compute("f", c, workers=None, client=None, progress=False)
    with pytest.raises(TypeError, match="f: compute=3: expected a nardy_fast.Compute"):
        resolve_compute("f", 3, workers=None)


def test_a_bad_flat_keyword_is_named_as_the_callers_argument():
    """``rollout(..., workers=0)``: the user wrote no ``Compute``; the message names the
    function they called."""
    with pytest.raises(ValueError, match=r"^rollout: workers=0: must be >= 1"):
        resolve_compute("rollout", None, workers=0, client=None, progress=None)
    with pytest.raises(TypeError, match=r"^rollout: progress='yes'"):
        resolve_compute("rollout", None, workers=None, client=None, progress="yes")


class _Client:
    """Stands in for a ``dask.distributed.Client`` (its ``status``)."""

    def __init__(self, status):
        self.status = status

    def map(self, fn, specs, **kw):
        raise AssertionError("no work is sent in these tests")

    def __repr__(self):
        return f"<Client: {self.status}>"


def test_a_closed_client_is_refused_by_name():
    """A Dask client closed before the call (``with Client(...)`` left, ``client.close()``):
    refused naming it, where Dask said "Client is closed. Can't send update-graph message."
    from deep in its own code once the work was sent; also when it was closed after the
    ``Compute`` holding it was made."""
    closed, running = _Client("closed"), _Client("running")
    with pytest.raises(ValueError, match=r"^rollout: client=<Client: closed>: the Dask "
                                         r"client is closed"):
        resolve_compute("rollout", None, workers=None, client=closed, progress=None)
    c = Compute(client=running)
    running.status = "closing"
    with pytest.raises(ValueError, match=r"^study: compute.client=<Client: closing>: the "
                                         r"Dask client is closed"):
        resolve_compute("study", c, workers=None, client=None, progress=None)
    assert Compute(client=_Client("newly-created")).client.status == "newly-created"


class _Cluster:
    """Stands in for a ``LocalCluster``: a scheduler's address, no ``map``."""

    scheduler_address = "tcp://127.0.0.1:8786"

    def __repr__(self):
        return "LocalCluster(1, 'tcp://127.0.0.1:8786', workers=2)"


def test_a_cluster_given_for_a_client_is_refused_by_name():
    """``rollout(..., client=LocalCluster(...))``, the cluster and not ``Client(cluster)``:
    refused naming it and the remedy, where it was an ``AttributeError`` ("'LocalCluster'
    object has no attribute 'map'") from inside the package once the work started."""
    with pytest.raises(TypeError, match=r"^rollout: client=LocalCluster\(.*\): expected a "
                                        r"dask.distributed.Client or None \(for a cluster "
                                        r"object, dask.distributed.Client\(cluster\)\)$"):
        resolve_compute("rollout", None, workers=None, client=_Cluster(), progress=None)
