from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.memory_messages_list_kind import MemoryMessagesListKind
from ...models.memory_messages_list_role import MemoryMessagesListRole
from ...models.message_list_out import MessageListOut
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    chat_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    kind: MemoryMessagesListKind | Unset = UNSET,
    page_size: int | Unset = 50,
    role: MemoryMessagesListRole | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["chat_id"] = chat_id

    params["cursor"] = cursor

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["page_size"] = page_size

    json_role: str | Unset = UNSET
    if not isinstance(role, Unset):
        json_role = role.value

    params["role"] = json_role

    params["since"] = since

    params["until"] = until


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/messages".format(user_id=quote(str(user_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | MessageListOut | None:
    if response.status_code == 200:
        response_200 = MessageListOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | MessageListOut]:
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
    chat_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    kind: MemoryMessagesListKind | Unset = UNSET,
    page_size: int | Unset = 50,
    role: MemoryMessagesListRole | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,

) -> Response[Error | MessageListOut]:
    """ List chat messages by time

     A user's messages in time order, filtered by chat, role, kind and an RFC 3339 `since`/`until`
    window, paged with `page_size` and `next_cursor`.

    Args:
        user_id (str):
        chat_id (str | Unset):
        cursor (str | Unset):
        kind (MemoryMessagesListKind | Unset):
        page_size (int | Unset):  Default: 50.
        role (MemoryMessagesListRole | Unset):
        since (str | Unset):
        until (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MessageListOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
chat_id=chat_id,
cursor=cursor,
kind=kind,
page_size=page_size,
role=role,
since=since,
until=until,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    chat_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    kind: MemoryMessagesListKind | Unset = UNSET,
    page_size: int | Unset = 50,
    role: MemoryMessagesListRole | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,

) -> Error | MessageListOut | None:
    """ List chat messages by time

     A user's messages in time order, filtered by chat, role, kind and an RFC 3339 `since`/`until`
    window, paged with `page_size` and `next_cursor`.

    Args:
        user_id (str):
        chat_id (str | Unset):
        cursor (str | Unset):
        kind (MemoryMessagesListKind | Unset):
        page_size (int | Unset):  Default: 50.
        role (MemoryMessagesListRole | Unset):
        since (str | Unset):
        until (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MessageListOut
     """


    return sync_detailed(
        user_id=user_id,
client=client,
chat_id=chat_id,
cursor=cursor,
kind=kind,
page_size=page_size,
role=role,
since=since,
until=until,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    chat_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    kind: MemoryMessagesListKind | Unset = UNSET,
    page_size: int | Unset = 50,
    role: MemoryMessagesListRole | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,

) -> Response[Error | MessageListOut]:
    """ List chat messages by time

     A user's messages in time order, filtered by chat, role, kind and an RFC 3339 `since`/`until`
    window, paged with `page_size` and `next_cursor`.

    Args:
        user_id (str):
        chat_id (str | Unset):
        cursor (str | Unset):
        kind (MemoryMessagesListKind | Unset):
        page_size (int | Unset):  Default: 50.
        role (MemoryMessagesListRole | Unset):
        since (str | Unset):
        until (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MessageListOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
chat_id=chat_id,
cursor=cursor,
kind=kind,
page_size=page_size,
role=role,
since=since,
until=until,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    chat_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    kind: MemoryMessagesListKind | Unset = UNSET,
    page_size: int | Unset = 50,
    role: MemoryMessagesListRole | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,

) -> Error | MessageListOut | None:
    """ List chat messages by time

     A user's messages in time order, filtered by chat, role, kind and an RFC 3339 `since`/`until`
    window, paged with `page_size` and `next_cursor`.

    Args:
        user_id (str):
        chat_id (str | Unset):
        cursor (str | Unset):
        kind (MemoryMessagesListKind | Unset):
        page_size (int | Unset):  Default: 50.
        role (MemoryMessagesListRole | Unset):
        since (str | Unset):
        until (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MessageListOut
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
chat_id=chat_id,
cursor=cursor,
kind=kind,
page_size=page_size,
role=role,
since=since,
until=until,

    )).parsed
