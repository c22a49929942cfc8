from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.activity_create_input_request import ActivityCreateInputRequest
from ...models.activity_detail_output import ActivityDetailOutput
from ...models.error import Error
from typing import cast



def _get_kwargs(
    *,
    body: ActivityCreateInputRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/activities/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ActivityDetailOutput | Error | None:
    if response.status_code == 201:
        response_201 = ActivityDetailOutput.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ActivityDetailOutput | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ActivityCreateInputRequest,

) -> Response[ActivityDetailOutput | Error]:
    """ Create an activity

     Create an activity owned by the caller. It is embedded in the background (`index_state` pending,
    then indexed) and becomes searchable then. `start_at` and `end_at` are RFC 3339 with a time zone.

    Args:
        body (ActivityCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActivityDetailOutput | Error]
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
    body: ActivityCreateInputRequest,

) -> ActivityDetailOutput | Error | None:
    """ Create an activity

     Create an activity owned by the caller. It is embedded in the background (`index_state` pending,
    then indexed) and becomes searchable then. `start_at` and `end_at` are RFC 3339 with a time zone.

    Args:
        body (ActivityCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActivityDetailOutput | Error
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ActivityCreateInputRequest,

) -> Response[ActivityDetailOutput | Error]:
    """ Create an activity

     Create an activity owned by the caller. It is embedded in the background (`index_state` pending,
    then indexed) and becomes searchable then. `start_at` and `end_at` are RFC 3339 with a time zone.

    Args:
        body (ActivityCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActivityDetailOutput | Error]
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
    body: ActivityCreateInputRequest,

) -> ActivityDetailOutput | Error | None:
    """ Create an activity

     Create an activity owned by the caller. It is embedded in the background (`index_state` pending,
    then indexed) and becomes searchable then. `start_at` and `end_at` are RFC 3339 with a time zone.

    Args:
        body (ActivityCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActivityDetailOutput | Error
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
