"""The ensemble detector: runs its members and combines their spans by its strategy."""

from __future__ import annotations

import gc
from bisect import bisect_left
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ...categories import Category
from ...errors import ConfigError
from ...spans import Span, sort_spans
from ...text import words
from ..base import Detector
from ..completion import complete, whole_handles
from ..guards import ID_LABELS
from .config import CategoryWeights, EnsembleConfig, Strategy, category_weights_json, load_category_weights
from .cascade import outvoted_alone, wanted_ranges
from .members import batch_threads, build_member, is_model, runs_apart, side_by_side_threads
from .running import run_members
from .voting import Decision, accept_validated, accept_whole, rebuild_spans, token_votes


class Ensemble(Detector):
    name = "ensemble"

    def __init__(
        self,
        config: EnsembleConfig,
        members: dict[str, Detector],
        *,
        inclusion=None,
        weights: dict[str, float] | None = None,
        category_weights: CategoryWeights | None = None,
        guard=None,
        side_by_side: bool = False,
        parallel_batches: bool = False,
    ):
        """``side_by_side``: run the members that can (models on ONNX Runtime) in threads
        beside each other; only for members given a share of the cores each
        (``side_by_side_threads``), which ``from_config`` arranges. ``parallel_batches``:
        the models read their batches on every core each (``members.batch_threads``), so
        they run one after another, the first beside the rules."""
        self.config = config
        self.members = members  # name -> detector, only those that loaded
        self.inclusion = inclusion
        # The clinical-term guard applies to the combined output too, so a model's reading of
        # an eponym or a unit ("Parkinson's", "ng/L") as a name is dropped like a rule's.
        self.guard = guard
        self.propagator = None
        if config.propagate:
            from ..propagate import Propagator

            self.propagator = Propagator(guard)
        self.missing = [m.name for m in config.members if m.name not in members]
        # the rule members: where no two members agree on what a word is, their reading wins
        self.rule_members = frozenset(m.name for m in config.members if m.type == "rules")
        order = config.priority or [m.name for m in config.members]
        order += [m.name for m in config.members if m.name not in order]
        self.order = [n for n in order if n in members]
        apart = [n for n in self.order if runs_apart(members[n])]
        self.side_by_side = apart if side_by_side and len(apart) >= 2 else []
        self.parallel_batches = parallel_batches and bool(apart)
        if self.parallel_batches:
            # the first model in a thread beside the rules; without the cascade (scoring,
            # fitting) the others run after the rules, beside it
            self.side_by_side = apart[:1]
        w = {m.name: m.weight for m in config.members}
        if weights:
            w.update(weights)
        self.weights = self._normalised({n: w.get(n, 1.0) for n in self.order})
        if category_weights is None and config.category_weights:
            category_weights = load_category_weights(config.category_weights_path())
        self.set_category_weights(category_weights or {})

    def set_category_weights(self, category_weights: CategoryWeights) -> None:
        """Per-category weights, normalised over the loaded members for each category. A
        category where some loaded member has no weight uses the overall weights."""
        self.category_weights: CategoryWeights = {n: {} for n in self.order}
        for c in Category:
            if not self.order or not all(c in category_weights.get(n, {}) for n in self.order):
                continue
            row = self._normalised({n: category_weights[n][c] for n in self.order})
            for n, v in row.items():
                self.category_weights[n][c] = v

    def weight(self, member: str, category: Category) -> float:
        """The soft-vote weight of ``member`` when it says ``category``."""
        return self.category_weights.get(member, {}).get(category, self.weights.get(member, 0.0))

    @staticmethod
    def _normalised(w: dict[str, float]) -> dict[str, float]:
        total = sum(max(0.0, v) for v in w.values())
        if total <= 0:
            return {k: 1.0 / len(w) for k in w} if w else {}
        return {k: max(0.0, v) / total for k, v in w.items()}

    @classmethod
    def from_config(
        cls,
        config: EnsembleConfig | str | Path | None = None,
        *,
        inclusion=None,
        weights: dict[str, float] | None = None,
        model_overrides: dict[str, str] | None = None,
        category_weights: CategoryWeights | None = None,
    ) -> "Ensemble":
        cfg = config if isinstance(config, EnsembleConfig) else EnsembleConfig.load(config)
        if inclusion is None:
            from ..inclusion import InclusionList

            inclusion = InclusionList.default()
        members: dict[str, Detector] = {}
        # With the cascade the last model waits for the others, so the models run one after
        # another, each reading its batches on every core; else side by side, a share each.
        parallel = batch_threads(cfg.members, model_overrides) if cfg.cascade and cfg.strategy is not Strategy.UNION else None
        share = side_by_side_threads(cfg.members, model_overrides) if cfg.side_by_side and parallel is None else None
        for mc in cfg.members:
            det = build_member(
                mc, inclusion=inclusion, model_override=(model_overrides or {}).get(mc.name),
                threads=1 if parallel else share, batch_threads=parallel,
            )
            if det is not None:
                members[mc.name] = det
        if not members:
            raise ConfigError("no ensemble member could be loaded")
        if any(is_model(d) for d in members.values()):
            # Loading torch, transformers and the weights leaves hundreds of thousands of
            # long-lived objects; without this every full garbage collection re-scans them and
            # holds the GIL for ~0.3 s, which froze the review window while detecting
            # (benchmarks/gui_responsiveness.py). Freezing moves them out of the collector's way.
            gc.freeze()
        from ..guards import ClinicalTermGuard

        return cls(
            cfg, members, inclusion=inclusion, weights=weights, category_weights=category_weights,
            guard=ClinicalTermGuard.default(), side_by_side=share is not None, parallel_batches=parallel is not None,
        )

    # -- running ------------------------------------------------------------------------
    @property
    def rules_only(self) -> bool:
        """No model member loaded: only rules and the user's own lists detect."""
        return not any(is_model(d) for d in self.members.values())

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "strategy": self.config.strategy.value,
            "members": {},
            "missing": self.missing,
            "weights": {k: round(v, 4) for k, v in self.weights.items()},
            "category_weights": category_weights_json(self.category_weights),
        }
        for n, d in self.members.items():
            desc = d.describe() if hasattr(d, "describe") else {"type": type(d).__name__}
            out["members"][n] = desc
        return out

    def cascade_member(self) -> str | None:
        """The model that reads last and only where its vote can count (cascade.py): the
        last model in the priority order, when the configuration asks for the cascade and
        the strategy and weights make its vote alone powerless; else None."""
        if not self.config.cascade:
            return None
        models = [n for n in self.order if is_model(self.members[n])]
        if not models or getattr(self.members[models[-1]], "authoritative", False):
            return None
        last = models[-1]
        ok = outvoted_alone(self.config.strategy, self.order, last, self.config.tie_breaker, self.weight, self.config.threshold)
        return last if ok else None

    def member_spans(
        self,
        texts: Sequence[str],
        progress: Callable[[str], None] | None = None,
        fraction: Callable[[float], None] | None = None,
        *,
        cascade: bool = False,
    ) -> list[dict[str, list[Span]]]:
        """Each member's spans per text. ``progress(member)`` is called as each member
        starts; ``fraction(done)`` with the share of the whole call done (0-1) after each
        member and, inside members that report it (a transformer, batch by batch), as they
        go, so a long document's detection can show how far it has got. Either callback may
        raise to stop. Both are called from this thread, also when the models run side by
        side (running.py). ``cascade``: the last model reads only where its vote can count
        (``cascade_member``), for ``combine`` with this ensemble's own strategy; without
        it every member reads everything (scoring members, fitting weights)."""
        per_doc: list[dict[str, list[Span]]] = [{} for _ in texts]
        last = self.cascade_member() if cascade else None
        if last is None:
            results = run_members(self.members, self.order, texts, side_by_side=self.side_by_side, progress=progress, fraction=fraction)
        else:
            results = self._run_cascade(texts, last, progress, fraction)
        for n in self.order:
            for i, spans in enumerate(results[n]):
                per_doc[i][n] = [s.with_(source=n) if s.source != n else s for s in spans]
        return per_doc

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def _run_cascade(
        self, texts: Sequence[str], last: str, progress: Callable[[str], None] | None, fraction: Callable[[float], None] | None
    ) -> dict[str, list[list[Span]]]:
        """The members before ``last``, then ``last`` on the sentences they marked. The
        members that are not models (the rules) run in a thread of their own beside the
        first models; when they are still running as those end, ``last`` starts on what the
        models marked and then reads the rest of what the rules marked: its memo holds the
        sentences already read, so it reads each once and gives exactly what one call over
        everything marked gives, and no core waits on the rules."""
        first = [n for n in self.order if n != last]
        models = [n for n in first if is_model(self.members[n])]
        others = [n for n in first if n not in models]
        n_models = len(models) + 1
        share = len(models) / n_models  # of the progress, as work_shares counts it

        def scaled(lo: float, span: float) -> Callable[[float], None] | None:
            return None if fraction is None else (lambda f: fraction(lo + span * f))

        def marked(names: Sequence[str], results: dict[str, list[list[Span]]]) -> list[list[tuple[int, int]]]:
            return [wanted_ranges(t, [s for n in names for s in results[n][i]]) for i, t in enumerate(texts)]

        reached = share  # the progress told when ``last`` begins its final call
        if not others or not models:
            results = run_members(self.members, first, texts, side_by_side=[n for n in self.side_by_side if n in first],
                                  progress=progress, fraction=scaled(0.0, share))
        else:
            for n in others:
                if progress:
                    progress(n)
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deid-rules")
            try:
                # no callback reaches that thread: they are this thread's to call
                rules = pool.submit(run_members, self.members, others, texts)
                results = run_members(self.members, models, texts, progress=progress, fraction=scaled(0.0, share))
                if not rules.done():
                    reached = share + 0.5 * (1.0 - share)
                    run_members(self.members, [last], texts, progress=progress, fraction=scaled(share, reached - share),
                                wanted={last: marked(models, results)})
                    while not rules.done():
                        wait([rules], timeout=0.2)
                        if fraction is not None:
                            fraction(reached)  # a stop asked for is heard here
                results.update(rules.result())
            finally:
                pool.shutdown(wait=True)
        results.update(
            run_members(self.members, [last], texts, progress=progress, fraction=scaled(reached, 1.0 - reached),
                        wanted={last: marked(first, results)})
        )
        return results

    def detect_many(self, texts: Sequence[str]) -> list[list[Span]]:
        return [self.combine(t, ms) for t, ms in zip(texts, self.member_spans(texts, cascade=True))]

    # -- combining ----------------------------------------------------------------------
    def combine(self, text: str, by_member: dict[str, list[Span]], strategy: Strategy | str | None = None) -> list[Span]:
        strategy = Strategy(strategy or self.config.strategy)
        toks = words(text)
        if not toks:
            return []
        names = [n for n in self.order if n in by_member]
        votes = token_votes(toks, {n: by_member[n] for n in names})
        decided: list[Decision | None] = []
        for t in range(len(toks)):
            tv = {n: votes[n][t] for n in names if votes[n][t] is not None}
            decided.append(self._decide(tv, names, strategy, text[toks[t][0] : toks[t][1]]))
        member_spans = {n: by_member[n] for n in names}
        if self.config.trust_validated:
            decided = accept_validated(toks, decided, member_spans)
        decided = accept_whole(text, toks, decided, member_spans, self.config.whole_span_categories)
        spans = rebuild_spans(text, toks, decided, by_member)
        if self.guard is not None:
            firm = [s for s in spans if any(getattr(self.members.get(m), "authoritative", False) for m in s.members)]
            spans = sort_spans(firm + self.guard.filter(text, [s for s in spans if s not in firm]))
        # No identifier or name left in pieces; after the guard, so a piece it drops does not
        # stop a neighbour's widening.
        before = list(spans)
        spans = complete(text, spans)
        if self.guard is not None:
            spans = _judge_completed(self.guard, text, before, spans)
        if self.propagator is not None:
            spans = whole_handles(text, self.propagator.propagate(text, spans))
        return spans

    def _decide(self, tv: dict[str, Span], names: list[str], strategy: Strategy, word: str = "") -> Decision | None:
        if not tv:
            return None
        if strategy is Strategy.UNION:
            best = next(n for n in names if n in tv)
            return Decision(tv[best].category, max(s.score for s in tv.values()), best, tv[best])
        if strategy is Strategy.MAJORITY:
            n_yes, n_all = len(tv), len(names)
            # the configured tie-breaker, or the most trusted member when it is not loaded
            tb = self.config.tie_breaker if self.config.tie_breaker in names else names[0]
            if 2 * n_yes < n_all or (2 * n_yes == n_all and tb not in tv):
                return None
            counts: dict[Category, int] = {}
            for s in tv.values():
                counts[s.category] = counts.get(s.category, 0) + 1
            top = max(counts.values())
            cats = [c for c, k in counts.items() if k == top]
            if len(cats) > 1 and word.isupper() and word in ID_LABELS:
                return None  # members disagree on a record's label ("IHI", "NCPDP", "UR"): no value
            if len(cats) > 1 and word and not any(ch.isdigit() for ch in word):
                # a word with no digit is no number, date or age however a member read it:
                # of the readings tied, the word's kinds are left ("Wendell" an identifier
                # to one model and a place to the other is a place, not a dropped identifier)
                cats = [c for c in cats if c not in _NUMBER_CATEGORIES] or cats
            precise = next((n for n in names if n in tv and n in self.rule_members), None) if top == 1 and len(cats) > 1 else None
            if precise is not None and tv[precise].category in cats:
                # no two members agree on what the word is, and the rules read it: their
                # reading is the surest ("Abernathy-Cole, Wendell" a name after "Patient:" to
                # the rules, "Wendell" an identifier to one model and a place to the other)
                cat = tv[precise].category
            elif len(cats) > 1 and tb in tv and tv[tb].category in cats:
                cat = tv[tb].category
            else:
                cat = next(tv[n].category for n in names if n in tv and tv[n].category in cats)
            src = next(n for n in names if n in tv and tv[n].category == cat)
            return Decision(cat, float(np.mean([s.score for s in tv.values()])), src, tv[src])
        # soft vote: each member counts with its weight for the category it gives the word
        p = sum(self.weight(n, s.category) * s.score for n, s in tv.items())
        if p < self.config.threshold:
            return None
        per_cat: dict[Category, float] = {}
        for n, s in tv.items():
            per_cat[s.category] = per_cat.get(s.category, 0.0) + self.weight(n, s.category) * s.score
        cat = max(per_cat, key=per_cat.get)
        src = max((n for n in tv if tv[n].category == cat), key=lambda n: self.weight(n, cat) * tv[n].score)
        return Decision(cat, float(min(1.0, p)), src, tv[src])


_NUMBER_CATEGORIES = frozenset({Category.ID, Category.CONTACT, Category.DATE, Category.AGE})


def _judge_completed(guard: Any, text: str, before: list[Span], after: list[Span]) -> list[Span]:
    """What completion cut from a value the guard passed is a new value, and the guard judges
    it too ("Jewish ancestry" passed as a whole; "Jewish" alone is a people, not an
    organisation). What completion added where nothing was, or parted from a town as its
    state ("Denver, CO"), is judged by its context there and left alone. Each span is looked
    up among its neighbours only, so a huge text's tens of thousands of spans cost no
    product of the two."""
    seen = set(before)
    starts = [b.start for b in before]  # sorted: the vote's spans come sorted
    widest = max((b.end - b.start for b in before), default=0)

    def from_a_value(s: Span) -> bool:
        i = bisect_left(starts, s.end)
        while i > 0 and starts[i - 1] >= s.start - widest:
            i -= 1
            if before[i].end > s.start:
                return True
        return False

    # a state completion parted from its town ("Denver, CO") is a place by where it stands,
    # however its letters read alone ("CO", "MS", "PA")
    changed = [s for s in after if s not in seen and from_a_value(s) and s.fine != "STATE"]
    if not changed:
        return after
    # the guard may also relabel what it keeps (a number after a date of birth is an age)
    judged = set(changed)
    return sort_spans([s for s in after if s not in judged] + guard.filter(text, changed))
