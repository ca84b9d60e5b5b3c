"""The Django domain: events, players, games, rounds, draws, slips and rulings (models),
every write (``services``), the reads the pages and the API share (``selectors``), and the
Celery tasks."""
