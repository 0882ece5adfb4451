#!/usr/bin/env bash
# `just web`'s site: web/ and the compiled module into target/web/ (docs/web.md).
#   web/build.sh MODULE DEMO   (MODULE: twenty48_web.wasm; DEMO: the landing's fixture)
# - twenty48_web.wasm: the module, fetched as binary when the page is served over http(s);
# - js/wasm.js: the same in base64, loaded only from file://, where a page may fetch nothing;
# - js/demo.js: the game the landing replays, as a link's fragment;
# - js/page.js: every script of web/index.html, in its order, in one file (one request
#   instead of fourteen: the first board of a link is drawn about 100 ms sooner in a fresh
#   browser context), which target/web/index.html loads in their place.
set -euo pipefail
module=$1
demo=$2
out=target/web
rm -rf "$out" && mkdir -p "$out/js"
cp web/index.html web/style.css "$out/"
cp "$module" "$out/twenty48_web.wasm"
{
    printf '// crates/web compiled to WebAssembly, in base64 (written by `just web`): loaded only from\n'
    printf '// file://, where the page cannot fetch twenty48_web.wasm.\nwindow.T48_WASM = "'
    base64 -w0 "$out/twenty48_web.wasm"
    printf '";\n'
} > "$out/js/wasm.js"
{
    printf '// The game the landing replays (written by `just web` from %s).\n' "$demo"
    printf 'window.T48_DEMO = { fragment: "g='
    base64 -w0 "$demo" | tr '+/' '-_' | tr -d '='
    printf '" };\n'
} > "$out/js/demo.js"
scripts=$(grep -o '^<script src="js/[a-z0-9]*\.js"></script>$' web/index.html | sed 's/^<script src="//; s/"><\/script>$//')
[ -n "$scripts" ] || { echo "error: web/index.html names no scripts" >&2; exit 1; }
for s in $scripts; do
    if [ "$s" = js/demo.js ]; then src="$out/js/demo.js"; else src="web/$s"; fi
    [ -f "$src" ] || { echo "error: web/index.html names $s, which is missing" >&2; exit 1; }
    printf '// ---- %s\n' "$s"
    cat "$src"
    printf '\n'
done > "$out/js/page.js.tmp"
rm "$out/js/demo.js"
mv "$out/js/page.js.tmp" "$out/js/page.js"
sed -i -e '/^<script src="js\/[a-z0-9]*\.js"><\/script>$/d' -e 's|^</body>$|<script src="js/page.js"></script>\n</body>|' "$out/index.html"
echo "web page: file://$(pwd)/$out/index.html"
