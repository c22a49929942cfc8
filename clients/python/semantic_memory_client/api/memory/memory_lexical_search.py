from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.lexical_search_in_request import LexicalSearchInRequest
from ...models.lexical_search_out import LexicalSearchOut
from typing import cast



def _get_kwargs(
    *,
    body: LexicalSearchInRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/messages/lexical_search",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | LexicalSearchOut | None:
    if response.status_code == 200:
        response_200 = LexicalSearchOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | LexicalSearchOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: LexicalSearchInRequest,

) -> Response[Error | LexicalSearchOut]:
    """ Search messages by keyword

     Full-text search with the rag query syntax (`"不吃辣" AND 火锅`, OR, NOT, -x), with highlights and
    scores, paged with `next_cursor`. `user_id` may be left out: the server binds the caller (a service
    token names the user). A past time phrase in the query (上周, yesterday) filters or ranks by its
    window (`understood` says which); `understand: false` searches it as words.

    Args:
        body (LexicalSearchInRequest): The request fields of a search that may read a time phrase
            in its query.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LexicalSearchOut]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: LexicalSearchInRequest,

) -> Error | LexicalSearchOut | None:
    """ Search messages by keyword

     Full-text search with the rag query syntax (`"不吃辣" AND 火锅`, OR, NOT, -x), with highlights and
    scores, paged with `next_cursor`. `user_id` may be left out: the server binds the caller (a service
    token names the user). A past time phrase in the query (上周, yesterday) filters or ranks by its
    window (`understood` says which); `understand: false` searches it as words.

    Args:
        body (LexicalSearchInRequest): The request fields of a search that may read a time phrase
            in its query.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LexicalSearchOut
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: LexicalSearchInRequest,

) -> Response[Error | LexicalSearchOut]:
    """ Search messages by keyword

     Full-text search with the rag query syntax (`"不吃辣" AND 火锅`, OR, NOT, -x), with highlights and
    scores, paged with `next_cursor`. `user_id` may be left out: the server binds the caller (a service
    token names the user). A past time phrase in the query (上周, yesterday) filters or ranks by its
    window (`understood` says which); `understand: false` searches it as words.

    Args:
        body (LexicalSearchInRequest): The request fields of a search that may read a time phrase
            in its query.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LexicalSearchOut]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: LexicalSearchInRequest,

) -> Error | LexicalSearchOut | None:
    """ Search messages by keyword

     Full-text search with the rag query syntax (`"不吃辣" AND 火锅`, OR, NOT, -x), with highlights and
    scores, paged with `next_cursor`. `user_id` may be left out: the server binds the caller (a service
    token names the user). A past time phrase in the query (上周, yesterday) filters or ranks by its
    window (`understood` says which); `understand: false` searches it as words.

    Args:
        body (LexicalSearchInRequest): The request fields of a search that may read a time phrase
            in its query.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LexicalSearchOut
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
