"""The ensemble's cascade (issue 11): its last model reads only the sentences where its vote
can count, and the ensemble's spans are those of every member reading everything; a model's
batches read on several threads at once give the spans of one batch after another."""

from __future__ import annotations

import random
import threading

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.base import Detector
from deid_desktop.core.detect.ensemble import Ensemble, EnsembleConfig, MemberConfig
from deid_desktop.core.detect.ensemble.cascade import outvoted_alone, wanted_ranges
from deid_desktop.core.detect.ensemble.config import Strategy
from deid_desktop.core.detect.transformer import TransformerDetector as RealTransformer
from deid_desktop.core.errors import ConfigError
from deid_desktop.core.spans import Span
from deid_desktop.core.text import sentences, words

from tests.core.learn_fixtures import letters, train_tiny

CATEGORIES = [Category.NAME, Category.DATE, Category.LOCATION, Category.ID, Category.AGE]


class Marker(Detector):
    """Marks words at random (a fixed seed per member and text): runs of one to three words
    of one category, some crossing a sentence's end. Reports what it was asked to read."""

    def __init__(self, name: str, seed: int, density: float):
        self.name = name
        self.seed = seed
        self.density = density
        self.read: list[int] = []  # sentences read, per call

    def _spans(self, text: str) -> list[Span]:
        rng = random.Random(f"{self.seed}|{text}")
        toks = words(text)
        out, t = [], 0
        while t < len(toks):
            if rng.random() < self.density:
                n = rng.randint(1, 3)
                last = toks[min(t + n, len(toks)) - 1]
                out.append(Span(toks[t][0], last[1], rng.choice(CATEGORIES), score=rng.uniform(0.3, 1.0), source=self.name))
                t += n + 1
            else:
                t += 1
        return out

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(self, texts, progress=None):
        return [self._spans(t) for t in texts]


class TransformerDetector(Marker):
    """A stand-in model (the ensemble knows a model by its class name): it reads sentence by
    sentence, as the real one does, and only the sentences ``wanted`` asks for."""

    def detect_many(self, texts, progress=None, wanted=None):
        out, read = [], 0
        for i, text in enumerate(texts):
            spans = []
            for s, e in sentences(text):
                ranges = wanted[i] if wanted is not None else None
                if ranges is not None and not any(a < e and b > s for a, b in ranges):
                    continue
                read += 1
                spans += [sp.with_(start=sp.start + s, end=sp.end + s) for sp in self._spans(text[s:e])]
            out.append(spans)
        self.read.append(read)
        if progress is not None:
            progress(1.0)
        return out


def random_texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocab = ["Anna", "Smith", "seen", "on", "12/03/2024", "in", "Leeds", "BP", "120/80", "Dr", "Okafor", "MRN", "448812", "aged", "67"]
    texts = []
    for _ in range(n):
        lines = []
        for _ in range(rng.randint(2, 9)):
            sent = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 8)))
            lines.append(sent + rng.choice([".", ".", "", ":"]))
        texts.append(rng.choice([" ", "\n", "\n\n"]).join(lines))
    return texts


def ensemble(strategy: str, members: dict[str, Detector], **settings) -> Ensemble:
    cfg = EnsembleConfig(
        strategy=strategy,
        members=[MemberConfig(name=n, type="rules" if n == "rules" else "x") for n in members],
        propagate=False,
        **settings,
    )
    return Ensemble(cfg, dict(members))


@pytest.mark.parametrize("strategy", ["majority", "soft_vote"])
def test_the_cascade_gives_the_spans_of_every_member_reading_everything(strategy):
    last = TransformerDetector("m2", seed=2, density=0.5)
    members = {"rules": Marker("rules", seed=0, density=0.15), "m1": TransformerDetector("m1", seed=1, density=0.2), "m2": last}
    ens = ensemble(strategy, members, threshold=0.5)
    assert ens.cascade_member() == "m2"
    texts = random_texts(60, seed=strategy == "majority")
    full = [ens.combine(t, bm) for t, bm in zip(texts, ens.member_spans(texts))]
    read_all = last.read[-1]
    fast = ens.detect_many(texts)
    assert fast == full
    assert [[(s.score, s.members, s.source, s.fine) for s in doc] for doc in fast] == [
        [(s.score, s.members, s.source, s.fine) for s in doc] for doc in full
    ]
    assert any(full)
    assert 0 < last.read[-1] < read_all  # the last model read fewer sentences


class SlowMarker(Marker):
    """Rules that are still running when the first model ends (a text of many short lines)."""

    def __init__(self, *args, started: threading.Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.started = started
        self.release = threading.Event()

    def detect_many(self, texts, progress=None):
        self.started.set()
        assert self.release.wait(10)
        return super().detect_many(texts, progress)


class FirstModel(TransformerDetector):
    """The first model: the slow rules are running beside it, in a thread of their own."""

    def __init__(self, *args, rules: SlowMarker, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules

    def detect_many(self, texts, progress=None, wanted=None):
        assert self.rules.started.wait(10)
        return super().detect_many(texts, progress, wanted)


class Remembering(TransformerDetector):
    """A last model with a memo, as the real one: a sentence read once is not read again.
    ``first_call`` runs when it is first asked to read (the slow rules end only then)."""

    def __init__(self, *args, first_call=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen: dict[str, list[Span]] = {}  # its memo: sentence -> spans
        self.first_call = first_call

    def detect_many(self, texts, progress=None, wanted=None):
        if self.first_call is not None:
            self.first_call, hook = None, self.first_call
            hook()
        return super().detect_many(texts, progress, wanted)

    def _spans(self, text: str) -> list[Span]:
        if text not in self.seen:
            self.seen[text] = super()._spans(text)
        return self.seen[text]


def test_when_the_rules_end_after_the_first_model_the_last_starts_on_its_marks():
    rules = SlowMarker("rules", seed=0, density=0.15, started=threading.Event())
    last = Remembering("m2", seed=2, density=0.5, first_call=rules.release.set)
    members = {"rules": rules, "m1": FirstModel("m1", seed=1, density=0.2, rules=rules), "m2": last}
    ens = ensemble("majority", members)
    texts = random_texts(40, seed=7)
    told: list[float] = []
    fast = ens.member_spans(texts, fraction=told.append, cascade=True)
    assert len(last.read) == 2  # the first model's marks, then the rest of the rules' marks
    assert 0 < len(last.seen) < sum(len(sentences(t)) for t in texts)  # each read once, not all
    assert told == sorted(told) and told[-1] == 1.0  # progress never goes back
    rules.release.set()
    slow = Ensemble(ens.config, {"rules": Marker("rules", 0, 0.15), "m1": TransformerDetector("m1", 1, 0.2),
                                 "m2": TransformerDetector("m2", 2, 0.5)})
    assert [ens.combine(t, bm) for t, bm in zip(texts, fast)] == [slow.combine(t, bm) for t, bm in zip(texts, slow.member_spans(texts))]


def test_no_cascade_where_the_last_models_vote_alone_can_count():
    def members():
        return {"rules": Marker("rules", 0, 0.2), "m1": TransformerDetector("m1", 1, 0.2), "m2": TransformerDetector("m2", 2, 0.2)}

    assert ensemble("union", members()).cascade_member() is None
    assert ensemble("majority", members(), cascade=False).cascade_member() is None
    # two members: the tie-breaker's vote alone wins a tie
    two = {"rules": Marker("rules", 0, 0.2), "m2": TransformerDetector("m2", 2, 0.2)}
    assert ensemble("majority", dict(two), tie_breaker="m2").cascade_member() is None
    assert ensemble("majority", dict(two), tie_breaker="rules").cascade_member() == "m2"
    # soft vote: a weight at or above the threshold for any category lets it decide alone
    heavy = ensemble("soft_vote", members(), threshold=0.5)
    heavy.set_category_weights({"rules": {c: 0.1 for c in Category}, "m1": {c: 0.1 for c in Category},
                                "m2": {c: (0.8 if c is Category.DATE else 0.1) for c in Category}})
    assert heavy.cascade_member() is None
    # no model at all
    assert ensemble("majority", {"rules": Marker("rules", 0, 0.2), "r2": Marker("r2", 1, 0.2), "r3": Marker("r3", 2, 0.2)}).cascade_member() is None


def test_outvoted_alone_follows_the_vote():
    w = lambda member, c: 1 / 3  # noqa: E731
    assert outvoted_alone(Strategy.MAJORITY, ["a", "b", "c"], "c", None, w, 0.5)
    assert not outvoted_alone(Strategy.MAJORITY, ["a", "c"], "c", "c", w, 0.5)
    assert outvoted_alone(Strategy.MAJORITY, ["a", "c"], "c", "a", w, 0.5)
    assert not outvoted_alone(Strategy.MAJORITY, ["c"], "c", None, w, 0.5)
    assert outvoted_alone(Strategy.SOFT_VOTE, ["a", "b", "c"], "c", None, w, 0.5)
    assert not outvoted_alone(Strategy.SOFT_VOTE, ["a", "b", "c"], "c", None, w, 0.3)
    assert not outvoted_alone(Strategy.UNION, ["a", "b", "c"], "c", None, w, 0.5)


def test_wanted_ranges_take_whole_words_and_merge():
    text = "Seen by Dr Okafor today. Nothing else."
    okafor = (text.index("Okafor"), text.index("Okafor") + len("Okafor"))
    # a piece of a word stands for the whole word; overlapping ones become one range
    spans = [Span(okafor[0] + 1, okafor[0] + 4, Category.NAME), Span(8, 10, Category.NAME), Span(okafor[0] + 3, okafor[1], Category.NAME)]
    assert wanted_ranges(text, spans) == [(8, 10), okafor]
    assert wanted_ranges(text, [Span(8, okafor[1], Category.NAME), Span(9, 13, Category.NAME)]) == [(8, okafor[1])]
    assert wanted_ranges(text, []) == []


def test_cascade_is_a_checked_setting(tmp_path):
    f = tmp_path / "e.toml"
    f.write_text('[ensemble]\nstrategy = "majority"\ncascade = false\n\n[[member]]\nname = "rules"\ntype = "rules"\n', encoding="utf-8")
    assert EnsembleConfig.load(f).cascade is False
    f.write_text('[ensemble]\ncascade = "no"\n\n[[member]]\nname = "rules"\ntype = "rules"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="cascade"):
        EnsembleConfig.load(f)


# -- real models -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_models(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cascade")
    # two tiny models that read differently, as the shipped balanced and imbalanced ones do
    one = train_tiny(tmp / "a", seed=0).save("one", models_root=tmp / "models")
    two = train_tiny(tmp / "b", seed=1, epochs=4).save("two", models_root=tmp / "models")
    return one, two


def real_ensemble(two_models, monkeypatch, cascade: bool) -> Ensemble:
    monkeypatch.setenv("DEID_THREADS", "2")
    one, two = two_models
    cfg = EnsembleConfig(
        strategy="majority",
        members=[
            MemberConfig(name="rules", type="rules"),
            MemberConfig(name="m1", type="transformer", options={"model": str(one)}),
            MemberConfig(name="m2", type="transformer", options={"model": str(two), "batch_size": 2}),
        ],
        cascade=cascade,
    )
    return Ensemble.from_config(cfg)


def test_with_real_models_the_cascade_reads_less_and_finds_the_same(two_models, monkeypatch):
    fast, slow = real_ensemble(two_models, monkeypatch, True), real_ensemble(two_models, monkeypatch, False)
    # the cascade runs the models one after another, each reading its batches on both cores
    assert fast.parallel_batches and [fast.members[n].batch_threads for n in ("m1", "m2")] == [2, 2]
    assert [fast.members[n].runner.threads for n in ("m1", "m2")] == [1, 1]
    assert slow.side_by_side == ["m1", "m2"] and not slow.parallel_batches
    texts = [d.text for d in letters(16, seed=9)] + ["Nothing to see here. BP 120/80 and HR 72 reg."]
    assert fast.detect_many(texts) == slow.detect_many(texts)
    # the last model's memo holds only the sentences it read: fewer than the other's
    read_fast, read_slow = len(fast.members["m2"].memo), len(slow.members["m2"].memo)
    assert 0 < read_fast < read_slow
    # reading for scoring or fitting is still every member on everything
    assert fast.member_spans(texts) == slow.member_spans(texts)


def test_batches_read_on_two_threads_give_the_spans_of_one_after_another(two_models):
    one, _ = two_models
    texts = [d.text for d in letters(10, seed=4)]
    serial = RealTransformer(str(one), batch_size=2, threads=1)
    parallel = RealTransformer(str(one), batch_size=2, threads=1, batch_threads=2)
    seen: set[str] = set()
    forward = parallel._forward
    both_in = threading.Barrier(2)
    calls = []

    def spy(batch):
        seen.add(threading.current_thread().name)
        calls.append(1)
        if len(calls) <= 2:
            # the first two passes are inside at the same time (a tiny model's pass can end
            # before the next is handed out, and one thread would then take them all)
            both_in.wait(timeout=10)
        return forward(batch)

    parallel._forward = spy
    done: list[float] = []
    assert parallel.detect_many(texts, progress=done.append) == serial.detect_many(texts)
    assert len(seen) == 2 and all(n.startswith("deid-batch") for n in seen)
    assert done == sorted(done) and done[-1] == 1.0


def test_a_stop_during_parallel_batches_ends_the_call(two_models):
    one, _ = two_models
    det = RealTransformer(str(one), batch_size=1, threads=1, batch_threads=2)
    calls = []

    def stop(f: float) -> None:
        calls.append(f)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        det.detect_many([d.text for d in letters(6, seed=2)], progress=stop)
    assert len(calls) == 3
    assert not [t for t in threading.enumerate() if t.name.startswith("deid-batch")]


def test_a_model_reads_only_the_sentences_it_is_asked_to(two_models):
    one, _ = two_models
    det = RealTransformer(str(one), threads=1)
    text = letters(1, seed=3)[0].text
    everything = det.detect(text)
    det.memo.clear()
    sents = sentences(text)
    chosen = [s for s in sents if any(sp.start < s[1] and sp.end > s[0] for sp in everything)][:2]
    assert chosen
    part = det.detect_many([text], wanted=[chosen])[0]
    assert part == [sp for sp in everything if any(a <= sp.start and sp.end <= b for a, b in chosen)]
    assert len(det.memo) == len(chosen)
    assert det.detect_many([text], wanted=[[]]) == [[]]
