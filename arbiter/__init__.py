"""Arbiter: the Django project (settings, URLs, Celery app). The engine is ``solver``."""

from arbiter.celery import app as celery_app

__all__ = ["celery_app"]
