"""The test suite, grouped as the code is (a package: test modules of the same basename
in two folders do not collide)."""
