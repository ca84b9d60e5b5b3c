"""The word lists: bundled with the solver or imported, and their import's progress."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Lexicon(models.Model):
    """A word list: one of the lists shipped with the solver, or one imported by a user.

    An imported list is kept in the database (gzipped), so that a worker on another
    machine compiles the same words; its SHA-256 identifies it everywhere.
    """

    class State(models.TextChoices):
        IMPORTING = "importing", _("being imported")
        READY = "ready", _("ready")
        FAILED = "failed", _("import failed")

    name = models.CharField(_("name"), max_length=100, unique=True)
    language = models.CharField(
        _("language"), max_length=2, choices=[("fr", _("French")), ("en", _("English"))]
    )
    bundled = models.CharField(_("bundled list"), max_length=20, blank=True, help_text=_("enable or french"))
    content = models.BinaryField(_("word list (gzip)"), blank=True, default=b"")
    source_name = models.CharField(_("source file"), max_length=255, blank=True)
    word_count = models.PositiveIntegerField(_("words"), default=0)
    checksum = models.CharField(_("SHA-256"), max_length=64)
    report = models.JSONField(_("import report"), default=dict, blank=True)
    #: An uploaded list is compiled by a worker: the row exists (an event may name it)
    #: from the upload; no game starts on it until it is ready.
    state = models.CharField(max_length=10, choices=State.choices, default=State.READY)
    #: Per cent of the words compiled, while importing.
    progress = models.PositiveSmallIntegerField(default=100)
    #: Why the import failed (in the importer's words), once failed.
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("lexicon")
        verbose_name_plural = _("lexicons")

    def __str__(self) -> str:
        return f"{self.name} ({self.word_count})"
