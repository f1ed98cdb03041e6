#!/usr/bin/env bash
# README command 1: set up what is missing, build the site, serve it on 127.0.0.1.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/setup.sh
bash scripts/build.sh
PORT="${PORT:-8080}"
echo "GroupScope: http://127.0.0.1:$PORT/"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
