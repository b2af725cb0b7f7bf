#!/usr/bin/env bash
# Installs the providers' own libraries that tests/it/contracts/differential.rs judges our verifier against:
# a Python virtualenv in target/differential/venv (requirements.txt) and Node packages in
# target/differential/node (package.json + package-lock.json, via npm ci). Pinned, so a new
# release cannot change a verdict under us. Idempotent: when the installed set matches the pins
# (a stamp holds their checksum) it returns at once. Needs python3 (with venv) and npm, and the
# package registries.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${IDEM_DIFFERENTIAL_DIR:-$root/target/differential}"
stamp="$out/installed.stamp"
want="$(cat "$here/requirements.txt" "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$out/venv/bin/python" && -d "$out/node/node_modules" ]]; then
    exit 0
fi

for tool in python3 npm; do
    command -v "$tool" >/dev/null || { echo "setup.sh: $tool is needed to install the reference libraries" >&2; exit 1; }
done
mkdir -p "$out"
rm -f "$stamp"

echo "== differential: Python reference libraries into $out/venv" >&2
[[ -x "$out/venv/bin/python" ]] || python3 -m venv "$out/venv"
"$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"

echo "== differential: Node reference libraries into $out/node" >&2
mkdir -p "$out/node"
cp "$here/package.json" "$here/package-lock.json" "$out/node/"
npm ci --prefix "$out/node" --silent --no-audit --no-fund --ignore-scripts

echo "$want" > "$stamp"
