#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/tools/tcp-hold.py - opens N TCP connections to a loopback proxy
and holds them idle (nothing sent) until SECS seconds have passed, its
stdin reaches end of file (--stdin) or it gets SIGTERM / SIGINT.

  tcp-hold.py [--secs SECS] [--ready FILE] [--stdin] HOST PORT N

HOST must be a loopback address (127.0.0.0/8 or ::1). The connections are
opened in batches of at most 256 outstanding non-blocking connects, so
that the proxy's accept backlog does not overflow; each one that fails is
retried (up to 3 times, then given up and counted). Once every connection
is up (or given up), prints "up OPEN FAILED" on stdout and writes the
same line into FILE (--ready), then holds them; it closes them with a
reset (SO_LINGER 0), leaving no TIME_WAIT behind. Raises its own open-file
limit to N + 64 (root may raise the hard limit). Exit status: 0 when all
N were open, 1 when some could not be, 2 on bad arguments. Python
standard library only.
"""
import argparse
import errno
import ipaddress
import os
import resource
import select
import signal
import socket
import struct
import sys
import time

BATCH = 256


def loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def raise_nofile(n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = n + 64
    if soft >= want:
        return
    if hard != resource.RLIM_INFINITY and hard < want:
        hard = want
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def open_all(host, port, n, deadline):
    """Returns (list of connected sockets, number given up)."""
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    done, failed = [], 0
    todo = [0] * n  # attempts made, per connection still to open
    pending = {}  # fd -> (socket, attempts)
    poll = select.poll()
    while (todo or pending) and time.monotonic() < deadline:
        while todo and len(pending) < BATCH:
            tries = todo.pop()
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.setblocking(False)
            rc = s.connect_ex((host, port))
            if rc not in (0, errno.EINPROGRESS):
                s.close()
                if tries + 1 < 3:
                    todo.append(tries + 1)
                else:
                    failed += 1
                continue
            pending[s.fileno()] = (s, tries)
            poll.register(s.fileno(), select.POLLOUT)
        for fd, _ in poll.poll(200):
            s, tries = pending.pop(fd)
            poll.unregister(fd)
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                done.append(s)
            else:
                s.close()
                if tries + 1 < 3:
                    todo.append(tries + 1)
                else:
                    failed += 1
    failed += len(todo) + len(pending)
    for s, _ in pending.values():
        s.close()
    return done, failed


def main():
    ap = argparse.ArgumentParser(
        description="hold N idle TCP connections to a loopback proxy")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--secs", type=float, default=600,
                    help="hold at most this long (default 600)")
    ap.add_argument("--ready", help="file to write 'up OPEN FAILED' into")
    ap.add_argument("--stdin", action="store_true",
                    help="also stop when stdin reaches end of file")
    a = ap.parse_args()
    if not loopback(a.host):
        ap.error("HOST must be a loopback address")
    if not 0 < a.port < 65536 or a.n < 0 or a.secs <= 0:
        ap.error("bad PORT, N or SECS")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    raise_nofile(a.n)
    end = time.monotonic() + a.secs
    socks, failed = open_all(a.host, a.port, a.n, end)
    line = "up %d %d\n" % (len(socks), failed)
    sys.stdout.write(line)
    sys.stdout.flush()
    if a.ready:
        with open(a.ready + ".tmp", "w") as f:
            f.write(line)
        os.rename(a.ready + ".tmp", a.ready)
    while not stop and time.monotonic() < end:
        if a.stdin:
            r, _, _ = select.select([sys.stdin], [], [], 0.5)
            if r and not os.read(sys.stdin.fileno(), 4096):
                break
        else:
            time.sleep(0.5)
    # reset, not FIN: no TIME_WAIT left behind, whose sockets the next
    # run's kernel would walk with the live ones
    linger = struct.pack("ii", 1, 0)
    for s in socks:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
        s.close()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
