from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.chat_context_out import ChatContextOut
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    chat_id: str,
    *,
    budget: int | Unset = 4000,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["budget"] = budget


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/chats/{chat_id}/context".format(user_id=quote(str(user_id), safe=""),chat_id=quote(str(chat_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChatContextOut | Error | None:
    if response.status_code == 200:
        response_200 = ChatContextOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChatContextOut | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    chat_id: str,
    *,
    client: AuthenticatedClient,
    budget: int | Unset = 4000,

) -> Response[ChatContextOut | Error]:
    """ Build a chat's context for a prompt

     The chat's latest summary and the messages after it, newest kept first, within `budget` characters
    (`truncated` when some did not fit).

    Args:
        user_id (str):
        chat_id (str):
        budget (int | Unset):  Default: 4000.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatContextOut | Error]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
chat_id=chat_id,
budget=budget,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    chat_id: str,
    *,
    client: AuthenticatedClient,
    budget: int | Unset = 4000,

) -> ChatContextOut | Error | None:
    """ Build a chat's context for a prompt

     The chat's latest summary and the messages after it, newest kept first, within `budget` characters
    (`truncated` when some did not fit).

    Args:
        user_id (str):
        chat_id (str):
        budget (int | Unset):  Default: 4000.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatContextOut | Error
     """


    return sync_detailed(
        user_id=user_id,
chat_id=chat_id,
client=client,
budget=budget,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    chat_id: str,
    *,
    client: AuthenticatedClient,
    budget: int | Unset = 4000,

) -> Response[ChatContextOut | Error]:
    """ Build a chat's context for a prompt

     The chat's latest summary and the messages after it, newest kept first, within `budget` characters
    (`truncated` when some did not fit).

    Args:
        user_id (str):
        chat_id (str):
        budget (int | Unset):  Default: 4000.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatContextOut | Error]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
chat_id=chat_id,
budget=budget,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    chat_id: str,
    *,
    client: AuthenticatedClient,
    budget: int | Unset = 4000,

) -> ChatContextOut | Error | None:
    """ Build a chat's context for a prompt

     The chat's latest summary and the messages after it, newest kept first, within `budget` characters
    (`truncated` when some did not fit).

    Args:
        user_id (str):
        chat_id (str):
        budget (int | Unset):  Default: 4000.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatContextOut | Error
     """


    return (await asyncio_detailed(
        user_id=user_id,
chat_id=chat_id,
client=client,
budget=budget,

    )).parsed
