"""Bound user-entered dates to 1970-01-01T00:00:00Z <= value < 2100-01-01T00:00:00Z.

The validators keep new values in range; the SQL clamps rows stored before the bound existed:
memory rows whose ``ts`` lies past year 10000 UTC made every read of that user fail
(psycopg cannot read them: DataError) and the user could not even be erased.
Clamping is not reversible (the original value is unusable anyway).
"""

import config.inputs
from django.db import migrations, models


REPAIR_SQL = [
        "UPDATE memory_chatmessage SET ts = TIMESTAMPTZ '1970-01-01 00:00:00+00' WHERE ts < TIMESTAMPTZ '1970-01-01 00:00:00+00'",
        "UPDATE memory_chatmessage SET ts = TIMESTAMPTZ '2099-12-31 23:59:59+00' WHERE ts >= TIMESTAMPTZ '2100-01-01 00:00:00+00'",
        "UPDATE memory_chatmessage SET covers_until_ts = TIMESTAMPTZ '1970-01-01 00:00:00+00' WHERE covers_until_ts < TIMESTAMPTZ '1970-01-01 00:00:00+00'",
        "UPDATE memory_chatmessage SET covers_until_ts = TIMESTAMPTZ '2099-12-31 23:59:59+00' WHERE covers_until_ts >= TIMESTAMPTZ '2100-01-01 00:00:00+00'",
]


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0004_embed_running_state_at'),
    ]

    operations = [
        migrations.RunSQL(REPAIR_SQL, reverse_sql=migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='chatmessage',
            name='covers_until_ts',
            field=models.DateTimeField(blank=True, null=True, validators=[config.inputs.DateTimeRangeValidator()]),
        ),
        migrations.AlterField(
            model_name='chatmessage',
            name='ts',
            field=models.DateTimeField(validators=[config.inputs.DateTimeRangeValidator()]),
        ),
    ]
