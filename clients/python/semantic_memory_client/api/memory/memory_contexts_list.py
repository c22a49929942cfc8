from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.context_list import ContextList
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = 50,
    user_id: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["page_size"] = page_size

    params["user_id"] = user_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/contexts",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ContextList | Error | None:
    if response.status_code == 200:
        response_200 = ContextList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ContextList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = 50,
    user_id: str | Unset = UNSET,

) -> Response[ContextList | Error]:
    """ List shared contexts

     The shared contexts the caller owns (staff: `user_id`'s), most recently created first, each with its
    entry count and latest entry; read one whole with GET /v1/contexts/{context_id}. Page with `cursor`
    (the previous page's `next_cursor`).

    Args:
        cursor (str | Unset):
        page_size (int | Unset):  Default: 50.
        user_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ContextList | Error]
     """


    kwargs = _get_kwargs(
        cursor=cursor,
page_size=page_size,
user_id=user_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = 50,
    user_id: str | Unset = UNSET,

) -> ContextList | Error | None:
    """ List shared contexts

     The shared contexts the caller owns (staff: `user_id`'s), most recently created first, each with its
    entry count and latest entry; read one whole with GET /v1/contexts/{context_id}. Page with `cursor`
    (the previous page's `next_cursor`).

    Args:
        cursor (str | Unset):
        page_size (int | Unset):  Default: 50.
        user_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ContextList | Error
     """


    return sync_detailed(
        client=client,
cursor=cursor,
page_size=page_size,
user_id=user_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = 50,
    user_id: str | Unset = UNSET,

) -> Response[ContextList | Error]:
    """ List shared contexts

     The shared contexts the caller owns (staff: `user_id`'s), most recently created first, each with its
    entry count and latest entry; read one whole with GET /v1/contexts/{context_id}. Page with `cursor`
    (the previous page's `next_cursor`).

    Args:
        cursor (str | Unset):
        page_size (int | Unset):  Default: 50.
        user_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ContextList | Error]
     """


    kwargs = _get_kwargs(
        cursor=cursor,
page_size=page_size,
user_id=user_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = 50,
    user_id: str | Unset = UNSET,

) -> ContextList | Error | None:
    """ List shared contexts

     The shared contexts the caller owns (staff: `user_id`'s), most recently created first, each with its
    entry count and latest entry; read one whole with GET /v1/contexts/{context_id}. Page with `cursor`
    (the previous page's `next_cursor`).

    Args:
        cursor (str | Unset):
        page_size (int | Unset):  Default: 50.
        user_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ContextList | Error
     """


    return (await asyncio_detailed(
        client=client,
cursor=cursor,
page_size=page_size,
user_id=user_id,

    )).parsed
