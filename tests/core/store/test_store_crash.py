"""A reviewer's confirmed decisions survive the process being killed mid-review."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import Workspace

PROJECT_ROOT = Path(__file__).resolve().parents[3]

# Reviews forever, printing each decision id only after decide() has returned.
REVIEWER = """
import sys
from deid_desktop.core.store import DecisionAction, Workspace

ws = Workspace.open(sys.argv[1], create=False)
span_ids = [int(s) for s in sys.argv[2].split(",")]
actions = [DecisionAction.ACCEPT, DecisionAction.REJECT, DecisionAction.ACCEPT]
i = 0
while True:
    decision = ws.decide(span_ids[i % len(span_ids)], actions[i % 3], reviewer="crash")
    print(decision, flush=True)
    i += 1
"""

DECISIONS_BEFORE_KILL = 40


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL is POSIX")
@pytest.mark.timeout(60)
def test_every_confirmed_decision_survives_sigkill(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    with Workspace.open(path) as ws:
        doc = ws.import_document(Document.from_text("Ann Lee and Bob Ray saw Cy Dee.")).document_id
        run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
        span_ids = ws.save_detections(
            doc, run, [Span(0, 7, Category.NAME), Span(12, 19, Category.NAME), Span(24, 30, Category.NAME)]
        )

    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen(
        [sys.executable, "-c", REVIEWER, str(path), ",".join(map(str, span_ids))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )
    confirmed: list[int] = []
    try:
        while len(confirmed) < DECISIONS_BEFORE_KILL:
            line = child.stdout.readline()
            if not line:
                pytest.fail(f"reviewer process ended early: {child.stderr.read()[-2000:]}")
            confirmed.append(int(line))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    # Lines printed between our last read and the kill were confirmed too.
    rest, _ = child.communicate()
    confirmed += [int(line) for line in rest.splitlines(keepends=True) if line.endswith("\n")]
    assert child.returncode == -signal.SIGKILL
    assert Path(f"{path}-wal").exists()  # killed before any clean checkpoint

    with Workspace.open(path, create=False) as ws:
        log = ws.decisions(document_id=doc)
        stored = {d.id for d in log}
        assert set(confirmed) <= stored
        # The cached span state agrees with the recovered log.
        assert ws.replay_decisions() == 0
        last_by_span = {d.span_id: d.action.value for d in log}
        assert {s.id: s.state for s in ws.list_spans(doc)} == {
            span: ("accepted" if action == "accept" else "rejected") for span, action in last_by_span.items()
        }
