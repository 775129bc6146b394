"""The ensemble's models run side by side, each on its share of the cores (issue 11): the same
spans as one after another, progress and cancelling still from the caller's thread."""

from __future__ import annotations

import threading

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.base import Detector
from deid_desktop.core.detect.ensemble import Ensemble, EnsembleConfig, MemberConfig
from deid_desktop.core.detect.ensemble.members import side_by_side_threads
from deid_desktop.core.detect.ensemble.running import run_members
from deid_desktop.core.spans import Span

from tests.core.learn_fixtures import letters, train_tiny


class Batches(Detector):
    """A member that works in ``batches`` steps, reporting each, and marks the first word."""

    def __init__(self, name: str, batches: int = 5, barrier: threading.Barrier | None = None, fail: bool = False):
        self.name = name
        self.batches = batches
        self.barrier = barrier
        self.fail = fail
        self.steps = 0
        self.threads: set[str] = set()

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(self, texts, progress=None):
        self.threads.add(threading.current_thread().name)
        if self.barrier is not None:
            self.barrier.wait(timeout=10)  # both members must be inside at once
        for b in range(self.batches):
            if self.fail and b == 2:
                raise RuntimeError("member failed")
            self.steps += 1
            threading.Event().wait(0.01)
            if progress is not None:
                progress((b + 1) / self.batches)
        return [[Span(0, 4, Category.NAME, source=self.name)] for _ in texts]


def test_two_members_run_at_the_same_time_and_give_their_own_spans():
    barrier = threading.Barrier(2)
    a, b = Batches("a", barrier=barrier), Batches("b", barrier=barrier)
    out = run_members({"a": a, "b": b}, ["a", "b"], ["Anna came", "Bo went"], side_by_side=["a", "b"])
    # one after another, the first would wait at the barrier alone and break it
    assert not barrier.broken
    assert [s[0].source for s in out["a"]] == ["a", "a"] and [s[0].source for s in out["b"]] == ["b", "b"]
    assert a.threads != b.threads


def test_one_after_another_when_not_side_by_side():
    a, b = Batches("a"), Batches("b")
    run_members({"a": a, "b": b}, ["a", "b"], ["x"], side_by_side=[])
    assert a.threads == b.threads == {threading.current_thread().name}


def test_progress_comes_from_the_callers_thread_rises_and_ends_at_one():
    caller = threading.current_thread()
    seen: list[float] = []
    started: list[str] = []

    def fraction(f: float) -> None:
        assert threading.current_thread() is caller
        seen.append(f)

    members = {"rules": Batches("rules", batches=1), "a": Batches("a", batches=8), "b": Batches("b", batches=8)}
    run_members(members, ["rules", "a", "b"], ["x"], side_by_side=["a", "b"], progress=started.append, fraction=fraction)
    assert sorted(started) == ["a", "b", "rules"]
    assert seen and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


def test_cancelling_stops_the_members_beside_it_before_they_finish():
    class Cancelled(Exception):
        pass

    a, b = Batches("a", batches=400), Batches("b", batches=400)

    def fraction(f: float) -> None:
        if f > 0.05:
            raise Cancelled()

    with pytest.raises(Cancelled):
        run_members({"a": a, "b": b}, ["a", "b"], ["x"], side_by_side=["a", "b"], fraction=fraction)
    # run_members returned only after both threads ended, and neither ran to the end
    assert a.steps < 400 and b.steps < 400
    assert not [t for t in threading.enumerate() if t.name.startswith("deid-member")]


def test_a_members_error_reaches_the_caller():
    a, b = Batches("a", fail=True), Batches("b")
    with pytest.raises(RuntimeError, match="member failed"):
        run_members({"a": a, "b": b}, ["a", "b"], ["x"], side_by_side=["a", "b"])


def model_folder(tmp_path, name):
    folder = tmp_path / name
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return folder


def two_models(tmp_path, **options):
    return [
        MemberConfig(name="rules", type="rules"),
        MemberConfig(name="m1", type="transformer", options={"model": str(model_folder(tmp_path, "one")), **options}),
        MemberConfig(name="m2", type="transformer", options={"model": str(model_folder(tmp_path, "two")), **options}),
    ]


def test_each_model_gets_its_share_of_the_cores(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_THREADS", "4")
    assert side_by_side_threads(two_models(tmp_path)) == 2
    monkeypatch.setenv("DEID_THREADS", "3")
    assert side_by_side_threads(two_models(tmp_path / "three")) == 1


def test_no_side_by_side_where_it_would_not_be_safe_or_pay(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_THREADS", "2")
    members = two_models(tmp_path)
    assert side_by_side_threads(members) == 1
    # torch's threads are one pool for the whole process
    assert side_by_side_threads([members[0], *(MemberConfig(name=m.name, type=m.type, options={**m.options, "backend": "torch"}) for m in members[1:])]) is None
    # fewer cores than models: a batch worker given one core
    monkeypatch.setenv("DEID_THREADS", "1")
    assert side_by_side_threads(members) is None
    # one model missing: the other runs alone with every core
    monkeypatch.setenv("DEID_THREADS", "2")
    missing = MemberConfig(name="m2", type="transformer", optional=True, options={"model": str(tmp_path / "absent")})
    assert side_by_side_threads([members[0], members[1], missing]) is None


def test_side_by_side_gives_the_spans_of_one_after_another(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_THREADS", "2")
    model = train_tiny(tmp_path).save("tiny", models_root=tmp_path / "models")

    def ensemble(side_by_side: bool) -> Ensemble:
        cfg = EnsembleConfig(
            strategy="majority",
            members=[
                MemberConfig(name="rules", type="rules"),
                MemberConfig(name="m1", type="transformer", options={"model": str(model)}),
                MemberConfig(name="m2", type="transformer", options={"model": str(model), "batch_size": 2}),
            ],
            side_by_side=side_by_side,
            cascade=False,  # the cascade runs the models one after another (test_cascade.py)
        )
        return Ensemble.from_config(cfg)

    together, apart = ensemble(True), ensemble(False)
    assert together.side_by_side == ["m1", "m2"] and apart.side_by_side == []
    assert [together.members[n].runner.threads for n in ("m1", "m2")] == [1, 1]
    assert [apart.members[n].runner.threads for n in ("m1", "m2")] == [2, 2]
    texts = [d.text for d in letters(12, seed=5)]
    a, b = together.member_spans(texts), apart.member_spans(texts)
    assert a == b
    assert any(m["m1"] for m in a)  # the models found something to compare
