"""``/docs`` (Swagger UI) and ``/redoc`` from assets of an installed package
(``fastapi-offline`` ships the Swagger UI and ReDoc bundles), so the API's documentation works
on a machine without internet; FastAPI's own pages load them from a CDN.

Both bundles' own colours put some text below WCAG AA contrast (white method names on light
green and blue, half-transparent headings, red code on grey); ``CONTRAST`` recolours those
texts (tests/test_service_suggest_page.py measures every visible text of both pages)."""

import importlib.resources
import pathlib

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, swagger_ui_default_parameters
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/static-docs"
ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
# no online validator badge: Swagger UI would otherwise ask validator.swagger.io about the spec
SWAGGER_PARAMETERS = {**swagger_ui_default_parameters, "validatorUrl": None}
CONTRAST = {
    "swagger": ".swagger-ui .opblock .opblock-summary-method,.swagger-ui .info .title "
    "small pre{color:#000}.swagger-ui .info .base-url,.swagger-ui .info a.link span.url"
    "{color:#1c4f8c}.swagger-ui button.json-schema-2020-12-expand-deep-button{color:#444}",
    "redoc": "redoc h5{color:#4a5568 !important}redoc p code{color:#b71c1c !important}"
    "redoc li.tab-error{color:#ff8a80 !important}",
}


def _recoloured(page: HTMLResponse, which: str) -> HTMLResponse:
    """The page with ``CONTRAST[which]`` added at the end of its head."""
    body = page.body.replace(b"</head>", f"<style>{CONTRAST[which]}</style></head>".encode(), 1)
    return HTMLResponse(body)


def assets_dir() -> pathlib.Path:
    """The installed Swagger UI and ReDoc files; a clear error if the package lacks one."""
    d = pathlib.Path(str(importlib.resources.files("fastapi_offline") / "static"))
    missing = [a for a in ASSETS if not (d / a).is_file()]
    if missing:
        raise RuntimeError(f"the fastapi-offline package has no {', '.join(missing)} in {d}")
    return d


def mount_docs(app: FastAPI):
    """Serve the API docs pages; ``app`` must be made with ``docs_url=None, redoc_url=None``."""
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="static-docs")

    def url(request: Request, path: str) -> str:
        return request.scope.get("root_path", "") + path

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request):
        page = get_swagger_ui_html(
            openapi_url=url(request, app.openapi_url),
            title=f"{app.title} API",
            swagger_js_url=url(request, f"{ASSETS_URL}/swagger-ui-bundle.js"),
            swagger_css_url=url(request, f"{ASSETS_URL}/swagger-ui.css"),
            swagger_favicon_url=url(request, f"{ASSETS_URL}/favicon.png"),
            swagger_ui_parameters=SWAGGER_PARAMETERS,
        )
        return _recoloured(page, "swagger")

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request):
        page = get_redoc_html(
            openapi_url=url(request, app.openapi_url),
            title=f"{app.title} API",
            redoc_js_url=url(request, f"{ASSETS_URL}/redoc.standalone.js"),
            redoc_favicon_url=url(request, f"{ASSETS_URL}/favicon.png"),
            with_google_fonts=False,
        )
        return _recoloured(page, "redoc")
