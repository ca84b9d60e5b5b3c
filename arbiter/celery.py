"""The Celery app. Workers run ``celery -A arbiter worker -Q solve,adjudicate,default``."""

import os

from celery import Celery

import arbiter.broker  # noqa: F401  (registers the embedded default's broker, arbiterfs://)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")

app = Celery("arbiter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
