#!/usr/bin/env bash
# Installs what the e2e tier needs: code-server 4.104.0 (VS Code 1.104) and Debian's Chromium, through
# ../shared/scripts/setup-vscode-e2e.sh (offline-safe; it apt-installs chromium, ripgrep and libkrb5-dev).
# The folder is $HALLUPROBE_E2E_PREFIX (default ~/.cache/vscode-e2e) — the one variable .ci/run, this script
# and the tests (test/e2e/support/code-server.ts) honour.
# Safe to run again, and twice at once: installs are serialised by a lock beside the folder, and each goes
# into a temporary folder that is renamed into place only when complete, so a damaged or half-written folder
# is replaced, never used. Prints the code-server entry script on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
script="${HALLUPROBE_E2E_INSTALLER:-../shared/scripts/setup-vscode-e2e.sh}"
if [ ! -f "$script" ]; then
  echo "e2e setup: $script not found (the e2e tier needs ../shared beside the repository)" >&2
  exit 1
fi
prefix="${HALLUPROBE_E2E_PREFIX:-$HOME/.cache/vscode-e2e}"
prefix="${prefix%/}"
entry="$prefix/node_modules/code-server/out/node/entry.js"
complete() { [ -f "$1/node_modules/code-server/out/node/entry.js" ] && [ -d "$1/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin" ]; }

mkdir -p "$(dirname "$prefix")"
exec 9>"$prefix.lock"
flock 9
if complete "$prefix"; then
  # Chromium and the other apt packages may still be missing on this machine: the installer adds only those.
  bash "$script" "$prefix" >/dev/null
  echo "$entry"
  exit 0
fi
tmp="$(mktemp -d "$prefix.installing.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# code-server's installer runs under the system Node and warns that it overrides its required version; the
# workbench itself runs on the bundled Node 22, so that warning is replaced by one line saying so.
bash "$script" "$tmp" >/dev/null 2> >(grep -v -e 'Overriding required Node.js version' -e 'USE AT YOUR OWN RISK' -e 'EBADENGINE' >&2)
echo "e2e setup: code-server installed with the system Node; it runs on the bundled Node 22 (node_modules/.bin/node)." >&2
complete "$tmp" || { echo "e2e setup: the install in $tmp is incomplete" >&2; exit 1; }
# code-server resolves its files relative to its entry script, so the finished folder can move into place.
old=""
if [ -e "$prefix" ]; then old="$prefix.damaged.$$"; mv "$prefix" "$old"; fi
mv "$tmp" "$prefix"
trap - EXIT
[ -z "$old" ] || rm -rf "$old"
echo "$entry"
