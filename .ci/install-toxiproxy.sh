#!/usr/bin/env bash
# Installs Toxiproxy's server, the TCP proxy that the partition tests and `agora-perf run partitions` put between
# services and between services and PostgreSQL (launcher/README.md, "Links through Toxiproxy"). It is built from the
# Go module proxy, so it needs Go (found on the PATH or in /usr/local/go) and nothing else; the binary is named
# `server`. Prints the binary's path on its last line. Does nothing but print it when it is already installed.
#
#   .ci/install-toxiproxy.sh            # installs into $(go env GOPATH)/bin unless TOXIPROXY_BIN_DIR says otherwise
#   TOXIPROXY_BIN_DIR=/opt/bin .ci/install-toxiproxy.sh
set -euo pipefail
version=v2.12.0
go=$(command -v go || true)
if [ -z "$go" ] && [ -x /usr/local/go/bin/go ]; then go=/usr/local/go/bin/go; fi
if [ -z "$go" ]; then
  echo "Go is not installed (https://go.dev/doc/install): Toxiproxy's server cannot be built" >&2
  exit 1
fi
bin_dir=${TOXIPROXY_BIN_DIR:-$("$go" env GOPATH)/bin}
server="$bin_dir/server"
# The binary's own -version says "git" for module installs; the module version is in its build information.
if [ -x "$server" ] && "$go" version -m "$server" 2>/dev/null | grep -q "github.com/Shopify/toxiproxy/v2[[:space:]]*$version"; then
  echo "$server"
  exit 0
fi
mkdir -p "$bin_dir"
GOBIN="$bin_dir" "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@$version"
"$server" -version >&2 || true
echo "$server"
