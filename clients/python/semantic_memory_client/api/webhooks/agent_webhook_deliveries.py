from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delivery_list import DeliveryList
from ...models.error import Error
from typing import cast



def _get_kwargs(
    user_id: str,
    webhook_id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/webhooks/{webhook_id}/deliveries".format(user_id=quote(str(user_id), safe=""),webhook_id=quote(str(webhook_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeliveryList | Error | None:
    if response.status_code == 200:
        response_200 = DeliveryList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DeliveryList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    webhook_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[DeliveryList | Error]:
    """ List a webhook's deliveries

     The newest 100 deliveries of a webhook: pending, delivered or failed, and attempts. What the
    receiver answered or why a connection failed is not shown (it stays in the server's log).

    Args:
        user_id (str):
        webhook_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryList | Error]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
webhook_id=webhook_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    webhook_id: int,
    *,
    client: AuthenticatedClient,

) -> DeliveryList | Error | None:
    """ List a webhook's deliveries

     The newest 100 deliveries of a webhook: pending, delivered or failed, and attempts. What the
    receiver answered or why a connection failed is not shown (it stays in the server's log).

    Args:
        user_id (str):
        webhook_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryList | Error
     """


    return sync_detailed(
        user_id=user_id,
webhook_id=webhook_id,
client=client,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    webhook_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[DeliveryList | Error]:
    """ List a webhook's deliveries

     The newest 100 deliveries of a webhook: pending, delivered or failed, and attempts. What the
    receiver answered or why a connection failed is not shown (it stays in the server's log).

    Args:
        user_id (str):
        webhook_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryList | Error]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
webhook_id=webhook_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    webhook_id: int,
    *,
    client: AuthenticatedClient,

) -> DeliveryList | Error | None:
    """ List a webhook's deliveries

     The newest 100 deliveries of a webhook: pending, delivered or failed, and attempts. What the
    receiver answered or why a connection failed is not shown (it stays in the server's log).

    Args:
        user_id (str):
        webhook_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryList | Error
     """


    return (await asyncio_detailed(
        user_id=user_id,
webhook_id=webhook_id,
client=client,

    )).parsed
