"""Alembic environment for workspace files.

At run time ``Workspace.open`` passes its open connection in ``config.attributes`` and no
alembic.ini exists. A developer writing a new revision can instead point ``sqlalchemy.url``
at a scratch workspace upgraded to head:

    alembic -c dev.ini revision --autogenerate -m "..."

with ``script_location = deid_desktop/core/store/migrations`` in dev.ini.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import deid_desktop.core.store  # noqa: F401  (registers every table on Base.metadata)
from deid_desktop.core.store.models import Base

config = context.config


def run(connection) -> None:  # type: ignore[no-untyped-def]
    # Batch mode: SQLite cannot ALTER most things, so later revisions rebuild tables instead.
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=Base.metadata,
        render_as_batch=True,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
elif (given := config.attributes.get("connection")) is not None:
    run(given)
else:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    try:
        with engine.begin() as connection:
            run(connection)
    finally:
        engine.dispose()
