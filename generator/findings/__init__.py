"""Findings of every command: one type, one level policy, one printer per format."""
