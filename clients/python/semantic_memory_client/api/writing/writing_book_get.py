from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.book_detail_out import BookDetailOut
from ...models.error import Error
from typing import cast



def _get_kwargs(
    book_id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/books/{book_id}/".format(book_id=quote(str(book_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BookDetailOut | Error | None:
    if response.status_code == 200:
        response_200 = BookDetailOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BookDetailOut | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    book_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[BookDetailOut | Error]:
    """ Open one of your books

     The book with its chunk-state counts and a summary of every chapter in reading order (`sequence`):
    id, title, length in characters, block count and chunk state. Another user's book is NOT_FOUND.

    Args:
        book_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookDetailOut | Error]
     """


    kwargs = _get_kwargs(
        book_id=book_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    book_id: int,
    *,
    client: AuthenticatedClient,

) -> BookDetailOut | Error | None:
    """ Open one of your books

     The book with its chunk-state counts and a summary of every chapter in reading order (`sequence`):
    id, title, length in characters, block count and chunk state. Another user's book is NOT_FOUND.

    Args:
        book_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookDetailOut | Error
     """


    return sync_detailed(
        book_id=book_id,
client=client,

    ).parsed

async def asyncio_detailed(
    book_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[BookDetailOut | Error]:
    """ Open one of your books

     The book with its chunk-state counts and a summary of every chapter in reading order (`sequence`):
    id, title, length in characters, block count and chunk state. Another user's book is NOT_FOUND.

    Args:
        book_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookDetailOut | Error]
     """


    kwargs = _get_kwargs(
        book_id=book_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    book_id: int,
    *,
    client: AuthenticatedClient,

) -> BookDetailOut | Error | None:
    """ Open one of your books

     The book with its chunk-state counts and a summary of every chapter in reading order (`sequence`):
    id, title, length in characters, block count and chunk state. Another user's book is NOT_FOUND.

    Args:
        book_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookDetailOut | Error
     """


    return (await asyncio_detailed(
        book_id=book_id,
client=client,

    )).parsed
