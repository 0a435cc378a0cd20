#!/usr/bin/env bash
# make image: the container image of homologa, FROM scratch (no base image
# is pulled), from the static binaries of make dist: amd64, and arm64 when
# its archive is there. buildah (Debian's package) builds it rootless or as
# root, with the vfs storage driver (no fuse needed); the images are also
# written as docker archives in dist/ (docker load -i …).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v buildah >/dev/null || { echo "image: buildah is missing (apt-get install buildah)" >&2; exit 1; }
ls dist/homologa_*_linux_amd64.tar.gz >/dev/null 2>&1 || ./scripts/dist.sh
version=$(basename dist/homologa_*_linux_amd64.tar.gz | sed -E 's/^homologa_(.*)_linux_amd64\.tar\.gz$/\1/')
# vfs and chroot isolation: no fuse, no user namespaces (the build only
# copies files; nothing runs inside the image).
export STORAGE_DRIVER=vfs BUILDAH_FORMAT=docker BUILDAH_ISOLATION=chroot

for arch in amd64 arm64; do
  archive="dist/homologa_${version}_linux_${arch}.tar.gz"
  [ -f "$archive" ] || { echo "image: no $archive, skipping $arch"; continue; }
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' EXIT
  root="$ctx/rootfs"
  mkdir -p "$root/etc/ssl/certs" "$root/tmp" "$ctx/data"
  tar -xzf "$archive" -C "$ctx"
  install -m 0755 "$ctx/homologa_${version}_linux_${arch}/homologa" "$root/homologa"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
  printf 'root:x:0:0:root:/:/sbin/nologin\nhomologa:x:65532:65532:homologa:/data:/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\nhomologa:x:65532:\n' > "$root/etc/group"
  touch "$ctx/data/.keep"
  chmod 1777 "$root/tmp"
  cp Containerfile "$ctx/"
  buildah bud --quiet --arch "$arch" --format docker -f "$ctx/Containerfile" -t "localhost/homologa:${version}-${arch}" "$ctx" >/dev/null
  rm -f "dist/homologa_${version}_image_${arch}.tar"
  buildah push --quiet "localhost/homologa:${version}-${arch}" "docker-archive:dist/homologa_${version}_image_${arch}.tar:homologa:${version}"
  echo "image: localhost/homologa:${version}-${arch} (dist/homologa_${version}_image_${arch}.tar)"
  rm -rf "$ctx"
  trap - EXIT
done
(cd dist && sha256sum ./*.tar.gz ./*_image_*.tar > SHA256SUMS)
