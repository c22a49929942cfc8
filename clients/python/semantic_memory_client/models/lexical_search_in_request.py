from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.default_operator_enum import DefaultOperatorEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.memory_search_filter import MemorySearchFilter





T = TypeVar("T", bound="LexicalSearchInRequest")



@_attrs_define
class LexicalSearchInRequest:
    """ The request fields of a search that may read a time phrase in its query.

        Attributes:
            query_text (str): rag query syntax: "不吃辣" AND 火锅, OR, NOT, -x
            cursor (str | Unset):
            default_operator (DefaultOperatorEnum | Unset): * `and` - and
                * `or` - or
            filter_ (MemorySearchFilter | None | Unset):
            now (datetime.datetime | Unset): The instant relative phrases count back from (default: the current time).
            page_size (int | Unset):
            return_fields (list[str] | Unset):
            time_zone (str | Unset): IANA time zone the phrase is read in (default: the service's TIME_ZONE).
            understand (bool | Unset): Read a past time phrase in query_text (上周, 三月, 昨天, last May, yesterday) in time_zone:
                filter by its window, or rank by closeness to it when the filter would leave nothing; the response's
                `understood` says which (docs/memory.md). false: the phrase is searched as words. Default: True.
            user_id (str | Unset): Whose memory; default: the caller's (a service token names the user).
     """

    query_text: str
    cursor: str | Unset = UNSET
    default_operator: DefaultOperatorEnum | Unset = UNSET
    filter_: MemorySearchFilter | None | Unset = UNSET
    now: datetime.datetime | Unset = UNSET
    page_size: int | Unset = UNSET
    return_fields: list[str] | Unset = UNSET
    time_zone: str | Unset = UNSET
    understand: bool | Unset = True
    user_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_search_filter import MemorySearchFilter # noqa: PLC0415
        query_text = self.query_text

        cursor = self.cursor

        default_operator: str | Unset = UNSET
        if not isinstance(self.default_operator, Unset):
            default_operator = self.default_operator.value


        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, MemorySearchFilter):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        now: str | Unset = UNSET
        if not isinstance(self.now, Unset):
            now = self.now.isoformat()

        page_size = self.page_size

        return_fields: list[str] | Unset = UNSET
        if not isinstance(self.return_fields, Unset):
            return_fields = self.return_fields



        time_zone = self.time_zone

        understand = self.understand

        user_id = self.user_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "query_text": query_text,
        })
        if cursor is not UNSET:
            field_dict["cursor"] = cursor
        if default_operator is not UNSET:
            field_dict["default_operator"] = default_operator
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if now is not UNSET:
            field_dict["now"] = now
        if page_size is not UNSET:
            field_dict["page_size"] = page_size
        if return_fields is not UNSET:
            field_dict["return_fields"] = return_fields
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if understand is not UNSET:
            field_dict["understand"] = understand
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_search_filter import MemorySearchFilter # noqa: PLC0415
        d = dict(src_dict)
        query_text = d.pop("query_text")

        cursor = d.pop("cursor", UNSET)

        _default_operator = d.pop("default_operator", UNSET)
        default_operator: DefaultOperatorEnum | Unset
        if isinstance(_default_operator,  Unset):
            default_operator = UNSET
        else:
            default_operator = DefaultOperatorEnum(_default_operator)




        def _parse_filter_(data: object) -> MemorySearchFilter | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = MemorySearchFilter.from_dict(data)



                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemorySearchFilter | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))


        _now = d.pop("now", UNSET)
        now: datetime.datetime | Unset
        if isinstance(_now,  Unset):
            now = UNSET
        else:
            now = datetime.datetime.fromisoformat(_now)




        page_size = d.pop("page_size", UNSET)

        return_fields = cast(list[str], d.pop("return_fields", UNSET))


        time_zone = d.pop("time_zone", UNSET)

        understand = d.pop("understand", UNSET)

        user_id = d.pop("user_id", UNSET)

        lexical_search_in_request = cls(
            query_text=query_text,
            cursor=cursor,
            default_operator=default_operator,
            filter_=filter_,
            now=now,
            page_size=page_size,
            return_fields=return_fields,
            time_zone=time_zone,
            understand=understand,
            user_id=user_id,
        )

        return lexical_search_in_request

