"""The web companion's pages and live channel (Starlette, served by uvicorn).

- `/` the table, live: the board from above, the players, the preview, alerts, problems and
  the four seat displays; `/events` pushes it (server-sent events) whenever the daemon
  publishes, rendered once here for every watcher.
- `/games` the finished games of the archive, each with its score chart (SVG).
- `/settings` the table settings: shown to anyone, changed by a paired browser only.
- `/sim` (only while the daemon simulates) the simulated table, played by hand.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2
import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from companion.game.published import TableState
from companion.game.view import Correction, Phase
from companion.settings import SETTINGS, label, words
from companion.show.i18n import Catalogue
from companion.show.palette import css
from companion.show.words import notice_words
from companion.web.edge import Edge, TableNames
from companion.web.games import Archive, chart_lines
from companion.web.guard import COOKIE, Guard
from companion.web.link import DaemonGone, DaemonLink
from companion.web.live import KEEPALIVE, PAGE, TV, Live, Streams
from companion.web.present import correct_context, language

log = logging.getLogger("setup.web")
HERE = Path(__file__).parent
#: what the Settings page says after a change made (`?said=`), by its catalogue key
SAID = {"paired": "pairing.paired", "saved": "settings.saved", "stopped": "settings.stopped"}
#: the Settings page's own words, by their catalogue key (`web.settings.*`)
SETTINGS_WORDS = (
    "watch", "unreachable", "pair_title", "pair_why", "ask_pin", "pair", "game", "stop_hint",
    "stop_ask", "stop", "play_on", "stop_open", "apply", "qr", "qr_alt",
)  # fmt: skip


def create_app(
    socket: str | Path,
    state_dir: str | Path,
    *,
    watch_needs_pin: bool = False,
    names: TableNames | None = None,
) -> Starlette:
    """The web companion of the daemon at `socket`, with the games of `state_dir`; it
    answers to `names` only (default: this machine's)."""
    link = DaemonLink(socket)
    guard = Guard()
    archive = Archive(state_dir)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    live = Live(link, env)
    streams = Streams()

    def session(request: Request) -> str | None:
        return guard.session(request.cookies.get(COOKIE))

    def page(request: Request, name: str, **context: Any) -> Response:
        sid = session(request)
        cookie = None
        if sid is None:
            sid, cookie = guard.new_session()
        state = link.state if link.connected else None
        context.setdefault("paired", guard.paired(sid))
        context.setdefault("drawn", live.drawn)  # the daemon's state the fragments show
        html = env.get_template(name).render(
            csrf=guard.csrf(sid),
            path=request.url.path,
            sim=state is not None and state.sim is not None,
            connected=link.connected,
            **context,
        )
        response = Response(html, media_type="text/html")
        if cookie is not None:
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict")
        return response

    def watching_refused(request: Request) -> Response | None:
        if watch_needs_pin and not guard.paired(session(request)):
            return RedirectResponse("/settings?watch=1", status_code=303)
        return None

    async def change_allowed(request: Request, token: str | None) -> bool:
        return guard.allowed(
            session(request), token, request.headers.get("origin"), request.headers["host"]
        )

    async def table(request: Request) -> Response:
        refused = watching_refused(request)
        if refused:
            return refused
        correct = None
        if guard.paired(session(request)):  # "Correct the board", with the registered tiles
            try:
                reply = await link.request("tiles")
            except DaemonGone:
                reply = {}
            tiles = reply.get("tiles") if reply.get("ok") else None
            state = link.state if link.connected else None
            correct = correct_context(state, [str(t) for t in tiles or ()])
        return page(request, "table.html", live=live.current(), title="Table", correct=correct)

    async def tv(request: Request) -> Response:
        """The table for a television across the room: the scores, whose turn, the last
        turn and the alerts, as large as the screen allows."""
        refused = watching_refused(request)
        if refused:
            return refused
        return page(request, "tv.html", live=live.current(TV), title="TV")

    async def events(request: Request) -> Response:
        if watch_needs_pin and not guard.paired(session(request)):
            return Response("pair first", status_code=403)

        kinds = TV if request.query_params.get("view") == "tv" else PAGE

        drawn = live.drawn_at(request.query_params.get("since"))

        async def stream() -> AsyncIterator[dict[str, str]]:
            seen = -1
            # each fragment as the page holds it: one sent again unchanged would replace
            # what is under a finger between its press and its release, and lose the tap
            sent: dict[str, str] = {}
            while True:
                if seen != link.version:
                    seen = link.version
                    fragments = live.current(kinds)
                    if seen == drawn and not sent:  # the page was drawn with these
                        sent = {k: v for k, v in fragments.items() if k != "frames"}
                    for event, data in fragments.items():
                        if sent.get(event) != data:
                            sent[event] = data
                            yield {"event": event, "data": data}
                    yield {"event": "version", "data": str(seen)}
                else:
                    yield {"comment": "still here"}
                await link.wait_change(seen, KEEPALIVE)

        return streams.response(request.client.host if request.client else "", stream)

    async def games(request: Request) -> Response:
        refused = watching_refused(request)
        if refused:
            return refused
        lang = language(link.state)
        texts = Catalogue.load(lang)
        found, problems = archive.games()
        rows = [
            {
                "key": g.key,
                "file": g.path.name,
                "number": g.number,
                "ranking": [
                    {
                        "name": texts.colour(g.colours.get(side, "red")),
                        "css": css(g.colours.get(side, "")),
                        "score": score,
                    }
                    for side, score in g.ranking
                ],
                "turns": g.turns,
                "turn_count": g.turn_count,
                "stopped": g.stopped,
                "chart": chart_lines(g),
                "when": g.when,
            }
            for g in found
        ]
        return page(request, "games.html", games=rows, problems=problems, title="Games")

    def settings_rows(values: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
        texts = Catalogue.load(lang)
        rows = []
        for s in SETTINGS:
            choices = []
            for choice in s.choices:
                key, args = words(s.key, choice)
                choices.append(
                    {
                        "value": json.dumps(choice),
                        "text": texts.text(key, **args),
                        "on": choice == values.get(s.key),
                    }
                )
            rows.append({"key": s.key, "label": texts.text(label(s.key)), "choices": choices})
        return rows

    def game_in_play(state: TableState | None) -> str | None:
        """The game being played, in words ("Red 15, Yellow 12"), or None."""
        if state is None or state.view.phase != Phase.PLAYING:
            return None
        texts = Catalogue.load(state.language)
        view = state.view
        return ", ".join(f"{texts.colour(s.colour)} {s.score}" for s in view.seats)

    def said(key: str | None, lang: str) -> str:
        """What a change that was made says after its redirect, in the table's language: a
        key of `SAID` only (a link cannot put its own words on the page)."""
        return Catalogue.load(lang).text(SAID[key]) if key in SAID else ""

    async def settings(request: Request, message: str = "", error: str = "") -> Response:
        state = link.state if link.connected else None
        values = {} if state is None or state.settings is None else state.settings
        lang = language(state)
        texts = Catalogue.load(lang)
        game = game_in_play(state)
        return page(
            request,
            "settings.html",
            w={k: texts.text(f"web.settings.{k}", game=game or "") for k in SETTINGS_WORDS},
            rows=settings_rows(values, lang) if values else [],
            game=game,
            confirm_stop=request.query_params.get("stop") == "1",
            paired=guard.paired(session(request)),
            message=message or said(request.query_params.get("said"), lang),
            error=error,
            watch=bool(request.query_params.get("watch")),
            title=Catalogue.load(lang).text("settings.title"),
        )

    async def settings_post(request: Request) -> Response:
        form = await request.form()
        texts = Catalogue.load(language(link.state if link.connected else None))
        if not await change_allowed(request, form.get("csrf")):
            return Response("this form is out of date: reload the page", status_code=403)
        sid = session(request)
        action = form.get("action")
        device = request.client.host if request.client else ""  # the daemon limits per device
        try:
            if action == "pin":
                reply = await link.request("pin", device=device)
                if not reply.get("ok"):  # the limits: the page says so, in the table's words
                    return await settings(request, error=reply.get("error", "refused"))
                shows = "pairing.already" if reply.get("already") else "pairing.showing"
                return await settings(request, texts.text(shows, n=reply.get("seconds", 0)))
            if action == "pair":
                reply = await link.request("pair", pin=str(form.get("pin", ""))[:16], device=device)
                if not reply.get("ok"):
                    return await settings(request, error=reply.get("error", "refused"))
                guard.pair(sid)  # type: ignore[arg-type]
                return RedirectResponse("/settings?said=paired", status_code=303)
            if not guard.paired(sid):
                return await settings(request, error=texts.text("pairing.first"))
            if action == "stop":
                reply = await link.request("stop", device=device)
                if not reply.get("ok"):
                    return await settings(request, error=reply.get("error", "refused"))
                await link.wait_change(link.version, 1.0)  # the lobby, published
                return RedirectResponse("/settings?said=stopped", status_code=303)
            key = str(form.get("key", ""))
            try:
                value = json.loads(str(form.get("value", "")))
            except ValueError:
                return await settings(request, error=texts.text("settings.not_a_value"))
            reply = await link.request("set", key=key, value=value)
            if not reply.get("ok"):
                return await settings(request, error=reply.get("error", "refused"))
            await link.wait_change(link.version, 1.0)  # the daemon publishes the new value
            return RedirectResponse("/settings?said=saved", status_code=303)
        except DaemonGone as exc:
            return await settings(request, error=str(exc))

    async def paired_body(
        request: Request,
    ) -> tuple[object, Callable[[str, int], Response]]:
        """A paired page's JSON body (None if it is not JSON), or the refusal to send
        instead (out of date, not paired), with the way to refuse it in the table's words."""
        texts = Catalogue.load(language(link.state))  # the page's words are the table's

        def refused(key: str, status: int) -> Response:
            return JSONResponse({"ok": False, "error": texts.text(key)}, status_code=status)

        if not await change_allowed(request, request.headers.get("x-csrf-token")):
            return refused("web.correct.out_of_date", 403), refused
        if not guard.paired(session(request)):
            return refused("web.correct.pair_first", 403), refused
        try:
            return await request.json(), refused
        except ValueError:
            return None, refused

    async def word(request: Request) -> Response:
        """A paired page's word about a square (`said` "laid" or "absent", `square`,
        `tile`): the daemon takes it as the family's (`by` "page", set there) or says why
        not, in one sentence the page shows."""
        body, refused = await paired_body(request)
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict):
            return refused("web.correct.not_a_word", 400)
        # only these three, each a short string: the daemon checks what they mean
        fields = {k: body.get(k) for k in ("said", "square", "tile")}
        if not all(isinstance(v, str) and 0 < len(v) <= 16 for v in fields.values()):
            return refused("web.correct.not_a_word", 400)
        try:
            reply = await link.request("word", **fields)
        except DaemonGone as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=503)
        if reply.get("ok"):
            await link.wait_change(link.version, 1.0)  # the board with the word, published
        return JSONResponse({"ok": bool(reply.get("ok")), "error": reply.get("error")})

    async def correct(request: Request) -> Response:
        """A paired page's "Apply the correction": `correction` is the `Correction` it
        showed, as published; the daemon applies that one (confirmed by "page", set there)
        or none, and says why not in one sentence the page shows. Applied, the page says
        it as the displays do ("Corrected: Red +4")."""
        body, refused = await paired_body(request)
        if isinstance(body, Response):
            return body
        shown = body.get("correction") if isinstance(body, dict) else None
        correction = None
        if isinstance(shown, dict) and shown.get("kind") == Correction.kind:
            with contextlib.suppress(KeyError, TypeError, ValueError):  # a TileError too
                correction = Correction.from_json(shown)  # the typed value, as published
        if correction is None:
            return refused("web.correction.not_shown", 400)
        try:
            reply = await link.request("correct", correction=correction.to_json())
        except DaemonGone as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=503)
        if not reply.get("ok"):
            return JSONResponse({"ok": False, "error": reply.get("error")})
        await link.wait_change(link.version, 1.0)  # the corrected game, published
        state = link.state
        done = dataclasses.replace(correction, applied=True)
        texts = Catalogue.load(language(state))  # the page's words are the table's
        said = notice_words(done, texts, state.view).body if state is not None else ""
        return JSONResponse({"ok": True, "error": None, "said": said})

    async def sim_page(request: Request) -> Response:
        refused = watching_refused(request)
        if refused:
            return refused
        if link.state is None or link.state.sim is None:
            return Response("the table is not simulated (start it with run --sim)", status_code=404)
        return page(request, "sim.html", live=live.current(), title="Simulated table")

    async def sim_action(request: Request) -> Response:
        if not await change_allowed(request, request.headers.get("x-csrf-token")):
            return JSONResponse({"ok": False, "error": "reload the page"}, status_code=403)
        if link.state is None or link.state.sim is None:
            return JSONResponse({"ok": False, "error": "the table is not simulated"}, 404)
        op = request.path_params["op"]
        if op not in ("put", "lift", "press", "cable", "faults"):
            return JSONResponse({"ok": False, "error": f"no such action {op!r}"}, 404)
        try:
            body = await request.json()
        except ValueError:
            body = {}
        fields = {
            k: v
            for k, v in (body or {}).items()
            if k in ("square", "tile", "seat", "long", "plugged", "profile")
        }
        try:
            reply = await link.request(op, **fields)
        except DaemonGone as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=503)
        return JSONResponse({"ok": bool(reply.get("ok")), "error": reply.get("error")})

    async def qr(request: Request) -> Response:
        out = io.BytesIO()
        segno.make(str(request.base_url), error="m").save(out, kind="svg", scale=4, dark="#222")
        return Response(out.getvalue(), media_type="image/svg+xml")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        link.start()
        yield
        await link.stop()

    app = Starlette(
        routes=[
            Route("/", table),
            Route("/tv", tv),
            Route("/events", events),
            Route("/games", games),
            Route("/settings", settings, methods=["GET"]),
            Route("/settings", settings_post, methods=["POST"]),
            Route("/word", word, methods=["POST"]),
            Route("/correct", correct, methods=["POST"]),
            Route("/sim", sim_page),
            Route("/sim/{op}", sim_action, methods=["POST"]),
            Route("/qr.svg", qr),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Edge, names=names or TableNames.of_this_machine())],
    )
    app.state.link = link
    app.state.streams = streams
    return app
