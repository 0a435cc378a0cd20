#!/usr/bin/env bash
# make dist: static Linux binaries of homologa for amd64 and arm64, each
# in a tar.gz with the README, and SHA256SUMS beside them.
# SQLite is cgo: each architecture is linked statically by its own C
# cross compiler (gcc for amd64, aarch64-linux-gnu-gcc for arm64, Debian's
# gcc-aarch64-linux-gnu and libc6-dev-arm64-cross).
set -euo pipefail
cd "$(dirname "$0")/.."

version="${VERSION:-$(git describe --tags --exact-match 2>/dev/null || echo "0.1.0-dev.$(git rev-parse --short HEAD 2>/dev/null || echo unknown)")}"
commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
out=dist
rm -rf "$out" && mkdir -p "$out"

for arch in amd64 arm64; do
  cc=gcc
  [ "$arch" = arm64 ] && cc=aarch64-linux-gnu-gcc
  command -v "$cc" >/dev/null || { echo "dist: $cc is missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2; exit 1; }
  name="homologa_${version}_linux_${arch}"
  mkdir -p "$out/$name"
  # netgo and osusergo keep glibc's NSS out of a static binary; the
  # SQLite extension loader needs dlopen, which a static binary lacks.
  CGO_ENABLED=1 GOOS=linux GOARCH="$arch" CC="$cc" go build -trimpath -buildvcs=false \
    -tags 'netgo osusergo sqlite_omit_load_extension' \
    -ldflags "-s -w -linkmode external -extldflags -static \
      -X homologa/simulator/server.Version=$version \
      -X homologa/simulator/server.Commit=$commit \
      -X homologa/simulator/server.BuildDate=$date" \
    -o "$out/$name/homologa" ./simulator/cmd/homologa
  cp README.md "$out/$name/"
  tar -C "$out" -czf "$out/$name.tar.gz" "$name"
  echo "dist: $out/$name.tar.gz"
done
(cd "$out" && sha256sum ./*.tar.gz > SHA256SUMS)
cat "$out/SHA256SUMS"
