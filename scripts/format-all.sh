#!/bin/sh
# The one-time formatting pass after Biome was introduced: formats the whole tree and applies
# Biome's safe fixes, then shows what is left to fix by hand and checks that types still hold
# (a rewrapped line can move an error away from its `// @ts-expect-error`).
set -e
cd "$(dirname "$0")/.."
pnpm format || true
pnpm run typecheck
pnpm lint
