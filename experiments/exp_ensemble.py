"""Experiment: an ensemble, the mean of several nets' outputs, against the accuracy set.

Each net's 0-ply outputs of the accuracy set's positions, then their mean, valued by the
shipped net's points (``Searcher.equities``); the mean absolute equity error against the
set's rollouts (``benchmarks/data/accuracy.parquet``), held-out, dev and all.

    python experiments/exp_ensemble.py NET NET [NET ...]
"""
import argparse
import os

import numpy as np
import pandas as pd

import nardy_fast as nf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks",
                    "data", "accuracy.parquet")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nets", nargs="+")
    args = ap.parse_args()
    frame = pd.read_parquet(DATA)
    boards = np.stack([np.asarray(nf.Position.from_id(p).boards) for p in frame.position])
    held = (frame.split == "heldout").to_numpy()
    truth = frame.equity.to_numpy()
    search = nf.Evaluator.default().searcher()
    outs = []
    for path in args.nets:
        outs.append(nf.Evaluator.load(path).probabilities(boards, plies=0)[0])
        report(path, search, outs[-1], truth, held)
    report(f"the mean of {len(outs)}", search, np.mean(outs, axis=0), truth, held)


def report(name, search, values, truth, held):
    e = np.abs(search.equities(values.astype(np.float32)) - truth)
    print(f"{name}: held-out {e[held].mean():.4f}, dev {e[~held].mean():.4f}, "
          f"all {e.mean():.4f}")


if __name__ == "__main__":
    main()
