#!/usr/bin/env bash
# The action's last step: posts moat's result as a comment on the pull request
# or issue the event is about, through the GitHub REST API with the workflow's
# token (only this step has it). comment: auto posts on pull request and issue
# events, true on any event that names one, false never.
set -euo pipefail

fail() {
  echo "::error title=moat comment::$1"
  exit 1
}

mode="${INPUT_COMMENT:-auto}"
case "$mode" in
  false) exit 0 ;;
  auto)
    case "${GITHUB_EVENT_NAME:-}" in
      pull_request | pull_request_target | issue_comment | issues | pull_request_review_comment) ;;
      *) exit 0 ;;
    esac
    ;;
  true) ;;
  *) fail "comment is auto, true or false, not \"$mode\"" ;;
esac

number="$(jq -r '.pull_request.number // .issue.number // empty' "${GITHUB_EVENT_PATH:?GITHUB_EVENT_PATH is not set}")"
if [ -z "$number" ]; then
  [ "$mode" = true ] && fail "the ${GITHUB_EVENT_NAME:-} event names no pull request or issue to comment on"
  exit 0
fi
[ -n "${GITHUB_TOKEN:-}" ] || fail "no token to comment with (the input github_token is empty)"

# GitHub refuses comments over 65536 characters.
body="$(jq -n --arg result "$RESULT" --arg session "$SESSION_ID" --arg cost "$COST_USD" --arg branch "${BRANCH:-}" '
  ($result | if length > 60000 then .[0:60000] + "\n\n… (cut; the whole result is in the session artifact)" else . end) as $text
  | { body: ($text + "\n\n<sub>moat · session `" + $session + "` · $" + $cost + (if $branch == "" then "" else " · branch `" + $branch + "`" end) + "</sub>") }')"
url="${GITHUB_API_URL:-https://api.github.com}/repos/${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}/issues/$number/comments"
response="$(curl -fsS --retry 2 -X POST "$url" \
  -H "Authorization: Bearer $GITHUB_TOKEN" \
  -H 'Accept: application/vnd.github+json' \
  -H 'X-GitHub-Api-Version: 2022-11-28' \
  --data-binary @- <<<"$body")" || fail "POST $url failed"
comment_url="$(jq -r '.html_url // empty' <<<"$response")"
echo "comment_url=$comment_url" >>"$GITHUB_OUTPUT"
echo "commented on #$number: $comment_url"
