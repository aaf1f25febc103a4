"""A bridge between one game and a chat room: the game's announcements and posts go into the room, and what the
room says comes back as posts in the game thread. It uses only the public API, a token and a webhook
subscription (docs/integrating/: the API, webhooks), and nothing but the standard library.

    python examples/bridge.py --site https://sh.example.org --game 12 --token shp_... \\
        --secret whsec_... --room https://chat.example.org/hooks/incoming/abc --player ann --listen 0.0.0.0:8080

Then subscribe https://<this host>:8080/game to the game's webhooks (the game's page, "Webhooks", as its creator
or a moderator: the secret is shown then), and point the room's outgoing webhook at https://<this host>:8080/room.

- POST /game: a delivery from the site. Its signature is checked (X-SH-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
  "<t>." + body>, at most 5 minutes old) and its idempotency key (X-SH-Delivery) remembered, so that a delivery
  sent again is posted once. Each announcement and post becomes a line in the room (an incoming webhook that
  takes {"text": ...}, as Slack, Mattermost, Rocket.Chat and Discord's Slack-compatible endpoint do).
- POST /room: a message from the room ({"user_name" or "user", "text"}), posted in the game thread with the
  token (scope play) as "<user> (from the chat room): <text>". A message "!move <command>" from the room user
  named by --player plays the token owner's seat instead: the command is one of the moves the API lists for it
  now (`!move nominate bob`, `!move ja`, `!move discard F`, `!move veto`, `!move accept`, `!move pick cat`), made
  for the step it was listed for; the room is told what became of it. Nobody else's "!move" is obeyed.
"""

import argparse
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE = 300  # seconds a signature stays good


def verify(secret: str, header: str, body: bytes, *, now: float | None = None) -> bool:
    """Is `header` (X-SH-Signature) the site's signature of `body`, made less than 5 minutes ago?"""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs((now or time.time()) - timestamp) > TOLERANCE:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields.get("v1", ""))


def lines_of(delivery: dict) -> list[str]:
    """What a delivery says in the room, one line per announcement or post."""
    game = delivery.get("game", {}).get("name", "the game")
    if delivery.get("event") == "post.created":
        post = delivery["post"]
        return [f"[{game}] {post['author']}: {post['body']}"]
    if delivery.get("event") == "game.events":
        lines = []
        for event in delivery.get("events", []):
            details = ", ".join(f"{k}: {v}" for k, v in event.items() if k not in ("type", "index", "round"))
            lines.append(f"[{game}] {event['type'].replace('_', ' ')}" + (f" ({details})" if details else ""))
        if delivery.get("deadline"):
            lines.append(f"[{game}] next deadline: {delivery['deadline']}")
        return lines
    return []


def command_of(move: dict) -> str:
    """A move the API lists, as a room writes it: "nominate bob", "ja", "discard F", "accept", "pick cat"."""
    kind = move["type"]
    if kind == "vote":
        return move["vote"]
    if kind in ("discard", "enact"):
        return f"{kind} {move['policy'].lower()}"
    if kind == "veto_reply":
        return "accept" if move["accept"] else "refuse"
    if kind == "veto":
        return "veto"
    return f"{'pick' if kind == 'special_election' else kind} {move['target'].lower()}"


def get_json(url: str, *, token: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def post_json(url: str, data: dict, *, token: str | None = None) -> int:
    request = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


class Bridge:
    def __init__(self, *, site: str, game: int, token: str, secret: str, room: str, player: str = ""):
        self.site, self.game, self.token, self.secret, self.room = site.rstrip("/"), game, token, secret, room
        self.player = player  # the room user whose "!move" plays the token owner's seat
        self.seen: set[str] = set()  # idempotency keys delivered already (a real bridge would keep them on disk)

    def from_site(self, headers, body: bytes) -> int:
        if not verify(self.secret, headers.get("X-SH-Signature", ""), body):
            return 401
        key = headers.get("X-SH-Delivery", "")
        if key in self.seen:
            return 200  # sent again: already in the room
        for line in lines_of(json.loads(body)):
            post_json(self.room, {"text": line})
        self.seen.add(key)
        return 200

    def from_room(self, body: bytes) -> int:
        message = json.loads(body)
        who, text = message.get("user_name") or message.get("user") or "someone", message.get("text", "").strip()
        if not text:
            return 200
        if text.startswith("!move "):
            if who != self.player:
                return 200  # only the seat's own player moves it
            post_json(self.room, {"text": self.move(text.removeprefix("!move ").strip())})
            return 200
        url = f"{self.site}/api/v1/games/{self.game}/posts"
        return post_json(url, {"body": f"**{who}** (from the chat room): {text}"}, token=self.token)

    def move(self, command: str) -> str:
        """Make the move `command` names, among those the API lists for the token owner's seat now."""
        mine = get_json(f"{self.site}/api/v1/games/{self.game}/me", token=self.token)
        chosen = next((m for m in mine["moves"] if command_of(m) == command.lower()), None)
        if chosen is None:
            listed = ", ".join(command_of(m) for m in mine["moves"]) or "nothing now"
            return f"Not a move you can make now: {command}. You can: {listed}."
        url = f"{self.site}/api/v1/games/{self.game}/moves"
        try:
            post_json(url, {**chosen, "step_number": mine["step_number"]}, token=self.token)
        except urllib.error.HTTPError as refusal:  # a problem document: the site's own reason
            return f"Refused: {json.loads(refusal.read()).get('detail', refusal.reason)}"
        return f"Done: {command}."

    def server(self, host: str, port: int) -> ThreadingHTTPServer:
        bridge = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    if self.path == "/game":
                        status = bridge.from_site(self.headers, body)
                    elif self.path == "/room":
                        status = bridge.from_room(body)
                    else:
                        status = 404
                except (ValueError, OSError):
                    status = 502  # the site retries its deliveries; the room may retry its messages
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        return ThreadingHTTPServer((host, port), Handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True)
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--token", required=True, help="an API token with the play scope")
    parser.add_argument("--secret", required=True, help="the secret of the game's webhook subscription")
    parser.add_argument("--room", required=True, help="the chat room's incoming webhook URL")
    parser.add_argument("--player", default="", help="the room user whose '!move' commands play the seat")
    parser.add_argument("--listen", default="127.0.0.1:8080")
    options = parser.parse_args()
    host, port = options.listen.rsplit(":", 1)
    bridge = Bridge(
        site=options.site, game=options.game, token=options.token, secret=options.secret, room=options.room,
        player=options.player,
    )  # fmt: skip
    bridge.server(host, int(port)).serve_forever()


if __name__ == "__main__":
    main()
