"""The multiplex's models, taken up from the domain (tournaments/migrations/0024) in the
migration state only: their tables, rows and constraints were made there and stay. The
content types follow the models, so that permissions and the admin's log stay attached."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MOVED = ("multiplex", "centre", "hubgame", "hubround", "serving", "centreplayer", "centreruling",
         "hublink", "hubsealed", "hubcopy", "huboutbox")  # fmt: skip


def content_types(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    types = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not types.objects.filter(app_label="multiplex", model=model).exists():
            types.objects.filter(app_label="tournaments", model=model).update(app_label="multiplex")


def content_types_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    types = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not types.objects.filter(app_label="tournaments", model=model).exists():
            types.objects.filter(app_label="multiplex", model=model).update(app_label="tournaments")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0024_multiplex_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Centre",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("draws", models.BooleanField(default=False, verbose_name="draw centre")),
                        ("key_hash", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("last_seen_at", models.DateTimeField(blank=True, null=True)),
                        ("roster_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "verbose_name": "centre",
                        "verbose_name_plural": "centres",
                        "db_table": "tournaments_centre",
                        "ordering": ["multiplex", "name"],
                    },
                ),
                migrations.CreateModel(
                    name="CentrePlayer",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("table", models.PositiveIntegerField(verbose_name="table")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("club", models.CharField(blank=True, max_length=120, verbose_name="club")),
                        (
                            "licence",
                            models.CharField(blank=True, max_length=40, verbose_name="licence number"),
                        ),
                        (
                            "category",
                            models.CharField(blank=True, max_length=40, verbose_name="category / series"),
                        ),
                        ("left_at", models.DateTimeField(blank=True, null=True)),
                        ("removed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "removed_reason",
                            models.CharField(blank=True, max_length=200, verbose_name="reason"),
                        ),
                        (
                            "centre",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="players",
                                to="multiplex.centre",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_centreplayer",
                        "ordering": ["centre", "table"],
                    },
                ),
                migrations.CreateModel(
                    name="HubLink",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("url", models.URLField(max_length=300, verbose_name="hub address")),
                        ("key", models.CharField(max_length=200, verbose_name="centre key")),
                        ("centre_name", models.CharField(max_length=120, verbose_name="centre")),
                        ("draws", models.BooleanField(default=False, verbose_name="draw centre")),
                        ("multiplex_name", models.CharField(max_length=200, verbose_name="multiplex")),
                        ("prepared", models.BooleanField(default=False)),
                        ("joined_at", models.DateTimeField(auto_now_add=True)),
                        ("last_contact_at", models.DateTimeField(blank=True, null=True)),
                        ("last_error", models.TextField(blank=True)),
                        ("last_error_at", models.DateTimeField(blank=True, null=True)),
                        ("sync_until", models.DateTimeField(blank=True, null=True)),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="hub_link",
                                to="tournaments.event",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "link to a hub",
                        "verbose_name_plural": "links to a hub",
                        "db_table": "tournaments_hublink",
                    },
                ),
                migrations.CreateModel(
                    name="HubCopy",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("game", models.PositiveIntegerField(verbose_name="game")),
                        ("number", models.PositiveIntegerField(verbose_name="round")),
                        ("reliquat", models.CharField(blank=True, max_length=8)),
                        ("new_tiles", models.CharField(max_length=8)),
                        ("rejected", models.JSONField(blank=True, default=list)),
                        ("manual", models.BooleanField(default=False)),
                        ("top", models.JSONField(blank=True, null=True)),
                        ("game_end", models.CharField(blank=True, max_length=20)),
                        ("fetched_at", models.DateTimeField()),
                        (
                            "link",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rounds",
                                to="multiplex.hublink",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_hubcopy",
                        "ordering": ["link", "game", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="HubOutbox",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("close", "close"),
                                    ("results", "results"),
                                    ("draw", "draw"),
                                    ("top", "top"),
                                    ("end", "end of game"),
                                    ("roster", "roster"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("game", models.PositiveIntegerField(verbose_name="game")),
                        ("number", models.PositiveIntegerField(verbose_name="round")),
                        ("payload", models.JSONField()),
                        ("digest", models.CharField(max_length=64)),
                        ("queued_at", models.DateTimeField()),
                        ("sent_at", models.DateTimeField(blank=True, null=True)),
                        ("attempts", models.PositiveIntegerField(default=0)),
                        ("last_error", models.TextField(blank=True)),
                        (
                            "link",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="outbox",
                                to="multiplex.hublink",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_huboutbox",
                        "ordering": ["link", "game", "number", "kind"],
                    },
                ),
                migrations.CreateModel(
                    name="HubSealed",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("game", models.PositiveIntegerField(verbose_name="game")),
                        ("starts_at", models.DateTimeField(verbose_name="agreed start")),
                        ("token", models.TextField()),
                        ("fetched_at", models.DateTimeField()),
                        ("opened_at", models.DateTimeField(blank=True, null=True)),
                        ("keyed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "link",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="sealed",
                                to="multiplex.hublink",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_hubsealed",
                        "ordering": ["link", "game"],
                    },
                ),
                migrations.CreateModel(
                    name="Multiplex",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "mode",
                            models.CharField(
                                choices=[
                                    ("live", "live: the racks and tops of a draw centre, as it plays"),
                                    ("prepared", "prepared: the event's master games, from the agreed start"),
                                ],
                                default="live",
                                max_length=10,
                                verbose_name="mode",
                            ),
                        ),
                        (
                            "starts_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="agreed start"),
                        ),
                        (
                            "max_delay_minutes",
                            models.PositiveIntegerField(default=90, verbose_name="maximum delay (minutes)"),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="multiplex",
                                to="tournaments.event",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "multiplex",
                        "verbose_name_plural": "multiplexes",
                        "db_table": "tournaments_multiplex",
                    },
                ),
                migrations.CreateModel(
                    name="HubRound",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("game", models.PositiveIntegerField(verbose_name="game")),
                        ("number", models.PositiveIntegerField(verbose_name="round")),
                        ("reliquat", models.CharField(blank=True, max_length=8)),
                        ("new_tiles", models.CharField(max_length=8)),
                        ("rejected", models.JSONField(blank=True, default=list)),
                        ("manual", models.BooleanField(default=False)),
                        ("drawn_at", models.DateTimeField()),
                        ("played", models.CharField(blank=True, max_length=40)),
                        ("score", models.PositiveIntegerField(blank=True, null=True)),
                        ("moves", models.PositiveIntegerField(blank=True, null=True)),
                        ("top_score", models.PositiveIntegerField(blank=True, null=True)),
                        ("tops", models.JSONField(blank=True, default=list)),
                        ("board", models.TextField(blank=True)),
                        ("placed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "multiplex",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rounds",
                                to="multiplex.multiplex",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "multiplex round",
                        "verbose_name_plural": "multiplex rounds",
                        "db_table": "tournaments_hubround",
                        "ordering": ["multiplex", "game", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="HubGame",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveIntegerField(verbose_name="game")),
                        ("started_at", models.DateTimeField()),
                        ("end", models.CharField(blank=True, max_length=20)),
                        ("final", models.JSONField(blank=True, null=True)),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        ("seal_key", models.CharField(blank=True, max_length=64)),
                        (
                            "multiplex",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="games",
                                to="multiplex.multiplex",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_hubgame",
                        "ordering": ["multiplex", "number"],
                    },
                ),
                migrations.AddField(
                    model_name="centre",
                    name="multiplex",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="centres",
                        to="multiplex.multiplex",
                    ),
                ),
                migrations.CreateModel(
                    name="Serving",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("rack_at", models.DateTimeField()),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        ("slips_digest", models.CharField(blank=True, max_length=64)),
                        ("top_at", models.DateTimeField(blank=True, null=True)),
                        ("taking_part", models.PositiveIntegerField(default=0)),
                        ("results_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "centre",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="servings",
                                to="multiplex.centre",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="servings",
                                to="multiplex.hubround",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_serving",
                        "ordering": ["round", "centre"],
                    },
                ),
                migrations.CreateModel(
                    name="CentreRuling",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("reason", models.CharField(blank=True, max_length=30)),
                        ("move", models.CharField(blank=True, max_length=40)),
                        ("move_score", models.IntegerField(default=0)),
                        ("credited", models.IntegerField(default=0)),
                        ("penalty", models.PositiveIntegerField(default=0)),
                        ("warnings", models.PositiveSmallIntegerField(default=0)),
                        ("solo", models.BooleanField(default=False)),
                        ("is_top", models.BooleanField(default=False)),
                        ("letterpoints", models.PositiveIntegerField(default=0)),
                        ("overridden", models.BooleanField(default=False)),
                        ("merged_credited", models.IntegerField(default=0)),
                        ("merged_solo", models.BooleanField(default=False)),
                        ("received_at", models.DateTimeField(auto_now=True)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rulings",
                                to="multiplex.centreplayer",
                            ),
                        ),
                        (
                            "serving",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rulings",
                                to="multiplex.serving",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_centreruling",
                        "ordering": ["serving", "player__table"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="centreplayer",
                    constraint=models.UniqueConstraint(
                        fields=("centre", "table"), name="one_centre_player_per_table"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hubcopy",
                    constraint=models.UniqueConstraint(
                        fields=("link", "game", "number"), name="one_hub_copy_per_round"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="huboutbox",
                    constraint=models.UniqueConstraint(
                        fields=("link", "kind", "game", "number"), name="one_outbox_per_round_kind"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hubsealed",
                    constraint=models.UniqueConstraint(
                        fields=("link", "game"), name="one_sealed_game_per_link"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hubround",
                    constraint=models.UniqueConstraint(
                        fields=("multiplex", "game", "number"), name="one_hub_round_per_number"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hubgame",
                    constraint=models.UniqueConstraint(
                        fields=("multiplex", "number"), name="one_hub_game_per_number"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="centre",
                    constraint=models.UniqueConstraint(
                        fields=("multiplex", "name"), name="one_centre_name_per_multiplex"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="centre",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("draws", True)),
                        fields=("multiplex",),
                        name="one_draw_centre_per_multiplex",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="serving",
                    constraint=models.UniqueConstraint(
                        fields=("centre", "round"), name="one_serving_per_centre_round"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="centreruling",
                    constraint=models.UniqueConstraint(
                        fields=("serving", "player"), name="one_centre_ruling_per_player_round"
                    ),
                ),
            ],
        ),
        migrations.RunPython(content_types, content_types_back),
    ]
