"""Hoshi's network trainer: reads the positions `pbrain-hoshi features` exports, trains a
small network of the Rapfi "mix" family in PyTorch, and exports it quantised (docs/network.md)."""
