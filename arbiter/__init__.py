"""Arbiter: the Django project (settings, URLs). The game engine is the ``solver`` package."""
