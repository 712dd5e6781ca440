"""The web page: ``/`` (submit a study, watch the list, open reports, pick two studies to
compare) and ``/static/compare.html``. Plain HTML, CSS and JavaScript from ``static/``, no
build step; the pages hold no data themselves (they call the API), so they need no token."""

import pathlib

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = pathlib.Path(__file__).parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
def index():
    return FileResponse(STATIC / "index.html", media_type="text/html")


def mount_static(app: FastAPI):
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
