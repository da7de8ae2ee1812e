# Sourced by ./mvnw: makes sure Maven runs on a JDK new enough for MOST (--release 25).
# Keeps JAVA_HOME when it already points at JDK >= 25; otherwise picks the newest
# JDK >= 25 under /usr/lib/jvm (or MOST_JDK_SEARCH_PATH). Prints what to install if none.
most_required_jdk=25

most_jdk_feature() { # prints the feature version of the JDK at $1, or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)
  [ -n "$v" ] || v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  printf '%s' "$v"
}

most_current=$(most_jdk_feature "${JAVA_HOME:-/nonexistent}")
if [ -z "$most_current" ] || [ "$most_current" -lt "$most_required_jdk" ]; then
  most_best= ; most_best_v=0
  set +f # mvnw runs with globbing off
  for most_dir in ${MOST_JDK_SEARCH_PATH:-/usr/lib/jvm}/*; do
    most_v=$(most_jdk_feature "$most_dir")
    if [ -n "$most_v" ] && [ "$most_v" -ge "$most_required_jdk" ] && [ "$most_v" -gt "$most_best_v" ]; then
      most_best=$most_dir; most_best_v=$most_v
    fi
  done
  set -f
  if [ -z "$most_best" ]; then
    echo "MOST needs a JDK >= $most_required_jdk and found none (JAVA_HOME='${JAVA_HOME-}', searched ${MOST_JDK_SEARCH_PATH:-/usr/lib/jvm})." >&2
    echo "Install one, e.g. Eclipse Temurin 25 ('apt-get install temurin-25-jdk' from the Adoptium apt repository)" >&2
    echo "or any OpenJDK 25 build, then set JAVA_HOME to it or place it under /usr/lib/jvm." >&2
    exit 1
  fi
  JAVA_HOME=$most_best
  export JAVA_HOME
fi
