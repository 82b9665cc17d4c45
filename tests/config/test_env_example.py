""".env.example lists every environment variable the code reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READS = re.compile(
    r"""(?:os\.environ\.get\(|os\.environ\[|os\.getenv\(|env(?:bool|int)\()\s*["']([A-Z][A-Z0-9_]+)["']"""
)
# Set by the tools, not by a deployment: the settings module, the pytest-xdist worker id.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "PYTEST_XDIST_WORKER"}


def variables_read() -> set[str]:
    found: set[str] = set()
    for folder in ("config", "accounts", "compensation", "interviews", "offers"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(READS.findall(path.read_text(encoding="utf-8")))
    return found - NOT_SETTINGS


def test_every_variable_the_code_reads_is_in_env_example():
    listed = set(
        re.findall(
            r"^#?\s*([A-Z][A-Z0-9_]+)=",
            (ROOT / ".env.example").read_text(encoding="utf-8"),
            re.MULTILINE,
        )
    )
    read = variables_read()
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "EXPORT_RETENTION_DAYS"} <= read
    assert read - listed == set(), "add these to .env.example with default and meaning"
    assert listed - read == set(), "listed in .env.example but read nowhere"
