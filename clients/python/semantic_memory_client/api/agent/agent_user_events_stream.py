from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_user_events_stream_kind import AgentUserEventsStreamKind
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    kind: AgentUserEventsStreamKind | Unset = UNSET,
    last_event_id_query: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id_header, Unset):
        headers["Last-Event-ID"] = last_event_id_header



    

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["last_event_id"] = last_event_id_query

    params["wait"] = wait


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{user_id}/events/stream".format(user_id=quote(str(user_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
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

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())



        return response_406

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | str]:
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
    kind: AgentUserEventsStreamKind | Unset = UNSET,
    last_event_id_query: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,

) -> Response[Error | str]:
    """ Follow proactive events (server-sent events)

     A user's proactive events as they are written (server-sent events).

    Args:
        user_id (str):
        kind (AgentUserEventsStreamKind | Unset):
        last_event_id_query (int | Unset):
        wait (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
kind=kind,
last_event_id_query=last_event_id_query,
wait=wait,
last_event_id_header=last_event_id_header,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsStreamKind | Unset = UNSET,
    last_event_id_query: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,

) -> Error | str | None:
    """ Follow proactive events (server-sent events)

     A user's proactive events as they are written (server-sent events).

    Args:
        user_id (str):
        kind (AgentUserEventsStreamKind | Unset):
        last_event_id_query (int | Unset):
        wait (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
     """


    return sync_detailed(
        user_id=user_id,
client=client,
kind=kind,
last_event_id_query=last_event_id_query,
wait=wait,
last_event_id_header=last_event_id_header,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsStreamKind | Unset = UNSET,
    last_event_id_query: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,

) -> Response[Error | str]:
    """ Follow proactive events (server-sent events)

     A user's proactive events as they are written (server-sent events).

    Args:
        user_id (str):
        kind (AgentUserEventsStreamKind | Unset):
        last_event_id_query (int | Unset):
        wait (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
kind=kind,
last_event_id_query=last_event_id_query,
wait=wait,
last_event_id_header=last_event_id_header,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    kind: AgentUserEventsStreamKind | Unset = UNSET,
    last_event_id_query: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,

) -> Error | str | None:
    """ Follow proactive events (server-sent events)

     A user's proactive events as they are written (server-sent events).

    Args:
        user_id (str):
        kind (AgentUserEventsStreamKind | Unset):
        last_event_id_query (int | Unset):
        wait (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
kind=kind,
last_event_id_query=last_event_id_query,
wait=wait,
last_event_id_header=last_event_id_header,

    )).parsed
