"""The relay lab: Researcher -> hand-off compression -> Booker on a closed-world travel benchmark (paper 000)."""

from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.truth import Truth, brute_force_truth, ground_truth, truth_table
from relaykit.bench.relay.world import Flight, Goal, Hotel, World, load_world, save_world, validate_world

__all__ = [
    "Flight",
    "Goal",
    "Hotel",
    "Truth",
    "World",
    "WorldSpec",
    "brute_force_truth",
    "generate_world",
    "ground_truth",
    "load_world",
    "save_world",
    "truth_table",
    "validate_world",
]
