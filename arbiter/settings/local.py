"""The developer's and the laptop's settings (``manage.py`` and ``serve`` use them).

DEBUG is on for ``runserver`` on a developer's machine; ``serve`` turns it off (its
``--debug`` turns it on, on loopback only): the debug pages show the settings.
"""

from arbiter.settings.base import *  # noqa: F403
from arbiter.settings.env import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
