"""The ``relaykit`` app: subcommands are registered here; user mistakes become one red line."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.markup import escape

from relaykit.cli import relay  # noqa: F401 - registers `bench relay`
from relaykit.cli._common import err_console, print_json, read_text
from relaykit.cli.cache_trace import register as register_cache_trace_commands
from relaykit.cli.compress_handoff import compress_handoff
from relaykit.cli.context import context_app  # also registers `bench composition`
from relaykit.cli.delegation import delegation_app  # also registers `bench delegation`
from relaykit.cli.doctor import doctor
from relaykit.cli.groups import bench_app, compress_app
from relaykit.cli.report import report
from relaykit.cli.runs import runs_app
from relaykit.cli.serve import serve
from relaykit.cli.trajectory import trajectory_app  # also registers `compress/bench trajectory`
from relaykit.errors import RelaykitError, UsageError

app = typer.Typer(
    name="relaykit",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, PowerShell)
)
app.command()(doctor)
app.command()(report)
app.add_typer(runs_app, name="runs")
app.command()(serve)
app.add_typer(compress_app, name="compress")
app.add_typer(bench_app, name="bench")
app.add_typer(context_app, name="context")
app.add_typer(delegation_app, name="delegation")
app.add_typer(trajectory_app, name="trajectory")
compress_app.command("handoff")(compress_handoff)
register_cache_trace_commands(app)


def _version(value: bool) -> None:
    if value:
        from relaykit.bench.htmlpage import relaykit_version

        typer.echo(f"relaykit {relaykit_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the relaykit version and exit."),
) -> None:
    """Compress what passes between LLM agents without losing the facts, and measure it.

    Example: relaykit bench relay --methods passthrough,extract-rules,prune
    """


@app.command("tokens")
def tokens_command(
    file: str = typer.Argument(..., help="A text file, or - for standard input."),
    encoding: str = typer.Option("o200k_base", help="o200k_base or cl100k_base."),
    as_json: bool = typer.Option(False, "--json", help="Print {file, encoding, tokens} as JSON."),
) -> None:
    """Print the number of tokens in FILE (offline).

    Example: relaykit tokens examples/handoff/trace.txt --encoding cl100k_base
    """
    from relaykit.tokens import count, get_encoding

    get_encoding(encoding)  # an unknown encoding is a usage error even for an empty file
    tokens = count(read_text(file), encoding)
    if as_json:
        print_json({"file": file, "encoding": encoding, "tokens": tokens})
    else:
        typer.echo(tokens)


def _one_line(message: str, code: int) -> NoReturn:
    from relaykit.redact import scrub

    text = " ".join(scrub(message).split())  # one line, however the message was wrapped; never a secret it quotes
    err_console.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: relaykit errors become one red line, exit 2 for usage errors and 1 for model errors.

    Mistakes the option parser finds (a bad number, an unknown option) are one line with exit 2 too,
    as is input nested too deeply to read.
    """
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    try:
        code = app(args=argv, prog_name="relaykit", standalone_mode=False)
    except NoArgsIsHelpError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except ClickException as exc:
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        _one_line(f"{where}{exc.format_message()} (see --help)", exc.exit_code)
    except typer.Abort:
        _one_line("aborted", 1)
    except UsageError as exc:
        _one_line(str(exc), 2)
    except RelaykitError as exc:
        _one_line(str(exc), 1)
    except RecursionError:
        _one_line("the input is nested too deeply to read; flatten it", 2)
    except OSError as exc:
        if exc.filename is None:  # not about a path the user gave (a network error is a bug to report)
            raise
        _one_line(f"cannot use {str(exc.filename)[:200]}: {exc.strerror or exc}", 2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
