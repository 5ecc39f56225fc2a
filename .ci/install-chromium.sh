#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and its matching driver for the frontend's browser tests
# (Selenium drives /usr/bin/chromium through /usr/bin/chromedriver; nothing is downloaded at test time).
# Does nothing when both are present. Needs root (or sudo) and apt.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
run_as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}
export DEBIAN_FRONTEND=noninteractive
run_as_root apt-get update -qq
run_as_root apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core
chromium --version
chromedriver --version
