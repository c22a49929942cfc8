"""Bound user-entered dates to 1970-01-01T00:00:00Z <= value < 2100-01-01T00:00:00Z.

The validators keep new values in range; the SQL clamps rows stored before the bound existed:
an activity whose ``start_at`` lay in year 0149 rendered as ``0149-...+08:05:43``
(not RFC 3339), one past year 10000 UTC could not be read at all.
Clamping is not reversible (the original value is unusable anyway).
"""

import config.inputs
from django.db import migrations, models


REPAIR_SQL = [
        "UPDATE activities_activity SET start_at = TIMESTAMPTZ '1970-01-01 00:00:00+00' WHERE start_at < TIMESTAMPTZ '1970-01-01 00:00:00+00'",
        "UPDATE activities_activity SET start_at = TIMESTAMPTZ '2099-12-31 23:59:59+00' WHERE start_at >= TIMESTAMPTZ '2100-01-01 00:00:00+00'",
        "UPDATE activities_activity SET end_at = TIMESTAMPTZ '1970-01-01 00:00:00+00' WHERE end_at < TIMESTAMPTZ '1970-01-01 00:00:00+00'",
        "UPDATE activities_activity SET end_at = TIMESTAMPTZ '2099-12-31 23:59:59+00' WHERE end_at >= TIMESTAMPTZ '2100-01-01 00:00:00+00'",
]


class Migration(migrations.Migration):

    dependencies = [
        ('activities', '0003_index_running_state_at'),
    ]

    operations = [
        migrations.RunSQL(REPAIR_SQL, reverse_sql=migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='activity',
            name='end_at',
            field=models.DateTimeField(blank=True, null=True, validators=[config.inputs.DateTimeRangeValidator()]),
        ),
        migrations.AlterField(
            model_name='activity',
            name='start_at',
            field=models.DateTimeField(validators=[config.inputs.DateTimeRangeValidator()]),
        ),
    ]
