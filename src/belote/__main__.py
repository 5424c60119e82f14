"""`python -m belote` runs the `belote` command."""

from belote.cli import main

main()
