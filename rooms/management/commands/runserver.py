"""Django's ``runserver`` (with the static files of ``django.contrib.staticfiles``), with a
longer queue of connections waiting to be accepted: the standard 10 turns away phones when
a hall reconnects at once (docs/decisions.md), while the operating system holds many
more."""

from __future__ import annotations

from django.contrib.staticfiles.management.commands.runserver import Command as StaticFilesRunserver
from django.core.servers.basehttp import WSGIServer


class HallWSGIServer(WSGIServer):
    request_queue_size = 1024


class Command(StaticFilesRunserver):
    server_cls = HallWSGIServer
