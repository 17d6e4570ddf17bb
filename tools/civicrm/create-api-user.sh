#!/usr/bin/env bash
# Creates (or updates) the check-in service's API user on a CiviCRM *Standalone* site, for tests:
# a role holding exactly the permissions in api-user-permissions.txt (plus, on CiviCRM 5.x,
# api-user-permissions-5.81.txt), a contact carrying the API key, and a Standalone user tied to both.
# Idempotent: running it again resets the role's permissions and keeps the user's working key.
#
#   CIVICRM_URL=http://127.0.0.1:8400 CIVICRM_API_KEY=<administrator key> API_USER_KEY=<key> \
#     tools/civicrm/create-api-user.sh [--rotate]
#
# API_USER_KEY is the key of a new user. A user who has a key already keeps it: API_USER_KEY must
# then be that key (the service's CRM_API_KEY; docs/civicrm-setup.md reads it from the settings
# file), or the run fixes the role and stops with status 3 without touching the key, so the
# running service goes on working. --rotate (or API_USER_ROTATE=1) replaces the key with
# API_USER_KEY (docs/rotating-secrets.md, "CRM_API_KEY").
#
# Optional: API_USER_NAME (default checkin-api), API_USER_ROLE (default checkin_api),
# API_USER_PERMISSIONS (comma-separated; replaces the documented list, for experiments),
# API_USER_CHECK=0 (skip the final sign-in check, for a role meant to be refused),
# CIVICRM_SITE_KEY (sent as X-Civi-Key). Prints the contact id, user id and role id.
#
# Drupal, WordPress and Backdrop sites create the user and role in the CMS instead
# (docs/civicrm-setup.md); the permissions are the same.
set -euo pipefail

rotate=${API_USER_ROTATE:-0}
for arg in "$@"; do
  case $arg in
    --rotate) rotate=1 ;;
    *) echo "create-api-user.sh: unknown argument $arg (only --rotate)" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
url=${CIVICRM_URL:?set CIVICRM_URL}
url=${url%/}
admin_key=${CIVICRM_API_KEY:?set CIVICRM_API_KEY (an administrator key)}
user_key=${API_USER_KEY:?set API_USER_KEY (the new user key)}
# civicrm_contact.api_key is varchar(32) on 5.81 and 6.14: a longer key is cut short silently,
# and the service's key then never matches.
if [ ${#user_key} -gt 32 ] || [ ${#user_key} -lt 16 ]; then
  echo "create-api-user.sh: API_USER_KEY must be 16 to 32 characters (CiviCRM stores at most 32)" >&2
  exit 2
fi
user_name=${API_USER_NAME:-checkin-api}
role_name=${API_USER_ROLE:-checkin_api}

headers=(-H "X-Civi-Auth: Bearer $admin_key" -H 'X-Requested-With: XMLHttpRequest')
[ -n "${CIVICRM_SITE_KEY:-}" ] && headers+=(-H "X-Civi-Key: $CIVICRM_SITE_KEY")

# One APIv4 call as the administrator; prints the answer's `values`, stops on any error.
api4() {
  local out status
  out=$(curl -sS -m 60 -w '\n%{http_code}' -X POST "$url/civicrm/ajax/api4/$1/$2" "${headers[@]}" \
    --data-urlencode "params=$3")
  status=${out##*$'\n'}
  out=${out%$'\n'*}
  if [ "$status" != 200 ] || ! jq -e '.values | type == "array"' <<<"$out" >/dev/null 2>&1; then
    echo "create-api-user.sh: $1.$2 answered HTTP $status: ${out:0:300}" >&2
    exit 1
  fi
  jq -c '.values' <<<"$out"
}

version=$(api4 Domain get '{"select":["version"],"limit":1}' | jq -r '.[0].version // empty')
if [ -n "${API_USER_PERMISSIONS:-}" ]; then
  permissions=$(jq -cn --arg list "$API_USER_PERMISSIONS" '$list | split(",") | map(gsub("^ +| +$"; "")) | map(select(. != ""))')
else
  lists=("$here/api-user-permissions.txt")
  if [ "${version%%.*}" -lt 6 ] 2>/dev/null; then
    lists+=("$here/api-user-permissions-5.81.txt")
    echo "CiviCRM $version: adding 'administer CiviCRM' (custom field metadata needs it before 6.x)"
  fi
  permissions=$(cat "${lists[@]}" | grep -v '^\s*\(#\|$\)' | jq -R . | jq -cs .)
fi

role_id=$(api4 Role get "$(jq -cn --arg n "$role_name" '{select:["id"],where:[["name","=",$n]]}')" | jq -r '.[0].id // empty')
if [ -z "$role_id" ]; then
  role_id=$(api4 Role create "$(jq -cn --arg n "$role_name" --argjson p "$permissions" \
    '{values:{name:$n,label:"Check-in service API",permissions:$p,is_active:true}}')" | jq -r '.[0].id')
else
  api4 Role update "$(jq -cn --arg id "$role_id" --argjson p "$permissions" \
    '{where:[["id","=",$id]],values:{permissions:$p,is_active:true}}')" >/dev/null
fi

user=$(api4 User get "$(jq -cn --arg n "$user_name" '{select:["id","contact_id"],where:[["username","=",$n]]}')")
user_id=$(jq -r '.[0].id // empty' <<<"$user")
contact_id=$(jq -r '.[0].contact_id // empty' <<<"$user")
if [ -z "$contact_id" ]; then
  contact_id=$(api4 Contact create "$(jq -cn --arg k "$user_key" \
    '{values:{contact_type:"Individual",first_name:"Check-in",last_name:"Service API",api_key:$k}}')" | jq -r '.[0].id')
else
  current_key=$(api4 Contact get "$(jq -cn --arg id "$contact_id" '{select:["api_key"],where:[["id","=",$id]]}')" \
    | jq -r '.[0].api_key // empty')
  if [ -n "$current_key" ] && [ "$current_key" != "$user_key" ] && [ "$rotate" != 1 ]; then
    key_kept=1
  elif [ "$current_key" != "$user_key" ]; then
    api4 Contact update "$(jq -cn --arg id "$contact_id" --arg k "$user_key" \
      '{where:[["id","=",$id]],values:{api_key:$k}}')" >/dev/null
    [ -n "$current_key" ] && echo "API user '$user_name': key replaced (--rotate)"
  fi
fi
# No password: the user signs in with its API key only (5.81 would also want actorPassword).
if [ -z "$user_id" ]; then
  user_id=$(api4 User create "$(jq -cn --arg n "$user_name" --arg c "$contact_id" --arg r "$role_id" \
    '{values:{username:$n,uf_name:($n + "@example.invalid"),contact_id:$c,roles:[$r],is_active:true}}')" | jq -r '.[0].id')
else
  api4 User update "$(jq -cn --arg id "$user_id" --arg r "$role_id" \
    '{where:[["id","=",$id]],values:{roles:[$r],is_active:true}}')" >/dev/null
fi

if [ "${key_kept:-0}" = 1 ]; then
  echo "create-api-user.sh: role '$role_name' updated; the API user '$user_name' keeps its key, which is not API_USER_KEY." >&2
  echo "  Set API_USER_KEY to the key the service uses (CRM_API_KEY in its settings file), or pass --rotate to replace it" >&2
  echo "  (then give the service the new key at once: docs/rotating-secrets.md, \"CRM_API_KEY\")." >&2
  exit 3
fi

# The key must work: one read as the user.
if [ "${API_USER_CHECK:-1}" = 0 ]; then
  echo "API user '$user_name': contact $contact_id, user $user_id, role '$role_name' ($role_id) (sign-in not checked)"
  exit 0
fi
check=$(curl -sS -m 60 -o /dev/null -w '%{http_code}' -X POST "$url/civicrm/ajax/api4/Contact/get" \
  -H "X-Civi-Auth: Bearer $user_key" -H 'X-Requested-With: XMLHttpRequest' \
  ${CIVICRM_SITE_KEY:+-H "X-Civi-Key: $CIVICRM_SITE_KEY"} --data-urlencode 'params={"select":["id"],"limit":1}')
if [ "$check" != 200 ]; then
  echo "create-api-user.sh: the new key is refused (HTTP $check): does the role hold 'authenticate with api key'?" >&2
  exit 1
fi
echo "API user '$user_name': contact $contact_id, user $user_id, role '$role_name' ($role_id) with $(jq length <<<"$permissions") permissions"
