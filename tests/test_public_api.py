import relaykit


def test_all_is_complete_and_importable() -> None:
    public = {name for name in dir(relaykit) if not name.startswith("_")}
    modules = {"bench", "cli", "embeddings", "errors", "models", "settings", "testing", "tokens", "accounting",
               "registry", "text", "selective", "memo",
               "handoff", "trajectory", "delegation", "context", "telemetry", "redact", "integrations", "serve"}
    assert public - modules - set(relaykit.__all__) == set(), "exported names missing from __all__"
    for name in relaykit.__all__:
        assert hasattr(relaykit, name), name
