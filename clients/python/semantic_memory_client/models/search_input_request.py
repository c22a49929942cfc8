from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.search_filters_request import SearchFiltersRequest





T = TypeVar("T", bound="SearchInputRequest")



@_attrs_define
class SearchInputRequest:
    """ 
        Attributes:
            filters (None | SearchFiltersRequest | Unset):
            limit (int | Unset):  Default: 20.
            semantic_query (None | str | Unset):
            time_zone (None | str | Unset): The user's IANA time zone (e.g. Asia/Shanghai) in which time phrases of the
                query (今晚, 周五晚上, this weekend) are read; default: the server's TIME_ZONE.
     """

    filters: None | SearchFiltersRequest | Unset = UNSET
    limit: int | Unset = 20
    semantic_query: None | str | Unset = UNSET
    time_zone: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_filters_request import SearchFiltersRequest # noqa: PLC0415
        filters: dict[str, Any] | None | Unset
        if isinstance(self.filters, Unset):
            filters = UNSET
        elif isinstance(self.filters, SearchFiltersRequest):
            filters = self.filters.to_dict()
        else:
            filters = self.filters

        limit = self.limit

        semantic_query: None | str | Unset
        if isinstance(self.semantic_query, Unset):
            semantic_query = UNSET
        else:
            semantic_query = self.semantic_query

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = self.time_zone


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if filters is not UNSET:
            field_dict["filters"] = filters
        if limit is not UNSET:
            field_dict["limit"] = limit
        if semantic_query is not UNSET:
            field_dict["semanticQuery"] = semantic_query
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_filters_request import SearchFiltersRequest # noqa: PLC0415
        d = dict(src_dict)
        def _parse_filters(data: object) -> None | SearchFiltersRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filters_type_0 = SearchFiltersRequest.from_dict(data)



                return filters_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchFiltersRequest | Unset, data)

        filters = _parse_filters(d.pop("filters", UNSET))


        limit = d.pop("limit", UNSET)

        def _parse_semantic_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        semantic_query = _parse_semantic_query(d.pop("semanticQuery", UNSET))


        def _parse_time_zone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        time_zone = _parse_time_zone(d.pop("timeZone", UNSET))


        search_input_request = cls(
            filters=filters,
            limit=limit,
            semantic_query=semantic_query,
            time_zone=time_zone,
        )

        return search_input_request

