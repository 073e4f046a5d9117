#!/usr/bin/env bash
# Installs what the e2e tier needs: code-server 4.104.0 (VS Code 1.104) and Debian's Chromium, through
# ../shared/scripts/setup-vscode-e2e.sh (offline-safe; it apt-installs chromium, ripgrep and libkrb5-dev).
# Safe to run again. Prints the code-server entry script on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
script="../shared/scripts/setup-vscode-e2e.sh"
if [ ! -f "$script" ]; then
  echo "e2e setup: $script not found (the e2e tier needs ../shared beside the repository)" >&2
  exit 1
fi
bash "$script" "${HALLUPROBE_E2E_PREFIX:-$HOME/.cache/vscode-e2e}"
