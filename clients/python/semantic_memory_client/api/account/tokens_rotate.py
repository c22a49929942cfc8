from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.token_issued import TokenIssued
from typing import cast



def _get_kwargs(
    token_id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tokens/{token_id}/rotate".format(token_id=quote(str(token_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TokenIssued | None:
    if response.status_code == 201:
        response_201 = TokenIssued.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | TokenIssued]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[Error | TokenIssued]:
    """ Rotate an API token

     Issue a token with the same name and lifetime and revoke this one, in one step. The answer holds the
    new key, the only time it is shown.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenIssued]
     """


    kwargs = _get_kwargs(
        token_id=token_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    token_id: int,
    *,
    client: AuthenticatedClient,

) -> Error | TokenIssued | None:
    """ Rotate an API token

     Issue a token with the same name and lifetime and revoke this one, in one step. The answer holds the
    new key, the only time it is shown.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TokenIssued
     """


    return sync_detailed(
        token_id=token_id,
client=client,

    ).parsed

async def asyncio_detailed(
    token_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[Error | TokenIssued]:
    """ Rotate an API token

     Issue a token with the same name and lifetime and revoke this one, in one step. The answer holds the
    new key, the only time it is shown.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenIssued]
     """


    kwargs = _get_kwargs(
        token_id=token_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    token_id: int,
    *,
    client: AuthenticatedClient,

) -> Error | TokenIssued | None:
    """ Rotate an API token

     Issue a token with the same name and lifetime and revoke this one, in one step. The answer holds the
    new key, the only time it is shown.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TokenIssued
     """


    return (await asyncio_detailed(
        token_id=token_id,
client=client,

    )).parsed
