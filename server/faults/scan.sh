#!/usr/bin/env bash
# Scanners from Debian (apt-get install sqlmap wapiti) against a throwaway Tally on loopback,
# each bounded in time. Usage: bash server/faults/scan.sh  (after `tsc -b contract server`).
# Output: $OUT (default /tmp/tally-scan) with sqlmap's and wapiti's reports.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tally-scan}
PORT=${PORT:-3417}
rm -rf "$OUT" && mkdir -p "$OUT/data"
BASE="http://127.0.0.1:$PORT"
PORT=$PORT HOST=127.0.0.1 DATA_DIR="$OUT/data" LOG_LEVEL=error JWT_SECRET=scan-secret-that-is-long-enough-for-jwt \
  AUTH_RATE_LIMIT_PER_MINUTE=1000000 LOGIN_ATTEMPTS_PER_ACCOUNT=1000000 \
  nice -n 10 node server/dist/main.js &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 50); do curl -fs "$BASE/api/health" >/dev/null && break; sleep 0.2; done
TOKEN=$(curl -fs -H 'content-type: application/json' -d '{"username":"scanner","email":"scanner@example.com","password":"scanner password"}' "$BASE/api/auth/register" | sed 's/.*"accessToken":"\([^"]*\)".*/\1/')
AUTH="Authorization: Bearer $TOKEN"
GROUP=$(curl -fs -H "$AUTH" -H 'content-type: application/json' -d '{"name":"scan","color":"#3B82F6"}' "$BASE/api/todo-groups" | sed 's/.*"id":\([0-9]*\).*/\1/')
TODO=$(curl -fs -H "$AUTH" -H 'content-type: application/json' -d '{"title":"scan","description":"d","groupId":null}' "$BASE/api/todos" | sed 's/.*"id":\([0-9]*\),.*/\1/')
echo "server $SERVER on $BASE, todo $TODO, group $GROUP"

sq() { # name, then sqlmap arguments
  local name=$1; shift
  echo "== sqlmap $name"
  timeout 75 nice -n 10 sqlmap --batch --flush-session --level=2 --risk=1 --threads=2 \
    --output-dir="$OUT/sqlmap" -H "$AUTH" "$@" > "$OUT/sqlmap-$name.log" 2>&1
  grep -E "is vulnerable|injectable|all tested parameters do not appear|WARNING.*not injectable|CRITICAL" "$OUT/sqlmap-$name.log" | sort | uniq -c | head -5
}
sq login --ignore-code=401 -u "$BASE/api/auth/login" --data='{"username":"scanner","password":"x"}' -H 'Content-Type: application/json'
sq register -u "$BASE/api/auth/register" --data='{"username":"abc","email":"a@example.com","password":"longenough"}' -H 'Content-Type: application/json'
sq todos-create -u "$BASE/api/todos" --data="{\"title\":\"t\",\"description\":\"d\",\"groupId\":$GROUP}" -H 'Content-Type: application/json'
sq todos-update -u "$BASE/api/todos/${TODO}*" --method=PUT --data="{\"title\":\"t\",\"description\":\"d\",\"groupId\":$GROUP,\"completed\":false}" -H 'Content-Type: application/json'
sq todos-delete --ignore-code=404 -u "$BASE/api/todos/999999*" --method=DELETE
sq groups-create -u "$BASE/api/todo-groups" --data='{"name":"n","color":"#3B82F6"}' -H 'Content-Type: application/json'
sq groups-update -u "$BASE/api/todo-groups/${GROUP}*" --method=PUT --data='{"name":"n2","color":"#EF4444"}' -H 'Content-Type: application/json'
sq recent -u "$BASE/api/statistics/recent?days=7"
sq range -u "$BASE/api/statistics/range?startDate=2026-01-01&endDate=2026-01-31"
sq since -u "$BASE/api/statistics/since?since=2026-01-01"
sq timezone -u "$BASE/api/statistics/total" -H 'X-Time-Zone: Europe/Berlin*'

echo "== wapiti"
timeout 240 nice -n 10 wapiti -u "$BASE/" --scope folder -m "all" --max-scan-time 180 --max-attack-time 30 \
  -H "$AUTH" -f json -o "$OUT/wapiti.json" --flush-session > "$OUT/wapiti.log" 2>&1
python3 - "$OUT/wapiti.json" <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception as error:
    print("no wapiti report:", error); sys.exit()
for section in ("vulnerabilities", "anomalies", "additionals"):
    for name, items in report.get(section, {}).items():
        if items:
            print(f"{section}: {name}: {len(items)}")
            for item in items[:3]:
                print("   ", item.get("method"), item.get("path"), (item.get("info") or "")[:160])
PY
