"""The engine's highest part, decisions: how a value is found, as objects (``methods``), a
position valued by method (``valuation``), the
cube's decisions (``cube``) and whole matches with the cube (``matchplay``).  Imports from
``engine.play`` and ``engine.evaluation`` below it."""
