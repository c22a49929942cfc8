"""Views that exist only in tests, to drive every kind of API failure."""

from django.http import JsonResponse
from django.views.decorators.http import require_POST
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

SECRET = "secret-detail-that-must-not-leak"


class WhoAmIView(APIView):
    """GET: the authenticated user's name (default authentication and permissions)."""

    def get(self, request):
        return Response({"username": request.user.username, "staff": request.user.is_staff})


class EchoView(APIView):
    """POST only: echo the parsed JSON body."""

    permission_classes = [AllowAny]

    def post(self, request):
        return Response({"echo": request.data})


class BoomView(APIView):
    """GET: raise an unexpected exception inside a DRF view."""

    permission_classes = [AllowAny]

    def get(self, request):
        raise RuntimeError(SECRET)


class OnePerHourThrottle(AnonRateThrottle):
    scope = "testapp"
    rate = "1/hour"


class ThrottledView(APIView):
    """GET: allowed once per hour per client."""

    permission_classes = [AllowAny]
    throttle_classes = [OnePerHourThrottle]

    def get(self, request):
        return Response({"ok": True})


def plain_boom(request):
    """A plain Django view that raises an unexpected exception."""
    raise RuntimeError(SECRET)


@require_POST
def plain_post_only(request):
    """A plain Django view that allows only POST."""
    return JsonResponse({"ok": True})
