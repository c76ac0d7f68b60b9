#!/bin/sh
# compose.yaml's `basebackup` service: a base backup of PostgreSQL now and every BASEBACKUP_EVERY_HOURS
# (pg_basebackup, compressed, with the WAL it needs), the last BASEBACKUP_KEEP kept. With the archived
# WAL in /wal-archive/wal (archive_command) any moment since the oldest kept base backup can be restored
# (docs/deploy.md, "Point-in-time recovery").
set -eu
every=$(( ${BASEBACKUP_EVERY_HOURS:-24} * 3600 ))
keep=${BASEBACKUP_KEEP:-7}
mkdir -p /wal-archive/base
while true; do
  dir=/wal-archive/base/$(date -u +%Y%m%dT%H%M%SZ)
  if pg_basebackup -h postgres -U kutu -D "$dir.partial" -Ft -z -X stream -c fast; then
    mv "$dir.partial" "$dir"
    echo "base backup $dir: $(du -sh "$dir" | cut -f1)"
    # The oldest base backups beyond the last $keep, and WAL older than the oldest one kept.
    ls -1d /wal-archive/base/*Z | head -n -"$keep" | xargs -r rm -rf
    oldest=$(ls -1d /wal-archive/base/*Z | head -n 1)
    find /wal-archive/wal -type f ! -newer "$oldest" -delete
  else
    rm -rf "$dir.partial"
    echo "base backup failed; trying again in 10 minutes" >&2
    sleep 600
    continue
  fi
  sleep "$every"
done
