#!/usr/bin/env python3
"""Runs a program in a pseudo-terminal, as a person at a keyboard would: each step waits a
little, then types its text. Prints what the terminal showed; exits with the program's status
(128 + N when a signal N ended it).

    pty_run.py STEPS_JSON PROGRAM [ARG ...]

STEPS_JSON is a list of [seconds_to_wait, text_to_type]; the text "\\u0004" is Ctrl-D.
"""
import json, os, pty, select, signal, sys, time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
out = bytearray()

def drain(timeout):
    end = time.time() + timeout
    while True:
        left = end - time.time()
        if left <= 0:
            return
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            return
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        out.extend(data)

for wait, text in steps:
    drain(wait)
    os.write(fd, text.encode())
deadline = time.time() + 20
status = None
while time.time() < deadline:
    drain(0.1)
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = st
        break
if status is None:
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
drain(0.2)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
