#!/usr/bin/env bash
# Installs libfaketime, the LD_PRELOAD library through which the partitions nemesis steps ONE instance's clock
# (perf's `partitions` experiment and PartitionsScheduleTest: the `clock` fault). Debian's package is downloaded
# (`apt-get download`, nothing is installed system-wide) and its library copied into a folder of the project's own,
# .tools/libfaketime/ (git-ignored), unless LIBFAKETIME_DIR says otherwise. Prints the library's path on its last
# line. Does nothing but print it when it is already there.
#
#   .ci/install-libfaketime.sh
#   LIBFAKETIME_DIR=/opt/faketime .ci/install-libfaketime.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${LIBFAKETIME_DIR:-$PWD/.tools/libfaketime}
lib="$dir/libfaketime.so.1"
if [ -f "$lib" ]; then
  echo "$lib"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "apt-get and dpkg-deb are needed to fetch Debian's libfaketime" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current folder; the package lists may need a refresh first.
if ! (cd "$work" && apt-get download -q libfaketime >/dev/null 2>&1); then
  apt-get update -qq >/dev/null
  (cd "$work" && apt-get download -q libfaketime >/dev/null)
fi
dpkg-deb -x "$work"/libfaketime_*.deb "$work/root"
found=$(find "$work/root" -name libfaketime.so.1 -print -quit)
if [ -z "$found" ]; then
  echo "Debian's libfaketime package holds no libfaketime.so.1" >&2
  exit 1
fi
mkdir -p "$dir"
cp "$found" "$lib.tmp"
mv "$lib.tmp" "$lib"
echo "$lib"
