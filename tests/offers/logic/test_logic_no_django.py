from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_logic_modules_do_not_import_django():
    code = (
        "import sys\n"
        "import offers.logic, offers.logic.timezones, offers.logic.ranking, offers.logic.criteria, "
        "offers.logic.negotiation\n"
        "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
