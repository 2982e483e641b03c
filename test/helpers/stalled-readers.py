"""Clients that ask and never read (DECISIONS §14's slow-reader attack), for test/process/heavy-answers.

Node cannot set SO_RCVBUF on a TCP socket; here each socket gets a receive buffer of a few KB
before it connects, so the kernel cannot swallow a whole answer on loopback.
Usage: stalled-readers.py PORT KEY < paths (one per line). Prints "sent" once every request is
out; then, on a line from stdin, reads each socket to its end (or 10 s) and prints one JSON line
per socket: whether the server had closed it and how many bytes it had sent.
"""
import json
import socket
import sys

port, key = int(sys.argv[1]), sys.argv[2]
paths = [line.strip() for line in sys.stdin.readline().split(' ') if line.strip()]
sockets = []
for path in paths:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(('127.0.0.1', port))
    s.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n\r\n'.encode())
    sockets.append(s)
print('sent', flush=True)
sys.stdin.readline()
for s in sockets:
    s.settimeout(10)
    received, closed = 0, False
    try:
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                closed = True
                break
            received += len(chunk)
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    print(json.dumps({'closed': closed, 'bytes': received}), flush=True)
