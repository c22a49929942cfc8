from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.search_location_request import SearchLocationRequest
  from ..models.search_time_range_request import SearchTimeRangeRequest





T = TypeVar("T", bound="SearchFiltersRequest")



@_attrs_define
class SearchFiltersRequest:
    """ 
        Attributes:
            location (None | SearchLocationRequest | Unset):
            time_range (None | SearchTimeRangeRequest | Unset):
            type_ (None | str | Unset):
     """

    location: None | SearchLocationRequest | Unset = UNSET
    time_range: None | SearchTimeRangeRequest | Unset = UNSET
    type_: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_location_request import SearchLocationRequest # noqa: PLC0415
        from ..models.search_time_range_request import SearchTimeRangeRequest # noqa: PLC0415
        location: dict[str, Any] | None | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        elif isinstance(self.location, SearchLocationRequest):
            location = self.location.to_dict()
        else:
            location = self.location

        time_range: dict[str, Any] | None | Unset
        if isinstance(self.time_range, Unset):
            time_range = UNSET
        elif isinstance(self.time_range, SearchTimeRangeRequest):
            time_range = self.time_range.to_dict()
        else:
            time_range = self.time_range

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if location is not UNSET:
            field_dict["location"] = location
        if time_range is not UNSET:
            field_dict["timeRange"] = time_range
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_location_request import SearchLocationRequest # noqa: PLC0415
        from ..models.search_time_range_request import SearchTimeRangeRequest # noqa: PLC0415
        d = dict(src_dict)
        def _parse_location(data: object) -> None | SearchLocationRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                location_type_0 = SearchLocationRequest.from_dict(data)



                return location_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchLocationRequest | Unset, data)

        location = _parse_location(d.pop("location", UNSET))


        def _parse_time_range(data: object) -> None | SearchTimeRangeRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                time_range_type_0 = SearchTimeRangeRequest.from_dict(data)



                return time_range_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchTimeRangeRequest | Unset, data)

        time_range = _parse_time_range(d.pop("timeRange", UNSET))


        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))


        search_filters_request = cls(
            location=location,
            time_range=time_range,
            type_=type_,
        )

        return search_filters_request

