from arbiter.settings.base import *  # noqa: F403

DEBUG = True
