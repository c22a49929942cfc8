"""Regenerate the typed API clients from the service's OpenAPI schema (``make sdk``).

Writes, from the schema the running code serves (``/api/schema/``):

* ``clients/openapi.json``: that schema in OpenAPI 3.1 (the generators read 3.0/3.1: a streamed
  response's ``itemSchema`` becomes ``x-itemSchema`` beside a plain string ``schema``);
* ``clients/python/semantic_memory_client/``: a Python client by ``openapi-python-client``
  (pinned in requirements.txt);
* ``clients/typescript/src/schema.d.ts``: TypeScript types by ``openapi-typescript``, used with
  ``openapi-fetch`` (both pinned in ``clients/typescript/package-lock.json``).

``--check`` writes into a temporary directory instead and exits 1, naming the files, when the
committed clients differ from what the current schema generates (``tests/platform/
test_clients.py`` runs it). Without npm packages installed (``npm ci`` in clients/typescript) the
TypeScript part is skipped with a message, unless ``--require-typescript``.
"""

from __future__ import annotations

import argparse
import copy
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ROOT / "clients"
TS_DIR = CLIENTS / "typescript"
PACKAGE = "semantic_memory_client"
SEQUENTIAL = ("text/event-stream", "application/x-ndjson", "application/jsonl")


def service_schema() -> dict:
    """Return the OpenAPI document the service serves (production settings, no database)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw, renderer_context={}))


def for_generators(schema: dict) -> dict:
    """Return ``schema`` as OpenAPI 3.1: streamed responses typed as text, items kept aside."""
    out = copy.deepcopy(schema)
    out["openapi"] = "3.1.0"
    for item in out.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                for media_type, content in response.get("content", {}).items():
                    if media_type.startswith(SEQUENTIAL) and "itemSchema" in content:
                        content["x-itemSchema"] = content.pop("itemSchema")
                        content["schema"] = {"type": "string"}
    return out


def write_schema(schema: dict, path: Path) -> None:
    path.write_text(json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def generate_python(spec: Path, out: Path) -> None:
    """Generate the Python client package into ``out`` (replaced)."""
    exe = Path(sys.executable).with_name("openapi-python-client")
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(exe),
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(out),
            "--config",
            str(CLIENTS / "python-config.yaml"),
            "--meta",
            "none",
            "--overwrite",
        ],
        check=True,
        capture_output=True,
        text=True,
    )


def typescript_ready() -> bool:
    return shutil.which("node") is not None and (TS_DIR / "node_modules" / ".bin").is_dir()


def generate_typescript(spec: Path, out: Path) -> None:
    """Generate ``schema.d.ts`` with the pinned openapi-typescript."""
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(TS_DIR / "node_modules" / ".bin" / "openapi-typescript"),
            str(spec),
            "-o",
            str(out),
            # A field with a default is optional in a request (openapi-typescript 7 would
            # make it required).
            "--default-non-nullable=false",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=TS_DIR,
    )


def _differences(a: Path, b: Path) -> list[str]:
    """Return the paths (relative to ``a``) that differ between trees ``a`` and ``b``."""
    if a.is_file() or b.is_file():
        return [] if a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False) else [a.name]
    found = []
    names = {p.relative_to(a) for p in a.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    names |= {
        p.relative_to(b) for p in b.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }
    for name in sorted(names):
        pa, pb = a / name, b / name
        if not (pa.is_file() and pb.is_file() and filecmp.cmp(pa, pb, shallow=False)):
            found.append(str(name))
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Compare, do not write.")
    parser.add_argument("--require-typescript", action="store_true")
    args = parser.parse_args(argv)

    schema = for_generators(service_schema())
    target = Path(tempfile.mkdtemp(prefix="sdk-")) if args.check else CLIENTS
    spec = target / "openapi.json"
    write_schema(schema, spec)
    generate_python(spec, target / "python" / PACKAGE)
    ts_out = target / "typescript" / "src" / "schema.d.ts"
    if typescript_ready():
        generate_typescript(spec, ts_out)
    elif args.require_typescript:
        print("node or clients/typescript/node_modules missing (run npm ci there)", file=sys.stderr)
        return 2
    else:
        print("TypeScript client skipped: node or clients/typescript/node_modules is missing.")
    if not args.check:
        print(f"wrote {spec.relative_to(ROOT)}, clients/python, clients/typescript/src/schema.d.ts")
        return 0
    differ = _differences(target / "openapi.json", CLIENTS / "openapi.json")
    differ += [
        f"python/{PACKAGE}/{p}"
        for p in _differences(target / "python" / PACKAGE, CLIENTS / "python" / PACKAGE)
    ]
    if ts_out.exists():
        committed = TS_DIR / "src" / "schema.d.ts"
        differ += [f"typescript/src/{p}" for p in _differences(ts_out, committed)]
    shutil.rmtree(target, ignore_errors=True)
    if differ:
        print("The committed clients differ from the schema; run `make sdk`:", *differ, sep="\n  ")
        return 1
    print("clients match the schema")
    return 0


if __name__ == "__main__":
    sys.exit(main())
