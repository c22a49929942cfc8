"""Make acting for other users the ``memory.act_for_any_user`` permission, not ``is_staff``.

Existing service users keep what they could do: every staff user holding an API token (what
``manage.py issue_token NAME --staff`` made) is granted the permission. Staff who only log in to
the admin are not.
"""

from django.conf import settings
from django.db import migrations


def grant_to_service_users(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    memory = apps.get_app_config("memory")
    memory.models_module = True  # create_permissions skips an app without models
    create_permissions(memory, apps=apps, verbosity=0)
    Permission = apps.get_model("auth", "Permission")
    Token = apps.get_model("authtoken", "Token")
    permission = Permission.objects.get(
        codename="act_for_any_user", content_type__app_label="memory"
    )
    for token in Token.objects.filter(user__is_staff=True).select_related("user"):
        token.user.user_permissions.add(permission)


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0009_feedback_targets"),
        ("authtoken", "0004_alter_tokenproxy_options"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="chatmessage",
            options={
                "permissions": [
                    ("act_for_any_user", "Can read, write, export and erase any user's data")
                ]
            },
        ),
        migrations.RunPython(grant_to_service_users, migrations.RunPython.noop),
    ]
