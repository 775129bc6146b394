"""The ensemble: members (rule sets, transformers, any registered detector) combined by a
strategy chosen in a TOML file under ``resources/ensembles/``.

Strategies (all decide per word token, then rebuild spans):
  union     001 — a word is PHI if any member says so; its category comes from the member
            highest in ``priority`` that tagged it.
  majority  003 — a word is PHI if more than half of the members say so; a tie is decided by
            ``tie_breaker`` (the best member on validation data).
  soft_vote 002 — p = sum_m w_{m,c} * score_m(word), where c is the category member m gives
            the word and w_{m,c} its weight for that category, fitted in closed form by
            minimising the Brier score per category (weights.py); PHI if p >= threshold.
            A member 99 % precise on dates is so trusted on dates, whatever it is worth on
            names. Categories without fitted weights use the member's overall weight.

After any strategy, two rules keep what the precise members know (issue 10):
  * a ``validated`` member span (a check digit, an e-mail, a URL with its scheme, an IP, a
    full date, a telephone number with enough digits: ``Span.validated``) is accepted even
    when every other member says O;
  * a member span accepted in part is accepted whole, for the categories in
    ``whole_span_categories``: voting per word kept only the words the models also marked,
    so ``https://remote-cardiac.example.org/login`` came out with half of it left behind.
The clinical-term guard still vetoes what it knows is no PHI (eponyms, units, scores).

The package, by concern: ``config`` (what a file says and its schema check), ``members``
(members built from their settings), ``voting`` (votes per word, the trust rules, spans
rebuilt), ``detector`` (the ``Ensemble`` detector) and ``fitting`` (weights fitted on gold).
"""

from __future__ import annotations

from .config import (
    DEFAULT_WHOLE_SPAN,
    ENSEMBLE_SCHEMA,
    MEMBER_SCHEMA,
    RULES_SCHEMA,
    STRATEGIES,
    TOP_LEVEL_SCHEMA,
    TRANSFORMER_SCHEMA,
    CategoryWeights,
    EnsembleConfig,
    MemberConfig,
    Strategy,
    category_weights_json,
    check_ensemble_file,
    load_category_weights,
    member_option_schema,
    parse_category_weights,
)
from .detector import Ensemble
from .fitting import fit_all_weights, fit_ensemble_weights, fit_weights_on, member_token_data, member_token_matrix
from .members import build_member, resolve_model_dir
from .voting import Decision, accept_validated, accept_whole, rebuild_spans, token_votes

__all__ = [
    "DEFAULT_WHOLE_SPAN", "ENSEMBLE_SCHEMA", "MEMBER_SCHEMA", "RULES_SCHEMA", "STRATEGIES", "TOP_LEVEL_SCHEMA",
    "TRANSFORMER_SCHEMA", "CategoryWeights", "Decision", "Ensemble", "EnsembleConfig", "MemberConfig", "Strategy",
    "accept_validated", "accept_whole", "build_member", "category_weights_json", "check_ensemble_file",
    "fit_all_weights", "fit_ensemble_weights", "fit_weights_on", "load_category_weights", "member_option_schema",
    "member_token_data", "member_token_matrix", "parse_category_weights", "rebuild_spans", "resolve_model_dir",
    "token_votes",
]
