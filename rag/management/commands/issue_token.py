from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Create the user if needed and print an API token for it (the key is the last line)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--staff",
            action="store_true",
            help="Make it a service user: staff, and allowed to act for any user "
            "(the memory.act_for_any_user permission).",
        )

    def handle(self, *args, username, staff, **options):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
        if staff and not user.is_staff:
            user.is_staff = True
        user.save()
        if staff:
            user.user_permissions.add(
                Permission.objects.get(
                    codename="act_for_any_user", content_type__app_label="memory"
                )
            )
        token, _ = Token.objects.get_or_create(user=user)
        verb = "Created" if created else "Found"
        role = " (staff, acts for any user)" if staff else (" (staff)" if user.is_staff else "")
        self.stderr.write(f"{verb} user {username!r}{role}.")
        self.stdout.write(token.key)
