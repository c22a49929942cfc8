from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_user_events_kind import AgentUserEventsKind
from ...models.error import Error
from ...models.event_list import EventList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    kind: AgentUserEventsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    unread: bool | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    params["unread"] = unread


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/events".format(user_id=quote(str(user_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventList | None:
    if response.status_code == 200:
        response_200 = EventList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    unread: bool | Unset = UNSET,

) -> Response[Error | EventList]:
    """ List proactive events

     The proactive events the triggers wrote for a user, newest first.

    Args:
        user_id (str):
        kind (AgentUserEventsKind | Unset):
        limit (int | Unset):
        unread (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventList]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
kind=kind,
limit=limit,
unread=unread,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    unread: bool | Unset = UNSET,

) -> Error | EventList | None:
    """ List proactive events

     The proactive events the triggers wrote for a user, newest first.

    Args:
        user_id (str):
        kind (AgentUserEventsKind | Unset):
        limit (int | Unset):
        unread (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventList
     """


    return sync_detailed(
        user_id=user_id,
client=client,
kind=kind,
limit=limit,
unread=unread,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    unread: bool | Unset = UNSET,

) -> Response[Error | EventList]:
    """ List proactive events

     The proactive events the triggers wrote for a user, newest first.

    Args:
        user_id (str):
        kind (AgentUserEventsKind | Unset):
        limit (int | Unset):
        unread (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventList]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
kind=kind,
limit=limit,
unread=unread,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    unread: bool | Unset = UNSET,

) -> Error | EventList | None:
    """ List proactive events

     The proactive events the triggers wrote for a user, newest first.

    Args:
        user_id (str):
        kind (AgentUserEventsKind | Unset):
        limit (int | Unset):
        unread (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventList
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
kind=kind,
limit=limit,
unread=unread,

    )).parsed
