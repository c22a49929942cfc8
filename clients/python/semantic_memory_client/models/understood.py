from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language_enum import LanguageEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.understood_place import UnderstoodPlace
  from ..models.understood_time import UnderstoodTime





T = TypeVar("T", bound="Understood")



@_attrs_define
class Understood:
    """ 
        Attributes:
            kinds (list[str]): Activity types the query names.
            language (LanguageEnum): * `zh` - zh
                * `en` - en
                * `mixed` - mixed
                * `und` - und
            moods (list[str]): Vibes (氛围) the query asks for.
            place (None | UnderstoodPlace):
            rest (str): The query without its time phrase and place cue: the text that is embedded.
            time (None | UnderstoodTime):
     """

    kinds: list[str]
    language: LanguageEnum
    moods: list[str]
    place: None | UnderstoodPlace
    rest: str
    time: None | UnderstoodTime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.understood_place import UnderstoodPlace # noqa: PLC0415
        from ..models.understood_time import UnderstoodTime # noqa: PLC0415
        kinds = self.kinds



        language = self.language.value

        moods = self.moods



        place: dict[str, Any] | None
        if isinstance(self.place, UnderstoodPlace):
            place = self.place.to_dict()
        else:
            place = self.place

        rest = self.rest

        time: dict[str, Any] | None
        if isinstance(self.time, UnderstoodTime):
            time = self.time.to_dict()
        else:
            time = self.time


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "kinds": kinds,
            "language": language,
            "moods": moods,
            "place": place,
            "rest": rest,
            "time": time,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.understood_place import UnderstoodPlace # noqa: PLC0415
        from ..models.understood_time import UnderstoodTime # noqa: PLC0415
        d = dict(src_dict)
        kinds = cast(list[str], d.pop("kinds"))


        language = LanguageEnum(d.pop("language"))




        moods = cast(list[str], d.pop("moods"))


        def _parse_place(data: object) -> None | UnderstoodPlace:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                place_type_0 = UnderstoodPlace.from_dict(data)



                return place_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UnderstoodPlace, data)

        place = _parse_place(d.pop("place"))


        rest = d.pop("rest")

        def _parse_time(data: object) -> None | UnderstoodTime:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                time_type_0 = UnderstoodTime.from_dict(data)



                return time_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UnderstoodTime, data)

        time = _parse_time(d.pop("time"))


        understood = cls(
            kinds=kinds,
            language=language,
            moods=moods,
            place=place,
            rest=rest,
            time=time,
        )


        understood.additional_properties = d
        return understood

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
