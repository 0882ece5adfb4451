#!/usr/bin/env bash
# `just web`'s site: web/ and the compiled module into target/web/ (docs/web.md).
#   web/build.sh MODULE DEMO   (MODULE: twenty48_web.wasm; DEMO: the landing's fixture)
# - index.html: web/index.html with web/style.css and every script it names (in its order,
#   js/demo.js the landing's game as a link's fragment) inside it: one file, so a fresh
#   browser context reads no stylesheet and no script before it runs the page (issue 46: the
#   stylesheet and the script were two more round trips before the first board);
# - twenty48_web.wasm: the module, fetched as binary when the page is served over http(s)
#   (the page's head starts fetching and compiling it first of all);
# - js/wasm.js: the same in base64, loaded only from file://, where a page may fetch nothing;
#   it starts compiling the module as soon as it has run.
set -euo pipefail
module=$1
demo=$2
out=target/web
rm -rf "$out" && mkdir -p "$out/js"
cp "$module" "$out/twenty48_web.wasm"
{
    printf '// crates/web compiled to WebAssembly, in base64 (written by `just web`): loaded only from\n'
    printf '// file://, where the page cannot fetch twenty48_web.wasm.\nwindow.T48_WASM = "'
    base64 -w0 "$out/twenty48_web.wasm"
    printf '";\n'
    # Compiled at once, while the page's own script runs (js/engine.js waits for it).
    printf 'window.T48_WASM_COMPILING = (function () {\n'
    printf '  try {\n'
    printf '    const raw = atob(window.T48_WASM);\n'
    printf '    const bytes = new Uint8Array(raw.length);\n'
    printf '    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);\n'
    printf '    const compiling = WebAssembly.compile(bytes);\n'
    printf '    compiling.catch(() => {});\n'
    printf '    return compiling;\n'
    printf '  } catch (e) {\n'
    printf '    return null;\n'
    printf '  }\n'
    printf '})();\n'
} > "$out/js/wasm.js"
demo_js() {
    printf '// The game the landing replays (written by `just web` from %s).\n' "$demo"
    printf 'window.T48_DEMO = { fragment: "g='
    base64 -w0 "$demo" | tr '+/' '-_' | tr -d '='
    printf '" };\n'
}
scripts=$(grep -o '^<script src="js/[a-z0-9]*\.js"></script>$' web/index.html | sed 's/^<script src="//; s/"><\/script>$//')
[ -n "$scripts" ] || { echo "error: web/index.html names no scripts" >&2; exit 1; }
page=$(mktemp)
trap 'rm -f "$page"' EXIT
for s in $scripts; do
    printf '// ---- %s\n' "$s"
    if [ "$s" = js/demo.js ]; then
        demo_js
    else
        [ -f "web/$s" ] || { echo "error: web/index.html names $s, which is missing" >&2; exit 1; }
        cat "web/$s"
    fi
    printf '\n'
done > "$page"
# Text that would end the element it is put in early.
if grep -qi '</script' "$page" || grep -qi '</style' web/style.css; then
    echo "error: a script holds </script, or the stylesheet </style: they cannot go inside index.html" >&2
    exit 1
fi
grep -qx '<link rel="stylesheet" href="style.css">' web/index.html || { echo "error: web/index.html does not link style.css on a line of its own" >&2; exit 1; }
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
        '<link rel="stylesheet" href="style.css">') printf '<style>\n'; cat web/style.css; printf '</style>\n' ;;
        '<script src="js/'*'.js"></script>') ;;
        '</body>') printf '<script>\n'; cat "$page"; printf '</script>\n</body>\n' ;;
        *) printf '%s\n' "$line" ;;
    esac
done < web/index.html > "$out/index.html.tmp"
mv "$out/index.html.tmp" "$out/index.html"
echo "web page: file://$(pwd)/$out/index.html"
