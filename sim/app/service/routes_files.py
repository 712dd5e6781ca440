"""``/api/v1``: what a study wrote: its report (HTML, summary.json), its Parquet tables, its
manifest and its log; and the comparison of two studies (``kalarite compare``).

Every path is built from a generated id and fixed names; nothing from a request reaches the
filesystem. What the children wrote names the server's paths (a report its dataset, a
manifest its content directory, a log its output): every answer goes through
``ServiceConfig.public``, which names studies by id instead."""

import asyncio
import json
import os
import tempfile

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response

from sim.app.service import suggestion_files
from sim.app.service.config import TABLES, study_tables
from sim.app.service.logs import error_line
from sim.app.service.routes_api import get_row
from sim.app.service.security import check_token
from sim.app.service.summary import is_suggestion
from sim.app.service.views import API

router = APIRouter(prefix=API, dependencies=[Depends(check_token)])
COMPARE_TIMEOUT_S = 600.0


def _public_file(request: Request, path, media_type: str) -> Response:
    """A file the service's children wrote, without the server's paths."""
    return Response(request.app.state.config.public(path.read_bytes()), media_type=media_type)


def _finished(request: Request, sid: str):
    row = get_row(request, sid)
    if row.state != "finished":
        raise HTTPException(409, f"study {sid} is {row.state}; its report is there once finished")
    return row


@router.get(
    "/studies/{sid}/summary",
    summary="The report's summary.json (a suggestion's suggest.json), once finished",
)
def summary(request: Request, sid: str):
    row = _finished(request, sid)
    name = suggestion_files.SUMMARY if is_suggestion(row.spec) else "summary.json"
    path = request.app.state.config.report_dir(sid) / name
    return _public_file(request, path, "application/json")


@router.get("/studies/{sid}/report", summary="The report (self-contained HTML, once finished)")
def report(request: Request, sid: str):
    _finished(request, sid)
    path = request.app.state.config.report_dir(sid) / "index.html"
    return _public_file(request, path, "text/html")


@router.get(
    "/studies/{sid}/manifest",
    summary="The dataset's manifest (study.json); a suggestion's: its goal and the manifest "
    "of each of its datasets",
)
def manifest(request: Request, sid: str):
    row = get_row(request, sid)
    config = request.app.state.config
    if is_suggestion(row.spec):
        answer = suggestion_files.manifest(config.report_dir(sid))
        if answer is None:
            raise HTTPException(409, f"suggestion {sid} has played no game yet")
        return JSONResponse(config.public(answer))
    path = config.dataset_dir(sid) / "study.json"
    if not path.is_file():
        raise HTTPException(409, f"study {sid} has no dataset yet")
    return _public_file(request, path, "application/json")


@router.get("/studies/{sid}/log", summary="The end of the study's output (study and report)")
def log(request: Request, sid: str):
    get_row(request, sid)
    path = request.app.state.config.study_dir(sid) / "run.log"
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 64 * 1024))
            text = f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        text = ""
    return PlainTextResponse(request.app.state.config.public(text))


def write_merged(sources, table: str, out, public=lambda value: value):
    """One Parquet file with every chunk of ``table`` (partition columns included) of every
    dataset in ``sources`` ([(directory, name)]), written batch by batch to a temporary name
    and renamed: memory stays bounded. A study's one dataset (name None): its metadata kept,
    ``public`` rewriting its values (the study spec names its content directory). A
    suggestion's (named): a ``dataset`` column names each row's, and no dataset's metadata
    speaks for them all."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from results.layout import CHUNK_KEY
    from results.store import open_table

    parts = [(open_table(d, table), name) for d, name in sources]
    labelled = any(name is not None for _, name in parts)
    first = parts[0][0].schema
    if not labelled:
        md = {k: public(v) for k, v in (first.metadata or {}).items() if k != CHUNK_KEY}
        schema = first.with_metadata(md)  # the chunk's own metadata: not the whole table's
    else:
        schema = first.remove_metadata().append(
            pa.field(suggestion_files.DATASET_COLUMN, pa.string())
        )
    fd, tmp = tempfile.mkstemp(prefix=f".{table}-", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as w:
            for data, name in parts:
                for batch in data.to_batches():
                    t = pa.Table.from_batches([batch])
                    if labelled:
                        t = t.replace_schema_metadata(None)
                        t = t.append_column(
                            suggestion_files.DATASET_COLUMN, pa.array([name] * len(t), pa.string())
                        )
                    w.write_table(t.cast(schema))
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@router.get(
    "/studies/{sid}/tables/{table}",
    summary="Download one table (games, card_events, task_claims; positions where the study "
    "samples them) as one Parquet file",
)
def table(request: Request, sid: str, table: str):
    if table not in TABLES:
        raise HTTPException(404, f"no table {table!r} (tables: {', '.join(TABLES)})")
    row = _finished(request, sid)
    if table not in study_tables(row.spec):
        raise HTTPException(
            404, f"study {sid} has no {table} table (its spec has no 'positions' key)"
        )
    out_dir = request.app.state.config.study_dir(sid) / "downloads"
    out_dir.mkdir(exist_ok=True)
    out = out_dir / f"{table}.parquet"
    if not out.is_file():
        config = request.app.state.config
        if is_suggestion(row.spec):
            found = suggestion_files.sources(config.report_dir(sid))
        else:
            found = [(config.dataset_dir(sid), None)]
        if not found:
            raise HTTPException(404, f"suggestion {sid} played no game: it has no tables")
        write_merged(found, table, out, config.public)
    return FileResponse(
        out, media_type="application/vnd.apache.parquet", filename=f"{sid}-{table}.parquet"
    )


async def _compare(request: Request, a: str, b: str) -> dict:
    """``kalarite compare A B --json-out FILE --html DIR`` in a child process (cached in
    compares/A-B: the JSON, the text and the compare page). Two studies with nothing to
    compare (a study with itself, two runs of one spec) are an answer too:
    ``nothing_to_compare`` and its reason."""
    for sid in (a, b):
        if is_suggestion(_finished(request, sid).spec):
            raise HTTPException(
                409, f"{sid} is a suggestion: its datasets are compared on its own page"
            )
    s = request.app.state
    d = s.config.compare_dir(a, b)
    result, text, page = d / "compare.json", d / "compare.txt", d / "page" / "index.html"
    async with s.compare_locks.setdefault((a, b), asyncio.Lock()):
        if not (result.is_file() and page.is_file()):
            await _run_compare(s, a, b, d)
    answer = s.config.public(json.loads(result.read_text(encoding="utf-8")))
    for side, sid in (("a", a), ("b", b)):  # the study by its id, not its dataset's path
        answer[side] = {"id": sid, **{k: v for k, v in answer[side].items() if k != "path"}}
    return {
        "result": answer,
        "text": s.config.public(text.read_text(encoding="utf-8", errors="replace")),
        "page": page,
    }


async def _run_compare(s, a, b, d):
    result, text = d / "compare.json", d / "compare.txt"
    d.mkdir(parents=True, exist_ok=True)
    text.unlink(missing_ok=True)
    result.unlink(missing_ok=True)
    argv = ["compare", str(s.config.dataset_dir(a)), str(s.config.dataset_dir(b))]
    argv += ["--json-out", str(result), "--html", str(d / "page")]
    fut = s.executor.run_task(argv, text)
    rc = await asyncio.wait_for(asyncio.wrap_future(fut), COMPARE_TIMEOUT_S)
    out = text.read_text(encoding="utf-8", errors="replace") if text.exists() else ""
    if rc != 0 or not result.is_file():
        result.unlink(missing_ok=True)
        why = error_line(out) or f"compare failed (exit status {rc})"
        raise HTTPException(409, s.config.public(why))


@router.get("/compare/{a}/{b}", summary="Compare two finished studies (kalarite compare A B)")
async def compare(request: Request, a: str, b: str):
    return (await _compare(request, a, b))["result"]


@router.get("/compare/{a}/{b}/text", summary="The comparison as kalarite compare prints it")
async def compare_text(request: Request, a: str, b: str):
    return PlainTextResponse((await _compare(request, a, b))["text"])


@router.get(
    "/compare/{a}/{b}/page",
    summary="The compare page (self-contained HTML, as kalarite compare --html writes it)",
)
async def compare_page(request: Request, a: str, b: str):
    return _public_file(request, (await _compare(request, a, b))["page"], "text/html")
