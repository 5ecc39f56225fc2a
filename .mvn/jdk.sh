# Finds a JDK 21 or newer for ./mvnw and ./agora, so both work on a machine whose default java is older: sourced by
# both (POSIX sh). Looks at JAVA_HOME, then the java on the PATH, then the usual JVM folders (the newest JDK there
# wins), and exports JAVA_HOME; where there is none, says what to install and exits.
#
# Why a script of our own: the Maven Toolchains plugin's JDK discovery (select-jdk-toolchain) picks a JDK for the
# compiler and the tests only, while Maven itself, the Spotless formatter and the processes that tests start would
# still run on the old default java; the wrapper has no JDK selection of its own.

agora_jdk_minimum=21

# The major version of the JDK at $1 (from its release file, else from java -version), or nothing.
agora_jdk_major() {
  if [ -r "$1/release" ]; then
    agora_v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$1/release")
  elif [ -x "$1/bin/java" ]; then
    agora_v=$("$1/bin/java" -version 2>&1 | sed -n '1s/[^"]*"\([0-9][0-9]*\).*/\1/p')
  else
    agora_v=
  fi
  case "$agora_v" in '' | *[!0-9]*) return 1 ;; esac
  printf %s "$agora_v"
}

# Whether $1 is a JDK (javac beside java) of at least the minimum version.
agora_jdk_fits() {
  [ -n "$1" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  agora_m=$(agora_jdk_major "$1") || return 1
  [ "$agora_m" -ge "$agora_jdk_minimum" ]
}

agora_find_jdk() {
  if agora_jdk_fits "${JAVA_HOME-}"; then return 0; fi
  # mvnw runs with globbing off (set -f); the folders below need it.
  case $- in *f*) agora_noglob=true; set +f ;; *) agora_noglob=false ;; esac
  agora_found=
  agora_path_java=$(command -v java 2>/dev/null || :)
  if [ -n "$agora_path_java" ]; then
    agora_home=$(dirname "$(dirname "$(readlink -f "$agora_path_java" 2>/dev/null || printf %s "$agora_path_java")")")
    if agora_jdk_fits "$agora_home"; then agora_found=$agora_home; fi
  fi
  if [ -z "$agora_found" ]; then
    agora_best=0
    for agora_home in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /usr/local/opt/openjdk*/libexec/openjdk.jdk/Contents/Home \
      /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
      [ -d "$agora_home" ] && [ ! -L "$agora_home" ] || continue
      agora_jdk_fits "$agora_home" || continue
      agora_m=$(agora_jdk_major "$agora_home")
      if [ "$agora_m" -gt "$agora_best" ]; then agora_best=$agora_m; agora_found=$agora_home; fi
    done
  fi
  if [ "$agora_noglob" = true ]; then set -f; fi
  if [ -z "$agora_found" ]; then
    {
      echo "Agora needs a JDK $agora_jdk_minimum or newer, and none was found (JAVA_HOME: ${JAVA_HOME:-not set}; java on the PATH: ${agora_path_java:-none}${agora_path_java:+, version $(agora_jdk_major "$(dirname "$(dirname "$(readlink -f "$agora_path_java")")")" || echo unknown)})."
      echo "Install one, then run this again:"
      echo "  Debian/Ubuntu:  sudo apt-get install openjdk-21-jdk      (or Temurin 25: https://adoptium.net/installation/linux/)"
      echo "  Fedora/RHEL:    sudo dnf install java-21-openjdk-devel"
      echo "  macOS:          brew install openjdk@21"
      echo "  SDKMAN:         sdk install java 25-tem"
      echo "It is found in /usr/lib/jvm and the other usual folders, or set JAVA_HOME to it."
    } >&2
    exit 1
  fi
  if [ -n "${JAVA_HOME-}" ]; then
    echo "JAVA_HOME ($JAVA_HOME) is not a JDK $agora_jdk_minimum+; using $agora_found" >&2
  fi
  JAVA_HOME=$agora_found
  export JAVA_HOME
}

agora_find_jdk
