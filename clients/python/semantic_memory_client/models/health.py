from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.health_status_enum import HealthStatusEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.health_embedding import HealthEmbedding
  from ..models.health_llm import HealthLlm
  from ..models.health_worker_queues import HealthWorkerQueues





T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ 
        Attributes:
            database (str):
            embedding (HealthEmbedding):
            llm (HealthLlm):
            ready (bool): This server process has loaded the Chinese dictionary and the embedding model and, under
                `manage.py serve`, every web process has finished its warm-up (each warms up before it takes traffic), so a
                search answers at full speed.
            status (HealthStatusEnum): * `ok` - ok
                * `degraded` - degraded
            worker_heartbeat_age_seconds (float | None): Seconds since any worker cluster was last seen.
            worker_queues (HealthWorkerQueues): Seconds since each queue's cluster (interactive, bulk, webhooks) was last
                seen; null: never. A queue not seen for 5 minutes makes the status degraded.
     """

    database: str
    embedding: HealthEmbedding
    llm: HealthLlm
    ready: bool
    status: HealthStatusEnum
    worker_heartbeat_age_seconds: float | None
    worker_queues: HealthWorkerQueues
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.health_embedding import HealthEmbedding # noqa: PLC0415
        from ..models.health_llm import HealthLlm # noqa: PLC0415
        from ..models.health_worker_queues import HealthWorkerQueues # noqa: PLC0415
        database = self.database

        embedding = self.embedding.to_dict()

        llm = self.llm.to_dict()

        ready = self.ready

        status = self.status.value

        worker_heartbeat_age_seconds: float | None
        worker_heartbeat_age_seconds = self.worker_heartbeat_age_seconds

        worker_queues = self.worker_queues.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "database": database,
            "embedding": embedding,
            "llm": llm,
            "ready": ready,
            "status": status,
            "worker_heartbeat_age_seconds": worker_heartbeat_age_seconds,
            "worker_queues": worker_queues,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.health_embedding import HealthEmbedding # noqa: PLC0415
        from ..models.health_llm import HealthLlm # noqa: PLC0415
        from ..models.health_worker_queues import HealthWorkerQueues # noqa: PLC0415
        d = dict(src_dict)
        database = d.pop("database")

        embedding = HealthEmbedding.from_dict(d.pop("embedding"))




        llm = HealthLlm.from_dict(d.pop("llm"))




        ready = d.pop("ready")

        status = HealthStatusEnum(d.pop("status"))




        def _parse_worker_heartbeat_age_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        worker_heartbeat_age_seconds = _parse_worker_heartbeat_age_seconds(d.pop("worker_heartbeat_age_seconds"))


        worker_queues = HealthWorkerQueues.from_dict(d.pop("worker_queues"))




        health = cls(
            database=database,
            embedding=embedding,
            llm=llm,
            ready=ready,
            status=status,
            worker_heartbeat_age_seconds=worker_heartbeat_age_seconds,
            worker_queues=worker_queues,
        )


        health.additional_properties = d
        return health

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
