"""Use the generated Python client: store two chat turns, then find one by meaning and words.

    pip install ./clients/python
    BASE_URL=http://127.0.0.1:8000 TOKEN=<key> USER_ID=alice python clients/examples/example.py

Prints the hybrid search's hits (message id and content) and exits 1 when the turn about the
cat is not the first hit.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Run from a checkout without installing: the package sits in clients/python.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from semantic_memory_client import AuthenticatedClient  # noqa: E402
from semantic_memory_client.api.memory import (  # noqa: E402
    memory_hybrid_search,
    memory_messages_write,
)
from semantic_memory_client.models import (  # noqa: E402
    HybridSearchInRequest,
    MessageItemInRequest,
    MessagesWriteInRequest,
    RoleEnum,
)


def main() -> int:
    client = AuthenticatedClient(
        base_url=os.environ["BASE_URL"], token=os.environ["TOKEN"], prefix="Token"
    )
    user_id = os.environ.get("USER_ID", "alice")
    turns = [
        ("py-1", "2026-11-20T09:00:00Z", "我家的猫叫豆豆，最喜欢晒太阳。"),
        ("py-2", "2026-11-20T09:01:00Z", "明天下午要去银行办贷款。"),
    ]
    written = memory_messages_write.sync(
        user_id=user_id,
        client=client,
        body=MessagesWriteInRequest(
            items=[
                MessageItemInRequest(message_id=mid, ts=ts, role=RoleEnum.USER, content=text)
                for mid, ts, text in turns
            ]
        ),
    )
    print(f"written: {written.created} created, {written.unchanged} unchanged")
    found = memory_hybrid_search.sync(
        client=client,
        body=HybridSearchInRequest(user_id=user_id, query_text="宠物猫", top_k=2),
    )
    for item in found.items:
        print(item.message_id, item.content)
    return 0 if found.items and found.items[0].message_id == "py-1" else 1


if __name__ == "__main__":
    sys.exit(main())
