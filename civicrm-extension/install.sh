#!/usr/bin/env bash
# Installs (or refreshes) the checkin_middleware extension on a CiviCRM site.
#
#   install.sh <site-root> <civicrm-url> <api-key>
#
# <site-root>: the folder holding the site's extensions folder `ext/` (Standalone: the site root;
#   other CMSs: pass the parent of the extensions directory set in Administer » System Settings »
#   Directories, or copy the folder yourself and pass "-" to skip the copy).
# <civicrm-url>: e.g. https://crm.example.org (Standalone/Drupal URL form).
# <api-key>: an API key of a user holding "administer CiviCRM" (sent as X-Civi-Auth: Bearer).
# Optional: CIVICRM_SITE_KEY (sent as X-Civi-Key). Idempotent: copying over an installed copy
# updates its code; installing an installed extension is a no-op.
set -euo pipefail

if [ $# -ne 3 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
site=$1 url=${2%/} key=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

changed=0
copy() { # copy <dest>: replace an earlier copy of this extension (never another folder), so files
  # removed from the extension do not linger.
  local dest=$1
  if [ -e "$dest" ]; then
    grep -q 'key="checkin_middleware"' "$dest/info.xml" 2>/dev/null \
      || { echo "install.sh: $dest exists and is not this extension; left alone" >&2; exit 1; }
    rm -rf "$dest"
  fi
  mkdir -p "$dest"
  # Only the extension itself: its tests stay in the repository.
  (cd "$here" && tar --exclude=./tests -cf - .) | (cd "$dest" && tar -xf -)
  echo "copied the extension to $dest"
  changed=1
}

if [ "$site" != "-" ]; then
  [ -d "$site" ] || { echo "install.sh: no site folder $site" >&2; exit 1; }
  [ -d "$site/ext" ] || { echo "install.sh: $site has no ext/ folder (pass the folder that holds the extensions folder)" >&2; exit 1; }
  dest="$site/ext/checkin_middleware"
  if [ -e "$dest" ] && diff -rq -x tests "$here" "$dest" >/dev/null 2>&1; then
    echo "the copy in $dest is up to date"
  else
    copy "$dest"
  fi
fi

headers=(-H "X-Civi-Auth: Bearer $key" -H 'X-Requested-With: XMLHttpRequest')
[ -n "${CIVICRM_SITE_KEY:-}" ] && headers+=(-H "X-Civi-Key: $CIVICRM_SITE_KEY")

call() {
  local out status
  out=$(curl -sS -m 180 -w '\n%{http_code}' -X POST "$url/$1" "${headers[@]}" "${@:2}")
  status=${out##*$'\n'}
  out=${out%$'\n'*}
  if [ "$status" != 200 ]; then
    echo "install.sh: $1 answered HTTP $status: ${out:0:300}" >&2
    exit 1
  fi
  printf '%s' "$out"
}
# APIv4's Extension entity only has `get` (5.81 and 6.14): installing goes through APIv3, which
# answers HTTP 200 with is_error set when it fails.
api3() {
  local out
  out=$(call civicrm/ajax/rest --data-urlencode "entity=Extension" --data-urlencode "action=$1" --data-urlencode "json=$2")
  case "$out" in
    *'"is_error":0'*) ;;
    *) echo "install.sh: APIv3 Extension.$1 failed: ${out:0:300}" >&2; exit 1 ;;
  esac
}

extension_status() {
  call civicrm/ajax/api4/Extension/get \
    --data-urlencode 'params={"select":["key","status","version"],"where":[["key","=","checkin_middleware"]]}'
}

# A new folder is only seen after the extension list is refreshed.
api3 refresh '{"local":1,"remote":0}'
before=$(extension_status)
case "$changed:$before" in
  # Installing an installed extension does nothing (slowly): when its code changed, clear
  # CiviCRM's caches (class index, menu, container) instead so that the new code takes effect.
  1:*'"status":"installed"'*)
    echo "flushing CiviCRM's caches for the updated code"
    call civicrm/ajax/api4/System/flush --data-urlencode 'params={}' >/dev/null
    # Pending schema steps of the new code (CRM_CheckinMiddleware_Upgrader), as the Extensions page's "upgrade" does.
    call civicrm/ajax/rest --data-urlencode "entity=Extension" --data-urlencode "action=upgrade" --data-urlencode "json={}" >/dev/null
    ;;
  *'"status":"installed"'*) ;;
  *) api3 install '{"keys":"checkin_middleware"}' ;;
esac
status=$(extension_status)
case "$status" in
  *'"status":"installed"'*) echo "checkin_middleware installed: $status" ;;
  *) echo "install.sh: the extension is not installed: $status" >&2; exit 1 ;;
esac
