"""The ``relaykit`` app: subcommands are registered here; user mistakes become one red line."""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from relaykit.cli import relay  # noqa: F401 - registers `bench relay`
from relaykit.cli._common import err_console, read_text
from relaykit.cli.cache_trace import register as register_cache_trace_commands
from relaykit.cli.compress_handoff import compress_handoff
from relaykit.cli.context import context_app  # also registers `bench composition`
from relaykit.cli.delegation import delegation_app  # also registers `bench delegation`
from relaykit.cli.doctor import doctor
from relaykit.cli.groups import bench_app, compress_app
from relaykit.cli.report import report, runs
from relaykit.cli.trajectory import trajectory_app  # also registers `compress/bench trajectory`
from relaykit.errors import RelaykitError, UsageError

app = typer.Typer(
    name="relaykit",
    help="Compress what passes between LLM agents without losing the facts, and measure it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command()(doctor)
app.command()(report)
app.command()(runs)
app.add_typer(compress_app, name="compress")
app.add_typer(bench_app, name="bench")
app.add_typer(context_app, name="context")
app.add_typer(delegation_app, name="delegation")
app.add_typer(trajectory_app, name="trajectory")
compress_app.command("handoff")(compress_handoff)
register_cache_trace_commands(app)


@app.command("tokens")
def tokens_command(
    file: str = typer.Argument(..., help="A text file, or - for standard input."),
    encoding: str = typer.Option("o200k_base", help="o200k_base or cl100k_base."),
) -> None:
    """Print the number of tokens in FILE."""
    from relaykit.tokens import count

    typer.echo(count(read_text(file), encoding))


def main(argv: list[str] | None = None) -> None:
    """Entry point: relaykit errors become one red line, exit 2 for usage errors and 1 for model errors."""
    try:
        app(args=argv, prog_name="relaykit")
    except UsageError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except RelaykitError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
