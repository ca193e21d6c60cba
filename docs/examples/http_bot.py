"""A bot over HTTP: one seat for this script against three `random` bots, played until it finishes or the deal is
over. Run `referee serve`, then: python docs/examples/http_bot.py [http://127.0.0.1:8000]"""
import random
import sys
import time

import requests


def concrete(entry: dict) -> dict:
    """A choose entry (a 7-pass give, a 10-discard, an exchange) stands for min..max of its `from` cards."""
    if "choose" not in entry:
        return entry
    picked = entry.get("cards", []) + random.sample(entry["choose"]["from"], entry["choose"]["min"])
    return {"seat": entry["seat"], "action": entry["action"], "cards": picked}


B = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
players = [{"name": "me"}] + [{"name": f"bot{i}", "bot": "random"} for i in (1, 2, 3)]
game = requests.post(f"{B}/v1/games", json={"preset": "nanko", "players": players}, timeout=10).json()
url, auth = f"{B}/v1/games/{game['game_id']}", {"Authorization": f"Bearer {game['seat_tokens'][0]}"}
while True:
    state = requests.get(url, headers=auth, timeout=10).json()  # my view: my hand, the others' counts
    me = state["players"][0]
    if me["place"] is not None or state["phase"] == "deal_over":
        break
    legal = requests.get(f"{url}/legal-moves", params={"seat": 0}, headers=auth, timeout=10).json()
    if 0 not in legal["actors"]:
        time.sleep(0.2)  # a bot is thinking; GET {url}/stream would tell us the moment it moves
        continue
    answer = requests.post(f"{url}/moves", json=concrete(random.choice(legal["moves"])), headers=auth, timeout=10)
    print(answer.status_code, answer.json()["verdict"]["message"])  # 200 {verdict, seq, state}
    answer.raise_for_status()
print(f"game {game['game_id']}: I finished {me['place']} ({me['title']})" if me["place"] else "the deal is over")
