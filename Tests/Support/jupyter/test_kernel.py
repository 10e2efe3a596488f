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


if __name__ == "__main__":
    unittest.main(verbosity=2)
