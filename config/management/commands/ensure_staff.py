import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Create a staff superuser once. The password comes from STAFF_PASSWORD (checked by "
        "AUTH_PASSWORD_VALIDATORS) or is generated and printed once; an existing account is "
        "left alone."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default=None, help="default: STAFF_USERNAME or admin")

    def handle(self, *args, username, **options):
        username = username or settings.STAFF_USERNAME
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"Staff account {username!r} exists; its password is unchanged.")
            return
        password = settings.STAFF_PASSWORD or secrets.token_urlsafe(12)
        if settings.STAFF_PASSWORD:
            try:
                validate_password(password, User(username=username))
            except ValidationError as exc:
                raise CommandError(
                    "STAFF_PASSWORD is too weak: " + " ".join(exc.messages)
                ) from None
        User.objects.create_superuser(username=username, email="", password=password)
        if settings.STAFF_PASSWORD:
            self.stdout.write(f"Created staff account {username!r} with STAFF_PASSWORD.")
        else:
            self.stdout.write(
                f"Created staff account {username!r} with password: {password}\n"
                "(shown once; change it in the admin)"
            )
