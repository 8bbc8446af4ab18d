#!/usr/bin/env python3
"""A small REST API to put the caching proxy (proxy.json) in front of, on 127.0.0.1:9000.

GET  /users?page=N  a page of users with Link, X-Total-Count, ETag and Cache-Control: max-age=60
POST /users         201 with Location, or 422 {"errors":{"email":"taken"}} for a known email
GET  /boom          503 with Retry-After
"""
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = [{"id": i, "email": f"user{i}@example.com"} for i in range(1, 6)]
PAGE = 2


class API(BaseHTTPRequestHandler):
    def send(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/boom":
            return self.send(503, {"error": "maintenance"}, [("Retry-After", "120")])
        if path != "/users":
            return self.send(404, {"error": "not found"})
        page = int(dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("page", "1"))
        last = (len(USERS) + PAGE - 1) // PAGE
        links = [f'</users?page={page + 1}>; rel="next"'] if page < last else []
        links.append(f'</users?page={last}>; rel="last"')
        self.send(200, USERS[(page - 1) * PAGE:page * PAGE], [
            ("Link", ", ".join(links)), ("X-Total-Count", str(len(USERS))),
            ("Cache-Control", "max-age=60"), ("ETag", f'"users-{page}"')])

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        if any(user["email"] == body.get("email") for user in USERS):
            return self.send(422, {"errors": {"email": "taken"}})
        user = {"id": len(USERS) + 1, "email": body.get("email")}
        USERS.append(user)
        self.send(201, user, [("Location", f"/users/{user['id']}")])

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", 9000), API).serve_forever()
