"""The lab: investigations beside the product, run from a checkout (lab/README.md).

Not installed (pyproject.toml's packages.find does not include it) and imported by no
product module or test (tests/core/test_layers.py).
"""
