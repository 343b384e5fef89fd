"""Findings of `lint`, `breaking` and `conform`: one type, one level policy, one printer per format."""
