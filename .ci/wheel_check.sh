#!/usr/bin/env bash
# The wheel as a user gets it. Built from the clone's last commit, installed (not
# editable, with the train extra) into a fresh venv outside the clone, and used from an
# empty folder outside it: the shipped nets and policy played by name (az, net, ppo),
# `tradewinds serve` asked for /api/meta and its page, a small study written to a temp
# folder, a shipped recipe read. Fails on the first step that does. Called by .ci/run
# after the tests; needs the package registries. PYTHON picks the interpreter (python3).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/tradewinds-wheel.XXXXXX")"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
say() { printf '\n== wheel check: %s\n' "$*"; }

say "build the wheel from the committed tree (HEAD)"
mkdir -p "$work/src" "$work/dist" "$work/use"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$work/src"
"$python" -m pip wheel -q --no-deps -w "$work/dist" "$work/src"
wheel="$(ls "$work"/dist/tradewinds-*.whl)"
echo "$wheel"
"$python" - "$wheel" <<'EOF'
import sys
import zipfile

# One import namespace: no generic top-level name (agents, training, ...) in site-packages.
tops = {n.split("/")[0] for n in zipfile.ZipFile(sys.argv[1]).namelist()}
code = sorted(t for t in tops if not t.endswith(".dist-info"))
assert code == ["hansa_env", "tradewinds", "voyage_env"], code
print("top-level packages:", code)
EOF

say "install it into a fresh venv (torch pinned first: the CPU build)"
"$python" -m venv "$work/venv"
. "$work/venv/bin/activate"
python -m pip install -q --upgrade pip
python -m pip install -q torch==2.13.0
python -m pip install -q "$wheel[train]"

cd "$work/use"
say "the installed packages, not the clone's"
python - "$repo" <<'EOF'
import sys
from pathlib import Path

import tradewinds.agents as agents
import tradewinds.cli

repo = Path(sys.argv[1]).resolve()
for m in (agents, tradewinds.cli):
    where = Path(m.__file__).resolve()
    assert repo not in where.parents and "site-packages" in where.parts, where
print("imports from", Path(agents.__file__).parent.parent)
EOF
tradewinds --version

say "az, net and ppo by name: the shipped nets and policy"
tradewinds match hansa --players 2 --agents az:16,net,ppo --games 6 --workers 1 \
    --no-progress --db "$work/use/match/m.sqlite" --out "$work/use/match"
python - "$work/use/match" <<'EOF'
import json
import sys
from pathlib import Path

(report,) = Path(sys.argv[1]).glob("match_*.json")
per = json.loads(report.read_text())["per_agent"]
assert sorted(per) == ["az:16", "net", "ppo"] and all(a["games"] > 0 for a in per.values()), per
print("played:", {k: v["games"] for k, v in per.items()})
EOF

say "tradewinds serve: /api/meta and the page"
port="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
tradewinds serve --port "$port" --workers 1 >"$work/serve.log" 2>&1 &
server=$!
python - "$port" "$server" <<'EOF' || { cat "$work/serve.log"; exit 1; }
import json
import sys
import time
import urllib.request
from pathlib import Path

base, server = f"http://127.0.0.1:{sys.argv[1]}", Path("/proc") / sys.argv[2]


def gone() -> bool:
    """Whether the server has exited (read in /proc; where there is none, never known)."""
    if not server.parent.is_dir():
        return False
    try:
        return (server / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


deadline = time.monotonic() + 1200      # the first start after an install compiles kernels
while True:
    try:
        with urllib.request.urlopen(base + "/api/meta", timeout=10) as r:
            meta = json.load(r)
        break
    except OSError:
        if gone() or time.monotonic() > deadline:
            sys.exit("tradewinds serve " + ("stopped" if gone() else "did not answer") + ":")
        time.sleep(2)
games = {g["name"]: g for g in meta["games"]}
assert set(games) == {"hansa", "voyage"}, meta
with urllib.request.urlopen(base + "/", timeout=10) as r:
    page = r.read().decode()
assert r.status == 200 and "<html" in page.lower(), page[:200]
with urllib.request.urlopen(base + "/static/app.js", timeout=10) as r:
    assert r.status == 200 and r.read()
print("serve: games", sorted(games), "agents", meta["agents"])
EOF
kill "$server"
wait "$server" || true
server=""

say "a small study into a temp folder"
tradewinds fpa hansa --players 2 --agent heuristic --games 20 --no-progress \
    --db "$work/use/fpa/r.sqlite" --out "$work/use/fpa" | tee "$work/fpa.txt"
ls "$work"/use/fpa/fpa_hansa_heuristic_2p.json >/dev/null

say "a shipped recipe"
tradewinds train --recipe hansa_3p --show >/dev/null

say "passed"
