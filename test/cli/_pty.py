# Run a command on a pseudo-terminal and answer its prompts, as a person at a terminal would.
# argv[1]: JSON list, the command; argv[2]: JSON list of [prompt regex, answer]; the environment
# is this process's. Prints JSON {"code": exit code, "output": everything the terminal showed}.
import json, os, pty, re, select, signal, sys, time

command = json.loads(sys.argv[1])
answers = json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
out = b""
seen = 0
step = 0
deadline = time.time() + float(os.environ.get("PTY_TIMEOUT", "120"))
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    if step < len(answers) and re.search(answers[step][0].encode(), out[seen:]):
        seen = len(out)
        time.sleep(0.1)
        os.write(fd, answers[step][1].encode() + b"\r")
        step += 1
else:
    os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(json.dumps({"code": code, "output": out.decode("utf-8", "replace"), "answered": step}))
