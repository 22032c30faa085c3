#!/usr/bin/env bash
# Fails when a C++ source is not what clang-format makes of it under the committed
# .clang-format. The layout is Debian 12's clang-format 14; other versions lay some lines out
# differently, so the check uses that version and installs it when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || true)
if [ -z "$format" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-format-14
  format=$(command -v clang-format-14)
fi
git ls-files '*.cpp' '*.hpp' | xargs "$format" --dry-run --Werror
echo "check-format: $(git ls-files '*.cpp' '*.hpp' | wc -l) files as $("$format" --version | head -1) lays them out"
