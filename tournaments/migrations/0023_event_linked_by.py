"""Each event says which app plays it together with others (tournaments.linked): the
events a multiplex already links (its hub, its centres) say "multiplex"."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def multiplex_events(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    event = apps.get_model("tournaments", "Event")
    hubs = apps.get_model("tournaments", "Multiplex").objects.values("event_id")
    centres = apps.get_model("tournaments", "HubLink").objects.values("event_id")
    event.objects.filter(models.Q(pk__in=hubs) | models.Q(pk__in=centres)).update(linked_by="multiplex")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_history_shown"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="linked_by",
            field=models.CharField(blank=True, default="", editable=False, max_length=30),
        ),
        migrations.RunPython(multiplex_events, migrations.RunPython.noop),
    ]
