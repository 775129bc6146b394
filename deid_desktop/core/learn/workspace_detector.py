"""Detection as a workspace has learned it: its active model version, its fitted ensemble
weights, its inclusion sentences, its approved template rules and its allow/deny lists.

    det = workspace_detector(ws)                       # once per detection run
    spans = det.detect_many(texts, document_ids=ids)  # per batch of workspace documents

The ensemble votes as configured; then the allow list removes what it matches from the vote's
output (and from template-rule hits), and deny-list and template-rule spans are added as
authoritative: a person approved them, so no vote can overrule them. Document- and
subject-scoped terms apply only when the document id is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..detect.base import Detector
from ..detect.ensemble import CategoryWeights, Ensemble, EnsembleConfig, parse_category_weights, resolve_model_dir
from ..detect.harvested import HarvestedTemplates
from ..detect.lists import ListTerm, apply_allow_list, deny_spans
from ..spans import Span, merge_overlapping, sort_spans
from ..store import Workspace

SETTING_ENSEMBLE = "learn.ensemble_config"  # ensemble TOML the workspace detects with (None: the shipped default)



def transformer_members(config: EnsembleConfig) -> list[str]:
    return [m.name for m in config.members if m.type == "transformer"]


def model_overrides(ws: Workspace, config: EnsembleConfig) -> dict[str, str] | None:
    """Member name -> folder of the workspace's active model version, for every member that
    version replaces (recorded at training time; all transformer members otherwise)."""
    active = ws.active_model_version()
    if active is None or resolve_model_dir(active.path) is None:
        return None
    members = [m for m in (active.metrics.get("members") or transformer_members(config)) if m in {c.name for c in config.members}]
    return {m: active.path for m in members} or None


def current_weights(ws: Workspace) -> dict[str, float] | None:
    history = ws.ensemble_weight_history()
    return dict(history[-1][1]) if history else None


def current_category_weights(ws: Workspace) -> CategoryWeights | None:
    """The latest fit's per-member, per-category weights; None keeps the configuration's."""
    stored = ws.ensemble_category_weights()
    return parse_category_weights(stored, "the workspace's category weights") if stored else None


def workspace_inclusion(ws: Workspace) -> Any:
    """The shipped inclusion list plus the sentences this workspace approved."""
    from ..detect.inclusion import InclusionList
    from .proposals import approved_inclusion_sentences

    inclusion = InclusionList.default()  # a fresh list each call: adding cannot leak between workspaces
    for sentence in approved_inclusion_sentences(ws):
        inclusion.add(sentence)
    return inclusion


def combine_authoritative(text: str, voted: list[Span], forced: list[Span]) -> list[Span]:
    """``voted`` spans plus ``forced`` ones. A voted span overlapping only forced spans of its
    own category merges with them; one overlapping a forced span of another category yields."""
    if not forced:
        return sort_spans(voted)
    out = list(forced)
    for v in voted:
        hits = [f for f in forced if f.overlaps(v)]
        if not hits:
            out.append(v)
        elif all(f.category == v.category for f in hits):
            out.append(v)
    return merge_overlapping(out, text)


class WorkspaceDetector(Detector):
    name = "workspace"

    def __init__(self, ensemble: Ensemble, workspace: Workspace, *, rules: HarvestedTemplates | None = None, terms: list[ListTerm] | None = None, owns_workspace: bool = False):
        self.ensemble = ensemble
        self.workspace = workspace
        self.owns_workspace = owns_workspace  # opened for this detector: close() closes it
        self.rules = rules
        self.terms = list(terms or [])  # workspace-wide terms
        self._scoped: dict[int, list[ListTerm]] = {}

    def close(self) -> None:
        if self.owns_workspace:
            self.workspace.close()
            self.owns_workspace = False

    # what the GUI and the CLI read off an ensemble
    @property
    def missing(self) -> list[str]:
        return self.ensemble.missing

    @property
    def rules_only(self) -> bool:
        return self.ensemble.rules_only

    @property
    def order(self) -> list[str]:
        return self.ensemble.order

    @property
    def weights(self) -> dict[str, float]:
        return self.ensemble.weights

    @property
    def config(self) -> EnsembleConfig:
        return self.ensemble.config

    def describe(self) -> dict[str, Any]:
        d = self.ensemble.describe()
        d["workspace"] = {
            "template_rules": len(self.rules.rules) if self.rules else 0,
            "allow_terms": sum(t.kind == "allow" for t in self.terms),
            "deny_terms": sum(t.kind == "deny" for t in self.terms),
        }
        return d

    def terms_for(self, document_id: int | None) -> list[ListTerm]:
        if document_id is None:
            return self.terms
        if document_id not in self._scoped:
            from .term_lists import terms_for_document

            self._scoped[document_id] = terms_for_document(self.workspace, document_id)
        return self._scoped[document_id]

    def refine(self, text: str, voted: list[Span], document_id: int | None = None) -> list[Span]:
        terms = self.terms_for(document_id)
        harvested = self.rules.detect(text) if self.rules else []
        kept = apply_allow_list(text, voted, terms)
        forced = apply_allow_list(text, harvested, terms) + deny_spans(text, terms)
        return combine_authoritative(text, kept, forced)

    # The GUI's detection worker runs members one by one (to show progress and cancel
    # between them) and then combines; these keep that path open.
    def member_spans(self, texts: Sequence[str], progress: Any = None, fraction: Any = None, *, cascade: bool = False) -> list[dict[str, list[Span]]]:
        return self.ensemble.member_spans(texts, progress=progress, fraction=fraction, cascade=cascade)

    def combine(self, text: str, by_member: dict[str, list[Span]], strategy: str | None = None, *, document_id: int | None = None) -> list[Span]:
        return self.refine(text, self.ensemble.combine(text, by_member, strategy), document_id)

    def detect(self, text: str, document_id: int | None = None) -> list[Span]:
        return self.detect_many([text], document_ids=[document_id])[0]

    def detect_many(self, texts: Sequence[str], document_ids: Sequence[int | None] | None = None) -> list[list[Span]]:
        ids = list(document_ids) if document_ids is not None else [None] * len(texts)
        if len(ids) != len(texts):
            raise ValueError("give one document id per text")
        voted = self.ensemble.detect_many(list(texts))
        return [self.refine(t, v, i) for t, v, i in zip(texts, voted, ids)]


def build_ensemble(
    ws: Workspace,
    config: EnsembleConfig | str | Path | None = None,
    *,
    model_path: str | None = None,
    replaces: Sequence[str] | None = None,
    inclusion: Any = None,
) -> Ensemble:
    """The configured ensemble (``config``, else the workspace's ``learn.ensemble_config``
    setting, else the shipped default) with the workspace's model (or ``model_path`` in its
    place for the ``replaces`` members, to score a candidate) and its latest fitted weights."""
    cfg = config if isinstance(config, EnsembleConfig) else EnsembleConfig.load(config or ws.get_setting(SETTING_ENSEMBLE))
    if model_path is not None:
        active = ws.active_model_version()
        members = replaces or (active.metrics.get("members") if active else None) or transformer_members(cfg)
        overrides = {m: model_path for m in members}
    else:
        overrides = model_overrides(ws, cfg)
    return Ensemble.from_config(
        cfg,
        inclusion=inclusion if inclusion is not None else workspace_inclusion(ws),
        weights=current_weights(ws),
        category_weights=current_category_weights(ws),
        model_overrides=overrides,
    )


def open_workspace_detector(path: str | Path, config: EnsembleConfig | str | Path | None = None) -> WorkspaceDetector:
    """``workspace_detector`` for a workspace file (the command line); the detector keeps
    the workspace open for document- and subject-scoped terms."""
    det = workspace_detector(Workspace.open(path, create=False), config)
    det.owns_workspace = True
    return det


def workspace_detector(
    ws: Workspace, config: EnsembleConfig | str | Path | None = None, *, model_path: str | None = None, replaces: Sequence[str] | None = None
) -> WorkspaceDetector:
    from ..detect.workspace_sources import approved_rules, list_terms

    ens = build_ensemble(ws, config, model_path=model_path, replaces=replaces)
    rules = approved_rules(ws)
    return WorkspaceDetector(ens, ws, rules=HarvestedTemplates(rules) if rules else None, terms=list_terms(ws, scope="workspace"))
