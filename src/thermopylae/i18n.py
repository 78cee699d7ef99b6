"""Words in the player's language: gettext catalogs for every text built in Python.

The catalogs are the `.po` files under `thermopylae/locale/<lang>/` (edited with Babel's
tools, see docs/i18n.md); they are compiled in memory on first use, so no
generated `.mo` file is kept in the repository. English is the source language: a message
missing from a catalog shows in English.

The language is a context variable: a face sets it once (`set_language`, the terminal) or
around one piece of work (`language(...)`, the server building a message for one client),
and the games' text functions call `_` and `ngettext` without being told.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
from collections.abc import Iterator
from gettext import NullTranslations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

LANGUAGES: dict[str, str] = {"en": "English", "pt": "Português", "fr": "Français", "it": "Italiano"}
"""The languages with a complete catalog, by code, each named in its own language."""
DEFAULT = "en"
DOMAIN = "messages"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("thermopylae_lang", default=DEFAULT)


def negotiate(value: str | None) -> str:
    """The supported language a request or environment asks for: a code (`pt`), a locale
    (`pt_BR.UTF-8`) or an Accept-Language header (`fr-CH, fr;q=0.9, en;q=0.8`); English
    when none is supported."""
    if not value:
        return DEFAULT
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(value.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().replace("_", "-").split("-")[0].split(".")[0].lower()
        if code in LANGUAGES and q > 0:
            weighted.append((-q, i, code))
    return min(weighted)[2] if weighted else DEFAULT


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalog of `lang`: every `.po` file in `locale/<lang>/` (one per part of the
    program: the games, the terminal, ...), merged and compiled (English: no catalog).
    Babel is imported here, for a language other than English only: a command in
    English never pays for it (its import costs more than a short command's work)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return NullTranslations()
    from importlib import resources

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    folder = resources.files("thermopylae").joinpath("locale", lang)
    files = (
        sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)
        if folder.is_dir()
        else []
    )
    merged: Catalog | None = None  # the first file's header (its plural forms) rules
    for po in files:
        with po.open("rb") as fh:
            part = read_po(fh, locale=lang, domain=DOMAIN)
        if merged is None:
            merged = part
            continue
        for message in part:
            if message.id and message.string and not message.fuzzy:
                merged[message.id] = message
    if merged is None:
        return NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, merged)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def current() -> str:
    """The language texts are built in now."""
    return _current.get()


def set_language(lang: str) -> None:
    """Make `lang` the language of this thread of work (the terminal sets it once)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


@contextlib.contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Build texts in `lang` inside the block (a server message for one client)."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """`message` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language (`{n}` is not
    filled in: format the answer)."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined (a table of names); it is
    translated where it is shown, with `_`."""
    return message
