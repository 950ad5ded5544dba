"""A small client of the Chrome DevTools protocol, standard library only, for the browser tests.

``Browser(profile)`` starts Debian's headless ``chromium`` with a fresh profile
and a DevTools port chosen by the browser, attaches to its page over a
WebSocket (RFC 6455, written out below: text frames, masked from the client)
and offers ``call`` (one protocol method), ``evaluate`` (JavaScript, the value
returned), ``click`` (a real mouse click at an element's centre),
``screenshot`` (decoded PNG rows) and ``requests`` (every URL the page asked
for, from ``Network.requestWillBeSent``).  Nothing here downloads anything.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import re
import shutil
import socket
import struct
import subprocess
import threading
import time
import urllib.request
from typing import Any, Optional

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1", "--remote-debugging-port=0"]


def chromium() -> Optional[str]:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    def __init__(self, url: str, timeout: float = 60.0) -> None:
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        assert m, url
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            assert chunk, "the browser closed the DevTools connection during the handshake"
            head += chunk
        status, self.buffer = head.split(b"\r\n\r\n", 1)
        assert b" 101 " in status.split(b"\r\n")[0], status

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the browser closed the DevTools connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self) -> str:
        parts = []
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise ConnectionError("the browser closed the DevTools connection")
            if opcode in (0, 1, 2):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


class Browser:
    def __init__(self, profile: pathlib.Path, width: int = 1100, height: int = 1300) -> None:
        path = chromium()
        assert path is not None
        profile.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([path, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env={**os.environ, "HOME": str(profile)})
        url = None
        deadline = time.monotonic() + 60
        assert self.process.stderr is not None
        while url is None and time.monotonic() < deadline:
            line = self.process.stderr.readline().decode(errors="replace")
            if not line and self.process.poll() is not None:
                raise RuntimeError("chromium exited before opening its DevTools port")
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1)
        assert url, "chromium did not say where its DevTools port is"
        # Keep reading its log so that a full pipe never blocks the browser.
        threading.Thread(target=lambda: [None for _ in self.process.stderr or ()], daemon=True).start()
        port = int(re.match(r"ws://[^:]+:(\d+)/", url).group(1))  # type: ignore[union-attr]
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30).read())
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Network.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def call(self, method: str, params: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event: str, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for message in self.events[seen:]:
                if message["method"] == event:
                    self.events.remove(message)
                    return message
            seen = len(self.events)
            message = json.loads(self.ws.receive())
            if "method" in message:
                self.events.append(message)
        raise TimeoutError(event)

    def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event; ``requests`` starts afresh."""
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str, timeout: float = 60.0) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True, "timeout": timeout * 1000})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 120.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        raise TimeoutError(expression)

    def click(self, selector: str, frame: str = "document") -> None:
        """A real mouse click (pressed and released) at the centre of the element."""
        box = self.evaluate(f"(() => {{ const r = {frame}.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        if frame != "document":  # an iframe's document: add the iframe's position
            off = self.evaluate("(() => { const r = document.querySelector('iframe').getBoundingClientRect();"
                                " return [r.left, r.top]; })()")
            box = [box[0] + off[0], box[1] + off[1]]
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])

    def requests(self) -> list[str]:
        """Every URL the page asked for since the last ``open``."""
        self.evaluate("1")  # flush the events received so far
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
