# Sourced before the README's steps by test/readme/tour.test.ts: `curl` records the HTTP status of
# each call (one line in $TOUR_STATUSES) and passes the body on (also kept in $TOUR_BODIES).
set -euo pipefail
curl() {
  local out
  out=$(command curl -sS -w '\n%{http_code}' "$@")
  printf '%s\n' "${out##*$'\n'}" >> "$TOUR_STATUSES"
  printf '%s\n' "${out%$'\n'*}" | tee -a "$TOUR_BODIES"
}
