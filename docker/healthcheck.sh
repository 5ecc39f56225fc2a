#!/usr/bin/env bash
# Container health probe of the Agora service images: asks this container's readiness probe, /readyz on the
# service port (actuator's readiness group, also there when actuator itself moved to a management port), and
# succeeds only on HTTP 200 (readiness answers 503 while the service is starting or out of service).
# Plain bash over /dev/tcp because the JRE base image ships neither curl nor wget, and installing one in
# every image just for this would enlarge them and widen their attack surface.
set -euo pipefail

port="${PORT:?PORT is not set}"
path="${1:-/readyz}"

exec 3<>"/dev/tcp/127.0.0.1/${port}"
printf 'GET %s HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' "${path}" >&3
# A frozen process still accepts connections in the kernel; the read timeout catches it.
if ! read -r -t 3 _ status _ <&3; then
  echo "no answer from 127.0.0.1:${port}${path}"
  exit 1
fi
echo "${path}: HTTP ${status}"
[[ "${status}" == 200 ]]
