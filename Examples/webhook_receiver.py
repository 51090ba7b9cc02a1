#!/usr/bin/env python3
"""A minimal App Store Server Notifications V2 receiver for trying Storefront out.

Usage: python3 Examples/webhook_receiver.py [OUTPUT [PORT]]
Appends each POST body ({"signedPayload": "<JWS>"}) as one line to OUTPUT (default
notifications.jsonl) and answers 200. PORT defaults to 9000; 0 picks a free one. The first line
it prints is the port it listens on.
"""
import http.server
import sys

output = sys.argv[1] if len(sys.argv) > 1 else "notifications.jsonl"
port = int(sys.argv[2]) if len(sys.argv) > 2 else 9000


class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(output, "ab") as out:
            out.write(body + b"\n")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass  # keep standard output for the port line


server = http.server.HTTPServer(("127.0.0.1", port), Hook)
print(server.server_port, flush=True)
server.serve_forever()
