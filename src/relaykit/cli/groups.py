"""Command groups that several features add commands to: ``relaykit compress ...`` and ``relaykit bench ...``."""

from __future__ import annotations

import typer

compress_app = typer.Typer(help="Compress a hand-off or a trajectory.", no_args_is_help=True)
bench_app = typer.Typer(help="Run a lab: methods side by side on benchmarks with exact ground truth.",
                        no_args_is_help=True)
