"""API views of the activities app: one APIView per operation."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from activities import selectors, services
from activities.search import activities_search
from activities.search_meta import in_query_language
from activities.serializers import (
    ActivityCreateInputSerializer,
    ActivityDetailOutputSerializer,
    ActivityListOutputSerializer,
    ActivityListQuerySerializer,
    ActivityOutputSerializer,
    ActivityUpdateInputSerializer,
    FeedbackInputSerializer,
    ParticipationOutputSerializer,
    SearchInputSerializer,
    SearchOutputSerializer,
    flatten_location,
    search_output,
)
from config import fields
from config.media import json_parsers
from config.replicas import search_reads
from config.serializers import ErrorSerializer

ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class ActivityListCreateView(APIView):
    parser_classes = json_parsers()  # location is an object, tags a list

    @extend_schema(
        operation_id="activities_list",
        parameters=[ActivityListQuerySerializer],
        responses={200: ActivityListOutputSerializer, **ERRORS},
    )
    def get(self, request):
        params = fields.validated(ActivityListQuerySerializer, request.query_params)
        qs = selectors.activity_list(
            user=request.user, type=params.get("type"), status=params.get("status")
        )
        page = qs[params["offset"] : params["offset"] + params["limit"]]
        body = {"count": qs.count(), "results": ActivityOutputSerializer(page, many=True).data}
        return Response(body)

    @extend_schema(
        operation_id="activities_create",
        request=ActivityCreateInputSerializer,
        responses={201: ActivityDetailOutputSerializer, **ERRORS},
    )
    def post(self, request):
        data = fields.validated(ActivityCreateInputSerializer, request.data)
        activity = services.activity_create(creator=request.user, **flatten_location(data))
        activity.refresh_from_db()
        return Response(ActivityDetailOutputSerializer(activity).data, status=201)


class ActivityDetailView(APIView):
    parser_classes = json_parsers()  # location is an object, tags a list

    @extend_schema(
        operation_id="activities_retrieve",
        responses={200: ActivityDetailOutputSerializer, **ERRORS},
    )
    def get(self, request, activity_id: int):
        activity = selectors.activity_get_visible(user=request.user, activity_id=activity_id)
        return Response(ActivityDetailOutputSerializer(activity).data)

    @extend_schema(
        operation_id="activities_partial_update",
        request=ActivityUpdateInputSerializer,
        responses={200: ActivityDetailOutputSerializer, **ERRORS},
    )
    def patch(self, request, activity_id: int):
        activity = selectors.activity_get_visible(user=request.user, activity_id=activity_id)
        data = fields.validated(ActivityUpdateInputSerializer, request.data, partial=True)
        activity = services.activity_update(
            activity=activity, user=request.user, **flatten_location(data)
        )
        activity.refresh_from_db()
        return Response(ActivityDetailOutputSerializer(activity).data)

    @extend_schema(
        operation_id="activities_destroy",
        responses={204: None, **ERRORS},
    )
    def delete(self, request, activity_id: int):
        activity = selectors.activity_get_visible(user=request.user, activity_id=activity_id)
        services.activity_delete(activity=activity, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ActivityJoinView(APIView):
    @extend_schema(
        operation_id="activities_join",
        request=None,
        responses={201: ParticipationOutputSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, activity_id: int):
        fields.refuse_body(request)
        participation = services.activity_join(activity_id=activity_id, user=request.user)
        participation.activity.refresh_from_db(fields=["current_participants"])
        return Response(ParticipationOutputSerializer(participation).data, status=201)

    @extend_schema(
        operation_id="activities_leave",
        summary="Leave a joined activity before it starts",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request, activity_id: int):
        services.participation_cancel(activity_id=activity_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ActivityFeedbackView(APIView):
    @extend_schema(
        operation_id="activities_feedback",
        request=FeedbackInputSerializer,
        responses={200: ParticipationOutputSerializer, **ERRORS},
    )
    def post(self, request, activity_id: int):
        rating = fields.validated(FeedbackInputSerializer, request.data)["rating"]
        participation = services.participation_feedback(
            activity_id=activity_id, user=request.user, rating=rating
        )
        return Response(ParticipationOutputSerializer(participation).data)


class SearchView(APIView):
    parser_classes = json_parsers()  # filters is an object

    @extend_schema(
        operation_id="rag_search",
        request=SearchInputSerializer,
        responses={200: SearchOutputSerializer, **ERRORS},
        description="Natural-language activity search with hard filters, personalisation and "
        "a reason for each result. Never fails because the embedding provider does: "
        "meta.degraded is then true.",
    )
    def post(self, request):
        data = fields.validated(SearchInputSerializer, request.data)
        with search_reads(request.user):  # a replica, when configured and caught up
            result = activities_search(
                user=request.user,
                semantic_query=data.get("semanticQuery"),
                filters=data.get("filters") or {},
                limit=data.get("limit"),
                time_zone=data.get("timeZone") or None,
            )
        result = {**result, "meta": in_query_language(result["meta"])}
        return Response(search_output(result))
