#!/bin/sh
# A pg_dump of the site's database into BACKUP_DIR, in pg_restore's custom format, named by its time; dumps
# older than BACKUP_KEEP_DAYS are removed. DATABASE_URL (or DATABASE_URL_FILE) says which database; keep its
# password out of it (and so out of `ps`) in the sh user's ~/.pgpass or PGPASSFILE.
set -eu
umask 077  # the dump holds every game's secrets
url="${DATABASE_URL:-}"
if [ -z "$url" ] && [ -n "${DATABASE_URL_FILE:-}" ]; then url="$(cat "$DATABASE_URL_FILE")"; fi
[ -n "$url" ] || { echo "backup.sh: DATABASE_URL is not set" >&2; exit 2; }
dir="${BACKUP_DIR:?BACKUP_DIR is not set}"
mkdir -p "$dir"
file="$dir/sh-moderator-$(date -u +%Y%m%dT%H%M%SZ).dump"
trap 'rm -f "$file.partial"' EXIT
pg_dump --format=custom --no-owner --file="$file.partial" "$url"
mv "$file.partial" "$file"
find "$dir" -name 'sh-moderator-*.dump' -mtime +"${BACKUP_KEEP_DAYS:-14}" -delete
echo "backup.sh: $file"
