"""Browser-test helpers shared by the browser tests (a module of its own: no test module imports another)."""
from __future__ import annotations

from urllib.parse import urlparse

from playwright.sync_api import Locator, Page


def drag(page: Page, source: Locator, target: Locator, *, half: str = "upper") -> None:
    """Mouse-drag ``source`` (grabbed by its title) onto the upper or lower half of ``target``."""
    s = source.get_by_test_id("rw-title").bounding_box()
    t = target.bounding_box()
    page.mouse.move(s["x"] + s["width"] / 2, s["y"] + s["height"] / 2)
    page.mouse.down()
    y = t["y"] + t["height"] * (0.2 if half == "upper" else 0.8)
    page.mouse.move(t["x"] + t["width"] * 0.5, y, steps=8)
    page.mouse.up()


def metric_value(page: Page, label: str) -> Locator:
    """The value of the first metric card whose label is exactly ``label``."""
    card = page.get_by_test_id("stMetric").filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return card.get_by_test_id("stMetricValue").first


def refuse_other_hosts(page: Page, app_url: str) -> list[str]:
    """Refuse every request of the page's context to a host other than the app's; the list records them."""
    own = urlparse(app_url).netloc
    foreign: list[str] = []

    def route(request_route):
        url = request_route.request.url
        if urlparse(url).netloc in (own, "") or url.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            foreign.append(url)
            request_route.abort()

    page.context.route("**/*", route)
    return foreign
