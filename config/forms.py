"""The form renderer: Django's templates, with Offerdesk's markup for one field."""

from __future__ import annotations

from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """Render forms through the project's template engine; a field through forms/field.html."""

    field_template_name = "forms/field.html"
