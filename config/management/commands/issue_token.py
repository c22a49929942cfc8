from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from config.errors import InvalidArgument
from config.permissions import normalized_user_name
from config.services import token_issue, tokens_revoke_all

MAX_USER_NAME_LENGTH = 150


class Command(BaseCommand):
    help = (
        "Create the user if needed and issue a new API token for it (the key is the last line; "
        "it is stored only as a hash, so this is the one time it is shown)."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--staff",
            action="store_true",
            help="Make it a service user: staff, and allowed to act for any user "
            "(the memory.act_for_any_user permission).",
        )
        parser.add_argument("--name", default="", help="A label for the token (listed).")
        parser.add_argument(
            "--expires-in-days", type=int, default=None, help="Lifetime (default: no expiry)."
        )
        parser.add_argument(
            "--rotate",
            action="store_true",
            help="Revoke the user's other tokens once the new one is issued.",
        )

    def handle(self, *args, username, staff, name, expires_in_days, rotate, **options):
        if not username.strip() or len(username) > MAX_USER_NAME_LENGTH:
            raise CommandError("Give a user name of 1 to 150 characters.")
        username = normalized_user_name(username)
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
        try:
            with transaction.atomic():  # --rotate: the old keys stop only if a new one exists
                revoked = tokens_revoke_all(user=user) if rotate else 0
                issued = token_issue(user=user, name=name[:100], expires_in_days=expires_in_days)
        except InvalidArgument as exc:
            raise CommandError(exc.message) from None
        verb = "Created" if created else "Found"
        role = " (staff, acts for any user)" if staff else (" (staff)" if user.is_staff else "")
        self.stderr.write(
            f"{verb} user {username!r}{role}; issued token {issued.token.prefix}…"
            + (f" (revoked {revoked} older)" if rotate else "")
            + "."
        )
        self.stdout.write(issued.key)
