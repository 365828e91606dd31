#!/usr/bin/env bash
# Re-make the explain screenshots in docs/ from the two test pages (needs chromium, and a
# CJK font for the Chinese page: Debian's fonts-wqy-microhei). 860 px high: the axis caption
# stays in now that the report has its page-type and structure rows.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
.venv/bin/scrapy-cx explain tests/pages/news_en.html tests/pages/portal_zh.html -o "$tmp"
for name in news_en portal_zh; do
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
        --force-device-scale-factor=1 --user-data-dir="$tmp/profile" --window-size=1040,860 \
        --screenshot="docs/explain-$name.png" "file://$tmp/$name.html" 2>/dev/null
done
ls -l docs/explain-*.png
