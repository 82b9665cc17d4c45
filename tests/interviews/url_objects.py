"""Alice's interview objects for the URL matrix (tests/test_url_matrix.py)."""

from __future__ import annotations

from tests.interviews.factories import ProcessFactory, RoundFactory, TeamMatchFactory


def _process(user):
    return {"pk": ProcessFactory(owner=user).pk}


URL_OBJECTS = {
    "interviews:process_detail": _process,
    "interviews:process_edit": _process,
    "interviews:process_delete": _process,
    "interviews:process_move": _process,
    "interviews:round_create": _process,
    "interviews:debrief_edit": _process,
    "interviews:team_match_create": _process,
    "interviews:round_edit": lambda user: {"pk": RoundFactory(owner=user).pk},
    "interviews:round_delete": lambda user: {"pk": RoundFactory(owner=user).pk},
    "interviews:team_match_edit": lambda user: {"pk": TeamMatchFactory(owner=user).pk},
    "interviews:team_match_delete": lambda user: {"pk": TeamMatchFactory(owner=user).pk},
}
URL_OBJECTS["interviews:round_brief"] = lambda user: {"pk": RoundFactory(owner=user).pk}
