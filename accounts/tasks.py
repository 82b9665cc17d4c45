"""Background work for accounts (time limits: TASK_TIME_LIMITS in config/settings.py)."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def trash_purge_task() -> int:
    """Delete trash entries past their 30 days; safe to run twice."""
    from accounts.history import trash_purge

    return trash_purge()


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=3)
def password_reset_mail_task(subject: str, body: str, to_email: str) -> int:
    """Send a password reset message written by the request (retried if the server is down)."""
    from django.core.mail import EmailMessage

    return EmailMessage(subject, body, to=[to_email]).send()
