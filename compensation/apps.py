from __future__ import annotations

from django.apps import AppConfig


class CompensationConfig(AppConfig):
    name = "compensation"
    verbose_name = "Compensation"

    def ready(self) -> None:
        from accounts.history import restored_children_register

        # A restored package gets back exactly the sign-ons, grants and refreshers it had.
        restored_children_register(
            self.get_model("SignOn"), self.get_model("EquityGrant"), self.get_model("Refresher")
        )
