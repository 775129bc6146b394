"""`deid-desktop agreement`: how far the two reviewers of double-reviewed documents agree."""

from __future__ import annotations

import json
import sys


def cmd_agreement(args) -> int:
    from .core.agreement import agreement, format_report
    from .learn_cli import _open

    ws = _open(args.workspace)
    try:
        pairs, reviewers = ws.review_pairs()
    finally:
        ws.close()
    report = agreement(pairs)
    if args.json:
        json.dump({"reviewers": reviewers, **report.to_json()}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(format_report(report, reviewers))
    return 0


def unadjudicated_warning(ws, document_ids) -> str | None:
    """The warning an export prints when it releases double-reviewed documents that have no
    adjudicated truth yet (ids only: names of files may be PHI)."""
    waiting = ws.awaiting_adjudication(document_ids)
    if not waiting:
        return None
    ids = ", ".join(str(i) for i in waiting[:20]) + (" …" if len(waiting) > 20 else "")
    return (f"warning: {len(waiting)} double-reviewed document(s) are not adjudicated yet (ids {ids}); "
            "they are exported with the first review's spans")


def register(sub) -> None:
    a = sub.add_parser("agreement", help="Cohen's kappa and span precision/recall between the two reviewers of double-reviewed documents")
    a.add_argument("--workspace", required=True)
    a.add_argument("--json", action="store_true", help="print the figures as JSON")
    a.set_defaults(func=cmd_agreement)
