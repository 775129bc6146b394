"""Small hand-made gold documents and a trained tiny model for the learning tests."""

from __future__ import annotations

import random
from pathlib import Path

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.gold import GoldDocument
from deid_desktop.core.spans import Span

FIRST = ["John", "Mary", "Aroha", "Wiremu", "Priya", "Li", "Fatima", "Carlos", "Anna", "Tom", "Zoë", "Hēmi"]
LAST = ["Smith", "Ngata", "Patel", "Chen", "Garcia", "Brown", "Kowalski", "Tane", "Jones", "Singh", "Müller"]


class DocBuilder:
    """Builds text piece by piece and records a gold span for each PHI piece."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.pos = 0

    def add(self, text: str, category: Category | None = None) -> "DocBuilder":
        if category is not None:
            self.spans.append(Span(self.pos, self.pos + len(text), category))
        self.parts.append(text)
        self.pos += len(text)
        return self

    def build(self, doc_id: str) -> GoldDocument:
        return GoldDocument(doc_id, "".join(self.parts), list(self.spans))


def clinic_letter(rng: random.Random, doc_id: str, newline: str = "\n") -> GoldDocument:
    """Four sentences: two with PHI (a patient name and date, a doctor), two without."""
    b = DocBuilder()
    b.add("Patient ").add(f"{rng.choice(FIRST)} {rng.choice(LAST)}", Category.NAME).add(" was seen on ")
    b.add(f"{rng.randint(1, 28)}/{rng.randint(1, 12)}/20{rng.randint(10, 24)}", Category.DATE)
    b.add(f". Blood pressure was normal.{newline}No chest pain today. Reviewed by Dr ")
    b.add(rng.choice(LAST), Category.NAME).add(f".{newline}")
    return b.build(doc_id)


def letters(n: int, seed: int = 0, newline: str = "\n") -> list[GoldDocument]:
    rng = random.Random(seed)
    return [clinic_letter(rng, f"doc{i}", newline) for i in range(n)]


def train_tiny(tmp: Path, *, epochs: int = 8, seed: int = 0, shapes: bool = False):
    """A tiny BERT fine-tuned on ``letters`` until it finds the names and dates (~2 s);
    ``shapes``: with word-shape features."""
    from deid_desktop.core.models.tiny import build_tiny_model
    from deid_desktop.core.learn.train import TrainConfig, train_model

    base = build_tiny_model(tmp / "tiny-base", seed=seed)
    cfg = TrainConfig(
        name="tiny",
        base_model=str(base),
        epochs=epochs,
        batch_size=8,
        learning_rate=3e-3,
        warmup_ratio=0.1,
        max_length=64,
        seed=seed,
        freeze_embeddings=False,  # a random tiny model has no pre-trained embeddings to keep
        precision="fp32",
        threads=1,  # tiny matrices gain nothing from a second thread, and lose a lot on a busy machine
        shape_features=shapes,
    )
    return train_model(cfg, letters(50, seed=seed), letters(8, seed=seed + 100))
