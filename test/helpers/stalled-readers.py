"""Clients that ask and never read (DECISIONS §14's slow-reader attack), for test/process/heavy-answers.

Node cannot set SO_RCVBUF or TCP_MAXSEG on a TCP socket; here each socket gets a receive buffer
of a few KB and small segments before it connects, so the kernels cannot swallow an answer on loopback.
Usage: stalled-readers.py PORT KEY [PACE_MS] < paths (one per line). Prints "sent" once every
request is out; then, on a line from stdin, reads each socket to its end (or 10 s) and prints one
JSON line per socket: whether the server had closed it and how many bytes it had sent. With
PACE_MS, a slow reader: 16 KiB at a time, PACE_MS apart.
"""
import json
import socket
import sys
import time

port, key = int(sys.argv[1]), sys.argv[2]
pace = int(sys.argv[3]) / 1000 if len(sys.argv) > 3 else None
paths = [line.strip() for line in sys.stdin.readline().split(' ') if line.strip()]
sockets = []
for path in paths:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    # A small segment size makes the server's kernel hold tens of KB for this socket, not the
    # megabyte that loopback's 64 KB segments let it take: the rest stays in the server, as on a real link.
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
    s.connect(('127.0.0.1', port))
    # A slow reader asks the server to close after the answer: its end is then the answer's.
    close = 'Connection: close\r\n' if pace else ''
    s.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n{close}\r\n'.encode())
    sockets.append(s)
print('sent', flush=True)
sys.stdin.readline()
for s in sockets:
    s.settimeout(10)
    received, closed = 0, False
    try:
        while True:
            chunk = s.recv(1 << 14 if pace else 1 << 20)
            if pace:
                time.sleep(pace)
            if not chunk:
                closed = True
                break
            received += len(chunk)
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    print(json.dumps({'closed': closed, 'bytes': received}), flush=True)
