"""The ASGI application: ``serve`` and production run it under uvicorn (README, "The site
and the worker"). The live streams are coroutines there (rooms/views/live.py), so a hall
of phones holding them costs no thread each."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")
application = get_asgi_application()
