import relaykit


def test_all_is_complete_and_importable() -> None:
    public = {name for name in dir(relaykit) if not name.startswith("_")}
    modules = {"bench", "cli", "embeddings", "errors", "models", "settings", "testing", "tokens", "accounting",
               "registry", "text", "selective", "memo",
               "handoff", "trajectory", "delegation", "context", "telemetry", "redact", "integrations", "serve"}
    assert public - modules - set(relaykit.__all__) == set(), "exported names missing from __all__"
    for name in relaykit.__all__:
        assert hasattr(relaykit, name), name


def test_subpackages_are_attributes_before_anyone_imports_them() -> None:
    import subprocess
    import sys

    probe = ("import relaykit, sys\n"
             "assert 'relaykit.handoff' not in sys.modules\n"
             "assert relaykit.handoff.compress_handoff\n"
             "assert relaykit.trajectory.compress_trajectory\n"
             "for name in ('nosuch', '_private'):\n"
             "    try:\n"
             "        getattr(relaykit, name)\n"
             "    except AttributeError as exc:\n"
             "        assert name in str(exc)\n"
             "    else:\n"
             "        raise SystemExit(name + ' did not raise')\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
