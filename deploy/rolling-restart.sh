#!/bin/sh
# Restart svc nodes run by systemd one after the other, without failing a request:
#   deploy/rolling-restart.sh 8081 8082
# `systemctl restart` returns once the node answers /readyz (svc@.service's ExecStartPost); the
# pause after it lets nginx's fail_timeout (2 s) pass, so nginx has taken the node back before
# the next one drains.
set -eu
for port in "$@"; do
  echo "restarting svc@$port"
  systemctl restart "svc@$port"
  sleep 3
done
