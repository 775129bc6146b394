"""An ensemble file may name any registered detector type in a fresh process: the registry
does not depend on which modules something else imported first."""

from __future__ import annotations

import json
import subprocess
import sys


def _fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_an_allow_deny_member_loads_in_a_fresh_process(tmp_path):
    deny = tmp_path / "deny.txt"
    deny.write_text("LOCATION\tKowhai Ward\n", encoding="utf-8")
    cfg = tmp_path / "lists.toml"
    cfg.write_text(
        '[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "rules"\ntype = "rules"\n\n'
        f'[[member]]\nname = "lists"\ntype = "allow_deny"\ndeny_file = "{deny}"\n',
        encoding="utf-8",
    )
    got = _fresh(
        "import json\n"
        "from deid_desktop.core.detect.ensemble import Ensemble\n"
        f"e = Ensemble.from_config({str(cfg)!r})\n"
        "spans = e.detect('Moved to Kowhai Ward today.')\n"
        "print(json.dumps({'members': sorted(e.members), 'found': ['Kowhai Ward' in 'Moved to Kowhai Ward today.'[s.start:s.end] for s in spans]}))\n"
    )
    assert got["members"] == ["lists", "rules"]
    assert any(got["found"])


def test_an_unknown_member_type_names_the_known_ones(tmp_path):
    import pytest

    from deid_desktop.core.detect.ensemble import Ensemble
    from deid_desktop.core.errors import ConfigError

    cfg = tmp_path / "bad.toml"
    cfg.write_text('[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "x"\ntype = "allow_denny"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown type 'allow_denny'") as e:
        Ensemble.from_config(cfg)
    for known in ("allow_deny", "harvested", "transformer", "rules", "nhs_number"):
        assert known in str(e.value)
