#!/usr/bin/python3
"""Load a page in headless Debian chromium and report what a person would see.

A tiny Chrome DevTools Protocol client over --remote-debugging-pipe (fd 3
to the browser, fd 4 from it, NUL-terminated JSON): no websocket, no
package beyond Python's standard library.

usage: browser_check.py PAGE.html SHOT.png [--width PX] [--plot ID]...

Prints one line per figure, `key=value`:
  svg       <svg> elements in the rendered DOM
  plots     <svg class="plot"> elements
  drawn     plots that the browser laid out with a non-empty box and content
            (folded <details> opened first)
  img       <img> elements
  page_w    the width of the page's body (px)
  plot_w_min, plot_w_max  the narrowest and widest plot as laid out (px)
  requests  network requests for anything but the page itself (a
            self-contained page makes none)
  errors    console errors, uncaught exceptions and error log entries
then `error: ...` for each of those; for each --plot ID (a grouped bar
chart), `ID.groups=`, `ID.bars=` (counts), `ID.legend=` and `ID.glabels=`
(texts joined by '|'), and `numbered=` (plot texts that are a point number
"#N").  SHOT.png is a full-page screenshot, taken before any <details> is
opened, at a window --width px wide (default 1600).  Exit 0 when the
browser answered, 1 otherwise.
"""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
TIMEOUT_S = 60


class Browser:
    def __init__(self, exe, userdir, width=1600):
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # Move the browser's ends out of the way of 3 and 4 first.
        self.hi_r = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
        self.hi_w = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
        os.close(to_r)
        os.close(from_w)

        def child():
            os.dup2(self.hi_r, 3)
            os.dup2(self.hi_w, 4)

        self.proc = subprocess.Popen(
            [exe] + CHROMIUM_FLAGS + ["--user-data-dir=" + userdir,
                                      "--remote-debugging-pipe",
                                      "--window-size=%d,1200" % width, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=child, pass_fds=(3, 4))
        os.close(self.hi_r)
        os.close(self.hi_w)
        self.w = to_w
        self.r = from_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT_S

    def _read_msg(self):
        while b"\0" not in self.buf:
            if time.monotonic() > self.deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.r, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read_msg()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[i]
                return m
        while True:
            m = self._read_msg()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


PAINTED = ("new Promise(function (r) { requestAnimationFrame(function () {"
           " requestAnimationFrame(function () { r(1); }); }); })")
HEIGHT = "Math.ceil(document.documentElement.scrollHeight)"
OPEN_DETAILS = "document.querySelectorAll('details').forEach(function (d) { d.open = true; }); 1"
FIGURES = """JSON.stringify({
  svg: document.querySelectorAll('svg').length,
  plots: document.querySelectorAll('svg.plot').length,
  drawn: Array.from(document.querySelectorAll('svg.plot')).filter(function (s) {
      var b = s.getBoundingClientRect();
      return b.width > 100 && b.height > 100 && s.querySelectorAll('rect,polyline').length > 2;
  }).length,
  img: document.images.length,
  page_w: Math.round(document.body.getBoundingClientRect().width),
  plot_w: Array.from(document.querySelectorAll('svg.plot')).map(function (s) {
      return Math.round(s.getBoundingClientRect().width); }).filter(function (w) { return w > 0; }),
  numbered: Array.from(document.querySelectorAll('svg.plot text, svg.plot tspan')).filter(function (t) {
      return /^#[0-9]+$/.test(t.textContent.trim()); }).length
})"""
PLOT = """(function (id) {
  var s = document.getElementById(id);
  if (!s) return JSON.stringify(null);
  function texts(sel) { return Array.from(s.querySelectorAll(sel)).map(function (t) {
      return t.textContent.trim(); }); }
  return JSON.stringify({groups: s.querySelectorAll('g.group').length,
                         bars: s.querySelectorAll('rect.bar').length,
                         legend: texts('g.legend text'), glabels: texts('text.glabel')});
})(%s)"""


def main():
    args, width, plots = sys.argv[1:], 1600, []
    while len(args) > 2 and args[-2] in ("--width", "--plot"):
        if args[-2] == "--width":
            width = int(args[-1])
        else:
            plots.insert(0, args[-1])
        args = args[:-2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    page, shot = os.path.abspath(args[0]), args[1]
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("chromium not found (apt-get install -y chromium)", file=sys.stderr)
        return 1
    userdir = tempfile.mkdtemp(prefix="uvmsim-chromium-")
    b = Browser(exe, userdir, width)
    try:
        targets = b.send("Target.getTargets")["targetInfos"]
        tid = next(t["targetId"] for t in targets if t["type"] == "page")
        s = b.send("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
        for dom in ("Runtime", "Log", "Page", "Network"):
            b.send(dom + ".enable", session=s)
        url = "file://" + page
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_event("Page.loadEventFired")
        def ev(expr):
            return b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True},
                          session=s)["result"]["value"]
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": 1200, "deviceScaleFactor": 1, "mobile": False}, session=s)
        height = ev(HEIGHT)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": min(height, 16000), "deviceScaleFactor": 1,
                "mobile": False}, session=s)
        # Two animation frames after the resize: the page is painted (a
        # loaded machine otherwise captures blank tiles).
        b.send("Runtime.evaluate", {"expression": PAINTED, "awaitPromise": True}, session=s)
        png = b.send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        ev(OPEN_DETAILS)
        fig = json.loads(ev(FIGURES))
        per_plot = [(pid, json.loads(ev(PLOT % json.dumps(pid)))) for pid in plots]
        errors, requests = [], 0
        for m in b.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description", "")))
                                                     for a in p.get("args", [])))
            elif meth == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
            elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                errors.append("log: " + p["entry"].get("text", ""))
            elif meth == "Network.requestWillBeSent" and p.get("request", {}).get("url") != url:
                requests += 1
                errors.append("request: " + p["request"]["url"])
        for k in ("svg", "plots", "drawn", "img", "page_w", "numbered"):
            print("%s=%d" % (k, fig[k]))
        print("plot_w_min=%d" % min(fig["plot_w"] or [0]))
        print("plot_w_max=%d" % max(fig["plot_w"] or [0]))
        for pid, d in per_plot:
            if d is None:
                print("%s.missing=1" % pid)
                continue
            print("%s.groups=%d" % (pid, d["groups"]))
            print("%s.bars=%d" % (pid, d["bars"]))
            print("%s.legend=%s" % (pid, "|".join(d["legend"])))
            print("%s.glabels=%s" % (pid, "|".join(d["glabels"])))
        print("requests=%d" % requests)
        print("errors=%d" % sum(1 for e in errors if not e.startswith("request: ")))
        for e in errors:
            print("error: " + e)
        return 0
    finally:
        b.close()
        shutil.rmtree(userdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
