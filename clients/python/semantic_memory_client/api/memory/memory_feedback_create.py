from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.feedback import Feedback
from ...models.feedback_in_request import FeedbackInRequest
from typing import cast



def _get_kwargs(
    user_id: str,
    *,
    body:    FeedbackInRequest  |     FeedbackInRequest  | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/users/{user_id}/feedback".format(user_id=quote(str(user_id), safe=""),),
    }

    if isinstance(body, FeedbackInRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, FeedbackInRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Feedback | None:
    if response.status_code == 201:
        response_201 = Feedback.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Feedback]:
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
    body:    FeedbackInRequest  |     FeedbackInRequest  | Unset = UNSET,

) -> Response[Error | Feedback]:
    """ Rate an answer

     Rate one of the user's messages (typically an assistant answer): 1, 0 or -1, with an optional
    comment. The message must exist (write it first).

    Args:
        user_id (str):
        body (FeedbackInRequest):
        body (FeedbackInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Feedback]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInRequest  |     FeedbackInRequest  | Unset = UNSET,

) -> Error | Feedback | None:
    """ Rate an answer

     Rate one of the user's messages (typically an assistant answer): 1, 0 or -1, with an optional
    comment. The message must exist (write it first).

    Args:
        user_id (str):
        body (FeedbackInRequest):
        body (FeedbackInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Feedback
     """


    return sync_detailed(
        user_id=user_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInRequest  |     FeedbackInRequest  | Unset = UNSET,

) -> Response[Error | Feedback]:
    """ Rate an answer

     Rate one of the user's messages (typically an assistant answer): 1, 0 or -1, with an optional
    comment. The message must exist (write it first).

    Args:
        user_id (str):
        body (FeedbackInRequest):
        body (FeedbackInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Feedback]
     """


    kwargs = _get_kwargs(
        user_id=user_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    body:    FeedbackInRequest  |     FeedbackInRequest  | Unset = UNSET,

) -> Error | Feedback | None:
    """ Rate an answer

     Rate one of the user's messages (typically an assistant answer): 1, 0 or -1, with an optional
    comment. The message must exist (write it first).

    Args:
        user_id (str):
        body (FeedbackInRequest):
        body (FeedbackInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Feedback
     """


    return (await asyncio_detailed(
        user_id=user_id,
client=client,
body=body,

    )).parsed
