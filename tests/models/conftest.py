"""Fixtures for the model-wrapper tests: the Redis server fixture lives in tests/conftest.py."""
