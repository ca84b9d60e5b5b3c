from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from solver.boards import LAYOUT_NAMES, layout


def home(request: HttpRequest) -> HttpResponse:
    boards = [layout(name) for name in LAYOUT_NAMES]
    return render(request, "home.html", {"boards": boards})
