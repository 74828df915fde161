"""Layer 1, the vocabulary: rules, boards, positions and their IDs, the legal move
generator, scoring, game records, the cube's state, board diagrams, seeds and the files
and cache folder every other layer uses.  Imports nothing from the layers above."""
