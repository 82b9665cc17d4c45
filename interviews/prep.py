"""The prep brief of an upcoming round: who interviews, what they will likely ask, how it went.

`likely_topics` is pure (text in, topics out) and reads one registry, `TOPIC_RULES`: a rule
names the words of an interviewer's background or team that suggest it and the question tags
(the same lower-case tags the question log uses) to practise. `round_brief` reads the user's
data and puts the brief together; the page, the calendar entry and the tests read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import reduce
from operator import or_

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext, pgettext_lazy

from interviews.models import NEGATIVE_SIGNALS, POSITIVE_SIGNALS, Question, Round, RoundKind, Signal
from interviews.selectors import tag_q


@dataclass(frozen=True)
class TopicRule:
    """Words in a background or team that suggest topics (question tags) to practise."""

    key: str
    keywords: tuple[str, ...]
    topics: tuple[str, ...]
    why: str  # a message id: why these topics follow from the words


TOPIC_RULES: tuple[TopicRule, ...] = (
    TopicRule(
        "numerical",
        ("numerical", "kernel", "kernels", "hpc", "cuda", "blas", "simd", "floating point"),
        ("numerical kernels", "performance", "floating point", "benchmarking"),
        gettext_noop("works on numerical code: expect precision, performance and measurement"),
    ),
    TopicRule(
        "ci",
        ("ci", "continuous integration", "build", "test infra", "testing", "release"),
        ("testing", "ci", "reproducibility", "benchmarking"),
        gettext_noop("runs CI or test infrastructure: expect testing, flaky jobs, regressions"),
    ),
    TopicRule(
        "accelerators",
        ("gpu", "gpus", "cuda", "tpu", "accelerator", "compiler", "xla", "triton"),
        ("gpu", "performance", "compilers"),
        gettext_noop("works on accelerators or compilers: expect hardware-aware design"),
    ),
    TopicRule(
        "ranking",
        ("ranking", "recommendation", "recommendations", "recs", "retrieval", "feed"),
        ("ranking", "recommendation", "feature store"),
        gettext_noop("works on ranking or recommendation: expect your own domain in depth"),
    ),
    TopicRule(
        "infra",
        ("infra", "infrastructure", "serving", "delivery", "platform", "capacity", "pipeline"),
        ("system design", "capacity", "streaming"),
        gettext_noop("works on infrastructure: expect capacity estimates and failure modes"),
    ),
    TopicRule(
        "online",
        ("online learning", "drift", "real-time", "streaming"),
        ("online learning", "streaming", "ml design"),
        gettext_noop("works on online systems: expect freshness, drift and streaming"),
    ),
    TopicRule(
        "modelling",
        ("multi-task", "calibration", "ablation", "research", "model", "models"),
        ("ml design", "calibration", "evaluation"),
        gettext_noop("works on models: expect evaluation, ablations and calibration"),
    ),
    TopicRule(
        "llm",
        ("llm", "inference", "distillation", "language model"),
        ("llm", "inference", "cost"),
        gettext_noop("works on large models: expect inference cost and serving"),
    ),
    TopicRule(
        "manager",
        ("manager", "director", "lead", "hiring manager"),
        ("leadership", "conflict", "impact"),
        gettext_noop("manages people: expect leadership, conflict and impact stories"),
    ),
)

# Each topic the rules and round kinds suggest, as the page names it: the topic is the
# lower-case tag the question log uses (matched as typed); its label is translated. A tag the
# person typed themselves is their own word and is shown as typed.
TOPIC_LABELS: dict[str, str | Promise] = {
    "numerical kernels": pgettext_lazy("interview topic", "numerical kernels"),
    "performance": pgettext_lazy("interview topic", "performance"),
    "floating point": pgettext_lazy("interview topic", "floating point"),
    "benchmarking": pgettext_lazy("interview topic", "benchmarking"),
    "testing": pgettext_lazy("interview topic", "testing"),
    "ci": pgettext_lazy("interview topic", "ci"),
    "reproducibility": pgettext_lazy("interview topic", "reproducibility"),
    "gpu": pgettext_lazy("interview topic", "gpu"),
    "compilers": pgettext_lazy("interview topic", "compilers"),
    "ranking": pgettext_lazy("interview topic", "ranking"),
    "recommendation": pgettext_lazy("interview topic", "recommendation"),
    "feature store": pgettext_lazy("interview topic", "feature store"),
    "system design": pgettext_lazy("interview topic", "system design"),
    "capacity": pgettext_lazy("interview topic", "capacity"),
    "streaming": pgettext_lazy("interview topic", "streaming"),
    "online learning": pgettext_lazy("interview topic", "online learning"),
    "ml design": pgettext_lazy("interview topic", "ml design"),
    "calibration": pgettext_lazy("interview topic", "calibration"),
    "evaluation": pgettext_lazy("interview topic", "evaluation"),
    "llm": pgettext_lazy("interview topic", "llm"),
    "inference": pgettext_lazy("interview topic", "inference"),
    "cost": pgettext_lazy("interview topic", "cost"),
    "leadership": pgettext_lazy("interview topic", "leadership"),
    "conflict": pgettext_lazy("interview topic", "conflict"),
    "impact": pgettext_lazy("interview topic", "impact"),
    "coding": pgettext_lazy("interview topic", "coding"),
    "mentoring": pgettext_lazy("interview topic", "mentoring"),
    "role and team": pgettext_lazy("interview topic", "role and team"),
    "level and scope": pgettext_lazy("interview topic", "level and scope"),
    "compensation expectations": pgettext_lazy("interview topic", "compensation expectations"),
    "timeline": pgettext_lazy("interview topic", "timeline"),
    "remote and location": pgettext_lazy("interview topic", "remote and location"),
    "your other processes": pgettext_lazy("interview topic", "your other processes"),
}


def topic_label(tag: str) -> str:
    """Return a topic as the page names it: its translated label, or the tag as typed."""
    return str(TOPIC_LABELS.get(tag, tag))


def topic_list(tags: tuple[str, ...] | list[str]) -> str:
    """Return topics' labels as one list, joined the language's way ("a, b" / "a、b")."""
    return pgettext("between items of a list", ", ").join(topic_label(t) for t in tags)


# The topics a kind of round brings whoever runs it.
KIND_TOPICS: dict[str, tuple[str, ...]] = {
    # A recruiter screens the role, the level, what you expect to be paid (a range once
    # levelled), when you can start, where you would work from and what else is under way
    # (say it is, never the figures): no technical topic, whatever the recruiter's background.
    RoundKind.RECRUITER_CALL: (
        "role and team",
        "level and scope",
        "compensation expectations",
        "timeline",
        "remote and location",
        "your other processes",
    ),
    RoundKind.SYSTEM_DESIGN: ("system design", "capacity"),
    RoundKind.ML_DESIGN: ("ml design", "evaluation"),
    RoundKind.CODING: ("coding",),
    RoundKind.PHONE_SCREEN: ("coding",),
    RoundKind.BEHAVIORAL: ("leadership", "conflict", "mentoring"),
    RoundKind.HIRING_MANAGER: ("leadership", "impact"),
    RoundKind.TEAM_MATCH: ("impact",),
}


# Rounds that are a conversation about the job, not an interview of a skill.
CONVERSATION_KINDS = frozenset({RoundKind.RECRUITER_CALL})


@dataclass(frozen=True)
class Topic:
    """A topic to practise and why (the rules that suggested it, or the round's kind)."""

    tag: str
    reasons: tuple[str, ...]

    @property
    def label(self) -> str:
        """Return the topic as the page names it (translated)."""
        return topic_label(self.tag)

    @property
    def reasons_text(self) -> str:
        """Return its reasons as one text, joined the language's way ("; " / "；")."""
        return _("; ").join(self.reasons)


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[\w+#-]+", text.lower())) + " "


def matched_rules(text: str) -> list[TopicRule]:
    """Return the rules whose keywords appear in `text` as whole words."""
    words = _words(text)
    return [rule for rule in TOPIC_RULES if any(f" {kw} " in words for kw in rule.keywords)]


def likely_topics(*, background: str, team: str, kind: str) -> list[Topic]:
    """Return the topics a round is likely to cover: the round kind's first, then the
    background's and team's, those suggested for more reasons first."""
    reasons: dict[str, list[str]] = {}
    kind_label = str(RoundKind(kind).label) if kind in RoundKind.values else kind
    kind_tags = KIND_TOPICS.get(kind, ())
    for tag in kind_tags:
        reasons.setdefault(tag, []).append(_("round kind: %(kind)s") % {"kind": kind_label})
    rules = [] if kind in CONVERSATION_KINDS else matched_rules(f"{background} {team}")
    for rule in rules:
        for tag in rule.topics:
            reasons.setdefault(tag, []).append(_(rule.why))
    topics = [Topic(tag, tuple(dict.fromkeys(why))) for tag, why in reasons.items()]
    order = {t.tag: i for i, t in enumerate(topics)}
    return sorted(topics, key=lambda t: (t.tag not in kind_tags, -len(t.reasons), order[t.tag]))


@dataclass(frozen=True)
class PastQuestion:
    """A question the user was asked before on one of the brief's topics, and how it went."""

    text: str
    tags: tuple[str, ...]
    matching: tuple[str, ...]
    company: str
    kind: str
    when: datetime | None
    signal: str
    signal_label: str
    self_assessment: int | None
    # How it was found: "tags", or for a question logged without tags, "words" (its text
    # names a topic: `matching` holds them) or "kind" (asked in the same kind of round).
    matched_by: str = "tags"

    @property
    def matching_labels(self) -> str:
        """Return the topics it shares with the brief, as one translated list."""
        return topic_list(self.matching)

    @property
    def went(self) -> str:
        """Return "good", "bad" or "unknown" from the round's signal."""
        if self.signal in POSITIVE_SIGNALS:
            return "good"
        if self.signal in NEGATIVE_SIGNALS:
            return "bad"
        return "unknown"


@dataclass(frozen=True)
class RoundSignal:
    """One other round of the same process and its signal."""

    order: int
    kind: str
    interviewer: str
    signal: str
    signal_label: str
    self_assessment: int | None


@dataclass(frozen=True)
class SimilarRound:
    """An earlier round whose interviewer's background matched the same rules."""

    company: str
    kind: str
    interviewer: str
    background: str
    shared: tuple[str, ...]  # the rules' reasons both backgrounds matched
    signal: str
    signal_label: str
    self_assessment: int | None

    @property
    def shared_text(self) -> str:
        """Return the reasons in common as one text, joined the language's way."""
        return _("; ").join(self.shared)


@dataclass(frozen=True)
class CheckItem:
    key: str
    text: str


@dataclass
class RoundBrief:
    """Everything the prep brief page shows for one round."""

    round: Round
    topics: list[Topic]
    past_questions: list[PastQuestion]
    signals: list[RoundSignal]
    checklist: list[CheckItem]
    home_time: datetime | None
    own_zone: bool  # the round is in the user's own zone: its time is said once
    weak_topics: list[str] = field(default_factory=list)
    similar_rounds: list[SimilarRound] = field(default_factory=list)


def _untagged_match(question: Question, round_: Round, tags: list[str]) -> tuple[str, ...] | None:
    """Return the topics an untagged question's words name, () for one asked in the same kind
    of round, or None when it has nothing to do with this round."""
    words = _words(question.text)
    named = tuple(t for t in tags if f" {' '.join(_words(t).split())} " in words)
    if named:
        return named
    return () if question.round.kind == round_.kind else None


def _latest_first(question: Question) -> tuple[bool, float, int]:
    when = question.round.scheduled_at
    return (when is None, -when.timestamp() if when else 0.0, question.pk)


def _past_questions(user: AbstractBaseUser, round_: Round, tags: list[str]) -> list[PastQuestion]:
    mine = (
        Question.objects.filter(round__owner=user, round__process__owner=user)
        .exclude(round=round_)
        .select_related("round", "round__process__company")
    )
    filters = [tag_q(t) for t in tags] + [Q(tags="")]
    wanted = set(tags)
    found: list[tuple[Question, tuple[str, ...], str]] = []
    for q in mine.filter(reduce(or_, filters)):
        if q.tag_list:
            found.append((q, tuple(t for t in q.tag_list if t in wanted), "tags"))
            continue
        named = _untagged_match(q, round_, tags)
        if named is not None:
            found.append((q, named, "words" if named else "kind"))
    found.sort(key=lambda f: _latest_first(f[0]))
    return [
        PastQuestion(
            text=q.text,
            tags=tuple(q.tag_list),
            matching=matching,
            company=q.round.process.company.name,
            kind=q.round.get_kind_display(),
            when=q.round.scheduled_at,
            signal=q.round.signal,
            signal_label=q.round.get_signal_display(),
            self_assessment=q.round.self_assessment,
            matched_by=how,
        )
        for q, matching, how in found
    ]


def _similar_rounds(user: AbstractBaseUser, round_: Round) -> list[SimilarRound]:
    # A recruiter is no interviewer: their org's work says nothing about what a round asks.
    if round_.kind in CONVERSATION_KINDS:
        return []
    mine = {rule.key: rule for rule in matched_rules(round_.interviewer_background)}
    if not mine:
        return []
    others = (
        Round.objects.filter(owner=user, process__owner=user, scheduled_at__lt=timezone.now())
        .exclude(pk=round_.pk)
        .exclude(interviewer_background="")
        .exclude(kind__in=CONVERSATION_KINDS)
        .select_related("process__company")
        .order_by("-scheduled_at", "id")
    )
    found = []
    for other in others:
        shared = [mine[r.key] for r in matched_rules(other.interviewer_background) if r.key in mine]
        if shared:
            found.append(
                SimilarRound(
                    company=other.process.company.name,
                    kind=other.get_kind_display(),
                    interviewer=other.interviewer_name,
                    background=other.interviewer_background,
                    shared=tuple(_(rule.why) for rule in shared),
                    signal=other.signal,
                    signal_label=other.get_signal_display(),
                    self_assessment=other.self_assessment,
                )
            )
    # The closest first (most rules in common), then those that went badly.
    found.sort(key=lambda r: (-len(r.shared), r.signal not in NEGATIVE_SIGNALS))
    return found


# The checklist names this many topics; the page lists them all.
CHECKLIST_TOPICS = 6


def _call_checklist(round_: Round) -> list[CheckItem]:
    """Return what to have ready for a recruiter call: your answers, and questions on the job."""
    return [
        CheckItem(
            "answers",
            _(
                "Have your answers ready: the level you are after, a start date, where you will "
                "work from, and that other processes are under way (never their figures); a pay "
                "range only once the level is set."
            ),
        ),
        CheckItem(
            "questions",
            _("Ask %(name)s about the role: the team, the level's scope, the steps to an offer.")
            % {"name": round_.interviewer_name or _("the recruiter")},
        ),
    ]


def _checklist(
    round_: Round, topics: list[Topic], weak: list[str], similar: list[SimilarRound], own_zone: bool
) -> list[CheckItem]:
    name = round_.interviewer_name or _("the interviewer")
    items = _call_checklist(round_) if round_.kind in CONVERSATION_KINDS else [
        CheckItem(
            "background",
            _("Read %(name)s's background and look up their team's recent work.") % {"name": name}
            if round_.interviewer_background
            else _("Find out who %(name)s is: ask the recruiter for their team and background.")
            % {"name": name},
        ),
        CheckItem(
            "questions",
            _("Prepare two questions for %(name)s about their own work.") % {"name": name},
        ),
    ]  # fmt: skip
    if topics and round_.kind not in CONVERSATION_KINDS:
        items.append(
            CheckItem(
                "practise",
                _("Practise the likely topics: %(topics)s.")
                % {"topics": topic_list([t.tag for t in topics[:CHECKLIST_TOPICS]])},
            )
        )
    if weak:
        items.append(
            CheckItem(
                "weak",
                _("Go over what went wrong before on: %(topics)s.") % {"topics": topic_list(weak)},
            )
        )
    for other in similar[:1]:
        items.append(
            CheckItem(
                "similar",
                _(
                    "An interviewer with a background like this one's ran your %(company)s "
                    "%(kind)s round (%(signal)s): prepare for what they asked."
                )
                % {"company": other.company, "kind": other.kind, "signal": other.signal_label},
            )
        )
    items.append(
        CheckItem(
            "time",
            (
                _("Check the time in %(zone)s, your own zone too, and the link or address.")
                if own_zone
                else _("Check the time in %(zone)s and in your own zone, and the link or address.")
            )
            % {"zone": round_.timezone},
        )
    )
    return items


def round_brief(*, user: AbstractBaseUser, round_: Round) -> RoundBrief:
    """Return the prep brief of one of the user's rounds (fetched with `round_get`)."""
    process = round_.process
    background = round_.interviewer_background
    topics = likely_topics(background=background, team=process.team, kind=round_.kind)
    tags = [t.tag for t in topics]
    past = _past_questions(user, round_, tags)
    weak = list(dict.fromkeys(t for p in past if p.went == "bad" for t in p.matching))
    siblings = process.rounds.exclude(pk=round_.pk).order_by("order", "scheduled_at", "id")
    signals = [
        RoundSignal(
            order=r.order,
            kind=r.get_kind_display(),
            interviewer=r.interviewer_name,
            signal=r.signal,
            signal_label=r.get_signal_display(),
            self_assessment=r.self_assessment,
        )
        for r in siblings
        if r.signal != Signal.UNKNOWN or r.self_assessment is not None
    ]
    similar = _similar_rounds(user, round_)
    own_zone = round_.timezone == timezone.get_current_timezone_name()
    return RoundBrief(
        round=round_,
        topics=topics,
        past_questions=past,
        signals=signals,
        checklist=_checklist(round_, topics, weak, similar, own_zone),
        home_time=timezone.localtime(round_.scheduled_at) if round_.scheduled_at else None,
        own_zone=own_zone,
        weak_topics=weak,
        similar_rounds=similar,
    )
