import tempfile

import pytest


@pytest.fixture(scope="session", autouse=True)
def _temp_dirs_under_pytests_own(tmp_path_factory):
    """Every temp dir the tests make (the embedded Redis servers' data, the workers' logs) under pytest's own base
    temp, which pytest prunes to its last runs: the suite leaves nothing of its own in the system's temp dir."""
    before = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("tmp"))
    yield
    tempfile.tempdir = before
