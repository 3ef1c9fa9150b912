#!/usr/bin/env bash
# The action's run step: moat -p with the action's inputs, in the checkout.
# Sets the outputs (result, session_id, cost_usd, branch), writes the step
# summary, exports the session for the artifact, and exits with moat's code.
# Tokens the runner holds are taken out of moat's environment: the agent and
# whatever it starts never see them.
set -euo pipefail

fail() {
  echo "::error title=moat::$1"
  exit 1
}

moat="${MOAT_BIN:-moat}"
# Every moat command runs without the runner's tokens.
clean_moat() {
  env -u GITHUB_TOKEN -u GH_TOKEN -u INPUT_GITHUB_TOKEN \
    -u ACTIONS_RUNTIME_TOKEN -u ACTIONS_RUNTIME_URL -u ACTIONS_RESULTS_URL -u ACTIONS_CACHE_URL \
    -u ACTIONS_ID_TOKEN_REQUEST_TOKEN -u ACTIONS_ID_TOKEN_REQUEST_URL \
    "$moat" "$@"
}
[ -n "${INPUT_PROMPT:-}" ] || fail "the input prompt is empty"
args=(-p "$INPUT_PROMPT" --output-format json)
[ -z "${INPUT_MODEL:-}" ] || args+=(--model "$INPUT_MODEL")
[ -z "${INPUT_PERMISSION_MODE:-}" ] || args+=(--permission-mode "$INPUT_PERMISSION_MODE")
[ -z "${INPUT_MAX_TURNS:-}" ] || args+=(--max-turns "$INPUT_MAX_TURNS")
[ -z "${INPUT_MAX_BUDGET_USD:-}" ] || args+=(--max-budget-usd "$INPUT_MAX_BUDGET_USD")
# One rule a line: rules hold commas and spaces themselves (Bash(git diff:*)).
rules=()
while IFS= read -r rule; do
  rule="${rule#"${rule%%[![:space:]]*}"}"
  rule="${rule%"${rule##*[![:space:]]}"}"
  [ -z "$rule" ] || rules+=("$rule")
done <<<"${INPUT_ALLOWED_TOOLS:-}"
[ ${#rules[@]} -eq 0 ] || args+=(--allowedTools "${rules[@]}")
case "${INPUT_WORKTREE:-false}" in
  true) args+=(--worktree) ;;
  false | '') ;;
  *) fail "worktree is true or false, not \"$INPUT_WORKTREE\"" ;;
esac

out="${RUNNER_TEMP:?RUNNER_TEMP is not set}/moat-result-$$.json"
set +e
clean_moat "${args[@]}" </dev/null >"$out"
code=$?
set -e

line="$(tail -n 1 "$out")"
if ! jq -e 'type == "object" and .type == "result"' >/dev/null 2>&1 <<<"$line"; then
  fail "moat -p exited $code without a result (its error is in the log above)"
fi
result="$(jq -r '.result' <<<"$line")"
# A failed run's result is its error line (max turns, budget…).
[ "$(jq -r '.is_error' <<<"$line")" != true ] || result="$(jq -r '[.error, (.errors // [])[], .subtype] | map(select(. != null and . != "")) | first' <<<"$line")"
session="$(jq -r '.session_id' <<<"$line")"
cost="$(jq -r '.total_cost_usd' <<<"$line")"
branch="$(jq -r '.worktree.branch // ""' <<<"$line")"

# Multi-line values go in a heredoc whose delimiter the text cannot guess.
delimiter="moat_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
{
  printf 'result<<%s\n%s\n%s\n' "$delimiter" "$result" "$delimiter"
  echo "session_id=$session"
  echo "cost_usd=$cost"
  echo "branch=$branch"
} >>"$GITHUB_OUTPUT"

sessions="$RUNNER_TEMP/moat-session-$session"
mkdir -p "$sessions"
if clean_moat sessions export "$session" --format json >"$sessions/$session.json" &&
  clean_moat sessions export "$session" --format markdown >"$sessions/$session.md"; then
  echo "session_dir=$sessions" >>"$GITHUB_OUTPUT"
else
  echo "::warning title=moat::could not export session $session"
fi

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### moat"
    echo
    echo "$result"
    echo
    echo "<sub>session \`$session\` · \$$cost${branch:+ · branch \`$branch\`} · exit $code</sub>"
  } >>"$GITHUB_STEP_SUMMARY"
fi
exit "$code"
