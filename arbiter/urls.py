from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from rooms.urls import console_patterns, hall_patterns, phone_patterns
from rooms.views import home as views

urlpatterns = [
    path("", views.home, name="home"),
    path("first-arbitrator/", views.first_arbitrator, name="first_arbitrator"),
    path("demo/", views.demo, name="demo"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("console/", include(console_patterns)),
    path("", include(phone_patterns)),
    path("", include(hall_patterns)),
    path("api/", include("api.urls")),
]
