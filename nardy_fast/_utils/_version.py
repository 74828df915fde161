"""The package's version, read once from its installed metadata (``pyproject.toml`` is the
one place it is written).  ``nardy_fast.__version__`` and the study stores' manifests
(``analysis.study``) both take it from here."""
import importlib.metadata

__all__ = ["__version__"]

try:
    __version__ = importlib.metadata.version("nardy_fast")   # the one place: pyproject.toml
except importlib.metadata.PackageNotFoundError:             # a source tree never installed
    __version__ = "0+unknown"
