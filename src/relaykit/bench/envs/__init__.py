"""Environment adapters shared by the labs: one BFCL loader and one τ²-bench driver.

The delegation lab (suites of delegations) and the trajectory lab (gold trajectories) both read BFCL's data
and run its tool backends, and both drive τ²'s tools and databases without a user simulator; they do it
through these modules, so labs never import each other.
"""

from relaykit.bench.envs.bfcl import backend_methods, call_string, data_file, parse_call, turn_text
from relaykit.bench.envs.tau2 import Tau2Episode, domain_module, request_text

__all__ = ["Tau2Episode", "backend_methods", "call_string", "data_file", "domain_module", "parse_call",
           "request_text", "turn_text"]
