from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.feedback_input_request import FeedbackInputRequest
from ...models.participation_output import ParticipationOutput
from typing import cast



def _get_kwargs(
    activity_id: int,
    *,
    body:    FeedbackInputRequest  |     FeedbackInputRequest  | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/activities/{activity_id}/feedback/".format(activity_id=quote(str(activity_id), safe=""),),
    }

    if isinstance(body, FeedbackInputRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, FeedbackInputRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ParticipationOutput | None:
    if response.status_code == 200:
        response_200 = ParticipationOutput.from_dict(response.json())



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
    body:    FeedbackInputRequest  |     FeedbackInputRequest  | Unset = UNSET,

) -> Response[Error | ParticipationOutput]:
    """ Rate a joined activity

     Rate an activity you joined: 1 (liked), 0 (neutral) or -1 (disliked). Ratings steer your
    personalised search.

    Args:
        activity_id (int):
        body (FeedbackInputRequest):
        body (FeedbackInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ParticipationOutput]
     """


    kwargs = _get_kwargs(
        activity_id=activity_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    activity_id: int,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInputRequest  |     FeedbackInputRequest  | Unset = UNSET,

) -> Error | ParticipationOutput | None:
    """ Rate a joined activity

     Rate an activity you joined: 1 (liked), 0 (neutral) or -1 (disliked). Ratings steer your
    personalised search.

    Args:
        activity_id (int):
        body (FeedbackInputRequest):
        body (FeedbackInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ParticipationOutput
     """


    return sync_detailed(
        activity_id=activity_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    activity_id: int,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInputRequest  |     FeedbackInputRequest  | Unset = UNSET,

) -> Response[Error | ParticipationOutput]:
    """ Rate a joined activity

     Rate an activity you joined: 1 (liked), 0 (neutral) or -1 (disliked). Ratings steer your
    personalised search.

    Args:
        activity_id (int):
        body (FeedbackInputRequest):
        body (FeedbackInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ParticipationOutput]
     """


    kwargs = _get_kwargs(
        activity_id=activity_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    activity_id: int,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInputRequest  |     FeedbackInputRequest  | Unset = UNSET,

) -> Error | ParticipationOutput | None:
    """ Rate a joined activity

     Rate an activity you joined: 1 (liked), 0 (neutral) or -1 (disliked). Ratings steer your
    personalised search.

    Args:
        activity_id (int):
        body (FeedbackInputRequest):
        body (FeedbackInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ParticipationOutput
     """


    return (await asyncio_detailed(
        activity_id=activity_id,
client=client,
body=body,

    )).parsed
