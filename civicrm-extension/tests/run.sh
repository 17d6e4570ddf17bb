#!/usr/bin/env bash
# End-to-end checks of the checkin_middleware extension against a running CiviCRM, over HTTP.
#
# Settings (environment):
#   CIVICRM_URL          e.g. http://127.0.0.1:8400 (required)
#   CIVICRM_SITE         the site root holding ext/ (required: the extension is copied there)
#   CIVICRM_API_KEY      API key of an administrator (required)
#   CIVICRM_ADMIN_USER   UI login of an administrator holding "access uploaded files" (required)
#   CIVICRM_ADMIN_PASS   its password (required)
#   CIVICRM_EXPECT_TIMEZONE  optional: the zone CheckinMiddleware.info must answer (e.g. America/Chicago)
#
# The run sets the extension's file link key (checkin_middleware_file_link_key) to a test value.
# Installs the extension (idempotent), then checks uploads, the file route, the cleanup job, the
# setting and the info action. It runs the cleanup job with age_hours=0, which removes every
# unattached upload of the service on that site: use a test site. Prints "N passed, N failed".
set -uo pipefail

for v in CIVICRM_URL CIVICRM_SITE CIVICRM_API_KEY CIVICRM_ADMIN_USER CIVICRM_ADMIN_PASS; do
  [ -n "${!v:-}" ] || { echo "tests/run.sh: set $v" >&2; echo "0 passed, 1 failed"; exit 2; }
done
command -v jq >/dev/null || { echo "tests/run.sh: needs jq" >&2; echo "0 passed, 1 failed"; exit 2; }

URL=${CIVICRM_URL%/}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EXT=$(dirname "$HERE")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
AUTH=(-H "X-Civi-Auth: Bearer $CIVICRM_API_KEY" -H 'X-Requested-With: XMLHttpRequest')
MARK=(-H 'X-Checkin-Content-Encoding: base64')
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); local d=${2:-}; echo "FAIL $1${d:+: ${d:0:400}}"; }
check() { # check <name> <command...>: the command's status decides
  local name=$1; shift
  if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name" "${DETAIL:-}"; fi
  DETAIL=""
}
DETAIL=""

# api4 <entity> <action> <params-json> [curl args...]: sets STATUS and BODY.
api4() {
  local entity=$1 action=$2 params=$3; shift 3
  printf 'params=' >"$WORK/form"
  printf '%s' "$params" | jq -sRr @uri >>"$WORK/form"
  local out
  out=$(curl -sS -m 120 -w '\n%{http_code}' -X POST "$URL/civicrm/ajax/api4/$entity/$action" "${AUTH[@]}" "$@" \
    -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "@$WORK/form")
  STATUS=${out##*$'\n'}
  BODY=${out%$'\n'*}
}

# api3 <entity> <action> <json>: sets BODY (APIv3 answers 200 with is_error).
api3() {
  BODY=$(curl -sS -m 120 -X POST "$URL/civicrm/ajax/rest" "${AUTH[@]}" \
    --data-urlencode "entity=$1" --data-urlencode "action=$2" --data-urlencode "json=$3")
}

# upload <file> <name> <mime> [curl args...]: File.create with the file's base64 content.
upload() {
  local file=$1 name=$2 mime=$3; shift 3
  jq -n --arg n "$name" --arg m "$mime" --rawfile c <(base64 -w0 "$file") \
    '{values: {file_name: $n, mime_type: $m, content: $c}}' >"$WORK/params.json"
  api4 File create "$(cat "$WORK/params.json")" "$@"
}

# sign <id> [expires]: the service's signature of a file link (HMAC-SHA256 with FILE_LINK_KEY).
FILE_LINK_KEY=checkin-ext-test-file-link-key-0123456789abcdef
sign() {
  printf 'checkin-file:%s:%s' "$1" "$2" | openssl dgst -sha256 -hmac "$FILE_LINK_KEY" | awk '{print $NF}'
}
# fetch <id> [cookie jar] [query]: GET the extension's file route, by default through a link the
# service would sign (an hour ahead); sets STATUS, saves headers and body.
fetch() {
  local jar=() query=${3:-}
  [ -n "${2:-}" ] && jar=(-b "$2")
  if [ -z "$query" ]; then
    local expires=$(($(date +%s) + 3600))
    query="id=$1&expires=$expires&signature=$(sign "$1" "$expires")"
  fi
  STATUS=$(curl -sS -m 60 "${jar[@]}" -D "$WORK/headers" -o "$WORK/body" -w '%{http_code}' \
    "$URL/civicrm/checkin-file?$query")
}
header() { grep -i "^$1:" "$WORK/headers" | head -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//'; }

# --- fixtures: a real PDF (with bytes outside ASCII) and a real 1×1 PNG ---------------------
{
  printf '%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n'
  printf '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n'
  printf '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n'
  printf 'trailer<</Root 1 0 R>>\n%%%%EOF\n'
} >"$WORK/study.pdf"
printf '%s' 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' \
  | base64 -d >"$WORK/dot.png"

# --- install (twice: it must be idempotent) ---------------------------------------------------
check "install.sh installs the extension" "$EXT/install.sh" "$CIVICRM_SITE" "$URL" "$CIVICRM_API_KEY"
check "install.sh again is harmless" "$EXT/install.sh" "$CIVICRM_SITE" "$URL" "$CIVICRM_API_KEY"

# --- info -------------------------------------------------------------------------------------
api4 CheckinMiddleware info '{}'
info_ok() {
  DETAIL="HTTP $STATUS $BODY"
  [ "$STATUS" = 200 ] || return 1
  local version
  version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$EXT/info.xml")
  jq -e --arg v "$version" '.values | length == 1 and .[0].extension_version == $v
    and (.[0].civicrm_version | test("^[0-9]+\\.[0-9]+"))
    and (.[0].timezone | test("^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$"))' <<<"$BODY" >/dev/null
}
check "CheckinMiddleware.info answers the versions and a zone" info_ok
CIVI_VERSION=$(jq -r '.values[0].civicrm_version // "0"' <<<"$BODY")
ZONE=$(jq -r '.values[0].timezone // ""' <<<"$BODY")
echo "     CiviCRM $CIVI_VERSION, time zone $ZONE"
if [ -n "${CIVICRM_EXPECT_TIMEZONE:-}" ]; then
  DETAIL="answered $ZONE"
  check "info's timezone is $CIVICRM_EXPECT_TIMEZONE" test "$ZONE" = "$CIVICRM_EXPECT_TIMEZONE"
fi
CIVI_MAJOR=${CIVI_VERSION%%.*}

# --- file links: the signing key, and a File field on organizations that holds the fixtures ---
api4 Setting set "{\"values\":{\"checkin_middleware_file_link_key\":\"$FILE_LINK_KEY\"}}"
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "setting checkin_middleware_file_link_key is set" test "$STATUS" = 200
api4 CustomGroup get '{"select":["id"],"where":[["name","=","Checkin_ext_org"]]}'
if [ "$(jq '.values | length' <<<"$BODY")" = 0 ]; then
  api4 CustomGroup create '{"values":{"name":"Checkin_ext_org","title":"Check-in extension test (organization)","extends":"Organization","style":"Inline"}}'
  api4 CustomField create '{"values":{"custom_group_id:name":"Checkin_ext_org","name":"Document","label":"Document","data_type":"File","html_type":"File"}}'
fi
# org_holding <file id>: a new organization holding the file in its File field; sets ORG_ID.
org_holding() {
  api4 Contact create "{\"values\":{\"contact_type\":\"Organization\",\"organization_name\":\"Ext test co-op $1\",\"Checkin_ext_org.Document\":$1}}"
  ORG_ID=$(jq -r '.values[0].id // empty' <<<"$BODY")
}

# --- marked uploads store the decoded bytes -------------------------------------------------
upload "$WORK/study.pdf" 'market study.pdf' application/pdf "${MARK[@]}"
PDF_ID=$(jq -r '.values[0].id // empty' <<<"$BODY" 2>/dev/null)
DETAIL="HTTP $STATUS ${BODY:0:300}"
check "marked PDF upload answers checkin_content_decoded and the stored name" \
  jq -e '.values[0].checkin_content_decoded == true and .values[0].file_name == "market_study.pdf"
    and (.values[0].id | type == "number")' <<<"$BODY"
upload "$WORK/dot.png" 'dot.png' image/png "${MARK[@]}"
PNG_ID=$(jq -r '.values[0].id // empty' <<<"$BODY" 2>/dev/null)
DETAIL="HTTP $STATUS ${BODY:0:300}"
check "marked PNG upload answers checkin_content_decoded" \
  jq -e '.values[0].checkin_content_decoded == true and .values[0].file_name == "dot.png"' <<<"$BODY"

api4 File create '{"values":{"file_name":"bad.pdf","mime_type":"application/pdf","content":"JVBERi0*"}}' "${MARK[@]}"
DETAIL="HTTP $STATUS"
check "marked upload with invalid base64 is an API error" test "$STATUS" -ge 400
api4 File create '{"values":{"file_name":"bad.pdf","mime_type":"application/pdf","content":"JVBERi0"}}' "${MARK[@]}"
DETAIL="HTTP $STATUS"
check "marked upload with unpadded base64 is an API error" test "$STATUS" -ge 400
api4 File create "{\"values\":{\"id\":$PDF_ID,\"file_name\":\"x.pdf\",\"mime_type\":\"application/pdf\",\"content\":\"JVBERi0=\"}}" "${MARK[@]}"
DETAIL="HTTP $STATUS"
check "a marked File.create cannot overwrite an existing file (id given)" test "$STATUS" -ge 400
api4 File create '{"values":{"file_name":"x.pdf","mime_type":"application/pdf","content":"JVBERi0="}}' \
  -H 'X-Checkin-Content-Encoding: gzip'
DETAIL="HTTP $STATUS"
check "an encoding other than base64 is an API error" test "$STATUS" -ge 400

# --- a marked File.create never writes where the caller chose --------------------------------
api4 File get "{\"select\":[\"uri\"],\"where\":[[\"id\",\"=\",$PNG_ID]]}"
PNG_URI=$(jq -r '.values[0].uri // empty' <<<"$BODY")
api4 File create "{\"values\":{\"file_name\":\"x.pdf\",\"mime_type\":\"application/pdf\",\"uri\":\"$PNG_URI\",\"content\":\"JVBERi0=\"}}" "${MARK[@]}"
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "a marked File.create naming an existing file's uri is refused" \
  eval '[ "$STATUS" -ge 400 ] && grep -q "refused: uri" <<<"$BODY"'
api4 File create '{"values":{"file_name":".htaccess","mime_type":"text/plain","uri":".htaccess","content":"RGVueSBmcm9tIGFsbA=="}}' "${MARK[@]}"
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "a marked File.create with uri .htaccess is refused" test "$STATUS" -ge 400
api4 File create '{"values":{"file_name":".htaccess","mime_type":"text/plain","content":"RGVueSBmcm9tIGFsbA=="}}' "${MARK[@]}"
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "a marked File.create named .htaccess (a dot-name) is refused" test "$STATUS" -ge 400
for extra in '"is_public":true' '"description":"x"' '"move_file":"/etc/passwd"' '"created_id":1'; do
  api4 File create "{\"values\":{\"file_name\":\"x.pdf\",\"mime_type\":\"application/pdf\",\"content\":\"JVBERi0=\",$extra}}" "${MARK[@]}"
  DETAIL="HTTP $STATUS ${BODY:0:200}"
  check "a marked File.create with ${extra%%:*} is refused" test "$STATUS" -ge 400
done
upload "$WORK/study.pdf" 'market study.pdf' application/pdf "${MARK[@]}"
SAME_NAME_URI=$(jq -r '.values[0].uri // empty' <<<"$BODY")
SAME_NAME_ID=$(jq -r '.values[0].id // empty' <<<"$BODY")
api4 File get "{\"select\":[\"uri\"],\"where\":[[\"id\",\"=\",$PDF_ID]]}"
DETAIL="first $(jq -r '.values[0].uri' <<<"$BODY"), second $SAME_NAME_URI"
check "two marked uploads of the same name get different stored names" \
  eval '[ -n "$SAME_NAME_URI" ] && [ "$SAME_NAME_URI" != "$(jq -r ".values[0].uri" <<<"$BODY")" ]'

# --- unmarked uploads keep stock behaviour ---------------------------------------------------
upload "$WORK/study.pdf" 'plain upload.pdf' application/pdf
PLAIN_ID=$(jq -r '.values[0].id // empty' <<<"$BODY" 2>/dev/null)
DETAIL="HTTP $STATUS ${BODY:0:300}"
check "unmarked upload is created without the extension's flag" \
  jq -e '(.values[0].id | type == "number") and (.values[0] | has("checkin_content_decoded") | not)' <<<"$BODY"

# --- the file route -------------------------------------------------------------------------
org_holding "$PDF_ID"; PDF_ORG=$ORG_ID
org_holding "$PNG_ID"
org_holding "$PLAIN_ID"
UNATTACHED_ID=$SAME_NAME_ID
fetch "$PDF_ID"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses a visitor who is not logged in (403 JSON)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".statusCode == 403 and .code == \"NOT_LOGGED_IN\"" "$WORK/body" >/dev/null'

JAR=$WORK/cookies
login() { # login <jar> <user> <password>: 6.x standaloneusers takes `identifier`, 5.81 `username`
  local field out=""
  for field in identifier username; do
    jq -n --arg f "$field" --arg u "$2" --arg p "$3" '{($f): $u, password: $p}' >"$WORK/login.json"
    out=$(curl -sS -m 60 -c "$1" -b "$1" -X POST "$URL/civicrm/ajax/api4/User/login" \
      -H 'X-Requested-With: XMLHttpRequest' --data-urlencode "params@$WORK/login.json")
    if jq -e '.values.url' <<<"$out" >/dev/null 2>&1; then return 0; fi
  done
  DETAIL=${out:0:200}
  return 1
}
check "admin logs in at /civicrm/login (User.login)" login "$JAR" "$CIVICRM_ADMIN_USER" "$CIVICRM_ADMIN_PASS"

fetch "$PDF_ID" "$JAR"
DETAIL="HTTP $STATUS $(header Content-Type) $(header Content-Disposition)"
check "route serves the PDF's exact bytes to a logged-in admin" \
  eval '[ "$STATUS" = 200 ] && cmp -s "$WORK/body" "$WORK/study.pdf"'
check "route sends the PDF's type and name" \
  eval '[ "$(header Content-Type)" = application/pdf ] && header Content-Disposition | grep -q "filename=\"market_study.pdf\""'
fetch "$PNG_ID" "$JAR"
DETAIL="HTTP $STATUS $(header Content-Type)"
check "route serves the PNG's exact bytes with image/png" \
  eval '[ "$STATUS" = 200 ] && cmp -s "$WORK/body" "$WORK/dot.png" && [ "$(header Content-Type)" = image/png ]'

fetch "$PLAIN_ID" "$JAR"
if [ "$CIVI_MAJOR" -ge 6 ]; then
  DETAIL="HTTP $STATUS"
  check "unmarked upload on $CIVI_VERSION is stored as sent (base64 text: stock)" \
    eval '[ "$STATUS" = 200 ] && [ "$(cat "$WORK/body")" = "$(base64 -w0 "$WORK/study.pdf")" ]'
else
  DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
  check "unmarked upload on $CIVI_VERSION has no content (stock)" \
    eval '[ "$STATUS" = 404 ] && jq -e ".code == \"FILE_CONTENT_MISSING\"" "$WORK/body" >/dev/null'
fi
fetch 2147483000 "$JAR"
DETAIL="HTTP $STATUS"
check "route answers 404 JSON for an unknown id" \
  eval '[ "$STATUS" = 404 ] && jq -e ".code == \"FILE_NOT_FOUND\"" "$WORK/body" >/dev/null'
fetch "1%20OR%201" "$JAR"
DETAIL="HTTP $STATUS"
check "route answers 400 JSON for a malformed id" \
  eval '[ "$STATUS" = 400 ] && jq -e ".code == \"BAD_FILE_ID\"" "$WORK/body" >/dev/null'

# --- only signed, unexpired links to check-in files ---------------------------------------------
fetch "$PDF_ID" "$JAR" "id=$PDF_ID"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses an unsigned link, even to an administrator (403 LINK_NOT_SIGNED)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".code == \"LINK_NOT_SIGNED\"" "$WORK/body" >/dev/null'
EXP=$(($(date +%s) + 3600))
fetch "$PNG_ID" "$JAR" "id=$PNG_ID&expires=$EXP&signature=$(sign "$PDF_ID" "$EXP")"
DETAIL="HTTP $STATUS"
check "route refuses another file's signature" test "$STATUS" = 403
fetch "$PDF_ID" "$JAR" "id=$PDF_ID&expires=$((EXP + 1))&signature=$(sign "$PDF_ID" "$EXP")"
DETAIL="HTTP $STATUS"
check "route refuses a link whose expiry was changed" test "$STATUS" = 403
PAST=$(($(date +%s) - 60))
fetch "$PDF_ID" "$JAR" "id=$PDF_ID&expires=$PAST&signature=$(sign "$PDF_ID" "$PAST")"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses an expired link (403 LINK_EXPIRED)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".code == \"LINK_EXPIRED\"" "$WORK/body" >/dev/null'
fetch "$UNATTACHED_ID" "$JAR"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses a file no organization or activity holds, signed or not (404)" test "$STATUS" = 404

# --- rotation with overlap (docs/rotating-secrets.md): the previous key until its instant --------
NEW_FILE_LINK_KEY=checkin-ext-test-file-link-key-rotated-0123456789
signed_query() { # signed_query <id> <key>: a link an hour ahead signed with <key>
  local expires=$(($(date +%s) + 3600))
  printf 'id=%s&expires=%s&signature=%s' "$1" "$expires" \
    "$(printf 'checkin-file:%s:%s' "$1" "$expires" | openssl dgst -sha256 -hmac "$2" | awk '{print $NF}')"
}
rotate_file_link_key() { # rotate_file_link_key <until>: new key current, the test key previous until <until>
  api4 Setting set "$(jq -cn --arg k "$NEW_FILE_LINK_KEY" --arg p "$FILE_LINK_KEY" --arg u "$1" \
    '{values:{checkin_middleware_file_link_key:$k,checkin_middleware_file_link_key_previous:$p,checkin_middleware_file_link_key_previous_until:$u}}')"
}
rotate_file_link_key "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)"
fetch "$PDF_ID" "$JAR" "$(signed_query "$PDF_ID" "$FILE_LINK_KEY")"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "rotated key: a link the previous key signed opens until its instant" test "$STATUS" = 200
fetch "$PDF_ID" "$JAR" "$(signed_query "$PDF_ID" "$NEW_FILE_LINK_KEY")"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "rotated key: a link the new key signed opens" test "$STATUS" = 200
rotate_file_link_key "$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%SZ)"
fetch "$PDF_ID" "$JAR" "$(signed_query "$PDF_ID" "$FILE_LINK_KEY")"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "rotated key: after the instant the previous key's link is refused (403 LINK_NOT_SIGNED)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".code == \"LINK_NOT_SIGNED\"" "$WORK/body" >/dev/null'
api4 Setting set "$(jq -cn --arg k "$FILE_LINK_KEY" \
  '{values:{checkin_middleware_file_link_key:$k,checkin_middleware_file_link_key_previous:"",checkin_middleware_file_link_key_previous_until:""}}')"

# --- a user without "access uploaded files" (Standalone users and roles) -------------------------
# Its role holds only what an API user needs to call the API: "access AJAX API" and
# "authenticate with api key" (the test instances use authx's `perm` guard).
LIMITED_USER=checkin_ext_limited LIMITED_PASS=limited-pass-0123456 LIMITED_KEY=checkin-ext-limited-012345
LIMITED_PERMS='["access AJAX API","authenticate with api key"]'
api4 Role get '{"select":["id"],"where":[["name","=","checkin_ext_limited"]]}'
ROLE_ID=$(jq -r '.values[0].id // empty' <<<"$BODY")
if [ -z "$ROLE_ID" ]; then
  api4 Role create "{\"values\":{\"name\":\"checkin_ext_limited\",\"label\":\"Check-in extension test (limited)\",\"permissions\":$LIMITED_PERMS}}"
  ROLE_ID=$(jq -r '.values[0].id // empty' <<<"$BODY")
fi
api4 User get "{\"select\":[\"id\"],\"where\":[[\"username\",\"=\",\"$LIMITED_USER\"]]}"
if [ "$(jq '.values | length' <<<"$BODY" 2>/dev/null)" = 0 ]; then
  api4 Contact create "{\"values\":{\"contact_type\":\"Individual\",\"first_name\":\"Limited\",\"last_name\":\"Checkin ext\",\"api_key\":\"$LIMITED_KEY\"}}"
  LIMITED_CID=$(jq -r '.values[0].id' <<<"$BODY")
  # actorPassword: Standalone asks for the acting administrator's password to set another's.
  jq -n --arg u "$LIMITED_USER" --arg p "$LIMITED_PASS" --argjson c "$LIMITED_CID" --argjson r "$ROLE_ID" \
    --arg a "$CIVICRM_ADMIN_PASS" \
    '{values: {username: $u, password: $p, contact_id: $c, roles: [$r], is_active: true, uf_name: "limited@example.org"}, actorPassword: $a}' \
    >"$WORK/user.json"
  api4 User create "$(cat "$WORK/user.json")"
fi
DETAIL="role $ROLE_ID: $BODY"
check "fixture: a Standalone user whose role lacks \"access uploaded files\"" test -n "$ROLE_ID"
LJAR=$WORK/limited-cookies
check "that user logs in" login "$LJAR" "$LIMITED_USER" "$LIMITED_PASS"
fetch "$PDF_ID" "$LJAR"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses a logged-in user without \"access uploaded files\" (403 JSON)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".code == \"PERMISSION_DENIED\"" "$WORK/body" >/dev/null'

api4 Role update "{\"values\":{\"permissions\":[\"access AJAX API\",\"authenticate with api key\",\"access CiviCRM\",\"access uploaded files\"]},\"where\":[[\"id\",\"=\",$ROLE_ID]]}"
LJAR2=$WORK/limited-cookies-2
login "$LJAR2" "$LIMITED_USER" "$LIMITED_PASS"
fetch "$PDF_ID" "$LJAR2"
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "route refuses a user holding \"access uploaded files\" who may not see the owning organization (403)" \
  eval '[ "$STATUS" = 403 ] && jq -e ".code == \"CONTACT_NOT_ALLOWED\"" "$WORK/body" >/dev/null'
api4 Role update "{\"values\":{\"permissions\":$LIMITED_PERMS},\"where\":[[\"id\",\"=\",$ROLE_ID]]}"

limited_info() {
  STATUS=$(curl -sS -m 60 -o "$WORK/body" -w '%{http_code}' -X POST "$URL/civicrm/ajax/api4/CheckinMiddleware/info" \
    -H "X-Civi-Auth: Bearer $LIMITED_KEY" -H 'X-Requested-With: XMLHttpRequest')
}
limited_info
DETAIL="HTTP $STATUS $(head -c 200 "$WORK/body")"
check "info answers an API user holding only \"access AJAX API\"" \
  eval '[ "$STATUS" = 200 ] && jq -e ".values[0].timezone | length > 0" "$WORK/body" >/dev/null'
api4 Role update "{\"values\":{\"permissions\":[\"authenticate with api key\"]},\"where\":[[\"id\",\"=\",$ROLE_ID]]}"
limited_info
DETAIL="HTTP $STATUS"
check "info refuses an API user with neither \"access CiviCRM\" nor \"access AJAX API\"" test "$STATUS" = 403
api4 Role update "{\"values\":{\"permissions\":$LIMITED_PERMS},\"where\":[[\"id\",\"=\",$ROLE_ID]]}"

# --- setting and scheduled job ---------------------------------------------------------------
api4 Setting get '{"select":["checkin_middleware_unattached_file_days"]}'
DETAIL="$BODY"
check "setting checkin_middleware_unattached_file_days exists (a whole number of days)" \
  jq -e '.values[0].name == "checkin_middleware_unattached_file_days" and (.values[0].value | type == "number")' <<<"$BODY"
api4 Job get '{"select":["name","run_frequency","is_active"],"where":[["api_entity","=","Job"],["api_action","=","checkin_cleanup_files"]]}'
DETAIL="$BODY"
check "the cleanup job is a daily scheduled job" \
  jq -e '.values | length == 1 and .[0].run_frequency == "Daily" and .[0].is_active == true' <<<"$BODY"

# Fixtures: A unattached service upload, B service upload in a File custom field, C service
# upload attached through civicrm_entity_file, D unmarked upload.
# A is uploaded while the admin's own time zone is 11 hours behind UTC: CiviCRM then sets the
# database session to that offset, and an upload time kept in that clock would look 11 hours old
# to a job run in UTC. The admin's zone is restored right after.
api4 User get "{\"select\":[\"id\",\"timezone\"],\"where\":[[\"username\",\"=\",\"$CIVICRM_ADMIN_USER\"]]}"
ADMIN_UID=$(jq -r '.values[0].id' <<<"$BODY")
ADMIN_TZ=$(jq -c '.values[0].timezone' <<<"$BODY")
api4 User update "{\"values\":{\"timezone\":\"Pacific/Pago_Pago\"},\"where\":[[\"id\",\"=\",$ADMIN_UID]]}"
api4 CheckinMiddleware info '{}'
DETAIL="$BODY"
check "info answers the API user's own time zone when the account has one (Standalone)" \
  jq -e '.values[0].timezone == "Pacific/Pago_Pago"' <<<"$BODY"
upload "$WORK/study.pdf" 'a.pdf' application/pdf "${MARK[@]}"
A_ID=$(jq -r '.values[0].id' <<<"$BODY")
api4 User update "{\"values\":{\"timezone\":$ADMIN_TZ},\"where\":[[\"id\",\"=\",$ADMIN_UID]]}"
upload "$WORK/study.pdf" 'b.pdf' application/pdf "${MARK[@]}"
B_ID=$(jq -r '.values[0].id' <<<"$BODY")
upload "$WORK/dot.png" 'c.png' image/png "${MARK[@]}"
C_ID=$(jq -r '.values[0].id' <<<"$BODY")
upload "$WORK/study.pdf" 'd.pdf' application/pdf
D_ID=$(jq -r '.values[0].id' <<<"$BODY")
api4 Contact create "{\"values\":{\"contact_type\":\"Organization\",\"organization_name\":\"Ext test B\",\"Checkin_ext_org.Document\":$B_ID}}"
CONTACT_ID=$(jq -r '.values[0].id' <<<"$BODY")
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "fixture: an organization holds B in a File field" test "$STATUS" = 200
api4 EntityFile create "{\"values\":{\"entity_table\":\"civicrm_contact\",\"entity_id\":$CONTACT_ID,\"file_id\":$C_ID}}"
DETAIL="HTTP $STATUS ${BODY:0:200}"
check "fixture: C is attached through civicrm_entity_file" test "$STATUS" = 200

removed_ids() { jq -c '[.values[]?] | map(tonumber)' <<<"$BODY"; }
api3 Job checkin_cleanup_files '{"age_hours":1}'
DETAIL="$BODY"
check "job with age_hours=1 keeps a fresh unattached upload" \
  jq -e --argjson a "$A_ID" '.is_error == 0 and (.removed | type == "number") and ([.values[]? | tonumber] | index($a) == null)' <<<"$BODY"
api3 Job checkin_cleanup_files '{}'
DETAIL="$BODY"
check "job without parameters uses the setting (days) and keeps a fresh upload" \
  jq -e --argjson a "$A_ID" '.is_error == 0 and .age_hours >= 0 and ([.values[]? | tonumber] | index($a) == null)' <<<"$BODY"
api3 Job checkin_cleanup_files '{"age_hours":-1}'
DETAIL="$BODY"
check "job refuses a negative age" jq -e '.is_error == 1' <<<"$BODY"
api3 Job checkin_cleanup_files '{"age_hours":0}'
DETAIL="$BODY"
check "job with age_hours=0 removes the old unattached service upload and answers the count" \
  jq -e --argjson a "$A_ID" '.is_error == 0 and .removed == (.values | length) and ([.values[] | tonumber] | index($a) != null)' <<<"$BODY"
check "... and none of the attached or unmarked ones" \
  jq -e --argjson b "$B_ID" --argjson c "$C_ID" --argjson d "$D_ID" --argjson p "$UNATTACHED_ID" \
  '[.values[] | tonumber] as $r | ($r | index($b)) == null and ($r | index($c)) == null and ($r | index($d)) == null and ($r | index($p)) != null' <<<"$BODY"
api4 File get "{\"select\":[\"id\"],\"where\":[[\"id\",\"IN\",[$A_ID,$B_ID,$C_ID,$D_ID]]]}"
DETAIL="$BODY"
check "File.get: A is gone, B, C and D remain" \
  jq -e --argjson a "$A_ID" '[.values[].id] as $ids | ($ids | length) == 3 and ($ids | index($a)) == null' <<<"$BODY"
fetch "$A_ID" "$JAR"
DETAIL="HTTP $STATUS"
check "route answers 404 for the removed file" test "$STATUS" = 404
fetch "$B_ID" "$JAR"
DETAIL="HTTP $STATUS"
check "the attached file B still downloads its exact bytes" \
  eval '[ "$STATUS" = 200 ] && cmp -s "$WORK/body" "$WORK/study.pdf"'

# A recorded upload re-pointed at another file (APIv3 File.create {id, uri} works on both
# versions): the job removes the row but never the other file's bytes.
upload "$WORK/study.pdf" 'victim.pdf' application/pdf "${MARK[@]}"
VICTIM_ID=$(jq -r '.values[0].id' <<<"$BODY")
VICTIM_URI=$(jq -r '.values[0].uri' <<<"$BODY")
api4 Contact create "{\"values\":{\"contact_type\":\"Organization\",\"organization_name\":\"Ext test victim\",\"Checkin_ext_org.Document\":$VICTIM_ID}}"
VICTIM_CONTACT=$(jq -r '.values[0].id' <<<"$BODY")
upload "$WORK/dot.png" 'attacker.png' image/png "${MARK[@]}"
REPOINTED_ID=$(jq -r '.values[0].id' <<<"$BODY")
REPOINTED_URI=$(jq -r '.values[0].uri' <<<"$BODY")
api3 File create "{\"id\":$REPOINTED_ID,\"uri\":\"$VICTIM_URI\"}"
api4 File get "{\"select\":[\"uri\"],\"where\":[[\"id\",\"=\",$REPOINTED_ID]]}"
DETAIL="$BODY"
check "fixture: APIv3 File.create re-points a recorded upload at another file" \
  jq -e --arg u "$VICTIM_URI" '.values[0].uri == $u' <<<"$BODY"
api3 Job checkin_cleanup_files '{"age_hours":0}'
DETAIL="$BODY"
check "the job removes the re-pointed upload's row" \
  jq -e --argjson r "$REPOINTED_ID" '.is_error == 0 and ([.values[] | tonumber] | index($r) != null)' <<<"$BODY"
fetch "$VICTIM_ID" "$JAR"
DETAIL="HTTP $STATUS"
check "... and the file it pointed at still downloads its exact bytes" \
  eval '[ "$STATUS" = 200 ] && cmp -s "$WORK/body" "$WORK/study.pdf"'
DETAIL="$REPOINTED_URI"
check "... while the bytes the upload itself wrote are gone" \
  eval '[ -n "$REPOINTED_URI" ] && [ -z "$(find "$CIVICRM_SITE" -name "$REPOINTED_URI" -print -quit)" ]'
api4 Contact delete "{\"where\":[[\"id\",\"=\",$VICTIM_CONTACT]],\"useTrash\":false}"

# --- the scheduled run, as cron does it, with the setting at 0 days ------------------------------
api4 Setting set '{"values":{"checkin_middleware_unattached_file_days":0}}'
upload "$WORK/study.pdf" 'e.pdf' application/pdf "${MARK[@]}"
E_ID=$(jq -r '.values[0].id' <<<"$BODY")
# Due now: a job that never ran runs at the next Job.execute.
api4 Job update '{"values":{"last_run":null},"where":[["api_action","=","checkin_cleanup_files"]]}'
api3 Job execute '{}'
api4 Setting set '{"values":{"checkin_middleware_unattached_file_days":2}}'
api4 File get "{\"select\":[\"id\"],\"where\":[[\"id\",\"IN\",[$E_ID,$B_ID]]]}"
DETAIL="$BODY"
check "Job.execute (cron) runs the job with the setting's age: E (0 days old) is gone, B stays" \
  jq -e --argjson b "$B_ID" '[.values[].id] == [$b]' <<<"$BODY"
api4 JobLog get '{"select":["description"],"where":[["name","=","Remove unattached check-in uploads"]],"orderBy":{"id":"DESC"},"limit":1}'
DETAIL="$BODY"
check "... and logs it in the scheduled job log" \
  jq -e --arg e "$E_ID" '.values[0].description | test("Success") and contains("i:" + $e + ";")' <<<"$BODY"

# --- tidy up what this run attached (the custom group is reused by the next run) ---------------
api4 Contact delete "{\"where\":[[\"id\",\"=\",$CONTACT_ID]],\"useTrash\":false}"

# --- uninstall removes the job and the setting's owner; installing again brings them back -------
api3 Extension disable '{"keys":"checkin_middleware"}'
api3 Extension uninstall '{"keys":"checkin_middleware"}'
DETAIL="$BODY"
check "APIv3 Extension.uninstall works" jq -e '.is_error == 0' <<<"$BODY"
api4 Job get '{"select":["id"],"where":[["api_action","=","checkin_cleanup_files"]]}'
DETAIL="$BODY"
check "uninstalling removes the scheduled job" jq -e '.values | length == 0' <<<"$BODY"
check "install.sh installs it again" "$EXT/install.sh" "$CIVICRM_SITE" "$URL" "$CIVICRM_API_KEY"
api4 Job get '{"select":["id"],"where":[["api_action","=","checkin_cleanup_files"]]}'
DETAIL="$BODY"
check "... with its scheduled job" jq -e '.values | length == 1' <<<"$BODY"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
