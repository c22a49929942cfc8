from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.participation_output import ParticipationOutput
from typing import cast



def _get_kwargs(
    activity_id: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/activities/{activity_id}/join/".format(activity_id=quote(str(activity_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ParticipationOutput | None:
    if response.status_code == 201:
        response_201 = ParticipationOutput.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ParticipationOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    activity_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[Error | ParticipationOutput]:
    """ Join an activity

     Join an active activity that has not started and is not full; no body (or `{}`). Joining twice
    answers 409 CONFLICT. What you join shapes your personalised search.

    Args:
        activity_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ParticipationOutput]
     """


    kwargs = _get_kwargs(
        activity_id=activity_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    activity_id: int,
    *,
    client: AuthenticatedClient,

) -> Error | ParticipationOutput | None:
    """ Join an activity

     Join an active activity that has not started and is not full; no body (or `{}`). Joining twice
    answers 409 CONFLICT. What you join shapes your personalised search.

    Args:
        activity_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ParticipationOutput
     """


    return sync_detailed(
        activity_id=activity_id,
client=client,

    ).parsed

async def asyncio_detailed(
    activity_id: int,
    *,
    client: AuthenticatedClient,

) -> Response[Error | ParticipationOutput]:
    """ Join an activity

     Join an active activity that has not started and is not full; no body (or `{}`). Joining twice
    answers 409 CONFLICT. What you join shapes your personalised search.

    Args:
        activity_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ParticipationOutput]
     """


    kwargs = _get_kwargs(
        activity_id=activity_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    activity_id: int,
    *,
    client: AuthenticatedClient,

) -> Error | ParticipationOutput | None:
    """ Join an activity

     Join an active activity that has not started and is not full; no body (or `{}`). Joining twice
    answers 409 CONFLICT. What you join shapes your personalised search.

    Args:
        activity_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ParticipationOutput
     """


    return (await asyncio_detailed(
        activity_id=activity_id,
client=client,

    )).parsed
