"""Layer 2, exact tables: the bear-off and race databases (one-sided, two-sided, mars,
cubeful races), their solvers, files and cache, and the race values they give.
Imports only from ``core``."""
