#!/usr/bin/env bash
# Offline checks of the Kubernetes manifests, run by .ci/run before the Maven build (no cluster needed):
#   1. every overlay builds with `kubectl kustomize` (or a standalone kustomize);
#   2. kubernetes/validator, a small Go program of this repository, checks each built overlay: every built-in object
#      decodes strictly into its k8s.io/api type, every custom resource passes the schema of its CRD, and the objects
#      agree with one another (references, selectors, ports, probes, secrets, replica lists);
#   3. the edge's HAProxy configuration passes `haproxy -c` and keeps the compose edge's rules.
# Installs kubectl (apt) and haproxy (apt) when missing, as root; builds the validator with Go, whose modules come
# from the Go module proxy. Without Go, or without the proxy, step 2 is skipped, saying so.
set -euo pipefail

k8s_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(dirname "${k8s_dir}")"
cd "${repo_root}"

VALIDATOR_BUILD_SECONDS=${VALIDATOR_BUILD_SECONDS:-300}
overlays=(local production)

log() { printf '[kubernetes/validate] %s\n' "$*"; }
fail() { printf '[kubernetes/validate] FAILED: %s\n' "$*" >&2; exit 1; }

apt_updated=false
apt_install() {
  local package=$1
  [[ $(id -u) -eq 0 ]] || return 1
  if [[ ${apt_updated} == false ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
    apt_updated=true
  fi
  log "installing ${package} (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${package}" >/dev/null
}

# kustomize as kubectl embeds it; Debian's own kubernetes-client (1.20) embeds a kustomize too old for these files,
# so a kubectl that cannot build the base is not used.
kustomize_build() {
  if [[ -n ${kustomize_bin:-} ]]; then "${kustomize_bin}" build "$1"; else kubectl kustomize "$1"; fi
}
if ! command -v kubectl >/dev/null 2>&1; then
  apt_install kubectl 2>/dev/null || apt_install kubernetes-client || true
fi
if command -v kubectl >/dev/null 2>&1 && kubectl kustomize "${k8s_dir}/base" >/dev/null 2>&1; then
  log "building overlays with kubectl $(kubectl version --client 2>/dev/null | head -1)"
elif command -v kustomize >/dev/null 2>&1; then
  kustomize_bin=$(command -v kustomize)
  log "building overlays with $(kustomize version 2>/dev/null)"
else
  fail "no kubectl (1.21 or newer) or kustomize to build the overlays: install kubectl (apt-get install kubectl from the Kubernetes package repository) or kustomize"
fi

built_dir=$(mktemp -d)
trap 'rm -rf "${built_dir}"' EXIT
for overlay in "${overlays[@]}"; do
  kustomize_build "${k8s_dir}/overlays/${overlay}" > "${built_dir}/${overlay}.yaml" \
    || fail "overlay ${overlay} does not build"
  log "overlay ${overlay}: $(grep -c '^kind:' "${built_dir}/${overlay}.yaml") objects"
done

# Go: on the PATH, or where this machine's image puts it.
go_bin=$(command -v go || true)
[[ -n ${go_bin} || ! -x /usr/local/go/bin/go ]] || go_bin=/usr/local/go/bin/go
if [[ -z ${go_bin} ]]; then
  log "WARNING: no Go here (looked on the PATH and in /usr/local/go): the validator was NOT run;"
  log "WARNING: only kustomize checked the manifests. Install Go 1.26 or newer to run it."
else
  validator_dir="${k8s_dir}/validator"
  sources_hash=$(cat "${validator_dir}"/go.mod "${validator_dir}"/go.sum "${validator_dir}"/*.go "${validator_dir}"/schemas/*.json \
    | sha256sum | cut -c1-16)
  validator="${XDG_CACHE_HOME:-${HOME}/.cache}/agora/k8s-validator-${sources_hash}"
  if [[ ! -x ${validator} ]]; then
    log "building kubernetes/validator ($("${go_bin}" version | cut -d' ' -f3); k8s.io/api from the Go module proxy; at most ${VALIDATOR_BUILD_SECONDS}s)"
    status=0
    (cd "${validator_dir}" && timeout "${VALIDATOR_BUILD_SECONDS}" "${go_bin}" mod download) || status=$?
    if [[ ${status} -eq 0 ]]; then
      (cd "${validator_dir}" && timeout "${VALIDATOR_BUILD_SECONDS}" "${go_bin}" test -count=1 ./... >/dev/null \
        && timeout "${VALIDATOR_BUILD_SECONDS}" "${go_bin}" build -mod=readonly -o "${validator}" .) || status=$?
      if [[ ${status} -eq 124 ]]; then
        log "WARNING: building the validator took too long (a later run continues from Go's caches): NOT run this time"
        validator=""
      elif [[ ${status} -ne 0 ]]; then
        fail "kubernetes/validator does not build or its tests fail (cd kubernetes/validator && go test ./...)"
      fi
    else
      log "WARNING: could not download the validator's Go modules (offline?): the validator was NOT run"
      validator=""
    fi
  fi
  if [[ -n ${validator} ]]; then
    for overlay in "${overlays[@]}"; do
      (cd "${built_dir}" && "${validator}" -secrets "${k8s_dir}/secrets.txt" "${overlay}.yaml") \
        || fail "overlay ${overlay} does not pass the validator"
    done
  fi
fi

command -v haproxy >/dev/null 2>&1 || apt_install haproxy || fail "haproxy is missing and could not be installed"
log "edge (haproxy -c, and the compose edge's rules)"
if ! haproxy_report=$(haproxy -c -f "${k8s_dir}/base/edge/haproxy.cfg" 2>&1); then
  printf '%s\n' "${haproxy_report}" >&2
  fail "kubernetes/base/edge/haproxy.cfg is not valid"
fi
# The same defaults and public rules as compose: only the lines that take the client address, scheme and port from
# the Ingress controller may differ.
rules() { sed -n '/^defaults/,/^backend frontends/p' "$1" | grep -v -e 'set-src hdr_ip(X-Forwarded-For,-1)' \
  -e '# In Kubernetes the edge sits behind' -e '# (network-policies.yaml): the client' \
  -e 'set-header X-Forwarded-Proto http$' -e 'set-header X-Forwarded-Port %\[dst_port\]$' \
  -e '# In Kubernetes the Ingress controller terminates TLS'; }
if ! diff <(rules docker/haproxy/haproxy.cfg) <(rules "${k8s_dir}/base/edge/haproxy.cfg") >&2; then
  fail "kubernetes/base/edge/haproxy.cfg and docker/haproxy/haproxy.cfg disagree on the edge's rules (diff above)"
fi

log "all checks passed"
