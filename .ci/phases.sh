# Phase timing for .ci/run (sourced). `phase NAME CMD...` runs CMD in the current shell (so
# exports carry over) under errexit; the EXIT trap prints every phase's time, and on failure
# names the phase that failed.

declare -a _phase_names=() _phase_secs=()
_phase_current=""
_phase_started=0
_run_started=$SECONDS

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
  printf '%-32s %5ss\n' "total" "$((SECONDS - _run_started))"
  if [[ $status -eq 0 ]]; then echo "ci: passed"; else echo "ci: FAILED in phase '${_phase_current:-?}'"; fi
}
trap _phase_report EXIT
