"""factory_boy factories of the interviews app (re-exported by tests/factories.py)."""

from __future__ import annotations

import datetime as dt

import factory

from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch


class ProcessFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Process
        skip_postgeneration_save = True

    owner = factory.SubFactory("tests.factories.UserFactory")
    company = factory.SubFactory(
        "tests.factories.CompanyFactory", owner=factory.SelfAttribute("..owner")
    )
    role = "Senior ML Engineer"
    team = "Ranking"
    source = Process.Source.RECRUITER
    stage = "onsite"
    first_contact = dt.date(2026, 1, 5)
    priority = 2

    @factory.post_generation
    def history(obj, create, extracted, **kwargs):  # noqa: N805
        """Start the stage history like process_create does."""
        if create:
            StageChange.objects.create(process=obj, stage=obj.stage, changed_on=obj.first_contact)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    owner = factory.SubFactory("tests.factories.UserFactory")
    process = factory.SubFactory(ProcessFactory, owner=factory.SelfAttribute("..owner"))
    order = factory.Sequence(lambda n: n + 1)
    kind = Round.Kind.CODING
    scheduled_at = dt.datetime(2026, 2, 10, 2, 0, tzinfo=dt.UTC)
    timezone = "America/Los_Angeles"
    duration_minutes = 45
    interviewer_name = "Pat Lee"
    signal = "unknown"


class QuestionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Question

    round = factory.SubFactory(RoundFactory)
    text = "Design a feature store for ranking"
    tags = "feature store,ml design"


class DebriefFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Debrief

    owner = factory.SubFactory("tests.factories.UserFactory")
    process = factory.SubFactory(ProcessFactory, owner=factory.SelfAttribute("..owner"))
    decision = Debrief.Decision.HIRE


class TeamMatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamMatch

    owner = factory.SubFactory("tests.factories.UserFactory")
    process = factory.SubFactory(ProcessFactory, owner=factory.SelfAttribute("..owner"))
    team = "Ads Ranking"
    manager = "Sam Chen"
    time_zone = "Asia/Singapore"


__all__ = [
    "DebriefFactory",
    "ProcessFactory",
    "QuestionFactory",
    "RoundFactory",
    "TeamMatchFactory",
]
