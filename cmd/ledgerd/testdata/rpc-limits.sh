#!/usr/bin/env bash
# Measures, in one run, the peak memory of a node answering the largest batch a client can send (getLeaderSchedule
# calls filling the 51,200-byte body), and how long a batch that runs past --rpc-call-timeout takes
# to be answered. BIN is the ledgerd binary (default: built from this tree); OLD, when set, is a second binary
# measured the same way for comparison.
set -euo pipefail
cd "$(dirname "$0")/../../.."
BIN=${BIN:-}
if [[ -z $BIN ]]; then BIN=$(mktemp -d)/ledgerd; go build -o "$BIN" ./cmd/ledgerd; fi

# As many calls as the default 51,200-byte body holds.
batch=$(mktemp)
n=0
{
  printf '['
  size=1
  while :; do
    item=$(printf '{"jsonrpc":"2.0","id":%d,"method":"getLeaderSchedule"}' $((n + 1)))
    (( size + ${#item} + 2 > 51200 )) && break
    (( n > 0 )) && printf ','
    printf '%s' "$item"
    size=$((size + ${#item} + 1)); n=$((n + 1))
  done
  printf ']'
} > "$batch"
n=$(grep -o getLeaderSchedule "$batch" | wc -l)
echo "batch: $(wc -c < "$batch") bytes, $n calls of getLeaderSchedule"

# measure BIN ARGS...: starts a node, sends the batch, prints the reply size, the time and the peak RSS.
measure() {
  local bin=$1; shift
  local dir; dir=$(mktemp -d)
  local port=$(( 20000 + RANDOM % 20000 ))
  "$bin" --ledger "$dir/ledger" --rpc-port "$port" --ws-port $((port + 1)) --log-level error "$@" > "$dir/out" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/health" > /dev/null 2>&1 && break
    sleep 0.1
  done
  local before; before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  local t0; t0=$(date +%s.%N)
  curl -s -X POST -H 'Content-Type: application/json' --data-binary "@$batch" "http://127.0.0.1:$port/" > "$dir/reply" || true
  local t1; t1=$(date +%s.%N)
  local peak; peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  local size; size=$(wc -c < "$dir/reply")
  local errors; errors=$( (grep -o '"code":-[0-9]*,"message":"[^"]*"' "$dir/reply" || true) | sort | uniq -c | tr -s ' \n' ' ')
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  printf '  %s %s: reply %s bytes in %.2f s; RSS %d MB idle, peak %d MB; errors in the reply: %s\n' \
    "$(basename "$bin")" "$*" "$size" "$(echo "$t1 - $t0" | bc)" $((before / 1024)) $((peak / 1024)) "${errors:-none}"
}

echo "largest batch, default limits:"
[[ -n ${OLD:-} ]] && measure "$OLD"
measure "$BIN"
echo "a batch past the call timeout (reply limit raised so that only the deadline stops it):"
measure "$BIN" --rpc-call-timeout 1s --rpc-max-response-size 4000000000
