"""Test doubles shipped with relaykit: use them in your own tests as relaykit's tests do.

The scripted model lives in ``relaykit.models.scripted`` (so the model registry can open ``scripted`` without
importing this module); it is re-exported here for users' tests.
"""

from relaykit.models.scripted import Answer, Responder, ScriptedModel

__all__ = ["Answer", "Responder", "ScriptedModel"]
