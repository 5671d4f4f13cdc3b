"""sheetgen: declarative layouts to print-and-play game material, validated by simulation."""

__version__ = "0.1.0"
