#!/usr/bin/env bash
# The GPU machine reaches no package registry, and its image lacks some of the Debian packages
# Jet builds with. This fetches them here into .deps/ (ignored by git); name .deps in the
# device tool's `carry`, and scripts/gpu-check.sh builds with them.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(nlohmann-json3-dev libzip-dev libzip4)
rm -rf .deps
mkdir -p .deps/debs .deps/root
(cd .deps/debs && apt-get download "${packages[@]}")
for deb in .deps/debs/*.deb; do dpkg-deb -x "$deb" .deps/root; done
rm -rf .deps/debs .deps/root/usr/share/doc
echo "device-deps: ${packages[*]} in .deps/root"
