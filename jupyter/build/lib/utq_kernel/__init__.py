"""A Jupyter kernel for utq. The utq binary does the work (`utq kernel`); this package
turns its JSON lines into Jupyter messages."""

__version__ = "0.1.0"
