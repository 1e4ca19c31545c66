#!/bin/sh
# On a Mac (the release workflow's macOS job): sign a darwin executable again with Apple's own
# codesign, ad hoc, check the result strictly, check that our offline verifier
# (scripts/verify-macos.ts, which CI runs on every build) agrees with Apple's tool, and launch it:
# --version, then the service answering /health. Usage: scripts/macos-resign.sh FILE
set -eu
file=$1
version=$(node -p 'require("./package.json").version')

codesign --force --sign - --identifier shortener "$file"
codesign --verify --strict --verbose=4 "$file"
codesign --display --verbose=4 "$file" 2>&1 | grep -E '^(Identifier|Format|CodeDirectory|Signature|Hash type)'
node_modules/.bin/bun scripts/verify-macos.ts "$file"

chmod +x "$file"
out=$("$file" --version)
case "$out" in
  "shortener $version ("*) echo "$out" ;;
  *) echo "macos-resign: $file --version printed: $out" >&2; exit 1 ;;
esac

# The service itself: Bun's JIT must be allowed under this signature (no hardened runtime).
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
echo "macos-resign: $file signed, verified, launched"
