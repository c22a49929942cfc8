from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.token import Token
from typing import cast



def _get_kwargs(
    token_id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/tokens/{token_id}".format(token_id=quote(str(token_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Token | None:
    if response.status_code == 200:
        response_200 = Token.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Token]:
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

) -> Response[Error | Token]:
    """ Revoke an API token

     Revoke one of the caller's tokens: it stops authenticating at once and stays listed with revoked_at.
    Revoking a revoked token changes nothing.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Token]
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

) -> Error | Token | None:
    """ Revoke an API token

     Revoke one of the caller's tokens: it stops authenticating at once and stays listed with revoked_at.
    Revoking a revoked token changes nothing.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Token
     """


    return sync_detailed(
        token_id=token_id,
client=client,

    ).parsed

async def asyncio_detailed(
    token_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[Error | Token]:
    """ Revoke an API token

     Revoke one of the caller's tokens: it stops authenticating at once and stays listed with revoked_at.
    Revoking a revoked token changes nothing.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Token]
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

) -> Error | Token | None:
    """ Revoke an API token

     Revoke one of the caller's tokens: it stops authenticating at once and stays listed with revoked_at.
    Revoking a revoked token changes nothing.

    Args:
        token_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Token
     """


    return (await asyncio_detailed(
        token_id=token_id,
client=client,

    )).parsed
