from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.neighbors_out import NeighborsOut
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    message_id: str,
    *,
    after: int | Unset = 0,
    before: int | Unset = 20,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["after"] = after

    params["before"] = before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/messages/{message_id}/neighbors".format(user_id=quote(str(user_id), safe=""),message_id=quote(str(message_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | NeighborsOut | None:
    if response.status_code == 200:
        response_200 = NeighborsOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | NeighborsOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    before: int | Unset = 20,

) -> Response[Error | NeighborsOut]:
    """ Read the messages around one message

     Up to `before` messages before and `after` messages after the given one, in its chat, in time order
    (the message itself included).

    Args:
        user_id (str):
        message_id (str):
        after (int | Unset):  Default: 0.
        before (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | NeighborsOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
message_id=message_id,
after=after,
before=before,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    before: int | Unset = 20,

) -> Error | NeighborsOut | None:
    """ Read the messages around one message

     Up to `before` messages before and `after` messages after the given one, in its chat, in time order
    (the message itself included).

    Args:
        user_id (str):
        message_id (str):
        after (int | Unset):  Default: 0.
        before (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | NeighborsOut
     """


    return sync_detailed(
        user_id=user_id,
message_id=message_id,
client=client,
after=after,
before=before,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    before: int | Unset = 20,

) -> Response[Error | NeighborsOut]:
    """ Read the messages around one message

     Up to `before` messages before and `after` messages after the given one, in its chat, in time order
    (the message itself included).

    Args:
        user_id (str):
        message_id (str):
        after (int | Unset):  Default: 0.
        before (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | NeighborsOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
message_id=message_id,
after=after,
before=before,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    before: int | Unset = 20,

) -> Error | NeighborsOut | None:
    """ Read the messages around one message

     Up to `before` messages before and `after` messages after the given one, in its chat, in time order
    (the message itself included).

    Args:
        user_id (str):
        message_id (str):
        after (int | Unset):  Default: 0.
        before (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | NeighborsOut
     """


    return (await asyncio_detailed(
        user_id=user_id,
message_id=message_id,
client=client,
after=after,
before=before,

    )).parsed
