"""`python -m thermopylae` runs the same command line as `thermopylae`."""

from thermopylae.cli import main

main()
