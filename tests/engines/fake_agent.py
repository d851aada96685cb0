#!/usr/bin/env python3
"""A Tablut Challenge agent that breaks the protocol on purpose, for tests/it/challenge.rs.

    fake_agent.py --color white|black [--port N] --fault F [--out FILE]

It connects to 127.0.0.1:N (by default the server's fixed port: 5800 white, 5801 black), sends its name and reads states (4-byte big-endian length, UTF-8
JSON). At its first turn it commits the fault F:

    illegal     moves a piece that is not there (a1 to a2)
    malformed   sends text that is not JSON
    nofrom      sends a move without "from"
    disconnect  closes the connection and exits
    silent      never answers

Every state's turn is appended to FILE, one per line, so a test can see what the runner sent
(the final state in particular). It exits when a final state arrives or the connection ends.
"""

import argparse
import json
import socket
import struct
import sys
import time


def read_frame(sock):
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return None
        head += chunk
    (length,) = struct.unpack(">I", head)
    body = b""
    while len(body) < length:
        chunk = sock.recv(length - len(body))
        if not chunk:
            return None
        body += chunk
    return body.decode("utf-8")


def send_frame(sock, text):
    data = text.encode("utf-8")
    sock.sendall(struct.pack(">I", len(data)) + data)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--color", required=True)
    p.add_argument("--port", type=int)
    p.add_argument("--fault", required=True)
    p.add_argument("--out")
    a = p.parse_args()
    me = a.color.upper()
    port = a.port or (5800 if me == "WHITE" else 5801)
    sock = socket.create_connection(("127.0.0.1", port))
    send_frame(sock, json.dumps("Fake Agent"))
    while True:
        text = read_frame(sock)
        if text is None:
            return 0
        turn = json.loads(text)["turn"]
        if a.out:
            with open(a.out, "a") as f:
                f.write(turn + "\n")
        if turn in ("WHITEWIN", "BLACKWIN", "DRAW"):
            return 0
        if turn != me:
            continue
        if a.fault == "illegal":
            send_frame(sock, json.dumps({"from": "a1", "to": "a2", "turn": me}))
        elif a.fault == "malformed":
            send_frame(sock, "{oops")
        elif a.fault == "nofrom":
            send_frame(sock, json.dumps({"to": "a2", "turn": me}))
        elif a.fault == "disconnect":
            sock.close()
            return 3
        elif a.fault == "silent":
            time.sleep(60)
            return 0


if __name__ == "__main__":
    sys.exit(main())
