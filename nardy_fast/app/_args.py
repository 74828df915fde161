"""Argument types shared by the front ends' parsers (``cli``, ``demo``)."""
import argparse


def positive_int(text):
    """``"12"`` -> 12; anything else is an ``argparse.ArgumentTypeError``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: expected a positive integer")
    return value
