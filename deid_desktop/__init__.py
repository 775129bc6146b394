"""deid-desktop: human-in-the-loop de-identification of clinical documents."""

__version__ = "0.1.0"
