"""Whether an exported document has changed since its de-identified copy was written.

The workspace bumps a document's ``updated_at`` with every decision and every subject change
(both change what an export writes), and with the EXPORTED status itself. Recording that
stamp when the copy is written — in the workspace's settings, so the schema stays as it is —
makes "changed since export" a comparison: a later stamp means the released copy is stale.
"""

from __future__ import annotations

from datetime import datetime

from ..core.store import DocStatus

SETTING_EXPORTED_AT = "gui.exported_at"  # {document id: the document's updated_at when exported}


def record_exported(workspace, document_id: int) -> None:
    """Call once the document's status is EXPORTED."""
    stamps = dict(workspace.get_setting(SETTING_EXPORTED_AT, {}) or {})
    stamps[str(document_id)] = workspace.get_document(document_id).updated_at.isoformat()
    workspace.set_setting(SETTING_EXPORTED_AT, stamps)


def export_stamps(workspace) -> dict[str, str]:
    return dict(workspace.get_setting(SETTING_EXPORTED_AT, {}) or {})


def changed_since_export(row, stamps: dict[str, str]) -> bool:
    """True for an EXPORTED document changed after its last export; False when unchanged,
    or when its export was not recorded here (exported before this was kept, or by the CLI)."""
    if DocStatus(row.status) != DocStatus.EXPORTED:
        return False
    stamp = stamps.get(str(row.id))
    return stamp is not None and row.updated_at > datetime.fromisoformat(stamp)
