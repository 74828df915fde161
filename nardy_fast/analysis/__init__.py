"""Layer 4, analysis: pandas reports, matplotlib charts and cube reports built on the
engine.  Imports from every layer below, never from ``app``."""
