#!/bin/sh
# On a Mac (the release workflow's macOS job), for one darwin executable:
#  1. the file as `npm run release` signed it (our offline ad-hoc signer, scripts/lib/codesign-adhoc.ts):
#     Apple's codesign must find it valid, strictly, and it must launch: this is the check of our
#     signer that no Linux machine can make;
#  2. then Apple's codesign signs it again, ad hoc, and the same checks run, our verifier
#     (scripts/verify-macos.ts) included: the file that ships is signed by Apple's own tool.
# Launching means --version, then the service answering /health: Bun's JIT must be allowed under
# the signature (no hardened runtime). Usage: scripts/macos-resign.sh FILE
set -eu
file=$1
version=$(node -p 'require("./package.json").version')
chmod +x "$file"

launch() {
  out=$("$file" --version)
  case "$out" in
    "shortener $version ("*) echo "$out" ;;
    *) echo "macos-resign: $file --version printed: $out" >&2; exit 1 ;;
  esac
  dir=$(mktemp -d)
  "$file" --port 18080 --host 127.0.0.1 --db "$dir/shortener.db" > "$dir/log" 2>&1 &
  pid=$!
  ok=1
  for _ in $(seq 1 50); do
    if curl -fsS http://127.0.0.1:18080/health >/dev/null 2>&1; then ok=0; break; fi
    sleep 0.2
  done
  kill -TERM "$pid"
  wait "$pid" || { echo "macos-resign: the service did not stop cleanly" >&2; cat "$dir/log" >&2; exit 1; }
  [ "$ok" -eq 0 ] || { echo "macos-resign: /health never answered" >&2; cat "$dir/log" >&2; exit 1; }
  rm -rf "$dir"
}

check() {
  codesign --verify --strict --verbose=4 "$file"
  codesign --display --verbose=4 "$file" 2>&1 | grep -E '^(Identifier|Format|CodeDirectory|Signature|Hash type|Executable Segment)' || true
  node_modules/.bin/bun scripts/verify-macos.ts "$file"
  launch
}

echo "== as built (our signature)"
check
echo "== signed again by Apple's codesign"
codesign --force --sign - --identifier shortener "$file"
check
echo "macos-resign: $file verified and launched with both signatures"
