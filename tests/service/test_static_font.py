"""The page's font from the app's static route: font/woff2, cached like the page's other static files, allowed by the CSP."""
from __future__ import annotations

from api.routes import web
from scripts import build_font

URL = f"/static/fonts/{build_font.FONT_FILE}"


def test_the_font_is_served_as_woff2_and_cached_like_the_other_static_files(client):
    font = client.get(URL)
    css = client.get("/static/app.css")
    assert font.status_code == 200 and font.mimetype == "font/woff2"
    assert font.data == (build_font.FONTS / build_font.FONT_FILE).read_bytes()
    assert font.headers.get("Cache-Control") == css.headers.get("Cache-Control")
    assert font.headers.get("ETag") and font.headers.get("Last-Modified")
    assert client.c.get(URL, headers={"If-None-Match": font.headers["ETag"]}).status_code == 304


def test_the_page_allows_fonts_from_its_own_origin_only(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    assert csp == web.CSP and "font-src 'self'" in csp.split("; ")
