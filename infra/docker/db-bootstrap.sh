#!/bin/sh
# Creates the application role the deployables connect as, once per database, as the owner
# (the RDS master user on AWS, the postgres image's user under compose). `coworkflow migrate`
# then grants that role read/append on the event store; it does not create roles itself.
# Idempotent: it also (re)sets the role's password to APP_DB_PASSWORD, so it runs before every
# migration (deploy.yml) and follows a rotated secret.
#
# Environment: PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD (the owner; libpq reads them),
# APP_DB_USER and APP_DB_PASSWORD (the application role).
set -eu
: "${APP_DB_USER:?APP_DB_USER is required}"
: "${APP_DB_PASSWORD:?APP_DB_PASSWORD is required}"

psql -X -q -v ON_ERROR_STOP=1 -v app_user="$APP_DB_USER" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'app_user')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app_user') \gexec
SELECT format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE', :'app_user') \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), :'app_user') \gexec
SELECT format('GRANT USAGE ON SCHEMA public TO %I', :'app_user') \gexec
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL

# psql's \password hashes the password (SCRAM) on this side, so the statement the server runs,
# and may log, never holds it in clear. Without a terminal it reads the password from stdin.
# (setsid: no controlling terminal even when run by hand; its prompts are dropped unless it fails.)
if ! prompts=$(printf '%s\n%s\n' "$APP_DB_PASSWORD" "$APP_DB_PASSWORD" |
  setsid -w psql -X -q -v ON_ERROR_STOP=1 -c "\\password \"$APP_DB_USER\"" 2>&1 >/dev/null); then
  echo "$prompts" >&2
  exit 1
fi
echo "db-bootstrap: role $APP_DB_USER ready in database $(psql -X -At -c 'SELECT current_database()')"
