"""Sub-commands beyond detect/deidentify, registered into the CLI parser."""
