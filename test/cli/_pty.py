"""Run a command in a pseudo-terminal and drive it like a person at the keyboard.

    python3 _pty.py '<argv JSON>' '<steps JSON>' '<env JSON>'

Each step waits (up to 60 s) for its "expect" regular expression to appear in the output after
the previous match, then types its "send" text (b"\\x03" is Ctrl-C: the terminal turns it into
SIGINT for the program). Afterwards the output is read to the end. Prints one JSON object:
{"code": exit code, "output": everything the program wrote, "missed": the step that never came}.
"""
import json
import os
import pty
import re
import select
import sys
import time

argv, steps, env = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(argv[0], argv, env)

out = b""


def read(deadline):
    """Read what is there until `deadline`; False once the program closed the terminal."""
    global out
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        out += chunk
    return True


missed = None
at = 0
for step in steps:
    pattern = re.compile(step["expect"].encode())
    end = time.time() + 60
    found = None
    while time.time() < end:
        found = pattern.search(out, at)
        if found:
            break
        if not read(time.time() + 0.2):
            found = pattern.search(out, at)
            break
    if not found:
        missed = step["expect"]
        break
    at = found.end()
    if "send" in step:
        time.sleep(step.get("delay", 0.05))
        os.write(fd, step["send"].encode())

end = time.time() + (1 if missed else 30)
while read(end) and time.time() < end:
    pass
code = None
end = time.time() + 10
while time.time() < end:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        code = os.waitstatus_to_exitcode(status)
        break
    time.sleep(0.05)
else:
    os.kill(pid, 9)  # still running after its last step: the test reports what it saw
    os.waitpid(pid, 0)
print(json.dumps({"code": code, "output": out.decode("utf-8", "replace"), "missed": missed}))
