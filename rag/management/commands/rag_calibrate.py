"""Fit the relevance cut of a surface on a labelled file, for the configured provider.

    manage.py rag_calibrate --file activities/fixtures/relevance_labels.jsonl --surface activities

The file is JSON Lines. Query lines: ``{"query": "...", "relevant": {"<key>": grade, ...}}`` (or
a list of keys; grades >= 2 count; an empty ``relevant`` marks an off-topic query). Optional
document lines ``{"document": {"key": "...", "text": "..."}}`` make the file its own corpus;
without them the corpus is the surface's rows in the database (activities: the demo data, keyed
by title). Prints the fit, then stores it in the live settings unless ``--dry-run``.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rag import calibration, relevance
from rag.background import model_key
from rag.embeddings import embed_texts


def read_labelled(path: Path) -> tuple[list[dict], list[dict]]:
    """Return (query rows, document rows) of a labelled JSONL file; CommandError when malformed."""
    queries, documents = [], []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        if isinstance(row, dict) and isinstance(row.get("document"), dict):
            doc = row["document"]
            if not isinstance(doc.get("key"), str) or not isinstance(doc.get("text"), str):
                raise CommandError(f"{path}:{number}: a document needs a key and a text")
            documents.append(doc)
        elif isinstance(row, dict) and isinstance(row.get("query"), str) and row["query"].strip():
            if not isinstance(row.get("relevant", []), list | dict):
                raise CommandError(f"{path}:{number}: relevant must be a list or an object")
            queries.append(row)
        else:
            raise CommandError(f"{path}:{number}: expected a query or a document line")
    if not queries:
        raise CommandError(f"{path}: no labelled queries")
    return queries, documents


class Command(BaseCommand):
    help = (
        "Fit the relevance cut (gate, ratio, bare gate) on a labelled file and store it in "
        "live settings."
    )

    def add_arguments(self, parser):
        parser.add_argument("--file", required=True, help="Labelled JSONL file.")
        parser.add_argument("--surface", default="activities", choices=["activities", "memory"])
        parser.add_argument("--k", type=int, default=10, help="Hits per query the cut sees.")
        parser.add_argument(
            "--max-lost",
            type=float,
            default=0.02,
            help="Largest share of relevant top-k hits the cut may drop (default 0.02).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Print the fit, store nothing.")

    def handle(self, *args, **options):
        path = Path(options["file"])
        surface = options["surface"]
        queries, documents = read_labelled(path)
        evidence = None  # the surface's lexical-evidence rule reads its own rows only
        if documents:
            vectors = embed_texts([d["text"] for d in documents], role="passage")
            corpus = [(d["key"], v) for d, v in zip(documents, vectors, strict=True)]
        else:
            loader = calibration.corpus_loader(surface)
            if loader is None:
                raise CommandError(f"no corpus registered for {surface}; add document lines")
            corpus = loader()
            evidence = calibration.evidence_rule(surface)
        if not corpus:
            raise CommandError(
                f"the {surface} corpus is empty: load it first (activities: manage.py "
                "activities_load_demo) or add document lines to the file"
            )
        keys = {key for key, _ in corpus}
        missing = sorted(
            {k for q in queries for k in calibration.relevant_keys(q.get("relevant"))} - keys
        )
        if missing:
            self.stderr.write(f"{len(missing)} labelled keys are not in the corpus: {missing[:5]}")
        items = calibration.score_labelled(queries, corpus, evidence)
        result = calibration.fit(items, k=options["k"], max_lost=options["max_lost"])
        key = model_key()
        self.stdout.write(f"model {key}, surface {surface}: {len(corpus)} documents")
        self.stdout.write(
            f"{result.queries} queries ({result.off_topic_queries} off-topic), top {result.k}\n"
            f"fitted gate {result.gate} ratio {result.ratio} bare gate {result.bare_gate}\n"
            f"off-topic answered empty: {result.off_topic_empty:.1%}\n"
            f"relevant hits lost: {result.relevant_lost:.1%} (limit {options['max_lost']:.0%})\n"
            f"precision {result.precision_before:.3f} -> {result.precision:.3f}, "
            f"recall {result.recall:.3f}"
        )
        for note in result.notes:
            self.stdout.write(f"note: {note}")
        if options["dry_run"]:
            self.stdout.write("dry run: nothing stored")
            return
        fit = {
            "file": path.name,
            "queries": result.queries,
            "offTopicEmpty": round(result.off_topic_empty, 4),
            "relevantLost": round(result.relevant_lost, 4),
            "precision": round(result.precision, 4),
            "recall": round(result.recall, 4),
            "k": result.k,
        }
        entry = relevance.store_cut(
            surface, gate=result.gate, ratio=result.ratio, bare_gate=result.bare_gate, fit=fit
        )
        self.stdout.write(self.style.SUCCESS(f"stored {key} {surface}: {json.dumps(entry)}"))
