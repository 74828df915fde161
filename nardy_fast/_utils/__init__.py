"""Private utilities, below every layer: atomic writes (``_io``), the package's database
files (``_dbfile``), memory and disk checks (``_resources``), progress bars and the one
meaning of ``progress=`` (``_progress``), the one list of settings that differ
(``_settings``), the compute context ``Compute`` (``compute``, public as
``nardy_fast.Compute``), the data folder (``datadir``), the version (``_version``) and the
optional dependencies, named with their extra when missing (``_optional``).
Imports nothing of the package; not a public API (but ``Compute``)."""
