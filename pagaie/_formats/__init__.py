"""Readers and writers of Paddle's own file formats (``.pdiparams``...)."""
