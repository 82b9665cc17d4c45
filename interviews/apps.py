from __future__ import annotations

from django.apps import AppConfig


class InterviewsConfig(AppConfig):
    name = "interviews"
    verbose_name = "Interviews"

    def ready(self) -> None:
        from accounts.history import restored_children_register

        # A restored round gets back exactly the questions it had.
        restored_children_register(self.get_model("Question"))
