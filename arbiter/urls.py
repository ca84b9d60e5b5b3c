from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views import defaults

from api import errors as api_errors
from plumbing import errors
from rooms.forms import LoginForm
from rooms.urls import console_patterns, hall_patterns, phone_patterns
from rooms.views import home as views

urlpatterns = [
    path("", views.home, name="home"),
    path("first-arbitrator/", views.first_arbitrator, name="first_arbitrator"),
    path("demo/", views.demo, name="demo"),
    path("admin/", admin.site.urls),
    # The form says when the login limit stops a password (plumbing/logins.py).
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("console/", include(console_patterns)),
    path("", include(phone_patterns)),
    path("", include(hall_patterns)),
    path("api/", include("api.urls")),
    path("", include("multiplex.urls")),
]


# Django's error pages, except under /api/: the API's clients read its one JSON error
# format there, whatever failed (no URL matched, a body too large, a server error). A
# server error's page is the site's own: it gives the reference logged with the cause.
def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if api_errors.is_api(request):
        return api_errors.bad_request(request, exception)
    return defaults.bad_request(request, exception)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if api_errors.is_api(request):
        return api_errors.not_found(request, exception)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if api_errors.is_api(request):
        return api_errors.server_error(request)
    return errors.server_error_page(request)
