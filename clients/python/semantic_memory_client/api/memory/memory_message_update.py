from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.message import Message
from ...models.patched_message_update_in_request import PatchedMessageUpdateInRequest
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    message_id: str,
    *,
    body:    PatchedMessageUpdateInRequest  |     PatchedMessageUpdateInRequest  | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/users/{user_id}/messages/{message_id}".format(user_id=quote(str(user_id), safe=""),message_id=quote(str(message_id), safe=""),),
    }

    if isinstance(body, PatchedMessageUpdateInRequest):
        
        if not isinstance(body, Unset):
            _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, PatchedMessageUpdateInRequest):
        if not isinstance(body, Unset):
            _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Message | None:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Message]:
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
    body:    PatchedMessageUpdateInRequest  |     PatchedMessageUpdateInRequest  | Unset = UNSET,

) -> Response[Error | Message]:
    """ Correct a message

     Correct a message's content, role or speaker. A new content changes its full-text row at once, its
    vector is re-made by the worker (embed_state pending), and the summaries that quoted it drop the old
    sentences (or are marked stale when an LLM wrote them). A new speaker (empty clears it) needs no new
    vector: hybrid search reads who said a turn when it ranks.

    Args:
        user_id (str):
        message_id (str):
        body (PatchedMessageUpdateInRequest | Unset):
        body (PatchedMessageUpdateInRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
message_id=message_id,
body=body,

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
    body:    PatchedMessageUpdateInRequest  |     PatchedMessageUpdateInRequest  | Unset = UNSET,

) -> Error | Message | None:
    """ Correct a message

     Correct a message's content, role or speaker. A new content changes its full-text row at once, its
    vector is re-made by the worker (embed_state pending), and the summaries that quoted it drop the old
    sentences (or are marked stale when an LLM wrote them). A new speaker (empty clears it) needs no new
    vector: hybrid search reads who said a turn when it ranks.

    Args:
        user_id (str):
        message_id (str):
        body (PatchedMessageUpdateInRequest | Unset):
        body (PatchedMessageUpdateInRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
     """


    return sync_detailed(
        user_id=user_id,
message_id=message_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    body:    PatchedMessageUpdateInRequest  |     PatchedMessageUpdateInRequest  | Unset = UNSET,

) -> Response[Error | Message]:
    """ Correct a message

     Correct a message's content, role or speaker. A new content changes its full-text row at once, its
    vector is re-made by the worker (embed_state pending), and the summaries that quoted it drop the old
    sentences (or are marked stale when an LLM wrote them). A new speaker (empty clears it) needs no new
    vector: hybrid search reads who said a turn when it ranks.

    Args:
        user_id (str):
        message_id (str):
        body (PatchedMessageUpdateInRequest | Unset):
        body (PatchedMessageUpdateInRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
message_id=message_id,
body=body,

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
    body:    PatchedMessageUpdateInRequest  |     PatchedMessageUpdateInRequest  | Unset = UNSET,

) -> Error | Message | None:
    """ Correct a message

     Correct a message's content, role or speaker. A new content changes its full-text row at once, its
    vector is re-made by the worker (embed_state pending), and the summaries that quoted it drop the old
    sentences (or are marked stale when an LLM wrote them). A new speaker (empty clears it) needs no new
    vector: hybrid search reads who said a turn when it ranks.

    Args:
        user_id (str):
        message_id (str):
        body (PatchedMessageUpdateInRequest | Unset):
        body (PatchedMessageUpdateInRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
     """


    return (await asyncio_detailed(
        user_id=user_id,
message_id=message_id,
client=client,
body=body,

    )).parsed
