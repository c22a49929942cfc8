"""Hash DRF's plain-text tokens into platform.ApiToken, then delete them.

Every existing key keeps working (same key, now stored as its SHA-256 with an 8-character
prefix); the plain-text rows are gone. After memory.0010, which read them to find service users.
Not reversible: a key cannot be recovered from its digest.
"""

import hashlib

from django.db import migrations

# Frozen copies of config.selectors.token_digest and config.services.LEGACY_PREFIX_LENGTH: a
# migration must keep doing what it did when it was written.
LEGACY_PREFIX_LENGTH = 8


def hash_legacy_tokens(apps, schema_editor):
    """Store each ``authtoken.Token`` as an ApiToken named "legacy" and delete it."""
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("platform", "ApiToken")
    for token in Token.objects.all().iterator():
        ApiToken.objects.get_or_create(
            digest=hashlib.sha256(token.key.encode()).hexdigest(),
            defaults={
                "user_id": token.user_id,
                "name": "legacy",
                "prefix": token.key[:LEGACY_PREFIX_LENGTH],
                "created_at": token.created,
            },
        )
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0002_api_token"),
        ("authtoken", "0004_alter_tokenproxy_options"),
        ("memory", "0010_act_for_any_user_permission"),
    ]

    operations = [
        migrations.RunPython(hash_legacy_tokens, migrations.RunPython.noop, elidable=False),
    ]
