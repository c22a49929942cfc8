from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.preference_list import PreferenceList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    history: bool | Unset = False,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["history"] = history


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/preferences".format(user_id=quote(str(user_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PreferenceList | None:
    if response.status_code == 200:
        response_200 = PreferenceList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PreferenceList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    history: bool | Unset = False,

) -> Response[Error | PreferenceList]:
    """ List preferences

     The user's preferences in force (with `history=true`, also the ones later, contradicting preferences
    replaced: `superseded_at`, `superseded_by`).

    Args:
        user_id (str):
        history (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PreferenceList]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
history=history,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    history: bool | Unset = False,

) -> Error | PreferenceList | None:
    """ List preferences

     The user's preferences in force (with `history=true`, also the ones later, contradicting preferences
    replaced: `superseded_at`, `superseded_by`).

    Args:
        user_id (str):
        history (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PreferenceList
     """


    return sync_detailed(
        user_id=user_id,
client=client,
history=history,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    history: bool | Unset = False,

) -> Response[Error | PreferenceList]:
    """ List preferences

     The user's preferences in force (with `history=true`, also the ones later, contradicting preferences
    replaced: `superseded_at`, `superseded_by`).

    Args:
        user_id (str):
        history (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PreferenceList]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
history=history,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    history: bool | Unset = False,

) -> Error | PreferenceList | None:
    """ List preferences

     The user's preferences in force (with `history=true`, also the ones later, contradicting preferences
    replaced: `superseded_at`, `superseded_by`).

    Args:
        user_id (str):
        history (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PreferenceList
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
history=history,

    )).parsed
