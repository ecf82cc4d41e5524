#!/usr/bin/env bash
# Renders an HTML report of `klaraptor report --html` in a headless Chromium
# at a given page width and writes a PNG, to check how it reads in a real
# browser (issue 15: at 1400 px, plots wrap or scroll inside their box and
# nothing runs off the page). Also prints the page's layout width: the width
# the page needs (document scrollWidth); more than WIDTH means the page itself
# scrolls sideways.
#
# Usage: scripts/report-screenshot.sh REPORT.html OUT.png [WIDTH [HEIGHT]]
#   WIDTH default 1400, HEIGHT default 2000. Needs chromium (apt-get install
#   chromium).
set -euo pipefail
die() { echo "report-screenshot.sh: error: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: scripts/report-screenshot.sh REPORT.html OUT.png [WIDTH [HEIGHT]]"
html=$1 out=$2 width=${3:-1400} height=${4:-2000}
[ -f "$html" ] || die "no file '$html'"
[[ $width =~ ^[1-9][0-9]*$ && $height =~ ^[1-9][0-9]*$ ]] || die "WIDTH and HEIGHT are pixels, got '$width' '$height'"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || die "no chromium (apt-get install chromium)"
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --window-size="$width,$height")
"$browser" "${flags[@]}" --screenshot="$out" "file://$abs" >/dev/null 2>&1 ||
  die "chromium failed to render '$html'"
[ -s "$out" ] || die "chromium wrote no screenshot"
# The layout width: a copy of the page whose script writes the document's
# scrollWidth into its title, read back from the DOM Chromium dumps.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's#</body>#<script>document.title="scrollWidth=" + document.documentElement.scrollWidth;</script></body>#' \
  "$abs" > "$tmp/page.html"
dom=$("$browser" "${flags[@]}" --dump-dom "file://$tmp/page.html" 2>/dev/null || true)
sw=$(grep -o 'scrollWidth=[0-9]*' <<<"$dom" | head -1 | cut -d= -f2)
[ -n "$sw" ] || die "could not read the page's layout width"
echo "report-screenshot: $out ($width x $height); page layout width $sw px"
[ "$sw" -le "$width" ] || { echo "report-screenshot: the page is wider than $width px" >&2; exit 1; }
