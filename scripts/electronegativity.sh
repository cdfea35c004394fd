#!/usr/bin/env bash
# Electron security scan: Doyensec's electronegativity over main/ (the Electron entry, window and
# session hardening, preload, IPC registration), findings of high severity only.
# electronegativity exits 0 whatever it finds, so its SARIF report is read here: every finding is
# listed, and any not in scripts/electronegativity-reviewed.txt (reviewed false positives, each
# with its reason) fails this script (exit 1). Exit 2: the scanner is missing or failed.
#
#   bash scripts/electronegativity.sh            # needs the devDependency @doyensec/electronegativity
#   ELECTRONEGATIVITY_REPORT=out.sarif bash scripts/electronegativity.sh   # keep the SARIF report
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${ELECTRONEGATIVITY_BIN:-node_modules/.bin/electronegativity}"
if [ ! -x "$bin" ]; then
  echo "electronegativity: not installed (npm install --save-dev @doyensec/electronegativity)" >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
report="${ELECTRONEGATIVITY_REPORT:-$tmp/electronegativity.sarif}"
# Checks follow the Electron version the app ships, not the one electronegativity guesses.
electron_version="$(node -p "require('electron/package.json').version")"

"$bin" --input main --severity high --electron-version "$electron_version" --relative --output "$report" >"$tmp/log" 2>&1 || {
  cat "$tmp/log" >&2
  echo "electronegativity: the scan itself failed" >&2
  exit 2
}

node - "$report" scripts/electronegativity-reviewed.txt <<'NODE'
const fs = require('node:fs');
const sarif = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const reviewed = new Set(
  fs
    .readFileSync(process.argv[3], 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((l) => l.split(/\s+/).join(' ')),
);
const results = (sarif.runs ?? []).flatMap((run) => run.results ?? []);
let fresh = 0;
for (const r of results) {
  const where = r.locations?.[0]?.physicalLocation;
  const file = (where?.artifactLocation?.uri ?? '?').replace(/^(\.\/|main\/)/, '');
  const line = where?.region?.startLine ?? '?';
  const known = reviewed.has(`${r.ruleId} ${file}`);
  if (!known) fresh++;
  console.log(`${known ? 'reviewed' : 'NEW     '}  ${file}:${line}  ${r.ruleId}  ${r.message?.text ?? ''}`);
}
console.log(`electronegativity: ${results.length} high-severity finding(s) in main/, ${fresh} not reviewed`);
process.exit(fresh > 0 ? 1 : 0);
NODE
