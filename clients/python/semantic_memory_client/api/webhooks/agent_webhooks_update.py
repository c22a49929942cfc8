from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.patched_webhook_update_request import PatchedWebhookUpdateRequest
from ...models.webhook import Webhook
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    webhook_id: int,
    *,
    body: PatchedWebhookUpdateRequest | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/users/{user_id}/webhooks/{webhook_id}".format(user_id=quote(str(user_id), safe=""),webhook_id=quote(str(webhook_id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Webhook | None:
    if response.status_code == 200:
        response_200 = Webhook.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Webhook]:
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
    body: PatchedWebhookUpdateRequest | Unset = UNSET,

) -> Response[Error | Webhook]:
    """ Turn a webhook on or off

     A webhook whose deliveries failed WEBHOOK_DISABLE_AFTER_FAILURES times in a row is disabled (active
    false, disabled_at and disabled_reason set) and receives nothing; {"active": true} turns it back on
    and clears that, {"active": false} pauses it.

    Args:
        user_id (str):
        webhook_id (int):
        body (PatchedWebhookUpdateRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Webhook]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
webhook_id=webhook_id,
body=body,

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
    body: PatchedWebhookUpdateRequest | Unset = UNSET,

) -> Error | Webhook | None:
    """ Turn a webhook on or off

     A webhook whose deliveries failed WEBHOOK_DISABLE_AFTER_FAILURES times in a row is disabled (active
    false, disabled_at and disabled_reason set) and receives nothing; {"active": true} turns it back on
    and clears that, {"active": false} pauses it.

    Args:
        user_id (str):
        webhook_id (int):
        body (PatchedWebhookUpdateRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Webhook
     """


    return sync_detailed(
        user_id=user_id,
webhook_id=webhook_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    webhook_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedWebhookUpdateRequest | Unset = UNSET,

) -> Response[Error | Webhook]:
    """ Turn a webhook on or off

     A webhook whose deliveries failed WEBHOOK_DISABLE_AFTER_FAILURES times in a row is disabled (active
    false, disabled_at and disabled_reason set) and receives nothing; {"active": true} turns it back on
    and clears that, {"active": false} pauses it.

    Args:
        user_id (str):
        webhook_id (int):
        body (PatchedWebhookUpdateRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Webhook]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
webhook_id=webhook_id,
body=body,

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
    body: PatchedWebhookUpdateRequest | Unset = UNSET,

) -> Error | Webhook | None:
    """ Turn a webhook on or off

     A webhook whose deliveries failed WEBHOOK_DISABLE_AFTER_FAILURES times in a row is disabled (active
    false, disabled_at and disabled_reason set) and receives nothing; {"active": true} turns it back on
    and clears that, {"active": false} pauses it.

    Args:
        user_id (str):
        webhook_id (int):
        body (PatchedWebhookUpdateRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Webhook
     """


    return (await asyncio_detailed(
        user_id=user_id,
webhook_id=webhook_id,
client=client,
body=body,

    )).parsed
