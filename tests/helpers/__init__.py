"""Tooling only the tests and benchmarks use: a headless Chromium driver and synthetic graphs (not shipped)."""
