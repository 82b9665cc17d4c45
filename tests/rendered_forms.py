"""Read a form as the page rendered it, so a test posts exactly what a browser would."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _Forms(HTMLParser):
    """Collect every <form>: its action and the values a browser would submit."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action", ""), "method": a.get("method", "get").lower()}
            self._form["values"] = {}
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        values: dict[str, str] = self._form["values"]
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    values[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "file", "reset"):
                values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._select_first = name, None
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in a:
                values[self._select] = value
        elif tag == "textarea" and name:
            self._textarea = name
            values[name] = ""

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea is not None:
            self._form["values"][self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            values = self._form["values"] if self._form is not None else {}
            if self._select not in values:  # a browser submits the first option
                values[self._select] = self._select_first or ""
            self._select = None
        elif tag == "textarea":
            if self._form is not None and self._textarea is not None:
                text = self._form["values"][self._textarea]
                # The HTML parser keeps the newline after <textarea>; a browser drops it.
                self._form["values"][self._textarea] = text[1:] if text[:1] == "\n" else text
            self._textarea = None


def form_values(html: str | bytes, *, action: str, page: str = "") -> dict[str, str]:
    """Return the fields of the page's POST form posting to ``action``.

    A form without an action posts to its own page: give ``page``, the page's URL.
    """
    if isinstance(html, bytes):
        html = html.decode()
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        target = form["action"] or page
        if form["method"] == "post" and target == action:
            return dict(form["values"])
    raise AssertionError(f"no POST form posting to {action!r} on the page")


def post_as_rendered(client: Any, url: str, **typed: str) -> Any:
    """Post the form of the page at ``url`` as a browser sends it, with ``typed`` filled in.

    Every field the page renders is sent (hidden ones included), nothing it does not; the
    post must save (a redirect). Returns the response.
    """
    data = form_values(client.get(url).content, action=url, page=url)
    data.update(typed)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return response
