from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.activities_list_status import ActivitiesListStatus
from ...models.activity_list_output import ActivityListOutput
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ActivitiesListStatus | Unset = UNSET,
    type_: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["type"] = type_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/activities/",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ActivityListOutput | Error | None:
    if response.status_code == 200:
        response_200 = ActivityListOutput.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ActivityListOutput | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ActivitiesListStatus | Unset = UNSET,
    type_: str | Unset = UNSET,

) -> Response[ActivityListOutput | Error]:
    """ List activities

     Activities by start time, paged with `limit` (1-200) and `offset`; `count` is the total. Filter by
    `type` and `status`.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ActivitiesListStatus | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActivityListOutput | Error]
     """


    kwargs = _get_kwargs(
        limit=limit,
offset=offset,
status=status,
type_=type_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ActivitiesListStatus | Unset = UNSET,
    type_: str | Unset = UNSET,

) -> ActivityListOutput | Error | None:
    """ List activities

     Activities by start time, paged with `limit` (1-200) and `offset`; `count` is the total. Filter by
    `type` and `status`.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ActivitiesListStatus | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActivityListOutput | Error
     """


    return sync_detailed(
        client=client,
limit=limit,
offset=offset,
status=status,
type_=type_,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ActivitiesListStatus | Unset = UNSET,
    type_: str | Unset = UNSET,

) -> Response[ActivityListOutput | Error]:
    """ List activities

     Activities by start time, paged with `limit` (1-200) and `offset`; `count` is the total. Filter by
    `type` and `status`.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ActivitiesListStatus | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActivityListOutput | Error]
     """


    kwargs = _get_kwargs(
        limit=limit,
offset=offset,
status=status,
type_=type_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ActivitiesListStatus | Unset = UNSET,
    type_: str | Unset = UNSET,

) -> ActivityListOutput | Error | None:
    """ List activities

     Activities by start time, paged with `limit` (1-200) and `offset`; `count` is the total. Filter by
    `type` and `status`.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ActivitiesListStatus | Unset):
        type_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActivityListOutput | Error
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
offset=offset,
status=status,
type_=type_,

    )).parsed
