from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.messages_write_in_request import MessagesWriteInRequest
from ...models.messages_write_out import MessagesWriteOut
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    body: MessagesWriteInRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/users/{user_id}/messages".format(user_id=quote(str(user_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | MessagesWriteOut | None:
    if response.status_code == 200:
        response_200 = MessagesWriteOut.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = MessagesWriteOut.from_dict(response.json())



        return response_201

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | MessagesWriteOut]:
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
    body: MessagesWriteInRequest,

) -> Response[Error | MessagesWriteOut]:
    """ Write chat messages

     Store 1 to 500 messages of one or more chats, atomically. `ts` is RFC 3339 with a time zone; `role`
    is user, assistant or system; `chat_id` is any id the client chooses (default `default`);
    `message_id` (1-100 characters of `A-Z a-z 0-9 _ . : -`, generated when absent) makes the write
    idempotent: the same id with the same content is `unchanged` (200 when nothing was created), with
    other content 409. Each message is searchable by keyword at once and by meaning once embedded
    (`embed_state`). `speaker` (optional, up to 100 characters) names who said the turn: in a
    conversation between people, hybrid search ranks first the turns of a speaker the question names.

    Args:
        user_id (str):
        body (MessagesWriteInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MessagesWriteOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: MessagesWriteInRequest,

) -> Error | MessagesWriteOut | None:
    """ Write chat messages

     Store 1 to 500 messages of one or more chats, atomically. `ts` is RFC 3339 with a time zone; `role`
    is user, assistant or system; `chat_id` is any id the client chooses (default `default`);
    `message_id` (1-100 characters of `A-Z a-z 0-9 _ . : -`, generated when absent) makes the write
    idempotent: the same id with the same content is `unchanged` (200 when nothing was created), with
    other content 409. Each message is searchable by keyword at once and by meaning once embedded
    (`embed_state`). `speaker` (optional, up to 100 characters) names who said the turn: in a
    conversation between people, hybrid search ranks first the turns of a speaker the question names.

    Args:
        user_id (str):
        body (MessagesWriteInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MessagesWriteOut
     """


    return sync_detailed(
        user_id=user_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: MessagesWriteInRequest,

) -> Response[Error | MessagesWriteOut]:
    """ Write chat messages

     Store 1 to 500 messages of one or more chats, atomically. `ts` is RFC 3339 with a time zone; `role`
    is user, assistant or system; `chat_id` is any id the client chooses (default `default`);
    `message_id` (1-100 characters of `A-Z a-z 0-9 _ . : -`, generated when absent) makes the write
    idempotent: the same id with the same content is `unchanged` (200 when nothing was created), with
    other content 409. Each message is searchable by keyword at once and by meaning once embedded
    (`embed_state`). `speaker` (optional, up to 100 characters) names who said the turn: in a
    conversation between people, hybrid search ranks first the turns of a speaker the question names.

    Args:
        user_id (str):
        body (MessagesWriteInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MessagesWriteOut]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body: MessagesWriteInRequest,

) -> Error | MessagesWriteOut | None:
    """ Write chat messages

     Store 1 to 500 messages of one or more chats, atomically. `ts` is RFC 3339 with a time zone; `role`
    is user, assistant or system; `chat_id` is any id the client chooses (default `default`);
    `message_id` (1-100 characters of `A-Z a-z 0-9 _ . : -`, generated when absent) makes the write
    idempotent: the same id with the same content is `unchanged` (200 when nothing was created), with
    other content 409. Each message is searchable by keyword at once and by meaning once embedded
    (`embed_state`). `speaker` (optional, up to 100 characters) names who said the turn: in a
    conversation between people, hybrid search ranks first the turns of a speaker the question names.

    Args:
        user_id (str):
        body (MessagesWriteInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MessagesWriteOut
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
body=body,

    )).parsed
