# A stand-in operator in Python's standard library, written the way Flask-style integrations often are:
# it parses the body, then verifies the signature over json.dumps of what it parsed (default separators
# ", " and ": "), not over the bytes it received. Prints its port, then serves until killed.
import hashlib
import hmac
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1].encode("utf-8")


class Operator(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            data = json.loads(raw)
        except ValueError:
            return self.answer(400, {"errors": [{"code": "BAD_JSON", "isClientSafe": False}]})
        expected = hmac.new(SECRET, json.dumps(data).encode("utf-8"), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("x-server-authorization", "")):
            return self.answer(401, {"errors": [{"code": "INVALID_SIGNATURE", "isClientSafe": False}]})
        return self.answer(200, {"status": "OK"})

    def answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Operator)
print(server.server_address[1], flush=True)
server.serve_forever()
