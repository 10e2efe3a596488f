#!/usr/bin/env python3
"""Runs a program in a pseudo-terminal, as a person at a keyboard would: each step waits a
little, then types its text. Prints what the terminal showed; exits with the program's status
(128 + N when a signal N ended it).

    pty_run.py STEPS_JSON PROGRAM [ARG ...]

PTY_WINSIZE=ROWSxCOLUMNS in the environment gives the terminal that size (else the system's
0x0, which programs read as "unknown").

STEPS_JSON is a list of [seconds_to_wait, text_to_type] or [seconds_to_wait, text_to_type,
text_to_see]: with the third, the terminal must first show that text (since the step before
typed; at most 30 s), then the wait follows — so a loaded machine slows a step down instead
of typing into a program not yet ready. The text "\\u0004" is Ctrl-D, and
"<SIGSTOP>" and "<SIGCONT>" send those signals instead of typing (as Ctrl-Z and `fg` do at a
shell; a terminal with no shell ignores Ctrl-Z).
"""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    # A person's terminal: every signal as the system sets it, none blocked (a test runner
    # may have ignored or blocked some, and children inherit that).
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGPIPE, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    size = os.environ.get("PTY_WINSIZE")
    if size:
        rows, cols = (int(n) for n in size.split("x"))
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
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

def wait_for(text, since, timeout=30):
    end = time.time() + timeout
    while text.encode() not in out[since:] and time.time() < end:
        drain(0.05)

mark = 0
for step in steps:
    wait, text = step[0], step[1]
    if len(step) > 2:
        wait_for(step[2], mark)
    drain(wait)
    mark = len(out)
    if text == "<SIGCONT>":
        os.kill(pid, signal.SIGCONT)
    elif text == "<SIGSTOP>":
        os.kill(pid, signal.SIGSTOP)
    else:
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
