"""A bug inside one file's processing must not stop the batch or leak the document's text."""

from __future__ import annotations

import logging

from deid_desktop.core.pipeline import Deidentifier
from deid_desktop.core.surrogates import SurrogateEngine


class Exploding:
    def detect(self, text):
        raise KeyError(text[:40])  # an exception whose message quotes document content


def test_internal_error_is_reported_without_document_content(tmp_path, caplog):
    src = tmp_path / "letter.txt"
    src.write_text("Patient Wiremu Tawhiri, seen 02/05/2024.", encoding="utf-8")
    deid = Deidentifier(Exploding(), SurrogateEngine(b"k" * 32))
    with caplog.at_level(logging.DEBUG):
        res = deid.process_file(src, tmp_path / "out" / "letter.deid.txt", "p1")
    assert res.status == "error" and res.error_code == "internal"
    assert "letter.txt" in res.error and "KeyError" in res.error
    logged = caplog.text + res.error
    assert "Wiremu" not in logged and "Tawhiri" not in logged
    assert "KeyError" in caplog.text  # the log still says what kind of error and where
    assert not (tmp_path / "out" / "letter.deid.txt").exists()
