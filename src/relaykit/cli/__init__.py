"""The ``relaykit`` command line: a thin typer app over the library."""
