# Phase timing for .ci/run (sourced). `phase NAME CMD...` runs CMD in the current shell (so
# exports carry over) under errexit; `phase_bg NAME CMD...` runs CMD in the background with its
# output kept in a log, and `phase_join NAME` waits for it, prints that log and fails when CMD
# failed. Independent work (package installs, Go builds, image builds) overlaps this way on a
# machine with few cores. The EXIT trap prints every phase's time, and on failure names the phase
# that failed.

declare -a _phase_names=() _phase_secs=()
declare -A _bg_pid=() _bg_log=() _bg_started=()
_phase_current=""
_phase_started=0
_run_started=$SECONDS
_bg_dir="$(mktemp -d)"

phase() {
  local name="$1"
  shift
  echo
  echo "=== ${name} ==="
  _phase_current="$name"
  _phase_started=$SECONDS
  "$@"
  _phase_names+=("$name")
  _phase_secs+=("$((SECONDS - _phase_started))")
  _phase_current=""
}

phase_bg() {
  local name="$1"
  shift
  local log
  log="$_bg_dir/$(tr -c 'a-zA-Z0-9' '_' <<<"$name").log"
  echo
  echo "=== ${name} (started in the background) ==="
  # A subshell under errexit, so a failing step inside CMD fails the background phase.
  (
    set -euo pipefail
    "$@"
  ) >"$log" 2>&1 &
  _bg_pid["$name"]=$!
  _bg_log["$name"]="$log"
  _bg_started["$name"]=$SECONDS
}

phase_join() {
  local name="$1" status=0
  echo
  echo "=== ${name} (joined) ==="
  _phase_current="$name"
  _phase_started=${_bg_started["$name"]}
  wait "${_bg_pid["$name"]}" || status=$?
  cat "${_bg_log["$name"]}"
  if [[ $status -ne 0 ]]; then
    return "$status"
  fi
  _phase_names+=("$name")
  _phase_secs+=("$((SECONDS - _phase_started))")
  _phase_current=""
}

_phase_report() {
  local status=$?
  echo
  echo "=== timings ==="
  local i
  for i in "${!_phase_names[@]}"; do
    printf '%-32s %5ss\n' "${_phase_names[$i]}" "${_phase_secs[$i]}"
  done
  if [[ -n "$_phase_current" ]]; then
    printf '%-32s %5ss  FAILED (exit %s)\n' "$_phase_current" "$((SECONDS - _phase_started))" "$status"
  fi
  # Background phases still running when CI stops (a foreground phase failed) are ended with it.
  local name
  for name in "${!_bg_pid[@]}"; do
    kill "${_bg_pid["$name"]}" 2>/dev/null || true
  done
  rm -rf "$_bg_dir"
  printf '%-32s %5ss\n' "total" "$((SECONDS - _run_started))"
  if [[ $status -eq 0 ]]; then echo "ci: passed"; else echo "ci: FAILED in phase '${_phase_current:-?}'"; fi
}
trap _phase_report EXIT
