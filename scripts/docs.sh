#!/usr/bin/env bash
# The API reference: Doxygen over the public headers (docs/Doxyfile), as HTML in build/docs/html,
# or in $JET_DOCS_DIR/html. Fails when Doxygen warns, naming each warning. Installs Doxygen from
# the distribution's packages when it is missing, as jet.sh installs the build's.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v doxygen >/dev/null; then
  echo "docs: installing doxygen"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq doxygen
fi

export JET_DOCS_DIR=${JET_DOCS_DIR:-build/docs}
mkdir -p "$JET_DOCS_DIR"
warnings="$JET_DOCS_DIR/warnings.log"
# Doxygen's own WARN_AS_ERROR stops at the end with a failure; the log also catches warnings of
# a Doxygen too old to know FAIL_ON_WARNINGS.
status=0
doxygen docs/Doxyfile 2>"$warnings" || status=$?
if [ -s "$warnings" ] || [ "$status" -ne 0 ]; then
  cat "$warnings" >&2
  echo "docs: doxygen failed (exit status $status) or warned ($(wc -l <"$warnings") lines above)" >&2
  exit 1
fi
echo "docs: $JET_DOCS_DIR/html/index.html ($(doxygen --version), no warnings)"
