"""The utq kernel: one `utq kernel` process per Jupyter kernel, spoken to in JSON lines.

utq does the work and gives Jupyter's outputs (streams, tables as HTML, charts as SVG,
errors with the caret message); this class sends them on as Jupyter messages. An interrupt
(SIGINT from Jupyter) is passed on to utq, which cancels the running command and answers.
"""

import json
import os
import queue
import shutil
import signal
import subprocess
import threading

from ipykernel.kernelbase import Kernel

from . import __version__


def utq_binary():
    path = os.environ.get("UTQ_BINARY") or shutil.which("utq")
    if not path:
        raise RuntimeError("utq is not on PATH: install it (make install) or set UTQ_BINARY")
    return path


class UTQProcess:
    """A running `utq kernel`: requests go in as lines; a thread reads the replies."""

    def __init__(self):
        # A session of its own, so a Ctrl-C reaches utq once: from this kernel, which
        # passes on the SIGINT Jupyter sends.
        self.proc = subprocess.Popen(
            [utq_binary(), "kernel"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            start_new_session=True, bufsize=0)
        self.replies = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.replies.put(json.loads(line))
            except ValueError:
                continue
        self.replies.put(None)

    def alive(self):
        return self.proc.poll() is None

    def send(self, request):
        self.next_id += 1
        request = dict(request, id=self.next_id)
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
        except (BrokenPipeError, OSError):
            raise EOFError(self.proc.wait())
        return self.next_id

    def replies_to(self, request_id):
        """The replies to one request, up to its last; an interrupt meanwhile goes to utq."""
        while True:
            try:
                reply = self.replies.get(timeout=0.2)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                self.interrupt()
                continue
            if reply is None:
                raise EOFError(self.proc.wait())
            if reply.get("id") != request_id:
                continue
            yield reply
            if "output" not in reply:
                return

    def ask(self, request):
        return list(self.replies_to(self.send(request)))[-1]

    def interrupt(self):
        if self.alive():
            os.kill(self.proc.pid, signal.SIGINT)

    def stop(self):
        if self.alive():
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class UTQKernel(Kernel):
    implementation = "utq"
    implementation_version = __version__
    language = "utq"
    language_version = __version__
    language_info = {
        "name": "utq",
        "mimetype": "text/x-utq",
        "file_extension": ".utq",
        "pygments_lexer": "text",
        "codemirror_mode": "text/plain",
    }
    banner = "utq: count, chart and compare how a town moves. Type help for the verbs."
    help_links = [{"text": "utq language", "url": "https://github.com/utq/utq/blob/main/docs/language.md"}]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.utq = UTQProcess()
        self.cells = []

    # Outputs ----------------------------------------------------------------

    def _publish(self, output, silent):
        if silent:
            return
        kind = output["output_type"]
        if kind == "stream":
            self.send_response(self.iopub_socket, "stream", {"name": output["name"], "text": output["text"]})
        elif kind == "execute_result":
            content = {"data": output["data"], "metadata": {}, "execution_count": self.execution_count}
            self.send_response(self.iopub_socket, "execute_result", content)
        elif kind == "display_data":
            self.send_response(self.iopub_socket, "display_data", {"data": output["data"], "metadata": {}})
        elif kind == "error":
            content = {k: output[k] for k in ("ename", "evalue", "traceback")}
            self.send_response(self.iopub_socket, "error", content)

    async def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False, **kwargs):
        if store_history and code.strip():
            self.cells.append(code)
        if not code.strip():
            return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}
        error = None
        # A cell's tables are display_data but the last, which is the cell's result.
        held = None
        try:
            request = self.utq.send({"op": "execute", "code": code})
            for reply in self.utq.replies_to(request):
                output = reply.get("output")
                if output is None:
                    continue
                if held is not None:
                    held["output_type"] = "display_data"
                    held.pop("execution_count", None)
                    self._publish(held, silent)
                    held = None
                if output["output_type"] == "execute_result":
                    held = output
                    continue
                if output["output_type"] == "error":
                    error = output
                self._publish(output, silent)
        except EOFError as stopped:
            error = self._restart(stopped.args[0])
            self._publish(error, silent)
        if held is not None:
            self._publish(held, silent)
        if error is not None:
            return {"status": "error", "execution_count": self.execution_count,
                    "ename": error["ename"], "evalue": error["evalue"], "traceback": error["traceback"]}
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}

    def _restart(self, status):
        how = f"was killed by signal {-status}" if status < 0 else f"ended with status {status}"
        message = f"utq {how}; the next cell starts a fresh session (load the tables again)"
        self.utq = UTQProcess()
        return {"output_type": "error", "ename": "utq", "evalue": message, "traceback": ["error: " + message]}

    # Editing help -------------------------------------------------------------

    def _ask(self, request, fallback):
        try:
            reply = self.utq.ask(request)
        except EOFError as stopped:
            self._restart(stopped.args[0])
            return fallback
        reply.pop("id", None)
        return reply

    async def do_complete(self, code, cursor_pos):
        fallback = {"status": "ok", "matches": [], "cursor_start": cursor_pos, "cursor_end": cursor_pos}
        reply = self._ask({"op": "complete", "code": code, "cursor_pos": cursor_pos}, fallback)
        reply.setdefault("metadata", {})
        return reply

    async def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        reply = self._ask({"op": "inspect", "code": code, "cursor_pos": cursor_pos}, {"status": "ok", "found": False})
        reply.setdefault("data", {})
        reply.setdefault("metadata", {})
        return reply

    async def do_is_complete(self, code):
        return self._ask({"op": "is_complete", "code": code}, {"status": "unknown"})

    async def do_history(self, hist_access_type, output, raw, session=None, start=None, stop=None, n=None,
                         pattern=None, unique=False, **kwargs):
        numbered = [(0, k + 1, cell) for k, cell in enumerate(self.cells)]
        if hist_access_type == "range":
            # Lines are numbered from 1; stop is not included.
            numbered = numbered[(start or 1) - 1:(stop - 1 if stop else None)]
        elif hist_access_type == "search" and pattern:
            import fnmatch
            numbered = [h for h in numbered if fnmatch.fnmatch(h[2], pattern)]
        if unique:
            seen, kept = set(), []
            for h in reversed(numbered):
                if h[2] not in seen:
                    seen.add(h[2])
                    kept.append(h)
            numbered = list(reversed(kept))
        if n:
            numbered = numbered[-n:]
        if output:
            numbered = [(s, k, (cell, None)) for s, k, cell in numbered]
        return {"status": "ok", "history": numbered}

    async def do_shutdown(self, restart):
        self.utq.stop()
        return {"status": "ok", "restart": restart}
