"""Command groups that several features add commands to: ``relaykit compress ...`` and ``relaykit bench ...``."""

from __future__ import annotations

import typer

compress_app = typer.Typer(help="Compress a hand-off or a trajectory.\n\nExample: relaykit compress trajectory "
                            "examples/trajectory/messages.json --keep 0.3", no_args_is_help=True)
bench_app = typer.Typer(help="Run a lab: methods side by side on benchmarks with exact ground truth.\n\n"
                        "Example: relaykit bench relay --methods passthrough,extract-rules,prune",
                        no_args_is_help=True)
