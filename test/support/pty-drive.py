"""
Drives a command in a pseudo-terminal (python3's pty module): argv[1] is a JSON list of steps, each
{"wait": TEXT} (read the output until TEXT appears after the last match) or {"send": TEXT} ("^C" sends Ctrl-C);
the rest of argv is the command. Waits are on output, never on time (a generous cap only fails a hung child).
Prints JSON {"output", "exit", "failed"} when the child has exited.
"""
import json, os, pty, select, sys, time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
out = b''
at = 0
failed = None


def read_some(deadline):
    global out
    r, _, _ = select.select([fd], [], [], max(0.0, min(1.0, deadline - time.time())))
    if not r:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    if not data:
        return False
    out += data
    return True


for step in steps:
    if 'wait' in step:
        want = step['wait'].encode()
        deadline = time.time() + 120
        while want not in out[at:]:
            if time.time() > deadline or not read_some(deadline):
                failed = 'waited for %r' % step['wait']
                break
        if failed:
            break
        at = out.index(want, at) + len(want)
    else:
        os.write(fd, b'\x03' if step['send'] == '^C' else step['send'].encode())

if failed:
    os.kill(pid, 9)
deadline = time.time() + 120
while read_some(deadline) and time.time() < deadline:
    pass
_, status = os.waitpid(pid, 0)
print(json.dumps({'output': out.decode('utf-8', 'replace'), 'exit': os.waitstatus_to_exitcode(status), 'failed': failed}))
