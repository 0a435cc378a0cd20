#!/usr/bin/env bash
# make release-test: what make dist and make image built. The archives:
# their SHA-256 sums check, each holds a static binary of its
# architecture that says its version. The images, without a container
# runtime (none starts on these machines): each docker archive in dist/
# is unpacked; its config must run homologa as a non-root user, expose
# 8080, keep /data as a volume, carry CA certificates and a HEALTHCHECK
# through the binary; the amd64 root filesystem's entrypoint is run under
# chroot as that user until it answers a request, and its HEALTHCHECK
# command says healthy; the arm64 binary is run under qemu when
# qemu-user-static is installed. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "release-test: FAIL: $*" >&2; exit 1; }
shopt -s nullglob
archives=(dist/homologa_*_linux_*.tar.gz)
[ ${#archives[@]} -ge 2 ] || fail "no amd64 and arm64 archives in dist/: run make dist"
(cd dist && sha256sum --quiet -c SHA256SUMS) || fail "dist/SHA256SUMS does not check"
for archive in "${archives[@]}"; do
  python3 - "$archive" <<'PY' || fail "$archive: not a static binary of its architecture"
import io, struct, sys, tarfile
path = sys.argv[1]
arch = path.rsplit("_", 1)[1].split(".")[0]
with tarfile.open(path) as t:
    m = next(m for m in t.getmembers() if m.name.endswith("/homologa"))
    elf = t.extractfile(m).read()
assert elf[:4] == b"\x7fELF" and elf[4] == 2, "not a 64-bit ELF"
machine = struct.unpack_from("<H", elf, 18)[0]
assert machine == {"amd64": 62, "arm64": 183}[arch], "machine %d for %s" % (machine, arch)
phoff, = struct.unpack_from("<Q", elf, 32)
phentsize, phnum = struct.unpack_from("<HH", elf, 54)
types = [struct.unpack_from("<I", elf, phoff + i * phentsize)[0] for i in range(phnum)]
assert 3 not in types, "it names a dynamic loader (PT_INTERP): not static"
assert 2 not in types, "it has a dynamic section (PT_DYNAMIC): not static"
PY
done
echo "release-test: the archives' sums check; each holds a static binary of its architecture"
images=(dist/homologa_*_image_*.tar)
[ ${#images[@]} -gt 0 ] || fail "no image in dist/: run make image"
chroot=$(command -v chroot)
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

for image in "${images[@]}"; do
  arch=$(basename "$image" .tar | sed -E 's/.*_image_//')
  dir="$work/$arch"; root="$dir/rootfs"
  mkdir -p "$dir" "$root"
  tar -xf "$image" -C "$dir"
  # The docker archive's manifest names the config and the layers.
  read -r config layers < <(python3 -c '
import json,sys
m=json.load(open(sys.argv[1]))[0]
print(m["Config"], " ".join(m["Layers"]))' "$dir/manifest.json")
  python3 - "$dir/$config" "$arch" <<'PY' || fail "$image: its config"
import json, sys
c = json.load(open(sys.argv[1])); arch = sys.argv[2]
cfg = c["config"]
def want(ok, what):
    if not ok:
        print("release-test: config:", what, json.dumps(cfg, indent=1), file=sys.stderr); sys.exit(1)
want(c.get("architecture") == arch, "architecture %s" % c.get("architecture"))
want(cfg.get("User") == "65532:65532", "a non-root user")
want("8080/tcp" in (cfg.get("ExposedPorts") or {}), "EXPOSE 8080")
want("/data" in (cfg.get("Volumes") or {}), "a /data volume")
want(cfg.get("Entrypoint") == ["/homologa"] and cfg.get("Cmd") == ["serve"], "ENTRYPOINT /homologa serve")
want((cfg.get("Healthcheck") or {}).get("Test") == ["CMD", "/homologa", "health"], "HEALTHCHECK /homologa health")
env = dict(e.split("=", 1) for e in cfg.get("Env", []))
want(env.get("HOMOLOGA_ADDR") == "0.0.0.0:8080" and env.get("HOMOLOGA_PUBLIC_URL", "").startswith("http"), "HOMOLOGA_ADDR on every interface, with HOMOLOGA_PUBLIC_URL")
want(env.get("HOMOLOGA_DB") == "/data/homologa.db", "the database in /data")
PY
  for layer in $layers; do tar -xf "$dir/$layer" -C "$root"; done
  [ -x "$root/homologa" ] || fail "$image: no /homologa"
  [ -s "$root/etc/ssl/certs/ca-certificates.crt" ] || fail "$image: no CA certificates"
  grep -q '^homologa:x:65532:65532:' "$root/etc/passwd" || fail "$image: no user 65532"
  [ "$(stat -c %u "$root/data")" = 65532 ] || fail "$image: /data is not the user's"
  size=$(stat -c %s "$image")
  echo "release-test: $image: config, user, certificates and /data as built; $((size / 1024 / 1024)) MiB"

  if [ "$arch" = amd64 ]; then
    [ "$(id -u)" = 0 ] || fail "running the image's entrypoint under chroot needs root"
    port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
    # The image's own environment, on loopback: a test sends nothing
    # beyond this machine.
    env -i HOMOLOGA_ADDR="127.0.0.1:$port" HOMOLOGA_PUBLIC_URL="http://127.0.0.1:$port" HOMOLOGA_DB=/data/homologa.db \
      SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt HOME=/data \
      "$chroot" --userspec=65532:65532 "$root" /homologa serve > "$work/serve.log" 2>&1 &
    pid=$!
    ok=""
    for _ in $(seq 1 100); do
      if env -i HOMOLOGA_ADDR="127.0.0.1:$port" "$chroot" --userspec=65532:65532 "$root" /homologa health >/dev/null 2>&1; then ok=1; break; fi
      sleep 0.1
    done
    [ -n "$ok" ] || { cat "$work/serve.log" >&2; fail "the entrypoint did not answer its HEALTHCHECK"; }
    curl -fsS -H 'Accept: application/json' "http://127.0.0.1:$port/" | grep -q '"apis"' || fail "GET / did not answer the index"
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    [ -s "$root/data/homologa.db" ] || fail "no database in /data"
    echo "release-test: $image: the entrypoint under chroot as 65532 answered GET / and its HEALTHCHECK; its database is in /data"
    env -i "$chroot" --userspec=65532:65532 "$root" /homologa version
  elif command -v qemu-aarch64-static >/dev/null && [ "$arch" = arm64 ]; then
    qemu-aarch64-static "$root/homologa" version || fail "the arm64 binary does not run under qemu"
    echo "release-test: $image: the arm64 binary runs (qemu-aarch64-static)"
  else
    echo "release-test: $image: not run (install qemu-user-static to run the $arch binary)"
  fi
done

# docs/hosting.md's release blocks, verbatim, where a reader has the
# archives and SHA256SUMS (a copy of dist/): the guide's commands cannot
# rot (TestDocCommands runs the guide's other blocks).
guide="$work/guide"; mkdir -p "$guide"
cp dist/*.tar.gz dist/SHA256SUMS "$guide/"
python3 - docs/hosting.md > "$work/guide.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```sh release\n(.*?)^```", text, re.S | re.M)
assert blocks, "docs/hosting.md has no release block"
print("set -euo pipefail")
for b in blocks:
    print(b)
PY
(cd "$guide" && bash "$work/guide.sh") > "$work/guide.log" 2>&1 || { cat "$work/guide.log" >&2; fail "docs/hosting.md's release blocks"; }
grep -q '^homologa ' "$work/guide.log" || { cat "$work/guide.log" >&2; fail "docs/hosting.md's release blocks did not print the version"; }
echo "release-test: docs/hosting.md's release blocks ran: $(grep '^homologa ' "$work/guide.log")"
