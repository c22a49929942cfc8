from django.core.management.base import BaseCommand
from django.db import OperationalError
from psycopg.errors import LockNotAvailable

from memory.clustering import LOCK_TIMEOUT_SECONDS, cluster_partition, partitions


class Command(BaseCommand):
    help = (
        "Put each user's chat messages on consecutive pages again: CLUSTER the message table "
        "by (user, ts desc, message_id), one partition at a time, then ANALYZE it. Each "
        "partition is LOCKED (ACCESS EXCLUSIVE: its users' reads and writes wait) while it "
        "is rewritten, about 40 s a partition at 10M messages, and needs free disk of its "
        f"size; a partition whose lock is not had within {LOCK_TIMEOUT_SECONDS} s is skipped. "
        "Run it in a quiet hour. --check only prints how ordered by user each partition is "
        "(pg_stats correlation of user_id: 1 clustered, near 0 in arrival order)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="print each partition's order; change nothing"
        )
        parser.add_argument(
            "--below",
            type=float,
            default=None,
            help="cluster only the partitions whose correlation is below this (or unknown)",
        )

    def handle(self, *args, check: bool, below: float | None, **options):
        skipped = 0
        for partition in partitions():
            order = "unknown" if partition.correlation is None else f"{partition.correlation:.3f}"
            ordered = below is not None and (partition.correlation or 0.0) >= below
            if check or ordered:
                self.stdout.write(f"{partition.table}: user order {order}")
                continue
            try:
                seconds = cluster_partition(partition)
            except OperationalError as exc:
                # Only the lock not had in time is a skip (nothing changed); any other failure,
                # a full disk among them, stops the command with its error.
                if not isinstance(exc.__cause__, LockNotAvailable):
                    raise
                skipped += 1
                self.stderr.write(f"{partition.table}: skipped ({exc})")
                continue
            self.stdout.write(f"{partition.table}: user order {order}, clustered in {seconds:.0f}s")
        if skipped:
            self.stderr.write(f"{skipped} partition(s) skipped: run the command again")
