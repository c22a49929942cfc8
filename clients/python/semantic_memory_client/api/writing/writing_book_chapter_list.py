from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.chapter_list_out import ChapterListOut
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    book_id: int,
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/books/{book_id}/chapters/".format(book_id=quote(str(book_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChapterListOut | Error | None:
    if response.status_code == 200:
        response_200 = ChapterListOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChapterListOut | Error]:
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[ChapterListOut | Error]:
    """ List the chapters of one of your books

     Chapter summaries in reading order (`sequence`), without their text: `GET /api/chapters/{id}/`
    returns a chapter's blocks. Another user's book is NOT_FOUND. Paged like every list: `?limit=`
    (1-200, default 50) and `?offset=`; `count` is the total.

    Args:
        book_id (int):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChapterListOut | Error]
     """


    kwargs = _get_kwargs(
        book_id=book_id,
limit=limit,
offset=offset,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    book_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> ChapterListOut | Error | None:
    """ List the chapters of one of your books

     Chapter summaries in reading order (`sequence`), without their text: `GET /api/chapters/{id}/`
    returns a chapter's blocks. Another user's book is NOT_FOUND. Paged like every list: `?limit=`
    (1-200, default 50) and `?offset=`; `count` is the total.

    Args:
        book_id (int):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChapterListOut | Error
     """


    return sync_detailed(
        book_id=book_id,
client=client,
limit=limit,
offset=offset,

    ).parsed

async def asyncio_detailed(
    book_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[ChapterListOut | Error]:
    """ List the chapters of one of your books

     Chapter summaries in reading order (`sequence`), without their text: `GET /api/chapters/{id}/`
    returns a chapter's blocks. Another user's book is NOT_FOUND. Paged like every list: `?limit=`
    (1-200, default 50) and `?offset=`; `count` is the total.

    Args:
        book_id (int):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChapterListOut | Error]
     """


    kwargs = _get_kwargs(
        book_id=book_id,
limit=limit,
offset=offset,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    book_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> ChapterListOut | Error | None:
    """ List the chapters of one of your books

     Chapter summaries in reading order (`sequence`), without their text: `GET /api/chapters/{id}/`
    returns a chapter's blocks. Another user's book is NOT_FOUND. Paged like every list: `?limit=`
    (1-200, default 50) and `?offset=`; `count` is the total.

    Args:
        book_id (int):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChapterListOut | Error
     """


    return (await asyncio_detailed(
        book_id=book_id,
client=client,
limit=limit,
offset=offset,

    )).parsed
