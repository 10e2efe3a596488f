"""The utq Jupyter kernel, tested through Jupyter's own client.

Run by JupyterKernelTests.swift with a Python that has ipykernel, jupyter_client, nbclient,
nbformat and jupyter_kernel_test; UTQ_BINARY names the utq to test and UTQ_LESSON_NOTEBOOKS
a folder of lesson .ipynb files to execute. The kernelspec goes into a temporary
JUPYTER_PATH, so nothing is installed anywhere else.
"""

import glob
import json
import os
import signal
import sys
import tempfile
import time
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "jupyter"))

_specs = tempfile.mkdtemp(prefix="utq-kernelspec-")
os.makedirs(os.path.join(_specs, "kernels", "utq"))
with open(os.path.join(_specs, "kernels", "utq", "kernel.json"), "w") as f:
    from utq_kernel.install import spec
    kernel = spec(os.environ["UTQ_BINARY"])
    kernel["env"]["PYTHONPATH"] = os.path.join(REPO, "jupyter")
    json.dump(kernel, f)
os.environ["JUPYTER_PATH"] = _specs
os.chdir(REPO)

import jupyter_kernel_test as jkt  # noqa: E402
from jupyter_client.manager import start_new_kernel  # noqa: E402

LOAD = "load datasets/market.json\n"


class UTQKernelTests(jkt.KernelTests):
    kernel_name = "utq"
    language_name = "utq"
    file_extension = ".utq"

    code_hello_world = 'echo "hello, world"'
    # A load's warnings go to stderr.
    code_stderr = "load Tests/Fixtures/bad-input/duplicate-names.csv"
    completion_samples = [
        {"text": "cou", "matches": {"count"}},
        {"text": "help tou", "matches": {"tour"}},
    ]
    complete_code_samples = ["count by legend", LOAD + "count"]
    incomplete_code_samples = ["market |", 'where legend = "Bi']
    code_generate_error = "count by"
    code_execute_result = [
        {"code": LOAD + "count by legend, hour", "mime": "text/html"},
        {"code": LOAD + "count", "mime": "text/plain"},
    ]
    code_display_data = [{"code": LOAD + "count by hour | chart bar", "mime": "image/svg+xml"}]
    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "*legend, hour"
    code_inspect_sample = "count"

    def test_utq_error_has_caret(self):
        self.flush_channels()
        reply, outputs = self.execute_helper("count by nothing_here", timeout=60)
        self.assertEqual(reply["content"]["status"], "error")
        errors = [m for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertTrue(any("^" in line for line in errors[0]["content"]["traceback"]))

    def test_utq_table_html_escapes_data_and_says_what_is_cut(self):
        folder = tempfile.mkdtemp(prefix="utq-html-")
        path = os.path.join(folder, "tricky.csv")
        with open(path, "w") as f:
            f.write('name,n\n"<b>bold</b> & <script>x()</script>",1\n')
            for k in range(60):
                f.write(f"place {k},{k}\n")
        self.flush_channels()
        reply, outputs = self.execute_helper(f"load {path} as tricky\ntricky | sort n", timeout=60)
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1)
        html = results[0]["content"]["data"]["text/html"]
        self.assertIn("&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;", html)
        self.assertNotIn("<script>", html)
        self.assertNotIn("<b>", html)
        # 61 rows, more than maxrows (40): the HTML says how many are not shown.
        self.assertIn("rows not shown", html)
        self.assertIn("61 rows", html)

    def test_utq_completion_counts_code_points(self):
        # é is one code point but two bytes: the cursor positions are code points.
        code = '# café\ncount by leg'
        self.flush_channels()
        self.kc.complete(code, len(code))
        reply = self.get_non_kernel_info_reply(timeout=30)
        self.assertEqual(reply["content"]["cursor_end"], len(code))
        self.assertEqual(reply["content"]["cursor_start"], len(code) - 3)


class UTQKernelLifeTests(unittest.TestCase):
    """Interrupts, a kernel that dies, and a utq that dies under the kernel."""

    def setUp(self):
        self.km, self.kc = start_new_kernel(kernel_name="utq")

    def tearDown(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def run_cell(self, code, timeout=60):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
        return reply, outputs

    def test_interrupt_during_a_long_load(self):
        folder = tempfile.mkdtemp(prefix="utq-interrupt-")
        path = os.path.join(folder, "big.csv")
        with open(path, "w") as f:
            f.write("time,legend,x\n")
            line = "2024-05-01T08:00:00Z,Walking,1.5\n"
            f.write(line * 3_000_000)
        msg_id = self.kc.execute("load " + path)
        time.sleep(1.0)
        asked = time.monotonic()
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=30)
        waited = time.monotonic() - asked
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("cancelled", reply["content"]["evalue"])
        self.assertLess(waited, 2.0, f"the interrupt took {waited:.2f} s")
        # ipykernel aborts the requests that reach it just after an error reply (as Jupyter
        # does for the cells queued below a failed one): the next cell comes a moment later,
        # as a person's would.
        time.sleep(1.0)
        reply, outputs = self.run_cell('echo "next"')
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertIn("next", "".join(m["content"].get("text", "") for m in outputs))
        os.remove(path)

    def test_a_killed_kernel_is_dead_and_restarts_fresh(self):
        self.run_cell(LOAD)
        os.kill(self.km.provisioner.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while self.km.is_alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertFalse(self.km.is_alive())
        self.km.restart_kernel(now=True)
        self.kc.wait_for_ready(timeout=30)
        reply, _ = self.run_cell("market | count")
        self.assertEqual(reply["content"]["status"], "error")  # a fresh session: no tables

    def test_a_killed_utq_gives_an_error_and_a_fresh_session(self):
        self.run_cell(LOAD)
        import subprocess
        kernel_pid = self.km.provisioner.pid
        children = subprocess.run(["pgrep", "-P", str(kernel_pid), "-f", "utq"], capture_output=True, text=True).stdout.split()
        self.assertTrue(children)
        for child in children:
            os.kill(int(child), signal.SIGKILL)
        reply, outputs = self.run_cell("count")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("fresh session", reply["content"]["evalue"])
        time.sleep(1.0)  # past ipykernel's abort of requests that follow an error at once
        reply, outputs = self.run_cell('echo "again"')
        self.assertEqual(reply["content"]["status"], "ok")


class LessonNotebookTests(unittest.TestCase):
    """Every lesson, written as .ipynb, runs in the kernel with no error cell."""

    def test_every_lesson_runs(self):
        import nbformat
        from nbclient import NotebookClient
        folder = os.environ.get("UTQ_LESSON_NOTEBOOKS")
        if not folder:
            self.skipTest("UTQ_LESSON_NOTEBOOKS is not set")
        paths = sorted(glob.glob(os.path.join(folder, "*.ipynb")))
        self.assertGreaterEqual(len(paths), 5)
        for path in paths:
            with self.subTest(lesson=os.path.basename(path)):
                nb = nbformat.read(path, as_version=4)
                NotebookClient(nb, kernel_name="utq", timeout=120,
                               resources={"metadata": {"path": os.path.join(REPO, "examples", "lessons")}}).execute()
                errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
                self.assertEqual(errors, [], os.path.basename(path))
                ran = [c for c in nb.cells if c.cell_type == "code" and c.execution_count]
                self.assertGreater(len(ran), 3)
                nbformat.validate(nb)


class LessonCheckTests(unittest.TestCase):
    """A lesson handout (.ipynb, --no-answers) with a student's answers in its check cells:
    each is graded in the kernel as at the lesson> prompt, and recorded for the teacher."""

    def test_a_handout_checks_the_students_answers(self):
        import nbformat
        from nbclient import NotebookClient
        handout = os.environ.get("UTQ_HANDOUT")
        if not handout:
            self.skipTest("UTQ_HANDOUT is not set")
        with open(handout) as f:
            text = f.read()
        # The lesson's answers are nowhere in the handout.
        lesson = os.path.join(REPO, "examples", "lessons", "01-counting.utq")
        with open(lesson) as f:
            answers = [line[2:].strip() for line in f if line.startswith("#>")]
        self.assertEqual(len(answers), 3)
        for answer in answers:
            self.assertNotIn(json.dumps(answer)[1:-1], text)
        nb = nbformat.read(handout, as_version=4)
        checks = {c.source.split()[1]: c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check ")}
        self.assertEqual(sorted(checks), ["1", "2", "3"])
        self.assertTrue(all(c.source.strip() == "check " + n for n, c in checks.items()), "check cells are empty")
        hints = [c for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("<details>")]
        self.assertEqual(len(hints), 6)
        # A let table, then a count of it: right. A count by hour of everyone: not yet.
        # The notes, then `_` sorted with a tie-break the question does not ask for: right.
        checks["1"].source += 'let standing = where legend = "Standing"\nstanding | count\n'
        checks["2"].source += "count by hour\n"
        checks["3"].source += "where note is not null | count by note\n_ | sort count desc, note desc\n"
        records = tempfile.mkdtemp(prefix="utq-records-")
        os.environ["UTQ_LESSON_PROGRESS"] = records
        os.environ["UTQ_STUDENT"] = "Ana Berisha"
        try:
            NotebookClient(nb, kernel_name="utq", timeout=120,
                           resources={"metadata": {"path": os.path.join(REPO, "examples", "lessons")}}).execute()
        finally:
            del os.environ["UTQ_LESSON_PROGRESS"], os.environ["UTQ_STUDENT"]

        def said(cell):
            return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        self.assertEqual(errors, [])
        self.assertIn("right!", said(checks["1"]))
        self.assertIn("not yet", said(checks["2"]))
        self.assertNotIn("right!", said(checks["2"]))
        self.assertIn("right!", said(checks["3"]))
        # The student saw the table the check graded: seven notes.
        shown = [o for o in checks["3"].outputs if o.output_type in ("execute_result", "display_data")]
        self.assertIn("7 rows", shown[-1]["data"]["text/plain"])
        made = glob.glob(os.path.join(records, "*.record.json"))
        self.assertEqual(len(made), 1, made)
        with open(made[0]) as f:
            record = json.load(f)
        self.assertEqual(record["student"], "Ana Berisha")
        marks = {e["number"]: e["mark"] for e in record["exercises"]}
        self.assertEqual(marks, {1: "right", 2: "not yet", 3: "right"})
        with open(made[0]) as f:
            kept = f.read()
        for answer in answers:
            self.assertNotIn(json.dumps(answer)[1:-1], kept)

    def test_a_chart_shows_in_an_untrusted_notebook(self):
        km, kc = start_new_kernel(kernel_name="utq")
        try:
            msg_id = kc.execute(LOAD + "count by hour | chart bar")
            reply = kc.get_shell_msg(timeout=60)
            outputs = []
            while True:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break
                outputs.append(msg)
            self.assertEqual(reply["content"]["status"], "ok")
            charts = [m["content"]["data"] for m in outputs if m["msg_type"] == "display_data"]
            self.assertEqual(len(charts), 1)
            # JupyterLab shows sanitised HTML in an untrusted notebook, never SVG: the chart
            # is an <img> there, with its result number.
            html = charts[0]["text/html"]
            self.assertIn('<img src="data:image/svg+xml;base64,', html)
            self.assertRegex(html, r"<p>\[\d+\] ")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
