"""The multiplex's models leave the domain for the multiplex app, in the migration state
only: their tables keep their names (``db_table``), their rows and constraints stay
(multiplex/migrations/0001_moved.py takes them up)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0023_event_linked_by"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="serving",
                    name="centre",
                ),
                migrations.RemoveField(
                    model_name="centreplayer",
                    name="centre",
                ),
                migrations.RemoveField(
                    model_name="centreruling",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="centreruling",
                    name="serving",
                ),
                migrations.RemoveField(
                    model_name="hubcopy",
                    name="link",
                ),
                migrations.RemoveField(
                    model_name="hubgame",
                    name="multiplex",
                ),
                migrations.RemoveField(
                    model_name="hublink",
                    name="event",
                ),
                migrations.RemoveField(
                    model_name="hubsealed",
                    name="link",
                ),
                migrations.RemoveField(
                    model_name="huboutbox",
                    name="link",
                ),
                migrations.RemoveField(
                    model_name="hubround",
                    name="multiplex",
                ),
                migrations.RemoveField(
                    model_name="serving",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="multiplex",
                    name="event",
                ),
                migrations.DeleteModel(
                    name="Centre",
                ),
                migrations.DeleteModel(
                    name="CentrePlayer",
                ),
                migrations.DeleteModel(
                    name="CentreRuling",
                ),
                migrations.DeleteModel(
                    name="HubCopy",
                ),
                migrations.DeleteModel(
                    name="HubGame",
                ),
                migrations.DeleteModel(
                    name="HubSealed",
                ),
                migrations.DeleteModel(
                    name="HubLink",
                ),
                migrations.DeleteModel(
                    name="HubOutbox",
                ),
                migrations.DeleteModel(
                    name="HubRound",
                ),
                migrations.DeleteModel(
                    name="Serving",
                ),
                migrations.DeleteModel(
                    name="Multiplex",
                ),
            ],
        ),
    ]
